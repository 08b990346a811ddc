/*
 * Tables left as text (neartab.h).  A line is split into fields as a
 * reader of CSV would split it: by ';' where it has one outside double
 * quotes, else by ',', else by blanks; a field in double quotes is one
 * field whatever it holds.  Lines of 2 fields or more, at least half of
 * them numbers (or empty, or numbers with a decimal comma) and at least
 * one a number, look like rows; a run of them with the same separator
 * and number of fields, and the table blocks of section 6.1 among them,
 * make one run.  A run that holds a field no row may hold is a table
 * left as text.  Its causes (a text column or R's row names, a decimal
 * comma or ';', trailing commas or empty fields) make its kind: of each
 * kind the largest of a file is kept at the file's end, and after the
 * input the largest of each kind is told, with how many there were.
 */
#include <err.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmids.h"
#include "neartab.h"
#include "msg.h"

#define SAMPLE		40	/* bytes of a field quoted in the message */
#define MIN_VALUES	10	/* values of a table worth a word */
#define PREV_MAX	4096	/* the line before, kept for a header */

enum { NUM, EMPTY, DECCOMMA, TEXT };

/* Why a run stayed text: its kind is the set of them. */
#define C_ROWNAMES	0x01	/* R's row names in column 1 */
#define C_TEXT		0x02	/* a text column */
#define C_DECCOMMA	0x04	/* ';' and a decimal comma (write.csv2) */
#define C_SEMICOLON	0x08	/* ';' alone */
#define C_TRAILING	0x10	/* rows that end in ',' (CDL) */
#define C_EMPTY		0x20	/* empty fields (pandas' NaN) */
#define NKINDS		0x40

struct run {
	unsigned long	 first, last;	/* lines */
	int		 sep;		/* ';', ',' or ' ' */
	size_t		 cols, rows, values;
	size_t		 convrows, convblocks;	/* blocks converted in it */
	int		 bad;		/* holds a field no row holds */
	/* the first of each cause: its line, column (from 1), field */
	unsigned long	 textline, emptyline, decline;
	size_t		 textcol;
	int		 trailing;	/* empty fields are all last ones */
	int		 textquoted;	/* the text column's fields quoted */
	int		 rownames;	/* the header has a name less (R) */
	char		 text[SAMPLE + 3], dec[SAMPLE + 3];
	char		 colname[SAMPLE + 1];
	char		 emptyrow[SAMPLE + 6];
};

/* One line's fields, as neartab_text() reads them. */
struct fields {
	int		 sep;
	size_t		 cols, nums, odd;	/* odd: empty fields */
	size_t		 ecol;			/* the last empty one's */
	const char	*ttok, *dtok;		/* the first text field, */
	size_t		 tlen, tcol, dlen;	/* and decimal comma's */
	int		 tquoted;
};

/* A run with a cause, of the file at hand: what its end judges. */
struct seen {
	unsigned	 kind;
	size_t		 values;
	unsigned long	 textline;
	int		 conv;		/* blocks converted in it */
};

/* The file at hand. */
static struct {
	struct run	 cur;
	struct run	 kept[NKINDS];	/* the largest run of each kind */
	struct seen	*seen;		/* every run with a cause */
	size_t		 nseen, capseen;
	size_t		 convmax;	/* values of the largest block made */
	char		 prev[PREV_MAX];	/* the line before a run */
	unsigned long	 prevline;
	unsigned long	 typoline;	/* a row with a typo, said elsewhere */
} f;

/* To tell after the input: of each kind, the largest, and how many. */
struct told {
	struct run	 run;
	const char	*fname;
	unsigned long	 n;
	unsigned	 kind;
};
static struct {
	struct told	 v[NKINDS];
	size_t		 n;
} told;

void
neartab_typo(unsigned long lineno)
{
	if (f.typoline == 0)
		f.typoline = lineno;
}

/* Is tok[0..n) a number of section 6 (any type's form), whole? */
static int
number(const char *tok, size_t n)
{
	char buf[128];

	if (n == 0 || n >= sizeof(buf) || memchr(tok, ',', n) != NULL ||
	    memchr(tok, ' ', n) != NULL || memchr(tok, '\t', n) != NULL)
		return 0;
	memcpy(buf, tok, n);
	buf[n] = '\0';
	return shmids_isnumber(buf, n);
}

