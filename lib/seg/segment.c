/*
 * Making, opening, sealing, closing and removing segments: the paper's
 * shm_create/shm_open/shm_close under their shmids_ names.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "seg.h"

/* Undo a half-made segment without losing the errno that caused it. */
static void *
undo(const struct shmids_backend *be, struct att *a, const char *id)
{
	int e = errno;

	be->remove(id);
	be->detach(a);
	errno = e;
	return NULL;
}

/*
 * cols 0: a 1-D segment (header version 1); else a table (2.7) in
 * order, version 3 if SHMIDS_COLMAJOR (the caller's: only for rows > 1
 * and cols > 1), else 2.
 */
static void *
create(const char *name, int mode, int type, size_t count, size_t cols,
    int order)
{
	const struct shmids_backend *be = shmids_be_new();
	char id[SHMIDS_LABEL_MAX + 1];
	size_t esz = shmids_type_size(type), namelen;
	struct att a;

	if (name == NULL || esz == 0 || (mode & ~0777) != 0) {
		errno = EINVAL;
		return NULL;
	}
	namelen = strlen(name);
	if (shmids_name_check(name, namelen) == -1)
		return NULL;
	if (count > ((size_t)-1 - SHMIDS_HEADER) / esz) {
		errno = ENOMEM;
		return NULL;
	}
	if (shmids_reg_init() == -1)
		return NULL;
	if (be->create(SHMIDS_HEADER + count * esz, namelen, id, &a) == -1)
		return NULL;
	shmids_hdr_write(a.addr, id, name, type, count, cols, order);
	/* Widen or narrow to the exact mode only once the header is whole. */
	if (be->setmode(&a, id, mode) == -1 ||
	    shmids_reg_add(be, &a, getpid(), id, a.addr, type, count,
	    cols, order) == -1)
		return undo(be, &a, id);
	/*
	 * Last, as it may take a second for a big segment: a writer killed
	 * meanwhile leaves a named segment in state 'w' that the cleaners
	 * know as ours, not an anonymous one.
	 */
	if (be->prefault(&a, 0) == -1) {
		shmids_reg_del(shmids_reg_find(a.addr));
		return undo(be, &a, id);
	}
	return a.addr;
}

void *
shmids_create_array(const char *name, int mode, int type, size_t count)
{
	return create(name, mode, type, count, 0, SHMIDS_ROWMAJOR);
}

void *
shmids_create_matrix(const char *name, int mode, int type, size_t rows,
    size_t cols, int order)
{
	if (cols == 0 || cols > SHMIDS_COLS_MAX ||
	    (order != SHMIDS_ROWMAJOR && order != SHMIDS_COLMAJOR)) {
		errno = EINVAL;
		return NULL;
	}
	if (rows > (size_t)-1 / cols) {
		errno = ENOMEM;
		return NULL;
	}
	/* one row or one column: both orders are the same bytes (2.7) */
	if (rows < 2 || cols < 2)
		order = SHMIDS_ROWMAJOR;
	return create(name, mode, type, rows * cols, cols, order);
}

int
shmids_seal(void *shm)
{
	struct seg *s;

	if ((s = shmids_reg_find(shm)) == NULL || s->writer == 0) {
		errno = EINVAL;
		return -1;
	}
	shmids_reg_seal(s);
	return 0;
}

/*
 * The header h of a segment of size bytes carries exactly label: 0, or
 * ESTALE, EBADMSG.
 */
static int
check_hdr(const volatile char *h, size_t size, const char *id,
    const char *label, struct hdr *hd)
{
	size_t len = strlen(label);
	int e;

	if (len > 0 && label[len - 1] == '\n')
		len--;
	e = shmids_hdr_read(h, size, id, label, len, hd);
	if (e == 0 && (strlen(hd->label) != len ||
	    memcmp(hd->label, label, len) != 0))
		e = ESTALE;
	return e;
}

/*
 * Mode 0 is a cleaner's moment (format-spec.md 7): it sets the mode
 * back within milliseconds unless it removes the segment.  Look once
 * more before refusing.
 */
