/*
 * Write an array in its ASCII form (format-spec.md section 6): the lead
 * (blanks and field), then the values, wrapped with " /" so that no line
 * passes l->cols, continuation lines indented to the first value.
 * Output goes through a buffer of the call's own: one fwrite per 64 KiB,
 * not one stdio call per value, and no static state (thread-safe); each
 * value is formatted straight into it (a copy of every value cost
 * shm-expand a tenth of its time).  An array of SHMIDS_PAR_MIN bytes or
 * more is formatted on several threads (fmtpar.c, format-spec.md
 * 6.2) and laid out here, in order, from the lengths of its values,
 * which is all a layout depends on: the same bytes as on one thread.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

#define OUTBUF	65536

struct out {
	FILE		*fp;
	char		*buf;
	size_t		 n, cap;	/* bytes */
	int		 err;
};

static void
flush(struct out *o)
{
	if (o->n > 0 && !o->err && fwrite(o->buf, 1, o->n, o->fp) != o->n)
		o->err = 1;
	o->n = 0;
}

static void
put(struct out *o, const char *s, size_t len)
{
	if (o->n + len > o->cap)
		flush(o);
	if (len > o->cap) {
		if (!o->err && fwrite(s, 1, len, o->fp) != len)
			o->err = 1;
		return;
	}
	memcpy(o->buf + o->n, s, len);
	o->n += len;
}

static void
spaces(struct out *o, size_t k)
{
	static const char sp[] = "                                ";

	for (; k > sizeof(sp) - 1; k -= sizeof(sp) - 1)
		put(o, sp, sizeof(sp) - 1);
	put(o, sp, k);
}

/* The call's buffer: 64 KiB, or small if that cannot be had. */
static void
start(struct out *o, FILE *fp, char *small, size_t smallsz)
{
	o->fp = fp;
	o->n = 0;
	o->err = 0;
	o->cap = OUTBUF;
	if ((o->buf = malloc(OUTBUF)) == NULL) {
		o->buf = small;
		o->cap = smallsz;
	}
}

/* Free the buffer; r, or -1 with the write's errno (EIO if none). */
static int
done(struct out *o, char *small, int r)
{
	int e = errno;

	if (o->buf != small)
		free(o->buf);
	errno = e;
	if (r == -1)
		return -1;
	if (o->err) {
		if (errno == 0)
			errno = EIO;
		return -1;
	}
	return 0;
}

/* Room left on a line for one more value of len bytes at column col. */
static int
fits(const struct shmids_layout *l, size_t col, size_t len, int last)
{
	return l->cols == 0 || col + 1 + len + (last ? 0 : 2) <= l->cols;
}

/*
 * A big array's threads (format-spec.md 6.2): 1 for an array of fewer
 * than SHMIDS_PAR_MIN bytes, which takes the one-thread path without
 * asking the system, and where SHMIDS_THREADS is malformed.
 */
static int
nthreads(size_t count, size_t esz)
{
	int n;

	if (count < SHMIDS_PAR_MIN / esz || (n = shmids_threads()) < 1)
		return 1;
	return n;
}

/*
 * What lines break with: weol (version 2), else eol; "\n" where eol ends
 * no line (""), and "\r\n" where it is the bare CR that ended a file:
 * a CRLF file cut after its CR (shmids.h).
 */
static const char *
wrap_eol(const struct shmids_layout *l, size_t *len)
{
	const char *w = l->eol;

	if (l->version >= SHMIDS_LAYOUT_V2 && l->weol != NULL &&
	    l->weol[0] != '\0')
		w = l->weol;
	else if (w[0] == '\0')
		w = "\n";
	else if (strcmp(w, "\r") == 0)
		w = "\r\n";
	*len = strlen(w);
	return w;
}

/* A version this library knows. */
static int
known(const struct shmids_layout *l)
{
	return l->version == SHMIDS_LAYOUT_V1 ||
	    l->version == SHMIDS_LAYOUT_V2;
}

/* Version 1's fields only: weol may lie beyond a 1.3 program's struct. */
void
shmids_layout_init(struct shmids_layout *l, const char *field)
{
	memset(l, 0, offsetof(struct shmids_layout, weol));
	l->version = SHMIDS_LAYOUT_V1;
	l->lead = field != NULL ? field : "";
	l->leadlen = strlen(l->lead);
	l->indent = l->leadlen + 1;
	l->cols = 80;
	l->eol = "\n";
}

