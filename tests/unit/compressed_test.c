/*
 * shmids_compressed() (format-spec.md 7, compressed input): the magic
 * numbers of gzip, xz, zstd and bzip2, their edges (short, near, text
 * that begins like one), table-driven; what it names each by.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "shmids.h"
#include "tap.h"

static const struct {
	const char	*s;
	size_t		 n;
	const char	*name;		/* NULL: not compressed */
} t[] = {
	{ "\x1f\x8b\x08\0\0\0\0\0\0\x03", 10, "gzip" },
	{ "\x1f\x8b", 2, "gzip" },
	{ "\x1f", 1, NULL },			/* short of the magic */
	{ "\x1f\x8c", 2, NULL },
	{ "\xfd" "7zXZ\0\0\x04", 8, "xz" },
	{ "\xfd" "7zXZ\0", 6, "xz" },
	{ "\xfd" "7zXZ", 5, NULL },
	{ "\xfd" "7zXZ\n", 6, NULL },
	{ "\x28\xb5\x2f\xfd\x04\0", 6, "zstd" },
	{ "\x28\xb5\x2f", 3, NULL },
	{ "\x28\xb5\x2f\xfe", 4, NULL },
	{ "BZh91AY&SY", 10, "bzip2" },		/* a block: pi */
	{ "BZh1\x17\x72\x45\x38\x50\x90", 10, "bzip2" }, /* the end: sqrt(pi) */
	{ "BZh91AY&S", 9, NULL },		/* short */
	{ "BZh9 is a word\n", 15, NULL },	/* text */
	{ "BZh01AY&SY", 10, NULL },		/* no block size 0 */
	{ "BZh:1AY&SY", 10, NULL },
	{ "x 1 2\n", 6, NULL },
	{ "", 0, NULL },
};

static void
table(void)
{
	const struct shmids_compression *c;
	size_t i;
	int good = 1;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		errno = 1234;
		c = shmids_compressed(t[i].s, t[i].n);
		if ((c == NULL) != (t[i].name == NULL) || errno != 1234 ||
		    (c != NULL && strcmp(c->name, t[i].name) != 0)) {
			printf("# %zu: %s\n", i, c ? c->name : "-");
			good = 0;
		}
	}
	ok(good, "7: shmids_compressed(): gzip, xz, zstd and bzip2 by their "
	    "magic numbers, no other bytes, table-driven, errno unchanged");
	ok(shmids_compressed(NULL, 0) == NULL,
	    "7: shmids_compressed(): p may be NULL when n is 0");
}

/* The names, the commands that decompress to stdout, the suffixes. */
static void
names(void)
{
	static const char *const w[][4] = {
		{ "\x1f\x8b", "gzip", "gzip -dc", ".gz" },
		{ "\xfd" "7zXZ", "xz", "xz -dc", ".xz" },
		{ "\x28\xb5\x2f\xfd", "zstd", "zstd -dc", ".zst" },
		{ "BZh91AY&SY", "bzip2", "bzip2 -dc", ".bz2" },
	};
	const struct shmids_compression *c;
	size_t i, n;
	int good = 1;

	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		n = i == 1 ? 6 : strlen(w[i][0]);	/* xz's ends in NUL */
		c = shmids_compressed(w[i][0], n);
		if (c == NULL || strcmp(c->name, w[i][1]) != 0 ||
		    strcmp(c->command, w[i][2]) != 0 ||
		    strcmp(c->suffix, w[i][3]) != 0) {
			printf("# %s\n", w[i][1]);
			good = 0;
		}
	}
	ok(good, "7: shmids_compressed(): each named, with the command that "
	    "decompresses to stdout and its files' suffix");
	ok(shmids_compressed("\x1f\x8b", 2) == shmids_compressed("\x1f\x8b"
	    "rest", 6), "7: shmids_compressed(): the library's struct, one a "
	    "compressor");
}

int
main(void)
{
	table();
	names();
	printf("1..%d\n", ntest);
	return nfail != 0;
}
