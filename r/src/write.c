/*
 * write.c: segments R makes: shm_zeros() (filled in place by R, then
 * shm_seal()), shm_create() (one copy of a vector), the early detach of
 * an unsealed one that shm_remove() removed, and what becomes of those
 * never sealed when R ends (format-spec.md 2.2).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shmids_r.h"

/*
 * The segments made here, from shm_zeros() to seg_free().  At R's end
 * the library's exit handler seals those still attached (a normal end:
 * the end of the script, quit()); R's error option tells an end by an
 * error (shmr_error_end(), which ../R/shmids.R sets as the option),
 * and then the exit handler below, registered after the library's and
 * so run before it, removes those this process never sealed, saying
 * so.  A forked child (parallel::mcparallel()) inherits the list and
 * leaves them alone: they are not its own (seg_mine()).
 */
static struct seg *made;
static pid_t error_end;		/* the process R ends by an error */

void
seg_track(struct seg *s)
{
	s->prev = NULL;
	s->next = made;
	if (made != NULL)
		made->prev = s;
	made = s;
}

void
seg_untrack(struct seg *s)
{
	if (!s->writable)
		return;
	if (s->prev != NULL)
		s->prev->next = s->next;
	else if (made == s)
		made = s->next;
	if (s->next != NULL)
		s->next->prev = s->prev;
	s->next = s->prev = NULL;
}

/* seg_mine: s was made by this process and is still being filled. */
int
seg_mine(const struct seg *s)
{
	return s->writable && !s->sealed && s->pid == getpid();
}

static void
remove_unsealed(void)
{
	struct seg *s;

	if (error_end != getpid())
		return;
	for (s = made; s != NULL; s = s->next) {
		if (s->shm == NULL || !seg_mine(s))
			continue;
		if (shmids_remove(s->label) == 0)
			fprintf(stderr, "shmids: %s: removed, never sealed: the "
			    "program ends by an uncaught error\n", s->label);
		(void)shmids_close(s->shm);
		s->shm = NULL;
	}
	fflush(stderr);
}

/* The number of segments this process made and is still filling. */
SEXP
shmr_filling(void)
{
	struct seg *s;
	int n = 0;

	for (s = made; s != NULL; s = s->next)
		n += s->shm != NULL && seg_mine(s);
	return Rf_ScalarInteger(n);
}

/* R's error option (../R/shmids.R): R ends by this error. */
SEXP
shmr_error_end(void)
{
	error_end = getpid();
	return R_NilValue;
}

/*
 * writer_only: an R error unless this process made s: seal and remove
 * belong to the writer, not to a child forked from it, where they
 * would end the parent's segment while it still fills (as Python's).
 */
static void
writer_only(const struct seg *s, const char *what)
{
	if (s->writable && s->pid != getpid())
		Rf_error("%s: %s: in pid %ld, a process forked from its "
		    "writer (pid %ld): only the writer seals or removes it",
		    what, s->label, (long)getpid(), (long)s->pid);
}

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
	static int registered;
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
		Rf_error("%s: dim: a table has 1 column or more (shmids(5), Tables)", what);
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
	s->pid = getpid();
	snprintf(s->label, sizeof s->label, "%s", shmids_label(shm));
	seg_track(s);
	/* after the library's own, at its first segment: run before it */
	if (!registered && atexit(remove_unsealed) == 0)
		registered = 1;
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
	writer_only(s, what);
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

/*
 * shm_remove(x) of a segment object: remove its segment, and detach
 * now an unsealed one of ours (R objects over it then say it was
 * detached).  In a child forked from its writer, an R error, as seal.
 */
SEXP
shmr_detach(SEXP x)
{
	SEXP p;
	struct seg *s;

	s = seg_arg(x, "shm_remove");
	p = R_altrep_data1(x);
	writer_only(s, "shm_remove");
	if (shmids_remove(s->label) == -1)
		error_explained("shm_remove", s->label, errno);
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