static int
kind(const char *tok, size_t n, int sep)
{
	char buf[128];
	const char *c;

	if (n == 0)
		return EMPTY;
	if (number(tok, n))
		return NUM;
	/* 3,9 as write.csv2 writes 3.9 */
	if (sep == ';' && n < sizeof(buf) && (c = memchr(tok, ',', n)) !=
	    NULL && memchr(c + 1, ',', n - (size_t)(c + 1 - tok)) == NULL) {
		memcpy(buf, tok, n);
		buf[c - tok] = '.';
		if (number(buf, n))
			return DECCOMMA;
	}
	return TEXT;
}

/* The separator of line s[0..n): ';' or ',' outside quotes, else blank. */
static int
separator(const char *s, size_t n)
{
	size_t i;
	int q = 0, comma = 0;

	for (i = 0; i < n; i++)
		if (s[i] == '"')
			q = !q;
		else if (!q && s[i] == ';')
			return ';';
		else if (!q && s[i] == ',')
			comma = 1;
	return comma ? ',' : ' ';
}

/*
 * The next field of s[*i..n), as [*tok, *tok + *len); 0 at the end.
 * Blanks around a field go; a quoted field keeps its quotes.
 */
static int
field(const char *s, size_t n, size_t *i, int sep, const char **tok,
    size_t *len, int *first)
{
	size_t j = *i, e;

	if (sep == ' ') {
		while (j < n && shmids_isblank(s[j]))
			j++;
		if (j == n)
			return 0;
	} else {
		if (!*first) {
			if (j == n)
				return 0;
			j++;	/* the separator */
		}
		while (j < n && shmids_isblank(s[j]))
			j++;
	}
	*first = 0;
	*tok = s + j;
	if (j < n && s[j] == '"') {
		for (j++; j < n && s[j] != '"'; j++)
			;
		j += j < n;
	}
	while (j < n && (sep == ' ' ? !shmids_isblank(s[j]) : s[j] != sep))
		j++;
	for (e = j; e > (size_t)(*tok - s) && shmids_isblank(s[e - 1]); e--)
		;
	*len = e - (size_t)(*tok - s);
	*i = j;
	return 1;
}

/* The n-th field (from 1) of the line before, if it is a header. */
static void
header_name(struct run *r, size_t col)
{
	const char *tok;
	size_t i = 0, len, k = 0, plen = strlen(f.prev);
	int first = 1;

	r->colname[0] = '\0';
	r->rownames = 0;
	if (f.prevline != r->first - 1)
		return;
	while (field(f.prev, plen, &i, r->sep, &tok, &len, &first))
		if (++k == col) {
			if (len >= 2 && tok[0] == '"' && tok[len - 1] == '"')
				tok++, len -= 2;
			snprintf(r->colname, sizeof(r->colname), "%s",
			    msg_quote(tok, len < SAMPLE ? len : SAMPLE));
		}
	/* R: write.table's header has no name over the row names, write.csv's "" */
	if (col == 1 && (k + 1 == r->cols || (k == r->cols &&
	    r->colname[0] == '\0')))
		r->rownames = 1;
}

/* The causes of run r, a set of C_*. */
static unsigned
kind_of(const struct run *r)
{
	unsigned k = 0;

	if (r->textline != 0)
		k |= r->textcol == 1 && r->textquoted && r->rownames ?
		    C_ROWNAMES : C_TEXT;
	if (r->decline != 0)
		k |= C_DECCOMMA;
	else if (r->sep == ';')
		k |= C_SEMICOLON;
	if (r->emptyline != 0)
		k |= r->trailing && r->sep == ',' ? C_TRAILING : C_EMPTY;
	return k;
}

/*
 * Is run r one to tell, as far as it tells by itself: 2 rows or more, a
 * cause, 10 values or more, and not R's row names "1" (missed.c's)?
 */
