/*
 * linerun_test: shmids_line_run() against shmids_line_next() called on
 * each line (format-spec.md 5, 6, 6.1): for every text below, reading
 * its first line with shmids_line_next() and then running, line by
 * line where the run stops, gives the same values, line numbers and
 * last classification as the classifier line by line.  Through the
 * public header alone; no segment is made.  TAP.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmids.h"

#include "tap.h"

/* End of the line at s[pos..len): its LF included. */
static size_t
lineend(const char *s, size_t pos, size_t len)
{
	const char *nl = memchr(s + pos, '\n', len - pos);

	return nl != NULL ? (size_t)(nl - s) + 1 : len;
}

/*
 * The file s read line by line: the values, and one word a line
 * (kind, first) in out.
 */
static void
by_line(const char *s, struct shmids_values *v, char *out)
{
	struct shmids_lines rd;
	struct shmids_line c;
	size_t pos = 0, len = strlen(s), e;

	memset(&rd, 0, sizeof(rd));
	for (; pos < len; pos = e) {
		e = lineend(s, pos, len);
		if (shmids_line_next(&rd, s + pos, e - pos, v, &c) == -1)
			abort();
		out += sprintf(out, "%lu:%d%s%s ", c.lineno, c.kind,
		    c.first ? "f" : "", c.bad ? "b" : "");
	}
}

/* The same, runs wherever a line leaves rd inside an array or block. */
static void
by_run(const char *s, struct shmids_values *v, char *out, size_t *calls)
{
	struct shmids_lines rd;
	struct shmids_line c;
	size_t pos = 0, len = strlen(s), e, used, lines, i;
	unsigned long n0;

	memset(&rd, 0, sizeof(rd));
	*calls = 0;
	while (pos < len) {
		n0 = rd.lineno;
		if (shmids_line_run(&rd, s + pos, len - pos, v, &c, &used,
		    &lines) == -1)
			abort();
		if (lines > 0) {
			++*calls;
			/* the run's lines, one word each as by_line() */
			for (i = 0; i + 1 < lines; i++)
				out += sprintf(out, "%lu:%d%s ", n0 + i + 1,
				    c.kind, c.bad && c.kind ==
				    SHMIDS_LINE_CONT ? "b" : "");
			out += sprintf(out, "%lu:%d%s%s ", c.lineno, c.kind,
			    c.first ? "f" : "", c.bad ? "b" : "");
			pos += used;
			continue;
		}
		e = lineend(s, pos, len);
		if (shmids_line_next(&rd, s + pos, e - pos, v, &c) == -1)
			abort();
		++*calls;
		out += sprintf(out, "%lu:%d%s%s ", c.lineno, c.kind,
		    c.first ? "f" : "", c.bad ? "b" : "");
		pos = e;
	}
}

int
main(void)
{
	static const struct {
		const char *text, *what;
		size_t calls;	/* calls by_run() makes */
	} cases[] = {
		{ "1 2\n3 4\n5 6\n", "a block of rows: two calls", 2 },
		{ "1\n2\n3\n4\n", "one column", 2 },
		{ "1\n2\n3\n4", "the last row without LF", 2 },
		{ "1 2\r\n3 4\r\n5 6\r\n", "CRLF rows", 2 },
		{ "1 2\n3 4\n5 6 7\n8 9 10\nx 1\n", "a wider block after",
		    5 },
		{ "1,2\n3,4\n5 6\n7 8\n", "comma rows, then blank rows", 4 },
		{ "a 1 2 /\n3 4 /\n5\nb 7\n", "an array's continuations", 3 },
		{ "a 1 2 /\n3 x /\n5\n1 2\n3 4\n", "a bad continuation", 4 },
		{ "a 1 /\n2 /\nb shmids 1 x\n", "a reference cuts the array",
		    3 },
		{ "1 2\n3 4\n\n5 6\n7 8\n", "a blank line ends a block", 5 },
		{ "1 2\n3 4\nshmids 12 tab\n", "a table reference after", 3 },
		{ "text\n1\n2\n", "text, then a block", 3 },
	};
	struct shmids_values a, b;
	char la[4096], lb[4096];
	size_t i, calls;
	int e;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		a.type = b.type = 1;	/* SHMIDS_F64 */
		by_line(cases[i].text, &a, la);
		by_run(cases[i].text, &b, lb, &calls);
		ok(a.count == b.count && (a.count == 0 || memcmp(a.data,
		    b.data, a.count * 8) == 0) && strcmp(la, lb) == 0,
		    cases[i].what);
		if (strcmp(la, lb) != 0)
			printf("# by line: %s\n# by run:  %s\n", la, lb);
		ok(calls == cases[i].calls, "  ... in as many calls as meant");
		if (calls != cases[i].calls)
			printf("# %zu calls\n", calls);
		shmids_values_free(&a);
		shmids_values_free(&b);
	}

	/* nothing to go on with: nothing read, c untouched, errno kept */
	{
		struct shmids_lines rd;
		struct shmids_line c;
		size_t used = 7, lines = 7;

		memset(&rd, 0, sizeof(rd));
		memset(&a, 0, sizeof(a));
		a.type = 1;
		c.kind = 99;
		errno = 42;
		ok(shmids_line_run(&rd, "1 2\n", 4, &a, &c, &used, &lines) ==
		    0 && used == 0 && lines == 0 && c.kind == 99 &&
		    a.count == 0 && errno == 42,
		    "a fresh reader runs nothing (its first line is the "
		    "caller's)");
		rd.rowcols = 2;
		rd.rowsep = ' ';
		e = shmids_line_run(&rd, "1 2\n3 4\n", 8, &a, &c, &used,
		    &lines);
		ok(e == 0 && used == 8 && lines == 2 && a.count == 4 &&
		    rd.lineno == 2 && c.kind == SHMIDS_LINE_ROW && !c.first &&
		    errno == 42, "rows of the block's width: all read");
		a.type = 99;
		rd.rowcols = 0;
		rd.more = 1;
		e = shmids_line_run(&rd, "1 2\n", 4, &a, &c, &used, &lines);
		ok(e == -1 && errno == EINVAL && used == 0 && lines == 0 &&
		    rd.more == 1, "an unknown type: EINVAL, nothing read");
		a.type = 1;
		shmids_values_free(&a);
	}
	printf("1..%d\n", ntest);
	return nfail != 0;
}
