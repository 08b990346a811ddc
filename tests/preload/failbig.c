/*
 * LD_PRELOAD shim for tests/trust.bats: memory that runs out for big
 * blocks only, as under a tight ulimit -v, so that a tool fails for its
 * first buffer and not at start-up.  malloc(3) and realloc(3) of
 * SHMIDS_FAILBIG bytes or more (default 64 KiB) fail with ENOMEM.
 * glibc only (its __libc_ entry points).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>

void	*__libc_malloc(size_t n);
void	*__libc_realloc(void *p, size_t n);
void	*malloc(size_t n);
void	*realloc(void *p, size_t n);

static int
big(size_t n)
{
	const char *s = getenv("SHMIDS_FAILBIG");

	return n >= (s != NULL ? strtoul(s, NULL, 10) : 65536);
}

void *
malloc(size_t n)
{
	if (big(n)) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_malloc(n);
}

void *
realloc(void *p, size_t n)
{
	if (big(n)) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_realloc(p, n);
}
