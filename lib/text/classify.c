/*
 * What a line of an ASCII file is (format-spec.md 5, 6 and 6.1): the one
 * place those rules are coded.  shmids_line_kind() reads a line's tokens
 * alone; shmids_line_next() reads it in its file (continuations, table
 * blocks) with its values; shmids_field_check() says which fields a
 * writer may write, by the same rules.  shm-import, shm-expand,
 * shmids_get(), shmids_put() and the bindings all ask here.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "text.h"
#include "number.h"

/*
 * shm-expand holds about 4 KiB of a line (format-spec.md 8): a row with
 * more leading blanks than this could not be given them back (6.1).
 */
#define LEAD_MAX	4000

static const char numfield[] = "a number is not a field";
static const char comment_why[] = "a comment (its first token begins with #)";
static const char nul_why[] =
    "a NUL byte in the first token (no field holds one)";

/* a first line this long is parsed on threads, as shm-import's runs */
#define LONG_LINE	((size_t)512 << 10)

int
shmids_isblank(int c)
{
	return shmids_blank(c);
}

int
shmids_continued(const char *s, size_t len)
{
	return shmids_cont(s, len);
}

/* Next blank-separated token of line[*pos..end); 0 at the end. */
static size_t
token(const char *line, size_t end, size_t *pos, size_t *start)
{
	size_t i = *pos;

	while (i < end && shmids_blank(line[i]))
		i++;
	*start = i;
	while (i < end && !shmids_blank(line[i]))
		i++;
	*pos = i;
	return i - *start;
}

static int
malformed(struct shmids_line *c, const char *why)
{
	c->kind = SHMIDS_LINE_MALFORMED;
	c->why = why;
	return 1;
}

/* The largest sequence number, 2^63 - 1 (format-spec.md 5.1). */
static const char seqmax[] = "9223372036854775807";

/* Is t[0..n) decimal digits alone? */
static int
digits(const char *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i] < '0' || t[i] > '9')
			return 0;
	return n > 0;
}

/*
 * Why digits t[0..n) are no message's sequence number (format-spec.md
 * 5.1: no leading zero, at most 2^63 - 1), or NULL if they are one.
 */
static const char *
seq_why(const char *t, size_t n)
{
	if (n > 1 && t[0] == '0')
		return "a sequence number with a leading zero";
	if (n > sizeof(seqmax) - 1 || (n == sizeof(seqmax) - 1 &&
	    memcmp(t, seqmax, n) > 0))
		return "a sequence number over 9223372036854775807";
	return NULL;
}

/*
 * A reference's fifth token (a table reference's fourth), digits
 * t[0..n) at offset x, after a valid label: a message reference
 * (format-spec.md 5.1), its sequence number where values says, or
 * MALFORMED, with no label.
 */
static int
msg_rest(const char *line, size_t end, size_t pos, size_t x, size_t n,
    struct shmids_line *c)
{
	const char *why;
	size_t y;

	if ((why = seq_why(line + x, n)) != NULL ||
	    token(line, end, &pos, &y) != 0) {
		c->label[0] = '\0';
		return malformed(c, why != NULL ? why :
		    "text after the sequence number");
	}
	c->kind = c->kind == SHMIDS_LINE_TREF ? SHMIDS_LINE_MTREF :
	    SHMIDS_LINE_MREF;
	c->values = x;
	return 1;
}

/*
 * The id, name and end of a reference, from pos (after the keyword) on:
 * kind REF (or TREF, as the caller sets it) with c->label, a message
 * reference of either form (MREF, MTREF: a sequence number after the
 * label), or MALFORMED.
 */
