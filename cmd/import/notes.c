/*
 * shm-import's notes (notes.h): what each line and block is told to,
 * and the end, each cause's note once.  Here too the two notes of their
 * own: Fortran's forms that are no value (ftoken.h), and integers that
 * f64 rounds in a table converted.
 */
#include <err.h>
#include <stdio.h>
#include <string.h>

#include "shmids.h"
#include "ftoken.h"
#include "msg.h"
#include "neartab.h"
#include "note.h"
#include "notes.h"

/* 2^53: an integer of this size or more may be no f64. */
#define F64_EXACT	9007199254740992.0

static struct {
	struct notes_conf conf;
	unsigned long	 converted;	/* arrays and tables made segments */
	/* the first line left as text for a Fortran form, and how many */
	struct {
		char		 where[NOTE_WHERE];
		char		 tok[NOTE_TOK];
		const char	*why, *what;
		unsigned long	 n;
	} fortran;
	/* an integer f64 rounds in the table block at hand, "line: tok" */
	char		 wide[48];
	int		 widesaid;	/* said once a run */
} notes;

void
note_where(char *buf, const struct notes_at *at)
{
	snprintf(buf, NOTE_WHERE, "%.80s:%lu", at->fname, at->line);
}

void
note_tok(char *buf, const char *tok, size_t n)
{
	snprintf(buf, NOTE_TOK, "%.*s", (int)(n < NOTE_TOKMAX ? n :
	    NOTE_TOKMAX), tok);
}

void
note_more(char *buf, size_t size, unsigned long n, const char *what)
{
	buf[0] = '\0';
	if (n > 1)
		snprintf(buf, size, "; %lu such %s in all", n, what);
}

void
notes_init(const struct notes_conf *conf)
{
	memset(&notes, 0, sizeof(notes));
	notes.conf = *conf;
	missed_init(conf);
	alone_init(conf);
}

/*
 * s[0..len) (a line, or from a bad value the parser read to its end)
 * was left as text: if a Fortran form made it so, remember it.
 */
static void
fortran(const struct notes_at *at, const char *s, size_t len,
    const char *what)
{
	const char *w, *t;
	size_t tl;

	if ((w = ftoken_find(s, len, &t, &tl)) == NULL ||
	    notes.fortran.n++ > 0)
		return;
	notes.fortran.why = w;
	notes.fortran.what = what;
	note_where(notes.fortran.where, at);
	note_tok(notes.fortran.tok, t, tl);
}

/* Is s[0..n) an integer literal that i64 holds but f64 does not? */
static int
f64_rounds(const char *s, size_t n)
{
	unsigned long long v = 0, lim;
	size_t i = 0;
	int neg = 0, base = 10, d;
	double x;

	if (n > 0 && (s[0] == '-' || s[0] == '+'))
		neg = s[i++] == '-';
	if (n - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		base = 16;
		i += 2;
	}
	if (i == n)
		return 0;
	lim = neg ? 9223372036854775808ULL : 9223372036854775807ULL;
	for (; i < n; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			d = s[i] - '0';
		else if (base == 16 && (s[i] | 0x20) >= 'a' &&
		    (s[i] | 0x20) <= 'f')
			d = (s[i] | 0x20) - 'a' + 10;
		else
			return 0;
		if (v > (lim - (unsigned)d) / (unsigned)base)
			return 0;	/* not an i64: -t i64 would not help */
		v = v * (unsigned)base + (unsigned)d;
	}
	x = (double)v;
	return x >= 18446744073709551616.0 || (unsigned long long)x != v;
}

/* Does a row's value, of vals[0..n), reach 2^53? */
static int
wide_value(const double *vals, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (vals[i] >= F64_EXACT || vals[i] <= -F64_EXACT)
			return 1;
	return 0;
}

/* The end of the token of row s[0..n) that begins at i. */
static size_t
row_tokend(const char *s, size_t n, size_t i)
{
	while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != ',' &&
	    s[i] != '\r' && s[i] != '\n')
		i++;
	return i;
}

/*
 * A row of a block of the default type (format-spec.md 6.1): the first
 * integer in it that f64 rounds is kept, "line: token", for the block's
 * end.  Only rows with a value of 2^53 or more are read again.
 */
