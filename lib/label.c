/*
 * Labels: "<shmid> <name>" or "<path> <name>", format-spec.md section 1.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "internal.h"

/* Names are 1..64 printable ASCII bytes other than space. */
int
shmids_name_check(const char *name, size_t len)
{
	size_t i;

	if (len == 0) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < len; i++)
		if (name[i] < 0x21 || name[i] > 0x7e) {
			errno = EINVAL;
			return -1;
		}
	if (len > SHMIDS_NAME_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/* The file name of a file segment: "shmids." and 6 letters or digits. */
static int
file_name(const char *s, size_t len)
{
	size_t i;

	if (len != 13 || memcmp(s, "shmids.", 7) != 0)
		return 0;
	for (i = 7; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z')))
			return 0;
	return 1;
}

/*
 * An absolute path "/dir/.../shmids.XXXXXX" whose parts are printable,
 * not "." or "..": one spelling per file, so that comparing a label with
 * the header's is enough, and never a name the tools could mistake.
 */
static int
path_check(const char *s, size_t len)
{
	size_t i = 0, j;

	while (i < len) {
		if (s[i] != '/')
			return 0;
		for (j = ++i; j < len && s[j] != '/'; j++)
			if (s[j] < 0x21 || s[j] > 0x7e)
				return 0;
		if (j == i || (j - i == 1 && s[i] == '.') ||
		    (j - i == 2 && s[i] == '.' && s[i + 1] == '.'))
			return 0;
		if (j == len)
			return file_name(s + i, j - i);
		i = j;
	}
	return 0;
}

/*
 * The shmid has no sign and no leading zero, so that each segment has
 * exactly one spelling of its label and a string comparison with the
 * header is enough.  No length limit here: how long a path may be
 * depends on the name beside it (format-spec.md 1), so that a label too
 * long is ENAMETOOLONG whichever of its parts is long.
 */
static int
id_parse(const char *s, size_t len, int *shmid)
{
	size_t i;
	long v = 0;

	if (len > 0 && s[0] == '/') {
		if (!path_check(s, len))
			return -1;
		*shmid = -1;
		return 0;
	}
	for (i = 0; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		v = v * 10 + (s[i] - '0');
		if (v > INT_MAX || (i > 0 && s[0] == '0'))
			return -1;
	}
	if (i == 0 || i != len)
		return -1;
	*shmid = (int)v;
	return 0;
}

/* A bare id (an operand) must leave room for " x" in a label. */
int
shmids_id_check(const char *s, size_t len, int *shmid)
{
	int dummy;

	if (shmid == NULL)
		shmid = &dummy;
	if (len > SHMIDS_LABEL_MAX - 2 || id_parse(s, len, shmid) == -1) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* Parse exactly len bytes as a label: "id name" (format-spec.md 1). */
int
shmids_label_parse(const char *s, size_t len, size_t *idlen,
    const char **name, size_t *namelen)
{
	const char *sp = memchr(s, ' ', len);
	int shmid;

	if (sp == NULL || id_parse(s, (size_t)(sp - s), &shmid) == -1) {
		errno = EINVAL;
		return -1;
	}
	*idlen = (size_t)(sp - s);
	if (shmids_name_check(sp + 1, len - *idlen - 1) == -1)
		return -1;
	if (len > SHMIDS_LABEL_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	*name = sp + 1;
	*namelen = len - *idlen - 1;
	return 0;
}

int
shmids_label_check(const char *s, size_t len)
{
	const char *name;
	size_t idlen, namelen;

	return shmids_label_parse(s, len, &idlen, &name, &namelen);
}

/* buf holds SHMIDS_LABEL_MAX + 1 bytes; id and name are already checked. */
size_t
shmids_label_make(char *buf, const char *id, const char *name,
    size_t namelen)
{
	size_t n = strlen(id);

	memcpy(buf, id, n);
	buf[n++] = ' ';
	memcpy(buf + n, name, namelen);
	n += namelen;
	buf[n] = '\0';
	return n;
}
