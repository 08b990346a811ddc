/*
 * What the system and the headers say of segments, for shm-ls and
 * shm-rm.  The system's times are read before the one read-only attach.
 * A scan attaches only segments whose key or file name is ours, and
 * none under 128 bytes, so other programs' segments are never touched;
 * a segment named explicitly is judged by its header, as a reader
 * judges it (format-spec.md 2.4, 2.6, section 7).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "seg.h"

/*
 * The header is copied (peek), never read through a mapping: a file its
 * owner truncates meanwhile is this one file's error, not SIGBUS in the
 * listing or the cleaner.
 */
void
shmids_dims_of(struct shmids_dims *d, size_t count, size_t cols, int order)
{
	d->ndim = cols > 0 ? 2 : 1;
	d->order = cols > 0 ? order : SHMIDS_ROWMAJOR;
	d->cols = cols > 0 ? cols : 1;
	d->rows = count / d->cols;
}

static void
fill_header(const struct shmids_backend *be, struct shmids_info *si,
    struct shmids_dims *d)
{
	char h[SHMIDS_HEADER];
	struct hdr hd;
	size_t size;
	ssize_t n;
	int e, mine = shmids_made_by_owner(si);

	if ((n = be->peek(si, h, &size)) == -1) {
		/* A file with other names is not ours (format-spec.md 2.6). */
		si->ours = errno == EMLINK ? 0 : -1;
		si->err = errno == EMLINK ? 0 : errno;
		return;
	}
	if (mine && shmids_hdr_residue(h, (size_t)n, size) && be->residue(si)) {
		si->ours = 2;
		return;
	}
	memset(&hd, 0, sizeof(hd));
	e = shmids_hdr_read(h, size, si->id, NULL, 0, &hd);
	if (e == ESTALE && be->orphan != NULL && be->orphan(si, h, (size_t)n)) {
		si->ours = 2;	/* residue of the segment its label names */
		return;
	}
	/*
	 * Owned by another user than the one its name says made it: not a
	 * segment, whatever its header says (format-spec.md 2.6).
	 */
	if (!mine) {
		si->ours = 0;
		si->err = EPERM;
		return;
	}
	si->err = e;
	if (e != 0 && e != EBADMSG) {
		/* ours, but of a later version than this library reads */
		if (hd.version > '3' && hd.version <= '9')
			si->err = EPROTONOSUPPORT;
		si->ours = 0;
		return;
	}
	memcpy(si->label, hd.label, sizeof(si->label));
	si->name = si->label + hd.namepos;
	if (e != 0) {
		si->ours = -1;
		return;
	}
	si->ours = 1;
	si->type = hd.type;
	si->count = hd.count;
	si->state = hd.state;
	shmids_dims_of(d, hd.count, hd.cols, hd.order);
	if (hd.state == 'w' && be->ready(si, NULL, 'w') == EOWNERDEAD)
		si->state = 'd';
}

/* shmids_made_by_owner: the contract is in seg.h. */
int
shmids_made_by_owner(const struct shmids_info *si)
{
	unsigned long uid;

	return si->shmid >= 0 || shmids_id_uid(si->id, &uid) != 1 ||
	    (unsigned long)si->uid == uid;
}

/* scan: si comes from a scan, which attaches only what is ours by key. */
/* unreadable: the backend's stat said 1 (known, but not ours to read). */
static void
look(struct shmids_info *si, int unreadable, int flags, int scan,
    struct shmids_dims *d)
{
	const struct shmids_backend *be = shmids_be_of(si->id);

	memset(d, 0, sizeof(*d));
	si->ours = 0;
	si->err = 0;
	si->name = NULL;
	si->label[0] = '\0';
	if ((flags & SHMIDS_NOHDR) || si->removed ||
	    (scan && !be->isours(si)))
		return;
	if (si->size < SHMIDS_HEADER) {
		if (si->size == 0 && be->residue(si))
			si->ours = 2;	/* a file the writer had no time to size */
		return;
	}
	if (unreadable) {
		si->ours = -1;
		si->err = EACCES;
	} else
		fill_header(be, si, d);
}

int
shmids_stat_dims(const char *id, struct shmids_info *si,
    struct shmids_dims *d, int flags)
{
	struct shmids_dims none;
	int shmid, k;

	if (d == NULL)
		d = &none;

	if (id == NULL || strlen(id) > SHMIDS_LABEL_MAX ||
	    shmids_id_check(id, strlen(id), &shmid) == -1) {
		errno = EINVAL;
		return -1;
	}
	if ((k = shmids_be_of(id)->stat(id, si)) == -1)
		return -1;
	if (si->removed) {	/* gone, as shmids_open() says */
		errno = ENOENT;
		return -1;
	}
	look(si, k, flags, 0, d);
	return 0;
}

