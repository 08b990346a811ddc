/*
 * Inline arrays read back: the values of one line (format-spec.md
 * section 6), appended to a growing buffer.  A last token "/"
 * (shmids_continued()) means the array goes on on the next line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int
grow(struct shmids_values *v)
{
	size_t esz = shmids_type_size(v->type), cap;
	char *n;

	cap = v->cap ? v->cap * 2 : 1024;
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

int
shmids_values_parse(struct shmids_values *v, const char *s, size_t len,
    int *more, const char **bad)
{
	size_t esz = shmids_type_size(v->type), i = 0;
	const char *end;
	int cont;

	*more = 0;
	if (esz == 0) {
		errno = EINVAL;
		return -1;
	}
	while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == '\r'))
		len--;
	if ((cont = shmids_continued(s, len)) != 0) {
		while (shmids_isblank(s[len - 1]))
			len--;
		len--;		/* the "/" */
	}
	for (;;) {
		while (i < len && shmids_isblank(s[i]))
			i++;
		if (i == len) {
			*more = cont;	/* only once every value is read */
			return 0;
		}
		if (v->count == v->cap && grow(v) == -1)
			return -1;
		/* s[0..len) is there: the digits may go 8 at a time */
		if (shmids_parse_lim(s + i, s + len, &end, v->type,
		    (char *)v->data + v->count * esz) == -1) {
			*bad = s + i;
			return -1;
		}
		v->count++;
		i = (size_t)(end - s);
	}
}

void
shmids_values_free(struct shmids_values *v)
{
	int type = v->type;

	free(v->data);
	memset(v, 0, sizeof(*v));
	v->type = type;
}
