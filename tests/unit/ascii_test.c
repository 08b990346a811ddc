/*
 * ascii_test: the ASCII side of shmids.h (reference lines, the wrapped
 * form, inline values read back, the label checks) through the public
 * header alone, as any filter would call it.  No segment is made.  TAP.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmids.h"

#include "tap.h"

static void
refs(void)
{
	static const struct {
		const char	*line;
		int		 want;
		const char	*label;
	} t[] = {
		{ "coeff shmids 402 simdat\n", 1, "402 simdat" },
		{ "  coeff\tshmids  402\t simdat \r\n", 1, "402 simdat" },
		{ "x shmids /tmp/shmids.AbC123 n", 1, "/tmp/shmids.AbC123 n" },
		{ "coeff 1 2 3 /\n", 0, NULL },
		{ "\n", 0, NULL },
		{ "coeff shmids 0402 simdat\n", -1, NULL },
		{ "coeff shmids 402\n", -1, NULL },
		{ "coeff shmids 402 a b\n", -1, NULL },
	};
	struct shmids_ref r;
	size_t i;
	int k, good = 1;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		errno = 0;
		k = shmids_ref_parse(t[i].line, strlen(t[i].line), &r);
		if (k != t[i].want || (k == 1 && strcmp(r.label, t[i].label)) ||
		    (k == -1 && (errno != EINVAL || r.why == NULL)) ||
		    r.eol > strlen(t[i].line)) {
			printf("# \"%s\": %d\n", t[i].line, k);
			good = 0;
		}
	}
	k = shmids_ref_parse("  coeff shmids 5 n\r\n", 20, &r);
	ok(good && k == 1 && r.field == 2 && r.fieldlen == 5 && r.eol == 18,
	    "shmids_ref_parse: 1, 0 and -1 (EINVAL, why), offsets in bytes");
}

/* What shmids_emit() writes for l, in buf. */
static int
emit(const struct shmids_layout *l, int type, const void *data, size_t n,
    char *buf, size_t cap)
{
	FILE *fp = tmpfile();
	size_t len;
	int r;

	if (fp == NULL)
		return -1;
	r = shmids_emit(fp, l, type, data, n);
	rewind(fp);
	len = fread(buf, 1, cap - 1, fp);
	buf[len] = '\0';
	fclose(fp);
	return r;
}

static void
layout(void)
{
	static const double d[] = { 1.5, 2, -0.25, 1e300 };
	static const int i32[] = { 1, -2, 300 };
	struct shmids_layout l;
	char buf[512];
	int r;

	shmids_layout_init(&l, "coeff");
	r = emit(&l, SHMIDS_F64, d, 4, buf, sizeof(buf));
	ok(r == 0 && strcmp(buf, "coeff 1.5 2 -0.25 1e+300\n") == 0,
	    "shmids_emit: shmids_layout_init's layout is shmids_put's");
	l.cols = 12;
	r = emit(&l, SHMIDS_F64, d, 4, buf, sizeof(buf));
	ok(r == 0 && strcmp(buf, "coeff 1.5 /\n      2 /\n      -0.25 /\n"
	    "      1e+300\n") == 0, "shmids_emit: wrapped with \" /\", indented");
	l.cols = 0;
	l.eol = "\r\n";
	l.style[SHMIDS_I32] = SHMIDS_HEX;
	r = emit(&l, SHMIDS_I32, i32, 3, buf, sizeof(buf));
	ok(r == 0 && strcmp(buf, "coeff 0x1 0xfffffffe 0x12c\r\n") == 0,
	    "shmids_emit: eol and per-type style");
	l.version = 99;
	errno = 0;
	r = emit(&l, SHMIDS_I32, i32, 3, buf, sizeof(buf));
	ok(r == -1 && errno == EINVAL && buf[0] == '\0',
	    "shmids_emit: an unknown layout version is EINVAL, nothing written");
}

