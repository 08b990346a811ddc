/*
 * The ring's layout (format-spec.md 10.2) and what a reader checks of
 * it (10.7).  Every offset follows from slots, the reader table and the
 * capacity, so that a stream has one form: a reader computes them
 * again and takes no other.  Another user may rewrite any field at any
 * time, so each is copied once, with an atomic load that the compiler
 * may not repeat, and only the copies are checked and used.
 */
#include <errno.h>
#include <string.h>

#include "stream.h"

#define LINE	64	/* a cache line: payloads under 4 KiB */
#define PAGE	4096	/* a page: payloads of 4 KiB or more */

/* "stream" LF NUL, as the word the magic's 8 bytes make here. */
static uint64_t
magic(void)
{
	static const char m[8] = "stream\n";
	uint64_t w;

	memcpy(&w, m, sizeof(w));
	return w;
}

/* x rounded up to a multiple of a; -1 on overflow. */
static int
up(uint64_t x, uint64_t a, uint64_t *out)
{
	if (x > UINT64_MAX - (a - 1))
		return -1;
	*out = (x + a - 1) / a * a;
	return 0;
}

/*
 * The geometry of N slots, R entries and capacity bytes: 0, or -1 for
 * counts out of range or a size past what a size_t holds.
 */
int
shmids_st_layout(uint64_t slots, uint64_t rtable, uint64_t capacity,
    struct geom *g)
{
	uint64_t a = capacity < PAGE ? LINE : PAGE;

	if (slots == 0 || slots > UINT32_MAX || rtable == 0 ||
	    rtable > ST_RMAX || capacity == 0)
		return -1;
	g->slots = slots;
	g->rtable = rtable;
	g->capacity = capacity;
	g->descoff = ST_TABLE + rtable * ST_ENTRY;
	if (up(capacity, a, &g->stride) == -1 ||
	    slots > (UINT64_MAX - g->descoff) / ST_DESC ||
	    up(g->descoff + slots * ST_DESC, a, &g->payoff) == -1 ||
	    slots > (UINT64_MAX - g->payoff) / g->stride)
		return -1;
	g->size = g->payoff + slots * g->stride;
	return g->size > (uint64_t)((size_t)-1) ? -1 : 0;
}

/*
 * The stream header of a segment whose other bytes are zero: fields,
 * then the magic, whose release store a reader's acquire load pairs
 * with (10.3, Making).
 */
void
shmids_st_geom_write(char *h, const struct geom *g)
{
	STORE(W32(h, ST_SLOTS), (uint32_t)g->slots, RLX);
	STORE(W32(h, ST_RTABLE), (uint32_t)g->rtable, RLX);
	STORE(W64(h, ST_CAP), g->capacity, RLX);
	STORE(W64(h, ST_STRIDE), g->stride, RLX);
	STORE(W64(h, ST_DESCOFF), g->descoff, RLX);
	STORE(W64(h, ST_PAYOFF), g->payoff, RLX);
	STORE(W32(h, ST_POLICY), g->policy, RLX);
	STORE(W32(h, ST_READERS), g->readers, RLX);
	STORE(W32(h, ST_FLAGS), g->flags, RLX);
	STORE(W32(h, ST_WPID), (uint32_t)g->writer.pid, RLX);
	STORE(W64(h, ST_WSTART), g->writer.start, RLX);
	STORE(W64(h, ST_WPIDNS), g->writer.pidns, RLX);
	STORE(W64(h, ST_MAGIC), magic(), REL);
}

/*
 * The stream header at h, of a segment whose declared bytes (header
 * included) are size: 0 and g, or EAGAIN (no magic yet: being made, or
 * its writer died making it) or EBADMSG (format-spec.md 10.7).
 */
