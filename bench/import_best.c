/*
 * import_best: the hand-written best importer that issues 31 and 41 set
 * shm-import's one-thread CPU against (targets 31.import-cpu,
 * 41.import-cpu and 41.pipe-cpu, run by build/bench/table1 import).  It
 * knows what shm-import must find out: the text holds one array of
 * count doubles, "key v v ... /" lines as shm-expand writes them or all
 * on one line.  So it makes the segment of the right size, parses each
 * value with shmids_parsen() straight into it, seals it and prints its
 * reference line, as shm-import does: no counting pass, no buffer, no
 * copy.  A file is mapped; with -r, or without a file (standard input,
 * a pipe), it is read in blocks of 1 MiB, a value cut by a block's end
 * carried to the next.  Which of the two reads a file faster depends on
 * the machine (on a 2-vCPU VM in 2026, mapping 150 MB of page cache cost
 * a third more than reading it), so the bench runs both and takes the
 * faster.
 *
 * Nothing of the text is kept, unless -k: then every block read is
 * also written to a file of its own in $TMPDIR (/tmp if unset), removed
 * from the directory as soon as it is made, as shm-import keeps a
 * pipe's long array past 4 MiB in case it must pass through unchanged
 * (format-spec.md 7, shm-import(1) TMPDIR).  That is the floor of an
 * importer that may lose nothing and holds no more than the segment in
 * memory.
 *
 *	import_best -n count [-kr] [-P prefix] [file]
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
	fprintf(stderr, "usage: import_best -n count [-kr] [-P prefix] [file]\n");
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

/*
 * A file with a name of its own in $TMPDIR, gone from the directory at
 * once: where -k keeps the text.
 */
static int
keeper(void)
{
	const char *t = getenv("TMPDIR");
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/import_best.XXXXXX",
	    t != NULL && *t != '\0' ? t : "/tmp");
	if ((fd = mkstemp(path)) == -1)
		err(1, "%s", path);
	unlink(path);
	return fd;
}

static void
keep(int fd, const char *s, size_t n)
{
	ssize_t w;

	while (n > 0) {
		if ((w = write(fd, s, n)) == -1 && errno == EINTR)
			continue;
		if (w == -1)
			err(1, "keep");
		s += w;
		n -= (size_t)w;
	}
}

/*
 * fd's values into x, read by blocks; the values read.  kfd not -1:
 * every block read is written there too.
 */
static size_t
from_fd(int fd, const char *what, double *x, size_t n, const char *label,
    int kfd)
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
		if ((r = read(fd, buf + have, cap - have)) == -1 &&
		    errno == EINTR)
			continue;
		if (r == -1)
			err(1, "%s", what);
		if (kfd != -1)
			keep(kfd, buf + have, (size_t)r);
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
			errx(1, "%s: value %zu: bad, or more than %zu",
			    what, i + 1, n);
		}
		k = (size_t)(p - buf);
		memmove(buf, p, have - k);
		have -= k;
	}
	free(buf);
	return i;
}

/* The segment made, removed if this process exits before done(). */
static char	 made[SHMIDS_LABEL_MAX + 1];

static void
unmake(void)
{
	if (made[0] != '\0')
		(void)shmids_remove(made);
}

static void
making(const char *label)
{
	snprintf(made, sizeof(made), "%s", label);
	atexit(unmake);
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
	made[0] = '\0';
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
	int c, fd, byread = 0, kfd = -1;

	while ((c = getopt(argc, argv, "kn:P:r")) != -1) {
		switch (c) {
		case 'n':
			errno = 0;
			v = strtoull(optarg, &ep, 10);
			if (*optarg == '\0' || *ep != '\0' || errno != 0 ||
			    v == 0 || v > SIZE_MAX / sizeof(double))
				errx(2, "%s: bad count", optarg);
			n = (size_t)v;
			break;
		case 'k':
			kfd = keeper();
			break;
		case 'P':
			pfx = optarg;
			break;
		case 'r':
			byread = 1;
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
	fd = 0;
	if (optind < argc && (fd = open(argv[optind], O_RDONLY)) == -1)
		err(1, "%s", argv[optind]);
	if (optind == argc || byread || kfd != -1) {
		if ((shm = shmids_create_array(name, 0600, SHMIDS_F64, n)) ==
		    NULL)
			err(1, "create %s", name);
		snprintf(label, sizeof(label), "%s", shm);
		making(label);
		if ((i = from_fd(fd, optind < argc ? argv[optind] : "stdin",
		    (double *)(void *)(shm + SHMIDS_HEADER), n, label,
		    kfd)) != n) {
			shmids_remove(label);
			errx(1, "%s: %zu values, not %zu", optind < argc ?
			    argv[optind] : "stdin", i, n);
		}
		return done(shm, label);
	}
	if (fstat(fd, &st) == -1)
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
	making(label);
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
