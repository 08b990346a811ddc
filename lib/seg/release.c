/*
 * Releasing pages of an attached segment from this process's memory
 * (format-spec.md 2.5): the resident set of a filter that works window
 * by window, not the segment.
 */
#define _DEFAULT_SOURCE		/* MADV_DONTNEED on glibc */
#include <sys/mman.h>

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include "seg.h"

/*
 * madvise(2) on [p, e) rounded to pages of pg bytes: outward for
 * ordinary pages, where dropping a neighbour's bytes loses nothing (a
 * shared mapping's data stays in the segment); inward for huge pages,
 * which the kernel drops only whole and aligned.
 */
static int
drop(uintptr_t p, uintptr_t e, uintptr_t pg, int inward)
{
	uintptr_t a = inward ? (p + pg - 1) & ~(pg - 1) : p & ~(pg - 1);
	uintptr_t z = inward ? e & ~(pg - 1) : (e + pg - 1) & ~(pg - 1);

	if (z <= a)
		return 0;
	return madvise((void *)a, z - a, MADV_DONTNEED);
}

/* shmids_release: the contract is in shmids.h. */
int
shmids_release(const void *shm, size_t off, size_t nbytes)
{
	struct seg *s;
	size_t payload;
	uintptr_t p;
	int e = errno;

	if ((s = shmids_reg_find(shm)) == NULL)
		return -1;
	payload = s->count * shmids_type_size(s->type);
	if (off > payload || nbytes > payload - off) {
		errno = EINVAL;
		return -1;
	}
	if (nbytes == 0)
		return 0;
	p = (uintptr_t)s->a.addr + SHMIDS_HEADER + off;
	/* A SHM_HUGETLB segment refuses ordinary pages: EINVAL. */
	if (drop(p, p + nbytes, (uintptr_t)sysconf(_SC_PAGESIZE), 0) == -1 &&
	    (errno != EINVAL ||
	    drop(p, p + nbytes, (uintptr_t)HUGE_GRAIN, 1) == -1))
		return -1;
	errno = e;
	return 0;
}