static int
label_rest(const char *line, size_t end, size_t pos, struct shmids_line *c,
    int kind, int flags)
{
	size_t s, n, x, xlen, idlen, namelen;

	if (memchr(line, '\0', end) != NULL)
		return malformed(c, "NUL byte in reference");
	if (memchr(line, '\r', end) != NULL)
		return malformed(c, "CR inside reference");
	if ((idlen = token(line, end, &pos, &s)) == 0)
		return malformed(c, "no label after shmids");
	/* "x shmids coeff": the name without its shmid, not the reverse */
	if ((namelen = token(line, end, &pos, &n)) == 0)
		return malformed(c, shmids_id_check(line + s, idlen, NULL) ==
		    -1 ? "no label after shmids (a shmid, then a name)" :
		    "no name after shmid");
	/*
	 * A fifth token: a message's sequence number (5.1).  Any other is
	 * what 1.6 said of every one: text after the label, as it says of
	 * this one too under SHMIDS_LINE_NOMSG.
	 */
	if ((xlen = token(line, end, &pos, &x)) != 0 && ((flags &
	    SHMIDS_LINE_NOMSG) != 0 || !digits(line + x, xlen)))
		return malformed(c, "text after the label");
	/* The label proper has one space; the line may have any blanks. */
	if (namelen > SHMIDS_NAME_MAX)
		return malformed(c, "name longer than 64 bytes");
	if (idlen + 1 + namelen > SHMIDS_LABEL_MAX)
		return malformed(c, "label longer than 75 bytes");
	if (shmids_id_check(line + s, idlen, NULL) == -1)
		return malformed(c, "bad shmid or path");
	if (shmids_name_check(line + n, namelen) == -1)
		return malformed(c, "bad name");
	memcpy(c->label, line + s, idlen);
	c->label[idlen] = ' ';
	memcpy(c->label + idlen + 1, line + n, namelen);
	c->label[idlen + 1 + namelen] = '\0';
	c->kind = kind;
	return xlen == 0 ? 1 : msg_rest(line, end, pos, x, xlen, c);
}

static int
digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Fortran's forms that are no value (format-spec.md 6): what the
 * classifier says of a line that begins with one, and what
 * shmids_field_check() says of a field that is one.
 */
enum { NOFORM, REPEAT, NULLVAL, EXPONENT };
static const char *const form_why[] = {
	NULL,
	"a list-directed repeat count (Fortran's r*c)",
	"a list-directed null value (Fortran's r*)",
	"a Fortran exponent without its letter (E, D)"
};
static const char *const form_field[] = {
	NULL,
	"a list-directed repeat count (Fortran's r*c) is never a field "
	    "(a line that begins with one is text)",
	"a list-directed null value (Fortran's r*) is never a field (a "
	    "line that begins with one is text)",
	"a Fortran exponent without its letter (E, D) is never a field (a "
	    "line that begins with one is text)"
};

/*
 * Which of Fortran's forms t[0..n) is: a list-directed repeat count r*c
 * or null value r* (r a positive count, leading zeros allowed), an E
 * edit descriptor's exponent without its letter ([sign] digits
 * [. digits] sign digits), or NOFORM.
 */
static int
fortran_form(const char *t, size_t n)
{
	size_t i = 0, d;

	while (i < n && digit(t[i]))
		i++;
	if (i > 0 && i < n && t[i] == '*') {
		/* r = 0 (0*, 00*) is no count; 03* is 3, as Fortran reads it */
		if (strspn(t, "0") >= i)
			return NOFORM;
		if (i + 1 == n)
			return NULLVAL;
		return shmids_isnumber(t + i + 1, n - i - 1) ? REPEAT :
		    NOFORM;
	}
	i = t[0] == '-' || t[0] == '+';
	d = i;
	while (i < n && digit(t[i]))
		i++;
	if (i < n && t[i] == '.')
		for (i++; i < n && digit(t[i]); i++)
			;
	if (i == d || i == n || (t[i] != '+' && t[i] != '-') || i + 1 == n)
		return NOFORM;
	for (i++; i < n && digit(t[i]); i++)
		;
	return i == n ? EXPONENT : NOFORM;
}

