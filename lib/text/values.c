/*
 * Inline arrays read back: the values of one line (format-spec.md
 * section 6), appended to a growing buffer.  A last token "/"
 * (shmids_continued()) means the array goes on on the next line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "number.h"

static int
grow(struct shmids_values *v)
{
	return shmids_values_reserve(v, v->cap ? v->cap * 2 : 1024);
}

int
shmids_values_reserve(struct shmids_values *v, size_t want)
{
	size_t esz = shmids_type_size(v->type), cap;
	char *n;

	if (want <= v->cap)
		return 0;
	/* doubling at least: a long array is read in many spans */
	cap = v->cap * 2 > want ? v->cap * 2 : want;
	if (cap > (size_t)-1 / esz / 2) {
		errno = ENOMEM;
		return -1;
	}
	if ((n = realloc(v->data, cap * esz)) == NULL)
		return -1;
	shmids_advise_huge(n, cap * esz);
	v->data = n;
	v->cap = cap;
	return 0;
}

/*
 * The values of s[0..len), continuation and line end already cut off.
 * f64, nearly every array, calls the parser itself into place: the
 * type switch of shmids_parse_lim() and a copy per value were a tenth of
 * shm-import's time.
 */
static int
each(struct shmids_values *v, const char *s, size_t len, size_t esz,
    const char **bad)
{
	const char *end;
	size_t i = 0;
	int r;

	for (;;) {
		while (i < len && shmids_blank(s[i]))
			i++;
		if (i == len)
			return 0;
		if (v->count == v->cap && grow(v) == -1)
			return -1;
		/* s[0..len) is there: the digits may go 8 at a time */
		if (v->type == SHMIDS_F64)
			r = shmids_strtod_lim(s + i, s + len, &end,
			    (double *)v->data + v->count);
		else
			r = shmids_parse_lim(s + i, s + len, &end, v->type,
			    (char *)v->data + v->count * esz);
		if (r == -1) {
			*bad = s + i;
			return -1;
		}
		v->count++;
		i = (size_t)(end - s);
	}
}

/* One line's values appended to v (SHMIDS_VALUES_LINE). */
int
shmids_values_line(struct shmids_values *v, const char *s, size_t len,
    int *more, const char **bad)
{
	size_t esz = shmids_type_size(v->type);
	int cont;

	*more = 0;
	if (esz == 0) {
		errno = EINVAL;
		return -1;
	}
	while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == '\r'))
		len--;
	if ((cont = shmids_cont(s, len)) != 0) {
		while (shmids_blank(s[len - 1]))
			len--;
		len--;		/* the "/" */
	}
	if (each(v, s, len, esz, bad) == -1)
		return -1;
	*more = cont;	/* only once every value is read */
	return 0;
}

void
shmids_values_free(struct shmids_values *v)
{
	int type = v->type;

	free(v->data);
	memset(v, 0, sizeof(*v));
	v->type = type;
}

int
shmids_values_each(struct shmids_values *v, const char *s, size_t len,
    const char **bad)
{
	return each(v, s, len, shmids_type_size(v->type), bad);
}
