/*
 * shmids_r.c: R's side of libshmids, through shmids.h alone.
 *
 * An attached segment is an ALTREP vector (double, integer or raw)
 * whose data is the segment's payload itself: nothing is copied until
 * R asks for a pointer it may write through (see seg_dataptr()).  Its
 * data1 is an external pointer to a struct seg, whose finalizer
 * detaches the segment (shmids_close()) once no R object refers to it;
 * data2 is R_NilValue, or the private copy made for a writer.
 *
 * A segment made by shm_zeros() is attached read-write: R writes into
 * it through DATAPTR, and shm_seal() marks it ready.  Collected (or R
 * ending) before the seal, it is removed, never sealed half filled.
 *
 * Format rules stay in the library: this file converts types and
 * lifetimes, and asks shmids.h for everything else.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <shmids.h>

#define R_NO_REMAP
#include <R.h>
#include <Rinternals.h>
#include <R_ext/Altrep.h>
#include <R_ext/Rdynload.h>

struct seg {
	void		*shm;		/* header; NULL once detached */
	void		*data;		/* payload */
	R_xlen_t	 n;		/* elements */
	int		 type;		/* enum shmids_type */
	int		 writable;	/* made here, attached read-write */
	int		 sealed;
	int		 direct;	/* writable DATAPTR gets the segment */
	int		 order;		/* 'C', 'F' (format-spec.md 2.7) */
	char		 label[SHMIDS_LABEL_MAX + 1];
};

static R_altrep_class_t seg_real, seg_int, seg_raw;

/* err: an R error "what: label: explanation", in the tools' words. */
static void
err(const char *what, const char *label, int e)
{
	char buf[SHMIDS_EXPLAIN_MAX];

	shmids_explain(buf, sizeof buf, label, e);
	if (label != NULL)
		Rf_error("%s: %s: %s", what, label, buf);
	Rf_error("%s: %s", what, buf);
}

static void
seg_free(struct seg *s)
{
	if (s->shm != NULL) {
		if (s->writable && !s->sealed)
			(void)shmids_remove(s->label);
		(void)shmids_close(s->shm);
		s->shm = NULL;
	}
	free(s);
}

static void
seg_finalize(SEXP ptr)
{
	struct seg *s = R_ExternalPtrAddr(ptr);

	if (s != NULL) {
		R_ClearExternalPtr(ptr);
		seg_free(s);
	}
}

static struct seg *
seg_of(SEXP x)
{
	SEXP p = R_altrep_data1(x);
	struct seg *s = R_ExternalPtrAddr(p);

	if (s == NULL || s->shm == NULL)
		Rf_error("shmids: the segment was detached");
	return s;
}

/*
 * The data R reads: the private copy once one was made, else the
 * segment's payload.
 */
static const void *
seg_ro(SEXP x)
{
	SEXP copy = R_altrep_data2(x);

	if (copy != R_NilValue)
		return DATAPTR_RO(copy);
	return seg_of(x)->data;
}

static R_xlen_t
seg_length(SEXP x)
{
	SEXP copy = R_altrep_data2(x);

	if (copy != R_NilValue)
		return XLENGTH(copy);
	return seg_of(x)->n;
}

static size_t
elsize(SEXP x)
{
	switch (TYPEOF(x)) {
	case REALSXP:
		return sizeof(double);
	case INTSXP:
		return sizeof(int);
	default:
		return 1;
	}
}

/*
 * DATAPTR(x, writable): R asks for a writable pointer both to write
 * (x[i] <- v on an unshared x) and, in older code, merely to read
 * (REAL(x)).  A segment made here and not yet sealed is writable: its
 * payload is returned, and R's writes land in the segment; once
 * sealed, it is treated as an attached one.  An attached one is
 * mapped read-only (a write would be SIGSEGV): the first writable
 * request makes one private copy, and x is that copy from then on
 * (R's value semantics: the segment never changes under its readers).
 * A read-only request never copies.  Much of R asks for a writable
 * pointer only to read (colSums(), ==, c(), identical(): REAL()), so
 * shm_attach(pointer = "segment") hands out the segment's pointer
 * there too, and marks x not mutable: R then duplicates x (a copy,
 * seg_duplicate()) before it writes.  C code that writes through
 * REAL() of an argument regardless of R's rules gets SIGSEGV.
 */
static void *
seg_dataptr(SEXP x, Rboolean writable)
{
	struct seg *s;
	SEXP copy = R_altrep_data2(x);

	if (copy != R_NilValue)
		return DATAPTR(copy);
	s = seg_of(x);
	if (!writable || (s->writable && !s->sealed) || s->direct)
		return s->data;
	copy = Rf_allocVector(TYPEOF(x), s->n);
	if (s->n > 0)
		memcpy(DATAPTR(copy), s->data, (size_t)s->n * elsize(x));
	R_set_altrep_data2(x, copy);
	return DATAPTR(copy);
}

static const void *
seg_dataptr_or_null(SEXP x)
{
	return seg_ro(x);
}

static double
real_elt(SEXP x, R_xlen_t i)
{
	return ((const double *)seg_ro(x))[i];
}

static int
int_elt(SEXP x, R_xlen_t i)
{
	return ((const int *)seg_ro(x))[i];
}

static Rbyte
raw_elt(SEXP x, R_xlen_t i)
{
	return ((const Rbyte *)seg_ro(x))[i];
}

