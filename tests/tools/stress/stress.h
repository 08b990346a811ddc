/*
 * stress.h: what the files of stress share (main.c says what the
 * program does): limits, counts, the options and state of main.c, and
 * each file's functions.  Case b's own are in case_b.h.
 */
#ifndef STRESS_H
#define STRESS_H

#include <sys/types.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "shmids.h"

#ifndef SHM_DEST
#define SHM_DEST	01000	/* shm_perm.mode bit: removed, still attached */
#endif

#define KEYPREFIX	0x53480000u	/* format-spec.md 2.4 */
#define RESERVE		256	/* segment slots left to everybody else */
#define MAXW		64	/* writers in case a */
#define MAXKIDS		(MAXW + 16)
#define MAXFDS		64
#define BWRITERS	2	/* case b: two cores, so few processes */
#define BREADERS	2
#define MAXWHOLD	64	/* case b: segments a writer keeps filling */
#define MAXRHOLD	256	/* case b: segments a reader keeps attached */
#define MAXSHOW		20	/* violations printed in full */
#define LINEMAX		(SHMIDS_LABEL_MAX + 64)
#define NS		1000000000LL
#define MS		1000000LL

struct counts {
	unsigned long	 made, opened, verified, expanded, removed;
	unsigned long	 errors, violations;
	unsigned long	 full;		/* creates refused: table full */
};

/* Lines from a pipe that several children write whole lines to. */
struct lines {
	int		 fd;
	size_t		 off, len;
	char		 buf[4096];
};
/* main.c: options and state. */
extern const char *bindir;
extern const char *cases;
extern const char *prefix;	/* -p: before every name we make */
extern unsigned	 tsecs, nwriters, pern;
extern char	 name[48];	/* case a: prefix + "stress-<pid>" */
extern char	 bname[SHMIDS_NAME_MAX + 1];	/* case b: name + "-b" */
extern char	 cname[SHMIDS_NAME_MAX + 1];	/* case c: name + "-c" */
extern char	 tmpdir[256];
extern size_t	 budget;	/* slots we may fill at once */
extern uint64_t	 seed;
extern struct counts tot;
extern volatile sig_atomic_t stopsig;

extern int	 pfd[MAXFDS];	/* pipe ends children must close */
extern size_t	 npfd;
extern pid_t	 kids[MAXKIDS];
extern size_t	 nkids;
extern pid_t	*makers;	/* processes that made segments */
extern size_t	 nmakers, capmakers;

/* util.c */
void	 failure(const char *fmt, ...);
void	 violation(const char *fmt, ...);
int	 table_full(int e);
void	 usage(FILE *fp, int status);
long long mono(void);
void	 nap(long long ns);
uint64_t rnd(void);

/* proc.c */
void	 catch_signals(void);
int	 mkpipe(int p[2]);
void	 xclose(int fd);
void	 maker_add(pid_t pid);
int	 is_maker(pid_t pid);
pid_t	 fork_kid(int maker);
void	 in_child(int keep1, int keep2);
int	 reap(pid_t pid);
int	 exitcode(int st);
pid_t	 spawn(const char *const *argv, int out, int errfd, int go);

/* lines.c */
void	 say(int fd, const char *s);
void	 lines_init(struct lines *l, int fd);
int	 lines_fill(struct lines *l);
char	*lines_next(struct lines *l);
int	 lines_serve(struct lines *l, void (*fn)(char *));
int	 shmid_of(const char *label);

/* case_a.c, case_b.c, case_c.c */
void	 case_a(long long until);
void	 case_b(long long dur);
void	 tmpname(char *buf, const char *base);
void	 case_c(long long until);

/* sweep.c */
void	 scale(void);
void	 sweep(void);
void	 rmtmp(void);

#endif /* STRESS_H */
