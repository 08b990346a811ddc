/*
 * LD_PRELOAD shim for tests/pages.bats (format-spec.md 2.5, Page size):
 * shmget(2) with SHM_HUGETLB fails with the errno SHMIDS_HUGEERR names
 * (ENOMEM, EPERM, EINVAL or EACCES; default ENOMEM), as where no huge
 * pages are reserved or the caller may not use them; and each such
 * shmget and each madvise(2) MADV_HUGEPAGE is written as a line to the
 * file SHMIDS_HUGELOG:
 *
 *	shmget SHM_HUGETLB page 2^<shift> size <size>
 *	madvise MADV_HUGEPAGE first page resident <0|1> len <len>
 *
 * (shift 0: the system's default huge page size).
 *
 * "resident 1" would mean the advice came after the segment's first
 * byte was written (mincore(2), which touches nothing).
 */
#define _GNU_SOURCE
#include <sys/types.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/mman.h>

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int	shmget(key_t key, size_t size, int flags);
int	madvise(void *addr, size_t len, int advice);

static void
note(const char *fmt, int a, size_t n)
{
	const char *path = getenv("SHMIDS_HUGELOG");
	FILE *fp;

	if (path == NULL || (fp = fopen(path, "a")) == NULL)
		return;
	fprintf(fp, fmt, a, n);
	fclose(fp);
}

static int
failure(void)
{
	static const struct { const char *name; int e; } tab[] = {
		{ "ENOMEM", ENOMEM }, { "EPERM", EPERM },
		{ "EINVAL", EINVAL }, { "EACCES", EACCES }
	};
	const char *s = getenv("SHMIDS_HUGEERR");
	size_t i;

	for (i = 0; s != NULL && i < sizeof(tab) / sizeof(tab[0]); i++)
		if (strcmp(s, tab[i].name) == 0)
			return tab[i].e;
	return ENOMEM;
}

int
shmget(key_t key, size_t size, int flags)
{
	int (*real)(key_t, size_t, int);

	if (flags & SHM_HUGETLB) {
		note("shmget SHM_HUGETLB page 2^%d size %zu\n",
		    (flags >> 26) & 0x3f, size);
		errno = failure();
		return -1;
	}
	*(void **)&real = dlsym(RTLD_NEXT, "shmget");
	return real(key, size, flags);
}

int
madvise(void *addr, size_t len, int advice)
{
	int (*real)(void *, size_t, int);
	unsigned char v = 0;
	int e = errno;

	if (advice == MADV_HUGEPAGE) {
		if (mincore(addr, (size_t)sysconf(_SC_PAGESIZE), &v) == -1)
			v = 0;
		note("madvise MADV_HUGEPAGE first page resident %d len %zu\n",
		    v & 1, len);
		errno = e;
	}
	*(void **)&real = dlsym(RTLD_NEXT, "madvise");
	return real(addr, len, advice);
}
