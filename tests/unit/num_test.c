/*
 * num_test: the exact number conversions of lib/text/dtoa.c and
 * lib/text/strtod.c (format-spec.md section 6), checked against
 * themselves, against libc (glibc's printf and strtod are exact) and
 * against exact decimals of ties computed here with a small bignum.
 * TAP output.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmids.h"
#include "text/number.h"

#define NRANDOM		2000000	/* random bit patterns per width */
#define NSAMPLE		80000	/* random values checked against printf */
#define NPARSE		200000	/* random decimals per width */
#define NTIE		4000	/* exact ties per width */

static int	ntest, nfail, ndiag;

static void
diag(const char *fmt, ...)
{
	va_list ap;

	if (ndiag++ >= 10)
		return;
	va_start(ap, fmt);
	fputs("# ", stdout);
	vprintf(fmt, ap);
	fputs("\n", stdout);
	va_end(ap);
}

/* One TAP line for a group of checks: fails if any check failed. */
static void
report(int bad, const char *desc)
{
	printf("%sok %d - %s", bad ? "not " : "", ++ntest, desc);
	if (bad)
		printf(" (%d failures)", bad);
	printf("\n");
	nfail += bad != 0;
	ndiag = 0;
}

static uint64_t rng = 0x5348494453ULL;

/* splitmix64: fast, good enough, reproducible. */
static uint64_t
rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t
d2b(double d)
{
	uint64_t b;

	memcpy(&b, &d, sizeof(b));
	return b;
}

static double
b2d(uint64_t b)
{
	double d;

	memcpy(&d, &b, sizeof(d));
	return d;
}

static uint32_t
f2b(float f)
{
	uint32_t b;

	memcpy(&b, &f, sizeof(b));
	return b;
}

static float
b2f(uint32_t b)
{
	float f;

	memcpy(&f, &b, sizeof(f));
	return f;
}

/* Format then parse back; 0 if the bits survive. */
static int
rt64(uint64_t b)
{
	char buf[SHMIDS_NUM_MAX];	/* exactly: ASan sees any overrun */
	const char *end;
	double d;
	size_t n;

	memset(buf, 'x', sizeof(buf));
	n = shmids_dtoa(b2d(b), buf);
	if (n >= 32 || strlen(buf) != n) {
		diag("f64 %016llx: length %zu", (unsigned long long)b, n);
		return 1;
	}
	if (shmids_strtod(buf, &end, &d) != 0 || end != buf + n ||
	    d2b(d) != b || shmids_strtod_lim(buf, buf + n, &end, &d) != 0 ||
	    end != buf + n || d2b(d) != b) {
		diag("f64 %016llx -> \"%s\" -> %016llx", (unsigned long long)b,
		    buf, (unsigned long long)d2b(d));
		return 1;
	}
	return 0;
}

static int
rt32(uint32_t b)
{
	char buf[SHMIDS_NUM_MAX];
	const char *end;
	float f;
	size_t n;

	memset(buf, 'x', sizeof(buf));
	n = shmids_ftoa(b2f(b), buf);
	if (n >= 32 || strlen(buf) != n) {
		diag("f32 %08lx: length %zu", (unsigned long)b, n);
		return 1;
	}
	if (shmids_strtof(buf, &end, &f) != 0 || end != buf + n ||
	    f2b(f) != b || shmids_strtof_lim(buf, buf + n, &end, &f) != 0 ||
	    end != buf + n || f2b(f) != b) {
		diag("f32 %08lx -> \"%s\" -> %08lx", (unsigned long)b, buf,
		    (unsigned long)f2b(f));
		return 1;
	}
	return 0;
}

static const uint64_t special64[] = {
	0, 0x8000000000000000ULL,		/* +-0 */
	1, 0x8000000000000001ULL,		/* smallest subnormal */
	2, 3, 10, 0x000fffffffffffffULL,	/* largest subnormal */
	0x0010000000000000ULL,			/* smallest normal */
	0x0010000000000001ULL, 0x3ff0000000000000ULL,
	0x7fefffffffffffffULL, 0xffefffffffffffffULL,	/* largest */
	0x7ff0000000000000ULL, 0xfff0000000000000ULL,	/* +-inf */
	0x7ff8000000000000ULL, 0xfff8000000000000ULL,	/* quiet nan */
	0x7ff8000000000001ULL, 0xfff8000000abcdefULL,	/* payloads */
	0x7ff0000000000001ULL, 0xfff0000000000001ULL,	/* signaling */
	0x7ff4000000000000ULL, 0x7fffffffffffffffULL, 0xffffffffffffffffULL,
};

static const uint32_t special32[] = {
	0, 0x80000000, 1, 0x80000001, 2, 7, 8, 0x007fffff, 0x00800000,
	0x3f800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000,
	0x7fc00000, 0xffc00000, 0x7fc00001, 0x7f800001, 0xff800001,
	0x7fa00000, 0x7fffffff, 0xffffffff,
};

static void
test_special(void)
{
	size_t i;
	int bad = 0;

	for (i = 0; i < sizeof(special64) / sizeof(special64[0]); i++)
		bad += rt64(special64[i]);
	report(bad, "f64 special values round trip");
	for (i = 0; i < sizeof(special32) / sizeof(special32[0]); i++)
		bad += rt32(special32[i]);
	report(bad, "f32 special values round trip");
}

