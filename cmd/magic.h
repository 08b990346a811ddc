/*
 * Compressed input, told by its first bytes (issue 33): the tools read
 * ASCII, and would copy a compressed file through as text.  Which
 * bytes are a compressor's is the library's rule (shmids_compressed());
 * how a tool says so is here.
 */
#ifndef SHMIDS_MAGIC_H
#define SHMIDS_MAGIC_H

#include "shmids.h"

/*
 * The diagnostic for input that c compressed, as "prog: file:
 * compressed by gzip: decompress it first: gzip -dc file | prog"
 * (stdin: "... | gzip -dc | prog").
 */
void		 magic_refuse(const char *prog, const char *fname,
		    const struct shmids_compression *c);

#endif
