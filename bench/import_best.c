/*
 * import_best: the hand-written best importer that issues 31 and 41 set
 * shm-import's one-thread CPU against (targets 31.import-cpu,
 * 41.import-cpu and 41.pipe-cpu, run by build/bench/table1 import).  It
 * knows what shm-import must find out: the text holds one array of
 * count doubles, "key v v ... /" lines as shm-expand writes them or all
 * on one line.  So it makes the segment of the right size, parses each
 * value with shmids_parsen() straight into it, seals it and prints its
 * reference line, as shm-import does: no counting pass, no buffer, no
 * copy.  A file is mapped; without one, standard input (a pipe) is read
 * in blocks of 1 MiB, a value cut by a block's end carried to the next,
 * and nothing of it kept (shm-import keeps an array's text, to let it
 * pass through if a value is bad).
 *
 *	import_best -n count [-P prefix] [file]
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
	fprintf(stderr, "usage: import_best -n count [-P prefix] [file]\n");
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

/*
 * The values of text[0..len) from *i on into x (n at most); the value
 * at its end too when last, else left for the next block.  Returns
 * where it stopped, or NULL: a bad value, or more than n.
 */
static const char *
values(const char *text, size_t len, double *x, size_t n, size_t *i,
    int last)
{
	const char *p = text, *end = text + len, *e;

	/* a value the block's end may cut is the next block's */
	while (!last && end > text && (unsigned char)end[-1] > ' ')
		end--;
	for (;;) {
		if ((p = skip(p, end)) == end)
			return p;
		if (*i == n || shmids_parsen(p, (size_t)(end - p), &e,
		    SHMIDS_F64, &x[*i]) == -1 || e == p)
			return NULL;
		++*i;
		p = e;
	}
}

/* Standard input's values into x, read by blocks; the values read. */
static size_t
from_pipe(double *x, size_t n, const char *label)
{
	size_t cap = (size_t)1 << 20, have = 0, i = 0, k;
	char *buf = malloc(cap + 1);
	const char *p;
	int key = 1, eof = 0;
	ssize_t r;

	if (buf == NULL)
		err(1, "malloc");
	while (!eof) {
		if (have == cap && (buf = realloc(buf, (cap *= 2) + 1)) == NULL)
			err(1, "realloc");
		if ((r = read(0, buf + have, cap - have)) == -1 &&
		    errno == EINTR)
			continue;
		if (r == -1)
			err(1, "stdin");
		eof = r == 0;
		have += (size_t)r;
		p = buf;
		if (key) {
			/* the key, then the values */
			if ((p = memchr(buf, ' ', have)) == NULL && !eof)
				continue;
			if (p == NULL)
				break;
			key = 0;
		}
		if ((p = values(p, have - (size_t)(p - buf), x, n, &i, eof)) ==
		    NULL) {
			shmids_remove(label);
			errx(1, "stdin: value %zu: bad, or more than %zu",
			    i + 1, n);
		}
		k = (size_t)(p - buf);
		memmove(buf, p, have - k);
		have -= k;
	}
	free(buf);
	return i;
}

/* Sealed, closed, its reference line printed. */
static int
done(char *shm, const char *label)
{
	if (shmids_close(shm) == -1)
		err(1, "close");
	printf("x shmids %s\n", label);
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "stdout");
	return 0;
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
	if (n == 0 || optind < argc - 1)
		usage();
	if (pfx != NULL && *pfx != '\0')
		snprintf(name, sizeof(name), "%sb", pfx);
	else
		snprintf(name, sizeof(name), "bench-%ld-b", (long)getpid());
	if (optind == argc) {
		if ((shm = shmids_create_array(name, 0600, SHMIDS_F64, n)) ==
		    NULL)
			err(1, "create %s", name);
		snprintf(label, sizeof(label), "%s", shm);
		if ((i = from_pipe((double *)(void *)(shm + SHMIDS_HEADER), n,
		    label)) != n) {
			shmids_remove(label);
			errx(1, "stdin: %zu values, not %zu", i, n);
		}
		return done(shm, label);
	}
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
	return done(shm, label);
}
