/*
 * Shortest round-trip decimal for IEEE binary64 and binary32.
 *
 * The digits come from Schubfach: Raffaello Giulietti, "The Schubfach way
 * to render doubles", 2020 (revised 2022), as in his reference code for
 * OpenJDK's Double.toString and Float.toString (JDK 19).  For a finite
 * v != 0 it yields the decimal d 10^e with the fewest digits that rounds
 * back to v (round to nearest even), and of those the one closest to v.
 * The 126-bit powers of ten g come from build-aux/gen_pow10.py.
 *
 * Layout (format-spec.md section 6): the plain form ("123.45", "0.0001",
 * "100") when the first digit's decimal exponent is -4 to 15, else the
 * scientific one ("1e+16", "5e-324"; exponent signed, at least two
 * digits, as printf's %e).  These are Python's repr thresholds: shorter
 * text would do, but 739154407829714600 would claim 18 exact digits where
 * a double has 16 or 17.  Integral values have no decimal point.  The
 * result is at most 24 bytes: "-d.dddddddddddddddde-308".
 */
#include <stdint.h>
#include <string.h>

#include "number.h"
#include "pow10_table.h"

#define M63	((UINT64_C(1) << 63) - 1)
#define M32	((UINT64_C(1) << 32) - 1)

/* IEEE field layouts: explicit significand bits, exponent bias. */
#define D_T	52
#define D_BIAS	1023
#define F_T	23
#define F_BIAS	127

/* The decimal d 10^e. */
struct dec {
	uint64_t	d;
	int		e;
};

/* floor(log10(2^q)), floor(log10(3/4 2^q)), floor(log2(10^e)); paper 6.3 */
static int
flog10pow2(int q)
{
	return (int)shmids_floor_shift((int64_t)q * 661971961083, 41);
}

static int
flog10tqpow2(int q)
{
	return (int)shmids_floor_shift((int64_t)q * 661971961083 - 274743187321, 41);
}

static int
flog2pow10(int e)
{
	return (int)shmids_floor_shift((int64_t)e * 913124641741, 38);
}

/*
 * r_o' of the paper (section 9.8): the product g cp scaled down, rounded
 * to odd so that equality with a multiple of 4 stays decidable.  g[0] and
 * g[1] are the paper's g1 (upper 63 bits) and g0 (lower 63).
 */
static uint64_t
rop64(const uint64_t g[2], uint64_t cp)
{
	uint64_t x1 = shmids_umulh(g[1], cp);
	uint64_t y0 = g[0] * cp;
	uint64_t y1 = shmids_umulh(g[0], cp);
	uint64_t z = (y0 >> 1) + x1;

	return (y1 + (z >> 63)) | (((z & M63) + M63) >> 63);
}

static uint64_t
rop32(uint64_t g, uint64_t cp)
{
	uint64_t x1 = shmids_umulh(g, cp);

	return (x1 >> 31) | (((x1 & M32) + M32) >> 32);
}

/*
 * The common end of the paper's figure 9: given vb, vbl, vbr (4 times v
 * and its rounding interval's bounds, scaled by 10^-k), pick the shortest
 * decimal in the interval, the closest to v among equals.  out is 1 when
 * the bounds are excluded (odd significand: ties go to the even neighbour).
 */
static struct dec
choose(uint64_t vb, uint64_t vbl, uint64_t vbr, int out, int k)
{
	struct dec r;
	uint64_t s = vb >> 2, t, sp10, tp10;
	int64_t cmp;
	int uin, win;

	if (s >= 10) {
		/* one digit fewer: is a multiple of 10 inside? (section 9.3) */
		sp10 = s / 10 * 10;
		tp10 = sp10 + 10;
		uin = vbl + out <= sp10 << 2;
		win = (tp10 << 2) + out <= vbr;
		if (uin != win) {
			r.d = uin ? sp10 : tp10;
			r.e = k;
			return r;
		}
	}
	t = s + 1;
	uin = vbl + out <= s << 2;
	win = (t << 2) + out <= vbr;
	r.e = k;
	if (uin != win)
		r.d = uin ? s : t;
	else {
		cmp = (int64_t)vb - (int64_t)((s + t) << 1);
		r.d = cmp < 0 || (cmp == 0 && (s & 1) == 0) ? s : t;
	}
	return r;
}

/*
 * The decimal for v = c 2^q, c > 0 (paper, figure 9).  At the bottom of a
 * binade (c == 2^52, unless v is the smallest normal, whose neighbour
 * below is a subnormal as far away as the one above) the gap below v is
 * half the gap above: "irregular spacing".
 */
