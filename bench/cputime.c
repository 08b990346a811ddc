/*
 * cputime: run a command and write its CPU time (user + system, in
 * seconds, to the microsecond) to a file, as /usr/bin/time -f %U+%S -o
 * does to the hundredth: bench/live times tools that take 0.1 to 0.4 s,
 * where a hundredth is up to a tenth of the figure.  stdin, stdout and
 * stderr are the command's; the exit status is its own (128 + the
 * signal that ended it; 127 if it could not run).
 *
 *	cputime out command [arg ...]
 */
#define _DEFAULT_SOURCE		/* wait4(2) on glibc */
#include <sys/types.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	struct rusage ru;
	pid_t pid;
	FILE *fp;
	int st;

	if (argc < 3) {
		fprintf(stderr, "usage: cputime out command [arg ...]\n");
		return 2;
	}
	if ((pid = fork()) == -1)
		err(2, "fork");
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		warn("%s", argv[2]);
		_exit(127);
	}
	while (wait4(pid, &st, 0, &ru) == -1)
		if (errno != EINTR)
			err(2, "wait4");
	if ((fp = fopen(argv[1], "w")) == NULL)
		err(2, "%s", argv[1]);
	fprintf(fp, "%.6f\n", (double)ru.ru_utime.tv_sec +
	    (double)ru.ru_stime.tv_sec + ((double)ru.ru_utime.tv_usec +
	    (double)ru.ru_stime.tv_usec) * 1e-6);
	if (fclose(fp) == EOF)
		err(2, "%s", argv[1]);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}
