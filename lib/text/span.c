/*
 * An array's many lines read at once, on several threads
 * (format-spec.md 6.2): the text is cut into chunks where a line or a
 * token begins, each chunk's values are counted, then each is parsed
 * straight into its place.  The answer is the one shmids_values_parse()
 * gives line by line: where the array ends, the first bad value in the
 * text's order, the values before it.  The threads touch the text, their
 * own chunk and their own part of v->data, nothing else.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "number.h"

/*
 * Counting is vector code: where the C library picks a function's
 * version by the CPU at load time (GNU ifunc), an AVX2 one counts a
 * third faster than the SSE2 one every x86-64 has.
 */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SPAN_SANITIZED		/* gcc */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SPAN_SANITIZED		/* clang */
#endif
#endif
/* A sanitizer's resolver runs before its runtime is up: no clones then. */
#if defined(__x86_64__) && defined(__GLIBC__) && defined(__ELF__) && \
    !defined(SPAN_SANITIZED) && \
    (defined(__clang__) ? __clang_major__ >= 14 : __GNUC__ >= 6)
#define SPAN_CLONES	__attribute__((target_clones("avx2", "default")))
#else
#define SPAN_CLONES
#endif

#define MINCHUNK	((size_t)256 << 10)	/* bytes: less is not worth a thread */
#define MAXCHUNKS	1024

struct chunk {
	const char	*s;
	size_t		 len;		/* bytes; from a line's or a token's start */
	size_t		 count;		/* values, up to the array's end */
	size_t		 lines;		/* lines ended in it, up to the array's end */
	size_t		 used;		/* bytes up to the array's end, or len */
	int		 ended;		/* a line of it is not continued */
	const char	*bad;		/* parsing: the first bad value, else NULL */
	int		 err;		/* its errno */
	size_t		 parsed;	/* values before it */
	int		 full;		/* count cut to the caller's room */
};

struct span {
	struct chunk	*c;
	size_t		 n;		/* chunks */
	const char	*end;		/* the span's end: a line's end */
	char		*dst;		/* chunk i's values go at dst + at[i] */
	size_t		*at;		/* elements */
	int		 type;
	size_t		 esz;
	int		 walk;		/* parse_job() finds the end: uncounted */
	struct chunk	 one;		/* c and at of a span of one chunk */
	size_t		 at1;
};

/* Does a run of bytes above ' ' begin at u[i] (runs())? */
static inline unsigned
run_at(const unsigned char *u, size_t i)		/* i >= 1 */
{
	return (u[i] > ' ') & (u[i - 1] <= ' ');
}

/* Does u[i] end a line the common way, " /" then LF or CR LF? i >= 3 */
static inline unsigned
cont_at(const unsigned char *u, size_t i)
{
	return (u[i] == '\n') & (((u[i - 1] == '/') &
	    ((u[i - 2] == ' ') | (u[i - 2] == '\t'))) |
	    ((u[i - 1] == '\r') & (u[i - 2] == '/') &
	    ((u[i - 3] == ' ') | (u[i - 3] == '\t'))));
}

/*
 * The runs of bytes above ' ' in s[0..len): every value is one, and so
 * is a continuation's "/"; a byte at or below ' ' (a blank, CR, LF) is
 * never in a value.  So a text of values and "/"s has as many values as
 * runs less "/"s, and any text no more values before its first bad one.
 * Written so that the compiler makes it vector code: a run begins where
 * a byte above ' ' follows one that is not, 64 bytes a round.
 */
static size_t SPAN_CLONES
runs(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i, j, n = len > 0 && u[0] > ' ';
	unsigned char k;	/* 64 at most: bytes add 16 at a time */

	for (i = 1; i + 64 <= len; i += 64) {
		for (j = 0, k = 0; j < 64; j++)
			k += run_at(u, i + j);
		n += k;
	}
	for (; i < len; i++)
		n += run_at(u, i);
	return n;
}