static int
telling(const struct run *r)
{
	return r->rows >= 2 && r->bad && r->values >= MIN_VALUES &&
	    !(r->textline != 0 && r->textcol == 1 && r->text[0] == '"' &&
	    r->decline == 0 && r->emptyline == 0 && strlen(r->text) > 2 &&
	    number(r->text + 1, strlen(r->text) - 2));
}

/* Run r of kind k seen, for the count at the file's end. */
static void
see(const struct run *r, unsigned k)
{
	struct seen *n;
	size_t cap;

	if (f.nseen == f.capseen) {
		cap = f.capseen ? 2 * f.capseen : 16;
		/* no memory: the count is short, the note said still */
		if ((n = realloc(f.seen, cap * sizeof(*n))) == NULL)
			return;
		f.seen = n;
		f.capseen = cap;
	}
	f.seen[f.nseen].kind = k;
	f.seen[f.nseen].values = r->values;
	f.seen[f.nseen].textline = r->textline;
	f.seen[f.nseen++].conv = r->convblocks > 0;
}

/* The run so far is over: seen if it tells, the largest of its kind kept. */
static void
close_run(void)
{
	unsigned k = kind_of(&f.cur);

	if (telling(&f.cur)) {
		see(&f.cur, k);
		if (f.cur.values > f.kept[k].values)
			f.kept[k] = f.cur;
	}
	memset(&f.cur, 0, sizeof(f.cur));
}

/* Does a line of sep and cols from line first go on the run? */
static void
extend(unsigned long first, int sep, size_t cols)
{
	if (f.cur.rows > 0 && (first != f.cur.last + 1 || sep != f.cur.sep ||
	    cols != f.cur.cols))
		close_run();
	if (f.cur.rows == 0) {
		f.cur.first = first;
		f.cur.sep = sep;
		f.cur.cols = cols;
		f.cur.trailing = 1;
	}
}

void
neartab_block(unsigned long first, size_t rows, size_t cols, int sep,
    int converted)
{
	/*
	 * A block converted may be a piece of a larger table cut by the
	 * lines that are no rows (pandas' empty fields, with -k small).
	 */
	if (converted && rows * cols > f.convmax)
		f.convmax = rows * cols;
	extend(first, sep == ',' ? ',' : ' ', cols);
	if (converted) {
		f.cur.convrows += rows;
		f.cur.convblocks++;
	}
	f.cur.rows += rows;
	f.cur.values += rows * cols;
	f.cur.last = first + rows - 1;
}

/* The fields of line s[0..n), counted by kind into l. */
static void
scan(const char *s, size_t n, struct fields *l)
{
	const char *tok;
	size_t i = 0, len;
	int first = 1;

	memset(l, 0, sizeof(*l));
	l->sep = separator(s, n);
	while (field(s, n, &i, l->sep, &tok, &len, &first)) {
		l->cols++;
		switch (kind(tok, len, l->sep)) {
		case NUM:
			l->nums++;
			break;
		case DECCOMMA:
			l->nums++;
			if (l->dtok == NULL)
				l->dtok = tok, l->dlen = len;
			break;
		case EMPTY:
			l->odd++;
			l->ecol = l->cols;
			break;
		default:
			if (l->ttok == NULL) {
				l->ttok = tok, l->tlen = len, l->tcol = l->cols;
				l->tquoted = len >= 2 && tok[0] == '"';
			}
			break;
		}
	}
}

/* The causes line lineno, s[0..n) of fields l, shows first in its run. */
static void
first_causes(unsigned long lineno, const char *s, size_t n,
    const struct fields *l)
{
	struct run *r = &f.cur;
	size_t i;

	if (l->dtok != NULL && r->decline == 0) {
		r->decline = lineno;
		snprintf(r->dec, sizeof(r->dec), "\"%s\"", msg_quote(l->dtok,
		    l->dlen < SAMPLE ? l->dlen : SAMPLE));
	}
	if (l->ttok != NULL && r->textline == 0) {
		r->textline = lineno;
		r->textcol = l->tcol;
		r->textquoted = l->tquoted;
		snprintf(r->text, sizeof(r->text), l->tquoted ? "%s" : "\"%s\"",
		    msg_quote(l->ttok, l->tlen < SAMPLE ? l->tlen : SAMPLE));
		header_name(r, l->tcol);
	}
	if (l->odd > 0 && r->emptyline == 0) {
		r->emptyline = lineno;
		i = strspn(s, " \t");
		snprintf(r->emptyrow, sizeof(r->emptyrow), "\"%s%s\"",
		    msg_quote(s + i, n - i < SAMPLE ? n - i : SAMPLE),
		    n - i > SAMPLE ? "..." : "");
	}
}

