/*
 * span_test: shmids_values_lines() on 1 to 7 threads against
 * shmids_values_parse() line by line (format-spec.md 6.2), over random
 * texts big enough to be cut into chunks: wrapped and on one line, CR
 * LF, blanks and tabs, bad values and out-of-range ones here and there,
 * a line not continued in the middle, every type.  The same values, bit
 * for bit, the same bad value, errno, used bytes and lines.  And
 * shmids_values_count() on 1 to 7 threads: as many values, bytes, lines
 * and the same more where the lines read without error, never fewer
 * values before a bad one.  And shmids_values_into() on 1 to 7 threads
 * with room for as many values, more, and fewer (E2BIG).  And
 * shmids_par(), its threads, asked for more threads than it may make.
 * And shmids_values_read(), the designed call the four are wrappers of
 * (shmids 1.5): with flags 0, SHMIDS_VALUES_FIXED and
 * SHMIDS_VALUES_COUNT as the reference reads, its bad flags EINVAL.
 * TAP.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/text.h"

#include "tap.h"

struct res {
	struct shmids_values v;
	size_t	 used, lines;
	int	 r, err, more;
	const char *bad;
};

/* The reference: shmids_values_parse() a line at a time. */
static void
by_line(const char *s, size_t len, int type, struct res *o)
{
	const char *p = s, *nl, *bad = NULL;
	size_t n;
	int more = 1, r = 0;

	memset(o, 0, sizeof(*o));
	o->v.type = type;
	while (p < s + len && more && r == 0) {
		nl = memchr(p, '\n', (size_t)(s + len - p));
		n = nl != NULL ? (size_t)(nl + 1 - p) : (size_t)(s + len - p);
		r = shmids_values_parse(&o->v, p, n, &more, &bad);
		o->err = r == -1 ? errno : 0;
		o->lines++;
		p += n;
	}
	o->r = r;
	o->more = r == 0 ? more : 0;
	o->bad = r == -1 ? bad : NULL;
	o->used = (size_t)(p - s);
}

static void
at_once(const char *s, size_t len, int type, int nthreads, struct res *o)
{
	memset(o, 0, sizeof(*o));
	o->v.type = type;
	o->r = shmids_values_lines(&o->v, s, len, nthreads, &o->used,
	    &o->lines, &o->more, &o->bad);
	o->err = o->r == -1 ? errno : 0;
}

static const char *const goodf[] = {
	"1", "-2", "0.5", "3.25", "1e-05", "0x1p-3", "7", "NA", "-0", "nan"
};
static const char *const goodi[] = {
	"1", "-2", "0", "325", "-100000", "0x1f", "7", "2147483647", "-0", "9"
};

/* A random array's text of about size bytes into b; its length. */
static size_t
text(char *b, size_t size, int wrap, int crlf, int nbad, int stop,
    int type, int rate)
{
	const char *const *good = type == SHMIDS_F64 ||
	    type == SHMIDS_F32 ? goodf : goodi;
	size_t n = 0, k = 0, i;
	const char *t;

	while (n + 40 < size) {
		if (rand() % 7 == 0)
			b[n++] = '\t';
		b[n++] = ' ';
		t = good[rand() % 10];
		if (nbad > 0 && rand() % rate == 0) {
			t = rand() % 2 ? "1e999" : rand() % 2 ?
			    "99999999999999999999" : rand() % 2 ? "x" : "/";
			nbad--;
		}
		memcpy(b + n, t, strlen(t));
		n += strlen(t);
		/* bytes no value holds: a CR inside a line, a NUL */
		if (nbad > 0 && rand() % (2 * rate) == 0) {
			memcpy(b + n, rand() % 2 ? "\r2" : "\0003", 2);
			n += 2;
			nbad--;
		}
		if (wrap && ++k % (size_t)wrap == 0 && n + 60 < size) {
			memcpy(b + n, " /", 2);
			n += 2;
			for (i = (size_t)rand() % 3; i > 0; i--)
				b[n++] = ' ';
			/* an array that ends early: the rest is no part of it */
			if (stop && rand() % 5000 == 0)
				n -= 2;
			if (crlf)
				b[n++] = '\r';
			b[n++] = '\n';
		}
	}
	if (crlf)
		b[n++] = '\r';
	b[n++] = '\n';
	b[n] = '\0';
	return n;
}

static int
same(const struct res *a, const struct res *b, size_t esz)
{
	return a->r == b->r && a->err == b->err && a->bad == b->bad &&
	    a->used == b->used && a->lines == b->lines && a->more == b->more &&
	    a->v.count == b->v.count &&
	    (a->v.count == 0 || memcmp(a->v.data, b->v.data,
	    a->v.count * esz) == 0);
}

