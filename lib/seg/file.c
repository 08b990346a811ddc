/*
 * The file backend (format-spec.md 2.6): a segment is a regular file
 * "<dir>/shmids.XXXXXX" mapped MAP_SHARED.  Open file description locks
 * on the whole file stand for the writer (a write lock while filling)
 * and the attaches (read locks), and vanish with their holders.
 */
#define _GNU_SOURCE		/* F_OFD_*, O_NOATIME, statx on glibc */
#include <sys/types.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seg.h"

#ifndef O_NOATIME
#define O_NOATIME	0
#endif
#define OPENFL	(O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
#define RWFL	(O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)

/*
 * Without OFD locks nobody can make a file segment (ENOSYS); one made
 * elsewhere may still be listed, and never looks idle or ready.
 */
static int
setlock(int fd, short type)
{
#ifdef F_OFD_SETLK
	struct flock fl;

	memset(&fl, 0, sizeof(fl));
	fl.l_type = type;
	fl.l_whence = SEEK_SET;
	return fcntl(fd, F_OFD_SETLK, &fl);
#else
	(void)fd;
	(void)type;
	errno = ENOSYS;
	return -1;
#endif
}

/* The strongest lock others hold on fd's file: F_UNLCK if none. */
static int
holder(int fd)
{
#ifdef F_OFD_GETLK
	struct flock fl;

	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	if (fcntl(fd, F_OFD_GETLK, &fl) == -1)
		return -1;
	return fl.l_type;
#else
	(void)fd;
	errno = ENOSYS;
	return -1;
#endif
}

