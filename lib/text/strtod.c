/*
 * Exact parsing of the ASCII forms of format-spec.md section 6 into IEEE
 * binary64 and binary32, rounded to nearest even.
 *
 * Decimals: Clinger's exact fast path when the digits and the power of ten
 * are both exact doubles; otherwise Eisel-Lemire on the first 19
 * significant digits (Daniel Lemire, "Number Parsing at a Gigabyte per
 * Second", Software: Practice and Experience 51(8), 2021; with the
 * bounds of Noble Mushtak and Daniel Lemire, "Fast Number Parsing Without
 * Fallback", 2023).  When digits were dropped and w and w+1 round
 * differently, or in the rare case the 128-bit product is inconclusive,
 * the libc strtod/strtof (correctly rounded in glibc, C locale: we never
 * call setlocale) decides, on a bounded copy of the token.
 *
 * Hex floats are exact by construction and rounded here; nan(0xM) puts M
 * back into the fraction field bit for bit.
 */
#include <errno.h>
#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"
#include "pow10_table.h"

/*
 * The steps of the decimal path are short, and the calls between them,
 * passing the number through memory, would cost as much again.
 */
#if defined(__GNUC__)
#define HOT	inline __attribute__((always_inline))
#define NOINLINE	__attribute__((noinline))
#else
#define HOT	inline
#define NOINLINE
#endif

#define M64	(~UINT64_C(0))
#define M32	((UINT64_C(1) << 32) - 1)

/*
 * A binary format as Eisel-Lemire sees it.  q_lo/q_hi: below and above
 * these powers of ten any 19-digit value is 0 or infinite; even_lo/even_hi:
 * the powers of ten for which a product can be an exact tie.
 */
struct bfmt {
	int	tbits;		/* fraction field bits */
	int	bias;
	int	q_lo, q_hi;
	int	even_lo, even_hi;
};

static const struct bfmt f64 = { 52, 1023, -342, 308, -4, 23 };
static const struct bfmt f32 = { 23, 127, -65, 38, -17, 10 };

/* A parsed decimal: w 10^q, exact unless inexact (nonzero digits dropped). */
struct num {
	uint64_t	 w;
	int64_t		 q;
	int		 neg;
	int		 inexact;
	const char	*digits;	/* first digit or '.' of the significand */
	const char	*dend;		/* end of the significand */
	const char	*lim;		/* the buffer's end, or NULL */
	int64_t		 exp;		/* explicit exponent, saturated */
};

static HOT int
isdig(int c)
{
	return c >= '0' && c <= '9';
}

/* Case-insensitive match of lower-case word at p, before lim. */
static int
word(const char *p, const char *w, const char *lim)
{
	ptrdiff_t k;

	for (k = 0; w[k] != '\0'; k++)
		if ((shmids_at(p, k, lim) | 0x20) != w[k])
			return 0;
	return 1;
}

static int
clz64(uint64_t x)
{
	int n = 0;

#if defined(__GNUC__)
	if (x != 0)
		return __builtin_clzll(x);
#endif
	if (x == 0)
		return 64;
	while ((x & (UINT64_C(1) << 63)) == 0) {
		x <<= 1;
		n++;
	}
	return n;
}

/*
 * Eisel-Lemire (paper section 5, as in the fast_float reference code):
 * the fraction and biased exponent bits of w 10^q, w != 0 and exact,
 * rounded to nearest even.  Returns -1 if the truncated product cannot
 * decide (never happens per Mushtak-Lemire; kept as cheap insurance).
 */
