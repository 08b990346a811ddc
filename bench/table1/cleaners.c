/*
 * The cleaners: shm-ls and shm-rm over thousands of segments.
 */
#include "table1.h"

static int
count_all(const struct shmids_info *si, void *arg)
{
	(void)si;
	++*(size_t *)arg;
	return 0;
}

/* How many segments we may make: NCLEAN, or what kernel.shmmni leaves. */
static size_t
clean_room(void)
{
	size_t want = quick ? 200 : NCLEAN, have = 0;
	long mni = 4096;
	FILE *fp;

	if ((fp = fopen("/proc/sys/kernel/shmmni", "r")) != NULL) {
		if (fscanf(fp, "%ld", &mni) != 1)
			mni = 4096;
		fclose(fp);
	}
	if (shmids_scan(count_all, &have, SHMIDS_ALL | SHMIDS_NOHDR) == -1)
		err(1, "segment table");
	if ((size_t)mni < have + HEADROOM + want) {
		want = (size_t)mni > have + HEADROOM ?
		    (size_t)mni - have - HEADROOM : 0;
		printf("kernel.shmmni %ld, %zu segments exist: making only "
		    "%zu\n", mni, have, want);
	}
	return want;
}

static size_t
make_many(const char *pfx, size_t want)
{
	char name[SHMIDS_NAME_MAX + 1];
	size_t i;
	char *shm;

	for (i = 0; i < want && !stop; i++) {
		snprintf(name, sizeof(name), "%s%zu", pfx, i);
		if ((shm = shmids_create_array(name, 0600, SHMIDS_F64, 1))
		    == NULL) {
			warn("create %s (made %zu)", name, i);
			break;
		}
		shmids_close(shm);
	}
	return i;
}

/* Run the tool s[0], stdout counted and dropped; its wall time, or -1. */
static double
time_tool(const char *const *s, size_t *lines)
{
	struct args a;
	struct kid k;
	char buf[65536];
	double t0 = now();
	ssize_t len, i;
	int p[2];

	xpipe(p);
	spawn(&k, 0, s[0], mkargv(&a, s), -1, p[1], -1);
	close(p[1]);
	*lines = 0;
	while ((len = read(p[0], buf, sizeof(buf))) != 0) {
		if (len == -1 && errno == EINTR)
			continue;
		if (len == -1)
			break;
		for (i = 0; i < len; i++)
			*lines += buf[i] == '\n';
	}
	close(p[0]);
	if (reap(&k, 0) == -1)
		return -1;
	return now() - t0;
}

/* What count_attach() counts; -1: the tool or strace failed. */
struct attaches {
	long		 shmat;		/* System V attaches */
	long		 mmap;		/* MAP_SHARED: file segments' attaches */
	long		 open;		/* opens of segment files */
};

/*
 * Attaches of the tool s[0] (one option at most), by strace(1): shmat(2)
 * calls, mmap(2) calls MAP_SHARED (only a file segment's attach makes
 * those), and openat(2) calls of segment files ("/shmids.").
 */
static void
count_attach(const char *const *s, struct attaches *c)
{
	const char *v[MAXARGS + 1];
	char out[64], line[512];
	struct args a;
	struct kid k;
	FILE *fp;
	int i, j = 0, dn;

	c->shmat = c->mmap = c->open = -1;
	snprintf(out, sizeof(out), "/tmp/table1.%ld.strace", (long)getpid());
	v[j++] = "strace", v[j++] = "-f", v[j++] = "-e";
	v[j++] = "trace=shmat,mmap,openat", v[j++] = "-o", v[j++] = out;
	for (i = 0; s[i] != NULL && j < MAXARGS; i++)
		v[j++] = s[i];
	v[j] = NULL;
	if ((dn = open("/dev/null", O_WRONLY | O_CLOEXEC)) == -1)
		return;
	spawn(&k, 0, v[0], mkargv(&a, v), -1, dn, -1);
	close(dn);
	if (reap(&k, 0) == -1 || (fp = fopen(out, "r")) == NULL) {
		unlink(out);
		return;
	}
	c->shmat = c->mmap = c->open = 0;
	while (fgets(line, sizeof(line), fp) != NULL) {
		c->shmat += strstr(line, "shmat(") != NULL;
		c->mmap += strstr(line, "mmap(") != NULL &&
		    strstr(line, "MAP_SHARED") != NULL;
		c->open += strstr(line, "openat(") != NULL &&
		    strstr(line, "/shmids.") != NULL;
	}
	fclose(fp);
	unlink(out);
}

