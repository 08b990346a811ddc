/*
 * One element to ASCII and back, format-spec.md section 6.  Floats go to
 * the shortest-digits code in dtoa.c and strtod.c; integers are done
 * here, by hand, because printf and strtoll cost more than the rest of
 * shm-expand put together.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "text.h"
#include "number.h"

static size_t
utoa(char *buf, uint64_t u, int neg)
{
	char tmp[24];
	size_t n = 0, i = 0;

	do
		tmp[n++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (neg)
		buf[i++] = '-';
	while (n > 0)
		buf[i++] = tmp[--n];
	buf[i] = '\0';
	return i;
}

static size_t
xtoa(char *buf, uint64_t u)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[20];
	size_t n = 0, i = 2;

	buf[0] = '0';
	buf[1] = 'x';
	do
		tmp[n++] = hex[u & 15];
	while ((u >>= 4) != 0);
	while (n > 0)
		buf[i++] = tmp[--n];
	buf[i] = '\0';
	return i;
}

static size_t
int_format(char *buf, int64_t v, uint64_t bits, int style)
{
	if (style == SHMIDS_HEX)
		return xtoa(buf, bits);
	if (style != SHMIDS_SHORT)
		return 0;
	return v < 0 ? utoa(buf, (uint64_t)0 - (uint64_t)v, 1) :
	    utoa(buf, (uint64_t)v, 0);
}

static int
alnum(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z');
}

/*
 * printf writes the radix character of the caller's LC_NUMERIC (",",
 * or several bytes); the text's is '.' in any locale (format-spec.md
 * 3).  In %e and %a output (n bytes) the radix is what lies between
 * the leading digit and the next one: it becomes '.'.  Returns the new
 * length.  Cheaper than uselocale(3), and as thread-safe.
 */
static size_t
c_radix(char *buf, size_t n)
{
	char *p = buf + (*buf == '-'), *q;

	if (n >= SHMIDS_NUM_MAX)
		n = SHMIDS_NUM_MAX - 1;	/* cut by snprintf: cannot be */
	if (p[0] == '0' && p[1] == 'x')
		p += 2;
	if (*++p == '.' || *p == '\0')
		return n;
	for (q = p; *q != '\0' && !alnum((unsigned char)*q); q++)
		;
	if (q == p)
		return n;	/* no fraction: "0x1p+0" */
	*p = '.';
	memmove(p + 1, q, n + 1 - (size_t)(q - buf));
	return n - (size_t)(q - p - 1);
}

/* printf's exp and hex forms drop NaN payloads: those keep ours. */
static size_t
f64_format(char *buf, double d, int style)
{
	if (style == SHMIDS_SHORT || d != d || d - d != 0)
		return shmids_dtoa(d, buf);
	return c_radix(buf, (size_t)snprintf(buf, SHMIDS_NUM_MAX,
	    style == SHMIDS_EXP ? "%.16e" : "%a", d));
}

static size_t
f32_format(char *buf, float f, int style)
{
	if (style == SHMIDS_SHORT || f != f || f - f != 0)
		return shmids_ftoa(f, buf);
	return c_radix(buf, (size_t)snprintf(buf, SHMIDS_NUM_MAX,
	    style == SHMIDS_EXP ? "%.8e" : "%a", (double)f));
}

/*
 * A float style with SHMIDS_NANPLAIN: any NaN as nan or -nan, its payload
 * lost, for readers of no other form.  Or no style at all (0).  Out of
 * the way of the styles without it, which every value takes.
 */
static size_t
nanplain_format(char *buf, int type, const void *elem, int style)
{
	double d;
	float f;
	int neg;

	style &= ~SHMIDS_NANPLAIN;
	if (style < SHMIDS_SHORT || style > SHMIDS_HEX)
		return 0;
	if (type == SHMIDS_F64) {
		memcpy(&d, elem, 8);
		if (d == d)
			return f64_format(buf, d, style);
		neg = signbit(d) != 0;
	} else {
		memcpy(&f, elem, 4);
		if (f == f)
			return f32_format(buf, f, style);
		neg = signbit(f) != 0;
	}
	strcpy(buf, neg ? "-nan" : "nan");
	return 3 + (size_t)neg;
}

size_t
shmids_format(char *buf, int type, const void *elem, int style)
{
	size_t n = 0;
	int64_t i64;
	int32_t i32;
	double d;
	float f;

	switch (type) {
	case SHMIDS_F64:
		memcpy(&d, elem, 8);
		n = (style >= SHMIDS_SHORT && style <= SHMIDS_HEX) ?
		    f64_format(buf, d, style) :
		    nanplain_format(buf, type, elem, style);
		break;
	case SHMIDS_F32:
		memcpy(&f, elem, 4);
		n = (style >= SHMIDS_SHORT && style <= SHMIDS_HEX) ?
		    f32_format(buf, f, style) :
		    nanplain_format(buf, type, elem, style);
		break;
	case SHMIDS_I64:
		memcpy(&i64, elem, 8);
		n = int_format(buf, i64, (uint64_t)i64, style);
		break;
	case SHMIDS_I32:
		memcpy(&i32, elem, 4);
		n = int_format(buf, i32, (uint32_t)i32, style);
		break;
	case SHMIDS_RAW:
		n = int_format(buf, *(const unsigned char *)elem,
		    *(const unsigned char *)elem, style);
		break;
	}
	if (n == 0)
		errno = EINVAL;
	return n;
}

