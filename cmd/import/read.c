/*
 * shm-import's reading (read.h): the files, their lines, and what the
 * classifier says each is.  Lines that are no array, and arrays -f
 * leaves, go out as they are.
 */
#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "shmids.h"
#include "filter.h"
#include "magic.h"
#include "msg.h"
#include "notes.h"
#include "read.h"
#include "run.h"

/* What long_ok() asks, for lines.h's partok, which takes no argument. */
static const struct conf *partconf;

void
read_init(struct reader *rd, struct conf *conf, struct sink *sink)
{
	memset(rd, 0, sizeof(*rd));
	rd->conf = conf;
	rd->sink = sink;
	partconf = conf;
}

void
read_text_add(struct reader *rd, struct text *t, const char *s, size_t n,
    unsigned long lineno)
{
	char *b;
	size_t cap;

	if (t->len + n + 1 > t->cap) {
		cap = (t->len + n + 1) * 2;
		if ((b = realloc(t->buf, cap)) == NULL)
			run_fail_input(rd->fname, lineno);
		t->buf = b;
		t->cap = cap;
	}
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = '\0';
}

/*
 * A long line handed over by its first bytes (long_ok()) that
 * read_array() did not read on: its rest is text, after them.
 */
static void
pass_part(struct reader *rd, unsigned long lineno)
{
	struct lines *l = &rd->l;
	const char *p;
	ssize_t n;
	int eol = 0;

	while (l->part && !eol) {
		run_check();
		if ((n = lines_more(l, &p, 4 * LINES_PART, &eol)) == -1) {
			if (errno != EINTR)
				run_fail_input(rd->fname, lineno - 1);
			continue;
		}
		run_out(p, (size_t)n);
		lines_skip(l, (size_t)n);
	}
	l->part = 0;
}

ssize_t
read_next(struct reader *rd, const char **s, unsigned long lineno)
{
	ssize_t n;

	pass_part(rd, lineno);
	run_check();
	while ((n = lines_next(&rd->l, s)) == -1) {
		if (errno != EINTR)
			run_fail_input(rd->fname, lineno);
		run_check();
	}
	return n;
}

/*
 * The array's lines as they were read.  A regular file's are read again
 * (lines.h): if it is shorter now, the copy could not be whole.
 */
void
read_pass_kept(struct reader *rd, unsigned long first)
{
	const char *why;

	if (lines_kept(&rd->l, run_out) == 0)
		return;
	if ((why = lines_spill_why(&rd->l)) != NULL)
		warnx("%s:%lu: " MSG_KEPT " could not be read back: %s",
		    rd->fname, first, why);
	else if (errno == ENOMEM)
		warnx("%s:%lu: cannot hold this line: %s", rd->fname, first,
		    MSG_NOMEM);
	else if (errno == ENODATA)
		warnx("%s:%lu: the file shrank while it was read: its lines "
		    "cannot be copied unchanged", rd->fname, first);
	else
		warn("%s:%lu: read error", rd->fname, first);
	run_die();
}

/*
 * An array -f does not name: its line s[0..n) and its continuations go
 * out unparsed, as many as the classifier reads its first line to have
 * for the field's type (format-spec.md 6: a field "/" alone continues
 * nothing, nor does a first line that is text).  Where that cannot be
 * told for want of memory, its "/" says: the lines pass through either
 * way.
 */
static void
pass_array(struct reader *rd, const char *s, size_t n,
    const struct shmids_line *c)
{
	struct shmids_lines lr;
	struct shmids_values v;
	struct shmids_line cc;
	size_t vals = c->field + c->fieldlen;
	int more;

	run_out(s, n);
	memset(&lr, 0, sizeof(lr));
	memset(&v, 0, sizeof(v));
	v.type = conf_type(rd->conf, s + c->field, c->fieldlen, NULL);
	more = shmids_line_next(&lr, s, n, &v, &cc) == 0 ? cc.more :
	    shmids_continued(s + vals, n - vals);
	shmids_values_free(&v);
	while (more && (n = (size_t)read_next(rd, &s, rd->lineno + 1)) > 0) {
		rd->lineno++;
		run_out(s, n);
		more = shmids_continued(s, n);
	}
}

/* The notes are told of line s[0..n), which is no row. */
static void
tell_text(const struct reader *rd, const char *s, size_t n,
    const struct shmids_line *c)
{
	struct notes_line nl;

	memset(&nl, 0, sizeof(nl));
	nl.at.fname = rd->fname;
	nl.at.line = rd->lineno;
	nl.what = NOTES_TEXT;
	nl.s = s;
	nl.n = n;
	nl.c = c;
	notes_line(&nl);
}

