/*
 * Internal: exact conversions between IEEE binary64/binary32 and the
 * ASCII forms of format-spec.md section 6.  Not installed.
 */
#ifndef SHMIDS_NUM_H
#define SHMIDS_NUM_H

#include <stddef.h>
#include <stdint.h>

#ifndef SHMIDS_HIDDEN
#define SHMIDS_HIDDEN __attribute__((visibility("hidden")))
#endif

/*
 * shortest round-trip decimal of v per format-spec.md section 6 (including
 * -0, inf, -inf, nan, -nan, nan(0xM), -nan(0xM)); NUL-terminated; returns
 * length (< SHMIDS_NUM_MAX = 32).  buf must hold SHMIDS_NUM_MAX bytes: those
 * after the NUL may be overwritten.
 */
SHMIDS_HIDDEN size_t shmids_dtoa(double v, char *buf);
SHMIDS_HIDDEN size_t shmids_ftoa(float v, char *buf);

/*
 * parse one value starting at s (no leading blanks skipped); the token ends
 * at the first blank (space/tab), CR, LF or NUL; the whole token must be a
 * number: returns 0 and sets *v and *end (if end != NULL) to the token end,
 * or -1 with errno EINVAL (not a number, empty token, junk) or ERANGE (a
 * finite decimal whose correctly rounded value overflows to infinity).
 * Accepts: optional sign, decimal with optional fraction and exponent (e/E),
 * C99 hex floats (0x1.8p3), inf/infinity/nan case-insensitive, the
 * nan(0xM) forms of section 6 which restore the exact significand and sign
 * bits (so signaling NaNs and payloads survive), and R's NA (exactly
 * "NA", no sign; SHMIDS_NA_FRAC).  Correct rounding (round
 * to nearest even) for every input of any length.  On ERANGE, *v is the
 * infinity of the token's sign and *end is set as on success; on EINVAL
 * neither is touched.  errno is left alone on success.  A hex float that
 * overflows is ERANGE too.  In nan(...) only 0xM is accepted, M nonzero
 * and no wider than the fraction field (52 or 23 bits).
 */
SHMIDS_HIDDEN int shmids_strtod(const char *s, const char **end, double *v);
SHMIDS_HIDDEN int shmids_strtof(const char *s, const char **end, float *v);

/*
 * The same, when the token's buffer ends at lim: the token ends there at
 * the latest, and no byte at or after lim is read (lim NULL: as above,
 * up to the first end byte).  Lets the digits be read 8 at a time.
 */
SHMIDS_HIDDEN int shmids_strtod_lim(const char *s, const char *lim,
    const char **end, double *v);
SHMIDS_HIDDEN int shmids_strtof_lim(const char *s, const char *lim,
    const char **end, float *v);

/*
 * The same into elem, 8 or 4 bytes in native order at any alignment:
 * shmids_parse()'s float types, without a copy or a call between.
 */
SHMIDS_HIDDEN int shmids_f64_parse(const char *s, const char *lim,
    const char **end, void *elem);
SHMIDS_HIDDEN int shmids_f32_parse(const char *s, const char *lim,
    const char **end, void *elem);
/*
 * shmids_f64_parse() where a comma ends the token too (lim not NULL): a
 * comma row's value parsed in place, its comma not looked for first
 * (table.c).
 */
SHMIDS_HIDDEN int shmids_f64_parse_comma(const char *s, const char *lim,
    const char **end, void *elem);

/*
 * R's missing value NA (NA_real_, bits 7ff00000000007a2): the NaN whose
 * fraction field is 1954, sign clear; f32 takes the same fraction field
 * (7f8007a2).  Written and read as "NA" (format-spec.md 6).
 */
#define SHMIDS_NA_FRAC	UINT64_C(0x7a2)

/*
 * Small helpers the conversions share, here once.  static inline: each
 * is a few instructions on the hot paths of both directions.
 */

/*
 * A blank between tokens (format-spec.md 6): space or tab.  Inline for
 * the per-byte loops; shmids_isblank() exports the same test.
 */
static inline int
shmids_blank(int c)
{
	return c == ' ' || c == '\t';
}

/*
 * p[k] (k >= 0) of a token whose buffer ends at lim (p <= lim), or NUL,
 * a token end, at and after lim; lim NULL: the text is NUL-terminated.
 * A constant NULL folds the test away.
 */
static inline int
shmids_at(const char *p, ptrdiff_t k, const char *lim)
{
	return lim == NULL || lim - p > k ? (unsigned char)p[k] : 0;
}

/*
 * s[0..len), CRs and LF at its end ignored: is its last token "/"
 * (format-spec.md 6)?  Inline for the per-line loops of the long
 * arrays; shmids_continued() exports the same test.
 */
static inline int
shmids_cont(const char *s, size_t len)
{
	while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == '\r'))
		len--;
	while (len > 0 && shmids_blank(s[len - 1]))
		len--;
	return len > 0 && s[len - 1] == '/' &&
	    (len == 1 || shmids_blank(s[len - 2]));
}

/* Does a token end at c: blank, CR, LF or NUL (one test, mostly)?  */
static inline int
shmids_isend(int c)
{
	unsigned u = (unsigned char)c;

	return u <= ' ' && (UINT64_C(1) << u & (UINT64_C(1) << ' ' |
	    1 << '\t' | 1 << '\r' | 1 << '\n' | 1)) != 0;
}

/* The value of hex digit c, or -1. */
static inline int
shmids_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* 64x64 -> 128-bit product: returns the low half, *hi the high one. */
static inline uint64_t
shmids_umul128(uint64_t a, uint64_t b, uint64_t *hi)
{
#ifdef __SIZEOF_INT128__
	__extension__ typedef unsigned __int128 u128;
	u128 p = (u128)a * b;

	*hi = (uint64_t)(p >> 64);
	return (uint64_t)p;
#else
	const uint64_t m32 = (UINT64_C(1) << 32) - 1;
	uint64_t al = a & m32, ah = a >> 32, bl = b & m32, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (lh & m32) + (hl & m32);

	*hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
	return (mid << 32) | (ll & m32);
#endif
}

/* High 64 bits of the 128-bit product a b. */
static inline uint64_t
shmids_umulh(uint64_t a, uint64_t b)
{
	uint64_t hi;

	(void)shmids_umul128(a, b, &hi);
	return hi;
}

/*
 * floor(x / 2^s) without relying on >> of negative numbers.  Where >>
 * is arithmetic (a constant test: gcc, clang) it is that shift alone: a
 * branch on the sign of x, as random as the signs of decimal exponents,
 * cost the parser a mispredicted jump on every other number.
 */
static inline int64_t
shmids_floor_shift(int64_t x, int s)
{
	if ((INT64_C(-1) >> 1) == INT64_C(-1))
		return x >> s;
	if (x >= 0)
		return x >> s;
	return -(((-x - 1) >> s) + 1);
}

#endif /* SHMIDS_NUM_H */
