/*
 * table1 stage row n w|f|r: one stage of the 3-stage pipeline
 * (pipeline.c says which rows there are), with stdin and stdout the
 * pipes to the stages before and after it.  A segment row's writer and
 * filter report on fd 3 the page size their array got.
 */
#define _GNU_SOURCE		/* memmem(3) */
#include "table1.h"

/*
 * The share of 2 MiB pages in the mapping holding p, as
 * /proc/self/smaps tells it, and how, in how: "2MiB-hugetlb",
 * "2MiB-THP" (more than half its resident bytes mapped by PMD) or
 * "4KiB"; -1 if the mapping is not found.
 */
double
hugeshare(const void *p, char *how, size_t len)
{
	char line[512];
	uintmax_t lo, hi, a = (uintmax_t)(uintptr_t)p;
	double rss = 0, pmd = 0, kps = 0, v;
	int in = 0;
	FILE *fp;

	snprintf(how, len, "unknown");
	if ((fp = fopen("/proc/self/smaps", "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (sscanf(line, "%jx-%jx ", &lo, &hi) == 2) {
			if (in)
				break;
			in = a >= lo && a < hi;
			continue;
		}
		if (!in)
			continue;
		if (sscanf(line, "Rss: %lf", &v) == 1)
			rss = v;
		else if (sscanf(line, "ShmemPmdMapped: %lf", &v) == 1 ||
		    sscanf(line, "FilePmdMapped: %lf", &v) == 1)
			pmd += v;
		else if (sscanf(line, "KernelPageSize: %lf", &v) == 1)
			kps = v;
	}
	fclose(fp);
	if (!in)
		return -1;
	if (kps >= 2048) {
		snprintf(how, len, "2MiB-hugetlb");
		return 1;
	}
	v = rss > 0 ? pmd / rss : 0;
	snprintf(how, len, "%s", v > 0.5 ? "2MiB-THP" : "4KiB");
	return v;
}

static void
report_pages(const void *p)
{
	char how[32];
	double s = hugeshare(p, how, sizeof(how));

	if (fcntl(3, F_GETFD) != -1)
		dprintf(3, "h %.4f %s\n", s, how);
	else
		fprintf(stderr, "pages: %s (%.0f%% in 2 MiB)\n", how, s * 100);
}

/* The sum of mult * i * 0.5 over i < n, exact in doubles up to 1.3e8. */
static void
check(const double *x, size_t n, double mult)
{
	double s = 0, want;
	size_t i;

	for (i = 0; i < n; i++)
		s += x[i];
	want = n < 2 ? 0 : (double)((uint64_t)n * (n - 1) / 2) * 0.5 * mult;
	if (fabs(s - want) > want * 1e-12)
		errx(1, "sum %.17g, want %.17g", s, want);
}

/* The line the stage before us printed, without its newline. */
static char *
inline_(char *buf, size_t len)
{
	if (fgets(buf, (int)len, stdin) == NULL)
		errx(1, "no reference line on stdin");
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/* "x shmids <label>": the label. */
static const char *
reflabel(char *line)
{
	const char *p = strstr(line, " shmids ");

	if (p == NULL)
		errx(1, "not a reference line: %.60s", line);
	return p + 8;
}

static double *
seg_in(const char *label, size_t n, void **shm)
{
	struct shmids_array a;

	if ((*shm = shmids_open_flags(label, 0, 0)) == NULL ||
	    shmids_array(*shm, &a) == -1)
		err(1, "%s", label);
	if (a.type != SHMIDS_F64 || a.count != n)
		errx(1, "%s: type %d count %zu", label, a.type, a.count);
	return a.data;
}

static char *
seg_out(const char *tag, size_t n)
{
	char name[SHMIDS_NAME_MAX + 1];
	char *shm;

	snprintf(name, sizeof(name), "%s%s", env_prefix(), tag);
	if ((shm = shmids_create_array(name, 0600, SHMIDS_F64, n)) == NULL)
		err(1, "create %s", name);
	return shm;
}

/* Print the reference line after the seal, as the paper's writers do. */
static void
seg_pass(const char *key, char *shm)
{
	char label[SHMIDS_LABEL_MAX + 1];

	snprintf(label, sizeof(label), "%s", shm);
	if (shmids_close(shm) == -1)
		err(1, "close");
	printf("%s shmids %s\n", key, label);
	if (fflush(stdout) == EOF)
		err(1, "stdout");
}

static void
seg_stage(int what, size_t n)
{
	char line[256];
	const char *label;
	double *x, *y;
	void *in;
	char *out;
	size_t i;

	if (what == 'w') {
		out = seg_out("pw", n);
		x = (double *)(void *)(out + SHMIDS_HEADER);
		fill(x, n);
		report_pages(x);
		seg_pass("x", out);
		return;
	}
	label = reflabel(inline_(line, sizeof(line)));
	x = seg_in(label, n, &in);
	if (what == 'f') {
		out = seg_out("pf", n);
		y = (double *)(void *)(out + SHMIDS_HEADER);
		for (i = 0; i < n; i++)
			y[i] = 2 * x[i];
		report_pages(y);
		seg_pass("y", out);
	} else {
		check(x, n, 2);
	}
	if (shmids_close(in) == -1)
		err(1, "close");
	if (shmids_remove(label) == -1)
		err(1, "remove %s", label);
}

/* numpy's .npy, version 1.0: magic, header length, a dict, the data. */
static void
npy_write(const double *x, size_t n)
{
	char path[PATH_MAX], hdr[128], dict[118];
	size_t k;
	int fd;

	snprintf(path, sizeof(path), "%s/%snp-%ld", SHMDIR, env_prefix(),
	    (long)getpid());
	k = (size_t)snprintf(dict, sizeof(dict), "{'descr': '<f8', "
	    "'fortran_order': False, 'shape': (%zu,), }", n);
	memset(hdr, ' ', sizeof(hdr));
	memcpy(hdr, "\x93NUMPY\x01\x00\x76\x00", 10);	/* 118 bytes */
	memcpy(hdr + 10, dict, k);
	hdr[127] = '\n';
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600)) == -1)
		err(1, "%s", path);
	writeall(fd, hdr, sizeof(hdr));
	writeall(fd, x, n * sizeof(double));
	if (close(fd) == -1)
		err(1, "close %s", path);
	printf("%s\n", path);
	if (fflush(stdout) == EOF)
		err(1, "stdout");
}

