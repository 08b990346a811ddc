/*
 * A typo that left an array or a row as text (format-spec.md 7,
 * shm-import): a token that is no number but begins as one would and
 * holds a digit ("3o", "1.2.3", "2.1e-0l"; not "RX4" of a CSV row's
 * "Mazda RX4").  An array's: the first line holds no '"' (a CSV row's
 * quoted text is neartab.c's) and else looks like an array.  A row's:
 * one that would be a row of the table block next to it, which it cuts
 * in two.  The first of each is said, and how many.
 */
#include <err.h>
#include <stdio.h>
#include <string.h>

#include "shmids.h"
#include "msg.h"
#include "neartab.h"
#include "note.h"

/* An array with a typo: at most so many bad tokens on its first line,
   and NOTE_VALUES values for each. */
#define TYPO_BADS	3
/* A row with a typo: at most one token in so many is no number. */
#define TYPO_ROWBAD	2
/* A line kept for the block that may follow it: bytes. */
#define CAND_MAX	4096

static struct {
	/* the bad token notes_bad() saw last, for the array's end */
	struct notes_at	 bad;
	char		 badtok[NOTE_TOK];
	/* the line after the last array counted, if its "/" meant that
	   line as its continuation */
	struct notes_at	 meant;
	/* the first array said, and how many */
	char		 where[NOTE_WHERE];
	char		 field[SHMIDS_NAME_MAX + 1];
	char		 tok[NOTE_TOK];
	unsigned long	 n;
} arr;

/*
 * prevblk is the last block of 2 rows or more, cand the last line that
 * was no row, kept for the block that may follow it; cut the first
 * such line said, and how many.
 */
static struct {
	struct {
		const char	*fname;
		unsigned long	 first, rows;
		size_t		 cols;
		int		 sep, made;
	} prevblk;
	struct {
		struct notes_at	 at;	/* fname NULL: none */
		char		 buf[CAND_MAX];
		size_t		 len;
		int		 after;	/* right after prevblk, of its shape */
		char		 tok[NOTE_TOK];
	} cand;
	char		 where[NOTE_WHERE];
	char		 tok[NOTE_TOK];
	char		 what[160];
	unsigned long	 n;
} cut;

/* Does t[0..n) begin as a number would and hold a digit? */
static int
numberlike(const char *t, size_t n)
{
	size_t i;

	if (n == 0 || strchr("0123456789+-.", t[0]) == NULL || t[0] == '\0')
		return 0;
	for (i = 0; i < n; i++)
		if (t[i] >= '0' && t[i] <= '9')
			return 1;
	return 0;
}

void
typo_bad(const struct notes_at *at, const char *tok, size_t len)
{
	arr.bad = *at;
	note_tok(arr.badtok, tok, len);
}

/*
 * The tokens of an array's first line after its field, s[0..n): how
 * many are numbers, how many not, and whether the last is "/".
 */
static void
count_tokens(const char *s, const char *e, size_t *nums, size_t *bads,
    int *more)
{
	const char *t;

	*nums = *bads = 0;
	*more = 0;
	for (;;) {
		while (s < e && (shmids_isblank(*s) || *s == ',' ||
		    *s == '\r' || *s == '\n'))
			s++;
		if (s == e)
			break;
		for (t = s; t < e && !shmids_isblank(*t) && *t != ',' &&
		    *t != '\r' && *t != '\n'; t++)
			;
		if (t - s == 1 && *s == '/')
			*more = 1;
		else if (shmids_isnumber(s, (size_t)(t - s)))
			(*nums)++, *more = 0;
		else
			(*bads)++, *more = 0;
		s = t;
	}
}

/*
 * The array's bad token (arr.bad, if it was this array's) a typo, and
 * the array else like one: 10 values or more on its first line for each
 * bad token there (at most 3), or continued.  b->s holds the first line,
 * or a long one's first bytes.
 */
