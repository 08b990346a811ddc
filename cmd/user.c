/*
 * Users: login names and numeric IDs (user.h).
 */
#include <sys/types.h>

#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "opts.h"
#include "user.h"

#define NAME_MAX_BYTES	255	/* a login name whole (LOGIN_NAME_MAX) */

/* A name first: an account may be called "1000" and have another uid. */
int
user_parse(const char *s, uid_t *uid)
{
	struct passwd *pw;
	unsigned long v;

	if ((pw = getpwnam(s)) != NULL)
		*uid = pw->pw_uid;
	else if (opts_ulong(s, (uid_t)-1 - 1, &v) == 0)
		*uid = (uid_t)v;
	else
		return -1;
	return 0;
}

void
user_bad(const char *arg)
{
	size_t n = strlen(arg);

	/* A name copied from the listing, where ps's cut left a '+'. */
	if (n > 1 && arg[n - 1] == '+')
		opts_invalid("user", arg, "a login name or numeric user ID; "
		    "the listing cuts long names with '+': shm-ls -o uid "
		    "gives the ID");
	opts_invalid("user", arg, "a login name or numeric user ID");
}

const char *
user_dbname(int group, unsigned long id)
{
	static struct {
		unsigned long	 id;
		int		 set;
		char		 name[NAME_MAX_BYTES + 1];
	} cache[2];
	const char *name = NULL;
	struct passwd *pw;
	struct group *gr;

	group = group != 0;
	if (cache[group].set && cache[group].id == id)
		return cache[group].name;
	if (group && (gr = getgrgid((gid_t)id)) != NULL)
		name = gr->gr_name;
	else if (!group && (pw = getpwuid((uid_t)id)) != NULL)
		name = pw->pw_name;
	if (name == NULL || name[0] == '\0')	/* an empty name is no name */
		snprintf(cache[group].name, sizeof(cache[group].name), "%lu",
		    id);
	else
		snprintf(cache[group].name, sizeof(cache[group].name), "%s",
		    name);
	cache[group].id = id;
	cache[group].set = 1;
	return cache[group].name;
}

/*
 * The password and group databases are anyone's to fill (NIS, LDAP, an
 * admin's typo): fmt_text() writes control characters and bytes that
 * are not UTF-8 as \ooo, so that no ESC or BEL reaches a terminal or
 * the journal.  UTF-8 and a backslash (a directory service's
 * DOMAIN\user) stay as they are: the name is for people, who know it so.
 */
const char *
user_name(uid_t u)
{
	static char buf[NAME_MAX_BYTES * 4 + 8];

	fmt_text(user_dbname(0, (unsigned long)u), 0, buf, sizeof(buf));
	return buf;
}