static HOT int
lemire(const struct bfmt *f, int64_t q, uint64_t w, uint64_t *bits)
{
	const uint64_t *p5;
	uint64_t hi, lo, hi2, m;
	int lz, upper, shift;
	int64_t e2;

	if (q < f->q_lo) {
		*bits = 0;
		return 0;
	}
	if (q > f->q_hi) {
		*bits = (uint64_t)(2 * f->bias + 1) << f->tbits;
		return 0;
	}
	lz = clz64(w);
	w <<= lz;
	p5 = shmids_p5[q - SHMIDS_P5_MIN];
	lo = shmids_umul128(w, p5[0], &hi);
	/* low bits all ones: the next 64 bits of 5^q may carry into them */
	if ((hi & (M64 >> (f->tbits + 3))) == M64 >> (f->tbits + 3)) {
		shmids_umul128(w, p5[1], &hi2);
		lo += hi2;
		hi += lo < hi2;
		if (lo == M64 && (q < -27 || q > 55))
			return -1;
	}
	upper = (int)(hi >> 63);
	shift = upper + 64 - f->tbits - 3;
	m = hi >> shift;
	/* floor(log2(10^q)) + 63 + ..., the exponent of the product */
	e2 = shmids_floor_shift((152170 + 65536) * q, 16) + 63 + upper - lz +
	    f->bias;
	if (e2 <= 0) {
		/* subnormal, or zero */
		if (1 - e2 >= 64) {
			*bits = 0;
			return 0;
		}
		m >>= 1 - e2;
		m = (m + (m & 1)) >> 1;
		/* rounding may carry into the smallest normal: same bits */
		*bits = m;
		return 0;
	}
	/* an exact tie (nothing below the rounding bit) rounds to even */
	if (lo <= 1 && q >= f->even_lo && q <= f->even_hi && (m & 3) == 1 &&
	    (m << shift) == hi)
		m &= ~UINT64_C(1);
	m = (m + (m & 1)) >> 1;
	if (m >= UINT64_C(2) << f->tbits) {
		m = UINT64_C(1) << f->tbits;
		e2++;
	}
	if (e2 >= 2 * f->bias + 1) {
		*bits = (uint64_t)(2 * f->bias + 1) << f->tbits;
		return 0;
	}
	*bits = (uint64_t)e2 << f->tbits | (m & ((UINT64_C(1) << f->tbits) - 1));
	return 0;
}

/*
 * More than 19 digits: keep the first 19 significant ones in w, note in
 * inexact whether any later one is nonzero, and set q to match.
 */
static void
first19(struct num *n)
{
	const char *p;
	uint64_t w = 0;
	int64_t q = 0;
	int nd = 0, frac = 0, d;

	for (p = n->digits; p < n->dend; p++) {
		if (*p == '.') {
			frac = 1;
			continue;
		}
		d = *p - '0';
		if (nd == 0 && d == 0)
			q -= frac;		/* leading zero */
		else if (nd < 19) {
			w = w * 10 + (uint64_t)d;
			nd++;
			q -= frac;
		} else {
			q += !frac;
			n->inexact |= d != 0;
		}
	}
	n->w = w;
	n->q = q;
}

/*
 * The 8 bytes at s in one word, s[0] in the low byte: one load where the
 * machine is known to be little-endian, else byte by byte.
 */
static HOT uint64_t
load8(const char *s)
{
	uint64_t v;
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(&v, s, sizeof(v));
#else
	const unsigned char *p = (const unsigned char *)s;
	int i;

	for (v = 0, i = 7; i >= 0; i--)
		v = v << 8 | p[i];
#endif
	return v;
}

/*
 * The value of 8 digits loaded by load8(), less '0' each (t[0], the
 * first, most significant), by 3 multiplies (SWAR, as fast_float's
 * parse_eight_digits_unrolled): pairs, then quadruples and the whole at
 * once.
 */
static HOT uint64_t
value8z(uint64_t t)
{
	t = t * 10 + (t >> 8);
	t = ((t & UINT64_C(0x000000ff000000ff)) * UINT64_C(0x000f424000000064) +
	    (t >> 16 & UINT64_C(0x000000ff000000ff)) *
	    UINT64_C(0x0000271000000001)) >> 32;
	return t & M32;
}

/*
 * The high bit of each byte of v (from load8) that is no digit, t being
 * v less '0' each: below '0', t's byte is 0xd0 or above; above '9', v's
 * plus 0x46 is 0x80 or above up to 0xb9, and t's from 0xba.  A carry or
 * borrow goes up only from a non-digit, so the lowest bit set is right
 * and the digits before it are told.  (fast_float's
 * is_made_of_eight_digits_fast: t is reused for the value, so fewer
 * constants compete for registers with the number being built.)
 */
static HOT uint64_t
nondigits(uint64_t v, uint64_t t)
{
	return ((v + UINT64_C(0x4646464646464646)) | t) &
	    UINT64_C(0x8080808080808080);
}