/*
 * A line that is no row (c): text and references pass through, a
 * malformed reference said (format-spec.md 5, 7); an inline array is
 * read if -f names its field, or without -f.
 */
static void
read_other(struct reader *rd, const char *s, size_t n,
    const struct shmids_line *c)
{
	struct conf *cf = rd->conf;
	size_t len = c->fieldlen;
	int array = c->kind == SHMIDS_LINE_ARRAY, sel;

	if (c->kind == SHMIDS_LINE_MALFORMED)
		warnx("%s:%lu: malformed reference: %s", rd->fname,
		    rd->lineno, c->why);
	/* a table reference names no field */
	if (c->kind == SHMIDS_LINE_TREF || (c->kind ==
	    SHMIDS_LINE_MALFORMED && c->sep != 0))
		len = 0;
	sel = array && len > 0 && cf->fields != NULL &&
	    filter_fields_has(&cf->want, s + c->field, len);
	if (cf->fields != NULL && len > 0)
		filter_fields_note(&cf->want, s + c->field, len, sel);
	if (array && len > 0 && (cf->fields == NULL || sel))
		read_array(rd, s, n, c, sel);
	else if (array && len > 0)
		pass_array(rd, s, n, c);
	else
		run_out(s, n);
}

/*
 * What line s[0..n) is (format-spec.md 5, 6, 6.1: the library's): a
 * number is never a field, so a line that begins with one is a table
 * row, or text; a comment, a blank line, or one that begins with a
 * Fortran form that is no value ("3*0.0 1 2": a row of Fortran's, the
 * classifier says, never an array "3*0.0"; format-spec.md 6) is text.
 */
static void
read_line(struct reader *rd, const char *s, size_t n)
{
	struct shmids_line c;

	shmids_line_kind(s, n, 0, &c);
	if (c.kind == SHMIDS_LINE_ROW) {
		if (rd->conf->fields == NULL)
			read_table(rd, s, n);
		else
			run_out(s, n);
		return;
	}
	tell_text(rd, s, n, &c);
	if (c.kind == SHMIDS_LINE_TEXT)
		run_out(s, n);
	else
		read_other(rd, s, n, &c);
}

/*
 * May a long line of a regular file come to read_line() by its first
 * bytes s[0..n) alone (lines.h)?  Only one that read_line() hands to
 * read_array(), whose engine reads the rest by offset: the first line
 * of an inline array, of a field that -f names (any without -f), not
 * one of R's row names ("1"); a Fortran form the classifier calls text
 * (format-spec.md 6), as read_line() asks it.  Any other is read whole.
 */
static int
long_ok(const char *s, size_t n)
{
	struct shmids_line c;
	size_t i, tl;

	if (shmids_line_kind(s, n, SHMIDS_LINE_PART, &c) != 1 ||
	    c.kind != SHMIDS_LINE_ARRAY || c.fieldlen == 0 ||
	    c.field + c.fieldlen >= n || s[strspn(s, " \t")] == '"')
		return 0;
	for (i = 0; i < n && (s[i] == ' ' || s[i] == '\t'); i++)
		;
	for (tl = 0; i + tl < n && strchr(" \t,\r\n", s[i + tl]) == NULL;
	    tl++)
		;
	if (i + tl == n)
		return 0;
	return partconf->fields == NULL || filter_fields_has(&partconf->want,
	    s + c.field, c.fieldlen);
}

/* Compressed input is refused, nothing of it written: 1. */
static int
compressed(struct reader *rd, const char *s, ssize_t n)
{
	const struct shmids_compression *c;

	if (n <= 0 || (c = shmids_compressed(s, (size_t)n)) == NULL)
		return 0;
	magic_refuse("shm-import", rd->fname, c);
	rd->failed = 1;
	return 1;
}

void
read_file(struct reader *rd, FILE *fp, const char *fname)
{
	struct notes_block nb;
	const char *s;
	ssize_t n;

	rd->fname = fname;
	rd->lineno = 0;
	if (lines_init(&rd->l, fileno(fp)) == -1)
		run_fail_input(fname, 0);
	rd->l.waiting = run_flush;
	rd->l.partok = long_ok;
	n = read_next(rd, &s, 1);
	if (compressed(rd, s, n)) {
		lines_end(&rd->l);
		return;
	}
	for (; n > 0; n = read_next(rd, &s, rd->lineno + 1)) {
		rd->lineno++;
		read_line(rd, s, (size_t)n);
	}
	lines_end(&rd->l);
	memset(&nb, 0, sizeof(nb));
	nb.what = NOTES_FILE;
	nb.at.fname = fname;
	nb.at.line = nb.last = rd->lineno;
	notes_block(&nb);
}
