/*
 * LD_PRELOAD shim for tests/trust.bats: a cleaner (shm-rm -s 0) that
 * removes a System V segment in the instant between the writer's
 * shmget(2) and its shmat(2) (format-spec.md 2.4).  The first shmat(2)
 * of the process finds its segment removed; nothing else is touched.
 */
#define _GNU_SOURCE
#include <sys/types.h>
#include <sys/ipc.h>
#include <sys/shm.h>

#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

void	*shmat(int id, const void *addr, int flags);

void *
shmat(int id, const void *addr, int flags)
{
	static void *(*real)(int, const void *, int);
	static int done;

	if (real == NULL) {
		void *p = dlsym(RTLD_NEXT, "shmat");

		memcpy(&real, &p, sizeof(p));	/* C99 has no cast for it */
	}
	if (!done) {
		done = 1;
		shmctl(id, IPC_RMID, NULL);
	}
	return real(id, addr, flags);
}
