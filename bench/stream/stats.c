/*
 * Medians, extremes and percentiles of the runs' figures.
 */
#include "stream.h"

int
dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[0..n), sorting v; NAN if n is 0. */
double
dmedian(double *v, int n)
{
	if (n < 1)
		return NAN;
	qsort(v, (size_t)n, sizeof(*v), dcmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double
dmin(const double *v, int n)
{
	double m = NAN;
	int i;

	for (i = 0; i < n; i++)
		if (i == 0 || v[i] < m)
			m = v[i];
	return m;
}

double
dmax(const double *v, int n)
{
	double m = NAN;
	int i;

	for (i = 0; i < n; i++)
		if (i == 0 || v[i] > m)
			m = v[i];
	return m;
}

/*
 * The p-th percentile (0 < p <= 100) of v[0..n), sorting v: the
 * smallest value at least p percent of v are at or below (nearest
 * rank).  NAN if n is 0.
 */
double
percentile(double *v, size_t n, double p)
{
	size_t k;

	if (n == 0)
		return NAN;
	qsort(v, n, sizeof(*v), dcmp);
	k = (size_t)ceil(p / 100 * (double)n);
	return v[k > 0 ? k - 1 : 0];
}
