/*
 * LD_PRELOAD shim for tests/trust.bats: a cleaner's mode-0 moment
 * (format-spec.md 7) seen by a reader.  The process's first
 * shmctl(IPC_STAT) sets its segment's mode to 0 first (the caller must
 * own it), and the next one sets it back to 0644: the reader is refused
 * once, as if it had looked in the cleaner's few milliseconds.
 */
#define _GNU_SOURCE
#include <sys/types.h>
#include <sys/ipc.h>
#include <sys/shm.h>

#include <dlfcn.h>
#include <string.h>
#include <unistd.h>

int	shmctl(int id, int cmd, struct shmid_ds *ds);

static void
setmode(int (*real)(int, int, struct shmid_ds *), int id, int mode)
{
	struct shmid_ds ds;

	memset(&ds, 0, sizeof(ds));
	ds.shm_perm.uid = getuid();
	ds.shm_perm.gid = getgid();
	ds.shm_perm.mode = (unsigned short)mode;
	real(id, IPC_SET, &ds);
}

int
shmctl(int id, int cmd, struct shmid_ds *ds)
{
	static int (*real)(int, int, struct shmid_ds *);
	static int calls;

	if (real == NULL) {
		void *p = dlsym(RTLD_NEXT, "shmctl");

		memcpy(&real, &p, sizeof(p));	/* C99 has no cast for it */
	}
	if (cmd == IPC_STAT && calls < 2)
		setmode(real, id, calls++ == 0 ? 0 : 0644);
	return real(id, cmd, ds);
}
