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

#include "seg/seg.h"
#include "text/text.h"
#include "text/number.h"

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

/*
 * References for format-spec.md section 1, written from the spec alone
 * (not from lib/label.c): different loops, no arithmetic on long digit
 * strings, the path matched from its fixed end.
 */

/* shmid = "0" / ( %x31-39 *%x30-39 ), 0 .. 2147483647. */
static inline int
fuzz_ref_shmid(const char *s, size_t len, int *shmid)
{
	size_t i;
	int v = 0;

	if (len == 0 || len > 10 || (s[0] == '0' && len > 1))
		return 0;
	for (i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	/* equal-length digit strings compare as their values do */
	if (len == 10 && memcmp(s, "2147483647", 10) > 0)
		return 0;
	for (i = 0; i < len; i++)
		v = v * 10 + (s[i] - '0');
	*shmid = v;
	return 1;
}

static inline int
fuzz_ref_alnum(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') ||
	    (c >= 'a' && c <= 'z');
}

/* 6alnum: s[0..len) is 6 letters or digits. */
static inline int
fuzz_ref_alnum6(const char *s, size_t len)
{
	size_t i;

	if (len != 6)
		return 0;
	for (i = 0; i < 6; i++)
		if (!fuzz_ref_alnum((unsigned char)s[i]))
			return 0;
	return 1;
}

/* uid = "0" / ( %x31-39 0*9%x30-39 ), at most 4294967295. */
static inline int
fuzz_ref_uid(const char *s, size_t len)
{
	unsigned long long v = 0;
	size_t i;

	if (len == 0 || len > 10 || (len > 1 && s[0] == '0'))
		return 0;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	return v <= 4294967295ULL;
}

/*
 * path = *( "/" dirpart ) "/shmids." [ uid "." ] 6alnum, dirpart =
 * 1*( %x21-2E / %x30-7E ) and not "." or "..".  No length limit: that
 * is the label's.
 */
static inline int
fuzz_ref_path(const char *s, size_t len)
{
	size_t dirs, p, i, b;
	const char *base, *dot;

	for (b = len; b > 0 && s[b - 1] != '/'; b--)
		;
	if (b == 0)
		return 0;
	base = s + b;
	if (len - b < 13 || memcmp(base, "shmids.", 7) != 0)
		return 0;
	if (!fuzz_ref_alnum6(base + 7, len - b - 7)) {
		dot = memchr(base + 7, '.', len - b - 7);
		if (dot == NULL || !fuzz_ref_uid(base + 7,
		    (size_t)(dot - base - 7)) ||
		    !fuzz_ref_alnum6(dot + 1, (size_t)(s + len - dot - 1)))
			return 0;
	}
	dirs = b - 1;		/* the *( "/" dirpart ) before it */
	for (p = 0; p < dirs; p = i) {
		if (s[p] != '/')
			return 0;
		for (i = p + 1; i < dirs && s[i] != '/'; i++)
			if ((unsigned char)s[i] < 0x21 ||
			    (unsigned char)s[i] > 0x7e)
				return 0;
		if (i == p + 1 || (i == p + 2 && s[p + 1] == '.') ||
		    (i == p + 3 && s[p + 1] == '.' && s[p + 2] == '.'))
			return 0;
	}
	return 1;
}

/* id = shmid / path; *shmid is -1 for a path. */
static inline int
fuzz_ref_id(const char *s, size_t len, int *shmid)
{
	if (fuzz_ref_shmid(s, len, shmid))
		return 1;
	if (fuzz_ref_path(s, len)) {
		*shmid = -1;
		return 1;
	}
	return 0;
}

/* The errnos the spec allows for a refused label, as a set. */
#define FUZZ_EINVAL		1
#define FUZZ_ENAMETOOLONG	2

static inline int
fuzz_errno_ok(int e, int allowed)
{
	return (e == EINVAL && (allowed & FUZZ_EINVAL)) ||
	    (e == ENAMETOOLONG && (allowed & FUZZ_ENAMETOOLONG));
}

/*
 * label = id SP name, at most 75 bytes.  Returns 0 with *idlen, *shmid
 * (-1 for a path) and *namepos set, else the errnos the spec allows:
 * - EINVAL when the label does not follow the grammar ("any other byte,
 *   a second space, ... or a path that does not follow the grammar");
 * - ENAMETOOLONG for a name over 64 bytes; if it also breaks the grammar,
 *   either errno, since the spec does not rank the two;
 * - ENAMETOOLONG for a well-formed label over 75 bytes (a long path):
 *   section 1 refuses such a label so when a segment is made and section
 *   8 counts path, space and name in the 75.  (The table of 2.3 names
 *   only "a long name"; one errno whichever part is long.)
 */
static inline int
fuzz_ref_label(const char *s, size_t len, size_t *idlen, int *shmid,
    size_t *namepos)
{
	const char *sp = memchr(s, ' ', len);
	size_t i, il, nl;
	int bad = 0, id = -1;

	if (sp == NULL)
		return FUZZ_EINVAL;
	il = (size_t)(sp - s);
	nl = len - il - 1;
	if (!fuzz_ref_id(s, il, &id) || nl == 0)
		bad = 1;
	for (i = il + 1; i < len; i++)
		if ((unsigned char)s[i] < 0x21 || (unsigned char)s[i] > 0x7e)
			bad = 1;
	if (nl > 64)
		return bad ? FUZZ_EINVAL | FUZZ_ENAMETOOLONG :
		    FUZZ_ENAMETOOLONG;
	if (bad)
		return FUZZ_EINVAL;
	if (len > 75)
		return FUZZ_ENAMETOOLONG;
	*idlen = il;
	*shmid = id;
	*namepos = il + 1;
	return 0;
}

#endif