struct expect64 {
	uint64_t	 b;
	const char	*s;
};

static const struct expect64 expect64[] = {
	{ 0, "0" }, { 0x8000000000000000ULL, "-0" },
	{ 0x7ff0000000000000ULL, "inf" }, { 0xfff0000000000000ULL, "-inf" },
	{ 0x7ff8000000000000ULL, "nan" },
	{ 0xfff8000000000000ULL, "-nan" },
	{ 0x7ff0000000000001ULL, "nan(0x1)" },
	{ 0x7ff8000000000001ULL, "nan(0x8000000000001)" },
	{ 0xfff0000000000001ULL, "-nan(0x1)" },
	{ 0xffffffffffffffffULL, "-nan(0xfffffffffffff)" },
	/* R's NA: only these bits; quieted or negated it keeps its M */
	{ 0x7ff00000000007a2ULL, "NA" },
	{ 0x7ff80000000007a2ULL, "nan(0x80000000007a2)" },
	{ 0xfff00000000007a2ULL, "-nan(0x7a2)" },
	{ 1, "5e-324" }, { 0x000fffffffffffffULL, "2.225073858507201e-308" },
	{ 0x0010000000000000ULL, "2.2250738585072014e-308" },
	{ 0x7fefffffffffffffULL, "1.7976931348623157e+308" },
	{ 0x3ff0000000000000ULL, "1" }, { 0x4008000000000000ULL, "3" },
	{ 0x4059000000000000ULL, "100" }, { 0xc059000000000000ULL, "-100" },
	{ 0x3f50624dd2f1a9fcULL, "0.001" }, { 0x405edccccccccccdULL, "123.45" },
	{ 0x3fb999999999999aULL, "0.1" }, { 0x3fd3333333333333ULL, "0.3" },
	{ 0x3fd3333333333334ULL, "0.30000000000000004" },
	{ 0x444b1ae4d6e2ef50ULL, "1e+21" }, { 0x44b52d02c7e14af6ULL, "1e+23" },
	{ 0x4340000000000000ULL, "9007199254740992" },
	{ 0x3ff0000000000001ULL, "1.0000000000000002" },
	{ 0x3e7ad7f29abcaf48ULL, "1e-07" },
	/* positional exactly where Python's repr is: 1e-4 <= |v| < 1e16 */
	{ 0x4341c37937e08000ULL, "1e+16" },
	{ 0x4341c37937e07fffULL, "9999999999999998" },
	{ 0xc3a484020911b56dULL, "-7.391544078297146e+17" },
	{ 0x437b69b4ba630f35ULL, "1.2345678901234568e+17" },
	{ 0x430c6bf526340000ULL, "1000000000000000" },
	{ 0x40f86a0000000000ULL, "100000" },
	{ 0x3f1a36e2eb1c432dULL, "0.0001" },
	{ 0x3f202e4b6ce5dc68ULL, "0.00012345" },
	{ 0x3ee4f8b588e368f1ULL, "1e-05" },
	{ 0x3ee9e3abe16fc70dULL, "1.2345e-05" },
};

struct expect32 {
	uint32_t	 b;
	const char	*s;
};

static const struct expect32 expect32[] = {
	{ 0, "0" }, { 0x80000000, "-0" }, { 0x7f800000, "inf" },
	{ 0xff800000, "-inf" }, { 0x7fc00000, "nan" },
	{ 0xffc00000, "-nan" }, { 0x7f800001, "nan(0x1)" },
	{ 0x7fc00001, "nan(0x400001)" }, { 0xff800001, "-nan(0x1)" },
	{ 0x7f8007a2, "NA" }, { 0xff8007a2, "-nan(0x7a2)" },
	{ 1, "1e-45" }, { 0x00800000, "1.1754944e-38" },
	{ 0x7f7fffff, "3.4028235e+38" }, { 0x3f800000, "1" },
	{ 0x3dcccccd, "0.1" }, { 0x42f6e666, "123.45" },
	{ 0x4cbebc20, "100000000" }, { 0x4b189680, "10000000" },
	{ 0x4ceb79a3, "123456790" }, { 0x58635fa9, "1000000000000000" },
	{ 0x5a0e1bca, "1e+16" }, { 0x38d1b717, "0.0001" },
	{ 0x3727c5ac, "1e-05" },
};

static void
test_expect(void)
{
	char buf[SHMIDS_NUM_MAX];
	size_t i;
	int bad = 0;

	for (i = 0; i < sizeof(expect64) / sizeof(expect64[0]); i++) {
		shmids_dtoa(b2d(expect64[i].b), buf);
		if (strcmp(buf, expect64[i].s) != 0) {
			diag("f64 %016llx: \"%s\", want \"%s\"",
			    (unsigned long long)expect64[i].b, buf,
			    expect64[i].s);
			bad++;
		}
	}
	report(bad, "f64 formats as specified");
	for (i = 0; i < sizeof(expect32) / sizeof(expect32[0]); i++) {
		shmids_ftoa(b2f(expect32[i].b), buf);
		if (strcmp(buf, expect32[i].s) != 0) {
			diag("f32 %08lx: \"%s\", want \"%s\"",
			    (unsigned long)expect32[i].b, buf, expect32[i].s);
			bad++;
		}
	}
	report(bad, "f32 formats as specified");
}

