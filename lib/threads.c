/*
 * Threads for the conversion of big arrays (format-spec.md 6.2): how
 * many a process may use, and one fork-join run of independent jobs.
 * POSIX threads from libc; nothing here touches global state but the
 * environment, read once per call.
 */
#define _GNU_SOURCE		/* sched_getaffinity(2), CPU_COUNT */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

/* The CPUs this process may run on (taskset, cgroup cpusets): at least 1. */
static int
cpus(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 &&
	    (n = CPU_COUNT(&set)) > 0)
		return n > SHMIDS_THREADS_MAX ? SHMIDS_THREADS_MAX : (int)n;
	/* more CPUs than a cpu_set_t holds: EINVAL; count them instead */
	n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		return 1;
	return n > SHMIDS_THREADS_MAX ? SHMIDS_THREADS_MAX : (int)n;
}

int
shmids_threads(void)
{
	const char *e = getenv("SHMIDS_THREADS");
	unsigned long cap = 0;
	int n = cpus();

	if (e == NULL || *e == '\0')
		return n;
	/* digits only: "4x", " 4", "+4" and "-1" are mistakes, not 4 */
	for (; *e >= '0' && *e <= '9'; e++)
		if ((cap = cap * 10 + (unsigned long)(*e - '0')) >
		    SHMIDS_THREADS_MAX)
			break;
	if (*e != '\0' || cap < 1) {
		errno = EINVAL;
		return -1;
	}
	return (unsigned long)n < cap ? n : (int)cap;
}

void
shmids_thread_mask(sigset_t *set)
{
	/*
	 * The caller's signals stay the caller's: its handlers, its EINTR.
	 * Not the faults, which strike the thread that faults: blocked,
	 * they would kill the process without its handler (SIGBUS of a
	 * file segment truncated under its reader).
	 */
	sigfillset(set);
	sigdelset(set, SIGBUS);
	sigdelset(set, SIGSEGV);
	sigdelset(set, SIGFPE);
	sigdelset(set, SIGILL);
}

struct run {
	void		(*fn)(void *, size_t);
	void		*arg;
	size_t		 n, next;	/* jobs; the next one not taken */
	pthread_mutex_t	 mu;
};

/* Take jobs in order until none is left. */
static void *
worker(void *p)
{
	struct run *r = p;
	size_t i;

	for (;;) {
		pthread_mutex_lock(&r->mu);
		i = r->next < r->n ? r->next++ : r->n;
		pthread_mutex_unlock(&r->mu);
		if (i == r->n)
			return NULL;
		r->fn(r->arg, i);
	}
}

size_t
shmids_par(size_t n, int nthreads, void (*fn)(void *, size_t), void *arg)
{
	pthread_t t[SHMIDS_THREADS_MAX];
	sigset_t all, old;
	struct run r;
	size_t k = 0, want;
	int e = errno;

	want = nthreads < 1 ? 0 : (size_t)nthreads - 1;
	/* t holds no more: a caller may ask for every CPU of a big machine */
	if (want > SHMIDS_THREADS_MAX - 1)
		want = SHMIDS_THREADS_MAX - 1;
	if (want > n - (n > 0))
		want = n > 0 ? n - 1 : 0;
	r.fn = fn;
	r.arg = arg;
	r.n = n;
	r.next = 0;
	if (want > 0 && pthread_mutex_init(&r.mu, NULL) != 0)
		want = 0;
	if (want == 0) {
		for (k = 0; k < n; k++)
			fn(arg, k);
		errno = e;
		return 1;
	}
	shmids_thread_mask(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (k = 0; k < want; k++)
		if (pthread_create(&t[k], NULL, worker, &r) != 0)
			break;	/* fewer threads: slower, not failed */
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	worker(&r);
	want = k;
	while (k > 0)
		pthread_join(t[--k], NULL);
	pthread_mutex_destroy(&r.mu);
	errno = e;
	return want + 1;
}
