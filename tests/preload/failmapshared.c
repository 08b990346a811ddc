/*
 * LD_PRELOAD shim for tests/file.bats: a file segment that cannot be
 * mapped for want of address space, as under a tight ulimit -v, while
 * everything else still runs.  mmap(2) of a file (a descriptor) with
 * MAP_SHARED fails with ENOMEM; anonymous and private mappings (malloc,
 * the loader) are not touched.
 */
#define _GNU_SOURCE
#include <sys/types.h>
#include <sys/mman.h>

#include <dlfcn.h>
#include <errno.h>
#include <string.h>

void	*mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);

void *
mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	static void *(*real)(void *, size_t, int, int, int, off_t);

	if (real == NULL) {
		void *f = dlsym(RTLD_NEXT, "mmap");

		memcpy(&real, &f, sizeof(f));	/* C99 has no cast for it */
	}
	if (fd >= 0 && (flags & MAP_SHARED)) {
		errno = ENOMEM;
		return MAP_FAILED;
	}
	return real(addr, len, prot, flags, fd, off);
}
