/*
 * Users, as shm-ls and shm-rm take them (-u) and print them: a login
 * name or a numeric ID, and the names the databases give.
 */
#ifndef SHMIDS_USER_H
#define SHMIDS_USER_H

#include <sys/types.h>

/*
 * A user as shm-ls -u and shm-rm -u take one: a login name, else a
 * numeric user ID (which needs no account); -1 if neither.
 */
int	 user_parse(const char *s, uid_t *uid);
/* user_parse() refused arg: a usage error (exit 2) saying what it takes. */
void	 user_bad(const char *arg);
/*
 * uid's login name (whole: up to 255 bytes), or the number where it has
 * none; control characters and bytes that are not UTF-8 written \ooo,
 * for the database is not ours.  The result lives until the next call
 * with another uid.
 */
const char *user_name(uid_t uid);
/*
 * A user's (group 0) or group's (group 1) name as the database holds it,
 * raw, for output that escapes it itself (JSON, fmt_text()); the number
 * where there is none or it is empty.  Up to 255 bytes; the result lives
 * until the next call for another id of the same kind.
 */
const char *user_dbname(int group, unsigned long id);

#endif /* SHMIDS_USER_H */
