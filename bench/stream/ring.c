/*
 * ring, ring-adaptive: the shared-memory queue of the project's sources
 * (shmemq: "Shared Memory Queue, Adaptive pthread_mutex, and Dynamic
 * Tracing"), written again here: a ring of fixed-size slots in shared
 * memory, a read and a write index, one process-shared mutex around
 * both.  try_enqueue copies the message in under the mutex (false if
 * the ring is full), try_dequeue copies it out (false if empty); the
 * blocking variant is the source's, a loop on the try call that spins
 * until it succeeds.  ring-adaptive makes the mutex
 * PTHREAD_MUTEX_ADAPTIVE_NP (spin, then sleep), which cut the source's
 * futex calls 1000-fold.  Two copies: into the slot and out of it.
 * The ring is an anonymous shared mapping rather than the source's
 * shm_open object: the same memory, with no name to remove.
 */
#include "stream.h"

#include <pthread.h>

#define HEAD	128		/* the mutex and the indexes; slots after */

struct shmemq {
	pthread_mutex_t	 lock;
	uint64_t	 read, write;	/* messages taken out, put in */
};

struct ringchan {
	struct shmemq	*q;
	size_t		 len;
	char		*buf;		/* this process's message */
};

static char *
slot(const struct chan *c, const struct ringchan *r, uint64_t i)
{
	return (char *)r->q + HEAD + (i % (uint64_t)c->slots) * c->nbytes;
}

static int
try_enqueue(const struct chan *c, struct ringchan *r)
{
	struct shmemq *q = r->q;

	pthread_mutex_lock(&q->lock);
	if (q->write - q->read >= (uint64_t)c->slots) {
		pthread_mutex_unlock(&q->lock);
		return 0;
	}
	memcpy(slot(c, r, q->write), r->buf, c->nbytes);
	q->write++;
	pthread_mutex_unlock(&q->lock);
	return 1;
}

static int
try_dequeue(const struct chan *c, struct ringchan *r)
{
	struct shmemq *q = r->q;

	pthread_mutex_lock(&q->lock);
	if (q->read >= q->write) {
		pthread_mutex_unlock(&q->lock);
		return 0;
	}
	memcpy(r->buf, slot(c, r, q->read), c->nbytes);
	q->read++;
	pthread_mutex_unlock(&q->lock);
	return 1;
}

static int
ring_make(struct chan *c, int adaptive)
{
	struct ringchan *r = xmalloc(sizeof(*r));
	pthread_mutexattr_t attr;
	int e;

	r->len = HEAD + (size_t)c->slots * c->nbytes;
	r->buf = NULL;
	if ((r->q = shared_map(r->len)) == NULL) {
		free(r);
		return -1;
	}
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	if (adaptive)
		pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ADAPTIVE_NP);
	e = pthread_mutex_init(&r->q->lock, &attr);
	pthread_mutexattr_destroy(&attr);
	if (e != 0) {
		warnx("pthread_mutex_init: %s", strerror(e));
		shared_unmap(r->q, r->len);
		free(r);
		return -1;
	}
	c->priv = r;
	return 0;
}

static int
ring_open(struct chan *c)
{
	return ring_make(c, 0);
}

static int
ring_open_adaptive(struct chan *c)
{
	return ring_make(c, 1);
}

static int
ring_attach(struct chan *c, int role)
{
	struct ringchan *r = c->priv;

	(void)role;
	r->buf = xmalloc(c->nbytes);
	memset(r->buf, 0, c->nbytes);
	return 0;
}

static void *
ring_loan(struct chan *c)
{
	return ((struct ringchan *)c->priv)->buf;
}

static int
ring_publish(struct chan *c)
{
	while (!try_enqueue(c, c->priv))
		;
	return 0;
}

static const void *
ring_next(struct chan *c)
{
	struct ringchan *r = c->priv;

	while (!try_dequeue(c, r))
		;
	return r->buf;
}

static int
ring_release(struct chan *c)
{
	(void)c;
	return 0;
}

static void
ring_close(struct chan *c)
{
	struct ringchan *r = c->priv;

	pthread_mutex_destroy(&r->q->lock);
	shared_unmap(r->q, r->len);
	free(r->buf);
	free(r);
}

const struct contender c_ring = {
	"ring", "ring (mutex)",
	"copies twice: shmemq's ring, try_enqueue/try_dequeue under a "
	"process-shared mutex, spinning on them",
	1, NULL, NULL, ring_open, ring_attach, ring_loan, ring_publish,
	ring_next, ring_release, NULL, ring_close, NULL
};

const struct contender c_ring_adaptive = {
	"ring-adaptive", "ring (adaptive)",
	"as ring (mutex), the mutex PTHREAD_MUTEX_ADAPTIVE_NP",
	1, NULL, NULL, ring_open_adaptive, ring_attach, ring_loan,
	ring_publish, ring_next, ring_release, NULL, ring_close, NULL
};
