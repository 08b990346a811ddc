/*
 * The System V backend.  Segment table reads prefer /proc/sysvipc/shm
 * (one read for every segment, and it needs no read permission on them);
 * elsewhere shmctl(2) SHM_STAT walks the kernel's table, as util-linux's
 * ipcs does.
 */
#define _DEFAULT_SOURCE		/* SHM_STAT, SHM_INFO, SHM_DEST on glibc */
#include <sys/types.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/mman.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#ifndef SHM_DEST
#define SHM_DEST 01000
#endif

/* struct ipc_perm names its key differently in each libc. */
#if defined(__GLIBC__)
#define PERM_KEY(p)	((p).__key)
#elif defined(__linux__)
#define PERM_KEY(p)	((p).__ipc_perm_key)
#else
#define PERM_KEY(p)	((p).key)
#endif

/*
 * Tuning (bench/ measures each lever): huge pages for big segments when
 * the administrator reserved some, and one madvise(2) call that maps the
 * whole segment instead of a page fault per 4 KiB page.  SHMIDS_NOTUNE in
 * the environment turns both off, for comparison.
 */
#define TUNE_MIN	(1u << 20)	/* bytes; below this faults are cheap */
#define HUGE_MIN	(2u << 20)

static int
tuned(size_t size, size_t min)
{
	return size >= min && getenv("SHMIDS_NOTUNE") == NULL;
}

static void
sysv_prefault(void *p, size_t size, int rdonly)
{
#if defined(MADV_POPULATE_WRITE) && defined(MADV_POPULATE_READ)
	int e = errno;

	if (!tuned(size, TUNE_MIN))
		return;
#ifdef MADV_HUGEPAGE
	if (!rdonly)
		madvise(p, size, MADV_HUGEPAGE);
#endif
	/* Older kernels say EINVAL: then the faults come one by one. */
	madvise(p, size, rdonly ? MADV_POPULATE_READ : MADV_POPULATE_WRITE);
	errno = e;
#else
	(void)p;
	(void)size;
	(void)rdonly;
#endif
}

/* Kernel words for "no such segment" become ENOENT. */
static int
noent(int e)
{
	return e == EINVAL || e == EIDRM ? ENOENT : e;
}

static unsigned
rnd16(void)
{
	static unsigned long x;

	if (x == 0)
		x = (unsigned long)getpid() * 2654435761u ^
		    (unsigned long)time(NULL) ^ (unsigned long)(size_t)&x;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return (unsigned)(x >> 8) & 0xffffu;
}

/*
 * Keys "SH" + 16 random bits mark our segments (format-spec.md 2.4); on
 * a collision another key is drawn.  ENOSPC means the table is full,
 * EEXIST only that the draw collided.
 */
