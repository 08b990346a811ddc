/*
 * stress: the concurrency cases of issue 4, for a bounded time.
 *
 *  a. Many writers make segments with one name at once: every label must
 *     be unique and open to its own writer's data.
 *  b. shm-rm -s cleans while writers create and readers hold segments:
 *     nothing fresh or attached goes, nothing goes twice, and readers
 *     read correct data through mappings of removed segments.
 *  c. Two shm-expand -d race for one reference: each output is the
 *     whole expansion or the line unchanged with an error, at least one
 *     is whole, and the segment ends removed.
 *
 * Prints counts; exits 1 on any violation or unexpected error, 2 on a
 * usage error, 128 + signal when interrupted.  Every segment made is
 * removed at the end, on SIGINT and SIGTERM too: the cases track their
 * labels, and a final sweep removes what a process of ours made but
 * could not report (one killed inside shmids_create, say).
 */
#include <sys/types.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "shmids.h"

#ifndef SHM_DEST
#define SHM_DEST	01000	/* shm_perm.mode bit: removed, still attached */
#endif

#define KEYPREFIX	0x53480000u	/* format-spec.md 2.4 */
#define RESERVE		256	/* segment slots left to everybody else */
#define MAXW		64	/* writers in case a */
#define MAXKIDS		(MAXW + 16)
#define MAXFDS		64
#define BWRITERS	2	/* case b: two cores, so few processes */
#define BREADERS	2
#define MAXWHOLD	64	/* case b: segments a writer keeps filling */
#define MAXRHOLD	256	/* case b: segments a reader keeps attached */
#define MAXSHOW		20	/* violations printed in full */
#define LINEMAX		(SHMIDS_LABEL_MAX + 64)
#define NS		1000000000LL
#define MS		1000000LL

struct counts {
	unsigned long	 made, opened, verified, expanded, removed;
	unsigned long	 errors, violations;
	unsigned long	 full;		/* creates refused: table full */
};

/* Lines from a pipe that several children write whole lines to. */
struct lines {
	int		 fd;
	size_t		 off, len;
	char		 buf[4096];
};

static const char *bindir = "build/bin";
static const char *cases = "abc";
static const char *prefix = "";	/* -p: before every name we make */
static unsigned	 tsecs = 20, nwriters = 8, pern = 500;
static char	 name[48];		/* case a: prefix + "stress-<pid>" */
static char	 bname[SHMIDS_NAME_MAX + 1];	/* case b: name + "-b" */
static char	 cname[SHMIDS_NAME_MAX + 1];	/* case c: name + "-c" */
static char	 tmpdir[256];
static size_t	 budget;		/* slots we may fill at once */
static uint64_t	 seed;
static struct counts tot;
static volatile sig_atomic_t stopsig;

static int	 pfd[MAXFDS];		/* pipe ends children must close */
static size_t	 npfd;
static pid_t	 kids[MAXKIDS];
static size_t	 nkids;
static pid_t	*makers;		/* processes that made segments */
static size_t	 nmakers, capmakers;

/* Messages. */