/* The form of a first token t[0..n), which ends at a comma too (6). */
static int
first_form(const char *t, size_t n)
{
	const char *comma = memchr(t, ',', n);

	if (comma != NULL)
		n = (size_t)(comma - t);
	return n > 0 ? fortran_form(t, n) : NOFORM;
}

/*
 * A comment (format-spec.md 6): text with no field, sep '#' to tell it
 * from other text (shmids.h).  field stays at the "#", fieldlen 0.
 */
static int
comment(struct shmids_line *c)
{
	c->kind = SHMIDS_LINE_TEXT;
	c->why = comment_why;
	c->sep = '#';
	c->fieldlen = 0;
	c->values = 0;
	c->label[0] = '\0';
	return 1;
}

/* Is t[0..n) "shmids" or "shmids,", a table reference's first token? */
static int
tkeyword(const char *t, size_t n)
{
	return (n == 6 || n == 7) && memcmp(t, "shmids,", n) == 0;
}

/*
 * A part of a line (flag SHMIDS_LINE_PART): is it known already not to
 * be a reference of either kind?  Its second token is there and ends
 * before the part does, and is not "shmids"; or it reaches the part's
 * end and is no beginning of "shmids" (nor "shmids" and the CR of a
 * CRLF); and the first token is no table reference's (kw 0), or the
 * second cannot begin an id.
 */
static int
part_plain(const char *b, size_t n, size_t f, size_t flen, int kw)
{
	size_t i = f + flen, s;

	if (i == n)
		return 0;
	while (i < n && shmids_blank(b[i]))
		i++;
	for (s = i; i < n && !shmids_blank(b[i]); i++)
		;
	if (s == n)
		return 0;
	if (kw && ((b[s] >= '0' && b[s] <= '9') || b[s] == '/'))
		return 0;
	if (i < n)
		return i - s != 6 || memcmp(b + s, "shmids", 6) != 0;
	return i - s > 7 || memcmp(b + s, "shmids\r", i - s) != 0;
}

/*
 * c zeroed, but for its line's end and first token: end, eol, lead,
 * field and fieldlen.  Returns the line's length without its LF.  A cut
 * line (SHMIDS_LINE_CUT) begins inside its first token: no blanks lead.
 */
static size_t
shape(const char *line, size_t len, int flags, struct shmids_line *c)
{
	const char *nl;
	size_t pos = 0;

	memset(c, 0, offsetof(struct shmids_line, label));
	c->label[0] = '\0';
	if ((flags & SHMIDS_LINE_PART) == 0) {
		if ((nl = memchr(line, '\n', len)) != NULL) {
			c->eol = nl > line && nl[-1] == '\r' ?
			    SHMIDS_EOL_CRLF : SHMIDS_EOL_LF;
			len = (size_t)(nl - line);
		} else if (len > 0 && line[len - 1] == '\r')
			c->eol = SHMIDS_EOL_CR;
	}
	c->end = len > 0 && line[len - 1] == '\r' &&
	    (flags & SHMIDS_LINE_PART) == 0 ? len - 1 : len;
	if (flags & SHMIDS_LINE_CUT)
		while (c->fieldlen < c->end && !shmids_blank(line[c->fieldlen]))
			c->fieldlen++;
	else
		c->fieldlen = token(line, c->end, &pos, &c->field);
	c->lead = c->field;
	return len;
}

/*
 * What the classifier needs of a line's first token, c's field: from its
 * bytes, or for a cut line (SHMIDS_LINE_CUT) from what the caller says
 * of those that went before (format-spec.md 7, shm-expand): it begins
 * with "#", holds a NUL or a CR; whether it reads as a number (6.1) or
 * a Fortran form (6), and is a table reference's keyword (5), which a
 * cut token, longer than its caller holds, never is.
 */
struct first {
	int	 hash, nul, cr, cut;
};

static void
first_of(const char *line, int flags, const struct shmids_line *c,
    struct first *t)
{
	const char *f = line + c->field;

