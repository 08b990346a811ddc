/*
 * Messages, usage, clocks and random numbers.
 */
#include "stress.h"

void
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

void
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
int
table_full(int e)
{
	if (e != ENOSPC)
		return 0;
	if (tot.full++ == 0)
		fprintf(stderr, "stress: warning: segment table full "
		    "(kernel.shmmni): some creates were skipped\n");
	return 1;
}

void
usage(FILE *fp, int status)
{
	fputs("usage: stress [-t seconds] [-w writers] [-n per-writer] "
	    "[-B bindir] [-c cases] [-p prefix]\n", fp);
	exit(status);
}

/* Clocks: monotonic for ordering events, wall for the kernel's ctime. */

long long
mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * NS + ts.tv_nsec;
}

void
nap(long long ns)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(ns / NS);
	ts.tv_nsec = (long)(ns % NS);
	nanosleep(&ts, NULL);
}

/* xorshift64*: reproducible enough, and each child reseeds by pid. */
uint64_t
rnd(void)
{
	seed ^= seed >> 12;
	seed ^= seed << 25;
	seed ^= seed >> 27;
	return seed * 2685821657736338717ULL;
}
