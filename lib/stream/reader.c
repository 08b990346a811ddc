/*
 * A stream's reader (format-spec.md 10.3 to 10.5): registering, the
 * next message, a message by its seq, release, unregistering.  The
 * fast path is one store of the reader's own position (the release of
 * one message and the hold of the next), one load of wsleep, and the
 * acquire load of the descriptor's pub: no system call while the
 * writer keeps ahead.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stream.h"

#define NAP_NS	1000000L	/* 1 ms: a stream still being made */
#define GONE	(-2)		/* take(): the message asked for is gone */

/* shmids_st_msglabel: the contract is in stream.h. */
int
shmids_st_msglabel(const char *s, char label[SHMIDS_LABEL_MAX + 1],
    uint64_t *seq)
{
	size_t len = strlen(s), sp, i;
	uint64_t v = 0;

	if (len > 0 && s[len - 1] == '\n')
		len--;
	for (sp = len; sp > 0 && s[sp - 1] != ' '; sp--)
		;
	if (sp == 0 || sp == len || sp - 1 > SHMIDS_LABEL_MAX ||
	    (s[sp] == '0' && len - sp > 1) ||
	    memchr(s, ' ', sp - 1) == NULL)
		return 0;
	for (i = sp; i < len; i++) {
		if (s[i] < '0' || s[i] > '9' ||
		    v > ((uint64_t)INT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return 0;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (shmids_label_check(s, sp - 1) == -1)
		return 0;
	memcpy(label, s, sp - 1);
	label[sp - 1] = '\0';
	*seq = v;
	return 1;
}

static int
usable(const struct shmids_stream *s)
{
	if (s == NULL || s->writer || s->forked) {
		errno = EBADF;
		return 0;
	}
	return 1;
}

/* The reader's position: message p, held or not, in its entry. */
static void
put_pos(struct shmids_stream *s, uint64_t p, int hold)
{
	s->pos = p;
	s->pidx = p % s->g.slots;
	s->held = hold;
	STORE(W64(ENTRY(s, s->k), EN_POS), p << 1 | (uint64_t)hold, SC);
}

static int
published(struct shmids_stream *s, void *arg)
{
	return LOAD(W64(DESC(s, s->pidx), DE_PUB), ACQ) ==
	    *(uint64_t *)arg + 1 || shmids_hdr_state(s->base) == 'r';
}

/*
 * After a wait: 1 if message p is published now, else 0 at the end of
 * the stream, or -1 with EOWNERDEAD if look and its writer is dead.
 * pub is loaded after the state, which the writer stored after its
 * last pub (10.5).
 */
static int
settled(struct shmids_stream *s, uint64_t p, int look)
{
	int state = shmids_hdr_state(s->base);

	if (LOAD(W64(DESC(s, s->pidx), DE_PUB), ACQ) == p + 1)
		return 1;
	if (state == 'r')
		return 0;
	if (look && shmids_st_writer_alive(s, s->id) == 0) {
		if (LOAD(W64(DESC(s, s->pidx), DE_PUB), ACQ) == p + 1)
			return 1;
		errno = EOWNERDEAD;
		return -1;
	}
	return 2;	/* not yet */
}

/*
 * Wait for message p up to seconds (10.6; the clock is read only once a
 * wait begins): 1 published, 0 end of stream, -1 with EAGAIN, EINTR or
 * EOWNERDEAD.
 */
static int
wait_msg(struct shmids_stream *s, uint64_t p, double seconds)
{
	uint64_t *sleepers = W64(s->base, ST_SLEEPERS), me = (uint64_t)1 << s->k;
	uint32_t *hseq = W32(s->base, ST_HSEQ), v;
	long long left, until = shmids_st_until(seconds);
	int r, look = 0;

	if (shmids_st_spin(&s->spin, published, s, &p, until))
		return settled(s, p, 0) == 1;
	for (;;) {
		__atomic_fetch_or(sleepers, me, SC);
		v = LOAD(hseq, SC);
		if ((r = settled(s, p, look)) != 2 ||
		    (left = until - shmids_now_ns()) <= 0) {
			__atomic_fetch_and(sleepers, ~me, SC);
			if (r == 2)
				errno = EAGAIN;
			return r == 2 ? -1 : r;
		}
		r = shmids_st_sleep(hseq, v, left < SLICE_NS ? left : SLICE_NS);
		__atomic_fetch_and(sleepers, ~me, SC);
		if (r == -1)
			return -1;
		/* a whole slice with no word: is the writer still there? */
		look = r == 1;
	}
}

/*
 * Hold message s->pos and hand it out in m (10.3, Reading): 1, 0 at the
 * end of the stream, -1 with errno; exact (shmids_stream_get()): GONE
 * for a message lapped or past the end, instead of skipping to the
 * oldest kept or saying the end.
 */
static int
take(struct shmids_stream *s, struct shmids_msg *m, double seconds,
    int exact)
{
	uint64_t p, t, lost = 0;
	int r, e;

	if (LOAD(W64(ENTRY(s, s->k), EN_OWNER), RLX) != s->owner) {
		errno = ENOLINK;
		return -1;
	}
	for (;;) {
		p = s->pos;
		put_pos(s, p, 1);
		shmids_st_wake_writer(s);
		if (s->g.policy == POLICY_OVERWRITE &&
		    (t = LOAD(W64(s->base, ST_TAIL), SC)) > p) {
			if (exact)
				return GONE;
			lost += t - p;	/* lapped: told, never silent */
			s->pos = t;
			continue;
		}
		if (LOAD(W64(DESC(s, s->pidx), DE_PUB), ACQ) == p + 1)
			break;
		if ((r = wait_msg(s, p, seconds)) == 1)
			continue;
		/* nothing handed out: nothing held, for the writer too */
		put_pos(s, p, 0);
		shmids_st_wake_writer(s);
		if (r == 0 && exact)
			return GONE;
		if (r == 0 || errno == EOWNERDEAD)
			s->ended = r == 0 ? -1 : EOWNERDEAD;
		return r;
	}
	m->lost = (long long)lost;
	if ((e = shmids_st_desc_read(DESC(s, s->pidx), p, s->g.capacity, m))
	    != 0) {
		m->data = NULL;
		errno = e;	/* skipped: held, so the next call goes on */
		return -1;
	}
	m->data = PAYLOAD(s, s->pidx);
	return 1;
}

int
shmids_stream_next(struct shmids_stream *s, struct shmids_msg *m,
    double seconds)
{
	if (!usable(s))
		return -1;
	if (m == NULL || !(seconds >= 0)) {
		errno = EINVAL;
		return -1;
	}
	if (s->ended != 0) {
		if (s->ended == -1)
			return 0;
		errno = s->ended;
		return -1;
	}
	if (s->held)
		s->pos++;
	s->pidx = s->pos % s->g.slots;
	return take(s, m, seconds, 0);
}

/*
 * A get() that failed puts the reader back at p, holding nothing: or,
 * under the wait policy, at tail if the writer moved past p while the
 * reader's position was further on (those slots may be reused; tail is
 * then the oldest message kept).  gen tells a writer between its look
 * at the positions and its reuse to look again (10.3).
 */
static void
restore(struct shmids_stream *s, uint64_t p)
{
	uint64_t t;

	put_pos(s, p, 0);
	__atomic_fetch_add(W64(s->base, ST_GEN), 1, SC);
	while (s->g.policy == POLICY_WAIT &&
	    (t = LOAD(W64(s->base, ST_TAIL), SC)) > s->pos)
		put_pos(s, t, 0);
	shmids_st_wake_writer(s);
}

int
shmids_stream_get(struct shmids_stream *s, long long seq,
    struct shmids_msg *m, double seconds)
{
	uint64_t q = (uint64_t)seq, was;
	int r, ended, e;

	if (!usable(s))
		return -1;
	if (m == NULL || seq < 0 || !(seconds >= 0)) {
		errno = EINVAL;
		return -1;
	}
	if (LOAD(W64(ENTRY(s, s->k), EN_OWNER), RLX) != s->owner) {
		errno = ENOLINK;
		return -1;
	}
	/* where next() would go on: after a message held */
	was = s->held ? s->pos + 1 : s->pos;
	ended = s->ended;
	s->ended = 0;
	s->pos = q;
	s->pidx = q % s->g.slots;
	if (q < was && shmids_st_back(s, q) == -1)
		r = GONE;
	else
		r = take(s, m, seconds, 1);
	if (r == 1)
		return 1;
	/* gone, past the end, or no message: the reader where it was */
	e = r == GONE ? ENOMSG : errno;
	restore(s, was);
	s->ended = ended;
	errno = e;
	return -1;
}

int
shmids_stream_release(struct shmids_stream *s)
{
	if (!usable(s))
		return -1;
	if (s->held) {
		put_pos(s, s->pos + 1, 0);
		shmids_st_wake_writer(s);
	}
	return 0;
}

/* Attach and check the stream label names; the caller waits on EAGAIN. */
static int
attach(struct shmids_stream *s, const char *label)
{
	struct shmids_info si;
	struct hdr hd;
	int e;

	if (shmids_seg_stream_attach(label, &s->be, &si, &hd, &s->a) == -1)
		return -1;
	/* no magic: being made, or its writer died making it (2.2) */
	if ((e = shmids_st_geom_read(s->a.addr, s->a.size, &s->g)) == EAGAIN)
		e = hd.state == 'r' ? EBADMSG :
		    s->be->ready(&si, NULL, 'w') == EOWNERDEAD ? EOWNERDEAD :
		    EAGAIN;
	if (e != 0) {
		s->be->detach(&s->a);
		errno = e;
		return -1;
	}
	strcpy(s->id, si.id);
	strcpy(s->label, hd.label);
	s->base = s->a.addr;
	shmids_st_place(s);
	return 0;
}

/* Attach, waiting up to until for a stream still being made. */
static int
attach_wait(struct shmids_stream *s, const char *label, long long until)
{
	struct timespec ts = { 0, NAP_NS };

	while (attach(s, label) == -1) {
		if (errno != EAGAIN || shmids_now_ns() >= until)
			return -1;
		if (nanosleep(&ts, NULL) == -1 && errno == EINTR)
			return -1;
	}
	return 0;
}

/* Message seq is gone, or past the end of a stream that ended. */
static int
gone(struct shmids_stream *s, uint64_t seq)
{
	int state = shmids_hdr_state(s->base);

	return seq < LOAD(W64(s->base, ST_TAIL), SC) || (state == 'r' &&
	    seq >= LOAD(W64(s->base, ST_HEAD), ACQ));
}

struct shmids_stream *
shmids_stream_open(const char *label, int flags, double seconds)
{
	char l[SHMIDS_LABEL_MAX + 1];
	struct shmids_stream *s;
	uint64_t seq = 0, start;
	long long until;
	int byseq, e;

	if (label == NULL || (flags & ~SHMIDS_STREAM_NEW) != 0 ||
	    (until = shmids_st_until(seconds)) == -1) {
		errno = EINVAL;
		return NULL;
	}
	if ((byseq = shmids_st_msglabel(label, l, &seq)) &&
	    (flags & SHMIDS_STREAM_NEW)) {
		errno = EINVAL;
		return NULL;
	}
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return NULL;
	if (attach_wait(s, byseq ? l : label, until) == -1)
		goto fail_free;
	/* gone before it registers: a look counts for no reader (10.4) */
	if (byseq && gone(s, seq)) {
		errno = ENOMSG;
		goto fail_detach;
	}
	if (shmids_st_track(s) == -1)
		goto fail_detach;
	if (shmids_st_join(s, flags & SHMIDS_STREAM_NEW, &start) == -1) {
		e = errno;
		shmids_st_untrack(s);
		errno = e;
		goto fail_detach;
	}
	if (byseq && seq < start) {
		shmids_st_unregister(s);
		shmids_st_untrack(s);
		shmids_st_free(s);
		errno = ENOMSG;
		return NULL;
	}
	put_pos(s, byseq ? seq : start, 0);
	return s;
fail_detach:
	e = errno;
	s->be->detach(&s->a);
	errno = e;
fail_free:
	e = errno;
	free(s);
	errno = e;
	return NULL;
}

/* A reader's close (10.3, 10.5): unregister, then maybe remove. */
void
shmids_st_unregister(struct shmids_stream *s)
{
	shmids_st_leave(s);
	shmids_st_remove_if_last(s);
}
