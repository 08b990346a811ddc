/*
 * shm-import's reading (format-spec.md 5, 6, 6.1, 7): each input file's
 * lines in turn, what each is asked of the library's classifier; an
 * inline array read (array.c, by the engine, engine.h) and a table block
 * (table.c) handed to the sink (sink.h), whose reference line takes the
 * place of their lines; every other line, and what the sink could not
 * take, passed through byte for byte.  The notes (notes.h) are told what
 * happened, and say nothing here.
 */
#ifndef IMPORT_READ_H
#define IMPORT_READ_H

#include <stdio.h>

#include "shmids.h"
#include "conf.h"
#include "lines.h"
#include "sink.h"

/* A line kept: an array's first line, a table's first row's blanks. */
struct text {
	char		*buf;
	size_t		 len, cap;
};

struct reader {
	struct conf	*conf;		/* its want: what the input had of -f */
	struct sink	*sink;
	struct lines	 l;
	const char	*fname;		/* the file at hand, as said */
	unsigned long	 lineno;	/* its line at hand */
	int		 failed;	/* an error was said: exit 1 */
	struct text	 first;		/* array.c: the array's first line */
	struct text	 lead;		/* table.c: its first row's blanks */
};

/* Ready to read with what conf asks, into sink. */
void	 read_init(struct reader *rd, struct conf *conf, struct sink *sink);
/* Read the file fp, named fname, to its end. */
void	 read_file(struct reader *rd, FILE *fp, const char *fname);

/*
 * The next line, its length (0 at the end; *s set); input that cannot
 * be read ends the run (said as line lineno's).  A signal that came
 * while no read was blocked is acted on first.
 */
ssize_t	 read_next(struct reader *rd, const char **s, unsigned long lineno);
/*
 * The lines kept from line first (lines_keep()) through the last read,
 * written as they were read; a file shorter now ends the run.
 */
void	 read_pass_kept(struct reader *rd, unsigned long first);
/* s[0..n) after t's text; no memory for it ends the run (line lineno). */
void	 read_text_add(struct reader *rd, struct text *t, const char *s,
	    size_t n, unsigned long lineno);

/*
 * Line s[0..n), the one at hand, which begins with a number: a table
 * block of it and the rows after it, or text (table.c).
 */
void	 read_table(struct reader *rd, const char *s, size_t n);
/*
 * Line s[0..n), the one at hand, an inline array's first line (c: what
 * the classifier said of it; sel: -f names its field), and its
 * continuations: converted, or passed through as read (array.c).
 */
void	 read_array(struct reader *rd, const char *s, size_t n,
	    const struct shmids_line *c, int sel);

#endif
