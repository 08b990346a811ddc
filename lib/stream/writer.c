/*
 * A stream's writer (format-spec.md 10.3 to 10.5): making the stream,
 * lending the next slot, publishing it, ending the stream.  The fast
 * path touches the writer's own lines and, when a slot is reused, one
 * store of tail and one load of gen: no system call while the readers
 * keep up and stay awake.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "stream.h"

struct make {
	struct geom	 g;
};

/* The stream header, written while the segment is still 0600. */
static int
init(char *h, void *arg)
{
	const struct make *mk = arg;

	shmids_st_geom_write(h, &mk->g);
	return 0;
}

struct shmids_stream *
shmids_stream_create(const char *name, int mode, size_t slots,
    size_t capacity, int readers, int flags)
{
	struct shmids_stream *s;
	struct make mk;
	int e;

	if (readers < 0 || readers > ST_RMAX ||
	    (flags & ~(SHMIDS_STREAM_OVERWRITE | SHMIDS_STREAM_KEEP)) != 0 ||
	    shmids_st_layout(slots, ST_RMAX, capacity, &mk.g) == -1) {
		errno = slots == 0 || (uint64_t)slots > UINT32_MAX ||
		    capacity == 0 || readers < 0 ||
		    readers > ST_RMAX || (flags & ~(SHMIDS_STREAM_OVERWRITE |
		    SHMIDS_STREAM_KEEP)) != 0 ? EINVAL : ENOMEM;
		return NULL;
	}
	mk.g.policy = flags & SHMIDS_STREAM_OVERWRITE ? POLICY_OVERWRITE :
	    POLICY_WAIT;
	mk.g.readers = (uint32_t)readers;
	mk.g.flags = flags & SHMIDS_STREAM_KEEP ? FLAG_KEEP : 0;
	shmids_st_self(&mk.g.writer);
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return NULL;
	if (shmids_seg_stream_make(name, mode, mk.g.size - SHMIDS_HEADER,
	    init, &mk, &s->be, s->id, &s->a) == -1) {
		e = errno;
		free(s);
		errno = e;
		return NULL;
	}
	s->base = s->a.addr;
	s->g = mk.g;
	s->writer = 1;
	memcpy(s->label, s->base, strlen(s->base) + 1);
	shmids_st_place(s);
	if (shmids_st_track(s) == -1) {
		e = errno;
		shmids_seg_unlink(s->be, &s->a, s->id);
		shmids_st_free(s);
		errno = e;
		return NULL;
	}
	return s;
}

static int
usable(const struct shmids_stream *s)
{
	if (s == NULL || !s->writer || s->forked) {
		errno = EBADF;
		return 0;
	}
	return 1;
}

/*
 * Under the wait policy: the smallest position of a registered reader
 * (all before it are released), and gen as it was before the look.
 */
static uint64_t
lowest(struct shmids_stream *s, uint64_t *gen)
{
	uint64_t mask, low = UINT64_MAX, p;
	int k;

	*gen = LOAD(W64(s->base, ST_GEN), SC);
	mask = LOAD(W64(s->base, ST_MASK), SC) & RMASK(s);
	for (k = 0; mask != 0; k++, mask >>= 1)
		if ((mask & 1) && (p = LOAD(W64(ENTRY(s, k), EN_POS), SC) >>
		    1) < low)
			low = p;
	return low;
}

/* Under overwrite: does a registered reader hold message m? */
static int
held(struct shmids_stream *s, uint64_t m)
{
	uint64_t mask = LOAD(W64(s->base, ST_MASK), SC) & RMASK(s), p;
	int k;

	for (k = 0; mask != 0; k++, mask >>= 1)
		if ((mask & 1) && ((p = LOAD(W64(ENTRY(s, k), EN_POS), SC)) &
		    1) && p >> 1 == m)
			return 1;
	return 0;
}

/*
 * May the slot of message m be reused (10.3, Publishing)?  Nonzero if
 * so, tail then past m; 0 if the policy says wait.  tail moves only
 * once the expected readers have come.
 */
static int
room(struct shmids_stream *s, void *arg)
{
	uint64_t m = *(uint64_t *)arg, gen;

	if (!s->came) {
		if (LOAD(W64(s->base, ST_JOINED), SC) < s->g.readers)
			return 0;
		s->came = 1;
	}
	if (s->g.policy == POLICY_OVERWRITE) {
		STORE(W64(s->base, ST_TAIL), m + 1, SC);
		return !held(s, m);
	}
	if (m >= s->safe && (s->safe = lowest(s, &s->gen)) <= m)
		return 0;
	STORE(W64(s->base, ST_TAIL), m + 1, SC);
	/* a reader that registered or stepped back meanwhile */
	if ((gen = LOAD(W64(s->base, ST_GEN), SC)) != s->gen &&
	    (s->safe = lowest(s, &s->gen)) <= m)
		return 0;
	return 1;
}

/*
 * A slice went by with no room: take back the entries of the readers
 * that hold the writer up and are dead (10.5).
 */
