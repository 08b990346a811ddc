/*
 * shm-import: the other direction of shm-expand.  Inline arrays become
 * segments and their lines become shmids reference lines; every other
 * line passes through unchanged.  If the output cannot be written in
 * full, every segment this run made is removed again.
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shmids.h"
#include "engine.h"
#include "ftoken.h"
#include "lines.h"
#include "magic.h"
#include "neartab.h"
#include "syscheck.h"
#include "filter.h"
#include "msg.h"
#include "opts.h"

static const char *fields;	/* -f list, NULL for "by -k" */
static struct fields want;	/* -f, and what the input had of it */
static int	 mode = 0600;
static unsigned long minvals = 64;
static const char *prefix = "";
static int	 deftype = -1;	/* bare -t; -1 for none given: f64 */

/* -t field=type, in the order given. */
static struct ftype {
	const char	*field;
	size_t		 len;
	int		 type;
} *ftypes;
static size_t	 nftypes;
static int	 rval;

/* Labels made by this run, to undo if the output fails. */
static struct labels made;

/*
 * Without -f: how many arrays became segments, and the longest left
 * inline for being under the minimum: when nothing at all was
 * converted, that is worth a word.  Only what looks like an array
 * counts: 10 values or more, or continued on a second line; not a
 * setting ("grid 100"), nor a table row, whose field is a number.
 */
static unsigned long nconverted;
static int	 neartold;	/* a table left as text was told why */
static struct miss {
	char		 field[SHMIDS_NAME_MAX + 1];
	char		 where[96];
	size_t		 count;
} longest_miss;
/* The first array whose values are not of its -t type (1.5 for i32). */
static struct miss type_miss;
/*
 * Table blocks left as text: the largest under the minimum, and the
 * first row whose values are not of the -t type.
 */
static struct tmiss {
	char		 where[96];
	size_t		 rows, cols;
} table_miss, ttype_miss;
/* The first row that begins with R's row name ("1" 100 101 ...). */
static struct miss rowname_miss;
/*
 * Arrays and rows left as text for a Fortran form that is no value
 * (cmd/ftoken.h): the first, and how many; said whatever was converted.
 */
static struct {
	char		 where[96];
	char		 tok[40];
	const char	*why, *what;
	unsigned long	 n;
} fortran_miss;
/*
 * Left as text, and said whatever was converted (format-spec.md 7): the
 * first line of numbers alone (a table block of one row) of -k values
 * or more, and the first array whose one bad token looks like a typo
 * ("3o"); how many of each.  last_bad is the bad token bad_note() saw
 * last, for type_missed() to judge with the array's first line.
 */
static struct {
	char		 where[96];
	const char	*fname;
	unsigned long	 line;
	int		 sep;
	size_t		 count;
	unsigned long	 n;
} alone_miss;
/*
 * The rows alone of the file at hand, and its blocks' widths, until its
 * end (alone_flush()).
 */
#define ALONE_MAX	256
static struct {
	unsigned long	 line;
	size_t		 count;
	int		 sep;
} alone[ALONE_MAX];
static struct {
	unsigned long	 first;
	size_t		 cols;
	int		 sep;
} blk[ALONE_MAX];
static size_t	 nalone, nblk;
static int	 blk_over;	/* more than ALONE_MAX of either */
/*
 * The line after the last array left as text for a typo the typo note
 * tells, on its first line, which ended with "/": meant as its
 * continuation line.  typo_last: the last array the typo note counted.
 */
static struct where {
	const char	*fname;
	unsigned long	 line;
} after_bad, typo_last;
static struct {
	char		 where[96];
	char		 field[SHMIDS_NAME_MAX + 1];
	char		 tok[40];
	unsigned long	 n;
} typo_miss;
static struct {
	const char	*fname;
	unsigned long	 first;
	char		 tok[40];
} last_bad;
/* A row with a typo that cut a table in two (cut_block()). */
static struct {
	char		 where[96];
	char		 tok[40];
	char		 what[160];
	unsigned long	 n;
} cut_miss;

/* An array's first line, kept for its reference line. */
struct text {
	char		*buf;
	size_t		 len, cap;
};

static const struct opt opts[] = {
	{ 'f', "fields", "fields",
	    "only these fields' arrays (as cut -f: a,b)" },
	{ 'h', "help", NULL, "print this help and exit" },
	{ 'k', "min-count", "min",
	    "arrays of min values or more (default 64)" },
	{ 'm', "mode", "mode",
	    "the segments' octal permissions (default 0600)" },
	{ 'P', "prefix", "prefix", "names are prefix and the field" },
	{ 't', "type", "[field=]type",
	    "f64, f32, i64, i32 or raw (default f64)" },
	{ OPT_VERSION, "version", NULL, "print the version and exit" },
	{ 0, NULL, NULL, NULL }
};

static void
usage(FILE *fp, int status)
{
	/* two lines, as BSD's usages: an 80-column terminal */
	fprintf(fp, "usage: shm-import [-f fields] [-k min] [-m mode] "
	    "[-P prefix]\n"
	    "                  [-t [field=]type] [file ...]\n");
	opts_usage_end(fp, status);
}

/* A prefix that no field can complete into a name is a usage error. */
static void
check_prefix(const char *p)
{
	size_t n = strlen(p);

	if (n > 0 && (n >= SHMIDS_NAME_MAX || shmids_name_check(p, n) == -1))
		opts_invalid("prefix", p, "at most %d printable ASCII "
		    "characters other than space", SHMIDS_NAME_MAX - 1);
}

#define TYPE_FORM	"type or field=type, type one of f64, f32, i64, i32 or raw"

/*
 * -t type or -t field=type.  Repeated, they accumulate; a field given a
 * type twice, or two bare types, is a usage error as a bad type is.
 */
static void
add_type(const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t i, len = eq ? (size_t)(eq - arg) : 0;
	struct ftype *n;
	int t;

	if ((t = shmids_type_parse(eq ? eq + 1 : arg)) == -1 ||
	    (eq != NULL && len == 0))
		opts_invalid("type", arg, TYPE_FORM);
	filter_not_number("-t", arg, len);
	filter_not_comment("-t", arg, len);
	if (eq == NULL) {
		if (deftype != -1)
			opts_invalid("type", arg, "one -t without a field: "
			    "field=type gives a field its own");
		deftype = t;
		return;
	}
	for (i = 0; i < nftypes; i++)
		if (ftypes[i].len == len && memcmp(ftypes[i].field, arg,
		    len) == 0)
			opts_invalid("type", arg, "type or field=type, "
			    "each field once");
	if ((n = realloc(ftypes, (nftypes + 1) * sizeof(*n))) == NULL)
		msg_nomem();
	ftypes = n;
	ftypes[nftypes].field = arg;
	ftypes[nftypes].len = len;
	ftypes[nftypes++].type = t;
}

/* The element type of field f[0..len): its own -t, the bare -t, f64. */
static int
type_of(const char *f, size_t len)
{
	size_t i;

	for (i = 0; i < nftypes; i++)
		if (ftypes[i].len == len && memcmp(ftypes[i].field, f,
		    len) == 0)
			return ftypes[i].type;
	return deftype != -1 ? deftype : SHMIDS_F64;
}

/*
 * The segment of the array at hand, made before its values are parsed
 * into it (eng_array(), through io_make()): NULL while none is.
 */
static struct {
	char	*h;
} early;

/*
 * Remove the last segment made, detached, and forget it; if it cannot
 * be removed, say so: -1.
 */
static int
unmake(void)
{
	if (shmids_remove(made.v[--made.n]) == 0)
		return 0;
	warn("segment %s is left: remove it with shm-rm", made.v[made.n]);
	return -1;
}

/*
 * Remove every segment made so far.  The early segment is detached
 * first: removing reads the header through an attach of its own, which
 * a process short of address space (ulimit -v) could not make with the
 * segment mapped twice.  One that cannot be removed is said, not lost.
 */
