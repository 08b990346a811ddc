/*
 * Labels: "<shmid> <name>" or "<path> <name>", format-spec.md section 1.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "seg.h"

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

/* 6 letters or digits: mkstemp(3)'s part of a file segment's name. */
static int
alnum6(const char *s, size_t len)
{
	size_t i;

	if (len != 6)
		return 0;
	for (i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z')))
			return 0;
	return 1;
}

/*
 * "<uid>." after "shmids.": the uid's length (1 to 10 digits, no
 * leading zero, at most UINT32_MAX; its value in *uid), or 0.
 */
static size_t
uid_part(const char *s, size_t len, unsigned long *uid)
{
	unsigned long long v = 0;
	size_t i;

	for (i = 0; i < len && i < 11 && s[i] >= '0' && s[i] <= '9'; i++)
		v = v * 10 + (unsigned)(s[i] - '0');
	if (i == 0 || i > 10 || i == len || s[i] != '.' ||
	    (i > 1 && s[0] == '0') || v > 0xffffffffULL)
		return 0;
	*uid = (unsigned long)v;
	return i;
}

/*
 * The file name of a file segment (format-spec.md 1, 2.6):
 * "shmids.<uid>.XXXXXX" (1 and *uid set), the old form "shmids.XXXXXX"
 * of shmids 1.3 and before (0), else -1.
 */
static int
file_name(const char *s, size_t len, unsigned long *uid)
{
	size_t n;

	if (len < 13 || memcmp(s, "shmids.", 7) != 0)
		return -1;
	if (alnum6(s + 7, len - 7))
		return 0;
	if ((n = uid_part(s + 7, len - 7, uid)) != 0 &&
	    alnum6(s + 8 + n, len - 8 - n))
		return 1;
	return -1;
}

/*
 * An absolute path "/dir/.../shmids.XXXXXX" whose parts are printable,
 * not "." or "..": one spelling per file, so that comparing a label with
 * the header's is enough, and never a name the tools could mistake.
 */
static int
path_check(const char *s, size_t len, unsigned long *uid)
{
	size_t i = 0, j;

	while (i < len) {
		if (s[i] != '/')
			return -1;
		for (j = ++i; j < len && s[j] != '/'; j++)
			if (s[j] < 0x21 || s[j] > 0x7e)
				return -1;
		if (j == i || (j - i == 1 && s[i] == '.') ||
		    (j - i == 2 && s[i] == '.' && s[i + 1] == '.'))
			return -1;
		if (j == len)
			return file_name(s + i, j - i, uid);
		i = j;
	}
	return -1;
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
	unsigned long uid;

	if (len > 0 && s[0] == '/') {
		if (path_check(s, len, &uid) == -1)
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

/*
 * The uid a file segment's id names its maker by (format-spec.md 2.6):
 * 1 and *uid for "/dir/shmids.<uid>.XXXXXX"; 0 for the old form
 * "shmids.XXXXXX" and for a System V id; -1 (EINVAL) if id is no id.
 */
int
shmids_id_uid(const char *id, unsigned long *uid)
{
	size_t len = strlen(id);
	int shmid, k;

	if (len > 0 && id[0] == '/')
		k = path_check(id, len, uid);
	else
		k = id_parse(id, len, &shmid) == -1 ? -1 : 0;
	if (k == -1)
		errno = EINVAL;
	return k;
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
