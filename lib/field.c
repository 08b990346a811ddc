/*
 * Array fields in either form, for converting an ASCII program in a dozen
 * lines (the paper's practical trial): shmids_put() writes inline or by
 * reference, shmids_get() reads whichever it finds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "num.h"

static int
field_ok(const char *field)
{
	size_t i;

	for (i = 0; field[i] != '\0'; i++)
		if (shmids_isend(field[i]))
			return 0;
	return i > 0;
}

static int
put_ref(FILE *fp, const char *field, int type, const void *data,
    size_t count, const char *name, int mode)
{
	char label[SHMIDS_LABEL_MAX + 1];
	char *h;
	int e;

	if ((h = shmids_create_array(name, mode, type, count)) == NULL)
		return -1;
	if (count > 0)
		memcpy(h + SHMIDS_HEADER, data, count * shmids_type_size(type));
	strcpy(label, h);
	shmids_close(h);
	if (fprintf(fp, "%s shmids %s\n", field, label) < 0 || ferror(fp)) {
		e = errno;
		shmids_remove(label);
		errno = e;
		return -1;
	}
	return 0;
}

int
shmids_put(FILE *fp, const char *field, int type, const void *data,
    size_t count, const char *name, int mode)
{
	struct shmids_layout l;

	if (fp == NULL || field == NULL || !field_ok(field) ||
	    shmids_type_size(type) == 0 || (data == NULL && count > 0)) {
		errno = EINVAL;
		return -1;
	}
	if (name != NULL)
		return put_ref(fp, field, type, data, count, name, mode);
	shmids_layout_init(&l, field);
	return shmids_emit(fp, &l, type, data, count);
}

/* A segment's array as type: the same type, or raw of a fitting size. */
static int
get_ref(const char *label, int type, struct shmids_array *a)
{
	size_t esz = shmids_type_size(type);
	void *h;
	int e;

	if ((h = shmids_open(label)) == NULL)
		return -1;
	if (shmids_array(h, a) == -1)
		goto fail;
	if (a->type != type) {
		if (a->type != SHMIDS_RAW || a->count % esz != 0) {
			errno = EPROTOTYPE;
			goto fail;
		}
		a->type = type;
		a->count /= esz;
	}
	a->shm_ = h;
	return 0;
fail:
	e = errno;
	shmids_close(h);
	errno = e;
	return -1;
}

/* The values after the field, and on continuation lines read from fp. */
static int
get_inline(const char *line, size_t start, FILE *fp, int type,
    struct shmids_array *a)
{
	struct shmids_values v;
	const char *bad;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	int more, r;

	memset(&v, 0, sizeof(v));
	v.type = type;
	r = shmids_values_parse(&v, line + start, strlen(line + start), &more,
	    &bad);
	while (r == 0 && more && fp != NULL &&
	    (n = getline(&buf, &cap, fp)) != -1)
		r = shmids_values_parse(&v, buf, (size_t)n, &more, &bad);
	/*
	 * Only the end of the file ends an array early: getline(3) fails
	 * with ENOMEM, on a line too long, without setting the error flag.
	 */
	if (r == 0 && more && fp != NULL && !feof(fp)) {
		if (errno == 0)
			errno = EIO;
		r = -1;
	}
	free(buf);
	if (r == -1) {
		int e = errno;

		shmids_values_free(&v);
		errno = e;
		return -1;
	}
	a->data = v.count ? v.data : NULL;
	a->count = v.count;
	a->type = type;
	a->buf_ = v.data;
	return 0;
}

int
shmids_get(const char *line, FILE *fp, int type, struct shmids_array *a)
{
	struct shmids_ref r;
	int sep;

	if (line == NULL || a == NULL || shmids_type_size(type) == 0) {
		errno = EINVAL;
		return -1;
	}
	memset(a, 0, sizeof(*a));
	if (shmids_isnumber(line, strlen(line))) {
		errno = EINVAL;
		return -1;
	}
	switch (shmids_tref_parse(line, strlen(line), &r, &sep)) {
	case 1:
		return get_ref(r.label, type, a);
	case -1:
		return -1;
	}
	switch (shmids_ref_parse(line, strlen(line), &r)) {
	case 1:
		return get_ref(r.label, type, a);
	case 0:
		if (r.fieldlen == 0) {
			errno = EINVAL;
			return -1;
		}
		return get_inline(line, r.field + r.fieldlen, fp, type, a);
	default:
		return -1;
	}
}

void
shmids_array_free(struct shmids_array *a)
{
	if (a->shm_ != NULL)
		shmids_close(a->shm_);
	free(a->buf_);
	memset(a, 0, sizeof(*a));
}
