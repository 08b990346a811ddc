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

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

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
	a->locked = 0;
	return 0;
}

/*
 * mkstemp(3) picks the name and opens it 0600 with O_EXCL; the write lock
 * comes before anything else, so no reader can take the file for one
 * whose writer died.  The first page is written with pwrite(2): a full
 * file system is ENOSPC here rather than SIGBUS in the header.
 */
static int
file_create(size_t size, size_t namelen, char id[SHMIDS_LABEL_MAX + 1],
    struct att *a)
{
	static const char zero[SHMIDS_HEADER];
	char dir[PATH_MAX];
	size_t n;
	int fd, e, shmid;

	if (realpath(shmids_dir(), dir) == NULL)
		return -1;
	n = strcmp(dir, "/") == 0 ? 0 : strlen(dir);
	if (n + 14 + 1 + namelen > SHMIDS_LABEL_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(id, dir, n);
	memcpy(id + n, "/shmids.XXXXXX", 15);
	if (shmids_id_check(id, n + 14, &shmid) == -1)
		return -1;		/* a blank or "." in the directory */
	if ((off_t)size < 0) {
		errno = EFBIG;
		return -1;
	}
	if ((fd = mkstemp(id)) == -1)
		return -1;
	if (fcntl(fd, F_SETFD, FD_CLOEXEC) == -1 ||
	    setlock(fd, F_WRLCK) == -1 || ftruncate(fd, (off_t)size) == -1 ||
	    pwrite(fd, zero, sizeof(zero), 0) != (ssize_t)sizeof(zero) ||
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
 * Open a segment's file to read it.  noatime: only to look (O_NOATIME,
 * which only the owner may ask for, so that listing changes nothing);
 * a symlink in its place is not ours (ESTALE).
 */
static int
open_seg(const char *id, int noatime)
{
	int fd;

	fd = open(id, OPENFL | (noatime ? O_NOATIME : 0));
	if (fd == -1 && errno == EPERM && noatime)
		fd = open(id, OPENFL);
	if (fd == -1 && errno == ELOOP)
		errno = ESTALE;
	return fd;
}

/*
 * lock: a reader's attach, which holds the descriptor and its read lock
 * until detached.  Otherwise the header is only looked at: no lock, and
 * O_NOATIME where the caller owns the file, so listing changes nothing.
 * Only the first page is mapped: the file may be far larger than its
 * header says (grown sparse by its owner), and mapping costs address
 * space; file_narrow() maps what a reader keeps.
 */
static int
file_attach(const struct shmids_info *si, int lock, struct att *a)
{
	struct stat st;
	size_t len;
	long pg = sysconf(_SC_PAGESIZE);
	int fd, e;

	if ((fd = open_seg(si->id, !lock)) == -1)
		return -1;
	if (fstat(fd, &st) == -1)
		goto fail;
	if (!S_ISREG(st.st_mode) || st.st_size < SHMIDS_HEADER ||
	    (unsigned long long)st.st_size > (size_t)-1) {
		errno = ESTALE;
		goto fail;
	}
	len = pg > 0 && (unsigned long long)st.st_size > (unsigned long)pg ?
	    (size_t)pg : (size_t)st.st_size;
	if (map(fd, (size_t)st.st_size, len, PROT_READ, a) == -1)
		goto fail;
	if (!lock) {
		close(fd);
		a->fd = -1;
	} else if (setlock(fd, F_RDLCK) == 0)
		a->locked = 1;
	else if (errno != EAGAIN && errno != EACCES) {
		e = errno;
		munmap(a->addr, a->maplen);
		errno = e;
		goto fail;
	}
	return 0;
fail:
	e = errno;
	close(fd);
	errno = e;
	return -1;
}

/*
 * A fresh mapping of len bytes replaces the first page's; the file may
 * have shrunk meanwhile, which only its owner can do (format-spec.md
 * 2.6, Caveats).
 */
static int
file_narrow(struct att *a, size_t len)
{
	void *p;

	if (len > a->maplen) {
		if ((p = mmap(NULL, len, PROT_READ, MAP_SHARED, a->fd, 0)) ==
		    MAP_FAILED)
			return -1;
		munmap(a->addr, a->maplen);
		a->addr = p;
		a->maplen = len;
	}
	a->size = len;
	return 0;
}

/*
 * Always for a writer, whatever the tuning: populating is where a full
 * file system shows up as an error (EFAULT from the kernel) instead of
 * SIGBUS in the middle of filling.
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
	} else if (shmids_tuned(a->size, TUNE_MIN))
		shmids_populate(a, 1);
	errno = e;
	return 0;
}

static void
file_detach(struct att *a)
{
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

static void
file_relock(struct att *a)
{
	if (!a->locked && setlock(a->fd, F_RDLCK) == 0)
		a->locked = 1;
}

/*
 * A reader holding its read lock knows no writer holds a write lock.  One
 * that only looks asks who holds what: a write lock means a live writer.
 */
static int
file_ready(const struct shmids_info *si, const struct att *a, int state)
{
	struct stat st;
	int fd, h;

	if (a != NULL && a->fd >= 0) {
		if (!a->locked)
			return EAGAIN;	/* writer filling, or a cleaner */
		/* A cleaner unlinked it between our open and our lock. */
		if (fstat(a->fd, &st) == 0 && st.st_nlink == 0)
			return ENOENT;
		return state == 'r' ? 0 : EOWNERDEAD;
	}
	if (state == 'r')
		return 0;
	if ((fd = open(si->id, OPENFL)) == -1)
		return EAGAIN;
	h = holder(fd);
	close(fd);
	return h == F_WRLCK || h == -1 ? EAGAIN : EOWNERDEAD;
}

/* Birth time where the file system keeps one, else modification time. */
static time_t
made(const char *path, const struct stat *st)
{
#ifdef STATX_BTIME
	struct statx sx;

	if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BTIME, &sx) == 0
	    && (sx.stx_mask & STATX_BTIME))
		return (time_t)sx.stx_btime.tv_sec;
#else
	(void)path;
#endif
	return st->st_mtime;
}

