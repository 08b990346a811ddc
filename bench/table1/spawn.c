/*
 * The driver's plumbing: signals, pipes, starting and reaping children.
 */
#include "table1.h"

static void
onsig(int sig)
{
	int e = errno;

	stop = sig;
	if (kids[0] > 0)
		kill(kids[0], SIGTERM);
	if (kids[1] > 0)
		kill(kids[1], SIGTERM);
	if (kids[2] > 0)
		kill(kids[2], SIGTERM);
	errno = e;
}

void
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
void
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
char **
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
char **
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
void
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
int
reap(struct kid *k, int slot)
{
	char buf[256], *p, *q, *e;
	ssize_t len;

	k->huge = -1;
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
		else if (*p == 'h')	/* "h <share> <how>" (pipeline.c) */
			k->huge = strtod(p + 1, &e), sscanf(e, " %31s",
			    k->pages);
	}
	return WIFEXITED(k->status) && WEXITSTATUS(k->status) == 0 ? 0 : -1;
}

/* Everything fd gives until end of file, up to len - 1 bytes kept. */
size_t
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
