/*
 * What becomes of what shm-import reads (format-spec.md 7, shm-import):
 * a sink gives an array's values, or a table block's, their place, writes
 * the reference line that takes the place of their lines, and remembers
 * what it made, to take it back if the run cannot finish.  The reading
 * asks it through these calls and knows no segment: sink_seg.c makes a
 * segment of each; sink_stream.c puts the arrays of a field into one
 * stream (shm-import --stream).
 *
 * Every call that cannot do what it is asked says why, in the user's
 * terms (file:line: ...), and leaves the lines to pass through as text.
 */
#ifndef IMPORT_SINK_H
#define IMPORT_SINK_H

#include <stddef.h>

#include "shmids.h"

/* An inline array, by its first line. */
struct sink_array {
	const char	*fname;		/* as diagnostics name it */
	unsigned long	 line;		/* its first line's number */
	const char	*s;		/* its first line, or a long one's first
					   bytes */
	size_t		 field, fieldlen; /* the field in s */
	const char	*eol;		/* the first line's end (CR LF, LF, CR
					   or none), after the reference */
	size_t		 eollen;
};

/* A table block (format-spec.md 6.1), by its first row. */
struct sink_table {
	const char	*fname;
	unsigned long	 line;		/* its first row's number */
	const char	*lead;		/* the first row's leading blanks */
	size_t		 leadlen;
	int		 sep;		/* ' ', '\t' or ',' */
	const char	*eol;		/* the last row's end, as a string */
	size_t		 rows, cols;
};

struct sink {
	/*
	 * Where the count values of type of array a go, before they are
	 * parsed; NULL if they can have no place (why is said by end()).
	 */
	char	*(*start)(struct sink *k, const struct sink_array *a, int type,
		    size_t count);
	/* The values are not to be had (a bad one): what start() made goes. */
	void	 (*drop)(struct sink *k);
	/*
	 * The values start() asked for are in: the reference line written
	 * in place of the array's lines, 0; or -1, start() having given
	 * them no place: why said, nothing written.
	 */
	int	 (*end)(struct sink *k, const struct sink_array *a);
	/*
	 * A table block's values, v (rows * cols of them, row by row): made,
	 * its reference line written, 0; or -1, why said, nothing written.
	 */
	int	 (*table)(struct sink *k, const struct sink_table *t,
		    const struct shmids_values *v);
	/* Everything made taken back (the run cannot finish). */
	void	 (*undo)(struct sink *k);
	/* After the input: what is left to say.  1 if anything failed. */
	int	 (*close)(struct sink *k);
};

/*
 * The name of array a's segment or stream, prefix and the field, into
 * name[0..size) (SHMIDS_NAME_MAX + 2 bytes): its length, or -1 if it is
 * none, *toolong 1 if for its length alone.
 */
int	 sink_name(const char *prefix, char *name, size_t size,
	    const struct sink_array *a, int *toolong);

/*
 * The sink of segments: one for each array and table block, of mode,
 * named prefix and the field (a table: prefix, the file's name and its
 * first line).
 */
struct sink	*sink_segments(int mode, const char *prefix);

/*
 * The sink of streams (--stream): the arrays of a field the messages of
 * one stream of slots slots, named prefix and the field, each slot
 * holding as many bytes as the field's first array; table blocks to
 * the sink of segments.  close() ends every stream.
 */
struct sink	*sink_streams(int mode, const char *prefix, size_t slots);

#endif
