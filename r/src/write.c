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

/*
 * name_ok: an R error, in what's name, unless nm can name a segment
 * (format-spec.md 1: the library's check, shmids_name_check()).  Asked
 * before the segment is made: shmids_explain() would read nm as a
 * label, and "a b" as the id "a".
 */
static void
name_ok(const char *nm, const char *what)
{
	if (shmids_name_check(nm, strlen(nm)) == 0)
		return;
	if (errno == ENAMETOOLONG)
		Rf_error("%s: name \"%s\": longer than %d bytes", what, nm,
		    SHMIDS_NAME_MAX);
	Rf_error("%s: name \"%s\": cannot be a segment name (1 to %d bytes "
	    "of printable ASCII, no blank)", what, nm, SHMIDS_NAME_MAX);
}

/* shm_zeros() for what (the function the user called). */
static SEXP
zeros(SEXP name, SEXP dim, SEXP type, SEXP mode, const char *what)
{
	const char *nm = str1(name, what);
	int t = shmids_type_parse(str1(type, what));
	int m = Rf_asInteger(mode);
	R_xlen_t nd = XLENGTH(dim);
	double r, c = 1;
	struct seg *s;
	struct shmids_array a;
	void *shm;
	int e;

	if (t != SHMIDS_F64 && t != SHMIDS_I32 && t != SHMIDS_RAW)
		Rf_error("%s: type: \"f64\", \"i32\" or \"raw\" is wanted (R has no f32 or i64)", what);
	if (!Rf_isNumeric(dim) || nd < 1 || nd > 2)
		Rf_error("%s: dim: a length, or c(rows, cols), is wanted", what);
	r = Rf_asReal(dim);
	if (nd == 2)
		c = REAL(PROTECT(Rf_coerceVector(dim, REALSXP)))[1];
	if (nd == 2)
		UNPROTECT(1);
	if (ISNAN(r) || ISNAN(c) || r < 0 || c < 0 || r != floor(r) ||
	    c != floor(c))
		Rf_error("%s: dim: whole numbers, 0 or more, are wanted", what);
	if (r > 9007199254740992.0 || (nd == 2 && (r > INT_MAX || c > INT_MAX)))
		Rf_error("%s: dim: too large for R", what);
	if (nd == 2 && c == 0)
		Rf_error("%s: dim: a table has 1 column or more (format-spec.md 2.7)", what);
	if (m == NA_INTEGER || m < 0 || m > 0777)
		Rf_error("%s: mode: permissions 0 to 0777 are wanted", what);
	name_ok(nm, what);
	if (nd == 1)
		shm = shmids_create_array(nm, m, t, (size_t)r);
	else {
		shm = shmids_create_matrix(nm, m, t, (size_t)r, (size_t)c,
		    SHMIDS_COLMAJOR);
	}
	if (shm == NULL)
		error_explained(what, NULL, errno);
	if (shmids_array(shm, &a) == -1 || (s = calloc(1, sizeof *s)) == NULL) {
		e = errno;
		(void)shmids_remove(shmids_label(shm));
		shmids_close(shm);
		error_explained(what, NULL, e);
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
shmr_zeros(SEXP name, SEXP dim, SEXP type, SEXP mode)
{
	return zeros(name, dim, type, mode, "shm_zeros");
}

/* shm_seal() for what (the function the user called). */
static SEXP
seal(SEXP x, const char *what)
{
	struct seg *s = seg_arg(x, what);

	if (!s->writable)
		Rf_error("%s: %s: attached read-only, not made by shm_zeros()",
		    what, s->label);
	if (R_altrep_data2(x) != R_NilValue)
		Rf_error("%s: %s: R wrote a copy, not the segment", what,
		    s->label);
	if (shmids_seal(s->shm) == -1)
		error_explained(what, s->label, errno);
	s->sealed = 1;
	return Rf_mkString(s->label);
}

SEXP
shmr_seal(SEXP x)
{
	return seal(x, "shm_seal");
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
 * returns its label.  A matrix becomes a column-major table.  what:
 * the function the user called (shm_create, shm_write), for errors.
 */
SEXP
shmr_create(SEXP name, SEXP x, SEXP mode, SEXP what)
{
	const char *w_ = str1(what, "shm_create");
	SEXP w, lab;
	struct seg *s;

	PROTECT(w = zeros(name, Rf_isMatrix(x) ?
	    Rf_getAttrib(x, R_DimSymbol) : Rf_ScalarReal((double)XLENGTH(x)),
	    Rf_mkString(TYPEOF(x) == REALSXP ? "f64" : TYPEOF(x) == INTSXP ?
	    "i32" : "raw"), mode, w_));
	s = seg_of(w);
	if (s->n > 0)
		memcpy(s->data, DATAPTR_RO(x), (size_t)s->n * elsize(x));
	PROTECT(lab = seal(w, w_));
	/* detach now, not when w is collected */
	R_ClearExternalPtr(R_altrep_data1(w));
	s->sealed = 1;
	seg_free(s);
	UNPROTECT(2);
	return lab;
}

/*
 * shm_write()'s check of one element, before any segment is made or
 * anything written: its segment name (name_ok()) and, if field is a
 * string (a vector's element: "field shmids <label>"), that it reads
 * back as that field, here and once expanded inline: the library's rule
 * (shmids_field_check(), format-spec.md 6).  An R error naming the
 * element, the library's reason and what to do.
 */
SEXP
shmr_field(SEXP field, SEXP name)
{
	const char *f, *why, *nm = str1(name, "shm_write");

	if (field != R_NilValue) {
		f = str1(field, "shm_write");
		if (shmids_field_check(f, strlen(f), 0, &why) == -1)
			Rf_error("shm_write: element \"%s\": %s; name it "
			    "otherwise", f, why);
	}
	name_ok(nm, "shm_write");
	return R_NilValue;
}
