/*
 * An array read, from either source (engine.h): a regular file's long
 * array by the file's engine (engine.c), counted, its segment made and
 * parsed into it; everything else from its lines as they come: a
 * pipe's, which cannot be read twice, a file's short ones, and a file's
 * that the file's engine cannot read (a token over 1 MiB, no memory).
 * Moved here from shm-import.c (issue 28, item 4), unchanged in what it
 * reads and says: the tool says its messages, behind struct eng_io.
 *
 * Once an array's lines came to RUN_MIN bytes, the lines after them are
 * taken in runs as long as what came before, RUN_MAX at most (a run may
 * hold text after the array, counted for nothing), and each run's
 * values are parsed on threads (or one: a run costs one call, a line
 * one each); a first line that long is parsed so at once, and a pipe's
 * first line too long to hold (lines.h) is parsed in pieces cut where a
 * token begins (eng_cut()).  Shorter arrays go line by line.  A signal
 * is acted on between runs.  The values are held (hold.h) until the
 * array ends, then moved into its segment.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shmids.h"
#include "engine.h"
#include "hold.h"
#include "lines.h"

#define RUN_MIN		((size_t)512 << 10)
#define RUN_MAX		((size_t)4 << 20)
#define PIECE		((size_t)1 << 20)	/* of a pipe's long line */

/* A bad value: said by the caller, and remembered as the first. */
static void
bad_at(struct eng_array *st, unsigned long lineno, const char *bad)
{
	st->bad = bad;
	st->io->bad(st->io->arg, lineno, bad);
}

/* The next run of whole lines, of about size bytes; errors as io->next. */
static ssize_t
run(struct eng_array *st, const char **s, size_t size)
{
	ssize_t n;

	st->io->stop(st->io->arg);
	while ((n = lines_run(st->l, s, size)) == -1) {
		if (errno != EINTR)
			st->io->fail(st->io->arg, st->lineno + 1);
		st->io->stop(st->io->arg);
	}
	return n;
}

/*
 * The values of whole lines s[0..n) appended to st->v, held (hold.h):
 * shmids_values_read()'s answer.  n bytes hold n / 2 + 1 values at
 * most (each a byte and a blank or line end), made room for first.
 */
static int
values(struct eng_array *st, const char *s, size_t n, int nthreads,
    struct shmids_span *sp)
{
	if (hold_room(&st->v, n / 2 + 1) == -1) {
		memset(sp, 0, sizeof(*sp));
		return -1;
	}
	return shmids_values_read(&st->v, s, n, nthreads, SHMIDS_VALUES_FIXED,
	    sp);
}

/*
 * A pipe's lines s[0..n) counted, whole lines through the array's last
 * at most (st->counting): no value is parsed, none held, so that memory
 * holds the segment and not the values too (engine.h, eng_again()).
 * No memory is "no room" (st->k -1, st->bad NULL).
 */
static int
count_values(struct eng_array *st, const char *s, size_t n,
    struct shmids_span *sp)
{
	if (shmids_values_read(NULL, s, n, st->nthreads, SHMIDS_VALUES_COUNT,
	    sp) == -1 || sp->count > (size_t)-1 / 2 - st->counted) {
		st->k = -1;
		st->more = 0;
		return -1;
	}
	st->counted += sp->count;
	st->more = sp->more;
	return 0;
}

/*
 * Values s[0..n) of the first line, on several threads if it is long.
 * A bad value is said here, at the first line; -1 with st->bad NULL is
 * no room.
 */
static int
first_values(struct eng_array *st, const char *s, size_t n)
{
	struct shmids_span sp;
	int r;

	r = values(st, s, n, n >= RUN_MIN ? st->nthreads : 1, &sp);
	st->more = sp.more;
	if (r == -1 && sp.bad != NULL)
		bad_at(st, st->first, sp.bad);
	return r;
}

static int
first_run(void *arg, const char *s, size_t n)
{
	struct eng_array *st = arg;

	st->io->stop(st->io->arg);
	return first_values(st, s, n) == -1 ? -1 : 0;
}

