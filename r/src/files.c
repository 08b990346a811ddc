/*
 * files.c: shm_read(), the items of a text file with references:
 * through the library's classifier of lines (shmids_line_next(), 1.4):
 * R decides nothing about what a line is.  How items are keyed
 * (format-spec.md 5, "Keys") R decides with what this gives it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmids_r.h"

/*
 * shm_read(file)'s result, grown item by item: list(names, values,
 * kinds, heads, k1, k2).  kinds "ref", "table" (values: labels for the
 * R side to attach), "inline" (a double vector) or "rows" (a table
 * block left as text: a double matrix, one copy).  names: a reference's
 * or an array's field; a table's default key, its segment's name (a
 * table reference) or "source:line" (a block).  For a table, heads is
 * the line right above it if that is text or a field alone (its CSV
 * header, perhaps), else NA; k1 the item (from 1) of a field alone
 * right above it, k2 that of a field alone right above that line, else
 * 0: its key line, under the header or without one.
 */
#define NCOL	6

struct items {
	SEXP		 hold;
	R_xlen_t	 n, room;
};

/* A line right above the one at hand, as a table's header or key. */
struct above {
	int		 cand;		/* text, or a field alone */
	R_xlen_t	 alone;		/* a field alone: its item + 1 */
	char		*text;		/* its text, for a CSV header */
};

static void
item(struct items *it, const char *name, size_t namelen, SEXP v,
    const char *kind, SEXP head, const struct above *a1,
    const struct above *a2)
{
	int k;

	PROTECT(v);
	PROTECT(head);
	if (it->n == it->room) {
		it->room *= 2;
		for (k = 0; k < NCOL; k++)
			SET_VECTOR_ELT(it->hold, k, Rf_lengthgets(
			    VECTOR_ELT(it->hold, k), it->room));
	}
	/* a NUL ends a name: R's strings hold none */
	SET_STRING_ELT(VECTOR_ELT(it->hold, 0), it->n,
	    Rf_mkCharLen(name, (int)strnlen(name, namelen)));
	SET_VECTOR_ELT(VECTOR_ELT(it->hold, 1), it->n, v);
	SET_STRING_ELT(VECTOR_ELT(it->hold, 2), it->n, Rf_mkChar(kind));
	SET_STRING_ELT(VECTOR_ELT(it->hold, 3), it->n, head);
	INTEGER(VECTOR_ELT(it->hold, 4))[it->n] = a1 != NULL ?
	    (int)a1->alone : 0;
	INTEGER(VECTOR_ELT(it->hold, 5))[it->n] = a1 != NULL && a1->cand &&
	    a2 != NULL ? (int)a2->alone : 0;
	it->n++;
	UNPROTECT(2);
}

static SEXP
doubles(const double *d, size_t n)
{
	SEXP v = Rf_allocVector(REALSXP, (R_xlen_t)n);

	if (n > 0)
		memcpy(REAL(v), d, n * sizeof *d);
	return v;
}

/*
 * The library's one classifier of lines (shmids_line_next(),
 * format-spec.md 5, 6, 6.1) says what each line is, in its file.
 */
struct reader {
	struct items	 it;
	struct shmids_values v;
	const char	*source;	/* the file's name, no directories */
	struct above	 a1, a2;	/* the lines right above, and above */
	struct above	 t1, t2;	/* those of the pending block */
	char		*name;		/* the pending array's field */
	size_t		 namelen, start;	/* its first value in v */
	int		 pending;	/* 0, 'a' an array, 'r' a block */
	size_t		 cols, rows;
	unsigned long	 lineno;	/* the pending block's first row */
	SEXP		 head;		/* the pending block's header */
};

static void
above_clear(struct above *a)
{
	free(a->text);
	memset(a, 0, sizeof *a);
}

/* The line at hand becomes the one above the next: a1 as given. */
static void
above_shift(struct reader *rd, int cand, R_xlen_t alone, const char *line,
    size_t end)
{
	above_clear(&rd->a2);
	rd->a2 = rd->a1;
	memset(&rd->a1, 0, sizeof rd->a1);
	rd->a1.cand = cand;
	rd->a1.alone = alone;
	if (cand && (rd->a1.text = malloc(end + 1)) != NULL) {
		memcpy(rd->a1.text, line, end);
		rd->a1.text[end] = '\0';
	}
}

/* The header a table of separator sep may have: the line above. */
static SEXP
header(const struct reader *rd, int sep)
{
	if (sep == ',' && rd->a1.cand && rd->a1.text != NULL)
		return Rf_mkChar(rd->a1.text);
	return NA_STRING;
}