/* id may point into si. */
static int
file_stat(const char *sid, struct shmids_info *si)
{
	char id[SHMIDS_LABEL_MAX + 1];
	struct stat st;
	int fd, h;

	strcpy(id, sid);
	if (lstat(id, &st) == -1) {
		if (errno == ENOTDIR)
			errno = ENOENT;
		return -1;
	}
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
	si->ctime = made(id, &st);
	if ((fd = open(id, OPENFL)) == -1) {
		if (errno != EACCES)
			return -1;
		return 1;	/* known, but not ours to read */
	}
	h = holder(fd);
	close(fd);
	si->nattch = h != F_UNLCK;	/* unknown counts as attached */
	return 0;
}

static int
file_remove(const char *id)
{
	return unlink(id);
}

/*
 * A write lock needs a descriptor open for writing.  The owner of a file
 * without its write bit (mode 0444, say) lends it one for the open; the
 * readers, who only read, see no difference.
 */
static int
openrw(const char *path)
{
	struct stat st, rw;
	int fd, ro, e;

	if ((fd = open(path, RWFL)) != -1 || errno != EACCES)
		return fd;
	if ((ro = open(path, OPENFL)) == -1)
		return -1;
	if (fstat(ro, &st) == 0 && st.st_uid == geteuid() &&
	    !(st.st_mode & S_IWUSR) &&
	    fchmod(ro, (st.st_mode & 07777) | S_IWUSR) == 0) {
		fd = open(path, RWFL);
		e = errno;
		fchmod(ro, st.st_mode & 07777);
		if (fd != -1 && (fstat(fd, &rw) == -1 ||
		    rw.st_dev != st.st_dev || rw.st_ino != st.st_ino)) {
			close(fd);
			fd = -1;
			e = ESTALE;
		}
	} else
		e = EACCES;
	close(ro);
	errno = e;
	return fd;
}

/*
 * Our write lock excludes the readers' read locks and a writer's: while
 * we hold it nobody attaches, and one who opened the file before its
 * unlink finds it unlinked once its lock is granted (file_ready).  What
 * is unlinked is the file locked, still si's: same inode at the path,
 * owner, size and creation time.
 */
