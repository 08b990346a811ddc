/*
 * Processes and pipes.
 */
#include "stress.h"

static void
on_signal(int sig)
{
	stopsig = sig;
}

void
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
int
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

void
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

void
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

int
is_maker(pid_t pid)
{
	size_t i;

	for (i = 0; i < nmakers; i++)
		if (makers[i] == pid)
			return 1;
	return 0;
}

/* fork(2); maker says the child may make segments the sweep must find. */
pid_t
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
void
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
int
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

int
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
pid_t
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