static void
undo_all(void)
{
	if (early.h != NULL) {
		shmids_close(early.h);
		early.h = NULL;
	}
	while (made.n > 0)
		unmake();
}

/* SIGINT, SIGTERM, SIGHUP: stop after the current line, cleaning up. */
static volatile sig_atomic_t stop;

static void
onsignal(int sig)
{
	stop = sig;
}

static void
catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = onsignal;
	/* One ignored on entry (a background job's SIGINT) stays ignored. */
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	/*
	 * A file size limit (ulimit -f) is an error of the call that meets
	 * it (EFBIG: a file segment not made, a spill kept in memory, the
	 * output not written), not SIGXFSZ, which would kill us with the
	 * segments made so far left, and an empty file segment too.
	 */
	signal(SIGXFSZ, SIG_IGN);
}

static void
check_stop(void)
{
	if (stop == 0)
		return;
	undo_all();
	signal(stop, SIG_DFL);
	raise(stop);
	exit(1);
}

/*
 * Output that cannot be written takes back every segment made so far.  A
 * reader that went away (EPIPE: SIGPIPE is ignored so that we get here)
 * is not an error to report: we die of SIGPIPE as filters do, after
 * cleaning up.
 */
static void
out_failed(void)
{
	int e;

	/* A signal that interrupted the write (EINTR) ends the run. */
	e = errno;
	check_stop();
	errno = e;
	if (e != EPIPE)
		warn("stdout");
	undo_all();
	if (e == EPIPE) {
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
	}
	exit(1);
}

static int	 unflushed;	/* out() wrote since the last flush_out() */

static void
out(const char *s, size_t n)
{
	unflushed = 1;
	if (fwrite(s, 1, n, stdout) != n)
		out_failed();
}

/*
 * Before a read that would block (lines.h): what is written goes out, so
 * that the next program of a live pipeline has each reference line (and
 * the text before it) as soon as it is made, not when a buffer fills or
 * the input ends (issue 33).  A flush that fails is output that cannot
 * be written, as in out().
 */
static int
flush_out(int now)
{
	if (!now)
		return unflushed;
	unflushed = 0;
	if (fflush(stdout) == EOF)
		out_failed();
	return 0;
}

/*
 * Input that cannot be read to its end (a read error, or a line too long
 * for the memory: ENOMEM) takes back every segment made so far, as
 * output that cannot be written does: the output is not whole.
 */
static void
fail_input(const char *fname, unsigned long lineno)
{
	int e = errno;

	check_stop();
	errno = e;
	msg_read_error(fname, lineno);
	undo_all();
	exit(1);
}

static void
text_add(struct text *t, const char *s, size_t n, const char *fname,
    unsigned long lineno)
{
	char *b;
	size_t cap;

	if (t->len + n + 1 > t->cap) {
		cap = (t->len + n + 1) * 2;
		if ((b = realloc(t->buf, cap)) == NULL)
			fail_input(fname, lineno);
		t->buf = b;
		t->cap = cap;
	}
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = '\0';
}

/*
 * The segment name of the array whose first line is first: prefix and
 * field.  Its length, or -1 if it is none (*toolong then says why).
 */
static int
seg_name(char *name, size_t size, const char *first,
    const struct shmids_ref *r, int *toolong)
{
	int n;

	n = snprintf(name, size, "%s%.*s", prefix, (int)r->fieldlen,
	    first + r->field);
	*toolong = n >= 0 && (size_t)n > SHMIDS_NAME_MAX;
	/* %.*s stops at a NUL: "a\0b" is no name, not the name "a". */
	if (n < 0 || (size_t)n >= size ||
	    memchr(first + r->field, '\0', r->fieldlen) != NULL ||
	    shmids_name_check(name, (size_t)n) == -1)
		return -1;
	return n;
}


/* Why an array's segment was not made (make()), for unmade(). */
struct why {
	int	 name, toolong;	/* no name: the field, or too long */
	int	 err;		/* else shmids_create_array()'s errno */
};

/*
 * The segment of count elements of type for the array whose first line
 * is first, made and remembered (made, early.h); NULL, nothing said,
 * and w says why not.
 */
static char *
make(const char *first, const struct shmids_ref *r, int type, size_t count,
    struct why *w)
{
	char name[SHMIDS_NAME_MAX + 2];
	char *h;

	memset(w, 0, sizeof(*w));
	if (seg_name(name, sizeof(name), first, r, &w->toolong) == -1) {
		w->name = 1;
		return NULL;
	}
	/* The name is good: EINVAL now means the kernel's size limit. */
	if (filter_labels_room(&made) == -1 ||
	    (h = shmids_create_array(name, mode, type, count)) == NULL) {
		w->err = errno;
		return NULL;
	}
	filter_labels_add(&made, h);
	early.h = h;
	return h;
}

/*
 * Arrays and tables not made for want of a usable SHMIDS_DIR: the first
 * says why and what to do, the others only count, for report_dir()
 * (format-spec.md 7, shm-import: one message, not one per array).
 */
static unsigned long	 dirarrays, dirtables;

static int
dir_again(int e, unsigned long *n)
{
	const char *dir = shmids_dir();

	if (dir == NULL || (e != ENOENT && e != ENOTDIR && e != EACCES) ||
	    msg_dir_hint(dir) == NULL)
		return 0;
	rval = 1;
	(*n)++;
	return dirarrays + dirtables > 1;
}

static void
report_dir(void)
{
	const char *dir = shmids_dir();
	unsigned long n = dirarrays + dirtables;

	if (n == 0)
		return;
	warnx("SHMIDS_DIR %s: %lu %s left as text (%s copied unchanged: "
	    "nothing lost)", msg_quote(dir, strlen(dir)), n,
	    dirtables == 0 ? (n == 1 ? "array" : "arrays") :
	    dirarrays == 0 ? (n == 1 ? "table" : "tables") :
	    "arrays and tables", n == 1 ? "its lines" : "their lines");
}

/* The segment of the array at lineno was not made: why, said. */
static void
unmade(const char *fname, unsigned long lineno, const char *first,
    const struct shmids_ref *r, const struct why *w)
{
	if (!w->name && dir_again(w->err, &dirarrays))
		return;
	warnx("%s:%lu: %s: %s", fname, lineno,
	    msg_quote(first + r->field, r->fieldlen),
	    !w->name ? msg_create_error(w->err) : w->toolong ?
	    "segment name too long: the prefix (-P) and the field make more "
	    "than 64 bytes" : "the field cannot be a segment name (printable "
	    "ASCII only)");
	rval = 1;
}

/*
 * The segment made (early.h), filled: sealed and detached before the
 * reference line is written, which takes the place of the array's
 * lines.  Output that fails removes it (undo_all()), by a header read of
 * its own that a short address space (ulimit -v) has no room for while
 * the segment is still mapped.  made holds its label.  eol: the first
 * line's end, its continuations are replaced too.
 */
static void
refline(const char *first, const struct shmids_ref *r, const char *eol,
    size_t eollen)
{
	const char *h;

	shmids_close(early.h);
	early.h = NULL;
	h = made.v[made.n - 1];
	nconverted++;
	out(first, r->field + r->fieldlen);
	out(" shmids ", 8);
	out(h, strlen(h));
	out(eol, eollen);
}

/*
 * Does s[0..len) begin with a number in double quotes, as R writes a
 * row name ("1")?  Its length with the quotes, else 0.
 */
static size_t
quoted_number(const char *s, size_t len)
{
	size_t j;

	if (len < 3 || s[0] != '"')
		return 0;
	for (j = 1; j < len && s[j] != '"' && !shmids_isblank(s[j]) &&
	    s[j] != ','; j++)
		;
	if (j == len || s[j] != '"' || !shmids_isnumber(s + 1, j - 1))
		return 0;
	return j + 1;
}