static void
wide(const struct notes_line *l)
{
	const char *s = l->s;
	size_t i, j, n = l->n;

	if (l->first)
		notes.wide[0] = '\0';
	if (notes.conf.deftype != -1 || notes.widesaid ||
	    notes.wide[0] != '\0' || l->vals == NULL ||
	    !wide_value(l->vals, l->nvals))
		return;
	for (i = 0; i < n; i = j + (j == i)) {
		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == ','))
			i++;
		j = row_tokend(s, n, i);
		if (j > i && f64_rounds(s + i, j - i)) {
			snprintf(notes.wide, sizeof(notes.wide), "%lu: %.*s",
			    l->at.line, (int)(j - i > 24 ? 24 : j - i), s + i);
			return;
		}
	}
}

/*
 * A line that is no row: the typo note keeps it, for the block that may
 * follow; without -f, R's row names, a table left as text (lines that
 * begin with '"', or hold ',' or ';'), Fortran's forms (text that is no
 * comment).
 */
static void
text(const struct notes_line *l)
{
	const char *s = l->s;
	size_t i = strspn(s, " \t");

	if (notes.conf.fields)
		return;
	typo_line(l);
	missed_line(l);
	if (l->n <= NEARTAB_LINE_MAX && (s[i] == '"' ||
	    memchr(s, ',', l->n) != NULL || memchr(s, ';', l->n) != NULL))
		neartab_text(l->at.line, s, l->n);
	if (l->c->kind == SHMIDS_LINE_TEXT && l->c->sep != '#')
		fortran(&l->at, s, l->n, "the row");
}

void
notes_line(const struct notes_line *l)
{
	switch (l->what) {
	case NOTES_ROW:
		wide(l);
		break;
	case NOTES_NOROW:
		missed_norow(l);
		fortran(&l->at, l->s, l->n, "the row");
		typo_line(l);
		neartab_text(l->at.line, l->s, l->n);
		break;
	default:
		text(l);
	}
}

static void
table(const struct notes_block *b)
{
	if (b->made && notes.wide[0] != '\0') {
		notes.widesaid = 1;
		warnx("%s:%s: an integer of more than 53 bits, rounded in f64 "
		    "(the default type): -t i64 keeps it exact", b->at.fname,
		    notes.wide);
	}
	notes.wide[0] = '\0';
	if (!b->nomem) {
		missed_table(b);
		alone_block(b, typo_meant(&b->at));
	}
	neartab_block(b->at.line, b->rows, b->cols, b->sep, b->made);
	typo_block(b);
}

static void
array(const struct notes_block *b)
{
	if (notes.conf.fields || b->made)
		return;
	if (!b->bad) {
		missed_array(b);
		return;
	}
	typo_array(b);
	missed_bad(b);
}

void
notes_block(const struct notes_block *b)
{
	notes.converted += b->made;
	switch (b->what) {
	case NOTES_TABLE:
		table(b);
		break;
	case NOTES_ARRAY:
		array(b);
		break;
	default:
		alone_file(b->at.fname);
		typo_file();
		neartab_file(b->at.fname);
	}
}

/*
 * A bad value of an array (while its line is at hand: the parser read
 * it to its end, so may we): a Fortran form, or a typo maybe.
 */
void
notes_bad(const struct notes_at *at, const char *tok)
{
	size_t len = strcspn(tok, " \t,\r\n"), tl;
	const char *t;

	if (ftoken_find(tok, len, &t, &tl) != NULL)
		fortran(at, tok, len, "the array");
	else
		typo_bad(at, tok, len);
}

static void
say_fortran(void)
{
	char more[48];

	if (notes.fortran.n == 0)
		return;
	note_more(more, sizeof(more), notes.fortran.n, "lines");
	warnx("%s: %s is %s, no value: %s left as text (write the values "
	    "out)%s", notes.fortran.where, msg_quote(notes.fortran.tok,
	    strlen(notes.fortran.tok)), notes.fortran.why,
	    notes.fortran.what, more);
}

void
notes_end(void)
{
	int tables = neartab_say();

	say_fortran();
	alone_say();
	typo_say();
	if (notes.converted == 0)
		missed_say(tables);
}
