/*
 * parsen_test: shmids_parsen() against shmids_parse(), through the
 * public header alone.  Every token of every type is put at the very
 * end of a malloc'd buffer of exactly its length, no NUL after it (under
 * ASan, make check-asan, or valgrind a read past s + len is an error),
 * and read with the length; then each of its prefixes the same way; and
 * each must give what shmids_parse() gives on a NUL-terminated copy:
 * the return, errno, the bits and the end.  TAP.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmids.h"

#define NRANDOM	20000	/* random values per type */

static int	ntest, nfail, ndiag;

static const int types[] = { SHMIDS_F64, SHMIDS_F32, SHMIDS_I64,
    SHMIDS_I32, SHMIDS_RAW };

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

static uint64_t rng = 0x7061727365ULL;

static uint64_t
rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * s[0..len) read both ways as type: 0 if they agree.  parsen reads from
 * a buffer of exactly len bytes (an elem at an odd address: any
 * alignment is allowed); parse from a copy with a NUL after it.
 */
static int
same(const char *s, size_t len, int type)
{
	unsigned char a[9], b[8];
	const char *ea = NULL, *eb = NULL;
	char *buf, *nul;
	int ra, rb, xa, xb;

	if ((buf = malloc(len ? len : 1)) == NULL ||
	    (nul = malloc(len + 1)) == NULL) {
		perror("parsen_test: malloc");
		exit(1);
	}
	memcpy(buf, s, len);
	memcpy(nul, s, len);
	nul[len] = '\0';
	memset(a, 0x5a, sizeof(a));
	memset(b, 0x5a, sizeof(b));
	errno = 12345;
	ra = shmids_parsen(buf, len, &ea, type, a + 1);
	xa = errno;
	errno = 12345;
	rb = shmids_parse(nul, &eb, type, b);
	xb = errno;
	if (ra != rb || xa != xb || memcmp(a + 1, b, sizeof(b)) != 0 ||
	    (ea == NULL) != (eb == NULL) ||
	    (ea != NULL && ea - buf != eb - nul)) {
		if (ndiag++ < 10)
			printf("# type %d \"%.*s\" (%zu bytes): parsen %d "
			    "errno %d end %td, parse %d errno %d end %td\n",
			    type, (int)len, s, len, ra, xa,
			    ea ? ea - buf : -1, rb, xb, eb ? eb - nul : -1);
		free(buf);
		free(nul);
		return 1;
	}
	free(buf);
	free(nul);
	return 0;
}

/* The token, each of its prefixes, and each with a blank after. */
static int
all_ends(const char *tok, int type)
{
	char sp[128];
	size_t n = strlen(tok), k;
	int bad = 0;

	for (k = 0; k <= n; k++)
		bad += same(tok, k, type);
	if (n + 2 < sizeof(sp)) {
		snprintf(sp, sizeof(sp), "%s 7", tok);
		bad += same(sp, n + 2, type);
		snprintf(sp, sizeof(sp), "%s\n", tok);
		bad += same(sp, n + 1, type);
		snprintf(sp, sizeof(sp), "%s,", tok);
		bad += same(sp, n + 1, type);
	}
	return bad;
}

static void
test_tokens(void)
{
	static const char *tok[] = {
		"0", "-0", "+0", "1", "-1", "7.", ".5", "-.5", "1.5",
		"0.1", "1e5", "1E+5", "1e-5", "2.5e-3", "1e", "1e+", "e5",
		".", "-", "+", "0x", "0x1", "0xff", "0XFF", "0x100",
		"0x7fffffff", "0x80000000", "0xffffffff", "0x1.8p3",
		"-0x1p-1074", "0x1p1024", "0x1.fffffffffffffp1023",
		"255", "256", "-128", "127", "2147483647", "2147483648",
		"-2147483648", "-2147483649", "9223372036854775807",
		"9223372036854775808", "-9223372036854775808",
		"99999999999999999999999", "12345678", "123456789",
		"1234567890123456789", "12345678901234567890",
		"0.12345678901234567", "0.1234567890123456789012345",
		"1.7976931348623157e308", "1.7976931348623159e308",
		"1e400", "-1e400", "4.9e-324", "2e-324", "1e-400",
		"3.4028235e38", "3.4028236e38", "1.4e-45", "7e-46",
		"0.000000000000000000000000000001234567890123456789",
		"123456789012345678901234567890e-10",
		"9007199254740993", "9007199254740992.5", "16777217",
		"inf", "-inf", "+INF", "infinity", "-Infinity", "infin",
		"nan", "-nan", "NaN", "nan(0x1)", "-nan(0x8000000000001)",
		"nan(0x7fffff)", "nan(0x0)", "nan(", "nan(0x", "nan(0x1",
		"NA", "-NA", "Na", "NAN", "1.5x", "1..5", "1e5.5", "--1",
		"0x1g", "12 34", "1,5", "\t", " 1", "",
	};
	size_t i, t;
	int bad;

	for (t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		bad = 0;
		for (i = 0; i < sizeof(tok) / sizeof(tok[0]); i++)
			bad += all_ends(tok[i], types[t]);
		printf("# %s: %zu tokens\n", shmids_type_name(types[t]), i);
		report(bad, "parsen = parse on the tokens, their prefixes, "
		    "ending their buffer or a blank");
	}
}