static void
test_random_rt(void)
{
	long i;
	int bad = 0;

	for (i = 0; i < NRANDOM; i++)
		bad += rt64(rnd());
	report(bad, "f64 random bit patterns round trip");
	bad = 0;
	for (i = 0; i < NRANDOM; i++)
		bad += rt32((uint32_t)rnd());
	report(bad, "f32 random bit patterns round trip");
}

/*
 * Significant digits (no leading or trailing zeros) and the exponent of
 * the first one, from any decimal form: "0.00120" and "1.2e-03" alike.
 */
static int
normal(const char *s, char *dig, int *x)
{
	int n = 0, lead = 0, nint = 0, frac = 0;

	if (*s == '-')
		s++;
	for (; (*s >= '0' && *s <= '9') || *s == '.'; s++) {
		if (*s == '.') {
			frac = 1;
			continue;
		}
		nint += !frac;
		if (n == 0 && *s == '0') {
			lead++;
			continue;
		}
		dig[n++] = *s;
	}
	while (n > 0 && dig[n - 1] == '0')
		n--;
	dig[n] = '\0';
	*x = nint - 1 - lead + (*s == 'e' || *s == 'E' ? atoi(s + 1) : 0);
	return n;
}

/*
 * Ours has n digits.  Shortest: printf's correctly rounded n-1 digits do
 * not read back to v.  Closest: printf's n digits are ours if they read
 * back to v.  Never more digits than %.17g (%.9g).  Exponent form exactly
 * outside Python's repr range (section 6).  And libc reads ours back.
 */
static int
shortest(double v, int single)
{
	char ours[SHMIDS_NUM_MAX], ref[64], d1[32], d2[32];
	int n, x1, x2, bad = 0, maxd = single ? 9 : 17;

	if (single)
		shmids_ftoa((float)v, ours);
	else
		shmids_dtoa(v, ours);
	n = normal(ours, d1, &x1);
	if (n > maxd)
		bad = 1, diag("%s has more than %d digits", ours, maxd);
	if ((strchr(ours, 'e') != NULL) != (x1 < -4 || x1 > 15))
		bad = 1, diag("%s: wrong layout for exponent %d", ours, x1);
	/* at a power of two the closest may lie outside the narrow side */
	snprintf(ref, sizeof(ref), "%.*e", n - 1, v);
	normal(ref, d2, &x2);
	if ((strcmp(d1, d2) != 0 || x1 != x2) && (single ?
	    strtof(ref, NULL) == (float)v : strtod(ref, NULL) == v))
		bad = 1, diag("%s is not the closest: %s", ours, ref);
	if (n > 1) {
		snprintf(ref, sizeof(ref), "%.*e", n - 2, v);
		if (single ? strtof(ref, NULL) == (float)v :
		    strtod(ref, NULL) == v)
			bad = 1, diag("%s is not the shortest: %s", ours, ref);
	}
	if (single ? f2b(strtof(ours, NULL)) != f2b((float)v) :
	    d2b(strtod(ours, NULL)) != d2b(v))
		bad = 1, diag("libc reads %s otherwise", ours);
	return bad;
}

static void
test_shortest(void)
{
	uint64_t b;
	uint32_t b32;
	long i;
	int bad = 0;

	for (i = 0; i < NSAMPLE; i++) {
		do
			b = rnd() >> 1;
		while ((b >> 52) == 0x7ff);
		bad += shortest(b2d(b), 0);
	}
	for (i = 1; i <= 3000; i++)		/* subnormals: few digits */
		bad += shortest(b2d((uint64_t)i), 0);
	for (i = -1074; i <= 1023; i++)		/* irregular spacing */
		bad += shortest(ldexp(1, (int)i), 0);
	for (i = 0; i < 10000; i++)		/* short decimals, integers */
		bad += shortest((double)(1 + rnd() % 100000) /
		    pow(10, (double)(rnd() % 40) - 20), 0);
	report(bad, "f64 output is shortest, closest, within %.17g");
	bad = 0;
	for (i = 0; i < NSAMPLE; i++) {
		do
			b32 = (uint32_t)rnd() >> 1;
		while ((b32 >> 23) == 0xff);
		bad += shortest(b2f(b32), 1);
	}
	for (i = 1; i <= 3000; i++)
		bad += shortest(b2f((uint32_t)i), 1);
	for (i = -149; i <= 127; i++)
		bad += shortest(ldexp(1, (int)i), 1);
	report(bad, "f32 output is shortest, closest, within %.9g");
}

/*
 * A random decimal token of nd significant digits whose first digit has
 * exponent x: "ddd.ddde-7" with the point anywhere, or "0.000ddde5".
 */
