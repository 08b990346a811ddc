/*
 * lines: what the library says each line of a file is (format-spec.md 5,
 * 6, 6.1), for tests/conformance.bats.  One line out per line in:
 *
 *	lines file	shmids_line_next(), the classifier:
 *			N text [FIELD | (row) | (comment) | (nul)] |
 *			ref FIELD LABEL |
 *			tref SEP LABEL |
 *			malformed WHY | array FIELD COUNT | cont COUNT |
 *			row SEP COLS, then flags: / (more), bad, cut, first,
 *			and the line's end unless LF: crlf, cr, noeol
 *	lines -g file	shmids_get() called on each line it did not read
 *			itself: N ok COUNT | N ERRNO (enoent, einval, ...)
 *			and, for einval, shmids_explain()'s text
 *
 * SEP is sp, tab or comma; bytes outside printable ASCII are written
 * \xNN.  Usage errors exit 2, a read error 1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmids.h"

static void
bytes(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] > ' ' && s[i] < 0x7f && s[i] != '\\')
			putchar(s[i]);
		else
			printf("\\x%02x", (unsigned char)s[i]);
}

/* Does the line's first token hold a NUL byte? */
static int
nul_first(const char *s, const struct shmids_line *c)
{
	size_t i;

	for (i = c->lead; i < c->end && !shmids_isblank(s[i]); i++)
		if (s[i] == '\0')
			return 1;
	return 0;
}

static const char *
sepname(int sep)
{
	return sep == ',' ? "comma" : sep == '\t' ? "tab" : "sp";
}

static void
item(const char *s, const struct shmids_line *c)
{
	static const char *kinds[] = { "text", "ref", "tref", "malformed",
	    "array", "cont", "row" };
	static const char *eols[] = { " noeol", "", " crlf", " cr" };

	printf("%lu %s", c->lineno, kinds[c->kind]);
	switch (c->kind) {
	case SHMIDS_LINE_TEXT:
		if (c->fieldlen > 0) {
			putchar(' ');
			bytes(s + c->field, c->fieldlen);
		} else if (c->sep == '#')
			printf(" (comment)");	/* format-spec.md 6 */
		else if (nul_first(s, c))
			printf(" (nul)");	/* format-spec.md 6, 1.7 */
		else if (c->lead < c->end)
			printf(" (row)");	/* it begins with a number */
		break;
	case SHMIDS_LINE_REF:
		putchar(' ');
		bytes(s + c->field, c->fieldlen);
		printf(" %s", c->label);
		break;
	case SHMIDS_LINE_TREF:
		printf(" %s %s", sepname(c->sep), c->label);
		break;
	case SHMIDS_LINE_MALFORMED:
		printf(" %s", c->why);
		break;
	case SHMIDS_LINE_ARRAY:
		putchar(' ');
		bytes(s + c->field, c->fieldlen);
		printf(" %zu", c->count);
		break;
	case SHMIDS_LINE_CONT:
		printf(" %zu", c->count);
		break;
	case SHMIDS_LINE_ROW:
		printf(" %s %zu", sepname(c->sep), c->count);
		break;
	}
	printf("%s%s%s%s%s\n", c->more ? " /" : "", c->bad ? " bad" : "",
	    c->cut ? " cut" : "", c->first ? " first" : "", eols[c->eol]);
}

static int
classify(FILE *fp)
{
	struct shmids_lines rd;
	struct shmids_values v;
	struct shmids_line c;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;

	memset(&rd, 0, sizeof(rd));
	memset(&v, 0, sizeof(v));
	v.type = SHMIDS_F64;
	while ((n = getline(&buf, &cap, fp)) != -1) {
		v.count = 0;
		if (shmids_line_next(&rd, buf, (size_t)n, &v, &c) == -1) {
			perror("lines");
			return 1;
		}
		item(buf, &c);
	}
	free(buf);
	shmids_values_free(&v);
	return feof(fp) ? 0 : 1;
}

static const char *
errname(int e)
{
	switch (e) {
	case ENOENT:
		return "enoent";
	case EINVAL:
		return "einval";
	case ERANGE:
		return "erange";
	case EIDRM:
		return "eidrm";
	case EACCES:
		return "eacces";
	default:
		return "other";
	}
}

/* Line numbers come from the offsets at which each line begins. */
static int
get(FILE *fp)
{
	struct shmids_array a;
	char *buf = NULL, why[SHMIDS_EXPLAIN_MAX];
	size_t cap = 0, nl, i;
	unsigned long lineno = 0;
	long at, *starts = NULL, nstarts = 0;
	ssize_t n;
	int r;

	/* where every line begins */
	for (at = 0; (n = getline(&buf, &cap, fp)) != -1; at += n) {
		if ((starts = realloc(starts, (nstarts + 1) *
		    sizeof(*starts))) == NULL)
			return 1;
		starts[nstarts++] = at;
	}
	if (!feof(fp))
		return 1;
	rewind(fp);
	while ((n = getline(&buf, &cap, fp)) != -1) {
		at = ftell(fp) - n;
		for (i = 0; i < (size_t)nstarts && starts[i] != at; i++)
			;
		lineno = (unsigned long)i + 1;
		r = shmids_get(buf, fp, SHMIDS_F64, &a);
		printf("%lu ", lineno);
		if (r == 0) {
			printf("ok %zu\n", a.count);
			shmids_array_free(&a);
			continue;
		}
		printf("%s", errname(errno));
		if (errno == EINVAL) {
			nl = (size_t)n;
			if (nl > 0 && buf[nl - 1] == '\n')
				buf[nl - 1] = '\0';
			shmids_explain(why, sizeof(why), buf, EINVAL);
			printf(" %s", why);
		}
		putchar('\n');
	}
	free(buf);
	free(starts);
	return 0;
}

int
main(int argc, char *argv[])
{
	FILE *fp;
	int g = argc == 3 && strcmp(argv[1], "-g") == 0, r;

	if (argc != 2 + g) {
		fprintf(stderr, "usage: lines [-g] file\n");
		return 2;
	}
	if ((fp = fopen(argv[1 + g], "r")) == NULL) {
		perror(argv[1 + g]);
		return 1;
	}
	r = g ? get(fp) : classify(fp);
	fclose(fp);
	if (fflush(stdout) != 0 || ferror(stdout))
		return 1;
	return r;
}
