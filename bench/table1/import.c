/*
 * table1 import: shm-import's targets of issue 31 item 2 and issue 41's
 * rows 1 and 2 (41.import-cpu, limit 1.10; 41.pipe-cpu, 1.20, with the
 * ratio against import_best -k, the lossless floor, beside it;
 * 41.pipe-rss, peak RSS over the segment, 1.30), each against its
 * anchor in the same run.  An array of n doubles, (i + 1) / 3 (17
 * digits, the longer text), is made once; shm-expand writes its text
 * (<prefix>bf-many in $TMPDIR: 80-column lines with " /"
 * continuations), and the same values are written again on one line
 * (<prefix>bf-long, as Fortran's "print *, u" writes an array).  Then,
 * round by round, interleaved, on one thread (SHMIDS_THREADS=1):
 *
 *	shm-expand	the segment to /dev/null (the import:expand anchor)
 *	import_best	build/bench/import_best, the hand-written best
 *			(bench/import_best.c), of the many-line text,
 *			mapped
 *	best read	the same read by blocks (import_best -r): issue
 *			41's row 1 takes the faster of the two
 *	file		shm-import of the many-line text from the file
 *	best pipe	import_best of the same bytes through a pipe (cat
 *			file |): the hand-written pipe importer
 *	best keep	the same keeping the text as it reads it
 *			(import_best -k), as shm-import must (format-spec.md
 *			7): the floor of a lossless pipe importer
 *	pipe		shm-import of them through a pipe
 *	long		shm-import of the one-line text from the file
 *
 * and, on every CPU (SHMIDS_THREADS unset), shm-import of the many-line
 * and of the one-line text, whose wall times say whether one long line
 * is converted on every thread too.  Each text is read once just before
 * its run, untimed, so that it is in the page cache.  CPU is the
 * process's user and system time, peak RSS its ru_maxrss; each segment
 * a run makes is removed after it.
 */
#include "table1.h"

enum { I_EXPAND, I_BEST, I_RBEST, I_FILE, I_PBEST, I_KBEST, I_PIPE,
    I_LONG, I_MANYT, I_LONGT, I_N };

static const char *const iname[I_N] = { "shm-expand", "import_best",
    "best read", "import file", "best pipe", "best keep", "import pipe",
    "import 1 line", "import threads", "1 line threads" };

/* The values of label on one line "x v v v ...\n", into path. */
static void
save_long(const char *label, const char *path)
{
	struct shmids_array a;
	const double *x;
	char *buf, *p;
	size_t i;
	void *shm;
	int fd;

	if ((shm = shmids_open_flags(label, 0, 0)) == NULL ||
	    shmids_array(shm, &a) == -1)
		err(1, "%s", label);
	x = a.data;
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) == -1)
		err(1, "%s", path);
	buf = xmalloc(TBUF + SHMIDS_NUM_MAX + 2);
	p = buf;
	*p++ = 'x';
	for (i = 0; i < a.count; i++) {
		*p++ = ' ';
		p += shmids_format(p, SHMIDS_F64, &x[i], SHMIDS_SHORT);
		if (p - buf >= TBUF) {
			writeall(fd, buf, (size_t)(p - buf));
			p = buf;
		}
	}
	*p++ = '\n';
	writeall(fd, buf, (size_t)(p - buf));
	if (close(fd) == -1)
		err(1, "%s", path);
	free(buf);
	shmids_close(shm);
}

/* Read path through once, so that the timed run finds it in memory. */
static void
warm(const char *path)
{
	char *buf = xmalloc(TBUF);
	ssize_t k;
	int fd;

	if ((fd = open(path, O_RDONLY)) == -1)
		err(1, "%s", path);
	while ((k = read(fd, buf, TBUF)) != 0)
		if (k == -1 && errno != EINTR)
			err(1, "%s", path);
	close(fd);
	free(buf);
}

/* Remove the segment whose reference line is in out. */
static void
drop(const char *who, char *out)
{
	char *e;

	if (strncmp(out, "x shmids ", 9) != 0)
		errx(1, "%s printed %.40s", who, out);
	if ((e = strchr(out, '\n')) != NULL)
		*e = '\0';
	if (shmids_remove(out + 9) == -1)
		warn("remove %s", out + 9);
}

