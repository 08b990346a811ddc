/*
 * The sink of streams (sink.h; shm-import --stream): the arrays of one
 * field become the messages of one stream (format-spec.md 10), named
 * prefix and the field, made at the field's first array with room for
 * that array in each of its slots; each array is written in place in a
 * slot the stream lends, published, and its message reference line
 * (5.1) written and flushed at once, so that a reader downstream has it
 * while the input still comes.  Table blocks have no field: they go to
 * the sink of segments, as without --stream.  At the end of the input
 * every stream ends; undo() ends and removes them.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmids.h"
#include "msg.h"
#include "run.h"
#include "sink.h"

/*
 * A writer waits for its reader as a pipe's does: for ever (10.4), in
 * slices of a second, so that a signal is looked at each second (a
 * wait misses one that lands between its sleeps: 10.6), and a stream
 * that no reader takes from for NOTE_AFTER seconds is said once.
 */
#define SLICE		1.0
#define NOTE_AFTER	5

struct field {
	char			 name[SHMIDS_NAME_MAX + 2];
	struct shmids_stream	*s;
	size_t			 capacity;	/* bytes */
	int			 noted;		/* its wait was said */
};

struct streams {
	struct sink	 sink;
	struct sink	*segs;		/* tables */
	int		 mode;
	const char	*prefix;
	size_t		 slots;
	struct field	*f;
	size_t		 n, cap;
	struct field	*cur;		/* the array's stream, lent a slot */
	int		 type;
	size_t		 count;
	const char	*why;		/* start() lent nothing: why */
	int		 err;
	int		 failed;
};

/* The stream of the field named name, made with room for nbytes. */
static struct field *
field_stream(struct streams *g, const char *name, size_t nbytes)
{
	struct field *v;
	size_t i;

	for (i = 0; i < g->n; i++)
		if (strcmp(g->f[i].name, name) == 0)
			return &g->f[i];
	if (g->n == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 8;
		if ((v = realloc(g->f, g->cap * sizeof(*g->f))) == NULL)
			msg_nomem();
		g->f = v;
	}
	v = &g->f[g->n];
	/* one reader expected: the pipeline's, which loses nothing */
	if ((v->s = shmids_stream_create(name, g->mode, g->slots,
	    nbytes > 0 ? nbytes : 1, 1, 0)) == NULL)
		return NULL;
	snprintf(v->name, sizeof(v->name), "%s", name);
	v->noted = 0;
	v->capacity = nbytes > 0 ? nbytes : 1;
	g->n++;
	return v;
}

/*
 * A slot of v's stream, waited for as long as it takes; NULL with errno
 * for another failure.  SIGINT, SIGTERM, SIGHUP: undo, die (run_check).
 */
static void *
lend(struct field *v)
{
	void *p;
	int e, slices = 0;

	while ((p = shmids_stream_loan(v->s, SLICE)) == NULL) {
		e = errno;
		if (e != EINTR && e != EAGAIN)
			return NULL;
		run_check();
		if (e == EAGAIN && ++slices == NOTE_AFTER && !v->noted) {
			v->noted = 1;
			warnx("stream '%s': its slots are full and no reader "
			    "has taken a message for %d s: waiting (a stream "
			    "waits for its reader: expand every field, or "
			    "leave this one out with -f)",
			    shmids_stream_label(v->s), NOTE_AFTER);
		}
		errno = e;
	}
	return p;
}

static char *
start(struct sink *k, const struct sink_array *a, int type, size_t count)
{
	struct streams *g = (struct streams *)k;
	char name[SHMIDS_NAME_MAX + 2];
	size_t esz = shmids_type_size(type), nbytes = count * esz;
	void *p;
	int toolong;

	g->cur = NULL;
	g->why = NULL;
	g->err = 0;
	if (sink_name(g->prefix, name, sizeof(name), a, &toolong) == -1) {
		g->why = toolong ? "stream name too long: the prefix (-P) and "
		    "the field make more than 64 bytes" : "the field cannot be "
		    "a stream name (printable ASCII only)";
		return NULL;
	}
	if (esz != 0 && count > (size_t)-1 / esz) {
		g->err = EMSGSIZE;
		return NULL;
	}
	if ((g->cur = field_stream(g, name, nbytes)) == NULL) {
		g->err = errno;
		return NULL;
	}
	if (nbytes > g->cur->capacity) {
		g->err = EMSGSIZE;
		return NULL;
	}
	/* the line before is out: the reader it waits for may need it */
	run_flush(1);
	if ((p = lend(g->cur)) == NULL) {
		g->err = errno;
		return NULL;
	}
	g->type = type;
	g->count = count;
	return p;
}

