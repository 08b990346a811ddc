/*
 * The sink of segments (sink.h): each array and table block becomes a
 * segment of its own, made before its values are parsed into it, sealed
 * and detached before its reference line is written; every label made
 * is kept, for undo().  A missing SHMIDS_DIR is said once, with what to
 * do, and the arrays and tables it kept from being made are counted, for
 * close() (format-spec.md 7, shm-import: one message, not one per array).
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shmids.h"
#include "filter.h"
#include "msg.h"
#include "run.h"
#include "sink.h"

/* Why an array's segment was not made (start()), for end(). */
struct why {
	int	 name, toolong;	/* no name: the field, or too long */
	int	 err;		/* else shmids_create_array()'s errno */
};

struct segs {
	struct sink	 sink;
	int		 mode;
	const char	*prefix;
	struct labels	 made;		/* labels made by this run */
	char		*early;		/* the array's segment being filled */
	struct why	 why;
	unsigned long	 dirarrays, dirtables;	/* kept by SHMIDS_DIR */
	int		 failed;
};

/*
 * Remove the last segment made, detached, and forget it; if it cannot
 * be removed, say so: -1.
 */
static int
unmake(struct segs *g)
{
	if (shmids_remove(g->made.v[--g->made.n]) == 0)
		return 0;
	warn("segment %s is left: remove it with shm-rm", g->made.v[g->made.n]);
	return -1;
}

/*
 * Remove every segment made so far.  The early segment is detached
 * first: removing reads the header through an attach of its own, which
 * a process short of address space (ulimit -v) could not make with the
 * segment mapped twice.  One that cannot be removed is said, not lost.
 */
static void
undo(struct sink *k)
{
	struct segs *g = (struct segs *)k;

	if (g->early != NULL) {
		shmids_close(g->early);
		g->early = NULL;
	}
	while (g->made.n > 0)
		unmake(g);
}

/* The contract is in sink.h. */
int
sink_name(const char *prefix, char *name, size_t size,
    const struct sink_array *a, int *toolong)
{
	const char *f = a->s + a->field;
	int n;

	n = snprintf(name, size, "%s%.*s", prefix, (int)a->fieldlen, f);
	*toolong = n >= 0 && (size_t)n > SHMIDS_NAME_MAX;
	/* %.*s stops at a NUL: "a\0b" is no name, not the name "a". */
	if (n < 0 || (size_t)n >= size || memchr(f, '\0', a->fieldlen) !=
	    NULL || shmids_name_check(name, (size_t)n) == -1)
		return -1;
	return n;
}

/*
 * The segment of count elements of type for array a, made and
 * remembered; NULL, nothing said, and g->why says why not.
 */
static char *
start(struct sink *k, const struct sink_array *a, int type, size_t count)
{
	struct segs *g = (struct segs *)k;
	char name[SHMIDS_NAME_MAX + 2];
	char *h;

	memset(&g->why, 0, sizeof(g->why));
	if (sink_name(g->prefix, name, sizeof(name), a, &g->why.toolong) ==
	    -1) {
		g->why.name = 1;
		return NULL;
	}
	/* The name is good: EINVAL now means the kernel's size limit. */
	if (filter_labels_room(&g->made) == -1 ||
	    (h = shmids_create_array(name, g->mode, type, count)) == NULL) {
		g->why.err = errno;
		return NULL;
	}
	filter_labels_add(&g->made, h);
	g->early = h;
	return h + SHMIDS_HEADER;
}

/*
 * The array is no array after all (a bad value), or its values are not
 * to be had: no segment for it.  It is the last made, removed once
 * detached (see undo()).
 */
static void
drop(struct sink *k)
{
	struct segs *g = (struct segs *)k;

	if (g->early == NULL)
		return;
	shmids_close(g->early);
	g->early = NULL;
	if (unmake(g) == -1)
		g->failed = 1;
}

/*
 * A segment not made for want of a usable SHMIDS_DIR (errno e): counted
 * in *n; 1 if one was said already (the first says why, its caller's
 * words).
 */
static int
dir_again(struct segs *g, int e, unsigned long *n)
{
	if (msg_dir_hint(e) == NULL)
		return 0;
	(*n)++;
	return g->dirarrays + g->dirtables > 1;
}

/* The segment of array a was not made: why, said. */
static void
unmade(struct segs *g, const struct sink_array *a)
{
	const struct why *w = &g->why;

	g->failed = 1;
	if (!w->name && dir_again(g, w->err, &g->dirarrays))
		return;
	warnx("%s:%lu: %s: %s", a->fname, a->line,
	    msg_quote(a->s + a->field, a->fieldlen),
	    !w->name ? msg_create_error(w->err) : w->toolong ?
	    "segment name too long: the prefix (-P) and the field make more "
	    "than 64 bytes" : "the field cannot be a segment name (printable "
	    "ASCII only)");
}

/* The reference line of the segment made last: s[0..n) before it. */
static void
refline(const struct segs *g, const char *s, size_t n, const char *eol,
    size_t eollen)
{
	const char *h = g->made.v[g->made.n - 1];

	run_out(s, n);
	run_out(" shmids ", 8);
	run_out(h, strlen(h));
	run_out(eol, eollen);
}

