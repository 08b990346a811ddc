/*
 * api_test: the calls of 1.x kept as wrappers of the designed ones
 * (shmids 1.5; shmids.h) answer as their designed call says they do:
 * shmids_open() and shmids_open_wait() as shmids_open_flags(),
 * shmids_stat() and shmids_stat_shape() as shmids_stat_dims() (d NULL
 * allowed), shmids_scan() and shmids_scan_shape() as shmids_scan_dims(),
 * shmids_shape() as shmids_dims() transposed for a column-major table,
 * shmids_ref_parse() and shmids_tref_parse() as shmids_line_kind()
 * (format-spec.md 2.3, 2.7, 5).  Makes its own segments, System V or in
 * SHMIDS_DIR as the environment says, and removes them.  TAP.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shmids.h"

#include "tap.h"

/* Every open of label, the wrappers and the designed call: same errno. */
static void
opens(const char *label, const char *what)
{
	void *a, *b, *c;
	int ea, eb, ec;
	char buf[160];

	errno = 0;
	a = shmids_open(label);
	ea = errno;
	if (a != NULL)
		shmids_close(a);
	errno = 0;
	b = shmids_open_wait(label, 0);
	eb = errno;
	if (b != NULL)
		shmids_close(b);
	errno = 0;
	c = shmids_open_flags(label, 0, 0);
	ec = errno;
	if (c != NULL)
		shmids_close(c);
	snprintf(buf, sizeof(buf), "2.3: open, open_wait(0) and "
	    "open_flags(0, 0) of %s: %s", what, c != NULL ? "opened" :
	    strerror(ec));
	ok((a != NULL) == (c != NULL) && (b != NULL) == (c != NULL) &&
	    ea == ec && eb == ec, buf);
}

struct seen {
	const char	*id;
	int		 n, ndim;
	size_t		 rows, cols;
};

static int
by_info(const struct shmids_info *si, void *arg)
{
	struct seen *s = arg;

	if (si->ours == 1 && strcmp(si->id, s->id) == 0)
		s->n++;
	return 0;
}

/* One more sighting of s->id, with its dimensions. */
static int
saw(struct seen *s, const struct shmids_info *si, int ndim, size_t rows,
    size_t cols)
{
	if (si->ours == 1 && strcmp(si->id, s->id) == 0) {
		s->n++;
		s->ndim = ndim;
		s->rows = rows;
		s->cols = cols;
	}
	return 0;
}

static int
by_shape(const struct shmids_info *si, const struct shmids_shape *sh,
    void *arg)
{
	return saw(arg, si, sh->ndim, sh->rows, sh->cols);
}

static int
by_dims(const struct shmids_info *si, const struct shmids_dims *d,
    void *arg)
{
	return saw(arg, si, d->ndim, d->rows, d->cols);
}

