/*
 * table1 pipeline: the 3-stage pipeline of issue 31 (a writer sets n
 * doubles, x[i] = i * 0.5; a filter doubles them; a reader sums and
 * checks them), three processes started together and joined by pipes,
 * as a shell runs "w | f | r", in every way of handing the arrays on:
 *
 *	sysv	 shmids System V segments (the library's default backend)
 *	file-4k	 shmids file segments, SHMIDS_DIR on a tmpfs mounted
 *		 huge=never (private, see below; else /dev/shm as it is)
 *	file-2m	 the same on a tmpfs mounted huge=within_size
 *	text	 "%.17g" lines through the pipes, whole arrays
 *	binary	 whole arrays of bytes through the pipes
 *	npy	 a .npy file on tmpfs (/dev/shm) a stage, read whole
 *
 * Each stage of a segment row passes the next one its reference line;
 * the filter and the reader remove the segment they read, the npy
 * stages the file they read, so removal is in the times.  A row's time
 * is the wall time of all three processes and their CPU time (user and
 * system, summed); the target compares CPU, which the other work on a
 * shared machine moves least.  Rows run interleaved, round by round.
 *
 * The page size a row got is read, not assumed: the writer and the
 * filter look up the mapping of the array they filled in
 * /proc/self/smaps (ShmemPmdMapped against Rss: transparent 2 MiB
 * pages; KernelPageSize 2048 kB: hugetlb) and report it on fd 3.  The
 * stages are stage.c's.
 *
 * The two tmpfs mounts need root: the driver unshares its mount
 * namespace (unshare(2) CLONE_NEWNS, all mounts private), mounts them on
 * $TMPDIR/<prefix>mnt4k and <prefix>mnt2m, and at exit unmounts them
 * and removes the directories; nothing outside this process sees them,
 * and no machine-wide setting is read other than to say what it is.
 * As a plain user file-4k goes to /dev/shm and file-2m is not measured
 * unless BENCH_HUGEDIR names a directory on a tmpfs mounted huge= (as
 * /run/shmids, make install-systemd's run-shmids.mount), where it makes
 * and removes <prefix>dir (as root too: then nothing is mounted for it).
 * System V gets 2 MiB pages only from machine-wide settings
 * (shmem_enabled, or a hugetlb pool); the sysv row says which it got
 * and the summary what it would need.
 */
#define _GNU_SOURCE		/* unshare(2) */
#include "table1.h"

#include <sched.h>
#include <sys/mount.h>

const struct prow prows[] = {
	{ "sysv",	PK_SEG,	PD_SYSV, "shmids, System V segments" },
	{ "file-4k",	PK_SEG,	PD_4K,	"shmids, file segments, tmpfs huge=never" },
	{ "file-2m",	PK_SEG,	PD_2M,	"shmids, file segments, tmpfs huge=within_size" },
	{ "text",	PK_TEXT, PD_NONE, "%.17g text through pipes" },
	{ "binary",	PK_BIN,	PD_NONE, "whole arrays through pipes" },
	{ "npy",	PK_NPY,	PD_NONE, ".npy files on tmpfs (/dev/shm)" },
};
/* NPROWS is how many rows there are, or this fails to compile. */
typedef char nprows_is_right[sizeof(prows) / sizeof(prows[0]) == NPROWS ?
    1 : -1];

struct pmeas {
	double		 wall, cpu;
	double		 huge;		/* the writer's share of 2 MiB pages */
	char		 pages[64];
	int		 ok;
};

/* The tmpfs mounts of file-4k and file-2m, and their SHMIDS_DIR. */
static struct {
	char		 mnt[PATH_MAX];
	int		 mounted;
	struct filedir	 d;
	char		 why[320];	/* why there is none */
} pd[PD_NONE];

const struct prow *
findprow(const char *name)
{
	size_t i;

	for (i = 0; i < NPROWS; i++)
		if (strcmp(prows[i].name, name) == 0)
			return &prows[i];
	errx(2, "%s: no such pipeline row", name);
}

static void
unmount_all(void)
{
	int i;

	for (i = PD_4K; i < PD_NONE; i++) {
		if (pd[i].d.made && !pd[i].mounted)
			fdir_remove(&pd[i].d);	/* in BENCH_HUGEDIR */
		if (pd[i].d.made)
			fdir_empty(&pd[i].d);
		pd[i].d.made = 0;
		if (pd[i].mounted && umount2(pd[i].mnt, MNT_DETACH) == -1)
			warn("umount %s", pd[i].mnt);
		if (pd[i].mounted && rmdir(pd[i].mnt) == -1)
			warn("rmdir %s", pd[i].mnt);
		pd[i].mounted = 0;
	}
}

