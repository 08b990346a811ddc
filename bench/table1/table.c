/*
 * The driver: the table.
 */
#include "table1.h"

/* "200000 1e6,1e7" into sizes; the count. */
static int
parse_sizes(const char *s, size_t *sizes)
{
	char *e;
	double d;
	int k = 0;

	while (*s != '\0') {
		if (*s == ' ' || *s == ',' || *s == '\t') {
			s++;
			continue;
		}
		d = strtod(s, &e);
		if (e == s || d < 1 || d > 1e12 || d != floor(d) ||
		    k == MAXSIZES)
			errx(2, "BENCH_SIZES: bad size near \"%s\"", s);
		sizes[k++] = (size_t)d;
		s = e;
	}
	return k;
}

/* BENCH_ROWS, "shmids,malloc" or "shmids malloc", into sel; all if unset. */
static void
parse_rows(const char *s)
{
	char name[64];
	size_t i, k, any = 0;

	for (i = 0; i < NROWS; i++)
		sel[i] = s == NULL || *s == '\0';
	if (s == NULL || *s == '\0')
		return;
	while (*s != '\0') {
		if (*s == ' ' || *s == ',' || *s == '\t') {
			s++;
			continue;
		}
		k = strcspn(s, " ,\t");
		if (k >= sizeof(name))
			errx(2, "BENCH_ROWS: bad row near \"%s\"", s);
		memcpy(name, s, k);
		name[k] = '\0';
		sel[rowix(name)] = 1;
		any++;
		s += k;
	}
	if (any == 0)
		errx(2, "BENCH_ROWS: no rows");
}

int
envint(const char *name, int def, int min, int max)
{
	const char *s = getenv(name);
	char *e;
	long v;

	if (s == NULL || *s == '\0')
		return def;
	v = strtol(s, &e, 10);
	if (*e != '\0' || v < min || v > max)
		errx(2, "%s: want %d..%d", name, min, max);
	return (int)v;
}

static int
measure_size(size_t n, int runs, FILE *csv)
{
	static struct meas m[NROWS][MAXRUNS];
	struct meas med[NROWS];
	size_t i;
	int run, bad = 0;

	/* Rows interleaved, so that a slow spell hits every row alike. */
	for (run = 0; run < runs; run++)
		for (i = 0; i < NROWS; i++) {
			if (!sel[i])
				continue;
			run_row(&rows[i], n, &m[i][run]);
			bad |= !m[i][run].ok;
		}
	memset(med, 0, sizeof(med));
	for (i = 0; i < NROWS; i++) {
		if (!sel[i])
			continue;
		med[i].w = median(m[i], runs, offsetof(struct meas, w));
		med[i].r = median(m[i], runs, offsetof(struct meas, r));
		med[i].total = median(m[i], runs,
		    offsetof(struct meas, total));
		med[i].flt = median(m[i], runs, offsetof(struct meas, flt));
	}
	print_block(n, runs, med, csv);
	return bad;
}

/*
 * The memory a writer gets may have been handed back to the host: a VM
 * whose balloon reports free pages (virtio free page reporting, order 9
 * and up) makes the next touch of those pages fault in the host too.
 * Large folios (file segments on ext4) come from exactly those blocks;
 * 4 KiB pages mostly do not.  So the same row is timed twice: after an
 * idle pause (the first hand-over of a pipeline), and back-to-back,
 * right after an untimed run of the same row (a pipeline in steady
 * state).  The interleaved table above sits in between.
 */
static const char *const staterows[] = { "shmids", "sysv-raw",
    "shmids-file", "shmids-file-shm", "posix-shm-pop", "file-mmap-pop",
    "malloc" };

int
memstate(size_t n, int runs, FILE *csv)
{
	static struct meas m[2][MAXRUNS];
	struct meas scratch;
	unsigned idle = (unsigned)envint("BENCH_IDLE", 5, 0, 600);
	double med[2];
	size_t i;
	int k, run, st, bad = 0;

	printf("\nMemory state, N = %zu: total seconds, median of %d runs\n",
	    n, runs);
	printf("%-15s %12s %12s\n", "", "after idle", "back-to-back");
	for (i = 0; i < sizeof(staterows) / sizeof(staterows[0]); i++) {
		if (!sel[k = rowix(staterows[i])])
			continue;
		for (run = 0; run < runs; run++) {
			sleep(idle);
			check_stop();
			run_row(&rows[k], n, &m[0][run]);
			run_row(&rows[k], n, &scratch);
			run_row(&rows[k], n, &m[1][run]);
			bad |= !m[0][run].ok || !scratch.ok || !m[1][run].ok;
		}
		for (st = 0; st < 2; st++) {
			med[st] = median(m[st], runs, offsetof(struct meas,
			    total));
			fprintf(csv, "%s/%s,%zu,%d,%.6f,%.6f,%.6f,%.0f\n",
			    rows[k].name, st ? "b2b" : "idle", n, runs,
			    median(m[st], runs, offsetof(struct meas, w)),
			    median(m[st], runs, offsetof(struct meas, r)),
			    med[st], median(m[st], runs,
			    offsetof(struct meas, flt)));
		}
		printf("%-15s %12.4f %12.4f\n", rows[k].name, med[0], med[1]);
		fflush(stdout);
	}
	printf("after idle: a %u s pause before each run (BENCH_IDLE); "
	    "back-to-back: right after\nan untimed run of the same row\n",
	    idle);
	return bad;
}

