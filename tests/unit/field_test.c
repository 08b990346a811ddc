/*
 * shmids_field_check() (format-spec.md 6, "A field a writer may write"),
 * the NUL rule (6, 1.7) and the classifier told of a cut first token
 * (SHMIDS_LINE_CUT, format-spec.md 7): table-driven, and checked against
 * the classifier itself, so that the rule a writer asks and the rule
 * every reader applies cannot drift apart.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "shmids.h"
#include "tap.h"

static const char *const numwhy = "a number is never a field (a line that "
    "begins with a number is a table row)";

static const struct {
	const char	*s;
	size_t		 len;
	int		 w, r;		/* writer's, reader's (REF): 0 ok */
	const char	*why;		/* the writer's, a part of it */
} t[] = {
	{ "x", 1, 0, 0, NULL },
	{ "coeff", 5, 0, 0, NULL },
	{ "a,b", 3, 0, 0, NULL },
	{ "x#", 2, 0, 0, NULL },
	{ "shmidsx", 7, 0, 0, NULL },
	{ "shmids,x", 8, 0, 0, NULL },
	{ "0*1", 3, 0, 0, NULL },		/* no count: a field */
	{ "3*x", 3, 0, 0, NULL },		/* no value after the star */
	{ "1a", 2, 0, 0, NULL },
	{ "-", 1, 0, 0, NULL },
	{ "/", 1, 0, 0, NULL },
	{ "h\303\251", 3, 0, 0, NULL },		/* UTF-8: a field, no name */
	{ "x\001", 2, 0, 0, NULL },
	{ "", 0, -1, -1, "one or more bytes" },
	{ "a b", 3, -1, -1, "none a blank" },
	{ "a\tb", 3, -1, -1, "none a blank" },
	{ "a\rb", 3, -1, -1, "none a blank" },
	{ "a\nb", 3, -1, -1, "none a blank" },
	{ "a\0b", 3, -1, -1, "NUL" },
	{ "\0x", 2, -1, -1, "NUL" },
	{ "1", 1, -1, -1, "a number is never a field" },
	{ "nan", 3, -1, -1, "a number" },
	{ "NA", 2, -1, -1, "a number" },
	{ "-0.5", 4, -1, -1, "a number" },
	{ "1e999", 5, -1, -1, "a number" },
	{ "0x1p-3", 6, -1, -1, "a number" },
	{ "1,x", 3, -1, -1, "a number" },	/* up to a comma */
	{ "#", 1, -1, 0, "a comment is never a field" },
	{ "#x", 2, -1, 0, "a comment" },
	{ "3*", 2, -1, 0, "null value (Fortran's r*) is never a field" },
	{ "3*0.0", 5, -1, 0, "repeat count (Fortran's r*c) is never" },
	{ "3*0.0,x", 7, -1, 0, "repeat count" },	/* up to a comma */
	{ "12*NA", 5, -1, 0, "repeat count" },
	{ "0.1+101", 7, -1, 0, "exponent without its letter" },
	{ "-1.5-300", 8, -1, 0, "exponent without its letter" },
	{ "shmids", 6, -1, 0, "the word shmids is never a field" },
	{ "shmids,", 7, -1, 0, "the word shmids" },
};

