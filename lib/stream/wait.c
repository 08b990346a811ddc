/*
 * Waiting (format-spec.md 10.6): a short spin, then a futex sleep.  The
 * shared-memory queue with an adaptive mutex taught the spin (a
 * thousand times fewer futex calls); on 2 vCPUs an unbounded spin can
 * cost milliseconds when both sides share one, so the spin is bounded
 * in time, adapts to what it won lately, and is skipped where this
 * process may run on one CPU only.
 */
#define _GNU_SOURCE		/* sched_getaffinity, CPU_COUNT on glibc */
#include <errno.h>
#include <sched.h>
#include <time.h>

#include "stream.h"

#define SPIN_MAX	50000LL		/* ns: about two wake-ups */
#define SPIN_MIN	1000LL
#define SPIN_START	10000LL
#define POLL_NS		1000000LL	/* no futex: 1 ms naps */
#define FOREVER_NS	(1000000000LL * 1000000000)	/* 31 years */

/* A pause for the processor's sake between two looks at a word. */
static void
relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

/* May another CPU run the other side while this one spins? */
static int
several_cpus(void)
{
	static int n;	/* 0 not asked yet */
	int k = __atomic_load_n(&n, __ATOMIC_RELAXED);
#ifdef CPU_COUNT
	cpu_set_t set;
#endif

	if (k != 0)
		return k > 1;
	k = 2;
#ifdef CPU_COUNT
	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		k = CPU_COUNT(&set) > 1 ? 2 : 1;
#endif
	__atomic_store_n(&n, k, __ATOMIC_RELAXED);
	return k > 1;
}

void
shmids_st_spin_init(struct spin *sp)
{
	int e = errno;

	sp->ns = several_cpus() ? SPIN_START : 0;
	errno = e;
}

/*
 * Spin until ready(s, arg), for at most the budget and not past until:
 * 1 if it came (the budget follows twice what it took), 0 if not (the
 * budget halves, down to a microsecond: spinning lost).
 */
int
shmids_st_spin(struct spin *sp, int (*ready)(struct shmids_stream *, void *),
    struct shmids_stream *s, void *arg, long long until)
{
	long long start, limit, took;
	unsigned i;

	if (sp->ns <= 0)
		return 0;
	start = shmids_now_ns();
	limit = start + sp->ns < until ? start + sp->ns : until;
	for (i = 1;; i++) {
		if (ready(s, arg)) {
			took = shmids_now_ns() - start;
			sp->ns += (2 * took + SPIN_MIN - sp->ns) / 4;
			if (sp->ns > SPIN_MAX)
				sp->ns = SPIN_MAX;
			if (sp->ns < SPIN_MIN)
				sp->ns = SPIN_MIN;
			return 1;
		}
		relax();
		if (i % 32 == 0 && shmids_now_ns() >= limit)
			break;
	}
	sp->ns /= 2;
	if (sp->ns < SPIN_MIN)
		sp->ns = SPIN_MIN;
	return 0;
}

/*
 * Sleep on word while it is val, up to ns: 0 woken (or the word
 * changed), 1 the time is up, -1 with EINTR.  Without a futex, a nap.
 */
int
shmids_st_sleep(uint32_t *word, uint32_t val, long long ns)
{
	struct timespec ts;
	int e = errno;

	if (shmids_futex_wait(word, val, ns) == 0) {
		errno = e;
		return 0;
	}
	if (errno == EINTR)
		return -1;
	if (errno == ENOSYS) {
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(ns < POLL_NS ? ns : POLL_NS);
		if (nanosleep(&ts, NULL) == -1 && errno == EINTR)
			return -1;
		errno = e;
		return 0;
	}
	errno = e;
	return 1;
}

/* The deadline of a wait of seconds: -1 with EINVAL if they are none. */
long long
shmids_st_until(double seconds)
{
	if (!(seconds >= 0)) {
		errno = EINVAL;
		return -1;
	}
	return shmids_now_ns() +
	    (seconds < 1e9 ? (long long)(seconds * 1e9) : FOREVER_NS);
}
