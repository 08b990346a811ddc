/*
 * A table block (format-spec.md 6.1, 7): from a line that begins with a
 * number, the rows after it of the same separator and width, read on
 * one thread, a row at a time (where a block ends depends on each row's
 * width and separator in turn, as the library's classifier tells).  Of
 * 2 rows or more and -k values or more, the sink makes it a table and
 * writes its reference line; else its rows pass through as read.  The
 * line that ends the block is given back to be read again.
 */
#include <err.h>
#include <string.h>

#include "shmids.h"
#include "msg.h"
#include "notes.h"
#include "read.h"
#include "run.h"

/* A table block being read, by its first row. */
struct block {
	struct sink_table t;
	int		 crlf;		/* the first row ends in CR LF */
	int		 lastnl;	/* the last row ends in LF */
	int		 lastcr;	/* it ends the file in a bare CR */
	int		 nomem;		/* no room for its values */
};

/*
 * No room for a block's values: its rows pass through unconverted, as
 * text loses nothing; said, exit 1 at the end.
 */
static void
nomem(struct reader *rd, struct block *b)
{
	warnx("%s:%lu: no room for the values of a table, %s: its rows "
	    "pass through unconverted", rd->fname, b->t.line, MSG_NOMEM);
	rd->failed = 1;
	b->nomem = 1;
}

/* The notes are told of row s[0..n) (c), of values v. */
static void
tell_row(const struct reader *rd, const char *s, size_t n,
    const struct shmids_line *c, const struct shmids_values *v, int first)
{
	struct notes_line nl;

	memset(&nl, 0, sizeof(nl));
	nl.at.fname = rd->fname;
	nl.at.line = rd->lineno;
	nl.what = c != NULL ? NOTES_ROW : NOTES_NOROW;
	nl.s = s;
	nl.n = n;
	nl.first = first;
	if (c != NULL && v->type == SHMIDS_F64) {
		nl.vals = (const double *)v->data + v->count - c->count;
		nl.nvals = c->count;
	}
	notes_line(&nl);
}

/* A row of the block: how its line ends. */
static void
row_eol(struct block *b, const struct shmids_line *c)
{
	b->lastnl = c->eol == SHMIDS_EOL_LF || c->eol == SHMIDS_EOL_CRLF;
	b->lastcr = c->eol == SHMIDS_EOL_CR;
}

/*
 * The first row, s[0..n): a row of the type (v's), not too wide?  Else
 * the line is text.
 */
static int
first_row(struct reader *rd, struct block *b, struct shmids_lines *lr,
    struct shmids_values *v, const char *s, size_t n)
{
	struct shmids_line c;
	int k;

	memset(b, 0, sizeof(*b));
	b->t.fname = rd->fname;
	b->t.line = rd->lineno;
	b->t.rows = 1;
	if ((k = shmids_line_next(lr, s, n, v, &c)) == -1 ||
	    c.kind != SHMIDS_LINE_ROW || c.count > SHMIDS_COLS_MAX) {
		if (k == -1)
			nomem(rd, b);
		tell_row(rd, s, n, NULL, v, 0);
		return 0;
	}
	b->t.sep = c.sep;
	b->t.cols = c.count;
	rd->lead.len = 0;
	read_text_add(rd, &rd->lead, s, c.lead, b->t.line);
	b->crlf = c.eol == SHMIDS_EOL_CRLF;
	row_eol(b, &c);
	tell_row(rd, s, n, &c, v, 1);
	return 1;
}

/* The rows after the first, while they go on with the block. */
static void
next_rows(struct reader *rd, struct block *b, struct shmids_lines *lr,
    struct shmids_values *v)
{
	struct shmids_line c;
	const char *s;
	size_t n;
	int k;

	while ((n = (size_t)read_next(rd, &s, rd->lineno + 1)) > 0) {
		if ((k = shmids_line_next(lr, s, n, v, &c)) == -1)
			nomem(rd, b);
		if (k == -1 || c.kind != SHMIDS_LINE_ROW || c.first) {
			v->count -= k == 0 && c.kind == SHMIDS_LINE_ROW ?
			    c.count : 0;
			lines_unread(&rd->l, s);
			return;
		}
		rd->lineno++;
		b->t.rows++;
		row_eol(b, &c);
		tell_row(rd, s, n, &c, v, 0);
	}
}

/* The notes are told of the block b ended, made or not. */
static void
tell_block(const struct reader *rd, const struct block *b,
    const struct shmids_values *v, int made)
{
	struct notes_block nb;

	memset(&nb, 0, sizeof(nb));
	nb.what = NOTES_TABLE;
	nb.at.fname = rd->fname;
	nb.at.line = b->t.line;
	nb.last = rd->lineno;
	nb.made = made;
	nb.count = v->count;
	nb.rows = b->t.rows;
	nb.cols = b->t.cols;
	nb.sep = b->t.sep;
	nb.nomem = b->nomem;
	notes_block(&nb);
}

/* Block b, of values v: a table of the sink's, its reference line out. */
static int
store(struct reader *rd, struct block *b, const struct shmids_values *v)
{
	/* the file's line ends kept, a bare CR at its end too (6.1) */
	b->t.eol = !b->lastnl ? (b->lastcr ? "\r" : "") : b->crlf ? "\r\n" :
	    "\n";
	b->t.lead = rd->lead.buf;
	b->t.leadlen = rd->lead.len;
	return rd->sink->table(rd->sink, &b->t, v) == 0;
}

void
read_table(struct reader *rd, const char *s, size_t n)
{
	const struct conf *cf = rd->conf;
	struct shmids_lines lr;
	struct shmids_values v;
	struct block b;
	int made;

	memset(&lr, 0, sizeof(lr));
	memset(&v, 0, sizeof(v));
	v.type = cf->deftype != -1 ? cf->deftype : SHMIDS_F64;
	if (!first_row(rd, &b, &lr, &v, s, n)) {
		shmids_values_free(&v);
		run_out(s, n);
		return;
	}
	lines_keep(&rd->l, s);
	next_rows(rd, &b, &lr, &v);
	made = !b.nomem && b.t.rows >= 2 && v.count >= cf->minvals &&
	    store(rd, &b, &v);
	if (!made)
		read_pass_kept(rd, b.t.line);
	tell_block(rd, &b, &v, made);
	shmids_values_free(&v);
	lines_release(&rd->l);
}
