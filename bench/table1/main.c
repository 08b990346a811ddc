/*
 * table1: Grosse's Table 1 ("How Shall We Connect Our Software Tools?",
 * 1990) with this library, plus the cleaners' scale, shm-expand's
 * speed and memory against a hand-written best and shm-import's, and
 * the page fault cost of the run (faults.c), printed after each block
 * of ratios, since at large N the totals are mostly page faults.  A
 * writer process sets n doubles, x[i] = i * 0.5, and hands them over;
 * a reader process reads and sums them, and checks the sum.
 *
 *	table1 table [-c csv]		every row, every size: the driver
 *	table1 write row n		one writer; stdout: its handle or data
 *	table1 read row n [label]	one reader; stdin: the data
 *	table1 cleaners			shm-ls and shm-rm over many segments
 *	table1 expand			shm-expand and shm-import (expand.c)
 *	table1 faults			what one page fault costs now
 *	table1 handexpand label		expand.c's hand-written best
 *	table1 pipeline			the 3-stage pipeline in 4 KiB and
 *					2 MiB pages, against pipes and .npy
 *					(pipeline.c; issue 31)
 *	table1 stage row n w|f|r	one stage of it
 *	table1 import			shm-import against its anchors
 *					(import.c; issue 31)
 *
 * Writer and reader columns are the time inside each process, from the
 * start of its work to after its detach or free(); the total is the wall
 * time of the whole hand-over as the driver sees it: both processes'
 * start-up and exit, and the removal of the segment or file, included.
 * A child reports its time on fd 3 (the driver's pipe) if that is open,
 * else on stderr.
 *
 * The shmids-file rows are the shmids row with the library's second
 * backend (format-spec.md 2.6): the writer runs with SHMIDS_DIR set to a
 * directory the driver makes for the run, <prefix>dir in $TMPDIR (/tmp)
 * for shmids-file, in /dev/shm (tmpfs) for shmids-file-shm, and removes
 * at the end or on a signal with whatever is left in it; the reader needs
 * only the label.  The cleaners (ipcs -m, shm-ls, shm-rm -n -s 0 and
 * shm-rm -s 0, per segment) run over 1000, 4000 and up to 30,000 System
 * V segments (bench/run raises kernel.shmmni in a private IPC namespace
 * where it can), then over 1000 and 4000 file segments in
 * $TMPDIR/<prefix>dir; attaches are counted there as mmap(2) calls
 * MAP_SHARED, with the segment files' opens.
 *
 * The posix-shm and file-mmap rows are baselines for that backend: a
 * POSIX shm object (/dev/shm) or a plain file in $TMPDIR (/tmp), made by
 * the writer (ftruncate, mmap MAP_SHARED, fill, munmap), mapped read-only
 * by the reader, which unlinks it after its time is taken (the removal is
 * in the total, as for the segments).  The -pop rows prefault each side
 * in one call (MADV_POPULATE_WRITE and _READ, as the library does for its
 * segments; MAP_POPULATE where those are not defined).
 *
 * After the table, the largest N (1e7 or more) is timed again for a few
 * rows after an idle pause and back-to-back (memstate(): the memory a
 * VM hands back to its host while idle costs large folios most).
 *
 * Environment: BENCH_SIZES ("200000 1e6 1e7"; 1e8 adds some 10
 * minutes), BENCH_RUNS (5),
 * BENCH_IDLE (the pause, 5 s), BENCH_STATE (0: no memory-state part),
 * BENCH_ROWS (the rows to run, e.g. "shmids,malloc"; default all),
 * BENCH_QUICK (small sizes, 3 runs, for smoke tests), BENCH_PIPE_N (the
 * pipeline's count, 1e7; 1e6 quick), BENCH_HUGEDIR (pipeline.c), BENCH_BIN (the
 * tools, build/bin), BENCH_PREFIX (names of the segments made here, and
 * of the POSIX shm objects, temp files and directories: <prefix>mp-<pid>
 * and <prefix>dir in /dev/shm, <prefix>mf-<pid>, <prefix>bf-<pid> and
 * <prefix>dir in $TMPDIR).  SHMIDS_DIR is ignored (unset): only the file
 * rows make file segments.
 *
 * The program is the files of this directory; table1.h says which does
 * what.
 */
#include "table1.h"

