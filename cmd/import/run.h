/*
 * shm-import's run and how it ends: its output, the signals that stop
 * it, and the undo of what it made.  Output that cannot be written,
 * input that cannot be read to its end, or SIGINT, SIGTERM or SIGHUP
 * take back everything the run made (the undo run_init() was given:
 * the sink's, sink.h) before the run ends: nothing stays that output
 * not written in full would have referenced.
 */
#ifndef IMPORT_RUN_H
#define IMPORT_RUN_H

#include <signal.h>
#include <stddef.h>

/*
 * What takes back what the run made, undo(arg); and the signals caught
 * (one ignored on entry stays ignored), SIGPIPE and SIGXFSZ ignored: a
 * write or a file that fails says so as an error of its call.
 */
void	 run_init(void (*undo)(void *), void *arg);
/* Set by the handler of SIGINT, SIGTERM and SIGHUP: the signal. */
extern volatile sig_atomic_t run_stopped;
/*
 * A signal came: everything made is taken back, and the run dies of
 * that signal; else nothing.  Called between lines, and between a
 * long array's runs.
 */
void	 run_check(void);
/* Write s[0..n) to stdout; output that cannot be written ends the run. */
void	 run_out(const char *s, size_t n);
/*
 * For lines_init()'s waiting: with now 0, whether anything was written
 * since the last flush; with now 1, flush it (a failure ends the run).
 */
int	 run_flush(int now);
/*
 * Line lineno of fname cannot be read (errno: a read error, or ENOMEM
 * for a line too long for the memory): said, everything made taken
 * back, exit 1.
 */
void	 run_fail_input(const char *fname, unsigned long lineno);
/* After a diagnostic that ends the run: everything made taken back, exit 1. */
void	 run_die(void);
/*
 * The end: the last output flushed and stdout closed.  0, or -1 after a
 * diagnostic (everything made taken back); a reader gone (EPIPE) dies
 * of SIGPIPE, as in run_out().
 */
int	 run_end(void);

#endif
