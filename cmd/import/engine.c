/*
 * A long array of a regular file, counted, then parsed into its segment
 * in blocks on threads (see engine.h).  Issue 22 read a file's long
 * arrays on threads but its first line and its one-thread path into a
 * buffer copied at the end; issue 31 asked for one reader: this.
 *
 * Block i is the text whose tokens and lines begin in [from + i*BLOCK,
 * from + (i+1)*BLOCK), found by the thread that reads it: it starts at
 * the first cut at or after its first byte and ends at the first cut at
 * or after the next block's, so that the blocks tile the text whatever
 * thread reads which.  A cut is a line's start, or a token's start
 * after a blank whose token before is not "/" (a block's last line is
 * then read as if it ended there, and a "/" there would read as a
 * continuation); whether a place is one is told from the LOOK bytes
 * before the block's nominal start at most, the same for the two
 * threads that read either side of it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shmids.h"
#include "engine.h"

#define BLOCK	((size_t)1 << 20)	/* bytes a thread takes at a time */
#define SLACK	((size_t)64 << 10)	/* read past a block at first */
#define SLACKMAX ((size_t)1 << 20)	/* the longest token read so */
#define LOOK	((size_t)4096)		/* looked back at for a cut */

enum { CANNOT = 1, CHANGED, BAD };	/* eblock.fail */

struct eblock {
	off_t	 off;		/* the first byte's offset */
	size_t	 used;		/* bytes, through the array's last line */
	size_t	 count, lines, at;	/* values, lines; at: where they go */
	off_t	 firstlf;	/* after its first LF, or -1 */
	int	 mid;		/* used ends inside a line, which goes on */
	int	 more;		/* the text's last line goes on after it */
	int	 ended;		/* holds the array's end */
	int	 fail;		/* CANNOT, CHANGED, BAD, or 0 */
	int	 err;		/* CANNOT, BAD: its errno */
	char	*bad;		/* BAD: the token */
	size_t	 badlf;		/* BAD: LFs before it in the block */
};

/*
 * Has a signal come?  Its handler set stop on the caller's thread, the
 * only one that takes signals: that thread reads it, and tells the
 * others through quit.
 */
static int
quitting(struct engine *e)
{
	int q;

	pthread_mutex_lock(&e->mu);
	if (pthread_equal(pthread_self(), e->caller) && *e->stop)
		e->quit = 1;
	q = e->quit;
	pthread_mutex_unlock(&e->mu);
	return q;
}