/*
 * shmids_values_count() of s on nthreads threads, against a, what
 * shmids_values_lines() read: where a read it all, the same count,
 * bytes, lines and more; where a stopped at a bad value, no fewer values
 * than a kept (the bad one counts as a value).
 */
static int
count_same(const char *s, size_t len, int nthreads, const struct res *a)
{
	size_t count, used, lines;
	int more;

	if (shmids_values_count(s, len, nthreads, &count, &used, &lines,
	    &more) != 0)
		return 0;
	if (a->r == -1)
		return count > a->v.count;
	return count == a->v.count && used == a->used && lines == a->lines &&
	    more == a->more;
}

/*
 * shmids_values_into() of s on nthreads threads with room for cap
 * values, against a: as a, or where cap is short of a's values (a read
 * without error), E2BIG at value cap with the cap values before it.
 */
static int
into_same(const char *s, size_t len, int type, int nthreads, size_t cap,
    const struct res *a)
{
	size_t esz = shmids_type_size(type), n = a->v.count, count, used,
	    lines;
	const char *bad = NULL;
	char *d = malloc((cap + 1) * esz + 1);
	int more, r, good;

	if (d == NULL)
		return 0;
	memset(d, 0xa5, (cap + 1) * esz);
	errno = 0;
	r = shmids_values_into(d, cap, type, s, len, nthreads, &count, &used,
	    &lines, &more, &bad);
	if (cap < n)
		good = r == -1 && errno == E2BIG && count == cap &&
		    more == 0 && bad != NULL && bad >= s && bad < s + len;
	else
		good = r == a->r && (r == 0 || errno == a->err) &&
		    bad == a->bad && used == a->used && lines == a->lines &&
		    more == a->more && count == n;
	if (count > 0 && memcmp(d, a->v.data, (count < n ? count : n) * esz))
		good = 0;
	/* nothing past the room given */
	if ((unsigned char)d[cap * esz] != 0xa5)
		good = 0;
	free(d);
	return good;
}

/*
 * shmids_values_read() of s with flags on nthreads threads against a:
 * flags 0 as a, whole; SHMIDS_VALUES_FIXED after 3 values already in
 * the caller's buffer, room for a's values exactly; SHMIDS_VALUES_COUNT
 * (v NULL) as shmids_values_count() says (count_same()).  errno is
 * unchanged where it succeeds.
 */
static int
read_same(const char *s, size_t len, int type, int nthreads, int flags,
    const struct res *a)
{
	size_t esz = shmids_type_size(type), n = a->v.count;
	struct shmids_values v;
	struct shmids_span sp;
	int r, e, good;

	memset(&v, 0, sizeof(v));
	v.type = type;
	if (flags == SHMIDS_VALUES_FIXED) {
		if ((v.data = calloc(n + 4, esz)) == NULL)
			return 0;
		v.count = 3;
		v.cap = n + 3;
	}
	errno = 12345;
	r = shmids_values_read(flags == SHMIDS_VALUES_COUNT ? NULL : &v, s,
	    len, nthreads, flags, &sp);
	e = errno;
	if (flags == SHMIDS_VALUES_COUNT) {
		if (a->r == -1)
			return r == 0 && sp.count > n;
		return r == 0 && e == 12345 && sp.count == n &&
		    sp.used == a->used && sp.lines == a->lines &&
		    sp.more == a->more && sp.bad == NULL;
	}
	good = r == a->r && (r == 0 ? e == 12345 : e == a->err) &&
	    sp.bad == a->bad && sp.used == a->used && sp.lines == a->lines &&
	    sp.more == a->more && sp.count == n;
	if (flags == SHMIDS_VALUES_FIXED)
		good = good && v.count == n + 3 && (n == 0 ||
		    memcmp((char *)v.data + 3 * esz, a->v.data, n * esz) == 0);
	else
		good = good && v.count == n && (n == 0 ||
		    memcmp(v.data, a->v.data, n * esz) == 0);
	free(v.data);
	return good;
}

