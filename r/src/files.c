/*
 * files.c: shm_read(), the items of a text file with references:
 * through the library's classifier of lines (shmids_line_next(), 1.4):
 * R decides nothing about what a line is.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmids_r.h"

/*
 * shm_read(file)'s result, grown item by item: list(names, values,
 * kinds, heads); kinds "ref", "table" (values: labels for the R side to
 * attach), "inline" (a double vector) or "rows" (a table block left as
 * text: a double matrix, one copy); heads the text line just before a
 * CSV table of either form (its header of names, perhaps), else NA.
 */
struct items {
	SEXP		 hold;
	R_xlen_t	 n, room;
};

static void
item(struct items *it, const char *name, size_t namelen, SEXP v,
    const char *kind, SEXP head)
{
	int k;

	PROTECT(v);
	PROTECT(head);
	if (it->n == it->room) {
		it->room *= 2;
		for (k = 0; k < 4; k++)
			SET_VECTOR_ELT(it->hold, k, Rf_lengthgets(
			    VECTOR_ELT(it->hold, k), it->room));
	}
	/* a NUL ends a name: R's strings hold none */
	SET_STRING_ELT(VECTOR_ELT(it->hold, 0), it->n,
	    Rf_mkCharLen(name, (int)strnlen(name, namelen)));
	SET_VECTOR_ELT(VECTOR_ELT(it->hold, 1), it->n, v);
	SET_STRING_ELT(VECTOR_ELT(it->hold, 2), it->n, Rf_mkChar(kind));
	SET_STRING_ELT(VECTOR_ELT(it->hold, 3), it->n, head);
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
	char		*prev;		/* the last text line, for a header */
	char		*name;		/* the pending array's field */
	size_t		 namelen, start;	/* its first value in v */
	int		 pending;	/* 0, 'a' an array, 'r' a block */
	size_t		 cols, rows;
	SEXP		 head;		/* the pending block's header */
	R_xlen_t	 empty;		/* the item of an empty array */
};

static void
finish(struct reader *rd, size_t end)
{
	double *d = rd->v.data;
	SEXP m;
	size_t i, j;

	if (rd->pending == 'a') {
		if (end == rd->start) {	/* perhaps a CSV header */
			free(rd->prev);
			rd->prev = rd->name;
			rd->name = NULL;
			rd->empty = rd->it.n;
			item(&rd->it, rd->prev, rd->namelen, doubles(NULL, 0),
			    "inline", NA_STRING);
		} else
			item(&rd->it, rd->name, rd->namelen,
			    doubles(d + rd->start, end - rd->start), "inline",
			    NA_STRING);
	} else if (rd->pending == 'r') {
		PROTECT(m = Rf_allocMatrix(REALSXP, (int)rd->rows,
		    (int)rd->cols));
		for (i = 0; i < rd->rows; i++)
			for (j = 0; j < rd->cols; j++)
				REAL(m)[i + j * rd->rows] =
				    d[rd->start + i * rd->cols + j];
		item(&rd->it, "rows", 4, m, "rows", rd->head);
		UNPROTECT(1);
		R_ReleaseObject(rd->head);
	}
	free(rd->name);
	rd->name = NULL;
	rd->pending = 0;
	rd->head = NA_STRING;
}

static SEXP
header(struct reader *rd, int sep)
{
	SEXP h = NA_STRING;

	if (sep == ',' && rd->prev != NULL) {
		h = Rf_mkChar(rd->prev);
		if (rd->empty >= 0 && rd->empty == rd->it.n - 1)
			rd->it.n--;	/* the header read as an empty array */
	}
	return h;
}

static void
text(struct reader *rd, const char *line, size_t end)
{
	free(rd->prev);
	rd->prev = malloc(end + 1);
	if (rd->prev != NULL) {
		memcpy(rd->prev, line, end);
		rd->prev[end] = '\0';
	}
	rd->empty = -1;
}

SEXP
shmr_read(SEXP file)
{
	const char *path = str1(file, "shm_read");
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
	rd.empty = -1;
	rd.it.room = 16;
	PROTECT(rd.it.hold = Rf_allocVector(VECSXP, 4));
	SET_VECTOR_ELT(rd.it.hold, 0, Rf_allocVector(STRSXP, 16));
	SET_VECTOR_ELT(rd.it.hold, 1, Rf_allocVector(VECSXP, 16));
	SET_VECTOR_ELT(rd.it.hold, 2, Rf_allocVector(STRSXP, 16));
	SET_VECTOR_ELT(rd.it.hold, 3, Rf_allocVector(STRSXP, 16));
	for (;;) {
		errno = 0;
		len = getline(&line, &cap, fp);
		if (len == -1)
			break;
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
		case SHMIDS_LINE_REF:
			finish(&rd, before);
			item(&rd.it, line + c.field, c.fieldlen,
			    Rf_mkString(c.label), "ref", NA_STRING);
			break;
		case SHMIDS_LINE_TREF:
			finish(&rd, before);
			PROTECT(rd.head = header(&rd, c.sep));
			item(&rd.it, c.label, strlen(c.label),
			    Rf_mkString(c.label), "table", rd.head);
			UNPROTECT(1);
			rd.head = NA_STRING;
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
			if (!c.more)
				finish(&rd, rd.v.count);
			break;
		case SHMIDS_LINE_CONT:
			if (c.bad) {	/* the array is text, whole */
				free(rd.name);
				rd.name = NULL;
				rd.pending = 0;
			} else if (!c.more)
				finish(&rd, rd.v.count);
			break;
		case SHMIDS_LINE_ROW:
			if (c.first || rd.pending != 'r') {
				finish(&rd, before);
				rd.head = header(&rd, c.sep);
				R_PreserveObject(rd.head);
				rd.pending = 'r';
				rd.start = before;
				rd.cols = c.count;
				rd.rows = 0;
			}
			rd.rows++;
			break;
		default:	/* TEXT */
			finish(&rd, before);
			text(&rd, line, c.end);
			rd.v.count = 0;
			continue;
		}
		if (bad)
			break;
		/* a header stands right above its table: no other line */
		if (c.kind != SHMIDS_LINE_ARRAY || rd.empty != rd.it.n - 1) {
			free(rd.prev);
			rd.prev = NULL;
			rd.empty = -1;
		}
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
	free(line);
	free(rd.prev);
	free(rd.name);
	shmids_values_free(&rd.v);
	fclose(fp);
	if (bad)
		Rf_error("shm_read: %s: %s", path, msg);
	PROTECT(ans = Rf_allocVector(VECSXP, 4));
	for (k = 0; k < 4; k++)
		SET_VECTOR_ELT(ans, k, Rf_lengthgets(VECTOR_ELT(rd.it.hold, k),
		    rd.it.n));
	UNPROTECT(2);
	return ans;
}
