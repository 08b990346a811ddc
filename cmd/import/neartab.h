/*
 * Tables left as text, and why (issue 33; format-spec.md 7, shm-import):
 * runs of lines that look like a table's rows but are no rows of section
 * 6.1 (a text column, an empty field, a decimal comma, a comma at the
 * end).  After the input, for each cause, the largest such table is
 * told with what would make it a table, and how many there were.
 */
#ifndef IMPORT_NEARTAB_H
#define IMPORT_NEARTAB_H

#include <stddef.h>

/*
 * Line lineno of the file at hand, s[0..n) with its end of line, is no
 * row of a table block (a CSV line, or one that begins with a number):
 * lines not noted end a run.  Lines longer than NEARTAB_LINE_MAX are
 * not looked at.
 */
#define NEARTAB_LINE_MAX	65536
void	 neartab_text(unsigned long lineno, const char *s, size_t n);
/*
 * A table block of section 6.1 (sep ',' or a blank), rows x cols from
 * line first, converted or left as text.
 */
void	 neartab_block(unsigned long first, size_t rows, size_t cols,
	    int sep, int converted);
/*
 * Line lineno is a row with a typo that cut a table in two, said by its
 * caller: a run whose text is first seen there is not told again.
 */
void	 neartab_typo(unsigned long lineno);
/* The file fname ended: its runs are judged, the next file's begin. */
void	 neartab_file(const char *fname);
/* After the input: the tables left as text told.  1 if any was. */
int	 neartab_say(void);

#endif
