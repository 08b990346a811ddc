/*
 * numbench: throughput of the number conversions of lib/text/dtoa.c and
 * lib/text/strtod.c against libc (snprintf "%.17g"/"%.9g", strtod/strtof),
 * over 10^6 random finite values: uniform bit patterns and uniform in
 * [0,1).  Each figure is the median of 5 runs, in millions of values per
 * second of CPU time (so that a busy machine disturbs it less); ours and
 * libc's runs alternate, so both see the same conditions.  ratio is ours
 * over libc.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "text/number.h"

#define N	1000000
#define RUNS	5
#define W	32		/* bytes per stored string */

enum op { DTOA, PRINTF17, FTOA, PRINTF9, STRTOD, LIBCD, STRTOF, LIBCF };

static volatile uint64_t sink;
static uint64_t rng = 0x6e756d62656e6368ULL;

static uint64_t
rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One pass of op over the n values or strings; returns seconds. */
static double
pass(enum op op, const double *d, const float *f, const char *s)
{
	char buf[64];
	const char *end;
	double t0 = now(), x;
	float y;
	uint64_t acc = 0;
	size_t i;

	for (i = 0; i < N; i++) {
		switch (op) {
		case DTOA:
			acc += shmids_dtoa(d[i], buf);
			break;
		case PRINTF17:
			acc += snprintf(buf, sizeof(buf), "%.17g", d[i]);
			break;
		case FTOA:
			acc += shmids_ftoa(f[i], buf);
			break;
		case PRINTF9:
			acc += snprintf(buf, sizeof(buf), "%.9g", f[i]);
			break;
		case STRTOD:
			shmids_strtod(s + i * W, &end, &x);
			acc += (uint64_t)x;
			break;
		case LIBCD:
			x = strtod(s + i * W, NULL);
			acc += (uint64_t)x;
			break;
		case STRTOF:
			shmids_strtof(s + i * W, &end, &y);
			acc += (uint64_t)y;
			break;
		case LIBCF:
			y = strtof(s + i * W, NULL);
			acc += (uint64_t)y;
			break;
		}
		acc += (unsigned char)buf[0];
	}
	sink += acc;
	return now() - t0;
}

static int
cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of RUNS passes, as millions of values per second. */
static double
median(double *t)
{
	qsort(t, RUNS, sizeof(t[0]), cmpd);
	return N / t[RUNS / 2] / 1e6;
}

/* ours and libc's op, alternately, and one line of results. */
static void
line(const char *what, const char *set, const char *ref, enum op ours,
    enum op libc, const double *d, const float *f, const char *s)
{
	double to[RUNS], tl[RUNS], ro, rl;
	int i;

	for (i = 0; i < RUNS; i++) {
		to[i] = pass(ours, d, f, s);
		tl[i] = pass(libc, d, f, s);
	}
	ro = median(to);
	rl = median(tl);
	printf("%-8s %-13s shmids %6.2f M/s   libc %-6s %5.2f M/s   "
	    "ratio %5.1fx\n", what, set, ro, ref, rl, ro / rl);
}

static void
fill(double *d, float *f, int uniform)
{
	uint64_t b;
	uint32_t b32;
	size_t i;

	for (i = 0; i < N; i++) {
		if (uniform) {
			do
				b = rnd();
			while ((b >> 52 & 0x7ff) == 0x7ff);
			do
				b32 = (uint32_t)rnd();
			while ((b32 >> 23 & 0xff) == 0xff);
			memcpy(&d[i], &b, sizeof(b));
			memcpy(&f[i], &b32, sizeof(b32));
		} else {
			d[i] = (double)(rnd() >> 11) * 0x1p-53;
			f[i] = (float)(rnd() >> 40) * 0x1p-24f;
		}
	}
}

int
main(void)
{
	static const char *sets[] = { "uniform-bits", "[0,1)" };
	double *d = malloc(N * sizeof(*d));
	float *f = malloc(N * sizeof(*f));
	char *sd = malloc((size_t)N * W), *sf = malloc((size_t)N * W);
	char *s17 = malloc((size_t)N * W);
	size_t i;
	int u;

	if (d == NULL || f == NULL || sd == NULL || sf == NULL || s17 == NULL)
		return 1;
	printf("%d values, median of %d runs\n", N, RUNS);
	for (u = 0; u < 2; u++) {
		fill(d, f, u == 0);
		for (i = 0; i < N; i++) {
			shmids_dtoa(d[i], sd + i * W);
			shmids_ftoa(f[i], sf + i * W);
			snprintf(s17 + i * W, W, "%.17g", d[i]);
		}
		line("dtoa", sets[u], "%.17g", DTOA, PRINTF17, d, f, NULL);
		line("ftoa", sets[u], "%.9g", FTOA, PRINTF9, d, f, NULL);
		line("strtod", sets[u], "strtod", STRTOD, LIBCD, d, f, sd);
		line("strtod17", sets[u], "strtod", STRTOD, LIBCD, d, f, s17);
		line("strtof", sets[u], "strtof", STRTOF, LIBCF, d, f, sf);
	}
	printf("strtod, strtof read our shortest output; "
	    "strtod17 reads %%.17g output\n");
	free(d);
	free(f);
	free(sd);
	free(sf);
	free(s17);
	return 0;
}
