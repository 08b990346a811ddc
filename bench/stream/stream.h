/*
 * stream.h: what the files of bench/stream share (main.c says what the
 * program measures): the contenders' interface, one measurement's
 * shared page, and each file's functions.
 *
 * A contender moves messages of a fixed size from a writer process to
 * a reader process through a channel.  The harness (loops.c) does the
 * same work on every message whatever the contender: the writer asks
 * for a buffer (loan), fills it, hands it over (publish); the reader
 * waits for the next (next), checks it in place, lets it go
 * (release).  A contender that copies (pipes, message queues, the
 * mutex ring) lends a private buffer and copies it in publish() and
 * next(); one that does not (the semaphore pair, iceoryx, a segment a
 * step, the shmids stream) lends the shared slot itself.
 */
#ifndef STREAM_H
#define STREAM_H

#define _GNU_SOURCE		/* sched_setaffinity, MAP_ANONYMOUS */
#include <sys/types.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define KIB		((size_t)1 << 10)
#define MIB		((size_t)1 << 20)
#define MAXRUNS		51
#define SLOTBYTES	(8 * MIB)	/* a ring's bytes, whatever its slots */
#define MAXSLOTS	64
#define MINSLOTS	2

enum role { WRITER, READER };

/*
 * A channel: what one contender made for one direction of one
 * measurement.  The harness fills the first fields; a contender keeps
 * its own state behind priv.
 */
struct chan {
	size_t		 nbytes;	/* every message's size, bytes */
	int		 slots;		/* messages in flight at most */
	int		 id;		/* unique in this run: names, services */
	void		*priv;		/* the contender's */
};

/*
 * A contender.  Every function returns 0 (or a pointer) on success and
 * -1 (or NULL) on failure, having said why with warn(3): the harness
 * then ends the measurement as failed.  Which process calls what:
 *
 *	init()		in the driver, once, before any measurement: NULL
 *			if the contender can run at all, else why not
 *			(printed on its rows); NULL pointer: nothing to do
 *	skip(n)		in the driver: NULL if messages of n bytes can
 *			go through, else why not; NULL pointer: any size
 *	open(c)		in the driver, before the fork: make what both
 *			ends share (c->priv)
 *	attach(c, role)	in the child, after the fork: its own set-up,
 *			returning when messages sent now will arrive
 *			(may be NULL)
 *	loan(c)		writer: c->nbytes bytes to fill for the next
 *			message, blocking while all slots are full
 *	publish(c)	writer: hand the loaned message over
 *	next(c)		reader: the next message (c->nbytes bytes, read
 *			only), blocking until there is one
 *	release(c)	reader: done with the message next() gave
 *	detach(c)	in the child, at the end (may be NULL); then the
 *			child ends with exit(3), so that a library may tidy
 *			up in its atexit handlers and destructors
 *	close(c)	in the driver, after both children are gone, even
 *			if they failed or were killed: remove whatever
 *			open() or the children made, free c->priv
 *	fini()		in the driver, once, at the end or on a signal
 *			(may be NULL)
 */
struct contender {
	const char	*id;		/* BENCH_STREAM_ROWS names it so */
	const char	*name;		/* the row's, at most 18 bytes */
	const char	*how;		/* one line: what a message costs */
	int		 copies;	/* 1 if the payload is copied */
	const char	*(*init)(void);
	const char	*(*skip)(size_t nbytes);
	int		 (*open)(struct chan *c);
	int		 (*attach)(struct chan *c, int role);
	void		*(*loan)(struct chan *c);
	int		 (*publish)(struct chan *c);
	const void	*(*next)(struct chan *c);
	int		 (*release)(struct chan *c);
	void		 (*detach)(struct chan *c);
	void		 (*close)(struct chan *c);
	void		 (*fini)(void);
};

/* The contenders (contenders.c lists them, in the tables' order). */
extern const struct contender c_pipe, c_sempair, c_ring, c_ring_adaptive,
    c_mq, c_iceoryx, c_segstep, c_shmids_stream;
extern const struct contender *const contenders[];
extern const int ncontenders;

