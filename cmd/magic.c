/*
 * Compressed input (magic.h).  The magic numbers: gzip (RFC 1952: 1f 8b),
 * xz (fd "7zXZ" 00), zstd (28 b5 2f fd, little-endian 0xFD2FB528), bzip2
 * ("BZh", a block size 1 to 9, then a block's or the stream end's magic:
 * 31 41 59 26 53 59 or 17 72 45 38 50 90), so that no line of text that
 * begins "BZh9" is taken for one.
 */
#include <err.h>
#include <string.h>

#include "magic.h"
#include "msg.h"

const char *
magic_compressed(const void *p, size_t n)
{
	const unsigned char *b = p;

	if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b)
		return "gzip -dc";
	if (n >= 6 && memcmp(b, "\xfd" "7zXZ\0", 6) == 0)
		return "xz -dc";
	if (n >= 4 && memcmp(b, "\x28\xb5\x2f\xfd", 4) == 0)
		return "zstd -dc";
	if (n >= 10 && memcmp(b, "BZh", 3) == 0 && b[3] >= '1' &&
	    b[3] <= '9' && (memcmp(b + 4, "\x31\x41\x59\x26\x53\x59", 6) ==
	    0 || memcmp(b + 4, "\x17\x72\x45\x38\x50\x90", 6) == 0))
		return "bzip2 -dc";
	return NULL;
}

void
magic_refuse(const char *prog, const char *fname, const char *how)
{
	size_t n = strcspn(how, " ");

	if (strcmp(fname, "stdin") == 0)
		warnx("stdin: compressed by %.*s: decompress it first: ... | "
		    "%s | %s", (int)n, how, how, prog);
	else
		warnx("%s: compressed by %.*s: decompress it first: %s %s | "
		    "%s", fname, (int)n, how, how, msg_shword(fname), prog);
}