/* The trailing zero bits of x != 0. */
static HOT int
ctz64(uint64_t x)
{
	int n = 0;

#if defined(__GNUC__)
	if (x != 0)
		return __builtin_ctzll(x);
#endif
	while ((x & 1) == 0) {
		x >>= 1;
		n++;
	}
	return n;
}

/*
 * w times 10 to the number of digits at p (before lim, if not NULL),
 * plus their value; returns their end.  A byte may be read only once
 * the one before is known to be a digit: the digits go by fours, each
 * four's value made apart from w, which quarters the chain of dependent
 * multiply-adds (by pairs, 17 digits without the length took 1.09x
 * fast_float's time, by fours 1.02x; short ones cost the same).
 */
static HOT const char *
fours(const char *p, const char *lim, uint64_t *w)
{
	uint64_t x = *w;
	int c0, c1, c2, c3, h;

	/*
	 * The last 1 to 3 digits in the loop, not after it: there gcc
	 * jumped out of line and back for them (17 digits without lim,
	 * "%.6g" with: 5-8% slower).  The bytes once loaded are used:
	 * loaded again as char they cost some 40 instructions a 17-digit
	 * value.
	 */
	while (isdig(c0 = shmids_at(p, 0, lim))) {
		if (!isdig(c1 = shmids_at(p, 1, lim))) {
			x = x * 10 + (uint64_t)(c0 - '0');
			p++;
			break;
		}
		h = (c0 - '0') * 10 + (c1 - '0');
		if (!isdig(c2 = shmids_at(p, 2, lim))) {
			x = x * 100 + (uint64_t)h;
			p += 2;
			break;
		}
		if (!isdig(c3 = shmids_at(p, 3, lim))) {
			x = x * 1000 + (uint64_t)(h * 10 + (c2 - '0'));
			p += 3;
			break;
		}
		x = x * 10000 + (uint64_t)(h * 100 + (c2 - '0') * 10 +
		    (c3 - '0'));
		p += 4;
	}
	*w = x;
	return p;
}

/*
 * The same where the buffer's end lim is known and the 8 bytes before it
 * are readable (from base on): the digits go 8 at a time in one word,
 * and the last few before a non-digit in one word too.  5 to 7 bytes
 * left: the word is the one that ends at lim, shifted down so that they
 * come first, NULs (no digits) above them; fewer go by fours(), which
 * is cheaper for up to 4 (17 digits "%.17g", 1 left: 251 instructions a
 * value against 272 by the word).  No byte at or after lim is read,
 * though the token may end its buffer.
 */
static HOT const char *
digits(const char *p, const char *base, const char *lim, uint64_t *w)
{
	static const uint64_t pow10_8[8] = { 1, 10, 100, 1000, 10000,
	    100000, 1000000, 10000000 };
	uint64_t x = *w, v, t, m;
	int k;

	if (lim == NULL || lim - base < 8)
		return fours(p, lim, w);
	for (;;) {
		if (lim - p >= 8)
			v = load8(p);
		else if (lim - p > 4)
			v = load8(lim - 8) >> 8 * (8 - (lim - p));
		else {
			*w = x;
			return fours(p, lim, w);
		}
		t = v - UINT64_C(0x3030303030303030);
		if ((m = nondigits(v, t)) == 0) {
			x = x * 100000000 + value8z(t);
			p += 8;
			continue;
		}
		/*
		 * k < 8 digits, then no digit: move them to the top of t
		 * (exact below the first non-digit: borrows only go up).
		 */
		if ((k = ctz64(m) / 8) > 0)
			x = x * pow10_8[k] + value8z(t << 8 * (8 - k));
		p += k;
		break;
	}
	*w = x;
	return p;
}

/*
 * Scan a decimal significand and exponent at p into n.  Returns the end
 * of the number, or NULL if there is no digit or the exponent has none.
 * The common case, at most 19 digits, takes one pass, 8 digits at a time;
 * w may wrap on longer ones, which first19() then redoes.
 */
