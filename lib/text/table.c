/*
 * Tables in ASCII (format-spec.md 6.1): rows of values, blank- or
 * comma-separated, and the rule that a number is never a field.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "number.h"

#define SMALL	4096	/* bytes of a token or row copied on the stack */

/* Does a first token end at c: a blank, a comma, CR, LF or NUL? */
static int
tokend(int c)
{
	return shmids_isend(c) || c == ',';
}

/* Does s[0..len) read as a value of some type? */
static int
number(const char *s, size_t len)
{
	const char *end;
	unsigned char v[8];

	if (shmids_parsen(s, len, &end, SHMIDS_F64, v) == 0 || errno == ERANGE)
		return 1;
	/* 0xff: every integer form, whatever the float reader takes */
	return shmids_parsen(s, len, &end, SHMIDS_I64, v) == 0 ||
	    errno == ERANGE;
}

/* The contract is in shmids.h. */
int
shmids_isnumber(const char *s, size_t len)
{
	size_t i = 0, t;
	int e = errno, r;

	while (i < len && shmids_blank(s[i]))
		i++;
	for (t = i; t < len && !tokend(s[t]); t++)
		;
	if (t == i)
		return 0;
	/* the token ends at t (a comma, say): no copy to end it there */
	r = number(s + i, t - i);
	errno = e;
	return r;
}

/*
 * Values separated by commas, with blanks around them: the number of
 * tokens, or 0 if s[0..len) is not so (an empty value, a comma at
 * either end, two tokens with no comma between them).
 */
static size_t
comma_tokens(const char *s, size_t len)
{
	size_t i = 0, n = 0;

	for (;;) {
		while (i < len && shmids_blank(s[i]))
			i++;
		if (i == len || s[i] == ',')
			return 0;
		while (i < len && !shmids_blank(s[i]) && s[i] != ',')
			i++;
		n++;
		while (i < len && shmids_blank(s[i]))
			i++;
		if (i == len)
			return n;
		if (s[i++] != ',')
			return 0;
	}
}

/*
 * A comma row: parsed from a copy whose commas are blanks, once its
 * shape is known to be right.  1, 0 or -1 as shmids_row_parse().
 */
static int
comma_row(struct shmids_values *v, const char *s, size_t len)
{
	char small[SMALL], *buf = small;
	const char *bad;
	size_t i, n, count0 = v->count;
	int r;

	if ((n = comma_tokens(s, len)) == 0)
		return 0;
	if (len >= sizeof(small) && (buf = malloc(len + 1)) == NULL)
		return -1;
	for (i = 0; i < len; i++)
		buf[i] = s[i] == ',' ? ' ' : s[i];
	buf[len] = '\0';
	r = shmids_values_each(v, buf, len, &bad);
	if (buf != small)
		free(buf);
	if (r == -1 || v->count - count0 != n) {
		v->count = count0;
		return r == -1 && errno == ENOMEM ? -1 : 0;
	}
	return 1;
}

static int
blank_row(struct shmids_values *v, const char *s, size_t len)
{
	const char *bad;
	size_t count0 = v->count;

	if (shmids_values_each(v, s, len, &bad) == -1) {
		v->count = count0;
		return errno == ENOMEM ? -1 : 0;
	}
	return v->count > count0;
}

/* The contract is in shmids.h. */
int
shmids_row_parse(struct shmids_values *v, const char *s, size_t len,
    int *sep, size_t *n)
{
	size_t i = 0, count0 = v->count;
	int e = errno, r, comma;

	if (shmids_type_size(v->type) == 0) {
		errno = EINVAL;
		return -1;
	}
	/* row = ... *blank [CR] eol: one CR, not two (format-spec.md 6.1) */
	if (len > 0 && s[len - 1] == '\n')
		len--;
	if (len > 0 && s[len - 1] == '\r')
		len--;
	/* a comma row if a comma follows the first token */
	while (i < len && shmids_blank(s[i]))
		i++;
	while (i < len && !tokend(s[i]))
		i++;
	while (i < len && shmids_blank(s[i]))
		i++;
	comma = i < len && s[i] == ',';
	r = comma ? comma_row(v, s, len) : blank_row(v, s, len);
	if (r == -1)
		return -1;
	errno = e;
	if (r == 1) {
		*sep = comma ? ',' : ' ';
		*n = v->count - count0;
	}
	return r;
}
