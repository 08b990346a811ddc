/*
 * Making, opening, sealing, closing and removing segments: the paper's
 * shm_create/shm_open/shm_close under their shmids_ names.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static const struct shmids_backend *be = &shmids_sysv;

static void
atexit_seal(void)
{
	shmids_reg_sealall();
}

/* Undo a half-made segment without losing the errno that caused it. */
static void *
undo(int id, void *addr)
{
	int e = errno;

	if (addr != NULL)
		be->detach(addr);
	be->remove(id);
	errno = e;
	return NULL;
}

void *
shmids_create_array(const char *name, int mode, int type, size_t count)
{
	static int atexit_done;
	size_t esz = shmids_type_size(type), size;
	char *h;
	int id;

	if (name == NULL || esz == 0 || (mode & ~0777) != 0) {
		errno = EINVAL;
		return NULL;
	}
	if (shmids_name_check(name, strlen(name)) == -1)
		return NULL;
	if (count > ((size_t)-1 - SHMIDS_HEADER) / esz) {
		errno = ENOMEM;
		return NULL;
	}
	size = SHMIDS_HEADER + count * esz;
	if (!atexit_done && atexit(atexit_seal) != 0) {
		errno = ENOMEM;
		return NULL;
	}
	atexit_done = 1;
	if (be->create(size, &id) == -1)
		return NULL;
	if ((h = be->attach(id, 0)) == NULL)
		return undo(id, NULL);
	shmids_hdr_write(h, id, name, type, count);
	/* Widen or narrow to the exact mode only once the header is whole. */
	if (be->setmode(id, mode) == -1 ||
	    shmids_reg_add(h, size, id, getpid(), h) == -1)
		return undo(id, h);
	/*
	 * Last, as it may take a second for a big segment: a writer killed
	 * meanwhile leaves a named segment in state 'w' that the cleaners
	 * know as ours, not an anonymous one.
	 */
	be->prefault(h, size, 0);
	return h;
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
	shmids_hdr_seal(s->addr);
	return 0;
}

/*
 * Attach the segment label names and check it (format-spec.md 2.3).
 * rdonly is always set for readers; the header is checked on the
 * attached memory, whose size the kernel reported before the attach.
 */
static char *
attach_label(const char *label, struct shmids_info *si, struct hdr *hd)
{
	const char *name;
	size_t len, namelen;
	char *h;
	int id, e;

	if (label == NULL) {
		errno = EINVAL;
		return NULL;
	}
	len = strlen(label);
	if (len > 0 && label[len - 1] == '\n')
		len--;
	if (shmids_label_parse(label, len, &id, &name, &namelen) == -1)
		return NULL;
	if (be->stat(id, si) == -1)
		return NULL;
	if (si->removed || si->err != 0) {
		errno = si->removed ? ENOENT : si->err;
		return NULL;
	}
	if ((h = be->attach(id, 1)) == NULL)
		return NULL;
	e = shmids_hdr_read(h, si->size, id, hd);
	if (e == 0 && (strlen(hd->label) != len ||
	    memcmp(hd->label, label, len) != 0))
		e = ESTALE;
	if (e != 0) {
		be->detach(h);
		errno = e;
		return NULL;
	}
	return h;
}

void *
shmids_open(const char *label)
{
	struct shmids_info si;
	struct hdr hd;
	char *h;
	int e;

	if ((h = attach_label(label, &si, &hd)) == NULL)
		return NULL;
	e = hd.state == 'r' ? 0 : shmids_writer_state(si.cpid);
	if (e == 0 && shmids_reg_add(h, si.size, si.shmid, 0, hd.label) == -1)
		e = ENOMEM;
	if (e != 0) {
		be->detach(h);
		errno = e;
		return NULL;
	}
	be->prefault(h, si.size, 1);
	return h;
}

int
shmids_close(void *shm)
{
	struct seg *s;

	if ((s = shmids_reg_find(shm)) == NULL)
		return -1;
	if (s->writer == getpid())
		shmids_hdr_seal(s->addr);
	if (be->detach(s->addr) == -1)
		return -1;
	shmids_reg_del(s);
	return 0;
}

int
shmids_remove(const char *label)
{
	struct shmids_info si;
	struct hdr hd;
	char *h;

	if ((h = attach_label(label, &si, &hd)) == NULL)
		return -1;
	be->detach(h);
	return be->remove(si.shmid);
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
 * The typed view is checked against the size recorded at attach time, not
 * against what the header said then: a writer may rewrite its header.
 */
int
shmids_array(const void *shm, struct shmids_array *a)
{
	struct seg *s;
	struct hdr hd;
	int e;

	if ((s = shmids_reg_find(shm)) == NULL)
		return -1;
	if ((e = shmids_hdr_read(s->addr, s->size, s->id, &hd)) != 0) {
		errno = e == ESTALE ? EBADMSG : e;
		return -1;
	}
	memset(a, 0, sizeof(*a));
	a->type = hd.type;
	a->count = hd.count;
	a->data = hd.count ? s->addr + SHMIDS_HEADER : NULL;
	return 0;
}
