/*
 * The one reader of shm-import's arrays (format-spec.md 6, 6.2, 7), from
 * either source: a regular file's long ones by offset (engine.c), and
 * the rest, a pipe's and a file's short ones, from their lines as they
 * come (engine_stream.c).  eng_array() is the one entry: from an
 * array's first line it reads the array by whichever fits, and its
 * caller (shm-import) says the messages and makes the segment through
 * struct eng_io, on one thread or many.
 *
 * A regular file's long array: from an offset inside an array (a first
 * line's values, or the line after it) through its last continuation
 * line, the values are counted, then, once the caller has made the
 * segment of that count, read again and parsed straight into it.  Both
 * passes read the file by offset in blocks of about 1 MiB, one block a
 * thread at a time, on 1 to SHMIDS_THREADS threads: a block begins where
 * a line or a token begins, so that one long line (Fortran's print *)
 * is cut at its blanks and read on every thread, and memory holds the
 * segment and a block a thread, never the array's text or its values
 * twice.
 *
 * A pipe cannot be read twice, but its array's text is kept as it is
 * read, in case it must pass through (lines.h): a pipe's long array is
 * counted in runs as it comes, its segment made of the count, and its
 * values parsed from that kept text (eng_again(), engine_again.c).
 * What eng_count() cannot do (a token longer than 1
 * MiB, a read error, a signal, no memory) is "cannot" (-1) before
 * anything is consumed; errno says which, and eng_array() reads the
 * array from its lines instead.
 */
#ifndef SHMIDS_ENGINE_H
#define SHMIDS_ENGINE_H

#include <sys/types.h>

#include <pthread.h>
#include <signal.h>
#include <stddef.h>

#include "shmids.h"

struct eblock;
struct lines;

struct engine {
	int		 fd, type, nthreads;
	off_t		 from;		/* where the array's text begins */
	const volatile sig_atomic_t *stop;	/* a signal: leave off */
	pthread_t	 caller;	/* the thread a handler sets stop on */
	pthread_mutex_t	 mu;		/* for quit and stopat */
	int		 quit;		/* stop seen: every thread leaves off */
	size_t		 stopat;	/* counting: the first block that ended */
	size_t		 base;		/* counting: the round's first block */
	struct eblock	*b;
	size_t		 nb;		/* blocks, through the array's end */
	char		*dst;		/* parsing: where the values go; NULL:
					   checked, not kept */
	/* eng_count() */
	size_t		 count;		/* values */
	size_t		 lines;		/* lines from `from`, the last one
					   whether it ends in LF or not */
	off_t		 end;		/* the offset after the array's last line */
	off_t		 first_end;	/* after the first LF from `from` (or end) */
	/* eng_parse() == ENG_BAD: the first bad value in the file's order */
	char		*bad;		/* its token, NUL-terminated (malloc'd) */
	size_t		 badlf;		/* the LFs between from and it */
	int		 baderr;	/* EINVAL or ERANGE */
};

/*
 * Count the values of the text of fd from offset from (where a token may
 * begin) through the first line not continued, or the file's end, on
 * nthreads threads.  0, with count, lines, end and first_end set; -1:
 * cannot (errno: EINTR for a signal, ENOMEM, EIO-like read errors, E2BIG
 * for a token or a run of blanks longer than a block's slack).
 */
int	 eng_count(struct engine *e, int fd, off_t from, int type,
	    int nthreads, const volatile sig_atomic_t *stop);
/*
 * Parse the counted values into dst (room for count elements of the
 * type), or only check them (dst NULL).  0; ENG_BAD: a token that is no
 * value (bad, badlf, baderr set; values before it may be written);
 * ENG_CHANGED: the file is not the text counted (shorter, more or fewer
 * values or lines, or a last line without LF that has grown since);
 * -1: cannot (errno as eng_count()).  Where several
 * blocks fail, the first in the file's order says.
 */
#define ENG_BAD		1
#define ENG_CHANGED	2
int	 eng_parse(struct engine *e, void *dst);
void	 eng_free(struct engine *e);
/*
 * The last place in s[0..len) (no LF in it) where a block may begin:
 * a token's start after a blank, the token before not "/" alone, so
 * that s[0..cut) reads as values as the line would (a pipe's long line
 * parsed in pieces, engine_stream.c); 0 if none in its last 4 KiB.
 */
