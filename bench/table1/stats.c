/*
 * The driver: medians and ratios of the measurements, and the table's
 * block for one size.
 */
#include "table1.h"

int
dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of the field at off in each good measurement; NAN if none. */
double
median(const struct meas *m, int runs, size_t off)
{
	double v[MAXRUNS];
	int i, k = 0;

	for (i = 0; i < runs; i++)
		if (m[i].ok)
			memcpy(&v[k++], (const char *)&m[i] + off,
			    sizeof(double));
	if (k == 0)
		return NAN;
	qsort(v, (size_t)k, sizeof(double), dcmp);
	return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

int
rowix(const char *name)
{
	return (int)(findrow(name) - rows);
}

/* The ratios' columns: our rows, and their headings. */
static const char *const ratnum[] = { "shmids", "shmids-notune",
    "sysv-raw", "shmids-file", "shmids-file-shm" };
static const char *const rathead[] = { "shmids", "notune", "sysv-raw",
    "file", "file-shm" };
#define NRAT	(sizeof(ratnum) / sizeof(ratnum[0]))

/* One ratio of totals, or "-" where BENCH_ROWS left a row out. */
static void
print_ratio(const char *what, const struct meas *med, const char *den,
    double paper)
{
	int d = rowix(den), k;
	size_t i;

	printf("%-12s", what);
	for (i = 0; i < NRAT; i++) {
		k = rowix(ratnum[i]);
		if (sel[k] && sel[d])
			printf(" %10.3f", med[k].total / med[d].total);
		else
			printf(" %10s", "-");
	}
	printf(" %10.3f\n", paper);
}

void
print_block(size_t n, int runs, const struct meas *med, FILE *csv)
{
	size_t i;

	printf("\nN = %zu doubles (%.1f MB), median of %d runs, seconds\n",
	    n, (double)n * 8 / 1e6, runs);
	printf("%-15s %10s %10s %10s %12s\n", "", "writer", "reader",
	    "total", "minor-faults");
	for (i = 0; i < NROWS; i++) {
		if (!sel[i])
			continue;
		printf("%-15s %10.4f %10.4f %10.4f %12.0f\n", rows[i].name,
		    med[i].w, med[i].r, med[i].total, med[i].flt);
		fprintf(csv, "%s,%zu,%d,%.6f,%.6f,%.6f,%.0f\n", rows[i].name,
		    n, runs, med[i].w, med[i].r, med[i].total, med[i].flt);
	}
	fflush(csv);
	printf("%-12s", "ratio(total)");
	for (i = 0; i < NRAT; i++)
		printf(" %10s", rathead[i]);
	printf(" %10s\n", "paper");
	print_ratio("shm:pipe", med, "pipe-bin", 0.375);
	print_ratio("shm:ascii", med, "ascii-pipe", 0.028);
	print_ratio("shm:malloc", med, "malloc", 1.5);
	print_faultcost("right after");
}