static HOT const char *
scan_dec(const char *p, struct num *n)
{
	const char *dot, *z;
	uint64_t w = 0;
	int64_t nd, q = 0, e = 0;
	int esign = 1, ec;

	n->digits = p;
	/* the integer part is mostly one digit: 8 at a time would not pay */
	p = fours(p, n->lim, &w);
	nd = p - n->digits;
	if (shmids_at(p, 0, n->lim) == '.') {
		dot = ++p;
		p = digits(p, n->digits, n->lim, &w);
		q = dot - p;
		nd += p - dot;
	}
	n->dend = p;
	if (nd == 0)
		return NULL;
	n->w = w;
	n->q = q;
	/* leading zeros (0.00123) add nothing to w: they need no redo */
	for (z = n->digits; nd > 19 && z < p && (*z == '0' || *z == '.'); z++)
		nd -= *z == '0';
	if (nd > 19) {
		/* on a copy: n's address stays here, n in registers */
		struct num c = *n;

		first19(&c);
		*n = c;
	}
	/* Fortran's D exponent (1.0D+00) is an e (format-spec.md 6) */
	ec = shmids_at(p, 0, n->lim) | 0x20;
	if (ec == 'e' || ec == 'd') {
		p++;
		if (shmids_at(p, 0, n->lim) == '+' ||
		    shmids_at(p, 0, n->lim) == '-')
			esign = *p++ == '-' ? -1 : 1;
		if (!isdig(shmids_at(p, 0, n->lim)))
			return NULL;
		/* saturate: 10^(10^12) is infinite or zero whatever the digits */
		for (; isdig(shmids_at(p, 0, n->lim)); p++)
			if (e < INT64_C(1000000000000))
				e = e * 10 + (*p - '0');
		n->exp = e * esign;
		n->q += n->exp;
	}
	return p;
}

/*
 * The libc fallback on a bounded copy: the first MAXDIG significant
 * digits, then a "1" if any later digit is nonzero, then the exponent.
 * A tie between two binary64 values has at most 767 significant digits,
 * so the copy rounds as the whole token does.
 */
#define MAXDIG	800

/* Decimal of x at b, NUL-terminated. */
static void
put_u64(char *b, uint64_t x)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + x % 10);
		x /= 10;
	} while (x != 0);
	while (n > 0)
		*b++ = tmp[--n];
	*b = '\0';
}

static double
libc_strtod(const struct num *n, int single)
{
	char buf[MAXDIG + 32], *b = buf;
	const char *p;
	int64_t q = n->exp;
	int nd = 0, sticky = 0, frac = 0;
	double d;
	float f;

	if (n->neg)
		*b++ = '-';
	for (p = n->digits; p < n->dend; p++) {
		if (*p == '.') {
			frac = 1;
			continue;
		}
		if (nd == 0 && *p == '0') {
			q -= frac;
			continue;
		}
		if (nd < MAXDIG) {
			*b++ = *p;
			nd++;
			q -= frac;
		} else {
			sticky |= *p != '0';
			q += !frac;
		}
	}
	if (sticky) {
		*b++ = '1';
		q--;
	}
	*b++ = 'e';
	if (q < 0) {
		*b++ = '-';
		q = -q;
	}
	put_u64(b, (uint64_t)q);
	if (single) {
		f = strtof(buf, NULL);
		return f;
	}
	d = strtod(buf, NULL);
	return d;
}

/*
 * Round m 2^e2 (m != 0; sticky: nonzero bits below m) to nearest even in
 * format f: the exact step of hex floats.  Returns the magnitude's bits.
 */
static uint64_t
round_bin(const struct bfmt *f, uint64_t m, int64_t e2, int sticky)
{
	uint64_t bits, kept, rem, half;
	int64_t top, shift, bexp = 0;
	int lz = clz64(m);

	m <<= lz;
	top = e2 - lz + 63;		/* exponent of m's leading bit */
	if (top > f->bias)
		return (uint64_t)(2 * f->bias + 1) << f->tbits;
	shift = 63 - f->tbits;
	if (top >= 1 - f->bias)
		bexp = top + f->bias;
	else
		shift += 1 - f->bias - top;
	if (shift > 64)
		return 0;
	if (shift == 64) {
		kept = 0;
		rem = m;
		half = UINT64_C(1) << 63;
	} else {
		kept = m >> shift;
		rem = m & ((UINT64_C(1) << shift) - 1);
		half = UINT64_C(1) << (shift - 1);
	}
	/* kept includes the implicit bit of normals: add (bexp - 1) then */
	bits = (bexp > 0 ? (uint64_t)(bexp - 1) << f->tbits : 0) + kept;
	/* a carry moves into the exponent, up to infinity: all correct */
	if (rem > half || (rem == half && (sticky || (bits & 1))))
		bits++;
	return bits;
}

