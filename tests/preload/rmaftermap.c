/*
 * LD_PRELOAD shim for tests/file.bats: the owner of an old-form file
 * segment (format-spec.md 2.6) removes it in the instant after a reader
 * mapped it whole, before the reader could look up who owns the path
 * (after the reader's lock and its checks of the open file: the library
 * maps a reader's declared bytes once those passed; a waiting reader
 * maps the first page before, which is not this mapping, the segment
 * being larger than a page).  The first mmap(2) of more than a page of
 * the process of a descriptor whose file is at the path in
 * SHMIDS_RMMAPPED unlinks that path once mapped; nothing else is
 * touched.
 */
#define _GNU_SOURCE
#include <sys/types.h>
#include <sys/mman.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void	*mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);

void *
mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	static void *(*real)(void *, size_t, int, int, int, off_t);
	static int seen;
	char link[64], path[4096];
	const char *want = getenv("SHMIDS_RMMAPPED");
	ssize_t n;
	void *p;

	if (real == NULL) {
		void *f = dlsym(RTLD_NEXT, "mmap");

		memcpy(&real, &f, sizeof(f));	/* C99 has no cast for it */
	}
	p = real(addr, len, prot, flags, fd, off);
	if (seen || p == MAP_FAILED || fd < 0 || want == NULL ||
	    len <= (size_t)sysconf(_SC_PAGESIZE))
		return p;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	if ((n = readlink(link, path, sizeof(path) - 1)) > 0) {
		path[n] = '\0';
		if (strcmp(path, want) == 0) {
			seen = 1;
			unlink(want);
		}
	}
	return p;
}
