/*
 * The children's work, the same for every contender: what a message
 * holds, how the writer fills it and the reader checks it, and the
 * loops of the one-way, ping-pong and live measurements.
 *
 * A message of the one-way and ping-pong measurements is nbytes / 8
 * words of 64 bits: word 0 is the sequence number (its top bit set on
 * the last message), word k is the sequence number XOR k.  The writer
 * writes every word; the reader reads every word and checks it, so
 * that every contender moves and touches every byte, and none can skip
 * the data.  A step of the live case is n doubles, x[i] = step + i / 2,
 * written by the writer and summed by the reader (four partial sums),
 * which checks the sum: exact, whatever the order, since every partial
 * sum is a multiple of 1/2 below 2^52.
 */
#include "stream.h"

#define LAST		((uint64_t)1 << 63)
#define MAXPING		((uint64_t)1 << 21)	/* round trips timed, at most */

double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* This process's CPU time, all its threads, user and system, s. */
double
cputime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void
fail(struct side *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->why, sizeof(s->why), fmt, ap);
	va_end(ap);
	s->ok = 0;
}

void
fill(void *p, size_t nbytes, uint64_t seq, int last)
{
	uint64_t *w = p;
	size_t k, n = nbytes / 8;

	w[0] = seq | (last ? LAST : 0);
	for (k = 1; k < n; k++)
		w[k] = seq ^ k;
}

/* 0 if p holds message seq, with *last its flag; -1 if not. */
int
check(const void *p, size_t nbytes, uint64_t seq, int *last)
{
	const uint64_t *w = p;
	uint64_t bad = 0;
	size_t k, n = nbytes / 8;

	if ((w[0] & ~LAST) != seq)
		return -1;
	*last = (w[0] & LAST) != 0;
	for (k = 1; k < n; k++)
		bad |= w[k] ^ (seq ^ k);
	return bad != 0 ? -1 : 0;
}

void
fill_live(double *x, size_t n, long step)
{
	size_t i;

	for (i = 0; i < n; i++)
		x[i] = (double)step + (double)i * 0.5;
}

/* 0 if x sums to what fill_live() put there for step, -1 if not. */
int
sum_live(const double *x, size_t n, long step)
{
	double s0 = 0, s1 = 0, s2 = 0, s3 = 0, want;
	size_t i;

	for (i = 0; i + 4 <= n; i += 4) {
		s0 += x[i];
		s1 += x[i + 1];
		s2 += x[i + 2];
		s3 += x[i + 3];
	}
	for (; i < n; i++)
		s0 += x[i];
	want = (double)n * (double)step + (double)(n * (n - 1) / 2) * 0.5;
	return (s0 + s1) + (s2 + s3) == want ? 0 : -1;
}

static int
stopped(const struct shared *sh)
{
	return __atomic_load_n(&sh->stop, __ATOMIC_RELAXED) != 0;
}

/*
 * Send message i on ch, the last if last: a step of doubles (LIVE) or
 * a message of words.  0, or -1 with s->why.
 */
static int
send_one(const struct contender *c, struct chan *ch, int kind, uint64_t i,
    int last, struct side *s)
{
	void *p;

	if ((p = c->loan(ch)) == NULL) {
		fail(s, "loan of message %llu failed", (unsigned long long)i);
		return -1;
	}
	if (kind == LIVE)
		fill_live(p, ch->nbytes / sizeof(double), (long)i);
	else
		fill(p, ch->nbytes, i, last);
	if (c->publish(ch) == -1) {
		fail(s, "publish of message %llu failed",
		    (unsigned long long)i);
		return -1;
	}
	return 0;
}

/* Receive message i on ch and check it: 0 and whether it was the last. */
static int
recv_one(const struct contender *c, struct chan *ch, int kind, uint64_t i,
    int *last, struct side *s)
{
	const void *p;
	int bad;

	if ((p = c->next(ch)) == NULL) {
		fail(s, "receiving message %llu failed",
		    (unsigned long long)i);
		return -1;
	}
	if (kind == LIVE) {
		*last = i + 1 == (uint64_t)conf.steps;
		bad = sum_live(p, ch->nbytes / sizeof(double), (long)i);
	} else
		bad = check(p, ch->nbytes, i, last);
	if (bad) {
		fail(s, "message %llu is not what was sent",
		    (unsigned long long)i);
		return -1;
	}
	if (c->release(ch) == -1) {
		fail(s, "release of message %llu failed",
		    (unsigned long long)i);
		return -1;
	}
	return 0;
}