/*
 * C99 hex float after "0x": hex digits with an optional point, at least
 * one digit, then an optional binary exponent p[+-]ddd.
 */
static const char *
scan_hex(const struct bfmt *f, const char *p, const char *lim,
    uint64_t *bits)
{
	uint64_t m = 0;
	int64_t e2 = 0, pe = 0;
	int nd = 0, any = 0, sticky = 0, frac = 0, esign = 1, d;

	for (;; p++) {
		if (shmids_at(p, 0, lim) == '.' && !frac) {
			frac = 1;
			continue;
		}
		if ((d = shmids_hexval(shmids_at(p, 0, lim))) < 0)
			break;
		any = 1;
		if (nd < 16 && (nd != 0 || d != 0)) {
			m = m << 4 | (uint64_t)d;
			nd++;
			e2 -= 4 * frac;
		} else if (nd < 16)
			e2 -= 4 * frac;		/* leading zero */
		else {
			sticky |= d != 0;
			e2 += 4 * !frac;
		}
	}
	if (!any)
		return NULL;
	if ((shmids_at(p, 0, lim) | 0x20) == 'p') {
		p++;
		if (shmids_at(p, 0, lim) == '+' || shmids_at(p, 0, lim) == '-')
			esign = *p++ == '-' ? -1 : 1;
		if (!isdig(shmids_at(p, 0, lim)))
			return NULL;
		for (; isdig(shmids_at(p, 0, lim)); p++)
			if (pe < INT64_C(1000000000000))
				pe = pe * 10 + (*p - '0');
	}
	*bits = m == 0 ? 0 : round_bin(f, m, e2 + esign * pe, sticky);
	return p;
}

/*
 * inf, infinity, nan and nan(0xM), case-insensitive; M is the whole
 * fraction field and must be nonzero (0 would be infinity) and fit.
 * And R's NA, as R spells it: upper case, no sign (sign: one was
 * read), so that it reads back as the one text that writes it.  Here,
 * off the numbers' path, it costs them nothing.
 */
static const char *
scan_word(const struct bfmt *f, const char *p, const char *lim, int sign,
    uint64_t *bits)
{
	uint64_t inf = (uint64_t)(2 * f->bias + 1) << f->tbits, m = 0;
	int d, nd = 0;

	/* not "NAN" (a nan); the caller tells where the token ends */
	if (shmids_at(p, 0, lim) == 'N' && shmids_at(p, 1, lim) == 'A' &&
	    (shmids_at(p, 2, lim) | 0x20) != 'n') {
		*bits = inf | SHMIDS_NA_FRAC;
		return sign ? NULL : p + 2;
	}
	if (word(p, "inf", lim)) {
		*bits = inf;
		return p + (word(p + 3, "inity", lim) ? 8 : 3);
	}
	if (!word(p, "nan", lim))
		return NULL;
	p += 3;
	*bits = inf | UINT64_C(1) << (f->tbits - 1);
	if (shmids_at(p, 0, lim) != '(')
		return p;
	if (shmids_at(p, 1, lim) != '0' || (shmids_at(p, 2, lim) | 0x20) != 'x')
		return NULL;
	for (p += 3; (d = shmids_hexval(shmids_at(p, 0, lim))) >= 0; p++) {
		if (m >> (f->tbits - 4) != 0)
			return NULL;		/* more bits than the field */
		m = m << 4 | (uint64_t)d;
		nd++;
	}
	if (shmids_at(p, 0, lim) != ')' || nd == 0 || m == 0)
		return NULL;
	*bits = inf | m;
	return p + 1;
}

/*
 * Dropped digits: the value is in (w, w+1) 10^q; 0 if w+1 gives bits too,
 * else -1.  Rare (more than 19 digits): out of line, so that the common
 * path's registers need not hold what this one would reuse.
 */
