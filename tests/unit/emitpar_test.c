/*
 * emitpar_test: big arrays written on several threads (format-spec.md
 * 6.2) are the same bytes as on one: shmids_emit() and
 * shmids_emit_rows() with SHMIDS_THREADS=1 against the CPUs this
 * process may use, over random values of every type and random
 * layouts (leads, columns, indents, eols, styles, separators); the
 * same errors (a full disk, a style the type lacks); and the internal
 * shmids_format_par() on more threads than CPUs (3, 7, 64), so that
 * chunks are handed out unevenly on any machine.  No segment is made.
 * TAP.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/text.h"

static int	ntest, nfail;
static uint64_t	x = 88172645463325252ull;
static size_t	nlayouts = 6;	/* a type; 2 under valgrind (make check-valgrind) */
static char	all[16];	/* SHMIDS_THREADS for all CPUs */
static int	nall;		/* that many threads */

static void
ok(int cond, const char *what)
{
	ntest++;
	if (!cond)
		nfail++;
	printf("%sok %d - %s\n", cond ? "" : "not ", ntest, what);
	fflush(stdout);
}

static uint64_t
rnd(void)
{
	x ^= x << 13, x ^= x >> 7, x ^= x << 17;
	return x;
}

/*
 * count elements of type: random bits, one in 8 an edge value (the
 * infinities, -0, a subnormal, R's NA, NaNs, the integers' extremes).
 */
static void *
values(int type, size_t count)
{
	static const uint64_t edge[] = {
		0x7ff0000000000000ull, 0xfff0000000000000ull,
		0x8000000000000000ull, 0x0000000000000001ull,
		0x7ff00000000007a2ull, 0xfff8000000000000ull,
		0x7f800000ull, 0x80000000ull, 0x7f8007a2ull, 0x00000001ull,
		0xffffffffffffffffull, 0x7fffffffffffffffull,
	};
	size_t esz = shmids_type_size(type), i;
	unsigned char *p = malloc(count * esz);
	uint64_t v;

	if (p == NULL)
		abort();
	for (i = 0; i < count; i++) {
		v = rnd();
		if (v % 8 == 0)
			v = edge[(v >> 3) % (sizeof(edge) / sizeof(edge[0]))];
		memcpy(p + i * esz, &v, esz);	/* little or big: any bits */
	}
	return p;
}

/* The output of one call, on threads as SHMIDS_THREADS says. */
struct run {
	char	*buf;
	size_t	 len;
	int	 r, e;
};

static void
emit(struct run *o, const char *threads, const struct shmids_layout *l,
    int type, const void *data, size_t count, size_t cols, int sep)
{
	FILE *fp;

	setenv("SHMIDS_THREADS", threads, 1);
	if ((fp = open_memstream(&o->buf, &o->len)) == NULL)
		abort();
	errno = 0;
	o->r = cols ? shmids_emit_rows(fp, l, type, data, count / cols, cols,
	    sep) : shmids_emit(fp, l, type, data, count);
	o->e = errno;
	fclose(fp);
}

/* Both runs alike; says where they part if not. */
static int
same(const struct run *a, const struct run *b)
{
	size_t i;

	if (a->r != b->r || (a->r == -1 && a->e != b->e)) {
		printf("# returned %d (errno %d) and %d (errno %d)\n", a->r,
		    a->e, b->r, b->e);
		return 0;
	}
	if (a->len == b->len && memcmp(a->buf, b->buf, a->len) == 0)
		return 1;
	for (i = 0; i < a->len && i < b->len && a->buf[i] == b->buf[i]; i++)
		;
	printf("# %zu and %zu bytes, first difference at byte %zu\n",
	    a->len, b->len, i);
	return 0;
}

static const char *const leads[] = {
	"", "x", "  coeff", "\tvery_long_field_name_of_forty_bytes_or_so"
};
static const char *const eols[] = { "\n", "\r\n", "" };