/* A column-major 3 x 5 table: the wrappers see its transpose. */
static void
segment(void)
{
	struct shmids_info a, b, c;
	struct shmids_shape sh;
	struct shmids_dims d;
	struct seen s1, s2, s3;
	char name[40], label[SHMIDS_LABEL_MAX + 2], id[SHMIDS_LABEL_MAX + 1];
	void *shm, *r;

	snprintf(name, sizeof(name), "api_test.%ld", (long)getpid());
	if ((shm = shmids_create_matrix(name, 0600, SHMIDS_F64, 3, 5,
	    SHMIDS_COLMAJOR)) == NULL) {
		ok(0, "2.7: a column-major table made");
		return;
	}
	snprintf(label, sizeof(label), "%s", shmids_label(shm));
	snprintf(id, sizeof(id), "%.*s", (int)strcspn(label, " "), label);
	opens(label, "a table still filling");
	shmids_seal(shm);
	opens(label, "a sealed table");
	opens("999999999 no-such-segment", "no such segment");
	opens("0402 x", "a malformed label");
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&c, 0, sizeof(c));
	ok(shmids_stat(id, &a, 0) == 0 &&
	    shmids_stat_dims(id, &b, NULL, 0) == 0 &&
	    shmids_stat_shape(id, &c, &sh, 0) == 0 &&
	    shmids_stat_dims(id, &c, &d, 0) == 0 &&
	    a.ours == 1 && b.ours == 1 && strcmp(a.label, b.label) == 0 &&
	    a.count == 15 && b.count == 15 && a.size == b.size,
	    "2.3: stat is stat_dims with d NULL");
	ok(sh.ndim == 2 && sh.rows == 5 && sh.cols == 3 && d.ndim == 2 &&
	    d.rows == 3 && d.cols == 5 && d.order == SHMIDS_COLMAJOR,
	    "2.7: stat_shape is stat_dims' dimensions transposed, as 1.3 "
	    "read a column-major table");
	errno = 0;
	ok(shmids_stat("0402", &a, 0) == -1 && errno == EINVAL &&
	    shmids_stat_dims("0402", &b, NULL, 0) == -1 && errno == EINVAL,
	    "2.3: stat and stat_dims of a malformed id: EINVAL both");
	memset(&s1, 0, sizeof(s1));
	s2 = s3 = s1;
	s1.id = s2.id = s3.id = id;
	ok(shmids_scan(by_info, &s1, 0) == 0 &&
	    shmids_scan_shape(by_shape, &s2, 0) == 0 &&
	    shmids_scan_dims(by_dims, &s3, 0) == 0 && s1.n == 1 &&
	    s2.n == 1 && s3.n == 1 && s2.rows == s3.cols &&
	    s2.cols == s3.rows && s3.rows == 3,
	    "2.7: scan, scan_shape and scan_dims find the table once each, "
	    "scan_shape transposed");
	if ((r = shmids_open_flags(label, 0, 0)) != NULL) {
		ok(shmids_shape(r, &sh) == 2 && shmids_dims(r, &d) == 2 &&
		    sh.rows == d.cols && sh.cols == d.rows,
		    "2.7: shape is dims transposed for a column-major table");
		shmids_close(r);
	} else
		ok(0, "2.7: the table opened");
	shmids_close(shm);
	shmids_remove(label);
}

/* ref_parse and tref_parse say what line_kind says, in their words. */
static void
refs(void)
{
	static const char *const lines[] = {
		"coeff shmids 402 simdat\n", "shmids 402 volcano\r\n",
		"shmids, 403 faithful", "shmids\t404 t\n",
		"coeff shmids 402\n", "shmids 12 segments made\n",
		"1 shmids 5 x\n", "x 1 2 3\n", "1 2 3\n", "\n",
		"3*0.0 1 2\n", "note shmids are fast\n",
	};
	struct shmids_line c;
	struct shmids_ref r, t;
	size_t i, len;
	int kr, kt, sep, good;
	char what[120];

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		len = strlen(lines[i]);
		shmids_line_kind(lines[i], len, 0, &c);
		memset(&r, 0, sizeof(r));
		memset(&t, 0, sizeof(t));
		sep = 0;
		kr = shmids_ref_parse(lines[i], len, &r);
		kt = shmids_tref_parse(lines[i], len, &t, &sep);
		good = (kr == 1) == (c.kind == SHMIDS_LINE_REF ||
		    (c.kind == SHMIDS_LINE_MALFORMED && c.sep == 0 &&
		    strcmp(c.why, "a number is not a field") == 0)) &&
		    (kt == 1) == (c.kind == SHMIDS_LINE_TREF) &&
		    (kr == -1) == (c.kind == SHMIDS_LINE_MALFORMED &&
		    c.sep == 0 && kr != 1) &&
		    (kt == -1) == (c.kind == SHMIDS_LINE_MALFORMED &&
		    c.sep != 0);
		if (kr == 1 && c.kind == SHMIDS_LINE_REF)
			good = good && strcmp(r.label, c.label) == 0;
		if (kt == 1)
			good = good && strcmp(t.label, c.label) == 0 &&
			    sep == c.sep;
		if (kr == -1)
			good = good && strcmp(r.why, c.why) == 0;
		snprintf(what, sizeof(what), "5: ref_parse %d, tref_parse %d "
		    "as line_kind %d says of line %zu", kr, kt, c.kind, i);
		ok(good, what);
	}
}

int
main(void)
{
	refs();
	segment();
	printf("1..%d\n", ntest);
	return nfail != 0;
}
