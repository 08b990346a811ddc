/*
 * altrep.c: the ALTREP classes over an attached segment.
 *
 * The vector's data is the segment's payload itself: nothing is copied
 * until R asks for a pointer it may write through (see seg_dataptr()).
 * Its data1 is an external pointer to a struct seg, whose finalizer
 * detaches the segment (shmids_close()) once no R object refers to it;
 * data2 is R_NilValue, or the private copy made for a writer.
 *
 * A segment made by shm_zeros() is attached read-write: R writes into
 * it through DATAPTR, and shm_seal() marks it ready.  Collected before
 * the seal, it is removed, never sealed half filled; at the end of R
 * it is left attached, for the library's exit seal (or for write.c's
 * exit handler, which removes it if R ends by an error: format-spec.md
 * 2.2).  A forked child (parallel::mcparallel()) removes nothing of its
 * parent's.
 */
#include <float.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shmids_r.h"

static R_altrep_class_t seg_real, seg_int, seg_raw;

/*
 * seg_free: detach s, removing it first if made here, by this process,
 * and never sealed; free s.  The caller has cleared any external
 * pointer to s.
 */
void
seg_free(struct seg *s)
{
	if (s->shm != NULL) {
		if (seg_mine(s))
			(void)shmids_remove(s->label);
		(void)shmids_close(s->shm);
		s->shm = NULL;
	}
	seg_untrack(s);
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

/* seg_of: the segment under x, one of ours; an R error if detached. */
struct seg *
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

/* elsize: the bytes of one element of x, a double, integer or raw vector. */
size_t
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

/*
 * Coerce: a segment being filled is never made into a vector of a wider
 * type.  R's subassignment does that to x before it stores a value of
 * a wider type (w[] <- c(1.5, 2) into an i32 segment: SubassignTypeFix
 * calls coerceVector()), and x would become an ordinary R vector, the
 * segment left unfilled, to be removed when collected: so say it at the
 * assignment, with w unchanged.  The same coercion of a reading
 * (as.double(w), as.character(w)) is refused too while it fills: the
 * method cannot tell them apart.  NULL: R's own coercion (a copy).
 */
static SEXP
seg_coerce(SEXP x, int type)
{
	struct seg *s = R_ExternalPtrAddr(R_altrep_data1(x));
	const char *to;

	if (s == NULL || s->shm == NULL || !s->writable || s->sealed ||
	    R_altrep_data2(x) != R_NilValue)
		return NULL;
	switch (type) {
	case REALSXP:
		if (TYPEOF(x) != INTSXP)
			return NULL;
		to = "double";
		break;
	case CPLXSXP:
		to = "complex";
		break;
	case STRSXP:
		to = "character";
		break;
	case VECSXP:
	case EXPRSXP:
		to = "list";
		break;
	default:
		return NULL;
	}
	Rf_error("shmids: %s: a segment being filled holds %s: not made a "
	    "%s vector, which R would fill instead of the segment: assign "
	    "it %s values (%s), or convert it after shm_seal()", s->label,
	    shmids_type_name(s->type), to, TYPEOF(x) == INTSXP ? "integer" :
	    TYPEOF(x) == REALSXP ? "double" : "raw", TYPEOF(x) == INTSXP ?
	    "as.integer()" : TYPEOF(x) == REALSXP ? "as.double()" :
	    "as.raw()");
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
	R_set_altrep_Coerce_method(c, seg_coerce);
	R_set_altvec_Dataptr_method(c, seg_dataptr);
	R_set_altvec_Dataptr_or_null_method(c, seg_dataptr_or_null);
}

/* seg_classes: make the three classes, for R_init_shmids(). */
void
seg_classes(DllInfo *dll)
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
}

/* seg_is: whether x is an R object over a segment (ours, ALTREP). */
int
seg_is(SEXP x)
{
	return ALTREP(x) && (R_altrep_inherits(x, seg_real) ||
	    R_altrep_inherits(x, seg_int) || R_altrep_inherits(x, seg_raw));
}

/*
 * seg_arg: the segment under x, an argument of the R function what; an
 * R error if x is no segment object or its segment was detached.
 */
struct seg *
seg_arg(SEXP x, const char *what)
{
	SEXP p;
	struct seg *s;

	if (!seg_is(x))
		Rf_error("%s: not a segment attached by shmids", what);
	p = R_altrep_data1(x);
	s = R_ExternalPtrAddr(p);
	if (s == NULL || s->shm == NULL)
		Rf_error("%s: the segment was detached", what);
	return s;
}

/*
 * seg_wrap: the R object over s: an ALTREP vector of s's type, with dim
 * c(rows, cols) for a table (ndim 2).  s is owned by the external
 * pointer from here on.
 */
SEXP
seg_wrap(struct seg *s, int ndim, size_t rows, size_t cols)
{
	SEXP ptr, x, dim;
	R_altrep_class_t c;

	ptr = R_MakeExternalPtr(s, R_NilValue, R_NilValue);
	PROTECT(ptr);
	/* not at R's end: a segment being filled is sealed then (the
	 * library's exit seal), or removed by write.c (R ending by an
	 * error), never removed as collected (format-spec.md 2.2) */
	R_RegisterCFinalizerEx(ptr, seg_finalize, FALSE);
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
