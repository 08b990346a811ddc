/*
 * Compressed input refused (magic.h), in words that give the command
 * to paste.
 */
#include <err.h>
#include <string.h>

#include "magic.h"
#include "msg.h"

void
magic_refuse(const char *prog, const char *fname,
    const struct shmids_compression *c)
{
	if (strcmp(fname, "stdin") == 0)
		warnx("stdin: compressed by %s: decompress it first: ... | "
		    "%s | %s", c->name, c->command, prog);
	else
		warnx("%s: compressed by %s: decompress it first: %s %s | "
		    "%s", fname, c->name, c->command, msg_shword(fname), prog);
}