static NOINLINE int
upper_agrees(const struct bfmt *f, int64_t q, uint64_t w, uint64_t bits)
{
	uint64_t b2;

	if (lemire(f, q, w + 1, &b2) < 0 || b2 != bits)
		return -1;
	return 0;
}

/* Decimal to bits by the fast paths; -1 if libc must decide. */
static HOT int
fast_dec(const struct bfmt *f, const struct num *n, uint64_t *bits)
{
	if (n->w == 0) {
		*bits = 0;
		return 0;
	}
	if (lemire(f, n->q, n->w, bits) < 0)
		return -1;
	if (!n->inexact)
		return 0;
	return upper_agrees(f, n->q, n->w, *bits);
}

enum kind { WORD, HEX, DEC };

/*
 * The shared front end: sign, then a word, a hex float or a decimal.
 * Returns the kind (a decimal is left in n, the others' magnitude in
 * *bits) and sets *end, or -1 with EINVAL.  The token ends at an end
 * byte (shmids_isend()), or at sep where it is not 0 (a comma row's
 * comma: a constant, folded away in the other copies).
 */
static HOT int
scan(const struct bfmt *f, const char *s, const char *lim, const char **end,
    struct num *n, uint64_t *bits, int sep)
{
	const char *p = s;
	int c;
	int kind = WORD;

	/* field by field, not memset: so n can live in registers */
	n->w = 0;
	n->q = 0;
	n->neg = 0;
	n->inexact = 0;
	n->digits = n->dend = NULL;
	n->exp = 0;
	n->lim = lim;
	if (shmids_at(p, 0, lim) == '+' || shmids_at(p, 0, lim) == '-')
		n->neg = *p++ == '-';
	if (shmids_at(p, 0, lim) == '0' &&
	    (shmids_at(p, 1, lim) | 0x20) == 'x') {
		kind = HEX;
		p = scan_hex(f, p + 2, lim, bits);
	} else if (isdig(shmids_at(p, 0, lim)) || shmids_at(p, 0, lim) == '.') {
		kind = DEC;
		p = scan_dec(p, n);
	} else
		p = scan_word(f, p, lim, p != s, bits);
	if (p == NULL || (!shmids_isend(c = shmids_at(p, 0, lim)) &&
	    (sep == 0 || c != sep))) {
		errno = EINVAL;
		return -1;
	}
	*end = p;
	return kind;
}

/*
 * Clinger's fast path: w and 10^|q| are exact doubles, so one IEEE
 * operation rounds once, correctly.  Needs double arithmetic done in
 * double (FLT_EVAL_METHOD 0; not so on x87).
 */
static HOT int
clinger64(const struct num *n, double *d)
{
#if FLT_EVAL_METHOD == 0
	if (n->inexact || n->w > UINT64_C(1) << 53 || n->q < -SHMIDS_EXACT_MAX ||
	    n->q > SHMIDS_EXACT_MAX)
		return 0;
	*d = (double)n->w;
	*d = n->q < 0 ? *d / shmids_exact10[-n->q] : *d * shmids_exact10[n->q];
	return 1;
#else
	(void)n;
	(void)d;
	return 0;
#endif
}

/* The same for binary32: 2^24 and 10^10 are the exact limits. */
static HOT int
clinger32(const struct num *n, float *x)
{
#if FLT_EVAL_METHOD == 0
	if (n->inexact || n->w > UINT64_C(1) << 24 || n->q < -10 || n->q > 10)
		return 0;
	*x = (float)n->w;
	*x = n->q < 0 ? *x / (float)shmids_exact10[-n->q] :
	    *x * (float)shmids_exact10[n->q];
	return 1;
#else
	(void)n;
	(void)x;
	return 0;
#endif
}

/*
 * The magnitude's bits when libc must decide: the token at s, known to
 * be a decimal, scanned again.  So the common path need not keep where
 * its digits were (4 registers, spilled and reloaded on the way of the
 * value) for this rare one.
 */