static R_xlen_t
region(SEXP x, R_xlen_t i, R_xlen_t n, void *buf, size_t size)
{
	R_xlen_t len = seg_length(x);

	if (i >= len)
		return 0;
	if (n > len - i)
		n = len - i;
	memcpy(buf, (const char *)seg_ro(x) + (size_t)i * size,
	    (size_t)n * size);
	return n;
}

static R_xlen_t
real_region(SEXP x, R_xlen_t i, R_xlen_t n, double *buf)
{
	return region(x, i, n, buf, sizeof *buf);
}

static R_xlen_t
int_region(SEXP x, R_xlen_t i, R_xlen_t n, int *buf)
{
	return region(x, i, n, buf, sizeof *buf);
}

static R_xlen_t
raw_region(SEXP x, R_xlen_t i, R_xlen_t n, Rbyte *buf)
{
	return region(x, i, n, buf, sizeof *buf);
}

/*
 * sum() of doubles as R's own rsum() does it (summary.c): a long
 * double accumulator, NaNs skipped with na.rm.  R's NA and NaN
 * propagate as the additions make them.
 */
static SEXP
real_sum(SEXP x, Rboolean narm)
{
	const double *d = seg_ro(x);
	R_xlen_t i, n = seg_length(x);
	long double t = 0.0;

	for (i = 0; i < n; i++)
		if (!narm || !ISNAN(d[i]))
			t += d[i];
	if (t > DBL_MAX)
		return Rf_ScalarReal(R_PosInf);
	if (t < -DBL_MAX)
		return Rf_ScalarReal(R_NegInf);
	return Rf_ScalarReal((double)t);
}

/*
 * duplicate(): a new ALTREP over the same segment, no copy, but for
 * pointer = "segment" (below) and a private copy already made.
 * Attached read-only, the duplicate copies when R writes to it
 * (seg_dataptr()).  Being filled (shm_zeros(), not yet sealed), the
 * duplicate is the segment too: R duplicates whatever a function call
 * left referenced before it writes, and the writes must reach the
 * segment, so a filling segment has reference semantics, as
 * bigmemory's matrices have.  For pointer = "segment" the duplicate is
 * what R writes next, through the pointer: it must be a copy.
 */
static SEXP
seg_duplicate(SEXP x, Rboolean deep)
{
	SEXP copy = R_altrep_data2(x), ans;
	struct seg *s;
	R_xlen_t n;

	(void)deep;
	s = seg_of(x);
	if (copy == R_NilValue && !s->direct)
		return R_new_altrep(TYPEOF(x) == REALSXP ? seg_real :
		    TYPEOF(x) == INTSXP ? seg_int : seg_raw,
		    R_altrep_data1(x), R_NilValue);
	n = seg_length(x);
	PROTECT(ans = Rf_allocVector(TYPEOF(x), n));
	if (n > 0)
		memcpy(DATAPTR(ans), seg_ro(x), (size_t)n * elsize(x));
	UNPROTECT(1);
	return ans;
}

/* serialize(), saveRDS(): as an ordinary vector (no state: NULL). */
static SEXP
seg_serialized_state(SEXP x)
{
	(void)x;
	return NULL;
}

static Rboolean
seg_inspect(SEXP x, int pre, int deep, int pvec,
    void (*inspect_subtree)(SEXP, int, int, int))
{
	SEXP p = R_altrep_data1(x);
	struct seg *s = R_ExternalPtrAddr(p);

	(void)pre;
	(void)deep;
	(void)pvec;
	(void)inspect_subtree;
	Rprintf(" shmids '%s' %s%s\n", s != NULL ? s->label : "(detached)",
	    R_altrep_data2(x) != R_NilValue ? "copied" :
	    s != NULL && s->writable ? "read-write" :
	    s != NULL && s->direct ? "in place, pointer" : "in place",
	    s != NULL && s->writable && !s->sealed ? ", filling" : "");
	return TRUE;
}

static void
set_common(R_altrep_class_t c)
{
	R_set_altrep_Length_method(c, seg_length);
	R_set_altrep_Duplicate_method(c, seg_duplicate);
	R_set_altrep_Serialized_state_method(c, seg_serialized_state);
	R_set_altrep_Inspect_method(c, seg_inspect);
	R_set_altvec_Dataptr_method(c, seg_dataptr);
	R_set_altvec_Dataptr_or_null_method(c, seg_dataptr_or_null);
}

static const char *
str1(SEXP x, const char *what)
{
	if (!Rf_isString(x) || XLENGTH(x) != 1 || STRING_ELT(x, 0) == NA_STRING)
		Rf_error("%s: a single string is wanted", what);
	return CHAR(STRING_ELT(x, 0));
}

/*
 * wrap: the R object over s: an ALTREP vector of s's type, with dim
 * c(rows, cols) for a table.  s is owned by the external pointer from
 * here on.
 */