static void
values(void)
{
	struct shmids_values v;
	const char *bad = NULL;
	int more = -1, r1, r2, m1, m2;
	const char *l3 = "  4 x /\n";

	memset(&v, 0, sizeof(v));
	v.type = SHMIDS_I32;
	r1 = shmids_values_parse(&v, " 1 2 /\n", 7, &more, &bad);
	m1 = more;
	r2 = shmids_values_parse(&v, "  3\r\n", 5, &more, &bad);
	m2 = more;
	ok(r1 == 0 && m1 == 1 && r2 == 0 && m2 == 0 && v.count == 3 &&
	    ((int *)v.data)[0] == 1 && ((int *)v.data)[2] == 3,
	    "shmids_values_parse: continuation, then the last line");
	errno = 0;
	r1 = shmids_values_parse(&v, l3, strlen(l3), &more, &bad);
	ok(r1 == -1 && errno == EINVAL && bad == l3 + 4 && more == 0 &&
	    v.count == 4, "shmids_values_parse: a bad value, *bad at it");
	shmids_values_free(&v);
	ok(v.data == NULL && v.count == 0 && v.type == SHMIDS_I32,
	    "shmids_values_free: zeroed but the type");
	ok(shmids_continued("a 1 /  \r\n", 9) == 1 &&
	    shmids_continued("/", 1) == 1 && shmids_continued("a 1/\n", 5) == 0 &&
	    shmids_continued("a / 1\n", 6) == 0,
	    "shmids_continued: a last token \"/\"");
}

static void
checks(void)
{
	char longname[70];
	int shmid = -2, e1, e2;

	memset(longname, 'a', sizeof(longname));
	ok(shmids_name_check("ab", 2) == 0 &&
	    shmids_name_check("a b", 3) == -1 && errno == EINVAL &&
	    shmids_name_check(longname, 65) == -1 && errno == ENAMETOOLONG,
	    "shmids_name_check");
	e1 = shmids_id_check("402", 3, &shmid) == 0 && shmid == 402;
	e2 = shmids_id_check("/tmp/shmids.AbC123", 18, &shmid) == 0 &&
	    shmid == -1;
	ok(e1 && e2 && shmids_id_check("0402", 4, NULL) == -1 &&
	    errno == EINVAL && shmids_id_check("-1", 2, NULL) == -1,
	    "shmids_id_check: shmid, path, NULL shmid");
	ok(shmids_label_check("402 n", 5) == 0 &&
	    shmids_label_check("402", 3) == -1 && errno == EINVAL &&
	    shmids_label_check("402  n", 6) == -1,
	    "shmids_label_check");
	ok(shmids_isblank(' ') && shmids_isblank('\t') && !shmids_isblank('\r'),
	    "shmids_isblank");
	errno = 0;
	ok(shmids_remove_id("04") == -1 && errno == EINVAL,
	    "shmids_remove_id: a malformed id is EINVAL");
}

/*
 * format-spec.md 6: a comment is TEXT, sep '#', fieldlen 0, whatever it
 * holds; a valid reference stays one whatever its field; shmids_get()
 * refuses a comment, shmids_put() a field that would make one.
 */
static void
comments(void)
{
	static const char *const t[] = {
		"# 1 2 3\n", "#", "#x 1 2 /\n", "  \t# indented\r\n",
		"# shmids are fast\n", "#x shmids 12 notes here", "#\0 1 2",
		"# shmids 1 x\0", "#shmids 402 x\n",
	};
	static const size_t len[] = { 8, 1, 9, 15, 18, 23, 6, 13, 14 };
	struct shmids_line c;
	struct shmids_ref r;
	struct shmids_array a;
	FILE *fp;
	size_t i;
	int good = 1, k;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		errno = 1234;
		k = shmids_line_kind(t[i], len[i], 0, &c);
		if (k != 1 || c.kind != SHMIDS_LINE_TEXT || c.sep != '#' ||
		    c.fieldlen != 0 || c.field != c.lead ||
		    t[i][c.lead] != '#' || c.why == NULL ||
		    strstr(c.why, "comment") == NULL || errno != 1234) {
			printf("# comment %zu: kind %d sep %d\n", i, c.kind,
			    c.sep);
			good = 0;
		}
		/* 1.x's answer: no reference, the "#..." token its field */
		if (shmids_ref_parse(t[i], len[i], &r) != 0 ||
		    r.field != c.lead || r.fieldlen == 0)
			good = 0;
	}
	ok(good, "6: a comment (first token begins with #) is TEXT, sep "
	    "'#', no field; shmids_ref_parse() says 0");
	k = shmids_line_kind("# shmids 0 #\n", 13, 0, &c);
	ok(k == 1 && c.kind == SHMIDS_LINE_REF && c.fieldlen == 1 &&
	    strcmp(c.label, "0 #") == 0,
	    "6: '# shmids 0 #' (shm-import 1.5) is a reference all the same");
	k = shmids_line_kind("x # 1\n", 6, 0, &c);
	ok(k == 1 && c.kind == SHMIDS_LINE_ARRAY && c.sep == 0 &&
	    c.fieldlen == 1, "6: a # later in a line is no comment");
	k = shmids_line_kind("# 1 2 3 4", 9, SHMIDS_LINE_PART, &c);
	ok(k == 1 && c.kind == SHMIDS_LINE_TEXT && c.sep == '#',
	    "6: a comment's first bytes tell it (SHMIDS_LINE_PART)");
	errno = 0;
	k = shmids_get("# 1 2 3\n", NULL, SHMIDS_F64, &a);
	ok(k == -1 && errno == EINVAL && a.data == NULL,
	    "6: shmids_get() refuses a comment (EINVAL)");
	fp = tmpfile();
	errno = 0;
	k = fp == NULL ? 0 : shmids_put(fp, "#x", SHMIDS_F64, NULL, 0, NULL,
	    0);
	ok(k == -1 && errno == EINVAL && ftell(fp) == 0 &&
	    shmids_put(fp, "x#", SHMIDS_F64, NULL, 0, NULL, 0) == 0,
	    "6: shmids_put() refuses a field that begins with # (EINVAL), "
	    "nothing written");
	if (fp != NULL)
		fclose(fp);
}