/*
 * s[0..len) (a line, or from a bad value the parser read to its end)
 * was left as text: if a Fortran form made it so, remember it.
 */
static void
fortran_note(const char *fname, unsigned long lineno, const char *s,
    size_t len, const char *what)
{
	const char *w, *t;
	size_t tl;

	if ((w = ftoken_find(s, len, &t, &tl)) == NULL)
		return;
	if (fortran_miss.n++ > 0)
		return;
	fortran_miss.why = w;
	fortran_miss.what = what;
	snprintf(fortran_miss.where, sizeof(fortran_miss.where), "%.80s:%lu",
	    fname, lineno);
	snprintf(fortran_miss.tok, sizeof(fortran_miss.tok), "%.*s",
	    (int)(tl < 32 ? tl : 32), t);
}

/*
 * A bad value of an array's (while its line is at hand: the parser
 * read it to its end, so may we).
 */
static void
bad_note(const char *fname, unsigned long first, const char *bad)
{
	size_t len = strcspn(bad, " \t,\r\n"), tl;
	const char *t;

	if (ftoken_find(bad, len, &t, &tl) != NULL) {
		fortran_note(fname, first, bad, len, "the array");
		return;
	}
	last_bad.fname = fname;
	last_bad.first = first;
	snprintf(last_bad.tok, sizeof(last_bad.tok), "%.*s",
	    (int)(len < 32 ? len : 32), bad);
}

/*
 * A line of numbers alone, a table block of one row (b), left as text:
 * a field name before it would make it an array.  The first is kept.
 */
static void
alone_missed(const char *fname, unsigned long lineno, size_t count,
    int sep)
{
	/* the line after an array left as text: its "/" continued it */
	if (after_bad.fname == fname && after_bad.line == lineno)
		return;
	if (count < minvals || count < 10)
		return;
	if (nalone == ALONE_MAX) {
		blk_over = 1;
		return;
	}
	alone[nalone].line = lineno;
	alone[nalone].count = count;
	alone[nalone++].sep = sep;
}

/* A block of the file at hand (a row alone too), for alone_flush(). */
static void
alone_block(unsigned long first, size_t cols, int sep)
{
	if (nblk == ALONE_MAX) {
		blk_over = 1;
		return;
	}
	blk[nblk].first = first;
	blk[nblk].cols = cols;
	blk[nblk++].sep = sep;
}

/*
 * At the end of a file: its rows alone that no other block of it, of
 * the same separator, is within a value of in width are alone; the
 * others were cut from a table (a typo, a decimal comma, an empty
 * field, which other notes tell), and a field would not mend them.
 * Too many blocks to tell: none is said.
 */
static void
alone_flush(const char *fname)
{
	size_t i, j;
	int cut;

	for (i = 0; i < nalone && !blk_over; i++) {
		for (cut = 0, j = 0; j < nblk && !cut; j++)
			cut = blk[j].first != alone[i].line &&
			    blk[j].sep == alone[i].sep &&
			    blk[j].cols + 1 >= alone[i].count &&
			    blk[j].cols <= alone[i].count + 1;
		if (cut || alone_miss.n++ > 0)
			continue;
		alone_miss.count = alone[i].count;
		alone_miss.fname = fname;
		alone_miss.line = alone[i].line;
		alone_miss.sep = alone[i].sep;
		snprintf(alone_miss.where, sizeof(alone_miss.where),
		    "%.80s:%lu", fname, alone[i].line);
	}
	nalone = nblk = 0;
	blk_over = 0;
}

/* The line s[0..n) ends with a "/" token (its CR, LF and blanks aside). */
static int
slash_ends(const char *s, size_t n)
{
	while (n > 0 && (shmids_isblank(s[n - 1]) || s[n - 1] == '\r' ||
	    s[n - 1] == '\n'))
		n--;
	return n > 0 && s[n - 1] == '/' && (n == 1 ||
	    shmids_isblank(s[n - 2]));
}

/*
 * The command that gives the row alone a field: sed, the commas made
 * blanks first for a CSV row (a field then a comma would be text).
 */
static void
alone_sed(char *buf, size_t size)
{
	char e[64];
	const char *f = alone_miss.fname;

	if (alone_miss.sep == ',')
		snprintf(e, sizeof(e), "-e '%lus/,/ /g' -e '%lus/^/x /'",
		    alone_miss.line, alone_miss.line);
	else
		snprintf(e, sizeof(e), "'%lus/^/x /'", alone_miss.line);
	if (strcmp(f, "stdin") == 0)
		snprintf(buf, size, "... | sed %s | shm-import", e);
	else
		snprintf(buf, size, "sed %s %s | shm-import", e,
		    msg_shword(f));
}

/*
 * Lines of numbers alone and arrays with a typo, left as text: always
 * said, as the Fortran forms are (format-spec.md 7).
 */
static void
report_text(void)
{
	char more[48] = "", sed[PATH_MAX * 4 + 96];

	if (alone_miss.n > 0) {
		if (alone_miss.n > 1)
			snprintf(more, sizeof(more), "; %lu such lines in all",
			    alone_miss.n);
		alone_sed(sed, sizeof(sed));
		warnx("%s: a row of %zu values alone stays text (a table "
		    "needs 2 rows or more); a field name makes it an array: "
		    "%s%s", alone_miss.where, alone_miss.count, sed, more);
	}
	if (cut_miss.n > 0) {
		more[0] = '\0';
		if (cut_miss.n > 1)
			snprintf(more, sizeof(more), "; %lu such lines in all",
			    cut_miss.n);
		warnx("%s: \"%s\" is no number: %s; correct it)%s",
		    cut_miss.where, msg_quote(cut_miss.tok,
		    strlen(cut_miss.tok)), cut_miss.what, more);
	}
	if (typo_miss.n > 0) {
		more[0] = '\0';
		if (typo_miss.n > 1)
			snprintf(more, sizeof(more), "; %lu such arrays in all",
			    typo_miss.n);
		warnx("%s: %s: \"%s\" is no number: the array left as text "
		    "(correct it; -f %s names its line)%s", typo_miss.where,
		    msg_quote(typo_miss.field, strlen(typo_miss.field)),
		    msg_quote(typo_miss.tok, strlen(typo_miss.tok)),
		    msg_quote(typo_miss.field, strlen(typo_miss.field)), more);
	}
}

/* The Fortran forms left as text, always said (format-spec.md 6). */
static void
report_fortran(void)
{
	char more[48] = "";

	if (fortran_miss.n == 0)
		return;
	if (fortran_miss.n > 1)
		snprintf(more, sizeof(more), "; %lu such lines in all",
		    fortran_miss.n);
	warnx("%s: %s is %s, no value: %s left as text (write the values "
	    "out)%s", fortran_miss.where,
	    msg_quote(fortran_miss.tok, strlen(fortran_miss.tok)),
	    fortran_miss.why, fortran_miss.what, more);
}

/*
 * What looks like an array: 10 values or more, or continued on a second
 * line; not a setting ("grid 100"), nor a table row, whose field is a
 * number, nor one whose field is R's row name ("1": no -f for it).
 */
static int
array_like(const char *field, size_t len, size_t count, int lines)
{
	double d;
	const char *end;

	return !((count < 10 && (lines < 2 || count < 2)) ||
	    len > SHMIDS_NAME_MAX || quoted_number(field, len) == len ||
	    (shmids_parse(field, &end, SHMIDS_F64, &d) == 0 &&
	    end == field + len));
}

static void
miss_note(struct miss *m, const char *fname, unsigned long lineno,
    const char *field, size_t len, size_t count)
{
	m->count = count;
	memcpy(m->field, field, len);
	m->field[len] = '\0';
	snprintf(m->where, sizeof(m->where), "%.80s:%lu", fname, lineno);
}