static struct dec
to_decimal64(int q, uint64_t c)
{
	uint64_t cb = c << 2, cbl, cbr = cb + 2;
	const uint64_t *g;
	int k, h;

	if (c != UINT64_C(1) << D_T || q == 1 - D_BIAS - D_T) {
		cbl = cb - 2;
		k = flog10pow2(q);
	} else {
		cbl = cb - 1;
		k = flog10tqpow2(q);
	}
	h = q + flog2pow10(-k) + 2;
	g = shmids_g[-k - SHMIDS_G_MIN];
	return choose(rop64(g, cb << h), rop64(g, cbl << h),
	    rop64(g, cbr << h), (int)(c & 1), k);
}

static struct dec
to_decimal32(int q, uint64_t c)
{
	uint64_t cb = c << 2, cbl, cbr = cb + 2, g;
	int k, h;

	if (c != UINT64_C(1) << F_T || q == 1 - F_BIAS - F_T) {
		cbl = cb - 2;
		k = flog10pow2(q);
	} else {
		cbl = cb - 1;
		k = flog10tqpow2(q);
	}
	h = q + flog2pow10(-k) + 33;
	/* binary32 needs only the upper 63 bits of g, plus one (appendix) */
	g = shmids_g[-k - SHMIDS_G_MIN][0] + 1;
	return choose(rop32(g, cb << h), rop32(g, cbl << h),
	    rop32(g, cbr << h), (int)(c & 1), k);
}

/*
 * Small integers are exact: the paper's fast path (section 8.3).  c is
 * the significand with the implicit bit, mq minus the binary exponent.
 */
static int
small_int(uint64_t c, int mq, int tbits, struct dec *r)
{
	if (mq <= 0 || mq > tbits || (c & ((UINT64_C(1) << mq) - 1)) != 0)
		return 0;
	r->d = c >> mq;
	r->e = 0;
	return 1;
}

/*
 * Decimal of the finite, nonzero magnitude with biased exponent bq and
 * fraction field t.  OpenJDK scales subnormals below C_TINY by 10 so that
 * Java's toString gets at least two digits; we want the shortest, so we
 * do not, and choose() looks for one digit fewer down to s >= 10.
 */
static struct dec
decimal64(int bq, uint64_t t)
{
	struct dec r;
	uint64_t c = t | UINT64_C(1) << D_T;
	int mq = D_BIAS + D_T - bq;

	if (bq == 0)
		return to_decimal64(1 - D_BIAS - D_T, t);
	if (small_int(c, mq, D_T, &r))
		return r;
	return to_decimal64(-mq, c);
}

static struct dec
decimal32(int bq, uint64_t t)
{
	struct dec r;
	uint64_t c = t | UINT64_C(1) << F_T;
	int mq = F_BIAS + F_T - bq;

	if (bq == 0)
		return to_decimal32(1 - F_BIAS - F_T, t);
	if (small_int(c, mq, F_T, &r))
		return r;
	return to_decimal32(-mq, c);
}

/* "00" to "99", for two digits per division. */
#define P(a)	a "0" a "1" a "2" a "3" a "4" a "5" a "6" a "7" a "8" a "9"
static const char pairs[] = P("0") P("1") P("2") P("3") P("4") P("5")
	P("6") P("7") P("8") P("9");
#undef P

/* x < 10^8 as exactly 8 digits; the four pairs do not wait on each other. */
static void
put8(char *p, uint32_t x)
{
	uint32_t hi = x / 10000, lo = x % 10000;

	memcpy(p, pairs + 2 * (hi / 100), 2);
	memcpy(p + 2, pairs + 2 * (hi % 100), 2);
	memcpy(p + 4, pairs + 2 * (lo / 100), 2);
	memcpy(p + 6, pairs + 2 * (lo % 100), 2);
}

/*
 * The digits of d (0 < d < 10^17: Schubfach's d is below 10 2^53) as 17
 * digits at the start of dig, which is all '0'; *first is set to the
 * first significant one, trailing zeros (from the fast path or sp10) are
 * counted into *e.  Returns the number of significant digits.
 */
static int
digits(uint64_t d, char *dig, const char **first, int *e)
{
	const uint64_t e8 = 100000000;
	const char *p = dig, *q = dig + 17;

	dig[0] = (char)('0' + d / (e8 * e8));
	put8(dig + 1, (uint32_t)(d / e8 % e8));
	put8(dig + 9, (uint32_t)(d % e8));
	while (*p == '0')
		p++;
	while (q[-1] == '0') {
		q--;
		(*e)++;
	}
	*first = p;
	return (int)(q - p);
}