/* Where a wrapped array's layout stands, between the chunks. */
struct lay {
	struct out	 o;
	const struct shmids_layout *l;
	const char	*weol;	/* eol between lines */
	size_t		 weollen;	/* bytes */
	size_t		 col, online, count;	/* count: elements */
	size_t		 cols, row;	/* tables: values a row; rows done */
};

/* The run of n bytes at run, then a wrap: " /", weol, the indent. */
static void
wrap(struct lay *s, const char *run, size_t n)
{
	struct out *o = &s->o;
	size_t w = 2 + s->weollen + s->l->indent;
	char *at;

	if (o->n + n + w > o->cap)
		flush(o);
	if (n + w > o->cap) {	/* a run, or an indent, of 64 KiB */
		put(o, run, n);
		put(o, " /", 2);
		put(o, s->weol, s->weollen);
		spaces(o, s->l->indent);
		return;
	}
	at = o->buf + o->n;
	memcpy(at, run, n);
	memcpy(at + n, " /", 2);
	memcpy(at + n + 2, s->weol, s->weollen);
	memset(at + n + 2 + s->weollen, ' ', s->l->indent);
	o->n += n + w;
}

/*
 * Lay out a chunk of a wrapped array: its text is each value after a
 * blank, as the line holds them, so runs of it go out as they are, and
 * a wrap puts " /", weol and the indent in place of a blank.  The lead
 * comes first.  -1 once a write failed.
 */
static int
lay_chunk(void *arg, const struct shmids_chunk *c)
{
	struct lay *s = arg;
	const struct shmids_layout *l = s->l;
	const char *t = c->text, *run = t;	/* run: not yet put */
	size_t k, len, last = s->count - 1 - c->first;

	if (c->first == 0)
		put(&s->o, l->lead, l->leadlen);
	for (k = 0; k < c->n; k++, t += 1 + len) {
		len = c->len[k];
		if (s->online > 0 && !fits(l, s->col, len, k == last)) {
			wrap(s, run, (size_t)(t - run));
			run = t + 1;
			s->col = l->indent;
			s->online = 0;
		} else
			s->col++;
		s->col += len;
		s->online++;
	}
	put(&s->o, run, (size_t)(t - run));
	return s->o.err ? -1 : 0;
}

/*
 * Where both threaded layouts start; 0, or -1 for a style the type lacks,
 * which the one-thread path then reports as it always has.
 */
static int
lay_init(struct lay *s, const struct shmids_layout *l, int type,
    const void *data, size_t count)
{
	char num[SHMIDS_NUM_MAX];

	s->l = l;
	s->weol = wrap_eol(l, &s->weollen);
	s->col = l->col0 + l->leadlen;
	s->online = 0;
	s->count = count;
	return shmids_format(num, type, data, l->style[type]) == 0 ? -1 : 0;
}

/*
 * shmids_emit() on nt threads: values formatted in chunks, laid out in
 * order here.  -2 where the one-thread path must do it (no memory, or
 * an error it reports as it does).
 */
static int
emit_par(FILE *fp, const struct shmids_layout *l, int type,
    const void *data, size_t count, int nt)
{
	char small[1];
	struct lay s;
	int r;

	if (lay_init(&s, l, type, data, count) == -1)
		return -2;
	start(&s.o, fp, small, sizeof(small));
	if (s.o.buf == small ||
	    (r = shmids_format_par(nt, type, l->style[type], ' ', data,
	    count, lay_chunk, &s)) == -2) {
		done(&s.o, small, 0);
		return -2;
	}
	if (r == 0) {
		put(&s.o, l->eol, strlen(l->eol));
		flush(&s.o);
	}
	return done(&s.o, small, 0);
}

#define WRAPMAX	16	/* a wrap " /", eol and indent copied in one go */