/*
 * A line that begins with R's row name and goes on as a row ("1" 100
 * 101, or "1",100,101 from write.csv): a table left as text, which no
 * -k or -f would make right.  The first is remembered.
 */
static void
rowname_note(const char *fname, unsigned long lineno, const char *s,
    size_t n)
{
	struct shmids_values v;
	size_t i = strspn(s, " \t"), q, c;
	int sep;

	if (rowname_miss.count > 0 || (q = quoted_number(s + i, n - i)) == 0 ||
	    q > SHMIDS_NAME_MAX)
		return;
	for (i += q; i < n && shmids_isblank(s[i]); i++)
		;
	i += i < n && s[i] == ',';
	memset(&v, 0, sizeof(v));
	v.type = SHMIDS_F64;
	if (shmids_row_parse(&v, s + i, n - i, &sep, &c) == 1)
		miss_note(&rowname_miss, fname, lineno, s + strspn(s, " \t"),
		    q, c);
	shmids_values_free(&v);
}

/* An array left inline for want of -k values: remember the longest. */
static void
missed(const char *fname, unsigned long lineno, const char *field,
    size_t len, size_t count, int lines)
{
	if (count > longest_miss.count && array_like(field, len, count, lines))
		miss_note(&longest_miss, fname, lineno, field, len, count);
}

/*
 * An array left as text for a bad token (last_bad, if it was this
 * array's): a typo when the token is no number (not 0.5 under -t i32,
 * said by type_missed()), begins as a number would and holds a digit
 * ("3o", "1.2.3", not "RX4" of a CSV row's "Mazda RX4"), the line holds
 * no '"' (a CSV row's quoted text is neartab.c's), and the array else
 * looks like one, 10 values or more on its first line
 * for each bad token there (at most 3), or continued.  f holds the
 * first line, or a long one's first bytes.  The first is kept.
 */
static void
typo_missed(const char *fname, unsigned long lineno, const struct text *f,
    const struct shmids_ref *r)
{
	const char *s = f->buf + r->field + r->fieldlen, *e = f->buf + f->len;
	const char *t;
	size_t nums = 0, bads = 0;
	int more = 0;

	if (last_bad.fname != fname || last_bad.first != lineno ||
	    last_bad.tok[0] == '\0' ||
	    strchr("0123456789+-.", last_bad.tok[0]) == NULL ||
	    strpbrk(last_bad.tok, "0123456789") == NULL ||
	    shmids_isnumber(last_bad.tok, strlen(last_bad.tok)) ||
	    memchr(f->buf, '"', f->len) != NULL)
		return;
	last_bad.fname = NULL;
	for (;;) {
		while (s < e && (shmids_isblank(*s) || *s == ',' ||
		    *s == '\r' || *s == '\n'))
			s++;
		if (s == e)
			break;
		for (t = s; t < e && !shmids_isblank(*t) && *t != ',' &&
		    *t != '\r' && *t != '\n'; t++)
			;
		if (t - s == 1 && *s == '/')
			more = 1;
		else if (shmids_isnumber(s, (size_t)(t - s)))
			nums++, more = 0;
		else
			bads++, more = 0;
		s = t;
	}
	if (bads > 3 || (nums < 10 * (bads > 0 ? bads : 1) &&
	    !(bads == 0 && more)) ||
	    !array_like(f->buf + r->field, r->fieldlen, nums, more ? 2 : 1))
		return;
	typo_last.fname = fname;
	typo_last.line = lineno;
	if (typo_miss.n++ > 0)
		return;
	snprintf(typo_miss.where, sizeof(typo_miss.where), "%.80s:%lu",
	    fname, lineno);
	memcpy(typo_miss.field, f->buf + r->field, r->fieldlen);
	typo_miss.field[r->fieldlen] = '\0';
	memcpy(typo_miss.tok, last_bad.tok, sizeof(typo_miss.tok));
}

/*
 * An array left inline because its values are not of the type -t asked
 * for (i32, and 1.5 read): the first that reads as f64 and looks like
 * an array is remembered.  f holds its first line.
 */
static void
type_missed(const char *fname, unsigned long lineno, const struct text *f,
    const struct shmids_ref *r, int type)
{
	struct shmids_values v;
	struct shmids_span sp;
	const char *vals = f->buf + r->field + r->fieldlen;
	size_t count;
	int k;

	typo_missed(fname, lineno, f, r);
	if (type == SHMIDS_F64 || type_miss.count > 0)
		return;
	memset(&v, 0, sizeof(v));
	v.type = SHMIDS_F64;
	k = shmids_values_read(&v, vals, f->len - r->field - r->fieldlen, 1,
	    SHMIDS_VALUES_LINE, &sp);
	count = v.count;
	shmids_values_free(&v);
	if (k == 0 && array_like(f->buf + r->field, r->fieldlen, count,
	    sp.more ? 2 : 1))
		miss_note(&type_miss, fname, lineno, f->buf + r->field,
		    r->fieldlen, count);
}

/*
 * Nothing converted, though table blocks were there: the same words as
 * for arrays, a block named by where it begins.
 */
static void
report_tables(void)
{
	if (ttype_miss.cols > 0)
		warnx("no table converted: %s holds rows whose values are "
		    "not %s (-t %s)", ttype_miss.where,
		    shmids_type_name(deftype), shmids_type_name(deftype));
	else if (table_miss.rows > 0 && !neartold)
		warnx("no table converted: the largest, %s (%zux%zu, %zu "
		    "values), has fewer than -k %lu; -k %zu converts it",
		    table_miss.where, table_miss.rows, table_miss.cols,
		    table_miss.rows * table_miss.cols, minvals,
		    table_miss.rows * table_miss.cols);
}

/*
 * Nothing converted, though arrays were there: the type -t asked for, or
 * else the minimum, is the likely surprise (the README's own 10-value
 * example), so name it.  Table blocks get a word of their own.
 */
static void
report_missed(void)
{
	const char *f = longest_miss.field, *t = type_miss.field;
	const char *tname;
	size_t i;

	if (nconverted > 0)
		return;
	if (rowname_miss.count > 0)
		warnx("%s: rows begin with R's row names (%s): write them "
		    "with row.names = FALSE", rowname_miss.where,
		    rowname_miss.field);
	report_tables();
	if (type_miss.count > 0) {
		tname = shmids_type_name(type_of(t, strlen(t)));
		for (i = 0; i < nftypes; i++)
			if (ftypes[i].len == strlen(t) &&
			    memcmp(ftypes[i].field, t, ftypes[i].len) == 0)
				break;
		warnx("no array converted: %s (%s) holds values that are not "
		    "%s (-t %s%s%s)", msg_quote(t, strlen(t)), type_miss.where,
		    tname, i < nftypes ? msg_quote(t, strlen(t)) : "",
		    i < nftypes ? "=" : "", tname);
		return;
	}
	/*
	 * A quoted field in a table said to be left as text is a row name
	 * ("Valiant"): -f would make that one row a segment.
	 */
	if (longest_miss.count == 0 || (neartold && f[0] == '"'))
		return;
	warnx("no array converted: the longest, %s (%s), has %zu values, "
	    "fewer than -k %lu; -k %zu or -f %s converts it",
	    msg_quote(f, strlen(f)), longest_miss.where,
	    longest_miss.count, minvals, longest_miss.count,
	    msg_quote(f, strlen(f)));
}

/*
 * The next line, or 0 at the end; input that cannot be read ends the run.
 * A signal that came while no read was blocked (parsing an array's
 * lines) is acted on before a read that may block: a pipe that then
 * stays silent must not hold the run.
 */