static void
randdec(char *s, int nd, int x)
{
	int point = (int)(rnd() % (unsigned)(nd + 1)), zeros = -1, i;

	if (rnd() & 1)
		*s++ = rnd() & 1 ? '-' : '+';
	if (rnd() % 4 == 0) {
		zeros = (int)(rnd() % 5);
		*s++ = '0';
		*s++ = '.';
		for (i = 0; i < zeros; i++)
			*s++ = '0';
	}
	for (i = 0; i < nd; i++) {
		if (i == point && zeros < 0)
			*s++ = '.';
		*s++ = (char)('0' + (i == 0 ? 1 + rnd() % 9 : rnd() % 10));
		/* runs of 0s and 9s sit near ties and powers of ten */
		if (i > 0 && rnd() % 8 == 0)
			while (i + 1 < nd && rnd() % 16 != 0) {
				*s = s[-1];
				s++;
				i++;
			}
	}
	x -= zeros < 0 ? point - 1 : -zeros - 1;
	sprintf(s, rnd() & 1 ? "e%d" : "E%+d", x);
}

/*
 * Parse s (ending at lim, or NUL-terminated if lim is NULL) both ways; 0
 * if we agree with libc, ERANGE included.  With lim, ours is asked twice:
 * without and with the length.
 */
static int
cmp_libc_lim(const char *s, const char *lim, int single)
{
	const char *end, *l = NULL;
	char *c = NULL;
	double d, ld;
	float f, lf;
	int r, want, pass;

	if (lim != NULL && (c = malloc((size_t)(lim - s) + 1)) != NULL) {
		memcpy(c, s, (size_t)(lim - s));
		c[lim - s] = '\0';
	}
	ld = strtod(c != NULL ? c : s, NULL);
	lf = strtof(c != NULL ? c : s, NULL);
	free(c);
	if (lim == NULL)
		lim = s + strlen(s);
	for (pass = 0; pass < 2; pass++, l = lim) {
		errno = 0;
		if (single) {
			want = isinf(lf) ? -1 : 0;
			r = shmids_strtof_lim(s, l, &end, &f);
			if (r != want || (r < 0 && errno != ERANGE) ||
			    f2b(f) != f2b(lf) || end != lim) {
				diag("f32 \"%.*s\"%s: %d %08lx, libc %08lx",
				    (int)(lim - s), s, l ? " (length)" : "",
				    r, (unsigned long)f2b(f),
				    (unsigned long)f2b(lf));
				return 1;
			}
			continue;
		}
		want = isinf(ld) ? -1 : 0;
		r = shmids_strtod_lim(s, l, &end, &d);
		if (r != want || (r < 0 && errno != ERANGE) ||
		    d2b(d) != d2b(ld) || end != lim) {
			diag("f64 \"%.60s\"%s: %d %016llx, libc %016llx", s,
			    l ? " (length)" : "", r,
			    (unsigned long long)d2b(d),
			    (unsigned long long)d2b(ld));
			return 1;
		}
	}
	return 0;
}

static int
cmp_libc(const char *s, int single)
{
	return cmp_libc_lim(s, NULL, single);
}

static void
test_parse_random(void)
{
	static char s[2000];
	long i;
	int bad = 0, nd;

	for (i = 0; i < NPARSE; i++) {
		nd = 1 + (int)(rnd() % 25);
		randdec(s, nd, (int)(rnd() % 660) - 345);
		bad += cmp_libc(s, 0);
	}
	for (i = 0; i < 2000; i++) {
		nd = 20 + (int)(rnd() % 1500);
		randdec(s, nd, (int)(rnd() % 660) - 345);
		bad += cmp_libc(s, 0);
	}
	report(bad, "f64 parse agrees with libc strtod on random decimals");
	bad = 0;
	for (i = 0; i < NPARSE; i++) {
		nd = 1 + (int)(rnd() % 15);
		randdec(s, nd, (int)(rnd() % 100) - 50);
		bad += cmp_libc(s, 1);
	}
	for (i = 0; i < 2000; i++) {
		nd = 10 + (int)(rnd() % 300);
		randdec(s, nd, (int)(rnd() % 100) - 50);
		bad += cmp_libc(s, 1);
	}
	report(bad, "f32 parse agrees with libc strtof on random decimals");
}

/* A bignum in base 10^9, little-endian: enough for 2^54 5^1075. */
struct big {
	uint32_t	l[100];
	int		n;
};

static void
big_mul(struct big *b, uint32_t m)
{
	uint64_t c = 0;
	int i;

	for (i = 0; i < b->n; i++) {
		c += (uint64_t)b->l[i] * m;
		b->l[i] = (uint32_t)(c % 1000000000);
		c /= 1000000000;
	}
	if (c != 0)
		b->l[b->n++] = (uint32_t)c;
}

/*
 * Exact decimal "D" and exponent E of the tie (2c + 1) 2^(q-1) between
 * c 2^q and (c + 1) 2^q, as "De<E>".  Returns the length of D.
 */
static int
tie(uint64_t c, int q, char *s, int *e)
{
	struct big b;
	uint64_t m = 2 * c + 1;
	int k = q - 1, n, i;

	b.n = 0;
	while (m != 0) {
		b.l[b.n++] = (uint32_t)(m % 1000000000);
		m /= 1000000000;
	}
	*e = k < 0 ? k : 0;
	if (k > 0)
		for (; k > 0; k -= 16)		/* times 2^k */
			big_mul(&b, 1U << (k < 16 ? k : 16));
	else
		for (; k < 0; k += 12)		/* times 5^-k, 10^k */
			big_mul(&b, k > -12 ? (uint32_t)pow(5, -k) : 244140625U);
	n = sprintf(s, "%u", b.l[b.n - 1]);
	for (i = b.n - 2; i >= 0; i--)
		n += sprintf(s + n, "%09u", b.l[i]);
	return n;
}

