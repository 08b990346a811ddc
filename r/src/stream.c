/*
 * stream.c: streams from R (format-spec.md section 10, message
 * references 5.1): shm_stream() makes one, shm_publish() copies a
 * vector or matrix into its next slot; shm_follow() registers a reader,
 * shm_next() copies each message out.  Copies, not views: an R vector
 * is a value, and a slot is the writer's again after the reader's next
 * call.  A handle lives in an external pointer (tag shmids_stream)
 * whose finalizer closes it; shm_close() does it sooner.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "shmids_r.h"

static void
finalize(SEXP p)
{
	struct shmids_stream *s = R_ExternalPtrAddr(p);

	if (s != NULL) {
		R_ClearExternalPtr(p);
		shmids_stream_close(s);
	}
}

/* The handle as an external pointer; prot: the writer's capacity. */
static SEXP
wrap(struct shmids_stream *s, SEXP prot)
{
	SEXP p = PROTECT(R_MakeExternalPtr(s, Rf_install("shmids_stream"),
	    prot));

	R_RegisterCFinalizerEx(p, finalize, TRUE);
	UNPROTECT(1);
	return p;
}

/* The open handle p holds, or an R error naming what wanted it. */
static struct shmids_stream *
handle(SEXP p, const char *what)
{
	struct shmids_stream *s;

	if (TYPEOF(p) != EXTPTRSXP ||
	    R_ExternalPtrTag(p) != Rf_install("shmids_stream"))
		Rf_error("%s: a stream (shm_stream(), shm_follow()) is wanted",
		    what);
	if ((s = R_ExternalPtrAddr(p)) == NULL)
		Rf_error("%s: the stream is closed", what);
	return s;
}

/* Seconds as the library takes them: Inf (and 1e9 or more) for ever. */
static double
seconds(SEXP timeout, const char *what)
{
	double t = Rf_asReal(timeout);

	if (ISNAN(t) || t < 0)
		Rf_error("%s: timeout: a number of seconds, 0 or more, is "
		    "wanted", what);
	return t > 1e9 ? 1e9 : t;
}

SEXP
shmr_stream_create(SEXP name, SEXP slots, SEXP capacity, SEXP mode,
    SEXP readers, SEXP flags)
{
	const char *n = str1(name, "shm_stream: name");
	double sl = Rf_asReal(slots), cap = Rf_asReal(capacity);
	struct shmids_stream *s;

	if (ISNAN(sl) || sl < 1 || sl != floor(sl) || sl > 4503599627370496.0)
		Rf_error("shm_stream: slots: a whole number, 1 or more, is wanted");
	if (ISNAN(cap) || cap < 1 || cap != floor(cap) ||
	    cap > 4503599627370496.0)
		Rf_error("shm_stream: capacity: a whole number of bytes, 1 or "
		    "more, is wanted");
	s = shmids_stream_create(n, Rf_asInteger(mode), (size_t)sl,
	    (size_t)cap, Rf_asInteger(readers), Rf_asInteger(flags));
	if (s == NULL)
		error_explained("shm_stream", n, errno);
	return wrap(s, capacity);
}

SEXP
shmr_stream_open(SEXP label, SEXP timeout, SEXP new)
{
	const char *l = str1(label, "shm_follow: label");
	double t = seconds(timeout, "shm_follow");
	struct shmids_stream *s;

	while ((s = shmids_stream_open(l, Rf_asLogical(new) == TRUE ?
	    SHMIDS_STREAM_NEW : 0, t)) == NULL && errno == EINTR)
		R_CheckUserInterrupt();
	if (s == NULL)
		error_explained("shm_follow", l, errno);
	return wrap(s, R_NilValue);
}

/* x's type: f64, i32 or raw (the R side refused the others). */
static int
type_of(SEXP x)
{
	switch (TYPEOF(x)) {
	case REALSXP:
		return SHMIDS_F64;
	case INTSXP:
		return SHMIDS_I32;
	default:
		return SHMIDS_RAW;
	}
}

