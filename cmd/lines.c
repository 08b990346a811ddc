/*
 * Lines in big blocks (see lines.h).  Issue 9: shm-import read 4 KiB
 * lines through getline(3) and copied every array line once more, in
 * case it had to pass through; now a line is parsed where read(2) put
 * it, and a regular file's array text is read again only when the array
 * does pass through.
 */
#define _GNU_SOURCE		/* F_SETPIPE_SZ on glibc */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shmids.h"
#include "lines.h"

#define BLOCK	((size_t)256 << 10)	/* bytes per read(2); L2-sized */
#define CHUNK	((size_t)64 << 10)	/* kept text read again, per pread */
#define SPILL	((size_t)4 << 20)	/* kept text of a pipe held at most */
#define PIPE_MIN ((size_t)1 << 20)	/* bytes: fs.pipe-max-size's default */

/*
 * A file of our own in TMPDIR (/tmp) for a pipe's kept text, in no
 * directory: O_TMPFILE where the file system has it, else a name that
 * is removed at once.  A file whose name cannot be removed is not used
 * (it would outlive us with the text), nor is the name way tried
 * again: each try would leave one more empty file.  -1 if none can be
 * had.
 */
static int
spill_file(void)
{
	static int noname;
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd, e;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
#ifdef O_TMPFILE
	if ((fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600)) != -1)
		return fd;
#endif
	if (noname || (size_t)snprintf(path, sizeof(path),
	    "%s/shm-import.XXXXXX", dir) >= sizeof(path) ||
	    (fd = mkstemp(path)) == -1)
		return -1;
	if (unlink(path) == -1) {
		e = errno;
		(void)close(fd);
		noname = 1;
		errno = e;
		return -1;
	}
	return fd;
}

/*
 * A pipe's kept text past SPILL bytes goes to the spill file, as
 * sort(1) spills, so that a long array through a pipe is never held
 * whole: buf[mark..pos) follows it.  Where no such file can be had or
 * written, the text stays in memory.  0, or -1 (nothing changed).
 */
