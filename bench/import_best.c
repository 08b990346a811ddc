/*
 * import_best: the hand-written best importer that issue 31 sets
 * shm-import's one-thread CPU against (target 31.import-cpu, run by
 * build/bench/table1 import).  It knows what shm-import must find out:
 * the file holds one array of count doubles, "key v v ... /" lines as
 * shm-expand writes them or all on one line.  So it maps the file, makes
 * the segment of the right size, parses each value with shmids_parsen()
 * straight into it, seals it and prints its reference line, as
 * shm-import does: no counting pass, no buffer, no copy.
 *
 *	import_best -n count [-P prefix] file
 *
 * The segment is named <prefix>b (prefix: $BENCH_PREFIX, else
 * "bench-<pid>-"); the caller removes it.
 */
#define _DEFAULT_SOURCE
#include <sys/mman.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <shmids.h>

static void
usage(void)
{
	fprintf(stderr, "usage: import_best -n count [-P prefix] file\n");
	exit(2);
}

/* Blanks, newlines and the " /" of a continuation, between values. */
static const char *
skip(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' ||
	    *p == '\r' || *p == '/'))
		p++;
	return p;
}

int
main(int argc, char *argv[])
{
	char name[SHMIDS_NAME_MAX + 1], label[SHMIDS_LABEL_MAX + 1];
	const char *pfx = getenv("BENCH_PREFIX"), *p, *end, *e;
	unsigned long long v;
	size_t n = 0, i, len;
	struct stat st;
	double *x;
	char *text, *shm, *ep;
	int c, fd;

	while ((c = getopt(argc, argv, "n:P:")) != -1) {
		switch (c) {
		case 'n':
			errno = 0;
			v = strtoull(optarg, &ep, 10);
			if (*optarg == '\0' || *ep != '\0' || errno != 0 ||
			    v == 0 || v > SIZE_MAX / sizeof(double))
				errx(2, "%s: bad count", optarg);
			n = (size_t)v;
			break;
		case 'P':
			pfx = optarg;
			break;
		default:
			usage();
		}
	}
	if (n == 0 || optind != argc - 1)
		usage();
	if (pfx != NULL && *pfx != '\0')
		snprintf(name, sizeof(name), "%sb", pfx);
	else
		snprintf(name, sizeof(name), "bench-%ld-b", (long)getpid());
	if ((fd = open(argv[optind], O_RDONLY)) == -1 || fstat(fd, &st) == -1)
		err(1, "%s", argv[optind]);
	if (st.st_size <= 0)
		errx(1, "%s: empty", argv[optind]);
	len = (size_t)st.st_size;
	if ((text = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0)) ==
	    MAP_FAILED)
		err(1, "mmap %s", argv[optind]);
	(void)madvise(text, len, MADV_SEQUENTIAL);
	close(fd);
	end = text + len;
	/* The key, then the values. */
	p = memchr(text, ' ', len);
	if (p == NULL)
		errx(1, "%s: no values", argv[optind]);
	if ((shm = shmids_create_array(name, 0600, SHMIDS_F64, n)) == NULL)
		err(1, "create %s", name);
	snprintf(label, sizeof(label), "%s", shm);
	x = (double *)(void *)(shm + SHMIDS_HEADER);
	for (i = 0; i < n; i++) {
		p = skip(p, end);
		if (shmids_parsen(p, (size_t)(end - p), &e, SHMIDS_F64,
		    &x[i]) == -1 || e == p) {
			shmids_remove(label);
			errx(1, "%s: value %zu: bad or missing", argv[optind],
			    i + 1);
		}
		p = e;
	}
	if (skip(p, end) != end) {
		shmids_remove(label);
		errx(1, "%s: more than %zu values", argv[optind], n);
	}
	munmap(text, len);
	if (shmids_close(shm) == -1)
		err(1, "close");
	printf("x shmids %s\n", label);
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "stdout");
	return 0;
}
