/*
 * shm-expand: turn shmids reference lines back into ASCII numbers ("the
 * master copy is ASCII"); every other byte passes through unchanged.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shmids.h"
#include "magic.h"
#include "filter.h"
#include "msg.h"
#include "opts.h"
#include "streams.h"

static int	 rflag;		/* values only: no other line, no field */
static int	 dflag;		/* remove each segment once written */
static size_t	 cols = 80;
static const char *fields;	/* -f list, NULL for all */
static struct fields want;	/* -f, and what the input had of it */
static int	 rawtype = -1;	/* -t: how to read raw segments */
static int	 rawseen;	/* -t applied to a segment */
static unsigned long waitsecs = 60;
static int	 style[5];
static int	 nanplain;	/* -F nan=nan: SHMIDS_NANPLAIN, or 0 */
static int	 rval;
static unsigned long nrefs;	/* reference lines met, for -r's word */
static unsigned long nrows;	/* rows left inline that -r wrote */

/*
 * -d: labels expanded, removed only once all output is flushed and
 * closed, so a segment referenced twice expands twice and a failed write
 * removes nothing.  A segment that a line of the output still names (a
 * reference outside -f, or one that failed) is kept: refs holds their
 * ids, with where they were seen.
 */
static struct labels done;
struct keep {
	char		 id[SHMIDS_LABEL_MAX + 1];
	const char	*fname;
	unsigned long	 lineno, seq;
};
static struct {
	struct keep	*v;
	size_t		 n, cap;
} refs;
/* why -d may not remove: an input not read in full, or a line not held */
static const char *inputbad;

/*
 * One input line.  Its leading blanks and field may go to the output as
 * they are read, since an expansion starts with them too; of the rest
 * only about HOLD bytes are held, enough to tell a reference line (its
 * label is at most 75 bytes) from any other, which then passes through in
 * chunks: memory does not grow with the length of a line.  Only a line
 * whose second token is "shmids", or that holds HOLD blanks in a row,
 * is held whole.
 */
#define HOLD	4096

struct line {
	char		*buf;	/* the line from its field on */
	size_t		 n, cap;
	size_t		 sent;	/* bytes of the line written before buf */
	int		 cut;	/* its first token cut: SHMIDS_LINE_CUT... */
	int		 plain;	/* known not to be a reference line */
	int		 longfield;	/* longer than any -f name */
	int		 hash;	/* the field begins with '#' */
	int		 lost;	/* the byte line_add() had no room for */
};
static size_t	 hold = HOLD;	/* HOLD, or more for a long -f list */

/*
 * The input, read by read(2) into a buffer of ours rather than stdio's,
 * so that we know when the next byte would have to wait: what is
 * written goes out before such a read, and before waiting for a writer
 * (issue 33: a live pipeline must never wait for text already made).
 * A regular file never makes us wait, and is read as before.
 */
#define INBUF	65536
static struct {
	int		 fd, reg, eof, err;
	int		 fresh;		/* nothing read yet: see magic.h */
	const char	*fname;
	size_t		 pos, end;
	unsigned char	 buf[INBUF];
} in;

static const struct opt opts[] = {
	{ 'c', "width", "cols", "wrap at cols columns; 0: one array a line" },
	{ 'd', "remove", NULL,
	    "remove each segment once its expansion is out" },
	{ 'F', "style", "type=style", "number style: f64=exp, i32=hex, nan=nan" },
	{ 'f', "fields", "fields",
	    "only these fields' references (as cut -f: a,b)" },
	{ 'h', "help", NULL, "print this help and exit" },
	{ 'r', "rows", NULL,
	    "values only, one array a line: numpy, R read it" },
	{ 't', "type", "type", "the element type of raw segments" },
	{ 'w', "wait", "seconds", "wait so long for writers still filling" },
	{ OPT_VERSION, "version", NULL, "print the version and exit" },
	{ 0, NULL, NULL, NULL }
};

static void
usage(FILE *fp, int status)
{
	/* two lines, as BSD's usages: an 80-column terminal */
	fprintf(fp, "usage: shm-expand [-dr] [-c cols] [-f fields] "
	    "[-F type=style] [-t type]\n"
	    "                  [-w seconds] [file ...]\n");
	opts_usage_end(fp, status);
}

/* The file segment being written out, for onbus(): path, bytes declared. */
static char busid[SHMIDS_LABEL_MAX + 1];
static off_t busneed;
static volatile sig_atomic_t busset;
static int busfault;	/* a thread is in onbus() */

/*
 * A file segment truncated under us (format-spec.md 2.6) faults on the
 * pages it lost; a sparse one whose file system is full, on a page that
 * cannot be had.  Its size tells which: say so, and exit 1 without
 * removing anything.
 */