static int
spill(struct lines *l)
{
	size_t n = l->pos - l->mark, done = 0;
	ssize_t w;

	if (l->spillfd == -1 && (l->spillfd = spill_file()) == -1)
		return -1;
	/*
	 * By offset: bytes of a spill that failed half way are not
	 * counted, never read (lines_kept() reads the file up to
	 * l->spilled) and written over by the next spill, so there is
	 * nothing to undo.
	 */
	while (done < n) {
		if ((w = pwrite(l->spillfd, l->buf + l->mark + done, n - done,
		    l->spilled + (off_t)done)) == -1 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		done += (size_t)w;
	}
	l->spilled += (off_t)n;
	l->mark = l->pos;
	return 0;
}

int
lines_init(struct lines *l, int fd)
{
	struct stat st;
#ifdef F_SETPIPE_SZ
	int sz, cur;
#endif

	memset(l, 0, sizeof(*l));
	l->fd = fd;
	l->spillfd = -1;
	if (fstat(fd, &st) == -1)
		st.st_mode = 0;		/* read(2) will say what is wrong */
	if (S_ISREG(st.st_mode) && (l->off = lseek(fd, 0, SEEK_CUR)) != -1)
		l->reg = 1;
	else
		l->off = 0;
#ifdef F_SETPIPE_SZ
	/*
	 * A pipe of 64 KiB made its reader and writer take turns at its
	 * lock a few pages at a time (issue 41: a twentieth of a pipe's
	 * import spun there).  A bigger one, as big as the system allows
	 * (fs.pipe-max-size) up to PIPE_MIN; best effort.
	 */
	if (S_ISFIFO(st.st_mode) && (cur = fcntl(fd, F_GETPIPE_SZ)) > 0)
		for (sz = (int)PIPE_MIN; sz > cur; sz /= 2)
			if (fcntl(fd, F_SETPIPE_SZ, sz) != -1)
				break;
#endif
	l->cap = BLOCK + 1;
	if ((l->buf = malloc(l->cap)) == NULL)
		return -1;
	l->buf[0] = '\0';
	return 0;
}

/* Room for one more block: slide what must stay to the front, or grow. */
static int
room(struct lines *l)
{
	size_t from, cap;
	char *b;
	int e = errno;

	/*
	 * The first SPILL bytes stay in memory (a short array makes no
	 * file); once spilling, at every refill what the caller has read
	 * (a run, up to 4 MiB), not again only once SPILL more gathered:
	 * less to slide, and written soon after it was read.
	 */
	if (l->keeping && !l->reg && l->pos - l->mark >= (l->spillat > 0 ?
	    l->spillat : l->spillfd != -1 ? BLOCK : SPILL)) {
		/*
		 * Held in memory, then, and tried again once twice as
		 * much is held: TMPDIR may have room again, but a try at
		 * every block would write ever more of it to a file
		 * system that has none (quadratic, where each write
		 * takes a part before ENOSPC).
		 */
		if (spill(l) == -1)
			l->spillat = 2 * (l->pos - l->mark);
		else
			l->spillat = 0;
		errno = e;
	}
	from = l->keeping && !l->reg ? l->mark : l->pos;

	if (from > 0 && l->cap - 1 - l->end < BLOCK) {
		memmove(l->buf, l->buf + from, l->end - from);
		l->end -= from;
		l->pos -= from;
		l->scan -= from;
		if (l->keeping && !l->reg)
			l->mark -= from;
	}
	if (l->cap - 1 - l->end >= BLOCK / 2)
		return 0;
	if (l->cap > ((size_t)-1 >> 1) - 1) {
		errno = ENOMEM;
		return -1;
	}
	cap = 2 * (l->cap - 1) + 1;
	if ((b = realloc(l->buf, cap)) == NULL)
		return -1;
	/* a pipe's long array: huge pages, as the library's own buffers */
	shmids_advise_huge(b, cap);
	l->buf = b;
	l->cap = cap;
	return 0;
}

/*
 * Has fd something to read now (or an end, or an error, which read(2)
 * then reports)?  One poll(2) a block: nothing against a read of 256 KiB.
 */
static int
ready(int fd)
{
	struct pollfd p;
	int k;

	p.fd = fd;
	p.events = POLLIN;
	while ((k = poll(&p, 1, 0)) == -1 && errno == EINTR)
		;
	return k != 0;
}

static int
fill(struct lines *l)
{
	size_t want;
	ssize_t n;

	if (room(l) == -1)
		return -1;
	want = l->cap - 1 - l->end;
	if (!l->reg && l->waiting != NULL && l->waiting(0) && !ready(l->fd))
		(void)l->waiting(1);
	n = l->reg ? pread(l->fd, l->buf + l->end, want, l->off) :
	    read(l->fd, l->buf + l->end, want);
	if (n == -1)
		return -1;
	if (n == 0)
		l->eof = 1;
	l->end += (size_t)n;
	l->off += n;
	l->buf[l->end] = '\0';
	return 0;
}

ssize_t
lines_next(struct lines *l, const char **line)
{
	char *nl;
	size_t n;
	int whole = l->nopart || l->partok == NULL;

	l->part = 0;
	for (;;) {
		nl = memchr(l->buf + l->scan, '\n', l->end - l->scan);
		if (nl != NULL) {
			n = (size_t)(nl + 1 - (l->buf + l->pos));
			break;
		}
		l->scan = l->end;
		if (l->eof) {
			if ((n = l->end - l->pos) == 0)
				return 0;
			break;
		}
		if (!whole && l->end - l->pos >= LINES_PART) {
			if (l->partok(l->buf + l->pos, l->end - l->pos)) {
				n = l->end - l->pos;
				l->part = 1;
				break;
			}
			whole = 1;
		}
		if (fill(l) == -1)
			return -1;
	}
	l->nopart = 0;
	*line = l->buf + l->pos;
	l->pos += n;
	l->scan = l->pos;
	return (ssize_t)n;
}

/*
 * Is a pipe's text in hand all there is for now, and a whole line of it?
 * Then a run waits for no more: lines_next() would not either, and the
 * writer may send nothing until it sees what the lines it sent made (an
 * array's segment).  A regular file has the rest at hand.
 */
static int
idle(const struct lines *l)
{
	struct pollfd p;

	if (l->reg || memchr(l->buf + l->pos, '\n', l->end - l->pos) == NULL)
		return 0;
	p.fd = l->fd;
	p.events = POLLIN;
	return poll(&p, 1, 0) == 0;
}

ssize_t
lines_run(struct lines *l, const char **run, size_t want)
{
	off_t base;		/* the offset of buf[0] in the input */
	size_t i, from;

	while (l->end - l->pos < want && !l->eof && !idle(l))
		if (fill(l) == -1)
			return -1;
	*run = l->buf + l->pos;
	if (l->eof)
		return (ssize_t)(l->end - l->pos);
	/*
	 * Whole lines only: up to the last LF.  Bytes looked at before are
	 * not looked at again: a long line after the run would otherwise
	 * be scanned at each of the short lines before it.
	 */
	base = l->off - (off_t)l->end;
	from = l->lfend > base + (off_t)l->pos ? (size_t)(l->lfend - base) :
	    l->pos;
	for (i = l->end; i > from && l->buf[i - 1] != '\n'; i--)
		;
	if (i > from)
		l->lf = base + (off_t)i;
	l->lfend = l->off;
	return l->lf > base + (off_t)l->pos ?
	    (ssize_t)(l->lf - base - (off_t)l->pos) : 0;
}

ssize_t
lines_more(struct lines *l, const char **s, size_t want, int *eol)
{
	char *nl;

	if (l->scan < l->pos)
		l->scan = l->pos;
	for (;;) {
		if ((nl = memchr(l->buf + l->scan, '\n', l->end - l->scan)) !=
		    NULL) {
			*eol = 1;
			*s = l->buf + l->pos;
			return (ssize_t)(nl + 1 - *s);
		}
		l->scan = l->end;
		if (l->eof || l->end - l->pos >= want) {
			*eol = l->eof;
			*s = l->buf + l->pos;
			return (ssize_t)(l->end - l->pos);
		}
		if (fill(l) == -1)
			return -1;
	}
}

void
lines_skip(struct lines *l, size_t n)
{
	l->pos += n;
	l->scan = l->pos;
}

off_t
lines_at(const struct lines *l)
{
	return l->off - (off_t)(l->end - l->pos);
}

void
lines_seek(struct lines *l, off_t off)
{
	l->off = off;
	l->pos = l->scan = l->end = 0;
	l->eof = 0;
	l->lf = l->lfend = 0;
	l->buf[0] = '\0';
}

void
lines_trim(struct lines *l)
{
	char *b;

	if (!l->reg || l->cap <= BLOCK + 1)
		return;
	/* what is read again is read from the file, by offset */
	lines_seek(l, lines_at(l));
	if ((b = realloc(l->buf, BLOCK + 1)) != NULL) {
		l->buf = b;
		l->cap = BLOCK + 1;
	}
}

void
lines_unread(struct lines *l, const char *line)
{
	l->pos = l->scan = (size_t)(line - l->buf);
}

void
lines_keep(struct lines *l, const char *line)
{
	l->keeping = 1;
	l->mark = (size_t)(line - l->buf);
	l->markoff = l->off - (off_t)(l->end - l->mark);
}

/* A regular file's kept text that has left the buffer: read it again. */
static int
reread(int fd, off_t from, off_t to,
    void (*fn)(const char *, size_t))
{
	char *chunk;
	ssize_t n;

	if ((chunk = malloc(CHUNK)) == NULL)
		return -1;
	while (from < to) {
		n = pread(fd, chunk, to - from < (off_t)CHUNK ?
		    (size_t)(to - from) : CHUNK, from);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = ENODATA;
			free(chunk);
			return -1;
		}
		fn(chunk, (size_t)n);
		from += n;
	}
	free(chunk);
	return 0;
}

