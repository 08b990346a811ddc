/*
 * Internal interfaces of the text layer, lib/text/ (format-spec.md
 * sections 5, 6, 6.1, 6.2): numbers, values, lines, tables, emit.  Not
 * installed; included by lib/text/ and by the library's tests, never by
 * lib/seg/ nor by a tool.  The text layer reaches segments through
 * shmids.h alone (lib/README).  Every symbol here is hidden from the
 * shared library's dynamic symbol table.
 */
#ifndef SHMIDS_TEXT_H
#define SHMIDS_TEXT_H

#include <stddef.h>
#include <string.h>

#include "../common.h"
#include "number.h"

/*
 * number.c: shmids_parse() of a token whose buffer ends at lim: the
 * token ends there at the latest, and no byte at or after lim is read,
 * as in shmids_strtod_lim() (number.h); lim NULL: the text is
 * NUL-terminated.  shmids_parsen() is it with lim s + len.
 */
SHMIDS_HIDDEN int	shmids_parse_lim(const char *s, const char *lim,
			    const char **end, int type, void *elem);

/*
 * values.c: append the values of s[0..len) (blank-separated, nothing
 * else; s[len] readable as for shmids_values_parse()) to v; -1 with
 * errno and *bad as shmids_values_parse(), the values before *bad kept.
 */
SHMIDS_HIDDEN int	shmids_values_each(struct shmids_values *v,
			    const char *s, size_t len, const char **bad);

/*
 * values.c: one line's values appended to v, as shmids_values_read()
 * with SHMIDS_VALUES_LINE says (no sp: *more, and *bad at a bad value).
 */
SHMIDS_HIDDEN int	shmids_values_line(struct shmids_values *v,
			    const char *s, size_t len, int *more,
			    const char **bad);

/*
 * values.c: room in v for want elements in all (at least); 0, or -1
 * with ENOMEM, v unchanged.
 */
SHMIDS_HIDDEN int	shmids_values_reserve(struct shmids_values *v,
			    size_t want);

/*
 * One element formatted, as shmids_format() (buf: SHMIDS_NUM_MAX
 * bytes), for the loops over an array's elements: f64 in the shortest
 * form, nearly every array, without the public call's type and style
 * switch, a twentieth of shm-expand's instructions (issue 41).
 */
static inline size_t
shmids_format_elem(char *buf, int type, const void *elem, int style)
{
	double d;

	if (type == SHMIDS_F64 && style == SHMIDS_SHORT) {
		memcpy(&d, elem, sizeof(d));
		return shmids_dtoa(d, buf);
	}
	return shmids_format(buf, type, elem, style);
}

/*
 * Big arrays are formatted on several threads (format-spec.md 6.2):
 * from SHMIDS_PAR_MIN bytes of payload on, where the threads' start
 * (some 100 us) is lost in the time the values take.
 */
#define SHMIDS_PAR_MIN	((size_t)4 << 20)

/* Consecutive values of an array, formatted: see shmids_format_par(). */
struct shmids_chunk {
	const char		*text;	/* each value after a sep, back to back */
	const unsigned char	*len;	/* each value's bytes, sep excluded */
	size_t			 first, n;	/* elements: index of the first */
};

/*
 * Format count elements of type at data in style (one that type has:
 * the caller tried it on one value), each after the byte sep, on up to
 * nthreads threads, the caller's among them, in chunks (the text of a
 * chunk is then one run of bytes that needs no copy but where lines
 * break); put(arg, chunk) gets every chunk in
 * the array's order, on the caller's thread, and returns 0 to go on or
 * -1 to stop.  Memory is at most 35 MiB, whatever count.  Returns 0 once
 * every chunk was put, -1 when put() stopped (errno as put() left it),
 * -2 when it did not begin (nthreads < 2, no memory): nothing was put.
 * The other threads block every signal but the faults (SIGBUS, SIGSEGV,
 * SIGFPE, SIGILL), and touch nothing but data and their chunks.
 */
int	 shmids_format_par(int nthreads, int type, int style, int sep,
	    const void *data, size_t count,
	    int (*put)(void *, const struct shmids_chunk *), void *arg)
	    SHMIDS_HIDDEN;

#endif /* SHMIDS_TEXT_H */
