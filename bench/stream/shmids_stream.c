/*
 * stream: the shmids stream of issue 43 (lib/stream/), the contender
 * every target is about, through shmids.h alone.  The process that
 * makes a stream is its one writer, so the writer child makes it in
 * its attach() (System V, 0600, a slot a message in flight, one
 * expected reader: nothing is lost before the reader registers) and
 * passes the label to the reader through a pipe, as segstep.c does;
 * the reader opens it by that label.  loan() returns the slot's
 * payload, filled in place; publish() publishes it as c->nbytes raw
 * bytes; next() returns the message read-only in place; release()
 * lets it go.  No copy of the payload either way.  The label is kept
 * in a page the driver shares with the children, so that close(),
 * after both children have gone (even killed), removes the stream by
 * its label if the children did not: a writer killed before its end
 * leaves it, as any writer that died does (format-spec.md 10.5).
 */
#include "stream.h"

#include <shmids.h>

#define WAIT_SECS	1e9	/* loan and next block: the driver stops us */
#define OPEN_SECS	30	/* the reader's wait for a stream being made */

struct strchan {
	int		 lab[2];	/* the label, writer to reader */
	char		*label;		/* SHMIDS_LABEL_MAX + 1, shared */
	struct shmids_stream *s;	/* this child's handle */
	struct shmids_msg m;		/* the reader's message */
};

static int
str_open(struct chan *c)
{
	struct strchan *sc = xmalloc(sizeof(*sc));

	memset(sc, 0, sizeof(*sc));
	if ((sc->label = shared_map(SHMIDS_LABEL_MAX + 1)) == NULL) {
		free(sc);
		return -1;
	}
	if (pipe(sc->lab) == -1) {
		warn("pipe");
		shared_unmap(sc->label, SHMIDS_LABEL_MAX + 1);
		free(sc);
		return -1;
	}
	c->priv = sc;
	return 0;
}

/* The writer makes the stream and says its label; the reader opens it. */
static int
str_attach(struct chan *c, int role)
{
	struct strchan *sc = c->priv;
	char name[SHMIDS_NAME_MAX + 1], label[SHMIDS_LABEL_MAX + 1];

	close(sc->lab[role == WRITER ? 0 : 1]);
	sc->lab[role == WRITER ? 0 : 1] = -1;
	if (role == WRITER) {
		snprintf(name, sizeof(name), "%ss%d", conf.prefix, c->id);
		if ((sc->s = shmids_stream_create(name, 0600, (size_t)c->slots,
		    c->nbytes, 1, 0)) == NULL) {
			warn("shmids_stream_create %s", name);
			return -1;
		}
		memset(label, 0, sizeof(label));
		snprintf(label, sizeof(label), "%s",
		    shmids_stream_label(sc->s));
		memcpy(sc->label, label, sizeof(label));
		return writeall(sc->lab[1], label, sizeof(label));
	}
	if (readall(sc->lab[0], label, sizeof(label)) == -1) {
		warnx("stream: no label from the writer");
		return -1;
	}
	label[SHMIDS_LABEL_MAX] = '\0';
	if ((sc->s = shmids_stream_open(label, 0, OPEN_SECS)) == NULL) {
		warn("shmids_stream_open %s", label);
		return -1;
	}
	return 0;
}

static void *
str_loan(struct chan *c)
{
	struct strchan *sc = c->priv;
	void *p;

	if ((p = shmids_stream_loan(sc->s, WAIT_SECS)) == NULL)
		warn("shmids_stream_loan %s", shmids_stream_label(sc->s));
	return p;
}

static int
str_publish(struct chan *c)
{
	struct strchan *sc = c->priv;

	if (shmids_stream_publish(sc->s, SHMIDS_RAW, c->nbytes, 0,
	    SHMIDS_ROWMAJOR) == -1) {
		warn("shmids_stream_publish %s", shmids_stream_label(sc->s));
		return -1;
	}
	return 0;
}

static const void *
str_next(struct chan *c)
{
	struct strchan *sc = c->priv;
	int r;

	if ((r = shmids_stream_next(sc->s, &sc->m, WAIT_SECS)) == 1 &&
	    sc->m.nbytes == c->nbytes)
		return sc->m.data;
	if (r == 1)
		warnx("stream %s: a message of %zu bytes, not %zu",
		    shmids_stream_label(sc->s), sc->m.nbytes, c->nbytes);
	else if (r == 0)
		warnx("stream %s: ended early", shmids_stream_label(sc->s));
	else
		warn("shmids_stream_next %s", shmids_stream_label(sc->s));
	return NULL;
}

static int
str_release(struct chan *c)
{
	struct strchan *sc = c->priv;

	if (shmids_stream_release(sc->s) == -1) {
		warn("shmids_stream_release %s", shmids_stream_label(sc->s));
		return -1;
	}
	return 0;
}

/* The writer ends the stream, the reader unregisters: the last removes. */
static void
str_detach(struct chan *c)
{
	struct strchan *sc = c->priv;

	if (sc->s != NULL && shmids_stream_close(sc->s) == -1)
		warn("shmids_stream_close");
	sc->s = NULL;
}

/* The driver: the pipe, and the stream if a failed measurement left it. */
static void
str_close(struct chan *c)
{
	struct strchan *sc = c->priv;
	int k;

	for (k = 0; k < 2; k++)
		if (sc->lab[k] != -1)
			close(sc->lab[k]);
	if (sc->label[0] != '\0' && shmids_remove(sc->label) == -1 &&
	    errno != ENOENT)
		warn("%s", sc->label);
	shared_unmap(sc->label, SHMIDS_LABEL_MAX + 1);
	free(sc);
}

const struct contender c_shmids_stream = {
	"stream", "shmids stream",
	"no copy: loan a slot, fill it in place, publish; next, read in "
	"place, release (lib/stream/, issue 43)",
	0, NULL, NULL, str_open, str_attach, str_loan, str_publish,
	str_next, str_release, str_detach, str_close, NULL
};
