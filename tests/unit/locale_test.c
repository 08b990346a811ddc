/*
 * locale_test: the text is the C locale's whatever the caller's
 * (format-spec.md 3, 6): under a locale whose radix is a comma,
 * shmids_format(), shmids_emit() and shmids_put() write '.', and
 * shmids_parse() reads '.' and refuses ','.  Skips where no such locale
 * is installed (.ci/run generates de_DE.UTF-8).  TAP output.
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmids.h"

static int	ntest, nfail;

static void
is(const char *got, const char *want, const char *desc)
{
	int good = strcmp(got, want) == 0;

	printf("%sok %d - %s\n", good ? "" : "not ", ++ntest, desc);
	if (!good)
		printf("# got:  %s\n# want: %s\n", got, want);
	nfail += !good;
}

static void
format(int type, const void *elem, int style, const char *want,
    const char *desc)
{
	char buf[SHMIDS_NUM_MAX];

	shmids_format(buf, type, elem, style);
	is(buf, want, desc);
}

/* What shmids_emit() writes of n f64 at d in style, on one line. */
static void
emit(const double *d, size_t n, int style, const char *want,
    const char *desc)
{
	struct shmids_layout l;
	char buf[256] = "";
	FILE *fp;

	shmids_layout_init(&l, "x");
	l.style[SHMIDS_F64] = style;
	l.cols = 0;
	if ((fp = fmemopen(buf, sizeof(buf) - 1, "w")) == NULL ||
	    shmids_emit(fp, &l, SHMIDS_F64, d, n) == -1 || fclose(fp) == EOF)
		strcpy(buf, "(emit failed)");
	is(buf, want, desc);
}

/* What shmids_parse() makes of s: "1.5 ends at N" (the test's values). */
static void
parse(const char *s, const char *want, const char *desc)
{
	char buf[SHMIDS_NUM_MAX];
	const char *end;
	double d;

	if (shmids_parse(s, &end, SHMIDS_F64, &d) == -1)
		strcpy(buf, "refused");
	else
		snprintf(buf, sizeof(buf), "%s ends at %d",
		    d == 1.5 ? "1.5" : "not 1.5", (int)(end - s));
	is(buf, want, desc);
}

int
main(void)
{
	static const char *const comma[] = {
		"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "de_DE", NULL
	};
	const char *const *loc;
	double d = 1.5, two[2] = { 1.5, -0.25 }, one = 1;
	float f = 1.5f;

	for (loc = comma; *loc != NULL && setlocale(LC_ALL, *loc) == NULL;
	    loc++)
		;
	if (*loc == NULL || strcmp(localeconv()->decimal_point, ",") != 0) {
		printf("1..0 # SKIP no comma-decimal locale installed "
		    "(locale-gen de_DE.UTF-8)\n");
		return 0;
	}
	format(SHMIDS_F64, &d, SHMIDS_EXP, "1.5000000000000000e+00",
	    "format f64 exp");
	format(SHMIDS_F64, &d, SHMIDS_HEX, "0x1.8p+0", "format f64 hex");
	format(SHMIDS_F64, &one, SHMIDS_HEX, "0x1p+0",
	    "format f64 hex without a fraction");
	format(SHMIDS_F32, &f, SHMIDS_EXP, "1.50000000e+00", "format f32 exp");
	format(SHMIDS_F32, &f, SHMIDS_HEX, "0x1.8p+0", "format f32 hex");
	format(SHMIDS_F64, &d, SHMIDS_SHORT, "1.5", "format f64 short");
	emit(two, 2, SHMIDS_EXP,
	    "x 1.5000000000000000e+00 -2.5000000000000000e-01\n", "emit exp");
	emit(two, 2, SHMIDS_HEX, "x 0x1.8p+0 -0x1p-2\n", "emit hex");
	{
		char buf[256] = "";
		FILE *fp = fmemopen(buf, sizeof(buf) - 1, "w");

		if (fp == NULL || shmids_put(fp, "x", SHMIDS_F64, two, 2,
		    NULL, 0) == -1 || fclose(fp) == EOF)
			strcpy(buf, "(put failed)");
		is(buf, "x 1.5 -0.25\n", "put inline");
	}
	parse("1.5", "1.5 ends at 3", "parse reads '.'");
	parse("0x1.8p+0", "1.5 ends at 8", "parse reads hex '.'");
	parse("1,5", "refused", "parse refuses ','");
	parse("1.5e+00", "1.5 ends at 7", "parse reads exp");
	printf("1..%d\n", ntest);
	return nfail != 0;
}