static int
stat_again(const struct shmids_backend *be, struct shmids_info *si)
{
	struct timespec ts = { 0, 20000000 };	/* 20 ms */

	nanosleep(&ts, NULL);
	return be->stat(si->id, si);
}

/* The backend of the segment label names, its id in si; NULL with errno. */
static const struct shmids_backend *
id_of(const char *label, struct shmids_info *si)
{
	const char *name;
	size_t len, idlen, namelen;

	if (label == NULL) {
		errno = EINVAL;
		return NULL;
	}
	len = strlen(label);
	if (len > 0 && label[len - 1] == '\n')
		len--;
	if (shmids_label_parse(label, len, &idlen, &name, &namelen) == -1)
		return NULL;
	memcpy(si->id, label, idlen);
	si->id[idlen] = '\0';
	return shmids_be_of(si->id);
}

/* si's segment as the system has it now: 0, or -1 with errno. */
static int
stat_id(const struct shmids_backend *be, struct shmids_info *si)
{
	int k;

	if ((k = be->stat(si->id, si)) == 1 && si->mode == 0)
		k = stat_again(be, si);
	if (k == -1)
		return -1;
	if (si->removed || k == 1) {
		errno = si->removed ? ENOENT : EACCES;
		return -1;
	}
	/* Not its maker's (format-spec.md 2.6): another file at that path. */
	if (!shmids_made_by_owner(si)) {
		errno = ESTALE;
		return -1;
	}
	return 0;
}

/* The segment label names, as the system has it now; NULL with errno. */
static const struct shmids_backend *
stat_label(const char *label, struct shmids_info *si)
{
	const struct shmids_backend *be;

	if ((be = id_of(label, si)) == NULL || stat_id(be, si) == -1)
		return NULL;
	return be;
}

/* The header of attachment a to check: its copy, or where it is mapped. */
static const volatile char *
head(const struct att *a)
{
	return a->copied ? a->head : a->addr;
}

/*
 * Attach the segment label names and check it (format-spec.md 2.3),
 * read-only, as a reader, who holds it (files: with a read lock).  The
 * header is checked against the segment's size.  A backend that learns
 * on its own descriptor what stat() would tell is not asked twice.
 */
static const struct shmids_backend *
attach_label(const char *label, struct shmids_info *si, struct hdr *hd,
    struct att *a)
{
	const struct shmids_backend *be;
	int e;

	if ((be = id_of(label, si)) == NULL ||
	    (!be->selfstat && stat_id(be, si) == -1) ||
	    be->attach(si, ATT_READ, a) == -1)
		return NULL;
	if ((e = check_hdr(head(a), a->size, si->id, label, hd)) != 0) {
		be->detach(a);
		errno = e;
		return NULL;
	}
	return be;
}

/*
 * The segment attached at a, its header hd checked: hand it out.  With
 * held, one whose writer is still filling stays attached, for the caller
 * to wait on and detach: *held is its backend (else NULL).  flags: those
 * of shmids_open_flags().
 */
static void *
hand_out(const struct shmids_backend *be, const struct shmids_info *si,
    const struct hdr *hd, struct att *a, const struct shmids_backend **held,
    int flags)
{
	int e;

	/*
	 * Only the declared bytes: a segment may be far larger than its
	 * header says, and pages populated stay with it (format-spec.md
	 * 2.5).  hd->count was checked against a->size: no overflow.  A
	 * stream is read by the stream calls alone, whatever its state
	 * (10.1).
	 */
	e = hd->version == '4' ? EMEDIUMTYPE : be->ready(si, a, hd->state);
	if (e == 0 && be->narrow(a, SHMIDS_HEADER +
	    hd->count * shmids_type_size(hd->type)) == -1)
		e = errno;
	if (e == 0 && shmids_reg_add(be, a, 0, si->id, hd->label, hd->type,
	    hd->count, hd->cols, hd->order) == -1)
		e = ENOMEM;
	if (e == EAGAIN && held != NULL) {
		*held = be;
		errno = e;
		return NULL;
	}
	if (held != NULL)
		*held = NULL;
	if (e == EINPROGRESS)
		e = EAGAIN;	/* filling, but not held: sysv.c */
	if (e != 0) {
		be->detach(a);
		errno = e;
		return NULL;
	}
	if (!(flags & SHMIDS_LAZY))
		be->prefault(a, 1);
	return a->addr;
}

