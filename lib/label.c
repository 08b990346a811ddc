/*
 * Labels: "<shmid> <name>", format-spec.md section 1.
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

/*
 * Parse exactly len bytes as a label.  The shmid has no sign and no
 * leading zero, so that each segment has exactly one spelling of its
 * label and a string comparison with the header is enough.
 */
int
shmids_label_parse(const char *s, size_t len, int *shmid, const char **name,
    size_t *namelen)
{
	size_t i;
	long v = 0;

	for (i = 0; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		v = v * 10 + (s[i] - '0');
		if (v > INT_MAX || (i > 0 && s[0] == '0'))
			goto bad;
	}
	if (i == 0 || i >= len || s[i] != ' ')
		goto bad;
	i++;
	if (shmids_name_check(s + i, len - i) == -1)
		return -1;
	*shmid = (int)v;
	*name = s + i;
	*namelen = len - i;
	return 0;
bad:
	errno = EINVAL;
	return -1;
}

/* buf holds SHMIDS_LABEL_MAX + 1 bytes; name is already checked. */
size_t
shmids_label_make(char *buf, int shmid, const char *name, size_t namelen)
{
	char tmp[16];
	size_t n = 0, i = 0;
	unsigned u = (unsigned)shmid;

	do
		tmp[n++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	while (n > 0)
		buf[i++] = tmp[--n];
	buf[i++] = ' ';
	memcpy(buf + i, name, namelen);
	i += namelen;
	buf[i] = '\0';
	return i;
}
