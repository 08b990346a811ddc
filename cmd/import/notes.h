/*
 * shm-import's notes (format-spec.md 7, shm-import): why what looked
 * like an array or a table stayed text, and what would convert it.  A
 * listener: the reading tells it what happened, a line, a block or a
 * bad value at a time, and after the input it says one note for each
 * cause, with how many more there were of it.  It never changes what is
 * converted, nor the exit status, and it knows of the tool only what
 * notes_init() gives it.
 */
#ifndef IMPORT_NOTES_H
#define IMPORT_NOTES_H

#include <stddef.h>

#include "shmids.h"

/* What the notes are told at the start. */
struct notes_conf {
	unsigned long	 minvals;	/* -k */
	int		 deftype;	/* the bare -t type; -1: none (f64) */
	int		 fields;	/* -f given: only the notes of what
					   is there whatever was asked are
					   said (Fortran's forms) */
};

/* A place in the input: a file's name as diagnostics give it, a line. */
struct notes_at {
	const char	*fname;
	unsigned long	 line;
};

/* A line, as the reading took it (notes_line()). */
struct notes_line {
	struct notes_at	 at;
	int		 what;
#define NOTES_TEXT	0	/* no row: text, a reference, an array's
				   first line (c: what the classifier said) */
#define NOTES_NOROW	1	/* begins with a number, but is no row of a
				   table block of -t's type (or too wide) */
#define NOTES_ROW	2	/* a row of a table block */
	const char	*s;		/* the line, with its end */
	size_t		 n;
	const struct shmids_line *c;	/* NOTES_TEXT */
	int		 first;		/* NOTES_ROW: it begins a block */
	const double	*vals;		/* NOTES_ROW of f64: its values */
	size_t		 nvals;
};

/* An array, a table block or a file, ended (notes_block()). */
struct notes_block {
	int		 what;
#define NOTES_ARRAY	0
#define NOTES_TABLE	1
#define NOTES_FILE	2	/* an input file ended (at: its name) */
	struct notes_at	 at;		/* the first line */
	unsigned long	 last;		/* the last line */
	int		 made;		/* a segment of it was made */
	size_t		 count;		/* its values */
	/* NOTES_TABLE */
	size_t		 rows, cols;
	int		 sep;
	int		 nomem;		/* its values had no room */
	/* NOTES_ARRAY */
	int		 bad;		/* a value was bad: it is text */
	const char	*s;		/* its first line, or its first bytes */
	size_t		 n;
	int		 whole;		/* s[0..n) is the whole first line */
	size_t		 field, fieldlen; /* the field in s */
	int		 type, typed;	/* its type; given by -t field=type */
};

void	 notes_init(const struct notes_conf *conf);
void	 notes_line(const struct notes_line *l);
void	 notes_block(const struct notes_block *b);
/*
 * A bad value of the array whose first line is at: tok, valid until the
 * next read, its token ending at a blank, comma, CR, LF or NUL.
 */
void	 notes_bad(const struct notes_at *at, const char *tok);
/* After the input: the notes said, each cause once. */
void	 notes_end(void);

#endif
