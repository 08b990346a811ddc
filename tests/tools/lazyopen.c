/*
 * lazyopen: shmids_open_flags() and shmids_release() as a reader sees
 * them (format-spec.md 2.5).
 *
 *	lazyopen LABEL FLAGS SECONDS
 *
 * opens LABEL with shmids_open_flags(LABEL, FLAGS, SECONDS) and prints
 * one line: the payload's bytes, then the kB this process's resident
 * set (VmRSS) grew by at the open, after one read of every byte, after
 * shmids_release() of the whole payload, and after a second read, then
 * the byte sums of the two reads (equal: a release loses nothing).
 * Before printing it checks shmids_release()'s refusals (EINVAL).  A
 * failing call prints its errno's name and exits 1; a failed check
 * exits 3; a usage error exits 2.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmids.h"

static void
usage(void)
{
	fputs("usage: lazyopen LABEL FLAGS SECONDS\n", stderr);
	exit(2);
}

static void
fail(void)
{
	static const struct {
		int		 e;
		const char	*name;
	} names[] = {
		{ EINVAL, "EINVAL" }, { ENOENT, "ENOENT" },
		{ ESTALE, "ESTALE" }, { EBADMSG, "EBADMSG" },
		{ EAGAIN, "EAGAIN" }, { EOWNERDEAD, "EOWNERDEAD" },
		{ EACCES, "EACCES" }, { ENOMEM, "ENOMEM" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == errno) {
			printf("%s\n", names[i].name);
			exit(1);
		}
	printf("errno %d\n", errno);
	exit(1);
}

/* This process's VmRSS, kB. */
static long
rss(void)
{
	char line[256];
	long kb = -1;
	FILE *fp;

	if ((fp = fopen("/proc/self/status", "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), fp) != NULL)
		if (sscanf(line, "VmRSS: %ld", &kb) == 1)
			break;
	fclose(fp);
	return kb;
}

/* Every byte read once, volatile: no read may be left out. */
static unsigned long
sum(const volatile unsigned char *p, size_t n)
{
	unsigned long s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += p[i];
	return s;
}

/* shmids_release()'s refusals: 0 if each gives EINVAL. */
static int
refusals(const char *shm, size_t n)
{
	int bad = 0;

	errno = 0;
	bad |= shmids_release(shm, n + 1, 0) != -1 || errno != EINVAL;
	errno = 0;
	bad |= shmids_release(shm, 0, n + 1) != -1 || errno != EINVAL;
	errno = 0;
	bad |= shmids_release(shm, 1, (size_t)-1) != -1 || errno != EINVAL;
	errno = 0;
	bad |= shmids_release(shm + 1, 0, 0) != -1 || errno != EINVAL;
	errno = 0;
	bad |= shmids_release(shm, n, 0) != 0 || errno != 0;
	return bad;
}

int
main(int argc, char **argv)
{
	struct shmids_array a;
	unsigned long s1, s2;
	long r0, r1, r2, r3, r4;
	size_t n;
	char *end, *shm;
	long flags;
	double secs;

	if (argc != 4)
		usage();
	flags = strtol(argv[2], &end, 0);
	if (*argv[2] == '\0' || *end != '\0')
		usage();
	secs = strtod(argv[3], &end);
	if (*argv[3] == '\0' || *end != '\0')
		usage();
	r0 = rss();
	if ((shm = shmids_open_flags(argv[1], (int)flags, secs)) == NULL)
		fail();
	r1 = rss();
	if (shmids_array(shm, &a) == -1)
		fail();
	n = a.count * shmids_type_size(a.type);
	s1 = sum(a.data, n);
	r2 = rss();
	if (refusals(shm, n) != 0) {
		printf("shmids_release: a refusal missing\n");
		return 3;
	}
	if (shmids_release(shm, 0, n) == -1)
		fail();
	r3 = rss();
	s2 = sum(a.data, n);
	r4 = rss();
	printf("%zu %ld %ld %ld %ld %lu %lu\n", n, r1 - r0, r2 - r0, r3 - r0,
	    r4 - r0, s1, s2);
	return shmids_close(shm) == -1 ? 1 : 0;
}