void
neartab_text(unsigned long lineno, const char *s, size_t n)
{
	struct fields l;

	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	if (n > NEARTAB_LINE_MAX) {
		close_run();
		return;
	}
	scan(s, n, &l);
	if (l.cols < 2 || l.nums == 0 || 2 * (l.nums + l.odd) < l.cols) {
		close_run();
		snprintf(f.prev, sizeof(f.prev), "%.*s", (int)(n <
		    sizeof(f.prev) - 1 ? n : sizeof(f.prev) - 1), s);
		f.prevline = lineno;
		return;
	}
	extend(lineno, l.sep, l.cols);
	f.cur.rows++;
	f.cur.values += l.nums;
	f.cur.last = lineno;
	if (l.sep == ';' || l.ttok != NULL || l.odd > 0)
		f.cur.bad = 1;
	if (l.odd > 0 && (l.ecol != l.cols || l.odd > 1))
		f.cur.trailing = 0;
	first_causes(lineno, s, n, &l);
}

/*
 * Is a run of the file at its end, values, its text from textline, conv
 * blocks converted in it, one to tell?  It holds more values than any
 * block of the file converted, unless it was converted in part; its
 * text is no row with a typo that cut a table in two (typo.c's).
 */
static int
tellable(size_t values, unsigned long textline, int conv)
{
	return (conv || values > f.convmax) &&
	    !(textline != 0 && textline == f.typoline);
}

/* How many runs of kind k of the file at its end are to tell. */
static unsigned long
count(unsigned k)
{
	unsigned long n = 0;
	size_t i;

	for (i = 0; i < f.nseen; i++)
		n += f.seen[i].kind == k && tellable(f.seen[i].values,
		    f.seen[i].textline, f.seen[i].conv);
	return n;
}

/*
 * Run r of file fname, of kind k, one of n of its file: the largest of
 * its kind is told, with how many.
 */
static void
keep(const struct run *r, const char *fname, unsigned k, unsigned long n)
{
	struct told *t;
	size_t i;

	for (i = 0; i < told.n && told.v[i].kind != k; i++)
		;
	t = &told.v[i];
	if (i == told.n) {
		told.n++;
		t->kind = k;
		t->n = 0;
	}
	if (t->n == 0 || r->values > t->run.values) {
		t->run = *r;
		t->fname = fname;
	}
	t->n += n;
}

/*
 * The kind whose largest run of the file at its end, to tell, begins
 * first after line at; 0: none.
 */
static unsigned
next_kind(unsigned long at)
{
	const struct run *r;
	unsigned k, next = 0;

	for (k = 1; k < NKINDS; k++) {
		r = &f.kept[k];
		if (r->rows > 0 && r->first > at && tellable(r->values,
		    r->textline, r->convblocks > 0) && (next == 0 ||
		    r->first < f.kept[next].first))
			next = k;
	}
	return next;
}

void
neartab_file(const char *fname)
{
	unsigned k;

	close_run();
	/* the file's tables to tell, in the order of their lines */
	for (k = next_kind(0); k != 0; k = next_kind(f.kept[k].first))
		keep(&f.kept[k], fname, k, count(k));
	free(f.seen);
	memset(&f, 0, sizeof(f));
}

/* What s is, its causes' words, "; " between them. */
struct words {
	char	 buf[600];
	size_t	 len;
};