/*
 * runs() and, in the same pass, s[0..len)'s LFs and those that end a
 * line the common way, " /" then LF or CR LF (a blank before the "/"),
 * as shm-expand writes them; an LF in the first 3 bytes counts as no
 * such end.  Where every LF is one, every line is continued and the
 * values are the runs less the LFs: the lines need no look one by one.
 */
static size_t SPAN_CLONES
scan(const char *s, size_t len, size_t *lfs, size_t *conts)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i, j, n = 0;
	unsigned char k, l, c;	/* 64 at most a round */

	*lfs = *conts = 0;
	for (i = 0; i < len && i < 3; i++) {
		n += u[i] > ' ' && (i == 0 || u[i - 1] <= ' ');
		*lfs += u[i] == '\n';
	}
	for (; i + 64 <= len; i += 64) {
		for (j = 0, k = 0, l = 0, c = 0; j < 64; j++) {
			k += run_at(u, i + j);
			l += u[i + j] == '\n';
			c += cont_at(u, i + j);
		}
		n += k;
		*lfs += l;
		*conts += c;
	}
	for (; i < len; i++) {
		n += run_at(u, i);
		*lfs += u[i] == '\n';
		*conts += cont_at(u, i);
	}
	return n;
}

/* Count chunk i's values and lines, up to a line not continued. */
static void
count_job(void *arg, size_t i)
{
	struct span *sp = arg;
	struct chunk *c = &sp->c[i];
	const char *p, *end = c->s + c->len, *nl, *q;
	size_t conts = 0, lfs, n;

	c->used = c->len;
	/*
	 * Every line continued: the values are the runs but the "/"s.  A
	 * last line without LF at the span's end is looked at below.
	 */
	if ((c->len == 0 || end[-1] == '\n' || end != sp->end)) {
		n = scan(c->s, c->len, &lfs, &conts);
		if (lfs == conts) {
			c->lines = lfs;
			c->count = n - conts;
			return;
		}
		conts = 0;
	}
	for (p = c->s; p < end; p = q) {
		nl = memchr(p, '\n', (size_t)(end - p));
		q = nl != NULL ? nl + 1 : end;
		/* a chunk may end inside a line, before a token */
		if (nl == NULL && end != sp->end)
			break;
		c->lines++;
		if (!shmids_cont(p, (size_t)(q - p))) {
			c->ended = 1;
			c->used = (size_t)(q - c->s);
			break;
		}
		conts++;
	}
	c->count = runs(c->s, c->used) - conts;
}

/*
 * The token at p, past the caller's room: a value (E2BIG), or a bad one
 * (its errno), read into no room of the caller's.
 */
static int
past_room(const struct span *sp, const char *p, const char *lim)
{
	union {
		double		d;
		int64_t		i;
	} x;
	const char *e;

	if (shmids_parse_lim(p, lim, &e, sp->type, &x) == 0)
		return E2BIG;
	return errno;
}

/*
 * Where the line at q ends, q being at a CR or LF, or past a "/" and
 * the blanks after it: the LF after any CRs, or the span's end; NULL if
 * something else comes first (a CR inside a line, a "/" that is no
 * continuation), or the chunk ends first inside a line.
 */
static const char *
eol_at(const struct span *sp, const char *q, const char *end)
{
	while (q < end && *q == '\r')
		q++;
	if (q < end)
		return *q == '\n' ? q : NULL;
	return end == sp->end ? end : NULL;
}

/*
 * Parse chunk i's values (its count, at most) into place.  Uncounted
 * (sp->walk: one chunk, one thread), it finds the array's end itself,
 * as count_job() would: its lines through the first not continued.
 * One pass over the bytes, the line ends found where the values end (a
 * line cut first at its LF, its CRs and "/" then, and its values last
 * cost a tenth of shm-import's instructions): between two values come
 * blanks, then a value, a line's end (CRs, LF), or a last "/".
 */
