/*
 * shmids_explain(): an errno of the API in the user's terms.  The errno
 * values stay the API's (format-spec.md names them); this says what is
 * there now, what went wrong and what to do, by looking at the segment
 * the label names as shmids_stat_dims() does.  No static state: two
 * threads may explain at once.
 */
#include <sys/resource.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seg/seg.h"
#include "stream/stream.h"

/* The text so far: snprintf(3)'s contract, append by append. */
struct out {
	char		*buf;
	size_t		 size;
	size_t		 len;	/* what the whole text needs, NUL excluded */
};

static void
add(struct out *o, const char *fmt, ...)
{
	va_list ap;
	size_t room = o->len < o->size ? o->size - o->len : 0;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

/*
 * A label read from a header, quoted for a shell (the names allow "'"):
 * a command the user may paste.
 */
static void
add_shquoted(struct out *o, const char *s)
{
	if (s[strspn(s, "0123456789/._-+,:=@%^ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz")] == '\0') {
		add(o, "%s", s);
		return;
	}
	add(o, "'");
	for (; *s != '\0'; s++)
		add(o, *s == '\'' ? "'\\''" : "%c", *s);
	add(o, "'");
}

/*
 * At most 80 bytes of s (a label, 75, or a name, 64, stays whole), a
 * byte that is not printable ASCII, or a backslash, as a C escape
 * (\ooo), then "..." if s was longer: a setting is quoted so, as the
 * tools quote what they read.
 */
static void
add_quoted(struct out *o, const char *s)
{
	size_t i, n = strlen(s);

	for (i = 0; i < n && i < 80; i++) {
		unsigned char c = (unsigned char)s[i];

		add(o, c >= 0x20 && c < 0x7f && c != '\\' ? "%c" : "\\%03o",
		    c);
	}
	if (n > 80)
		add(o, "...");
}

/* The bytes sh(1) takes as they are in a word. */
static const char shsafe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    "abcdefghijklmnopqrstuvwxyz0123456789_./+,:=-";

/*
 * A path as one word of a command to paste into sh(1): as it is when
 * every byte is one sh takes so, else in single quotes (a ' as '\''),
 * after "./" when it begins with "-" (else mkdir reads an option).
 * Never cut, which would name another directory: a word of 256 bytes
 * or more is "..." (and a path over PATH_MAX too).
 */
static void
add_shword(struct out *o, const char *s)
{
	size_t n = strlen(s), len = n + (s[0] == '-' ? 2 : 0);
	int plain = n > 0 && strspn(s, shsafe) == n;
	const char *p;

	if (!plain)
		for (len += 2, p = s; *p != '\0'; p++)
			len += *p == '\'' ? 3 : 0;
	if (n > PATH_MAX || len >= 256) {
		add(o, "...");
		return;
	}
	if (s[0] == '-')
		add(o, "./");
	if (plain) {
		add(o, "%s", s);
		return;
	}
	add(o, "'");
	for (p = s; *p != '\0'; p++)
		add(o, *p == '\'' ? "'\\''" : "%c", *p);
	add(o, "'");
}

/* A login name, or the uid in decimal when there is none. */
static void
add_user(struct out *o, uid_t uid)
{
	struct passwd pw, *res = NULL;
	char buf[1024];

	if (getpwuid_r(uid, &pw, buf, sizeof(buf), &res) == 0 &&
	    res != NULL && strlen(pw.pw_name) <= 32)
		add(o, "%s", pw.pw_name);
	else
		add(o, "uid %lu", (unsigned long)uid);
}

/*
 * A login name, or the uid in decimal: one word, as SHMIDS_OLD_OWNERS
 * takes it (format-spec.md 2.6).
 */
static void
add_user_word(struct out *o, uid_t uid)
{
	struct passwd pw, *res = NULL;
	char buf[1024];

	if (getpwuid_r(uid, &pw, buf, sizeof(buf), &res) == 0 &&
	    res != NULL && strlen(pw.pw_name) <= 32 &&
	    strcspn(pw.pw_name, ", \t'\"\\$`") == strlen(pw.pw_name))
		add(o, "%s", pw.pw_name);
	else
		add(o, "%lu", (unsigned long)uid);
}

/* How to remove it: with shm-rm, or by its owner if the caller may not. */
static void
add_remove_hint(struct out *o, const struct shmids_info *si,
    const char *what)
{
	uid_t me = geteuid();

	if (me == 0 || me == si->uid || me == si->cuid) {
		add(o, "; shm-rm ");
		add_shquoted(o, what);
		add(o, " removes it");
		return;
	}
	add(o, "; its owner, ");
	add_user(o, si->uid);
	add(o, ", can remove it (shm-rm ");
	add_shquoted(o, what);
	add(o, ")");
}

/*
 * The words for a name typed where its label is wanted (the name
 * shm-import printed after the shmid): names repeat, so the label is
 * what says which segment.  Only for names a shell takes as they are,
 * since the hint repeats it.
 */
static const char name_alone[] = "a name alone, not a label";
static const char no_value[] = "a field's line is an inline "
    "array only if every token after the field is a value (or a last \"/\"), "
    "else it is text (shmids(5) 6)";
static const char blank_name[] = "the name holds a blank or a byte that is "
    "not printable ASCII";

static int
is_plain_name(const char *s, size_t len)
{
	/* digits alone are a mistyped shmid ("012"), not a name */
	return len > 0 && len <= SHMIDS_NAME_MAX && s[0] != '-' &&
	    strspn(s, "0123456789") < len &&
	    strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789._+-") == len;
}

/* Why the bytes s[0..len) are no label (or id): NULL if they are one. */
static const char *
label_why(const char *s, size_t len, int *toolong)
{
	const char *sp = memchr(s, ' ', len);
	size_t idlen = sp ? (size_t)(sp - s) : len, i;
	int shmid;

	*toolong = 0;
	if (len == 0)
		return "an empty label";
	if (sp == NULL && is_plain_name(s, len) &&
	    shmids_id_check(s, len, &shmid) == -1)
		return name_alone;
	if (idlen > SHMIDS_LABEL_MAX - 2 ||
	    shmids_id_check(s, idlen, &shmid) == -1)
		return s[0] == '/' ? "the path is not a file segment's "
		    "(/dir/.../shmids.XXXXXX, no . or .. parts, at most 73 "
		    "bytes)" : "the id is neither a shmid (a decimal number "
		    "without leading zeros) nor a file segment's path";
	if (sp == NULL)
		return NULL;
	if (idlen + 1 == len)
		return "no name after the id";
	for (i = idlen + 1; i < len; i++)
		if (s[i] < 0x21 || s[i] > 0x7e)
			return blank_name;
	*toolong = 1;
	if (len - idlen - 1 > SHMIDS_NAME_MAX)
		return "the name is longer than 64 bytes";
	if (len > SHMIDS_LABEL_MAX)
		return "the label is longer than 75 bytes";
	*toolong = 0;
	return NULL;
}

/* The system's text, for an errno with no better words. */
static void
add_strerror(struct out *o, int errnum)
{
	char buf[128];

	if (strerror_r(errnum, buf, sizeof(buf)) != 0)
		snprintf(buf, sizeof(buf), "error %d", errnum);
	/* The system capitalises; our texts follow "prog: what: ". */
	if (buf[0] >= 'A' && buf[0] <= 'Z' && buf[1] >= 'a' && buf[1] <= 'z')
		buf[0] = (char)(buf[0] - 'A' + 'a');
	add(o, "%s", buf);
}

/*
 * Lines of /proc/self/maps, or -1: read with a buffer on the stack, as
 * a process out of mappings cannot have another for stdio.
 */
static long
count_maps(void)
{
	char buf[4096];
	ssize_t n, i;
	long lines = 0;
	int fd;

	if ((fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (i = 0; i < n; i++)
			lines += buf[i] == '\n';
	close(fd);
	return n == 0 ? lines : -1;
}

static long
max_map_count(void)
{
	char buf[32];
	ssize_t n;
	int fd;

	if ((fd = open("/proc/sys/vm/max_map_count", O_RDONLY | O_CLOEXEC))
	    == -1)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

/*
 * ENOMEM from mmap(2) or shmat(2) is the address space (ulimit -v) or
 * the count of mappings (vm.max_map_count), which more memory would not
 * mend: which one, as this process stands now.
 */
static void
explain_nomem(struct out *o)
{
	struct rlimit rl;
	long n, max;

	if ((max = max_map_count()) > 0 && (n = count_maps()) >= 0 &&
	    n + 32 >= max) {
		add(o, "out of memory mappings: this process has %ld, the "
		    "most the system allows (vm.max_map_count %ld)", n, max);
		return;
	}
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur == RLIM_INFINITY)
		add(o, "out of memory");
	else
		add(o, "out of memory (address space limited? see ulimit "
		    "-v)");
}

/*
 * A file segment's label would not fit its 75 bytes (format-spec.md 1,
 * 2.6, Long directories): the name is too long for the room the
 * directory leaves, directly or through its short name, or the
 * directory is too long and no short name can be had.
 */
static void
explain_long_dir(struct out *o, const char *dir)
{
	char real[PATH_MAX], why[320];
	unsigned long uid = (unsigned long)geteuid();
	size_t file, n, s;

	/* "/shmids.<uid>.XXXXXX", then a space and a name of a byte */
	file = (size_t)snprintf(why, sizeof(why), "/shmids.%lu.XXXXXX", uid);
	if (realpath(dir, real) == NULL) {
		add(o, "SHMIDS_DIR and the name are too long for a label (75 "
		    "bytes)");
		return;
	}
	n = strcmp(real, "/") == 0 ? 0 : strlen(real);
	s = shmids_short_len((uid_t)uid);
	if (s != (size_t)-1 && s + file + 2 <= SHMIDS_LABEL_MAX && s < n &&
	    shmids_short_why(real, (uid_t)uid, why, sizeof(why)) == NULL) {
		add(o, "the name is too long for a file segment in SHMIDS_DIR: "
		    "its label, through a short name for the directory, has "
		    "room for a name of %zu bytes",
		    SHMIDS_LABEL_MAX - s - file - 1);
		return;
	}
	if (n + file + 2 <= SHMIDS_LABEL_MAX) {
		add(o, "the name is too long for a file segment in SHMIDS_DIR: "
		    "its label has room for a name of %zu bytes",
		    SHMIDS_LABEL_MAX - n - file - 1);
		return;
	}
	if (s == (size_t)-1 || s + file + 2 > SHMIDS_LABEL_MAX) {
		add(o, "SHMIDS_DIR is too long for a label (75 bytes), and so "
		    "is SHMIDS_SHORTDIR, where short names for it go: point "
		    "SHMIDS_SHORTDIR at a shorter directory, or unset it for "
		    "/tmp");
		return;
	}
	if (shmids_short_why(real, (uid_t)uid, why, sizeof(why)) == NULL)
		snprintf(why, sizeof(why), "its short name could not be made");
	add(o, "SHMIDS_DIR %.64s%s is too long for a label (%zu bytes; a "
	    "label holds 75 with its name), and no short name can be made "
	    "for it: %s; point SHMIDS_DIR at a shorter path, or unset it for "
	    "System V segments", real, n > 64 ? "..." : "", n, why);
}

/*
 * SHMIDS_DIR dir, where no file segment can be made or listed: what is
 * wrong with it, and what to do (format-spec.md 2.6), in the words
 * shm-ls -l's settings use.  0 if it looks usable: a directory the
 * caller may read and search.
 */
static int
explain_dir(struct out *o, const char *dir)
{
	struct stat st;
	int e = stat(dir, &st) == -1 ? errno : 0;

	if (e == ENOENT) {
		add(o, "SHMIDS_DIR ");
		add_quoted(o, dir);
		add(o, " does not exist: ");
		/* the command in quotes, unless its word has sh(1)'s own */
		if (dir[0] != '-' && strspn(dir, shsafe) == strlen(dir) &&
		    strlen(dir) <= PATH_MAX) {
			add(o, "'mkdir -p ");
			add_shword(o, dir);
			add(o, "'");
		} else {
			add(o, "mkdir -p ");
			add_shword(o, dir);
		}
		add(o, " (mode 1777 to share it), or unset SHMIDS_DIR for "
		    "System V segments");
	} else if (e == ENOTDIR || (e == 0 && !S_ISDIR(st.st_mode))) {
		add(o, "SHMIDS_DIR ");
		add_quoted(o, dir);
		add(o, " is not a directory%s: point SHMIDS_DIR at one, or "
		    "unset it for System V segments", e == ENOTDIR ?
		    " (a name on its path is a file)" : "");
	} else if (e == EACCES || (e == 0 &&
	    access(dir, R_OK | X_OK) == -1)) {
		add(o, "SHMIDS_DIR ");
		add_quoted(o, dir);
		add(o, " cannot be read or searched by you: its owner may "
		    "'chmod 1777' it, or point SHMIDS_DIR at a directory of "
		    "yours, or unset it for System V segments");
	} else if (e != 0) {	/* ELOOP, EIO: the system's words */
		add(o, "SHMIDS_DIR ");
		add_quoted(o, dir);
		add(o, ": ");
		add_strerror(o, e);
	} else
		return 0;
	return 1;
}

/* Errors of creation, where no label exists yet: the store decides. */
static int
explain_store(struct out *o, int errnum)
{
	const char *dir = shmids_dir();
	struct rlimit rl;
	int file = dir != NULL;

	if (file && (errnum == ENOENT || errnum == ENOTDIR ||
	    errnum == EACCES) && explain_dir(o, dir))
		return 1;
	switch (errnum) {
	case ENOSPC:
		if (file)
			add(o, "no space left in SHMIDS_DIR (%.64s)", dir);
		else
			add(o, "segment limit reached (kernel.shmmni or "
			    "kernel.shmall; see shm-ls -l)");
		return 1;
	case ENOSYS:
		add(o, "file segments need open file description locks "
		    "(Linux 3.15 or later), which this system lacks; unset "
		    "SHMIDS_DIR to make System V segments");
		return 1;
	case ENOMEM:
		explain_nomem(o);
		return 1;
	case ENOENT:	/* SHMIDS_DIR is there (explain_dir()) */
		add(o, "the new segment was removed before it could be used "
		    "(by a cleaner, shm-rm -s, given too short an age?)");
		return 1;
	case EFBIG:
		if (getrlimit(RLIMIT_FSIZE, &rl) == 0 &&
		    rl.rlim_cur != RLIM_INFINITY)
			add(o, "the segment is larger than this process's "
			    "file size limit, %llu bytes (ulimit -f)",
			    (unsigned long long)rl.rlim_cur);
		else
			add(o, "too large for a file%s",
			    file ? " in SHMIDS_DIR" : "");
		return 1;
	case ENAMETOOLONG:
		if (file)
			explain_long_dir(o, dir);
		else
			add(o, "the name is longer than 64 bytes");
		return 1;
	}
	return 0;
}

/* The segment is gone: removed (still attached, maybe), or never made. */
static void
explain_gone(struct out *o, const char *id)
{
	struct shmids_info si;

	if (shmids_be_of(id)->stat(id, &si) == 0 && si.removed) {
		add(o, "segment %s was removed", id);
		/*
		 * The caller may be a reader never attached: say whose.
		 * nattch counts attachments, not processes.
		 */
		if (si.nattch == 1)
			add(o, "; another process still attached keeps it "
			    "until it detaches");
		else if (si.nattch > 1)
			add(o, "; %lu attachments still on it keep it until "
			    "they detach", si.nattch);
		return;
	}
	add(o, "no such segment (removed, or never made)");
}

static void
add_linked(struct out *o, const char *id)
{
	add(o, "file segment %s has another name besides this one (a hard "
	    "link: stat -c %%h counts them): a segment has one, so it is not "
	    "taken for one; its owner removes the other names, or makes the "
	    "segment again", id);
}

/*
 * A file whose header is ours but whose label names another path was
 * renamed or linked there (format-spec.md 2.6): say from where, as a
 * user who moved it would look for it.  1 if said so.
 */
static int
explain_moved(struct out *o, const struct shmids_info *si)
{
	char h[SHMIDS_HEADER];
	size_t size, len, idlen;

	if (si->shmid != -1)
		return 0;
	if (shmids_be_of(si->id)->peek(si, h, &size) == -1) {
		if (errno != EMLINK)
			return 0;
		add_linked(o, si->id);
		return 1;
	}
	/* versions 1 to 3 (tables, format-spec.md 2.7) */
	if (size < SHMIDS_HEADER || memcmp(h + HDR_MAGIC, "shmids", 6) != 0 ||
	    !shmids_hdr_known(h[HDR_MAGIC + 6]) ||
	    h[HDR_MAGIC + 7] != ' ' ||
	    (len = strnlen(h, HDR_LABELSZ)) > SHMIDS_LABEL_MAX || h[0] != '/')
		return 0;
	idlen = strcspn(h, " ");
	/* Another user's bytes: printed only if a path of ours (printable). */
	if (idlen >= len || shmids_id_check(h, idlen, NULL) == -1 ||
	    (idlen == strlen(si->id) && memcmp(h, si->id, idlen) == 0))
		return 0;
	add(o, "%s is a segment made as %.*s (its label says so): renamed or "
	    "linked from there, it is not taken for a segment", si->id,
	    (int)idlen, h);
	return 1;
}

/* The label the user gave is not the segment's. */
/* A file whose owner is not the uid its name says made it (2.6). */
static void
explain_squat(struct out *o, const struct shmids_info *si)
{
	unsigned long uid = 0;
	struct passwd pw, *res = NULL;
	char buf[1024];

	(void)shmids_id_uid(si->id, &uid);
	add(o, "file segment %s belongs to uid %lu", si->id,
	    (unsigned long)si->uid);
	if (getpwuid_r(si->uid, &pw, buf, sizeof(buf), &res) == 0 &&
	    res != NULL && strlen(pw.pw_name) <= 32)
		add(o, " (%s)", pw.pw_name);
	add(o, ", not to uid %lu who made it: not read", uid);
}

/*
 * An old-form file (no uid in its name) of an owner the reader does not
 * read: its maker cannot be checked (format-spec.md 2.6).  1 if said so.
 */
static int
explain_old_form(struct out *o, const struct shmids_info *si)
{
	unsigned long uid;

	if (si->shmid != -1 || shmids_id_uid(si->id, &uid) != 0 ||
	    shmids_reads_owner(si->id, si->uid))
		return 0;
	add(o, "file segment %s was made before shmids 1.4 and belongs to ",
	    si->id);
	add_user(o, si->uid);
	add(o, ", not to you: its maker cannot be checked, so it is not read "
	    "(SHMIDS_OLD_OWNERS=");
	add_user_word(o, si->uid);
	add(o, " reads ");
	add_user(o, si->uid);
	add(o, "'s: shmids(5) 2.6)");
	return 1;
}

static void
explain_stale(struct out *o, const char *label, const struct shmids_info *si)
{
	if (explain_old_form(o, si))
		return;
	switch (si->ours) {
	case 2:
		/* An orphan (format-spec.md 2.6): a label names its origin. */
		if (explain_moved(o, si))
			return;
		add(o, "segment %s has no label: its writer was killed before "
		    "writing the header", si->id);
		add_remove_hint(o, si, si->id);
		return;
	case 0:
		if (si->err == EPERM) {
			explain_squat(o, si);
			return;
		}
		if (si->err == EPROTONOSUPPORT)
			add(o, "segment %s has a header of a later version than "
			    "shmids %s reads: a newer shmids reads it", si->id,
			    SHMIDS_VERSION);
		else if (!explain_moved(o, si))
			add(o, "segment %s is not a shmids segment", si->id);
		return;
	}
	if (si->label[0] == '\0') {
		add(o, "segment %s cannot be read by you, so its label "
		    "cannot be checked", si->id);
		return;
	}
	if (label != NULL && strcmp(si->label, label) == 0) {
		add(o, "segment %s did not carry this label when it was read",
		    si->id);
		return;
	}
	add(o, "segment %s is labelled '%s'", si->id, si->label);
}

/*
 * EAGAIN says no more than "still being written", whatever the state
 * now, so that a caller that waited can add for how long.
 */
static void
explain_writer(struct out *o, int errnum, const char *label,
    const struct shmids_info *si)
{
	if (errnum == EAGAIN) {
		add(o, "still being written");
		/* Its maker gone, a fork of it fills (format-spec.md 2.2). */
		if (si->ours == 1 && si->cpid > 0 && kill(si->cpid, 0) == -1 &&
		    errno == ESRCH)
			add(o, " by a process forked from its writer (pid %ld, "
			    "gone)", (long)si->cpid);
		else if (si->ours == 1 && si->cpid > 0)
			add(o, " by pid %ld", (long)si->cpid);
		return;
	}
	if (si->ours != 1) {
		add(o, "its writer died before sealing it");
		return;
	}
	add(o, "its writer");
	if (si->cpid > 0)
		add(o, " (pid %ld)", (long)si->cpid);
	add(o, " died before sealing it");
	add_remove_hint(o, si, label != NULL ? label : si->label);
}

/* What another user's mode lets the caller do: read it? */
static int
readable(const struct shmids_info *si)
{
	uid_t me = geteuid();

	if (me == 0)
		return 1;
	if (me == si->uid)
		return (si->mode & 0400) != 0;
	if (getegid() == si->gid)
		return (si->mode & 0040) != 0;
	return (si->mode & 0004) != 0;
}

static void
explain_access(struct out *o, int errnum, const struct shmids_info *si)
{
	const char *slash;

	if (errnum == EPERM) {
		add(o, "segment %s is ", si->id);
		add_user(o, si->uid);
		add(o, "'s: only its owner, its creator or root may remove it");
		return;
	}
	if (si->err != EACCES && readable(si) && si->shmid == -1 &&
	    (slash = strrchr(si->id, '/')) != NULL) {
		add(o, "you may not remove files from %.*s",
		    (int)(slash - si->id), si->id);
		return;
	}
	/* Refused, yet readable now: a cleaner's mode-0 moment (section 7). */
	if (si->err != EACCES && readable(si)) {
		add(o, "segment %s was shut to readers for a moment (mode 0: "
		    "a cleaner checking whether it is in use); it is mode %03o "
		    "now: try again", si->id, si->mode);
		return;
	}
	add(o, "segment %s is ", si->id);
	add_user(o, si->uid);
	add(o, "'s, mode %03o: you may not read it", si->mode);
}

static void
explain_type(struct out *o, const struct shmids_info *si)
{
	if (si->ours != 1) {
		add(o, "the segment holds another element type than the one "
		    "asked for");
		return;
	}
	if (si->type == SHMIDS_RAW)
		add(o, "segment %s holds %zu raw bytes, not a whole number "
		    "of the type asked for", si->id, si->count);
	else
		add(o, "segment %s holds %zu %s values, not the type asked "
		    "for", si->id, si->count, shmids_type_name(si->type));
}

static void
explain_busy(struct out *o, const struct shmids_info *si)
{
	if (si->nattch == 0) {
		add(o, "segment %s changed while it was being removed "
		    "(another cleaner?)", si->id);
		return;
	}
	add(o, "segment %s is in use", si->id);
	if (si->shmid >= 0)
		add(o, " (%lu process%s attached)", si->nattch,
		    si->nattch == 1 ? "" : "es");
}

/*
 * Streams (format-spec.md 10.8): how far the writer has come, and the
 * reader it waits for, if one holds it up.
 */
static void
add_stream_state(struct out *o, const char *id,
    const struct shmids_stream_info *st)
{
	long long behind = 0;
	int i, slow = -1;

	if (st->state == 'r') {
		add(o, "stream %s has ended, after %lld messages", id,
		    st->head);
		return;
	}
	add(o, "stream %s is live: its writer (pid %ld) has published %lld "
	    "messages", id, (long)st->writer, st->head);
	if (st->joined < st->readers) {
		add(o, "; it keeps them all until %d readers have registered, "
		    "and %lld have", st->readers, st->joined);
		return;
	}
	for (i = 0; i < st->nreaders; i++)
		if (st->head - st->reader[i].pos > behind) {
			behind = st->head - st->reader[i].pos;
			slow = i;
		}
	if (slow >= 0 && !(st->flags & SHMIDS_STREAM_OVERWRITE) &&
	    behind >= (long long)st->slots)
		add(o, "; reader pid %ld is %lld behind, at message %lld, and "
		    "the ring of %zu slots is full until it reads on",
		    (long)st->reader[slow].pid, behind, st->reader[slow].pos,
		    st->slots);
}

/* What the ring of st holds now, for a message asked for by seq. */
static void
add_stream_held(struct out *o, const struct shmids_stream_info *st)
{
	if (st->head == st->tail)
		add(o, "the ring of %zu slots holds no message now", st->slots);
	else
		add(o, "the ring of %zu slots holds messages %lld to %lld now",
		    st->slots, st->tail, st->head - 1);
}

static void
explain_nomsg(struct out *o, const struct shmids_stream_info *st,
    long long seq)
{
	if (seq >= 0 && seq < st->tail) {
		add(o, "message %lld is gone: ", seq);
		add_stream_held(o, st);
	} else if (seq >= 0 && st->state == 'r' && seq >= st->head) {
		if (st->head == 0)
			add(o, "the stream ended with no message: there is no "
			    "message %lld", seq);
		else
			add(o, "the stream ended after %lld messages (0 to "
			    "%lld): there is no message %lld", st->head,
			    st->head - 1, seq);
	} else if (seq >= 0 && seq < st->head) {
		add(o, "message %lld is in the ring now: ", seq);
		add_stream_held(o, st);
	} else {
		add(o, "the message asked for is gone: ");
		add_stream_held(o, st);
	}
}

/* A stream's reader writes in it: who may, by the mode (10.1). */
static void
explain_stream_access(struct out *o, const char *id)
{
	struct shmids_info si;

	if (shmids_stat_dims(id, &si, NULL, SHMIDS_NOHDR) == -1) {
		add(o, "a reader of stream %s needs read and write permission",
		    id);
		return;
	}
	add(o, "stream %s is ", id);
	add_user(o, si.uid);
	add(o, "'s, mode %03o: a reader registers in it, so it needs read "
	    "and write permission", si.mode);
}

static void
explain_stream_dead(struct out *o, const char *id,
    const struct shmids_stream_info *st)
{
	struct shmids_info si;

	add(o, "its writer (pid %ld) died after %lld messages, without ending "
	    "the stream", (long)st->writer, st->head);
	if (shmids_stat_dims(id, &si, NULL, SHMIDS_NOHDR) == 0)
		add_remove_hint(o, &si, st->label);
}

/* Does the header of id's segment say version 4, a stream (10.1)? */
static int
is_stream(const char *id)
{
	struct shmids_info si;
	char h[SHMIDS_HEADER];
	size_t size;

	if (shmids_be_of(id)->stat(id, &si) != 0)
		return 0;
	return shmids_be_of(id)->peek(&si, h, &size) == SHMIDS_HEADER &&
	    memcmp(h + HDR_MAGIC, "shmids4 ", 8) == 0;
}

/*
 * errnum about the stream id names, or a message of it (seq, or -1):
 * 1 if said, 0 for the segment's words (not a stream, or an errno the
 * segment's words say as well).
 */
static int
explain_stream(struct out *o, const char *id, long long seq, int errnum)
{
	struct shmids_stream_info st;
	int e, i, dead = 0;

	switch (errnum) {
	case EMEDIUMTYPE: case ENOMSG: case EUSERS: case ENOLINK:
	case EMSGSIZE: case EBADF:
		break;
	case EAGAIN: case EOWNERDEAD: case EACCES: case EBADMSG:
		/* a segment's words, unless its header says a stream */
		if (!is_stream(id))
			return 0;
		break;
	default:
		return 0;
	}
	if (shmids_st_look(id, &st) == -1) {
		e = errno;
		if (errnum == EMEDIUMTYPE && e == EMEDIUMTYPE)
			add(o, "segment %s holds an array, not a stream of "
			    "messages%s", id, seq >= 0 ? ": its reference has "
			    "no sequence number" : "");
		else if (errnum == EBADMSG && e == EBADMSG)
			add(o, "stream %s has a damaged stream header", id);
		else if (e == ENOENT)
			explain_gone(o, id);
		else if (errnum == ENOLINK || errnum == EBADF ||
		    errnum == EUSERS || errnum == EMSGSIZE ||
		    errnum == ENOMSG)
			add_strerror(o, errnum);
		else
			return 0;
		return 1;
	}
	switch (errnum) {
	case EMEDIUMTYPE:
		add(o, "segment %s is a stream of messages, not an array: a "
		    "reference names one of its messages by its sequence "
		    "number ('x shmids %s 17')", id, st.label);
		break;
	case ENOMSG:
		explain_nomsg(o, &st, seq);
		break;
	case EUSERS:
		for (i = 0; i < st.nreaders; i++)
			dead += st.reader[i].alive == 0;
		add(o, "stream %s has %d readers registered, the most it "
		    "holds", id, st.nreaders);
		if (dead > 0)
			add(o, " (%d of them dead: their entries are taken back "
			    "as they are needed)", dead);
		break;
	case ENOLINK:
		add(o, "this reader's registration in stream %s was taken back "
		    "by a process that judged it dead (another pid "
		    "namespace?): open the stream again", id);
		break;
	case EMSGSIZE:
		add(o, "a message larger than the %zu bytes each slot of stream "
		    "%s holds", st.capacity, id);
		break;
	case EBADF:
		add(o, "a handle of stream %s used for what it cannot do: loan "
		    "and publish take its writer's handle, next, get and "
		    "release a reader's, and a fork's copy of either may only "
		    "be closed", id);
		break;
	case EAGAIN:
		add_stream_state(o, id, &st);
		break;
	case EOWNERDEAD:
		if (st.state != 'd')
			return 0;
		explain_stream_dead(o, id, &st);
		break;
	case EACCES:
		explain_stream_access(o, id);
		break;
	case EBADMSG:
		add(o, "stream %s has a damaged message descriptor (written by "
		    "someone who may write the stream): the message was "
		    "skipped", id);
		break;
	}
	return 1;
}

/* errnum, about the segment id names (label: what the user gave). */
static void
explain_seg(struct out *o, const char *id, const char *label, int errnum)
{
	struct shmids_info si;
	long long hole;
	int e;

	if (explain_stream(o, id, -1, errnum))
		return;
	switch (errnum) {
	case ENOENT:
		explain_gone(o, id);
		return;
	case EMLINK:
		add_linked(o, id);
		return;
	case EXDEV:	/* stat_name() in file.c */
		add(o, "%s is a mount point, not a file segment", id);
		return;
	case ESTALE: case EAGAIN: case EOWNERDEAD: case EACCES: case EPERM:
	case EPROTOTYPE: case EBADMSG: case EBUSY:
		break;
	default:
		add_strerror(o, errnum);
		return;
	}
	if (shmids_stat_dims(id, &si, NULL, 0) == -1) {
		if ((e = errno) == ENOENT)
			explain_gone(o, id);
		else if (e == ESTALE)
			add(o, "%s is not a regular file, so not a file "
			    "segment", id);
		else if (e == EACCES)
			add(o, "segment %s cannot be looked at by you", id);
		else
			add_strerror(o, errnum);
		return;
	}
	switch (errnum) {
	case ESTALE:
		explain_stale(o, label, &si);
		break;
	case EAGAIN:
	case EOWNERDEAD:
		explain_writer(o, errnum, label, &si);
		break;
	case EACCES:
	case EPERM:
		explain_access(o, errnum, &si);
		break;
	case EPROTOTYPE:
		explain_type(o, &si);
		break;
	case EBADMSG:
		if (si.ours == 1 && si.shmid == -1 && (hole = shmids_file_alloc(
		    id, SHMIDS_HEADER + si.count *
		    shmids_type_size(si.type))) != -1)
			add(o, "segment %s declares %zu bytes, of which only "
			    "%lld are allocated (a sparse file: no shmids "
			    "writer made it so)", id, SHMIDS_HEADER +
			    si.count * shmids_type_size(si.type), hole);
		else
			add(o, "segment %s has a damaged header (malformed, or "
			    "claiming more bytes than the segment has)", id);
		add_remove_hint(o, &si, si.label[0] ? si.label : id);
		break;
	case EBUSY:
		explain_busy(o, &si);
		break;
	}
}

/*
 * The label (or bare id) a string names: itself, or the label of a
 * reference line or table reference line (*ref then 1).  0 and the label
 * (or id) in out; -1 if the string is malformed, *why saying how.
 */
/*
 * The line given to shmids_get(), read as an inline array's first line
 * (format-spec.md 6): its first token that is no value, quoted, and
 * what is wrong with it, into tok (64 bytes), if its first value looks
 * like one (a digit, a sign or a point begins it: "coeff 12" mistaken
 * for a label is left to the label's words).  1 if there is one.
 */
static int
bad_token(const char *s, const struct shmids_line *c, char *tok)
{
	struct shmids_values v;
	struct shmids_span sp;
	size_t at = c->values + strspn(s + c->values, " \t"), n;
	char *line;

	if (at >= c->end || strchr("0123456789+-.", s[at]) == NULL ||
	    (line = strndup(s + at, c->end - at)) == NULL)
		return 0;
	memset(&v, 0, sizeof(v));
	v.type = SHMIDS_F64;
	sp.bad = NULL;
	if (shmids_values_read(&v, line, strlen(line), 1, SHMIDS_VALUES_LINE,
	    &sp) == -1 && sp.bad != NULL) {
		n = strcspn(sp.bad, " \t\r\n");
		snprintf(tok, 64, "\"%.*s%s\" %s", n > 40 ? 40 : (int)n,
		    sp.bad, n > 40 ? "..." : "", errno == ERANGE ?
		    "is out of the range of f64" : "is no number");
	}
	shmids_values_free(&v);
	free(line);
	return sp.bad != NULL;
}

static int
find_label(const char *s, char *out, const char **why, int *toolong,
    int *ref, char *tok)
{
	struct shmids_line c;
	struct shmids_values v;
	size_t len = strlen(s), n;
	int sep, row;

	*toolong = 0;
	*ref = 0;
	if (len > 0 && s[len - 1] == '\n')
		len--;
	/* what the line is: format-spec.md 5, 6.1 (classify.c) */
	shmids_line_kind(s, len, 0, &c);
	switch (c.kind) {
	case SHMIDS_LINE_REF:
	case SHMIDS_LINE_TREF:
		strcpy(out, c.label);
		*ref = 1;
		return 0;
	case SHMIDS_LINE_MALFORMED:
		*why = c.why;
		return -1;
	}
	if ((*why = label_why(s, len, toolong)) == NULL) {
		memcpy(out, s, len);
		out[len] = '\0';
		return 0;
	}
	/* "# 1 2 3": a comment, which has no field (format-spec.md 6) */
	if (c.kind == SHMIDS_LINE_TEXT && c.sep == '#') {
		*why = "a comment (a line whose first token begins with #) "
		    "is text, never a field";
		return -1;
	}
	/* "coeff 1 2 x": an inline array, given to shmids_get(), that is text */
	if (c.kind == SHMIDS_LINE_ARRAY && bad_token(s, &c, tok)) {
		*why = no_value;
		return -1;
	}
	/* "1 2 3": values only, which shmids_get() was given, say */
	if (c.kind == SHMIDS_LINE_ROW && *why == blank_name) {
		memset(&v, 0, sizeof(v));
		v.type = SHMIDS_F64;
		row = shmids_row_parse(&v, s, len, &sep, &n) == 1;
		shmids_values_free(&v);
		if (row)
			*why = "a line that begins with a number is a table "
			    "row or text, never a field";
	}
	return -1;
}

int
shmids_explain(char *buf, size_t size, const char *label, int errnum)
{
	char l[SHMIDS_LABEL_MAX + 1], id[SHMIDS_LABEL_MAX + 1], tok[64];
	uint64_t seq;
	struct out o;
	const char *why = NULL;
	int e = errno, toolong, bad, ref;

	o.buf = buf;
	o.size = buf == NULL ? 0 : size;
	o.len = 0;
	if (o.size > 0)
		buf[0] = '\0';
	/*
	 * A message's label, "<id> <name> <seq>" (format-spec.md 5.1), for
	 * what went wrong with the segment; what is wrong with the text
	 * ("1 2 3" given for a field, say) is said below.
	 */
	if (label != NULL && errnum != EINVAL && errnum != ENAMETOOLONG &&
	    shmids_st_msglabel(label, l, &seq)) {
		memcpy(id, l, strcspn(l, " "));
		id[strcspn(l, " ")] = '\0';
		if (!explain_stream(&o, id, (long long)seq, errnum))
			explain_seg(&o, id, l, errnum);
		errno = e;
		return o.len > (size_t)0x7fffffff ? 0x7fffffff : (int)o.len;
	}
	bad = label != NULL &&
	    find_label(label, l, &why, &toolong, &ref, tok) == -1;
	if (label == NULL || errnum == ENOSPC || errnum == ENOSYS ||
	    errnum == ENOMEM || errnum == EFBIG) {
		if (!explain_store(&o, errnum))
			add_strerror(&o, errnum);
	} else if (bad && why == no_value && errnum == EINVAL)
		add(&o, "%s: %s", tok, why);
	else if (bad && why == name_alone && errnum == EINVAL)
		add(&o, "%s: shm-ls -N %.*s lists its labels", why,
		    (int)strcspn(label, "\n"), label);
	else if (bad && (errnum == EINVAL || errnum == ENAMETOOLONG ||
	    toolong))
		add(&o, "%s", why);
	else if (bad)
		add_strerror(&o, errnum);
	else if (errnum == EINVAL && ref)
		/* valid lines give a label; only a call wanting one fails so */
		add(&o, "a reference line where a label is needed: its label "
		    "is '%s'", l);
	else if (errnum == EINVAL && strchr(l, ' ') == NULL)
		add(&o, "a bare id where a label ('<id> <name>') is needed");
	else {
		memcpy(id, l, strcspn(l, " "));
		id[strcspn(l, " ")] = '\0';
		explain_seg(&o, id, strchr(l, ' ') ? l : NULL, errnum);
	}
	errno = e;
	return o.len > (size_t)0x7fffffff ? 0x7fffffff : (int)o.len;
}