/*
 * A pipe's long first line, counted (pipe_line()) and continued: its
 * values parsed again from its text kept and held, so that a bad one
 * makes it text that continues nothing before the next line is read.
 */
static void
first_again(struct eng_array *st)
{
	size_t counted = st->counted;

	st->more = 0;
	st->counting = 0;
	st->counted = 0;
	if (lines_replay(st->l, st->from, RUN_MAX, eng_cut, first_run,
	    st) == -1)
		st->k = -1;
	if (st->k == -1)
		st->more = 0;	/* text continues nothing */
	/* no bad value: as many as counted (format-spec.md 6.2) */
	else if (st->v.count != counted) {
		st->k = ENG_CHANGED;
		st->more = 0;
	}
}

/*
 * The end of a long first line whose last bytes are b[0..n), n 2 at
 * most, into st->eol: CR LF, LF, a last CR, or nothing, as a short
 * line's (format-spec.md 6); CRs before a CR LF are the values' text.
 */
static void
set_eol(struct eng_array *st, const char *b, size_t n)
{
	st->eol = st->eolbuf;
	st->eollen = 0;
	st->parted = 1;
	if (n == 0)
		return;
	if (b[n - 1] == '\n' && n >= 2 && b[n - 2] == '\r') {
		memcpy(st->eol, "\r\n", 2);
		st->eollen = 2;
		return;
	}
	st->eol[0] = b[n - 1];
	st->eollen = b[n - 1] == '\n' || b[n - 1] == '\r';
}

/*
 * A pipe's long first line, of which s[0..n) are the first bytes
 * (l->part) and s[vals..n) values: its values parsed piece by piece,
 * each cut where a token begins, so that the line is never held whole
 * (its text is kept as read, lines.h).  st->k and st->more as
 * first_values() on the whole line; st->read its bytes; its end (CR LF,
 * LF, CR or nothing) in st->eol.
 */
static void
pipe_line(struct eng_array *st, const char *s, size_t n, size_t vals)
{
	const char *p = s + vals;
	size_t len = n - vals, c, want = PIECE;
	struct shmids_span sp;
	ssize_t got;
	int end = 0;

	st->read = vals;
	st->more = 0;
	/* counted, parsed once its segment is made (eng_again()) */
	st->counting = 1;
	st->from = (off_t)vals;
	st->fromline = st->first;
	for (;;) {
		c = end ? len : eng_cut(p, len);
		if (c == 0 && !end) {
			/*
			 * No token begins in the piece's last 4 KiB (a long
			 * token or run of blanks): it is read again with
			 * more, twice as much, until one does or the line
			 * ends, as a file's line that is read whole.
			 */
			want = len < PIECE / 2 ? PIECE :
			    len > (size_t)-1 / 2 ? (size_t)-1 : 2 * len;
		} else {
			want = PIECE;
			if (st->k == 0 && c > 0 &&
			    count_values(st, p, c, &sp) == -1)
				return;		/* no room: said by the caller */
			st->read += c;
			if (end)
				break;
		}
		lines_unread(st->l, p + c);
		/* the rest of the line: 1 MiB at a time (more for a long
		   token), or to its LF */
		st->io->stop(st->io->arg);
		while ((got = lines_more(st->l, &p, want, &end)) == -1) {
			if (errno != EINTR)
				st->io->fail(st->io->arg, st->first);
			st->io->stop(st->io->arg);
		}
		len = (size_t)got;
		lines_skip(st->l, len);
	}
	set_eol(st, p + (len >= 2 ? len - 2 : 0), len >= 2 ? 2 : len);
	st->l->part = 0;
	/*
	 * Continued, it must be values now, or the lines after it are no
	 * continuations (format-spec.md 6): parsed again, and held.
	 */
	if (st->k == 0 && st->more)
		first_again(st);
}

/*
 * Continuation lines from the next one, in a run on several threads
 * while they come to RUN_MIN or more: 0 when the array goes on line by
 * line, else 1, st->k and st->more as the run left them.
 */
