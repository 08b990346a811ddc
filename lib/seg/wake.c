/*
 * Readers that wake on seal (format-spec.md 2.2): the 4 bytes at offset
 * 116, state byte first, are a futex word on Linux.  The writer wakes
 * every waiter once it has sealed; a reader waits on the value it read,
 * for a bounded slice, since writers that die or that never wake anyone
 * must still be noticed.  Elsewhere readers poll.
 */
#define _GNU_SOURCE		/* syscall(2) with -D_XOPEN_SOURCE on glibc */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#endif

#include "seg.h"

/* 32-bit systems with a 64-bit time_t have their own call. */
#if defined(SYS_futex_time64)
#define FUTEX_CALL (sizeof(time_t) > sizeof(long) ? SYS_futex_time64 : \
	SYS_futex)
#elif defined(SYS_futex)
#define FUTEX_CALL SYS_futex
#endif

#define NS		1000000000LL
#define POLL_NS		(NS / 100)	/* without a futex */
#define NAP_NS		(NS / 1000)	/* sealed, not yet ready */

long long
shmids_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * NS + ts.tv_nsec;
}

static uint32_t *
word(char *h)
{
	return (uint32_t *)(void *)(h + HDR_STATE);
}

/*
 * A shared futex (never FUTEX_PRIVATE_FLAG: it must reach other
 * processes, through a System V segment or a shared file mapping).
 * shmids_futex_wake() wakes up to n waiters on w; errno kept.
 * shmids_futex_wait() sleeps up to ns nanoseconds while *w is val: 0
 * woken (or *w was not val), or -1 with errno ETIMEDOUT, EINTR (a
 * signal handler ran), ENOSYS (no futex: the caller polls).  Streams
 * sleep on words of their own (format-spec.md 10.6).
 */
void
shmids_futex_wake(uint32_t *w, int n)
{
#ifdef FUTEX_CALL
	int e = errno;

	syscall(FUTEX_CALL, w, FUTEX_WAKE, n, NULL, NULL, 0);
	errno = e;
#else
	(void)w;
	(void)n;
#endif
}

int
shmids_futex_wait(uint32_t *w, uint32_t val, long long ns)
{
#ifdef FUTEX_CALL
	struct timespec ts;

	ts.tv_sec = (time_t)(ns / NS);
	ts.tv_nsec = (long)(ns % NS);
	if (syscall(FUTEX_CALL, w, FUTEX_WAIT, val, &ts, NULL, 0) == 0 ||
	    errno == EAGAIN)
		return 0;
	return -1;
#else
	(void)w;
	(void)val;
	(void)ns;
	errno = ENOSYS;
	return -1;
#endif
}

/*
 * Called after the seal is complete (for a file, after the lock turned
 * into a reader's): a woken reader must find the segment ready.
 */
void
shmids_wake(char *h)
{
	shmids_futex_wake(word(h), INT_MAX);
}

static void
nap(long long ns)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(ns / NS);
	ts.tv_nsec = (long)(ns % NS);
	nanosleep(&ts, NULL);
}

/*
 * Sleep up to ns nanoseconds, or until the state at h (attached, even
 * read-only) may have changed: 1 then, 0 after a sleep that saw nothing
 * (and always without a futex: the caller opens the segment afresh).
 * The futex compares the whole word with what was read: a change between
 * reading it and waiting, the seal included, ends the wait at once.  A
 * state already 'r' (a file writer between its seal and its lock, or one
 * that never turns its lock) and h NULL (nothing to watch) get short
 * sleeps: never a spin.
 */
int
shmids_wait(char *h, long long ns)
{
	int e = errno, r = 0;
#ifdef FUTEX_CALL
	struct timespec ts;
	uint32_t v;

	if (h != NULL) {
		v = __atomic_load_n(word(h), __ATOMIC_ACQUIRE);
		if (shmids_hdr_state(h) == 'w') {
			ts.tv_sec = (time_t)(ns / NS);
			ts.tv_nsec = (long)(ns % NS);
			r = syscall(FUTEX_CALL, word(h), FUTEX_WAIT, v, &ts,
			    NULL, 0) == 0 || errno == EAGAIN;
			errno = e;
			return r;
		}
		ns = ns < NAP_NS ? ns : NAP_NS;
		r = 1;
	}
#else
	(void)h;
#endif
	nap(ns < POLL_NS ? ns : POLL_NS);
	errno = e;
	return r;
}