static NOINLINE uint64_t
slow_dec(const char *s, const char *lim, int single, int sep)
{
	struct num n;
	uint64_t bits;
	uint32_t b32;
	const char *e;
	double d;
	float x;
	int saved = errno;

	(void)scan(single ? &f32 : &f64, s, lim, &e, &n, &bits, sep);
	if (single) {
		x = (float)libc_strtod(&n, 1);
		memcpy(&b32, &x, sizeof(b32));
		bits = b32 & ~(UINT32_C(1) << 31);
	} else {
		d = libc_strtod(&n, 0);
		memcpy(&bits, &d, sizeof(bits));
		bits &= ~(UINT64_C(1) << 63);
	}
	errno = saved;
	return bits;
}

/*
 * The token's end is stored as soon as it is known, and the value last:
 * a finite token that became infinite is ERANGE.  v: 8 bytes, any
 * alignment.
 */
static HOT int
f64_parse(const char *s, const char *lim, const char **end, void *v, int sep)
{
	struct num n;
	uint64_t bits, wbits = 0;
	const char *e;
	double d;
	int kind;

	/* wbits: its address goes to calls; n, bits stay in registers */
	if ((kind = scan(&f64, s, lim, &e, &n, &wbits, sep)) < 0)
		return -1;
	if (end != NULL)
		*end = e;
	bits = wbits;
	if (kind == DEC && clinger64(&n, &d)) {
		d = n.neg ? -d : d;
		memcpy(v, &d, sizeof(d));
		return 0;
	}
	if (kind == DEC && fast_dec(&f64, &n, &bits) < 0)
		bits = slow_dec(s, lim, 0, sep);
	bits |= (uint64_t)n.neg << 63;
	memcpy(v, &bits, sizeof(bits));
	if (kind != WORD && (bits << 1) == UINT64_C(0x7ff) << 53) {
		errno = ERANGE;
		return -1;
	}
	return 0;
}

/* The same for binary32; v: 4 bytes. */
static HOT int
f32_parse(const char *s, const char *lim, const char **end, void *v, int sep)
{
	struct num n;
	uint64_t bits, wbits = 0;
	uint32_t b32;
	const char *e;
	float x;
	int kind;

	if ((kind = scan(&f32, s, lim, &e, &n, &wbits, sep)) < 0)
		return -1;
	if (end != NULL)
		*end = e;
	bits = wbits;
	if (kind == DEC && clinger32(&n, &x)) {
		x = n.neg ? -x : x;
		memcpy(v, &x, sizeof(x));
		return 0;
	}
	if (kind == DEC && fast_dec(&f32, &n, &bits) < 0)
		bits = slow_dec(s, lim, 1, sep);
	b32 = (uint32_t)bits | (uint32_t)n.neg << 31;
	memcpy(v, &b32, sizeof(b32));
	if (kind != WORD && (b32 << 1) == UINT32_C(0xff) << 24) {
		errno = ERANGE;
		return -1;
	}
	return 0;
}

/*
 * Two copies of each: one where the text is NUL-terminated (lim a
 * constant NULL, every bound test folded away), one where its end is
 * known (lim not NULL, which the compiler carries into the inlined
 * body).
 */
int
shmids_f64_parse(const char *s, const char *lim, const char **end,
    void *elem)
{
	if (lim == NULL)
		return f64_parse(s, NULL, end, elem, 0);
	return f64_parse(s, lim, end, elem, 0);
}

int
shmids_f64_parse_comma(const char *s, const char *lim, const char **end,
    void *elem)
{
	return f64_parse(s, lim, end, elem, ',');
}

int
shmids_f32_parse(const char *s, const char *lim, const char **end,
    void *elem)
{
	if (lim == NULL)
		return f32_parse(s, NULL, end, elem, 0);
	return f32_parse(s, lim, end, elem, 0);
}

int
shmids_strtod(const char *s, const char **end, double *v)
{
	return shmids_f64_parse(s, NULL, end, v);
}

int
shmids_strtof(const char *s, const char **end, float *v)
{
	return shmids_f32_parse(s, NULL, end, v);
}

int
shmids_strtod_lim(const char *s, const char *lim, const char **end,
    double *v)
{
	return shmids_f64_parse(s, lim, end, v);
}

int
shmids_strtof_lim(const char *s, const char *lim, const char **end,
    float *v)
{
	return shmids_f32_parse(s, lim, end, v);
}