static int
file_remove_idle(const struct shmids_info *si)
{
	struct stat st, pst;
	int fd, r = -1, e;

	if ((fd = openrw(si->id)) == -1)
		return -1;
	if (setlock(fd, F_WRLCK) == -1) {
		if (errno == EAGAIN || errno == EACCES)
			errno = EBUSY;
	} else if (fstat(fd, &st) == 0 && lstat(si->id, &pst) == 0) {
		if (st.st_dev != pst.st_dev || st.st_ino != pst.st_ino ||
		    st.st_uid != si->uid || (size_t)st.st_size != si->size ||
		    made(si->id, &pst) != si->ctime)
			errno = ESTALE;
		else
			r = unlink(si->id);
	}
	e = errno;
	close(fd);
	errno = e == ENOTDIR ? ENOENT : e;
	return r;
}

/*
 * Files named as ours in SHMIDS_DIR; nothing else there is opened.  A
 * directory that cannot be read to its end is -1, after the files read.
 */
static int
file_scan(int (*fn)(struct shmids_info *, int, void *), void *arg)
{
	const char *env = shmids_dir();
	struct shmids_info si;
	char dir[PATH_MAX], path[SHMIDS_LABEL_MAX + 1];
	struct dirent *de;
	DIR *dp;
	size_t n;
	int r = 0, shmid, e, k, failed = 0;

	if (env == NULL)
		return 0;
	if (realpath(env, dir) == NULL || (dp = opendir(dir)) == NULL)
		return -1;
	n = strcmp(dir, "/") == 0 ? 0 : strlen(dir);
	while (r == 0 && (errno = 0, de = readdir(dp)) != NULL) {
		if (n + 1 + strlen(de->d_name) > SHMIDS_LABEL_MAX - 2)
			continue;
		memcpy(path, dir, n);
		path[n] = '/';
		strcpy(path + n + 1, de->d_name);
		if (shmids_id_check(path, strlen(path), &shmid) == -1)
			continue;
		if ((k = file_stat(path, &si)) != -1)
			r = fn(&si, k, arg);
		else if (errno != ENOENT && errno != ESTALE && failed == 0)
			failed = errno;	/* gone meanwhile, or not a file: skip */
	}
	if (r == 0 && de == NULL && errno != 0)
		r = -1;
	/* A file that could not be looked at is not hidden without a word. */
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
 * short read here, where a mapping would give SIGBUS.  As file_attach()
 * does for a look, no lock and no access time.
 */
static ssize_t
file_peek(const struct shmids_info *si, char *h, size_t *size)
{
	struct stat st;
	ssize_t n = 0, r;
	int fd, e;

	if ((fd = open_seg(si->id, 1)) == -1)
		return -1;
	if (fstat(fd, &st) == -1)
		goto fail;
	if (!S_ISREG(st.st_mode) ||
	    (unsigned long long)st.st_size > (size_t)-1) {
		errno = ESTALE;
		goto fail;
	}
	while (n < SHMIDS_HEADER && (r = pread(fd, h + n,
	    (size_t)(SHMIDS_HEADER - n), (off_t)n)) != 0) {
		if (r == -1 && errno != EINTR)
			goto fail;
		if (r > 0)
			n += r;
	}
	/* Shorter than it was: it is what could be read now. */
	*size = n < SHMIDS_HEADER ? (size_t)n : (size_t)st.st_size;
	close(fd);
	return n;
fail:
	e = errno;
	close(fd);
	errno = e;
	return -1;
}

static int
file_isours(const struct shmids_info *si)
{
	(void)si;
	return 1;		/* the name was checked before anything else */
}


/* A file segment's id is its absolute path. */
static int
file_names(const char *id)
{
	return id[0] == '/';
}

const struct shmids_backend shmids_file = {
	.store = -1,
	.names = file_names,
	.create = file_create,
	.attach = file_attach,
	.narrow = file_narrow,
	.prefault = file_prefault,
	.detach = file_detach,
	.setmode = file_setmode,
	.sealed = file_sealed,
	.relock = file_relock,
	.ready = file_ready,
	.remove = file_remove,
	.remove_idle = file_remove_idle,
	.stat = file_stat,
	.scan = file_scan,
	.isours = file_isours,
	.peek = file_peek,
};