/* What a scan found: si first, so that byid() sorts entries too. */
struct entry {
	struct shmids_info si;
	int		 unreadable;	/* the store's stat would say 1; -1 skipped */
	struct shmids_dims d;
};

struct list {
	struct entry	*v;
	size_t		 n, cap;
	int		 nomem;	/* the scan's failure was ours */
};

static int
collect(struct shmids_info *si, int unreadable, void *arg)
{
	struct list *l = arg;
	struct entry *n;

	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		if ((n = realloc(l->v, l->cap * sizeof(*n))) == NULL) {
			l->nomem = 1;
			return -1;
		}
		l->v = n;
	}
	l->v[l->n].si = *si;
	l->v[l->n++].unreadable = unreadable;
	return 0;
}

/* System V segments by shmid, then files by path. */
static int
byid(const void *a, const void *b)
{
	const struct shmids_info *x = a, *y = b;

	if (x->shmid >= 0 && y->shmid >= 0)
		return (x->shmid > y->shmid) - (x->shmid < y->shmid);
	if (x->shmid >= 0 || y->shmid >= 0)
		return x->shmid >= 0 ? -1 : 1;
	return strcmp(x->id, y->id);
}

/*
 * The tables are read whole before any attach, so every time reported
 * is one the system had before this scan touched anything.  A store
 * that cannot be read (SHMIDS_DIR missing, say) does not hide the
 * other: its segments read so far are reported, then the store itself,
 * after all segments, as an info with ours -2.
 */
int
shmids_scan_dims(int (*fn)(const struct shmids_info *,
    const struct shmids_dims *, void *), void *arg, int flags)
{
	struct shmids_info bad;
	struct shmids_dims nod = { 0, 0, 0, 0 };
	struct list l;
	int err[SHMIDS_NSTORES] = { 0 };
	size_t i;
	int r = 0;

	memset(&l, 0, sizeof(l));
	for (i = 0; shmids_stores[i] != NULL; i++)
		if (shmids_stores[i]->scan(collect, &l) != 0) {
			if (l.nomem) {
				free(l.v);
				errno = ENOMEM;
				return -1;
			}
			err[i] = errno ? errno : EIO;
		}
	if (l.n > 1)
		qsort(l.v, l.n, sizeof(*l.v), byid);
	for (i = 0; i < l.n && r == 0; i++) {
		if (l.v[i].unreadable == -1) {	/* not examined */
			l.v[i].si.ours = -3;
			if (flags & SHMIDS_SKIPPED)
				r = fn(&l.v[i].si, &nod, arg);
			continue;
		}
		look(&l.v[i].si, l.v[i].unreadable, flags, 1, &l.v[i].d);
		if (l.v[i].si.ours != 0 || (flags & SHMIDS_ALL))
			r = fn(&l.v[i].si, &l.v[i].d, arg);
	}
	free(l.v);
	for (i = 0; shmids_stores[i] != NULL && r == 0; i++)
		if (err[i] != 0) {
			memset(&bad, 0, sizeof(bad));
			bad.shmid = shmids_stores[i]->store;
			bad.ours = -2;
			bad.err = err[i];
			r = fn(&bad, &nod, arg);
		}
	return r;
}

/*
 * Only if si still describes the segment: the id may name another one
 * by now (ESTALE), or the same one marked for removal (ENOENT).  A
 * segment whose attaches cannot be told counts as attached, and so does
 * one whose creation time alone moved: IPC_SET, which another cleaner
 * uses to shut readers out, sets shm_ctime.
 */
int
shmids_remove_info(const struct shmids_info *si, int flags)
{
	const struct shmids_backend *be = shmids_be_of(si->id);
	struct shmids_info now;
	int idle = (flags & SHMIDS_IDLE) != 0, unreadable;

	if ((unreadable = be->stat(si->id, &now)) == -1)
		return -1;
	if (now.removed) {
		errno = ENOENT;
		return -1;
	}
	if (now.cpid != si->cpid || now.size != si->size ||
	    now.uid != si->uid || (now.ctime != si->ctime && !idle)) {
		errno = ESTALE;
		return -1;
	}
	if (!idle)
		return be->remove(si->id);
	if (now.ctime != si->ctime || now.nattch != 0 || unreadable) {
		errno = EBUSY;
		return -1;
	}
	return be->remove_idle(&now);
}