static void
finish(struct reader *rd, size_t end)
{
	double *d = rd->v.data;
	SEXP m;
	size_t i, j;
	char key[80];

	if (rd->pending == 'a') {
		item(&rd->it, rd->name, rd->namelen, doubles(d + rd->start,
		    end - rd->start), "inline", NA_STRING, NULL, NULL);
	} else if (rd->pending == 'r') {
		PROTECT(m = Rf_allocMatrix(REALSXP, (int)rd->rows,
		    (int)rd->cols));
		for (i = 0; i < rd->rows; i++)
			for (j = 0; j < rd->cols; j++)
				REAL(m)[i + j * rd->rows] =
				    d[rd->start + i * rd->cols + j];
		/* its key without a key line: shm-import's segment name */
		snprintf(key, sizeof key, "%.60s:%lu", rd->source, rd->lineno);
		item(&rd->it, key, strlen(key), m, "rows", rd->head, &rd->t1,
		    &rd->t2);
		UNPROTECT(1);
		R_ReleaseObject(rd->head);
		above_clear(&rd->t1);
		above_clear(&rd->t2);
	}
	free(rd->name);
	rd->name = NULL;
	rd->pending = 0;
	rd->head = NA_STRING;
}

/* a blank line is no header, and no key */
static int
blank(const char *line, size_t end)
{
	size_t i;

	for (i = 0; i < end; i++)
		if (line[i] != ' ' && line[i] != '\t')
			return 0;
	return 1;
}

/* s as one word sh(1) reads (cmd/msg.c's rule), into buf. */
static const char *
shword(char *buf, size_t size, const char *s)
{
	size_t i, n = 0;

	if (*s != '\0' && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789_./+,:=-") == strlen(s)) {
		snprintf(buf, size, "%s%s", *s == '-' ? "./" : "", s);
		return buf;
	}
	buf[n++] = '\'';
	for (i = 0; s[i] != '\0' && n + 5 < size; i++) {
		if (s[i] == '\'') {
			memcpy(buf + n, "'\\''", 4);
			n += 4;
		} else
			buf[n++] = s[i];
	}
	buf[n++] = '\'';
	buf[n] = '\0';
	return buf;
}

/*
 * A compressed file (shmids_compressed(): the library tells it by its
 * first bytes, format-spec.md 7) is refused, not read as lines of
 * garbage, with the command that decompresses it to a file of the name
 * without the compressor's suffix (or with ".txt").
 */
NORET static void
refuse_compressed(const char *path, const struct shmids_compression *c)
{
	char in[1024], out[1024], to[1024];
	size_t n = strlen(path), k = strlen(c->suffix);

	if (n > k && strcmp(path + n - k, c->suffix) == 0)
		snprintf(to, sizeof to, "%.*s", (int)(n - k), path);
	else
		snprintf(to, sizeof to, "%s.txt", path);
	Rf_error("shm_read: %s: compressed by %s: decompress it first: "
	    "%s %s > %s", path, c->name, c->command,
	    shword(in, sizeof in, path), shword(out, sizeof out, to));
}

