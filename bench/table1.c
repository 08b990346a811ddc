/*
 * table1: Grosse's Table 1 ("How Shall We Connect Our Software Tools?",
 * 1990) with this library, plus the cleaners' scale and shm-expand's
 * memory.  A writer process sets n doubles, x[i] = i * 0.5, and hands
 * them over; a reader process reads and sums them, and checks the sum.
 *
 *	table1 table [-c csv]		every row, every size: the driver
 *	table1 write row n		one writer; stdout: its handle or data
 *	table1 read row n [label]	one reader; stdin: the data
 *	table1 cleaners			shm-ls and shm-rm over many segments
 *	table1 expand			shm-expand's throughput and peak RSS
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
 * only the label.  The cleaners run again over 4000 file segments in
 * $TMPDIR/<prefix>dir after the System V ones; attaches are counted
 * there as mmap(2) calls MAP_SHARED, with the segment files' opens.
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
 * Environment: BENCH_SIZES ("200000 1e6 1e7 1e8"), BENCH_RUNS (5),
 * BENCH_IDLE (the pause, 5 s), BENCH_STATE (0: no memory-state part),
 * BENCH_ROWS (the rows to run, e.g. "shmids,malloc"; default all),
 * BENCH_QUICK (small sizes, 3 runs, for smoke tests), BENCH_BIN (the
 * tools, build/bin), BENCH_PREFIX (names of the segments made here, and
 * of the POSIX shm objects, temp files and directories: <prefix>mp-<pid>
 * and <prefix>dir in /dev/shm, <prefix>mf-<pid>, <prefix>bf-<pid> and
 * <prefix>dir in $TMPDIR).  SHMIDS_DIR is ignored (unset): only the file
 * rows make file segments.
 */
#define _DEFAULT_SOURCE		/* wait4(2) on glibc */
#include <sys/types.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <mntent.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <shmids.h>

#include "filedir.h"

#define TBUF		(1 << 20)	/* bytes of text per read or write */
#define MAXSIZES	16
#define MAXRUNS		101
#define NCLEAN		4000		/* segments for the cleaners */
#define HEADROOM	64		/* slots left free for everyone else */

/* How a row hands the array over. */
enum how { SHMIDS, SYSV, POSIXSHM, FILEMAP, PIPE, FILEB, INPROC };
/* And in what form. */
enum form { BIN, PRINTF, SHORTEST };

/* Where a shmids row's segments go: SysV, or files (SHMIDS_DIR) in... */
enum { FD_NONE, FD_TMP, FD_SHM, FD_N };	/* ...$TMPDIR, /dev/shm */

struct row {
	const char	*name;
	int		 how;
	int		 form;
	int		 notune;	/* run with SHMIDS_NOTUNE=1 */
	int		 pop;		/* mmap rows: prefault in one call */
	int		 fdir;		/* shmids rows: FD_* */
};

