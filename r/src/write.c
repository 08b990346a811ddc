/*
 * write.c: segments R makes: shm_zeros() (filled in place by R, then
 * shm_seal()), shm_create() (one copy of a vector), and the early
 * detach of an unsealed one that shm_remove() removed.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmids_r.h"

SEXP
shmr_zeros(SEXP name, SEXP dim, SEXP type, SEXP mode)
{
	const char *nm = str1(name, "shm_zeros");
	int t = shmids_type_parse(str1(type, "shm_zeros"));
	int m = Rf_asInteger(mode);
	R_xlen_t nd = XLENGTH(dim);
	double r, c = 1;
	struct seg *s;
	struct shmids_array a;
	void *shm;
	int e;

	if (t != SHMIDS_F64 && t != SHMIDS_I32 && t != SHMIDS_RAW)
		Rf_error("shm_zeros: type: \"f64\", \"i32\" or \"raw\" is wanted (R has no f32 or i64)");
	if (!Rf_isNumeric(dim) || nd < 1 || nd > 2)
		Rf_error("shm_zeros: dim: a length, or c(rows, cols), is wanted");
	r = Rf_asReal(dim);
	if (nd == 2)
		c = REAL(PROTECT(Rf_coerceVector(dim, REALSXP)))[1];
	if (nd == 2)
		UNPROTECT(1);
	if (ISNAN(r) || ISNAN(c) || r < 0 || c < 0 || r != floor(r) ||
	    c != floor(c))
		Rf_error("shm_zeros: dim: whole numbers, 0 or more, are wanted");
	if (r > 9007199254740992.0 || (nd == 2 && (r > INT_MAX || c > INT_MAX)))
		Rf_error("shm_zeros: dim: too large for R");
	if (nd == 2 && c == 0)
		Rf_error("shm_zeros: dim: a table has 1 column or more (format-spec.md 2.7)");
	if (m == NA_INTEGER || m < 0 || m > 0777)
		Rf_error("shm_zeros: mode: permissions 0 to 0777 are wanted");
	if (nd == 1)
		shm = shmids_create_array(nm, m, t, (size_t)r);
	else {
		shm = shmids_create_matrix(nm, m, t, (size_t)r, (size_t)c,
		    SHMIDS_COLMAJOR);
	}
	if (shm == NULL)
		error_explained("shm_zeros", NULL, errno);
	if (shmids_array(shm, &a) == -1 || (s = calloc(1, sizeof *s)) == NULL) {
		e = errno;
		(void)shmids_remove(shmids_label(shm));
		shmids_close(shm);
		error_explained("shm_zeros", NULL, e);
	}
	s->shm = shm;
	s->data = a.data;
	s->n = (R_xlen_t)a.count;
	s->type = t;
	s->writable = 1;
	snprintf(s->label, sizeof s->label, "%s", shmids_label(shm));
	return seg_wrap(s, (int)nd, (size_t)r, (size_t)c);
}

SEXP
shmr_seal(SEXP x)
{
	struct seg *s = seg_arg(x, "shm_seal");

	if (!s->writable)
		Rf_error("shm_seal: %s: attached read-only, not made by shm_zeros()", s->label);
	if (R_altrep_data2(x) != R_NilValue)
		Rf_error("shm_seal: %s: R wrote a copy, not the segment", s->label);
	if (shmids_seal(s->shm) == -1)
		error_explained("shm_seal", s->label, errno);
	s->sealed = 1;
	return Rf_mkString(s->label);
}

/* Detach now an unsealed segment of ours that shm_remove() removed. */
SEXP
shmr_detach(SEXP x)
{
	SEXP p;
	struct seg *s;

	seg_arg(x, "shm_remove");
	p = R_altrep_data1(x);
	s = R_ExternalPtrAddr(p);
	/* Attached, or sealed: R objects over it stay valid (the mapping
	 * outlives the removal), and go when collected. */
	if (!s->writable || s->sealed)
		return R_NilValue;
	R_ClearExternalPtr(p);
	s->sealed = 1;		/* removed by the caller: no remove here */
	seg_free(s);
	return R_NilValue;
}

/*
 * shm_create(name, x): one copy of x into a new sealed segment;
 * returns its label.  A matrix becomes a column-major table.
 */
SEXP
shmr_create(SEXP name, SEXP x, SEXP mode)
{
	SEXP w, lab;
	struct seg *s;

	PROTECT(w = shmr_zeros(name, Rf_isMatrix(x) ?
	    Rf_getAttrib(x, R_DimSymbol) : Rf_ScalarReal((double)XLENGTH(x)),
	    Rf_mkString(TYPEOF(x) == REALSXP ? "f64" : TYPEOF(x) == INTSXP ?
	    "i32" : "raw"), mode));
	s = seg_of(w);
	if (s->n > 0)
		memcpy(s->data, DATAPTR_RO(x), (size_t)s->n * elsize(x));
	PROTECT(lab = shmr_seal(w));
	/* detach now, not when w is collected */
	R_ClearExternalPtr(R_altrep_data1(w));
	s->sealed = 1;
	seg_free(s);
	UNPROTECT(2);
	return lab;
}