/* A random value of type in a random one of its forms, at buf. */
static void
random_token(char *buf, int type)
{
	static const int styles[] = { SHMIDS_SHORT, SHMIDS_EXP, SHMIDS_HEX };
	uint64_t b = rnd();
	double d;
	float f;
	uint32_t b32 = (uint32_t)b;
	int style = styles[rnd() % 3];

	switch (type) {
	case SHMIDS_F64:
		memcpy(&d, &b, 8);
		if (b & 1)
			d = (double)(b >> 11) * 0x1p-53;	/* [0,1) */
		if (b & 2)
			snprintf(buf, SHMIDS_NUM_MAX, (b & 4) ? "%.17g" :
			    "%.6g", d);
		else
			shmids_format(buf, type, &d, style);
		break;
	case SHMIDS_F32:
		memcpy(&f, &b32, 4);
		if (b & 2)
			snprintf(buf, SHMIDS_NUM_MAX, "%.9g", (double)f);
		else
			shmids_format(buf, type, &f, style);
		break;
	default:
		shmids_format(buf, type, &b, b & 1 ? SHMIDS_HEX :
		    SHMIDS_SHORT);
	}
}

static void
test_random(void)
{
	char buf[SHMIDS_NUM_MAX];
	size_t t;
	int i, bad;

	for (t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		bad = 0;
		for (i = 0; i < NRANDOM; i++) {
			random_token(buf, types[t]);
			bad += all_ends(buf, types[t]);
		}
		printf("# %s: %d values\n", shmids_type_name(types[t]), i);
		report(bad, "parsen = parse on random values in every form, "
		    "their prefixes, ending their buffer");
	}
}

/* The value at s[0..len) of a longer line: the rest is not looked at. */
static void
test_in_line(void)
{
	const char *line = "3.25 -17 0x1p-2 255 1e5x 1e400";
	const char *end = NULL;
	double d = 0;
	int64_t i = 0;
	int bad = 0;

	bad += shmids_parsen(line, 4, &end, SHMIDS_F64, &d) != 0 ||
	    d != 3.25 || end != line + 4;
	bad += shmids_parsen(line, 3, &end, SHMIDS_F64, &d) != 0 ||
	    d != 3.2 || end != line + 3;
	bad += shmids_parsen(line + 5, 2, &end, SHMIDS_I64, &i) != 0 ||
	    i != -1 || end != line + 7;
	bad += shmids_parsen(line + 20, 3, &end, SHMIDS_F64, &d) != 0 ||
	    d != 1e5 || end != line + 23;
	errno = 0;
	bad += shmids_parsen(line + 20, 4, &end, SHMIDS_F64, &d) != -1 ||
	    errno != EINVAL;
	bad += shmids_parsen("12\0003", 4, &end, SHMIDS_I64, &i) != 0 ||
	    i != 12 || *end != '\0';
	errno = 0;
	end = NULL;
	bad += shmids_parsen(line + 25, 5, &end, SHMIDS_F64, &d) != -1 ||
	    errno != ERANGE || d != HUGE_VAL || end != line + 30;
	errno = 0;
	i = 5;
	bad += shmids_parsen("9223372036854775808", 19, NULL, SHMIDS_I64,
	    &i) != -1 || errno != ERANGE || i != 5;
	errno = 0;
	bad += shmids_parsen(NULL, 0, &end, SHMIDS_F64, &d) != -1 ||
	    errno != EINVAL;
	errno = 0;
	bad += shmids_parsen("1", 1, &end, 99, &d) != -1 || errno != EINVAL;
	report(bad, "parsen: a value inside a line, cut at len or a NUL; "
	    "ERANGE; len 0 and an unknown type are EINVAL");
}

int
main(void)
{
	test_tokens();
	test_random();
	test_in_line();
	printf("1..%d\n", ntest);
	return nfail != 0;
}
