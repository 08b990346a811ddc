/*
 * simread: the paper's "trivial range computation": read the data file
 * simwrite wrote, in either form, and print the minimum and maximum of
 * u.  shmids_get() hides which form it was; the time it prints covers
 * reading u and the range.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shmids.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
range(const char *line, FILE *fp)
{
	struct shmids_array a;
	const double *u;
	double t0 = now(), lo, hi;
	size_t i;

	if (shmids_get(line, fp, SHMIDS_F64, &a) == -1)
		err(1, "u");
	if (a.count == 0)
		errx(1, "u: no values");
	u = a.data;
	lo = hi = u[0];
	for (i = 1; i < a.count; i++) {
		if (u[i] < lo)
			lo = u[i];
		if (u[i] > hi)
			hi = u[i];
	}
	printf("u: %zu values, min %.17g, max %.17g\n", a.count, lo, hi);
	fprintf(stderr, "simread: %s form, %.4f s\n", a.count && strstr(line,
	    " shmids ") ? "shmids" : "ASCII", now() - t0);
	shmids_array_free(&a);
}

int
main(int argc, char *argv[])
{
	char *line = NULL;
	size_t cap = 0;
	FILE *fp = stdin;

	if (argc > 2) {
		fprintf(stderr, "usage: simread [file]\n");
		return 2;
	}
	if (argc == 2 && (fp = fopen(argv[1], "r")) == NULL)
		err(1, "%s", argv[1]);
	while (getline(&line, &cap, fp) != -1)
		if (strncmp(line, "u ", 2) == 0)
			range(line, fp);
	if (ferror(fp))
		err(1, "read");
	free(line);
	return 0;
}