static int
run_values(struct eng_array *st)
{
	struct shmids_span sp;
	const char *s, *p;
	ssize_t n;
	int k;

	if (st->read < RUN_MIN ||
	    (n = run(st, &s, st->read < RUN_MAX ? st->read : RUN_MAX)) <
	    (ssize_t)RUN_MIN)
		return 0;
	if (!st->l->reg) {
		/* a pipe's: counted now, parsed once its segment is made */
		if (!st->counting) {
			st->counting = 1;
			st->from = lines_kept_len(st->l);
			st->fromline = st->lineno + 1;
		}
		if (count_values(st, s, (size_t)n, &sp) == 0) {
			lines_skip(st->l, sp.used);
			st->lineno += sp.lines;
			st->read += sp.used;
		}
		return 1;
	}
	k = values(st, s, (size_t)n, st->nthreads, &sp);
	st->k = k;
	st->more = sp.more;
	if (k == -1 && sp.bad == NULL)
		return 1;	/* no room: said by the caller */
	lines_skip(st->l, sp.used);
	st->lineno += sp.lines;
	st->read += sp.used;
	if (k == -1) {
		bad_at(st, st->lineno, sp.bad);
		/* the array goes on while the bad value's line is continued */
		for (p = sp.bad; p > s && p[-1] != '\n'; p--)
			;
		st->more = shmids_continued(p, (size_t)(s + sp.used - p));
	}
	return 1;
}

/* One continuation line s[0..n), parsed while no value was bad. */
static void
line_values(struct eng_array *st, const char *s, size_t n)
{
	struct shmids_span sp;

	if (st->k == 0 && st->counting) {
		(void)count_values(st, s, n, &sp);
		return;
	}
	if (st->k == 0) {
		st->k = values(st, s, n, 1, &sp);
		st->more = sp.more;
		if (st->k == -1 && sp.bad != NULL)
			bad_at(st, st->lineno, sp.bad);
	}
	if (st->k == -1)
		st->more = st->bad != NULL && shmids_continued(s, n);
}

/*
 * The end of a long first line (CR LF, LF, a last CR, or nothing), which
 * ends at offset end of fd, into st->eol.
 */
static void
first_eol(struct eng_array *st, off_t end)
{
	char b[2];
	size_t n = end >= 2 ? 2 : (size_t)end;

	if (n > 0 && pread(st->l->fd, b, n, end - (off_t)n) != (ssize_t)n)
		n = 0;
	set_eol(st, b, n);
}

/*
 * A regular file's long array whose text from offset from on is read by
 * the file's engine: from is inside the first line (fromfirst: its
 * values) or after the lines read, whose values are in st->v.  Counted,
 * its segment asked of io->make for the count, parsed into it.  1: read
 * (st->k; l past the array, st->lineno its last line).  0: nothing
 * consumed, no segment (said to io->drop): read it line by line.
 */
static int
file_read(struct eng_array *st, off_t from, int fromfirst)
{
	const struct eng_io *io = st->io;
	struct shmids_values *v = &st->v;
	size_t esz = shmids_type_size(v->type);
	unsigned long last;
	struct engine e;
	char *dst;
	int k, part = st->l->part;

	if (eng_count(&e, st->l->fd, from, v->type, st->nthreads,
	    io->stopflag) == -1) {
		io->stop(io->arg);
		return 0;
	}
	if (e.count > (size_t)-1 - v->count) {
		eng_free(&e);
		return 0;
	}
	st->count = v->count + e.count;
	/* made first, so that the values go straight to their place */
	if ((dst = io->make(io->arg, v->type, st->count)) != NULL &&
	    v->count > 0)
		memcpy(dst, v->data, v->count * esz);
	k = eng_parse(&e, dst != NULL ? dst + v->count * esz : NULL);
	if (k == -1) {
		io->stop(io->arg);
		io->drop(io->arg);
		eng_free(&e);
		return 0;
	}
	if (k == ENG_CHANGED) {
		eng_free(&e);
		st->k = ENG_CHANGED;
		return 1;
	}
	last = st->lineno + e.lines - (fromfirst && e.lines > 0);
	st->k = 0;
	if (k == ENG_BAD) {
		io->drop(io->arg);
		st->k = ENG_BAD;
		io->bad(io->arg, st->lineno + !fromfirst + e.badlf, e.bad);
		/* on the first line, the line is text and continues nothing */
		if (fromfirst && e.badlf == 0) {
			e.end = e.first_end;
			last = st->first;
		}
	}
	lines_seek(st->l, e.end);
	st->l->part = 0;	/* read to its end */
	st->lineno = last;
	if (k == 0 && part)
		first_eol(st, e.first_end);
	eng_free(&e);
	return 1;
}

