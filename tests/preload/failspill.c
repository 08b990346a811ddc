/*
 * LD_PRELOAD shim for tests/threads-import.bats: the file in TMPDIR
 * that shm-import keeps a pipe's long array in (cmd/lines.c) fails to
 * be read back.  A pread(2) of a file no longer in any directory (its
 * /proc/self/fd link ends in " (deleted)", as an O_TMPFILE's or an
 * unlinked name's does) fails with EIO once SHMIDS_FAILSPILL_AFTER
 * (default 0) such reads succeeded; nothing else is touched.  With
 * SHMIDS_FAILSPILL_SPLIT set, such reads succeed instead, but in each
 * the first " 2.5 " becomes " 2 5 ": one value read back as two, the
 * text no longer the text counted.
 */
#define _GNU_SOURCE
#include <sys/types.h>

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

ssize_t	pread(int fd, void *buf, size_t n, off_t off);
ssize_t	pread64(int fd, void *buf, size_t n, off_t off);

static int
unlinked(int fd)
{
	char p[64], l[4096];
	ssize_t k;

	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	if ((k = readlink(p, l, sizeof(l) - 1)) <= 0)
		return 0;
	l[k] = '\0';
	return k > 10 && strcmp(l + k - 10, " (deleted)") == 0;
}

ssize_t
pread(int fd, void *buf, size_t n, off_t off)
{
	static ssize_t (*real)(int, void *, size_t, off_t);
	static long done;
	const char *s = getenv("SHMIDS_FAILSPILL_AFTER");
	ssize_t r;
	char *at;

	if (real == NULL) {
		void *f = dlsym(RTLD_NEXT, "pread");

		memcpy(&real, &f, sizeof(f));	/* C99 has no cast for it */
	}
	if (!unlinked(fd))
		return real(fd, buf, n, off);
	if (getenv("SHMIDS_FAILSPILL_SPLIT") != NULL) {
		if ((r = real(fd, buf, n, off)) > 0 &&
		    (at = memmem(buf, (size_t)r, " 2.5 ", 5)) != NULL)
			at[2] = ' ';
		return r;
	}
	if (done++ >= (s != NULL ? atol(s) : 0)) {
		errno = EIO;
		return -1;
	}
	return real(fd, buf, n, off);
}

ssize_t
pread64(int fd, void *buf, size_t n, off_t off)
{
	return pread(fd, buf, n, off);
}
