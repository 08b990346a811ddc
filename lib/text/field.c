/*
 * Array fields in either form, for converting an ASCII program in a dozen
 * lines (the paper's practical trial): shmids_put() writes inline or by
 * reference, shmids_get() reads whichever it finds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

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

	/* a field that reads back as one in either form (format-spec.md 6) */
	if (fp == NULL || field == NULL ||
	    shmids_field_check(field, strlen(field), 0, NULL) == -1 ||
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

	if ((h = shmids_open_flags(label, 0, 0)) == NULL)
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

/*
 * An inline array: the values of its first line (c, filled by the
 * classifier) and of its continuation lines read from fp, through its
 * last one, as the classifier reads them (format-spec.md 6): a token
 * that is no value, or a reference line where a continuation should
 * be, makes the whole array text (EINVAL).
 */
static int
get_inline(const char *line, FILE *fp, int type, struct shmids_array *a)
{
	struct shmids_lines rd;
	struct shmids_values v;
	struct shmids_line c;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	int r, bad, e;

	memset(&rd, 0, sizeof(rd));
	memset(&v, 0, sizeof(v));
	v.type = type;
	r = shmids_line_next(&rd, line, strlen(line), &v, &c);
	bad = r == 0 && c.kind != SHMIDS_LINE_ARRAY;
	while (r == 0 && rd.more && fp != NULL &&
	    (n = getline(&buf, &cap, fp)) != -1) {
		r = shmids_line_next(&rd, buf, (size_t)n, &v, &c);
		bad |= r == 0 && (c.bad || c.cut);
	}
	/*
	 * Only the end of the file ends an array early: getline(3) fails
	 * with ENOMEM, on a line too long, without setting the error flag.
	 */
	if (r == 0 && rd.more && fp != NULL && !feof(fp)) {
		if (errno == 0)
			errno = EIO;
		r = -1;
	} else if (r == 0 && bad) {
		errno = EINVAL;
		r = -1;
	}
	e = errno;
	free(buf);
	if (r == -1) {
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
	struct shmids_line c;

	if (line == NULL || a == NULL || shmids_type_size(type) == 0) {
		errno = EINVAL;
		return -1;
	}
	memset(a, 0, sizeof(*a));
	/* what the line is: format-spec.md 5, 6, 6.1 (classify.c) */
	shmids_line_kind(line, strlen(line), 0, &c);
	switch (c.kind) {
	case SHMIDS_LINE_REF:
	case SHMIDS_LINE_TREF:
		return get_ref(c.label, type, a);
	case SHMIDS_LINE_ARRAY:
		return get_inline(line, fp, type, a);
	default:
		/*
		 * malformed, a line that begins with a number, blank, a
		 * comment (format-spec.md 6)
		 */
		errno = EINVAL;
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