/*
 * The file's engine could not read a long first line handed over by its
 * first bytes: it is read whole after all, and is the first line again.
 */
static void
reread_first(struct eng_array *st)
{
	struct lines *l = st->l;

	lines_seek(l, st->at);
	l->part = 0;
	l->nopart = 1;
	st->n = st->read = (size_t)st->io->next(st->io->arg, &st->s,
	    st->first);
	st->io->again(st->io->arg, st->s, st->n);
	lines_keep(l, st->s);
	/* its end, for the reference line: the rest of it is values */
	set_eol(st, st->s + (st->n >= 2 ? st->n - 2 : 0),
	    st->n >= 2 ? 2 : st->n);
}

void
eng_array_init(struct eng_array *st, struct lines *l, int type,
    int nthreads, const struct eng_io *io, unsigned long lineno,
    const char *s, size_t n, size_t vals)
{
	memset(st, 0, sizeof(*st));
	st->l = l;
	st->nthreads = nthreads;
	st->io = io;
	st->v.type = type;
	st->first = st->lineno = lineno;
	st->s = s;
	st->n = st->read = n;
	st->vals = vals;
	st->at = lines_at(l) - (off_t)n;
}

/*
 * The lines from the first on: section 6, a first line that is not
 * values is text, and its "/" continues nothing (more is 0); a bad value
 * on a continuation line does not end the array: the rest is no array
 * of its own.  1: the file's engine read the array (st->k its outcome).
 */
static int
stream_read(struct eng_array *st)
{
	struct lines *l = st->l;
	ssize_t n;

	if ((st->tried = l->reg && st->n >= RUN_MIN)) {
		if (file_read(st, st->at + (off_t)st->vals, 1))
			return 1;
		if (l->part)
			reread_first(st);
	}
	if (l->part && !l->reg)
		pipe_line(st, st->s, st->n, st->vals);
	else
		st->k = first_values(st, st->s + st->vals, st->n - st->vals);
	while (st->more) {
		/* a regular file's long array: the rest by the file engine */
		if (st->k == 0 && !st->tried && l->reg &&
		    st->read >= RUN_MIN) {
			st->tried = 1;
			if (file_read(st, lines_at(l), 0))
				return 1;
		}
		if (st->k == 0 && run_values(st)) {
			if (st->k == -1 && st->bad == NULL)
				break;
			continue;
		}
		if ((n = st->io->next(st->io->arg, &st->s,
		    st->lineno + 1)) == 0)
			break;
		st->lineno++;
		st->read += (size_t)n;
		line_values(st, st->s, (size_t)n);
	}
	return 0;
}

int
eng_array(struct eng_array *st)
{
	size_t held;
	char *dst;

	if (stream_read(st) || st->k == ENG_CHANGED)
		return st->k;
	/* A run's read-ahead goes: the segment is about to be made. */
	if (st->read >= RUN_MIN)
		lines_trim(st->l);
	if (st->k == -1)
		return st->bad != NULL ? ENG_BAD : -1;
	/* the values held moved once into the segment, the rest parsed */
	st->count = st->v.count + st->counted;
	held = st->v.count * shmids_type_size(st->v.type);
	dst = st->io->make(st->io->arg, st->v.type, st->count);
	hold_move(&st->v, dst);
	return st->counting ? eng_again(st, dst != NULL ? dst + held : NULL) :
	    0;
}

void
eng_array_free(struct eng_array *st)
{
	hold_free(&st->v);
	if (st->eol != st->eolbuf)
		free(st->eol);
	st->eol = NULL;
}
