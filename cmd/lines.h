/*
 * Lines read from a descriptor in big blocks, for a filter that may have
 * to pass a run of lines (an array and its continuations) through
 * unchanged after reading it all: shm-import.
 *
 * A line is returned in place, with its LF (the last line may lack one)
 * and a NUL after it, so that a value may be parsed up to the line's
 * end; it is valid until the next call.  Kept text (lines_keep() to
 * lines_release()) is, for a regular file, read again by offset when it
 * is asked for (pread(2)): memory holds the line at hand, not a whole
 * array's text.  Other input (a pipe, a terminal) cannot be read again:
 * its kept text stays in the buffer until 4 MiB of it are there (with
 * the run being read, up to 8 MiB); then it goes, and what follows at
 * each refill, to a file of its own in TMPDIR (/tmp), as sort(1)
 * spills, so that a long array is never held whole (where no such file
 * can be made or written, it stays in the buffer, which grows to hold
 * it, and is tried again once twice as much is held).
 */
#ifndef SHMIDS_LINES_H
#define SHMIDS_LINES_H

#include <sys/types.h>

#include <stddef.h>

struct lines {
	int		 fd;
	int		 reg;		/* a regular file: read by offset */
	int		 eof;
	char		*buf;		/* cap bytes; buf[end] is NUL */
	size_t		 cap, pos, end;	/* next line at pos, data to end */
	size_t		 scan;		/* buf[pos..scan) has no LF */
	off_t		 off;		/* reg: file offset of buf[end] */
	int		 keeping;
	size_t		 mark;		/* !reg: kept text from buf[mark] */
	off_t		 markoff;	/* reg: kept text from this offset */
	off_t		 lf;		/* lines_run: input offset past a LF, */
	off_t		 lfend;		/* the last before this offset */
	int		(*waiting)(int);	/* before a read that would block */
	int		(*partok)(const char *, size_t);	/* see lines_next() */
	int		 part;		/* the line returned is a beginning */
	int		 nopart;	/* the next line is returned whole */
	int		 spillfd;	/* !reg: kept text past SPILL, or -1 */
	off_t		 spilled;	/* bytes in it, before buf[mark] */
	size_t		 spillat;	/* a spill failed: try again at this
					   much kept in memory; else 0 */
	int		 spillerr;	/* its file could not be read back:
					   errno (ENODATA: shorter than
					   written); else 0 */
};

/*
 * Read fd from its current offset.  0, or -1 (ENOMEM).  Where fd is no
 * regular file and l->waiting is set, before each read(2) l->waiting(0)
 * says whether the caller has output to flush; if so, and the read
 * would block, nothing being there to read yet, l->waiting(1) flushes
 * it, so that its reader never waits for text already made (and no
 * poll(2) is made while nothing is to flush: a long array's reads).
 */
int	 lines_init(struct lines *l, int fd);
/*
 * The next line: its length in bytes, with *line set; 0 at the end of
 * the input; -1 on a read error or a line that does not fit in memory
 * (errno: that of read(2), or ENOMEM).  An EINTR is returned, not
 * retried: the caller may have a signal to act on, then call again.
 */
ssize_t	 lines_next(struct lines *l, const char **line);
/*
 * A line of LINES_PART bytes or more, whose first bytes l->partok (when
 * set) accepts, is returned by those bytes alone (1 MiB or more, with
 * no LF), l->part set: the caller reads the rest, of a regular file by
 * offset (shm-import's engine, then lines_seek()), of other input with
 * lines_unread() of what it did not use, lines_more() and lines_skip().
 * So a long line is never held whole.  l->nopart set, the next line is
 * returned whole (and l->nopart cleared).
 */
#define LINES_PART	((size_t)1 << 20)
/*
 * The whole lines from the next one on, at least want bytes of them
 * where the input holds that many, else as many as it holds (0: the
 * end, or a line longer than want: read it by lines_next()); from a
 * pipe that holds a whole line but has no more to give now, those it
 * holds, without waiting for more (lines_next() would not); *run is
 * set and the next line stays the next one until lines_skip().  Errors
 * as lines_next().  The buffer grows to hold want bytes and a block.
 */
ssize_t	 lines_run(struct lines *l, const char **run, size_t want);
/*
 * The rest of a line returned in part (l->part), from the next byte on:
 * through its LF, or the input's end (*eol 1), where those come within
 * want bytes, else want bytes or more of it (*eol 0).  The next byte
 * stays the next one until lines_skip().  Errors as lines_next().
 */
ssize_t	 lines_more(struct lines *l, const char **s, size_t want, int *eol);
/*
 * Pass over n bytes from the next one: whole lines (lines_run()), or
 * of a line returned in part (lines_more()).
 */
void	 lines_skip(struct lines *l, size_t n);
/*
 * A regular file's buffer back to its first size, what it held past
 * the next line to be read again from the file: lines returned are no
 * longer valid.  Other input keeps its buffer.
 */
void	 lines_trim(struct lines *l);
/* A regular file's offset of the next line. */
off_t	 lines_at(const struct lines *l);
/*
 * A regular file read on from off, past what was read (import/engine.c read
 * it by offset): a line's start, or where a line returned in part
 * (l->part) begins again.  Lines returned are no longer valid.  Kept
 * text stays kept (it is read again by offset).
 */
void	 lines_seek(struct lines *l, off_t off);
/*
 * Give back line, the one just returned: the next call returns it
 * again, and kept text ends before it.
 */
void	 lines_unread(struct lines *l, const char *line);
/* Keep the text from line (the one just returned) on. */
void	 lines_keep(struct lines *l, const char *line);
/*
 * The kept text, up to the end of the last line returned, to fn in
 * pieces, in order.  0, or -1: a read error (errno), or the file is
 * shorter now than when it was read (ENODATA).
 */
int	 lines_kept(struct lines *l, void (*fn)(const char *, size_t));
/*
 * Why a pipe's kept text could not be read back from its file in
 * TMPDIR by lines_kept() or lines_replay() (words for a message), or
 * NULL if that is not what failed: the caller says it so, not as a
 * fault of its input.
 */
const char *lines_spill_why(const struct lines *l);
void	 lines_release(struct lines *l);
/*
 * A pipe's kept text (not a regular file's): its length in bytes, and
 * its bytes from offset from (where a token or a line begins) to the
 * end of the last line returned, to fn in runs of whole lines of about
 * want bytes, each NUL-terminated, in order; the last may lack its LF.
 * A line longer than want is cut where cut() says (the length of a
 * piece that may end there, 0 for nowhere), or given whole with cut
 * NULL.  So a pipe's long array is parsed again from its text, once
 * its segment is made of the count (shm-import's engine_again.c).  0;
 * fn's value, which stops the replay when not 0; or -1: no memory, a
 * read error of the spilled text (errno).
 */
off_t	 lines_kept_len(const struct lines *l);
int	 lines_replay(struct lines *l, off_t from, size_t want,
	    size_t (*cut)(const char *, size_t),
	    int (*fn)(void *, const char *, size_t), void *arg);
/*
 * Leave a regular file's offset after the last byte read, as read(2)
 * would have, and free the buffer.
 */
void	 lines_end(struct lines *l);

#endif
