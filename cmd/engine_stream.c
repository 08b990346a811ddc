/*
 * An array's values read from its lines as they come (engine.h): a
 * pipe's, which cannot be read twice, and a regular file's short ones.
 * Moved here from shm-import.c (issue 28, item 4), unchanged in what it
 * reads and says: the tool keeps its messages, behind struct eng_io.
 *
 * Once an array's lines came to RUN_MIN bytes, the lines after them are
 * taken in runs as long as what came before, RUN_MAX at most (a run may
 * hold text after the array, counted for nothing), and each run's
 * values are parsed on threads; a first line that long is parsed so at
 * once, and a pipe's first line too long to hold (lines.h) is parsed in
 * pieces cut where a token begins (eng_cut()).  Shorter arrays, and one
 * thread, go line by line.  A signal is acted on between runs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "shmids.h"
#include "engine.h"
#include "lines.h"

#define RUN_MIN		((size_t)512 << 10)
#define RUN_MAX		((size_t)4 << 20)

/* A bad value: said by the caller, and remembered as the first. */
static void
bad_at(struct eng_stream *st, unsigned long lineno, const char *bad)
{
	st->bad = bad;
	st->io->bad(st->io->arg, lineno, bad);
}

/* The next run of whole lines, of about size bytes; errors as io->next. */
static ssize_t
run(struct eng_stream *st, const char **s, size_t size)
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
 * Values s[0..n) of the first line, on several threads if it is long.
 * A bad value is said here, at the first line; -1 with st->bad NULL is
 * no room.
 */
static int
first_values(struct eng_stream *st, const char *s, size_t n)
{
	struct shmids_span sp;
	int r;

	if (st->nthreads > 1 && n >= RUN_MIN)
		r = shmids_values_read(&st->v, s, n, st->nthreads, 0, &sp);
	else
		r = shmids_values_read(&st->v, s, n, 1, SHMIDS_VALUES_LINE,
		    &sp);
	st->more = sp.more;
	if (r == -1 && sp.bad != NULL)
		bad_at(st, st->first, sp.bad);
	return r;
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
pipe_line(struct eng_stream *st, const char *s, size_t n, size_t vals)
{
	const char *p = s + vals;
	size_t len = n - vals, c, e;
	ssize_t got;
	int end = 0;

	st->read = vals;
	st->more = 0;
	for (;;) {
		c = end ? len : eng_cut(p, len);
		if (st->k == 0 && c > 0 &&
		    (st->k = first_values(st, p, c)) == -1 && st->bad == NULL)
			return;		/* no room: said by the caller */
		st->read += c;
		if (end)
			break;
		lines_unread(st->l, p + c);
		/* the rest of the line: 4 MiB at a time, or to its LF */
		st->io->stop(st->io->arg);
		while ((got = lines_more(st->l, &p, RUN_MAX, &end)) == -1) {
			if (errno != EINTR)
				st->io->fail(st->io->arg, st->first);
			st->io->stop(st->io->arg);
		}
		len = (size_t)got;
		lines_skip(st->l, len);
	}
	for (e = len; e > 0 && (p[e - 1] == '\n' || p[e - 1] == '\r'); e--)
		;
	st->eollen = len - e;
	/* CRs may come before the LF, as many as the line holds */
	if ((st->eol = malloc(st->eollen + 1)) == NULL)
		st->io->fail(st->io->arg, st->first);
	memcpy(st->eol, p + e, st->eollen);
	st->piped = 1;
	st->l->part = 0;
	if (st->k == -1)
		st->more = 0;	/* a first line that is text continues nothing */
}

/*
 * Continuation lines from the next one, in a run on several threads
 * while they come to RUN_MIN or more: 0 when the array goes on line by
 * line, else 1, st->k and st->more as the run left them.
 */
static int
run_values(struct eng_stream *st)
{
	struct shmids_span sp;
	const char *s, *p;
	ssize_t n;
	int k;

	if (st->nthreads < 2 || st->read < RUN_MIN ||
	    (n = run(st, &s, st->read < RUN_MAX ? st->read : RUN_MAX)) <
	    (ssize_t)RUN_MIN)
		return 0;
	k = shmids_values_read(&st->v, s, (size_t)n, st->nthreads, 0, &sp);
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
line_values(struct eng_stream *st, const char *s, size_t n)
{
	struct shmids_span sp;

	if (st->k == 0) {
		st->k = shmids_values_read(&st->v, s, n, 1,
		    SHMIDS_VALUES_LINE, &sp);
		st->more = sp.more;
		if (st->k == -1 && sp.bad != NULL)
			bad_at(st, st->lineno, sp.bad);
	}
	if (st->k == -1)
		st->more = st->bad != NULL && shmids_continued(s, n);
}

void
eng_stream_init(struct eng_stream *st, struct lines *l, int type,
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
	/* a regular file's long first line: by the file engine first */
	st->tried = st->pending = l->reg && n >= RUN_MIN;
}

/*
 * Section 6: a first line that is not values is text, and its "/"
 * continues nothing (more is 0).  A bad value on a continuation line
 * does not end the array: the rest is no array of its own.
 */
int
eng_stream(struct eng_stream *st)
{
	ssize_t n;

	if (st->pending) {
		st->pending = 0;
		st->from = st->at + (off_t)st->vals;
		st->fromfirst = 1;
		return ENG_FILE;
	}
	st->fromfirst = 0;
	if (!st->began) {
		st->began = 1;
		if (st->l->part && !st->l->reg)
			pipe_line(st, st->s, st->n, st->vals);
		else
			st->k = first_values(st, st->s + st->vals,
			    st->n - st->vals);
	}
	while (st->more) {
		/* a regular file's long array: the rest by the file engine */
		if (st->k == 0 && !st->tried && st->l->reg &&
		    st->read >= RUN_MIN) {
			st->tried = 1;
			st->from = lines_at(st->l);
			return ENG_FILE;
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
	/* A run's read-ahead goes: the segment is about to be made. */
	if (st->read >= RUN_MIN)
		lines_trim(st->l);
	return st->k;
}

void
eng_stream_free(struct eng_stream *st)
{
	shmids_values_free(&st->v);
	free(st->eol);
	st->eol = NULL;
}