static SEXP
wrap(struct seg *s, int ndim, size_t rows, size_t cols)
{
	SEXP ptr, x, dim;
	R_altrep_class_t c;

	ptr = R_MakeExternalPtr(s, R_NilValue, R_NilValue);
	PROTECT(ptr);
	R_RegisterCFinalizerEx(ptr, seg_finalize, TRUE);
	c = s->type == SHMIDS_F64 ? seg_real :
	    s->type == SHMIDS_I32 ? seg_int : seg_raw;
	PROTECT(x = R_new_altrep(c, ptr, R_NilValue));
	if (ndim == 2) {
		PROTECT(dim = Rf_allocVector(INTSXP, 2));
		INTEGER(dim)[0] = (int)rows;
		INTEGER(dim)[1] = (int)cols;
		Rf_setAttrib(x, R_DimSymbol, dim);
		UNPROTECT(1);
	}
	UNPROTECT(2);
	return x;
}

/*
 * shape: the shape as R sees it: rows x cols of a column-major table;
 * a row-major one as its transpose (cols x rows: R cannot view it in
 * place as the matrix meant, format-spec.md 2.7); *order its order.
 */
static int
shape(void *shm, size_t *rows, size_t *cols, int *order)
{
#ifdef SHMIDS_COLMAJOR
	struct shmids_dims d;

	if (shmids_dims(shm, &d) == -1)
		return -1;
	*order = d.order;
	if (d.ndim == 2 && d.order == SHMIDS_COLMAJOR) {
		*rows = d.rows;
		*cols = d.cols;
	} else {
		*rows = d.cols;
		*cols = d.rows;
	}
	return d.ndim;
#else
	struct shmids_shape sh;

	if (shmids_shape(shm, &sh) == -1)
		return -1;
	*order = 'C';
	*rows = sh.cols;
	*cols = sh.rows;
	return sh.ndim;
#endif
}

/*
 * One copy into a double vector, for the types R lacks: f32 (R's NA,
 * 7f8007a2, becomes R's NA; other values widen exactly) and i64
 * (INT64_MIN, bit64's NA, becomes NA; the others the nearest double:
 * exact up to 2^53).
 */
static SEXP
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

SEXP shmr_attach(SEXP label, SEXP timeout, SEXP direct);
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
	shm = shmids_open_wait(l, t);
	if (shm == NULL)
		err("shm_attach", l, errno);
	if (shmids_array(shm, &a) == -1 ||
	    (ndim = shape(shm, &rows, &cols, &order)) == -1) {
		e = errno;
		shmids_close(shm);
		err("shm_attach", l, e);
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
	x = wrap(s, ndim, rows, cols);
	if (s->direct)
		MARK_NOT_MUTABLE(x);
	return x;
}

SEXP shmr_zeros(SEXP name, SEXP dim, SEXP type, SEXP mode);
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
#ifdef SHMIDS_COLMAJOR
		shm = shmids_create_matrix(nm, m, t, (size_t)r, (size_t)c,
		    SHMIDS_COLMAJOR);
#else
		Rf_error("shm_zeros: a matrix needs a libshmids with column-major tables (1.4)");
#endif
	}
	if (shm == NULL)
		err("shm_zeros", NULL, errno);
	if (shmids_array(shm, &a) == -1 || (s = calloc(1, sizeof *s)) == NULL) {
		e = errno;
		(void)shmids_remove(shmids_label(shm));
		shmids_close(shm);
		err("shm_zeros", NULL, e);
	}
	s->shm = shm;
	s->data = a.data;
	s->n = (R_xlen_t)a.count;
	s->type = t;
	s->writable = 1;
	snprintf(s->label, sizeof s->label, "%s", shmids_label(shm));
	return wrap(s, (int)nd, (size_t)r, (size_t)c);
}

static struct seg *
seg_arg(SEXP x, const char *what)
{
	SEXP p;
	struct seg *s;

	if (!ALTREP(x) || (!R_altrep_inherits(x, seg_real) &&
	    !R_altrep_inherits(x, seg_int) && !R_altrep_inherits(x, seg_raw)))
		Rf_error("%s: not a segment attached by shmids", what);
	p = R_altrep_data1(x);
	s = R_ExternalPtrAddr(p);
	if (s == NULL || s->shm == NULL)
		Rf_error("%s: the segment was detached", what);
	return s;
}

SEXP shmr_seal(SEXP x);
SEXP
shmr_seal(SEXP x)
{
	struct seg *s = seg_arg(x, "shm_seal");

	if (!s->writable)
		Rf_error("shm_seal: %s: attached read-only, not made by shm_zeros()", s->label);
	if (R_altrep_data2(x) != R_NilValue)
		Rf_error("shm_seal: %s: R wrote a copy, not the segment", s->label);
	if (shmids_seal(s->shm) == -1)
		err("shm_seal", s->label, errno);
	s->sealed = 1;
	return Rf_mkString(s->label);
}

/* The label of a segment object, or NA for another object. */
SEXP shmr_label(SEXP x);
SEXP
shmr_label(SEXP x)
{
	SEXP p;
	struct seg *s;

	if (!ALTREP(x) || (!R_altrep_inherits(x, seg_real) &&
	    !R_altrep_inherits(x, seg_int) && !R_altrep_inherits(x, seg_raw)))
		return Rf_ScalarString(NA_STRING);
	p = R_altrep_data1(x);
	s = R_ExternalPtrAddr(p);
	return s == NULL ? Rf_ScalarString(NA_STRING) : Rf_mkString(s->label);
}