/* The rule, as a table says it. */
static void
table(void)
{
	const char *why;
	size_t i;
	int good = 1, k;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		errno = 1234;
		why = "x";
		k = shmids_field_check(t[i].s, t[i].len, 0, &why);
		if (k != t[i].w || (k == 0 && (why != NULL ||
		    errno != 1234)) || (k == -1 && (errno != EINVAL ||
		    why == NULL || strstr(why, t[i].why) == NULL))) {
			printf("# writer %zu: %d %s\n", i, k, why ? why : "-");
			good = 0;
		}
		errno = 1234;
		k = shmids_field_check(t[i].s, t[i].len, SHMIDS_FIELD_REF,
		    &why);
		if (k != t[i].r || (k == -1 && errno != EINVAL)) {
			printf("# reader %zu: %d\n", i, k);
			good = 0;
		}
	}
	ok(good, "6: shmids_field_check(): a writer's fields and a "
	    "reference line's, table-driven, errno EINVAL, why");
	k = shmids_field_check("1", 1, 0, &why);
	ok(k == -1 && strcmp(why, numwhy) == 0,
	    "6: shmids_field_check(): the reason in the tools' words");
	ok(shmids_field_check(NULL, 0, 0, NULL) == -1 && errno == EINVAL &&
	    shmids_field_check("x", 1, 0, NULL) == 0,
	    "6: shmids_field_check(): why may be NULL, s NULL when len is 0");
	why = "x";
	errno = 0;
	ok(shmids_field_check("x", 1, 0x100, &why) == -1 && errno == EINVAL &&
	    why == NULL, "6: shmids_field_check(): an unknown flag is EINVAL, "
	    "why NULL");
	ok(shmids_field_check("xy", 1, 0, NULL) == 0 &&
	    shmids_field_check("1x", 1, 0, NULL) == -1,
	    "6: shmids_field_check(): s[0..len) only");
}

/*
 * What the classifier reads of each field's lines: a field the writer
 * may write is the field of its inline array and of its reference line;
 * a reference line of a field a reader takes is a valid one.
 */
static void
against_classifier(void)
{
	char line[64];
	struct shmids_line c;
	size_t i, n;
	int good = 1, arr, ref;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		memcpy(line, t[i].s, t[i].len);
		memcpy(line + t[i].len, " 1 2\n", 5);
		n = t[i].len + 5;
		shmids_line_kind(line, n, 0, &c);
		arr = c.kind == SHMIDS_LINE_ARRAY && c.field == 0 &&
		    c.fieldlen == t[i].len;
		memcpy(line + t[i].len, " shmids 0 x\n", 12);
		n = t[i].len + 12;
		shmids_line_kind(line, n, 0, &c);
		ref = c.kind == SHMIDS_LINE_REF && c.field == 0 &&
		    c.fieldlen == t[i].len;
		if ((t[i].w == 0) != (arr && ref) || (t[i].r == 0) != ref) {
			printf("# %zu: array %d ref %d\n", i, arr, ref);
			good = 0;
		}
	}
	ok(good, "6: a field shmids_field_check() passes is the classifier's "
	    "field of its array and its reference line, and no other is");
}

/* format-spec.md 6 (1.7): a NUL byte is in no field and no value. */
static void
nul(void)
{
	static const struct {
		const char	*s;
		size_t		 len;
		int		 kind;
		size_t		 fieldlen;
	} n[] = {
		{ "\0x 1 2\n", 7, SHMIDS_LINE_TEXT, 0 },
		{ "x\0y 1 2\n", 8, SHMIDS_LINE_TEXT, 0 },
		{ "1\0 2\n", 5, SHMIDS_LINE_TEXT, 0 },
		{ "\0\n", 2, SHMIDS_LINE_TEXT, 0 },
		{ "x 1\0 2\n", 7, SHMIDS_LINE_TEXT, 1 },
		{ "#\0 1\n", 5, SHMIDS_LINE_TEXT, 0 },
		{ "x\0 shmids 0 y\n", 14, SHMIDS_LINE_MALFORMED, 2 },
	};
	struct shmids_lines rd;
	struct shmids_values v;
	struct shmids_line c;
	size_t i;
	int good = 1;

	memset(&v, 0, sizeof(v));
	v.type = SHMIDS_F64;
	for (i = 0; i < sizeof(n) / sizeof(n[0]); i++) {
		memset(&rd, 0, sizeof(rd));
		if (shmids_line_next(&rd, n[i].s, n[i].len, &v, &c) == -1 ||
		    c.kind != n[i].kind || c.fieldlen != n[i].fieldlen ||
		    c.count != 0) {
			printf("# nul %zu: kind %d fieldlen %zu\n", i, c.kind,
			    c.fieldlen);
			good = 0;
		}
	}
	shmids_values_free(&v);
	ok(good, "6: a NUL byte in the first token: text with no field; in "
	    "a value: text of its field; in a reference: malformed");
	shmids_line_kind("x\0 1\n", 5, 0, &c);
	ok(c.why != NULL && strstr(c.why, "NUL") != NULL,
	    "6: the classifier says why: a NUL byte in the first token");
}