/* Map the first len bytes of a segment of size bytes. */
static int
map(int fd, size_t size, size_t len, int prot, struct att *a)
{
	void *p = mmap(NULL, len, prot, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		return -1;
	a->addr = p;
	a->size = size;
	a->maplen = len;
	a->fd = fd;
	a->locked = a->copied = 0;
	a->alloc = 0;
	a->prot = prot;
	return 0;
}

/*
 * Every byte allocated at once, where the file system can (Linux
 * fallocate(2)): a full one is ENOSPC here, and readers, who refuse a
 * file with fewer bytes allocated than it declares (format-spec.md 2.6,
 * Holes), find them all even where the kernel cannot populate (before
 * Linux 5.14) and the writer leaves pages untouched.
 */
static int
allocate(int fd, size_t size)
{
#ifdef __linux__
	if (fallocate(fd, 0, 0, (off_t)size) == -1 && errno != EOPNOTSUPP &&
	    errno != ENOSYS && errno != EINVAL)
		return -1;
#else
	(void)fd;
	(void)size;
#endif
	return 0;
}

/*
 * The file made size bytes long, allocated, its first page written.  A
 * file size limit (ulimit -f) below size makes each of these calls send
 * the calling thread SIGXFSZ, whose default action ends the program,
 * before it fails with EFBIG: the library never decides that for its
 * caller.  So SIGXFSZ is blocked around them, and one they raised is
 * taken off the thread's pending signals (sigtimedwait(2), no wait)
 * unless one was pending already, which stays for the caller; the mask
 * is restored and the caller gets -1 with errno EFBIG.  A program that
 * ignores SIGXFSZ sees the same.
 */
static int
grow(int fd, size_t size, const char zero[SHMIDS_HEADER])
{
	static const struct timespec now = { 0, 0 };
	sigset_t xfsz, old, pending;
	ssize_t n = -1;
	int rc = 0, e, was;

	sigemptyset(&xfsz);
	sigaddset(&xfsz, SIGXFSZ);
	if ((e = pthread_sigmask(SIG_BLOCK, &xfsz, &old)) != 0) {
		errno = e;
		return -1;
	}
	was = sigpending(&pending) == 0 && sigismember(&pending, SIGXFSZ);
	if (ftruncate(fd, (off_t)size) == -1 || allocate(fd, size) == -1 ||
	    (n = pwrite(fd, zero, SHMIDS_HEADER, 0)) != SHMIDS_HEADER) {
		e = n >= 0 ? ENOSPC : errno;	/* a short write: full */
		rc = -1;
		if (!was)
			while (sigtimedwait(&xfsz, NULL, &now) == -1 &&
			    errno == EINTR)
				;
		errno = e;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/*
 * mkstemp(3) picks the name "<dir>/shmids.<uid>.XXXXXX" and opens it 0600
 * with O_EXCL, the uid being the one the file gets (format-spec.md 2.6):
 * the writer's, or the one its file system gives (NFS squashing root), in
 * which case the file is made again under that uid, once.  The write
 * lock comes before anything else, so no reader can take the file for
 * one whose writer died.  The first page is written with pwrite(2): a
 * full file system is ENOSPC here rather than SIGBUS in the header.
 */
static int
file_create(size_t size, size_t namelen, char id[SHMIDS_LABEL_MAX + 1],
    struct att *a)
{
	static const char zero[SHMIDS_HEADER];
	char dir[PATH_MAX], base[32], sdir[SHMIDS_LABEL_MAX + 1];
	struct stat st;
	unsigned long uid = (unsigned long)geteuid();
	size_t n, dn, bl;
	int fd, e, k, shmid, tries = 0;

	if (realpath(shmids_dir(), dir) == NULL)
		return -1;
	n = strcmp(dir, "/") == 0 ? 0 : strlen(dir);
	if ((off_t)size < 0) {
		errno = EFBIG;
		return -1;
	}
again:
	bl = (size_t)snprintf(base, sizeof(base), "/shmids.%lu.XXXXXX", uid);
	dn = n;
	if (dn + bl + 1 + namelen > SHMIDS_LABEL_MAX) {
		/* a long directory: through its short name (2.6) */
		if ((k = shmids_short_make(n == 0 ? "/" : dir, (uid_t)uid,
		    sdir, sizeof(sdir))) == -1 ||
		    (size_t)k + bl + 1 + namelen > SHMIDS_LABEL_MAX) {
			errno = ENAMETOOLONG;
			return -1;
		}
		dn = (size_t)k;
	}
	memcpy(id, dn == n ? dir : sdir, dn);
	memcpy(id + dn, base, bl + 1);
	if (shmids_id_check(id, dn + bl, &shmid) == -1)
		return -1;		/* a blank or "." in the directory */
	if ((fd = mkstemp(id)) == -1)
		return -1;
	if (fstat(fd, &st) == 0 && (unsigned long)st.st_uid != uid &&
	    tries++ == 0) {
		unlink(id);
		close(fd);
		uid = (unsigned long)st.st_uid;
		goto again;
	}
	if (fcntl(fd, F_SETFD, FD_CLOEXEC) == -1 ||
	    setlock(fd, F_WRLCK) == -1 || grow(fd, size, zero) == -1 ||
	    map(fd, size, size, PROT_READ | PROT_WRITE, a) == -1) {
		e = errno;
		unlink(id);
		close(fd);
		errno = e;
		return -1;
	}
	return 0;
}

/*
 * A directory others may write to (a sticky /tmp) holds names their
 * owners may change at any moment, and root's cleaner must not be
 * steered by them (format-spec.md 2.6, as systemd-tmpfiles does it).
 * So a segment's file is reached relative to its directory's
 * descriptor: fstatat(2) without following a symlink first, then an
 * open only if that found a regular file (O_NOFOLLOW, and O_NONBLOCK so
 * that a FIFO swapped in meanwhile cannot make the open wait), then
 * fstat(2) of what was opened, which must be that very file.
 */

/*
 * The uid a file segment's path says made it, which decides whether a
 * link as its directory is followed (shmids_dir_open()): the one in its
 * name, or the caller's for the old form.
 */
static uid_t
maker(const char *path)
{
	unsigned long uid;
	int e = errno;

	if (shmids_id_uid(path, &uid) != 1)
		uid = (unsigned long)geteuid();
	errno = e;
	return (uid_t)uid;
}

/*
 * Open the directory of the absolute path; *base is its last name.  A
 * short name for a long directory (format-spec.md 2.6) is followed only
 * if the segment's maker (or root) decides it.
 */
static int
dir_of(const char *path, const char **base)
{
	char dir[SHMIDS_LABEL_MAX + 1];
	const char *slash = strrchr(path, '/');
	size_t n;
	int dfd;

	if (slash == NULL || (size_t)(slash - path) >= sizeof(dir)) {
		errno = ENOENT;
		return -1;
	}
	n = slash == path ? 1 : (size_t)(slash - path);
	memcpy(dir, path, n);
	dir[n] = '\0';
	*base = slash + 1;
	if ((dfd = shmids_dir_open(dir, maker(path))) == -1 &&
	    errno == ENOTDIR)
		errno = ENOENT;
	return dfd;
}

static int
same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/*
 * Open name in dfd, which fstatat found as *st, only if that is a
 * regular file, else ESTALE.  An open refused for what is there now (a
 * symlink ELOOP, a socket ENXIO, a directory EISDIR) is ESTALE too; one
 * that would wait for a lease its owner holds (EWOULDBLOCK under
 * O_NONBLOCK) is EBUSY: in use.  Neither is an error of the directory's
 * (format-spec.md 7).  What was opened is still to be checked against
 * *st (same_reg()).
 */
static int
open_name(int dfd, const char *name, int flags, const struct stat *st)
{
	int fd;

	if (!S_ISREG(st->st_mode)) {
		errno = ESTALE;
		return -1;
	}
	if ((fd = openat(dfd, name, flags)) == -1) {
		if (errno == ELOOP || errno == ENXIO || errno == EISDIR ||
		    errno == ENODEV)
			errno = ESTALE;
		else if (errno == EWOULDBLOCK)
			errno = EBUSY;
	}
	return fd;
}

/*
 * Is fst, what fstat(2) says of a descriptor open_name() opened, the
 * regular file *st it found?  Else ESTALE (a symlink, a FIFO, or a file
 * swapped in meanwhile).
 */
static int
same_reg(const struct stat *fst, const struct stat *st)
{
	if (S_ISREG(fst->st_mode) && same_file(fst, st))
		return 0;
	errno = ESTALE;
	return -1;
}

/*
 * open_name(), and the file opened must be *st, which becomes what
 * fstat(2) says of it: only a regular file, and only that one.
 */
static int
open_at(int dfd, const char *name, int flags, struct stat *st)
{
	struct stat fst;
	int fd, e;

	if ((fd = open_name(dfd, name, flags, st)) == -1)
		return -1;
	if (fstat(fd, &fst) == 0 && same_reg(&fst, st) == 0) {
		*st = fst;
		return fd;
	}
	e = errno;
	close(fd);
	errno = e;
	return -1;
}

/*
 * statx(2)'s flags for a name another user controls: no symlink
 * followed, no automount triggered, and no question put to the file
 * system behind the name (AT_STATX_DONT_SYNC: what the kernel has at
 * hand).  A FUSE daemon mounted on the name may refuse (EACCES) or
 * never answer (stopped); its mount's root is known without it.
 */
#define LOOKFL	(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_STATX_DONT_SYNC)

#ifdef STATX_BASIC_STATS
static void
from_statx(const struct statx *sx, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_dev = makedev(sx->stx_dev_major, sx->stx_dev_minor);
	st->st_ino = (ino_t)sx->stx_ino;
	st->st_mode = sx->stx_mode;
	st->st_nlink = sx->stx_nlink;
	st->st_uid = sx->stx_uid;
	st->st_gid = sx->stx_gid;
	st->st_size = (off_t)sx->stx_size;
	st->st_atime = (time_t)sx->stx_atime.tv_sec;
	st->st_mtime = (time_t)sx->stx_mtime.tv_sec;
	st->st_ctime = (time_t)sx->stx_ctime.tv_sec;
}
#endif

/*
 * What name in dfd is, never through a symlink: ENOENT if gone, EXDEV
 * for a mount point (its root on another device than dfd, or so marked):
 * nothing the library made, and nothing to open (format-spec.md 7, files
 * in a shared directory).  Without statx(2) (Linux before 4.11) the
 * file system behind a mount point is asked, and may make this wait.
 */
static int
stat_name(int dfd, const char *name, struct stat *st)
{
	struct stat dst;
#ifdef STATX_BASIC_STATS
	struct statx sx;

	if (statx(dfd, name, LOOKFL, STATX_BASIC_STATS, &sx) == 0) {
		from_statx(&sx, st);
#ifdef STATX_ATTR_MOUNT_ROOT
		/* Told (Linux 5.8): a device test could fail overlayfs. */
		if (sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) {
			if (!(sx.stx_attributes & STATX_ATTR_MOUNT_ROOT))
				return 0;
			errno = EXDEV;
			return -1;
		}
#endif
	} else if (errno != ENOSYS)
		goto fail;
	else
#endif
	if (fstatat(dfd, name, st, AT_SYMLINK_NOFOLLOW) == -1)
		goto fail;
	if (fstat(dfd, &dst) == -1)
		return -1;
	if (dst.st_dev != st->st_dev) {
		errno = EXDEV;
		return -1;
	}
	return 0;
fail:
	if (errno == ENOTDIR)
		errno = ENOENT;
	return -1;
}

/*
 * Open a segment's file to read it (flags OPENFL) or, for a stream's
 * reader, to read and write it (RWFL), as above; *st is what fstat(2)
 * says of it.  noatime: only to look (O_NOATIME, which only the owner
 * may ask for, so that listing changes nothing).
 */
static int
open_seg_as(const char *id, int flags, int noatime, struct stat *st)
{
	const char *base;
	int dfd, fd, e;

	if ((dfd = dir_of(id, &base)) == -1)
		return -1;
	if (stat_name(dfd, base, st) == -1)
		fd = -1;
	else if ((fd = open_at(dfd, base,
	    flags | (noatime ? O_NOATIME : 0), st)) == -1 &&
	    errno == EPERM && noatime)
		fd = open_at(dfd, base, flags, st);
	e = errno;
	close(dfd);
	errno = e;
	return fd;
}

static int
open_seg(const char *id, int noatime, struct stat *st)
{
	return open_seg_as(id, OPENFL, noatime, st);
}

/*
 * What a reader checks of its file, from st, fstat(2) of its descriptor
 * taken after its lock was asked for (a stream's attach asks for none;
 * format-spec.md 2.3, 2.6), in the order of 2.3; a->size and a->alloc
 * from it.  A file unlinked by then
 * (by a cleaner between our open and our lock) is ENOENT.  One owned
 * by another user than the one its name says made it is not the
 * segment; nor an old-form file of an owner this reader does not read
 * (2.6, Whose segment): decided on the open descriptor, so no swap
 * after a check of the name can fool it.  A file of more than one name
 * is refused: a link another user made at a removed segment's path is
 * not told from one its owner made (2.6, Other names).
 */
static int
judge(const char *id, const struct stat *st, struct att *a)
{
	if (st->st_nlink == 0)
		errno = ENOENT;
	else if (!shmids_reads_owner(id, st->st_uid))
		errno = ESTALE;
	else if (st->st_nlink > 1)
		errno = EMLINK;
	else if (st->st_size < SHMIDS_HEADER ||
	    (unsigned long long)st->st_size > (size_t)-1)
		errno = ESTALE;
	else {
		a->size = (size_t)st->st_size;
		a->alloc = (long long)st->st_blocks * 512;
		return 0;
	}
	return -1;
}

/*
 * The first SHMIDS_HEADER bytes of fd, or fewer if it is shorter now:
 * how many, or -1.  read(2), not a mapping: a file its owner truncates
 * meanwhile gives a short read, where a mapping would give SIGBUS.
 */
static ssize_t
read_head(int fd, char *h)
{
	ssize_t n = 0, r;

	while (n < SHMIDS_HEADER && (r = pread(fd, h + n,
	    (size_t)(SHMIDS_HEADER - n), (off_t)n)) != 0) {
		if (r == -1 && errno != EINTR)
			return -1;
		if (r > 0)
			n += r;
	}
	return n;
}

/*
 * The header copied to a->head with pread(2): a file truncated meanwhile
 * gives a short copy (then a->size, and ESTALE from the check), never
 * SIGBUS.  The copy is taken after the lock, as a mapping's bytes
 * would be read, and ordered before the payload's loads as an acquire
 * of the state would be (format-spec.md 2.2).
 */
static int
copy_head(struct att *a)
{
	ssize_t n;

	if ((n = read_head(a->fd, a->head)) == -1)
		return -1;
	if ((size_t)n < SHMIDS_HEADER)
		a->size = (size_t)n;
	a->copied = 1;
#if defined(__GNUC__)
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
#endif
	return 0;
}

/*
 * The reader's read lock asked for: 0 granted, 1 refused (a writer
 * filling, or a cleaner); -1 with errno.
 */
static int
read_lock(int fd)
{
	if (setlock(fd, F_RDLCK) == 0)
		return 0;
	return errno == EAGAIN || errno == EACCES ? 1 : -1;
}

/*
 * The first page of a->fd's a->size bytes (all of them if fewer) mapped
 * at a->addr, as a->prot: the header, and the state word a reader may
 * wait on (wake.c).
 */
static int
map_first(struct att *a)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t len = pg > 0 && a->size > (unsigned long)pg ? (size_t)pg :
	    a->size;
	void *p;

	if ((p = mmap(NULL, len, a->prot, MAP_SHARED, a->fd, 0)) ==
	    MAP_FAILED)
		return -1;
	a->addr = p;
	a->maplen = len;
	return 0;
}

/*
 * A reader's attach, which holds the descriptor and its read lock until
 * detached: one look at the file.  It is opened as open_seg() opens it,
 * its lock asked for, and then one fstat(2), after the lock, answers
 * for all that is checked of it (same_reg(), judge()).  The header is
 * copied (copy_head()), not read through a mapping: the first fault on
 * a file mapping maps the pages around it too (fault-around), which
 * costs more than the rest of the attach.  Nothing is mapped yet: the
 * file may be far larger than its header says (grown sparse by its
 * owner), and file_narrow() maps what the reader keeps; only a reader
 * refused its lock (the writer filling) maps the first page now, whose
 * state word it may wait on (wake.c).
 */
static int
reader_attach(const struct shmids_info *si, struct att *a)
{
	struct stat st, fst;
	const char *base;
	int dfd, fd, e, k;

	if ((dfd = dir_of(si->id, &base)) == -1)
		return -1;
	fd = stat_name(dfd, base, &st) == -1 ? -1 :
	    open_name(dfd, base, OPENFL, &st);
	e = errno;
	close(dfd);
	errno = e;
	if (fd == -1)
		return -1;
	memset(a, 0, sizeof(*a));
	a->fd = fd;
	a->prot = PROT_READ;
	if ((k = read_lock(fd)) == -1 || fstat(fd, &fst) == -1 ||
	    same_reg(&fst, &st) == -1 || judge(si->id, &fst, a) == -1 ||
	    copy_head(a) == -1)
		goto fail;
	a->locked = k == 0;
	if (!a->locked && map_first(a) == -1)
		goto fail;
	return 0;
fail:
	e = errno;
	close(fd);
	errno = e;
	return -1;
}

/*
 * A stream's attach (format-spec.md 10): no read lock, for a stream's
 * readers lock their entries (10.5).  ATT_RDWR, a stream's reader, maps
 * read and write: it registers in the segment (10.1); ATT_KEEP only
 * looks, with no access time.  The file is checked as a reader's
 * (judge()), on what fstat(2) says of the open descriptor, and its
 * first page mapped, which holds the header the caller reads there.
 */
static int
stream_attach(const struct shmids_info *si, int lock, struct att *a)
{
	struct stat st;
	int fd, e, rw = lock == ATT_RDWR;

	if ((fd = open_seg_as(si->id, rw ? RWFL : OPENFL, !rw, &st)) == -1)
		return -1;
	memset(a, 0, sizeof(*a));
	a->fd = fd;
	a->prot = rw ? PROT_READ | PROT_WRITE : PROT_READ;
	if (judge(si->id, &st, a) == -1 || map_first(a) == -1)
		goto fail;
	return 0;
fail:
	e = errno;
	close(fd);
	errno = e;
	return -1;
}

/* lock: ATT_READ, speedseg's one look; a stream's modes otherwise. */
static int
file_attach(const struct shmids_info *si, int lock, struct att *a)
{
	return lock == ATT_READ ? reader_attach(si, a) :
	    stream_attach(si, lock, a);
}

#ifdef __linux__
#include <sys/vfs.h>
#define ZFS_MAGIC	0x2fc12fc1	/* stores blocks of zeros as holes */
#endif
#define ALLOC_SLACK	((long long)64 << 10)	/* bytes: inline data, tails */

/*
 * The bytes fd's file has allocated, have (st_blocks of its fstat, in
 * bytes), if fewer than len less ALLOC_SLACK; else -1: allocated, or it
 * cannot be told (ZFS, which stores blocks of zeros its writer wrote as
 * holes; format-spec.md 2.6, Holes).  Space allocated beyond the end
 * (fallocate -n) counts: it was paid for.
 */
static long long
short_alloc(int fd, long long have, size_t len)
{
#ifdef __linux__
	struct statfs sf;
#endif

	if (have + ALLOC_SLACK >= (long long)len)
		return -1;
#ifdef __linux__
	if (fstatfs(fd, &sf) == 0 && (unsigned long)sf.f_type == ZFS_MAGIC)
		return -1;
#endif
	return have;
}

/* shmids_file_alloc: the contract is in seg.h. */
long long
shmids_file_alloc(const char *id, size_t len)
{
	struct stat st;
	long long h;
	int fd, e = errno;

	if ((fd = open_seg(id, 1, &st)) == -1) {
		errno = e;
		return -1;
	}
	h = short_alloc(fd, (long long)st.st_blocks * 512, len);
	close(fd);
	errno = e;
	return h;
}

/*
 * The declared bytes mapped, replacing a waiting reader's first page.
 * Fewer bytes allocated than those (at the look of file_attach() or
 * file_reread(), after the lock) was made by no writer of ours, and the
 * holes would cost memory (tmpfs: SIGBUS once full) to read: EBADMSG.
 * The file may have shrunk since, which only its owner can do
 * (format-spec.md 2.6, Caveats).  Nothing is touched: the reader's
 * pages fault in as read, or are populated (file_prefault()).
 */
static int
file_narrow(struct att *a, size_t len)
{
	void *p;

	if (short_alloc(a->fd, a->alloc, len) != -1) {
		errno = EBADMSG;
		return -1;
	}
	if (len > a->maplen) {
		if ((p = mmap(NULL, len, a->prot, MAP_SHARED, a->fd, 0)) ==
		    MAP_FAILED)
			return -1;
		if (a->maplen > 0)
			munmap(a->addr, a->maplen);
		a->addr = p;
		a->maplen = len;
	}
	a->size = len;
	return 0;
}

/*
 * The data extents of a reader's declared bytes (SEEK_DATA, SEEK_HOLE)
 * are populated, and nothing else: the declared range alone decides, so
 * space its owner allocated beyond the end of the file (fallocate(2)
 * keeping the size) fools nothing, and the walk costs what exists, not
 * what is declared.  A file system that cannot tell says the whole file
 * is data, or EINVAL: then mincore(2) decides (format-spec.md 2.5).
 */
static void
populate_data(const struct att *a)
{
	off_t end = (off_t)a->size, d, h = 0;

	while (h < end) {
		if ((d = lseek(a->fd, h, SEEK_DATA)) == -1) {
			if (errno == EINVAL && h == 0)
				shmids_populate_resident(a);
			return;		/* ENXIO: no data from h on */
		}
		if (d >= end)
			return;
		if ((h = lseek(a->fd, d, SEEK_HOLE)) == -1 || h > end)
			h = end;
		shmids_populate_run(a, (size_t)d, (size_t)(h - d));
	}
}

/*
 * Always for a writer, whatever the tuning: populating is where a full
 * file system shows up as an error (EFAULT from the kernel) instead of
 * SIGBUS in the middle of filling.  A reader populates what is there:
 * the data of its declared bytes (populate_data).
 */
static int
file_prefault(const struct att *a, int rdonly)
{
	int e = errno;

	if (!rdonly) {
		if (shmids_populate(a, 0) == -1) {
			errno = errno == EFAULT ? ENOSPC : errno;
			return -1;
		}
	} else if (a->fd >= 0 && shmids_tuned(a->size, TUNE_MIN))
		populate_data(a);
	errno = e;
	return 0;
}

static void
file_detach(struct att *a)
{
	if (a->maplen > 0)
		munmap(a->addr, a->maplen);
	if (a->fd >= 0)
		close(a->fd);
}

static int
file_setmode(const struct att *a, const char *id, int mode)
{
	(void)id;
	return fchmod(a->fd, (mode_t)mode);
}

/* Turning a write lock into a read lock is atomic for OFD locks. */
static void
file_sealed(const struct att *a)
{
	setlock(a->fd, F_RDLCK);
}

/*
 * As file_attach() looks, on the descriptor held: the lock asked for
 * again if it was refused, then one fstat(2).  A reader that waited has
 * the first page mapped (its futex word), faulted in by the wait: the
 * header is read there, as any reader reads it once narrowed, with no
 * copy.  Its owner truncating the file under it is the caveat of
 * format-spec.md 2.6 that every mapping of a file segment has.
 */
static int
file_reread(const struct shmids_info *si, struct att *a)
{
	struct stat st;
	int k = a->locked ? 0 : read_lock(a->fd);

	if (k == -1 || fstat(a->fd, &st) == -1 || judge(si->id, &st, a) == -1)
		return -1;
	if (a->maplen >= SHMIDS_HEADER)
		a->copied = 0;
	else if (copy_head(a) == -1)
		return -1;
	a->locked = k == 0;
	return 0;
}

/*
 * A reader holding its read lock knows no writer holds a write lock.  One
 * that only looks asks who holds what: a write lock means a live writer.
 * A reader's file unlinked before its lock was granted was told by
 * judge(), at the look after the lock.
 */
static int
file_ready(const struct shmids_info *si, const struct att *a, int state)
{
	struct stat st;
	int fd, h;

	if (a != NULL && a->fd >= 0) {
		if (!a->locked)
			return EAGAIN;	/* writer filling, or a cleaner */
		return state == 'r' ? 0 : EOWNERDEAD;
	}
	if (state == 'r')
		return 0;
	if ((fd = open_seg(si->id, 0, &st)) == -1)
		return EAGAIN;
	h = holder(fd);
	close(fd);
	return h == F_WRLCK || h == -1 ? EAGAIN : EOWNERDEAD;
}

/*
 * Birth time where the file system keeps one, else modification time:
 * of name in dfd (never through a symlink), or of dfd itself for "".
 */
static time_t
made(int dfd, const char *name, const struct stat *st)
{
#ifdef STATX_BTIME
	struct statx sx;
	int fl = *name == '\0' ? AT_EMPTY_PATH : LOOKFL;

	if (statx(dfd, name, fl, STATX_BTIME, &sx) == 0 &&
	    (sx.stx_mask & STATX_BTIME))
		return (time_t)sx.stx_btime.tv_sec;
#else
	(void)dfd;
	(void)name;
#endif
	return st->st_mtime;
}

/* The system part of the file name in dfd, whose path is id. */
static int
stat_at(int dfd, const char *id, const char *name, struct shmids_info *si)
{
	struct stat st;
	int fd, h;

	if (stat_name(dfd, name, &st) == -1)
		return -1;
	if (!S_ISREG(st.st_mode)) {
		errno = ESTALE;
		return -1;
	}
	memset(si, 0, sizeof(*si));
	si->shmid = -1;
	strcpy(si->id, id);
	si->mode = st.st_mode & 0777;
	si->uid = si->cuid = st.st_uid;
	si->gid = si->cgid = st.st_gid;
	si->size = (size_t)st.st_size;
	si->atime = st.st_atime;
	/* The open file's birth time, where it may be opened: that file's. */
	if ((fd = open_at(dfd, name, OPENFL, &st)) == -1) {
		if (errno != EACCES)
			return -1;
		si->ctime = made(dfd, name, &st);
		return 1;	/* known, but not ours to read */
	}
	si->ctime = made(fd, "", &st);
	h = holder(fd);
	close(fd);
	si->nattch = h != F_UNLCK;	/* unknown counts as attached */
	return 0;
}

/* id may point into si. */
static int
file_stat(const char *sid, struct shmids_info *si)
{
	char id[SHMIDS_LABEL_MAX + 1];
	const char *base;
	int dfd, r, e;

	strcpy(id, sid);
	if ((dfd = dir_of(id, &base)) == -1)
		return -1;
	r = stat_at(dfd, id, base, si);
	e = errno;
	close(dfd);
	errno = e;
	return r;
}

/* Through the directory as dir_of() opens it: a link only if its maker's. */
static int
file_remove(const char *id)
{
	const char *base;
	int dfd, r, e;

	if ((dfd = dir_of(id, &base)) == -1)
		return -1;
	r = unlinkat(dfd, base, 0);
	e = errno;
	close(dfd);
	errno = e;
	return r;
}

/*
 * A write lock needs a descriptor open for writing: of name in dfd,
 * which fstatat found as *st (open_at).  The owner of a file without its
 * write bit (mode 0444, say) lends it one for the open; the readers, who
 * only read, see no difference.
 */
static int
openrw_at(int dfd, const char *name, struct stat *st)
{
	struct stat ro_st = *st;
	int fd, ro, e;

	if ((fd = open_at(dfd, name, RWFL, st)) != -1 || errno != EACCES)
		return fd;
	if ((ro = open_at(dfd, name, OPENFL, &ro_st)) == -1)
		return -1;
	if (ro_st.st_uid == geteuid() && !(ro_st.st_mode & S_IWUSR) &&
	    fchmod(ro, (ro_st.st_mode & 07777) | S_IWUSR) == 0) {
		fd = open_at(dfd, name, RWFL, st);
		e = errno;
		fchmod(ro, ro_st.st_mode & 07777);
	} else
		e = EACCES;
	close(ro);
	errno = e;
	return fd;
}

/*
 * Is the file locked as fd, whose name in dfd is name, still si's, and
 * one that may go?  It must be the file at that name now (same inode,
 * never through a symlink), a regular file with si's owner, size and
 * creation time.  Other names it may have (a hard link another user
 * made of a segment that user may write) are not touched: only this
 * name goes, and the data stays under them (format-spec.md 2.6).
 */
static int
still_idle(int dfd, const char *name, int fd, const struct shmids_info *si)
{
	struct stat st, pst;

	if (fstat(fd, &st) == -1 || stat_name(dfd, name, &pst) == -1)
		return -1;
	if (!same_file(&st, &pst) || !S_ISREG(st.st_mode) ||
	    st.st_uid != si->uid ||
	    (size_t)st.st_size != si->size || made(fd, "", &st) != si->ctime) {
		errno = ESTALE;
		return -1;
	}
	return 0;
}

/*
 * Does name in dfd, not the file *st, hold a segment of *st's owner
 * under its own name, lid (its header's label)?  1 yes; 0 no: gone, a
 * mount point, not a regular file, another owner's, or another header;
 * -1 cannot tell (unreadable, leased, swapped meanwhile).
 */
static int
owners_segment_at(int dfd, const char *name, const char *lid,
    const struct stat *st)
{
	char h[SHMIDS_HEADER], hid[SHMIDS_LABEL_MAX + 1];
	struct stat lst;
	ssize_t n;
	int fd;

	if (stat_name(dfd, name, &lst) == -1)
		return errno == ENOENT || errno == EXDEV ? 0 : -1;
	if (same_file(&lst, st))
		return 1;
	if (!S_ISREG(lst.st_mode) || lst.st_uid != st->st_uid)
		return 0;
	if ((fd = open_at(dfd, name, OPENFL, &lst)) == -1)
		return -1;
	n = read_head(fd, h);
	close(fd);
	if (n == -1)
		return -1;
	return shmids_hdr_labelid(h, (size_t)n, hid) != 0 &&
	    strcmp(hid, lid) == 0;
}

/*
 * Is the file whose name in dfd (the directory of path id) is *st an
 * orphan: a header of ours (h, n bytes of it) whose label names another
 * name of the same directory that holds no segment of the file's owner
 * under its own name (owners_segment_at)?  That is a name someone
 * linked to a segment whose own name was since removed (and perhaps
 * taken meanwhile, to keep the link): residue of that segment, its
 * owner's to clean (format-spec.md 2.6).  Next to the owner's segment
 * it is a copy of it, or a link of it: not ours.  A label naming
 * another directory is not followed there: that directory could be a
 * user's hung mount.
 */
static int
orphan_at(int dfd, const char *id, const char *h, size_t n,
    const struct stat *st)
{
	char lid[SHMIDS_LABEL_MAX + 1];
	size_t dirlen = (size_t)(strrchr(id, '/') - id) + 1;

	if (shmids_hdr_labelid(h, n, lid) <= dirlen ||
	    memcmp(lid, id, dirlen) != 0 || strchr(lid + dirlen, '/') != NULL ||
	    strcmp(lid, id) == 0)
		return 0;
	return owners_segment_at(dfd, lid + dirlen, lid, st) == 0;
}

/*
 * The directory of path id, open, if id names a regular file there (*st,
 * never through a symlink); else -1.
 */
static int
reg_at(const char *id, struct stat *st)
{
	const char *base;
	int dfd;

	if ((dfd = dir_of(id, &base)) == -1)
		return -1;
	if (stat_name(dfd, base, st) == 0 && S_ISREG(st->st_mode))
		return dfd;
	close(dfd);
	return -1;
}

static int
file_orphan(const struct shmids_info *si, const char *h, size_t n)
{
	struct stat st;
	int dfd, r;

	if ((dfd = reg_at(si->id, &st)) == -1)
		return 0;
	r = orphan_at(dfd, si->id, h, n, &st);
	close(dfd);
	return r;
}

/*
 * The file locked as fd is under its own name (the label's path), or is
 * residue: without a label, or an orphan (orphan_at) still.  Its header
 * is read again now, under the lock: a label its owner rewrote, or its
 * own name linked back, keeps it.
 */
static int
still_residue_or_own(int dfd, const char *id, int fd, const struct stat *st)
{
	char h[SHMIDS_HEADER], lid[SHMIDS_LABEL_MAX + 1];
	ssize_t n;

	if ((n = read_head(fd, h)) == -1)
		return -1;
	if (shmids_hdr_residue(h, (size_t)n, (size_t)st->st_size) ||
	    shmids_hdr_labelid(h, (size_t)n, lid) == 0 ||
	    strcmp(lid, id) == 0 || orphan_at(dfd, id, h, (size_t)n, st))
		return 0;
	errno = ESTALE;
	return -1;
}

/*
 * Our write lock excludes the readers' read locks and a writer's: while
 * we hold it nobody attaches, and one who opened the file before its
 * unlink finds it unlinked once its lock is granted (file_ready).  What
 * is unlinked is the file locked, checked just before (still_idle).  A
 * file with another owner is not even opened for writing: that would
 * lock, or (for its owner) chmod, someone else's.
 */
static int
file_remove_idle(const struct shmids_info *si)
{
	struct stat st;
	const char *base;
	int dfd, fd = -1, r = -1, e;

	if ((dfd = dir_of(si->id, &base)) == -1)
		return -1;
	if (stat_name(dfd, base, &st) == -1)
		goto out;
	if (st.st_uid != si->uid) {
		errno = ESTALE;
		goto out;
	}
	if ((fd = openrw_at(dfd, base, &st)) == -1)
		goto out;
	if (setlock(fd, F_WRLCK) == -1) {
		if (errno == EAGAIN || errno == EACCES)
			errno = EBUSY;
	} else if (still_idle(dfd, base, fd, si) == 0 &&
	    fstat(fd, &st) == 0 &&
	    still_residue_or_own(dfd, si->id, fd, &st) == 0)
		r = unlinkat(dfd, base, 0);
out:
	e = errno;
	if (fd != -1)
		close(fd);
	close(dfd);
	errno = e;
	return r;
}

/*
 * What stops a scan is the scanner's own lack (memory, descriptors);
 * any other error of one name's (EACCES or EIO from a FUSE file system
 * mounted on it, say) is that name's: skipped, and told to the caller
 * as not examined (format-spec.md 7).
 */
static int
ours_to_fail(int e)
{
	return e == ENOMEM || e == EMFILE || e == ENFILE;
}

/*
 * A directory is looked at only to be named if it is a mount point (a
 * user's FUSE file system); any other type, a FIFO or a socket, not at
 * all: something may be mounted on it too.
 */
static int
looked_at(unsigned char type)
{
	return type == DT_REG || type == DT_DIR || type == DT_UNKNOWN;
}

/*
 * The short names owners have for the directory a scan reads (2.6, Long
 * directories), looked up once an owner.
 */
#define SHORTS	16
struct shorts {
	const char	*dir;		/* the real path */
	struct stat	 st;		/* of the directory */
	size_t		 n;
	struct {
		uid_t	 uid;
		int	 has;
		char	 path[SHMIDS_LABEL_MAX + 1];
	}		 v[SHORTS];
};

/* owner's short name for the directory, or NULL. */
static const char *
short_of(struct shorts *sh, uid_t owner)
{
	static char one[SHMIDS_LABEL_MAX + 1];
	size_t i;

	for (i = 0; i < sh->n; i++)
		if (sh->v[i].uid == owner)
			return sh->v[i].has ? sh->v[i].path : NULL;
	if (sh->n == SHORTS)	/* more owners than kept: looked up again */
		return shmids_short_find(sh->dir, &sh->st, owner, one,
		    sizeof(one)) ? one : NULL;
	sh->v[i].uid = owner;
	sh->v[i].has = shmids_short_find(sh->dir, &sh->st, owner,
	    sh->v[i].path, sizeof(sh->v[i].path));
	sh->n++;
	return sh->v[i].has ? sh->v[i].path : NULL;
}

/*
 * The id of name in the directory dfd (real path dir, n bytes) a scan
 * reads, into path: its direct path, or its path through its owner's
 * short name for the directory when its header's label goes through it
 * or the direct path is too long for an id (format-spec.md 2.6, Long
 * directories).  0, or -1 if nothing can name it.
 */
static int
scan_id(int dfd, const char *dir, size_t n, const char *name,
    struct shorts *sh, char path[SHMIDS_LABEL_MAX + 1])
{
	char h[SHMIDS_HEADER], lid[SHMIDS_LABEL_MAX + 1];
	const char *sp = NULL;
	struct stat st;
	size_t len = strlen(name), sl = 0;
	ssize_t hn;
	int fits = n + 1 + len <= SHMIDS_LABEL_MAX - 2, fd, through = 0;

	if (stat_name(dfd, name, &st) == 0 && S_ISREG(st.st_mode) &&
	    (sp = short_of(sh, st.st_uid)) != NULL &&
	    (sl = strlen(sp)) + 1 + len <= SHMIDS_LABEL_MAX - 2) {
		through = !fits;
		if (fits && ((fd = open_at(dfd, name, OPENFL | O_NOATIME,
		    &st)) != -1 || (errno == EPERM &&
		    (fd = open_at(dfd, name, OPENFL, &st)) != -1))) {
			hn = read_head(fd, h);
			close(fd);
			through = hn > 0 && shmids_hdr_labelid(h, (size_t)hn,
			    lid) > sl && memcmp(lid, sp, sl) == 0 &&
			    lid[sl] == '/' && strchr(lid + sl + 1, '/') == NULL;
		}
	}
	if (through) {
		memcpy(path, sp, sl);
		path[sl] = '/';
		strcpy(path + sl + 1, name);
		return 0;
	}
	if (!fits)
		return -1;
	memcpy(path, dir, n);
	path[n] = '/';
	strcpy(path + n + 1, name);
	/* a directory with a blank is no id's (section 1) */
	return shmids_id_check(path, strlen(path), NULL);
}

/*
 * Files named as ours in SHMIDS_DIR; nothing else there is opened, and
 * what getdents(2) says is neither a file nor a directory is not even
 * looked at.  A
 * directory that cannot be read to its end, or searched, is -1, after
 * the files read.
 */
static int
file_scan(int (*fn)(struct shmids_info *, int, void *), void *arg)
{
	const char *env = shmids_dir();
	struct shmids_info si;
	struct shorts sh;
	char dir[PATH_MAX], path[SHMIDS_LABEL_MAX + 1];
	struct dirent *de;
	DIR *dp;
	size_t n;
	int r = 0, shmid, e, k, failed = 0;

	if (env == NULL)
		return 0;
	if (realpath(env, dir) == NULL || (dp = opendir(dir)) == NULL)
		return -1;
	/* Listed but not searched: every name fails, which is the directory's. */
	if (fstatat(dirfd(dp), ".", &sh.st, 0) == -1) {
		e = errno;
		closedir(dp);
		errno = e;
		return -1;
	}
	sh.dir = dir;
	sh.n = 0;
	n = strcmp(dir, "/") == 0 ? 0 : strlen(dir);
	while (r == 0 && (errno = 0, de = readdir(dp)) != NULL) {
		if (!looked_at(de->d_type))
			continue;
		/* named as ours: "/" and the name is an id of the root's */
		path[0] = '/';
		if (strlen(de->d_name) > SHMIDS_LABEL_MAX - 3)
			continue;
		strcpy(path + 1, de->d_name);
		if (shmids_id_check(path, strlen(path), &shmid) == -1 ||
		    scan_id(dirfd(dp), dir, n, de->d_name, &sh, path) == -1)
			continue;
		if ((k = stat_at(dirfd(dp), path, de->d_name, &si)) != -1)
			r = fn(&si, k, arg);
		else if (errno == ENOENT || errno == ESTALE || errno == EBUSY)
			continue;	/* gone, not a file, leased: skip */
		else if (ours_to_fail(errno)) {
			if (failed == 0)
				failed = errno;
		} else {
			memset(&si, 0, sizeof(si));
			si.shmid = -1;
			si.err = errno;
			strcpy(si.id, path);
			r = fn(&si, -1, arg);
		}
	}
	if (r == 0 && de == NULL && errno != 0)
		r = -1;
	/* Files the scanner could not look at are not hidden without a word. */
	if (r == 0 && failed != 0) {
		r = -1;
		errno = failed;
	}
	e = errno;
	closedir(dp);
	errno = e;
	return r;
}

/*
 * read(2), not a mapping: a file its owner truncates meanwhile gives a
 * short read here, where a mapping would give SIGBUS.  A look: no lock,
 * and no access time (open_seg()).
 */
static ssize_t
file_peek(const struct shmids_info *si, char *h, size_t *size)
{
	struct stat st;
	ssize_t n;
	int fd, e;

	if ((fd = open_seg(si->id, 1, &st)) == -1)
		return -1;
	if ((unsigned long long)st.st_size > (size_t)-1) {
		errno = ESTALE;
		goto fail;
	}
	if ((n = read_head(fd, h)) == -1)
		goto fail;
	/* Shorter than it was: it is what could be read now. */
	*size = n < SHMIDS_HEADER ? (size_t)n : (size_t)st.st_size;
	/*
	 * Residue has no label to say whose name this is: with other names
	 * too it may be anyone's file linked here (file_isours()).
	 */
	if (st.st_nlink != 1 && shmids_hdr_residue(h, (size_t)n, *size)) {
		errno = EMLINK;
		goto fail;
	}
	close(fd);
	return n;
fail:
	e = errno;
	close(fd);
	errno = e;
	return -1;
}

/*
 * The name was checked before anything else.  A file with other names
 * too may be a segment another user linked elsewhere (its header says
 * whose name this is: its label's path), but never residue, which has
 * no label: that may be anyone's empty file, a hard link planted under
 * a name of ours (format-spec.md 2.6, 7).
 */
static int
file_isours(const struct shmids_info *si)
{
	struct stat st;
	int dfd, r;

	if ((dfd = reg_at(si->id, &st)) == -1)
		return 0;
	r = st.st_nlink == 1 || st.st_size >= SHMIDS_HEADER;
	close(dfd);
	return r;
}


/* shmids_file_lock: the contract is in seg.h. */
int
shmids_file_lock(const struct att *a, int type, size_t off, size_t len)
{
#ifdef F_OFD_SETLK
	struct flock fl;

	memset(&fl, 0, sizeof(fl));
	fl.l_type = (short)type;
	fl.l_whence = SEEK_SET;
	fl.l_start = (off_t)off;
	fl.l_len = (off_t)len;
	return fcntl(a->fd, F_OFD_SETLK, &fl);
#else
	(void)a;
	(void)type;
	(void)off;
	(void)len;
	errno = ENOSYS;
	return -1;
#endif
}

/* shmids_file_held: the contract is in seg.h.  errno unchanged. */
int
shmids_file_held(const struct att *a, const char *id, size_t off,
    size_t len)
{
#ifdef F_OFD_GETLK
	struct flock fl;
	struct stat st;
	int fd = a != NULL ? a->fd : -1, r, e = errno;

	if (fd == -1 && (fd = open_seg(id, 1, &st)) == -1) {
		errno = e;
		return -1;
	}
	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	fl.l_start = (off_t)off;
	fl.l_len = (off_t)len;
	r = fcntl(fd, F_OFD_GETLK, &fl) == -1 ? -1 : fl.l_type != F_UNLCK;
	if (a == NULL || a->fd == -1)
		close(fd);
	errno = e;
	return r;
#else
	(void)a;
	(void)id;
	(void)off;
	(void)len;
	return -1;
#endif
}

/* A file segment's id is its absolute path. */
static int
file_names(const char *id)
{
	return id[0] == '/';
}

const struct shmids_backend shmids_file = {
	.store = -1,
	.selfstat = 1,
	.names = file_names,
	.create = file_create,
	.attach = file_attach,
	.narrow = file_narrow,
	.prefault = file_prefault,
	.detach = file_detach,
	.setmode = file_setmode,
	.sealed = file_sealed,
	.reread = file_reread,
	.ready = file_ready,
	.remove = file_remove,
	.remove_idle = file_remove_idle,
	.stat = file_stat,
	.scan = file_scan,
	.isours = file_isours,
	.residue = file_isours,	/* its name proves it (2.4, 2.6) */
	.peek = file_peek,
	.orphan = file_orphan,
};
