/*
 * Small helpers of writers, readers and driver: the clock, memory, the
 * array's values and their sum.
 */
#include "table1.h"

double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void *
xmalloc(size_t n)
{
	void *p;

	if ((p = malloc(n ? n : 1)) == NULL)
		err(1, "malloc %zu", n);
	return p;
}

void
fill(double *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		x[i] = (double)i * 0.5;
}

/* The sum of i * 0.5 is exact in doubles up to n = 1.3e8. */
void
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