static void
parse_job(void *arg, size_t i)
{
	struct span *sp = arg;
	struct chunk *c = &sp->c[i];
	const char *s = c->s, *p = s, *ls = s, *end = s + c->used, *e, *lf;
	char *d = sp->dst != NULL ? sp->dst + sp->at[i] * sp->esz : NULL;
	size_t n = 0;
	int cont, r;

	for (;;) {
		while (p < end && shmids_blank(*p))
			p++;
		cont = 0;
		lf = NULL;
		if (p == end) {
			/* a last line without LF, or a chunk cut in a line */
			if (p == ls || end != sp->end)
				break;
			lf = end;
		} else if (*p == '\n' || *p == '\r')
			lf = eol_at(sp, p, end);
		else if (*p == '/') {
			for (e = p + 1; e < end && shmids_blank(*e); e++)
				;
			cont = (lf = eol_at(sp, e, end)) != NULL;
		}
		if (lf == NULL) {
			/* more values than counted: none may land past ours */
			if (n == c->count) {
				c->bad = p;
				c->err = c->full ? past_room(sp, p, end) :
				    EINVAL;
				c->parsed = n;
				return;
			}
			r = sp->type == SHMIDS_F64 ?
			    shmids_f64_parse(p, end, &e, d + n * 8) :
			    shmids_parse_lim(p, end, &e, sp->type,
			    d + n * sp->esz);
			if (r == -1) {
				c->bad = p;
				c->err = errno;
				c->parsed = n;
				return;
			}
			n++;
			p = e;
			continue;
		}
		p = ls = lf < end ? lf + 1 : end;
		if (sp->walk) {
			c->lines++;
			if (!cont) {
				c->ended = 1;
				c->used = (size_t)(p - s);
				break;
			}
		}
		if (p == end)
			break;
	}
	c->parsed = n;
}

/*
 * Where a chunk may begin at or after p: after a LF, or at a token's
 * first byte after a blank; NULL if nowhere before end.
 */
static const char *
cut(const char *p, const char *end)
{
	for (; p < end; p++)
		if (p[-1] == '\n' || (shmids_blank(p[-1]) &&
		    !shmids_isend(p[0])))
			return p;
	return NULL;
}

/* Cut s[0..len) into chunks; their number. */
static size_t
split(struct chunk *c, const char *s, size_t len, int nthreads)
{
	size_t want, i, n = 0, size;
	const char *p = s, *q, *end = s + len;

	/* a few chunks a thread: one that is slower is waited for less */
	want = (size_t)nthreads * 4;
	if (want > MAXCHUNKS)
		want = MAXCHUNKS;
	if (len / want < MINCHUNK)
		want = len / MINCHUNK > 0 ? len / MINCHUNK : 1;
	size = len / want;
	for (i = 1; i < want; i++) {
		if ((q = cut(s + i * size > p ? s + i * size : p + 1, end)) ==
		    NULL)
			break;
		memset(&c[n], 0, sizeof(c[n]));
		c[n].s = p;
		c[n++].len = (size_t)(q - p);
		p = q;
	}
	memset(&c[n], 0, sizeof(c[n]));
	c[n].s = p;
	c[n++].len = (size_t)(end - p);
	return n;
}

/*
 * Chunk c holds the first bad value: the bytes from s through the end
 * of its line, and the lines of c before that one.
 */
static void
bad_line(const struct span *sp, const struct chunk *c, const char *s,
    size_t *used, size_t *lines)
{
	const char *p = c->s, *nl;

	*lines = 0;
	while ((nl = memchr(p, '\n', (size_t)(c->bad - p))) != NULL) {
		(*lines)++;
		p = nl + 1;
	}
	nl = memchr(c->bad, '\n', (size_t)(sp->end - c->bad));
	*used = (size_t)((nl != NULL ? nl + 1 : sp->end) - s);
}

/*
 * Count each chunk on threads and place them: where each chunk's values
 * go (sp->at), their total, and the last chunk of the array, returned.
 */
static size_t
count_all(struct span *sp, int nthreads, size_t *total)
{
	size_t i;

	*total = 0;
	shmids_par(sp->n, nthreads, count_job, sp);
	for (i = 0; i < sp->n; i++) {
		sp->at[i] = *total;
		*total += sp->c[i].count;
		if (sp->c[i].ended)
			break;
	}
	return i < sp->n ? i : sp->n - 1;
}

