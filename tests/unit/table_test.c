/*
 * table_test: the table side of shmids.h (format-spec.md 5 and 6.1):
 * numbers that are no field, rows and comma rows, table reference
 * lines, rows written back.  Through the public header alone; no
 * segment is made.  TAP.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmids.h"

#include "tap.h"

static void
numbers(void)
{
	static const char *yes[] = {
		"1", "-0.5", ".5", "1e-05", "nan", "-NaN", "inf", "-inf",
		"nan(0x1)", "0x1p-3", "0xff", "0xffffffffffffffff", "1e999",
		"  7 x", "1,2,3", "\t-0\r\n", "3.0\0junk",
	};
	static const char *no[] = {
		"", "   ", "x", "coeff 1 2", "1x", "--1", "nanx", "1.2.3",
		",1", "shmids", "/", "0x", "e5",
	};
	size_t i;
	int good = 1;

	errno = 42;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (!shmids_isnumber(yes[i], strlen(yes[i]) +
		    (strcmp(yes[i], "3.0") == 0 ? 5 : 0))) {
			printf("# \"%s\": not a number\n", yes[i]);
			good = 0;
		}
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (shmids_isnumber(no[i], strlen(no[i]))) {
			printf("# \"%s\": a number\n", no[i]);
			good = 0;
		}
	ok(good && errno == 42, "shmids_isnumber: every form of section 6, "
	    "up to a blank or comma; errno kept");
	ok(shmids_isnumber("1x", 1) && !shmids_isnumber("x1", 1),
	    "shmids_isnumber: only len bytes are looked at");
}

/* Is s a row: its return, sep and n, and the doubles appended. */
static int
row(const char *s, int *sep, size_t *n, double *out, size_t max)
{
	struct shmids_values v;
	size_t i;
	int r;

	memset(&v, 0, sizeof(v));
	v.type = SHMIDS_F64;
	*sep = 0;
	*n = 0;
	r = shmids_row_parse(&v, s, strlen(s), sep, n);
	for (i = 0; r == 1 && i < v.count && i < max; i++)
		out[i] = ((double *)v.data)[i];
	if (r != 1 && v.count != 0)
		r = -2;		/* values left behind */
	shmids_values_free(&v);
	return r;
}

static void
rows(void)
{
	static const struct {
		const char	*line;
		int		 want, sep;
		size_t		 n;
	} t[] = {
		{ "1 2 3\n", 1, ' ', 3 },
		{ "  1\t-2.5   3e-1  \r\n", 1, ' ', 3 },
		{ "5\n", 1, ' ', 1 },
		{ "1,2,3\n", 1, ',', 3 },
		{ "1.5, -2 ,nan\r\n", 1, ',', 3 },
		{ " 1 ,2\n", 1, ',', 2 },
		{ "1,,2\n", 0, 0, 0 },
		{ "1,2,\n", 0, 0, 0 },
		{ ",1,2\n", 0, 0, 0 },
		{ "1,2 3\n", 0, 0, 0 },
		{ "1 2,3\n", 0, 0, 0 },
		{ "1 2 /\n", 0, 0, 0 },
		{ "coeff 1 2\n", 0, 0, 0 },
		{ "\n", 0, 0, 0 },
		{ "   \r\n", 0, 0, 0 },
		{ "# 1 2\n", 0, 0, 0 },
		{ "\"a\",\"b\"\n", 0, 0, 0 },
		{ "1 x\n", 0, 0, 0 },
		{ "NA,1\n", 1, ',', 2 },
		{ "1, NA ,NAN\n", 1, ',', 3 },
		{ "NAx,1\n", 0, 0, 0 },
		{ "-NA,1\n", 0, 0, 0 },
		{ "inf,-infinity,nan(0x1)\n", 1, ',', 3 },
		{ "1e5x,2\n", 0, 0, 0 },
		{ "2,1e400\n", 0, 0, 0 },
	};
	double d[4];
	size_t i, n;
	int r, sep, good = 1;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		r = row(t[i].line, &sep, &n, d, 4);
		if (r != t[i].want || (r == 1 && (sep != t[i].sep ||
		    n != t[i].n))) {
			printf("# \"%s\": %d sep '%c' n %zu\n", t[i].line, r,
			    sep ? sep : '0', n);
			good = 0;
		}
	}
	ok(good, "shmids_row_parse: rows, comma rows, and lines that are "
	    "neither (nothing appended)");
	r = row("1.5, -2 ,0x1p-3\n", &sep, &n, d, 4);
	ok(r == 1 && d[0] == 1.5 && d[1] == -2 && d[2] == 0.125,
	    "shmids_row_parse: a comma row's values");
}

/*
 * A comma row's doubles are parsed up to the comma in place (strtod.c's
 * comma end): each must be strtod's bits, 16 to 17 digits (the common
 * case), 25 (more than 19: the slow path, which reads the token again)
 * and NA, a word, next to its comma.
 */
