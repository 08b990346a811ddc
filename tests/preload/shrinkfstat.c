/*
 * LD_PRELOAD shim for tests/file.bats: the owner of a file segment
 * truncating it to nothing just after a tool's fstat(2) saw its size,
 * and before the tool reads its header.  A race that a loop hits once
 * in a hundred runs, made to happen every time.  The file is the one
 * named by SHMIDS_SHRINK (an absolute path); nothing else is touched.
 */
#define _GNU_SOURCE
#include <sys/stat.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int	fstat(int fd, struct stat *st);

int
fstat(int fd, struct stat *st)
{
	static int (*real)(int, struct stat *);
	const char *want = getenv("SHMIDS_SHRINK");
	char link[64], path[4096];
	ssize_t n;
	int r;

	if (real == NULL) {
		void *p = dlsym(RTLD_NEXT, "fstat");

		memcpy(&real, &p, sizeof(p));	/* C99 has no cast for it */
	}
	if ((r = real(fd, st)) != 0 || want == NULL || !S_ISREG(st->st_mode))
		return r;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	if ((n = readlink(link, path, sizeof(path) - 1)) > 0) {
		path[n] = '\0';
		if (strcmp(path, want) == 0 && truncate(path, 0) == -1)
			perror(path);
	}
	return r;
}
