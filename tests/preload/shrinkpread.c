/*
 * LD_PRELOAD shim for tests/shm-import.bats: the owner of an input file
 * truncating it while shm-import reads it, between its first read of an
 * array's lines and the pread(2) that reads them again to pass them
 * through (cmd/lines.h).  The first pread(2) of the file named by
 * SHMIDS_SHRINK (an absolute path) at an offset below one already read
 * truncates the file to that offset first; nothing else is touched.
 * With SHMIDS_SHRINK_BELOW set (bytes), only a pread(2) below that offset
 * does: shm-import's own reading after it counted a long array's lines
 * ahead (format-spec.md 6.2) is let be, its reading an array's lines
 * again to pass them through is not.
 */
#define _GNU_SOURCE
#include <sys/types.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

ssize_t	pread(int fd, void *buf, size_t n, off_t off);

ssize_t
pread(int fd, void *buf, size_t n, off_t off)
{
	static ssize_t (*real)(int, void *, size_t, off_t);
	static off_t seen;
	static int done;
	const char *want = getenv("SHMIDS_SHRINK");
	const char *below = getenv("SHMIDS_SHRINK_BELOW");
	char link[64], path[4096];
	ssize_t len;
	int match = 0;

	if (real == NULL) {
		void *p = dlsym(RTLD_NEXT, "pread");

		memcpy(&real, &p, sizeof(p));	/* C99 has no cast for it */
	}
	if (want != NULL) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		if ((len = readlink(link, path, sizeof(path) - 1)) > 0) {
			path[len] = '\0';
			match = strcmp(path, want) == 0;
		}
	}
	if (match && !done && off < seen &&
	    (below == NULL || off < (off_t)strtoll(below, NULL, 10))) {
		done = 1;
		if (truncate(want, off) == -1)
			perror(want);
	}
	len = real(fd, buf, n, off);
	if (match && len > 0 && off + len > seen)
		seen = off + len;
	return len;
}
