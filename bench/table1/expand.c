/*
 * shm-expand: throughput and peak RSS.
 */
#include "table1.h"

static char *
make_seg(size_t n, int thirds, char *label)
{
	char name[SHMIDS_NAME_MAX + 1];
	double *x;
	size_t i;
	char *shm;

	snprintf(name, sizeof(name), "%se", prefix);
	if ((shm = shmids_create_array(name, 0600, SHMIDS_F64, n)) == NULL)
		err(1, "create %s", name);
	x = (double *)(void *)(shm + SHMIDS_HEADER);
	if (thirds)
		for (i = 0; i < n; i++)
			x[i] = (double)(i + 1) / 3;
	else
		fill(x, n);
	snprintf(label, SHMIDS_LABEL_MAX + 1, "%s", shm);
	shmids_close(shm);
	return label;
}

/* One shm-expand of label; seconds, and bytes out and peak RSS (KiB). */
static double
expand_once(const char *label, size_t *bytes, long *rss)
{
	char tool[4096], line[128], buf[65536];
	const char *v[2];
	struct args a;
	struct kid k;
	int in[2], out[2];
	double t0 = now();
	ssize_t len;

	snprintf(tool, sizeof(tool), "%s/shm-expand", bindir);
	xpipe(in);
	xpipe(out);
	v[0] = tool, v[1] = NULL;
	spawn(&k, 0, tool, mkargv(&a, v), in[0], out[1], -1);
	close(in[0]);
	close(out[1]);
	writeall(in[1], line, (size_t)snprintf(line, sizeof(line),
	    "x shmids %s\n", label));
	close(in[1]);
	*bytes = 0;
	while ((len = read(out[0], buf, sizeof(buf))) != 0) {
		if (len == -1 && errno == EINTR)
			continue;
		if (len == -1)
			break;
		*bytes += (size_t)len;
	}
	close(out[0]);
	if (reap(&k, 0) == -1)
		errx(1, "shm-expand failed");
	*rss = k.ru.ru_maxrss;
	return now() - t0;
}

static void
expand_case(size_t n, int thirds, int runs)
{
	char label[SHMIDS_LABEL_MAX + 1];
	double t[MAXRUNS], med;
	size_t bytes = 0;
	long rss, maxrss = 0;
	int i;

	make_seg(n, thirds, label);
	for (i = 0; i < runs && !stop; i++) {
		t[i] = expand_once(label, &bytes, &rss);
		maxrss = rss > maxrss ? rss : maxrss;
	}
	if (shmids_remove(label) == -1)
		warn("remove %s", label);
	check_stop();
	qsort(t, (size_t)runs, sizeof(double), dcmp);
	med = t[runs / 2];
	printf("%-8s %9zu %8.1f MB %8.3f s %7.2f Mval/s %7.1f MB/s "
	    "%8ld KiB %8.0f KiB\n", thirds ? "i/3" : "i*0.5", n,
	    (double)bytes / 1e6, med, (double)n / med / 1e6,
	    (double)bytes / med / 1e6, maxrss,
	    (double)maxrss - (double)(n * 8 + SHMIDS_HEADER) / 1024);
}

int
expand(void)
{
	size_t big = quick ? 1000000 : 10000000;
	int runs = envint("BENCH_RUNS", quick ? 3 : 5, 1, MAXRUNS);

	runs = runs > 3 ? 3 : runs;
	printf("\nshm-expand: one reference line to ASCII (default 80 "
	    "columns), median of %d runs\n", runs);
	printf("%-8s %9s %11s %10s %13s %12s %12s %12s\n", "values", "count",
	    "out", "time", "rate", "throughput", "peak RSS", "RSS-segment");
	expand_case(big / 10, 0, runs);
	expand_case(big / 10, 1, runs);
	expand_case(big, 0, runs);
	expand_case(big, 1, runs);
	return 0;
}
