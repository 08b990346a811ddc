/*
 * One measurement: the driver forks the writer and the reader (the
 * pinger and the ponger), pins them, lets both set up, starts them
 * together, tells them to stop when the budget is spent, and reaps
 * them; a child that fails, hangs or is interrupted is killed, and the
 * contender's close() removes whatever the measurement made.
 *
 * The children are a process group of their own, so that the driver
 * waits for them alone (not for iceoryx's daemon, also its child), and
 * die with the driver (PR_SET_PDEATHSIG), so that nothing of theirs
 * outlives a driver killed outright.
 */
#include "stream.h"

#include <sys/prctl.h>
#include <sys/time.h>

#define SETUP_SECS	30	/* for both children to set up */
#define GRACE_SECS	30	/* to finish once told to stop */

static volatile sig_atomic_t alarmed;
static int ids;

static void
on_alarm(int sig)
{
	(void)sig;
	alarmed = 1;
}

static void
on_signal(int sig)
{
	interrupted = sig;
}

/* SIGALRM ends the driver's waits; SIGINT, SIGTERM, SIGHUP end the run. */
void
cell_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_alarm;	/* no SA_RESTART: waits see EINTR */
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* SIGALRM in s seconds; 0: none. */
static void
arm(double s)
{
	struct itimerval it;

	memset(&it, 0, sizeof(it));
	it.it_value.tv_sec = (time_t)s;
	it.it_value.tv_usec = (suseconds_t)((s - (double)(time_t)s) * 1e6);
	if (s > 0 && it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0)
		it.it_value.tv_usec = 1;
	alarmed = 0;
	setitimer(ITIMER_REAL, &it, NULL);
}

static int
setcpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* A child: set up, say so on ready, wait for go to close, work, exit. */
static void
child(const struct contender *c, int kind, int role, struct chan *ab,
    struct chan *ba, struct shared *sh, int pin, int ready, int go)
{
	struct side *s = role == WRITER ? &sh->w : &sh->r;
	int two = kind == PINGPONG || kind == ROUNDTRIPS, rc;
	char b;

	signal(SIGALRM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	if ((pin == PIN_ONE && setcpu(conf.cpu[0]) == -1) ||
	    (pin == PIN_TWO && setcpu(conf.cpu[role]) == -1)) {
		fail(s, "pinning to a CPU: %s", strerror(errno));
		_exit(1);
	}
	if (c != NULL && c->attach != NULL && (c->attach(ab, role) == -1 ||
	    (two && c->attach(ba, !role) == -1))) {
		if (s->why[0] == '\0')
			fail(s, "%s set-up failed",
			    role == WRITER ? "writer" : "reader");
		_exit(1);
	}
	if (write(ready, "r", 1) != 1)
		_exit(1);
	close(ready);
	while (read(go, &b, 1) == -1 && errno == EINTR)
		;
	close(go);
	if (kind == FLOOR)
		rc = run_floor(sh);
	else if (two)
		rc = role == WRITER ? run_pinger(c, ab, ba, kind, sh) :
		    run_ponger(c, ab, ba, kind, sh);
	else
		rc = role == WRITER ? run_writer(c, ab, kind, sh) :
		    run_reader(c, ab, kind, sh);
	if (c != NULL && c->detach != NULL) {
		c->detach(ab);
		if (two)
			c->detach(ba);
	}
	/* exit(3), not _exit(2): a library may tidy up at exit (iceoryx
	 * deregisters from its daemon, removes its lock file) */
	exit(rc == 0 ? 0 : 1);
}

/* Fork child number i into the children's process group (pgid 0: new). */
static pid_t
spawn(const struct contender *c, int kind, int role, struct chan *ab,
    struct chan *ba, struct shared *sh, int pin, int fd[4], pid_t pgid)
{
	pid_t driver = getpid(), pid;

	fflush(NULL);
	if ((pid = fork()) == -1) {
		warn("fork");
		return -1;
	}
	if (pid == 0) {
		setpgid(0, pgid);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1 ||
		    getppid() != driver)
			_exit(1);
		close(fd[0]);
		close(fd[3]);
		child(c, kind, role, ab, ba, sh, pin, fd[1], fd[2]);
	}
	setpgid(pid, pgid != 0 ? pgid : pid);
	return pid;
}

/* How a child ended, in words, if not well. */
static void
status_why(char *buf, size_t len, const char *who, int st)
{
	if (WIFSIGNALED(st))
		snprintf(buf, len, "%s killed by signal %d (%s)", who,
		    WTERMSIG(st), strsignal(WTERMSIG(st)));
	else if (WIFEXITED(st) && WEXITSTATUS(st) != 0)
		snprintf(buf, len, "%s failed (exit %d)", who,
		    WEXITSTATUS(st));
}

/*
 * Wait for the children of group pgid (n of them): stop them at the
 * budget (0: none, they stop by themselves), kill them at the grace
 * time after, or on a signal or the first failure.  st[i] gets child
 * pid[i]'s status; returns 1 if they were killed for taking too long.
 */