static ssize_t
next(struct lines *l, const char **s, const char *fname,
    unsigned long lineno)
{
	const char *p;
	ssize_t n;
	int eol = 0;

	/*
	 * A long line handed over by its first bytes (long_ok()) that
	 * import_array() did not read on: its rest is text, after them.
	 */
	while (l->part && !eol) {
		check_stop();
		if ((n = lines_more(l, &p, 4 * LINES_PART, &eol)) == -1) {
			if (errno != EINTR)
				fail_input(fname, lineno - 1);
			continue;
		}
		out(p, (size_t)n);
		lines_skip(l, (size_t)n);
	}
	l->part = 0;
	check_stop();
	while ((n = lines_next(l, s)) == -1) {
		if (errno != EINTR)
			fail_input(fname, lineno);
		check_stop();
	}
	return n;
}

/*
 * The array's lines as they were read.  A regular file's are read again
 * (lines.h): if it is shorter now, the copy could not be whole.
 */
static void
pass_kept(struct lines *l, const char *fname, unsigned long first)
{
	if (lines_kept(l, out) == 0)
		return;
	if (errno == ENODATA)
		warnx("%s:%lu: the file shrank while it was read: its lines "
		    "cannot be copied unchanged", fname, first);
	else
		warn("%s:%lu: read error", fname, first);
	undo_all();
	exit(1);
}

/* A bad value, quoted now: the line it is in does not stay. */
static void
bad_value(const char *fname, unsigned long lineno, const struct text *f,
    const struct shmids_ref *r, const char *bad)
{
	size_t n = strcspn(bad, " \t\r\n");

	/* A token that a NUL byte ends at once is shown as that byte. */
	warnx("%s:%lu: %s: bad value \"%s\"", fname, lineno,
	    msg_quote(f->buf + r->field, r->fieldlen),
	    msg_quote(bad, n > 0 ? n : 1));
}

/*
 * A regular file whose array's values are not those counted before they
 * were parsed (another writer changed it between the two readings): its
 * segment cannot hold them.  Every segment of the run goes.
 */
static void
early_changed(const char *fname, unsigned long first, const struct text *f,
    const struct shmids_ref *r)
{
	warnx("%s:%lu: %s: the file changed while it was read: its values "
	    "are not those counted", fname, first,
	    msg_quote(f->buf + r->field, r->fieldlen));
	undo_all();
	exit(1);
}

/*
 * Long arrays (format-spec.md 6.2) are read by the engine (engine.h): a
 * regular file's by offset, once counted into a segment made for them,
 * a pipe's in runs, each on nthreads threads.
 */
static int	 nthreads = 1;

/*
 * The array is no array after all (a bad value), or its values are not
 * to be had: no segment for it.  It is the last made, removed once
 * detached (see undo_all()).
 */
static void
early_drop(void)
{
	if (early.h == NULL)
		return;
	shmids_close(early.h);
	early.h = NULL;
	if (unmake() == -1)
		rval = 1;
}

/*
 * The array at hand, for the engine's calls back (struct eng_io): its
 * messages are ours to say, in the user's terms, and its segment ours
 * to make.
 */
struct array {
	struct lines	*l;
	const char	*fname;
	unsigned long	 first;
	struct text	*f;
	const struct shmids_ref *r;
	int		 sel;
	int		 asked;		/* make() was asked, and said w */
	struct why	 w;
};

static ssize_t
io_next(void *arg, const char **s, unsigned long lineno)
{
	struct array *a = arg;

	return next(a->l, s, a->fname, lineno);
}

static void
io_stop(void *arg)
{
	(void)arg;
	check_stop();
}

static void
io_fail(void *arg, unsigned long lineno)
{
	fail_input(((struct array *)arg)->fname, lineno);
}

/* Only an array -f names is an error for a bad value; any is noted. */
static void
io_bad(void *arg, unsigned long lineno, const char *tok)
{
	struct array *a = arg;

	if (a->sel)
		bad_value(a->fname, lineno, a->f, a->r, tok);
	bad_note(a->fname, a->first, tok);
}

/* The first line, read whole after all: kept for the reference line. */
static void
io_again(void *arg, const char *s, size_t n)
{
	struct array *a = arg;

	a->f->len = 0;
	text_add(a->f, s, n, a->fname, a->first);
}

/*
 * The segment for count values, where they go; NULL for none.  A field
 * alone is a word, not an array, unless -f names it.
 */
static char *
io_make(void *arg, int type, size_t count)
{
	struct array *a = arg;
	char *h;

	if (!a->sel && !(fields == NULL && count >= minvals && count > 0))
		return NULL;
	a->asked = 1;
	h = make(a->f->buf, a->r, type, count, &a->w);
	return h != NULL ? h + SHMIDS_HEADER : NULL;
}

static void
io_drop(void *arg)
{
	(void)arg;
	early_drop();
}

/*
 * One array line s[0..n) (first, kept in f) and its continuations, read
 * by the engine: converted, or passed through as read.  An array -f
 * does not name is copied line by line, unparsed.  s[0..n) may be a
 * long line's first bytes (l->part, lines.h).
 */