/*
 * Room for at most cap values from the chunks' counts: a chunk that
 * would go past it is cut short, and marked, so that its first value
 * with no room is a bad one (E2BIG) and lands nowhere.
 */
static void
clamp(struct span *sp, size_t last, size_t cap)
{
	size_t i;

	for (i = 0; i <= last; i++)
		if (sp->at[i] + sp->c[i].count > cap) {
			sp->c[i].count = sp->at[i] < cap ? cap - sp->at[i] : 0;
			sp->c[i].full = 1;
		}
}

/*
 * Parse the counted chunks (through last) into sp->dst: the values, or
 * -1 for the first bad value in s's order, after which *count is the
 * values before it (format-spec.md 6.2).
 */
static int
place(struct span *sp, const char *s, size_t last, int nthreads,
    size_t *count, size_t *used, size_t *lines, int *more, const char **bad)
{
	struct chunk *cs = sp->c;
	size_t i, nl = 0;

	shmids_par(last + 1, nthreads, parse_job, sp);
	for (i = 0; i <= last && cs[i].bad == NULL; i++)
		nl += cs[i].lines;
	if (i <= last) {
		/* the values before the bad one are kept, as line by line */
		*count = sp->at[i] + cs[i].parsed;
		bad_line(sp, &cs[i], s, used, lines);
		*lines += nl + 1;
		*bad = cs[i].bad;
		errno = cs[i].err;
		return -1;
	}
	*used = (size_t)(cs[last].s + cs[last].used - s);
	*lines = nl;
	*more = !cs[last].ended;
	return 0;
}

/* Count, make room, parse: the work of shmids_values_lines(). */
static int
span(struct span *sp, struct shmids_values *v, const char *s, int nthreads,
    size_t *used, size_t *lines, int *more, const char **bad)
{
	size_t last, total, n;
	int r;

	last = count_all(sp, nthreads, &total);
	if (shmids_values_reserve(v, v->count + total) == -1)
		return -1;
	/* an empty vector given no values may have no buffer: NULL + 0 is UB */
	sp->dst = v->data != NULL ? (char *)v->data + v->count * sp->esz :
	    NULL;
	r = place(sp, s, last, nthreads, &n, used, lines, more, bad);
	v->count += r == 0 ? total : n;
	return r;
}

/*
 * The chunks of s[0..len), on the heap: a thread's stack may be small.
 * One chunk (split() cuts none below 2 MINCHUNK) is sp's own: a line at
 * a time, two mallocs were a tenth of the work.
 */
static int
span_init(struct span *sp, const char *s, size_t len, int nthreads, int walk)
{
	if (walk || len / MINCHUNK <= 1) {
		sp->c = &sp->one;
		sp->at = &sp->at1;
	} else {
		sp->c = malloc(MAXCHUNKS * sizeof(*sp->c));
		sp->at = malloc(MAXCHUNKS * sizeof(*sp->at));
	}
	if (sp->c == NULL || sp->at == NULL) {
		free(sp->c);
		free(sp->at);
		errno = ENOMEM;
		return -1;
	}
	sp->walk = walk;
	if (walk) {
		memset(&sp->c[0], 0, sizeof(sp->c[0]));
		sp->c[0].s = s;
		sp->c[0].len = len;
		sp->n = 1;
	} else
		sp->n = split(sp->c, s, len, nthreads < 1 ? 1 : nthreads);
	sp->end = s + len;
	return 0;
}

static void
span_free(struct span *sp)
{
	int e = errno;

	if (sp->c != &sp->one) {
		free(sp->c);
		free(sp->at);
	}
	errno = e;
}

/* Lines appended to v, grown (shmids_values_read(), flags 0). */
static int
lines_read(struct shmids_values *v, const char *s, size_t len,
    int nthreads, size_t *used, size_t *lines, int *more, const char **bad)
{
	struct span sp;
	int r;

	*used = *lines = 0;
	*more = 0;
	if ((sp.esz = shmids_type_size(v->type)) == 0) {
		errno = EINVAL;
		return -1;
	}
	if (len == 0)
		return 0;
	if (nthreads < 1)
		nthreads = 1;
	if (span_init(&sp, s, len, nthreads, 0) == -1)
		return -1;
	sp.type = v->type;
	r = span(&sp, v, s, nthreads, used, lines, more, bad);
	span_free(&sp);
	return r;
}

