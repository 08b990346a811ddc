/*
 * The table of backends: which one an id names, which one new segments
 * go to (the one reading of SHMIDS_DIR), and the tuning threshold they
 * share (format-spec.md 2.5, 2.6).
 */
#define _DEFAULT_SOURCE		/* MADV_POPULATE_* on glibc */
#include <sys/mman.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seg.h"

/* System V first: shmids_scan() reports in this order. */
const struct shmids_backend *const shmids_stores[SHMIDS_NSTORES + 1] = {
	&shmids_sysv, &shmids_file, NULL
};

/* The label says where: the first store whose ids look like id. */
const struct shmids_backend *
shmids_be_of(const char *id)
{
	const struct shmids_backend *const *be;

	for (be = shmids_stores; (*be)->names(id) == 0 && be[1] != NULL; be++)
		;
	return *be;
}

/* The one reading of SHMIDS_DIR: set and not empty, or none. */
const char *
shmids_dir(void)
{
	const char *dir = getenv("SHMIDS_DIR");

	return dir != NULL && *dir != '\0' ? dir : NULL;
}

const struct shmids_backend *
shmids_be_new(void)
{
	return shmids_dir() != NULL ? &shmids_file : &shmids_sysv;
}

int
shmids_remove_id(const char *id)
{
	if (id == NULL || shmids_id_check(id, strlen(id), NULL) == -1)
		return -1;
	return shmids_be_of(id)->remove(id);
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
static int
populate(void *p, size_t len, int rdonly)
{
#if defined(MADV_POPULATE_WRITE) && defined(MADV_POPULATE_READ)
	if (madvise(p, len, rdonly ? MADV_POPULATE_READ : MADV_POPULATE_WRITE)
	    == -1 && errno != EINVAL)
		return -1;
#else
	(void)p;
	(void)len;
	(void)rdonly;
#endif
	return 0;
}

/*
 * A big populate is split among shmids_threads() threads, each a run of
 * whole huge pages: a writer's kernel zeroes every new page, and one
 * thread zeroing 80 MB is most of making 10^7 doubles; a reader's maps
 * 20,000 pages (format-spec.md 2.5, 6.2).
 */
#define POP_SPLIT	((size_t)16 << 20)	/* bytes a thread takes, at least */
#define POP_MAXJOBS	64

struct pop {
	char	*addr;
	size_t	 len, per;
	int	 rdonly;
	int	 err[POP_MAXJOBS];	/* each job's errno, 0 if it did it */
};

static void
pop_job(void *arg, size_t i)
{
	struct pop *p = arg;
	size_t off = i * p->per;
	size_t len = p->len - off < p->per ? p->len - off : p->per;

	p->err[i] = populate(p->addr + off, len, p->rdonly) == -1 ? errno : 0;
}

static int
populate_par(char *addr, size_t len, int rdonly)
{
	struct pop p;
	size_t i, n;
	int t;

	t = len < 2 * POP_SPLIT ? 1 : shmids_threads();
	if (t < 2)
		return populate(addr, len, rdonly);
	n = len / POP_SPLIT;
	if (n > (size_t)t)
		n = (size_t)t;
	if (n > POP_MAXJOBS)
		n = POP_MAXJOBS;
	p.addr = addr;
	p.len = len;
	p.rdonly = rdonly;
	p.per = (len / n + HUGE_GRAIN - 1) / HUGE_GRAIN * HUGE_GRAIN;
	n = (len + p.per - 1) / p.per;
	shmids_par(n, t, pop_job, &p);
	for (i = 0; i < n; i++)
		if (p.err[i] != 0) {
			errno = p.err[i];
			return -1;
		}
	return 0;
}

int
shmids_populate(const struct att *a, int rdonly)
{
	return populate_par(a->addr, a->size, rdonly);
}

#define RUN_MIN		16	/* pages; shorter runs fault on demand */
#define LOOK		512	/* pages mincore(2) looks at in one call */

/* shmids_populate_run: the contract is in seg.h. */
void
shmids_populate_run(const struct att *a, size_t off, size_t len)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), start = off - off % pg;

	if (off >= a->size)
		return;
	if (len > a->size - off)
		len = a->size - off;
	len += off - start;
	if (len >= RUN_MIN * pg)
		(void)populate_par(a->addr + start, len, 1);
}

/*
 * A reader's populate of a sparse segment would allocate every page its
 * writer never touched (tmpfs and System V give a read fault a page of
 * its own, and keep it): only pages that are resident already are
 * populated (format-spec.md 2.3, 2.5).  For shared memory mincore(2)
 * asks the segment, not this process: a page is resident if anyone
 * wrote it.  A fully written segment is one run and one madvise(2).
 */
void
shmids_populate_resident(const struct att *a)
{
	unsigned char vec[LOOK];
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t npg = (a->size + pg - 1) / pg, i, j, n, start = 0;
	int e = errno, in = 0;

	for (i = 0; i < npg; i += n) {
		n = npg - i < LOOK ? npg - i : LOOK;
		if (mincore(a->addr + i * pg, n * pg, (void *)vec) == -1)
			break;
		for (j = 0; j < n; j++) {
			if ((vec[j] & 1) && !in)
				start = i + j;
			else if (!(vec[j] & 1) && in)
				shmids_populate_run(a, start * pg,
				    (i + j - start) * pg);
			in = vec[j] & 1;
		}
	}
	if (in && i >= npg)
		shmids_populate_run(a, start * pg, a->size - start * pg);
	errno = e;
}

/*
 * shmids_seg_huge: the contract is in seg.h.  The advice must
 * come before the first byte is written: a page faulted in 4 KiB keeps
 * its 2 MiB range in 4 KiB pages.  Where shmem_enabled is "advise" it
 * is what gives the segment 2 MiB pages; "always", "within_size" and
 * "force" need none, "never" and "deny" ignore it, and a SHM_HUGETLB
 * segment has its pages already (EINVAL, ignored).
 */
void
shmids_seg_huge(const struct att *a)
{
#ifdef MADV_HUGEPAGE
	int e = errno;

	if (shmids_tuned(a->size, HUGE_GRAIN))
		(void)madvise(a->addr, a->size, MADV_HUGEPAGE);
	errno = e;
#else
	(void)a;
#endif
}

/* shmids_advise_huge: the contract is in shmids.h. */
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