/*
 * One run of contender c; its wall time, CPU in *cpu and peak RSS in
 * *rss.  best is import_best's path, nbuf the count.
 */
static double
one(int c, const char *label, const char *many, const char *lng,
    const char *best, const char *nbuf, double *cpu, long *rss)
{
	char tool[4096], pfx[64], out[4096];
	const char *v[9], *path = c == I_LONG || c == I_LONGT ? lng : many;
	struct kid cat;
	struct args a;
	const char *cv[2] = { "cat", NULL };
	size_t bytes;
	double t;
	int fd, p[2], null;

	snprintf(pfx, sizeof(pfx), "%si", prefix);
	if (c == I_EXPAND) {
		snprintf(tool, sizeof(tool), "%s/shm-expand", bindir);
		v[0] = tool, v[1] = NULL;
		if ((null = open("/dev/null", O_WRONLY)) == -1)
			err(1, "/dev/null");
		t = run_once(v, -1, null, label, &bytes, rss, NULL, 0);
		close(null);
		*cpu = lastcpu;
		return t;
	}
	if (c == I_BEST || c == I_RBEST || c == I_PBEST || c == I_KBEST) {
		v[0] = best, v[1] = "-n", v[2] = nbuf, v[3] = "-P", v[4] = pfx;
		v[5] = c == I_RBEST ? "-r" : c == I_KBEST ? "-k" : NULL;
		v[6] = NULL;
		if (c == I_BEST || c == I_RBEST)
			v[v[5] != NULL ? 6 : 5] = path, v[7] = NULL;
	} else {
		snprintf(tool, sizeof(tool), "%s/shm-import", bindir);
		v[0] = tool, v[1] = "-k", v[2] = "1", v[3] = "-P", v[4] = pfx;
		v[5] = NULL;
	}
	warm(path);
	if ((fd = open(path, O_RDONLY)) == -1)
		err(1, "%s", path);
	if (c == I_PIPE || c == I_PBEST || c == I_KBEST) {
		xpipe(p);
		spawn(&cat, 1, "cat", mkargv(&a, cv), fd, p[1], -1);
		close(p[1]);
		close(fd);
		fd = p[0];
	}
	t = run_once(v, fd, -1, NULL, &bytes, rss, out,
	    sizeof(out));
	close(fd);
	if ((c == I_PIPE || c == I_PBEST || c == I_KBEST) && reap(&cat, 1) == -1)
		errx(1, "cat failed");
	*cpu = lastcpu;
	drop(v[0], out);
	return t;
}

static double
imed(double *v, int runs)
{
	double w[MAXRUNS];

	memcpy(w, v, (size_t)runs * sizeof(double));
	qsort(w, (size_t)runs, sizeof(double), dcmp);
	return runs % 2 ? w[runs / 2] : (w[runs / 2 - 1] + w[runs / 2]) / 2;
}

static void
verdict(const char *id, const char *what, double ratio, double limit)
{
	printf("target %s %s: %.2fx (limit %.2f) %s\n", id, what, ratio,
	    limit, ratio <= limit ? "met" : "not met");
}