/*
 * format-spec.md 7: a line whose first token went out before its end
 * (shm-expand), the classifier told so by flags, not by forged bytes.
 */
static void
cut(void)
{
	struct shmids_line c;
	int k;

	k = shmids_line_kind("1 shmids 5 x\n", 13, SHMIDS_LINE_CUT, &c);
	ok(k == 1 && c.kind == SHMIDS_LINE_REF && c.field == 0 &&
	    c.fieldlen == 1 && strcmp(c.label, "5 x") == 0,
	    "7: SHMIDS_LINE_CUT: a cut field is no number: a reference");
	shmids_line_kind("a shmids are fast\n", 18,
	    SHMIDS_LINE_CUT | SHMIDS_LINE_CUT_HASH, &c);
	ok(c.kind == SHMIDS_LINE_TEXT && c.sep == '#',
	    "7: SHMIDS_LINE_CUT_HASH: a malformed one is a comment");
	shmids_line_kind("a shmids 5 x\n", 13,
	    SHMIDS_LINE_CUT | SHMIDS_LINE_CUT_HASH, &c);
	ok(c.kind == SHMIDS_LINE_REF,
	    "7: SHMIDS_LINE_CUT_HASH: a valid one stays a reference");
	shmids_line_kind("a shmids 5 x\n", 13,
	    SHMIDS_LINE_CUT | SHMIDS_LINE_CUT_NUL, &c);
	ok(c.kind == SHMIDS_LINE_MALFORMED &&
	    strcmp(c.why, "NUL byte in reference") == 0,
	    "7: SHMIDS_LINE_CUT_NUL: NUL byte in reference");
	shmids_line_kind("a shmids 5 x\n", 13,
	    SHMIDS_LINE_CUT | SHMIDS_LINE_CUT_CR, &c);
	ok(c.kind == SHMIDS_LINE_MALFORMED &&
	    strcmp(c.why, "CR inside reference") == 0,
	    "7: SHMIDS_LINE_CUT_CR: CR inside reference");
	shmids_line_kind("a 1 2\n", 6, SHMIDS_LINE_CUT | SHMIDS_LINE_CUT_NUL,
	    &c);
	ok(c.kind == SHMIDS_LINE_TEXT && c.fieldlen == 0,
	    "7: SHMIDS_LINE_CUT_NUL: no reference, text with no field");
	shmids_line_kind(" 402 x\n", 7, SHMIDS_LINE_CUT, &c);
	ok(c.kind == SHMIDS_LINE_ARRAY && c.fieldlen == 0 && c.lead == 0,
	    "7: SHMIDS_LINE_CUT: a token cut at its end, no table keyword");
	k = shmids_line_kind("ab", 2, SHMIDS_LINE_CUT | SHMIDS_LINE_PART, &c);
	ok(k == 0, "7: SHMIDS_LINE_CUT with SHMIDS_LINE_PART: cannot tell yet");
}

/* shmids_put() asks the rule, and writes nothing it refuses. */
static void
put(void)
{
	static const char *const bad[] = { "3*", "3*0.0", "0.1+101", "1",
	    "shmids", "#x", "" };
	static const double two[] = { 1, 2 };
	FILE *fp = tmpfile();
	size_t i;
	int good = fp != NULL;

	for (i = 0; good && i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		if (shmids_put(fp, bad[i], SHMIDS_F64, two, 2, NULL, 0) != -1 ||
		    errno != EINVAL || ftell(fp) != 0)
			good = 0;
	}
	ok(good, "6: shmids_put() refuses a field shmids_field_check() "
	    "refuses (EINVAL), nothing written");
	ok(fp != NULL && shmids_put(fp, "3*x", SHMIDS_F64, two, 2, NULL, 0) ==
	    0 && ftell(fp) == 8, "6: shmids_put() writes '3*x 1 2'");
	if (fp != NULL)
		fclose(fp);
}

int
main(void)
{
	table();
	against_classifier();
	nul();
	cut();
	put();
	printf("1..%d\n", ntest);
	return nfail != 0;
}
