/*
 * Tables in ASCII (format-spec.md 6.1): rows of values, blank- or
 * comma-separated, and the rule that a number is never a field.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "number.h"


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

/* Has the word x a byte b (bytes of 0x01 times b)? */
#define HAS(x, b)	((((x) ^ (b)) - ONES) & ~((x) ^ (b)) & HIGHS)
#define ONES		UINT64_C(0x0101010101010101)
#define HIGHS		UINT64_C(0x8080808080808080)

/*
 * The first comma or blank in s[i..len), or len: 8 bytes a test, as a
 * byte loop ending at each of ten million tokens was a third of a comma
 * table's import.
 */
static size_t
sep_at(const char *s, size_t i, size_t len)
{
	uint64_t x, m;

	for (; len - i >= 8; i += 8) {
		memcpy(&x, s + i, 8);
		m = HAS(x, ONES * ',') | HAS(x, ONES * ' ') |
		    HAS(x, ONES * '\t');
		if (m != 0) {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			/* a borrow goes up only from a match: the lowest is one */
			return i + (size_t)__builtin_ctzll(m) / 8;
#else
			break;
#endif
		}
	}
	while (i < len && !shmids_blank(s[i]) && s[i] != ',')
		i++;
	return i;
}

/*
 * A comma row: values separated by commas, blanks around them, each
 * token parsed in place up to its comma or blank (the parser takes the
 * end of its buffer for a token end), no copy.  Not a row (0): an empty
 * value, a comma at either end, two tokens with no comma between them,
 * a token that is no value.  1, 0 or -1 as shmids_row_parse().
 */
static int
comma_row(struct shmids_values *v, const char *s, size_t len)
{
	size_t esz = shmids_type_size(v->type), count0 = v->count, i = 0, t;
	const char *end;
	int r;

	for (;;) {
		while (i < len && shmids_blank(s[i]))
			i++;
		if (i == len || s[i] == ',')
			break;
		if (v->count == v->cap && shmids_values_reserve(v,
		    v->cap ? v->cap * 2 : 1024) == -1) {
			v->count = count0;
			return -1;
		}
		if (v->type == SHMIDS_F64) {
			/* parsed up to its comma or an end byte */
			if (shmids_f64_parse_comma(s + i, s + len, &end,
			    (double *)v->data + v->count) == -1)
				break;
			t = (size_t)(end - s);
		} else {
			t = sep_at(s, i, len);
			r = shmids_parse_lim(s + i, s + t, &end, v->type,
			    (char *)v->data + v->count * esz);
			if (r == -1 || end != s + t)
				break;
		}
		v->count++;
		for (i = t; i < len && shmids_blank(s[i]); i++)
			;
		if (i == len)
			return 1;
		if (s[i++] != ',')
			break;
	}
	v->count = count0;
	return 0;
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
