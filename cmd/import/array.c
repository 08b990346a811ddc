/*
 * An inline array (format-spec.md 6, 6.2, 7): its first line and its
 * continuations, read by the engine (engine.h), whose calls back come
 * here: its messages are the reading's to say, in the user's terms, and
 * its values' place the sink's to give.  Converted, the sink writes its
 * reference line; else its lines pass through as they were read.
 */
#include <err.h>
#include <string.h>

#include "shmids.h"
#include "engine.h"
#include "msg.h"
#include "notes.h"
#include "read.h"
#include "run.h"

/* The array at hand, for the engine's calls back (struct eng_io). */
struct array {
	struct reader	*rd;
	const struct shmids_line *c;	/* its first line's classification */
	struct sink_array sa;		/* its first line, for the sink */
	int		 sel;		/* -f names it */
	int		 asked;		/* the sink was asked for a place */
	int		 type, typed;	/* its type; given by -t field=type */
};

/* The first line as read so far, for the sink and the messages. */
static void
first_line(struct array *a)
{
	a->sa.s = a->rd->first.buf;
	a->sa.eol = a->sa.s + a->c->end;
	a->sa.eollen = a->rd->first.len - a->c->end;
}

static ssize_t
io_next(void *arg, const char **s, unsigned long lineno)
{
	return read_next(((struct array *)arg)->rd, s, lineno);
}

static void
io_stop(void *arg)
{
	(void)arg;
	run_check();
}

static void
io_fail(void *arg, unsigned long lineno)
{
	run_fail_input(((struct array *)arg)->rd->fname, lineno);
}

/*
 * Only an array -f names is an error for a bad value, said now (the
 * line it is in does not stay); any is noted.
 */
static void
io_bad(void *arg, unsigned long lineno, const char *tok)
{
	struct array *a = arg;
	size_t n = strcspn(tok, " \t\r\n");
	struct notes_at at;

	/* A token that a NUL byte ends at once is shown as that byte. */
	if (a->sel)
		warnx("%s:%lu: %s: bad value \"%s\"", a->sa.fname, lineno,
		    msg_quote(a->sa.s + a->sa.field, a->sa.fieldlen),
		    msg_quote(tok, n > 0 ? n : 1));
	at.fname = a->sa.fname;
	at.line = a->sa.line;
	notes_bad(&at, tok);
}

/* The first line, read whole after all: kept for the reference line. */
static void
io_again(void *arg, const char *s, size_t n)
{
	struct array *a = arg;

	a->rd->first.len = 0;
	read_text_add(a->rd, &a->rd->first, s, n, a->sa.line);
	first_line(a);
}

/*
 * The place for count values, where they go; NULL for none.  A field
 * alone is a word, not an array, unless -f names it.
 */
static char *
io_make(void *arg, int type, size_t count)
{
	struct array *a = arg;
	const struct conf *cf = a->rd->conf;

	if (!a->sel && !(cf->fields == NULL && count >= cf->minvals &&
	    count > 0))
		return NULL;
	a->asked = 1;
	return a->rd->sink->start(a->rd->sink, &a->sa, type, count);
}

static void
io_drop(void *arg)
{
	struct array *a = arg;

	a->rd->sink->drop(a->rd->sink);
}

/*
 * The engine's end other than read or bad: the file, or a pipe's lines
 * kept in TMPDIR, changed under it (ENG_CHANGED); the kept lines could
 * not be read back (lines_spill_why()); or no room for the values (-1).
 * No array may be cut short: every segment of the run goes.
 */
static void
unread(const struct array *a, int k)
{
	const char *f = msg_quote(a->sa.s + a->sa.field, a->sa.fieldlen);
	const char *why = lines_spill_why(&a->rd->l);

	if (k == ENG_CHANGED && !a->rd->l.reg)
		warnx("%s:%lu: %s: " MSG_KEPT " changed while they were read "
		    "back: its values are not those counted", a->sa.fname,
		    a->sa.line, f);
	else if (k == ENG_CHANGED)
		warnx("%s:%lu: %s: the file changed while it was read: its "
		    "values are not those counted", a->sa.fname, a->sa.line, f);
	else if (why != NULL)
		warnx("%s:%lu: %s: " MSG_KEPT " could not be read back: %s",
		    a->sa.fname, a->sa.line, f, why);
	else
		warnx("%s:%lu: %s: no room for the values: %s", a->sa.fname,
		    a->sa.line, f, MSG_NOMEM);
	run_die();
}

/* The notes are told of the array ended, made or not. */
static void
tell(const struct array *a, const struct eng_array *st, int k, int made)
{
	struct notes_block nb;

	memset(&nb, 0, sizeof(nb));
	nb.what = NOTES_ARRAY;
	nb.at.fname = a->sa.fname;
	nb.at.line = a->sa.line;
	nb.last = st->lineno;
	nb.made = made;
	nb.count = st->count;
	nb.bad = k == ENG_BAD;
	nb.s = a->rd->first.buf;
	nb.n = a->rd->first.len;
	nb.whole = !st->parted;
	nb.field = a->sa.field;
	nb.fieldlen = a->sa.fieldlen;
	nb.type = a->type;
	nb.typed = a->typed;
	notes_block(&nb);
}

/* Ready to read the array of first line s[0..n) (c), at the line at hand. */
static void
array_init(struct array *a, struct reader *rd, const char *s, size_t n,
    const struct shmids_line *c, int sel)
{
	memset(a, 0, sizeof(*a));
	a->rd = rd;
	a->c = c;
	a->sel = sel;
	a->type = conf_type(rd->conf, s + c->field, c->fieldlen, &a->typed);
	a->sa.fname = rd->fname;
	a->sa.line = rd->lineno;
	a->sa.field = c->field;
	a->sa.fieldlen = c->fieldlen;
	rd->first.len = 0;
	read_text_add(rd, &rd->first, s, n, rd->lineno);
	first_line(a);
}

/*
 * A long first line read in part: its end, for the reference line, kept
 * after its first bytes.
 */
static void
first_end(struct array *a, const struct eng_array *st)
{
	size_t end = a->rd->first.len;

	read_text_add(a->rd, &a->rd->first, st->eol, st->eollen, a->sa.line);
	first_line(a);
	a->sa.eol = a->sa.s + end;
	a->sa.eollen = a->rd->first.len - end;
}

void
read_array(struct reader *rd, const char *s, size_t n,
    const struct shmids_line *c, int sel)
{
	struct array a;
	const struct eng_io io = { &a, &run_stopped, io_next, io_stop,
	    io_fail, io_bad, io_again, io_make, io_drop };
	struct eng_array st;
	int k, made = 0;

	array_init(&a, rd, s, n, c, sel);
	lines_keep(&rd->l, s);
	eng_array_init(&st, &rd->l, a.type, rd->conf->nthreads, &io,
	    rd->lineno, s, n, c->field + c->fieldlen);
	k = eng_array(&st);
	rd->lineno = st.lineno;
	if (k == ENG_CHANGED || k == -1)
		unread(&a, k);
	if (st.parted)
		first_end(&a, &st);
	if (k == 0 && a.asked)
		made = rd->sink->end(rd->sink, &a.sa) == 0;
	tell(&a, &st, k, made);
	if (!made && sel)
		rd->failed = 1;
	eng_array_free(&st);
	if (!made)
		read_pass_kept(rd, a.sa.line);
	lines_release(&rd->l);
}