static void
import_array(struct lines *l, const char *fname, unsigned long *lineno,
    const char *s, size_t n, const struct shmids_ref *r, int sel)
{
	static struct text f;	/* the first line, for the reference line */
	unsigned long first = *lineno;
	struct array a = { l, fname, first, &f, r, sel, 0, { 0, 0, 0 } };
	const struct eng_io io = { &a, &stop, io_next, io_stop, io_fail,
	    io_bad, io_again, io_make, io_drop };
	struct shmids_ref rr = *r;
	struct eng_array st;
	int k;

	f.len = 0;
	text_add(&f, s, n, fname, first);
	lines_keep(l, s);
	eng_array_init(&st, l, type_of(s + r->field, r->fieldlen), nthreads,
	    &io, first, s, n, r->field + r->fieldlen);
	k = eng_array(&st);
	*lineno = st.lineno;
	if (k == ENG_CHANGED)
		early_changed(fname, first, &f, r);
	if (k == -1) {
		/* No room for the values: no array may be cut short. */
		warnx("%s:%lu: %s: no room for the values: %s", fname,
		    first, msg_quote(f.buf + r->field, r->fieldlen),
		    MSG_NOMEM);
		undo_all();
		exit(1);
	}
	/* a long first line's end, for the reference line */
	if (st.parted) {
		rr.eol = f.len;
		text_add(&f, st.eol, st.eollen, fname, first);
		r = &rr;
	}
	if (early.h != NULL) {
		refline(f.buf, r, f.buf + r->eol, f.len - r->eol);
		eng_array_free(&st);
		lines_release(l);
		return;
	}
	if (k == 0 && a.asked)
		unmade(fname, first, f.buf, r, &a.w);
	if (k == 0 && fields == NULL && st.count < minvals)
		missed(fname, first, f.buf + r->field, r->fieldlen, st.count,
		    (int)(*lineno - first + 1));
	if (k == ENG_BAD && fields == NULL)
		type_missed(fname, first, &f, r, st.v.type);
	if (k == ENG_BAD && *lineno == first && !st.parted &&
	    typo_last.fname == fname && typo_last.line == first &&
	    slash_ends(f.buf, f.len)) {
		after_bad.fname = fname;
		after_bad.line = first + 1;
	}
	if (sel)
		rval = 1;
	eng_array_free(&st);
	pass_kept(l, fname, first);
	lines_release(l);
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
table_name(const char *fname, unsigned long lineno)
{
	static char name[SHMIDS_NAME_MAX + 1];
	const char *base = strrchr(fname, '/') ? strrchr(fname, '/') + 1 :
	    fname;
	char line[32];
	size_t n, room, i, p = strlen(prefix), max = name_max();

	snprintf(line, sizeof(line), ":%lu", lineno);
	if (p + strlen(line) >= max)
		return NULL;
	room = max - p - strlen(line);
	if ((n = strlen(base)) > room) {
		base += n - room;
		n = room;
	}
	memcpy(name, prefix, p);
	for (i = 0; i < n; i++)
		name[p + i] = base[i] > ' ' && base[i] < 0x7f ? base[i] : '_';
	strcpy(name + p + n, line);
	return name;
}

/*
 * A row with a typo ("2.1e-0l", "-6,26e-01") between two table blocks
 * of its width and separator, or next to one: the classifier makes it
 * text, which cuts the table in two (format-spec.md 7, shm-import).
 * prevblk is the last block of 2 rows or more, cand the last line that
 * was no row, kept for the block that may follow it; cut_miss (above)
 * the first such line said, and how many.
 */
static struct {
	const char	*fname;
	unsigned long	 first, rows;
	size_t		 cols;
	int		 sep, made;
} prevblk;
static struct {
	const char	*fname;
	unsigned long	 line;
	char		 buf[4096];
	size_t		 len;
	int		 after;		/* right after prevblk, of its shape */
	char		 tok[40];
} cand;

/* Does t[0..n) begin as a number would and hold a digit? */
static int
numberlike(const char *t, size_t n)
{
	size_t i;

	if (n == 0 || strchr("0123456789+-.", t[0]) == NULL || t[0] == '\0')
		return 0;
	for (i = 0; i < n; i++)
		if (t[i] >= '0' && t[i] <= '9')
			return 1;
	return 0;
}

/*
 * Is s[0..n) a row of cols tokens split by sep (' ', '\t' or ',') but
 * for a typo: its first token and its first bad token number-like, at
 * most one bad token in two?  The first bad token goes to tok.
 */
static int
row_typo(const char *s, size_t n, size_t cols, int sep, char *tok,
    size_t toksize)
{
	const char *e = s + n, *t;
	size_t k = 0, bads = 0;

	while (e > s && (e[-1] == '\n' || e[-1] == '\r'))
		e--;
	if (memchr(s, '"', (size_t)(e - s)) != NULL)
		return 0;
	for (;;) {
		while (s < e && shmids_isblank(*s))
			s++;
		if (s == e)
			break;
		for (t = s; t < e && !(sep == ',' ? *t == ',' ||
		    shmids_isblank(*t) : sep == '\t' ? *t == '\t' :
		    shmids_isblank(*t)); t++)
			;
		/* isnumber() reads "-6,26e-01" to its comma */
		if (!shmids_isnumber(s, (size_t)(t - s)) || (sep != ',' &&
		    memchr(s, ',', (size_t)(t - s)) != NULL)) {
			if (!numberlike(s, (size_t)(t - s)))
				return 0;
			if (bads++ == 0)
				snprintf(tok, toksize, "%.*s", (int)(t - s < 32 ?
				    t - s : 32), s);
		} else if (k == 0 && !numberlike(s, (size_t)(t - s)))
			return 0;
		k++;
		s = t;
		if (sep == ',') {
			while (s < e && shmids_isblank(*s))
				s++;
			if (s < e && *s != ',')
				return 0;
			if (s < e)
				s++;
		}
	}
	return k == cols && bads > 0 && 2 * bads <= cols;
}

static void
cut_said(const char *fname, unsigned long line, const char *tok,
    const char *what)
{
	neartab_typo(line);
	if (cut_miss.n++ > 0)
		return;
	snprintf(cut_miss.where, sizeof(cut_miss.where), "%.80s:%lu", fname,
	    line);
	snprintf(cut_miss.tok, sizeof(cut_miss.tok), "%s", tok);
	snprintf(cut_miss.what, sizeof(cut_miss.what), "%s", what);
}

/* The kept line followed by no block of its shape: said if after one. */
static void
cut_flush(void)
{
	char what[160];

	if (cand.fname != NULL && cand.after) {
		snprintf(what, sizeof(what), "the row left as text (after the "
		    "table of rows %lu-%lu", prevblk.first, prevblk.first +
		    prevblk.rows - 1);
		cut_said(cand.fname, cand.line, cand.tok, what);
	}
	cand.fname = NULL;
}

/* A line that is no row: kept, for the block that may follow it. */
static void
cut_note(const char *fname, unsigned long lineno, const char *s, size_t n)
{
	cut_flush();
	if (fields != NULL || n > sizeof(cand.buf))
		return;
	cand.fname = fname;
	cand.line = lineno;
	memcpy(cand.buf, s, n);
	cand.len = n;
	cand.after = prevblk.fname == fname && prevblk.first +
	    prevblk.rows == lineno && row_typo(s, n, prevblk.cols,
	    prevblk.sep, cand.tok, sizeof(cand.tok));
}

/*
 * A block of rows rows, made a segment or not, has ended: is the line
 * kept before it a row of its shape with a typo?
 */
static void
cut_block(const char *fname, unsigned long first, unsigned long rows,
    size_t cols, int sep, int segd)
{
	char what[160], tok[40];
	int segs;

	if (rows < 2)
		return;
	if (cand.fname == fname && cand.line + 1 == first) {
		if (cand.after && prevblk.cols == cols && prevblk.sep == sep) {
			segs = prevblk.made + segd;
			snprintf(what, sizeof(what), "the table is cut in two "
			    "there (rows %lu-%lu and %lu-%lu %s",
			    prevblk.first, prevblk.first + prevblk.rows - 1,
			    first, first + rows - 1, segs == 2 ? "made 2 "
			    "segments" : segs == 1 ? "made 1 segment and text" :
			    "left as text");
			cut_said(fname, cand.line, cand.tok, what);
		} else if (row_typo(cand.buf, cand.len, cols, sep, tok,
		    sizeof(tok))) {
			snprintf(what, sizeof(what), "the row left as text "
			    "(before the table of rows %lu-%lu", first,
			    first + rows - 1);
			cut_said(fname, cand.line, tok, what);
		} else
			cut_flush();
		cand.fname = NULL;
	} else
		cut_flush();
	prevblk.fname = fname;
	prevblk.first = first;
	prevblk.rows = rows;
	prevblk.cols = cols;
	prevblk.sep = sep;
	prevblk.made = segd;
}

/* A table's first row, for its reference line. */
struct block {
	const char	*fname;
	unsigned long	 first;
	struct text	 lead;		/* the first row's leading blanks */
	int		 crlf, lastnl;	/* its CR, the last row's LF */
	int		 lastcr;	/* the last row ends the file in a bare CR */
	int		 sep;
	size_t		 rows, cols;
	char		 wide[48];	/* an integer f64 rounds, and where */
};

/*
 * Integers that f64 rounds (format-spec.md 6.1): a table of the default
 * type whose rows hold an integer of more than 53 bits that int64 holds
 * is said once a run, with the -t that keeps it, as -k is hinted.
 */
static int wide_said;

/* Is s[0..n) an integer literal that i64 holds but f64 does not? */
static int
f64_rounds(const char *s, size_t n)
{
	unsigned long long v = 0, lim;
	size_t i = 0;
	int neg = 0, base = 10, d;
	double x;

	if (n > 0 && (s[0] == '-' || s[0] == '+'))
		neg = s[i++] == '-';
	if (n - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		base = 16;
		i += 2;
	}
	if (i == n)
		return 0;
	lim = neg ? 9223372036854775808ULL : 9223372036854775807ULL;
	for (; i < n; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			d = s[i] - '0';
		else if (base == 16 && ((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'f'))
			d = (s[i] | 0x20) - 'a' + 10;
		else
			return 0;
		if (v > (lim - (unsigned)d) / (unsigned)base)
			return 0;	/* not an i64: -t i64 would not help */
		v = v * (unsigned)base + (unsigned)d;
	}
	x = (double)v;
	return x >= 18446744073709551616.0 || (unsigned long long)x != v;
}

/*
 * The row s[0..n) just parsed, its c values at vals: the first integer
 * in it that f64 rounds goes into b->wide, "file:line: token".  Only
 * rows with a value of 2^53 or more are looked at again.
 */
static void
note_wide(struct block *b, unsigned long lineno, const char *s, size_t n,
    const double *vals, size_t c)
{
	size_t i, j;

	if (deftype != -1 || wide_said || b->wide[0] != '\0')
		return;
	for (i = 0; i < c && !(vals[i] >= 9007199254740992.0 ||
	    vals[i] <= -9007199254740992.0); i++)
		;
	if (i == c)
		return;
	for (i = 0; i < n; i = j) {
		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == ','))
			i++;
		for (j = i; j < n && s[j] != ' ' && s[j] != '\t' &&
		    s[j] != ',' && s[j] != '\r' && s[j] != '\n'; j++)
			;
		if (j > i && f64_rounds(s + i, j - i)) {
			snprintf(b->wide, sizeof(b->wide), "%lu: %.*s", lineno,
			    (int)(j - i > 24 ? 24 : j - i), s + i);
			return;
		}
		if (j == i)
			j++;
	}
}

