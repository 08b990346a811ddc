/*
 * A long array's lines of a regular file, in blocks on threads (see
 * fvalues.h).  Issue 22: reading a run into one buffer on one thread,
 * then counting it on all, then counting and parsing it again, left
 * the second CPU idle for a third of shm-import's time.
 *
 * Block i is the whole lines that begin in [from + i*BLOCK, from +
 * (i+1)*BLOCK), found by the thread that reads it: it starts after the
 * first LF at or after the byte before, and ends after the first LF at
 * or after its last byte, so that the blocks tile the text whatever
 * thread reads which.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shmids.h"
#include "fvalues.h"
#include "par.h"

#define BLOCK	((size_t)1 << 20)	/* bytes a thread takes at a time */
#define SLACK	((size_t)64 << 10)	/* the longest line read this way */

enum { CANNOT = 1, CHANGED };		/* fblock.fail */

struct fblock {
	off_t	 off;		/* the first line's offset */
	size_t	 used;		/* bytes, through the array's last line */
	size_t	 count, lines, at;	/* values, lines; at: where they go */
	int	 ended;		/* holds the array's last line */
	int	 eof;		/* ends with the file, the array not */
	int	 fail;		/* CANNOT, CHANGED, or 0 */
};

/*
 * Has a signal come?  Its handler set stop on the caller's thread, the
 * only one that takes signals: that thread reads it, and tells the
 * others through quit.
 */
static int
quitting(struct fvalues *fv)
{
	int q;

	pthread_mutex_lock(&fv->mu);
	if (pthread_equal(pthread_self(), fv->caller) && *fv->stop)
		fv->quit = 1;
	q = fv->quit;
	pthread_mutex_unlock(&fv->mu);
	return q;
}