int
import(void)
{
	static double t[I_N][MAXRUNS], c[I_N][MAXRUNS];
	size_t n = quick ? 1000000 : 10000000;
	int runs = envint("BENCH_RUNS", quick ? 3 : 5, 1, MAXRUNS), r, i;
	char label[SHMIDS_LABEL_MAX + 1], many[PATH_MAX], lng[PATH_MAX];
	char best[sizeof(self) + 16], nbuf[32], *s;
	const char *was = getenv("SHMIDS_THREADS");
	char *keep = NULL;
	long rss[I_N], k;
	double mt[I_N], mc[I_N], seg, lim, bestc, ratio;

	runs = runs > 9 ? 9 : runs;
	snprintf(best, sizeof(best), "%s", self);
	if ((s = strrchr(best, '/')) != NULL)
		snprintf(s + 1, sizeof(best) - (size_t)(s + 1 - best),
		    "import_best");
	if (access(best, X_OK) == -1)
		err(1, "%s (make bench builds it)", best);
	snprintf(nbuf, sizeof(nbuf), "%zu", n);
	snprintf(many, sizeof(many), "%s/%sbf-many", tmpdir(), prefix);
	snprintf(lng, sizeof(lng), "%s/%sbf-long", tmpdir(), prefix);
	if (was != NULL)
		strcpy(keep = xmalloc(strlen(was) + 1), was);
	make_seg(n, 1, label);
	save_text(label, many);
	save_long(label, lng);
	memset(rss, 0, sizeof(rss));
	for (r = 0; r < runs && !stop; r++)
		for (i = 0; i < I_N && !stop; i++) {
			if (i >= I_MANYT)
				unsetenv("SHMIDS_THREADS");
			else
				setenv("SHMIDS_THREADS", "1", 1);
			t[i][r] = one(i, label, many, lng, best, nbuf, &c[i][r],
			    &k);
			rss[i] = k > rss[i] ? k : rss[i];
		}
	if (keep != NULL ? setenv("SHMIDS_THREADS", keep, 1) :
	    unsetenv("SHMIDS_THREADS"))
		err(1, "setenv");
	free(keep);
	if (shmids_remove(label) == -1)
		warn("remove %s", label);
	unlink(many);
	unlink(lng);
	check_stop();
	seg = (double)(n * sizeof(double) + SHMIDS_HEADER) / 1024;
	printf("\nshm-import (issue 31 item 2): %zu doubles, (i + 1) / 3, "
	    "segment %.0f KiB; one thread (SHMIDS_THREADS=1) but the last "
	    "two rows; interleaved, median of %d runs, peak RSS the "
	    "largest\n", n, seg, runs);
	printf("  %-15s %9s %9s %11s %9s\n", "", "wall s", "CPU s",
	    "peak RSS", "RSS/seg");
	for (i = 0; i < I_N; i++) {
		mt[i] = imed(t[i], runs);
		mc[i] = imed(c[i], runs);
		printf("  %-15s %9.4f %9.4f %7ld KiB %8.2fx\n", iname[i], mt[i],
		    mc[i], rss[i], (double)rss[i] / seg);
	}
	printf("  one line on every CPU against many lines on every CPU, "
	    "wall: %.2fx; against one line on one thread: %.2fx\n",
	    mt[I_LONGT] / mt[I_MANYT], mt[I_LONGT] / mt[I_LONG]);
	verdict("31.import-cpu", "shm-import one thread against the "
	    "hand-written best, CPU", mc[I_FILE] / mc[I_BEST], 1.15);
	lim = (seg + 65536) / seg;
	verdict("31.import-rss", "shm-import one thread, peak RSS over the "
	    "segment (limit: segment + 64 MiB)", (double)rss[I_FILE] / seg,
	    lim);
	verdict("31.import-expand", "shm-import against shm-expand, one "
	    "thread, CPU", mc[I_FILE] / mc[I_EXPAND], 1.5);
	lim = (2 * seg + 65536) / seg;
	verdict("31.pipe-rss", "shm-import from a pipe, peak RSS over the "
	    "segment (limit: 2x segment + 64 MiB)", (double)rss[I_PIPE] /
	    seg, lim);
	/* "No more memory": within the rounding of the figure printed. */
	verdict("31.longline", "one line of all the values against the same "
	    "in many lines, peak RSS", floor((double)rss[I_LONG] /
	    (double)rss[I_FILE] * 100 + 0.5) / 100, 1.0);
	/* issue 41's rows 1 and 2, each against its anchor of this run */
	bestc = mc[I_BEST] < mc[I_RBEST] ? mc[I_BEST] : mc[I_RBEST];
	verdict("41.import-cpu", "shm-import one thread from a file against "
	    "import_best (told the count; the faster of mapped and read), CPU",
	    mc[I_FILE] / bestc, 1.10);
	ratio = mc[I_PIPE] / mc[I_PBEST];
	printf("target 41.pipe-cpu shm-import one thread from a pipe against "
	    "import_best from a pipe (told the count), CPU: %.2fx (limit "
	    "1.20) %s; against import_best keeping the text as shm-import "
	    "must (-k): %.2fx\n", ratio, ratio <= 1.2 ? "met" : "not met",
	    mc[I_PIPE] / mc[I_KBEST]);
	verdict("41.pipe-rss", "shm-import from a pipe, peak RSS over the "
	    "segment", (double)rss[I_PIPE] / seg, 1.3);
	fflush(stdout);
	if (sweep(prefix, 0) != 0)
		warnx("segments were left behind (removed now)");
	return 0;
}