SEXP
shmr_publish(SEXP p, SEXP x, SEXP timeout)
{
	struct shmids_stream *s = handle(p, "shm_publish");
	double t = seconds(timeout, "shm_publish");
	SEXP dim = Rf_getAttrib(x, R_DimSymbol);
	size_t rows = (size_t)XLENGTH(x), cols = 0, nbytes;
	int type = type_of(x);
	long long seq;
	void *slot;

	nbytes = rows * shmids_type_size(type);
	if (!Rf_isNull(dim) && XLENGTH(dim) == 2) {
		rows = (size_t)INTEGER(dim)[0];
		cols = (size_t)INTEGER(dim)[1];
	}
	/* the bytes go in before publish() checks them: check first */
	if ((double)nbytes > Rf_asReal(R_ExternalPtrProtected(p)))
		error_explained("shm_publish", shmids_stream_label(s), EMSGSIZE);
	while ((slot = shmids_stream_loan(s, t)) == NULL && errno == EINTR)
		R_CheckUserInterrupt();
	if (slot == NULL)
		error_explained("shm_publish", shmids_stream_label(s), errno);
	if (nbytes > 0)
		memcpy(slot, DATAPTR_RO(x), nbytes);
	/* R's matrices are column-major (format-spec.md 2.7) */
	seq = shmids_stream_publish(s, type, rows, cols, SHMIDS_COLMAJOR);
	if (seq == -1)
		error_explained("shm_publish", shmids_stream_label(s), errno);
	return Rf_ScalarReal((double)seq);
}

/* A row-major table's copy x (rows x cols) as R's column-major matrix. */
static SEXP
transpose(SEXP x, size_t rows, size_t cols)
{
	SEXP y = PROTECT(Rf_allocVector(TYPEOF(x), XLENGTH(x)));
	size_t es = elsize(x), i, j;
	const char *a = DATAPTR_RO(x);
	char *b = DATAPTR(y);

	for (i = 0; i < rows; i++)
		for (j = 0; j < cols; j++)
			memcpy(b + (i + j * rows) * es, a + (i * cols + j) * es,
			    es);
	UNPROTECT(1);
	return y;
}

/* The message m, copied: a vector, or a matrix for a table. */
static SEXP
message(const struct shmids_msg *m)
{
	size_t n = m->rows * m->cols;
	SEXP x, dim;

	if (m->type == SHMIDS_F32 || m->type == SHMIDS_I64)
		x = widen(m->data, n, m->type);
	else {
		x = Rf_allocVector(m->type == SHMIDS_F64 ? REALSXP :
		    m->type == SHMIDS_I32 ? INTSXP : RAWSXP, (R_xlen_t)n);
		if (m->nbytes > 0)
			memcpy(DATAPTR(x), m->data, m->nbytes);
	}
	PROTECT(x);
	if (m->ndim == 2) {
		if (m->order != SHMIDS_COLMAJOR)
			x = transpose(x, m->rows, m->cols);
		PROTECT(x);
		dim = PROTECT(Rf_allocVector(INTSXP, 2));
		INTEGER(dim)[0] = (int)m->rows;
		INTEGER(dim)[1] = (int)m->cols;
		Rf_setAttrib(x, R_DimSymbol, dim);
		UNPROTECT(2);
	}
	Rf_setAttrib(x, Rf_install("seq"), Rf_ScalarReal((double)m->seq));
	Rf_setAttrib(x, Rf_install("lost"), Rf_ScalarReal((double)m->lost));
	UNPROTECT(1);
	return x;
}

SEXP
shmr_next(SEXP p, SEXP timeout)
{
	struct shmids_stream *s = handle(p, "shm_next");
	double t = seconds(timeout, "shm_next");
	struct shmids_msg m;
	SEXP x;
	int r;

	while ((r = shmids_stream_next(s, &m, t)) == -1 && errno == EINTR)
		R_CheckUserInterrupt();
	if (r == -1)
		error_explained("shm_next", shmids_stream_label(s), errno);
	if (r == 0)
		return R_NilValue;
	x = PROTECT(message(&m));
	/* copied: the slot is the writer's again */
	shmids_stream_release(s);
	UNPROTECT(1);
	return x;
}

SEXP
shmr_stream_close(SEXP p)
{
	handle(p, "shm_close");
	finalize(p);
	return R_NilValue;
}

SEXP
shmr_stream_label(SEXP p)
{
	return Rf_mkString(shmids_stream_label(handle(p, "shm_label")));
}
