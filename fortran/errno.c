/*
 * The C side of the Fortran module (fortran/shmids.f90): errno, which
 * Fortran cannot name, read right after the failed call, and the errno
 * values the module reports on its own.  Nothing else: every other
 * call goes straight to shmids.h's functions by bind(C).
 */
#include <errno.h>

#include "shmids.h"

int	shmids_fortran_errno(void);
int	shmids_fortran_errnum(int);

int
shmids_fortran_errno(void)
{
	return errno;
}

/*
 * which 0: EPROTOTYPE (a segment or message of another type); 1:
 * EINVAL; 2: EMSGSIZE (a message larger than a stream's capacity).
 */
int
shmids_fortran_errnum(int which)
{
	return which == 0 ? EPROTOTYPE : which == 2 ? EMSGSIZE : EINVAL;
}