int
shmids_st_geom_read(const char *h, size_t size, struct geom *g)
{
	char *w = (char *)(uintptr_t)h;	/* atomic loads take no const */
	struct geom want;
	uint64_t m;

	if (size < ST_TABLE)
		return EBADMSG;
	if ((m = LOAD(W64(w, ST_MAGIC), ACQ)) != magic())
		return m == 0 ? EAGAIN : EBADMSG;
	g->slots = LOAD(W32(w, ST_SLOTS), RLX);
	g->rtable = LOAD(W32(w, ST_RTABLE), RLX);
	g->capacity = LOAD(W64(w, ST_CAP), RLX);
	g->stride = LOAD(W64(w, ST_STRIDE), RLX);
	g->descoff = LOAD(W64(w, ST_DESCOFF), RLX);
	g->payoff = LOAD(W64(w, ST_PAYOFF), RLX);
	g->policy = LOAD(W32(w, ST_POLICY), RLX);
	g->readers = LOAD(W32(w, ST_READERS), RLX);
	g->flags = LOAD(W32(w, ST_FLAGS), RLX);
	g->writer.pid = (int32_t)LOAD(W32(w, ST_WPID), RLX);
	g->writer.start = LOAD(W64(w, ST_WSTART), RLX);
	g->writer.pidns = LOAD(W64(w, ST_WPIDNS), RLX);
	if (shmids_st_layout(g->slots, g->rtable, g->capacity, &want) == -1 ||
	    want.stride != g->stride || want.descoff != g->descoff ||
	    want.payoff != g->payoff || want.size > size ||
	    g->policy > POLICY_OVERWRITE || (g->flags & ~FLAG_KEEP) != 0 ||
	    g->readers > g->rtable)
		return EBADMSG;
	g->size = want.size;
	return 0;
}

/*
 * The descriptor at d of message seq, whose pub the caller loaded
 * (acquire) and found seq + 1: m's shape and length, or EBADMSG.
 * One form for each message, as 2.7 has for a segment.
 */
int
shmids_st_desc_read(const char *d, uint64_t seq, uint64_t capacity,
    struct shmids_msg *m)
{
	char *w = (char *)(uintptr_t)d;
	uint64_t nbytes, rows, cols, n, bytes;
	uint32_t type, ndim, order;
	size_t esz;

	nbytes = LOAD(W64(w, DE_NBYTES), RLX);
	rows = LOAD(W64(w, DE_ROWS), RLX);
	cols = LOAD(W64(w, DE_COLS), RLX);
	type = LOAD(W32(w, DE_TYPE), RLX);
	ndim = LOAD(W32(w, DE_NDIM), RLX);
	order = LOAD(W32(w, DE_ORDER), RLX);
	m->seq = (long long)seq;
	if (type > SHMIDS_I32 || (esz = shmids_type_size((int)type)) == 0 ||
	    (ndim == 1 && (cols != 1 || order != SHMIDS_ROWMAJOR)) ||
	    (ndim == 2 && (cols == 0 || cols > SHMIDS_COLS_MAX)) ||
	    (ndim != 1 && ndim != 2) ||
	    (order != SHMIDS_ROWMAJOR && order != SHMIDS_COLMAJOR) ||
	    (order == SHMIDS_COLMAJOR && (rows < 2 || cols < 2)) ||
	    __builtin_mul_overflow(rows, cols, &n) ||
	    __builtin_mul_overflow(n, (uint64_t)esz, &bytes) ||
	    bytes != nbytes || nbytes > capacity)
		return EBADMSG;
	m->nbytes = (size_t)nbytes;
	m->rows = (size_t)rows;
	m->cols = (size_t)cols;
	m->type = (int)type;
	m->ndim = (int)ndim;
	m->order = (int)order;
	return 0;
}

/* The writer's side: the fields, before pub (10.3). */
void
shmids_st_desc_write(char *d, int type, size_t rows, size_t cols, int ndim,
    int order, size_t nbytes)
{
	STORE(W64(d, DE_NBYTES), (uint64_t)nbytes, RLX);
	STORE(W64(d, DE_ROWS), (uint64_t)rows, RLX);
	STORE(W64(d, DE_COLS), (uint64_t)cols, RLX);
	STORE(W32(d, DE_TYPE), (uint32_t)type, RLX);
	STORE(W32(d, DE_NDIM), (uint32_t)ndim, RLX);
	STORE(W32(d, DE_ORDER), (uint32_t)order, RLX);
}