static void
failure(const char *fmt, ...)
{
	va_list ap;

	tot.errors++;
	fputs("stress: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void
violation(const char *fmt, ...)
{
	va_list ap;

	if (++tot.violations > MAXSHOW)
		return;
	fputs("stress: VIOLATION: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * ENOSPC: kernel.shmmni was reached.  We keep within our budget, so some
 * other program took the slots: a fact about the machine, not a fault
 * in what we test, so it is counted and reported, not failed.
 */
static int
table_full(int e)
{
	if (e != ENOSPC)
		return 0;
	if (tot.full++ == 0)
		fprintf(stderr, "stress: warning: segment table full "
		    "(kernel.shmmni): some creates were skipped\n");
	return 1;
}

static void
usage(FILE *fp, int status)
{
	fputs("usage: stress [-t seconds] [-w writers] [-n per-writer] "
	    "[-B bindir] [-c cases] [-p prefix]\n", fp);
	exit(status);
}

/* Clocks: monotonic for ordering events, wall for the kernel's ctime. */

static long long
mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * NS + ts.tv_nsec;
}

static void
nap(long long ns)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(ns / NS);
	ts.tv_nsec = (long)(ns % NS);
	nanosleep(&ts, NULL);
}

/* xorshift64*: reproducible enough, and each child reseeds by pid. */
static uint64_t
rnd(void)
{
	seed ^= seed >> 12;
	seed ^= seed << 25;
	seed ^= seed >> 27;
	return seed * 2685821657736338717ULL;
}

/* Processes and pipes. */

static void
on_signal(int sig)
{
	stopsig = sig;
}

static void
catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: blocked reads and waits return EINTR, see stopsig. */
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* A reader that died must not kill us before we clean up. */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

/*
 * Both ends close on exec, and forked children close every end they do
 * not use: a report pipe reaches EOF only when all its writers are gone.
 */
static int
mkpipe(int p[2])
{
	if (npfd + 2 > MAXFDS || pipe(p) == -1) {
		failure("pipe: %s", strerror(errno));
		return -1;
	}
	fcntl(p[0], F_SETFD, FD_CLOEXEC);
	fcntl(p[1], F_SETFD, FD_CLOEXEC);
	pfd[npfd++] = p[0];
	pfd[npfd++] = p[1];
	return 0;
}

static void
xclose(int fd)
{
	size_t i;

	if (fd == -1)
		return;
	for (i = 0; i < npfd; i++)
		if (pfd[i] == fd) {
			pfd[i] = pfd[--npfd];
			break;
		}
	close(fd);
}

static void
maker_add(pid_t pid)
{
	pid_t *n;

	if (nmakers == capmakers) {
		capmakers = capmakers ? capmakers * 2 : 64;
		if ((n = realloc(makers, capmakers * sizeof(*n))) == NULL) {
			failure("out of memory: the final sweep may miss "
			    "segments");
			return;
		}
		makers = n;
	}
	makers[nmakers++] = pid;
}

static int
is_maker(pid_t pid)
{
	size_t i;

	for (i = 0; i < nmakers; i++)
		if (makers[i] == pid)
			return 1;
	return 0;
}

/* fork(2); maker says the child may make segments the sweep must find. */
static pid_t
fork_kid(int maker)
{
	pid_t pid;

	fflush(NULL);
	if (nkids == MAXKIDS || (pid = fork()) == -1) {
		failure("fork: %s", nkids == MAXKIDS ? "too many children" :
		    strerror(errno));
		return -1;
	}
	if (pid > 0) {
		kids[nkids++] = pid;
		if (maker)
			maker_add(pid);
	}
	return pid;
}

/* In a forked child: default signals, and only the pipe ends it uses. */
static void
in_child(int keep1, int keep2)
{
	size_t i;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	for (i = 0; i < npfd; i++)
		if (pfd[i] != keep1 && pfd[i] != keep2)
			close(pfd[i]);
	npfd = 0;
	nkids = 0;
	seed ^= (uint64_t)getpid() * 0x9e3779b97f4a7c15ULL;
}

/* Wait for a child; once we are stopping, make it stop too. */
static int
reap(pid_t pid)
{
	size_t i;
	int st = 0;

	if (stopsig)
		kill(pid, SIGTERM);
	while (waitpid(pid, &st, 0) == -1) {
		if (errno != EINTR) {
			st = -1;
			break;
		}
		if (stopsig)
			kill(pid, SIGTERM);
	}
	for (i = 0; i < nkids; i++)
		if (kids[i] == pid) {
			kids[i] = kids[--nkids];
			break;
		}
	return st;
}

static int
exitcode(int st)
{
	if (st == -1)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void
exec_tool(const char *const *argv)
{
	char *v[8];
	size_t i;

	for (i = 0; i < 7 && argv[i] != NULL; i++)
		if ((v[i] = strdup(argv[i])) == NULL)
			_exit(127);
	v[i] = NULL;
	execv(v[0], v);
	fprintf(stderr, "stress: %s: %s\n", v[0], strerror(errno));
	_exit(127);
}

/*
 * Run a tool with stdout on out and stderr on errfd (-1: ours).  With go
 * not -1 it starts only when go reaches EOF, so that two start at once.
 */
static pid_t
spawn(const char *const *argv, int out, int errfd, int go)
{
	pid_t pid;
	char c;

	if ((pid = fork_kid(0)) != 0)
		return pid;
	if ((out != -1 && dup2(out, 1) == -1) ||
	    (errfd != -1 && dup2(errfd, 2) == -1))
		_exit(127);
	in_child(go, -1);
	while (go != -1 && read(go, &c, 1) == -1 && errno == EINTR)
		;
	exec_tool(argv);
	return -1;
}

/* Children report in lines shorter than PIPE_BUF, which never mix. */
static void
say(int fd, const char *s)
{
	size_t n = strlen(s);
	ssize_t r;

	while (n > 0) {
		if ((r = write(fd, s, n)) == -1) {
			if (errno == EINTR)
				continue;
			_exit(3);
		}
		s += r;
		n -= (size_t)r;
	}
}

static void
lines_init(struct lines *l, int fd)
{
	l->fd = fd;
	l->off = l->len = 0;
}

/* Read once: 1 got bytes, 0 EOF, -1 error (EINTR included). */
static int
lines_fill(struct lines *l)
{
	ssize_t r;

	if (l->len == sizeof(l->buf)) {
		errno = EMSGSIZE;
		return -1;
	}
	r = read(l->fd, l->buf + l->len, sizeof(l->buf) - l->len);
	if (r > 0)
		l->len += (size_t)r;
	return r > 0 ? 1 : (int)r;
}

/* The next whole line, newline removed; NULL when none is complete. */
static char *
lines_next(struct lines *l)
{
	char *nl, *s;

	nl = memchr(l->buf + l->off, '\n', l->len - l->off);
	if (nl == NULL) {
		memmove(l->buf, l->buf + l->off, l->len - l->off);
		l->len -= l->off;
		l->off = 0;
		return NULL;
	}
	*nl = '\0';
	s = l->buf + l->off;
	l->off = (size_t)(nl - l->buf) + 1;
	return s;
}

/* Read whatever is there and hand each line to fn; 0 once at EOF. */
static int
lines_serve(struct lines *l, void (*fn)(char *))
{
	char *s;
	int r;

	r = lines_fill(l);
	while ((s = lines_next(l)) != NULL)
		fn(s);
	if (r == -1 && errno == EINTR)
		return 1;
	if (r == -1)
		failure("reading reports: %s", strerror(errno));
	return r == 1;
}

static int
shmid_of(const char *label)
{
	return (int)strtol(label, NULL, 10);
}

/* Case a: many writers, one name. */

struct arec {
	int		 shmid;
	unsigned	 w, k;
	char		 label[SHMIDS_LABEL_MAX + 1];
};

static struct arec *arecs;
static size_t	 narec, caparec;

/* Element j of writer w's k-th segment names its writer and index. */
static int64_t
aval(unsigned w, unsigned k, size_t j)
{
	return (int64_t)((uint64_t)w << 48 | (uint64_t)k << 24 | j);
}

/* Counts differ, so a segment handed to the wrong reader shows. */
static size_t
acount(unsigned w, unsigned k)
{
	return 1 + (w * 31 + k) % 64;
}

static void
writer_a(unsigned w, int go, int rep)
{
	char line[LINEMAX], label[SHMIDS_LABEL_MAX + 1], c, *h;
	unsigned k;
	size_t j, n;
	int64_t v;

	/* Parked until the parent closes go: every writer starts at once. */
	while (read(go, &c, 1) == -1 && errno == EINTR)
		;
	for (k = 0; k < pern; k++) {
		n = acount(w, k);
		h = shmids_create_array(name, 0600, SHMIDS_I64, n);
		if (h == NULL) {
			snprintf(line, sizeof(line), "E %u %u %d\n", w, k,
			    errno);
			say(rep, line);
			_exit(0);	/* the report says it all */
		}
		for (j = 0; j < n; j++) {
			v = aval(w, k, j);
			memcpy(h + SHMIDS_HEADER + j * sizeof(v), &v,
			    sizeof(v));
		}
		snprintf(label, sizeof(label), "%s", shmids_label(h));
		if (shmids_seal(h) == -1 || shmids_close(h) == -1)
			_exit(1);
		snprintf(line, sizeof(line), "L %u %u %s\n", w, k, label);
		say(rep, line);
	}
	_exit(0);
}

static int
adata_ok(const struct shmids_array *a, unsigned w, unsigned k)
{
	const char *p = a->data;
	size_t j;
	int64_t v;

	if (a->type != SHMIDS_I64 || a->count != acount(w, k))
		return 0;
	for (j = 0; j < a->count; j++) {
		memcpy(&v, p + j * sizeof(v), sizeof(v));
		if (v != aval(w, k, j))
			return 0;
	}
	return 1;
}

/* Open a reported label at once, while the other writers go on. */
static void
verify_a(const struct arec *r)
{
	struct shmids_array a;
	const char *sp = strchr(r->label, ' ');
	char *h;

	if (sp == NULL || strcmp(sp + 1, name) != 0)
		violation("a: writer %u made \"%s\", not named %s", r->w,
		    r->label, name);
	if ((h = shmids_open(r->label)) == NULL) {
		violation("a: %s (writer %u, #%u) does not open: %s",
		    r->label, r->w, r->k, strerror(errno));
		return;
	}
	tot.opened++;
	if (strcmp(shmids_label(h), r->label) != 0 ||
	    shmids_array(h, &a) == -1 || !adata_ok(&a, r->w, r->k))
		violation("a: %s does not hold writer %u's segment #%u",
		    r->label, r->w, r->k);
	else
		tot.verified++;
	if (shmids_close(h) == -1)
		failure("a: close %s: %s", r->label, strerror(errno));
}

static void
line_a(char *s)
{
	struct arec r, *n;
	int e, off = 0;

	if (sscanf(s, "L %u %u %n", &r.w, &r.k, &off) == 2 && off > 0 &&
	    strlen(s + off) <= SHMIDS_LABEL_MAX) {
		strcpy(r.label, s + off);
		r.shmid = shmid_of(r.label);
		if (narec == caparec) {
			caparec = caparec ? caparec * 2 : 1024;
			if ((n = realloc(arecs, caparec * sizeof(*n))) == NULL) {
				failure("a: out of memory");
				return;
			}
			arecs = n;
		}
		arecs[narec++] = r;
		tot.made++;
		verify_a(&r);
	} else if (sscanf(s, "E %u %u %d", &r.w, &r.k, &e) == 3) {
		if (!table_full(e))
			failure("a: writer %u, segment #%u: %s", r.w, r.k,
			    strerror(e));
	}
	else
		failure("a: bad report \"%s\"", s);
}

static int
byshmid(const void *a, const void *b)
{
	const struct arec *x = a, *y = b;

	return (x->shmid > y->shmid) - (x->shmid < y->shmid);
}

/* Sorted by shmid, two equal neighbours are one label handed out twice. */
static void
unique_a(void)
{
	size_t i;

	qsort(arecs, narec, sizeof(*arecs), byshmid);
	for (i = 1; i < narec; i++)
		if (arecs[i].shmid == arecs[i - 1].shmid)
			violation("a: shmid %d reported by writer %u #%u and "
			    "writer %u #%u", arecs[i].shmid, arecs[i - 1].w,
			    arecs[i - 1].k, arecs[i].w, arecs[i].k);
}

static void
remove_a(void)
{
	size_t i;

	for (i = 0; i < narec; i++) {
		if (i > 0 && arecs[i].shmid == arecs[i - 1].shmid)
			continue;
		if (shmids_remove(arecs[i].label) == 0)
			tot.removed++;
		else
			failure("a: remove %s: %s", arecs[i].label,
			    strerror(errno));
	}
	narec = 0;
}

static void
round_a(void)
{
	struct lines l;
	pid_t pid[MAXW];
	unsigned w;
	int go[2], rep[2], st;

	if (mkpipe(go) == -1)
		return;
	if (mkpipe(rep) == -1) {
		xclose(go[0]);
		xclose(go[1]);
		return;
	}
	for (w = 0; w < nwriters; w++)
		if ((pid[w] = fork_kid(1)) == 0) {
			in_child(go[0], rep[1]);
			writer_a(w, go[0], rep[1]);
		}
	xclose(go[0]);
	xclose(rep[1]);
	xclose(go[1]);
	lines_init(&l, rep[0]);
	while (!stopsig && lines_serve(&l, line_a))
		;
	xclose(rep[0]);
	for (w = 0; w < nwriters; w++)
		if (pid[w] != -1 && (st = exitcode(reap(pid[w]))) != 0 &&
		    !stopsig)
			failure("a: writer %u exited %d", w, st);
	unique_a();
	remove_a();
}

static void
case_a(long long until)
{
	struct counts c0 = tot;
	unsigned rounds = 0;

	do {
		round_a();
		rounds++;
	} while (!stopsig && mono() < until);
	printf("stress: a: %u rounds of %u writers x %u, one name: made %lu "
	    "opened %lu verified %lu removed %lu\n", rounds, nwriters, pern,
	    tot.made - c0.made, tot.opened - c0.opened,
	    tot.verified - c0.verified, tot.removed - c0.removed);
}

/* Case b: a cleaner among writers and readers. */

struct brec {
	char		 label[SHMIDS_LABEL_MAX + 1];
	long long	 ctime;		/* kernel's shm_ctime, wall seconds */
	long long	 wdone;		/* writer still attached then; 0 not yet */
	long long	 ha, hd;	/* a reader held it from ha to hd */
	int		 herr;		/* errno of a reader's failed open */
	int		 rmrun;		/* cleaner run that removed it, or -1 */
};

struct brun {
	long long	 t0, t1;	/* monotonic, around the whole run */
	long long	 w1;		/* wall seconds at its end */
};

struct bact {
	int		 run;
	pid_t		 pid;
	struct lines	 l;
};

struct rmev {
	char		 label[SHMIDS_LABEL_MAX + 1];
	int		 run;
};

static struct {
	unsigned	 age;		/* shm-rm -s, seconds */
	struct brec	*rec;
	size_t		 nrec, cap;
	int		*hash;
	size_t		 hsize;
	struct brun	*run;
	size_t		 nrun, caprun;
	struct bact	 act[2];
	size_t		 nact;
	long long	 next;		/* earliest start of the next run */
	struct rmev	*ev;
	size_t		 nev, capev;
	int		*dq;		/* records to send to a reader late */
	long long	*dqdue;
	size_t		 dqh, dqt;
	int		 cmd[BREADERS];
	unsigned	 nextreader;
	unsigned long	 sent, readafter, lostopen, byclean, byhand;
} B;

/* Element j of segment shmid: a reader needs only the label to check. */
static int64_t
bval(int shmid, size_t j)
{
	return (int64_t)((uint64_t)(unsigned)shmid << 32 | j);
}

static int
bdata_ok(const void *h)
{
	struct shmids_array a;
	const char *p;
	int id = shmid_of(h);
	size_t j;
	int64_t v;

	if (shmids_array(h, &a) == -1 || a.type != SHMIDS_I64 ||
	    a.count == 0)
		return 0;
	p = a.data;
	for (j = 0; j < a.count; j++) {
		memcpy(&v, p + j * sizeof(v), sizeof(v));
		if (v != bval(id, j))
			return 0;
	}
	return 1;
}

struct whold {
	char		*h;
	long long	 due;
};

/* Seal and detach; the time sent is one at which it was still attached. */
static void
release_w(char *h, int rep)
{
	char line[LINEMAX], label[SHMIDS_LABEL_MAX + 1];
	long long d;

	snprintf(label, sizeof(label), "%s", shmids_label(h));
	shmids_seal(h);
	d = mono();
	if (shmids_close(h) == -1)
		_exit(1);
	snprintf(line, sizeof(line), "S %lld %s\n", d, label);
	say(rep, line);
}

/*
 * Make one segment and report it at once, so the parent knows it before
 * any cleaner can list it.  Every fourth stays attached and unsealed for
 * longer than the age: a cleaner must spare it however old it gets.
 */
static int
make_b(unsigned k, int rep, struct whold *hs, size_t *nh)
{
	struct shmid_ds ds;
	char line[LINEMAX], *h;
	size_t j, n = 1 + k % 40;
	int64_t v;
	int id;

	if ((h = shmids_create_array(bname, 0600, SHMIDS_I64, n)) == NULL ||
	    shmctl((id = shmid_of(h)), IPC_STAT, &ds) == -1) {
		snprintf(line, sizeof(line), "E %d\n", errno);
		say(rep, line);
		return -1;
	}
	snprintf(line, sizeof(line), "C %lld %s\n", (long long)ds.shm_ctime,
	    shmids_label(h));
	say(rep, line);
	for (j = 0; j < n; j++) {
		v = bval(id, j);
		memcpy(h + SHMIDS_HEADER + j * sizeof(v), &v, sizeof(v));
	}
	if (k % 4 == 0 && *nh < MAXWHOLD) {
		hs[*nh].h = h;
		hs[*nh].due = mono() + NS / 2 + (long long)B.age * NS +
		    (long long)(rnd() % (uint64_t)(B.age * NS));
		(*nh)++;
	} else
		release_w(h, rep);
	return 0;
}

static void
writer_b(int rep, long long end, unsigned cap)
{
	struct whold hs[MAXWHOLD];
	long long now;
	size_t nh = 0, i;
	unsigned k = 0;

	while ((now = mono()) < end || nh > 0) {
		for (i = 0; i < nh; )
			if (hs[i].due <= now || now >= end) {
				release_w(hs[i].h, rep);
				hs[i] = hs[--nh];
			} else
				i++;
		if (now < end && k < cap && make_b(k++, rep, hs, &nh) == -1)
			k = cap;
		nap(10 * MS);
	}
	_exit(0);
}

struct rhold {
	char		*h;
	long long	 due;
	char		 label[SHMIDS_LABEL_MAX + 1];
};

static void
open_r(const char *label, int rep, struct rhold *hs, size_t *nh)
{
	char line[LINEMAX], *h;
	long long a;

	if (strlen(label) > SHMIDS_LABEL_MAX)
		return;
	if ((h = shmids_open(label)) == NULL) {
		snprintf(line, sizeof(line), "F %d %s\n", errno, label);
		say(rep, line);
		return;
	}
	a = mono();
	snprintf(line, sizeof(line), "H %lld %d %s\n", a, bdata_ok(h),
	    label);
	say(rep, line);
	hs[*nh].h = h;
	/* 0.3 to 2.5 ages: some holds outlast the age, some do not. */
	hs[*nh].due = a + (long long)(3 + rnd() % 23) * B.age * NS / 10;
	strcpy(hs[*nh].label, label);
	(*nh)++;
}

static void
release_r(struct rhold *r, int rep)
{
	struct shmid_ds ds;
	char line[LINEMAX];
	long long d;
	int gone, ok;

	/* Removal first, so that a good read below is a read after it. */
	gone = shmctl(shmid_of(r->label), IPC_STAT, &ds) == -1 ||
	    (ds.shm_perm.mode & SHM_DEST) != 0;
	ok = bdata_ok(r->h);
	d = mono();
	if (shmids_close(r->h) == -1)
		_exit(1);
	snprintf(line, sizeof(line), "D %lld %d %d %s\n", d, ok, gone,
	    r->label);
	say(rep, line);
}

static void
reader_b(int cmd, int rep)
{
	struct rhold hs[MAXRHOLD];
	struct pollfd p;
	struct lines l;
	long long now;
	size_t nh = 0, i;
	char *s;
	int more = 1, r;

	lines_init(&l, cmd);
	while (more || nh > 0) {
		p.fd = cmd;
		p.events = POLLIN;
		if (more && poll(&p, 1, 10) > 0) {
			r = lines_fill(&l);
			while (nh < MAXRHOLD && (s = lines_next(&l)) != NULL)
				open_r(s, rep, hs, &nh);
			if (r == 0 || (r == -1 && errno != EINTR))
				more = 0;
		}
		now = mono();
		for (i = 0; i < nh; )
			if (!more || hs[i].due <= now) {
				release_r(&hs[i], rep);
				hs[i] = hs[--nh];
			} else
				i++;
	}
	_exit(0);
}

static size_t
hashstr(const char *s)
{
	size_t h = 2166136261u;

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static struct brec *
brec_find(const char *label, int add)
{
	struct brec *r;
	size_t i = hashstr(label) & (B.hsize - 1);

	for (; B.hash[i] != -1; i = (i + 1) & (B.hsize - 1))
		if (strcmp(B.rec[B.hash[i]].label, label) == 0)
			return add ? NULL : &B.rec[B.hash[i]];
	if (!add || B.nrec == B.cap || strlen(label) > SHMIDS_LABEL_MAX)
		return NULL;
	B.hash[i] = (int)B.nrec;
	r = &B.rec[B.nrec++];
	memset(r, 0, sizeof(*r));
	strcpy(r->label, label);
	r->rmrun = -1;
	return r;
}

/* Non-blocking: a slow reader costs a skipped label, never a deadlock. */
static void
send_b(const struct brec *r)
{
	char line[SHMIDS_LABEL_MAX + 2];
	int fd = B.cmd[B.nextreader++ % BREADERS];
	size_t n;

	n = (size_t)snprintf(line, sizeof(line), "%s\n", r->label);
	if (fd != -1 && write(fd, line, n) == (ssize_t)n)
		B.sent++;
}

/*
 * A third of the sealed segments go to a reader at once (held while
 * they age), a third at about the age (the reader races the cleaner),
 * the rest are left to the cleaner alone.
 */
static void
to_reader(struct brec *r)
{
	size_t i = (size_t)(r - B.rec);

	if (i % 3 == 0)
		send_b(r);
	else if (i % 3 == 1) {
		B.dq[B.dqt] = (int)i;
		B.dqdue[B.dqt++] = mono() + (long long)B.age * NS / 2 +
		    (long long)(rnd() % (uint64_t)(B.age * NS));
	}
}

static void
send_due(long long now)
{
	while (B.dqh < B.dqt && B.dqdue[B.dqh] <= now)
		send_b(&B.rec[B.dq[B.dqh++]]);
}

static void
wline_b(char *s)
{
	struct brec *r;
	long long t;
	int e, off = 0;

	if (sscanf(s, "C %lld %n", &t, &off) == 1 && off > 0) {
		if (brec_find(s + off, 0) != NULL)
			violation("b: %s made twice", s + off);
		else if ((r = brec_find(s + off, 1)) == NULL)
			failure("b: no room to record %s", s + off);
		else {
			r->ctime = t;
			tot.made++;
		}
	} else if (sscanf(s, "S %lld %n", &t, &off) == 1 && off > 0) {
		if ((r = brec_find(s + off, 0)) == NULL)
			failure("b: sealed unknown %s", s + off);
		else {
			r->wdone = t;
			to_reader(r);
		}
	} else if (sscanf(s, "E %d", &e) == 1) {
		if (!table_full(e))
			failure("b: writer: %s", strerror(e));
	}
	else
		failure("b: bad writer report \"%s\"", s);
}

/*
 * Every other segment a reader got fresh we remove at once, as a user
 * would by label: the reader must go on reading it, and no cleaner may
 * report it removed again.
 */
static void
hold_line(struct brec *r, long long t, int ok)
{
	r->ha = t;
	tot.opened++;
	if (ok)
		tot.verified++;
	else
		violation("b: a reader opened %s to wrong data", r->label);
	if ((r - B.rec) % 6 != 0)
		return;
	/* ENOENT: a cleaner that listed it before the reader came was quicker. */
	if (shmids_remove(r->label) == 0) {
		r->rmrun = -2;
		tot.removed++;
		B.byhand++;
	} else if (errno != ENOENT)
		failure("b: remove %s: %s", r->label, strerror(errno));
}

static void
drop_line(struct brec *r, long long t, int ok, int gone)
{
	r->hd = t;
	if (!ok)
		violation("b: a reader lost %s's data%s", r->label,
		    gone ? " after its removal" : "");
	else {
		tot.verified++;
		B.readafter += gone != 0;
	}
}

static void
rline_b(char *s)
{
	struct brec *r;
	long long t;
	int ok, gone, e, off = 0;

	if (sscanf(s, "H %lld %d %n", &t, &ok, &off) == 2 && off > 0 &&
	    (r = brec_find(s + off, 0)) != NULL)
		hold_line(r, t, ok);
	else if (sscanf(s, "D %lld %d %d %n", &t, &ok, &gone, &off) == 3 &&
	    off > 0 && (r = brec_find(s + off, 0)) != NULL)
		drop_line(r, t, ok, gone);
	else if (sscanf(s, "F %d %n", &e, &off) == 1 && off > 0 &&
	    (r = brec_find(s + off, 0)) != NULL) {
		r->herr = e;
		if (e == ENOENT)
			B.lostopen++;
		else
			violation("b: a reader could not open %s: %s",
			    r->label, strerror(e));
	} else
		failure("b: bad reader report \"%s\"", s);
}

static void
rmev_line(const char *s, int run)
{
	struct rmev *n;

	if (strlen(s) > SHMIDS_LABEL_MAX) {
		failure("b: shm-rm printed \"%s\"", s);
		return;
	}
	if (B.nev == B.capev) {
		B.capev = B.capev ? B.capev * 2 : 1024;
		if ((n = realloc(B.ev, B.capev * sizeof(*n))) == NULL) {
			failure("b: out of memory");
			return;
		}
		B.ev = n;
	}
	strcpy(B.ev[B.nev].label, s);
	B.ev[B.nev++].run = run;
}

static void
start_run(void)
{
	char path[PATH_MAX], age[16], pat[SHMIDS_NAME_MAX + 2];
	const char *argv[] = { path, "-v", "-s", age, "-m", pat, NULL };
	struct brun *n;
	struct bact *a = &B.act[B.nact];
	int p[2];

	if (B.nrun == B.caprun) {
		B.caprun = B.caprun ? B.caprun * 2 : 256;
		if ((n = realloc(B.run, B.caprun * sizeof(*n))) == NULL) {
			failure("b: out of memory");
			return;
		}
		B.run = n;
	}
	if (mkpipe(p) == -1)
		return;
	snprintf(path, sizeof(path), "%s/shm-rm", bindir);
	snprintf(age, sizeof(age), "%u", B.age);
	snprintf(pat, sizeof(pat), "%s*", bname);
	B.run[B.nrun].t0 = mono();
	a->pid = spawn(argv, p[1], -1, -1);
	xclose(p[1]);
	if (a->pid == -1) {
		xclose(p[0]);
		return;
	}
	a->run = (int)B.nrun++;
	lines_init(&a->l, p[0]);
	B.nact++;
}

static void
finish_run(size_t i)
{
	struct bact *a = &B.act[i];
	struct brun *u = &B.run[a->run];
	int code = exitcode(reap(a->pid));

	u->t1 = mono();
	u->w1 = (long long)time(NULL);
	xclose(a->l.fd);
	if (code != 0 && !stopsig)
		failure("b: shm-rm exited %d", code);
	B.act[i] = B.act[--B.nact];
	if (B.nact == 0)
		B.next = mono() + 50 * MS;
}

static void
serve_run(size_t i)
{
	struct bact *a = &B.act[i];
	char *s;
	int r;

	r = lines_fill(&a->l);
	while ((s = lines_next(&a->l)) != NULL)
		rmev_line(s, a->run);
	if (r == 0 || (r == -1 && errno != EINTR))
		finish_run(i);
}

static void
close_cmds(void)
{
	size_t i;

	for (i = 0; i < BREADERS; i++) {
		xclose(B.cmd[i]);
		B.cmd[i] = -1;
	}
}

/* Fill p with what to poll; -1 in *wi or *ri for a closed pipe. */
static nfds_t
poll_set(struct pollfd *p, const struct lines *wl, const struct lines *rl,
    int *wi, int *ri)
{
	nfds_t n = 0;
	size_t i;

	*wi = *ri = -1;
	if (wl->fd != -1) {
		*wi = (int)n;
		p[n++].fd = wl->fd;
	}
	if (rl->fd != -1) {
		*ri = (int)n;
		p[n++].fd = rl->fd;
	}
	for (i = 0; i < B.nact; i++)
		p[n++].fd = B.act[i].l.fd;
	for (i = 0; i < n; i++) {
		p[i].events = POLLIN;
		p[i].revents = 0;
	}
	return n;
}

/*
 * Until end: cleaners one after another, now and then two at once (to
 * race each other).  Then readers are told to let go, and we read until
 * writers and readers are gone.
 */
static void
loop_b(long long end, struct lines *wl, struct lines *rl)
{
	struct pollfd p[4];
	long long now;
	size_t i, base;
	nfds_t n;
	int wi, ri;

	while (!stopsig && (wl->fd != -1 || rl->fd != -1 || B.nact > 0)) {
		now = mono();
		if (now < end && B.nact == 0 && now >= B.next) {
			start_run();
			if (B.nrun % 3 == 0)
				start_run();
		}
		if (now >= end)
			close_cmds();
		else
			send_due(now);
		n = poll_set(p, wl, rl, &wi, &ri);
		if (poll(p, n, 20) <= 0)
			continue;
		if (wi != -1 && p[wi].revents && !lines_serve(wl, wline_b)) {
			xclose(wl->fd);
			wl->fd = -1;
		}
		if (ri != -1 && p[ri].revents && !lines_serve(rl, rline_b)) {
			xclose(rl->fd);
			rl->fd = -1;
		}
		base = (size_t)(wi != -1) + (size_t)(ri != -1);
		for (i = n - base; i-- > 0; )
			if (p[base + i].revents)
				serve_run(i);
	}
}

/* A removal reported by a cleaner against what we know of the segment. */
static void
judge_rm(const struct rmev *e)
{
	struct brec *r = brec_find(e->label, 0);
	const struct brun *u = &B.run[e->run];

	if (r == NULL) {
		violation("b: shm-rm removed %s, which no writer reported",
		    e->label);
		return;
	}
	if (r->rmrun == -2) {
		violation("b: %s removed by cleaner run %d after we had "
		    "removed it", e->label, e->run);
		return;
	}
	if (r->rmrun != -1) {
		violation("b: %s removed twice (cleaner runs %d and %d)",
		    e->label, r->rmrun, e->run);
		return;
	}
	r->rmrun = e->run;
	tot.removed++;
	B.byclean++;
	if (u->w1 - r->ctime < (long long)B.age)
		violation("b: %s removed %llds after it was made (age %us)",
		    e->label, u->w1 - r->ctime, B.age);
	if (r->wdone == 0 || r->wdone > u->t1)
		violation("b: %s removed while its writer had it attached",
		    e->label);
	if (r->ha != 0 && r->ha < u->t0 && (r->hd == 0 || r->hd > u->t1))
		violation("b: %s removed while a reader had it attached "
		    "(held %.3f s before the run began)", e->label,
		    (double)(u->t0 - r->ha) / NS);
}

/* What no cleaner took, we remove; what vanished otherwise is lost. */
static void
cleanup_b(int judged)
{
	size_t i;

	for (i = 0; i < B.nrec; i++) {
		if (B.rec[i].rmrun != -1)
			continue;
		if (shmids_remove(B.rec[i].label) == 0)
			tot.removed++;
		else if (errno != ENOENT)
			failure("b: remove %s: %s", B.rec[i].label,
			    strerror(errno));
		else if (judged)
			violation("b: %s vanished, and no cleaner reported "
			    "removing it", B.rec[i].label);
	}
}

static int
setup_b(long long dur)
{
	size_t i;

	memset(&B, 0, sizeof(B));
	B.age = dur >= 8 * NS ? 2 : 1;
	B.cap = budget;
	for (B.hsize = 1024; B.hsize < 2 * B.cap; B.hsize *= 2)
		;
	B.rec = calloc(B.cap, sizeof(*B.rec));
	B.hash = malloc(B.hsize * sizeof(*B.hash));
	B.dq = calloc(B.cap, sizeof(*B.dq));
	B.dqdue = calloc(B.cap, sizeof(*B.dqdue));
	if (B.rec == NULL || B.hash == NULL || B.dq == NULL ||
	    B.dqdue == NULL) {
		failure("b: out of memory");
		return -1;
	}
	for (i = 0; i < B.hsize; i++)
		B.hash[i] = -1;
	for (i = 0; i < BREADERS; i++)
		B.cmd[i] = -1;
	return 0;
}

/* Fork writers and readers; their report pipes' read ends in wl, rl. */
static void
fork_b(long long end, struct lines *wl, struct lines *rl)
{
	int wp[2], rp[2], cp[2];
	unsigned i;

	lines_init(wl, -1);
	lines_init(rl, -1);
	if (mkpipe(wp) == -1)
		return;
	if (mkpipe(rp) == -1) {
		xclose(wp[0]);
		xclose(wp[1]);
		return;
	}
	for (i = 0; i < BWRITERS; i++)
		if (fork_kid(1) == 0) {
			in_child(wp[1], -1);
			writer_b(wp[1], end, (unsigned)(B.cap / BWRITERS));
		}
	for (i = 0; i < BREADERS && mkpipe(cp) == 0; i++) {
		if (fork_kid(0) == 0) {
			in_child(cp[0], rp[1]);
			reader_b(cp[0], rp[1]);
		}
		xclose(cp[0]);
		fcntl(cp[1], F_SETFL, O_NONBLOCK);
		B.cmd[i] = cp[1];
	}
	xclose(wp[1]);
	xclose(rp[1]);
	lines_init(wl, wp[0]);
	lines_init(rl, rp[0]);
}

static void
case_b(long long dur)
{
	struct lines wl, rl;
	struct counts c0 = tot;
	long long end;
	size_t i;

	if (setup_b(dur) == -1)
		return;
	end = mono() + dur;
	fork_b(end, &wl, &rl);
	loop_b(end, &wl, &rl);
	close_cmds();
	xclose(wl.fd);
	xclose(rl.fd);
	while (B.nact > 0)
		finish_run(B.nact - 1);
	while (nkids > 0)
		if (exitcode(reap(kids[0])) != 0 && !stopsig)
			failure("b: a writer or reader failed");
	if (!stopsig)
		for (i = 0; i < B.nev; i++)
			judge_rm(&B.ev[i]);
	cleanup_b(!stopsig);
	printf("stress: b: %zu shm-rm -s %u runs, %d writers, %d readers: "
	    "made %lu opened %lu verified %lu removed %lu (by shm-rm %lu, "
	    "under a reader %lu), read after removal %lu, opens that lost "
	    "to the cleaner %lu\n", B.nrun, B.age, BWRITERS, BREADERS,
	    tot.made - c0.made, tot.opened - c0.opened,
	    tot.verified - c0.verified, tot.removed - c0.removed, B.byclean,
	    B.byhand, B.readafter, B.lostopen);
	free(B.rec);
	free(B.hash);
	free(B.dq);
	free(B.dqdue);
	free(B.run);
	free(B.ev);
}

/* Case c: two shm-expand -d, one reference. */

static unsigned long lostrace;

static void
tmpname(char *buf, const char *base)
{
	snprintf(buf, PATH_MAX, "%s/%s", tmpdir, base);
}

/*
 * Random bits, so NaN payloads and subnormals take part too.  Returns 0,
 * -2 when the segment table is full (try again later), -1 on failure.
 */
static int
make_c(unsigned k, char *label)
{
	static const int types[] = {
		SHMIDS_F64, SHMIDS_F32, SHMIDS_I64, SHMIDS_I32, SHMIDS_RAW
	};
	int type = types[k % 5];
	size_t n = (size_t)(rnd() % 20000), nb, i;
	uint64_t x;
	char *h;

	if ((h = shmids_create_array(cname, 0600, type, n)) == NULL) {
		if (table_full(errno))
			return -2;
		failure("c: create: %s", strerror(errno));
		return -1;
	}
	nb = n * shmids_type_size(type);
	for (i = 0; i < nb; i += sizeof(x)) {
		x = rnd();
		memcpy(h + SHMIDS_HEADER + i, &x,
		    nb - i < sizeof(x) ? nb - i : sizeof(x));
	}
	strcpy(label, shmids_label(h));
	if (shmids_close(h) == -1)
		failure("c: close %s: %s", label, strerror(errno));
	tot.made++;
	return 0;
}

static int
write_input(unsigned k, const char *label)
{
	char path[PATH_MAX];
	FILE *fp;
	int bad;

	tmpname(path, "in");
	if ((fp = fopen(path, "w")) == NULL) {
		failure("c: %s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(fp, "# stress round %u\ncoeff shmids %s\nend\n", k, label);
	bad = ferror(fp);
	if (fclose(fp) == EOF || bad) {
		failure("c: %s: write error", path);
		return -1;
	}
	return 0;
}

/* shm-expand [-d] in > out 2> err; the pid, started when go closes. */
static pid_t
expand_to(int dflag, const char *out, const char *err, int go)
{
	const char *argv[4];
	char tool[PATH_MAX], in[PATH_MAX], o[PATH_MAX], e[PATH_MAX];
	int ofd, efd;
	pid_t pid;

	snprintf(tool, sizeof(tool), "%s/shm-expand", bindir);
	tmpname(in, "in");
	tmpname(o, out);
	tmpname(e, err);
	argv[0] = tool;
	argv[1] = dflag ? "-d" : in;
	argv[2] = dflag ? in : NULL;
	argv[3] = NULL;
	ofd = open(o, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	efd = open(e, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	pid = ofd == -1 || efd == -1 ? -1 : spawn(argv, ofd, efd, go);
	if (ofd == -1 || efd == -1)
		failure("c: %s: %s", tmpdir, strerror(errno));
	if (ofd != -1)
		close(ofd);
	if (efd != -1)
		close(efd);
	return pid;
}

/* The whole of a small file in buf (NUL added); its length, or -1. */
static long
slurp(const char *base, char *buf, size_t size)
{
	char path[PATH_MAX];
	size_t n;
	FILE *fp;

	tmpname(path, base);
	if ((fp = fopen(path, "r")) == NULL)
		return -1;
	n = fread(buf, 1, size - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	return (long)n;
}

static int
same(const char *a, const char *b)
{
	static char x[1 << 22], y[1 << 22];
	long n = slurp(a, x, sizeof(x)), m = slurp(b, y, sizeof(y));

	return n >= 0 && n == m && n < (long)sizeof(x) - 1 &&
	    memcmp(x, y, (size_t)n) == 0;
}

/* Whole expansion, or the line left alone with an error naming it. */
static int
judge_c(int i, int code, const char *label)
{
	char out[8], err[8], msg[512];
	long n;

	snprintf(out, sizeof(out), "out%d", i);
	snprintf(err, sizeof(err), "err%d", i);
	n = slurp(err, msg, sizeof(msg));
	if (code == 0 && same(out, "ref") && n == 0) {
		tot.expanded++;
		return 1;
	}
	if (code == 1 && same(out, "in") && n > 0 &&
	    strstr(msg, label) != NULL) {
		lostrace++;
		return 0;
	}
	violation("c: shm-expand -d #%d on %s: exit %d, output %s, "
	    "stderr \"%.200s\"", i, label, code, same(out, "ref") ?
	    "expanded" : same(out, "in") ? "unexpanded" : "wrong", msg);
	return 0;
}

static int
reference_c(void)
{
	char msg[256];
	pid_t pid;
	int code;

	if ((pid = expand_to(0, "ref", "referr", -1)) == -1)
		return -1;
	code = exitcode(reap(pid));
	if (code != 0 || slurp("referr", msg, sizeof(msg)) != 0) {
		if (!stopsig)
			failure("c: shm-expand exited %d: %s", code, msg);
		return -1;
	}
	return 0;
}

static void
race_c(const char *label)
{
	pid_t pid[2];
	int go[2], code[2], i, good = 0;

	if (mkpipe(go) == -1)
		return;
	pid[0] = expand_to(1, "out0", "err0", go[0]);
	pid[1] = expand_to(1, "out1", "err1", go[0]);
	xclose(go[0]);
	xclose(go[1]);
	for (i = 0; i < 2; i++)
		code[i] = pid[i] == -1 ? -1 : exitcode(reap(pid[i]));
	if (stopsig || pid[0] == -1 || pid[1] == -1)
		return;
	for (i = 0; i < 2; i++)
		good += judge_c(i, code[i], label);
	if (good == 0)
		violation("c: %s: neither shm-expand -d wrote the expansion",
		    label);
}

/* Whatever happened, the segment must be gone; if not, we remove it. */
static void
gone_c(const char *label, int raced)
{
	void *h;

	if ((h = shmids_open(label)) == NULL && errno == ENOENT) {
		tot.removed += raced;
		return;
	}
	if (raced)
		violation("c: %s is still there after shm-expand -d", label);
	if (h != NULL)
		shmids_close(h);
	if (shmids_remove(label) == 0)
		tot.removed++;
	else
		failure("c: remove %s: %s", label, strerror(errno));
}

static void
case_c(long long until)
{
	char label[SHMIDS_LABEL_MAX + 1];
	struct counts c0 = tot;
	unsigned k = 0;
	int ok, r;

	do {
		if ((r = make_c(k, label)) == -2) {
			nap(50 * MS);
			continue;
		}
		if (r == -1)
			break;
		ok = write_input(k, label) == 0 && reference_c() == 0;
		if (ok)
			race_c(label);
		gone_c(label, ok && !stopsig);
		k++;
	} while (!stopsig && mono() < until);
	printf("stress: c: %u rounds of two shm-expand -d: made %lu "
	    "expanded %lu, failed cleanly %lu, removed %lu\n", k,
	    tot.made - c0.made, tot.expanded - c0.expanded, lostrace,
	    tot.removed - c0.removed);
}

/* Set-up and the final sweep. */

static long
read_long(const char *path)
{
	long v = -1;
	FILE *fp;

	if ((fp = fopen(path, "r")) == NULL)
		return -1;
	if (fscanf(fp, "%ld", &v) != 1)
		v = -1;
	fclose(fp);
	return v;
}

static long
count_segments(void)
{
	long n = -1;
	FILE *fp;
	int c;

	if ((fp = fopen("/proc/sysvipc/shm", "r")) == NULL)
		return -1;
	while ((c = getc(fp)) != EOF)
		n += c == '\n';
	fclose(fp);
	return n;
}

/* kernel.shmmni bounds all segments; leave others RESERVE of them. */
static void
scale(void)
{
	long max = read_long("/proc/sys/kernel/shmmni");
	long used = count_segments(), avail;

	if (max <= 0 || used < 0) {
		fprintf(stderr, "stress: cannot read kernel.shmmni or the "
		    "segment table: -n not scaled\n");
		budget = (size_t)nwriters * pern;
		return;
	}
	avail = max - used - RESERVE;
	if (avail < (long)nwriters) {
		fprintf(stderr, "stress: %ld of %ld segment slots in use\n",
		    used, max);
		exit(1);
	}
	budget = (size_t)avail;
	if ((size_t)nwriters * pern > budget) {
		pern = (unsigned)(budget / nwriters);
		printf("stress: %ld of %ld segment slots free, %d kept for "
		    "others: -n scaled to %u\n", max - used, max, RESERVE,
		    pern);
	}
}

static int
ourname(const char *s)
{
	size_t n = strlen(name);

	return strncmp(s, name, n) == 0 && (s[n] == '\0' || s[n] == '-');
}

/*
 * Our key prefix and made by one of our processes: ours.  A header
 * half-written by a writer killed inside shmids_create has no name.
 */
static int
sweep_one(const struct shmids_info *si, void *arg)
{
	unsigned long *n = arg;

	if (((unsigned)si->key & 0xffff0000u) != KEYPREFIX || si->removed ||
	    !is_maker(si->cpid))
		return 0;
	if (si->ours == 1 && !ourname(si->name))
		return 0;
	if (shmctl(si->shmid, IPC_RMID, NULL) == 0)
		(*n)++;
	return 0;
}

static void
sweep(void)
{
	unsigned long n = 0;

	if (shmids_scan(sweep_one, &n, SHMIDS_ALL) == -1)
		failure("segment table: %s", strerror(errno));
	if (n > 0 && !stopsig)
		failure("%lu segments were left behind and swept", n);
	else if (n > 0)
		printf("stress: swept %lu segments left by interrupted "
		    "processes\n", n);
}

static void
rmtmp(void)
{
	static const char *files[] = {
		"in", "ref", "referr", "out0", "out1", "err0", "err1"
	};
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		tmpname(path, files[i]);
		unlink(path);
	}
	rmdir(tmpdir);
}

static unsigned
number(const char *s, unsigned min, unsigned max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s < '0' || *s > '9' || *end != '\0' || errno != 0 || v < min ||
	    v > max)
		usage(stderr, 2);
	return (unsigned)v;
}

/* Name bytes are printable ASCII but space (format-spec.md 1). */
static int
nameok(const char *s)
{
	for (; *s != '\0'; s++)
		if (*s < '!' || *s > '~')
			return 0;
	return 1;
}

static void
options(int argc, char *argv[])
{
	int ch;

	while ((ch = getopt(argc, argv, "B:c:hn:p:t:w:")) != -1)
		switch (ch) {
		case 'B':
			bindir = optarg;
			break;
		case 'c':
			cases = optarg;
			if (*cases == '\0' || strspn(cases, "abc") !=
			    strlen(cases))
				usage(stderr, 2);
			break;
		case 'h':
			usage(stdout, 0);
			break;
		case 'n':
			pern = number(optarg, 1, 1 << 20);
			break;
		case 'p':
			/* Room for "stress-<pid>-b"; a test's own name prefix. */
			prefix = optarg;
			if (strlen(prefix) > 24 || !nameok(prefix))
				usage(stderr, 2);
			break;
		case 't':
			tsecs = number(optarg, 1, 86400);
			break;
		case 'w':
			nwriters = number(optarg, 1, MAXW);
			break;
		default:
			usage(stderr, 2);
		}
	if (optind != argc)
		usage(stderr, 2);
}

static void
prepare(void)
{
	const char *tools[] = { "shm-rm", "shm-expand" };
	const char *tmp = getenv("TMPDIR");
	char path[PATH_MAX];
	size_t i;
	int n;

	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", bindir, tools[i]);
		if (access(path, X_OK) == -1) {
			fprintf(stderr, "stress: %s: %s\n", path,
			    strerror(errno));
			exit(2);
		}
	}
	snprintf(name, sizeof(name), "%sstress-%ld", prefix, (long)getpid());
	snprintf(bname, sizeof(bname), "%s-b", name);
	snprintf(cname, sizeof(cname), "%s-c", name);
	n = snprintf(tmpdir, sizeof(tmpdir), "%s/stress.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
	if (n < 0 || (size_t)n >= sizeof(tmpdir)) {
		fprintf(stderr, "stress: TMPDIR is too long\n");
		exit(1);
	}
	if (mkdtemp(tmpdir) == NULL) {
		fprintf(stderr, "stress: %s: %s\n", tmpdir, strerror(errno));
		exit(1);
	}
	seed = (uint64_t)getpid() << 32 ^ (uint64_t)time(NULL);
	maker_add(getpid());
	catch_signals();
}

/* Shares of the time: a 35, b 45, c 20, among the cases asked for. */
static void
run_cases(long long t0)
{
	long long t = (long long)tsecs * NS, wa, wb, wc, sum, at;

	wa = strchr(cases, 'a') ? 35 : 0;
	wb = strchr(cases, 'b') ? 45 : 0;
	wc = strchr(cases, 'c') ? 20 : 0;
	sum = wa + wb + wc;
	at = t0;
	if (wa > 0 && !stopsig)
		case_a(at += t * wa / sum);
	/* A cleaner needs segments to age past -s 1 while it runs. */
	if (wb > 0 && !stopsig)
		case_b(t * wb / sum > 5 * NS / 2 ? t * wb / sum : 5 * NS / 2);
	if (wc > 0 && !stopsig)
		case_c(t0 + t);
}

int
main(int argc, char *argv[])
{
	long long t0;

	options(argc, argv);
	scale();
	prepare();
	t0 = mono();
	run_cases(t0);
	sweep();
	rmtmp();
	printf("stress: total in %.1f s: made %lu opened %lu verified %lu "
	    "expanded %lu removed %lu table-full %lu errors %lu "
	    "violations %lu\n", (double)(mono() - t0) / NS, tot.made,
	    tot.opened, tot.verified, tot.expanded, tot.removed, tot.full,
	    tot.errors, tot.violations);
	if (tot.violations > MAXSHOW)
		fprintf(stderr, "stress: %lu violations not shown\n",
		    tot.violations - MAXSHOW);
	if (stopsig)
		return 128 + stopsig;
	return tot.violations > 0 || tot.errors > 0;
}