/* The slot lent stays lent: the next start() gets it again (10.3). */
static void
drop(struct sink *k)
{
	((struct streams *)k)->cur = NULL;
}

/* Why array a got no slot, said. */
static void
unlent(struct streams *g, const struct sink_array *a)
{
	const char *f = msg_quote(a->s + a->field, a->fieldlen);
	const char *l = g->cur != NULL ? shmids_stream_label(g->cur->s) : "";

	g->failed = 1;
	if (g->why != NULL)
		warnx("%s:%lu: %s: %s", a->fname, a->line, f, g->why);
	else if (g->err == EMSGSIZE)
		warnx("%s:%lu: %s: an array larger than the %zu bytes each "
		    "message of stream '%s' holds (its first array's): its "
		    "lines copied unchanged", a->fname, a->line, f,
		    g->cur != NULL ? g->cur->capacity : 0, l);
	else
		warnx("%s:%lu: %s: %s", a->fname, a->line, f, g->cur == NULL ?
		    msg_create_error(g->err) : msg_why(l, g->err));
}

/* Published, and its message reference line out at once. */
static int
end(struct sink *k, const struct sink_array *a)
{
	struct streams *g = (struct streams *)k;
	char seq[32];
	const char *l;
	long long s;

	if (g->cur == NULL || g->why != NULL || g->err != 0) {
		unlent(g, a);
		return -1;
	}
	if ((s = shmids_stream_publish(g->cur->s, g->type, g->count, 0,
	    SHMIDS_ROWMAJOR)) == -1) {
		g->err = errno;
		unlent(g, a);
		return -1;
	}
	l = shmids_stream_label(g->cur->s);
	snprintf(seq, sizeof(seq), " %lld", s);
	run_out(a->s, a->field + a->fieldlen);
	run_out(" shmids ", 8);
	run_out(l, strlen(l));
	run_out(seq, strlen(seq));
	run_out(a->eol, a->eollen);
	run_flush(1);
	g->cur = NULL;
	return 0;
}

static int
table(struct sink *k, const struct sink_table *t,
    const struct shmids_values *v)
{
	struct streams *g = (struct streams *)k;

	return g->segs->table(g->segs, t, v);
}

/* Every stream ended and removed, with the tables' segments. */
static void
undo(struct sink *k)
{
	struct streams *g = (struct streams *)k;
	char label[SHMIDS_LABEL_MAX + 1];

	while (g->n > 0) {
		g->n--;
		snprintf(label, sizeof(label), "%s",
		    shmids_stream_label(g->f[g->n].s));
		shmids_stream_close(g->f[g->n].s);
		if (shmids_remove(label) == -1 && errno != ENOENT &&
		    errno != EIDRM)
			warn("stream %s is left: remove it with shm-rm", label);
	}
	g->segs->undo(g->segs);
}

/* The end of the input: every stream ends (its readers read it all). */
static int
sink_close(struct sink *k)
{
	struct streams *g = (struct streams *)k;
	size_t i;

	for (i = 0; i < g->n; i++)
		shmids_stream_close(g->f[i].s);
	g->n = 0;
	return g->segs->close(g->segs) | g->failed;
}

struct sink *
sink_streams(int mode, const char *prefix, size_t slots)
{
	static struct streams g;

	g.sink.start = start;
	g.sink.drop = drop;
	g.sink.end = end;
	g.sink.table = table;
	g.sink.undo = undo;
	g.sink.close = sink_close;
	g.segs = sink_segments(mode, prefix);
	g.mode = mode;
	g.prefix = prefix;
	g.slots = slots;
	return &g.sink;
}
