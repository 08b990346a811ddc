/*
 * Compressed input, told by its first bytes (issue 33): the tools read
 * ASCII, and would copy a compressed file through as text.
 */
#ifndef SHMIDS_MAGIC_H
#define SHMIDS_MAGIC_H

#include <stddef.h>

/*
 * The command that decompresses to stdout what begins with the n bytes
 * at p ("gzip -dc", "xz -dc", "zstd -dc", "bzip2 -dc"), or NULL where
 * they are none of those formats' magic numbers.  n may be short of a
 * whole magic number: NULL then.
 */
const char	*magic_compressed(const void *p, size_t n);
/*
 * The diagnostic for such input, as "prog: file: compressed by gzip:
 * decompress it first: gzip -dc file | prog" (stdin: "... | gzip -dc |
 * prog").
 */
void		 magic_refuse(const char *prog, const char *fname,
		    const char *how);

#endif