/*
 * Between the values with bits lo and lo + 1: the exact tie must go to
 * the even one, a hair below to lo, a hair above to lo + 1.
 */
static int
check_tie(uint64_t lo, int single)
{
	static char d[1200], s[1300];
	uint64_t c, want[3], got;
	int tb = single ? 23 : 52, bias = single ? 127 : 1023;
	int be = (int)(lo >> tb), e, n, i, j, r;
	double v;
	float f;

	c = lo & ((UINT64_C(1) << tb) - 1);
	if (be != 0)
		c |= UINT64_C(1) << tb;
	n = tie(c, (be ? be : 1) - bias - tb, d, &e);
	want[0] = lo + (lo & 1);
	want[1] = lo;
	want[2] = lo + 1;
	for (i = 0; i < 3; i++) {
		memcpy(s, d, n);
		j = n;
		if (i == 1) {			/* D * 10 - 1 */
			for (r = j - 1; s[r] == '0'; r--)
				s[r] = '9';
			s[r]--;
			s[j++] = '9';
		} else if (i == 2)
			s[j++] = '1';
		if (rnd() & 1)
			sprintf(s + j, "e%d", e - (i != 0));
		else {				/* d.ddd form */
			memmove(s + 2, s + 1, j - 1);
			s[1] = '.';
			sprintf(s + j + 1, "e%d", e - (i != 0) + j - 1);
		}
		if (single) {
			r = shmids_strtof(s, NULL, &f);
			got = f2b(f);
		} else {
			r = shmids_strtod(s, NULL, &v);
			got = d2b(v);
		}
		if (got != want[i] ||
		    r != ((want[i] >> tb) == (uint64_t)2 * bias + 1 ? -1 : 0) ||
		    cmp_libc(s, single)) {
			diag("tie %d of %llx: %.40s... -> %llx", i,
			    (unsigned long long)lo, s, (unsigned long long)got);
			return 1;
		}
	}
	return 0;
}

static void
test_ties(void)
{
	static const uint64_t edge64[] = {
		0, 1, 2, 0x000ffffffffffffeULL, 0x000fffffffffffffULL,
		0x0010000000000000ULL, 0x3fefffffffffffffULL,
		0x3ff0000000000000ULL, 0x4340000000000000ULL,
		0x7fefffffffffffffULL, 0x7feffffffffffffeULL,
	};
	static const uint32_t edge32[] = {
		0, 1, 2, 0x007fffff, 0x00800000, 0x3f800000, 0x7f7fffff,
		0x7f7ffffe,
	};
	size_t i;
	int bad = 0;

	for (i = 0; i < sizeof(edge64) / sizeof(edge64[0]); i++)
		bad += check_tie(edge64[i], 0);
	for (i = 0; i < NTIE; i++)
		bad += check_tie(rnd() % 0x7fefffffffffffffULL, 0);
	for (i = 0; i < NTIE / 4; i++)		/* small exponents, short */
		bad += check_tie(0x4330000000000000ULL + rnd() % (1ULL << 56),
		    0);
	report(bad, "f64 exact ties round to even, near-ties away");
	bad = 0;
	for (i = 0; i < sizeof(edge32) / sizeof(edge32[0]); i++)
		bad += check_tie(edge32[i], 1);
	for (i = 0; i < NTIE; i++)
		bad += check_tie(rnd() % 0x7f7fffff, 1);
	report(bad, "f32 exact ties round to even, near-ties away");
}

/* Tokens with the bits and token length expected, or errno. */
struct tok {
	const char	*s;
	int		 err;		/* 0, EINVAL or ERANGE */
	uint64_t	 b;		/* f64 bits */
	int		 len;		/* token length if not strlen(s) */
};