const struct row rows[] = {
	{ "shmids",		SHMIDS,	BIN,		0,	0, FD_NONE },
	{ "shmids-notune",	SHMIDS,	BIN,		1,	0, FD_NONE },
	{ "sysv-raw",		SYSV,	BIN,		0,	0, FD_NONE },
	{ "shmids-file",	SHMIDS,	BIN,		0,	0, FD_TMP },
	{ "shmids-file-shm",	SHMIDS,	BIN,		0,	0, FD_SHM },
	{ "posix-shm",		POSIXSHM, BIN,		0,	0, FD_NONE },
	{ "posix-shm-pop",	POSIXSHM, BIN,		0,	1, FD_NONE },
	{ "file-mmap",		FILEMAP, BIN,		0,	0, FD_NONE },
	{ "file-mmap-pop",	FILEMAP, BIN,		0,	1, FD_NONE },
	{ "pipe-bin",		PIPE,	BIN,		0,	0, FD_NONE },
	{ "file-bin",		FILEB,	BIN,		0,	0, FD_NONE },
	{ "ascii-pipe",		PIPE,	PRINTF,		0,	0, FD_NONE },
	{ "ascii-shmids",	PIPE,	SHORTEST,	0,	0, FD_NONE },
	{ "malloc",		INPROC,	BIN,		0,	0, FD_NONE },
};
/* NROWS is how many rows there are, or this fails to compile. */
typedef char nrows_is_right[sizeof(rows) / sizeof(rows[0]) == NROWS ? 1 : -1];

char	 self[4096];		/* this program, for the children */
char	 prefix[48];		/* of every segment name made here */
const char *bindir;
int	 quick;
volatile sig_atomic_t stop;
volatile pid_t kids[3];	/* running now, for the signal handler */
pid_t	 rowkids[3];		/* the current row's children */
int	 sel[NROWS];		/* the rows BENCH_ROWS asks for */
struct filedir fdirs[FD_N];	/* the file rows' SHMIDS_DIR */
const char *kiddir;		/* SHMIDS_DIR of the current row */
void	(*stop_hook)(void);	/* more to undo on a signal */

static void
usage(void)
{
	fprintf(stderr, "usage: table1 table [-c csv]\n"
	    "       table1 write row n\n"
	    "       table1 read row n [label]\n"
	    "       table1 cleaners\n"
	    "       table1 expand\n"
	    "       table1 faults\n"
	    "       table1 pipeline\n"
	    "       table1 stage row n w|f|r\n"
	    "       table1 import\n");
	exit(2);
}

static size_t
parse_n(const char *s)
{
	char *e;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &e, 10);
	if (e == s || *e != '\0' || errno != 0 || v == 0 || v > SIZE_MAX / 8)
		errx(2, "%s: bad count", s);
	return (size_t)v;
}

/* The driver's set-up: who we are, what we name segments, signals. */
static void
driver_init(const char *argv0)
{
	ssize_t len;

	if ((len = readlink("/proc/self/exe", self, sizeof(self) - 1)) > 0)
		self[len] = '\0';
	else
		snprintf(self, sizeof(self), "%s", argv0);
	if (getenv("BENCH_PREFIX") != NULL && *getenv("BENCH_PREFIX") != '\0')
		snprintf(prefix, sizeof(prefix), "%s", getenv("BENCH_PREFIX"));
	else
		snprintf(prefix, sizeof(prefix), "bench-%ld-", (long)getpid());
	/* The children name their segments from the environment. */
	setenv("BENCH_PREFIX", prefix, 1);
	if ((bindir = getenv("BENCH_BIN")) == NULL || *bindir == '\0')
		bindir = "build/bin";
	quick = getenv("BENCH_QUICK") != NULL && *getenv("BENCH_QUICK") != '\0'
	    && strcmp(getenv("BENCH_QUICK"), "0") != 0;
	/* Only the file rows and rounds make file segments, in their own. */
	if (getenv("SHMIDS_DIR") != NULL) {
		warnx("SHMIDS_DIR ignored: the file rows make their own "
		    "directory in $TMPDIR");
		unsetenv("SHMIDS_DIR");
	}
	atexit(sweep_fdirs_atexit);
	catch_signals();
}

int
main(int argc, char *argv[])
{
	const char *csv = "build/bench/table1.csv";

	if (argc < 2)
		usage();
	if (strcmp(argv[1], "write") == 0 && argc == 4)
		return child(1, argv[2], parse_n(argv[3]), NULL);
	if (strcmp(argv[1], "read") == 0 && (argc == 4 || argc == 5))
		return child(0, argv[2], parse_n(argv[3]),
		    argc == 5 ? argv[4] : NULL);
	if (strcmp(argv[1], "handexpand") == 0 && argc == 3)
		return handexpand(argv[2]);
	if (strcmp(argv[1], "stage") == 0 && argc == 5)
		return stage(argv[2], argv[4], parse_n(argv[3]));
	driver_init(argv[0]);
	if (strcmp(argv[1], "table") == 0) {
		if (argc == 4 && strcmp(argv[2], "-c") == 0)
			csv = argv[3];
		else if (argc != 2)
			usage();
		return table(csv);
	}
	if (strcmp(argv[1], "cleaners") == 0 && argc == 2)
		return cleaners();
	if (strcmp(argv[1], "expand") == 0 && argc == 2)
		return expand();
	if (strcmp(argv[1], "faults") == 0 && argc == 2)
		return faults();
	if (strcmp(argv[1], "pipeline") == 0 && argc == 2)
		return pipeline();
	if (strcmp(argv[1], "import") == 0 && argc == 2)
		return import();
	usage();
	return 2;
}