static int
reap(pid_t pgid, const pid_t *pid, int n, int *st, struct shared *sh,
    double budget)
{
	int left = n, told = 0, slow = 0, s, i;
	pid_t p;

	arm(budget > 0 ? budget : GRACE_SECS);
	while (left > 0) {
		p = waitpid(-pgid, &s, 0);
		if (p == -1 && errno != EINTR)
			break;
		if (p == -1) {
			if (interrupted)
				kill(-pgid, SIGKILL);
			else if (alarmed && budget > 0 && !told) {
				__atomic_store_n(&sh->stop, 1,
				    __ATOMIC_RELAXED);
				told = 1;
				arm(GRACE_SECS);
			} else if (alarmed) {
				slow = 1;
				kill(-pgid, SIGKILL);
			}
			continue;
		}
		for (i = 0; i < n; i++)
			if (pid[i] == p)
				st[i] = s;
		left--;
		if (!WIFEXITED(s) || WEXITSTATUS(s) != 0)
			kill(-pgid, SIGKILL);
	}
	arm(0);
	return slow;
}

/* The result of a measurement whose children both ended well. */
static void
result(int kind, const struct shared *sh, struct meas *m)
{
	const struct side *w = &sh->w, *r = &sh->r;

	m->cpu = w->cpu + r->cpu;
	m->med = sh->med;
	m->p99 = sh->p99;
	if (kind == PINGPONG || kind == ROUNDTRIPS || kind == FLOOR) {
		m->n = w->n;
		m->secs = w->t1 - w->t0;
	} else {
		m->n = r->n;
		m->secs = r->t1 - w->t0;
	}
	if (kind != FLOOR && w->n != r->n) {
		snprintf(m->why, sizeof(m->why), "the writer sent %llu, the "
		    "reader got %llu", (unsigned long long)w->n,
		    (unsigned long long)r->n);
		return;
	}
	m->rate = m->secs > 0 ? (double)m->n / m->secs : 0;
	m->ok = m->secs > 0;
	if (!m->ok)
		snprintf(m->why, sizeof(m->why), "no time measured");
}

void
measure(const struct contender *c, int kind, size_t nbytes, int pin,
    struct meas *m)
{
	struct chan ab, ba;
	struct shared *sh;
	pid_t pid[2] = { -1, -1 };
	int two = kind == PINGPONG || kind == ROUNDTRIPS;
	int n = kind == FLOOR ? 1 : 2, fd[4], st[2] = { 0, 0 }, got = 0,
	    opened = 0, slow, i;
	double budget;
	char b;

	memset(m, 0, sizeof(*m));
	memset(&ab, 0, sizeof(ab));
	ab.nbytes = nbytes;
	ab.slots = slots_for(nbytes);
	ba = ab;
	ab.id = ++ids;
	ba.id = ++ids;
	if ((sh = shared_map(sizeof(*sh))) == NULL) {
		snprintf(m->why, sizeof(m->why), "no shared memory");
		return;
	}
	if (c != NULL) {
		if (c->open(&ab) == 0)
			opened |= 1;
		if ((opened & 1) && two && c->open(&ba) == 0)
			opened |= 2;
		if (opened != (two ? 3 : 1)) {
			snprintf(m->why, sizeof(m->why), "set-up failed");
			goto done;
		}
	}
	if (pipe(fd) == -1 || pipe(fd + 2) == -1)
		err(1, "pipe");
	/* fd[0], fd[1]: ready, read and write ends; fd[2], fd[3]: go */
	for (i = 0; i < n; i++) {
		pid[i] = spawn(c, kind, i == 0 ? WRITER : READER, &ab, &ba,
		    sh, pin, fd, i == 0 ? 0 : pid[0]);
		if (pid[i] == -1)
			break;
	}
	close(fd[1]);
	close(fd[2]);
	arm(SETUP_SECS);
	while (got < i && !interrupted && !alarmed) {
		ssize_t r = read(fd[0], &b, 1);

		if (r == 0 || (r == -1 && errno != EINTR))
			break;
		if (r == 1)
			got++;
	}
	arm(0);
	close(fd[0]);
	if (got < n && pid[0] > 0)
		kill(-pid[0], SIGKILL);
	if (kind == ONEWAY || kind == PINGPONG)
		budget = conf.budget;
	else
		budget = kind == ROUNDTRIPS ? conf.cap : 0;
	close(fd[3]);			/* go */
	slow = pid[0] > 0 ? reap(pid[0], pid, i, st, sh, budget) : 0;
	if (interrupted)
		snprintf(m->why, sizeof(m->why), "interrupted");
	else if (got < n)
		snprintf(m->why, sizeof(m->why), "%s",
		    sh->w.why[0] ? sh->w.why : sh->r.why[0] ? sh->r.why :
		    "set-up failed or took over 30 s");
	else if (slow)
		snprintf(m->why, sizeof(m->why), "did not finish: killed "
		    "after %d s", (int)budget + GRACE_SECS);
	else if (sh->w.why[0] || sh->r.why[0])
		snprintf(m->why, sizeof(m->why), "%s",
		    sh->w.why[0] ? sh->w.why : sh->r.why);
	else if (st[0] != 0)
		status_why(m->why, sizeof(m->why), "writer", st[0]);
	else if (st[1] != 0)
		status_why(m->why, sizeof(m->why), "reader", st[1]);
	else
		result(kind, sh, m);
done:
	if (opened & 1)
		c->close(&ab);
	if (opened & 2)
		c->close(&ba);
	shared_unmap(sh, sizeof(*sh));
}
