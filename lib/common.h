/*
 * Internal interfaces both layers of lib/ share: the visibility of
 * internal symbols, and threads.c's signal mask.  Not installed;
 * lib/seg/seg.h and lib/text/text.h include it (lib/README).
 */
#ifndef SHMIDS_COMMON_H
#define SHMIDS_COMMON_H

#include <signal.h>

#include "shmids.h"

#ifndef SHMIDS_HIDDEN
#define SHMIDS_HIDDEN __attribute__((visibility("hidden")))
#endif

/*
 * threads.c: the signal mask of the library's threads: every signal but
 * the faults (SIGBUS, SIGSEGV, SIGFPE, SIGILL), which strike the thread
 * that faults.
 */
void	 shmids_thread_mask(sigset_t *set) SHMIDS_HIDDEN;

#endif /* SHMIDS_COMMON_H */