/*
 * An integer token: [+-]decimal, or 0x hex giving the two's-complement
 * bits of a bits-wide integer.  lo/hi bound the decimal form.  The
 * token ends at lim at the latest (NULL: at its end byte).
 */
static int
int_parse(const char *s, const char *lim, const char **end, int bits,
    int64_t lo, uint64_t hi, int64_t *out)
{
	uint64_t u = 0, max;
	int neg = 0, digits = 0, v, c;

	if (shmids_at(s, 0, lim) == '0' &&
	    (shmids_at(s, 1, lim) | 0x20) == 'x') {
		for (s += 2; (v = shmids_hexval(shmids_at(s, 0, lim))) >= 0;
		    s++, digits++)
			if (digits >= bits / 4)
				return (errno = ERANGE), -1;
			else
				u = u << 4 | (uint64_t)v;
		if (digits == 0 || !shmids_isend(shmids_at(s, 0, lim)))
			return (errno = EINVAL), -1;
		/* Sign-extend: 0xffffffff is -1 for a 32-bit type. */
		if (bits < 64 && lo < 0 && (u >> (bits - 1)) & 1)
			u |= ~(uint64_t)0 << bits;
		*out = (int64_t)u;
		*end = s;
		return 0;
	}
	if ((c = shmids_at(s, 0, lim)) == '-' || c == '+')
		neg = *s++ == '-';
	max = neg ? (uint64_t)0 - (uint64_t)lo : hi;
	for (; (c = shmids_at(s, 0, lim)) >= '0' && c <= '9'; s++, digits++) {
		uint64_t dig = (uint64_t)(c - '0');

		if (dig > max || u > (max - dig) / 10) {
			/* Too big if it is a number at all. */
			while ((c = shmids_at(s, 0, lim)) >= '0' && c <= '9')
				s++;
			return (errno = shmids_isend(c) ? ERANGE : EINVAL), -1;
		}
		u = u * 10 + dig;
	}
	if (digits == 0 || !shmids_isend(c))
		return (errno = EINVAL), -1;
	*out = neg ? (int64_t)((uint64_t)0 - u) : (int64_t)u;
	*end = s;
	return 0;
}

/* The integer types, out of the floats' way. */
static int
int_elem(const char *s, const char *lim, const char **end, int type,
    void *elem)
{
	const char *e;
	int64_t v;
	int32_t i;
	int r = -1;

	switch (type) {
	case SHMIDS_I64:
		if ((r = int_parse(s, lim, &e, 64, INT64_MIN, INT64_MAX,
		    &v)) == 0)
			memcpy(elem, &v, 8);
		break;
	case SHMIDS_I32:
		if ((r = int_parse(s, lim, &e, 32, INT32_MIN, INT32_MAX,
		    &v)) == 0) {
			i = (int32_t)v;
			memcpy(elem, &i, 4);
		}
		break;
	case SHMIDS_RAW:
		if ((r = int_parse(s, lim, &e, 8, 0, 255, &v)) == 0)
			*(unsigned char *)elem = (unsigned char)v;
		break;
	default:
		errno = EINVAL;
	}
	if (r == 0 && end != NULL)
		*end = e;
	return r;
}

/*
 * The floats go straight to their parser, a jump: a type switch, a call
 * and a copy between were a tenth of a value's time (31 instructions of
 * some 300).
 */
static inline int
parse_at(const char *s, const char *lim, const char **end, int type,
    void *elem)
{
	if (type == SHMIDS_F64)
		return shmids_f64_parse(s, lim, end, elem);
	if (type == SHMIDS_F32)
		return shmids_f32_parse(s, lim, end, elem);
	return int_elem(s, lim, end, type, elem);
}

int
shmids_parse_lim(const char *s, const char *lim, const char **end, int type,
    void *elem)
{
	return parse_at(s, lim, end, type, elem);
}

int
shmids_parse(const char *s, const char **end, int type, void *elem)
{
	return parse_at(s, NULL, end, type, elem);
}

int
shmids_parsen(const char *s, size_t len, const char **end, int type,
    void *elem)
{
	if (len == 0) {
		errno = EINVAL;
		return -1;
	}
	return parse_at(s, s + len, end, type, elem);
}
