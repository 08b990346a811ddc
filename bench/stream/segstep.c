/*
 * segment: shmids's own way today, a segment a step, through the
 * public API (shmids.h) alone: the writer makes a segment
 * (shmids_create, System V), fills its payload in place, seals it,
 * sends its label to the reader through a pipe and detaches; the
 * reader opens it by that label (shmids_open_flags), reads the payload
 * in place, closes and removes it (shmids_remove), and says so on a
 * second pipe, so that no more segments than a ring's slots are alive
 * at once.  No copy; a new segment's pages are faulted in on every step,
 * which is its cost.  Segments are named <prefix>step; close() removes
 * any a failed measurement left.
 */
#include "stream.h"

#include <shmids.h>

struct segchan {
	int		 lab[2];	/* labels, writer to reader */
	int		 ack[2];	/* a byte a segment removed */
	void		*shm;
	int		 out;		/* segments made, not yet removed */
	char		 label[SHMIDS_LABEL_MAX + 1];
};

static int
seg_open(struct chan *c)
{
	struct segchan *s = xmalloc(sizeof(*s));

	memset(s, 0, sizeof(*s));
	if (pipe(s->lab) == -1 || pipe(s->ack) == -1) {
		warn("pipe");
		free(s);
		return -1;
	}
	c->priv = s;
	return 0;
}

static int
seg_attach(struct chan *c, int role)
{
	struct segchan *s = c->priv;

	close(role == WRITER ? s->lab[0] : s->lab[1]);
	close(role == WRITER ? s->ack[1] : s->ack[0]);
	s->lab[role == WRITER ? 0 : 1] = -1;
	s->ack[role == WRITER ? 1 : 0] = -1;
	return 0;
}

static void *
seg_loan(struct chan *c)
{
	struct segchan *s = c->priv;
	char name[SHMIDS_NAME_MAX + 1], b;

	if (s->out == c->slots) {
		if (readall(s->ack[0], &b, 1) == -1) {
			warnx("segment: the reader is gone");
			return NULL;
		}
		s->out--;
	}
	snprintf(name, sizeof(name), "%sstep", conf.prefix);
	if ((s->shm = shmids_create(name, 0600, c->nbytes)) == NULL) {
		warn("shmids_create %s", name);
		return NULL;
	}
	return (char *)s->shm + SHMIDS_HEADER;
}

static int
seg_publish(struct chan *c)
{
	struct segchan *s = c->priv;

	memset(s->label, 0, sizeof(s->label));
	snprintf(s->label, sizeof(s->label), "%s", shmids_label(s->shm));
	if (shmids_seal(s->shm) == -1 ||
	    writeall(s->lab[1], s->label, sizeof(s->label)) == -1) {
		warn("segment %s", s->label);
		return -1;
	}
	shmids_close(s->shm);
	s->out++;
	return 0;
}

static const void *
seg_next(struct chan *c)
{
	struct segchan *s = c->priv;

	if (readall(s->lab[0], s->label, sizeof(s->label)) == -1) {
		warnx("segment: no label from the writer");
		return NULL;
	}
	if ((s->shm = shmids_open_flags(s->label, 0, 0)) == NULL) {
		warn("shmids_open_flags %s", s->label);
		return NULL;
	}
	return (const char *)s->shm + SHMIDS_HEADER;
}

static int
seg_release(struct chan *c)
{
	struct segchan *s = c->priv;

	if (shmids_close(s->shm) == -1 || shmids_remove(s->label) == -1) {
		warn("segment %s", s->label);
		return -1;
	}
	return writeall(s->ack[1], "x", 1);
}

struct leftovers {
	char		(*label)[SHMIDS_LABEL_MAX + 1];
	size_t		 n, cap;
	char		 name[SHMIDS_NAME_MAX + 1];
};

static int
left_one(const struct shmids_info *si, const struct shmids_dims *d,
    void *arg)
{
	struct leftovers *l = arg;

	(void)d;
	if (si->ours != 1 || strcmp(si->name, l->name) != 0)
		return 0;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		if ((l->label = realloc(l->label, l->cap *
		    sizeof(*l->label))) == NULL)
			err(1, "realloc");
	}
	snprintf(l->label[l->n++], sizeof(*l->label), "%s", si->label);
	return 0;
}

/* The driver: the pipes, and any segment a failed measurement left. */
static void
seg_close(struct chan *c)
{
	struct segchan *s = c->priv;
	struct leftovers l;
	size_t i;
	int k;

	for (k = 0; k < 2; k++) {
		if (s->lab[k] != -1)
			close(s->lab[k]);
		if (s->ack[k] != -1)
			close(s->ack[k]);
	}
	free(s);
	memset(&l, 0, sizeof(l));
	snprintf(l.name, sizeof(l.name), "%sstep", conf.prefix);
	if (shmids_scan_dims(left_one, &l, 0) == -1)
		warn("segments");
	for (i = 0; i < l.n; i++)
		if (shmids_remove(l.label[i]) == -1 && errno != ENOENT)
			warn("%s", l.label[i]);
	free(l.label);
}

const struct contender c_segstep = {
	"segment", "segment/step",
	"no copy: shmids_create, fill, seal; the label through a pipe; "
	"shmids_open_flags, read, shmids_close, shmids_remove",
	0, NULL, NULL, seg_open, seg_attach, seg_loan, seg_publish,
	seg_next, seg_release, NULL, seg_close, NULL
};