static int
array_typo(const struct notes_block *b)
{
	const char *tok = arr.badtok;
	size_t nums, bads;
	int more;

	if (arr.bad.fname != b->at.fname || arr.bad.line != b->at.line ||
	    !numberlike(tok, strlen(tok)) || shmids_isnumber(tok,
	    strlen(tok)) || memchr(b->s, '"', b->n) != NULL)
		return 0;
	arr.bad.fname = NULL;
	count_tokens(b->s + b->field + b->fieldlen, b->s + b->n, &nums, &bads,
	    &more);
	return bads <= TYPO_BADS &&
	    (nums >= NOTE_VALUES * (bads > 0 ? bads : 1) ||
	    (bads == 0 && more)) && note_arraylike(b->s + b->field,
	    b->fieldlen, nums, more ? 2 : 1);
}

/*
 * An array left as text for a bad value: a typo the note tells of?  If
 * its one line ended with "/" (as the library reads it, its values
 * aside: shmids_continued()), the line after it was meant as its
 * continuation.
 */
void
typo_array(const struct notes_block *b)
{
	size_t vals = b->field + b->fieldlen;

	if (!array_typo(b))
		return;
	if (b->last == b->at.line && b->whole &&
	    shmids_continued(b->s + vals, b->n - vals)) {
		arr.meant.fname = b->at.fname;
		arr.meant.line = b->at.line + 1;
	}
	if (arr.n++ > 0)
		return;
	note_where(arr.where, &b->at);
	memcpy(arr.field, b->s + b->field, b->fieldlen);
	arr.field[b->fieldlen] = '\0';
	memcpy(arr.tok, arr.badtok, sizeof(arr.tok));
}

int
typo_meant(const struct notes_at *at)
{
	return arr.meant.fname == at->fname && arr.meant.line == at->line;
}

/* The end of the token at s, split as a row of sep's is. */
static const char *
row_tokend(const char *s, const char *e, int sep)
{
	while (s < e && !(sep == ',' ? *s == ',' || shmids_isblank(*s) :
	    sep == '\t' ? *s == '\t' : shmids_isblank(*s)))
		s++;
	return s;
}

/*
 * Is s[0..n) a row of cols tokens split by sep (' ', '\t' or ',') but
 * for a typo: its first token and its first bad token number-like, at
 * most one bad token in two?  The first bad token goes to tok.
 */
static int
row_typo(const char *s, size_t n, size_t cols, int sep, char *tok)
{
	const char *e = s + n, *t;
	size_t k = 0, bads = 0;

	while (e > s && (e[-1] == '\n' || e[-1] == '\r'))
		e--;
	if (memchr(s, '"', (size_t)(e - s)) != NULL)
		return 0;
	for (;; k++, s = t) {
		while (s < e && shmids_isblank(*s))
			s++;
		if (s == e)
			break;
		t = row_tokend(s, e, sep);
		/* isnumber() reads "-6,26e-01" to its comma */
		if (!shmids_isnumber(s, (size_t)(t - s)) || (sep != ',' &&
		    memchr(s, ',', (size_t)(t - s)) != NULL)) {
			if (!numberlike(s, (size_t)(t - s)))
				return 0;
			if (bads++ == 0)
				note_tok(tok, s, (size_t)(t - s));
		} else if (k == 0 && !numberlike(s, (size_t)(t - s)))
			return 0;
		if (sep != ',')
			continue;
		while (t < e && shmids_isblank(*t))
			t++;
		if (t < e && *t != ',')
			return 0;
		t += t < e;
	}
	return k == cols && bads > 0 && TYPO_ROWBAD * bads <= cols;
}

/* A row with a typo said: the first kept, all counted. */
static void
cut_said(const struct notes_at *at, const char *tok, const char *what)
{
	neartab_typo(at->line);
	if (cut.n++ > 0)
		return;
	note_where(cut.where, at);
	snprintf(cut.tok, sizeof(cut.tok), "%s", tok);
	snprintf(cut.what, sizeof(cut.what), "%s", what);
}