/* n bytes at off, as many as the file holds; -1 on an error or a signal. */
static ssize_t
readat(struct engine *e, char *buf, size_t n, off_t off)
{
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		if (quitting(e)) {
			errno = EINTR;
			return -1;
		}
		if ((r = pread(e->fd, buf + got, n - got, off + (off_t)got)) ==
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
past(struct engine *e, size_t i)
{
	int r;

	pthread_mutex_lock(&e->mu);
	r = e->stopat < i;
	pthread_mutex_unlock(&e->mu);
	return r;
}

static void
ended(struct engine *e, size_t i)
{
	pthread_mutex_lock(&e->mu);
	if (i < e->stopat)
		e->stopat = i;
	pthread_mutex_unlock(&e->mu);
}

static int
blank(int c)
{
	return c == ' ' || c == '\t';
}

/*
 * May a block begin at buf[j] (see the top)?  buf[lo..j) is what may be
 * looked at before it.
 */
static int
cutok(const char *buf, size_t lo, size_t j)
{
	size_t k;

	if (buf[j - 1] == '\n')
		return 1;
	if (!blank(buf[j - 1]) || (unsigned char)buf[j] <= ' ')
		return 0;
	for (k = j - 1; k > lo && blank(buf[k]); k--)
		;
	if (buf[k] == '\n')
		return 1;
	if ((unsigned char)buf[k] <= ' ')
		return 0;	/* a long run of blanks, a CR: no cut */
	/* a token "/" alone before it */
	return !(buf[k] == '/' && (k == lo || (unsigned char)buf[k - 1] <= ' '));
}

/* The first cut at or after buf[j] in buf[0..got), lo as for cutok(). */
static size_t
cutfrom(const char *buf, size_t lo, size_t j, size_t got)
{
	for (; j < got; j++)
		if (cutok(buf, lo, j))
			return j;
	return got;
}

size_t
eng_cut(const char *s, size_t len)
{
	size_t j, lo = len > LOOK ? len - LOOK : 0;

	for (j = len; j-- > lo + 1;)
		if (cutok(s, lo, j))
			return j;
	return 0;
}

/*
 * Block i read: its text's bounds in *buf (read from at, grown as far
 * as SLACKMAX past the block for a long token), or -1 (errno).
 */
static int
readblock(struct engine *e, size_t i, char **buf, off_t *at, size_t *s,
    size_t *end, int *eof)
{
	size_t look = i > 0 ? LOOK : 0, slack = SLACK, want, got, nom;
	ssize_t n;
	char *b;

	*at = e->from + (off_t)(i * BLOCK) - (off_t)look;
	nom = look + BLOCK;		/* the next block's nominal start */
	*buf = NULL;
	for (;;) {
		want = look + BLOCK + slack;
		if ((b = realloc(*buf, want + 1)) == NULL)
			return -1;
		*buf = b;
		if ((n = readat(e, b, want, *at)) == -1)
			return -1;
		got = (size_t)n;
		b[got] = '\0';
		*s = i == 0 ? 0 : cutfrom(b, 0, look, got);
		*end = got > nom ? cutfrom(b, nom - LOOK, nom, got) : got;
		if (got < want || (*end < got && *s < got))
			break;
		if (slack == SLACKMAX) {
			errno = E2BIG;
			return -1;
		}
		slack = SLACKMAX;
	}
	if (*s > *end)
		*s = *end;
	/* the text read ends with the file's */
	*eof = got < want && *end == got;
	return 0;
}

/*
 * What values_count() or values_into() said of block b's text of len
 * bytes: its last "line" may be a piece of one that goes on in the next
 * block (b->mid), not a line not continued.
 */
static void
mended(const struct eblock *b, size_t len, size_t used, size_t *lines,
    int *more)
{
	if (b->mid && used == len && !*more) {
		*more = 1;
		(*lines)--;
	}
}

static void
count_job(void *arg, size_t j)
{
	struct engine *e = arg;
	size_t i = e->base + j, s, end, used, len;
	struct eblock *b = &e->b[i];
	struct shmids_span sp;
	const char *lf;
	char *buf;
	off_t at;
	int more, eof;

	b->fail = CANNOT;
	b->firstlf = -1;
	if (past(e, i)) {
		b->err = 0;
		return;
	}
	if (readblock(e, i, &buf, &at, &s, &end, &eof) == -1) {
		b->err = errno;
		free(buf);
		return;
	}
	len = end - s;
	b->mid = len > 0 && buf[end - 1] != '\n' && !eof;
	if (shmids_values_read(NULL, buf + s, len, 1, SHMIDS_VALUES_COUNT,
	    &sp) == -1) {
		b->err = errno;
		free(buf);
		return;
	}
	b->count = sp.count;
	used = sp.used;
	b->lines = sp.lines;
	more = sp.more;
	b->mid = b->mid && used == len;
	mended(b, len, used, &b->lines, &more);
	b->off = at + (off_t)s;
	b->used = used;
	b->more = more;
	/* a block that ends at the file's end ends the array there */
	b->ended = !more || eof;
	if ((lf = memchr(buf + s, '\n', used)) != NULL)
		b->firstlf = b->off + (off_t)(lf + 1 - (buf + s));
	b->fail = 0;
	if (b->ended)
		ended(e, i);
	free(buf);
}

/*
 * Count the blocks [base, base + n), a round: an array near a big
 * file's start is not looked for to the file's end.  1 when the array's
 * end is among them.
 */
static int
count_round(struct engine *e, size_t base, size_t n, size_t *last)
{
	size_t i;

	e->base = base;
	(void)shmids_par(n, e->nthreads, count_job, e);
	if (e->quit || *e->stop) {
		errno = EINTR;
		return -1;
	}
	for (i = base; i < base + n; i++) {
		if (e->b[i].fail) {
			errno = e->b[i].err;
			return -1;
		}
		e->b[i].at = e->count;
		e->count += e->b[i].count;
		e->lines += e->b[i].lines;
		if (e->first_end == -1 && e->b[i].firstlf != -1)
			e->first_end = e->b[i].firstlf;
		if (e->b[i].ended) {
			*last = i;
			return 1;
		}
	}
	return 0;
}

int
eng_count(struct engine *e, int fd, off_t from, int type, int nthreads,
    const volatile sig_atomic_t *stop)
{
	struct stat st;
	struct eblock *b;
	size_t nb, done = 0, n, last = 0;
	int r = 0;

	memset(e, 0, sizeof(*e));
	e->fd = fd;
	e->from = from;
	e->type = type;
	e->nthreads = nthreads;
	e->stop = stop;
	e->caller = pthread_self();
	e->stopat = (size_t)-1;
	e->first_end = -1;
	if (fstat(fd, &st) == -1 || pthread_mutex_init(&e->mu, NULL) != 0)
		return -1;
	if (st.st_size <= from) {
		/* nothing after: the array ends with the file */
		e->end = e->first_end = from;
		e->nb = 0;
		return 0;
	}
	nb = (size_t)((st.st_size - from - 1) / (off_t)BLOCK) + 1;
	/* rounds of 4 blocks a thread, then doubling */
	for (n = (size_t)nthreads * 4; r == 0 && done < nb; n *= 2) {
		if (n > nb - done)
			n = nb - done;
		if ((b = realloc(e->b, (done + n) * sizeof(*b))) == NULL) {
			r = -1;
			break;
		}
		e->b = b;
		memset(b + done, 0, n * sizeof(*b));
		r = count_round(e, done, n, &last);
		done += n;
	}
	if (r == 0 && done == nb && nb > 0) {
		/* the file grew meanwhile: its end, as far as read, ends it */
		last = nb - 1;
		r = 1;
	}
	if (r != 1) {
		eng_free(e);
		return -1;
	}
	e->nb = last + 1;
	e->end = e->b[last].off + (off_t)e->b[last].used;
	if (e->first_end == -1)
		e->first_end = e->end;
	return 0;
}

/* The token at p (within buf, NUL-terminated), kept for the message. */
static void
keep_bad(struct eblock *b, const char *buf, const char *p)
{
	size_t n = strcspn(p, " \t\r\n");
	const char *q;

	b->badlf = 0;
	for (q = buf; (q = memchr(q, '\n', (size_t)(p - q))) != NULL; q++)
		b->badlf++;
	if (n == 0 && *p == '\0')
		n = 1;	/* a NUL byte ends the token at once: shown as it */
	if ((b->bad = malloc(n + 1)) != NULL) {
		memcpy(b->bad, p, n);
		b->bad[n] = '\0';
	}
}

/*
 * Block i read again and parsed into place: as counted; or a bad value;
 * an error (CANNOT); or not the text counted (CHANGED).
 */
static void
parse_job(void *arg, size_t i)
{
	struct engine *e = arg;
	struct eblock *b = &e->b[i];
	size_t esz = shmids_type_size(e->type), n, used, lines;
	struct shmids_values v;
	struct shmids_span sp;
	const char *bad;
	char *buf, *dst, *scratch = NULL;
	ssize_t got;
	int more, r;

	b->fail = CANNOT;
	if (b->used == 0) {
		b->fail = b->count == 0 ? 0 : CHANGED;
		return;
	}
	if ((buf = malloc(b->used + 1)) == NULL) {
		b->err = errno;
		return;
	}
	if ((got = readat(e, buf, b->used, b->off)) == -1) {
		b->err = errno;
		free(buf);
		return;
	}
	dst = e->dst != NULL ? e->dst + b->at * esz : NULL;
	if (dst == NULL && (scratch = dst = malloc(b->count * esz + 1)) ==
	    NULL) {
		b->err = errno;
		free(buf);
		return;
	}
	b->fail = CHANGED;	/* shorter now */
	if ((size_t)got == b->used) {
		buf[b->used] = '\0';
		v.data = dst;
		v.count = 0;
		v.cap = b->count;
		v.type = e->type;
		r = shmids_values_read(&v, buf, b->used, 1,
		    SHMIDS_VALUES_FIXED, &sp);
		n = sp.count;
		used = sp.used;
		lines = sp.lines;
		more = sp.more;
		bad = sp.bad;
		if (r == 0)
			mended(b, b->used, used, &lines, &more);
		if (r == -1 && (errno == EINVAL || errno == ERANGE)) {
			b->fail = BAD;
			b->err = errno;
			keep_bad(b, buf, bad);
		} else if (r == -1 && errno != E2BIG) {
			b->err = errno;
			b->fail = CANNOT;
		} else if (r == 0 && n == b->count && used == b->used &&
		    lines == b->lines && more == b->more)
			b->fail = 0;
	}
	free(scratch);
	free(buf);
}

/*
 * Has the array's last line grown since it was counted?  A count that
 * ended with no LF before its end saw the file's end there (or the end
 * it had then): a byte there now is text that line would have held
 * (format-spec.md 6.2), read neither as values nor as a line of its
 * own.  -1: cannot tell (errno).
 */
static int
grew(struct engine *e)
{
	off_t at = e->end > e->from ? e->end - 1 : e->end;
	char b[2];
	ssize_t n;

	if (e->end == e->from && e->nb > 0)
		return 0;	/* no text counted: no line to go on */
	if ((n = readat(e, b, (size_t)(e->end - at) + 1, at)) == -1)
		return -1;
	if (e->end > at)
		return n == 2 && b[0] != '\n';
	return n == 1;
}

int
eng_parse(struct engine *e, void *dst)
{
	size_t i, lf = 0;
	int g;

	e->dst = dst;
	(void)shmids_par(e->nb, e->nthreads, parse_job, e);
	if (e->quit || *e->stop) {
		errno = EINTR;
		return -1;
	}
	/* the first in the file's order says */
	for (i = 0; i < e->nb; lf += e->b[i++].lines) {
		switch (e->b[i].fail) {
		case 0:
			continue;
		case CHANGED:
			return ENG_CHANGED;
		case BAD:
			if (e->b[i].bad == NULL) {
				errno = ENOMEM;
				return -1;
			}
			e->bad = e->b[i].bad;
			e->b[i].bad = NULL;
			e->badlf = lf + e->b[i].badlf;
			e->baderr = e->b[i].err;
			return (g = grew(e)) != 0 ? (g == 1 ? ENG_CHANGED : -1) :
			    ENG_BAD;
		default:
			errno = e->b[i].err;
			return -1;
		}
	}
	return (g = grew(e)) != 0 ? (g == 1 ? ENG_CHANGED : -1) : 0;
}

void
eng_free(struct engine *e)
{
	size_t i;

	for (i = 0; e->b != NULL && i < e->nb; i++)
		free(e->b[i].bad);
	free(e->b);
	free(e->bad);
	e->b = NULL;
	e->bad = NULL;
	e->nb = 0;
	pthread_mutex_destroy(&e->mu);
}