/* The order of a segment object's table: "C", "F"; NA for another. */
SEXP shmr_order(SEXP x);
SEXP
shmr_order(SEXP x)
{
	SEXP p;
	struct seg *s;
	char o[2] = { 0, 0 };

	if (!ALTREP(x) || (!R_altrep_inherits(x, seg_real) &&
	    !R_altrep_inherits(x, seg_int) && !R_altrep_inherits(x, seg_raw)))
		return Rf_ScalarString(NA_STRING);
	p = R_altrep_data1(x);
	s = R_ExternalPtrAddr(p);
	if (s == NULL)
		return Rf_ScalarString(NA_STRING);
	o[0] = s->order == 'F' ? 'F' : 'C';
	return Rf_mkString(o);
}

/* Detach now an unsealed segment of ours that shm_remove() removed. */
SEXP shmr_detach(SEXP x);
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

SEXP shmr_remove(SEXP label);
SEXP
shmr_remove(SEXP label)
{
	const char *l = str1(label, "shm_remove");

	if (shmids_remove(l) == -1)
		err("shm_remove", l, errno);
	return R_NilValue;
}

/*
 * shm_create(name, x): one copy of x into a new sealed segment;
 * returns its label.  A matrix becomes a column-major table.
 */
#ifndef SHMIDS_COLMAJOR
/*
 * A library without column-major tables (before 1.4): the matrix is
 * written row by row (a version-2 table), transposed on the copy, so
 * that shm-expand and numpy still see the matrix R meant.
 */
static SEXP
create_rowmajor(SEXP name, SEXP x, SEXP mode)
{
	const char *nm = str1(name, "shm_create");
	SEXP dim = Rf_getAttrib(x, R_DimSymbol);
	size_t r = (size_t)INTEGER(dim)[0], c = (size_t)INTEGER(dim)[1];
	size_t es = elsize(x), i, j;
	int t = TYPEOF(x) == REALSXP ? SHMIDS_F64 : TYPEOF(x) == INTSXP ?
	    SHMIDS_I32 : SHMIDS_RAW;
	struct shmids_array a;
	const char *src = DATAPTR_RO(x);
	char lab[SHMIDS_LABEL_MAX + 1];
	void *shm;

	if (c == 0)
		Rf_error("shm_create: dim: a table has 1 column or more (format-spec.md 2.7)");
	shm = shmids_create_table(nm, Rf_asInteger(mode), t, r, c);
	if (shm == NULL)
		err("shm_create", NULL, errno);
	shmids_array(shm, &a);
	for (i = 0; i < r; i++)
		for (j = 0; j < c; j++)
			memcpy((char *)a.data + (i * c + j) * es,
			    src + (j * r + i) * es, es);
	snprintf(lab, sizeof lab, "%s", shmids_label(shm));
	shmids_seal(shm);
	shmids_close(shm);
	return Rf_mkString(lab);
}
#endif

