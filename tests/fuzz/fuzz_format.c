/*
 * shmids_format() on arbitrary bits (the first 8 bytes of the input) for
 * every type and style: the output parses back to the same bits (section
 * 6 exactness, NaN payloads included), fits in SHMIDS_NUM_MAX, has the
 * spelling section 6 gives for -0, inf and NaNs, agrees with glibc's
 * strtod, has no more significant digits than the shortest %.*e that
 * reads back (the "shortest" of section 6), and is positional exactly
 * when that %.*e's exponent is -4 to 15 (Python's repr).  Integers are
 * compared with printf.
 */
#include <errno.h>
#include <math.h>

#include "fuzz.h"

/* Significant digits of a finite decimal "[-]ddd.ddde[+-]xx". */
static int
sigdigits(const char *s)
{
	char d[64];
	int n = 0, i, a;

	for (; *s != '\0' && *s != 'e'; s++)
		if (*s >= '0' && *s <= '9' && n < 63)
			d[n++] = *s;
	for (a = 0; a < n && d[a] == '0'; a++)
		;
	for (i = n; i > a && d[i - 1] == '0'; i--)
		;
	return i - a;
}

static void
check_float(int t, uint64_t bits)
{
	char buf[SHMIDS_NUM_MAX + 8], want[64], tmp[64];
	unsigned char back[8];
	const char *end;
	int st, p, nd, neg, x10;
	uint64_t frac, quiet;
	double d = 0, x;
	float f = 0;
	size_t n;

	if (t == SHMIDS_F64) {
		memcpy(&d, &bits, 8);
		neg = (int)(bits >> 63);
		frac = bits & ((UINT64_C(1) << 52) - 1);
		quiet = UINT64_C(1) << 51;
	} else {
		uint32_t b = (uint32_t)bits;

		memcpy(&f, &b, 4);
		d = f;
		neg = (int)(b >> 31);
		frac = b & ((UINT32_C(1) << 23) - 1);
		quiet = UINT64_C(1) << 22;
	}
	for (st = SHMIDS_SHORT; st <= SHMIDS_HEX; st++) {
		memset(buf, 'Z', sizeof(buf));
		n = shmids_format(buf, t, t == SHMIDS_F64 ? (void *)&d :
		    (void *)&f, st);
		CHECK(n > 0 && n < SHMIDS_NUM_MAX && strlen(buf) == n,
		    "type %d style %d bits %016llx: length %zu", t, st,
		    (unsigned long long)bits, n);
		memset(back, 0x5a, sizeof(back));
		CHECK(shmids_parse(buf, &end, t, back) == 0 &&
		    end == buf + n, "type %d style %d bits %016llx: \"%s\" "
		    "does not parse back", t, st, (unsigned long long)bits,
		    buf);
		CHECK(memcmp(back, t == SHMIDS_F64 ? (void *)&d : (void *)&f,
		    shmids_type_size(t)) == 0, "type %d style %d bits %016llx:"
		    " \"%s\" reads back different bits", t, st,
		    (unsigned long long)bits, buf);
		if (isnan(d)) {
			if (!neg && frac == 0x7a2)
				strcpy(want, "NA");	/* R's NA */
			else if (frac == quiet)
				strcpy(want, neg ? "-nan" : "nan");
			else
				snprintf(want, sizeof(want), "%snan(0x%llx)",
				    neg ? "-" : "", (unsigned long long)frac);
			CHECK(strcmp(buf, want) == 0, "NaN %016llx: \"%s\", "
			    "spec says \"%s\"", (unsigned long long)bits, buf,
			    want);
			continue;
		}
		if (isinf(d)) {
			CHECK(strcmp(buf, neg ? "-inf" : "inf") == 0,
			    "\"%s\" for infinity", buf);
			continue;
		}
		/* glibc reads every finite form to the same value */
		x = t == SHMIDS_F64 ? strtod(buf, NULL) : strtof(buf, NULL);
		CHECK(memcmp(&x, &d, 8) == 0 && signbit(x) == signbit(d),
		    "type %d style %d: \"%s\" is %a to glibc, not %a", t, st,
		    buf, x, d);
		if (st != SHMIDS_SHORT)
			continue;
		if (d == 0) {
			CHECK(strcmp(buf, neg ? "-0" : "0") == 0,
			    "zero is \"%s\"", buf);
			continue;
		}
		/* shortest: no more digits than the shortest %.*e */
		for (p = 1; p <= 17; p++) {
			snprintf(tmp, sizeof(tmp), "%.*e", p - 1, d);
			if (t == SHMIDS_F64 ? strtod(tmp, NULL) == d :
			    strtof(tmp, NULL) == f)
				break;
		}
		nd = sigdigits(buf);
		CHECK(nd <= p, "type %d bits %016llx: \"%s\" has %d digits, "
		    "\"%s\" %d", t, (unsigned long long)bits, buf, nd, tmp, p);
		x10 = atoi(strchr(tmp, 'e') + 1);
		CHECK((strchr(buf, 'e') != NULL) == (x10 < -4 || x10 > 15),
		    "type %d bits %016llx: \"%s\" for %s: layout", t,
		    (unsigned long long)bits, buf, tmp);
	}
}

static void
check_int(int t, uint64_t bits)
{
	char buf[SHMIDS_NUM_MAX + 8], want[40];
	unsigned char back[8];
	const char *end;
	long long v;
	unsigned long long u;
	int st;
	size_t n;

	switch (t) {
	case SHMIDS_I64:
		v = (long long)bits;
		u = bits;
		break;
	case SHMIDS_I32:
		v = (int32_t)(uint32_t)bits;
		u = (uint32_t)bits;
		break;
	default:
		v = (unsigned char)bits;
		u = (unsigned char)bits;
	}
	for (st = SHMIDS_SHORT; st <= SHMIDS_HEX; st++) {
		memset(buf, 'Z', sizeof(buf));
		errno = 0;
		n = shmids_format(buf, t, &bits, st);
		if (st == SHMIDS_EXP) {
			CHECK(n == 0 && errno == EINVAL, "exp style for an "
			    "integer type %d gave \"%.*s\"", t, (int)n, buf);
			continue;
		}
		if (st == SHMIDS_SHORT)
			snprintf(want, sizeof(want), "%lld", v);
		else
			snprintf(want, sizeof(want), "0x%llx", u);
		CHECK(n == strlen(want) && strcmp(buf, want) == 0,
		    "type %d style %d: \"%s\", want \"%s\"", t, st, buf, want);
		memset(back, 0x5a, sizeof(back));
		CHECK(shmids_parse(buf, &end, t, back) == 0 &&
		    end == buf + n && memcmp(back, &bits,
		    shmids_type_size(t)) == 0, "type %d: \"%s\" does not read "
		    "back", t, buf);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t bits = 0;

	memcpy(&bits, data, size < 8 ? size : 8);
	check_float(SHMIDS_F64, bits);
	check_float(SHMIDS_F32, bits);
	check_int(SHMIDS_I64, bits);
	check_int(SHMIDS_I32, bits);
	check_int(SHMIDS_RAW, bits);
	return 0;
}