	t->cut = (flags & SHMIDS_LINE_CUT) != 0;
	t->hash = t->cut ? (flags & SHMIDS_LINE_CUT_HASH) != 0 :
	    c->fieldlen > 0 && f[0] == '#';
	t->nul = (t->cut && (flags & SHMIDS_LINE_CUT_NUL) != 0) ||
	    memchr(f, '\0', c->fieldlen) != NULL;
	t->cr = t->cut && (flags & SHMIDS_LINE_CUT_CR) != 0;
}

/* shmids_line_kind() but for errno, which the label's checks may set */
static int
line_kind(const char *line, size_t len, int flags, struct shmids_line *c)
{
	struct first t;
	size_t end, pos, s, k;
	int form;

	len = shape(line, len, flags, c);
	first_of(line, flags, c, &t);
	end = c->end;
	pos = c->field + c->fieldlen;
	if (c->fieldlen == 0 && !t.cut && (flags & SHMIDS_LINE_PART) != 0)
		return 0;
	if (c->fieldlen == 0 && !t.cut) {
		c->kind = SHMIDS_LINE_TEXT;
		c->why = "a blank line";
		return 1;
	}
	if ((flags & SHMIDS_LINE_PART) != 0 && !part_plain(line, len,
	    c->field, c->fieldlen, !t.cut && tkeyword(line + c->field,
	    c->fieldlen)))
		return 0;
	k = token(line, end, &pos, &s);
	/* Section 5: a reference line, its second token "shmids". */
	if ((flags & SHMIDS_LINE_PART) == 0 && k == 6 &&
	    memcmp(line + s, "shmids", 6) == 0) {
		/* a cut token's NUL or CR: the bytes that went before */
		if (t.nul && t.cut)
			malformed(c, "NUL byte in reference");
		else if (t.cr && !memchr(line, '\0', end))
			malformed(c, "CR inside reference");
		else
			label_rest(line, end, pos, c, SHMIDS_LINE_REF,
			    flags);
		/*
		 * 6.1: a number is never a field.  A message reference's
		 * keeps no label: 1.1 wrote none such, to be read back.
		 */
		if (c->kind == SHMIDS_LINE_MREF && !t.cut &&
		    shmids_isnumber(line + c->field, c->fieldlen))
			c->label[0] = '\0';
		if ((c->kind == SHMIDS_LINE_REF ||
		    c->kind == SHMIDS_LINE_MREF) && !t.cut &&
		    shmids_isnumber(line + c->field, c->fieldlen))
			malformed(c, numfield);
		/*
		 * 6: a valid reference is one whatever its field (shm-import
		 * 1.5 wrote "# shmids 0 #"); "# shmids are fast" is a comment.
		 */
		if (c->kind == SHMIDS_LINE_MALFORMED && t.hash)
			return comment(c);
		return 1;
	}
	/* A table reference: "shmids" or "shmids,", then an id's start. */
	if ((flags & SHMIDS_LINE_PART) == 0 && !t.cut &&
	    tkeyword(line + c->field, c->fieldlen) && k > 0 &&
	    ((line[s] >= '0' && line[s] <= '9') || line[s] == '/')) {
		c->sep = c->fieldlen == 7 ? ',' :
		    line[c->field + 6] == '\t' ? '\t' : ' ';
		return label_rest(line, end, c->field + c->fieldlen, c,
		    SHMIDS_LINE_TREF, flags);
	}
	/* 6: a comment, never an array's first line, a row or a field */
	if (t.hash)
		return comment(c);
	/* 6: a NUL byte is in no field: text, and nothing to key it by */
	if (t.nul) {
		c->kind = SHMIDS_LINE_TEXT;
		c->why = nul_why;
		c->fieldlen = 0;
		return 1;
	}
	/* 6.1: a line that begins with a number has no field */
	if (!t.cut && shmids_isnumber(line + c->field, end - c->field)) {
		c->kind = SHMIDS_LINE_ROW;
		c->fieldlen = 0;
		return 1;
	}
	/*
	 * 6: a line that begins with one of Fortran's forms that are no
	 * value ("3*0.0 1 2", "0.1+101 2") is a row of Fortran's, text,
	 * never an array whose field is "3*0.0".  The form ends at a comma
	 * too, as a row's value does.
	 */
	if (!t.cut && (form = first_form(line + c->field, c->fieldlen)) !=
	    NOFORM) {
		c->kind = SHMIDS_LINE_TEXT;
		c->why = form_why[form];
		return 1;
	}
	c->kind = SHMIDS_LINE_ARRAY;
	c->values = c->field + c->fieldlen;
	return 1;
}

