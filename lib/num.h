/*
 * Internal: exact conversions between IEEE binary64/binary32 and the
 * ASCII forms of format-spec.md section 6.  Not installed.
 */
#ifndef SHMIDS_NUM_H
#define SHMIDS_NUM_H

#include <stddef.h>

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
 * C99 hex floats (0x1.8p3), inf/infinity/nan case-insensitive, and the
 * nan(0xM) forms of section 6 which restore the exact significand and sign
 * bits (so signaling NaNs and payloads survive).  Correct rounding (round
 * to nearest even) for every input of any length.  On ERANGE, *v is the
 * infinity of the token's sign and *end is set as on success; on EINVAL
 * neither is touched.  errno is left alone on success.  A hex float that
 * overflows is ERANGE too.  In nan(...) only 0xM is accepted, M nonzero
 * and no wider than the fraction field (52 or 23 bits).
 */
SHMIDS_HIDDEN int shmids_strtod(const char *s, const char **end, double *v);
SHMIDS_HIDDEN int shmids_strtof(const char *s, const char **end, float *v);

#endif /* SHMIDS_NUM_H */