SEXP
shmr_read(SEXP file)
{
	const char *path = str1(file, "shm_read");
	const struct shmids_compression *z;
	struct shmids_lines lr;
	struct shmids_line c;
	struct reader rd;
	FILE *fp;
	char *line = NULL, msg[256];
	size_t cap = 0, before;
	ssize_t len;
	SEXP ans;
	int k, e, bad = 0;

	fp = fopen(path, "r");
	if (fp == NULL)
		Rf_error("shm_read: %s: %s", path, strerror(errno));
	memset(&rd, 0, sizeof rd);
	memset(&lr, 0, sizeof lr);
	rd.v.type = SHMIDS_F64;
	rd.head = NA_STRING;
	rd.source = strrchr(path, '/') != NULL ? strrchr(path, '/') + 1 : path;
	rd.it.room = 16;
	PROTECT(rd.it.hold = Rf_allocVector(VECSXP, NCOL));
	for (k = 0; k < NCOL; k++)
		SET_VECTOR_ELT(rd.it.hold, k, Rf_allocVector(k == 1 ? VECSXP :
		    k >= 4 ? INTSXP : STRSXP, 16));
	for (;;) {
		errno = 0;
		len = getline(&line, &cap, fp);
		if (len == -1)
			break;
		if (lr.lineno == 0 &&
		    (z = shmids_compressed(line, (size_t)len)) != NULL) {
			free(line);
			fclose(fp);
			refuse_compressed(path, z);
		}
		before = rd.v.count;
		if (shmids_line_next(&lr, line, (size_t)len, &rd.v, &c) == -1) {
			snprintf(msg, sizeof msg, "%s", strerror(errno));
			bad = 1;
			break;
		}
		switch (c.kind) {
		case SHMIDS_LINE_MALFORMED:
			snprintf(msg, sizeof msg, "line %lu: %s", c.lineno,
			    c.why ? c.why : "malformed reference line");
			bad = 1;
			break;
		case SHMIDS_LINE_MREF:
		case SHMIDS_LINE_MTREF:
			/* a stream's message (shmids(5) 5.1): no segment */
			snprintf(msg, sizeof msg, "line %lu: a stream's message "
			    "(%s %lld): shm_read() reads segments; read the "
			    "stream with shm_follow()", c.lineno, c.label,
			    shmids_line_seq(line, &c));
			bad = 1;
			break;
		case SHMIDS_LINE_REF:
			finish(&rd, before);
			item(&rd.it, line + c.field, c.fieldlen,
			    Rf_mkString(c.label), "ref", NA_STRING, NULL, NULL);
			above_shift(&rd, 0, 0, line, c.end);
			break;
		case SHMIDS_LINE_TREF:
			finish(&rd, before);
			/* keyed, without a key line, by its segment's name */
			item(&rd.it, strrchr(c.label, ' ') + 1,
			    strlen(strrchr(c.label, ' ') + 1),
			    Rf_mkString(c.label), "table", header(&rd, c.sep),
			    &rd.a1, &rd.a2);
			above_shift(&rd, 0, 0, line, c.end);
			break;
		case SHMIDS_LINE_ARRAY:
			finish(&rd, before);
			rd.name = malloc(c.fieldlen + 1);
			if (rd.name == NULL) {
				snprintf(msg, sizeof msg, "%s", strerror(ENOMEM));
				bad = 1;
				break;
			}
			memcpy(rd.name, line + c.field, c.fieldlen);
			rd.name[c.fieldlen] = '\0';
			rd.namelen = c.fieldlen;
			rd.start = before;
			rd.pending = 'a';
			if (!c.more) {
				finish(&rd, rd.v.count);
				/* a field alone: a table's key line, perhaps */
				if (rd.v.count == before)
					above_shift(&rd, 1, rd.it.n, line,
					    c.end);
				else
					above_shift(&rd, 0, 0, line, c.end);
			} else
				above_shift(&rd, 0, 0, line, c.end);
			break;
		case SHMIDS_LINE_CONT:
			if (c.bad) {	/* the array is text, whole */
				free(rd.name);
				rd.name = NULL;
				rd.pending = 0;
			} else if (!c.more)
				finish(&rd, rd.v.count);
			above_shift(&rd, 0, 0, line, c.end);
			break;
		case SHMIDS_LINE_ROW:
			if (c.first || rd.pending != 'r') {
				finish(&rd, before);
				rd.head = header(&rd, c.sep);
				R_PreserveObject(rd.head);
				/* the lines above the block, for its key */
				rd.t1 = rd.a1;
				rd.t2 = rd.a2;
				memset(&rd.a1, 0, sizeof rd.a1);
				memset(&rd.a2, 0, sizeof rd.a2);
				rd.pending = 'r';
				rd.start = before;
				rd.cols = c.count;
				rd.rows = 0;
				rd.lineno = c.lineno;
			}
			rd.rows++;
			above_shift(&rd, 0, 0, line, c.end);
			break;
		default:	/* TEXT: a header, perhaps; not a comment */
			finish(&rd, before);
			above_shift(&rd, c.sep != '#' && !blank(line, c.end), 0,
			    line, c.end);
			rd.v.count = 0;
			continue;
		}
		if (bad)
			break;
		if (rd.pending == 0)
			rd.v.count = 0;	/* done with those values */
	}
	e = errno;
	if (!bad && !feof(fp)) {
		snprintf(msg, sizeof msg, "%s", strerror(e ? e : EIO));
		bad = 1;
	}
	if (!bad)
		finish(&rd, rd.v.count);
	else if (rd.pending == 'r')
		R_ReleaseObject(rd.head);
	free(line);
	free(rd.name);
	above_clear(&rd.a1);
	above_clear(&rd.a2);
	above_clear(&rd.t1);
	above_clear(&rd.t2);
	shmids_values_free(&rd.v);
	fclose(fp);
	if (bad)
		Rf_error("shm_read: %s: %s", path, msg);
	PROTECT(ans = Rf_allocVector(VECSXP, NCOL));
	for (k = 0; k < NCOL; k++)
		SET_VECTOR_ELT(ans, k, Rf_lengthgets(VECTOR_ELT(rd.it.hold, k),
		    rd.it.n));
	UNPROTECT(2);
	return ans;
}