static void
add(struct words *w, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(w->buf + w->len, sizeof(w->buf) - w->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		w->len += (size_t)n < sizeof(w->buf) - w->len ? (size_t)n :
		    sizeof(w->buf) - w->len - 1;
}

/* "; " after the words before, if any. */
static const char *
semi(const struct words *w)
{
	return w->len > 0 ? "; " : "";
}

/* A list of the fields other than col, for cut -f: "2-12", "1-4,6". */
static const char *
others(size_t col, size_t cols)
{
	static char buf[64];
	size_t o = 0;

	buf[0] = '\0';
	if (col > 1)
		o += (size_t)snprintf(buf, sizeof(buf), col == 2 ? "1" :
		    "1-%zu", col - 1);
	if (col < cols)
		snprintf(buf + o, sizeof(buf) - o, "%s%zu%s", o ? "," : "",
		    col + 1, col + 1 < cols ? "-" : "");
	return buf;
}

/* A text column, or R's row names: why, and the fix. */
static void
why_text(const struct run *r, const char *fname, struct words *why,
    struct words *fix)
{
	int rn = r->textcol == 1 && r->textquoted && r->rownames;

	if (rn) {
		add(why, "column 1 holds row names (%s, line %lu)", r->text,
		    r->textline);
		add(fix, "write it without them (R: row.names = FALSE%s",
		    r->sep != ' ' ? ", or" : ")");
	} else {
		add(why, "column %zu%s%s%s is text (%s, line %lu)", r->textcol,
		    r->colname[0] ? " (\"" : "", r->colname,
		    r->colname[0] ? "\")" : "", r->text, r->textline);
		add(fix, "a row holds numbers only: leave column %zu out",
		    r->textcol);
	}
	if (r->sep != ' ')
		add(fix, " %scut -d'%c' -f%s %s | shm-import)", rn ? "" : "(",
		    r->sep, others(r->textcol, r->cols), msg_shword(fname));
}

/* ';' and the decimal comma; trailing commas, empty fields. */
static void
why_fields(const struct run *r, const char *fname, struct words *why,
    struct words *fix)
{
	if (r->decline != 0) {
		add(why, "%s';' separates the fields and ',' is the decimal "
		    "mark (%s, line %lu), as R's write.csv2 writes", semi(why),
		    r->dec, r->decline);
		add(fix, "%sshmids reads the decimal mark '.' only: write.csv "
		    "writes the same table so", semi(fix));
	} else if (r->sep == ';') {
		add(why, "%s';' separates the fields", semi(why));
		add(fix, "%sa row is separated by blanks or ',' only",
		    semi(fix));
	}
	if (r->emptyline != 0 && r->trailing && r->sep == ',') {
		add(why, "%srows end in ',' (%s, line %lu), as CDL's data "
		    "section", semi(why), r->emptyrow, r->emptyline);
		add(fix, "%sa row ends at its last value (sed 's/, *$//' %s | "
		    "shm-import)", semi(fix), fname);
	} else if (r->emptyline != 0) {
		add(why, "%sempty fields (%s, line %lu), as pandas writes NaN",
		    semi(why), r->emptyrow, r->emptyline);
		add(fix, "%san empty field is no value: write NaN as nan "
		    "(pandas: to_csv(na_rep=\"nan\"))", semi(fix));
	}
}

static void
tell(const struct told *t)
{
	const struct run *r = &t->run;
	struct words why = { "", 0 }, fix = { "", 0 };
	char part[80] = "", more[48] = "";

	if (r->textline != 0)
		why_text(r, t->fname, &why, &fix);
	why_fields(r, t->fname, &why, &fix);
	if (r->convblocks > 0)
		snprintf(part, sizeof(part), " in part (%zu of its rows made "
		    "%zu segment%s)", r->convrows, r->convblocks,
		    r->convblocks > 1 ? "s" : "");
	if (t->n > 1)
		snprintf(more, sizeof(more), "; %lu such tables in all", t->n);
	warnx("%s:%lu-%lu: a table of %zu rows, %zu values, stayed text%s: "
	    "%s; %s%s", t->fname, r->first, r->last, r->rows, r->values, part,
	    why.buf, fix.buf, more);
}

int
neartab_say(void)
{
	size_t i;

	for (i = 0; i < told.n; i++)
		tell(&told.v[i]);
	return told.n > 0;
}