/* A random layout; its styles valid for every type but for bad. */
static void
layout(struct shmids_layout *l, int type)
{
	static const size_t colv[] = { 0, 1, 20, 33, 80, 81, 200, 2000000 };
	static const size_t col0v[] = { 0, 0, 3, 5000 };
	int floaty = type == SHMIDS_F64 || type == SHMIDS_F32;

	shmids_layout_init(l, leads[rnd() % 4]);
	l->col0 = col0v[rnd() % 4];
	l->indent = rnd() % 3 == 0 ? rnd() % 100 : l->col0 + l->leadlen + 1;
	l->cols = colv[rnd() % 8];
	/* a line a value under a wide indent would be too much text */
	if (l->cols <= 200 && l->indent > 8)
		l->indent = rnd() % 8;
	/* an indent of over 64 KiB: lines of 2 MB, so few of them */
	if (l->cols == 2000000 && rnd() % 2)
		l->indent = 70000;
	l->eol = eols[rnd() % 3];
	l->style[type] = (int)(rnd() % (floaty ? 3 : 2)) * (floaty ? 1 : 2);
	if (floaty && rnd() % 4 == 0)
		l->style[type] |= SHMIDS_NANPLAIN;
}

/* Random layouts of 1-D arrays of each type, one thread against all. */
static void
arrays(void)
{
	static const int types[] = { SHMIDS_F64, SHMIDS_F32, SHMIDS_I64,
	    SHMIDS_I32, SHMIDS_RAW };
	struct shmids_layout l;
	struct run a, b;
	char what[200];
	size_t count, k, t;
	void *data;
	int good;

	for (t = 0; t < 5; t++) {
		/* just over the threshold, and not a whole number of chunks */
		count = SHMIDS_PAR_MIN / shmids_type_size(types[t]) + 4097;
		data = values(types[t], count);
		good = 1;
		for (k = 0; k < nlayouts && good; k++) {
			layout(&l, types[t]);
			if (k == 0) {	/* runs and an indent over 64 KiB */
				l.cols = 2000000;
				l.indent = 70000;
			}
			emit(&a, "1", &l, types[t], data, count, 0, 0);
			emit(&b, all, &l, types[t], data, count, 0, 0);
			if (!(good = same(&a, &b) && a.r == 0))
				printf("# layout: lead '%s' col0 %zu indent "
				    "%zu cols %zu eol %zu bytes style %d\n",
				    l.lead, l.col0, l.indent, l.cols,
				    strlen(l.eol), l.style[types[t]]);
			free(a.buf);
			free(b.buf);
		}
		snprintf(what, sizeof(what), "shmids_emit: %zu %s, %zu random "
		    "layouts: the same bytes on 1 thread and %d", count,
		    shmids_type_name(types[t]), nlayouts, nall);
		ok(good, what);
		free(data);
	}
}

/* Random tables: columns, separators, leads, eols. */
static void
tables(void)
{
	static const size_t colv[] = { 1, 2, 7, 1000, 0 };
	static const int seps[] = { ' ', '\t', ',' };
	struct shmids_layout l;
	struct run a, b;
	size_t count = SHMIDS_PAR_MIN / 8 + 7000, cols, k;
	char what[200];
	void *data = values(SHMIDS_F64, count);
	int good = 1, sep = ' ';

	for (k = 0; k < nlayouts && good; k++) {
		layout(&l, SHMIDS_F64);
		cols = colv[rnd() % 5];
		if (cols == 0)
			cols = count;	/* one row */
		sep = seps[rnd() % 3];
		emit(&a, "1", &l, SHMIDS_F64, data, count, cols, sep);
		emit(&b, all, &l, SHMIDS_F64, data, count, cols, sep);
		if (!(good = same(&a, &b) && a.r == 0))
			printf("# %zu cols, sep %d, eol %zu bytes\n", cols,
			    sep, strlen(l.eol));
		free(a.buf);
		free(b.buf);
	}
	snprintf(what, sizeof(what), "shmids_emit_rows: %zu random tables of "
	    "%zu f64: the same bytes on 1 thread and %d", nlayouts, count,
	    nall);
	ok(good, what);
	free(data);
}

