/*
 * Set-up and the final sweep.
 */
#include "stress.h"

static long
read_long(const char *path)
{
	long v = -1;
	FILE *fp;

	if ((fp = fopen(path, "r")) == NULL)
		return -1;
	if (fscanf(fp, "%ld", &v) != 1)
		v = -1;
	fclose(fp);
	return v;
}

static long
count_segments(void)
{
	long n = -1;
	FILE *fp;
	int c;

	if ((fp = fopen("/proc/sysvipc/shm", "r")) == NULL)
		return -1;
	while ((c = getc(fp)) != EOF)
		n += c == '\n';
	fclose(fp);
	return n;
}

/* kernel.shmmni bounds all segments; leave others RESERVE of them. */
void
scale(void)
{
	long max = read_long("/proc/sys/kernel/shmmni");
	long used = count_segments(), avail;

	if (max <= 0 || used < 0) {
		fprintf(stderr, "stress: cannot read kernel.shmmni or the "
		    "segment table: -n not scaled\n");
		budget = (size_t)nwriters * pern;
		return;
	}
	avail = max - used - RESERVE;
	if (avail < (long)nwriters) {
		fprintf(stderr, "stress: %ld of %ld segment slots in use\n",
		    used, max);
		exit(1);
	}
	budget = (size_t)avail;
	if ((size_t)nwriters * pern > budget) {
		pern = (unsigned)(budget / nwriters);
		printf("stress: %ld of %ld segment slots free, %d kept for "
		    "others: -n scaled to %u\n", max - used, max, RESERVE,
		    pern);
	}
}

static int
ourname(const char *s)
{
	size_t n = strlen(name);

	return strncmp(s, name, n) == 0 && (s[n] == '\0' || s[n] == '-');
}

/*
 * Our key prefix and made by one of our processes: ours.  A header
 * half-written by a writer killed inside shmids_create has no name.
 */
static int
sweep_one(const struct shmids_info *si, void *arg)
{
	unsigned long *n = arg;

	if (((unsigned)si->key & 0xffff0000u) != KEYPREFIX || si->removed ||
	    !is_maker(si->cpid))
		return 0;
	if (si->ours == 1 && !ourname(si->name))
		return 0;
	if (shmctl(si->shmid, IPC_RMID, NULL) == 0)
		(*n)++;
	return 0;
}

void
sweep(void)
{
	unsigned long n = 0;

	if (shmids_scan(sweep_one, &n, SHMIDS_ALL) == -1)
		failure("segment table: %s", strerror(errno));
	if (n > 0 && !stopsig)
		failure("%lu segments were left behind and swept", n);
	else if (n > 0)
		printf("stress: swept %lu segments left by interrupted "
		    "processes\n", n);
}

void
rmtmp(void)
{
	static const char *files[] = {
		"in", "ref", "referr", "out0", "out1", "err0", "err1"
	};
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		tmpname(path, files[i]);
		unlink(path);
	}
	rmdir(tmpdir);
}
