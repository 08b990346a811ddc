/*
 * shm-expand: turn shmids reference lines back into ASCII numbers ("the
 * master copy is ASCII"); every other byte passes through unchanged.
 */
#include <err.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "util.h"

static int	 dflag;		/* remove each segment once written */
static size_t	 cols = 80;
static const char *fields;	/* -f list, NULL for all */
static int	 rawtype = -1;	/* -t: how to read raw segments */
static unsigned long waitsecs = 60;
static int	 style[5];
static int	 rval;

/*
 * -d: labels expanded, removed only once all output is flushed and
 * closed, so a segment referenced twice expands twice and a failed write
 * removes nothing.
 */
static struct labels done;

static void
usage(FILE *fp, int status)
{
	fprintf(fp, "usage: shm-expand [-d] [-c cols] [-f fields] "
	    "[-F type=style] [-t type] [-w seconds] [file ...]\n");
	exit(status);
}

/*
 * A file segment truncated under us (format-spec.md 2.6) faults on the
 * pages it lost: say so, and exit 1 without removing anything.
 */
static void
onbus(int sig)
{
	static const char msg[] =
	    "shm-expand: a file segment was truncated while being read\n";
	ssize_t n;

	(void)sig;
	n = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)n;
	_exit(1);
}

/* -F type=style: which styles each type has is format-spec.md 6. */
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

/* Another shm-expand -d may have been quicker: gone is what was asked. */
static void
remove_done(void)
{
	size_t i;

	for (i = 0; i < done.n; i++)
		if (shmids_remove(done.v[i]) == -1 && errno != ENOENT) {
			warn("%s: remove", done.v[i]);
			rval = 1;
		}
}

#define NS	1000000000LL

/*
 * Nanoseconds on the monotonic clock: whole, unlike time(3)'s seconds
 * (-w 1 gave up after what was left of the current second), and deaf
 * to the wall clock being set.
 */
static long long
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * NS + ts.tv_nsec;
}

/*
 * Open label, waiting while its writer is still filling it: -w seconds
 * in all, trying again after 10 ms, then twice as long each time up to
 * 320 ms; the last sleep ends at the deadline, for one last try.
 */
static void *
open_wait(const char *label)
{
	struct timespec ts;
	long long until = now_ns() + (long long)waitsecs * NS, step = NS / 100;
	long long left, d;
	void *h;

	while ((h = shmids_open(label)) == NULL && errno == EAGAIN &&
	    (left = until - now_ns()) > 0) {
		d = step < left ? step : left;
		ts.tv_sec = (time_t)(d / NS);
		ts.tv_nsec = (long)(d % NS);
		nanosleep(&ts, NULL);
		if (step < NS / 5)
			step *= 2;
	}
	return h;
}

/* The typed view, with -t applied to raw segments. */
static int
view(void *h, struct shmids_array *a)
{
	size_t esz;

	if (shmids_array(h, a) == -1)
		return -1;
	if (a->type != SHMIDS_RAW || rawtype == -1)
		return 0;
	esz = shmids_type_size(rawtype);
	if (a->count % esz != 0) {
		errno = EINVAL;
		return -1;
	}
	a->type = rawtype;
	a->count /= esz;
	return 0;
}

/* Returns 0 if expanded, -1 (after a diagnostic) if the line must stay. */
static int
expand(const char *fname, unsigned long lineno, const char *line,
    const struct ref *r)
{
	struct shmids_array a;
	struct emit e;
	void *h;

	if ((h = open_wait(r->label)) == NULL) {
		warn("%s:%lu: %s", fname, lineno, r->label);
		return -1;
	}
	if (view(h, &a) == -1) {
		if (errno == EINVAL)
			warnx("%s:%lu: %s: %zu bytes are not a whole number "
			    "of %s", fname, lineno, r->label, a.count,
			    shmids_type_name(rawtype));
		else
			warn("%s:%lu: %s", fname, lineno, r->label);
		shmids_close(h);
		return -1;
	}
	memset(&e, 0, sizeof(e));
	e.lead = line;
	e.leadlen = r->fieldpos + r->fieldlen;
	e.indent = e.leadlen + 1;
	e.cols = cols;
	e.eol = line + r->eolpos;
	memcpy(e.style, style, sizeof(style));
	if (shmids_emit(stdout, &e, a.type, a.data, a.count) == -1)
		err(1, "stdout");
	shmids_close(h);
	if (dflag)
		util_labels_add(&done, r->label, 1);
	return 0;
}

static void
expand_line(const char *fname, unsigned long lineno, const char *line,
    size_t n)
{
	struct ref r;
	int k = shmids_ref_parse(line, n, &r);

	if (k != 0 && fields != NULL &&
	    !util_inlist(fields, line + r.fieldpos, r.fieldlen))
		k = 0;
	if (k == 1 && expand(fname, lineno, line, &r) == 0)
		return;
	if (k == -1)
		warnx("%s:%lu: malformed reference: %s", fname, lineno, r.why);
	if (k != 0)
		rval = 1;
	if (fwrite(line, 1, n, stdout) != n)
		err(1, "stdout");
}

static void
expand_file(FILE *fp, const char *fname)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned long lineno = 0;
	ssize_t n;

	while ((n = getline(&line, &cap, fp)) != -1)
		expand_line(fname, ++lineno, line, (size_t)n);
	if (ferror(fp)) {
		warn("%s", fname);
		rval = 1;
	}
	free(line);
}

int
main(int argc, char *argv[])
{
	unsigned long v;
	int ch;

	while ((ch = getopt(argc, argv, "c:dF:f:ht:w:")) != -1)
		switch (ch) {
		case 'c':
			if (util_ulong(optarg, 1000000, &v) == -1)
				usage(stderr, 2);
			cols = v;
			break;
		case 'd':
			dflag = 1;
			break;
		case 'F':
			if (set_style(optarg) == -1)
				usage(stderr, 2);
			break;
		case 'f':
			fields = optarg;
			break;
		case 'h':
			usage(stdout, 0);
			break;
		case 't':
			if ((rawtype = shmids_type_parse(optarg)) == -1)
				usage(stderr, 2);
			break;
		case 'w':
			if (util_ulong(optarg, 86400 * 365, &waitsecs) == -1)
				usage(stderr, 2);
			break;
		default:
			usage(stderr, 2);
		}
	argc -= optind;
	argv += optind;
	signal(SIGBUS, onbus);
	if (util_each_file(argc, argv, expand_file) != 0)
		rval = 1;
	if (util_close_stdout() == -1)
		return 1;
	remove_done();
	return rval;
}