static int
sysv_create(size_t size, int *id)
{
	int i;

	int flags = IPC_CREAT | IPC_EXCL | 0600;

	for (i = 0; i < 256; i++) {
		key_t key = (key_t)(KEY_PREFIX | rnd16());

#ifdef SHM_HUGETLB
		/* No pool, no permission: fall back without a word. */
		if (tuned(size, HUGE_MIN) &&
		    (*id = shmget(key, size, flags | SHM_HUGETLB)) != -1)
			return 0;
#endif
		if ((*id = shmget(key, size, flags)) != -1)
			return 0;
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

static void *
sysv_attach(int id, int rdonly)
{
	void *p = shmat(id, NULL, rdonly ? SHM_RDONLY : 0);

	if (p == (void *)-1) {
		errno = noent(errno);
		return NULL;
	}
	return p;
}

static int
sysv_detach(const void *addr)
{
	return shmdt(addr);
}

static int
sysv_setmode(int id, int mode)
{
	struct shmid_ds ds;

	if (shmctl(id, IPC_STAT, &ds) == -1)
		return -1;
	ds.shm_perm.mode = (unsigned short)mode;
	return shmctl(id, IPC_SET, &ds);
}

static int
sysv_remove(int id)
{
	if (shmctl(id, IPC_RMID, NULL) == -1) {
		errno = noent(errno);
		return -1;
	}
	return 0;
}

static void
from_ds(struct shmids_info *si, int id, const struct shmid_ds *ds)
{
	memset(si, 0, sizeof(*si));
	si->shmid = id;
	si->key = (int)PERM_KEY(ds->shm_perm);
	si->mode = ds->shm_perm.mode & 0777;
	si->removed = (ds->shm_perm.mode & SHM_DEST) != 0;
	si->uid = ds->shm_perm.uid;
	si->gid = ds->shm_perm.gid;
	si->cuid = ds->shm_perm.cuid;
	si->cgid = ds->shm_perm.cgid;
	si->size = ds->shm_segsz;
	si->nattch = (unsigned long)ds->shm_nattch;
	si->cpid = ds->shm_cpid;
	si->lpid = ds->shm_lpid;
	si->atime = ds->shm_atime;
	si->dtime = ds->shm_dtime;
	si->ctime = ds->shm_ctime;
}

/* One line of /proc/sysvipc/shm; returns 0 or -1 if it is not a record. */
static int
from_proc(struct shmids_info *si, const char *line)
{
	long key, atime, dtime, ctime;
	unsigned long size, nattch;
	unsigned perms, uid, gid, cuid, cgid;
	int id, cpid, lpid;

	if (sscanf(line, "%ld %d %o %lu %d %d %lu %u %u %u %u %ld %ld %ld",
	    &key, &id, &perms, &size, &cpid, &lpid, &nattch, &uid, &gid,
	    &cuid, &cgid, &atime, &dtime, &ctime) != 14)
		return -1;
	memset(si, 0, sizeof(*si));
	si->shmid = id;
	si->key = (int)key;
	si->mode = perms & 0777;
	si->removed = (perms & SHM_DEST) != 0;
	si->uid = (uid_t)uid;
	si->gid = (gid_t)gid;
	si->cuid = (uid_t)cuid;
	si->cgid = (gid_t)cgid;
	si->size = size;
	si->nattch = nattch;
	si->cpid = (pid_t)cpid;
	si->lpid = (pid_t)lpid;
	si->atime = (time_t)atime;
	si->dtime = (time_t)dtime;
	si->ctime = (time_t)ctime;
	return 0;
}

static int
scan_proc(FILE *fp, int (*fn)(struct shmids_info *, void *), void *arg)
{
	struct shmids_info si;
	char *line = NULL;
	size_t cap = 0;
	int r = 0;

	while (r == 0 && getline(&line, &cap, fp) != -1)
		if (from_proc(&si, line) == 0)
			r = fn(&si, arg);
	free(line);
	return r;
}

#ifdef SHM_STAT
static int
scan_stat(int (*fn)(struct shmids_info *, void *), void *arg)
{
	struct shmid_ds ds;
	struct shmids_info si;
	int max, i, id, r = 0;

	if ((max = shmctl(0, SHM_INFO, &ds)) == -1)
		return -1;
	for (i = 0; r == 0 && i <= max; i++) {
		if ((id = shmctl(i, SHM_STAT, &ds)) == -1)
			continue;
		from_ds(&si, id, &ds);
		r = fn(&si, arg);
	}
	return r;
}
#endif

/* Records come in the kernel's order; shmids_scan() sorts if it cares. */
static int
sysv_scan(int (*fn)(struct shmids_info *, void *), void *arg)
{
	FILE *fp;
	int r, e;

	if ((fp = fopen("/proc/sysvipc/shm", "r")) != NULL) {
		r = scan_proc(fp, fn, arg);
		e = errno;
		fclose(fp);
		errno = e;
		return r;
	}
#ifdef SHM_STAT
	return scan_stat(fn, arg);
#else
	return -1;
#endif
}

struct find {
	int		 id;
	struct shmids_info *si;
	int		 found;
};

static int
find_one(struct shmids_info *si, void *arg)
{
	struct find *f = arg;

	if (si->shmid != f->id)
		return 0;
	*f->si = *si;
	f->found = 1;
	return 1;
}

/*
 * IPC_STAT needs read permission; the segment table does not.  A segment
 * found only in the table comes back with err EACCES, so that callers do
 * not try to attach it (valgrind, for one, turns that shmat's EACCES into
 * EINVAL).
 */
static int
sysv_stat(int id, struct shmids_info *si)
{
	struct shmid_ds ds;
	struct find f;

	if (shmctl(id, IPC_STAT, &ds) == 0) {
		from_ds(si, id, &ds);
		return 0;
	}
	if (errno != EACCES) {
		errno = noent(errno);
		return -1;
	}
	f.id = id;
	f.si = si;
	f.found = 0;
	if (sysv_scan(find_one, &f) == -1 || !f.found) {
		errno = EACCES;
		return -1;
	}
	si->err = EACCES;	/* known, but not ours to read */
	return 0;
}

static int
sysv_isours(const struct shmids_info *si)
{
	return ((unsigned)si->key & KEY_MASK) == KEY_PREFIX;
}

const struct shmids_backend shmids_sysv = {
	sysv_create, sysv_attach, sysv_prefault, sysv_detach, sysv_setmode,
	sysv_remove, sysv_stat, sysv_scan, sysv_isours
};
