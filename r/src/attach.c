/*
 * attach.c: shm_attach(), and what a segment object says of itself
 * (its label, its order).
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmids_r.h"

/*
 * shape: the shape as R sees it: rows x cols of a column-major table,
 * and of a table of one row or one column (or none), whose two orders
 * are the same bytes; a row-major one of 2 rows and 2 columns or more
 * as its transpose (cols x rows: R cannot view it in place as the
 * matrix meant); format-spec.md 2.7.  *order: 'F' where R's view is
 * the matrix meant, 'C' where it is the transpose.
 */
static int
shape(void *shm, size_t *rows, size_t *cols, int *order)
{
	struct shmids_dims d;

	if (shmids_dims(shm, &d) == -1)
		return -1;
	*order = d.order;
	if (d.ndim == 2 && (d.order == SHMIDS_COLMAJOR || d.rows <= 1 ||
	    d.cols <= 1)) {
		*order = SHMIDS_COLMAJOR;
		*rows = d.rows;
		*cols = d.cols;
	} else {
		*rows = d.cols;
		*cols = d.rows;
	}
	return d.ndim;
}

/*
 * One copy into a double vector, for the types R lacks: f32 (R's NA,
 * 7f8007a2, becomes R's NA; other values widen exactly) and i64
 * (INT64_MIN, bit64's NA, becomes NA; the others the nearest double:
 * exact up to 2^53).  stream.c's messages too.
 */
SEXP
widen(const void *data, size_t n, int type)
{
	SEXP x = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t)n));
	double *d = REAL(x);
	size_t i;

	if (type == SHMIDS_F32) {
		const float *f = data;
		uint32_t b;

		for (i = 0; i < n; i++) {
			memcpy(&b, &f[i], sizeof b);
			d[i] = b == 0x7f8007a2u ? NA_REAL : (double)f[i];
		}
	} else {
		const int64_t *v = data;

		for (i = 0; i < n; i++)
			d[i] = v[i] == INT64_MIN ? NA_REAL : (double)v[i];
	}
	UNPROTECT(1);
	return x;
}

SEXP
shmr_attach(SEXP label, SEXP timeout, SEXP direct)
{
	const char *l = str1(label, "shm_attach");
	double t = Rf_asReal(timeout);
	struct shmids_array a;
	struct seg *s;
	size_t rows, cols;
	int ndim, order, e;
	void *shm;
	SEXP x, dim;

	if (ISNAN(t) || t < 0)
		Rf_error("shm_attach: timeout: a number of seconds, 0 or more, is wanted");
	shm = shmids_open_flags(l, 0, t);
	if (shm == NULL)
		error_explained("shm_attach", l, errno);
	if (shmids_array(shm, &a) == -1 ||
	    (ndim = shape(shm, &rows, &cols, &order)) == -1) {
		e = errno;
		shmids_close(shm);
		error_explained("shm_attach", l, e);
	}
	if (a.count > (size_t)R_XLEN_T_MAX || (ndim == 2 &&
	    (rows > INT_MAX || cols > INT_MAX))) {
		shmids_close(shm);
		Rf_error("shm_attach: %s: %zu elements: too many for R", l,
		    a.count);
	}
	if (a.type == SHMIDS_F32 || a.type == SHMIDS_I64) {
		PROTECT(x = widen(a.data, a.count, a.type));
		shmids_close(shm);
		if (ndim == 2) {
			PROTECT(dim = Rf_allocVector(INTSXP, 2));
			INTEGER(dim)[0] = (int)rows;
			INTEGER(dim)[1] = (int)cols;
			Rf_setAttrib(x, R_DimSymbol, dim);
			UNPROTECT(1);
		}
		UNPROTECT(1);
		return x;
	}
	s = calloc(1, sizeof *s);
	if (s == NULL) {
		shmids_close(shm);
		Rf_error("shm_attach: %s: out of memory", l);
	}
	s->shm = shm;
	s->data = a.data;
	s->n = (R_xlen_t)a.count;
	s->type = a.type;
	s->direct = Rf_asLogical(direct) == TRUE;
	s->order = order;
	snprintf(s->label, sizeof s->label, "%s", shmids_label(shm));
	x = seg_wrap(s, ndim, rows, cols);
	if (s->direct)
		MARK_NOT_MUTABLE(x);
	return x;
}

/* The label of a segment object, or NA for another object. */
SEXP
shmr_label(SEXP x)
{
	SEXP p;
	struct seg *s;

	if (!seg_is(x))
		return Rf_ScalarString(NA_STRING);
	p = R_altrep_data1(x);
	s = R_ExternalPtrAddr(p);
	return s == NULL ? Rf_ScalarString(NA_STRING) : Rf_mkString(s->label);
}

/*
 * The order of a segment object's table as R views it: "F" the matrix
 * meant, "C" its transpose (shape()); NA for another object.
 */
SEXP
shmr_order(SEXP x)
{
	SEXP p;
	struct seg *s;
	char o[2] = { 0, 0 };

	if (!seg_is(x))
		return Rf_ScalarString(NA_STRING);
	p = R_altrep_data1(x);
	s = R_ExternalPtrAddr(p);
	if (s == NULL)
		return Rf_ScalarString(NA_STRING);
	o[0] = s->order == 'F' ? 'F' : 'C';
	return Rf_mkString(o);
}
