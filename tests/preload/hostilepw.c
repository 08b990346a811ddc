/*
 * LD_PRELOAD shim for tests/shm-ls.bats: a password database whose
 * names are hostile (ESC, BEL, invalid UTF-8), as a directory service
 * may serve them.  getpwuid(3) and getgrgid(3) answer for every id with
 * the name in SHMIDS_PWNAME and SHMIDS_GRNAME, given as the bytes of
 * printf(1)'s %b (so that a test can pass ESC as \033); unset, the real
 * database answers.
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

/* s with \ooo and \xHH escapes turned into their bytes. */
static char *
unescape(const char *s, char *buf, size_t len)
{
	size_t i = 0;
	char *end;

	while (*s != '\0' && i + 1 < len) {
		if (s[0] == '\\' && s[1] == 'x') {
			buf[i++] = (char)strtoul(s + 2, &end, 16);
			s = end;
		} else if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7') {
			buf[i++] = (char)strtoul(s + 1, &end, 8);
			s = end;
		} else
			buf[i++] = *s++;
	}
	buf[i] = '\0';
	return buf;
}

/* The fields no tool reads, writable as struct passwd has them. */
static char	 x[] = "x", empty[] = "", root[] = "/", shell[] = "/bin/false";

static void *
real(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

struct passwd *
getpwuid(uid_t uid)
{
	static char name[256];
	static struct passwd pw;
	const char *want = getenv("SHMIDS_PWNAME");
	struct passwd *(*fn)(uid_t);
	void *p;

	if (want == NULL) {
		p = real("getpwuid");
		memcpy(&fn, &p, sizeof(p));	/* C99 has no cast for it */
		return fn(uid);
	}
	pw.pw_name = unescape(want, name, sizeof(name));
	pw.pw_passwd = x;
	pw.pw_uid = uid;
	pw.pw_gid = uid;
	pw.pw_gecos = empty;
	pw.pw_dir = root;
	pw.pw_shell = shell;
	return &pw;
}

struct group *
getgrgid(gid_t gid)
{
	static char name[256];
	static char *mem[] = { NULL };
	static struct group gr;
	const char *want = getenv("SHMIDS_GRNAME");
	struct group *(*fn)(gid_t);
	void *p;

	if (want == NULL) {
		p = real("getgrgid");
		memcpy(&fn, &p, sizeof(p));
		return fn(gid);
	}
	gr.gr_name = unescape(want, name, sizeof(name));
	gr.gr_passwd = x;
	gr.gr_gid = gid;
	gr.gr_mem = mem;
	return &gr;
}