SEXP shmr_create(SEXP name, SEXP x, SEXP mode);
SEXP
shmr_create(SEXP name, SEXP x, SEXP mode)
{
	SEXP w, lab;
	struct seg *s;

#ifndef SHMIDS_COLMAJOR
	if (Rf_isMatrix(x))
		return create_rowmajor(name, x, mode);
#endif
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

/* shm_ls(): the columns of shm-ls -J, gathered by shmids_scan_shape(). */
struct lsrow {
	char	 id[SHMIDS_LABEL_MAX + 1], label[SHMIDS_LABEL_MAX + 1];
	char	 name[SHMIDS_NAME_MAX + 1], type[8], state[16], shape[48];
	char	 order[2];
	int	 shmid, key, mode, uid, gid, cpid, lpid;
	double	 count, size, nattch, ctime, atime, dtime;
};

struct lsacc {
	struct lsrow	*r;
	size_t		 n, cap;
	int		 err;
};

#ifdef SHMIDS_COLMAJOR
#define SCAN_SHAPE	shmids_scan_dims
#define SHAPE_T		struct shmids_dims	/* as meant: 1.4 */
#else
#define SCAN_SHAPE	shmids_scan_shape
#define SHAPE_T		struct shmids_shape
#endif

static int
ls_one(const struct shmids_info *si, const SHAPE_T *sh, void *arg)
{
	struct lsacc *acc = arg;
	struct lsrow *r;

	if (si->ours != 1)
		return 0;
	if (acc->n == acc->cap) {
		size_t cap = acc->cap ? 2 * acc->cap : 16;
		void *p = realloc(acc->r, cap * sizeof *acc->r);

		if (p == NULL) {
			acc->err = ENOMEM;
			return 1;
		}
		acc->r = p;
		acc->cap = cap;
	}
	r = &acc->r[acc->n++];
	memset(r, 0, sizeof *r);
	snprintf(r->id, sizeof r->id, "%s", si->id);
	snprintf(r->label, sizeof r->label, "%s", si->label);
	snprintf(r->name, sizeof r->name, "%s", si->name ? si->name : "");
	snprintf(r->type, sizeof r->type, "%s",
	    shmids_type_name(si->type) ? shmids_type_name(si->type) : "");
	snprintf(r->state, sizeof r->state, "%s", si->state == 'r' ? "ready" :
	    si->state == 'w' ? "filling" : "dead");
#ifdef SHMIDS_COLMAJOR
	r->order[0] = sh->order == SHMIDS_COLMAJOR ? 'F' : 'C';
#else
	r->order[0] = 'C';
#endif
	if (sh->ndim == 2)
		snprintf(r->shape, sizeof r->shape, "%zux%zu", sh->rows,
		    sh->cols);
	else
		snprintf(r->shape, sizeof r->shape, "%zu", si->count);
	r->shmid = si->shmid;
	r->key = si->key;
	r->mode = (int)si->mode;
	r->uid = (int)si->uid;
	r->gid = (int)si->gid;
	r->cpid = (int)si->cpid;
	r->lpid = (int)si->lpid;
	r->count = (double)si->count;
	r->size = (double)si->size;
	r->nattch = (double)si->nattch;
	r->ctime = (double)si->ctime;
	r->atime = (double)si->atime;
	r->dtime = (double)si->dtime;
	return 0;
}

SEXP shmr_ls(SEXP all);
SEXP
shmr_ls(SEXP all)
{
	static const char *names[] = { "id", "label", "name", "shmid",
	    "key", "type", "count", "shape", "state", "uid", "gid", "mode",
	    "nattch", "size", "cpid", "lpid", "created", "attached",
	    "detached", "order" };
	const int nc = (int)(sizeof names / sizeof names[0]);
	struct lsacc acc = { NULL, 0, 0, 0 };
	SEXP df, nm, col, rn;
	size_t i;
	int j;

	if (SCAN_SHAPE(ls_one, &acc, Rf_asLogical(all) == TRUE ?
	    SHMIDS_ALL : 0) == -1 || acc.err) {
		free(acc.r);
		err("shm_ls", NULL, acc.err ? acc.err : errno);
	}
	PROTECT(df = Rf_allocVector(VECSXP, nc));
	PROTECT(nm = Rf_allocVector(STRSXP, nc));
	for (j = 0; j < nc; j++) {
		SET_STRING_ELT(nm, j, Rf_mkChar(names[j]));
		switch (j) {
		case 0: case 1: case 2: case 4: case 5: case 7: case 8:
		case 11: case 19:
			col = Rf_allocVector(STRSXP, (R_xlen_t)acc.n);
			break;
		case 3: case 9: case 10: case 14: case 15:
			col = Rf_allocVector(INTSXP, (R_xlen_t)acc.n);
			break;
		default:
			col = Rf_allocVector(REALSXP, (R_xlen_t)acc.n);
		}
		SET_VECTOR_ELT(df, j, col);
		for (i = 0; i < acc.n; i++) {
			struct lsrow *r = &acc.r[i];
			char b[32];

			switch (j) {
			case 0: SET_STRING_ELT(col, i, Rf_mkChar(r->id)); break;
			case 1: SET_STRING_ELT(col, i, Rf_mkChar(r->label)); break;
			case 2: SET_STRING_ELT(col, i, Rf_mkChar(r->name)); break;
			case 3: INTEGER(col)[i] = r->shmid; break;
			case 4:
				snprintf(b, sizeof b, "0x%08x", (unsigned)r->key);
				SET_STRING_ELT(col, i, Rf_mkChar(b));
				break;
			case 5: SET_STRING_ELT(col, i, Rf_mkChar(r->type)); break;
			case 6: REAL(col)[i] = r->count; break;
			case 7: SET_STRING_ELT(col, i, Rf_mkChar(r->shape)); break;
			case 8: SET_STRING_ELT(col, i, Rf_mkChar(r->state)); break;
			case 9: INTEGER(col)[i] = r->uid; break;
			case 10: INTEGER(col)[i] = r->gid; break;
			case 11:
				snprintf(b, sizeof b, "%04o", (unsigned)r->mode);
				SET_STRING_ELT(col, i, Rf_mkChar(b));
				break;
			case 12: REAL(col)[i] = r->nattch; break;
			case 13: REAL(col)[i] = r->size; break;
			case 14: INTEGER(col)[i] = r->cpid; break;
			case 15: INTEGER(col)[i] = r->lpid; break;
			case 16: REAL(col)[i] = r->ctime; break;
			case 17: REAL(col)[i] = r->atime; break;
			case 18: REAL(col)[i] = r->dtime; break;
			default: SET_STRING_ELT(col, i, Rf_mkChar(r->order)); break;
			}
		}
	}
	free(acc.r);
	Rf_setAttrib(df, R_NamesSymbol, nm);
	PROTECT(rn = Rf_allocVector(INTSXP, 2));
	INTEGER(rn)[0] = NA_INTEGER;
	INTEGER(rn)[1] = -(int)acc.n;
	Rf_setAttrib(df, R_RowNamesSymbol, rn);
	Rf_setAttrib(df, R_ClassSymbol, Rf_mkString("data.frame"));
	UNPROTECT(3);
	return df;
}

#ifdef SHMIDS_LINE_PART
/*
 * shm_read(file)'s result, grown item by item: list(names, values,
 * kinds, heads); kinds "ref", "table" (values: labels for the R side to
 * attach), "inline" (a double vector) or "rows" (a table block left as
 * text: a double matrix, one copy); heads the text line just before a
 * CSV table of either form (its header of names, perhaps), else NA.
 */
struct items {
	SEXP		 hold;
	R_xlen_t	 n, room;
};

static void
item(struct items *it, const char *name, size_t namelen, SEXP v,
    const char *kind, SEXP head)
{
	int k;

	PROTECT(v);
	PROTECT(head);
	if (it->n == it->room) {
		it->room *= 2;
		for (k = 0; k < 4; k++)
			SET_VECTOR_ELT(it->hold, k, Rf_lengthgets(
			    VECTOR_ELT(it->hold, k), it->room));
	}
	/* a NUL ends a name: R's strings hold none */
	SET_STRING_ELT(VECTOR_ELT(it->hold, 0), it->n,
	    Rf_mkCharLen(name, (int)strnlen(name, namelen)));
	SET_VECTOR_ELT(VECTOR_ELT(it->hold, 1), it->n, v);
	SET_STRING_ELT(VECTOR_ELT(it->hold, 2), it->n, Rf_mkChar(kind));
	SET_STRING_ELT(VECTOR_ELT(it->hold, 3), it->n, head);
	it->n++;
	UNPROTECT(2);
}

static SEXP
doubles(const double *d, size_t n)
{
	SEXP v = Rf_allocVector(REALSXP, (R_xlen_t)n);

	if (n > 0)
		memcpy(REAL(v), d, n * sizeof *d);
	return v;
}

/*
 * The library's one classifier of lines (shmids_line_next(),
 * format-spec.md 5, 6, 6.1) says what each line is, in its file.
 */
struct reader {
	struct items	 it;
	struct shmids_values v;
	char		*prev;		/* the last text line, for a header */
	char		*name;		/* the pending array's field */
	size_t		 namelen, start;	/* its first value in v */
	int		 pending;	/* 0, 'a' an array, 'r' a block */
	size_t		 cols, rows;
	SEXP		 head;		/* the pending block's header */
	R_xlen_t	 empty;		/* the item of an empty array */
};

static void
finish(struct reader *rd, size_t end)
{
	double *d = rd->v.data;
	SEXP m;
	size_t i, j;

	if (rd->pending == 'a') {
		if (end == rd->start) {	/* perhaps a CSV header */
			free(rd->prev);
			rd->prev = rd->name;
			rd->name = NULL;
			rd->empty = rd->it.n;
			item(&rd->it, rd->prev, rd->namelen, doubles(NULL, 0),
			    "inline", NA_STRING);
		} else
			item(&rd->it, rd->name, rd->namelen,
			    doubles(d + rd->start, end - rd->start), "inline",
			    NA_STRING);
	} else if (rd->pending == 'r') {
		PROTECT(m = Rf_allocMatrix(REALSXP, (int)rd->rows,
		    (int)rd->cols));
		for (i = 0; i < rd->rows; i++)
			for (j = 0; j < rd->cols; j++)
				REAL(m)[i + j * rd->rows] =
				    d[rd->start + i * rd->cols + j];
		item(&rd->it, "rows", 4, m, "rows", rd->head);
		UNPROTECT(1);
		R_ReleaseObject(rd->head);
	}
	free(rd->name);
	rd->name = NULL;
	rd->pending = 0;
	rd->head = NA_STRING;
}

static SEXP
header(struct reader *rd, int sep)
{
	SEXP h = NA_STRING;

	if (sep == ',' && rd->prev != NULL) {
		h = Rf_mkChar(rd->prev);
		if (rd->empty >= 0 && rd->empty == rd->it.n - 1)
			rd->it.n--;	/* the header read as an empty array */
	}
	return h;
}

static void
text(struct reader *rd, const char *line, size_t end)
{
	free(rd->prev);
	rd->prev = malloc(end + 1);
	if (rd->prev != NULL) {
		memcpy(rd->prev, line, end);
		rd->prev[end] = '\0';
	}
	rd->empty = -1;
}

SEXP shmr_read(SEXP file);
SEXP
shmr_read(SEXP file)
{
	const char *path = str1(file, "shm_read");
	struct shmids_lines lr;
	struct shmids_line c;
	struct reader rd;
	FILE *fp;
	char *line = NULL, msg[256];
	size_t cap = 0, before;
	ssize_t len;
	SEXP ans;
	int k, e, bad = 0;

	fp = fopen(path, "r");
	if (fp == NULL)
		Rf_error("shm_read: %s: %s", path, strerror(errno));
	memset(&rd, 0, sizeof rd);
	memset(&lr, 0, sizeof lr);
	rd.v.type = SHMIDS_F64;
	rd.head = NA_STRING;
	rd.empty = -1;
	rd.it.room = 16;
	PROTECT(rd.it.hold = Rf_allocVector(VECSXP, 4));
	SET_VECTOR_ELT(rd.it.hold, 0, Rf_allocVector(STRSXP, 16));
	SET_VECTOR_ELT(rd.it.hold, 1, Rf_allocVector(VECSXP, 16));
	SET_VECTOR_ELT(rd.it.hold, 2, Rf_allocVector(STRSXP, 16));
	SET_VECTOR_ELT(rd.it.hold, 3, Rf_allocVector(STRSXP, 16));
	for (;;) {
		errno = 0;
		len = getline(&line, &cap, fp);
		if (len == -1)
			break;
		before = rd.v.count;
		if (shmids_line_next(&lr, line, (size_t)len, &rd.v, &c) == -1) {
			snprintf(msg, sizeof msg, "%s", strerror(errno));
			bad = 1;
			break;
		}
		switch (c.kind) {
		case SHMIDS_LINE_MALFORMED:
			snprintf(msg, sizeof msg, "line %lu: %s", c.lineno,
			    c.why ? c.why : "malformed reference line");
			bad = 1;
			break;
		case SHMIDS_LINE_REF:
			finish(&rd, before);
			item(&rd.it, line + c.field, c.fieldlen,
			    Rf_mkString(c.label), "ref", NA_STRING);
			break;
		case SHMIDS_LINE_TREF:
			finish(&rd, before);
			PROTECT(rd.head = header(&rd, c.sep));
			item(&rd.it, c.label, strlen(c.label),
			    Rf_mkString(c.label), "table", rd.head);
			UNPROTECT(1);
			rd.head = NA_STRING;
			break;
		case SHMIDS_LINE_ARRAY:
			finish(&rd, before);
			rd.name = malloc(c.fieldlen + 1);
			if (rd.name == NULL) {
				snprintf(msg, sizeof msg, "%s", strerror(ENOMEM));
				bad = 1;
				break;
			}
			memcpy(rd.name, line + c.field, c.fieldlen);
			rd.name[c.fieldlen] = '\0';
			rd.namelen = c.fieldlen;
			rd.start = before;
			rd.pending = 'a';
			if (!c.more)
				finish(&rd, rd.v.count);
			break;
		case SHMIDS_LINE_CONT:
			if (c.bad) {	/* the array is text, whole */
				free(rd.name);
				rd.name = NULL;
				rd.pending = 0;
			} else if (!c.more)
				finish(&rd, rd.v.count);
			break;
		case SHMIDS_LINE_ROW:
			if (c.first || rd.pending != 'r') {
				finish(&rd, before);
				rd.head = header(&rd, c.sep);
				R_PreserveObject(rd.head);
				rd.pending = 'r';
				rd.start = before;
				rd.cols = c.count;
				rd.rows = 0;
			}
			rd.rows++;
			break;
		default:	/* TEXT */
			finish(&rd, before);
			text(&rd, line, c.end);
			rd.v.count = 0;
			continue;
		}
		if (bad)
			break;
		/* a header stands right above its table: no other line */
		if (c.kind != SHMIDS_LINE_ARRAY || rd.empty != rd.it.n - 1) {
			free(rd.prev);
			rd.prev = NULL;
			rd.empty = -1;
		}
		if (rd.pending == 0)
			rd.v.count = 0;	/* done with those values */
	}
	e = errno;
	if (!bad && !feof(fp)) {
		snprintf(msg, sizeof msg, "%s", strerror(e ? e : EIO));
		bad = 1;
	}
	if (!bad)
		finish(&rd, rd.v.count);
	free(line);
	free(rd.prev);
	free(rd.name);
	shmids_values_free(&rd.v);
	fclose(fp);
	if (bad)
		Rf_error("shm_read: %s: %s", path, msg);
	PROTECT(ans = Rf_allocVector(VECSXP, 4));
	for (k = 0; k < 4; k++)
		SET_VECTOR_ELT(ans, k, Rf_lengthgets(VECTOR_ELT(rd.it.hold, k),
		    rd.it.n));
	UNPROTECT(2);
	return ans;
}
#else
SEXP shmr_read(SEXP file);
SEXP
shmr_read(SEXP file)
{
	const char *path = str1(file, "shm_read");
	FILE *fp;
	char *line = NULL, *prev = NULL;
	size_t cap = 0;
	ssize_t len;
	struct shmids_ref r;
	struct shmids_array a;
	SEXP hold, ans;
	R_xlen_t n = 0, room = 16;
	long long lineno = 0;
	R_xlen_t empty = -1;	/* the item of an empty inline array */
	int sep, k, e;

	fp = fopen(path, "r");
	if (fp == NULL)
		Rf_error("shm_read: %s: %s", path, strerror(errno));
	PROTECT(hold = Rf_allocVector(VECSXP, 4));
	SET_VECTOR_ELT(hold, 0, Rf_allocVector(STRSXP, room));
	SET_VECTOR_ELT(hold, 1, Rf_allocVector(VECSXP, room));
	SET_VECTOR_ELT(hold, 2, Rf_allocVector(STRSXP, room));
	SET_VECTOR_ELT(hold, 3, Rf_allocVector(STRSXP, room));
	for (;;) {
		SEXP v = R_NilValue, nm, head = NA_STRING;
		const char *kind;

		errno = 0;
		len = getline(&line, &cap, fp);
		if (len == -1)
			break;
		lineno++;
		if ((k = shmids_tref_parse(line, (size_t)len, &r, &sep)) == 1) {
			kind = "table";
			/*
			 * A CSV table's header of names: the text line
			 * before, or a line of one token ("a","b"), which
			 * reads as an empty inline array: that item goes.
			 */
			if (sep == ',' && prev != NULL) {
				head = Rf_mkChar(prev);
				if (empty == n - 1 && n > 0)
					n--;
			}
			PROTECT(head);
			PROTECT(nm = Rf_mkCharLen(r.label, (int)strlen(r.label)));
			PROTECT(v = Rf_mkString(r.label));
		} else if (k == -1) {
			e = errno;
			free(line);
			free(prev);
			fclose(fp);
			Rf_error("shm_read: %s: line %lld: %s", path,
			    lineno, r.why ? r.why : strerror(e));
		} else if ((k = shmids_ref_parse(line, (size_t)len, &r)) == 1) {
			kind = "ref";
			PROTECT(head);
			PROTECT(nm = Rf_mkCharLen(line + r.field,
			    (int)strnlen(line + r.field, r.fieldlen)));
			PROTECT(v = Rf_mkString(r.label));
		} else if (k == -1) {
			e = errno;
			free(line);
			free(prev);
			fclose(fp);
			Rf_error("shm_read: %s: line %lld: %s", path,
			    lineno, r.why ? r.why : strerror(e));
		} else if (r.fieldlen == 0 ||
		    shmids_isnumber(line, (size_t)len)) {
			free(prev);	/* a row or a blank line: no header */
			prev = NULL;
			empty = -1;
			continue;
		} else {
			memset(&a, 0, sizeof a);
			if (shmids_get(line, fp, SHMIDS_F64, &a) == -1) {
				if (errno == EINVAL || errno == ERANGE) {
					/* text: perhaps a table's header */
					free(prev);
					line[r.eol] = '\0';
					prev = strdup(line);
					empty = -1;
					continue;
				}
				e = errno;
				free(line);
				free(prev);
				fclose(fp);
				Rf_error("shm_read: %s: %s", path, strerror(e));
			}
			kind = "inline";
			if (a.count == 0) {
				/* perhaps a CSV header: kept as the item n */
				free(prev);
				line[r.eol] = '\0';
				prev = strdup(line);
				empty = n;
			}
			PROTECT(head);
			PROTECT(nm = Rf_mkCharLen(line + r.field,
			    (int)strnlen(line + r.field, r.fieldlen)));
			PROTECT(v = Rf_allocVector(REALSXP, (R_xlen_t)a.count));
			if (a.count > 0)
				memcpy(REAL(v), a.data, a.count * sizeof(double));
			shmids_array_free(&a);
		}
		if (n == room) {
			room *= 2;
			for (k = 0; k < 4; k++)
				SET_VECTOR_ELT(hold, k, Rf_lengthgets(
				    VECTOR_ELT(hold, k), room));
		}
		SET_STRING_ELT(VECTOR_ELT(hold, 0), n, nm);
		SET_VECTOR_ELT(VECTOR_ELT(hold, 1), n, v);
		SET_STRING_ELT(VECTOR_ELT(hold, 2), n, Rf_mkChar(kind));
		SET_STRING_ELT(VECTOR_ELT(hold, 3), n, head);
		n++;
		UNPROTECT(3);
		if (empty != n - 1) {
			free(prev);
			prev = NULL;
		}
	}
	e = errno;
	if (!feof(fp)) {
		free(line);
		free(prev);
		fclose(fp);
		Rf_error("shm_read: %s: %s", path, strerror(e ? e : EIO));
	}
	free(line);
	fclose(fp);
	free(prev);
	PROTECT(ans = Rf_allocVector(VECSXP, 4));
	for (k = 0; k < 4; k++)
		SET_VECTOR_ELT(ans, k, Rf_lengthgets(VECTOR_ELT(hold, k), n));
	UNPROTECT(2);
	return ans;
}
#endif

/* Whether shm_read() reads through the library's classifier. */
SEXP shmr_classifier(void);
SEXP
shmr_classifier(void)
{
#ifdef SHMIDS_LINE_PART
	return Rf_ScalarLogical(TRUE);
#else
	return Rf_ScalarLogical(FALSE);
#endif
}

static const R_CallMethodDef calls[] = {
	{ "shmr_classifier", (DL_FUNC)shmr_classifier, 0 },
	{ "shmr_attach", (DL_FUNC)shmr_attach, 3 },
	{ "shmr_zeros", (DL_FUNC)shmr_zeros, 4 },
	{ "shmr_seal", (DL_FUNC)shmr_seal, 1 },
	{ "shmr_label", (DL_FUNC)shmr_label, 1 },
	{ "shmr_order", (DL_FUNC)shmr_order, 1 },
	{ "shmr_detach", (DL_FUNC)shmr_detach, 1 },
	{ "shmr_remove", (DL_FUNC)shmr_remove, 1 },
	{ "shmr_create", (DL_FUNC)shmr_create, 3 },
	{ "shmr_ls", (DL_FUNC)shmr_ls, 1 },
	{ "shmr_read", (DL_FUNC)shmr_read, 1 },
	{ NULL, NULL, 0 }
};

void R_init_shmids(DllInfo *dll);
void
R_init_shmids(DllInfo *dll)
{
	seg_real = R_make_altreal_class("shmids_real", "shmids", dll);
	seg_int = R_make_altinteger_class("shmids_int", "shmids", dll);
	seg_raw = R_make_altraw_class("shmids_raw", "shmids", dll);
	set_common(seg_real);
	set_common(seg_int);
	set_common(seg_raw);
	R_set_altreal_Elt_method(seg_real, real_elt);
	R_set_altreal_Get_region_method(seg_real, real_region);
	R_set_altreal_Sum_method(seg_real, real_sum);
	R_set_altinteger_Elt_method(seg_int, int_elt);
	R_set_altinteger_Get_region_method(seg_int, int_region);
	R_set_altraw_Elt_method(seg_raw, raw_elt);
	R_set_altraw_Get_region_method(seg_raw, raw_region);
	R_registerRoutines(dll, NULL, calls, NULL, NULL);
	R_useDynamicSymbols(dll, FALSE);
}
