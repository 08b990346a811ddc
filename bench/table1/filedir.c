/*
 * table1's directories for file segments (format-spec.md 2.6).  A
 * directory is "<parent>/<prefix>dir", made by the driver for its run
 * (mode 0700) and given to the writers as SHMIDS_DIR; nothing but the
 * library's "shmids.XXXXXX" files goes in it, and those are all this
 * run's, named or not (a writer killed before its header leaves a file
 * with no label).  bench/run's trap removes the same names if the driver
 * is killed outright.
 */
#include "table1.h"

/*
 * "shmids.", maybe a uid of 1 to 10 digits and ".", and 6 letters or
 * digits: what the library's mkstemp(3) makes for us (format-spec.md
 * 2.6; the uid since 1.4).
 */
static int
fdir_segname(const char *s)
{
	int i, k = 0;

	if (strncmp(s, "shmids.", 7) != 0)
		return 0;
	s += 7;
	while (k < 10 && s[k] >= '0' && s[k] <= '9')
		k++;
	if (k > 0 && s[k] == '.')
		s += k + 1;
	for (i = 0; i < 6; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z')))
			return 0;
	return s[6] == '\0';
}

/* Unlink the segment files in d; how many there were. */
size_t
fdir_empty(const struct filedir *d)
{
	char path[PATH_MAX + 1 + 256];	/* d_name holds 256 */
	struct dirent *e;
	size_t k = 0;
	int pass, again = 1;
	DIR *dp;

	if (!d->made)
		return 0;
	/* Again if anything went: readdir(3) after an unlink may skip. */
	for (pass = 0; again && pass < 3; pass++) {
		if ((dp = opendir(d->path)) == NULL)
			break;
		again = 0;
		while ((e = readdir(dp)) != NULL) {
			if (!fdir_segname(e->d_name))
				continue;
			snprintf(path, sizeof(path), "%s/%s", d->path,
			    e->d_name);
			if (unlink(path) == 0)
				k++, again = 1;
			else if (errno != ENOENT)
				warn("remove %s", path);
		}
		closedir(dp);
	}
	return k;
}

/* Empty d and remove it; how many segment files were left in it. */
size_t
fdir_remove(struct filedir *d)
{
	size_t k;

	if (!d->made)
		return 0;
	k = fdir_empty(d);
	if (rmdir(d->path) == -1 && errno != ENOENT)
		warn("rmdir %s", d->path);
	d->made = 0;
	return k;
}

/*
 * Make parent/<pfx>dir for segments named up to namelen bytes; -1 with
 * errno (ENAMETOOLONG: the labels would not fit in SHMIDS_LABEL_MAX).
 * One left by a killed run of ours (same prefix) is emptied and reused.
 */
int
fdir_make(struct filedir *d, const char *parent, const char *pfx,
    size_t namelen)
{
	char path[PATH_MAX];
	struct stat st;
	int e;

	d->made = 0;
	if ((size_t)snprintf(path, sizeof(path), "%s/%sdir", parent, pfx) >=
	    sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (mkdir(path, 0700) == -1) {
		if (errno != EEXIST)
			return -1;
		if (lstat(path, &st) == -1)
			return -1;
		if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid()) {
			errno = EEXIST;
			return -1;
		}
	}
	if (realpath(path, d->path) == NULL) {
		e = errno;
		rmdir(path);
		errno = e;
		return -1;
	}
	d->made = 1;
	fdir_empty(d);
	/* "<dir>/shmids.<uid>.XXXXXX <name>", the uid up to 10 digits */
	if (strlen(d->path) + 14 + 11 + 1 + namelen > SHMIDS_LABEL_MAX) {
		fdir_remove(d);
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}
