/*
 * Which backend an id names, which one new segments go to, and the
 * tuning threshold they share (format-spec.md 2.5, 2.6).
 */
#define _DEFAULT_SOURCE		/* MADV_POPULATE_* on glibc */
#include <sys/mman.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"

/* A path starts with "/", a shmid with a digit: the label says where. */
const struct shmids_backend *
shmids_be_of(const char *id)
{
	return id[0] == '/' ? &shmids_file : &shmids_sysv;
}

const struct shmids_backend *
shmids_be_new(void)
{
	const char *dir = getenv("SHMIDS_DIR");

	return dir != NULL && *dir != '\0' ? &shmids_file : &shmids_sysv;
}

/*
 * Prefaulting and huge pages pay only for big segments; SHMIDS_NOTUNE
 * turns them off, for comparison (bench/ measures each lever).
 */
int
shmids_tuned(size_t size, size_t min)
{
	return size >= min && getenv("SHMIDS_NOTUNE") == NULL;
}

/*
 * Map every page of a now, in one madvise(2) (Linux 5.14), instead of a
 * fault per page.  0, or -1 with errno: EFAULT where a page could not be
 * had (a full file system), ENOMEM.  Kernels without it say EINVAL: that
 * is 0, and the faults come one by one.
 */
int
shmids_populate(const struct att *a, int rdonly)
{
#if defined(MADV_POPULATE_WRITE) && defined(MADV_POPULATE_READ)
	if (madvise(a->addr, a->size,
	    rdonly ? MADV_POPULATE_READ : MADV_POPULATE_WRITE) == -1 &&
	    errno != EINVAL)
		return -1;
#else
	(void)a;
	(void)rdonly;
#endif
	return 0;
}

/*
 * A malloc'd buffer that grows by doubling to many MiB (the values of an
 * inline array): transparent huge pages where the system gives them on
 * request (THP "madvise"), for 512 times fewer page faults; a fault cost
 * shm-import as much as its parsing.  The advice covers the buffer's
 * whole pages, which for a buffer this big is the whole mapping malloc
 * made for it: advice on part of it would split the mapping, and realloc
 * could no longer move it with mremap(2) but would copy.  errno kept.
 */
void
shmids_advise_huge(void *p, size_t len)
{
#ifdef MADV_HUGEPAGE
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = (uintptr_t)p & ~(pg - 1);
	uintptr_t e = ((uintptr_t)p + len + pg - 1) & ~(pg - 1);
	int err = errno;

	if (shmids_tuned(len, 2 * HUGE_GRAIN))
		(void)madvise((void *)a, e - a, MADV_HUGEPAGE);
	errno = err;
#else
	(void)p;
	(void)len;
#endif
}
