/*
 * Whose file segment a reader reads (format-spec.md 2.6, Whose segment):
 * one owned by the uid its name carries; of the old form, which carries
 * none, one owned by the reader, by root, or by an owner the reader
 * names in SHMIDS_OLD_OWNERS.
 */
#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seg.h"

/* Does the token t[0..n) of SHMIDS_OLD_OWNERS name uid? */
static int
names_uid(const char *t, size_t n, uid_t uid)
{
	struct passwd pw, *res = NULL;
	char name[256], buf[1024];
	unsigned long long v = 0;
	size_t i;

	if (n == 1 && t[0] == '*')
		return 1;
	for (i = 0; i < n && t[i] >= '0' && t[i] <= '9' && v <= 0xffffffffULL;
	    i++)
		v = v * 10 + (unsigned)(t[i] - '0');
	if (i == n && n > 0)
		return v == (unsigned long long)uid;
	if (n == 0 || n >= sizeof(name))
		return 0;
	memcpy(name, t, n);
	name[n] = '\0';
	return getpwnam_r(name, &pw, buf, sizeof(buf), &res) == 0 &&
	    res != NULL && pw.pw_uid == uid;
}

/* Is uid one of the owners SHMIDS_OLD_OWNERS names?  errno kept. */
static int
old_owner(uid_t uid)
{
	const char *s = getenv("SHMIDS_OLD_OWNERS"), *e;
	size_t n;
	int err = errno, r = 0;

	/* names or uids separated by commas, blanks around them allowed */
	for (; s != NULL && *s != '\0' && !r; s = *e ? e + 1 : e) {
		s += strspn(s, " \t");
		e = s + strcspn(s, ",");
		for (n = (size_t)(e - s); n > 0 && (s[n - 1] == ' ' ||
		    s[n - 1] == '\t'); n--)
			;
		r = names_uid(s, n, uid);
	}
	errno = err;
	return r;
}

/* shmids_reads_owner: the contract is in seg.h. */
int
shmids_reads_owner(const char *id, uid_t owner)
{
	unsigned long uid;
	int err = errno, k = shmids_id_uid(id, &uid);

	errno = err;
	if (k == 1)
		return (unsigned long)owner == uid;
	if (k == -1)
		return 0;
	if (id[0] != '/')
		return 1;	/* a System V segment: no name to check */
	return owner == geteuid() || owner == 0 || old_owner(owner);
}