/* Read the whole array as numpy.load does, then unlink the file. */
static double *
npy_read(size_t n)
{
	char path[PATH_MAX], hdr[128], want[64];
	double *x = xmalloc(n * sizeof(double));
	int fd;

	inline_(path, sizeof(path));
	if (strncmp(path, SHMDIR "/", sizeof(SHMDIR)) != 0 ||
	    (fd = open(path, O_RDONLY)) == -1)
		err(1, "%s", path);
	snprintf(want, sizeof(want), "'shape': (%zu,)", n);
	if (read(fd, hdr, sizeof(hdr)) != (ssize_t)sizeof(hdr) ||
	    memcmp(hdr, "\x93NUMPY", 6) != 0 || hdr[127] != '\n' ||
	    memmem(hdr, sizeof(hdr), want, strlen(want)) == NULL)
		errx(1, "%s: not a .npy of %zu doubles", path, n);
	readall(fd, x, n * sizeof(double));
	close(fd);
	if (unlink(path) == -1)
		err(1, "unlink %s", path);
	return x;
}

static void
stream_stage(const struct prow *pr, int what, size_t n)
{
	double *x;
	size_t i;

	if (what == 'w') {
		x = xmalloc(n * sizeof(double));
		fill(x, n);
	} else if (pr->kind == PK_NPY) {
		x = npy_read(n);
	} else {
		x = xmalloc(n * sizeof(double));
		if (pr->kind == PK_BIN)
			readall(0, x, n * sizeof(double));
		else
			read_text(x, n, PRINTF);
	}
	if (what == 'r') {
		check(x, n, 2);
		free(x);
		return;
	}
	if (what == 'f')
		for (i = 0; i < n; i++)
			x[i] *= 2;
	if (pr->kind == PK_NPY)
		npy_write(x, n);
	else if (pr->kind == PK_BIN)
		writeall(1, x, n * sizeof(double));
	else
		write_text(x, n, PRINTF);
	free(x);
}

/* table1 stage row n w|f|r: one stage, stdin and stdout the pipes. */
int
stage(const char *row, const char *what, size_t n)
{
	const struct prow *pr = findprow(row);

	if (strlen(what) != 1 || strchr("wfr", *what) == NULL)
		errx(2, "%s: want w, f or r", what);
	if (pr->kind == PK_SEG)
		seg_stage(*what, n);
	else
		stream_stage(pr, *what, n);
	return 0;
}