/* n bytes at off, as many as the file holds; -1 on an error or a signal. */
static ssize_t
readat(struct fvalues *fv, char *buf, size_t n, off_t off)
{
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		if (quitting(fv))
			return -1;
		if ((r = pread(fv->fd, buf + got, n - got, off + (off_t)got)) ==
		    -1 && errno == EINTR)
			continue;
		if (r == -1)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* Has a block before i ended the array?  Then i is none of it. */
static int
past(struct fvalues *fv, size_t i)
{
	int r;

	pthread_mutex_lock(&fv->mu);
	r = fv->stopat < i;
	pthread_mutex_unlock(&fv->mu);
	return r;
}

static void
ended(struct fvalues *fv, size_t i)
{
	pthread_mutex_lock(&fv->mu);
	if (i < fv->stopat)
		fv->stopat = i;
	pthread_mutex_unlock(&fv->mu);
}

/*
 * Block i's text in buf, read from its start less one byte: its bounds
 * in buf, or -1 where a line is longer than the slack.
 */
static int
bounds(const char *buf, size_t got, size_t want, size_t i, size_t *s,
    size_t *e)
{
	const char *p;
	size_t last = BLOCK + (i > 0) - 1;	/* the block's last byte */

	if (i == 0)
		*s = 0;
	else if ((p = memchr(buf, '\n', got)) != NULL)
		*s = (size_t)(p - buf) + 1;
	else if (got < want)
		*s = got;	/* at the file's end: no line begins here */
	else
		return -1;
	if (got > last && (p = memchr(buf + last, '\n', got - last)) != NULL)
		*e = (size_t)(p - buf) + 1;
	else if (got < want)
		*e = got;
	else
		return -1;
	if (*s > *e)
		*s = *e;
	return 0;
}

static void
count_job(void *arg, size_t j)
{
	struct fvalues *fv = arg;
	size_t i = fv->base + j, want = BLOCK + SLACK + (i > 0), s, e, used;
	struct fblock *b = &fv->b[i];
	off_t at = fv->from + (off_t)i * (off_t)BLOCK - (i > 0);
	ssize_t got;
	char *buf;
	int more;

	b->fail = CANNOT;
	if (past(fv, i) || (buf = malloc(want + 1)) == NULL)
		return;
	if ((got = readat(fv, buf, want, at)) != -1 &&
	    bounds(buf, (size_t)got, want, i, &s, &e) == 0) {
		buf[e] = '\0';
		if (shmids_values_count(buf + s, e - s, 1, &b->count, &used,
		    &b->lines, &more) == 0) {
			b->off = at + (off_t)s;
			b->used = used;
			b->ended = !more && e > s;
			/* its end is the file's, not a LF read before it */
			b->eof = (size_t)got < want && e == (size_t)got &&
			    !b->ended;
			b->fail = 0;
			if (b->ended || b->eof)
				ended(fv, i);
		}
	}
	free(buf);
}

/*
 * Count the blocks [base, base + n), a round: an array near a big
 * file's start is not looked for to the file's end.  1 when the array's
 * end is among them.
 */
static int
count_round(struct fvalues *fv, size_t base, size_t n, size_t *last)
{
	size_t i;

	fv->base = base;
	par_run(n, fv->nthreads, count_job, fv);
	if (fv->quit || *fv->stop)
		return -1;
	for (i = base; i < base + n; i++) {
		if (fv->b[i].fail || fv->b[i].eof)
			return -1;
		fv->b[i].at = fv->count;
		fv->count += fv->b[i].count;
		fv->lines += fv->b[i].lines;
		if (fv->b[i].ended) {
			*last = i;
			return 1;
		}
	}
	return 0;
}

int
fvalues_count(struct fvalues *fv, int fd, off_t from, int type,
    int nthreads, const volatile sig_atomic_t *stop)
{
	struct stat st;
	struct fblock *b;
	size_t nb, done = 0, n, last;
	int r = 0;

	memset(fv, 0, sizeof(*fv));
	fv->fd = fd;
	fv->from = from;
	fv->type = type;
	fv->nthreads = nthreads;
	fv->stop = stop;
	fv->caller = pthread_self();
	fv->stopat = (size_t)-1;
	if (fstat(fd, &st) == -1 || st.st_size <= from ||
	    pthread_mutex_init(&fv->mu, NULL) != 0)
		return -1;
	nb = (size_t)((st.st_size - from - 1) / (off_t)BLOCK) + 1;
	/* rounds of 4 blocks a thread, then doubling */
	for (n = (size_t)nthreads * 4; r == 0 && done < nb; n *= 2) {
		if (n > nb - done)
			n = nb - done;
		if ((b = realloc(fv->b, (done + n) * sizeof(*b))) == NULL) {
			r = -1;
			break;
		}
		fv->b = b;
		memset(b + done, 0, n * sizeof(*b));
		r = count_round(fv, done, n, &last);
		done += n;
	}
	if (r != 1) {
		fvalues_free(fv);
		return -1;
	}
	fv->nb = last + 1;
	fv->end = fv->b[last].off + (off_t)fv->b[last].used;
	return 0;
}

/*
 * Block i read again and parsed into place: as counted; or a bad value,
 * an error (CANNOT); or not the text counted (CHANGED).
 */
static void
parse_job(void *arg, size_t i)
{
	struct fvalues *fv = arg;
	struct fblock *b = &fv->b[i];
	size_t esz = shmids_type_size(fv->type), n, used, lines;
	const char *bad;
	ssize_t got;
	char *buf;
	int more, r;

	b->fail = CANNOT;
	if ((buf = malloc(b->used + 1)) == NULL)
		return;
	if ((got = readat(fv, buf, b->used, b->off)) == -1) {
		free(buf);
		return;
	}
	b->fail = CHANGED;	/* shorter now */
	if ((size_t)got == b->used) {
		buf[b->used] = '\0';
		r = shmids_values_into(fv->dst + b->at * esz, b->count,
		    fv->type, buf, b->used, 1, &n, &used, &lines, &more, &bad);
		if (r == -1 && errno != E2BIG)
			b->fail = CANNOT;
		else if (r == 0 && n == b->count && used == b->used &&
		    lines == b->lines && more == !b->ended)
			b->fail = 0;
	}
	free(buf);
}

int
fvalues_parse(struct fvalues *fv, void *dst)
{
	size_t i;

	fv->dst = dst;
	par_run(fv->nb, fv->nthreads, parse_job, fv);
	if (fv->quit || *fv->stop)
		return -1;
	/* the first in the file's order says */
	for (i = 0; i < fv->nb; i++)
		if (fv->b[i].fail)
			return fv->b[i].fail == CHANGED ? FV_CHANGED : -1;
	return 0;
}

void
fvalues_free(struct fvalues *fv)
{
	free(fv->b);
	fv->b = NULL;
	fv->nb = 0;
	pthread_mutex_destroy(&fv->mu);
}