static void
comma_exact(void)
{
	static const char *words[] = { "NA", "-inf", "nan", "0x1.8p1" };
	char line[512], *p, *tok[4];
	double d[4], want;
	uint64_t x = 88172645463325252ULL, y, a, b;
	size_t n, i, k, nd;
	int r, sep, good = 1;

	for (i = 0; i < 20000 && good; i++) {
		p = line;
		for (k = 0; k < 4; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			tok[k] = p;
			if (x % 16 == 0) {
				p += sprintf(p, "%s", words[x / 16 % 4]);
			} else {
				nd = x % 4 == 1 ? 25 : 16 + x % 2;
				p += sprintf(p, "%s%llu.", x & 32 ? "-" : "",
				    (unsigned long long)(x >> 40 & 0xf));
				for (y = x; nd > 1; nd--) {
					y = y * 6364136223846793005ULL + 1;
					*p++ = (char)('0' + (y >> 33) % 10);
				}
				p += sprintf(p, "e%d", (int)(i % 620) - 320);
			}
			*p++ = k < 3 ? ',' : '\n';
		}
		*p = '\0';
		r = row(line, &sep, &n, d, 4);
		for (k = 0; k < 4 && good; k++) {
			want = strtod(tok[k], NULL);
			memcpy(&a, &d[k], sizeof(a));
			memcpy(&b, &want, sizeof(b));
			if (strncmp(tok[k], "NA", 2) == 0)
				b = 0x7ff00000000007a2ULL;	/* R's NA */
			if (r != 1 || n != 4 || a != b) {
				printf("# \"%.*s\": %d n %zu, %016llx for "
				    "%016llx\n", (int)(p - line - 1), line, r,
				    n, (unsigned long long)a,
				    (unsigned long long)b);
				good = 0;
			}
		}
	}
	ok(good, "shmids_row_parse: a comma row's doubles are strtod's bits, "
	    "up to each comma");
}

static void
typed(void)
{
	struct shmids_values v;
	size_t n;
	int sep, r1, r2;

	memset(&v, 0, sizeof(v));
	v.type = SHMIDS_I32;
	r1 = shmids_row_parse(&v, "1 -2 0x10\n", 10, &sep, &n);
	r2 = shmids_row_parse(&v, "1.5 2\n", 6, &sep, &n);
	ok(r1 == 1 && r2 == 0 && v.count == 3 &&
	    ((int *)v.data)[2] == 16, "shmids_row_parse: values of v->type "
	    "only; a row of another type leaves v as it was");
	shmids_values_free(&v);
	v.type = 99;
	errno = 0;
	ok(shmids_row_parse(&v, "1\n", 2, &sep, &n) == -1 && errno == EINVAL,
	    "shmids_row_parse: an unknown type is EINVAL");
}

static void
trefs(void)
{
	static const struct {
		const char	*line;
		int		 want, sep;
		const char	*label;
	} t[] = {
		{ "shmids 402 volcano\n", 1, ' ', "402 volcano" },
		{ "  shmids,\t403  faithful \r\n", 1, ',', "403 faithful" },
		{ "shmids\t402 volcano\n", 1, '\t', "402 volcano" },
		{ "shmids \t402 volcano\n", 1, ' ', "402 volcano" },
		{ "shmids /tmp/shmids.AbC123 n", 1, ' ',
		    "/tmp/shmids.AbC123 n" },
		{ "coeff shmids 402 x\n", 0, 0, NULL },
		{ "shmids shmids 402 x\n", 0, 0, NULL },
		{ "shmids is fast\n", 0, 0, NULL },
		{ "shmids, the tools\n", 0, 0, NULL },
		{ "shmids\n", 0, 0, NULL },
		{ "shmids;402 x\n", 0, 0, NULL },
		{ "shmidsx 402 x\n", 0, 0, NULL },
		{ "1 2 3\n", 0, 0, NULL },
		{ "shmids 12 segments made\n", -1, 0, NULL },
		{ "shmids 402\n", -1, 0, NULL },
		{ "shmids 0402 x\n", -1, 0, NULL },
		{ "shmids, /tmp x\n", -1, 0, NULL },
	};
	struct shmids_ref r;
	size_t i;
	int k, sep, good = 1;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		errno = 0;
		sep = 0;
		k = shmids_tref_parse(t[i].line, strlen(t[i].line), &r, &sep);
		if (k != t[i].want || (k == 1 && (strcmp(r.label,
		    t[i].label) || sep != t[i].sep)) ||
		    (k == -1 && (errno != EINVAL || r.why == NULL))) {
			printf("# \"%s\": %d\n", t[i].line, k);
			good = 0;
		}
	}
	ok(good, "shmids_tref_parse: 1 (sep), 0 and -1 (EINVAL, why)");
	k = shmids_tref_parse("  shmids, 5 n\r\n", 15, &r, &sep);
	ok(k == 1 && r.field == 2 && r.fieldlen == 7 && r.eol == 13,
	    "shmids_tref_parse: the keyword is the field, its blanks the lead");
	ok(shmids_ref_parse("shmids 402 volcano\n", 19, &r) == 0,
	    "shmids_ref_parse: a table reference is no reference line (1.1)");
}