/*
 * A private tmpfs with opts on $TMPDIR/<prefix><tag>, as pd[i]'s
 * SHMIDS_DIR; else pd[i].why says why not.
 */
static void
mount_one(int i, const char *tag, const char *opts, size_t bytes)
{
	char o[128], mnt[PATH_MAX];

	snprintf(mnt, sizeof(mnt), "%s/%s%s", tmpdir(), prefix, tag);
	snprintf(pd[i].mnt, sizeof(pd[i].mnt), "%s", mnt);
	if (mkdir(mnt, 0700) == -1) {
		snprintf(pd[i].why, sizeof(pd[i].why), "mkdir %.200s: %s", mnt,
		    strerror(errno));
		return;
	}
	snprintf(o, sizeof(o), "%s,size=%zuk,mode=0700", opts,
	    bytes / 1024 + 1024);
	if (mount("tmpfs", pd[i].mnt, "tmpfs", MS_NOSUID | MS_NODEV, o) ==
	    -1) {
		snprintf(pd[i].why, sizeof(pd[i].why), "mount -t tmpfs -o %s: "
		    "%s%s", o, strerror(errno), errno == EINVAL ? " (a kernel "
		    "without transparent huge pages for tmpfs?)" : "");
		rmdir(pd[i].mnt);
		return;
	}
	pd[i].mounted = 1;
	if (realpath(pd[i].mnt, pd[i].d.path) == NULL)
		err(1, "%s", pd[i].mnt);
	pd[i].d.made = 1;
	if (strlen(pd[i].d.path) + 14 + 11 + 1 + strlen(prefix) + 2 >
	    SHMIDS_LABEL_MAX) {
		snprintf(pd[i].why, sizeof(pd[i].why), "%.200s: labels in it "
		    "would pass %d bytes", mnt, SHMIDS_LABEL_MAX);
		pd[i].d.made = 0;
		pd[i].d.path[0] = '\0';
		if (umount2(mnt, MNT_DETACH) == 0)
			pd[i].mounted = 0, rmdir(mnt);
	}
}

static void
mounts_setup(size_t n)
{
	size_t bytes = 3 * (n * sizeof(double) + 4096) + (4 << 20);
	const char *hd = getenv("BENCH_HUGEDIR");

	atexit(unmount_all);
	stop_hook = unmount_all;	/* check_stop() exits by the signal */
	/* A directory on a tmpfs mounted huge= already: no mount for 2m. */
	if (hd != NULL && *hd != '\0') {
		if (fdir_make(&pd[PD_2M].d, hd, prefix, strlen(prefix) + 2) ==
		    -1)
			snprintf(pd[PD_2M].why, sizeof(pd[PD_2M].why),
			    "BENCH_HUGEDIR %.200s: %s", hd, strerror(errno));
		hd = "";
	}
	if (geteuid() != 0) {
		if (hd == NULL)
			snprintf(pd[PD_2M].why, sizeof(pd[PD_2M].why), "needs "
			    "root for a private tmpfs mounted huge=within_size "
			    "(unshare -m), or BENCH_HUGEDIR, a directory on "
			    "such a tmpfs (e.g. /run/shmids)");
	} else if (unshare(CLONE_NEWNS) == -1 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == -1) {
		if (hd == NULL)
			snprintf(pd[PD_2M].why, sizeof(pd[PD_2M].why), "needs "
			    "a private mount namespace: %s", strerror(errno));
	} else {
		mount_one(PD_4K, "mnt4k", "huge=never", bytes);
		if (hd == NULL)
			mount_one(PD_2M, "mnt2m", "huge=within_size", bytes);
	}
	/* Else file-4k runs in /dev/shm as it is mounted. */
	if (!pd[PD_4K].d.made) {
		if (fdir_make(&fdirs[FD_SHM], SHMDIR, prefix, strlen(prefix) +
		    2) == 0) {
			snprintf(pd[PD_4K].d.path, sizeof(pd[PD_4K].d.path),
			    "%s", fdirs[FD_SHM].path);
			pd[PD_4K].why[0] = '\0';	/* fdirs[] owns it */
		} else {
			snprintf(pd[PD_4K].why, sizeof(pd[PD_4K].why),
			    "%s/%sdir: %s", SHMDIR, prefix, strerror(errno));
		}
	}
}

static const char *
rowdir(const struct prow *pr)
{
	if (pr->dir == PD_4K || pr->dir == PD_2M)
		return pd[pr->dir].d.path[0] != '\0' && pd[pr->dir].why[0] ==
		    '\0' ? pd[pr->dir].d.path : NULL;
	return NULL;
}

static int
row_runs(const struct prow *pr)
{
	return pr->dir == PD_SYSV || pr->dir == PD_NONE || rowdir(pr) != NULL;
}