int
lines_kept(struct lines *l, void (*fn)(const char *, size_t))
{
	off_t start = l->off - (off_t)l->end;	/* offset of buf[0] */
	off_t to = l->off - (off_t)(l->end - l->pos);

	if (!l->reg && l->spilled > 0 && reread(l->spillfd, 0, l->spilled,
	    fn) == -1) {
		if (errno != ENOMEM)	/* else its buffer, not the file */
			l->spillerr = errno;
		return -1;
	}
	if (!l->reg)
		fn(l->buf + l->mark, l->pos - l->mark);
	else if (l->markoff >= start)
		fn(l->buf + (l->markoff - start), (size_t)(to - l->markoff));
	else
		return reread(l->fd, l->markoff, to, fn);
	return 0;
}

off_t
lines_kept_len(const struct lines *l)
{
	return l->spilled + (off_t)(l->pos - l->mark);
}

/* n bytes of a pipe's kept text from its byte off on, into dst. */
static int
kept_at(struct lines *l, off_t off, char *dst, size_t n)
{
	size_t got = 0, k;
	ssize_t r;

	while (got < n && off < l->spilled) {
		k = (off_t)(n - got) < l->spilled - off ? n - got :
		    (size_t)(l->spilled - off);
		if ((r = pread(l->spillfd, dst + got, k, off)) == -1 &&
		    errno == EINTR)
			continue;
		if (r <= 0) {
			l->spillerr = errno = r == 0 ? ENODATA : errno;
			return -1;
		}
		got += (size_t)r;
		off += r;
	}
	if (got < n)
		memcpy(dst + got, l->buf + l->mark + (size_t)(off - l->spilled),
		    n - got);
	return 0;
}

