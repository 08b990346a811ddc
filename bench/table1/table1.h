/*
 * table1.h: what the files of table1 share (main.c says what the program
 * does): the rows, the measurements, the driver's state, and each file's
 * functions.
 */
#ifndef TABLE1_H
#define TABLE1_H

#define _DEFAULT_SOURCE		/* wait4(2) on glibc */
#include <sys/types.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <mntent.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <shmids.h>

#define TBUF		(1 << 20)	/* bytes of text per read or write */
#define MAXSIZES	16
#define MAXRUNS		101
#define NCLEAN		30000		/* segments for the cleaners */
#define NCLEANF		4000		/* file segments for the cleaners */
#define HEADROOM	64		/* slots left free for everyone else */

/* How a row hands the array over. */
enum how { SHMIDS, SYSV, POSIXSHM, FILEMAP, PIPE, FILEB, INPROC };
/* And in what form. */
enum form { BIN, PRINTF, SHORTEST };

/* Where a shmids row's segments go: SysV, or files (SHMIDS_DIR) in... */
enum { FD_NONE, FD_TMP, FD_SHM, FD_N };	/* ...$TMPDIR, /dev/shm */

struct row {
	const char	*name;
	int		 how;
	int		 form;
	int		 notune;	/* run with SHMIDS_NOTUNE=1 */
	int		 pop;		/* mmap rows: prefault in one call */
	int		 fdir;		/* shmids rows: FD_* */
};

/* The rows, in main.c: one table for all files, since rowix() takes a
 * row's index from its address. */
extern const struct row rows[];
#define NROWS		14		/* main.c checks */
#define SHMDIR		"/dev/shm"	/* glibc's POSIX shm objects */

/* One measurement of one row; seconds, and minor page faults. */
struct meas {
	double		 w, r, total;
	double		 flt;
	int		 ok;
};

/* A child process of the driver. */
struct kid {
	pid_t		 pid;
	int		 rep;		/* read end of the child's fd 3 */
	int		 status;
	struct rusage	 ru;
	double		 w, r;		/* what the child reported */
	double		 huge;		/* its share of 2 MiB pages, -1: none */
	char		 pages[32];	/* and how it says so */
};

/* A few strings turned into an argv without casting away const. */
#define MAXARGS		12
struct args {
	char		 s[MAXARGS][128];
	char		*v[MAXARGS + 1];
};

/* A directory for file segments (filedir.c). */
struct filedir {
	char		 path[PATH_MAX];	/* absolute (realpath) once made */
	int		 made;
};

/* main.c: the driver's state. */
extern char	 self[4096];		/* this program, for the children */
extern char	 prefix[48];		/* of every segment name made here */
extern const char *bindir;
extern int	 quick;
extern volatile sig_atomic_t stop;
extern volatile pid_t kids[3];	/* running now, for the signal handler */
extern pid_t	 rowkids[3];		/* the current row's children */
extern int	 sel[NROWS];		/* the rows BENCH_ROWS asks for */
extern struct filedir fdirs[FD_N];	/* the file rows' SHMIDS_DIR */
extern const char *kiddir;		/* SHMIDS_DIR of the current row */
extern void	(*stop_hook)(void);	/* more to undo on a signal */

/* util.c */
double	 now(void);
void	*xmalloc(size_t n);
void	 fill(double *x, size_t n);
void	 sumcheck(const double *x, size_t n);

/* io.c */
void	 report(char what, double secs);
void	 writeall(int fd, const void *buf, size_t len);
void	 readall(int fd, void *buf, size_t len);
void	 write_text(const double *x, size_t n, int form);
void	 read_text(double *x, size_t n, int form);

/* mapfile.c */
const char *env_prefix(void);
const char *tmpdir(void);
void	 mapname(char *buf, size_t len, const char *pfx, int how, long pid);
void	 mappath(char *buf, size_t len, int how, const char *name);
int	 map_open(int how, const char *path, int flags, mode_t mode);
int	 map_unlink(int how, const char *path);
void	*map(int fd, size_t len, int prot, int pop);

/* child.c */
const struct row *findrow(const char *name);
int	 child(int writer, const char *name, size_t n, const char *arg);

/* spawn.c */
void	 catch_signals(void);
void	 xpipe(int fd[2]);
char	**mkargv(struct args *a, const char *const *s);
char	**selfargv(struct args *a, const char *mode, const char *row,
	    const char *n, const char *label);
void	 spawn(struct kid *k, int slot, const char *path, char **argv, int in,
	    int out, int notune);
int	 reap(struct kid *k, int slot);
size_t	 slurp(int fd, char *buf, size_t len);

/* sweep.c */
size_t	 sweep(const char *pfx, int show);
size_t	 sweep_files(const char *pfx);
size_t	 sweep_fdirs(void);
void	 sweep_fdirs_atexit(void);
void	 check_stop(void);

/* run.c */
void	 run_row(const struct row *rw, size_t n, struct meas *m);

/* stats.c */
int	 dcmp(const void *a, const void *b);
double	 median(const struct meas *m, int runs, size_t off);
int	 rowix(const char *name);
void	 print_block(size_t n, int runs, const struct meas *med, FILE *csv);

/* table.c */
int	 envint(const char *name, int def, int min, int max);
int	 memstate(size_t n, int runs, FILE *csv);
const char *fstype(const char *dir, char *buf, size_t len);
int	 table(const char *csvpath);

/* The 3-stage pipeline's rows (pipeline.c): how each hands on its array
 * (segments, text or binary through pipes, .npy files) and where its
 * segments go (System V, or file segments on a tmpfs huge=never or
 * huge=within_size). */
enum pkind { PK_SEG, PK_TEXT, PK_BIN, PK_NPY };
enum { PD_SYSV, PD_4K, PD_2M, PD_NONE };
struct prow {
	const char	*name;
	int		 kind;
	int		 dir;
	const char	*what;
};
extern const struct prow prows[];
#define NPROWS		6		/* pipeline.c checks */

/* pipeline.c */
int	 pipeline(void);
const struct prow *findprow(const char *name);

/* stage.c */
int	 stage(const char *row, const char *what, size_t n);
double	 hugeshare(const void *p, char *how, size_t len);

/* import.c */
int	 import(void);

/* cleaners.c */
int	 cleaners(void);

/* expand.c */
int	 expand(void);
int	 handexpand(const char *label);
extern double lastcpu;		/* of run_once()'s child: user + system */
char	*make_seg(size_t n, int thirds, char *label);
double	 run_once(const char *const *v, int in, int out, const char *label,
	    size_t *bytes, long *rss, char *keep, size_t keeplen);
void	 save_text(const char *label, const char *path);

/* faults.c */
void	 faultcost(double f[4]);
void	 print_faultcost(const char *when);
void	 target_faults(void);
int	 faults(void);

/* filedir.c */
size_t	 fdir_empty(const struct filedir *d);
size_t	 fdir_remove(struct filedir *d);
int	 fdir_make(struct filedir *d, const char *parent, const char *pfx,
	    size_t namelen);

#endif /* TABLE1_H */
