/*
 * Shared by the libFuzzer harnesses of tests/fuzz/: an assertion that
 * says what broke and aborts, so libFuzzer saves the input.
 */
#ifndef SHMIDS_FUZZ_H
#define SHMIDS_FUZZ_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "num.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: check failed: %s: ",		\
		    __FILE__, __LINE__, #cond);				\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
		abort();						\
	}								\
} while (0)

/* A NUL-terminated heap copy of the input (ASan sees overreads past it). */
static inline char *
fuzz_strdup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s == NULL)
		abort();
	if (size > 0)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* Reference for format-spec.md section 1, written from the spec alone. */
static inline int
fuzz_ref_label(const char *s, size_t len, int *id, size_t *namepos)
{
	size_t i = 0, j;
	long long v = 0;

	if (len == 0 || s[0] < '0' || s[0] > '9')
		return EINVAL;
	if (s[0] == '0' && len > 1 && s[1] >= '0' && s[1] <= '9')
		return EINVAL;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		v = v * 10 + (s[i] - '0');
		if (v > 2147483647LL)
			return EINVAL;
	}
	if (i >= len || s[i] != ' ')
		return EINVAL;
	i++;
	if (i == len)
		return EINVAL;
	for (j = i; j < len; j++)
		if ((unsigned char)s[j] < 0x21 || (unsigned char)s[j] > 0x7e)
			return EINVAL;
	if (len - i > 64)
		return ENAMETOOLONG;
	*id = (int)v;
	*namepos = i;
	return 0;
}

#endif