static const struct tok tok64[] = {
	{ "1e309", ERANGE, 0x7ff0000000000000ULL, 5 },
	{ "-1e309", ERANGE, 0xfff0000000000000ULL, 6 },
	{ "1.7976931348623159e308", ERANGE, 0x7ff0000000000000ULL, 22 },
	{ "1.7976931348623158e308", 0, 0x7fefffffffffffffULL, 22 },
	{ "1e99999999999999999999999", ERANGE, 0x7ff0000000000000ULL, 0 },
	{ "0x1p1024", ERANGE, 0x7ff0000000000000ULL, 8 },
	{ "0x1.fffffffffffff8p1023", ERANGE, 0x7ff0000000000000ULL, 23 },
	{ "0x1.fffffffffffff7ffp1023", 0, 0x7fefffffffffffffULL, 25 },
	{ "0e99999", 0, 0, 7 }, { "-0.0e-5", 0, 0x8000000000000000ULL, 7 },
	{ "1e-400", 0, 0, 6 }, { "-1e-99999999999999", 0, 1ULL << 63, 0 },
	{ "2.4703282292062327e-324", 0, 0, 23 },
	{ "2.4703282292062328e-324", 0, 1, 23 },
	{ "4.9406564584124654e-324", 0, 1, 23 }, { "5e-324", 0, 1, 6 },
	{ "3e-324", 0, 1, 6 }, { "7.4e-324", 0, 1, 8 }, { "7.5e-324", 0, 2, 8 },
	{ "2.2250738585072011e-308", 0, 0x000fffffffffffffULL, 23 },
	{ "2.2250738585072012e-308", 0, 0x0010000000000000ULL, 23 },
	{ "0x1p-1075", 0, 0, 9 }, { "0x1.0000000001p-1075", 0, 1, 20 },
	{ "0x0.0000000000001p-1022", 0, 1, 23 }, { "0x1p-1074", 0, 1, 9 },
	{ "0x1.8p3", 0, 0x4028000000000000ULL, 7 },
	{ "0X.8P1", 0, 0x3ff0000000000000ULL, 6 },
	{ "-0x10", 0, 0xc030000000000000ULL, 5 },
	{ "0x1.00000000000008p0", 0, 0x3ff0000000000000ULL, 20 },
	{ "0x1.00000000000018p0", 0, 0x3ff0000000000002ULL, 20 },
	{ "0x1.000000000000080000000000000000001p0", 0,
	    0x3ff0000000000001ULL, 0 },
	{ ".5", 0, 0x3fe0000000000000ULL, 2 },
	{ "5.", 0, 0x4014000000000000ULL, 2 },
	{ "+.5e1", 0, 0x4014000000000000ULL, 5 },
	{ "00012", 0, 0x4028000000000000ULL, 5 },
	{ "1e+05", 0, 0x40f86a0000000000ULL, 5 },
	{ "1 2", 0, 0x3ff0000000000000ULL, 1 },
	{ "1\t", 0, 0x3ff0000000000000ULL, 1 },
	{ "1\r\n", 0, 0x3ff0000000000000ULL, 1 },
	{ "INF", 0, 0x7ff0000000000000ULL, 3 },
	{ "-Infinity", 0, 0xfff0000000000000ULL, 9 },
	{ "nan", 0, 0x7ff8000000000000ULL, 3 },
	{ "-NaN", 0, 0xfff8000000000000ULL, 4 },
	{ "-nan", 0, 0xfff8000000000000ULL, 4 },
	{ "nan(0x1)", 0, 0x7ff0000000000001ULL, 8 },
	{ "-nan(0X000fffffffffffff)", 0, 0xffffffffffffffffULL, 0 },
	{ "nan(0x8000000000000) x", 0, 0x7ff8000000000000ULL, 20 },
	{ "NA", 0, 0x7ff00000000007a2ULL, 2 },
	{ "NA 1", 0, 0x7ff00000000007a2ULL, 2 },
	{ "nan(0x7a2)", 0, 0x7ff00000000007a2ULL, 10 },
	{ "-NA", EINVAL, 0, 0 }, { "+NA", EINVAL, 0, 0 },
	{ "na", EINVAL, 0, 0 }, { "Na", EINVAL, 0, 0 },
	{ "NAx", EINVAL, 0, 0 }, { "N", EINVAL, 0, 0 },
	{ "", EINVAL, 0, 0 }, { " 1", EINVAL, 0, 0 }, { "+", EINVAL, 0, 0 },
	{ "-", EINVAL, 0, 0 }, { ".", EINVAL, 0, 0 }, { "-.e1", EINVAL, 0, 0 },
	{ "1e", EINVAL, 0, 0 }, { "1e+", EINVAL, 0, 0 },
	{ "1x", EINVAL, 0, 0 }, { "1..2", EINVAL, 0, 0 },
	{ "1,5", EINVAL, 0, 0 }, { "--1", EINVAL, 0, 0 },
	{ "+-1", EINVAL, 0, 0 }, { "1e5.5", EINVAL, 0, 0 },
	{ "0x", EINVAL, 0, 0 }, { "0x.p1", EINVAL, 0, 0 },
	{ "0x1p", EINVAL, 0, 0 }, { "0x1.8p3.", EINVAL, 0, 0 },
	{ "0x1g", EINVAL, 0, 0 }, { "in", EINVAL, 0, 0 },
	{ "infx", EINVAL, 0, 0 }, { "infinit", EINVAL, 0, 0 },
	{ "nan(", EINVAL, 0, 0 }, { "nan()", EINVAL, 0, 0 },
	{ "nan(0x)", EINVAL, 0, 0 }, { "nan(0x0)", EINVAL, 0, 0 },
	{ "nan(1)", EINVAL, 0, 0 }, { "nan(0x10000000000000)", EINVAL, 0, 0 },
	{ "nan(0x1", EINVAL, 0, 0 }, { "nan(0x1)x", EINVAL, 0, 0 },
	{ "nanq", EINVAL, 0, 0 }, { "/", EINVAL, 0, 0 },
	{ "1/", EINVAL, 0, 0 }, { "e5", EINVAL, 0, 0 },
	/* Fortran's D exponent (format-spec.md 6) */
	{ "1.0000000000000000D+00", 0, 0x3ff0000000000000ULL, 22 },
	{ "-2.5d-3", 0, 0xbf647ae147ae147bULL, 7 },
	{ "0.12345678901234567890123D+21", 0, 0x441ac53a7e04bcdaULL, 0 },
	{ "1D309", ERANGE, 0x7ff0000000000000ULL, 5 },
	{ "1d", EINVAL, 0, 0 }, { "1D+", EINVAL, 0, 0 },
	{ "1.0+100", EINVAL, 0, 0 }, { "1q5", EINVAL, 0, 0 },
	{ "0x1d", 0, 0x403d000000000000ULL, 4 }, { "1De5", EINVAL, 0, 0 },
	{ "60*0.0", EINVAL, 0, 0 }, { "3*", EINVAL, 0, 0 },
};