/* shmids_values_read()'s own cases: one line, its flags' errors. */
static void
read_cases(void)
{
	struct shmids_values v;
	struct shmids_span sp;
	double d[4];
	int r;

	memset(&v, 0, sizeof(v));
	v.type = SHMIDS_F64;
	r = shmids_values_read(&v, "1 2 /\r\n", 7, 1, SHMIDS_VALUES_LINE, &sp);
	ok(r == 0 && v.count == 2 && sp.count == 2 && sp.more == 1 &&
	    sp.used == 7 && sp.lines == 1 && sp.bad == NULL,
	    "6: values_read SHMIDS_VALUES_LINE: one line, its \"/\"");
	r = shmids_values_read(&v, "3 x 4\n", 6, 1, SHMIDS_VALUES_LINE, &sp);
	ok(r == -1 && errno == EINVAL && v.count == 3 && sp.count == 1 &&
	    sp.bad != NULL && *sp.bad == 'x' && sp.more == 0,
	    "6: values_read SHMIDS_VALUES_LINE: a bad value, those before it "
	    "kept");
	shmids_values_free(&v);
	errno = 0;
	ok(shmids_values_read(&v, "1\n", 2, 1, SHMIDS_VALUES_LINE |
	    SHMIDS_VALUES_COUNT, &sp) == -1 && errno == EINVAL &&
	    sp.count == 0, "6: values_read: two flags are EINVAL");
	errno = 0;
	ok(shmids_values_read(&v, "1\n", 2, 1, 0x40, &sp) == -1 &&
	    errno == EINVAL, "6: values_read: an unknown flag is EINVAL");
	errno = 0;
	ok(shmids_values_read(&v, "1\n", 2, 1, 0, NULL) == -1 &&
	    errno == EINVAL, "6: values_read: sp NULL is EINVAL");
	errno = 0;
	ok(shmids_values_read(NULL, "1\n", 2, 1, SHMIDS_VALUES_LINE, &sp) ==
	    -1 && errno == EINVAL, "6: values_read: v NULL but to count is "
	    "EINVAL");
	v.data = d;
	v.cap = 2;
	v.count = 3;
	errno = 0;
	ok(shmids_values_read(&v, "1\n", 2, 1, SHMIDS_VALUES_FIXED, &sp) ==
	    -1 && errno == EINVAL && v.count == 3,
	    "6: values_read SHMIDS_VALUES_FIXED: count over cap is EINVAL");
	v.count = 1;
	v.cap = 3;
	errno = 0;
	r = shmids_values_read(&v, "5 6 7\n", 6, 1, SHMIDS_VALUES_FIXED, &sp);
	ok(r == -1 && errno == E2BIG && v.count == 3 && sp.count == 2 &&
	    d[1] == 5 && d[2] == 6 && sp.bad != NULL && *sp.bad == '7',
	    "6: values_read SHMIDS_VALUES_FIXED: E2BIG past the room, the "
	    "values before it written after v->count");
	v.type = 99;
	errno = 0;
	ok(shmids_values_read(&v, "1\n", 2, 1, SHMIDS_VALUES_FIXED, &sp) ==
	    -1 && errno == EINVAL, "6: values_read: an unknown type is EINVAL");
}

/* A job of jobs(): mark job i done once more. */
static void
job(void *arg, size_t i)
{
	((unsigned char *)arg)[i]++;
}

/*
 * shmids_par() asked for more threads than SHMIDS_THREADS_MAX (a caller
 * of shmids_values_lines() on a machine of 512 CPUs, say), with more
 * jobs than that: SHMIDS_THREADS_MAX at most, each job done once.
 */
static void
jobs(void)
{
	static const int threads[] = { SHMIDS_THREADS_MAX + 1,
	    SHMIDS_THREADS_MAX + 44, 1000, 0x7fffffff };
	unsigned char done[1024];
	size_t i, k, used;
	int good = 1;

	for (k = 0; k < 4; k++) {
		memset(done, 0, sizeof(done));
		used = shmids_par(sizeof(done), threads[k], job, done);
		for (i = 0; i < sizeof(done); i++)
			good &= done[i] == 1;
		good &= used >= 1 && used <= SHMIDS_THREADS_MAX;
	}
	ok(good, "shmids_par: more threads asked for than SHMIDS_THREADS_MAX, "
	    "1024 jobs: at most that many, each job once");
}