/* The contract is in shmids.h. */
int
shmids_line_kind(const char *line, size_t len, int flags,
    struct shmids_line *c)
{
	int e = errno, r;

	r = line_kind(line, len, flags, c);
	errno = e;
	return r;
}

/* The contract is in shmids.h. */
long long
shmids_line_seq(const char *line, const struct shmids_line *c)
{
	unsigned long long seq = 0;
	size_t i = c != NULL ? c->values : 0;

	if (line == NULL || c == NULL || (c->kind != SHMIDS_LINE_MREF &&
	    c->kind != SHMIDS_LINE_MTREF) || i >= c->end)
		goto bad;
	/* digits the classifier checked, unless c is not its answer */
	for (; i < c->end && line[i] >= '0' && line[i] <= '9'; i++) {
		if (seq > (9223372036854775807ULL - (unsigned)(line[i] - '0')) /
		    10)
			goto bad;
		seq = seq * 10 + (unsigned)(line[i] - '0');
	}
	return (long long)seq;
bad:
	errno = EINVAL;
	return -1;
}

/*
 * Why s[0..len) may be no field a writer writes (format-spec.md 6, "A
 * field a writer may write"), or, with SHMIDS_FIELD_REF, no reference
 * line's field (5); NULL if it may.  The same tests as line_kind()'s.
 */
static const char *
field_why(const char *s, size_t len, int flags)
{
	size_t i;
	int form;

	for (i = 0; i < len && !shmids_isend(s[i]); i++)
		;
	if (len == 0 || i < len)
		return "a field is one or more bytes, none a blank, CR, LF "
		    "or NUL";
	if (shmids_isnumber(s, len))
		return "a number is never a field (a line that begins with "
		    "a number is a table row)";
	if (flags & SHMIDS_FIELD_REF)
		return NULL;
	if (s[0] == '#')
		return "a comment is never a field (a line whose first token "
		    "begins with # is a comment)";
	if ((form = first_form(s, len)) != NOFORM)
		return form_field[form];
	if (tkeyword(s, len))
		return "the word shmids is never a field (a line that begins "
		    "with it and a number is a table reference)";
	return NULL;
}

/* The contract is in shmids.h. */
int
shmids_field_check(const char *s, size_t len, int flags, const char **why)
{
	const char *w = NULL;

	if ((flags & ~SHMIDS_FIELD_REF) != 0 || (s == NULL && len > 0) ||
	    (w = field_why(s, len, flags)) != NULL) {
		if (why != NULL)
			*why = w;
		errno = EINVAL;
		return -1;
	}
	if (why != NULL)
		*why = NULL;
	return 0;
}

/*
 * Are the values of blank row s[0..n) (its end of line gone) separated
 * by one tab each (R's write.table(sep = "\t"), a TSV file)?
 */
static int
tabbed(const char *s, size_t n)
{
	size_t i = 0, gaps = 0;
	const char *p, *end;

	while (i < n && shmids_blank(s[i]))
		i++;
	while (n > i && shmids_blank(s[n - 1]))
		n--;
	if (n <= i || memchr(s + i, ' ', n - i) != NULL)
		return 0;
	for (p = s + i, end = s + n; (p = memchr(p, '\t', end - p)) != NULL;
	    p++, gaps++)
		if (p[1] == '\t')
			return 0;
	return gaps > 0;
}

