/*
 * shm-import's thread pool (cmd/par.h): POSIX threads taking job
 * numbers from one shared counter, the caller's thread among them.
 */
#include <pthread.h>
#include <signal.h>

#include "par.h"
#include "shmids.h"

struct pool {
	void		(*fn)(void *, size_t);
	void		*arg;
	size_t		 n, taken;
	pthread_mutex_t	 mu;
};

static void *
drain(void *p)
{
	struct pool *q = p;
	size_t job;

	for (;;) {
		pthread_mutex_lock(&q->mu);
		job = q->taken;
		if (job < q->n)
			q->taken++;
		pthread_mutex_unlock(&q->mu);
		if (job >= q->n)
			return NULL;
		q->fn(q->arg, job);
	}
}

void
par_run(size_t n, int nthreads, void (*fn)(void *, size_t), void *arg)
{
	pthread_t tid[SHMIDS_THREADS_MAX];
	sigset_t mask, old;
	struct pool q = { fn, arg, n, 0, PTHREAD_MUTEX_INITIALIZER };
	size_t made = 0, extra;

	extra = nthreads > 1 ? (size_t)nthreads - 1 : 0;
	if (extra > SHMIDS_THREADS_MAX - 1)
		extra = SHMIDS_THREADS_MAX - 1;
	if (n > 0 && extra > n - 1)
		extra = n - 1;
	/*
	 * The tool's signals stay its own thread's.  Not the faults, which
	 * strike the thread that faults: blocked, they would kill without
	 * the handler.
	 */
	sigfillset(&mask);
	sigdelset(&mask, SIGBUS);
	sigdelset(&mask, SIGSEGV);
	sigdelset(&mask, SIGFPE);
	sigdelset(&mask, SIGILL);
	if (extra > 0)
		pthread_sigmask(SIG_SETMASK, &mask, &old);
	while (made < extra && pthread_create(&tid[made], NULL, drain, &q) ==
	    0)
		made++;
	if (extra > 0)
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	drain(&q);
	while (made > 0)
		pthread_join(tid[--made], NULL);
}