int
main(void)
{
	static const int types[] = { SHMIDS_F64, SHMIDS_F32, SHMIDS_I64,
	    SHMIDS_I32 };
	static const int threads[] = { 1, 2, 3, 7 };
	size_t size = (size_t)3 << 20, len;
	char *b = malloc(size + 1), what[160];
	struct res a, o;
	int round, t, k, good_all, good_count, good_into, good_read;

	if (b == NULL)
		return 1;
	srand(22);
	for (round = 0; round < 24; round++) {
		t = types[round % 4];
		len = text(b, size, round % 7 == 3 ? 0 : 3 + round % 13,
		    round % 3 == 1, round % 2 ? 3 : 0, round % 5 == 2, t,
		    round % 4 == 1 ? 20000 : 250000);
		by_line(b, len, t, &a);
		good_all = good_count = good_into = good_read = 1;
		for (k = 0; k < 4; k++) {
			good_read &= read_same(b, len, t, threads[k], 0, &a);
			good_read &= read_same(b, len, t, threads[k],
			    SHMIDS_VALUES_FIXED, &a);
			good_read &= read_same(b, len, t, threads[k],
			    SHMIDS_VALUES_COUNT, &a);
			good_count &= count_same(b, len, threads[k], &a);
			good_into &= into_same(b, len, t, threads[k],
			    a.v.count, &a);
			good_into &= into_same(b, len, t, threads[k],
			    a.v.count + 9, &a);
			good_into &= into_same(b, len, t, threads[k],
			    a.v.count / 3, &a);
			at_once(b, len, t, threads[k], &o);
			good_all &= same(&a, &o, a.v.count ? (size_t)
			    ((a.v.type == SHMIDS_F64 || a.v.type == SHMIDS_I64) ?
			    8 : 4) : 1);
			shmids_values_free(&o.v);
		}
		snprintf(what, sizeof(what), "round %d: type %d, %zu values, "
		    "r %d, %zu lines: 1, 2, 3, 7 threads as line by line",
		    round, t, a.v.count, a.r, a.lines);
		ok(good_all, what);
		snprintf(what, sizeof(what), "round %d: shmids_values_count() "
		    "on 1, 2, 3, 7 threads: %s", round, a.r == 0 ? "as read" :
		    "more than the values before the bad one");
		ok(good_count, what);
		snprintf(what, sizeof(what), "round %d: shmids_values_into() "
		    "on 1, 2, 3, 7 threads, room for all, more, a third",
		    round);
		ok(good_into, what);
		snprintf(what, sizeof(what), "6.2: round %d: "
		    "shmids_values_read() flags 0, FIXED, COUNT on 1, 2, 3, 7 "
		    "threads as the 1.x calls it replaces", round);
		ok(good_read, what);
		shmids_values_free(&a.v);
	}
	/* a first line's values alone, cut inside the line */
	len = text(b, size, 0, 0, 0, 0, SHMIDS_F64, 1);
	by_line(b, len, SHMIDS_F64, &a);
	at_once(b, len, SHMIDS_F64, 4, &o);
	ok(same(&a, &o, 8) && a.lines == 1, "one long line, 4 threads");
	shmids_values_free(&a.v);
	shmids_values_free(&o.v);
	at_once("", 0, SHMIDS_F64, 2, &o);
	ok(o.r == 0 && o.used == 0 && o.lines == 0 && o.more == 0,
	    "an empty span");
	ok(count_same("", 0, 2, &o), "an empty span counted");
	/* an empty vector (no buffer) given blanks: no NULL + 0 (UBSan) */
	at_once("   \t ", 5, SHMIDS_F64, 1, &o);
	ok(o.r == 0 && o.v.count == 0 && o.lines == 1 && o.more == 0,
	    "6.2: a blank-only line into an empty vector: no values");
	shmids_values_free(&o.v);
	at_once("1 2 /\n3 /\n", 10, SHMIDS_F64, 2, &o);
	ok(count_same("1 2 /\n3 /\n", 10, 2, &o) && o.more == 1 &&
	    o.v.count == 3, "counted: a span whose last line goes on");
	shmids_values_free(&o.v);
	/* the last line without its LF; an array that ends in the span */
	for (k = 0; k < 2; k++) {
		const char *x = k ? "1 2 /\n3 4\n5 6 /\n" : "1 2 /\n 3 /\r\n4";

		by_line(x, strlen(x), SHMIDS_F64, &a);
		good_into = into_same(x, strlen(x), SHMIDS_F64, 1, 4, &a) &&
		    into_same(x, strlen(x), SHMIDS_F64, 1, 3, &a) &&
		    into_same(x, strlen(x), SHMIDS_F64, 1, 0, &a) &&
		    into_same(x, strlen(x), SHMIDS_F64, 2, 4, &a);
		ok(good_into && a.v.count == 4 && a.more == 0, k ?
		    "into: an array that ends before the span" :
		    "into: a last line without LF");
		shmids_values_free(&a.v);
	}
	o.v.type = 99;
	errno = 0;
	ok(shmids_values_lines(&o.v, "1\n", 2, 2, &o.used, &o.lines,
	    &o.more, &o.bad) == -1 && errno == EINVAL, "unknown type: EINVAL");
	free(b);
	read_cases();
	jobs();
	printf("1..%d\n", ntest);
	return nfail != 0;
}
