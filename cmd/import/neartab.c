/*
 * Tables left as text (neartab.h).  A line is split into fields as a
 * reader of CSV would split it: by ';' where it has one outside double
 * quotes, else by ',', else by blanks; a field in double quotes is one
 * field whatever it holds.  Lines of 2 fields or more, at least half of
 * them numbers (or empty, or numbers with a decimal comma) and at least
 * one a number, look like rows; a run of them with the same separator
 * and number of fields, and the table blocks of section 6.1 among them,
 * make one run.  A run that holds a field no row may hold is a table
 * left as text; the largest of a file is told at its end.
 */
#include <err.h>
#include <stdio.h>
#include <string.h>

#include "shmids.h"
#include "neartab.h"
#include "msg.h"

#define SAMPLE		40	/* bytes of a field quoted in the message */

enum { NUM, EMPTY, DECCOMMA, TEXT };

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

static const char *fname;
static struct run cur, best;
static size_t	 convmax;	/* values of the largest block converted */
static char	 prev[4096];	/* the line before, for a header's names */
static unsigned long prevline;
static unsigned long typoline;	/* a row with a typo, said elsewhere */

static int	 told;		/* a table was told of */

/* A new input file: what was noted of the last is forgotten. */
static void
start(void)
{
	memset(&cur, 0, sizeof(cur));
	memset(&best, 0, sizeof(best));
	convmax = 0;
	prevline = 0;
	typoline = 0;
}

