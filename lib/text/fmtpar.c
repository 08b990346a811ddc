/*
 * A big array's values formatted on several threads (format-spec.md
 * 6.2), handed back in order: the array is cut into chunks, each
 * formatted by whichever thread is free into a slot of its own, and
 * each filled slot is given, in the order of the array, to the caller's
 * put() on the caller's thread, which formats chunks itself whenever the
 * next one is not ready.  Only put() writes, so a write error, SIGPIPE
 * and EINTR are the caller's as on one thread.  A ring of slots bounds
 * memory: chunk c is taken only once chunk c - nslot was put, so the
 * text in memory is at most nslot chunks whatever the array's size.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>

#include "text.h"

#define CHUNK	8192		/* values a chunk, at most */
#define RING	(32u << 20)	/* bytes of all slots' text, at most */
#define TEXT	SHMIDS_NUM_MAX	/* bytes of one value's text: sep, value */

enum { FREE, BUSY, READY };

struct slot {
	char		*text;
	unsigned char	*len;
	size_t		 chunk;	/* the one it holds (BUSY, READY) */
	int		 state;	/* FREE, BUSY (being filled), READY (to put) */
};

struct job {
	pthread_mutex_t	 mu;
	pthread_cond_t	 ready;	/* the next chunk to put was filled */
	pthread_cond_t	 room;	/* a slot was freed, or stop */
	struct slot	*slot;	/* nslot, then the caller's spare */
	size_t		 nslot, nthr;	/* slots; threads, the caller's too */
	size_t		 per, nchunk;	/* values a chunk; chunks */
	size_t		 next, done;	/* the first chunk not taken, not put */
	int		 stop;
	const char	*data;
	size_t		 count, esz;
	int		 type, style, sep;
};

/* Format chunk c into s: a value cannot fail, its style was tried. */
static void
fill(struct job *j, size_t c, struct slot *s)
{
	size_t i = c * j->per, end = i + j->per, k;
	const char *p = j->data + i * j->esz;
	char *t = s->text;

	if (end > j->count)
		end = j->count;
	for (k = 0; i < end; i++, k++, p += j->esz) {
		*t = (char)j->sep;
		s->len[k] = (unsigned char)shmids_format_elem(t + 1, j->type, p,
		    j->style);
		t += 1 + s->len[k];
	}
}

/* Can the next chunk be taken: is it in the ring, is its slot free? */
static int
takeable(const struct job *j)
{
	return j->next < j->nchunk && j->next < j->done + j->nslot &&
	    j->slot[j->next % j->nslot].state == FREE;
}

/* Take the next chunk and fill it, unlocked; then it is READY to put. */
static void
take(struct job *j)
{
	size_t c = j->next++;
	struct slot *s = &j->slot[c % j->nslot];

	s->state = BUSY;
	s->chunk = c;
	pthread_mutex_unlock(&j->mu);
	fill(j, c, s);
	pthread_mutex_lock(&j->mu);
	if (c >= j->done) {
		s->state = READY;
		if (c == j->done)	/* what the caller may wait for */
			pthread_cond_signal(&j->ready);
	} else {		/* the caller took it over: free */
		s->state = FREE;
		pthread_cond_broadcast(&j->room);
	}
}

/* Take and fill chunks while the ring has room, until none is left. */
static void *
worker(void *p)
{
	struct job *j = p;

	pthread_mutex_lock(&j->mu);
	for (;;) {
		while (!j->stop && j->next < j->nchunk && !takeable(j))
			pthread_cond_wait(&j->room, &j->mu);
		if (j->stop || j->next >= j->nchunk)
			break;
		take(j);
	}
	pthread_mutex_unlock(&j->mu);
	return NULL;
}

/* Hand chunk c, in s, to put(), unlocked. */
static int
give(struct job *j, size_t c, const struct slot *s,
    int (*put)(void *, const struct shmids_chunk *), void *arg)
{
	struct shmids_chunk ch;
	int r;

	ch.text = s->text;
	ch.len = s->len;
	ch.first = c * j->per;
	ch.n = j->count - ch.first < j->per ? j->count - ch.first : j->per;
	pthread_mutex_unlock(&j->mu);
	r = put(arg, &ch);
	pthread_mutex_lock(&j->mu);
	return r;
}

/* Wait for a chunk to be filled, 2 ms at most (ready's clock is monotonic). */
static void
await(struct job *j)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	if ((t.tv_nsec += 2000000) >= 1000000000) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000;
	}
	pthread_cond_timedwait(&j->ready, &j->mu, &t);
}

/*
 * The caller's part: put each chunk in order as soon as it is filled,
 * fill one when it would otherwise wait.  A chunk a worker still fills
 * after 2 ms (a busy machine has taken its CPU) the caller fills again
 * in its spare slot and puts, rather than wait for it; the worker's slot
 * is freed when it is done.  0, or -1 if put() stopped.
 */