/* A side's account of a loop begun at CPU time c0, done n times. */
static int
finish(struct side *s, double c0, uint64_t n)
{
	s->t1 = now();
	s->cpu = cputime() - c0;
	s->n = n;
	s->ok = 1;
	return 0;
}

/*
 * The writer of ONEWAY (until the driver says stop) and LIVE
 * (conf.steps).  0, or -1 with sh->w.why.
 */
int
run_writer(const struct contender *c, struct chan *ab, int kind,
    struct shared *sh)
{
	struct side *s = &sh->w;
	double c0 = cputime();
	uint64_t i;
	int last;

	s->t0 = now();
	for (i = 0;; i++) {
		last = kind == LIVE ? i + 1 == (uint64_t)conf.steps :
		    stopped(sh);
		if (send_one(c, ab, kind, i, last, s) == -1)
			return -1;
		if (last)
			break;
	}
	return finish(s, c0, i + 1);
}

int
run_reader(const struct contender *c, struct chan *ab, int kind,
    struct shared *sh)
{
	struct side *s = &sh->r;
	double c0 = cputime();
	uint64_t i;
	int last;

	s->t0 = now();
	for (i = 0;; i++) {
		if (recv_one(c, ab, kind, i, &last, s) == -1)
			return -1;
		if (last)
			break;
	}
	return finish(s, c0, i + 1);
}

/*
 * The pinger: send i on ab, wait for i back on ba, and time it: for
 * PINGPONG until the driver says stop (MAXPING at most), with the
 * median and 99th percentile of the round trips in sh; for ROUNDTRIPS,
 * conf.roundtrips of them (fewer if stopped), the total only.
 */
int
run_pinger(const struct contender *c, struct chan *ab, struct chan *ba,
    int kind, struct shared *sh)
{
	struct side *s = &sh->w;
	double c0, t, *lat = NULL;
	uint64_t i, max;
	int last, back;

	max = kind == PINGPONG ? MAXPING : (uint64_t)conf.roundtrips;
	if (kind == PINGPONG)
		lat = xmalloc(max * sizeof(*lat));
	c0 = cputime();
	s->t0 = now();
	for (i = 0;; i++) {
		t = kind == PINGPONG ? now() : 0;
		last = i + 1 == max || stopped(sh);
		if (send_one(c, ab, kind, i, last, s) == -1 ||
		    recv_one(c, ba, kind, i, &back, s) == -1)
			return -1;
		if (back != last) {
			fail(s, "round trip %llu came back %s",
			    (unsigned long long)i,
			    last ? "not the last" : "the last");
			return -1;
		}
		if (lat != NULL)
			lat[i] = now() - t;
		if (last)
			break;
	}
	finish(s, c0, i + 1);
	if (lat != NULL) {
		sh->p99 = percentile(lat, s->n, 99);
		sh->med = percentile(lat, s->n, 50);
		free(lat);
	}
	return 0;
}

/* The ponger: each message on ab back on ba, until the last. */
int
run_ponger(const struct contender *c, struct chan *ab, struct chan *ba,
    int kind, struct shared *sh)
{
	struct side *s = &sh->r;
	double c0 = cputime();
	uint64_t i;
	int last;

	s->t0 = now();
	for (i = 0;; i++) {
		if (recv_one(c, ab, kind, i, &last, s) == -1 ||
		    send_one(c, ba, kind, i, last, s) == -1)
			return -1;
		if (last)
			break;
	}
	return finish(s, c0, i + 1);
}

/*
 * The live case's floor: its writer's and reader's work in one process,
 * on one buffer faulted in before the clock starts.
 */
int
run_floor(struct shared *sh)
{
	struct side *s = &sh->w;
	double c0, *x;
	long i;

	x = xmalloc(conf.live_n * sizeof(*x));
	memset(x, 0, conf.live_n * sizeof(*x));
	c0 = cputime();
	s->t0 = now();
	for (i = 0; i < conf.steps; i++) {
		fill_live(x, conf.live_n, i);
		if (sum_live(x, conf.live_n, i) == -1) {
			fail(s, "step %ld: wrong sum", i);
			free(x);
			return -1;
		}
	}
	finish(s, c0, (uint64_t)conf.steps);
	sh->r = *s;
	sh->r.cpu = 0;
	free(x);
	return 0;
}