static const struct tok tok32[] = {
	{ "3.4028235e38", 0, 0x7f7fffff, 12 },
	{ "3.40282356e38", 0, 0x7f7fffff, 13 },
	{ "3.40282357e38", ERANGE, 0x7f800000, 13 },
	{ "3.4028236e38", ERANGE, 0x7f800000, 12 },
	{ "-1e39", ERANGE, 0xff800000, 5 },
	{ "1e309", ERANGE, 0x7f800000, 5 },
	{ "0x1p128", ERANGE, 0x7f800000, 7 },
	{ "7e-46", 0, 0, 5 }, { "7.1e-46", 0, 1, 7 }, { "1e-45", 0, 1, 5 },
	{ "-1e-50", 0, 0x80000000, 6 },
	{ "1.1754942e-38", 0, 0x007fffff, 13 },
	{ "1.1754943e-38", 0, 0x00800000, 13 },
	{ "0x1p-150", 0, 0, 8 }, { "0x1.8p-150", 0, 1, 10 },
	{ "0x1.000001p0", 0, 0x3f800000, 12 },
	{ "0x1.000003p0", 0, 0x3f800002, 12 },
	{ "16777217", 0, 0x4b800000, 8 }, { "16777219", 0, 0x4b800002, 8 },
	{ "nan", 0, 0x7fc00000, 3 }, { "-nan", 0, 0xffc00000, 4 },
	{ "nan(0x7fffff)", 0, 0x7fffffff, 13 },
	{ "NA", 0, 0x7f8007a2, 2 }, { "-NA", EINVAL, 0, 0 },
	{ "nan(0x800000)", EINVAL, 0, 0 }, { "nan(0x8000000000000)", EINVAL, 0, 0 },
	{ "", EINVAL, 0, 0 }, { "1f", EINVAL, 0, 0 },
	{ "1.00000000D+00", 0, 0x3f800000, 14 }, { "1d-46", 0, 0, 5 },
};

static int
check_tok(const struct tok *t, int single)
{
	const char *end = NULL;
	double d = 0;
	float f = 0;
	uint64_t b;
	int r;

	const char *lim = NULL;
	int pass;

	/* without, then with the length */
	for (pass = 0; pass < 2; pass++, lim = t->s + strlen(t->s)) {
		errno = 12345;		/* must stay on success */
		if (single) {
			r = shmids_strtof_lim(t->s, lim, &end, &f);
			b = f2b(f);
		} else {
			r = shmids_strtod_lim(t->s, lim, &end, &d);
			b = d2b(d);
		}
		if (r != (t->err ? -1 : 0) ||
		    errno != (t->err ? t->err : 12345) ||
		    (t->err != EINVAL && (b != t->b || end != t->s +
		    (t->len ? (size_t)t->len : strlen(t->s))))) {
			diag("\"%s\"%s: %d errno %d bits %llx end %d", t->s,
			    lim ? " (length)" : "", r, errno,
			    (unsigned long long)b,
			    end ? (int)(end - t->s) : -1);
			return 1;
		}
	}
	return 0;
}

static void
test_tokens(void)
{
	size_t i;
	int bad = 0;

	for (i = 0; i < sizeof(tok64) / sizeof(tok64[0]); i++)
		bad += check_tok(&tok64[i], 0);
	report(bad, "f64 overflow, underflow, forms, token ends, junk");
	bad = 0;
	for (i = 0; i < sizeof(tok32) / sizeof(tok32[0]); i++)
		bad += check_tok(&tok32[i], 1);
	report(bad, "f32 overflow, underflow, forms, token ends, junk");
}

/* "0xhhh.hhhp-12": 0 to 20 digits each side of the point, at least one. */
static void
randhex(char *s)
{
	static const char xd[] = "0123456789abcdefABCDEF00ff";
	int a = (int)(rnd() % 21), b = (int)(rnd() % 21), i;

	if (a + b == 0)
		a = 1;
	for (i = 0; i < a; i++)
		*s++ = xd[rnd() % 26];
	if (b > 0 || rnd() % 4 == 0)
		*s++ = '.';
	for (i = 0; i < b; i++)
		*s++ = xd[rnd() % 26];
	sprintf(s, "%s%d", rnd() & 1 ? "p" : "P", (int)(rnd() % 2400) - 1200);
}

