/*
 * The calls shmids 1.0 to 1.6 grew one at a time, kept so that no
 * program built against libshmids.so.1 breaks (shmids.h, "Calls kept
 * for 1.x programs"): each is a thin wrapper over its designed call, a
 * client of shmids.h alone, as any program is.  Nothing of the library
 * calls them; new code calls the designed ones.
 */
#include <errno.h>
#include <string.h>

#include "shmids.h"

void *
shmids_create(const char *name, int mode, size_t nbytes)
{
	return shmids_create_array(name, mode, SHMIDS_RAW, nbytes);
}

void *
shmids_create_table(const char *name, int mode, int type, size_t rows,
    size_t cols)
{
	return shmids_create_matrix(name, mode, type, rows, cols,
	    SHMIDS_ROWMAJOR);
}

void *
shmids_open(const char *label)
{
	return shmids_open_flags(label, 0, 0);
}

void *
shmids_open_wait(const char *label, double seconds)
{
	return shmids_open_flags(label, 0, seconds);
}

/*
 * The shape of 1.3's calls, from d (ndim 0: unknown, as d): a
 * column-major table is its storage read row by row, the transpose
 * (format-spec.md 9).
 */
static void
shape_of(struct shmids_shape *sh, const struct shmids_dims *d)
{
	sh->ndim = d->ndim;
	sh->rows = d->order == SHMIDS_COLMAJOR ? d->cols : d->rows;
	sh->cols = d->order == SHMIDS_COLMAJOR ? d->rows : d->cols;
}

int
shmids_shape(const void *shm, struct shmids_shape *sh)
{
	struct shmids_dims d;

	if (shmids_dims(shm, &d) == -1)
		return -1;
	shape_of(sh, &d);
	return sh->ndim;
}

int
shmids_stat(const char *id, struct shmids_info *si, int flags)
{
	return shmids_stat_dims(id, si, NULL, flags);
}

int
shmids_stat_shape(const char *id, struct shmids_info *si,
    struct shmids_shape *sh, int flags)
{
	struct shmids_dims d;
	int r;

	if ((r = shmids_stat_dims(id, si, &d, flags)) == 0)
		shape_of(sh, &d);
	return r;
}

/* shmids_scan()'s or shmids_scan_shape()'s fn, called by scan_dims */
struct plain {
	int	(*fn)(const struct shmids_info *, void *);
	int	(*fnsh)(const struct shmids_info *,
		    const struct shmids_shape *, void *);
	void	*arg;
};

static int
plain(const struct shmids_info *si, const struct shmids_dims *d, void *arg)
{
	const struct plain *p = arg;
	struct shmids_shape sh;

	if (p->fn != NULL)
		return p->fn(si, p->arg);
	shape_of(&sh, d);
	return p->fnsh(si, &sh, p->arg);
}

int
shmids_scan(int (*fn)(const struct shmids_info *, void *), void *arg,
    int flags)
{
	struct plain p;

	p.fn = fn;
	p.fnsh = NULL;
	p.arg = arg;
	return shmids_scan_dims(plain, &p, flags);
}

int
shmids_scan_shape(int (*fn)(const struct shmids_info *,
    const struct shmids_shape *, void *), void *arg, int flags)
{
	struct plain p;

	p.fn = NULL;
	p.fnsh = fn;
	p.arg = arg;
	return shmids_scan_dims(plain, &p, flags);
}

/*
 * 1.x's field, fieldlen and eol: the first token, whatever the line is
 * (a row's number, a comment's "#...", a token with a NUL byte).
 */
static void
old_field(const char *line, const struct shmids_line *c,
    struct shmids_ref *r)
{
	size_t i = c->lead;

	r->field = c->field;
	r->fieldlen = c->fieldlen;
	if (c->fieldlen == 0) {
		r->field = c->lead;
		while (i < c->end && !shmids_isblank(line[i]))
			i++;
		r->fieldlen = i - c->lead;
	}
	r->eol = c->end;
	r->why = NULL;
}

