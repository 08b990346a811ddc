/*
 * The posix-shm and file-mmap rows' objects: their names, and opening,
 * mapping and unlinking them.
 */
#include "table1.h"

const char *
env_prefix(void)
{
	const char *p = getenv("BENCH_PREFIX");

	return p != NULL && *p != '\0' ? p : "table1-";
}

const char *
tmpdir(void)
{
	const char *t = getenv("TMPDIR");

	return t != NULL && *t != '\0' ? t : "/tmp";
}

/*
 * The name of a posix-shm or file-mmap row's object: the prefix, a tag,
 * and the writer's pid, so that the driver knows it even if the writer
 * dies before it says it.
 */
void
mapname(char *buf, size_t len, const char *pfx, int how, long pid)
{
	snprintf(buf, len, "%s%s%ld", pfx, how == POSIXSHM ? "mp-" : "mf-",
	    pid);
}

/* For shm_open(3) ("/name") or open(2) ("$TMPDIR/name"). */
void
mappath(char *buf, size_t len, int how, const char *name)
{
	if (how == POSIXSHM)
		snprintf(buf, len, "/%s", name);
	else
		snprintf(buf, len, "%s/%s", tmpdir(), name);
}

int
map_open(int how, const char *path, int flags, mode_t mode)
{
	if (how == POSIXSHM)
		return shm_open(path, flags, mode);	/* FD_CLOEXEC */
	return open(path, flags | O_CLOEXEC, mode);
}

int
map_unlink(int how, const char *path)
{
	return how == POSIXSHM ? shm_unlink(path) : unlink(path);
}

/* mmap(2) all of fd, shared; pop: prefault it in one call. */
void *
map(int fd, size_t len, int prot, int pop)
{
	int flags = MAP_SHARED;
	void *p;

#if !defined(MADV_POPULATE_WRITE) || !defined(MADV_POPULATE_READ)
	if (pop)
		flags |= MAP_POPULATE;
#endif
	if ((p = mmap(NULL, len, prot, flags, fd, 0)) == MAP_FAILED)
		err(1, "mmap %zu bytes", len);
#if defined(MADV_POPULATE_WRITE) && defined(MADV_POPULATE_READ)
	/* Older kernels say EINVAL: then the faults come one by one. */
	if (pop && madvise(p, len, prot & PROT_WRITE ? MADV_POPULATE_WRITE :
	    MADV_POPULATE_READ) == -1)
		warn("madvise populate");
#endif
	return p;
}