/* The values counted (SHMIDS_VALUES_COUNT). */
static int
count_read(const char *s, size_t len, int nthreads, size_t *count,
    size_t *used, size_t *lines, int *more)
{
	struct span sp;
	size_t i, last;

	*count = *used = *lines = 0;
	*more = 0;
	if (len == 0)
		return 0;
	if (span_init(&sp, s, len, nthreads, 0) == -1)
		return -1;
	last = count_all(&sp, nthreads, count);
	for (i = 0; i <= last; i++)
		*lines += sp.c[i].lines;
	*used = (size_t)(sp.c[last].s + sp.c[last].used - s);
	*more = !sp.c[last].ended;
	span_free(&sp);
	return 0;
}

/* Into the caller's cap elements at dst (SHMIDS_VALUES_FIXED). */
static int
into_read(void *dst, size_t cap, int type, const char *s,
    size_t len, int nthreads, size_t *count, size_t *used, size_t *lines,
    int *more, const char **bad)
{
	struct span sp;
	size_t last, total;
	int r;

	*count = *used = *lines = 0;
	*more = 0;
	if ((sp.esz = shmids_type_size(type)) == 0) {
		errno = EINVAL;
		return -1;
	}
	if (len == 0)
		return 0;
	/* one thread needs no count to place its values */
	if (span_init(&sp, s, len, nthreads, nthreads <= 1) == -1)
		return -1;
	sp.type = type;
	sp.dst = dst;
	if (sp.walk) {
		sp.at[0] = 0;
		sp.c[0].used = len;
		sp.c[0].count = cap;
		sp.c[0].full = 1;
		r = place(&sp, s, 0, 1, count, used, lines, more, bad);
		total = sp.c[0].parsed;
	} else {
		last = count_all(&sp, nthreads, &total);
		clamp(&sp, last, cap);
		r = place(&sp, s, last, nthreads, count, used, lines, more,
		    bad);
	}
	if (r == 0)
		*count = total;
	span_free(&sp);
	return r;
}

/* The contract is in shmids.h. */
int
shmids_values_read(struct shmids_values *v, const char *s, size_t len,
    int nthreads, int flags, struct shmids_span *sp)
{
	size_t count0, esz;
	char *dst;
	int e = errno, r;

	/* Misuse says EINVAL rather than faulting (attacker's round). */
	if (sp == NULL || (v == NULL && flags != SHMIDS_VALUES_COUNT)) {
		errno = EINVAL;
		return -1;
	}
	memset(sp, 0, sizeof(*sp));
	switch (flags) {
	case 0:
		count0 = v->count;
		r = lines_read(v, s, len, nthreads, &sp->used, &sp->lines,
		    &sp->more, &sp->bad);
		sp->count = v->count - count0;
		break;
	case SHMIDS_VALUES_LINE:
		count0 = v->count;
		if ((r = shmids_values_line(v, s, len, &sp->more, &sp->bad)) ==
		    0) {
			sp->used = len;
			sp->lines = 1;
		}
		sp->count = v->count - count0;
		break;
	case SHMIDS_VALUES_FIXED:
		if ((esz = shmids_type_size(v->type)) == 0 ||
		    v->count > v->cap) {
			errno = EINVAL;
			return -1;
		}
		dst = v->data != NULL ? (char *)v->data + v->count * esz :
		    NULL;
		r = into_read(dst, v->cap - v->count, v->type, s, len,
		    nthreads, &sp->count, &sp->used, &sp->lines, &sp->more,
		    &sp->bad);
		v->count += sp->count;
		break;
	case SHMIDS_VALUES_COUNT:
		r = count_read(s, len, nthreads, &sp->count, &sp->used,
		    &sp->lines, &sp->more);
		break;
	default:
		errno = EINVAL;
		return -1;
	}
	if (r == 0)
		errno = e;
	return r;
}