/* The kept line followed by no block of its shape: said if after one. */
static void
cut_flush(void)
{
	char what[160];

	if (cut.cand.at.fname != NULL && cut.cand.after) {
		snprintf(what, sizeof(what), "the row left as text (after the "
		    "table of rows %lu-%lu", cut.prevblk.first,
		    cut.prevblk.first + cut.prevblk.rows - 1);
		cut_said(&cut.cand.at, cut.cand.tok, what);
	}
	cut.cand.at.fname = NULL;
}

/* A line that is no row: kept, for the block that may follow it. */
void
typo_line(const struct notes_line *l)
{
	cut_flush();
	if (l->n > sizeof(cut.cand.buf))
		return;
	cut.cand.at = l->at;
	memcpy(cut.cand.buf, l->s, l->n);
	cut.cand.len = l->n;
	cut.cand.after = cut.prevblk.fname == l->at.fname &&
	    cut.prevblk.first + cut.prevblk.rows == l->at.line &&
	    row_typo(l->s, l->n, cut.prevblk.cols, cut.prevblk.sep,
	    cut.cand.tok);
}

/* The kept line, between the block before and b, of both their shape. */
static void
cut_between(const struct notes_block *b)
{
	char what[160];
	int segs = cut.prevblk.made + b->made;

	snprintf(what, sizeof(what), "the table is cut in two there (rows "
	    "%lu-%lu and %lu-%lu %s", cut.prevblk.first, cut.prevblk.first +
	    cut.prevblk.rows - 1, b->at.line, b->at.line + b->rows - 1,
	    segs == 2 ? "made 2 segments" : segs == 1 ?
	    "made 1 segment and text" : "left as text");
	cut_said(&cut.cand.at, cut.cand.tok, what);
}

/* Is the line kept right before block b a row of it with a typo? */
static void
cut_before(const struct notes_block *b)
{
	char what[160], tok[NOTE_TOK];

	if (cut.cand.after && cut.prevblk.cols == b->cols &&
	    cut.prevblk.sep == b->sep)
		cut_between(b);
	else if (row_typo(cut.cand.buf, cut.cand.len, b->cols, b->sep,
	    tok)) {
		snprintf(what, sizeof(what), "the row left as text (before "
		    "the table of rows %lu-%lu", b->at.line, b->at.line +
		    b->rows - 1);
		cut_said(&cut.cand.at, tok, what);
	} else
		cut_flush();
	cut.cand.at.fname = NULL;
}

/*
 * A block of 2 rows or more, made a segment or not, has ended: is the
 * line kept before it a row of its shape with a typo?
 */
void
typo_block(const struct notes_block *b)
{
	if (b->rows < 2)
		return;
	if (cut.cand.at.fname == b->at.fname &&
	    cut.cand.at.line + 1 == b->at.line)
		cut_before(b);
	else
		cut_flush();
	cut.prevblk.fname = b->at.fname;
	cut.prevblk.first = b->at.line;
	cut.prevblk.rows = b->rows;
	cut.prevblk.cols = b->cols;
	cut.prevblk.sep = b->sep;
	cut.prevblk.made = b->made;
}

void
typo_file(void)
{
	cut_flush();
	cut.prevblk.fname = NULL;
}

void
typo_say(void)
{
	char more[48];

	if (cut.n > 0) {
		note_more(more, sizeof(more), cut.n, "lines");
		warnx("%s: \"%s\" is no number: %s; correct it)%s", cut.where,
		    msg_quote(cut.tok, strlen(cut.tok)), cut.what, more);
	}
	if (arr.n > 0) {
		note_more(more, sizeof(more), arr.n, "arrays");
		warnx("%s: %s: \"%s\" is no number: the array left as text "
		    "(correct it; -f %s names its line)%s", arr.where,
		    msg_quote(arr.field, strlen(arr.field)),
		    msg_quote(arr.tok, strlen(arr.tok)),
		    msg_quote(arr.field, strlen(arr.field)), more);
	}
}
