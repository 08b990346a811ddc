/*
 * The driver's sweeps: removing what this run made, after a row or an
 * interrupt.
 */
#include "table1.h"

struct swept {
	int		*id;
	size_t		 n, cap;
	const char	*prefix;
	int		 show;		/* describe the first few found */
};

/*
 * Ours to remove: named with our prefix, or made by a child of this row
 * whatever it holds, since a writer killed before it wrote its header
 * leaves a segment with no name (and sysv-raw's never have one).  File
 * segments (SHMIDS_DIR set, in the cleaners) are left to fdir_empty().
 */
static int
sweep_one(const struct shmids_info *si, const struct shmids_dims *d,
    void *arg)
{
	struct swept *s = arg;
	int named = si->ours == 1 &&
	    strncmp(si->name, s->prefix, strlen(s->prefix)) == 0;
	int mine = si->cpid > 0 &&
	    (si->cpid == rowkids[0] || si->cpid == rowkids[1] ||
	    si->cpid == rowkids[2]);

	(void)d;
	if ((!named && !mine) || si->shmid < 0)
		return 0;
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		if ((s->id = realloc(s->id, s->cap * sizeof(*s->id))) == NULL)
			err(1, "realloc");
	}
	if (s->show && s->n < 3)
		printf("left: %d %s, state %c, attached %lu, age %lds\n",
		    si->shmid, si->ours == 1 ? si->name : "(no header)",
		    si->ours == 1 ? si->state : '-', si->nattch,
		    (long)(time(NULL) - si->ctime));
	s->id[s->n++] = si->shmid;
	return 0;
}

/*
 * Remove every segment sweep_one() calls ours; returns how many there
 * were.  The shmids are gathered first: shmids_scan_dims() does not promise
 * that removing segments while it runs is safe.
 */
size_t
sweep(const char *pfx, int show)
{
	struct swept s;
	size_t i;

	memset(&s, 0, sizeof(s));
	s.prefix = pfx;
	s.show = show;
	if (shmids_scan_dims(sweep_one, &s, SHMIDS_ALL) == -1)
		warn("segment table");
	for (i = 0; i < s.n; i++)
		if (shmctl(s.id[i], IPC_RMID, NULL) == -1 && errno != EINVAL &&
		    errno != EIDRM)
			warn("remove shmid %d", s.id[i]);
	free(s.id);
	return s.n;
}

/* Is name pfx, then tag, then digits (a pid) and nothing else? */
static int
ourfile(const char *name, const char *pfx, const char *tag)
{
	size_t lp = strlen(pfx), lt = strlen(tag);

	if (strncmp(name, pfx, lp) != 0 || strncmp(name + lp, tag, lt) != 0)
		return 0;
	name += lp + lt;
	if (*name == '\0')
		return 0;
	while (*name >= '0' && *name <= '9')
		name++;
	return *name == '\0';
}

/* Remove dir's entries pfx<tag><pid> (shm: by shm_unlink); how many. */
static size_t
sweep_dir(const char *dir, const char *pfx, const char *const *tags,
    int shm)
{
	char path[4096];
	struct dirent *e;
	size_t k = 0, pass;
	int i, again = 1;
	DIR *d;

	/* Again if anything went: readdir(3) after an unlink may skip. */
	for (pass = 0; again && pass < 3; pass++) {
		if ((d = opendir(dir)) == NULL)
			break;
		again = 0;
		while ((e = readdir(d)) != NULL)
			for (i = 0; tags[i] != NULL; i++) {
				if (!ourfile(e->d_name, pfx, tags[i]))
					continue;
				if (shm)
					snprintf(path, sizeof(path), "/%s",
					    e->d_name);
				else
					snprintf(path, sizeof(path), "%s/%s",
					    dir, e->d_name);
				if ((shm ? shm_unlink(path) : unlink(path))
				    == 0)
					k++, again = 1;
				else if (errno != ENOENT)
					warn("remove %s", path);
				break;
			}
		closedir(d);
	}
	return k;
}

/* The POSIX shm objects and temp files named pfx...; how many. */
size_t
sweep_files(const char *pfx)
{
	static const char *const shmtags[] = { "mp-", "np-", NULL };
	static const char *const tmptags[] = { "mf-", "bf-", NULL };

	return sweep_dir(SHMDIR, pfx, shmtags, 1) +
	    sweep_dir(tmpdir(), pfx, tmptags, 0);
}

/* The file rows' directories and what is in them; how many segments. */
size_t
sweep_fdirs(void)
{
	size_t k = 0;
	int i;

	for (i = 0; i < FD_N; i++)
		k += fdir_remove(&fdirs[i]);
	return k;
}

/* For err(3) and the like in the driver: the directories, at least. */
void
sweep_fdirs_atexit(void)
{
	sweep_fdirs();
}

/* After an interrupt: leave nothing behind, then die of the signal. */
void
check_stop(void)
{
	int sig = stop;

	if (sig == 0)
		return;
	sweep(prefix, 0);
	sweep_files(prefix);
	if (stop_hook != NULL)
		stop_hook();
	sweep_fdirs();
	signal(sig, SIG_DFL);
	raise(sig);
	_exit(128 + sig);
}
