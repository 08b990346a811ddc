/*
 * A line of numbers alone, a table block of one row, left as text: a
 * field name before it would make it an array (format-spec.md 7,
 * shm-import).  Judged at its file's end: a row within one value in
 * width of another block of its separator in that file was cut from a
 * table (a typo, a decimal comma, an empty field, which other notes
 * tell), and a field would not mend it.  The first is said, with the
 * sed(1) command that gives it a field, and how many.
 */
#include <err.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "msg.h"
#include "note.h"

/* Rows alone and blocks of a file kept; past that, none is said. */
#define ALONE_MAX	256

struct row {
	unsigned long	 line;
	size_t		 count;		/* a row's values, a block's columns */
	int		 sep;
};

static struct {
	struct notes_conf conf;
	/* the file at hand's rows alone, and its blocks' widths */
	struct row	 row[ALONE_MAX], blk[ALONE_MAX];
	size_t		 nrow, nblk;
	int		 over;		/* more than ALONE_MAX of either */
	/* the first said, and how many */
	struct notes_at	 at;
	char		 where[NOTE_WHERE];
	struct row	 said;
	unsigned long	 n;
} a;

void
alone_init(const struct notes_conf *conf)
{
	memset(&a, 0, sizeof(a));
	a.conf = *conf;
}

static void
keep(struct row *v, size_t *n, unsigned long line, size_t count, int sep)
{
	if (*n == ALONE_MAX) {
		a.over = 1;
		return;
	}
	v[*n].line = line;
	v[*n].count = count;
	v[(*n)++].sep = sep;
}

/*
 * A block of the file at hand ended, a row alone too: of -k values and
 * NOTE_VALUES or more, one is kept.
 */
void
alone_block(const struct notes_block *b, int meant)
{
	if (b->rows == 1 && !meant && b->count >= a.conf.minvals &&
	    b->count >= NOTE_VALUES)
		keep(a.row, &a.nrow, b->at.line, b->count, b->sep);
	keep(a.blk, &a.nblk, b->at.line, b->cols, b->sep);
}

/* Is row r within a value in width of another block of its separator? */
static int
cut_from_table(const struct row *r)
{
	size_t j;

	for (j = 0; j < a.nblk; j++)
		if (a.blk[j].line != r->line && a.blk[j].sep == r->sep &&
		    a.blk[j].count + 1 >= r->count &&
		    a.blk[j].count <= r->count + 1)
			return 1;
	return 0;
}

void
alone_file(const char *fname)
{
	size_t i;

	for (i = 0; i < a.nrow && !a.over; i++) {
		if (cut_from_table(&a.row[i]) || a.n++ > 0)
			continue;
		a.said = a.row[i];
		a.at.fname = fname;
		a.at.line = a.row[i].line;
		note_where(a.where, &a.at);
	}
	a.nrow = a.nblk = 0;
	a.over = 0;
}

/*
 * The command that gives the row alone a field: sed, the commas made
 * blanks first for a CSV row (a field then a comma would be text).
 */
static void
alone_sed(char *buf, size_t size)
{
	char e[64];
	unsigned long l = a.said.line;

	if (a.said.sep == ',')
		snprintf(e, sizeof(e), "-e '%lus/,/ /g' -e '%lus/^/x /'", l, l);
	else
		snprintf(e, sizeof(e), "'%lus/^/x /'", l);
	if (strcmp(a.at.fname, "stdin") == 0)
		snprintf(buf, size, "... | sed %s | shm-import", e);
	else
		snprintf(buf, size, "sed %s %s | shm-import", e,
		    msg_shword(a.at.fname));
}

void
alone_say(void)
{
	char more[48], sed[PATH_MAX * 4 + 96];

	if (a.n == 0)
		return;
	note_more(more, sizeof(more), a.n, "lines");
	alone_sed(sed, sizeof(sed));
	warnx("%s: a row of %zu values alone stays text (a table needs 2 "
	    "rows or more); a field name makes it an array: %s%s", a.where,
	    a.said.count, sed, more);
}