/* A full disk and a style the type lacks: the same return and errno. */
static void
errors(void)
{
	size_t count = SHMIDS_PAR_MIN / 8 + 1;
	void *data = values(SHMIDS_F64, count);
	struct shmids_layout l;
	int r[2], e[2], k;
	FILE *fp;

	shmids_layout_init(&l, "x");
	for (k = 0; k < 2; k++) {
		setenv("SHMIDS_THREADS", k ? all : "1", 1);
		if ((fp = fopen("/dev/full", "w")) == NULL) {
			ok(1, "# skip no /dev/full");
			free(data);
			return;
		}
		errno = 0;
		r[k] = shmids_emit(fp, &l, SHMIDS_F64, data, count);
		e[k] = errno;
		fclose(fp);
	}
	ok(r[0] == -1 && r[1] == -1 && e[0] == ENOSPC && e[1] == ENOSPC,
	    "shmids_emit to /dev/full: -1 with ENOSPC on 1 thread and many");
	for (k = 0; k < 2; k++) {
		struct run o;

		l.style[SHMIDS_F64] = 7;
		emit(&o, k ? all : "1", &l, SHMIDS_F64, data, count, 0, 0);
		r[k] = o.r;
		e[k] = o.e;
		if (o.len != 0)
			r[k] = -2;
		free(o.buf);
	}
	ok(r[0] == -1 && r[1] == -1 && e[0] == EINVAL && e[1] == EINVAL,
	    "shmids_emit with a style f64 lacks: -1 with EINVAL, nothing "
	    "written, on 1 thread and many");
	free(data);
}

/* What a put() of shmids_format_par() checks: order and each value. */
struct check {
	const double	*data;
	size_t		 next, count;
	int		 good, stopat;
};

static int
check(void *arg, const struct shmids_chunk *c)
{
	struct check *k = arg;
	char num[SHMIDS_NUM_MAX];
	const char *t = c->text;
	size_t i, n;

	if (c->first != k->next || c->n == 0)
		k->good = 0;
	for (i = 0; i < c->n && k->good; i++) {
		n = shmids_format(num, SHMIDS_F64, k->data + c->first + i, 0);
		if (t[0] != ';' || c->len[i] != n || memcmp(t + 1, num, n) != 0)
			k->good = 0;
		t += 1 + c->len[i];
	}
	k->next = c->first + c->n;
	if (k->stopat && k->next >= (size_t)k->stopat) {
		errno = EPIPE;
		return -1;
	}
	return 0;
}

/* shmids_format_par() on more threads than CPUs, uneven counts. */
static void
par(void)
{
	static const int threads[] = { 2, 3, 7, 64 };
	static const size_t counts[] = { 1, 255, 8192, 8193, 65536 * 3 + 1,
	    1000003 };
	double *data = values(SHMIDS_F64, 1000003);
	struct check k;
	size_t i, j;
	int good = 1, r;

	for (i = 0; i < 4; i++)
		for (j = 0; j < 6; j++) {
			memset(&k, 0, sizeof(k));
			k.data = data;
			k.good = 1;
			k.count = counts[j];
			r = shmids_format_par(threads[i], SHMIDS_F64, 0, ';',
			    data, counts[j], check, &k);
			if (r != 0 || !k.good || k.next != counts[j]) {
				printf("# %d threads, %zu values: %d, at %zu\n",
				    threads[i], counts[j], r, k.next);
				good = 0;
			}
		}
	ok(good, "shmids_format_par: 2, 3, 7 and 64 threads, 1 to 10^6 "
	    "values: every chunk in order, each value as shmids_format()");
	memset(&k, 0, sizeof(k));
	k.data = data;
	k.good = 1;
	k.stopat = 100000;
	errno = 0;
	r = shmids_format_par(7, SHMIDS_F64, 0, ';', data, 1000003, check,
	    &k);
	ok(r == -1 && errno == EPIPE && k.good && k.next < 200000,
	    "shmids_format_par: put() stops it, its errno kept");
	ok(shmids_format_par(1, SHMIDS_F64, 0, ';', data, 10, check, &k) ==
	    -2, "shmids_format_par: one thread is not its work (-2)");
	free(data);
}

int
main(void)
{
	if (getenv("SHMIDS_VALGRIND") != NULL)
		nlayouts = 2;
	snprintf(all, sizeof(all), "%d", SHMIDS_THREADS_MAX);
	unsetenv("SHMIDS_THREADS");
	nall = shmids_threads();
	if (nall < 2)
		printf("# one CPU: both sides take the one-thread path\n");
	arrays();
	tables();
	errors();
	par();
	printf("1..%d\n", ntest);
	return nfail != 0;
}