/*
 * Make want segments named pfx* (files in fd if not NULL: SHMIDS_DIR is
 * set), then time shm-ls and shm-rm over them (traced: count their
 * attaches instead), and check that none is left.
 */
static int
cleaners_round(const char *pfx, size_t want, int traced,
    const struct filedir *fd)
{
	char ls[4096], rm[4096], pat[64];
	const char *lsv[2], *rmv[6];
	size_t made, lines, left;
	struct attaches cls, crm;
	double t0, t;
	int bad = 0;

	snprintf(ls, sizeof(ls), "%s/shm-ls", bindir);
	snprintf(rm, sizeof(rm), "%s/shm-rm", bindir);
	snprintf(pat, sizeof(pat), "%s*", pfx);
	lsv[0] = ls, lsv[1] = NULL;
	rmv[0] = rm, rmv[1] = "-s", rmv[2] = "0", rmv[3] = "-m", rmv[4] = pat;
	rmv[5] = NULL;
	t0 = now();
	made = make_many(pfx, want);
	t = now() - t0;
	check_stop();
	if (!traced) {
		printf("made %zu segments in %.3f s (%.1f us each)\n", made, t,
		    t * 1e6 / (double)(made ? made : 1));
		if ((t = time_tool(lsv, &lines)) < 0)
			bad = printf("FAIL: shm-ls failed\n");
		else
			printf("shm-ls: %.3f s, %zu lines listed\n", t, lines);
		if ((t = time_tool(rmv, &lines)) < 0)
			bad = printf("FAIL: shm-rm failed\n");
		else
			printf("shm-rm -s 0 -m '%s': %.3f s\n", pat, t);
	} else {
		count_attach(lsv, &cls);
		count_attach(rmv, &crm);
		if (fd == NULL)
			printf("shmat calls (strace -f): shm-ls %ld, shm-rm "
			    "%ld, for %zu segments\n", cls.shmat, crm.shmat,
			    made);
		else
			printf("attaches (strace -f: mmap MAP_SHARED): shm-ls "
			    "%ld, shm-rm %ld, for %zu segments;\n  opens of "
			    "segment files: shm-ls %ld, shm-rm %ld\n",
			    cls.mmap, crm.mmap, made, cls.open, crm.open);
	}
	check_stop();
	left = sweep(pfx, 1) + (fd != NULL ? fdir_empty(fd) : 0);
	if (left != 0)
		printf("FAIL: %zu segments '%s' left after shm-rm "
		    "(removed now)\n", left, pat);
	return bad != 0 || left != 0;
}

/* Timed, then traced if strace is there. */
static int
cleaners_rounds(const char *pfx, size_t want, const struct filedir *fd)
{
	int bad = cleaners_round(pfx, want, 0, fd);

	if (access("/usr/bin/strace", X_OK) == 0)
		bad |= cleaners_round(pfx, want, 1, fd);
	else
		printf("strace not installed: attaches not counted\n");
	return bad;
}

/* System V segments, then as many file segments in $TMPDIR/<prefix>dir. */
int
cleaners(void)
{
	struct filedir *fd = &fdirs[FD_TMP];
	char pfx[64], last[32], fs[64];
	size_t want;
	int bad = 0;

	printf("\nCleaners: shm-ls and shm-rm over many segments\n");
	snprintf(pfx, sizeof(pfx), "%sc-", prefix);
	if ((want = clean_room()) == 0)
		bad = 1;
	else
		bad |= cleaners_rounds(pfx, want, NULL);
	check_stop();
	want = quick ? 200 : NCLEAN;
	snprintf(last, sizeof(last), "%zu", want - 1);
	if (fdir_make(fd, tmpdir(), prefix, strlen(pfx) + strlen(last))
	    == -1) {
		warn("%s/%sdir: no file segments", tmpdir(), prefix);
		return 1;
	}
	printf("\nThe same over file segments: SHMIDS_DIR=%s (%s)\n",
	    fd->path, fstype(fd->path, fs, sizeof(fs)));
	setenv("SHMIDS_DIR", fd->path, 1);
	bad |= cleaners_rounds(pfx, want, fd);
	unsetenv("SHMIDS_DIR");
	fdir_remove(fd);	/* emptied already by each round */
	return bad;
}