/* One try, as shmids_open_flags() without a wait, holding one filling. */
static void *
open_held(const char *label, struct shmids_info *si, struct att *a,
    const struct shmids_backend **held, int flags)
{
	const struct shmids_backend *be;
	struct hdr hd;

	*held = NULL;
	if ((be = attach_label(label, si, &hd, a)) == NULL)
		return NULL;
	return hand_out(be, si, &hd, a, held, flags);
}

/*
 * Woken on the segment held: the same checks again on the same
 * attachment, the reader's lock first (files), then the header; cheaper
 * than attaching again, which costs more than the wake itself.
 */
static void *
recheck(const char *label, const struct shmids_info *si, struct att *a,
    const struct shmids_backend **held, int flags)
{
	const struct shmids_backend *be = *held;
	struct hdr hd;
	int e;

	if (be->reread(si, a) == -1)
		e = errno;
	else
		e = check_hdr(head(a), a->size, si->id, label, &hd);
	if (e != 0) {
		*held = NULL;
		be->detach(a);
		errno = e;
		return NULL;
	}
	return hand_out(be, si, &hd, a, held, flags);
}

#define SLICE_NS	100000000LL	/* 100 ms: format-spec.md 2.2 */
#define FOREVER_NS	(1000000000LL * 1000000000)	/* 31 years */

/*
 * A wake is checked on the attachment held; a slice that ends without
 * one opens the segment afresh, which notices a writer that died, one
 * that seals without waking anyone, and a segment removed meanwhile.
 * The last try comes when the time is up.
 */
void *
shmids_open_flags(const char *label, int flags, double seconds)
{
	const struct shmids_backend *held;
	struct shmids_info si;
	long long until, left;
	struct att a;
	void *h;
	int e = errno, woke;

	if (!(seconds >= 0) || (flags & ~SHMIDS_LAZY) != 0) {
		errno = EINVAL;
		return NULL;
	}
	until = shmids_now_ns() +
	    (seconds < 1e9 ? (long long)(seconds * 1e9) : FOREVER_NS);
	h = open_held(label, &si, &a, &held, flags);
	while (h == NULL && errno == EAGAIN &&
	    (left = until - shmids_now_ns()) > 0) {
		woke = shmids_wait(held != NULL ? a.addr : NULL,
		    left < SLICE_NS ? left : SLICE_NS);
		if (held != NULL && woke) {
			h = recheck(label, &si, &a, &held, flags);
			continue;
		}
		if (held != NULL)
			held->detach(&a);
		h = open_held(label, &si, &a, &held, flags);
	}
	if (h == NULL && held != NULL) {
		e = errno;
		held->detach(&a);
		errno = e;
	} else if (h != NULL)
		errno = e;
	return h;
}

int
shmids_close(void *shm)
{
	struct seg *s;

	if ((s = shmids_reg_find(shm)) == NULL)
		return -1;
	shmids_reg_close(s);
	return 0;
}

int
shmids_remove(const char *label)
{
	const struct shmids_backend *be;
	struct shmids_info si;
	char h[SHMIDS_HEADER];
	struct hdr hd;
	size_t size;
	ssize_t n;
	int e;

	/*
	 * The header is copied, not mapped: a file its owner truncates
	 * meanwhile is an error here, not SIGBUS in a cleaner.
	 */
	if ((be = stat_label(label, &si)) == NULL ||
	    (n = be->peek(&si, h, &size)) == -1)
		return -1;
	if ((e = check_hdr(h, size, si.id, label, &hd)) != 0) {
		errno = e;
		return -1;
	}
	return shmids_remove_info(&si, 0);
}

const char *
shmids_label(const void *shm)
{
	struct seg *s;

	if ((s = shmids_reg_find(shm)) == NULL)
		return NULL;
	return s->label;
}

