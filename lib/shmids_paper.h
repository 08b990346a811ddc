/*
 * The paper's three functions under the paper's names and signatures
 * (Grosse 1990, Figure 1), for programs written against the paper:
 *
 *	char *shm_create(const char *name, int mode, int nbytes);
 *	char *shm_open(const char *label);
 *	int   shm_close(char *shm);
 *
 * They are macros onto shmids_paper_create(), shmids_paper_open() and
 * shmids_paper_close(): the library exports no un-prefixed symbol, so it
 * never interposes libc's POSIX shm_open.  Semantics, units and errno are
 * those of shmids_create(), shmids_open() and shmids_close() in
 * <shmids.h>; nbytes < 0 is EINVAL.
 *
 * Mixing this header with <sys/mman.h> in one translation unit is a
 * compile-time error, in either order, by design: the prototype of
 * shm_open below conflicts with POSIX's, and after the macros POSIX's
 * declaration conflicts with shmids_paper_open().  A program that needs
 * POSIX shm as well uses the shmids_ names.
 */
#ifndef SHMIDS_PAPER_H
#define SHMIDS_PAPER_H

#ifdef __cplusplus
extern "C" {
#endif

/* Built with -fvisibility=hidden: what is declared here is exported. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

char	*shmids_paper_create(const char *name, int mode, int nbytes);
char	*shmids_paper_open(const char *label);
int	 shmids_paper_close(char *shm);

/* Only a declaration, never called under this name: see above. */
char	*shm_open(const char *label);

#define shm_create	shmids_paper_create
#define shm_open	shmids_paper_open
#define shm_close	shmids_paper_close

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* SHMIDS_PAPER_H */
