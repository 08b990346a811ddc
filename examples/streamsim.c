/*
 * streamsim: a live simulation through one stream (format-spec.md
 * section 10; issue 43.6).  A 100 x 100 field relaxes towards its
 * boundary, heated along one edge (Jacobi steps of the heat equation);
 * each step is a message, computed straight into the slot the stream
 * lends, and the ASCII record on stdout names it by a message reference
 * line (5.1), "u shmids <label> <seq>", flushed as it goes.  One segment
 * for all the steps, where simwrite would make one a step.  The stream
 * waits for its one reader (readers 1): it loses nothing however late
 * the reader comes, and goes once the reader has read the end.
 *
 *	streamsim [-n steps] [name]
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shmids.h"

#define N	100		/* the field is N x N doubles */
#define SLOTS	8

static void
usage(void)
{
	fprintf(stderr, "usage: streamsim [-n steps] [name]\n");
	exit(2);
}

/* One Jacobi step: next from u, the top edge held at 1, the others at 0. */
static void
step(double *next, const double *u)
{
	size_t i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++) {
			if (i == 0)
				next[j] = 1;
			else if (i == N - 1 || j == 0 || j == N - 1)
				next[i * N + j] = 0;
			else
				next[i * N + j] = (u[(i - 1) * N + j] +
				    u[(i + 1) * N + j] + u[i * N + j - 1] +
				    u[i * N + j + 1]) / 4;
		}
}

/* "streamsim: what: " and the library's words for errno on label. */
static void
fail(const char *what, const char *label)
{
	char why[SHMIDS_EXPLAIN_MAX];

	shmids_explain(why, sizeof(why), label, errno);
	errx(1, "%s: %s", what, why);
}

int
main(int argc, char *argv[])
{
	struct shmids_stream *s;
	static double u[N * N];
	const char *name = "sim-u";
	long long n = 1000, k, seq;
	double *slot;
	char *end;
	int ch;

	while ((ch = getopt(argc, argv, "n:")) != -1)
		switch (ch) {
		case 'n':
			n = strtoll(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || n < 0)
				errx(2, "-n %s: a number of steps, 0 or more",
				    optarg);
			break;
		default:
			usage();
		}
	if (argc - optind > 1)
		usage();
	if (optind < argc)
		name = argv[optind];

	s = shmids_stream_create(name, 0600, SLOTS, sizeof(u), 1, 0);
	if (s == NULL)
		fail(name, NULL);
	for (k = 0; k < n; k++) {
		/* waits for ever (1e9 s) for the reader to free a slot */
		if ((slot = shmids_stream_loan(s, 1e9)) == NULL)
			fail(shmids_stream_label(s), shmids_stream_label(s));
		step(slot, u);
		memcpy(u, slot, sizeof(u));
		if ((seq = shmids_stream_publish(s, SHMIDS_F64, N, N,
		    SHMIDS_ROWMAJOR)) == -1)
			fail(shmids_stream_label(s), shmids_stream_label(s));
		printf("u shmids %s %lld\n", shmids_stream_label(s), seq);
		fflush(stdout);
	}
	shmids_stream_close(s);		/* the end: the reader sees it */
	if (ferror(stdout) || fclose(stdout) == EOF)
		err(1, "stdout");
	return 0;
}
