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
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "seg.h"

#ifndef SHM_DEST
#define SHM_DEST 01000
#endif
#if defined(SHM_HUGETLB) && !defined(SHM_HUGE_2MB)
#define SHM_HUGE_2MB	(21 << 26)	/* <linux/shm.h>: log2 of the size */
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
 * The bytes of segment id resident now, from the rss column of
 * /proc/sysvipc/shm (Linux 2.6.29); -1 where that cannot be read.
 */
static long long
resident(int id)
{
	unsigned long long rss;
	char *line = NULL;
	size_t cap = 0;
	long long r = -1;
	int n;
	FILE *fp;

	if ((fp = fopen("/proc/sysvipc/shm", "r")) == NULL)
		return -1;
	while (r == -1 && getline(&line, &cap, fp) != -1)
		if (sscanf(line, "%*d %d %*o %*u %*d %*d %*u %*u %*u %*u %*u "
		    "%*d %*d %*d %llu", &n, &rss) == 2 && n == id &&
		    rss <= (unsigned long long)LLONG_MAX)
			r = (long long)rss;
	free(line);
	fclose(fp);
	return r;
}

/*
 * A reader's mincore(2) walk costs what the segment declares: a page of
 * it per page declared.  It is worth it when at least half the declared
 * bytes are resident; a sparser segment is not populated at all, and
 * its pages fault on demand (format-spec.md 2.5).  The label's shmid
 * was checked against the segment's before this (2.3).
 */
static void
reader_populate(const struct att *a)
{
	long long rss = resident(atoi(a->addr));

	/*
	 * Every page resident (a fully written segment, the common case;
	 * rss is whole pages, so it reaches the size only when none is
	 * missing): one run, and no walk to find it.
	 */
	if (rss != -1 && (unsigned long long)rss >= a->size)
		shmids_populate_run(a, 0, a->size);
	else if (rss == -1 || (unsigned long long)rss >= a->size / 2)
		shmids_populate_resident(a);
}

