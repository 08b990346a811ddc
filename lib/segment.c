/*
 * Making, opening, sealing, closing and removing segments: the paper's
 * shm_create/shm_open/shm_close under their shmids_ names.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static void
atexit_seal(void)
{
	shmids_reg_sealall();
}

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

void *
shmids_create_array(const char *name, int mode, int type, size_t count)
{
	static int atexit_done;
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
	if (!atexit_done && atexit(atexit_seal) != 0) {
		errno = ENOMEM;
		return NULL;
	}
	atexit_done = 1;
	if (be->create(SHMIDS_HEADER + count * esz, namelen, id, &a) == -1)
		return NULL;
	shmids_hdr_write(a.addr, id, name, type, count);
	/* Widen or narrow to the exact mode only once the header is whole. */
	if (be->setmode(&a, id, mode) == -1 ||
	    shmids_reg_add(be, &a, getpid(), id, a.addr) == -1)
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
shmids_create(const char *name, int mode, size_t nbytes)
{
	return shmids_create_array(name, mode, SHMIDS_RAW, nbytes);
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
 * Attach the segment label names and check it (format-spec.md 2.3),
 * read-only; lock: as a reader, who will hold it (files).  The header is
 * checked on the attached memory against the segment's size.
 */
static const struct shmids_backend *
attach_label(const char *label, int lock, struct shmids_info *si,
    struct hdr *hd, struct att *a)
{
	const struct shmids_backend *be;
	const char *name;
	size_t len, idlen, namelen;
	int e;

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
	be = shmids_be_of(si->id);
	if (be->stat(si->id, si) == -1)
		return NULL;
	if (si->removed || si->err != 0) {
		errno = si->removed ? ENOENT : si->err;
		return NULL;
	}
	if (be->attach(si, lock, a) == -1)
		return NULL;
	e = shmids_hdr_read(a->addr, a->size, si->id, hd);
	if (e == 0 && (strlen(hd->label) != len ||
	    memcmp(hd->label, label, len) != 0))
		e = ESTALE;
	if (e != 0) {
		be->detach(a);
		errno = e;
		return NULL;
	}
	return be;
}

void *
shmids_open(const char *label)
{
	const struct shmids_backend *be;
	struct shmids_info si;
	struct hdr hd;
	struct att a;
	int e;

	if ((be = attach_label(label, 1, &si, &hd, &a)) == NULL)
		return NULL;
	/*
	 * Only the declared bytes: a segment may be far larger than its
	 * header says, and pages populated stay with it (format-spec.md
	 * 2.5).  hd.count was checked against a.size: no overflow.
	 */
	e = be->ready(&si, &a, hd.state);
	if (e == 0 && be->narrow(&a, SHMIDS_HEADER +
	    hd.count * shmids_type_size(hd.type)) == -1)
		e = errno;
	if (e == 0 && shmids_reg_add(be, &a, 0, si.id, hd.label) == -1)
		e = ENOMEM;
	if (e != 0) {
		be->detach(&a);
		errno = e;
		return NULL;
	}
	be->prefault(&a, 1);
	return a.addr;
}

int
shmids_close(void *shm)
{
	struct seg *s;

	if ((s = shmids_reg_find(shm)) == NULL)
		return -1;
	if (s->writer == getpid())
		shmids_reg_seal(s);
	s->be->detach(&s->a);
	shmids_reg_del(s);
	return 0;
}

int
shmids_remove(const char *label)
{
	const struct shmids_backend *be;
	struct shmids_info si;
	struct hdr hd;
	struct att a;

	if ((be = attach_label(label, 0, &si, &hd, &a)) == NULL)
		return -1;
	be->detach(&a);
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
 * The typed view is checked against what the header declared when the
 * segment was opened, the bytes mapped and populated, not against the
 * header now: a writer may rewrite its header.
 */
int
shmids_array(const void *shm, struct shmids_array *a)
{
	struct seg *s;
	struct hdr hd;
	int e;

	if ((s = shmids_reg_find(shm)) == NULL)
		return -1;
	if ((e = shmids_hdr_read(s->a.addr, s->a.size, s->id, &hd)) != 0) {
		errno = e == ESTALE ? EBADMSG : e;
		return -1;
	}
	memset(a, 0, sizeof(*a));
	a->type = hd.type;
	a->count = hd.count;
	a->data = hd.count ? s->a.addr + SHMIDS_HEADER : NULL;
	return 0;
}