static double
cpu(const struct rusage *ru)
{
	return (double)ru->ru_utime.tv_sec + (double)ru->ru_stime.tv_sec +
	    ((double)ru->ru_utime.tv_usec + (double)ru->ru_stime.tv_usec) *
	    1e-6;
}

/* w | f | r, once; removes what a failed stage left. */
static void
run3(const struct prow *pr, size_t n, struct pmeas *m)
{
	static const char *const what[] = { "w", "f", "r" };
	struct kid k[3];
	struct args a;
	char nbuf[32];
	int p[2][2], i, ok = 1;
	double t0 = now();

	snprintf(nbuf, sizeof(nbuf), "%zu", n);
	memset(m, 0, sizeof(*m));
	kiddir = rowdir(pr);
	rowkids[0] = rowkids[1] = rowkids[2] = 0;
	xpipe(p[0]);
	xpipe(p[1]);
	for (i = 0; i < 3; i++)
		spawn(&k[i], i, self, selfargv(&a, "stage", pr->name, nbuf,
		    what[i]), i > 0 ? p[i - 1][0] : -1, i < 2 ? p[i][1] : -1,
		    0);
	close(p[0][0]), close(p[0][1]), close(p[1][0]), close(p[1][1]);
	for (i = 0; i < 3; i++) {
		ok = reap(&k[i], i) == 0 && ok;
		m->cpu += cpu(&k[i].ru);
	}
	m->wall = now() - t0;
	m->huge = k[0].huge;
	if (k[1].huge >= 0 && strcmp(k[0].pages, k[1].pages) != 0)
		snprintf(m->pages, sizeof(m->pages), "%s/%s", k[0].pages,
		    k[1].pages);
	else
		snprintf(m->pages, sizeof(m->pages), "%s", k[0].pages);
	m->ok = ok;
	if (!ok) {
		warnx("pipeline %s n=%zu failed", pr->name, n);
		sweep(prefix, 0);
		sweep_files(prefix);
		fdir_empty(&pd[PD_4K].d);
		fdir_empty(&pd[PD_2M].d);
		fdir_empty(&fdirs[FD_SHM]);
	}
	check_stop();
}

