/*
 * The notes' own parts (notes.h is their face): each cause's notes in a
 * file of their own, told by notes.c what they need of each line and
 * block, and said by notes_end().
 */
#ifndef IMPORT_NOTE_H
#define IMPORT_NOTE_H

#include <stddef.h>

#include "notes.h"

/*
 * What looks like an array, or a table: 10 values or more (an array
 * continued, 2 or more); fewer is a setting ("grid 100"), not a miss.
 */
#define NOTE_VALUES	10
/* Bytes of a token a note quotes, and a buffer that holds them. */
#define NOTE_TOKMAX	32
#define NOTE_TOK	(NOTE_TOKMAX + 8)
/* A place as notes say it, "file:line", 80 bytes of the file's name. */
#define NOTE_WHERE	96

void	 note_where(char *buf, const struct notes_at *at);
/* tok[0..n), NOTE_TOKMAX bytes of it at most, into buf[NOTE_TOK]. */
void	 note_tok(char *buf, const char *tok, size_t n);
/* "; n such what in all" into buf, or "" where n is 1. */
void	 note_more(char *buf, size_t size, unsigned long n, const char *what);

/*
 * missed.c: arrays and tables -k or -t left, said when nothing was
 * converted.  note_arraylike(): does an array of field[0..len), count
 * values on lines lines, look like one (its field one a writer may
 * write, as -f takes it, and not R's row name "1")?
 */
int	 note_arraylike(const char *field, size_t len, size_t count,
	    int lines);
void	 missed_init(const struct notes_conf *conf);
void	 missed_line(const struct notes_line *l);	/* R's row names */
void	 missed_norow(const struct notes_line *l);	/* not -t's type */
void	 missed_table(const struct notes_block *b);
void	 missed_array(const struct notes_block *b);
void	 missed_bad(const struct notes_block *b);
/* tablesaid: a table was said to be left as text for another cause. */
void	 missed_say(int tablesaid);

/* typo.c: a typo that left an array, or a row, as text. */
void	 typo_bad(const struct notes_at *at, const char *tok, size_t len);
void	 typo_array(const struct notes_block *b);
/* Was line at meant as the continuation of an array the note tells? */
int	 typo_meant(const struct notes_at *at);
void	 typo_line(const struct notes_line *l);
void	 typo_block(const struct notes_block *b);
void	 typo_file(void);
void	 typo_say(void);

/* alone.c: rows alone; meant: the line typo_meant() tells of. */
void	 alone_init(const struct notes_conf *conf);
void	 alone_block(const struct notes_block *b, int meant);
void	 alone_file(const char *fname);
void	 alone_say(void);

#endif