static void
reclaim_dead(struct shmids_stream *s, uint64_t m)
{
	uint64_t mask = LOAD(W64(s->base, ST_MASK), SC) & RMASK(s), p;
	int k;

	for (k = 0; mask != 0; k++, mask >>= 1) {
		if (!(mask & 1))
			continue;
		p = LOAD(W64(ENTRY(s, k), EN_POS), SC);
		if ((s->g.policy == POLICY_OVERWRITE ? (p & 1) && p >> 1 == m :
		    p >> 1 <= m) && shmids_st_reclaim(s, k) == 1)
			s->safe = 0;	/* look again */
	}
}

/*
 * Room for message m, waiting up to seconds: spin, then sleep on wsleep
 * (10.6).  The clock is read only once a wait begins.  The dead are
 * looked for each slice by the clock, not when a sleep times out: a
 * live reader that polls wakes the writer far more often than that.
 */
static int
wait_room(struct shmids_stream *s, uint64_t m, double seconds)
{
	uint32_t *w = W32(s->base, ST_WSLEEP);
	long long t, left, until, look;
	int r;

	if (room(s, &m))
		return 0;
	until = shmids_st_until(seconds);
	look = shmids_now_ns() + SLICE_NS;
	if (shmids_st_spin(&s->spin, room, s, &m, until))
		return 0;
	for (;;) {
		if ((left = until - (t = shmids_now_ns())) <= 0) {
			errno = EAGAIN;
			return -1;
		}
		if (t >= look) {
			reclaim_dead(s, m);
			look = t + SLICE_NS;
		}
		STORE(w, 1, SC);
		if (room(s, &m))
			break;
		r = shmids_st_sleep(w, 1, left < look - t ? left : look - t);
		if (r == -1) {
			STORE(w, 0, RLX);
			return -1;
		}
		if (room(s, &m))
			break;
	}
	STORE(w, 0, RLX);
	return 0;
}

void *
shmids_stream_loan(struct shmids_stream *s, double seconds)
{
	if (!usable(s))
		return NULL;
	if (!(seconds >= 0)) {
		errno = EINVAL;
		return NULL;
	}
	if (s->loaned)
		return PAYLOAD(s, s->hidx);
	if (s->head >= s->g.slots &&
	    wait_room(s, s->head - s->g.slots, seconds) == -1)
		return NULL;
	/* readers that find 0 take the slot for one not yet published */
	STORE(W64(DESC(s, s->hidx), DE_PUB), 0, RLX);
	s->loaned = 1;
	return PAYLOAD(s, s->hidx);
}

long long
shmids_stream_publish(struct shmids_stream *s, int type, size_t rows,
    size_t cols, int order)
{
	size_t esz = shmids_type_size(type), c = cols ? cols : 1, n, bytes;
	uint64_t seq;
	char *d;

	if (!usable(s))
		return -1;
	if (!s->loaned || esz == 0 || cols > SHMIDS_COLS_MAX ||
	    (order != SHMIDS_ROWMAJOR && order != SHMIDS_COLMAJOR)) {
		errno = EINVAL;
		return -1;
	}
	if (__builtin_mul_overflow(rows, c, &n) ||
	    __builtin_mul_overflow(n, esz, &bytes) || bytes > s->g.capacity) {
		errno = EMSGSIZE;
		return -1;
	}
	/* one form: the order of a table of one row or one column is C */
	if (cols == 0 || rows < 2 || cols < 2)
		order = SHMIDS_ROWMAJOR;
	seq = s->head;
	d = DESC(s, s->hidx);
	shmids_st_desc_write(d, type, rows, c, cols ? 2 : 1, order, bytes);
	STORE(W64(d, DE_PUB), seq + 1, REL);
	STORE(W64(s->base, ST_HEAD), seq + 1, RLX);
	STORE(W32(s->base, ST_HSEQ), (uint32_t)(seq + 1), SC);
	/* one wake a sleep, not a publish: the bits go as they are woken */
	if (LOAD(W64(s->base, ST_SLEEPERS), SC) != 0 &&
	    __atomic_exchange_n(W64(s->base, ST_SLEEPERS), 0, SC) != 0)
		shmids_futex_wake(W32(s->base, ST_HSEQ), INT_MAX);
	s->head = seq + 1;
	if (++s->hidx == s->g.slots)
		s->hidx = 0;
	s->loaned = 0;
	return (long long)seq;
}

/*
 * End the stream (10.5): the seal, then fin's bit (seq_cst, so that the
 * last reader to leave, or this, sees both), then every reader woken.
 */
void
shmids_st_end(struct shmids_stream *s)
{
	shmids_seg_stream_end(s->be, &s->a);
	__atomic_fetch_or(W32(s->base, ST_FIN), FIN_ENDED, SC);
	__atomic_fetch_add(W32(s->base, ST_HSEQ), 1, SC);
	shmids_futex_wake(W32(s->base, ST_HSEQ), INT_MAX);
	shmids_st_remove_if_last(s);
}