int
shmids_emit(FILE *fp, const struct shmids_layout *l, int type,
    const void *data, size_t count)
{
	char small[512];	/* if 64 KiB cannot be had: slower, not failed */
	struct out o;
	const char *p = data;
	size_t esz = shmids_type_size(type), eollen;
	const char *weol;
	size_t weollen, wrap, i, col, len, online = 0;
	char num[SHMIDS_NUM_MAX], wr[WRAPMAX], *at;
	int r = 0, nt, style;

	if (l == NULL || !known(l) || esz == 0) {
		errno = EINVAL;
		return -1;
	}
	if (count > 0 && (nt = nthreads(count, esz)) > 1 &&
	    (r = emit_par(fp, l, type, data, count, nt)) != -2)
		return r;
	r = 0;
	eollen = strlen(l->eol);
	/* A last line without newline still needs them between its lines. */
	weol = wrap_eol(l, &weollen);
	wrap = 2 + weollen + l->indent;
	if (wrap <= WRAPMAX) {
		memset(wr, ' ', WRAPMAX);
		memcpy(wr, " /", 2);
		memcpy(wr + 2, weol, weollen);
	}
	style = l->style[type];
	start(&o, fp, small, sizeof(small));
	put(&o, l->lead, l->leadlen);
	col = l->col0 + l->leadlen;
	for (i = 0; i < count; i++, p += esz) {
		/*
		 * Formatted in place after a blank; on a wrap moved along in
		 * the buffer, or out of it where the buffer has no room.
		 */
		if (o.n + 1 + SHMIDS_NUM_MAX > o.cap)
			flush(&o);
		at = o.buf + o.n;
		if ((len = shmids_format_elem(at + 1, type, p, style)) == 0) {
			r = -1;
			break;
		}
		if (online > 0 && !fits(l, col, len, i + 1 == count)) {
			if (wrap <= WRAPMAX && o.n + wrap + SHMIDS_NUM_MAX <=
			    o.cap) {
				/* sizes the compiler knows: no calls */
				memcpy(num, at + 1, SHMIDS_NUM_MAX - 1);
				memcpy(at, wr, WRAPMAX);
				memcpy(at + wrap, num, SHMIDS_NUM_MAX - 1);
				o.n += wrap + len;
			} else if (o.n + wrap + len <= o.cap) {
				memmove(at + wrap, at + 1, len);
				memcpy(at, " /", 2);
				memcpy(at + 2, weol, weollen);
				memset(at + 2 + weollen, ' ', l->indent);
				o.n += wrap + len;
			} else {
				memcpy(num, at + 1, len);
				put(&o, " /", 2);
				put(&o, weol, weollen);
				spaces(&o, l->indent);
				put(&o, num, len);
			}
			col = l->indent;
			online = 0;
		} else {
			*at = ' ';
			o.n += 1 + len;
			col++;
		}
		col += len;
		online++;
	}
	if (r == 0) {
		put(&o, l->eol, eollen);
		flush(&o);
	}
	return done(&o, small, r);
}

/*
 * One line of a table's rows: lead, cols values joined by sep, eol
 * (format-spec.md 6.1).  -1 if a value cannot be formatted.
 */
static int
row(struct out *o, const struct shmids_layout *l, int type, const char *p,
    size_t cols, int sep, const char *eol, size_t eollen)
{
	size_t esz = shmids_type_size(type), j, len;

	put(o, l->lead, l->leadlen);
	for (j = 0; j < cols; j++, p += esz) {
		if (o->n + 1 + SHMIDS_NUM_MAX > o->cap)
			flush(o);
		if (j > 0)
			o->buf[o->n++] = (char)sep;
		if ((len = shmids_format_elem(o->buf + o->n, type, p,
		    l->style[type])) == 0)
			return -1;
		o->n += len;
	}
	put(o, eol, eollen);
	return 0;
}

/*
 * Lay out a chunk of a table's values, each after a sep: s->col is the
 * index of the next value in its row, whose first value goes after the
 * lead instead.  -1 once a write failed.
 */
static int
lay_rows(void *arg, const struct shmids_chunk *c)
{
	struct lay *s = arg;
	const struct shmids_layout *l = s->l;
	const char *t = c->text, *run = t;	/* run: not yet put */
	size_t k;

	for (k = 0; k < c->n; k++) {
		if (s->col == 0) {
			put(&s->o, l->lead, l->leadlen);
			run = t + 1;
		}
		t += 1 + c->len[k];
		if (++s->col < s->cols)
			continue;
		put(&s->o, run, (size_t)(t - run));
		run = t;
		s->col = 0;
		if (++s->row < s->count / s->cols)
			put(&s->o, s->weol, s->weollen);
		else
			put(&s->o, l->eol, strlen(l->eol));
	}
	put(&s->o, run, (size_t)(t - run));
	return s->o.err ? -1 : 0;
}

/* emit_rows() on nt threads, as emit_par(). */
static int
rows_par(FILE *fp, const struct shmids_layout *l, int type,
    const void *data, size_t rows, size_t cols, int sep, int nt)
{
	char small[1];
	struct lay s;
	int r;

	if (lay_init(&s, l, type, data, rows * cols) == -1)
		return -2;
	s.col = s.row = 0;
	s.cols = cols;
	start(&s.o, fp, small, sizeof(small));
	if (s.o.buf == small ||
	    (r = shmids_format_par(nt, type, l->style[type], sep, data,
	    rows * cols, lay_rows, &s)) == -2) {
		done(&s.o, small, 0);
		return -2;
	}
	if (r == 0)
		flush(&s.o);
	return done(&s.o, small, 0);
}

