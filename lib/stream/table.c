/*
 * The reader table (format-spec.md 10.3, 10.5): registering, stepping
 * back, unregistering, and taking back the entry of a reader that died.
 * An entry is owned through its owner word (System V: compare-and-swap)
 * or, for a file stream, through a write lock on its 128 bytes, which
 * its reader holds while registered: whoever holds the lock owns the
 * entry, so a lock granted on an entry whose owner word is set means
 * that owner is dead.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>

#include "stream.h"

static uint64_t
bit(int k)
{
	return (uint64_t)1 << k;
}

static int
is_file(const struct shmids_stream *s)
{
	return s->a.fd >= 0;
}

static int
lock_entry(const struct shmids_stream *s, int k, int type)
{
	return shmids_file_lock(&s->a, type, ST_TABLE + (size_t)k * ST_ENTRY,
	    ST_ENTRY);
}

/* The writer may wait for what a reader just did: wake it (10.6). */
void
shmids_st_wake_writer(struct shmids_stream *s)
{
	uint32_t *w = W32(s->base, ST_WSLEEP);

	if (LOAD(w, SC) != 0) {
		STORE(w, 0, SC);
		shmids_futex_wake(w, INT_MAX);
	}
}

/*
 * Empty entry k, whose owner word was cur (a dead reader's): its bits
 * go, then the word, last, with release.  -1 if another took it first.
 */
static int
empty(struct shmids_stream *s, int k, uint64_t cur)
{
	char *en = ENTRY(s, k);

	if (!__atomic_compare_exchange_n(W64(en, EN_OWNER), &cur,
	    OWNER_RECLAIM, 0, SC, SC))
		return -1;
	__atomic_fetch_and(W64(s->base, ST_MASK), ~bit(k), SC);
	__atomic_fetch_and(W64(s->base, ST_SLEEPERS), ~bit(k), SC);
	STORE(W64(en, EN_POS), 0, RLX);
	STORE(W64(en, EN_OWNER), 0, REL);
	return 0;
}

/*
 * Take back entry k if its reader is dead: 1 if it was, 0 if not (or
 * it was free, or cannot be told).
 */
int
shmids_st_reclaim(struct shmids_stream *s, int k)
{
	uint64_t cur;
	int r = 0;

	if (is_file(s)) {
		if (lock_entry(s, k, F_WRLCK) == -1)
			return 0;	/* its reader's lock: alive */
		cur = LOAD(W64(ENTRY(s, k), EN_OWNER), ACQ);
		/* 1: whoever emptied it held the lock, and died doing so */
		if (cur != 0)
			r = empty(s, k, cur) == 0;
		lock_entry(s, k, F_UNLCK);
	} else {
		cur = LOAD(W64(ENTRY(s, k), EN_OWNER), ACQ);
		if (cur != 0 && cur != OWNER_RECLAIM &&
		    shmids_st_reader_alive(s, s->id, k) == 0)
			r = empty(s, k, cur) == 0;
	}
	if (r)
		shmids_st_wake_writer(s);
	return r;
}

/* Entry k for owner, if free or its reader dead: 0, else -1. */
static int
claim(struct shmids_stream *s, int k, uint64_t owner)
{
	uint64_t *w = W64(ENTRY(s, k), EN_OWNER), cur;

	if (is_file(s)) {
		if (lock_entry(s, k, F_WRLCK) == -1)
			return -1;
		/* the lock granted: whoever owned the entry is dead */
		if ((cur = LOAD(w, ACQ)) != 0 && empty(s, k, cur) == -1)
			goto busy;
		cur = 0;
		if (__atomic_compare_exchange_n(w, &cur, owner, 0, SC, SC))
			return 0;
busy:
		lock_entry(s, k, F_UNLCK);
		return -1;
	}
	cur = 0;
	if (__atomic_compare_exchange_n(w, &cur, owner, 0, SC, SC))
		return 0;
	if (shmids_st_reclaim(s, k) != 1)
		return -1;
	cur = 0;
	return __atomic_compare_exchange_n(w, &cur, owner, 0, SC, SC) ? 0 : -1;
}

/*
 * Register s: an entry, then the position and the bits (10.3,
 * Registering): at tail, or at head with at_head.  0 and *start, or -1
 * with EUSERS (no entry free, nor any whose reader is dead).
 */
int
shmids_st_join(struct shmids_stream *s, int at_head, uint64_t *start)
{
	struct ident me;
	uint64_t owner, t, t2;
	uint64_t *pos;
	char *en;
	int k;

	shmids_st_self(&me);
	owner = shmids_st_owner(&me);
	for (k = 0; k < (int)s->g.rtable; k++)
		if (claim(s, k, owner) == 0)
			break;
	if (k == (int)s->g.rtable) {
		errno = EUSERS;
		return -1;
	}
	en = ENTRY(s, k);
	pos = W64(en, EN_POS);
	STORE(W64(en, EN_START), me.start, RLX);
	STORE(W64(en, EN_PIDNS), me.pidns, RLX);
	s->k = k;
	s->owner = owner;
	t = at_head ? LOAD(W64(s->base, ST_HEAD), ACQ) :
	    LOAD(W64(s->base, ST_TAIL), SC);
	STORE(pos, t << 1, SC);
	__atomic_fetch_or(W64(s->base, ST_MASK), bit(k), SC);
	__atomic_fetch_add(W64(s->base, ST_JOINED), 1, SC);
	__atomic_fetch_add(W64(s->base, ST_GEN), 1, SC);
	/* the writer saw this position, or this sees the writer's tail */
	while ((t2 = LOAD(W64(s->base, ST_TAIL), SC)) > t) {
		t = t2;
		STORE(pos, t << 1, SC);
	}
	shmids_st_wake_writer(s);
	*start = t;
	return 0;
}

/*
 * Step back to message seq, held (10.3): 0, or -1 if the writer has
 * moved past it (the caller puts its position back).
 */
int
shmids_st_back(struct shmids_stream *s, uint64_t seq)
{
	STORE(W64(ENTRY(s, s->k), EN_POS), seq << 1 | 1, SC);
	__atomic_fetch_add(W64(s->base, ST_GEN), 1, SC);
	return LOAD(W64(s->base, ST_TAIL), SC) > seq ? -1 : 0;
}

/*
 * Unregister s (10.3): its bits, then its word, as a dead reader's are
 * emptied (nothing, if its entry was taken back meanwhile); the lock
 * last.
 */
void
shmids_st_leave(struct shmids_stream *s)
{
	empty(s, s->k, s->owner);
	if (is_file(s))
		lock_entry(s, s->k, F_UNLCK);
	shmids_st_wake_writer(s);
}