/* Where the last line of b[0..n) ends, after its LF; 0 if none does. */
static size_t
whole(const char *b, size_t n)
{
	while (n > 0 && b[n - 1] != '\n')
		n--;
	return n;
}

int
lines_replay(struct lines *l, off_t from, size_t want,
    size_t (*cut)(const char *, size_t),
    int (*fn)(void *, const char *, size_t), void *arg)
{
	off_t to = lines_kept_len(l);
	size_t cap = 0, have = 0, k, run;
	char *b = NULL, *nb, c;
	int r = 0;

	while (r == 0 && (from < to || have > 0)) {
		if (have == cap) {
			/* a line longer than the buffer: twice as long */
			k = cap == 0 ? want : 2 * cap;
			if (k < cap || (nb = realloc(b, k + 1)) == NULL) {
				free(b);
				errno = ENOMEM;
				return -1;
			}
			b = nb;
			cap = k;
		}
		k = to - from < (off_t)(cap - have) ? (size_t)(to - from) :
		    cap - have;
		if (kept_at(l, from, b + have, k) == -1) {
			free(b);
			return -1;
		}
		from += (off_t)k;
		have += k;
		run = from < to ? whole(b, have) : have;
		if (run == 0 && cut != NULL)
			run = cut(b, have);
		if (run == 0)
			continue;
		/* NUL-terminated while fn reads it */
		c = b[run];
		b[run] = '\0';
		r = fn(arg, b, run);
		b[run] = c;
		memmove(b, b + run, have - run);
		have -= run;
	}
	free(b);
	return r;
}

void
lines_release(struct lines *l)
{
	l->keeping = 0;
	/*
	 * Closed, not truncated: the space of a long array's text goes
	 * back to TMPDIR at once, with nothing that can fail to say (a
	 * truncate that failed would hold it till the end); a later
	 * array that spills makes a file of its own.
	 */
	if (l->spillfd != -1)
		(void)close(l->spillfd);
	l->spillfd = -1;
	l->spilled = 0;
	l->spillat = 0;
	l->spillerr = 0;
}

const char *
lines_spill_why(const struct lines *l)
{
	if (l->spillerr == 0)
		return NULL;
	return l->spillerr == ENODATA ? "it is shorter than what was written "
	    "to it" : strerror(l->spillerr);
}

void
lines_end(struct lines *l)
{
	if (l->reg)
		(void)lseek(l->fd, l->off - (off_t)(l->end - l->pos),
		    SEEK_SET);
	free(l->buf);
	l->buf = NULL;
	if (l->spillfd != -1)
		(void)close(l->spillfd);
	l->spillfd = -1;
}