static const struct row rows[] = {
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
#define NROWS		(sizeof(rows) / sizeof(rows[0]))
#define SHMDIR		"/dev/shm"	/* glibc's POSIX shm objects */

/* One measurement of one row; seconds, and minor page faults. */
struct meas {
	double		 w, r, total;
	double		 flt;
	int		 ok;
};

/* A child process of the driver. */
struct kid {
	pid_t		 pid;
	int		 rep;		/* read end of the child's fd 3 */
	int		 status;
	struct rusage	 ru;
	double		 w, r;		/* what the child reported */
};

/* A few strings turned into an argv without casting away const. */
#define MAXARGS		12
struct args {
	char		 s[MAXARGS][128];
	char		*v[MAXARGS + 1];
};

static char	 self[4096];		/* this program, for the children */
static char	 prefix[48];		/* of every segment name made here */
static const char *bindir;
static int	 quick;
static volatile sig_atomic_t stop;
static volatile pid_t kids[2];	/* running now, for the signal handler */
static pid_t	 rowkids[2];		/* the current row's children */
static int	 sel[NROWS];		/* the rows BENCH_ROWS asks for */
static struct filedir fdirs[FD_N];	/* the file rows' SHMIDS_DIR */
static const char *kiddir;		/* SHMIDS_DIR of the current row */

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *
xmalloc(size_t n)
{
	void *p;

	if ((p = malloc(n ? n : 1)) == NULL)
		err(1, "malloc %zu", n);
	return p;
}

static void
fill(double *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		x[i] = (double)i * 0.5;
}

/* The sum of i * 0.5 is exact in doubles up to n = 1.3e8. */
static void
sumcheck(const double *x, size_t n)
{
	double s = 0, want;
	size_t i;

	for (i = 0; i < n; i++)
		s += x[i];
	want = n < 2 ? 0 : (double)((uint64_t)n * (n - 1) / 2) * 0.5;
	if (fabs(s - want) > want * 1e-12)
		errx(1, "sum %.17g, want %.17g", s, want);
}

/* ------------------------------------------------------------------ */
/* The children: writers and readers. */

/* To the driver on fd 3 if it gave us one, else to the user. */
static void
report(char what, double secs)
{
	if (fcntl(3, F_GETFD) != -1)
		dprintf(3, "%c %.9f\n", what, secs);
	else
		fprintf(stderr, "%s %.6f s\n", what == 'w' ? "writer" :
		    "reader", secs);
}

static void
writeall(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t k;

	while (len > 0) {
		if ((k = write(fd, p, len)) == -1) {
			if (errno == EINTR)
				continue;
			err(1, "write");
		}
		p += k;
		len -= (size_t)k;
	}
}

/* Read exactly len bytes, then insist on end of file. */
static void
readall(int fd, void *buf, size_t len)
{
	char *p = buf, c;
	ssize_t k;

	while (len > 0) {
		if ((k = read(fd, p, len)) == -1) {
			if (errno == EINTR)
				continue;
			err(1, "read");
		}
		if (k == 0)
			errx(1, "short input: %zu bytes missing", len);
		p += k;
		len -= (size_t)k;
	}
	if (read(fd, &c, 1) != 0)
		errx(1, "more input than expected");
}

static void
write_text(const double *x, size_t n, int form)
{
	char *buf = xmalloc(TBUF), *p = buf;
	size_t i;

	for (i = 0; i < n; i++) {
		if (form == PRINTF)
			p += snprintf(p, SHMIDS_NUM_MAX, "%.17g", x[i]);
		else
			p += shmids_format(p, SHMIDS_F64, &x[i], SHMIDS_SHORT);
		*p++ = '\n';
		if (p - buf > TBUF - SHMIDS_NUM_MAX - 1) {
			writeall(1, buf, (size_t)(p - buf));
			p = buf;
		}
	}
	writeall(1, buf, (size_t)(p - buf));
	free(buf);
}

/* Parse the lines in s[0..len), each ending in "\n", into x. */
static size_t
parse_lines(char *s, size_t len, double *x, size_t room, int form)
{
	char *lim = s + len, *e;
	const char *ce;
	size_t k = 0;

	while (s < lim) {
		if (*s == '\n') {
			s++;
			continue;
		}
		if (k == room)
			errx(1, "more values than expected");
		if (form == PRINTF) {
			x[k] = strtod(s, &e);
		} else {
			if (shmids_parse(s, &ce, SHMIDS_F64, &x[k]) == -1)
				ce = s;
			e = s + (ce - s);
		}
		if (e == s || *e != '\n')
			errx(1, "bad value near \"%.20s\"", s);
		k++;
		s = e;
	}
	return k;
}

/* Read n values, one a line, in chunks; a value never spans two parses. */
static void
read_text(double *x, size_t n, int form)
{
	char *buf = xmalloc(TBUF + 1);
	size_t have = 0, got = 0, lim;
	ssize_t k;

	for (;;) {
		if ((k = read(0, buf + have, TBUF - have)) == -1) {
			if (errno == EINTR)
				continue;
			err(1, "read");
		}
		if (k == 0)
			break;
		have += (size_t)k;
		for (lim = have; lim > 0 && buf[lim - 1] != '\n'; lim--)
			;
		if (lim == 0 && have == TBUF)
			errx(1, "line too long");
		got += parse_lines(buf, lim, x + got, n - got, form);
		memmove(buf, buf + lim, have - lim);
		have -= lim;
	}
	buf[have] = '\n';
	got += parse_lines(buf, have + 1, x + got, n - got, form);
	if (got != n)
		errx(1, "%zu values, want %zu", got, n);
	free(buf);
}

static const char *
env_prefix(void)
{
	const char *p = getenv("BENCH_PREFIX");

	return p != NULL && *p != '\0' ? p : "table1-";
}

static const char *
tmpdir(void)
{
	const char *t = getenv("TMPDIR");

	return t != NULL && *t != '\0' ? t : "/tmp";
}

/*
 * The name of a posix-shm or file-mmap row's object: the prefix, a tag,
 * and the writer's pid, so that the driver knows it even if the writer
 * dies before it says it.
 */
static void
mapname(char *buf, size_t len, const char *pfx, int how, long pid)
{
	snprintf(buf, len, "%s%s%ld", pfx, how == POSIXSHM ? "mp-" : "mf-",
	    pid);
}

/* For shm_open(3) ("/name") or open(2) ("$TMPDIR/name"). */
static void
mappath(char *buf, size_t len, int how, const char *name)
{
	if (how == POSIXSHM)
		snprintf(buf, len, "/%s", name);
	else
		snprintf(buf, len, "%s/%s", tmpdir(), name);
}

static int
map_open(int how, const char *path, int flags, mode_t mode)
{
	if (how == POSIXSHM)
		return shm_open(path, flags, mode);	/* FD_CLOEXEC */
	return open(path, flags | O_CLOEXEC, mode);
}

static int
map_unlink(int how, const char *path)
{
	return how == POSIXSHM ? shm_unlink(path) : unlink(path);
}

/* mmap(2) all of fd, shared; pop: prefault it in one call. */
static void *
map(int fd, size_t len, int prot, int pop)
{
	int flags = MAP_SHARED;
	void *p;

#if !defined(MADV_POPULATE_WRITE) || !defined(MADV_POPULATE_READ)
	if (pop)
		flags |= MAP_POPULATE;
#endif
	if ((p = mmap(NULL, len, prot, flags, fd, 0)) == MAP_FAILED)
		err(1, "mmap %zu bytes", len);
#if defined(MADV_POPULATE_WRITE) && defined(MADV_POPULATE_READ)
	/* Older kernels say EINVAL: then the faults come one by one. */
	if (pop && madvise(p, len, prot & PROT_WRITE ? MADV_POPULATE_WRITE :
	    MADV_POPULATE_READ) == -1)
		warn("madvise populate");
#endif
	return p;
}

/* The paper's idiom: create, fill, print the reference line, close. */
static void
w_shmids(size_t n)
{
	char name[SHMIDS_NAME_MAX + 1];
	char *shm;

	snprintf(name, sizeof(name), "%sx", env_prefix());
	if ((shm = shmids_create_array(name, 0600, SHMIDS_F64, n)) == NULL)
		err(1, "create %s", name);
	fill((double *)(void *)(shm + SHMIDS_HEADER), n);
	/* stdout is a pipe, fully buffered: the line leaves after the seal. */
	printf("x shmids %s\n", shm);
	if (shmids_close(shm) == -1)
		err(1, "close");
	if (fflush(stdout) == EOF)
		err(1, "stdout");
}

static void
w_sysv(size_t n)
{
	char line[32];
	double *x;
	int id;

	if ((id = shmget(IPC_PRIVATE, n * sizeof(double), IPC_CREAT | 0600))
	    == -1)
		err(1, "shmget");
	/* The id goes out first, so the driver can remove it if we die. */
	writeall(1, line, (size_t)snprintf(line, sizeof(line), "%d\n", id));
	if ((x = shmat(id, NULL, 0)) == (void *)-1)
		err(1, "shmat");
	fill(x, n);
	if (shmdt(x) == -1)
		err(1, "shmdt");
}

/* Create, size, map, fill, unmap, close; stdout: the name. */
static void
w_map(const struct row *rw, size_t n)
{
	char name[128], path[4096];
	size_t len = n * sizeof(double);
	double *x;
	int fd;

	mapname(name, sizeof(name), env_prefix(), rw->how, (long)getpid());
	mappath(path, sizeof(path), rw->how, name);
	if ((fd = map_open(rw->how, path, O_RDWR | O_CREAT | O_EXCL, 0600))
	    == -1)
		err(1, "%s", path);
	if (ftruncate(fd, (off_t)len) == -1)
		err(1, "ftruncate %s", path);
	x = map(fd, len, PROT_READ | PROT_WRITE, rw->pop);
	fill(x, n);
	if (munmap(x, len) == -1)
		err(1, "munmap");
	if (close(fd) == -1)
		err(1, "close %s", path);
	printf("%s\n", name);
	if (fflush(stdout) == EOF)
		err(1, "stdout");
}

static void
w_stream(size_t n, int form)
{
	double *x = xmalloc(n * sizeof(double));

	fill(x, n);
	if (form == BIN)
		writeall(1, x, n * sizeof(double));
	else
		write_text(x, n, form);
	free(x);
}

/* The in-process baseline: one program sets and sums its own array. */
static void
inproc(size_t n)
{
	double t0 = now(), t1, *x;

	x = xmalloc(n * sizeof(double));
	fill(x, n);
	t1 = now();
	sumcheck(x, n);
	free(x);
	report('w', t1 - t0);
	report('r', now() - t1);
}

static void
r_shmids(size_t n, const char *label)
{
	struct shmids_array a;
	char *shm;

	if ((shm = shmids_open(label)) == NULL)
		err(1, "%s", label);
	if (shmids_array(shm, &a) == -1)
		err(1, "%s", label);
	if (a.type != SHMIDS_F64 || a.count != n)
		errx(1, "%s: type %d count %zu", label, a.type, a.count);
	sumcheck(a.data, n);
	if (shmids_close(shm) == -1)
		err(1, "close");
}

static void
r_sysv(size_t n, const char *arg)
{
	double *x;
	char *e;
	long id = strtol(arg, &e, 10);

	if (e == arg || *e != '\0' || id < 0 || id > INT_MAX)
		errx(2, "%s: bad shmid", arg);
	if ((x = shmat((int)id, NULL, SHM_RDONLY)) == (void *)-1)
		err(1, "shmat %s", arg);
	sumcheck(x, n);
	if (shmdt(x) == -1)
		err(1, "shmdt");
}

/* Open, check the size, map read-only, sum, unmap; the caller unlinks. */
static void
r_map(const struct row *rw, size_t n, const char *path)
{
	size_t len = n * sizeof(double);
	struct stat st;
	double *x;
	int fd;

	if ((fd = map_open(rw->how, path, O_RDONLY, 0)) == -1)
		err(1, "%s", path);
	if (fstat(fd, &st) == -1)
		err(1, "fstat %s", path);
	if (st.st_size < 0 || (uintmax_t)st.st_size != len)
		errx(1, "%s: %jd bytes, want %zu", path, (intmax_t)st.st_size,
		    len);
	x = map(fd, len, PROT_READ, rw->pop);
	close(fd);
	sumcheck(x, n);
	if (munmap(x, len) == -1)
		err(1, "munmap");
}

static void
r_stream(size_t n, int form)
{
	double *x = xmalloc(n * sizeof(double));

	if (form == BIN)
		readall(0, x, n * sizeof(double));
	else
		read_text(x, n, form);
	sumcheck(x, n);
	free(x);
}

static const struct row *
findrow(const char *name)
{
	size_t i;

	for (i = 0; i < NROWS; i++)
		if (strcmp(rows[i].name, name) == 0)
			return &rows[i];
	errx(2, "%s: no such row", name);
}

static int
child(int writer, const char *name, size_t n, const char *arg)
{
	const struct row *rw = findrow(name);
	int mapped = rw->how == POSIXSHM || rw->how == FILEMAP;
	char path[4096];
	double t0 = now();

	if (rw->how == INPROC) {
		inproc(n);
		return 0;
	}
	if ((rw->how == SHMIDS || rw->how == SYSV || mapped) && !writer &&
	    arg == NULL)
		errx(2, "%s: the reader needs the label", name);
	if (mapped && !writer) {
		if (*arg == '\0' || strchr(arg, '/') != NULL)
			errx(2, "%s: bad name", arg);
		mappath(path, sizeof(path), rw->how, arg);
	}
	if (writer && rw->how == SHMIDS)
		w_shmids(n);
	else if (writer && rw->how == SYSV)
		w_sysv(n);
	else if (writer && mapped)
		w_map(rw, n);
	else if (writer)
		w_stream(n, rw->form);
	else if (rw->how == SHMIDS)
		r_shmids(n, arg);
	else if (rw->how == SYSV)
		r_sysv(n, arg);
	else if (mapped)
		r_map(rw, n, path);
	else
		r_stream(n, rw->form);
	report(writer ? 'w' : 'r', now() - t0);
	/* Like the segments' removal: in the total, not the reader's time. */
	if (mapped && !writer && map_unlink(rw->how, path) == -1)
		err(1, "unlink %s", path);
	return 0;
}

/* ------------------------------------------------------------------ */
/* The driver's plumbing. */

static void
onsig(int sig)
{
	int e = errno;

	stop = sig;
	if (kids[0] > 0)
		kill(kids[0], SIGTERM);
	if (kids[1] > 0)
		kill(kids[1], SIGTERM);
	errno = e;
}

static void
catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = onsig;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* A pipe whose ends no child inherits unless it is given them. */
static void
xpipe(int fd[2])
{
	if (pipe(fd) == -1)
		err(1, "pipe");
	fcntl(fd[0], F_SETFD, FD_CLOEXEC);
	fcntl(fd[1], F_SETFD, FD_CLOEXEC);
}

/* In a child: make from be fd to, inherited across exec. */
static void
movefd(int from, int to)
{
	if (from == -1)
		return;
	if (from == to)
		fcntl(to, F_SETFD, 0);
	else if (dup2(from, to) == -1)
		_exit(127);
}

/* The NULL-terminated list s, copied into a. */
static char **
mkargv(struct args *a, const char *const *s)
{
	int i;

	for (i = 0; i < MAXARGS && s[i] != NULL; i++) {
		snprintf(a->s[i], sizeof(a->s[i]), "%s", s[i]);
		a->v[i] = a->s[i];
	}
	a->v[i] = NULL;
	return a->v;
}

/* The argv of this program in mode with row, count and maybe a label. */
static char **
selfargv(struct args *a, const char *mode, const char *row, const char *n,
    const char *label)
{
	const char *s[6];

	s[0] = "table1", s[1] = mode, s[2] = row, s[3] = n, s[4] = label;
	s[5] = NULL;
	return mkargv(a, s);
}

/*
 * Start path (a file, or with no "/" looked up in PATH) with stdin in
 * and stdout out (-1: inherit) and fd 3 a pipe back to us.  notune: 1
 * set SHMIDS_NOTUNE, 0 clear it (and either way set SHMIDS_DIR to
 * kiddir, or clear it), -1 leave the environment alone.
 */
static void
spawn(struct kid *k, int slot, const char *path, char **argv, int in,
    int out, int notune)
{
	int rp[2];

	xpipe(rp);
	fflush(NULL);
	memset(k, 0, sizeof(*k));
	if ((k->pid = fork()) == -1)
		err(1, "fork");
	if (k->pid == 0) {
		movefd(in, 0);
		movefd(out, 1);
		movefd(rp[1], 3);
		if (notune == 1)
			setenv("SHMIDS_NOTUNE", "1", 1);
		else if (notune == 0)
			unsetenv("SHMIDS_NOTUNE");
		if (notune != -1 && kiddir != NULL)
			setenv("SHMIDS_DIR", kiddir, 1);
		else if (notune != -1)
			unsetenv("SHMIDS_DIR");
		execvp(path, argv);
		_exit(127);
	}
	kids[slot] = k->pid;
	rowkids[slot] = k->pid;
	close(rp[1]);
	k->rep = rp[0];
}

/* Wait for k and read what it reported; 0 if it exited 0. */
static int
reap(struct kid *k, int slot)
{
	char buf[256], *p, *q;
	ssize_t len;

	while (wait4(k->pid, &k->status, 0, &k->ru) == -1)
		if (errno != EINTR)
			err(1, "wait4");
	kids[slot] = 0;
	while ((len = read(k->rep, buf, sizeof(buf) - 1)) == -1 &&
	    errno == EINTR)
		;
	close(k->rep);
	buf[len > 0 ? len : 0] = '\0';
	for (p = buf; p != NULL && *p != '\0'; p = q) {
		if ((q = strchr(p, '\n')) != NULL)
			q++;
		if (*p == 'w')
			k->w = strtod(p + 1, NULL);
		else if (*p == 'r')
			k->r = strtod(p + 1, NULL);
	}
	return WIFEXITED(k->status) && WEXITSTATUS(k->status) == 0 ? 0 : -1;
}

/* Everything fd gives until end of file, up to len - 1 bytes kept. */
static size_t
slurp(int fd, char *buf, size_t len)
{
	size_t have = 0;
	char junk[4096];
	ssize_t k;

	for (;;) {
		if (have < len - 1)
			k = read(fd, buf + have, len - 1 - have);
		else
			k = read(fd, junk, sizeof(junk));
		if (k == -1 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		if (have < len - 1)
			have += (size_t)k;
	}
	buf[have] = '\0';
	return have;
}

struct swept {
	int		*id;
	size_t		 n, cap;
	const char	*prefix;
	int		 show;		/* describe the first few found */
};

/*
 * Ours to remove: named with our prefix, or made by a child of this row
 * whatever it holds, since a writer killed before it wrote its header
 * leaves a segment with no name (and sysv-raw's never have one).  File
 * segments (SHMIDS_DIR set, in the cleaners) are left to fdir_empty().
 */
static int
sweep_one(const struct shmids_info *si, void *arg)
{
	struct swept *s = arg;
	int named = si->ours == 1 &&
	    strncmp(si->name, s->prefix, strlen(s->prefix)) == 0;
	int mine = si->cpid > 0 &&
	    (si->cpid == rowkids[0] || si->cpid == rowkids[1]);

	if ((!named && !mine) || si->shmid < 0)
		return 0;
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		if ((s->id = realloc(s->id, s->cap * sizeof(*s->id))) == NULL)
			err(1, "realloc");
	}
	if (s->show && s->n < 3)
		printf("left: %d %s, state %c, attached %lu, age %lds\n",
		    si->shmid, si->ours == 1 ? si->name : "(no header)",
		    si->ours == 1 ? si->state : '-', si->nattch,
		    (long)(time(NULL) - si->ctime));
	s->id[s->n++] = si->shmid;
	return 0;
}

/*
 * Remove every segment sweep_one() calls ours; returns how many there
 * were.  The shmids are gathered first: shmids_scan() does not promise
 * that removing segments while it runs is safe.
 */
static size_t
sweep(const char *pfx, int show)
{
	struct swept s;
	size_t i;

	memset(&s, 0, sizeof(s));
	s.prefix = pfx;
	s.show = show;
	if (shmids_scan(sweep_one, &s, SHMIDS_ALL) == -1)
		warn("segment table");
	for (i = 0; i < s.n; i++)
		if (shmctl(s.id[i], IPC_RMID, NULL) == -1 && errno != EINVAL &&
		    errno != EIDRM)
			warn("remove shmid %d", s.id[i]);
	free(s.id);
	return s.n;
}

/* Is name pfx, then tag, then digits (a pid) and nothing else? */
static int
ourfile(const char *name, const char *pfx, const char *tag)
{
	size_t lp = strlen(pfx), lt = strlen(tag);

	if (strncmp(name, pfx, lp) != 0 || strncmp(name + lp, tag, lt) != 0)
		return 0;
	name += lp + lt;
	if (*name == '\0')
		return 0;
	while (*name >= '0' && *name <= '9')
		name++;
	return *name == '\0';
}

/* Remove dir's entries pfx<tag><pid> (shm: by shm_unlink); how many. */
static size_t
sweep_dir(const char *dir, const char *pfx, const char *const *tags,
    int shm)
{
	char path[4096];
	struct dirent *e;
	size_t k = 0, pass;
	int i, again = 1;
	DIR *d;

	/* Again if anything went: readdir(3) after an unlink may skip. */
	for (pass = 0; again && pass < 3; pass++) {
		if ((d = opendir(dir)) == NULL)
			break;
		again = 0;
		while ((e = readdir(d)) != NULL)
			for (i = 0; tags[i] != NULL; i++) {
				if (!ourfile(e->d_name, pfx, tags[i]))
					continue;
				if (shm)
					snprintf(path, sizeof(path), "/%s",
					    e->d_name);
				else
					snprintf(path, sizeof(path), "%s/%s",
					    dir, e->d_name);
				if ((shm ? shm_unlink(path) : unlink(path))
				    == 0)
					k++, again = 1;
				else if (errno != ENOENT)
					warn("remove %s", path);
				break;
			}
		closedir(d);
	}
	return k;
}

/* The POSIX shm objects and temp files named pfx...; how many. */
static size_t
sweep_files(const char *pfx)
{
	static const char *const shmtags[] = { "mp-", NULL };
	static const char *const tmptags[] = { "mf-", "bf-", NULL };

	return sweep_dir(SHMDIR, pfx, shmtags, 1) +
	    sweep_dir(tmpdir(), pfx, tmptags, 0);
}

/* The file rows' directories and what is in them; how many segments. */
static size_t
sweep_fdirs(void)
{
	size_t k = 0;
	int i;

	for (i = 0; i < FD_N; i++)
		k += fdir_remove(&fdirs[i]);
	return k;
}

/* For err(3) and the like in the driver: the directories, at least. */
static void
sweep_fdirs_atexit(void)
{
	sweep_fdirs();
}

/* After an interrupt: leave nothing behind, then die of the signal. */
static void
check_stop(void)
{
	int sig = stop;

	if (sig == 0)
		return;
	sweep(prefix, 0);
	sweep_files(prefix);
	sweep_fdirs();
	signal(sig, SIG_DFL);
	raise(sig);
	_exit(128 + sig);
}

/* ------------------------------------------------------------------ */
/* The driver: one row, once. */

static void
kidmeas(struct meas *m, const struct kid *w, const struct kid *r)
{
	m->w = w->w;
	m->r = r != NULL ? r->r : w->r;
	m->flt = (double)w->ru.ru_minflt;
	if (r != NULL)
		m->flt += (double)r->ru.ru_minflt;
}

/* Writer, then reader, then removal: the segment's whole life. */
static int
run_seg(const struct row *rw, const char *nbuf, struct meas *m)
{
	struct kid w, r;
	struct args a;
	char out[256], *label = NULL;
	int p[2], ok, id = -1;

	xpipe(p);
	spawn(&w, 0, self, selfargv(&a, "write", rw->name, nbuf, NULL), -1,
	    p[1], rw->notune);
	close(p[1]);
	slurp(p[0], out, sizeof(out));
	close(p[0]);
	ok = reap(&w, 0) == 0;
	out[strcspn(out, "\n")] = '\0';
	if (rw->how == SYSV && out[0] != '\0')
		id = (int)strtol(out, NULL, 10);
	else if (rw->how == SHMIDS && strncmp(out, "x shmids ", 9) == 0)
		label = out + 9;
	if (ok && !stop && (label != NULL || id != -1)) {
		spawn(&r, 1, self, selfargv(&a, "read", rw->name, nbuf,
		    label != NULL ? label : out), -1, -1, rw->notune);
		ok = reap(&r, 1) == 0;
	} else {
		ok = 0;
		memset(&r, 0, sizeof(r));
	}
	if (label != NULL && shmids_remove(label) == -1)
		warn("remove %s", label);
	if (id != -1 && shmctl(id, IPC_RMID, NULL) == -1)
		warn("remove shmid %d", id);
	kidmeas(m, &w, &r);
	return ok ? 0 : -1;
}

/*
 * posix-shm and file-mmap: writer, then reader, which unlinks; if either
 * failed, the driver unlinks (the name comes from the writer's pid).
 */
static int
run_map(const struct row *rw, const char *nbuf, struct meas *m)
{
	struct kid w, r;
	struct args a;
	char out[256], name[128], path[4096];
	int p[2], ok;

	xpipe(p);
	spawn(&w, 0, self, selfargv(&a, "write", rw->name, nbuf, NULL), -1,
	    p[1], 0);
	close(p[1]);
	slurp(p[0], out, sizeof(out));
	close(p[0]);
	ok = reap(&w, 0) == 0;
	out[strcspn(out, "\n")] = '\0';
	mapname(name, sizeof(name), prefix, rw->how, (long)w.pid);
	memset(&r, 0, sizeof(r));
	if (ok && !stop && strcmp(out, name) == 0) {
		spawn(&r, 1, self, selfargv(&a, "read", rw->name, nbuf, name),
		    -1, -1, 0);
		ok = reap(&r, 1) == 0;
	} else {
		ok = 0;
	}
	mappath(path, sizeof(path), rw->how, name);
	if (map_unlink(rw->how, path) == 0)
		ok = 0;			/* the reader should have */
	else if (errno != ENOENT)
		warn("remove %s", path);
	kidmeas(m, &w, &r);
	return ok ? 0 : -1;
}

/* a | b */
static int
run_pipe(const struct row *rw, const char *nbuf, struct meas *m)
{
	struct kid w, r;
	struct args a;
	int p[2], ok;

	xpipe(p);
	spawn(&w, 0, self, selfargv(&a, "write", rw->name, nbuf, NULL), -1,
	    p[1], 0);
	spawn(&r, 1, self, selfargv(&a, "read", rw->name, nbuf, NULL), p[0],
	    -1, 0);
	close(p[0]);
	close(p[1]);
	ok = reap(&w, 0) == 0;
	ok = reap(&r, 1) == 0 && ok;
	kidmeas(m, &w, &r);
	return ok ? 0 : -1;
}

/* a > x; b < x */
static int
run_file(const struct row *rw, const char *nbuf, struct meas *m)
{
	struct kid w, r;
	struct args a;
	char path[4096];
	int fd, ok = 0;

	snprintf(path, sizeof(path), "%s/%sbf-%ld", tmpdir(), prefix,
	    (long)getpid());
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) == -1)
		err(1, "%s", path);
	spawn(&w, 0, self, selfargv(&a, "write", rw->name, nbuf, NULL), -1,
	    fd, 0);
	close(fd);
	memset(&r, 0, sizeof(r));
	if (reap(&w, 0) == 0 && !stop &&
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) != -1) {
		spawn(&r, 1, self, selfargv(&a, "read", rw->name, nbuf,
		    NULL), fd, -1, 0);
		close(fd);
		ok = reap(&r, 1) == 0;
	}
	unlink(path);
	kidmeas(m, &w, &r);
	return ok ? 0 : -1;
}

