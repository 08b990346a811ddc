/*
 * mixed: a segment of random values with the awkward ones strewn among
 * them, for tests that compare two expansions byte for byte
 * (tests/threads-expand.bats): random bit patterns (every length of
 * text, NaN payloads, subnormals), and one value in 8 or so one of the
 * type's edge values: infinities, -0, the smallest and largest
 * subnormals, R's NA, quiet and signalling NaNs of both signs, the
 * extremes of the integers.
 *
 *	mixed NAME TYPE COUNT SEED [COLS]
 *
 * With COLS, a table of COUNT / COLS rows of COLS.  Prints the label
 * (tests/helper.bash removes it); a failure prints the errno name and
 * exits 1, a usage error exits 2.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmids.h"

static const uint64_t f64s[] = {
	0x7ff0000000000000ull, 0xfff0000000000000ull, 0x8000000000000000ull,
	0x0000000000000000ull, 0x0000000000000001ull, 0x800fffffffffffffull,
	0x7ff00000000007a2ull, 0x7ff8000000000000ull, 0xfff8000000000000ull,
	0x7ff0000000000001ull, 0xfff4000000000abcull, 0x7fefffffffffffffull,
	0x0010000000000000ull, 0x3ff0000000000000ull,
};
static const uint32_t f32s[] = {
	0x7f800000u, 0xff800000u, 0x80000000u, 0x00000000u, 0x00000001u,
	0x807fffffu, 0x7f8007a2u, 0x7fc00000u, 0xffc00000u, 0x7f800001u,
	0x7f7fffffu, 0x00800000u, 0x3f800000u,
};
static const uint64_t i64s[] = {
	0x8000000000000000ull, 0x7fffffffffffffffull, 0xffffffffffffffffull,
	0, 1, 10, 0xfffffffffffffff6ull,
};
static const uint32_t i32s[] = {
	0x80000000u, 0x7fffffffu, 0xffffffffu, 0, 1, 10, 0xfffffff6u,
};

#define N(a)	(sizeof(a) / sizeof(a[0]))

static uint64_t x;

static uint64_t
next(void)
{
	x ^= x << 13, x ^= x >> 7, x ^= x << 17;
	return x;
}

/* Element i of type at p: random bits, or now and then an edge value. */
static void
fill(char *p, int type, size_t esz, size_t i)
{
	uint64_t r = next(), v = next();
	uint32_t w = (uint32_t)v;
	unsigned char b = (unsigned char)v;

	if (r % 8 == 0) {
		r >>= 3;
		if (type == SHMIDS_F64)
			v = f64s[r % N(f64s)];
		else if (type == SHMIDS_F32)
			w = f32s[r % N(f32s)];
		else if (type == SHMIDS_I64)
			v = i64s[r % N(i64s)];
		else if (type == SHMIDS_I32)
			w = i32s[r % N(i32s)];
		else
			b = r % 2 ? 255 : 0;
	}
	if (esz == 8)
		memcpy(p + i * 8, &v, 8);
	else if (esz == 4)
		memcpy(p + i * 4, &w, 4);
	else
		p[i] = (char)b;
}

int
main(int argc, char *argv[])
{
	size_t count, cols = 0, esz, i;
	int type;
	char *h;

	if (argc != 5 && argc != 6) {
		fputs("usage: mixed NAME TYPE COUNT SEED [COLS]\n", stderr);
		return 2;
	}
	if ((type = shmids_type_parse(argv[2])) == -1) {
		fputs("mixed: no such type\n", stderr);
		return 2;
	}
	count = strtoul(argv[3], NULL, 10);
	x = strtoull(argv[4], NULL, 10) * 2654435761u | 1;
	if (argc == 6 && (cols = strtoul(argv[5], NULL, 10)) == 0) {
		fputs("mixed: COLS: 1 or more\n", stderr);
		return 2;
	}
	esz = shmids_type_size(type);
	h = cols ? shmids_create_table(argv[1], 0600, type, count / cols,
	    cols) : shmids_create_array(argv[1], 0600, type, count);
	if (h == NULL) {
		printf("%s\n", strerror(errno));
		return 1;
	}
	if (cols)
		count = count / cols * cols;
	for (i = 0; i < count; i++)
		fill(h + SHMIDS_HEADER, type, esz, i);
	printf("%s\n", shmids_label(h));
	if (shmids_seal(h) == -1 || shmids_close(h) == -1) {
		printf("%s\n", strerror(errno));
		return 1;
	}
	return 0;
}
