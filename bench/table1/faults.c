/*
 * The cost of one page fault on this machine, now: what the Table 1
 * totals at large N mostly are (issue 9 target 7).  The same VM has
 * shown 2.5 to 18 microseconds per fault on different days, which moves
 * every ratio against malloc; printed next to the ratios, it tells the
 * machine from the code.
 *
 * A fresh anonymous mapping (MADV_NOHUGEPAGE, so 4 KiB faults even with
 * THP) and a fresh System V segment (IPC_PRIVATE, marked for removal
 * at once, so it dies with us) of FPAGES pages are written one byte a
 * page; the time over the minor faults counted (getrusage), the median
 * of FRUNS rounds.  The time is this process's CPU time
 * (CLOCK_PROCESS_CPUTIME_ID), which other work on the machine moves
 * less than the wall clock; the wall clock's figure is printed too.
 */
#include "table1.h"

#define FPAGES	8192		/* 32 MiB of 4 KiB pages */
#define FRUNS	7

static long
minflt(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

static double
cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Microseconds of CPU per fault of one first touch of len bytes at p,
 * and of wall clock in *wall; -1 if no fault was counted. */
static double
touch(volatile char *p, size_t len, size_t pg, double *wall)
{
	long f0 = minflt();
	double c0 = cpu(), t0 = now(), c, t;
	size_t i;

	for (i = 0; i < len; i += pg)
		p[i] = 1;
	c = cpu() - c0;
	t = now() - t0;
	f0 = minflt() - f0;
	*wall = f0 > 0 ? t * 1e6 / (double)f0 : -1;
	return f0 > 0 ? c * 1e6 / (double)f0 : -1;
}

static double
anon_once(size_t len, size_t pg, double *wall)
{
	char *p;
	double us;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	    -1, 0);
	if (p == MAP_FAILED)
		return *wall = -1;
#ifdef MADV_NOHUGEPAGE
	(void)madvise(p, len, MADV_NOHUGEPAGE);
#endif
	us = touch(p, len, pg, wall);
	munmap(p, len);
	return us;
}

static double
sysv_once(size_t len, size_t pg, double *wall)
{
	char *p;
	double us;
	int id;

	if ((id = shmget(IPC_PRIVATE, len, IPC_CREAT | 0600)) == -1)
		return *wall = -1;
	p = shmat(id, NULL, 0);
	shmctl(id, IPC_RMID, NULL);
	if (p == (void *)-1)
		return *wall = -1;
	us = touch(p, len, pg, wall);
	shmdt(p);
	return us;
}

static double
med(double *v)
{
	qsort(v, FRUNS, sizeof(double), dcmp);
	return v[FRUNS / 2];
}

/* The median of FRUNS rounds of each, interleaved, CPU and wall clock
 * (f[0] anonymous, f[1] System V, f[2] and f[3] their wall clock); -1
 * where it failed. */
void
faultcost(double f[4])
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), len = FPAGES * pg;
	double a[FRUNS], s[FRUNS], aw[FRUNS], sw[FRUNS];
	int i;

	for (i = 0; i < FRUNS; i++) {
		a[i] = anon_once(len, pg, &aw[i]);
		s[i] = sysv_once(len, pg, &sw[i]);
	}
	f[0] = med(a);
	f[1] = med(s);
	f[2] = med(aw);
	f[3] = med(sw);
}

/* The lowest and highest of the medians printed so far. */
static double lo[2] = { 1e300, 1e300 }, hi[2] = { -1, -1 };

static void
keep(int k, double v)
{
	if (v < 0)
		return;
	lo[k] = v < lo[k] ? v : lo[k];
	hi[k] = v > hi[k] ? v : hi[k];
}

void
print_faultcost(const char *when)
{
	double f[4];

	faultcost(f);
	keep(0, f[0]);
	keep(1, f[1]);
	printf("page fault cost %s (first write of %d pages, median of %d, "
	    "CPU per fault): anonymous %.2f us, System V %.2f us (wall clock "
	    "%.2f and %.2f)\n", when, FPAGES, FRUNS, f[0], f[1], f[2], f[3]);
	fflush(stdout);
}

/* Target 7's line for bench/run's summary: the range seen this run. */
void
target_faults(void)
{
	if (hi[0] < 0 || hi[1] < 0) {
		printf("target 7: page fault cost: not measured: not met\n");
		return;
	}
	printf("target 7: page fault cost next to the Table 1 ratios: "
	    "anonymous %.2f-%.2f us, System V %.2f-%.2f us (printed): met\n",
	    lo[0], hi[0], lo[1], hi[1]);
}

int
faults(void)
{
	print_faultcost("now");
	target_faults();
	return 0;
}