/* Make the segment of table block b and write its reference line. */
static int
store_table(const struct block *b, const struct shmids_values *v)
{
	const char *name = table_name(b->fname, b->first), *eol;
	char *h;

	if (name == NULL) {
		warnx("%s:%lu: segment name too long: the prefix (-P) and "
		    "the line leave no room in the label", b->fname, b->first);
		rval = 1;
		return -1;
	}
	if (filter_labels_room(&made) == -1 || (h = shmids_create_matrix(name,
	    mode, v->type, b->rows, b->cols, SHMIDS_ROWMAJOR)) == NULL) {
		if (dir_again(errno, &dirtables))
			return -1;
		warnx("%s:%lu: %s: %s", b->fname, b->first, name,
		    msg_create_error(errno));
		rval = 1;
		return -1;
	}
	memcpy(h + SHMIDS_HEADER, v->data, v->count *
	    shmids_type_size(v->type));
	filter_labels_add(&made, h);
	shmids_close(h);	/* before the output: see refline() */
	h = made.v[made.n - 1];
	nconverted++;
	if (b->wide[0] != '\0') {
		wide_said = 1;
		warnx("%s:%s: an integer of more than 53 bits, rounded in f64 "
		    "(the default type): -t i64 keeps it exact", b->fname,
		    b->wide);
	}
	out(b->lead.buf, b->lead.len);
	out(b->sep == ',' ? "shmids, " : b->sep == '\t' ? "shmids\t" :
	    "shmids ", b->sep == ',' ? 8 : 7);
	out(h, strlen(h));
	/* the file's line ends kept, a bare CR at its end too (6.1) */
	eol = !b->lastnl ? (b->lastcr ? "\r" : "") : b->crlf ? "\r\n" : "\n";
	out(eol, strlen(eol));
	return 0;
}

/*
 * A block left as text for want of -k values: remember the largest of
 * those that look like a table, 10 values or more, as an array.
 */
static void
table_missed(const struct block *b)
{
	if (b->rows < 2 || b->cols > SHMIDS_COLS_MAX ||
	    b->rows * b->cols < 10 ||
	    b->rows * b->cols <= table_miss.rows * table_miss.cols)
		return;
	table_miss.rows = b->rows;
	table_miss.cols = b->cols;
	snprintf(table_miss.where, sizeof(table_miss.where), "%.80s:%lu",
	    b->fname, b->first);
}

/*
 * -t type: the first line that is no row of it, but a row of f64 of
 * two values or more (1.5 for i32), as a block's first row.
 */
static void
ttype_missed(const char *fname, unsigned long lineno, const char *s,
    size_t n)
{
	struct shmids_values v;
	size_t c;
	int sep;

	if (deftype == -1 || deftype == SHMIDS_F64 || ttype_miss.cols > 0)
		return;
	memset(&v, 0, sizeof(v));
	v.type = SHMIDS_F64;
	if (shmids_row_parse(&v, s, n, &sep, &c) == 1 && c >= 2) {
		ttype_miss.cols = c;
		snprintf(ttype_miss.where, sizeof(ttype_miss.where),
		    "%.80s:%lu", fname, lineno);
	}
	shmids_values_free(&v);
}

/*
 * No room for a block's values: its rows pass through unconverted, as
 * text loses nothing; said, exit 1 at the end.
 */
static void
table_nomem(const struct block *b)
{
	warnx("%s:%lu: no room for the values of a table, %s: its rows "
	    "pass through unconverted", b->fname, b->first, MSG_NOMEM);
	rval = 1;
}

/*
 * A line that begins with a number (first, s[0..n)): a table block of
 * it and the rows after it with the same separator and width, converted
 * or passed through as read; or text.  The line that ends the block is
 * given back to be read again.
 */
static void
import_table(struct lines *l, const char *fname, unsigned long *lineno,
    const char *s, size_t n)
{
	static struct block b;
	struct shmids_lines rd;
	struct shmids_values v;
	struct shmids_line c;
	int k;

	memset(&rd, 0, sizeof(rd));
	memset(&v, 0, sizeof(v));
	v.type = deftype != -1 ? deftype : SHMIDS_F64;
	b.fname = fname;
	b.first = *lineno;
	b.rows = 1;
	b.lead.len = 0;
	b.wide[0] = '\0';
	/* rows and blocks: format-spec.md 6.1 (the library's classifier) */
	if ((k = shmids_line_next(&rd, s, n, &v, &c)) == -1 ||
	    c.kind != SHMIDS_LINE_ROW || c.count > SHMIDS_COLS_MAX) {
		if (k == -1)
			table_nomem(&b);
		shmids_values_free(&v);
		ttype_missed(fname, b.first, s, n);
		fortran_note(fname, b.first, s, n, "the row");
		cut_note(fname, b.first, s, n);
		neartab_text(*lineno, s, n);
		out(s, n);
		return;
	}
	b.sep = c.sep;
	b.cols = c.count;
	text_add(&b.lead, s, c.lead, fname, b.first);
	b.crlf = c.eol == SHMIDS_EOL_CRLF;
	b.lastnl = c.eol == SHMIDS_EOL_LF || b.crlf;
	b.lastcr = c.eol == SHMIDS_EOL_CR;
	if (v.type == SHMIDS_F64)
		note_wide(&b, *lineno, s, n, v.data, v.count);
	lines_keep(l, s);
	while ((n = (size_t)next(l, &s, fname, *lineno + 1)) > 0) {
		if ((k = shmids_line_next(&rd, s, n, &v, &c)) == -1)
			table_nomem(&b);
		if (k == -1 || c.kind != SHMIDS_LINE_ROW || c.first) {
			v.count -= k == 0 && c.kind == SHMIDS_LINE_ROW ?
			    c.count : 0;
			lines_unread(l, s);
			break;
		}
		(*lineno)++;
		b.rows++;
		b.lastnl = c.eol == SHMIDS_EOL_LF || c.eol == SHMIDS_EOL_CRLF;
		b.lastcr = c.eol == SHMIDS_EOL_CR;
		if (v.type == SHMIDS_F64)
			note_wide(&b, *lineno, s, n,
			    (const double *)v.data + v.count - c.count, c.count);
	}
	if (k != -1 && v.count < minvals)
		table_missed(&b);
	if (k != -1 && b.rows == 1)
		alone_missed(fname, b.first, v.count, b.sep);
	if (k != -1)
		alone_block(b.first, b.cols, b.sep);
	if (k == -1 || b.rows < 2 || v.count < minvals ||
	    store_table(&b, &v) == -1) {
		pass_kept(l, fname, b.first);
		neartab_block(b.first, b.rows, b.cols, b.sep, 0);
		cut_block(fname, b.first, b.rows, b.cols, b.sep, 0);
	} else {
		neartab_block(b.first, b.rows, b.cols, b.sep, 1);
		cut_block(fname, b.first, b.rows, b.cols, b.sep, 1);
	}
	shmids_values_free(&v);
	lines_release(l);
}