/* What a measurement does. */
enum kind {
	ONEWAY,		/* writer to reader until the budget is spent */
	PINGPONG,	/* round trips until the budget is spent */
	ROUNDTRIPS,	/* a fixed count of round trips (the shmemq case) */
	LIVE,		/* a fixed count of steps of doubles, summed */
	FLOOR		/* LIVE's work in one process: no contender */
};

/* Where the two processes run. */
enum pin { PIN_NONE, PIN_ONE, PIN_TWO, NPIN };

/* One side's account of a measurement, in the shared page. */
struct side {
	double		 t0, t1;	/* CLOCK_MONOTONIC, s: first, last */
	double		 cpu;		/* CPU time of its loop, s */
	uint64_t	 n;		/* messages (round trips) done */
	int		 ok;
	char		 why[160];	/* if not ok */
};

/* The page driver and children share for one measurement. */
struct shared {
	volatile int	 stop;		/* the driver: budget spent */
	struct side	 w, r;		/* writer (pinger), reader (ponger) */
	double		 med, p99;	/* round trips, s (the pinger's) */
};

/* One measurement's result, as the tables use it. */
struct meas {
	int		 ok;
	double		 rate;		/* messages (round trips) a second */
	double		 secs;		/* wall time of the loop */
	double		 cpu;		/* both processes' CPU */
	double		 med, p99;	/* round trips, s */
	uint64_t	 n;
	char		 why[160];	/* if not ok */
};

/* What the driver was asked for (main.c). */
struct conf {
	int		 runs;
	double		 budget;	/* s a measurement, ONEWAY, PINGPONG */
	long		 roundtrips;	/* the shmemq case */
	long		 steps;		/* the live case */
	size_t		 live_n;	/* doubles a step */
	int		 pins[NPIN];	/* the pin modes to run */
	int		 cpu[2];	/* the CPUs to pin to; -1: none */
	int		 slots;		/* forced; 0: by size */
	const char	*prefix;	/* of every name made here */
	double		 cap;		/* s a measurement, ROUNDTRIPS */
	const char	*only;		/* contenders to run, or NULL */
	int		 parts[FLOOR];	/* the kinds to measure */
};
extern struct conf conf;

/* main.c */
extern volatile sig_atomic_t interrupted;
const char *pin_name(int pin);
int	 slots_for(size_t nbytes);
int	 sizes_used(size_t *v, int max);

/* cell.c: one measurement of contender c (NULL for FLOOR). */
void	 cell_signals(void);
void	 measure(const struct contender *c, int kind, size_t nbytes, int pin,
	    struct meas *m);

/* loops.c: the children's work. */
void	 fill(void *p, size_t nbytes, uint64_t seq, int last);
int	 check(const void *p, size_t nbytes, uint64_t seq, int *last);
void	 fill_live(double *x, size_t n, long step);
int	 sum_live(const double *x, size_t n, long step);
int	 run_writer(const struct contender *c, struct chan *ab, int kind,
	    struct shared *sh);
int	 run_reader(const struct contender *c, struct chan *ab, int kind,
	    struct shared *sh);
int	 run_pinger(const struct contender *c, struct chan *ab,
	    struct chan *ba, int kind, struct shared *sh);
int	 run_ponger(const struct contender *c, struct chan *ab,
	    struct chan *ba, int kind, struct shared *sh);
int	 run_floor(struct shared *sh);
double	 now(void);
double	 cputime(void);
void	 fail(struct side *s, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* stats.c */
int	 dcmp(const void *a, const void *b);
double	 dmedian(double *v, int n);
double	 dmin(const double *v, int n);
double	 dmax(const double *v, int n);
double	 percentile(double *v, size_t n, double p);

/* report.c */
const char *size_name(size_t nbytes, char *buf, size_t len);
const char *si(double v, char *buf, size_t len);
void	 report_init(void);
void	 report_block(int kind, size_t nbytes, int pin, int nrows,
	    struct meas m[][MAXRUNS], const char *const *skip);
void	 report_targets(void);

/* io.c */
int	 writeall(int fd, const void *p, size_t n);
int	 readall(int fd, void *p, size_t n);

/* xmem.c */
void	*xmalloc(size_t n);
void	*shared_map(size_t n);
void	 shared_unmap(void *p, size_t n);

#endif /* STREAM_H */