/* What shmids_emit_rows() writes, in buf. */
static int
emit(const struct shmids_layout *l, int type, const void *data,
    size_t rows, size_t cols, int sep, char *buf, size_t cap)
{
	FILE *fp = tmpfile();
	size_t len;
	int r;

	if (fp == NULL)
		return -1;
	r = shmids_emit_rows(fp, l, type, data, rows, cols, sep);
	rewind(fp);
	len = fread(buf, 1, cap - 1, fp);
	buf[len] = '\0';
	fclose(fp);
	return r;
}

static void
emitting(void)
{
	static const double d[] = { 1.5, -0.0, 1e300, 0.1, 2, -3 };
	static const int i32[] = { 1, -2, 300, 4 };
	struct shmids_layout l;
	char buf[512];
	int r;

	shmids_layout_init(&l, NULL);
	l.cols = 5;	/* no wrapping: rows are whole lines */
	r = emit(&l, SHMIDS_F64, d, 2, 3, ' ', buf, sizeof(buf));
	ok(r == 0 && strcmp(buf, "1.5 -0 1e+300\n0.1 2 -3\n") == 0,
	    "shmids_emit_rows: blank rows, one a line, never wrapped");
	r = emit(&l, SHMIDS_F64, d, 3, 2, ',', buf, sizeof(buf));
	ok(r == 0 && strcmp(buf, "1.5,-0\n1e+300,0.1\n2,-3\n") == 0,
	    "shmids_emit_rows: comma rows");
	r = emit(&l, SHMIDS_F64, d, 2, 3, '\t', buf, sizeof(buf));
	ok(r == 0 && strcmp(buf, "1.5\t-0\t1e+300\n0.1\t2\t-3\n") == 0,
	    "shmids_emit_rows: tab rows");
	l.lead = "  ";
	l.leadlen = 2;
	l.eol = "\r\n";
	l.style[SHMIDS_I32] = SHMIDS_HEX;
	r = emit(&l, SHMIDS_I32, i32, 2, 2, ' ', buf, sizeof(buf));
	ok(r == 0 && strcmp(buf, "  0x1 0xfffffffe\r\n  0x12c 0x4\r\n") == 0,
	    "shmids_emit_rows: lead, eol and style of the layout");
	l.eol = "";
	r = emit(&l, SHMIDS_I32, i32, 2, 2, ' ', buf, sizeof(buf));
	ok(r == 0 && strcmp(buf, "  0x1 0xfffffffe\n  0x12c 0x4") == 0,
	    "shmids_emit_rows: eol \"\": the last row has none");
	r = emit(&l, SHMIDS_I32, i32, 0, 2, ' ', buf, sizeof(buf));
	ok(r == 0 && buf[0] == '\0', "shmids_emit_rows: 0 rows, nothing");
	errno = 0;
	r = emit(&l, SHMIDS_I32, i32, 2, 2, ';', buf, sizeof(buf));
	ok(r == -1 && errno == EINVAL && buf[0] == '\0',
	    "shmids_emit_rows: another separator is EINVAL");
	errno = 0;
	r = emit(&l, SHMIDS_I32, i32, (size_t)-1 / 2 + 2, 2, ' ', buf,
	    sizeof(buf));
	ok(r == -1 && errno == EOVERFLOW && buf[0] == '\0',
	    "6.1: shmids_emit_rows: rows * cols overflowing is EOVERFLOW, "
	    "nothing written");
	/* version 2: CRLF between the rows, the file's last end kept */
	l.version = SHMIDS_LAYOUT_V2;
	l.weol = "\r\n";
	l.eol = "";
	r = emit(&l, SHMIDS_I32, i32, 2, 2, ' ', buf, sizeof(buf));
	ok(r == 0 && strcmp(buf, "  0x1 0xfffffffe\r\n  0x12c 0x4") == 0,
	    "6.1: shmids_emit_rows: weol between rows, eol \"\" last");
	l.version = SHMIDS_LAYOUT_V1;
	l.eol = "\r";
	r = emit(&l, SHMIDS_I32, i32, 2, 2, ' ', buf, sizeof(buf));
	ok(r == 0 && strcmp(buf, "  0x1 0xfffffffe\r\n  0x12c 0x4\r") == 0,
	    "6.1: shmids_emit_rows: eol bare CR: CRLF between rows, CR last");
}

int
main(void)
{
	numbers();
	rows();
	comma_exact();
	typed();
	trefs();
	emitting();
	printf("1..%d\n", ntest);
	return nfail != 0;
}