/*
 * What the header declared when the segment was attached (the bytes
 * mapped and populated), not what it says now: a writer may rewrite its
 * header, and shmids_label() answers from the same snapshot.
 */
int
shmids_array(const void *shm, struct shmids_array *a)
{
	struct seg *s;

	if ((s = shmids_reg_find(shm)) == NULL)
		return -1;
	memset(a, 0, sizeof(*a));
	a->type = s->type;
	a->count = s->count;
	a->data = s->count ? s->a.addr + SHMIDS_HEADER : NULL;
	return 0;
}

int
shmids_dims(const void *shm, struct shmids_dims *d)
{
	struct seg *s;

	if ((s = shmids_reg_find(shm)) == NULL)
		return -1;
	shmids_dims_of(d, s->count, s->cols, s->order);
	return d->ndim;
}

/*
 * Streams (format-spec.md section 10): the segment a stream lives in,
 * made, attached, ended and removed for lib/stream/ (seg.h says how).
 * The stream header is written while the segment is still mode 0600,
 * and a file writer's lock is narrowed to the header before the mode
 * lets other users' readers in, who lock their entries (10.3, 10.5).
 */
int
shmids_seg_stream_make(const char *name, int mode, size_t nbytes,
    int (*init)(char *, void *), void *arg,
    const struct shmids_backend **bep, char id[SHMIDS_LABEL_MAX + 1],
    struct att *a)
{
	const struct shmids_backend *be = shmids_be_new();
	size_t namelen;

	if (name == NULL || (mode & ~0777) != 0) {
		errno = EINVAL;
		return -1;
	}
	namelen = strlen(name);
	if (shmids_name_check(name, namelen) == -1)
		return -1;
	if (nbytes > (size_t)-1 - SHMIDS_HEADER) {
		errno = ENOMEM;
		return -1;
	}
	if (be->create(SHMIDS_HEADER + nbytes, namelen, id, a) == -1)
		return -1;
	shmids_hdr_write(a->addr, id, name, SHMIDS_RAW, nbytes, 0, HDR_STREAM);
	if (init(a->addr, arg) == -1 ||
	    (a->fd >= 0 && shmids_file_lock(a, F_UNLCK, SHMIDS_HEADER, 0)
	    == -1) || be->setmode(a, id, mode) == -1 ||
	    be->prefault(a, 0) == -1) {
		undo(be, a, id);
		return -1;
	}
	*bep = be;
	return 0;
}

int
shmids_seg_stream_attach(const char *label, const struct shmids_backend **bep,
    struct shmids_info *si, struct hdr *hd, struct att *a)
{
	const struct shmids_backend *be;
	int e;

	if ((be = stat_label(label, si)) == NULL ||
	    be->attach(si, ATT_RDWR, a) == -1)
		return -1;
	e = check_hdr(a->addr, a->size, si->id, label, hd);
	if (e == 0 && hd->version != '4')
		e = EMEDIUMTYPE;
	if (e == 0 && be->narrow(a, SHMIDS_HEADER + hd->count) == -1)
		e = errno;
	if (e != 0) {
		be->detach(a);
		errno = e;
		return -1;
	}
	be->prefault(a, 1);
	*bep = be;
	return 0;
}

/* The seal of 2.2, but a file writer's lock goes: readers lock entries. */
void
shmids_seg_stream_end(const struct shmids_backend *be, struct att *a)
{
	int e = errno;

	(void)be;
	shmids_hdr_seal(a->addr);
	if (a->fd >= 0)
		shmids_file_lock(a, F_UNLCK, 0, SHMIDS_HEADER);
	shmids_wake(a->addr);
	errno = e;
}

int
shmids_seg_unlink(const struct shmids_backend *be, const struct att *a,
    const char *id)
{
	struct stat st, pst;

	if (a->fd >= 0) {
		if (fstat(a->fd, &st) == -1 || lstat(id, &pst) == -1)
			return -1;
		if (st.st_dev != pst.st_dev || st.st_ino != pst.st_ino) {
			errno = ESTALE;
			return -1;
		}
	}
	return be->remove(id);
}
