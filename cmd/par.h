/*
 * shm-import's thread pool: a long array's blocks of a regular file
 * counted and parsed at once (format-spec.md 6.2, 7).  The library's
 * shmids_par() was public for this one caller; it is the tool's now.
 */
#ifndef SHMIDS_PAR_H
#define SHMIDS_PAR_H

#include <stddef.h>

/*
 * fn(arg, i) for every i in [0, n), each once, on up to nthreads
 * threads (1 or less: the caller's alone), the caller's among them,
 * made for the call and joined before it returns.  The threads block
 * every signal but the faults, so that the tool's handlers run on its
 * own thread.  Where a thread cannot be made, fewer do the work.
 */
void	par_run(size_t n, int nthreads, void (*fn)(void *, size_t),
	    void *arg);

#endif /* SHMIDS_PAR_H */