/* %a output, and random long hex digit strings, against libc. */
static void
test_hex(void)
{
	char s[128];
	uint64_t b;
	long i;
	int bad = 0, n;

	for (i = 0; i < 100000; i++) {
		do
			b = rnd();
		while ((b >> 52 & 0x7ff) == 0x7ff);
		snprintf(s, sizeof(s), "%a", b2d(b));
		bad += cmp_libc(s, 0);
		snprintf(s, sizeof(s), "%a", (double)b2f((uint32_t)b));
		if (!isinf(b2f((uint32_t)b)) && !isnan(b2f((uint32_t)b)))
			bad += cmp_libc(s, 1);
	}
	for (i = 0; i < 50000; i++) {
		n = sprintf(s, "%s0x", rnd() & 1 ? "-" : "");
		randhex(s + n);
		bad += cmp_libc(s, 0);
		bad += cmp_libc(s, 1);
	}
	report(bad, "hex floats agree with libc");
}

/*
 * Tokens that end their buffer: copied to a heap block of exactly their
 * size, ended by a blank (no NUL after it) or a NUL, so that ASan (make
 * check-asan) sees any read past the end, 8-byte ones included.  Long
 * digit runs, split by the point anywhere, as "%.17g" writes them.
 */
static int
at_buffer_end(const char *t, int single)
{
	size_t n = strlen(t), i;
	char *b;
	int bad = 0;

	for (i = 0; i < 2 && bad == 0; i++) {
		if ((b = malloc(n + 1)) == NULL)
			return 1;
		memcpy(b, t, n);
		b[n] = i == 0 ? ' ' : '\0';
		bad = cmp_libc_lim(b, b + n, single);
		free(b);
	}
	return bad;
}

static void
test_buffer_end(void)
{
	static const char *fixed[] = { "0.12345678901234567",
	    "1.2345678901234567e+123", "12345678901234567890123",
	    "0.000000000000000000000000000001", "9007199254740993",
	    "1234567.8", "12345678.", ".12345678", "99999999.99999999e-8",
	    "-0.1234567812345678", "+4.9406564584124654e-324" };
	char s[2000];
	size_t i;
	long k;
	int bad = 0, nd;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		bad += at_buffer_end(fixed[i], 0);
		bad += at_buffer_end(fixed[i], 1);
	}
	for (k = 0; k < 20000; k++) {
		nd = 1 + (int)(rnd() % 40);
		randdec(s, nd, (int)(rnd() % 660) - 345);
		bad += at_buffer_end(s, 0);
		snprintf(s, sizeof(s), "%.*g", 1 + (int)(rnd() % 17),
		    b2d(rnd() >> 2));
		bad += at_buffer_end(s, 0);
		snprintf(s, sizeof(s), "%.*g", 1 + (int)(rnd() % 9),
		    (double)(rnd() >> 11) * 0x1p-53);
		bad += at_buffer_end(s, 1);
	}
	report(bad, "tokens that end their buffer, with and without length");
}

/*
 * R's NA (format-spec.md 6): no value of the integer types or raw; and
 * SHMIDS_NANPLAIN writes every NaN as nan or -nan, in every float style,
 * and nothing else differently.
 */
static void
test_na(void)
{
	static const uint64_t nans[] = { 0x7ff00000000007a2ULL,
	    0x7ff8000000000001ULL, 0xfff0000000000001ULL,
	    0x7ff8000000000000ULL, 0x3fb999999999999aULL };
	static const char *want[] = { "nan", "nan", "-nan", "nan", NULL };
	static const int types[] = { SHMIDS_I64, SHMIDS_I32, SHMIDS_RAW };
	char buf[SHMIDS_NUM_MAX], plain[SHMIDS_NUM_MAX];
	unsigned char elem[8];
	size_t i, k;
	double d;
	float f;
	int bad = 0, st;

	for (i = 0; i < 3; i++) {
		errno = 0;
		if (shmids_parse("NA", NULL, types[i], elem) != -1 ||
		    errno != EINVAL)
			bad++, diag("type %d takes NA", types[i]);
	}
	for (i = 0; i < 5; i++) {
		memcpy(&d, &nans[i], 8);
		for (st = SHMIDS_SHORT; st <= SHMIDS_HEX; st++) {
			k = shmids_format(plain, SHMIDS_F64, &d,
			    st | SHMIDS_NANPLAIN);
			(void)shmids_format(buf, SHMIDS_F64, &d, st);
			if (k == 0 || strcmp(plain, want[i] ? want[i] : buf))
				bad++, diag("NANPLAIN %016llx style %d: %s",
				    (unsigned long long)nans[i], st, plain);
		}
	}
	memcpy(&f, &(uint32_t){ 0xff8007a2 }, 4);
	if (shmids_format(buf, SHMIDS_F32, &f, SHMIDS_NANPLAIN) != 4 ||
	    strcmp(buf, "-nan") != 0)
		bad++, diag("NANPLAIN f32 ff8007a2: %s", buf);
	if (shmids_format(buf, SHMIDS_I32, elem, SHMIDS_NANPLAIN) != 0)
		bad++, diag("NANPLAIN taken for i32");
	report(bad, "NA: floats only; SHMIDS_NANPLAIN");
}

int
main(void)
{
	printf("1..17\n");
	test_special();
	test_expect();
	test_random_rt();
	test_shortest();
	test_parse_random();
	test_ties();
	test_tokens();
	test_hex();
	test_buffer_end();
	test_na();
	return nfail != 0;
}