/* The 1.1 answer: a reference line, or none (table references none). */
int
shmids_ref_parse(const char *line, size_t len, struct shmids_ref *r)
{
	struct shmids_line c;

	/* 1.6's answer: a message reference (1.7) is text after a label */
	shmids_line_kind(line, len, SHMIDS_LINE_NOMSG, &c);
	old_field(line, &c, r);
	/*
	 * 1.1 read "1 shmids 5 x" as a reference line: so does this.  The
	 * classifier gives the label of a reference whose only fault is
	 * that its field is a number.
	 */
	if (c.kind == SHMIDS_LINE_REF || (c.kind == SHMIDS_LINE_MALFORMED &&
	    c.sep == 0 && c.label[0] != '\0')) {
		memcpy(r->label, c.label, sizeof(r->label));
		return 1;
	}
	if (c.kind == SHMIDS_LINE_MALFORMED && c.sep == 0) {
		r->why = c.why;
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* The 1.2 answer: a table reference, or none. */
int
shmids_tref_parse(const char *line, size_t len, struct shmids_ref *r,
    int *sep)
{
	struct shmids_line c;

	/* 1.6's answer: a message reference (1.7) is text after a label */
	shmids_line_kind(line, len, SHMIDS_LINE_NOMSG, &c);
	old_field(line, &c, r);
	if (c.kind == SHMIDS_LINE_TREF) {
		memcpy(r->label, c.label, sizeof(r->label));
		*sep = c.sep;
		return 1;
	}
	if (c.kind == SHMIDS_LINE_MALFORMED && c.sep != 0) {
		r->why = c.why;
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/*
 * The values calls of 1.x: their outputs as they were, *bad only where
 * a value was bad.
 */
int
shmids_values_parse(struct shmids_values *v, const char *s, size_t len,
    int *more, const char **bad)
{
	struct shmids_span sp;
	int r;

	r = shmids_values_read(v, s, len, 1, SHMIDS_VALUES_LINE, &sp);
	*more = sp.more;
	if (sp.bad != NULL)
		*bad = sp.bad;
	return r;
}

int
shmids_values_lines(struct shmids_values *v, const char *s, size_t len,
    int nthreads, size_t *used, size_t *lines, int *more, const char **bad)
{
	struct shmids_span sp;
	int r;

	r = shmids_values_read(v, s, len, nthreads, 0, &sp);
	*used = sp.used;
	*lines = sp.lines;
	*more = sp.more;
	if (sp.bad != NULL)
		*bad = sp.bad;
	return r;
}

int
shmids_values_count(const char *s, size_t len, int nthreads, size_t *count,
    size_t *used, size_t *lines, int *more)
{
	struct shmids_span sp;
	int r;

	r = shmids_values_read(NULL, s, len, nthreads, SHMIDS_VALUES_COUNT,
	    &sp);
	*count = sp.count;
	*used = sp.used;
	*lines = sp.lines;
	*more = sp.more;
	return r;
}

int
shmids_values_into(void *dst, size_t cap, int type, const char *s,
    size_t len, int nthreads, size_t *count, size_t *used, size_t *lines,
    int *more, const char **bad)
{
	struct shmids_values v;
	struct shmids_span sp;
	int r;

	v.data = dst;
	v.count = 0;
	v.cap = cap;
	v.type = type;
	r = shmids_values_read(&v, s, len, nthreads, SHMIDS_VALUES_FIXED,
	    &sp);
	*count = sp.count;
	*used = sp.used;
	*lines = sp.lines;
	*more = sp.more;
	if (sp.bad != NULL)
		*bad = sp.bad;
	return r;
}

int
shmids_emit_rows(FILE *fp, const struct shmids_layout *l, int type,
    const void *data, size_t rows, size_t cols, int sep)
{
	return shmids_emit_matrix(fp, l, type, data, rows, cols, sep,
	    SHMIDS_ROWMAJOR);
}
