/*
 * LD_PRELOAD shim for tests/threads-expand.bats: a program's own write(2)
 * to its standard error (a signal handler's message, which stdio does
 * not make) takes 300 ms, so that the other threads of a threaded run
 * meet what made it say so meanwhile: a file segment truncated under
 * shm-expand faults on more than one of them.  Nothing else is touched.
 */
#define _GNU_SOURCE
#include <sys/types.h>

#include <dlfcn.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

ssize_t	write(int fd, const void *buf, size_t n);

static ssize_t (*real)(int, const void *, size_t);

/* At load: dlsym(3) is no call for a signal handler. */
__attribute__((constructor)) static void
init(void)
{
	void *p = dlsym(RTLD_NEXT, "write");

	memcpy(&real, &p, sizeof(p));	/* C99 has no cast for it */
}

ssize_t
write(int fd, const void *buf, size_t n)
{
	struct timespec t = { 0, 300000000 };

	if (fd == STDERR_FILENO)
		nanosleep(&t, NULL);	/* async-signal-safe */
	return real(fd, buf, n);
}
