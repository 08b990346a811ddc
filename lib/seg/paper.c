/*
 * The paper's names (Grosse 1990, Figure 1), exported with the shmids_
 * prefix; shmids_paper.h maps shm_create/shm_open/shm_close onto them.
 */
#include <errno.h>

#include "../shmids_paper.h"
#include "seg.h"

char *
shmids_paper_create(const char *name, int mode, int nbytes)
{
	if (nbytes < 0) {
		errno = EINVAL;
		return NULL;
	}
	return shmids_create_array(name, mode, SHMIDS_RAW, (size_t)nbytes);
}

char *
shmids_paper_open(const char *label)
{
	return shmids_open_flags(label, 0, 0);
}

int
shmids_paper_close(char *shm)
{
	return shmids_close(shm);
}
