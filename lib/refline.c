/*
 * Reference lines, format-spec.md section 5: "field shmids shmid name".
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

int
shmids_isblank(int c)
{
	return c == ' ' || c == '\t';
}

/* Next blank-separated token of line[*pos..end); 0 at the end. */
static size_t
token(const char *line, size_t end, size_t *pos, size_t *start)
{
	size_t i = *pos;

	while (i < end && shmids_isblank(line[i]))
		i++;
	*start = i;
	while (i < end && !shmids_isblank(line[i]))
		i++;
	*pos = i;
	return i - *start;
}

static int
malformed(struct ref *r, const char *why)
{
	r->why = why;
	errno = EINVAL;
	return -1;
}

/*
 * Returns 1 for a reference line (r filled), 0 for any other line, -1 for
 * a malformed reference line (r->why says why).  The line ends at the
 * first LF, or at len; one CR before it is not part of the last token.
 */
int
shmids_ref_parse(const char *line, size_t len, struct ref *r)
{
	const char *nl;
	size_t end, pos = 0, s, n, x, idlen, namelen;
	int id;

	if ((nl = memchr(line, '\n', len)) != NULL)
		len = (size_t)(nl - line);
	end = len > 0 && line[len - 1] == '\r' ? len - 1 : len;
	r->eolpos = end;
	r->why = NULL;
	if ((r->fieldlen = token(line, end, &pos, &r->fieldpos)) == 0)
		return 0;
	if (token(line, end, &pos, &s) != 6 || memcmp(line + s, "shmids", 6))
		return 0;
	if (memchr(line, '\0', end) != NULL)
		return malformed(r, "NUL byte in reference");
	if (memchr(line, '\r', end) != NULL)
		return malformed(r, "CR inside reference");
	if ((idlen = token(line, end, &pos, &s)) == 0)
		return malformed(r, "no label after shmids");
	if ((namelen = token(line, end, &pos, &n)) == 0)
		return malformed(r, "no name after shmid");
	if (token(line, end, &pos, &x) != 0)
		return malformed(r, "text after the label");
	/* The label proper has one space; the line may have any blanks. */
	if (namelen > SHMIDS_NAME_MAX)
		return malformed(r, "name longer than 64 bytes");
	if (idlen + 1 + namelen > SHMIDS_LABEL_MAX)
		return malformed(r, "label longer than 75 bytes");
	if (shmids_id_check(line + s, idlen, &id) == -1)
		return malformed(r, "bad shmid or path");
	if (shmids_name_check(line + n, namelen) == -1)
		return malformed(r, "bad name");
	memcpy(r->label, line + s, idlen);
	r->label[idlen] = ' ';
	memcpy(r->label + idlen + 1, line + n, namelen);
	r->label[idlen + 1 + namelen] = '\0';
	r->shmid = id;
	return 1;
}
