/*
 * A long array's continuation lines in a regular file, counted, then
 * parsed straight into their place in a segment, in blocks of whole
 * lines that threads read by offset (format-spec.md 6.2): each block is
 * read, counted and parsed by one thread, so that reading is done on
 * every thread and each block's values are counted once.
 *
 * Only the common case is done here: lines of 64 KiB or less, the array
 * ending before the file, every value good.  Anything else is "cannot"
 * (-1), and nothing has been consumed: the caller reads the lines as it
 * would have, and finds and reports what differs, in the same words.
 * A file that is not, when parsed, what was counted is an error.
 */
#ifndef SHMIDS_FVALUES_H
#define SHMIDS_FVALUES_H

#include <sys/types.h>

#include <pthread.h>
#include <signal.h>
#include <stddef.h>

struct fblock;

struct fvalues {
	int		 fd, type, nthreads;
	off_t		 from;		/* the first line's offset */
	const volatile sig_atomic_t *stop;	/* a signal: leave off */
	pthread_t	 caller;	/* the thread a handler sets stop on */
	pthread_mutex_t	 mu;		/* for quit and stopat */
	int		 quit;		/* stop seen: every thread leaves off */
	size_t		 stopat;	/* counting: the first block that ended */
	size_t		 base;		/* counting: the round's first block */
	struct fblock	*b;
	size_t		 nb;		/* blocks, through the array's end */
	size_t		 count;		/* values: counted, then parsed */
	size_t		 lines;		/* through the first not continued */
	off_t		 end;		/* the offset after that line */
	char		*dst;		/* parsing: where the values go */
};

/*
 * Count the values of the lines of fd from offset from (a line's start)
 * through the first line not continued, on nthreads threads.  0, with
 * count, lines and end set; -1: cannot (a signal, an error, a long line,
 * the array ends with the file).
 */
int	 fvalues_count(struct fvalues *fv, int fd, off_t from, int type,
	    int nthreads, const volatile sig_atomic_t *stop);
/*
 * Parse the counted values into dst (room for count elements of the
 * type).  0; FV_CHANGED: the file is not the text counted (shorter, or
 * other values), the first thing wrong in its order; -1: cannot (a
 * signal, an error, a bad value first).  dst is then partly written.
 */
#define FV_CHANGED	1
int	 fvalues_parse(struct fvalues *fv, void *dst);
void	 fvalues_free(struct fvalues *fv);

#endif