/* A table stored row by row: shmids_emit_matrix()'s SHMIDS_ROWMAJOR. */
static int
emit_rows(FILE *fp, const struct shmids_layout *l, int type,
    const void *data, size_t rows, size_t cols, int sep)
{
	char small[512];
	struct out o;
	const char *p = data, *weol;
	size_t esz = shmids_type_size(type), eollen, weollen, i;
	int r = 0, nt;

	if (l == NULL || !known(l) || esz == 0 ||
	    (sep != ' ' && sep != '\t' && sep != ',') ||
	    (cols == 0 && rows > 0)) {
		errno = EINVAL;
		return -1;
	}
	/* more bytes than an address space holds: no such array */
	if (cols > 0 && rows > (size_t)-1 / cols / esz) {
		errno = EOVERFLOW;
		return -1;
	}
	if (rows > 0 && (nt = nthreads(rows * cols, esz)) > 1 &&
	    (r = rows_par(fp, l, type, data, rows, cols, sep, nt)) != -2)
		return r;
	r = 0;
	eollen = strlen(l->eol);
	weol = wrap_eol(l, &weollen);
	start(&o, fp, small, sizeof(small));
	for (i = 0; i < rows && r == 0; i++, p += cols * esz)
		r = row(&o, l, type, p, cols, sep,
		    i + 1 < rows ? weol : l->eol, i + 1 < rows ? weollen : eollen);
	if (r == 0)
		flush(&o);
	return done(&o, small, r);
}

/* n elements of esz bytes from src, in a row, to dst every stride bytes */
static void
gather(char *dst, size_t stride, const char *src, size_t n, size_t esz)
{
	size_t k;

	/* memcpy of a constant size is a load and a store */
	switch (esz) {
	case 8:
		for (k = 0; k < n; k++, dst += stride, src += 8)
			memcpy(dst, src, 8);
		break;
	case 4:
		for (k = 0; k < n; k++, dst += stride, src += 4)
			memcpy(dst, src, 4);
		break;
	default:
		for (k = 0; k < n; k++, dst += stride, src += esz)
			memcpy(dst, src, esz);
	}
}

/*
 * A column-major table (format-spec.md 2.7, 6.1) is written a block of
 * rows at a time: the block is gathered row by row into a buffer of
 * SHMIDS_PAR_MIN bytes or so (one row at least), which is big enough for
 * emit_rows() to use its threads, and the segment is never
 * copied whole.  Every block but the last ends its last row as rows
 * between them end.
 */
int
shmids_emit_matrix(FILE *fp, const struct shmids_layout *l, int type,
    const void *data, size_t rows, size_t cols, int sep, int order)
{
	struct shmids_layout mid;
	const char *src = data;
	char *buf;
	size_t esz = shmids_type_size(type), blk, r0, n, j;
	int r = 0, e;

	if (order == SHMIDS_ROWMAJOR || (order == SHMIDS_COLMAJOR &&
	    (rows < 2 || cols < 2)))
		return emit_rows(fp, l, type, data, rows, cols, sep);
	if (order != SHMIDS_COLMAJOR || l == NULL || !known(l) || esz == 0 ||
	    (sep != ' ' && sep != '\t' && sep != ',')) {
		errno = EINVAL;
		return -1;
	}
	/* more bytes than an address space holds: no such table */
	if (cols > (size_t)-1 / esz / rows) {
		errno = EOVERFLOW;
		return -1;
	}
	blk = SHMIDS_PAR_MIN / (cols * esz);
	if (blk == 0)
		blk = 1;
	if (blk > rows)
		blk = rows;
	/* short of memory, a row at a time */
	if ((buf = malloc(blk * cols * esz)) == NULL &&
	    (blk = 1, buf = malloc(cols * esz)) == NULL)
		return -1;
	/* every block but the last ends its last row as rows break */
	mid = *l;
	mid.eol = wrap_eol(l, &n);
	for (r0 = 0; r0 < rows && r == 0; r0 += n) {
		n = rows - r0 < blk ? rows - r0 : blk;
		for (j = 0; j < cols; j++)
			gather(buf + j * esz, cols * esz,
			    src + (r0 + j * rows) * esz, n, esz);
		r = emit_rows(fp, r0 + n < rows ? &mid : l, type, buf,
		    n, cols, sep);
	}
	e = errno;
	free(buf);
	errno = e;
	return r;
}
