/*
 * Reference lines, format-spec.md section 5: "field shmids shmid name".
 */
#include <errno.h>
#include <string.h>

#include "internal.h"
#include "num.h"

int
shmids_isblank(int c)
{
	return shmids_blank(c);
}

int
shmids_continued(const char *s, size_t len)
{
	return shmids_cont(s, len);
}

/* Next blank-separated token of line[*pos..end); 0 at the end. */
static size_t
token(const char *line, size_t end, size_t *pos, size_t *start)
{
	size_t i = *pos;

	while (i < end && shmids_blank(line[i]))
		i++;
	*start = i;
	while (i < end && !shmids_blank(line[i]))
		i++;
	*pos = i;
	return i - *start;
}

static int
malformed(struct shmids_ref *r, const char *why)
{
	r->why = why;
	errno = EINVAL;
	return -1;
}

/*
 * The line's end (*end: before its CR), and its first token, whose
 * length is returned; r's field, fieldlen, eol and why are set.
 */
static size_t
first(const char *line, size_t len, size_t *end, size_t *pos,
    struct shmids_ref *r)
{
	const char *nl;

	if ((nl = memchr(line, '\n', len)) != NULL)
		len = (size_t)(nl - line);
	*end = len > 0 && line[len - 1] == '\r' ? len - 1 : len;
	r->eol = *end;
	r->why = NULL;
	return r->fieldlen = token(line, *end, pos, &r->field);
}

/*
 * The id, name and end of line of a reference, from pos (after the
 * keyword) on: 1 with r->label filled, or -1 malformed.
 */
static int
label_rest(const char *line, size_t end, size_t pos, struct shmids_ref *r)
{
	size_t s, n, x, idlen, namelen;

	if (memchr(line, '\0', end) != NULL)
		return malformed(r, "NUL byte in reference");
	if (memchr(line, '\r', end) != NULL)
		return malformed(r, "CR inside reference");
	if ((idlen = token(line, end, &pos, &s)) == 0)
		return malformed(r, "no label after shmids");
	/* "x shmids coeff": the name without its shmid, not the reverse */
	if ((namelen = token(line, end, &pos, &n)) == 0)
		return malformed(r, shmids_id_check(line + s, idlen, NULL) ==
		    -1 ? "no label after shmids (a shmid, then a name)" :
		    "no name after shmid");
	if (token(line, end, &pos, &x) != 0)
		return malformed(r, "text after the label");
	/* The label proper has one space; the line may have any blanks. */
	if (namelen > SHMIDS_NAME_MAX)
		return malformed(r, "name longer than 64 bytes");
	if (idlen + 1 + namelen > SHMIDS_LABEL_MAX)
		return malformed(r, "label longer than 75 bytes");
	if (shmids_id_check(line + s, idlen, NULL) == -1)
		return malformed(r, "bad shmid or path");
	if (shmids_name_check(line + n, namelen) == -1)
		return malformed(r, "bad name");
	memcpy(r->label, line + s, idlen);
	r->label[idlen] = ' ';
	memcpy(r->label + idlen + 1, line + n, namelen);
	r->label[idlen + 1 + namelen] = '\0';
	return 1;
}

/* The contract is in shmids.h. */
int
shmids_ref_parse(const char *line, size_t len, struct shmids_ref *r)
{
	size_t end, pos = 0, s;

	if (first(line, len, &end, &pos, r) == 0)
		return 0;
	if (token(line, end, &pos, &s) != 6 || memcmp(line + s, "shmids", 6))
		return 0;
	return label_rest(line, end, pos, r);
}

/*
 * A table reference, format-spec.md 5: "shmids" or "shmids," first, an
 * id's first byte (a digit or "/") next; a reference line (second token
 * "shmids") is none.  A tab right after "shmids" says the rows are
 * tab-separated.
 */
int
shmids_tref_parse(const char *line, size_t len, struct shmids_ref *r,
    int *sep)
{
	size_t end, pos = 0, s, k;

	if (first(line, len, &end, &pos, r) == 0)
		return 0;
	if ((k = token(line, end, &pos, &s)) == 6 &&
	    memcmp(line + s, "shmids", 6) == 0)
		return 0;
	if ((r->fieldlen != 6 && r->fieldlen != 7) ||
	    memcmp(line + r->field, "shmids,", r->fieldlen) != 0 || k == 0 ||
	    !((line[s] >= '0' && line[s] <= '9') || line[s] == '/'))
		return 0;
	*sep = r->fieldlen == 7 ? ',' : line[r->field + 6] == '\t' ? '\t' :
	    ' ';
	return label_rest(line, end, r->field + r->fieldlen, r);
}
