/*
 * LD_PRELOAD shim for tests: a user and group database whose every name
 * is SHMIDS_PWNAME (ESC, BEL, bytes that are not UTF-8: whatever an
 * admin, NIS or LDAP may hold), for the tools that print owner and group
 * names.  Without SHMIDS_PWNAME, the real database.
 */
#define _GNU_SOURCE
#include <sys/types.h>

#include <dlfcn.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

struct passwd	*getpwuid(uid_t uid);
struct group	*getgrgid(gid_t gid);

/* dlsym's void * as a function pointer: C99 has no cast for it. */
static void
real(const char *name, void *fn, size_t size)
{
	void *p = dlsym(RTLD_NEXT, name);

	memcpy(fn, &p, size);
}

struct passwd *
getpwuid(uid_t uid)
{
	static struct passwd *(*next)(uid_t);
	static struct passwd pw;
	char *name = getenv("SHMIDS_PWNAME");

	if (name == NULL) {
		if (next == NULL)
			real("getpwuid", &next, sizeof(next));
		return next(uid);
	}
	pw.pw_name = pw.pw_passwd = pw.pw_gecos = pw.pw_dir = pw.pw_shell =
	    name;
	pw.pw_uid = uid;
	pw.pw_gid = 0;
	return &pw;
}

struct group *
getgrgid(gid_t gid)
{
	static struct group *(*next)(gid_t);
	static struct group gr;
	static char *none[1];
	char *name = getenv("SHMIDS_PWNAME");

	if (name == NULL) {
		if (next == NULL)
			real("getgrgid", &next, sizeof(next));
		return next(gid);
	}
	gr.gr_name = gr.gr_passwd = name;
	gr.gr_gid = gid;
	gr.gr_mem = none;
	return &gr;
}
