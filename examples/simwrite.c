/*
 * simwrite: a stand-in for a simulation writing its ASCII data file, the
 * paper's use case.  It computes an n*n*n grid of doubles (the paper's
 * "typical 50^3 array") and writes it either inline or, with -s, as a
 * shmids reference: converting the program took the two shmids_put()
 * lines below.
 */
#include <err.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "shmids.h"

static void
usage(void)
{
	fprintf(stderr, "usage: simwrite [-s] [-n size] [-N name]\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	const char *name = "simdat-u";
	double *u;
	size_t n = 50, i, j, k, p = 0;
	int ch, sflag = 0;
	char *end;

	while ((ch = getopt(argc, argv, "n:N:s")) != -1)
		switch (ch) {
		case 'n':
			n = strtoul(optarg, &end, 10);
			if (*end != '\0' || n == 0 || n > 2000)
				usage();
			break;
		case 'N':
			name = optarg;
			break;
		case 's':
			sflag = 1;
			break;
		default:
			usage();
		}
	if ((u = malloc(n * n * n * sizeof(*u))) == NULL)
		err(1, NULL);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			for (k = 0; k < n; k++)
				u[p++] = sin(0.1 * (double)i) * cos(0.2 *
				    (double)j) + 0.001 * (double)k;
	printf("# simdat: velocity field written by simwrite\n");
	printf("dims %zu %zu %zu\n", n, n, n);
	printf("time 0.25\n");
	if (shmids_put(stdout, "u", SHMIDS_F64, u, n * n * n,
	    sflag ? name : NULL, 0600) == -1)
		err(1, "u");
	printf("units m/s\n");
	free(u);
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "stdout");
	return 0;
}
