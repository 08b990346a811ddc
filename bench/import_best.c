/*
 * import_best: the hand-written best against which shm-import's
 * reading of one long array is measured (issue 31.2): a small importer
 * that maps the file and parses its values with shmids_parsen() straight
 * into their place, nothing else (no line kinds, no pass-through, no
 * diagnostics but the first bad value).  The file holds one inline
 * array: a field, then values, "/" continuations anywhere, as
 * shm-expand writes it or on one line.
 *
 *	import_best [-s] [-t type] file
 *
 * Without -s the values go to a malloc'd buffer of room for the most
 * the file could hold (pages never touched cost nothing); with -s they
 * are counted first (shmids_values_count(), the library's vector
 * count: runs of bytes above the space, less the "/"s that end lines),
 * then parsed into a new System V or file segment
 * (shmids_create_array(), named "import-best"), which is removed again
 * before exit.  Prints the count on stdout.  Exit 0, or 1.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shmids.h"

/* The next token of p[0..end): its start, *n its length; NULL at the end. */
static const char *
token(const char *p, const char *end, size_t *n)
{
	const char *q;

	while (p < end && (unsigned char)*p <= ' ')
		p++;
	if (p == end)
		return NULL;
	for (q = p; q < end && (unsigned char)*q > ' '; q++)
		;
	*n = (size_t)(q - p);
	return p;
}

/* Parse (or with dst NULL count) the values of s[0..len) after its field. */
static size_t
values(const char *s, size_t len, int type, char *dst)
{
	const char *p, *end = s + len, *e;
	size_t n, count = 0, esz = shmids_type_size(type);

	if ((p = token(s, end, &n)) == NULL)
		return 0;
	for (p += n; (p = token(p, end, &n)) != NULL; p += n) {
		if (n == 1 && *p == '/')
			continue;
		if (dst != NULL && (shmids_parsen(p, n, &e, type,
		    dst + count * esz) == -1 || e != p + n))
			errx(1, "bad value at byte %zu", (size_t)(p - s));
		count++;
	}
	return count;
}

int
main(int argc, char *argv[])
{
	struct stat st;
	size_t count, esz, used, lines;
	int more;
	char *text, *buf, *h = NULL;
	int fd, ch, seg = 0, type = SHMIDS_F64;
	char label[SHMIDS_LABEL_MAX + 1];

	while ((ch = getopt(argc, argv, "st:")) != -1)
		switch (ch) {
		case 's':
			seg = 1;
			break;
		case 't':
			if ((type = shmids_type_parse(optarg)) == -1)
				errx(2, "%s: no type", optarg);
			break;
		default:
			fprintf(stderr, "usage: import_best [-s] [-t type] "
			    "file\n");
			return 2;
		}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: import_best [-s] [-t type] file\n");
		return 2;
	}
	esz = shmids_type_size(type);
	if ((fd = open(argv[optind], O_RDONLY)) == -1 || fstat(fd, &st) == -1)
		err(1, "%s", argv[optind]);
	if (st.st_size == 0)
		errx(1, "%s: empty", argv[optind]);
	text = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (text == MAP_FAILED)
		err(1, "mmap");
	(void)posix_madvise(text, (size_t)st.st_size, POSIX_MADV_SEQUENTIAL);
	if (seg) {
		/* the library's count, vector code (as shm-import's) */
		if (shmids_values_count(text, (size_t)st.st_size, 1, &count,
		    &used, &lines, &more) == -1)
			err(1, "shmids_values_count");
		count--;	/* the field */
		if ((h = shmids_create_array("import-best", 0600, type,
		    count)) == NULL)
			err(1, "shmids_create_array");
		buf = h + SHMIDS_HEADER;
	} else if ((buf = malloc(((size_t)st.st_size / 2 + 1) * esz)) == NULL)
		err(1, "malloc");
	count = values(text, (size_t)st.st_size, type, buf);
	if (seg) {
		snprintf(label, sizeof(label), "%s", shmids_label(h));
		shmids_close(h);
		if (shmids_remove(label) == -1)
			err(1, "%s", label);
	}
	printf("%zu\n", count);
	return 0;
}
