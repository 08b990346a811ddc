/*
 * infolayout: struct shmids_info's layout as the C compiler sees it,
 * "field offset size" a line, then "sizeof N"; tests/python.bats checks
 * the Python package's ctypes mirror of it (python/shmids/_library.py)
 * against this.
 */
#include <stddef.h>
#include <stdio.h>

#include "shmids.h"

#define F(f)	printf("%s %zu %zu\n", #f, offsetof(struct shmids_info, f), \
		    sizeof(((struct shmids_info *)0)->f))

int
main(void)
{
	F(shmid); F(id); F(key); F(mode); F(removed); F(uid); F(cuid);
	F(gid); F(cgid); F(size); F(nattch); F(cpid); F(lpid); F(atime);
	F(dtime); F(ctime); F(ours); F(err); F(label); F(name); F(type);
	F(count); F(state);
	printf("sizeof %zu\n", sizeof(struct shmids_info));
	return 0;
}
