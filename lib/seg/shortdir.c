/*
 * Short names for long directories (format-spec.md 1, 2.6, Long
 * directories).  A label holds 75 bytes; a file segment directory too
 * long for them is named in labels through a symbolic link
 * <base>/shmids-<uid>/<tag> to its real path, which its writer makes in
 * a directory of its own and listers find again.  And the one rule every
 * opener of a segment's path follows before it follows a link as the
 * path's last directory: only one its owner (or root) decides.
 */
#define _GNU_SOURCE		/* O_NOFOLLOW, O_DIRECTORY, *at() */
#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seg.h"

#define DIRFL	(O_RDONLY | O_DIRECTORY | O_CLOEXEC)
#define NTAGS	(36 * 36)	/* two letters or digits */
#define TRIES	36		/* tags tried from the one the path draws */

static const char tagc[] = "0123456789abcdefghijklmnopqrstuvwxyz";

/* SHMIDS_SHORTDIR, set to an absolute path, or /tmp. */
static const char *
base(void)
{
	const char *b = getenv("SHMIDS_SHORTDIR");

	return b != NULL && *b == '/' ? b : "/tmp";
}

/* The tag the real path draws, i tags on (FNV-1a, two base-36 digits). */
static void
tag(const char *real, unsigned i, char t[3])
{
	unsigned long h = 2166136261UL;
	const unsigned char *p;

	for (p = (const unsigned char *)real; *p != '\0'; p++)
		h = ((h ^ *p) * 16777619UL) & 0xffffffffUL;
	h = (h + i) % NTAGS;
	t[0] = tagc[h / 36];
	t[1] = tagc[h % 36];
	t[2] = '\0';
}

/* May a link owned by o, in a directory *dst, lead a path of uid's? */
static int
decides(uid_t o, uid_t uid)
{
	return o == uid || o == 0;
}

static int
private_dir(const struct stat *st, uid_t uid)
{
	return S_ISDIR(st->st_mode) && decides(st->st_uid, uid) &&
	    !(st->st_mode & (S_IWGRP | S_IWOTH));
}

/* shmids_dir_open: the contract is in seg.h. */
int
shmids_dir_open(const char *dir, uid_t uid)
{
	char parent[PATH_MAX];
	const char *last;
	struct stat st;
	size_t n;
	int fd, pfd, e;

	/* A link as the last name: ELOOP, or ENOTDIR (O_DIRECTORY first) */
	if ((fd = open(dir, DIRFL | O_NOFOLLOW)) != -1 ||
	    (errno != ELOOP && errno != ENOTDIR))
		return fd;
	if (errno == ENOTDIR && (lstat(dir, &st) == -1 ||
	    !S_ISLNK(st.st_mode))) {
		errno = ENOTDIR;
		return -1;
	}
	/* Its last name is a symbolic link: followed only if uid's. */
	last = strrchr(dir, '/');
	if (last == NULL || last[1] == '\0' ||
	    (n = (size_t)(last - dir)) >= sizeof(parent)) {
		errno = ESTALE;
		return -1;
	}
	memcpy(parent, dir, n == 0 ? 1 : n);
	parent[n == 0 ? 1 : n] = '\0';
	if ((pfd = open(parent, DIRFL | O_NOFOLLOW)) == -1) {
		errno = errno == ELOOP ? ESTALE : errno;
		return -1;
	}
	if (fstat(pfd, &st) == -1)
		fd = -1;
	else if (!private_dir(&st, uid)) {
		fd = -1;
		errno = ESTALE;
	} else if (fstatat(pfd, last + 1, &st, AT_SYMLINK_NOFOLLOW) == -1)
		fd = -1;
	else if (!S_ISLNK(st.st_mode) || !decides(st.st_uid, uid)) {
		fd = -1;
		errno = ESTALE;		/* swapped meanwhile, or not uid's */
	} else
		fd = openat(pfd, last + 1, DIRFL);
	e = errno;
	close(pfd);
	errno = e;
	return fd;
}