static int
run_inproc(const struct row *rw, const char *nbuf, struct meas *m)
{
	struct kid w;
	struct args a;
	int ok;

	spawn(&w, 0, self, selfargv(&a, "write", rw->name, nbuf, NULL), -1,
	    -1, 0);
	ok = reap(&w, 0) == 0;
	kidmeas(m, &w, NULL);
	return ok ? 0 : -1;
}

static void
run_row(const struct row *rw, size_t n, struct meas *m)
{
	char nbuf[32];
	double t0 = now();
	int r;

	snprintf(nbuf, sizeof(nbuf), "%zu", n);
	memset(m, 0, sizeof(*m));
	rowkids[0] = rowkids[1] = 0;
	kiddir = rw->fdir != FD_NONE ? fdirs[rw->fdir].path : NULL;
	if (rw->how == SHMIDS || rw->how == SYSV)
		r = run_seg(rw, nbuf, m);
	else if (rw->how == POSIXSHM || rw->how == FILEMAP)
		r = run_map(rw, nbuf, m);
	else if (rw->how == PIPE)
		r = run_pipe(rw, nbuf, m);
	else if (rw->how == FILEB)
		r = run_file(rw, nbuf, m);
	else
		r = run_inproc(rw, nbuf, m);
	m->total = now() - t0;
	m->ok = r == 0;
	if (!m->ok)
		warnx("%s n=%zu failed", rw->name, n);
	check_stop();
}