/*
 * Are the tokens of s[0..len) values of type (a "/" at the end aside)?
 * Where that cannot be told for want of memory, say yes: the line and
 * its continuations pass through either way.
 */
static int
values_line(const char *s, size_t len, int type)
{
	struct shmids_values v;
	struct shmids_span sp;
	int k;

	memset(&v, 0, sizeof(v));
	v.type = type;
	k = shmids_values_read(&v, s, len, 1, SHMIDS_VALUES_LINE, &sp);
	shmids_values_free(&v);
	return k == 0 || sp.bad == NULL;
}

/* Lines that are no array, and arrays -f leaves, go out as they are. */
static void
import_line(struct lines *l, const char *fname, unsigned long *lineno,
    const char *s, size_t n)
{
	struct shmids_line c;
	struct shmids_ref r;
	int k, sel, more;

	/* what the line is: format-spec.md 5, 6, 6.1 (the library's) */
	shmids_line_kind(s, n, 0, &c);
	/* A number is never a field: a table row, or text. */
	if (c.kind == SHMIDS_LINE_ROW) {
		if (fields == NULL)
			import_table(l, fname, lineno, s, n);
		else
			out(s, n);
		return;
	}
	cut_note(fname, *lineno, s, n);
	if (fields == NULL && s[strspn(s, " \t")] == '"')
		rowname_note(fname, *lineno, s, n);
	/* CSV lines, a table's maybe, whatever else they turn out to be */
	if (fields == NULL && n <= NEARTAB_LINE_MAX &&
	    (s[strspn(s, " \t")] == '"' || memchr(s, ',', n) != NULL ||
	    memchr(s, ';', n) != NULL))
		neartab_text(*lineno, s, n);
	/*
	 * Text: a blank line, or one that begins with a Fortran form that
	 * is no value ("3*0.0 1 2": a row of Fortran's, the classifier
	 * says, never an array "3*0.0"; format-spec.md 6), which we name;
	 * or a comment (sep '#'), whatever it holds.
	 */
	if (c.kind == SHMIDS_LINE_TEXT) {
		if (fields == NULL && c.sep != '#')
			fortran_note(fname, *lineno, s, n, "the row");
		out(s, n);
		return;
	}
	/* passed through as given, but said (format-spec.md 5, 7) */
	if (c.kind == SHMIDS_LINE_MALFORMED)
		warnx("%s:%lu: malformed reference: %s", fname, *lineno,
		    c.why);
	/* references of either form, valid or not, pass through */
	k = c.kind == SHMIDS_LINE_ARRAY ? 0 : c.kind == SHMIDS_LINE_TEXT ?
	    0 : c.kind == SHMIDS_LINE_REF ? 1 : -1;
	r.field = c.field;
	r.fieldlen = c.kind == SHMIDS_LINE_TREF || (c.kind ==
	    SHMIDS_LINE_MALFORMED && c.sep != 0) ? 0 : c.fieldlen;
	r.eol = c.end;
	r.why = c.why;
	sel = k == 0 && r.fieldlen > 0 && fields != NULL &&
	    filter_fields_has(&want, s + r.field, r.fieldlen);
	if (fields != NULL && r.fieldlen > 0)
		filter_fields_note(&want, s + r.field, r.fieldlen, sel);
	if (k == 0 && r.fieldlen > 0 && (fields == NULL || sel)) {
		import_array(l, fname, lineno, s, n, &r, sel);
		return;
	}
	out(s, n);
	/*
	 * An unnamed array's continuations are no lines of their own.  The
	 * "/" is a token after the field: a field "/" alone continues nothing,
	 * nor does a first line that is text (section 6).
	 */
	more = k == 0 && r.fieldlen > 0 && shmids_continued(s + r.field +
	    r.fieldlen, n - r.field - r.fieldlen) && values_line(s + r.field +
	    r.fieldlen, n - r.field - r.fieldlen, type_of(s + r.field,
	    r.fieldlen));
	while (more && (n = (size_t)next(l, &s, fname, *lineno + 1)) > 0) {
		(*lineno)++;
		out(s, n);
		more = shmids_continued(s, n);
	}
}

/*
 * May a long line of a regular file come to import_line() by its first
 * bytes s[0..n) alone (lines.h)?  Only one that import_line() hands to
 * import_array(), whose engine reads the rest by offset: the first line
 * of an inline array, of a field that -f names (any without -f), not
 * one of R's row names ("1"); a Fortran form the classifier calls text
 * (format-spec.md 6), as import_line() asks it.  Any other is read whole.
 */
static int
long_ok(const char *s, size_t n)
{
	struct shmids_line c;
	size_t i, tl;

	if (shmids_line_kind(s, n, SHMIDS_LINE_PART, &c) != 1 ||
	    c.kind != SHMIDS_LINE_ARRAY || c.fieldlen == 0 ||
	    c.field + c.fieldlen >= n || s[strspn(s, " \t")] == '"')
		return 0;
	for (i = 0; i < n && (s[i] == ' ' || s[i] == '\t'); i++)
		;
	for (tl = 0; i + tl < n && strchr(" \t,\r\n", s[i + tl]) == NULL;
	    tl++)
		;
	if (i + tl == n)
		return 0;
	return fields == NULL || filter_fields_has(&want, s + c.field,
	    c.fieldlen);
}

static void
import_file(FILE *fp, const char *fname)
{
	struct lines l;
	const char *s, *how;
	unsigned long lineno = 0;
	ssize_t n;

	if (lines_init(&l, fileno(fp)) == -1)
		fail_input(fname, 0);
	l.waiting = flush_out;
	l.partok = long_ok;
	neartab_start(fname);
	if ((n = next(&l, &s, fname, lineno + 1)) > 0 &&
	    (how = magic_compressed(s, (size_t)n)) != NULL) {
		magic_refuse("shm-import", fname, how);
		rval = 1;
		lines_end(&l);
		return;
	}
	for (; n > 0; n = next(&l, &s, fname, lineno + 1)) {
		lineno++;
		import_line(&l, fname, &lineno, s, (size_t)n);
	}
	lines_end(&l);
	alone_flush(fname);
	cut_flush();
	prevblk.fname = NULL;
	if (fields == NULL && neartab_end())
		neartold = 1;
}

int
main(int argc, char *argv[])
{
	int ch;

	opts_args(argv, "shm-import", opts, usage);
	while ((ch = opts_getopt(argc, argv)) != -1)
		switch (ch) {
		case 'f':
			fields = optarg;
			filter_fields(&want, fields);
			filter_fields_not_comment(&want);
			break;
		case 'h':
			usage(stdout, 0);
			break;
		case 'm':
			if (opts_mode(optarg, &mode) == -1)
				opts_invalid("mode", optarg, "octal 0 to 0777");
			break;
		case 'k':
			if (opts_ulong(optarg, ULONG_MAX, &minvals) == -1)
				opts_invalid("count", optarg,
				    "0 or more values");
			break;
		case 'P':
			prefix = optarg;
			check_prefix(prefix);
			break;
		case 't':
			add_type(optarg);
			break;
		default:
			usage(stderr, 2);
		}
	argc -= optind;
	argv += optind;
	opts_threads_check();
	nthreads = shmids_threads();
	syscheck_warn();
	catch_signals();
	if (filter_each_file(argc, argv, import_file) != 0)
		rval = 1;
	check_stop();
	report_dir();
	report_fortran();
	report_text();
	report_missed();
	if (fields != NULL && filter_fields_report(&want,
	    "no inline array has this field (a reference line already?)"))
		rval = 1;
	/*
	 * The last output goes out as the rest did: a reader gone by now
	 * (EPIPE) is SIGPIPE without a diagnostic, as in out().
	 */
	if (fflush(stdout) == EOF)
		out_failed();
	if (msg_close_stdout() == -1) {
		undo_all();
		return 1;
	}
	return rval;
}