/*
 * The segment made (g->early), filled: sealed and detached before the
 * reference line is written, which takes the place of the array's
 * lines.  Output that fails removes it (undo()), by a header read of
 * its own that a short address space (ulimit -v) has no room for while
 * the segment is still mapped.
 */
static int
end(struct sink *k, const struct sink_array *a)
{
	struct segs *g = (struct segs *)k;

	if (g->early == NULL) {
		unmade(g, a);
		return -1;
	}
	shmids_close(g->early);
	g->early = NULL;
	refline(g, a->s, a->field + a->fieldlen, a->eol, a->eollen);
	return 0;
}

/*
 * The longest name a new segment's label has room for: 64 bytes, less
 * where a file segment's path ("dir/shmids.<uid>.XXXXXX") and the space
 * take more than the label's other 11 bytes (format-spec.md 1, 2.6).
 */
static size_t
name_max(void)
{
	const char *d = shmids_dir();
	int u = snprintf(NULL, 0, "%lu", (unsigned long)geteuid());
	size_t id = d != NULL ? strlen(d) + 15 + (size_t)(u > 0 ? u : 10) : 10;

	return id + 1 + SHMIDS_NAME_MAX <= SHMIDS_LABEL_MAX ?
	    SHMIDS_NAME_MAX : id + 1 < SHMIDS_LABEL_MAX ?
	    SHMIDS_LABEL_MAX - id - 1 : 0;
}

/*
 * A table's name (format-spec.md 7): prefix, the input's file name
 * without directories, ":" and its first line.  What a name may not
 * hold becomes "_"; a file name too long loses its start.  NULL if even
 * prefix and line do not fit.
 */
static const char *
table_name(const struct segs *g, const char *fname, unsigned long lineno)
{
	static char name[SHMIDS_NAME_MAX + 1];
	const char *base = strrchr(fname, '/') ? strrchr(fname, '/') + 1 :
	    fname;
	char line[32];
	size_t n, room, i, p = strlen(g->prefix), max = name_max();

	snprintf(line, sizeof(line), ":%lu", lineno);
	if (p + strlen(line) >= max)
		return NULL;
	room = max - p - strlen(line);
	if ((n = strlen(base)) > room) {
		base += n - room;
		n = room;
	}
	memcpy(name, g->prefix, p);
	for (i = 0; i < n; i++)
		name[p + i] = base[i] > ' ' && base[i] < 0x7f ? base[i] : '_';
	strcpy(name + p + n, line);
	return name;
}

/*
 * The segment of table t, made; NULL, said why.  Its name is its place:
 * a failure is said at file:line alone, not at file:line: file:line.
 */
static char *
table_make(struct segs *g, const struct sink_table *t, int type)
{
	const char *name = table_name(g, t->fname, t->line);
	char *h;
	int e;

	if (name == NULL) {
		g->failed = 1;
		warnx("%s:%lu: segment name too long: the prefix (-P) and "
		    "the line leave no room in the label", t->fname, t->line);
		return NULL;
	}
	if (filter_labels_room(&g->made) == 0 && (h = shmids_create_matrix(
	    name, g->mode, type, t->rows, t->cols, SHMIDS_ROWMAJOR)) != NULL)
		return h;
	e = errno;
	g->failed = 1;
	if (!dir_again(g, e, &g->dirtables))
		warnx("%s:%lu: %s", t->fname, t->line, msg_create_error(e));
	return NULL;
}

static int
table(struct sink *k, const struct sink_table *t,
    const struct shmids_values *v)
{
	struct segs *g = (struct segs *)k;
	char *h;

	if ((h = table_make(g, t, v->type)) == NULL)
		return -1;
	memcpy(h + SHMIDS_HEADER, v->data, v->count *
	    shmids_type_size(v->type));
	filter_labels_add(&g->made, h);
	shmids_close(h);	/* before the output: see end() */
	run_out(t->lead, t->leadlen);
	run_out(t->sep == ',' ? "shmids, " : t->sep == '\t' ? "shmids\t" :
	    "shmids ", t->sep == ',' ? 8 : 7);
	h = g->made.v[g->made.n - 1];
	run_out(h, strlen(h));
	run_out(t->eol, strlen(t->eol));
	return 0;
}

static int
sink_close(struct sink *k)
{
	struct segs *g = (struct segs *)k;
	const char *dir = shmids_dir();
	unsigned long n = g->dirarrays + g->dirtables;

	if (n > 0)
		warnx("SHMIDS_DIR %s: %lu %s left as text (%s copied "
		    "unchanged: nothing lost)", msg_quote(dir, strlen(dir)), n,
		    g->dirtables == 0 ? (n == 1 ? "array" : "arrays") :
		    g->dirarrays == 0 ? (n == 1 ? "table" : "tables") :
		    "arrays and tables", n == 1 ? "its lines" : "their lines");
	return g->failed;
}

struct sink *
sink_segments(int mode, const char *prefix)
{
	static struct segs g;

	g.sink.start = start;
	g.sink.drop = drop;
	g.sink.end = end;
	g.sink.table = table;
	g.sink.undo = undo;
	g.sink.close = sink_close;
	g.mode = mode;
	g.prefix = prefix;
	return &g.sink;
}
