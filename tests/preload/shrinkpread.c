/*
 * LD_PRELOAD shim for tests/shm-import.bats: the owner of an input file
 * truncating it while shm-import reads it, between its first read of an
 * array's lines and the pread(2) that reads them again (to pass them
 * through, cmd/lines.h, or to parse a long array's lines into the
 * segment made for their count, format-spec.md 6.2).  The first
 * pread(2) of the file named by SHMIDS_SHRINK (an absolute path) whose
 * bytes were all read before truncates the file to its offset first;
 * nothing else is touched.  Threads read blocks of the file in any
 * order: what was read is kept as a set of ranges.  With
 * SHMIDS_SHRINK_BELOW set (bytes), only such a pread(2) below that
 * offset does: the reading again of a long array's lines is let be,
 * the reading again to pass them through is not.  With SHMIDS_GROW
 * set, that pread(2) appends its text to the file instead: a line
 * that ended the file without LF goes on (shm-import must see it).
 */
#define _GNU_SOURCE
#include <sys/types.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

ssize_t	pread(int fd, void *buf, size_t n, off_t off);

#define MAXR	4096
static off_t	 ra[MAXR], rz[MAXR];	/* ranges read, sorted, apart */
static int	 nr;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

/* Were all of [a, z) read before? */
static int
seen(off_t a, off_t z)
{
	int i;

	for (i = 0; i < nr; i++)
		if (ra[i] <= a && z <= rz[i])
			return 1;
	return 0;
}

/* [a, z) was read: merged into the ranges. */
static void
add(off_t a, off_t z)
{
	int i, j;

	for (i = 0; i < nr && rz[i] < a; i++)
		;
	for (j = i; j < nr && ra[j] <= z; j++) {
		a = ra[j] < a ? ra[j] : a;
		z = rz[j] > z ? rz[j] : z;
	}
	if (j == i && nr == MAXR)
		return;
	memmove(ra + i + 1, ra + j, (size_t)(nr - j) * sizeof(*ra));
	memmove(rz + i + 1, rz + j, (size_t)(nr - j) * sizeof(*rz));
	nr += 1 - (j - i);
	ra[i] = a;
	rz[i] = z;
}

ssize_t
pread(int fd, void *buf, size_t n, off_t off)
{
	static ssize_t (*real)(int, void *, size_t, off_t);
	static int done;
	const char *want = getenv("SHMIDS_SHRINK");
	const char *below = getenv("SHMIDS_SHRINK_BELOW");
	const char *grow = getenv("SHMIDS_GROW");
	char link[64], path[4096];
	ssize_t len;
	int match = 0, g;

	if (real == NULL) {
		void *p = dlsym(RTLD_NEXT, "pread");

		memcpy(&real, &p, sizeof(p));	/* C99 has no cast for it */
	}
	if (want != NULL) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		if ((len = readlink(link, path, sizeof(path) - 1)) > 0) {
			path[len] = '\0';
			match = strcmp(path, want) == 0;
		}
	}
	if (!match)
		return real(fd, buf, n, off);
	pthread_mutex_lock(&mu);
	if (!done && n > 0 && seen(off, off + (off_t)n) &&
	    (below == NULL || off < (off_t)strtoll(below, NULL, 10))) {
		done = 1;
		if (grow == NULL && truncate(want, off) == -1)
			perror(want);
		if (grow != NULL && ((g = open(want, O_WRONLY | O_APPEND)) ==
		    -1 || write(g, grow, strlen(grow)) != (ssize_t)strlen(grow) ||
		    close(g) == -1))
			perror(want);
	}
	pthread_mutex_unlock(&mu);
	len = real(fd, buf, n, off);
	if (len > 0) {
		pthread_mutex_lock(&mu);
		add(off, off + len);
		pthread_mutex_unlock(&mu);
	}
	return len;
}
