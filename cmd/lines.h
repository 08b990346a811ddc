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
 * its kept text stays in the buffer, which grows to hold it.
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
};

/* Read fd from its current offset.  0, or -1 (ENOMEM). */
int	 lines_init(struct lines *l, int fd);
/*
 * The next line: its length in bytes, with *line set; 0 at the end of
 * the input; -1 on a read error or a line that does not fit in memory
 * (errno: that of read(2), or ENOMEM).  An EINTR is returned, not
 * retried: the caller may have a signal to act on, then call again.
 */
ssize_t	 lines_next(struct lines *l, const char **line);
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
void	 lines_release(struct lines *l);
/*
 * Leave a regular file's offset after the last byte read, as read(2)
 * would have, and free the buffer.
 */
void	 lines_end(struct lines *l);

#endif