static int
sysv_prefault(const struct att *a, int rdonly)
{
	int e = errno;

	if (!shmids_tuned(a->size, TUNE_MIN))
		return 0;
	if (!rdonly)
		shmids_populate(a, 0);
	else
		reader_populate(a);
	errno = e;
	return 0;
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
 * a collision another key is drawn.  The mode is MODE_MARK until the
 * header is written, the one proof of residue's a key cannot give.  ENOSPC means the table is full,
 * EEXIST only that the draw collided.
 */
static int
get(size_t size)
{
	int flags = IPC_CREAT | IPC_EXCL | MODE_MARK, i, id;

	for (i = 0; i < 256; i++) {
		key_t key = (key_t)(KEY_PREFIX | rnd16());

#ifdef SHM_HUGETLB
		/*
		 * Reserved huge pages of 2 MiB (not the default size, which
		 * may be 1 GiB), if enough are free and the caller may have
		 * them; else (ENOMEM, EPERM, EINVAL: anything) ordinary pages
		 * without a word (format-spec.md 2.5, Page size).
		 */
		if (shmids_tuned(size, HUGE_GRAIN) && (id = shmget(key, size,
		    flags | SHM_HUGETLB | SHM_HUGE_2MB)) != -1)
			return id;
#endif
		if ((id = shmget(key, size, flags)) != -1)
			return id;
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

static int
attach(int id, size_t size, int rdonly, struct att *a)
{
	void *p = shmat(id, NULL, rdonly ? SHM_RDONLY : 0);

	if (p == (void *)-1) {
		errno = noent(errno);
		return -1;
	}
	a->addr = p;
	a->size = a->maplen = size;
	a->fd = -1;
	a->locked = a->copied = 0;
	a->prot = rdonly ? PROT_READ : PROT_READ | PROT_WRITE;
	return 0;
}

/* The longest label always fits: 10 digits, a space, 64 bytes. */
static int
sysv_create(size_t size, size_t namelen, char id[SHMIDS_LABEL_MAX + 1],
    struct att *a)
{
	int shmid, e;

	(void)namelen;
	if ((shmid = get(size)) == -1)
		return -1;
	if (attach(shmid, size, 0, a) == -1) {
		e = errno;
		shmctl(shmid, IPC_RMID, NULL);
		errno = e;
		return -1;
	}
	shmids_seg_huge(a);
	snprintf(id, SHMIDS_LABEL_MAX + 1, "%d", shmid);
	return 0;
}

/*
 * The size the kernel reported before the attach is the one checked.
 * Read-only but for a stream's reader (ATT_RDWR), which registers in
 * the segment (format-spec.md 10.1).
 */
static int
sysv_attach(const struct shmids_info *si, int lock, struct att *a)
{
	return attach(si->shmid, si->size, lock != ATT_RDWR, a);
}

/*
 * shmat(2) maps the whole segment, whatever its header says; only the
 * pages the reader keeps are ever populated (sysv_prefault) or handed
 * out, as a segment's pages once touched stay until it is removed.
 */
static int
sysv_narrow(struct att *a, size_t len)
{
	a->size = len;
	return 0;
}

static void
sysv_detach(struct att *a)
{
	shmdt(a->addr);
}

static int
sysv_setmode(const struct att *a, const char *id, int mode)
{
	struct shmid_ds ds;
	int shmid = atoi(id);

	(void)a;
	/* Removed meanwhile, by a cleaner: ENOENT, not the kernel's EINVAL. */
	if (shmctl(shmid, IPC_STAT, &ds) == -1) {
		errno = noent(errno);
		return -1;
	}
	ds.shm_perm.mode = (unsigned short)mode;
	if (shmctl(shmid, IPC_SET, &ds) == -1) {
		errno = noent(errno);
		return -1;
	}
	return 0;
}

/*
 * Nothing to do: a System V segment has no lock to hand over.  Readers
 * learn the seal from the state byte and the futex (wake.c), and the
 * writer's liveness from its pid (shmids_writer_state()), not a lock.
 */
static void
sysv_sealed(const struct att *a)
{
	(void)a;
}

/*
 * Nothing to do: a System V reader holds no lock to ask for again, and
 * reads the header where it is mapped; the segment cannot change size.
 */
static int
sysv_reread(const struct shmids_info *si, struct att *a)
{
	(void)si;
	(void)a;
	return 0;
}

/*
 * The creator gone, a segment still attached may be filled by its fork
 * (format-spec.md 2.2): EINPROGRESS, which the caller treats as EAGAIN
 * without keeping its attachment, so that readers waiting together do
 * not keep each other's writer alive.  si->nattch was read before the
 * caller attached.
 */
static int
heir_state(const struct shmids_info *si)
{
	int e = shmids_writer_state(si->cpid);

	return e == EOWNERDEAD && si->nattch > 0 ? EINPROGRESS : e;
}

static int
sysv_ready(const struct shmids_info *si, const struct att *a, int state)
{
	(void)a;
	return state == 'r' ? 0 : heir_state(si);
}

static void
from_ds(struct shmids_info *si, int id, const struct shmid_ds *ds)
{
	memset(si, 0, sizeof(*si));
	si->shmid = id;
	snprintf(si->id, sizeof(si->id), "%d", id);
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
	snprintf(si->id, sizeof(si->id), "%d", id);
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
scan_proc(FILE *fp, int (*fn)(struct shmids_info *, int, void *), void *arg)
{
	struct shmids_info si;
	char *line = NULL;
	size_t cap = 0;
	int r = 0;

	while (r == 0 && getline(&line, &cap, fp) != -1)
		if (from_proc(&si, line) == 0)
			r = fn(&si, 0, arg);
	/* getline(3) says ENOMEM with -1 and no error flag: only EOF is EOF. */
	if (r == 0 && !feof(fp))
		r = -1;
	free(line);
	return r;
}

#ifdef SHM_STAT
static int
scan_stat(int (*fn)(struct shmids_info *, int, void *), void *arg)
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
		r = fn(&si, 0, arg);
	}
	return r;
}
#endif

/* Records come in the kernel's order; shmids_scan() sorts if it cares. */
static int
sysv_scan(int (*fn)(struct shmids_info *, int, void *), void *arg)
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
find_one(struct shmids_info *si, int unreadable, void *arg)
{
	struct find *f = arg;

	(void)unreadable;
	if (si->shmid != f->id)
		return 0;
	*f->si = *si;
	f->found = 1;
	return 1;
}

#ifndef SHM_STAT_ANY
#define SHM_STAT_ANY 15		/* Linux 4.17; older kernels say EINVAL */
#endif

/*
 * SHM_STAT_ANY reads one slot of the kernel's table without permission
 * checks: a cleaner's count at mode 0 costs one call, not a read of the
 * whole table (which made stale cleaning by a non-root owner quadratic).
 * The slot is the id's low bits (15, or 24 with ipcmni_extend); the id
 * it returns says whether it was ours.
 */
static int
stat_any(int id, struct shmids_info *si)
{
	static const int bits[] = { 15, 24 };
	struct shmid_ds ds;
	size_t i;

	/* Valgrind does not know SHM_STAT_ANY fills ds: start it defined. */
	memset(&ds, 0, sizeof(ds));
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (shmctl(id & ((1 << bits[i]) - 1), SHM_STAT_ANY, &ds) == id) {
			from_ds(si, id, &ds);
			return 1;	/* known, but not ours to read */
		}
	return -1;
}

/*
 * IPC_STAT needs read permission; the segment table does not.  A segment
 * found only in the table comes back as 1, so that callers do not try to
 * attach it (valgrind, for one, turns that shmat's EACCES into
 * EINVAL).
 */
static int
sysv_stat(const char *sid, struct shmids_info *si)
{
	struct shmid_ds ds;
	struct find f;
	int id = atoi(sid);

	if (shmctl(id, IPC_STAT, &ds) == 0) {
		from_ds(si, id, &ds);
		return 0;
	}
	if (errno != EACCES) {
		errno = noent(errno);
		return -1;
	}
	if (stat_any(id, si) == 1)
		return 1;
	f.id = id;
	f.si = si;
	f.found = 0;
	if (sysv_scan(find_one, &f) == 0 && f.found)
		return 1;	/* known, but not ours to read */
	/*
	 * Not in the table: removed since IPC_STAT (another cleaner, as a
	 * non-root owner races it), which now says so.
	 */
	if (shmctl(id, IPC_STAT, &ds) == 0) {
		from_ds(si, id, &ds);
		return 0;
	}
	errno = errno == EACCES ? EACCES : noent(errno);
	return -1;
}

static int
sysv_remove(const char *id)
{
	if (shmctl(atoi(id), IPC_RMID, NULL) == -1) {
		errno = noent(errno);
		return -1;
	}
	return 0;
}

/* The header copied through an attach that is at once undone. */
static ssize_t
sysv_peek(const struct shmids_info *si, char *h, size_t *size)
{
	struct att a;
	size_t n = si->size < SHMIDS_HEADER ? si->size : SHMIDS_HEADER, i;

	if (attach(si->shmid, si->size, 1, &a) == -1)
		return -1;
	for (i = 0; i < n; i++)
		h[i] = ((const volatile char *)a.addr)[i];
	shmdt(a.addr);
	*size = si->size;
	return (ssize_t)n;
}

/*
 * Is si's segment, at mode 0, idle?  A listing's glance at a header
 * (another cleaner's scan, shm-ls as root) lasts microseconds, and
 * backing off would reset the age, so a busy count is read again for
 * a few milliseconds: with non-root attaches shut out, any count of 0
 * will do.
 */
static int
idle(const struct shmids_info *si)
{
	struct timespec ts = { 0, 1000000 };
	struct shmids_info now;
	int i;

	for (i = 0; i < 10; i++) {
		if (sysv_stat(si->id, &now) == -1 || now.removed)
			return 0;
		if (now.nattch == 0)
			return 1;
		nanosleep(&ts, NULL);
	}
	return 0;
}

/*
 * Mode 0 shuts out every new attach but root's, and an attach that got
 * in before it is counted in nattch, which the segment table shows even
 * without read permission.  Both IPC_SETs move shm_ctime (section 7).
 */
static int
sysv_remove_idle(const struct shmids_info *si)
{
	struct shmid_ds ds;

	memset(&ds, 0, sizeof(ds));
	ds.shm_perm.uid = si->uid;
	ds.shm_perm.gid = si->gid;
	ds.shm_perm.mode = 0;
	if (shmctl(si->shmid, IPC_SET, &ds) == -1) {
		errno = noent(errno);
		return -1;
	}
	if (idle(si))
		return sysv_remove(si->id);
	ds.shm_perm.mode = (unsigned short)si->mode;
	if (shmctl(si->shmid, IPC_SET, &ds) == -1) {
		errno = noent(errno);
		return -1;
	}
	errno = EBUSY;
	return -1;
}

static int
sysv_isours(const struct shmids_info *si)
{
	return ((unsigned)si->key & KEY_MASK) == KEY_PREFIX;
}

/*
 * Another program's ftok(3) key may have our prefix, and its new segment
 * is all NUL too: only the mode a writer of ours gives a segment until
 * its header is written tells residue (format-spec.md 2.4).
 */
static int
sysv_residue(const struct shmids_info *si)
{
	return sysv_isours(si) && si->mode == MODE_MARK;
}

/* A shmid is digits: every id that is not a path. */
static int
sysv_names(const char *id)
{
	return id[0] != '/';
}

const struct shmids_backend shmids_sysv = {
	.store = 0,
	.names = sysv_names,
	.create = sysv_create,
	.attach = sysv_attach,
	.narrow = sysv_narrow,
	.prefault = sysv_prefault,
	.detach = sysv_detach,
	.setmode = sysv_setmode,
	.sealed = sysv_sealed,
	.reread = sysv_reread,
	.ready = sysv_ready,
	.remove = sysv_remove,
	.remove_idle = sysv_remove_idle,
	.stat = sysv_stat,
	.scan = sysv_scan,
	.isours = sysv_isours,
	.residue = sysv_residue,
	.peek = sysv_peek,
};
