/*
 * shm-import's run and how it ends (run.h): output, signals, undo.
 */
#include <err.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "run.h"

volatile sig_atomic_t run_stopped;

static struct {
	void	(*undo)(void *);
	void	 *arg;
	int	  unflushed;	/* run_out() wrote since the last flush */
} run;

static void
onsignal(int sig)
{
	run_stopped = sig;
}

void
run_init(void (*undo)(void *), void *arg)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa, old;
	size_t i;

	run.undo = undo;
	run.arg = arg;
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
undo(void)
{
	if (run.undo != NULL)
		run.undo(run.arg);
}

void
run_check(void)
{
	int sig = run_stopped;

	if (sig == 0)
		return;
	undo();
	signal(sig, SIG_DFL);
	raise(sig);
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
	run_check();
	errno = e;
	if (e != EPIPE)
		warn("stdout");
	undo();
	if (e == EPIPE) {
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
	}
	exit(1);
}

void
run_out(const char *s, size_t n)
{
	run.unflushed = 1;
	if (fwrite(s, 1, n, stdout) != n)
		out_failed();
}

/*
 * Before a read that would block (lines.h): what is written goes out, so
 * that the next program of a live pipeline has each reference line (and
 * the text before it) as soon as it is made, not when a buffer fills or
 * the input ends (issue 33).
 */
int
run_flush(int now)
{
	if (!now)
		return run.unflushed;
	run.unflushed = 0;
	if (fflush(stdout) == EOF)
		out_failed();
	return 0;
}

/*
 * Input that cannot be read to its end (a read error, or a line too long
 * for the memory: ENOMEM) takes back every segment made so far, as
 * output that cannot be written does: the output is not whole.
 */
void
run_fail_input(const char *fname, unsigned long lineno)
{
	int e = errno;

	run_check();
	errno = e;
	msg_read_error(fname, lineno);
	run_die();
}

void
run_die(void)
{
	undo();
	exit(1);
}

int
run_end(void)
{
	/*
	 * The last output goes out as the rest did: a reader gone by now
	 * (EPIPE) is SIGPIPE without a diagnostic, as in run_out().
	 */
	if (fflush(stdout) == EOF)
		out_failed();
	if (msg_close_stdout() == -1) {
		undo();
		return -1;
	}
	return 0;
}
