/*
 * f32_exhaustive: every one of the 2^32 binary32 bit patterns (NaNs and
 * their payloads included) through shmids_ftoa() then shmids_strtof(),
 * and again through shmids_strtof_lim() with the string's length (the
 * parser's other way through the digits); the bits must come back.  With -l, libc strtof must also read our
 * output back to the same value (NaNs aside: libc drops our payloads).
 * Takes minutes; prints the failures (the first 20) and their count.
 * Usage: f32_exhaustive [-l] [first [last]]   (hex bit patterns)
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "text/number.h"

/* 0 if b survives; else 1, with what came back in *r and buf. */
static int
check(uint32_t b, int libc, char *buf, uint32_t *r)
{
	const char *end;
	float f, g;
	size_t n;

	memcpy(&f, &b, sizeof(f));
	n = shmids_ftoa(f, buf);
	if (shmids_strtof(buf, &end, &g) != 0 || *end != '\0')
		*r = ~b;
	else
		memcpy(r, &g, sizeof(*r));
	if (*r == b && (shmids_strtof_lim(buf, buf + n, &end, &g) != 0 ||
	    *end != '\0'))
		*r = ~b;
	else if (*r == b)
		memcpy(r, &g, sizeof(*r));
	if (*r == b && libc && !isnan(f)) {
		g = strtof(buf, NULL);
		memcpy(r, &g, sizeof(*r));
	}
	return *r != b;
}

int
main(int argc, char **argv)
{
	uint64_t first = 0, last = UINT32_MAX, b, fails = 0;
	time_t t0 = time(NULL);
	char buf[64];
	uint32_t r;
	int libc = 0;

	if (argc > 1 && strcmp(argv[1], "-l") == 0) {
		libc = 1;
		argc--;
		argv++;
	}
	if (argc > 1)
		first = strtoull(argv[1], NULL, 16);
	if (argc > 2)
		last = strtoull(argv[2], NULL, 16);
	for (b = first; b <= last; b++) {
		if (check((uint32_t)b, libc, buf, &r) && ++fails <= 20)
			fprintf(stderr, "%08lx -> \"%s\" -> %08lx%s\n",
			    (unsigned long)b, buf, (unsigned long)r,
			    fails == 20 ? " (further failures not shown)" : "");
		if ((b & 0xfffffff) == 0xfffffff)
			fprintf(stderr, "%08llx done, %llu failures, %lds\n",
			    (unsigned long long)b, (unsigned long long)fails,
			    (long)(time(NULL) - t0));
	}
	printf("f32 exhaustive %08llx..%08llx%s: %llu patterns, %llu failures,"
	    " %lds\n", (unsigned long long)first, (unsigned long long)last,
	    libc ? " (and libc strtof)" : "",
	    (unsigned long long)(last - first + 1), (unsigned long long)fails,
	    (long)(time(NULL) - t0));
	return fails != 0;
}
