/*
 * Compressed input (format-spec.md 7): a file whose first bytes are a
 * compressor's magic number is no ASCII text of shmids(5), and a reader
 * that took it for text would copy it through, or read nothing of it.
 * The tools, Python's load() and R's shm_read() refuse it by this rule
 * and name the command that decompresses it.
 *
 * The magic numbers: gzip, RFC 1952 2.3.1 (1f 8b); xz, "The .xz File
 * Format" 2.1.1.1 (fd "7zXZ" 00); zstd, RFC 8878 3.1.1 (0xFD2FB528,
 * little-endian); bzip2, which has no standard, its sources' stream
 * header ("BZh", a block size '1' to '9') and, so that a line of text
 * that begins "BZh9" is text, the magic of the block or of the stream's
 * end that follows (31 41 59 26 53 59, the digits of pi; 17 72 45 38 50
 * 90, of sqrt(pi)).
 */
#include <string.h>

#include "text.h"

static const struct shmids_compression gzip = { "gzip", "gzip -dc", ".gz" };
static const struct shmids_compression xz = { "xz", "xz -dc", ".xz" };
static const struct shmids_compression zstd = { "zstd", "zstd -dc", ".zst" };
static const struct shmids_compression bzip2 = { "bzip2", "bzip2 -dc",
    ".bz2" };

const struct shmids_compression *
shmids_compressed(const void *p, size_t n)
{
	const unsigned char *b = p;

	if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b)
		return &gzip;
	if (n >= 6 && memcmp(b, "\xfd" "7zXZ\0", 6) == 0)
		return &xz;
	if (n >= 4 && memcmp(b, "\x28\xb5\x2f\xfd", 4) == 0)
		return &zstd;
	if (n >= 10 && memcmp(b, "BZh", 3) == 0 && b[3] >= '1' &&
	    b[3] <= '9' && (memcmp(b + 4, "\x31\x41\x59\x26\x53\x59", 6) ==
	    0 || memcmp(b + 4, "\x17\x72\x45\x38\x50\x90", 6) == 0))
		return &bzip2;
	return NULL;
}