static void
onbus(int sig)
{
	static const char cut[] =
	    "shm-expand: a file segment was truncated while being read\n";
	static const char full[] = "shm-expand: a file segment's pages "
	    "never written cannot be read: the file system holding it is "
	    "full\n";
	struct stat st;
	ssize_t n;

	(void)sig;
	/*
	 * Threads that read the lost pages fault each: one speaks, the
	 * others wait for its _exit().
	 */
	if (__atomic_exchange_n(&busfault, 1, __ATOMIC_SEQ_CST))
		for (;;)
			pause();
	if (busset && stat(busid, &st) == 0 && st.st_size >= busneed)
		n = write(STDERR_FILENO, full, sizeof(full) - 1);
	else
		n = write(STDERR_FILENO, cut, sizeof(cut) - 1);
	(void)n;
	_exit(1);
}

/*
 * onbus() for every SIGBUS: not signal(3), which under _XOPEN_SOURCE
 * alone is System V's, the handler reset at the first fault, so that a
 * second thread's fault killed the process (exit 135, no message).
 */
static void
catch_bus(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = onbus;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

/*
 * -F type=style: which styles each type has is format-spec.md 6; and
 * -F nan=NA or nan, how NaNs are spelt in every float style.
 */
static int
set_style(const char *arg)
{
	static const char *names[] = { "short", "exp", "hex", "dec" };
	const char *eq = strchr(arg, '=');
	char t[8];
	size_t i;
	int type, isfloat;

	if (eq == NULL || (size_t)(eq - arg) >= sizeof(t))
		return -1;
	memcpy(t, arg, (size_t)(eq - arg));
	t[eq - arg] = '\0';
	if (strcmp(t, "nan") == 0) {
		if (strcmp(eq + 1, "NA") != 0 && strcmp(eq + 1, "nan") != 0)
			return -1;
		nanplain = strcmp(eq + 1, "nan") == 0 ? SHMIDS_NANPLAIN : 0;
		return 0;
	}
	if ((type = shmids_type_parse(t)) == -1)
		return -1;
	isfloat = type == SHMIDS_F64 || type == SHMIDS_F32;
	for (i = 0; i < 4; i++)
		if (strcmp(eq + 1, names[i]) == 0)
			break;
	if (i == 4 || (i == 3 && isfloat) || (i < 2 && !isfloat))
		return -1;
	style[type] = i == 3 ? SHMIDS_SHORT : (int)i;
	return 0;
}

/* Write out what is made: the input would make us wait. */
static void
flush_out(void)
{
	if (fflush(stdout) == EOF)
		err(1, "stdout");
}

static void
in_open(FILE *fp, const char *fname)
{
	struct stat st;

	in.fd = fileno(fp);
	in.fname = fname;
	in.fresh = 1;
	in.reg = fstat(in.fd, &st) == 0 && S_ISREG(st.st_mode);
	in.eof = in.err = 0;
	in.pos = in.end = 0;
}

/*
 * The next byte once the buffer is empty; EOF at the end or on an error
 * (in.err).  One poll(2) a read, nothing against a read of 64 KiB.
 */
static int
in_fill(void)
{
	struct pollfd p;
	const struct shmids_compression *how;
	ssize_t n;

	if (in.eof || in.err)
		return EOF;
	if (!in.reg) {
		p.fd = in.fd;
		p.events = POLLIN;
		if (poll(&p, 1, 0) == 0)
			flush_out();
	}
	while ((n = read(in.fd, in.buf, INBUF)) == -1 && errno == EINTR)
		;
	if (n <= 0) {
		in.eof = n == 0;
		in.err = n == -1;
		return EOF;
	}
	/* Compressed input is no text to copy through (issue 33). */
	if (in.fresh && (how = shmids_compressed(in.buf, (size_t)n)) != NULL) {
		magic_refuse("shm-expand", in.fname, how);
		inputbad = "the input was not read in full";
		rval = 1;
		in.eof = 1;
		return EOF;
	}
	in.fresh = 0;
	in.pos = 1;
	in.end = (size_t)n;
	return in.buf[0];
}

static int
in_getc(void)
{
	return in.pos < in.end ? in.buf[in.pos++] : in_fill();
}

/*
 * Open label, waiting -w seconds in all while its writer is still
 * filling it: woken by the seal (format-spec.md 2.2).
 */
static void *
open_wait(const char *label)
{
	if (!in.reg)
		flush_out();
	return shmids_open_flags(label, 0, (double)waitsecs);
}

/* After the library's "still being written by pid N": how long. */
static const char *
waited(void)
{
	static char buf[64];

	if (waitsecs == 0)
		return " (-w 0: not waited for)";
	snprintf(buf, sizeof(buf), " after %lu s (-w)", waitsecs);
	return buf;
}

/*
 * The message being expanded (format-spec.md 5.1): open_view() returns
 * &msgh for it, which written() does not close (streams.c keeps it).
 */
static struct shmids_msg msg;
static char msgh;

/* -t applied to a raw array. */
static int
view_raw(struct shmids_array *a)
{
	size_t esz;

	if (a->type != SHMIDS_RAW || rawtype == -1)
		return 0;
	rawseen = 1;
	esz = shmids_type_size(rawtype);
	if (a->count % esz != 0) {
		errno = EINVAL;
		return -1;
	}
	a->type = rawtype;
	a->count /= esz;
	return 0;
}

/* The typed view, with -t applied to raw segments. */
static int
view(void *h, struct shmids_array *a)
{
	if (shmids_array(h, a) == -1)
		return -1;
	return view_raw(a);
}

/*
 * Message seq of the stream r names, as an array in a (&msgh), or NULL
 * after a diagnostic: one gone says what to do (format-spec.md 7).
 */
static void *
msg_view(const char *fname, unsigned long lineno,
    const struct shmids_line *r, long long seq, struct shmids_array *a)
{
	char mlabel[SHMIDS_LABEL_MAX + 32];
	const char *why;
	int e;

	snprintf(mlabel, sizeof(mlabel), "%s %lld", r->label, seq);
	if (!in.reg)
		flush_out();
	if (streams_get(r->label, seq, (double)waitsecs, &msg) == -1) {
		e = errno;
		why = msg_why(mlabel, e);
		/* gone, not past the end: what would have kept it */
		warnx("%s:%lu: %s: %s%s%s", fname, lineno, mlabel, why,
		    e == EAGAIN ? waited() : "",
		    e == ENOMSG && strstr(why, " is gone") != NULL ?
		    ": expand a stream while it is written (... | "
		    "shm-expand), or give it more slots (shm-import "
		    "--stream=SLOTS)" : "");
		return NULL;
	}
	memset(a, 0, sizeof(*a));
	a->data = (void *)(uintptr_t)msg.data;
	a->type = msg.type;
	a->count = msg.rows * msg.cols;
	if (view_raw(a) == -1) {
		warnx("%s:%lu: %s: %zu bytes are not a whole number of %s",
		    fname, lineno, mlabel, a->count,
		    shmids_type_name(rawtype));
		return NULL;
	}
	return &msgh;
}

/*
 * Did -F nan=nan write a NaN of a without its payload (R's NA, nan(0xM))?
 * Then the segment is the only exact copy, and -d must not remove it.
 * Plain nan and -nan read back as the default quiet NaN of their sign.
 */
static int
nan_lost(const struct shmids_array *a)
{
	const uint64_t *d = a->data;
	const uint32_t *f = a->data;
	size_t i;

	for (i = 0; a->type == SHMIDS_F64 && i < a->count; i++)
		if ((d[i] & 0x7ff0000000000000ull) == 0x7ff0000000000000ull &&
		    (d[i] & 0x000fffffffffffffull) != 0 &&
		    (d[i] & 0x7fffffffffffffffull) != 0x7ff8000000000000ull)
			return 1;
	for (i = 0; a->type == SHMIDS_F32 && i < a->count; i++)
		if ((f[i] & 0x7f800000u) == 0x7f800000u &&
		    (f[i] & 0x007fffffu) != 0 &&
		    (f[i] & 0x7fffffffu) != 0x7fc00000u)
			return 1;
	return 0;
}

/*
 * -r: the values alone on one line.  shmids_emit() puts a blank before
 * each value: the first goes out here, so that the line starts with it,
 * as the values of an inline array do after the field.
 */
static void
emit_rows(struct shmids_layout *e, const struct shmids_array *a)
{
	char num[SHMIDS_NUM_MAX];
	size_t n;

	e->lead = "";
	e->leadlen = 0;
	e->col0 = 0;
	e->cols = 0;
	e->eol = "\n";
	if (a->count == 0) {
		if (putchar('\n') == EOF)
			err(1, "stdout");
		return;
	}
	if ((n = shmids_format(num, a->type, a->data,
	    e->style[a->type])) == 0 || fwrite(num, 1, n, stdout) != n ||
	    shmids_emit(stdout, e, a->type, (const char *)a->data +
	    shmids_type_size(a->type), a->count - 1) == -1)
		err(1, "stdout");
}

/*
 * Whether the last line read to its LF ended CRLF: a reference line
 * that ends the file without LF (or in a bare CR) expands into lines
 * that end as the file's do, the last as it did (format-spec.md 6).
 */
static int lastc, crlf;

static void
saw(int c)
{
	if (c == '\n')
		crlf = lastc == '\r';
	lastc = c;
}

static void
line_ends(struct shmids_layout *e, const char *eol)
{
	e->eol = eol;
	if (eol[0] == '\0' && crlf) {
		e->version = SHMIDS_LAYOUT_V2;
		e->weol = "\r\n";
	}
}

/*
 * The segment reference line r names, attached, and its typed view in
 * a; NULL after a diagnostic if it cannot be had.
 */
static void *
open_view(const char *fname, unsigned long lineno,
    const struct shmids_line *r, long long seq, struct shmids_array *a)
{
	void *h;

	nrefs++;
	if (seq >= 0)
		return msg_view(fname, lineno, r, seq, a);
	if ((h = open_wait(r->label)) == NULL) {
		warnx("%s:%lu: %s: %s%s", fname, lineno, r->label,
		    msg_why(r->label, errno), errno == EAGAIN ? waited() : "");
		return NULL;
	}
	if (view(h, a) == -1) {
		if (errno == EINVAL)
			warnx("%s:%lu: %s: %zu bytes are not a whole number "
			    "of %s", fname, lineno, r->label, a->count,
			    shmids_type_name(rawtype));
		else
			warnx("%s:%lu: %s: %s", fname, lineno, r->label,
			    msg_why(r->label, errno));
		shmids_close(h);
		return NULL;
	}
	return h;
}

/*
 * A file segment's bytes, for onbus() to tell a truncated file; and the
 * styles of -F, which a layout keeps.
 */
static void
watch(const char *label, const void *h, const struct shmids_array *a,
    struct shmids_layout *e)
{
	if (label[0] == '/' && h != &msgh) {
		snprintf(busid, sizeof(busid), "%.*s",
		    (int)strcspn(label, " "), label);
		busneed = (off_t)(SHMIDS_HEADER + a->count *
		    shmids_type_size(a->type));
		busset = 1;
	}
	memcpy(e->style, style, sizeof(style));
	e->style[SHMIDS_F64] |= nanplain;
	e->style[SHMIDS_F32] |= nanplain;
}

/*
 * h, holding a, was expanded from line lineno of fname: let it go; -d
 * removes it at the end, unless -F nan=nan lost a NaN's payload.
 */
static void
written(void *h, const char *label, const struct shmids_array *a,
    const char *fname, unsigned long lineno)
{
	busset = 0;
	if (h == &msgh)		/* a stream is never -d's: 10.5 */
		return;
	if (dflag && nanplain && nan_lost(a)) {
		warnx("%s:%lu: %s: not removed: -F nan=nan wrote a NaN without "
		    "its payload (R's NA?), so the segment is the only exact "
		    "copy", fname, lineno, label);
		rval = 1;
	} else if (dflag)
		filter_labels_add(&done, label);
	shmids_close(h);
}

/* Returns 0 if expanded, -1 (after a diagnostic) if the line must stay. */
static int
expand(const char *fname, unsigned long lineno, const struct line *l,
    const struct shmids_line *r, long long seq)
{
	struct shmids_array a;
	struct shmids_layout e;
	void *h;

	if ((h = open_view(fname, lineno, r, seq, &a)) == NULL)
		return -1;
	shmids_layout_init(&e, NULL);
	e.lead = l->buf;
	e.leadlen = r->field + r->fieldlen;
	e.col0 = l->sent;
	e.indent = e.col0 + e.leadlen + 1;
	e.cols = cols;
	line_ends(&e, l->buf + r->end);
	watch(r->label, h, &a, &e);
	if (rflag)
		emit_rows(&e, &a);
	else if (shmids_emit(stdout, &e, a.type, a.data, a.count) == -1)
		err(1, "stdout");
	written(h, r->label, &a, fname, lineno);
	return 0;
}

/*
 * A table's shape as -t sees it, as meant, and its order
 * (format-spec.md 2.7): a raw table's bytes a row must be a whole
 * number of the type, and a column-major one's are bytes alone (its
 * values of the type would straddle rows).  -1 (errno EINVAL, or
 * EPROTOTYPE for a column-major one) if not.
 */
static int
table_shape(void *h, const struct shmids_array *a, size_t *rows,
    size_t *tcols, int *order)
{
	struct shmids_array seg;
	struct shmids_dims d;
	size_t esz = 1;

	*order = SHMIDS_ROWMAJOR;
	if (h == &msgh && msg.ndim == 2) {
		d.rows = msg.rows;
		d.cols = msg.cols;
		d.order = msg.order;
		seg.type = msg.type;
	} else if (h == &msgh || shmids_dims(h, &d) != 2 ||
	    shmids_array(h, &seg) == -1) {
		*tcols = 1;	/* a 1-D segment: one value a row */
		*rows = a->count;
		return 0;
	}
	if (seg.type != a->type)	/* raw, read as -t's type */
		esz = shmids_type_size(a->type);
	if (d.order != SHMIDS_ROWMAJOR && esz != 1) {
		errno = EPROTOTYPE;
		return -1;
	}
	if (d.cols % esz != 0) {
		errno = EINVAL;
		return -1;
	}
	*tcols = d.cols / esz;
	*rows = d.rows;
	*order = d.order;
	return 0;
}

/*
 * A table reference: its rows, one a line, after the line's leading
 * blanks and ending as it ended (format-spec.md 6.1).  0, or -1 after a
 * diagnostic if the line must stay.
 */
static int
expand_table(const char *fname, unsigned long lineno, const struct line *l,
    const struct shmids_line *r, long long seq)
{
	struct shmids_array a;
	struct shmids_layout e;
	size_t rows, tcols;
	void *h;
	int order;

	/*
	 * Leading blanks beyond the line buffer went out already (l->sent):
	 * every row must start with all of them, so such a line stays.
	 */
	if (l->sent > 0 && !rflag) {
		warnx("%s:%lu: %s: a table reference with over 4 KiB of "
		    "leading blanks: copied unexpanded", fname, lineno,
		    r->label);
		return -1;
	}
	if ((h = open_view(fname, lineno, r, seq, &a)) == NULL)
		return -1;
	if (table_shape(h, &a, &rows, &tcols, &order) == -1) {
		warnx(errno == EPROTOTYPE ? "%s:%lu: %s: a column-major raw "
		    "table is read as bytes only, not as %s" :
		    "%s:%lu: %s: its rows are not a whole number of %s",
		    fname, lineno, r->label, shmids_type_name(rawtype));
		if (h != &msgh)
			shmids_close(h);
		return -1;
	}
	shmids_layout_init(&e, NULL);
	/* -r: the rows alone, each on a line of its own */
	e.lead = rflag ? "" : l->buf;
	e.leadlen = rflag ? 0 : r->field;
	if (rflag)
		e.eol = "\n";
	else
		line_ends(&e, l->buf + r->end);
	watch(r->label, h, &a, &e);
	if (shmids_emit_matrix(stdout, &e, a.type, a.data, rows, tcols,
	    r->sep, order) == -1)
		err(1, "stdout");
	written(h, r->label, &a, fname, lineno);
	return 0;
}

/* Bytes of the input copied to the output: none with -r. */
static void
put(const char *s, size_t n)
{
	if (!rflag && fwrite(s, 1, n, stdout) != n)
		err(1, "stdout");
}

/*
 * -d keeps the segment of label's id: line lineno of fname names it and
 * stays.  By id, not by label: a line that names it with another name
 * (stale, or a typo) may still be meant for it.
 */
static void
keep(const char *label, const char *fname, unsigned long lineno)
{
	void *v;

	if (refs.n == refs.cap) {
		refs.cap = refs.cap ? refs.cap * 2 : 16;
		if ((v = realloc(refs.v, refs.cap * sizeof(*refs.v))) == NULL)
			msg_nomem();
		refs.v = v;
	}
	strcpy(refs.v[refs.n].id, label);
	refs.v[refs.n].id[strcspn(label, " ")] = '\0';
	refs.v[refs.n].fname = fname;
	refs.v[refs.n].lineno = lineno;
	refs.v[refs.n].seq = refs.n;
	refs.n++;
}

/*
 * A malformed reference line goes out as it came, and another reader
 * may still take its third token, up to a NUL or CR, for an id: -d
 * keeps what that would name.
 */
static void
keep_malformed(const char *b, size_t n, const char *fname,
    unsigned long lineno, int tok)
{
	char id[SHMIDS_LABEL_MAX + 1];
	size_t i = 0, s = 0, j;
	int k, shmid;

	for (k = 0; k < tok; k++) {
		while (i < n && shmids_isblank(b[i]))
			i++;
		for (s = i; i < n && !shmids_isblank(b[i]) && b[i] != '\n'; i++)
			;
	}
	for (j = s; j < i && b[j] != '\0' && b[j] != '\r'; j++)
		;
	if (j == s || j - s > SHMIDS_LABEL_MAX ||
	    shmids_id_check(b + s, j - s, &shmid) == -1)
		return;
	memcpy(id, b + s, j - s);
	id[j - s] = '\0';
	keep(id, fname, lineno);
}

/*
 * A table reference (format-spec.md 5), valid or malformed (c), which
 * has no field: expanded, or with -f copied unchanged.
 */
static void
expand_tref(const char *fname, unsigned long lineno, const struct line *l,
    const struct shmids_line *c)
{
	int k = c->kind == SHMIDS_LINE_MALFORMED ? -1 : 1;
	long long seq = shmids_line_seq(l->buf, c);

	int copied = dflag && !rflag;	/* may keep a segment (-d) */

	if (k == 1 && fields == NULL &&
	    expand_table(fname, lineno, l, c, seq) == 0)
		return;
	if (k == 1 && copied)
		keep(c->label, fname, lineno);
	if (k == -1 && copied)
		keep_malformed(l->buf, l->n, fname, lineno, 2);
	if (k == -1)
		warnx("%s:%lu: malformed reference: %s", fname, lineno, c->why);
	if (k == -1 || fields == NULL)
		rval = 1;
	put(l->buf, l->n);
}

/*
 * -r without -f: is the held line a row or a comma row (format-spec.md
 * 6.1)?  Then it is values only already, and goes out as it is: a
 * block shm-import left inline (under -k) is data all the same.
 */
static int
inline_row(const struct line *l)
{
	struct shmids_values v;
	size_t n;
	int k, sep;

	if (!rflag || fields != NULL || l->sent > 0 ||
	    !shmids_isnumber(l->buf, l->n))
		return 0;
	memset(&v, 0, sizeof(v));
	v.type = SHMIDS_F64;
	if ((k = shmids_row_parse(&v, l->buf, l->n, &sep, &n)) == -1)
		msg_nomem();
	shmids_values_free(&v);
	return k;
}

static void
expand_line(const char *fname, unsigned long lineno, const struct line *l)
{
	struct shmids_line c;
	int k, copied = dflag && !rflag;	/* may keep a segment (-d) */
	long long seq;

	/* what the line is: format-spec.md 5, 5.1, 6.1 (the library's) */
	shmids_line_kind(l->buf, l->n, l->cut, &c);
	if (c.kind == SHMIDS_LINE_TREF || c.kind == SHMIDS_LINE_MTREF ||
	    (c.kind == SHMIDS_LINE_MALFORMED && c.sep != 0)) {
		expand_tref(fname, lineno, l, &c);
		return;
	}
	k = c.kind == SHMIDS_LINE_REF || c.kind == SHMIDS_LINE_MREF ? 1 :
	    c.kind == SHMIDS_LINE_MALFORMED ? -1 : 0;
	seq = shmids_line_seq(l->buf, &c);	/* -1: a segment's */
	if (k == -1 && copied)
		keep_malformed(l->buf, l->n, fname, lineno, 3);
	if (fields != NULL && !l->longfield)
		filter_fields_note(&want, l->buf + c.field, c.fieldlen, k != 0);
	if (k != 0 && fields != NULL && (l->longfield ||
	    !filter_fields_has(&want, l->buf + c.field, c.fieldlen))) {
		if (k == 1 && copied)
			keep(c.label, fname, lineno);
		k = 0;
	}
	if (k == 1 && expand(fname, lineno, l, &c, seq) == 0)
		return;
	if (k == 1 && copied)
		keep(c.label, fname, lineno);
	if (k == -1 && c.label[0] != '\0' &&
	    shmids_isnumber(l->buf + c.field, c.fieldlen))
		/* issue 32.10: how to get the data of a 1.1 row back */
		warnx("%s:%lu: malformed reference: %s: if shm-import 1.1 "
		    "made this of a row, the row is %s, then the values of "
		    "segment '%s' "
		    "(echo 'x shmids %s' | shm-expand writes them)", fname,
		    lineno, c.why, msg_quote(l->buf + c.field, c.fieldlen),
		    c.label, c.label);
	else if (k == -1)
		warnx("%s:%lu: malformed reference: %s", fname, lineno, c.why);
	if (k != 0)
		rval = 1;
	if (k == 0 && inline_row(l)) {
		if (fwrite(l->buf, 1, l->n, stdout) != l->n)
			err(1, "stdout");
		nrows++;
		return;
	}
	put(l->buf, l->n);
}

static int
line_add(struct line *l, int c)
{
	size_t cap;
	char *b;

	/* Room for a NUL after: e.eol is a C string. */
	if (l->n + 1 >= l->cap) {
		cap = l->cap ? l->cap * 2 : hold + 2;
		if ((b = realloc(l->buf, cap)) == NULL)
			return -1;
		l->buf = b;
		l->cap = cap;
	}
	l->buf[l->n++] = (char)c;
	l->buf[l->n] = '\0';
	return 0;
}

/*
 * Write what is held of the leading blanks and the field, but the last
 * keep bytes (of the field), which stay to start buf.  A long field
 * keeps only its last byte: the classifier is told that the line begins
 * inside its first token, and what the bytes that went held of what it
 * needs (l->cut: a first '#', a NUL, a CR; format-spec.md 6, 7), so that
 * such a field's reference line is still found malformed, or a comment.
 */
static void
send_lead(struct line *l, size_t keep)
{
	size_t len = l->n - keep;

	if (keep > 0 && l->longfield) {
		l->cut |= SHMIDS_LINE_CUT | (l->hash ? SHMIDS_LINE_CUT_HASH : 0);
		if (memchr(l->buf, '\0', len) != NULL)
			l->cut |= SHMIDS_LINE_CUT_NUL;
		if (memchr(l->buf, '\r', len) != NULL)
			l->cut |= SHMIDS_LINE_CUT_CR;
	}
	put(l->buf, len);
	l->sent += len;
	memmove(l->buf, l->buf + len, keep);
	l->n = keep;
	l->buf[l->n] = '\0';
}

/*
 * Is the held line known not to be a reference line of either form
 * (the library's classifier, told it holds the line's start)?
 */
static int
is_plain(const struct line *l)
{
	struct shmids_line c;

	return shmids_line_kind(l->buf, l->n, SHMIDS_LINE_PART | l->cut, &c) ==
	    1;
}

/*
 * Read a line into l: whole, or up to where it is known to be plain
 * (the rest is then for copy_rest()).  1, 0 at the end of the file, -1
 * for a read error (errno), -2 when a line held whole did not fit in
 * memory: l holds its start, and l->lost the byte read after it.
 */
static int
read_line(struct line *l)
{
	size_t check = hold, flen = 0;
	int c, phase = 0;	/* 0 leading blanks, 1 field, 2 after */

	l->n = l->sent = 0;
	l->cut = 0;
	l->plain = l->longfield = l->hash = 0;
	while ((c = in_getc()) != EOF) {
		saw(c);
		if (line_add(l, c) == -1) {
			l->lost = c;
			return -2;
		}
		if (c == '\n')
			return 1;
		if (phase < 2 && shmids_isblank(c) == (phase == 1) &&
		    ++phase == 1)
			l->hash = c == '#';
		flen += phase == 1;
		if (l->n < check)
			continue;
		/* -r: a line that begins with a number may be a row */
		if (rflag && fields == NULL && l->sent == 0 &&
		    shmids_isnumber(l->buf, l->n)) {
			check *= 2;
			continue;
		}
		if (phase < 2) {
			/* A field that may be in -f stays whole. */
			l->longfield = flen > hold - HOLD;
			send_lead(l, phase == 0 ? 0 : l->longfield ? 1 : flen);
		}
		else if ((l->plain = is_plain(l)) != 0)
			return 1;
		else
			check *= 2;
	}
	if (in.err)
		return -1;
	return l->n > 0 || l->sent > 0;
}

/* The rest of a plain line, in chunks. */
static int
copy_rest(void)
{
	static char buf[65536];
	size_t n = 0;
	int c;

	while ((c = in_getc()) != EOF) {
		saw(c);
		buf[n++] = (char)c;
		if (c == '\n')
			break;
		if (n == sizeof(buf)) {
			put(buf, n);
			n = 0;
		}
	}
	put(buf, n);
	return in.err ? -1 : 0;
}

/*
 * A line that may be a reference did not fit in memory: it goes out as
 * it came, unexpanded.  What it names is not known, so -d removes nothing.
 */
static int
unheld(const char *fname, unsigned long lineno, struct line *l)
{
	char c = (char)l->lost;

	warnx("%s:%lu: cannot hold this line: %s: copied unexpanded", fname,
	    lineno, MSG_NOMEM);
	inputbad = "a line that may name a segment was not held";
	rval = 1;
	put(l->buf, l->n);
	put(&c, 1);
	return c == '\n' ? 0 : copy_rest();
}

/*
 * -f: the field of a line known not to be a reference line, its first
 * token as the classifier reads it (a row's first value included).
 */
static void
note_plain(const struct line *l)
{
	struct shmids_line c;
	size_t f, i;

	if (fields == NULL || l->longfield)
		return;
	shmids_line_kind(l->buf, l->n, 0, &c);
	if (c.kind == SHMIDS_LINE_TEXT && c.sep == '#')
		return;		/* a comment has no field (section 6) */
	for (f = c.lead, i = f; i < c.end && !shmids_isblank(
	    l->buf[i]); i++)
		;
	if (i > f)
		filter_fields_note(&want, l->buf + f, i - f, 0);
}

static void
expand_file(FILE *fp, const char *fname)
{
	static struct line l;
	unsigned long lineno = 0;
	int k;

	lastc = crlf = 0;	/* each file's line ends are its own */
	in_open(fp, fname);
	while ((k = read_line(&l)) == 1 || k == -2) {
		lineno++;
		if (k == -2)
			k = unheld(fname, lineno, &l);
		else if (!l.plain)
			expand_line(fname, lineno, &l);
		else {
			note_plain(&l);
			put(l.buf, l.n);
			k = copy_rest();
		}
		if (k == -1)
			break;
	}
	if (k == -1) {
		msg_read_error(fname, lineno + (l.plain ? 0 : 1));
		inputbad = "the input was not read in full";
		rval = 1;
	}
}

static int
keepcmp(const void *a, const void *b)
{
	const struct keep *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	if (c != 0)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
keepkey(const void *key, const void *elem)
{
	return strcmp(key, ((const struct keep *)elem)->id);
}

/*
 * What the output no longer names goes; another shm-expand -d may have
 * been quicker: gone is what was asked.  Sorted lists keep this
 * O(n log n) in the number of references.
 */
static void
remove_done(void)
{
	char id[SHMIDS_LABEL_MAX + 1];
	const struct keep *k;
	size_t i;

	if (inputbad != NULL) {
		if (done.n > 0)
			warnx("-d: no segment removed, as %s", inputbad);
		return;
	}
	filter_labels_sort(&done);
	if (refs.n > 0)
		qsort(refs.v, refs.n, sizeof(*refs.v), keepcmp);
	for (i = 0; i < done.n; i++) {
		strcpy(id, done.v[i]);
		id[strcspn(id, " ")] = '\0';
		k = refs.n == 0 ? NULL : bsearch(id, refs.v, refs.n,
		    sizeof(*refs.v), keepkey);
		if (k != NULL) {
			/* bsearch may land on any of equal keys: the first. */
			while (k > refs.v && strcmp(k[-1].id, id) == 0)
				k--;
			warnx("%s: not removed: %s:%lu still refers to it",
			    done.v[i], k->fname, k->lineno);
			rval = 1;
		} else if (shmids_remove(done.v[i]) == -1 && errno != ENOENT) {
			warnx("%s: not removed: %s", done.v[i],
			    msg_why(done.v[i], errno));
			rval = 1;
		}
	}
}

/*
 * What was asked for and matched nothing is an error (exit 1): a typo
 * in -f must not look like an expanded file.  Not once the input was
 * not read in full: its lost part may have had them.
 */
static void
matched_nothing(void)
{
	if (inputbad != NULL)
		return;
	if (fields != NULL && filter_fields_report(&want,
	    "no reference line has this field") != 0)
		rval = 1;
	/* -r wrote nothing of such an input: data.txt for data.shm? */
	if (rflag && fields == NULL && nrefs == 0 && nrows == 0) {
		warnx("-r: no reference line in the input: nothing to write "
		    "(its arrays inline? shm-import makes them segments)");
		rval = 1;
	}
	if (rawtype != -1 && !rawseen) {
		warnx("-t %s: no raw segment in the input (-t applies to "
		    "raw segments only)", shmids_type_name(rawtype));
		rval = 1;
	}
}

/*
 * -w seconds: a number of seconds, or, as shm-rm -s takes an age, a
 * number and its unit (30s, 5m, 1h), up to a year.
 */
static void
set_wait(const char *arg)
{
	size_t n = strlen(arg);
	int bare = n > 0 && arg[n - 1] >= '0' && arg[n - 1] <= '9';
	time_t t;

	if (bare ? opts_ulong(arg, 86400 * 365, &waitsecs) == -1 :
	    opts_age(arg, &t) == -1 || t > 86400 * 365)
		opts_invalid("wait", arg, "seconds, or a number and a unit: "
		    "30s, 5m, 1h; at most a year");	/* exits */
	if (!bare)
		waitsecs = (unsigned long)t;
}

int
main(int argc, char *argv[])
{
	unsigned long v;
	int ch;

	opts_args(argv, "shm-expand", opts, usage);
	while ((ch = opts_getopt(argc, argv)) != -1)
		switch (ch) {
		case 'r':
			rflag = 1;
			break;
		case 'c':
			if (opts_ulong(optarg, 1000000, &v) == -1)
				opts_invalid("width", optarg,
				    "0 to 1000000 columns, 0 for no wrapping");
			cols = v;
			break;
		case 'd':
			dflag = 1;
			break;
		case 'F':
			if (set_style(optarg) == -1)
				opts_invalid("style", optarg, "f64 or f32="
				    "short, exp or hex; i64, i32 or raw=dec or hex;"
				    " nan=NA or nan");
			break;
		case 'f':
			fields = optarg;
			filter_fields(&want, fields);
			hold = HOLD + strlen(optarg);
			break;
		case 'h':
			usage(stdout, 0);
			break;
		case 't':
			if ((rawtype = shmids_type_parse(optarg)) == -1)
				opts_invalid("type", optarg,
				    "f64, f32, i64, i32 or raw");
			break;
		case 'w':
			set_wait(optarg);
			break;
		default:
			usage(stderr, 2);
		}
	argc -= optind;
	argv += optind;
	opts_threads_check();
	catch_bus();
	if (filter_each_file(argc, argv, expand_file) != 0)
		inputbad = "the input was not read in full", rval = 1;
	matched_nothing();
	if (msg_close_stdout() == -1)
		return 1;
	streams_close();
	remove_done();
	return rval;
}
