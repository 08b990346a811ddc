/*
 * This process's stream handles: closing one, the stream's removal when
 * the last lets go (format-spec.md 10.5), and what a normal exit and a
 * fork do to them.  A writer that exits normally ends its streams, as
 * 2.2 seals a segment; a fork's child is no writer or reader of what
 * its parent held: it may only close its copies.  The list is locked:
 * handles are made and closed on any thread.
 */
#include <sys/mman.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "stream.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct shmids_stream *handles;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int hooked;	/* the exit and fork handlers are in place */

static void
at_exit(void)
{
	struct shmids_stream *s;

	while (pthread_mutex_lock(&lock), (s = handles) != NULL) {
		pthread_mutex_unlock(&lock);
		shmids_stream_close(s);
	}
	pthread_mutex_unlock(&lock);
}

static void
fork_prepare(void)
{
	pthread_mutex_lock(&lock);
}

static void
fork_parent(void)
{
	pthread_mutex_unlock(&lock);
}

/*
 * A fork's copy of a file stream's attachment lets go of the parent's
 * open file description, which its locks belong to (OFD locks, 10.5):
 * its descriptor goes, and its mapping, which holds the description
 * too, is made again in place from a description of its own (through
 * /proc/self/fd: the path may name another file now), so that what the
 * parent handed out stays readable in the child.  Where that cannot be
 * done the child keeps the parent's, and the parent's locks live as
 * long as the child (shmids_stream(3), CAVEATS).  System calls only,
 * as in a fork handler.
 */
static void
let_go(struct att *a)
{
	char path[32] = "/proc/self/fd/", *p = path + 14, d[12];
	int n = 0, v = a->fd, fd;

	do
		d[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n > 0)
		*p++ = d[--n];
	*p = '\0';
	if ((fd = open(path, a->prot & PROT_WRITE ? O_RDWR : O_RDONLY)) >= 0) {
		if (mmap(a->addr, a->maplen, a->prot, MAP_SHARED | MAP_FIXED,
		    fd, 0) != MAP_FAILED) {
			close(a->fd);
			a->fd = -1;
		}
		close(fd);
	}
}

/* The child writes nothing and reads nothing of its parent's handles. */
static void
fork_child(void)
{
	struct shmids_stream *s;
	int e = errno;

	for (s = handles; s != NULL; s = s->next) {
		s->forked = 1;
		if (s->a.fd >= 0)
			let_go(&s->a);
	}
	errno = e;
	pthread_mutex_unlock(&lock);
}

static void
hook(void)
{
	hooked = atexit(at_exit) == 0 &&
	    pthread_atfork(fork_prepare, fork_parent, fork_child) == 0;
}

/* s joins the list: 0, or -1 with ENOMEM (no exit handler). */
int
shmids_st_track(struct shmids_stream *s)
{
	pthread_once(&once, hook);
	if (!hooked) {
		errno = ENOMEM;
		return -1;
	}
	pthread_mutex_lock(&lock);
	s->prev = NULL;
	s->next = handles;
	if (handles != NULL)
		handles->prev = s;
	handles = s;
	pthread_mutex_unlock(&lock);
	return 0;
}

void
shmids_st_untrack(struct shmids_stream *s)
{
	pthread_mutex_lock(&lock);
	if (s->prev != NULL)
		s->prev->next = s->next;
	else if (handles == s)
		handles = s->next;
	if (s->next != NULL)
		s->next->prev = s->prev;
	s->next = s->prev = NULL;
	pthread_mutex_unlock(&lock);
}

/* Detach and free s; errno kept. */
void
shmids_st_free(struct shmids_stream *s)
{
	int e = errno;

	s->be->detach(&s->a);
	free(s);
	errno = e;
}

/* The ring's addresses and the spin, once s->g is known. */
void
shmids_st_place(struct shmids_stream *s)
{
	s->desc = s->base + s->g.descoff;
	s->pay = s->base + s->g.payoff;
	shmids_st_spin_init(&s->spin);
}

/*
 * Readers still registered once the stream has ended: those that died
 * without a word (killed) go, so that they keep nothing from removal.
 * Bits past the table are another user's forgery: never followed.
 */
static uint64_t
live_mask(struct shmids_stream *s)
{
	uint64_t mask = LOAD(W64(s->base, ST_MASK), SC) & RMASK(s), m;
	int k;

	if (mask == 0)
		return 0;
	for (k = 0, m = mask; m != 0; k++, m >>= 1)
		if (m & 1)
			shmids_st_reclaim(s, k);
	return LOAD(W64(s->base, ST_MASK), SC) & RMASK(s);
}

/*
 * Remove the stream if it has ended, its expected readers have come and
 * none is registered, unless kept (10.5).  The caller stored its part
 * first (the writer fin's bit, a reader its bit of mask: seq_cst), so
 * that the last of them sees both; fin's second bit makes it one.
 */
void
shmids_st_remove_if_last(struct shmids_stream *s)
{
	uint32_t *fin = W32(s->base, ST_FIN), f;
	int e = errno;

	if (s->g.flags & FLAG_KEEP)
		return;
	f = LOAD(fin, SC);
	if (f != FIN_ENDED ||
	    LOAD(W64(s->base, ST_JOINED), SC) < s->g.readers ||
	    live_mask(s) != 0 ||
	    !__atomic_compare_exchange_n(fin, &f, FIN_ENDED | FIN_TAKEN, 0,
	    SC, SC))
		return;
	shmids_seg_unlink(s->be, &s->a, s->id);
	errno = e;
}

int
shmids_stream_close(struct shmids_stream *s)
{
	if (s == NULL) {
		errno = EINVAL;
		return -1;
	}
	shmids_st_untrack(s);
	if (!s->forked) {
		if (s->writer)
			shmids_st_end(s);
		else
			shmids_st_unregister(s);
	}
	shmids_st_free(s);
	return 0;
}

const char *
shmids_stream_label(const struct shmids_stream *s)
{
	if (s == NULL) {
		errno = EINVAL;
		return NULL;
	}
	return s->label;
}
