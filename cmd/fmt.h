/*
 * Output formats for people and programs: sizes as ls -h writes them,
 * JSON strings, ISO 8601 times.
 */
#ifndef SHMIDS_FMT_H
#define SHMIDS_FMT_H

#include <stdio.h>
#include <time.h>

/*
 * n bytes as ls -h writes them: "208", "1.5K", "12K", "8.0M" (powers of
 * 1024, rounded up, one decimal below 10).  buf holds at least 8 bytes.
 */
void	 fmt_human(unsigned long long n, char *buf, size_t len);
/*
 * s[0..len) as a JSON string, quotes included.  Any bytes are safe: '"',
 * '\\' and control bytes are escaped, and bytes outside ASCII are written
 * \u00XX (each byte as the Latin-1 character), so that the output is
 * valid JSON whatever a hostile header or file name holds.
 */
void	 fmt_json_str(FILE *fp, const char *s, size_t len);
/*
 * s (a name from the password database) fit for a terminal, into buf
 * (len bytes, at least 8): printable ASCII and well-formed UTF-8 as they
 * are, any other byte (control, DEL, a C1 control's sequence, a byte of
 * an invalid sequence) as \ooo.  With cols > 0, a result wider than cols
 * columns is cut to cols - 1 and ends with '+', as ps(1) cuts a user
 * name; so is one longer than buf.
 */
void	 fmt_text(const char *s, size_t cols, char *buf, size_t len);
/* The columns s takes: one a character, UTF-8 sequences counted once. */
size_t	 fmt_width(const char *s);
/*
 * The length of the well-formed UTF-8 sequence (RFC 3629: shortest
 * form, no surrogates, at most U+10FFFF) of two or more bytes at p, or 0;
 * its code point in *cpp unless cpp is NULL.
 */
size_t	 fmt_utf8_len(const char *p, size_t len, unsigned long *cpp);
/* t as ISO 8601 in UTC, "2026-11-22T13:45:02Z"; buf holds 32 bytes. */
void	 fmt_iso(time_t t, char *buf, size_t len);

#endif /* SHMIDS_FMT_H */