/* The type of the file system dir is on, from the longest mount above it. */
const char *
fstype(const char *dir, char *buf, size_t len)
{
	char real[PATH_MAX];
	struct mntent *me;
	size_t best = 0, k;
	FILE *fp;

	snprintf(buf, len, "file system unknown");
	if (realpath(dir, real) == NULL ||
	    (fp = setmntent("/proc/self/mounts", "r")) == NULL)
		return buf;
	while ((me = getmntent(fp)) != NULL) {
		k = strlen(me->mnt_dir);
		if (strncmp(real, me->mnt_dir, k) != 0 ||
		    (k > 1 && real[k] != '\0' && real[k] != '/'))
			continue;
		if (k >= best) {	/* the later of two on one place */
			best = k;
			snprintf(buf, len, "%s", me->mnt_type);
		}
	}
	endmntent(fp);
	return buf;
}

/*
 * Make the directories of the file rows asked for, and say where they
 * are; a row whose directory cannot be made (or whose labels would be
 * too long) is left out, with a warning, and the table fails.
 */
static int
fdirs_setup(void)
{
	char fs[64];
	const char *sep = "file segments (SHMIDS_DIR): ";
	size_t i, j;
	int f, bad = 0;

	for (i = 0; i < NROWS; i++) {
		f = rows[i].fdir;
		if (!sel[i] || f == FD_NONE || fdirs[f].made)
			continue;
		/* The writer's name is the prefix and "x". */
		if (fdir_make(&fdirs[f], f == FD_TMP ? tmpdir() : SHMDIR,
		    prefix, strlen(prefix) + 1) == 0)
			continue;
		warn("%s: %s/%sdir: row left out", rows[i].name,
		    f == FD_TMP ? tmpdir() : SHMDIR, prefix);
		bad = 1;
		for (j = 0; j < NROWS; j++)
			if (rows[j].fdir == f)
				sel[j] = 0;
	}
	for (f = FD_TMP; f < FD_N; f++) {
		if (!fdirs[f].made)
			continue;
		printf("%s%s in %s (%s)", sep, f == FD_TMP ? "shmids-file" :
		    "shmids-file-shm", fdirs[f].path,
		    fstype(fdirs[f].path, fs, sizeof(fs)));
		sep = "; ";
	}
	if (*sep == ';')
		printf("\n");
	return bad;
}

int
table(const char *csvpath)
{
	size_t sizes[MAXSIZES];
	const char *s = getenv("BENCH_SIZES");
	char fs1[64], fs2[64];
	int nsizes, runs, i, bad = 0;
	FILE *csv;

	if (s == NULL || *s == '\0')
		s = quick ? "200000 1e6" : "200000 1e6 1e7";
	nsizes = parse_sizes(s, sizes);
	runs = envint("BENCH_RUNS", quick ? 3 : 5, 1, MAXRUNS);
	parse_rows(getenv("BENCH_ROWS"));
	if ((csv = fopen(csvpath, "w")) == NULL)
		err(1, "%s", csvpath);
	fprintf(csv, "row,n,runs,writer_s,reader_s,total_s,minor_faults\n");
	printf("Table 1: x[i] = i * 0.5 written, handed over, read and "
	    "summed; rows run interleaved\n");
	printf("posix-shm objects in %s (%s); file-mmap and file-bin files "
	    "in %s (%s)\n", SHMDIR, fstype(SHMDIR, fs1, sizeof(fs1)),
	    tmpdir(), fstype(tmpdir(), fs2, sizeof(fs2)));
	bad = fdirs_setup();
	for (i = 0; i < nsizes; i++)
		bad |= measure_size(sizes[i], runs, csv);
	if (!quick && nsizes > 0 && sizes[nsizes - 1] >= 10000000 &&
	    envint("BENCH_STATE", 1, 0, 1))
		bad |= memstate(sizes[nsizes - 1], runs, csv);
	if (fclose(csv) == EOF)
		err(1, "%s", csvpath);
	printf("\nCSV: %s\n", csvpath);
	target_faults();
	if (sweep(prefix, 0) != 0)
		warnx("segments were left behind (removed now)");
	if (sweep_files(prefix) != 0)
		warnx("shm objects or temp files were left behind "
		    "(removed now)");
	if (sweep_fdirs() != 0)
		warnx("file segments were left behind (removed now)");
	return bad;
}