static double
pmed(struct pmeas *m, int runs, int cpuof, char *pages, size_t len)
{
	double v[MAXRUNS];
	int i, k = 0;

	for (i = 0; i < runs; i++)
		if (m[i].ok) {
			v[k++] = cpuof ? m[i].cpu : m[i].wall;
			if (pages != NULL)
				snprintf(pages, len, "%s", m[i].pages);
		}
	if (k == 0)
		return NAN;
	qsort(v, (size_t)k, sizeof(double), dcmp);
	return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

static int
is2m(const char *pages)
{
	return strncmp(pages, "2MiB", 4) == 0 && strchr(pages, '/') == NULL;
}

/* What the machine says System V will get, and what it would need. */
static void
sysv_needs(char *buf, size_t len, size_t n)
{
	char thp[128] = "unknown", *b, *e;
	long freehp = 0, hpkb = 2048, need;
	char line[128];
	FILE *fp;

	if ((fp = fopen("/sys/kernel/mm/transparent_hugepage/shmem_enabled",
	    "r")) != NULL) {
		if (fgets(thp, sizeof(thp), fp) != NULL &&
		    (b = strchr(thp, '[')) != NULL &&
		    (e = strchr(b, ']')) != NULL) {
			*e = '\0';
			memmove(thp, b + 1, strlen(b + 1) + 1);
		}
		fclose(fp);
	}
	if ((fp = fopen("/proc/meminfo", "r")) != NULL) {
		while (fgets(line, sizeof(line), fp) != NULL) {
			sscanf(line, "HugePages_Free: %ld", &freehp);
			sscanf(line, "Hugepagesize: %ld", &hpkb);
		}
		fclose(fp);
	}
	need = (long)(2 * (n * sizeof(double) + 4096) / 1024 / (size_t)hpkb
	    + 2);
	snprintf(buf, len, "shmem_enabled %s, %ld free huge pages of %ld "
	    "kB; 2 MiB System V needs shmem_enabled advise or always, or "
	    "vm.nr_hugepages with %ld free (machine-wide settings: the "
	    "bench never changes them)", thp, freehp, hpkb, need);
}

int
pipeline(void)
{
	static struct pmeas m[NPROWS][MAXRUNS];
	size_t n = quick ? 1000000 : 10000000, i, j;
	int runs = envint("BENCH_RUNS", quick ? 3 : 5, 1, MAXRUNS), r, bad = 0;
	double wall[NPROWS], c[NPROWS], base;
	char pages[NPROWS][64], needs[400], fs[64];
	const char *anchor = NULL, *huge = NULL;
	size_t ia = 0, ih = 0;

	if (getenv("BENCH_PIPE_N") != NULL)
		n = (size_t)envint("BENCH_PIPE_N", 0, 1000, 100000000);
	runs = runs > 9 ? 9 : runs;
	mounts_setup(n);
	printf("\n3-stage pipeline (issue 31): writer x[i] = i * 0.5 | x2 "
	    "filter | summing reader, %zu doubles (%.0f MB), three "
	    "processes at once, rows interleaved, median of %d runs\n", n,
	    (double)n * 8 / 1e6, runs);
	for (i = 0; i < NPROWS; i++) {
		if (prows[i].dir == PD_4K || prows[i].dir == PD_2M)
			printf("  %-8s SHMIDS_DIR %s\n", prows[i].name,
			    rowdir(&prows[i]) != NULL ? rowdir(&prows[i]) :
			    pd[prows[i].dir].why);
	}
	printf("  npy      in %s (%s)\n", SHMDIR, fstype(SHMDIR, fs,
	    sizeof(fs)));
	fflush(stdout);
	for (r = 0; r < runs; r++)
		for (i = 0; i < NPROWS; i++)
			if (row_runs(&prows[i])) {
				run3(&prows[i], n, &m[i][r]);
				bad |= !m[i][r].ok;
			}
	printf("  %-8s %-14s %9s %9s %9s %9s %9s\n", "row", "pages", "wall s",
	    "CPU s", "CPU:text", "CPU:bin", "CPU:npy");
	for (i = 0; i < NPROWS; i++) {
		pages[i][0] = '\0';
		wall[i] = c[i] = NAN;
		if (!row_runs(&prows[i]))
			continue;
		snprintf(pages[i], sizeof(pages[i]), "-");
		wall[i] = pmed(m[i], runs, 0, pages[i], sizeof(pages[i]));
		c[i] = pmed(m[i], runs, 1, NULL, 0);
	}
	for (i = 0; i < NPROWS; i++) {
		if (!row_runs(&prows[i])) {
			printf("  %-8s not measured: %s\n", prows[i].name,
			    pd[prows[i].dir].why);
			continue;
		}
		printf("  %-8s %-14s %9.4f %9.4f", prows[i].name,
		    prows[i].kind == PK_SEG ? pages[i] : "-", wall[i], c[i]);
		for (j = 3; j < 6; j++)
			printf(" %8.3fx", c[i] / c[j]);
		printf("   %s\n", prows[i].what);
	}
	/* The anchor: System V if it ran in 4 KiB pages, else file-4k. */
	for (i = 0; i < NPROWS && anchor == NULL; i++)
		if (prows[i].kind == PK_SEG && !isnan(c[i]) &&
		    strcmp(pages[i], "4KiB") == 0)
			anchor = prows[i].name, ia = i;
	for (i = 0; i < NPROWS; i++)
		if (prows[i].kind == PK_SEG && !isnan(c[i]) && is2m(pages[i])
		    && (huge == NULL || c[i] < c[ih]))
			huge = prows[i].name, ih = i;
	sysv_needs(needs, sizeof(needs), n);
	printf("  pages in use: System V %s; file segments %s (file-4k), %s "
	    "(file-2m)\n", pages[0][0] ? pages[0] : "-", pages[1][0] ?
	    pages[1] : "-", pages[2][0] ? pages[2] : "not measured");
	for (i = 0; i < NPROWS; i++) {
		if (prows[i].kind != PK_SEG || isnan(c[i]) || anchor == NULL ||
		    i == ia)
			continue;
		printf("  %s against %s: CPU %.3fx, wall %.3fx\n",
		    prows[i].name, anchor, c[i] / c[ia], wall[i] / wall[ia]);
	}
	base = anchor != NULL ? c[ia] : NAN;
	if (huge != NULL && anchor != NULL)
		printf("target 31.pipeline 3-stage pipeline in 2 MiB pages "
		    "(%s) against 4 KiB (%s), CPU: %.2fx (limit 0.5) %s\n",
		    huge, anchor, c[ih] / base, c[ih] / base <= 0.5 ? "met" :
		    "not met");
	else
		printf("target 31.pipeline 3-stage pipeline in 2 MiB pages: "
		    "not measured (%s)\n", huge == NULL ?
		    (pd[PD_2M].why[0] ? pd[PD_2M].why : "needs a segment "
		    "that got 2 MiB pages: none did") : "needs a row in 4 KiB "
		    "pages");
	if (!isnan(c[0]) && !is2m(pages[0]))
		printf("  System V in 2 MiB pages: not measured (%s)\n", needs);
	fflush(stdout);
	if (sweep(prefix, 0) != 0)
		warnx("segments were left behind (removed now)");
	if (sweep_files(prefix) != 0)
		warnx(".npy files were left behind (removed now)");
	unmount_all();
	sweep_fdirs();
	return bad;
}