/*
 * Where shmids_get() leaves fp (its contract in shmids.h, format-spec.md
 * 6): the line read next after the call.
 */
static void
where_left(void)
{
	static const struct {
		const char	*line, *rest, *next;
		int		 k;
	} t[] = {
		{ "x 1 2 /\n", "3 /\n4\nnext\n", "next\n", 0 },
		{ "x 1 2\n", "next\n", "next\n", 0 },
		/* a bad continuation line: read through the last one */
		{ "x 1 2 /\n", "3 /\nq /\n5\nnext\n", "next\n", -1 },
		{ "x 1 2 /\n", "# c\nnext\n", "next\n", -1 },
		/* a reference line where a continuation should be: read */
		{ "x 1 2 /\n", "q shmids 0 q\nnext\n", "next\n", -1 },
		/* no array's first line: nothing read */
		{ "x 1 q /\n", "next\n", "next\n", -1 },
		{ "1 2 /\n", "next\n", "next\n", -1 },
		{ "# 1 2 /\n", "next\n", "next\n", -1 },
		{ "x shmids 0402 a\n", "next\n", "next\n", -1 },
	};
	struct shmids_array a;
	char buf[64];
	size_t i;
	FILE *fp;
	int k;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if ((fp = tmpfile()) == NULL || fputs(t[i].rest, fp) == EOF ||
		    fseek(fp, 0, SEEK_SET) != 0) {
			ok(0, "6: shmids_get(): tmpfile");
			continue;
		}
		errno = 0;
		k = shmids_get(t[i].line, fp, SHMIDS_F64, &a);
		ok(k == t[i].k && (k == 0 || errno == EINVAL) &&
		    fgets(buf, sizeof(buf), fp) != NULL &&
		    strcmp(buf, t[i].next) == 0,
		    "6: shmids_get() leaves fp where its contract says");
		if (k == 0)
			shmids_array_free(&a);
		fclose(fp);
	}
}

/* shmids_explain() of shmids_get()'s EINVAL names the token (6, 7). */
static void
explained(void)
{
	char buf[SHMIDS_EXPLAIN_MAX];
	static const struct {
		const char	*line, *starts;
	} t[] = {
		{ "coeff 1 2 x\n", "\"x\" is no number: " },
		{ "coeff 1 2 3o 4", "\"3o\" is no number: " },
		{ "coeff 3*1 2", "\"3*1\" is no number: " },
		{ "x 1.5e999", "\"1.5e999\" is out of the range of f64: " },
		/* a label mistaken, not an array: the label's words */
		{ "coeff 12", "the id is neither" },
		{ "coeff x", "the id is neither" },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		errno = 0;
		shmids_explain(buf, sizeof(buf), t[i].line, EINVAL);
		ok(errno == 0 && strncmp(buf, t[i].starts,
		    strlen(t[i].starts)) == 0,
		    "6, 7: shmids_explain() of an inline array that is text");
	}
}