/* ------------------------------------------------------------------ */
/* The driver: the table. */

static int
dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of the field at off in each good measurement; NAN if none. */
static double
median(const struct meas *m, int runs, size_t off)
{
	double v[MAXRUNS];
	int i, k = 0;

	for (i = 0; i < runs; i++)
		if (m[i].ok)
			memcpy(&v[k++], (const char *)&m[i] + off,
			    sizeof(double));
	if (k == 0)
		return NAN;
	qsort(v, (size_t)k, sizeof(double), dcmp);
	return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

static int
rowix(const char *name)
{
	return (int)(findrow(name) - rows);
}

/* The ratios' columns: our rows, and their headings. */
static const char *const ratnum[] = { "shmids", "shmids-notune",
    "sysv-raw", "shmids-file", "shmids-file-shm" };
static const char *const rathead[] = { "shmids", "notune", "sysv-raw",
    "file", "file-shm" };
#define NRAT	(sizeof(ratnum) / sizeof(ratnum[0]))

/* One ratio of totals, or "-" where BENCH_ROWS left a row out. */
static void
print_ratio(const char *what, const struct meas *med, const char *den,
    double paper)
{
	int d = rowix(den), k;
	size_t i;

	printf("%-12s", what);
	for (i = 0; i < NRAT; i++) {
		k = rowix(ratnum[i]);
		if (sel[k] && sel[d])
			printf(" %10.3f", med[k].total / med[d].total);
		else
			printf(" %10s", "-");
	}
	printf(" %10.3f\n", paper);
}

static void
print_block(size_t n, int runs, const struct meas *med, FILE *csv)
{
	size_t i;

	printf("\nN = %zu doubles (%.1f MB), median of %d runs, seconds\n",
	    n, (double)n * 8 / 1e6, runs);
	printf("%-15s %10s %10s %10s %12s\n", "", "writer", "reader",
	    "total", "minor-faults");
	for (i = 0; i < NROWS; i++) {
		if (!sel[i])
			continue;
		printf("%-15s %10.4f %10.4f %10.4f %12.0f\n", rows[i].name,
		    med[i].w, med[i].r, med[i].total, med[i].flt);
		fprintf(csv, "%s,%zu,%d,%.6f,%.6f,%.6f,%.0f\n", rows[i].name,
		    n, runs, med[i].w, med[i].r, med[i].total, med[i].flt);
	}
	fflush(csv);
	printf("%-12s", "ratio(total)");
	for (i = 0; i < NRAT; i++)
		printf(" %10s", rathead[i]);
	printf(" %10s\n", "paper");
	print_ratio("shm:pipe", med, "pipe-bin", 0.375);
	print_ratio("shm:ascii", med, "ascii-pipe", 0.028);
	print_ratio("shm:malloc", med, "malloc", 1.5);
	fflush(stdout);
}

/* "200000 1e6,1e7" into sizes; the count. */
static int
parse_sizes(const char *s, size_t *sizes)
{
	char *e;
	double d;
	int k = 0;

	while (*s != '\0') {
		if (*s == ' ' || *s == ',' || *s == '\t') {
			s++;
			continue;
		}
		d = strtod(s, &e);
		if (e == s || d < 1 || d > 1e12 || d != floor(d) ||
		    k == MAXSIZES)
			errx(2, "BENCH_SIZES: bad size near \"%s\"", s);
		sizes[k++] = (size_t)d;
		s = e;
	}
	return k;
}

/* BENCH_ROWS, "shmids,malloc" or "shmids malloc", into sel; all if unset. */
static void
parse_rows(const char *s)
{
	char name[64];
	size_t i, k, any = 0;

	for (i = 0; i < NROWS; i++)
		sel[i] = s == NULL || *s == '\0';
	if (s == NULL || *s == '\0')
		return;
	while (*s != '\0') {
		if (*s == ' ' || *s == ',' || *s == '\t') {
			s++;
			continue;
		}
		k = strcspn(s, " ,\t");
		if (k >= sizeof(name))
			errx(2, "BENCH_ROWS: bad row near \"%s\"", s);
		memcpy(name, s, k);
		name[k] = '\0';
		sel[rowix(name)] = 1;
		any++;
		s += k;
	}
	if (any == 0)
		errx(2, "BENCH_ROWS: no rows");
}

static int
envint(const char *name, int def, int min, int max)
{
	const char *s = getenv(name);
	char *e;
	long v;

	if (s == NULL || *s == '\0')
		return def;
	v = strtol(s, &e, 10);
	if (*e != '\0' || v < min || v > max)
		errx(2, "%s: want %d..%d", name, min, max);
	return (int)v;
}

static int
measure_size(size_t n, int runs, FILE *csv)
{
	static struct meas m[NROWS][MAXRUNS];
	struct meas med[NROWS];
	size_t i;
	int run, bad = 0;

	/* Rows interleaved, so that a slow spell hits every row alike. */
	for (run = 0; run < runs; run++)
		for (i = 0; i < NROWS; i++) {
			if (!sel[i])
				continue;
			run_row(&rows[i], n, &m[i][run]);
			bad |= !m[i][run].ok;
		}
	memset(med, 0, sizeof(med));
	for (i = 0; i < NROWS; i++) {
		if (!sel[i])
			continue;
		med[i].w = median(m[i], runs, offsetof(struct meas, w));
		med[i].r = median(m[i], runs, offsetof(struct meas, r));
		med[i].total = median(m[i], runs,
		    offsetof(struct meas, total));
		med[i].flt = median(m[i], runs, offsetof(struct meas, flt));
	}
	print_block(n, runs, med, csv);
	return bad;
}

/*
 * The memory a writer gets may have been handed back to the host: a VM
 * whose balloon reports free pages (virtio free page reporting, order 9
 * and up) makes the next touch of those pages fault in the host too.
 * Large folios (file segments on ext4) come from exactly those blocks;
 * 4 KiB pages mostly do not.  So the same row is timed twice: after an
 * idle pause (the first hand-over of a pipeline), and back-to-back,
 * right after an untimed run of the same row (a pipeline in steady
 * state).  The interleaved table above sits in between.
 */
static const char *const staterows[] = { "shmids", "sysv-raw",
    "shmids-file", "shmids-file-shm", "posix-shm-pop", "file-mmap-pop",
    "malloc" };

static int
memstate(size_t n, int runs, FILE *csv)
{
	static struct meas m[2][MAXRUNS];
	struct meas scratch;
	unsigned idle = (unsigned)envint("BENCH_IDLE", 5, 0, 600);
	double med[2];
	size_t i;
	int k, run, st, bad = 0;

	printf("\nMemory state, N = %zu: total seconds, median of %d runs\n",
	    n, runs);
	printf("%-15s %12s %12s\n", "", "after idle", "back-to-back");
	for (i = 0; i < sizeof(staterows) / sizeof(staterows[0]); i++) {
		if (!sel[k = rowix(staterows[i])])
			continue;
		for (run = 0; run < runs; run++) {
			sleep(idle);
			check_stop();
			run_row(&rows[k], n, &m[0][run]);
			run_row(&rows[k], n, &scratch);
			run_row(&rows[k], n, &m[1][run]);
			bad |= !m[0][run].ok || !scratch.ok || !m[1][run].ok;
		}
		for (st = 0; st < 2; st++) {
			med[st] = median(m[st], runs, offsetof(struct meas,
			    total));
			fprintf(csv, "%s/%s,%zu,%d,%.6f,%.6f,%.6f,%.0f\n",
			    rows[k].name, st ? "b2b" : "idle", n, runs,
			    median(m[st], runs, offsetof(struct meas, w)),
			    median(m[st], runs, offsetof(struct meas, r)),
			    med[st], median(m[st], runs,
			    offsetof(struct meas, flt)));
		}
		printf("%-15s %12.4f %12.4f\n", rows[k].name, med[0], med[1]);
		fflush(stdout);
	}
	printf("after idle: a %u s pause before each run (BENCH_IDLE); "
	    "back-to-back: right after\nan untimed run of the same row\n",
	    idle);
	return bad;
}

/* The type of the file system dir is on, from the longest mount above it. */
static const char *
fstype(const char *dir, char *buf, size_t len)
{
	char real[PATH_MAX];
	struct mntent *me;
	size_t best = 0, k;
	FILE *fp;

	snprintf(buf, len, "file system unknown");
	if (realpath(dir, real) == NULL ||
	    (fp = setmntent("/proc/self/mounts", "r")) == NULL)
		return buf;
	while ((me = getmntent(fp)) != NULL) {
		k = strlen(me->mnt_dir);
		if (strncmp(real, me->mnt_dir, k) != 0 ||
		    (k > 1 && real[k] != '\0' && real[k] != '/'))
			continue;
		if (k >= best) {	/* the later of two on one place */
			best = k;
			snprintf(buf, len, "%s", me->mnt_type);
		}
	}
	endmntent(fp);
	return buf;
}

/*
 * Make the directories of the file rows asked for, and say where they
 * are; a row whose directory cannot be made (or whose labels would be
 * too long) is left out, with a warning, and the table fails.
 */
static int
fdirs_setup(void)
{
	char fs[64];
	const char *sep = "file segments (SHMIDS_DIR): ";
	size_t i, j;
	int f, bad = 0;

	for (i = 0; i < NROWS; i++) {
		f = rows[i].fdir;
		if (!sel[i] || f == FD_NONE || fdirs[f].made)
			continue;
		/* The writer's name is the prefix and "x". */
		if (fdir_make(&fdirs[f], f == FD_TMP ? tmpdir() : SHMDIR,
		    prefix, strlen(prefix) + 1) == 0)
			continue;
		warn("%s: %s/%sdir: row left out", rows[i].name,
		    f == FD_TMP ? tmpdir() : SHMDIR, prefix);
		bad = 1;
		for (j = 0; j < NROWS; j++)
			if (rows[j].fdir == f)
				sel[j] = 0;
	}
	for (f = FD_TMP; f < FD_N; f++) {
		if (!fdirs[f].made)
			continue;
		printf("%s%s in %s (%s)", sep, f == FD_TMP ? "shmids-file" :
		    "shmids-file-shm", fdirs[f].path,
		    fstype(fdirs[f].path, fs, sizeof(fs)));
		sep = "; ";
	}
	if (*sep == ';')
		printf("\n");
	return bad;
}

static int
table(const char *csvpath)
{
	size_t sizes[MAXSIZES];
	const char *s = getenv("BENCH_SIZES");
	char fs1[64], fs2[64];
	int nsizes, runs, i, bad = 0;
	FILE *csv;

	if (s == NULL || *s == '\0')
		s = quick ? "200000 1e6" : "200000 1e6 1e7 1e8";
	nsizes = parse_sizes(s, sizes);
	runs = envint("BENCH_RUNS", quick ? 3 : 5, 1, MAXRUNS);
	parse_rows(getenv("BENCH_ROWS"));
	if ((csv = fopen(csvpath, "w")) == NULL)
		err(1, "%s", csvpath);
	fprintf(csv, "row,n,runs,writer_s,reader_s,total_s,minor_faults\n");
	printf("Table 1: x[i] = i * 0.5 written, handed over, read and "
	    "summed; rows run interleaved\n");
	printf("posix-shm objects in %s (%s); file-mmap and file-bin files "
	    "in %s (%s)\n", SHMDIR, fstype(SHMDIR, fs1, sizeof(fs1)),
	    tmpdir(), fstype(tmpdir(), fs2, sizeof(fs2)));
	bad = fdirs_setup();
	for (i = 0; i < nsizes; i++)
		bad |= measure_size(sizes[i], runs, csv);
	if (!quick && nsizes > 0 && sizes[nsizes - 1] >= 10000000 &&
	    envint("BENCH_STATE", 1, 0, 1))
		bad |= memstate(sizes[nsizes - 1], runs, csv);
	if (fclose(csv) == EOF)
		err(1, "%s", csvpath);
	printf("\nCSV: %s\n", csvpath);
	if (sweep(prefix, 0) != 0)
		warnx("segments were left behind (removed now)");
	if (sweep_files(prefix) != 0)
		warnx("shm objects or temp files were left behind "
		    "(removed now)");
	if (sweep_fdirs() != 0)
		warnx("file segments were left behind (removed now)");
	return bad;
}

/* ------------------------------------------------------------------ */
/* The cleaners: shm-ls and shm-rm over thousands of segments. */

static int
count_all(const struct shmids_info *si, void *arg)
{
	(void)si;
	++*(size_t *)arg;
	return 0;
}

/* How many segments we may make: NCLEAN, or what kernel.shmmni leaves. */
static size_t
clean_room(void)
{
	size_t want = quick ? 200 : NCLEAN, have = 0;
	long mni = 4096;
	FILE *fp;

	if ((fp = fopen("/proc/sys/kernel/shmmni", "r")) != NULL) {
		if (fscanf(fp, "%ld", &mni) != 1)
			mni = 4096;
		fclose(fp);
	}
	if (shmids_scan(count_all, &have, SHMIDS_ALL | SHMIDS_NOHDR) == -1)
		err(1, "segment table");
	if ((size_t)mni < have + HEADROOM + want) {
		want = (size_t)mni > have + HEADROOM ?
		    (size_t)mni - have - HEADROOM : 0;
		printf("kernel.shmmni %ld, %zu segments exist: making only "
		    "%zu\n", mni, have, want);
	}
	return want;
}

static size_t
make_many(const char *pfx, size_t want)
{
	char name[SHMIDS_NAME_MAX + 1];
	size_t i;
	char *shm;

	for (i = 0; i < want && !stop; i++) {
		snprintf(name, sizeof(name), "%s%zu", pfx, i);
		if ((shm = shmids_create_array(name, 0600, SHMIDS_F64, 1))
		    == NULL) {
			warn("create %s (made %zu)", name, i);
			break;
		}
		shmids_close(shm);
	}
	return i;
}

/* Run the tool s[0], stdout counted and dropped; its wall time, or -1. */
static double
time_tool(const char *const *s, size_t *lines)
{
	struct args a;
	struct kid k;
	char buf[65536];
	double t0 = now();
	ssize_t len, i;
	int p[2];

	xpipe(p);
	spawn(&k, 0, s[0], mkargv(&a, s), -1, p[1], -1);
	close(p[1]);
	*lines = 0;
	while ((len = read(p[0], buf, sizeof(buf))) != 0) {
		if (len == -1 && errno == EINTR)
			continue;
		if (len == -1)
			break;
		for (i = 0; i < len; i++)
			*lines += buf[i] == '\n';
	}
	close(p[0]);
	if (reap(&k, 0) == -1)
		return -1;
	return now() - t0;
}

/* What count_attach() counts; -1: the tool or strace failed. */
struct attaches {
	long		 shmat;		/* System V attaches */
	long		 mmap;		/* MAP_SHARED: file segments' attaches */
	long		 open;		/* opens of segment files */
};

/*
 * Attaches of the tool s[0] (one option at most), by strace(1): shmat(2)
 * calls, mmap(2) calls MAP_SHARED (only a file segment's attach makes
 * those), and openat(2) calls of segment files ("/shmids.").
 */
static void
count_attach(const char *const *s, struct attaches *c)
{
	const char *v[MAXARGS + 1];
	char out[64], line[512];
	struct args a;
	struct kid k;
	FILE *fp;
	int i, j = 0, dn;

	c->shmat = c->mmap = c->open = -1;
	snprintf(out, sizeof(out), "/tmp/table1.%ld.strace", (long)getpid());
	v[j++] = "strace", v[j++] = "-f", v[j++] = "-e";
	v[j++] = "trace=shmat,mmap,openat", v[j++] = "-o", v[j++] = out;
	for (i = 0; s[i] != NULL && j < MAXARGS; i++)
		v[j++] = s[i];
	v[j] = NULL;
	if ((dn = open("/dev/null", O_WRONLY | O_CLOEXEC)) == -1)
		return;
	spawn(&k, 0, v[0], mkargv(&a, v), -1, dn, -1);
	close(dn);
	if (reap(&k, 0) == -1 || (fp = fopen(out, "r")) == NULL) {
		unlink(out);
		return;
	}
	c->shmat = c->mmap = c->open = 0;
	while (fgets(line, sizeof(line), fp) != NULL) {
		c->shmat += strstr(line, "shmat(") != NULL;
		c->mmap += strstr(line, "mmap(") != NULL &&
		    strstr(line, "MAP_SHARED") != NULL;
		c->open += strstr(line, "openat(") != NULL &&
		    strstr(line, "/shmids.") != NULL;
	}
	fclose(fp);
	unlink(out);
}

/*
 * Make want segments named pfx* (files in fd if not NULL: SHMIDS_DIR is
 * set), then time shm-ls and shm-rm over them (traced: count their
 * attaches instead), and check that none is left.
 */
static int
cleaners_round(const char *pfx, size_t want, int traced,
    const struct filedir *fd)
{
	char ls[4096], rm[4096], pat[64];
	const char *lsv[2], *rmv[6];
	size_t made, lines, left;
	struct attaches cls, crm;
	double t0, t;
	int bad = 0;

	snprintf(ls, sizeof(ls), "%s/shm-ls", bindir);
	snprintf(rm, sizeof(rm), "%s/shm-rm", bindir);
	snprintf(pat, sizeof(pat), "%s*", pfx);
	lsv[0] = ls, lsv[1] = NULL;
	rmv[0] = rm, rmv[1] = "-s", rmv[2] = "0", rmv[3] = "-m", rmv[4] = pat;
	rmv[5] = NULL;
	t0 = now();
	made = make_many(pfx, want);
	t = now() - t0;
	check_stop();
	if (!traced) {
		printf("made %zu segments in %.3f s (%.1f us each)\n", made, t,
		    t * 1e6 / (double)(made ? made : 1));
		if ((t = time_tool(lsv, &lines)) < 0)
			bad = printf("FAIL: shm-ls failed\n");
		else
			printf("shm-ls: %.3f s, %zu lines listed\n", t, lines);
		if ((t = time_tool(rmv, &lines)) < 0)
			bad = printf("FAIL: shm-rm failed\n");
		else
			printf("shm-rm -s 0 -m '%s': %.3f s\n", pat, t);
	} else {
		count_attach(lsv, &cls);
		count_attach(rmv, &crm);
		if (fd == NULL)
			printf("shmat calls (strace -f): shm-ls %ld, shm-rm "
			    "%ld, for %zu segments\n", cls.shmat, crm.shmat,
			    made);
		else
			printf("attaches (strace -f: mmap MAP_SHARED): shm-ls "
			    "%ld, shm-rm %ld, for %zu segments;\n  opens of "
			    "segment files: shm-ls %ld, shm-rm %ld\n",
			    cls.mmap, crm.mmap, made, cls.open, crm.open);
	}
	check_stop();
	left = sweep(pfx, 1) + (fd != NULL ? fdir_empty(fd) : 0);
	if (left != 0)
		printf("FAIL: %zu segments '%s' left after shm-rm "
		    "(removed now)\n", left, pat);
	return bad != 0 || left != 0;
}

/* Timed, then traced if strace is there. */
static int
cleaners_rounds(const char *pfx, size_t want, const struct filedir *fd)
{
	int bad = cleaners_round(pfx, want, 0, fd);

	if (access("/usr/bin/strace", X_OK) == 0)
		bad |= cleaners_round(pfx, want, 1, fd);
	else
		printf("strace not installed: attaches not counted\n");
	return bad;
}

/* System V segments, then as many file segments in $TMPDIR/<prefix>dir. */
static int
cleaners(void)
{
	struct filedir *fd = &fdirs[FD_TMP];
	char pfx[64], last[32], fs[64];
	size_t want;
	int bad = 0;

	printf("\nCleaners: shm-ls and shm-rm over many segments\n");
	snprintf(pfx, sizeof(pfx), "%sc-", prefix);
	if ((want = clean_room()) == 0)
		bad = 1;
	else
		bad |= cleaners_rounds(pfx, want, NULL);
	check_stop();
	want = quick ? 200 : NCLEAN;
	snprintf(last, sizeof(last), "%zu", want - 1);
	if (fdir_make(fd, tmpdir(), prefix, strlen(pfx) + strlen(last))
	    == -1) {
		warn("%s/%sdir: no file segments", tmpdir(), prefix);
		return 1;
	}
	printf("\nThe same over file segments: SHMIDS_DIR=%s (%s)\n",
	    fd->path, fstype(fd->path, fs, sizeof(fs)));
	setenv("SHMIDS_DIR", fd->path, 1);
	bad |= cleaners_rounds(pfx, want, fd);
	unsetenv("SHMIDS_DIR");
	fdir_remove(fd);	/* emptied already by each round */
	return bad;
}

/* ------------------------------------------------------------------ */
/* shm-expand: throughput and peak RSS. */

static char *
make_seg(size_t n, int thirds, char *label)
{
	char name[SHMIDS_NAME_MAX + 1];
	double *x;
	size_t i;
	char *shm;

	snprintf(name, sizeof(name), "%se", prefix);
	if ((shm = shmids_create_array(name, 0600, SHMIDS_F64, n)) == NULL)
		err(1, "create %s", name);
	x = (double *)(void *)(shm + SHMIDS_HEADER);
	if (thirds)
		for (i = 0; i < n; i++)
			x[i] = (double)(i + 1) / 3;
	else
		fill(x, n);
	snprintf(label, SHMIDS_LABEL_MAX + 1, "%s", shm);
	shmids_close(shm);
	return label;
}

/* One shm-expand of label; seconds, and bytes out and peak RSS (KiB). */
static double
expand_once(const char *label, size_t *bytes, long *rss)
{
	char tool[4096], line[128], buf[65536];
	const char *v[2];
	struct args a;
	struct kid k;
	int in[2], out[2];
	double t0 = now();
	ssize_t len;

	snprintf(tool, sizeof(tool), "%s/shm-expand", bindir);
	xpipe(in);
	xpipe(out);
	v[0] = tool, v[1] = NULL;
	spawn(&k, 0, tool, mkargv(&a, v), in[0], out[1], -1);
	close(in[0]);
	close(out[1]);
	writeall(in[1], line, (size_t)snprintf(line, sizeof(line),
	    "x shmids %s\n", label));
	close(in[1]);
	*bytes = 0;
	while ((len = read(out[0], buf, sizeof(buf))) != 0) {
		if (len == -1 && errno == EINTR)
			continue;
		if (len == -1)
			break;
		*bytes += (size_t)len;
	}
	close(out[0]);
	if (reap(&k, 0) == -1)
		errx(1, "shm-expand failed");
	*rss = k.ru.ru_maxrss;
	return now() - t0;
}

static void
expand_case(size_t n, int thirds, int runs)
{
	char label[SHMIDS_LABEL_MAX + 1];
	double t[MAXRUNS], med;
	size_t bytes = 0;
	long rss, maxrss = 0;
	int i;

	make_seg(n, thirds, label);
	for (i = 0; i < runs && !stop; i++) {
		t[i] = expand_once(label, &bytes, &rss);
		maxrss = rss > maxrss ? rss : maxrss;
	}
	if (shmids_remove(label) == -1)
		warn("remove %s", label);
	check_stop();
	qsort(t, (size_t)runs, sizeof(double), dcmp);
	med = t[runs / 2];
	printf("%-8s %9zu %8.1f MB %8.3f s %7.2f Mval/s %7.1f MB/s "
	    "%8ld KiB %8.0f KiB\n", thirds ? "i/3" : "i*0.5", n,
	    (double)bytes / 1e6, med, (double)n / med / 1e6,
	    (double)bytes / med / 1e6, maxrss,
	    (double)maxrss - (double)(n * 8 + SHMIDS_HEADER) / 1024);
}

static int
expand(void)
{
	size_t big = quick ? 1000000 : 10000000;
	int runs = envint("BENCH_RUNS", quick ? 3 : 5, 1, MAXRUNS);

	runs = runs > 3 ? 3 : runs;
	printf("\nshm-expand: one reference line to ASCII (default 80 "
	    "columns), median of %d runs\n", runs);
	printf("%-8s %9s %11s %10s %13s %12s %12s %12s\n", "values", "count",
	    "out", "time", "rate", "throughput", "peak RSS", "RSS-segment");
	expand_case(big / 10, 0, runs);
	expand_case(big / 10, 1, runs);
	expand_case(big, 0, runs);
	expand_case(big, 1, runs);
	return 0;
}

/* ------------------------------------------------------------------ */

static void
usage(void)
{
	fprintf(stderr, "usage: table1 table [-c csv]\n"
	    "       table1 write row n\n"
	    "       table1 read row n [label]\n"
	    "       table1 cleaners\n"
	    "       table1 expand\n");
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
	usage();
	return 2;
}