size_t	 eng_cut(const char *s, size_t len);

/*
 * What eng_array() asks of its caller, who says its messages and owns
 * the segments: the next line (its length, 0 at the end; an error it
 * acts on itself); a signal acted on if one came (stopflag is set by
 * its handler); input that cannot be read (errno set; does not
 * return); a bad value of the array, its token in text that stays
 * valid until the next read; the first line again, read whole after
 * all; where count elements of type go: the caller's segment, or NULL
 * (none wanted, or none made: the caller remembers why); and that
 * segment dropped, its values not to be had.
 */
struct eng_io {
	void	 *arg;
	const volatile sig_atomic_t *stopflag;
	ssize_t	(*next)(void *arg, const char **s, unsigned long lineno);
	void	(*stop)(void *arg);
	void	(*fail)(void *arg, unsigned long lineno);
	void	(*bad)(void *arg, unsigned long lineno, const char *tok);
	void	(*again)(void *arg, const char *s, size_t n);
	char	*(*make)(void *arg, int type, size_t count);
	void	(*drop)(void *arg);
};

/* One array read (eng_array()). */
struct eng_array {
	struct lines	*l;
	int		 nthreads;
	const struct eng_io *io;
	const char	*s;		/* the first line, or the line at hand */
	size_t		 n, vals;	/* its length, where its values begin */
	off_t		 at;		/* a regular file's: the first line's offset */
	int		 tried;		/* the file's engine was tried */
	int		 k;		/* 0, or -1: bad (bad set) or no room */
	int		 more;		/* the last line read goes on */
	const char	*bad;		/* the first bad value's token */
	size_t		 read;		/* the array's bytes read so far */
	struct shmids_values v;	/* the values read into memory */
	/* a pipe's long array: its lines from a run on counted, not held */
	int		 counting;
	off_t		 from;		/* where they begin in the kept text */
	unsigned long	 fromline;	/* the first one's line */
	size_t		 counted;	/* their values */
	/* results */
	size_t		 count;		/* the array's values */
	unsigned long	 first, lineno;	/* the first line, the last read */
	/* the first line, read in part: its end (CR LF, LF, CR or none) */
	int		 parted;
	char		*eol, eolbuf[2];
	size_t		 eollen;
};

/*
 * Ready to read the array whose first line s[0..n) (lines_next() just
 * returned it, maybe in part: l->part) has its values from s[vals], of
 * the type, on nthreads threads; lineno is its line.
 */
void	 eng_array_init(struct eng_array *st, struct lines *l, int type,
	    int nthreads, const struct eng_io *io, unsigned long lineno,
	    const char *s, size_t n, size_t vals);
/*
 * Read the array through its last continuation line (format-spec.md 6,
 * 6.2): a regular file's long one by the file's engine, any other from
 * its lines.  0: its count values are in the segment io->make gave (if
 * it gave one); ENG_BAD: a value is bad (said through io->bad; no
 * segment); ENG_CHANGED: the text (a regular file, or a pipe's kept in
 * TMPDIR) is not the text counted; -1: no room for the values, or the
 * kept text could not be read back (lines_spill_why()).  l is past the
 * array's lines (kept, lines_keep()), st->lineno at its last.
 * eng_array_free() frees what it holds.
 */
int	 eng_array(struct eng_array *st);
void	 eng_array_free(struct eng_array *st);

/*
 * A pipe's counted lines (st->counting) parsed again from the kept text
 * (lines_replay()) into dst, room for st->counted elements (NULL: only
 * checked), once eng_array() made the segment of the count: the
 * values parsed once and straight into place, as a regular file's
 * (engine.c), and memory never holds them twice.  0; ENG_BAD (said
 * through io->bad, the segment dropped); ENG_CHANGED: read back with
 * more or fewer values than counted (the segment dropped); -1: no
 * memory, or the text kept cannot be read again (lines_spill_why()).
 */
int	 eng_again(struct eng_array *st, char *dst);

#endif