/*
 * format-spec.md 5.1: a reference line with a fifth token that is a
 * seq, a table reference with a fourth, names a message: MREF, MTREF,
 * the stream's label, shmids_line_seq() its number; any other such
 * token makes it MALFORMED; SHMIDS_LINE_NOMSG gives 1.6's answer.
 */
static void
msgrefs(void)
{
	static const struct {
		const char	*line;
		int		 kind;
		const char	*label;	/* or the reason, MALFORMED */
		long long	 seq;
		int		 sep;
	} t[] = {
		{ "u shmids 402 sim-u 17\n", SHMIDS_LINE_MREF, "402 sim-u", 17,
		    0 },
		{ "  u\tshmids  402 sim-u\t0 \r\n", SHMIDS_LINE_MREF,
		    "402 sim-u", 0, 0 },
		{ "shmids, 402 sim-u 17", SHMIDS_LINE_MTREF, "402 sim-u", 17,
		    ',' },
		{ "shmids\t7 s 9223372036854775807\n", SHMIDS_LINE_MTREF,
		    "7 s", 9223372036854775807LL, '\t' },
		{ "x shmids 402 s 017\n", SHMIDS_LINE_MALFORMED,
		    "a sequence number with a leading zero", -1, 0 },
		{ "x shmids 402 s 9223372036854775808\n",
		    SHMIDS_LINE_MALFORMED,
		    "a sequence number over 9223372036854775807", -1, 0 },
		{ "x shmids 402 s 17 18\n", SHMIDS_LINE_MALFORMED,
		    "text after the sequence number", -1, 0 },
		{ "coeff shmids 402 x y\n", SHMIDS_LINE_MALFORMED,
		    "text after the label", -1, 0 },
		{ "x shmids 402 s -1\n", SHMIDS_LINE_MALFORMED,
		    "text after the label", -1, 0 },
		{ "1.5 shmids 402 s 3\n", SHMIDS_LINE_MALFORMED,
		    "a number is not a field", -1, 0 },
		{ "x shmids 402 s\n", SHMIDS_LINE_REF, "402 s", -1, 0 },
	};
	struct shmids_line c, o;
	struct shmids_ref r;
	size_t i, len;
	long long seq;
	int good, sep;
	char what[160];

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		len = strlen(t[i].line);
		shmids_line_kind(t[i].line, len, 0, &c);
		errno = 0;
		seq = shmids_line_seq(t[i].line, &c);
		good = c.kind == t[i].kind && seq == t[i].seq &&
		    (seq != -1 || errno == EINVAL) && c.sep == t[i].sep;
		if (c.kind == SHMIDS_LINE_MALFORMED)
			good = good && strcmp(c.why, t[i].label) == 0 &&
			    c.label[0] == '\0';
		else
			good = good && strcmp(c.label, t[i].label) == 0;
		snprintf(what, sizeof(what), "5.1: %.*s: kind %d, seq %lld",
		    (int)strcspn(t[i].line, "\r\n"), t[i].line, c.kind, seq);
		ok(good, what);
		/* 1.6's answer: any token after the label is text after it */
		shmids_line_kind(t[i].line, len, SHMIDS_LINE_NOMSG, &o);
		if (c.kind != SHMIDS_LINE_REF) {
			sep = 0;
			good = o.kind == SHMIDS_LINE_MALFORMED &&
			    strcmp(o.why, "text after the label") == 0 &&
			    (c.sep == 0 ? shmids_ref_parse(t[i].line, len,
			    &r) : shmids_tref_parse(t[i].line, len, &r,
			    &sep)) == -1 && strcmp(r.why, o.why) == 0;
			ok(good, "5.1: SHMIDS_LINE_NOMSG and the 1.x calls: "
			    "text after the label, as 1.6");
		}
	}
	ok(shmids_line_seq("x 1 2\n", &c) == -1 && errno == EINVAL,
	    "5.1: shmids_line_seq() of a line of another kind: EINVAL");
}

int
main(void)
{
	explained();
	refs();
	comments();
	msgrefs();
	where_left();
	layout();
	values();
	checks();
	printf("1..%d\n", ntest);
	return nfail != 0;
}