/* base/shmids-<uid> into buf; -1 ENAMETOOLONG if it does not fit. */
static int
udir(char *buf, size_t size, uid_t uid)
{
	int n = snprintf(buf, size, "%s/shmids-%lu", base(),
	    (unsigned long)uid);

	if (n < 0 || (size_t)n >= size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return n;
}

/*
 * Does tag t in ufd name a link of uid's whose text is real, leading to
 * the directory *dst (NULL: not checked)?  1 yes, 0 no, -1 nothing there.
 */
static int
names_dir(int ufd, const char *t, const char *real, uid_t uid,
    const struct stat *dst)
{
	char text[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (fstatat(ufd, t, &st, AT_SYMLINK_NOFOLLOW) == -1)
		return errno == ENOENT ? -1 : 0;
	if (!S_ISLNK(st.st_mode) || !decides(st.st_uid, uid) ||
	    (n = readlinkat(ufd, t, text, sizeof(text))) <= 0 ||
	    (size_t)n >= sizeof(text) || (size_t)n != strlen(real) ||
	    memcmp(text, real, (size_t)n) != 0)
		return 0;
	if (dst != NULL && (fstatat(ufd, t, &st, 0) == -1 ||
	    st.st_dev != dst->st_dev || st.st_ino != dst->st_ino))
		return 0;
	return 1;
}

/* out: base/shmids-<uid>/t, which fits (the caller's buffer is ours). */
static int
put(char *out, size_t size, const char *u, int un, const char *t)
{
	if ((size_t)un + 4 > size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(out, u, (size_t)un);
	out[un] = '/';
	memcpy(out + un + 1, t, 3);
	return un + 3;
}

/* shmids_short_make: the contract is in seg.h. */
int
shmids_short_make(const char *real, uid_t uid, char *out, size_t size)
{
	char u[PATH_MAX], t[3];
	struct stat st;
	unsigned i;
	int un, ufd, k, r = -1, e;

	if (uid != geteuid() && geteuid() != 0) {
		errno = EPERM;
		return -1;
	}
	if ((un = udir(u, sizeof(u), uid)) == -1)
		return -1;
	if (mkdir(u, 0755) == -1 && errno != EEXIST)
		return -1;
	if ((ufd = open(u, DIRFL | O_NOFOLLOW)) == -1)
		return -1;
	/*
	 * One's own, or another user's made first (EPERM); its mode the
	 * library's, whatever the umask, so that other users' readers pass.
	 */
	if (fstat(ufd, &st) == -1)
		e = errno;
	else if (st.st_uid != geteuid())
		e = EPERM;
	else if ((st.st_mode & 07777) != 0755 && fchmod(ufd, 0755) == -1)
		e = errno;
	else
		e = 0;
	if (e != 0) {
		close(ufd);
		errno = e;
		return -1;
	}
	for (i = 0; i < TRIES && r == -1; i++) {
		tag(real, i, t);
		k = names_dir(ufd, t, real, geteuid(), NULL);
		if (k == -1 && symlinkat(real, ufd, t) == 0)
			k = 1;
		else if (k == -1 && errno == EEXIST)
			k = names_dir(ufd, t, real, geteuid(), NULL) == 1;
		if (k == 1)
			r = put(out, size, u, un, t);
	}
	e = r == -1 && i == TRIES ? ENOSPC : errno;
	close(ufd);
	errno = e;
	return r;
}

/* shmids_short_find: the contract is in seg.h. */
int
shmids_short_find(const char *real, const struct stat *dst, uid_t owner,
    char *out, size_t size)
{
	char u[PATH_MAX], t[3];
	struct stat st;
	unsigned i;
	int un, ufd, r = 0, e = errno;

	if ((un = udir(u, sizeof(u), owner)) == -1 ||
	    (ufd = open(u, DIRFL | O_NOFOLLOW)) == -1) {
		errno = e;
		return 0;
	}
	if (fstat(ufd, &st) == 0 && private_dir(&st, owner))
		for (i = 0; i < TRIES && r == 0; i++) {
			tag(real, i, t);
			if (names_dir(ufd, t, real, owner, dst) == 1 &&
			    put(out, size, u, un, t) != -1)
				r = 1;
		}
	close(ufd);
	errno = e;
	return r;
}

/* shmids_short_len: the contract is in seg.h. */
size_t
shmids_short_len(uid_t uid)
{
	char u[PATH_MAX];
	int n = udir(u, sizeof(u), uid);

	return n == -1 ? (size_t)-1 : (size_t)n + 3;
}

/* shmids_short_why: the contract is in seg.h. */
const char *
shmids_short_why(const char *real, uid_t uid, char *why, size_t whysize)
{
	char u[PATH_MAX], out[PATH_MAX];
	struct stat st;

	if (udir(u, sizeof(u), uid) == -1) {
		snprintf(why, whysize, "%.64s is too long a path", base());
		return why;
	}
	if (lstat(u, &st) == -1) {
		if (errno != ENOENT)
			snprintf(why, whysize, "%.200s cannot be looked at: %s",
			    u, strerror(errno));
		else if (access(base(), W_OK | X_OK) == -1)
			snprintf(why, whysize, "%.200s cannot be made: %s", u,
			    strerror(errno));
		else
			return NULL;
		return why;
	}
	if (!S_ISDIR(st.st_mode))
		snprintf(why, whysize, "%.200s is not a directory", u);
	else if (st.st_uid != geteuid())
		snprintf(why, whysize, "%.200s belongs to uid %lu, not to you "
		    "(root can remove it)", u, (unsigned long)st.st_uid);
	else if (!shmids_short_find(real, NULL, uid, out, sizeof(out)) &&
	    access(u, W_OK | X_OK) == -1)
		snprintf(why, whysize, "%.200s cannot be written: %s", u,
		    strerror(errno));
	else
		return NULL;
	return why;
}