/* "e+dd", "e-ddd" at p; returns the end. */
static char *
exponent(char *p, int x)
{
	*p++ = 'e';
	*p++ = x < 0 ? '-' : '+';
	if (x < 0)
		x = -x;
	if (x >= 100) {
		*p++ = (char)('0' + x / 100);
		x %= 100;
	}
	memcpy(p, pairs + 2 * x, 2);
	return p + 2;
}

/*
 * Write sign, the digits of r and the layout described at the top.  The
 * copies are of fixed size, so they compile to a few moves: they may
 * write '0's past the end of the result, but never past 27 bytes (the
 * plain form has at most 17 digits, 4 zeros, point and sign), and they
 * read past the significant digits the '0's of dig.
 */
static size_t
render(char *buf, int neg, struct dec r)
{
	char dig[48], *p = buf + neg;
	const char *f;
	int n, x, i;

	memset(dig, '0', sizeof(dig));
	n = digits(r.d, dig, &f, &r.e);
	x = r.e + n - 1;		/* exponent of the first digit */

	buf[0] = '-';
	if (x < -4 || x > 15) {
		p[0] = f[0];
		p[1] = '.';
		memcpy(p + 2, f + 1, 16);
		p = exponent(p + (n > 1 ? n + 1 : 1), x);
	} else if (x >= n - 1) {	/* ddd000: x < 16 */
		memcpy(p, f, 16);
		p += x + 1;
	} else if (x >= 0) {		/* dd.ddd */
		memcpy(p, f, 16);
		p[x + 1] = '.';
		for (i = x + 1; i < n; i += 8)
			memcpy(p + i + 1, f + i, 8);
		p += n + 1;
	} else {			/* 0.000ddd: x >= -4 */
		memcpy(p, "0.000", 5);
		memcpy(p + 1 - x, f, 17);
		p += n + 1 - x;
	}
	*p = '\0';
	return (size_t)(p - buf);
}

/* Lower-case hex of m (nonzero), no leading zeros. */
static char *
hex(char *p, uint64_t m)
{
	static const char xd[] = "0123456789abcdef";
	int sh = 60;

	while ((m >> sh) == 0)
		sh -= 4;
	for (; sh >= 0; sh -= 4)
		*p++ = xd[(m >> sh) & 0xf];
	return p;
}

/*
 * inf, nan and the nan(0xM) forms of section 6; M is the whole fraction
 * field, so the quiet bit and any payload come back unchanged.  The
 * quiet NaNs without payload are plain nan and -nan, which other
 * programs read (x86's default NaN is the negative one); R's NA is NA,
 * as R writes and reads it.
 */
static size_t
special(char *buf, int neg, uint64_t t, uint64_t quiet)
{
	char *p = buf;

	if (!neg && t == SHMIDS_NA_FRAC) {
		memcpy(buf, "NA", 3);
		return 2;
	}
	if (neg)
		*p++ = '-';
	if (t == 0) {
		memcpy(p, "inf", 4);
		return (size_t)(p - buf) + 3;
	}
	memcpy(p, "nan", 3);
	p += 3;
	if (t != quiet) {
		memcpy(p, "(0x", 3);
		p = hex(p + 3, t);
		*p++ = ')';
	}
	*p = '\0';
	return (size_t)(p - buf);
}

/* The zero, special and finite cases common to both widths. */
static size_t
format(char *buf, int neg, int bq, uint64_t t, int tbits, int bias)
{
	if (bq == 2 * bias + 1)
		return special(buf, neg, t, UINT64_C(1) << (tbits - 1));
	if (bq == 0 && t == 0) {
		strcpy(buf, neg ? "-0" : "0");
		return (size_t)neg + 1;
	}
	return render(buf, neg,
	    tbits == D_T ? decimal64(bq, t) : decimal32(bq, t));
}

size_t
shmids_dtoa(double v, char *buf)
{
	uint64_t b;

	memcpy(&b, &v, sizeof(b));
	return format(buf, (int)(b >> 63), (int)(b >> D_T) & 0x7ff,
	    b & ((UINT64_C(1) << D_T) - 1), D_T, D_BIAS);
}

size_t
shmids_ftoa(float v, char *buf)
{
	uint32_t b;

	memcpy(&b, &v, sizeof(b));
	return format(buf, (int)(b >> 31), (int)(b >> F_T) & 0xff,
	    b & ((UINT32_C(1) << F_T) - 1), F_T, F_BIAS);
}