/* The values of an array's line s[0..n) appended to v: 0, 1 bad, -1. */
static int
line_values(struct shmids_lines *rd, struct shmids_values *v, const char *s,
    size_t n, int *more)
{
	size_t count0 = v->count;
	struct shmids_span sp;
	int r, many = rd->nthreads > 1 && n >= LONG_LINE;

	r = shmids_values_read(v, s, n, many ? rd->nthreads : 1,
	    many ? 0 : SHMIDS_VALUES_LINE, &sp);
	*more = sp.more;
	if (r == 0)
		return 0;
	if (sp.bad == NULL)
		return -1;
	v->count = count0;
	return 1;
}

/*
 * Row c of line s: does it begin a table block (6.1)?  Its width and
 * separator say; a block's first row says whether its rows are
 * tab-separated (sep '\t'), and its others' sep is the block's.
 */
static int
block(struct shmids_lines *rd, const char *s, struct shmids_line *c, int e)
{
	c->first = rd->rowcols != c->count ||
	    (rd->rowsep == ',') != (c->sep == ',');
	if (c->first && c->sep == ' ' && c->count >= 2 && tabbed(s, c->end))
		c->sep = '\t';
	if (!c->first && c->sep != ',')
		c->sep = rd->rowsep;
	rd->rowcols = c->count;
	rd->rowsep = c->sep;
	errno = e;
	return 0;
}

/*
 * The next row of a table block (rd->rowcols > 0): 1 with c filled,
 * -1 (ENOMEM, EINVAL), or 0 if line s[0..len) is no row of v->type.
 */
static int
next_row(struct shmids_lines *rd, const char *s, size_t len,
    struct shmids_values *v, struct shmids_line *c)
{
	/* no memchr(): a LF inside makes no row (a token ends there) */
	int nl = s[len - 1] == '\n', r;
	size_t m = len - nl, i = 0;

	while (i < m && shmids_blank(s[i]))
		i++;
	if (i == m || i > LEAD_MAX ||
	    (r = shmids_row_parse(v, s, len, &c->sep, &c->count)) == 0)
		return 0;
	if (r == -1)
		return -1;
	c->kind = SHMIDS_LINE_ROW;
	c->lineno = ++rd->lineno;
	c->lead = c->field = i;
	c->fieldlen = 0;
	c->values = 0;
	c->end = m > 0 && s[m - 1] == '\r' ? m - 1 : m;
	c->eol = nl ? (c->end < m ? SHMIDS_EOL_CRLF : SHMIDS_EOL_LF) :
	    c->end < m ? SHMIDS_EOL_CR : SHMIDS_EOL_NONE;
	c->more = c->bad = c->cut = 0;
	c->why = NULL;
	c->label[0] = '\0';
	(void)block(rd, s, c, errno);
	return 1;
}

/* The contract is in shmids.h. */
int
shmids_line_next(struct shmids_lines *rd, const char *s, size_t len,
    struct shmids_values *v, struct shmids_line *c)
{
	size_t n = len, count0 = v->count;
	int e = errno, r, more = 0;