void
neartab_typo(unsigned long lineno)
{
	if (typoline == 0)
		typoline = lineno;
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
	size_t i = 0, len, k = 0, plen = strlen(prev);
	int first = 1;

	r->colname[0] = '\0';
	r->rownames = 0;
	if (prevline != r->first - 1)
		return;
	while (field(prev, plen, &i, r->sep, &tok, &len, &first))
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

/* The run so far is over: the largest with a cause is kept. */
static void
close_run(void)
{
	if (cur.rows >= 2 && cur.bad && cur.values > best.values)
		best = cur;
	memset(&cur, 0, sizeof(cur));
}

/* Does a line of sep and cols from line first go on the run? */
static void
extend(unsigned long first, int sep, size_t cols)
{
	if (cur.rows > 0 && (first != cur.last + 1 || sep != cur.sep ||
	    cols != cur.cols))
		close_run();
	if (cur.rows == 0) {
		cur.first = first;
		cur.sep = sep;
		cur.cols = cols;
		cur.trailing = 1;
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
	if (converted && rows * cols > convmax)
		convmax = rows * cols;
	extend(first, sep == ',' ? ',' : ' ', cols);
	if (converted) {
		cur.convrows += rows;
		cur.convblocks++;
	}
	cur.rows += rows;
	cur.values += rows * cols;
	cur.last = first + rows - 1;
}

void
neartab_text(unsigned long lineno, const char *s, size_t n)
{
	const char *tok;
	size_t i = 0, len, cols = 0, nums = 0, odd = 0, col = 0;
	size_t ecol = 0, tcol = 0;
	int sep, k, first = 1, tquoted = 0;
	const char *ttok = NULL, *dtok = NULL;
	size_t tlen = 0, dlen = 0;

	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	if (n > NEARTAB_LINE_MAX) {
		close_run();
		return;
	}
	sep = separator(s, n);
	while (field(s, n, &i, sep, &tok, &len, &first)) {
		cols++;
		col++;
		switch ((k = kind(tok, len, sep))) {
		case NUM:
			nums++;
			break;
		case DECCOMMA:
			nums++;
			if (dtok == NULL)
				dtok = tok, dlen = len;
			break;
		case EMPTY:
			odd++;
			ecol = col;
			break;
		default:
			if (ttok == NULL) {
				ttok = tok, tlen = len, tcol = col;
				tquoted = len >= 2 && tok[0] == '"';
			}
			break;
		}
	}
	if (cols < 2 || nums == 0 || 2 * (nums + odd) < cols) {
		close_run();
		snprintf(prev, sizeof(prev), "%.*s", (int)(n < sizeof(prev) - 1 ?
		    n : sizeof(prev) - 1), s);
		prevline = lineno;
		return;
	}
	extend(lineno, sep, cols);
	cur.rows++;
	cur.values += nums;
	cur.last = lineno;
	if (sep == ';' || ttok != NULL || odd > 0)
		cur.bad = 1;
	if (dtok != NULL && cur.decline == 0) {
		cur.decline = lineno;
		snprintf(cur.dec, sizeof(cur.dec), "\"%s\"", msg_quote(dtok,
		    dlen < SAMPLE ? dlen : SAMPLE));
	}
	if (ttok != NULL && cur.textline == 0) {
		cur.textline = lineno;
		cur.textcol = tcol;
		cur.textquoted = tquoted;
		snprintf(cur.text, sizeof(cur.text), tquoted ? "%s" : "\"%s\"",
		    msg_quote(ttok, tlen < SAMPLE ? tlen : SAMPLE));
		header_name(&cur, tcol);
	}
	if (odd > 0) {
		if (ecol != cols || odd > 1)
			cur.trailing = 0;
		if (cur.emptyline == 0) {
			cur.emptyline = lineno;
			i = strspn(s, " \t");
			snprintf(cur.emptyrow, sizeof(cur.emptyrow), "\"%s%s\"",
			    msg_quote(s + i, n - i < SAMPLE ? n - i : SAMPLE),
			    n - i > SAMPLE ? "..." : "");
		}
	}
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

static int
end(void)
{
	char why[600], fix[600], part[80] = "";
	const struct run *r = &best;
	size_t w = 0, f = 0;

	close_run();
	if (r->rows < 2 || r->values < 10 || (r->convblocks == 0 &&
	    r->values <= convmax))
		return 0;
	/* a typo that cut a table in two: said as such (typo.c) */
	if (r->textline != 0 && r->textline == typoline)
		return 0;
	/* R's row names "1" have a word of their own (missed.c) */
	if (r->textline != 0 && r->textcol == 1 && r->text[0] == '"' &&
	    r->decline == 0 && r->emptyline == 0 &&
	    strlen(r->text) > 2 && number(r->text + 1, strlen(r->text) - 2))
		return 0;
	if (r->textline != 0) {
		if (r->textcol == 1 && r->textquoted && r->rownames) {
			w += (size_t)snprintf(why + w, sizeof(why) - w,
			    "column 1 holds row names (%s, line %lu)",
			    r->text, r->textline);
			f += (size_t)snprintf(fix + f, sizeof(fix) - f,
			    "write it without them (R: row.names = FALSE%s",
			    r->sep != ' ' ? ", or" : ")");
		} else {
			w += (size_t)snprintf(why + w, sizeof(why) - w,
			    "column %zu%s%s%s is text (%s, line %lu)",
			    r->textcol, r->colname[0] ? " (\"" : "",
			    r->colname, r->colname[0] ? "\")" : "", r->text,
			    r->textline);
			f += (size_t)snprintf(fix + f, sizeof(fix) - f,
			    "a row holds numbers only: leave column %zu out",
			    r->textcol);
		}
		if (r->sep != ' ')
			f += (size_t)snprintf(fix + f, sizeof(fix) - f,
			    " %scut -d'%c' -f%s %s | shm-import)",
			    r->rownames && r->textcol == 1 && r->textquoted ?
			    "" : "(", r->sep, others(r->textcol, r->cols),
			    msg_shword(fname));
	}
	if (r->decline != 0) {
		w += (size_t)snprintf(why + w, sizeof(why) - w,
		    "%s';' separates the fields and ',' is the decimal mark "
		    "(%s, line %lu), as R's write.csv2 writes", w ? "; " : "",
		    r->dec, r->decline);
		f += (size_t)snprintf(fix + f, sizeof(fix) - f,
		    "%sshmids reads the decimal mark '.' only: write.csv "
		    "writes the same table so", f ? "; " : "");
	} else if (r->sep == ';') {
		w += (size_t)snprintf(why + w, sizeof(why) - w,
		    "%s';' separates the fields", w ? "; " : "");
		f += (size_t)snprintf(fix + f, sizeof(fix) - f,
		    "%sa row is separated by blanks or ',' only",
		    f ? "; " : "");
	}
	if (r->emptyline != 0 && r->trailing && r->sep == ',') {
		w += (size_t)snprintf(why + w, sizeof(why) - w,
		    "%srows end in ',' (%s, line %lu), as CDL's data "
		    "section", w ? "; " : "", r->emptyrow, r->emptyline);
		f += (size_t)snprintf(fix + f, sizeof(fix) - f,
		    "%sa row ends at its last value (sed 's/, *$//' %s | "
		    "shm-import)", f ? "; " : "", fname);
	} else if (r->emptyline != 0) {
		w += (size_t)snprintf(why + w, sizeof(why) - w,
		    "%sempty fields (%s, line %lu), as pandas writes NaN",
		    w ? "; " : "", r->emptyrow, r->emptyline);
		f += (size_t)snprintf(fix + f, sizeof(fix) - f,
		    "%san empty field is no value: write NaN as nan "
		    "(pandas: to_csv(na_rep=\"nan\"))", f ? "; " : "");
	}
	if (r->convblocks > 0)
		snprintf(part, sizeof(part), " in part (%zu of its rows made "
		    "%zu segment%s)", r->convrows, r->convblocks,
		    r->convblocks > 1 ? "s" : "");
	warnx("%s:%lu-%lu: a table of %zu rows, %zu values, stayed text%s: "
	    "%s; %s", fname, r->first, r->last, r->rows, r->values, part, why,
	    fix);
	return 1;
}

void
neartab_file(const char *f)
{
	fname = f;
	told |= end();
	start();
}

int
neartab_say(void)
{
	return told;
}
