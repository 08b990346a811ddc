/*
 * The reader of bench/fortran.sh: Table 1's reader (bench/table1) for
 * what a Fortran writer (fwriter.f90) hands over: it gets the n doubles,
 * sums them, checks the sum, and prints its own time on stderr as
 * "r SECONDS" (a segment's removal after it, outside it, as in Table 1).
 *
 *	fortran shm N	stdin: "x shmids LABEL"; opens, sums, removes
 *	fortran text N	stdin: one value a line (ES25.17), parsed by the
 *			library's parser (format-spec.md 6)
 *	fortran stream N	stdin: the bytes of the doubles
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "shmids.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* All of stdin, NUL-terminated; *len its bytes. */
static char *
slurp(size_t *len)
{
	size_t cap = 1 << 20, n = 0;
	ssize_t r;
	char *b = malloc(cap + 1), *nb;

	if (b == NULL)
		err(1, NULL);
	for (;;) {
		if (n == cap) {
			if ((nb = realloc(b, 2 * cap + 1)) == NULL)
				err(1, NULL);
			b = nb;
			cap *= 2;
		}
		if ((r = read(0, b + n, cap - n)) == -1)
			err(1, "stdin");
		if (r == 0)
			break;
		n += (size_t)r;
	}
	b[n] = '\0';
	*len = n;
	return b;
}

int
main(int argc, char *argv[])
{
	struct shmids_array a;
	char line[256], label[SHMIDS_LABEL_MAX + 1];
	const char *p, *end;
	double t0, sum = 0, want, v, *x;
	size_t n, i, len;
	char *s, *shm = NULL;

	if (argc != 3)
		errx(2, "usage: fortran shm|text|stream n");
	n = strtoul(argv[2], NULL, 10);
	want = 0.25 * (double)n * (double)(n - 1);
	t0 = now();
	if (strcmp(argv[1], "shm") == 0) {
		if (fgets(line, sizeof(line), stdin) == NULL ||
		    sscanf(line, "x shmids %75[^\n]", label) != 1)
			errx(1, "no reference line");
		if ((shm = shmids_open_flags(label, 0, 0)) == NULL ||
		    shmids_array(shm, &a) == -1 || a.count != n)
			err(1, "%s", label);
		x = a.data;
		for (i = 0; i < n; i++)
			sum += x[i];
	} else if (strcmp(argv[1], "text") == 0) {
		s = slurp(&len);
		for (p = s, i = 0; i < n; i++, p = end) {
			p += strspn(p, " \n");
			if (shmids_parse(p, &end, SHMIDS_F64, &v) == -1)
				errx(1, "value %zu: bad", i + 1);
			sum += v;
		}
		free(s);
	} else if (strcmp(argv[1], "stream") == 0) {
		s = slurp(&len);
		if (len != n * sizeof(double))
			errx(1, "%zu bytes, not %zu", len, n * sizeof(double));
		x = (double *)(void *)s;
		for (i = 0; i < n; i++)
			sum += x[i];
		free(s);
	} else
		errx(2, "usage: fortran shm|text|stream n");
	if (shm != NULL)
		shmids_close(shm);
	fprintf(stderr, "r %.6f\n", now() - t0);
	if (sum != want)
		errx(1, "sum %.17g, not %.17g", sum, want);
	if (shm != NULL && shmids_remove(label) == -1)
		err(1, "remove %s", label);
	return 0;
}