	/*
	 * A table's next row, the common line of a big file, parsed once
	 * and nothing else done: a row is never a reference (its second
	 * token would be "shmids", or its first), its first token is a
	 * value (6.1), and the values' parser checks v->type.
	 */
	/*
	 * A table's next row, the common line of a big file, parsed once:
	 * a row is never a reference (its second token would be "shmids",
	 * or its first), and its first token is a value (6.1).
	 */
	if (!rd->more && rd->rowcols > 0 && len > 0 &&
	    (r = next_row(rd, s, len, v, c)) != 0)
		return r == -1 ? -1 : 0;
	if (shmids_type_size(v->type) == 0) {
		errno = EINVAL;
		return -1;
	}
	shmids_line_kind(s, len, 0, c);
	c->lineno = ++rd->lineno;
	n = c->end + (c->eol == SHMIDS_EOL_CRLF ? 2 :
	    c->eol == SHMIDS_EOL_NONE ? 0 : 1);
	if (c->kind == SHMIDS_LINE_REF || c->kind == SHMIDS_LINE_TREF ||
	    c->kind == SHMIDS_LINE_MREF || c->kind == SHMIDS_LINE_MTREF ||
	    c->kind == SHMIDS_LINE_MALFORMED) {
		/* never a continuation: the array before it ends, text */
		c->cut = rd->more;
		rd->more = rd->bad = 0;
		rd->rowcols = 0;
		return 0;
	}
	if (rd->more) {
		c->kind = SHMIDS_LINE_CONT;
		c->field = c->fieldlen = 0;
		c->values = 0;
		c->sep = 0;	/* no comment's '#': a line of the array */
		c->why = NULL;
		if (!rd->bad && (r = line_values(rd, v, s, n, &more)) != 0) {
			if (r == -1)
				return -1;
			rd->bad = 1;
		}
		if (rd->bad) {
			more = shmids_cont(s, n);
			c->bad = 1;
			c->why = "a token that is not a value";
		}
		c->more = rd->more = more;
		if (!more)
			rd->bad = 0;
		c->count = v->count - count0;
		errno = e;
		return 0;
	}
	if (c->kind == SHMIDS_LINE_ARRAY) {
		rd->rowcols = 0;
		if ((r = line_values(rd, v, s + c->values, n - c->values,
		    &more)) == -1)
			return -1;
		if (r == 1) {
			/* section 6: text, and its "/" continues nothing */
			c->kind = SHMIDS_LINE_TEXT;
			c->why = "a token after the field that is not a value";
		}
		c->more = rd->more = more;
		c->count = v->count - count0;
		errno = e;
		return 0;
	}
	if (c->kind == SHMIDS_LINE_ROW) {
		if (c->lead > LEAD_MAX) {
			c->kind = SHMIDS_LINE_TEXT;
			c->why = "more than 4000 leading blanks";
		} else if ((r = shmids_row_parse(v, s, n, &c->sep, &c->count))
		    == -1)
			return -1;
		else if (r == 0) {
			c->kind = SHMIDS_LINE_TEXT;
			c->why = "a line that begins with a number, not a row";
		}
	}
	if (c->kind != SHMIDS_LINE_ROW) {
		rd->rowcols = 0;
		errno = e;
		return 0;
	}
	return block(rd, s, c, e);
}

/* The contract is in shmids.h. */
int
shmids_line_run(struct shmids_lines *rd, const char *s, size_t len,
    struct shmids_values *v, struct shmids_line *c, size_t *used,
    size_t *lines)
{
	struct shmids_lines rd0;
	struct shmids_line t[2];	/* the line at hand, the last read */
	const char *nl;
	size_t pos = 0, n, count0;
	int k = 0, cont, r = 0;

	*used = *lines = 0;
	while (pos < len && (rd->more || rd->rowcols > 0)) {
		nl = memchr(s + pos, '\n', len - pos);
		n = nl != NULL ? (size_t)(nl - (s + pos)) + 1 : len - pos;
		rd0 = *rd;
		count0 = v->count;
		cont = rd->more;
		if (shmids_line_next(rd, s + pos, n, v, &t[k]) == -1) {
			*rd = rd0;
			v->count = count0;
			r = -1;
			break;
		}
		if (cont ? t[k].kind != SHMIDS_LINE_CONT :
		    t[k].kind != SHMIDS_LINE_ROW || t[k].first) {
			/* it begins something else: left for the caller */
			*rd = rd0;
			v->count = count0;
			break;
		}
		pos += n;
		++*lines;
		k = !k;
		if (cont && !t[!k].more)
			break;
	}
	*used = pos;
	if (*lines > 0)
		*c = t[!k];
	return r;
}
