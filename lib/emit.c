/*
 * Write an array in its ASCII form (format-spec.md section 6): the lead
 * (blanks and field), then the values, wrapped with " /" so that no line
 * passes e->cols, continuation lines indented to the first value.
 * Output goes through a local buffer: one fwrite per 64 KiB, not one
 * stdio call per value; each value is formatted straight into it (a
 * copy of every value cost shm-expand a tenth of its time).
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

#define OUTBUF	65536

struct out {
	FILE		*fp;
	char		 buf[OUTBUF];
	size_t		 n;
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
	if (o->n + len > OUTBUF)
		flush(o);
	if (len > OUTBUF) {
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

/* Room left on a line for one more value of len bytes at column col. */
static int
fits(const struct emit *e, size_t col, size_t len, int last)
{
	return e->cols == 0 || col + 1 + len + (last ? 0 : 2) <= e->cols;
}

int
shmids_emit(FILE *fp, const struct emit *e, int type, const void *data,
    size_t count)
{
	static struct out o;	/* 64 KiB: too big for some stacks */
	const char *p = data;
	size_t esz = shmids_type_size(type), eollen = strlen(e->eol);
	/* A last line without newline still needs them between its lines. */
	const char *weol = eollen ? e->eol : "\n";
	size_t weollen = eollen ? eollen : 1;
	size_t i, col, len, online = 0;
	char num[SHMIDS_NUM_MAX], *at;

	o.fp = fp;
	o.n = 0;
	o.err = 0;
	put(&o, e->lead, e->leadlen);
	col = e->col0 + e->leadlen;
	for (i = 0; i < count; i++, p += esz) {
		/* Formatted in place after a blank; moved out on a wrap. */
		if (o.n + 1 + SHMIDS_NUM_MAX > OUTBUF)
			flush(&o);
		at = o.buf + o.n;
		if ((len = shmids_format(at + 1, type, p,
		    e->style[type])) == 0)
			return -1;
		if (online > 0 && !fits(e, col, len, i + 1 == count)) {
			memcpy(num, at + 1, len);
			put(&o, " /", 2);
			put(&o, weol, weollen);
			spaces(&o, e->indent);
			put(&o, num, len);
			col = e->indent;
			online = 0;
		} else {
			*at = ' ';
			o.n += 1 + len;
			col++;
		}
		col += len;
		online++;
	}
	put(&o, e->eol, eollen);
	flush(&o);
	if (o.err) {
		if (errno == 0)
			errno = EIO;
		return -1;
	}
	return 0;
}