static int
drain(struct job *j, int (*put)(void *, const struct shmids_chunk *),
    void *arg)
{
	struct slot *s, *spare = &j->slot[j->nslot];
	size_t c;
	int r = 0, waited = 0;

	pthread_mutex_lock(&j->mu);
	while (j->done < j->nchunk && r == 0) {
		s = &j->slot[j->done % j->nslot];
		if (s->state == READY && s->chunk == j->done) {
			r = give(j, j->done, s, put, arg);
			s->state = FREE;
			j->done++;
			waited = 0;
			pthread_cond_broadcast(&j->room);
		} else if (takeable(j))
			take(j);
		else if (s->state == BUSY && (waited || s->chunk != j->done)) {
			/*
			 * Put before it is done: the worker that ends it
			 * meanwhile must free its slot, not mark it READY.
			 */
			c = j->done++;
			if (j->next == c)	/* its slot is an old one's */
				j->next++;
			pthread_mutex_unlock(&j->mu);
			fill(j, c, spare);
			pthread_mutex_lock(&j->mu);
			r = give(j, c, spare, put, arg);
			waited = 0;
		} else {
			await(j);
			waited = 1;
		}
	}
	j->stop = 1;
	pthread_cond_broadcast(&j->room);
	pthread_mutex_unlock(&j->mu);
	return r;
}

/*
 * The slots, in one allocation: nslot of per values each, at most RING
 * bytes of text in all (many threads: smaller chunks).  -1 if no memory.
 */
static int
ring(struct job *j, int nthreads)
{
	size_t k, each;
	char *m;

	j->nslot = 4 * (size_t)nthreads;
	j->per = RING / (j->nslot * TEXT);
	if (j->per > CHUNK)
		j->per = CHUNK;
	if (j->per < 256)
		j->per = 256;
	j->nchunk = (j->count + j->per - 1) / j->per;
	j->nthr = (size_t)nthreads < j->nchunk ? (size_t)nthreads : j->nchunk;
	if (j->nslot > j->nchunk)
		j->nslot = j->nchunk;
	/* lengths, then text; shmids_format() writes a NUL after it */
	each = j->per * (TEXT + 1) + 1;
	if ((j->slot = calloc(j->nslot + 1, sizeof(*j->slot))) == NULL)
		return -1;
	if ((m = malloc((j->nslot + 1) * each)) == NULL) {
		free(j->slot);
		return -1;
	}
	for (k = 0; k <= j->nslot; k++) {
		j->slot[k].len = (unsigned char *)m + k * each;
		j->slot[k].text = m + k * each + j->per;
	}
	return 0;
}

/*
 * The job's mutex and conditions: 0, or -1 with none made.  ready's
 * timed waits are on the monotonic clock: a clock set back must not
 * hold the caller up.
 */
static int
sync_init(struct job *j)
{
	pthread_condattr_t ca;
	int r;

	if (pthread_mutex_init(&j->mu, NULL) != 0)
		return -1;
	if (pthread_condattr_init(&ca) != 0) {
		pthread_mutex_destroy(&j->mu);
		return -1;
	}
	r = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) == 0 ?
	    pthread_cond_init(&j->ready, &ca) : -1;
	pthread_condattr_destroy(&ca);
	if (r != 0) {
		pthread_mutex_destroy(&j->mu);
		return -1;
	}
	if (pthread_cond_init(&j->room, NULL) != 0) {
		pthread_cond_destroy(&j->ready);
		pthread_mutex_destroy(&j->mu);
		return -1;
	}
	return 0;
}

/*
 * Up to n - 1 workers, in t, blocking what shmids_thread_mask() says.
 * Returns the workers made (none is no failure: the caller does it all).
 */
static size_t
workers(struct job *j, pthread_t *t, size_t n)
{
	sigset_t set, old;
	size_t k;

	shmids_thread_mask(&set);
	pthread_sigmask(SIG_SETMASK, &set, &old);
	for (k = 0; k + 1 < n; k++)
		if (pthread_create(&t[k], NULL, worker, j) != 0)
			break;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return k;
}

int
shmids_format_par(int nthreads, int type, int style, int sep,
    const void *data, size_t count,
    int (*put)(void *, const struct shmids_chunk *), void *arg)
{
	pthread_t t[SHMIDS_THREADS_MAX];
	struct job j;
	size_t k;
	int r, e;

	if (nthreads > SHMIDS_THREADS_MAX)
		nthreads = SHMIDS_THREADS_MAX;
	j.data = data;
	j.count = count;
	j.esz = shmids_type_size(type);
	j.type = type;
	j.style = style;
	j.sep = sep;
	j.next = j.done = 0;
	j.stop = 0;
	if (count == 0 || nthreads < 2 || j.esz == 0 ||
	    ring(&j, nthreads) == -1)
		return -2;
	if (sync_init(&j) == -1) {
		free(j.slot[0].len);
		free(j.slot);
		return -2;
	}
	k = workers(&j, t, j.nthr);
	r = drain(&j, put, arg);
	e = errno;	/* put()'s */
	while (k > 0)
		pthread_join(t[--k], NULL);
	pthread_cond_destroy(&j.room);
	pthread_cond_destroy(&j.ready);
	pthread_mutex_destroy(&j.mu);
	free(j.slot[0].len);
	free(j.slot);
	errno = e;
	return r;
}
