/*
 * System settings that matter to segments meant to outlive their writer
 * (kernel.shm_rmid_forced, systemd-logind's RemoveIPC, and the daily
 * cleaner that removes them once stale) and to their speed (huge pages,
 * shmem transparent huge pages).  Linux paths; on other systems the
 * files are missing and nothing is said.  systemd's files are read under
 * SHMIDS_SYSTEMD_ROOT where it is set, so that tests choose what logind
 * does (format-spec.md 7, shm-import).
 */
#include <sys/stat.h>

#include <err.h>
#include <glob.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "shmids.h"
#include "syscheck.h"

#define SYS_UID_MAX	999	/* logind spares system users */

/*
 * path under SHMIDS_SYSTEMD_ROOT (set and not empty) in buf, or path
 * itself; NULL if too long, which the callers take as a missing file.
 */
static const char *
sdpath(char *buf, size_t len, const char *path)
{
	const char *root = getenv("SHMIDS_SYSTEMD_ROOT");

	if (root == NULL || *root == '\0')
		return path;
	if ((size_t)snprintf(buf, len, "%s%s", root, path) >= len)
		return NULL;
	return buf;
}

/* access(2) F_OK of a systemd path, under SHMIDS_SYSTEMD_ROOT. */
static int
sdexists(const char *path)
{
	char buf[PATH_MAX];

	path = sdpath(buf, sizeof(buf), path);
	return path != NULL && access(path, F_OK) == 0;
}

/* The first line of a file, without its newline; "" if unreadable. */
static const char *
readline(const char *path, char *buf, size_t len)
{
	FILE *fp;

	buf[0] = '\0';
	if ((fp = fopen(path, "r")) == NULL)
		return buf;
	if (fgets(buf, (int)len, fp) == NULL)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(fp);
	return buf;
}

/*
 * Where systemd looks for logind.conf and logind.conf.d/, most
 * important first (systemd.syntax(7), "Configuration Directories and
 * Precedence"); /lib is /usr/lib's twin where /usr is not merged.
 */
static const char *const confdirs[] = {
	"/etc/systemd", "/run/systemd", "/usr/local/lib/systemd",
	"/usr/lib/systemd", "/lib/systemd"
};
#define NCONFDIRS	(sizeof(confdirs) / sizeof(confdirs[0]))

/* systemd's parse_boolean(): 1, 0, or -1 for anything else. */
static int
boolean(const char *v)
{
	static const char *const yes[] = { "1", "yes", "y", "true", "t", "on" };
	static const char *const no[] = { "0", "no", "n", "false", "f", "off" };
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcasecmp(v, yes[i]) == 0)
			return 1;
		if (strcasecmp(v, no[i]) == 0)
			return 0;
	}
	return -1;
}

/* s without the blanks around it, in place. */
static char *
trim(char *s)
{
	size_t n;

	s += strspn(s, " \t");
	n = strcspn(s, "\r\n");
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	s[n] = '\0';
	return s;
}

/*
 * RemoveIPC= of [Login] in one file, as systemd reads it: the last
 * valid assignment wins; an invalid one is ignored (logind logs it and
 * keeps what it had).  *val is left alone if the file sets none.
 */
static void
removeipc_in(const char *path, int *val)
{
	char line[1024], *l, *eq;
	int login = 0, b, whole = 1, tail;
	FILE *fp;

	if ((fp = fopen(path, "r")) == NULL)
		return;
	while (fgets(line, sizeof(line), fp) != NULL) {
		tail = !whole;
		whole = strchr(line, '\n') != NULL || feof(fp);
		/* The tail of a line too long for us is no line of its own. */
		if (tail)
			continue;
		l = trim(line);
		if (*l == '[')
			login = strcmp(l, "[Login]") == 0;
		else if (login && *l != '#' && *l != ';' &&
		    (eq = strchr(l, '=')) != NULL) {
			*eq = '\0';
			if (strcmp(trim(l), "RemoveIPC") == 0 &&
			    (b = boolean(trim(eq + 1))) != -1)
				*val = b;
		}
	}
	fclose(fp);
}

static int
byname(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;

	return strcmp(strrchr(x, '/'), strrchr(y, '/'));
}

/*
 * The drop-ins, logind.conf.d/\*.conf in every directory: one of a name
 * hides those of the same name in less important directories, and they
 * are read in the order of their names, after logind.conf.
 */
static void
removeipc_dropins(int *val)
{
	char dir[PATH_MAX], pat[2 * PATH_MAX + 16], **v, *p;
	const char *d;
	glob_t g;
	size_t i, j, n = 0;
	int fl = 0;

	for (i = 0; i < NCONFDIRS; i++) {
		if ((d = sdpath(dir, sizeof(dir), confdirs[i])) == NULL)
			continue;
		/* The root is a name, not a pattern: its *?[\ escaped. */
		for (p = pat; *d != '\0'; *p++ = *d++)
			if (strchr("*?[\\", *d) != NULL)
				*p++ = '\\';
		strcpy(p, "/logind.conf.d/*.conf");
		if (glob(pat, fl, NULL, &g) == 0)
			fl = GLOB_APPEND;
	}
	if (fl == 0)
		return;
	/* glob() kept the directories' order: the first of a name wins. */
	if ((v = calloc(g.gl_pathc, sizeof(*v))) != NULL) {
		for (i = 0; i < g.gl_pathc; i++) {
			for (j = 0; j < n && byname(&g.gl_pathv[i], &v[j]) != 0;
			    j++)
				;
			if (j == n)
				v[n++] = g.gl_pathv[i];
		}
		qsort(v, n, sizeof(*v), byname);
		for (i = 0; i < n; i++)
			removeipc_in(v[i], val);
		free(v);
	}
	globfree(&g);
}

/*
 * RemoveIPC as logind has it: 1 yes, 0 no; *set 0 when no file sets it
 * (the compiled-in default, yes).  The main file is the first
 * logind.conf of the directories, then come the drop-ins.
 */
static int
removeipc(int *set)
{
	char path[PATH_MAX], buf[PATH_MAX];
	const char *p;
	size_t i;
	int val = -1;

	for (i = 0; i < NCONFDIRS; i++) {
		snprintf(path, sizeof(path), "%s/logind.conf", confdirs[i]);
		if ((p = sdpath(buf, sizeof(buf), path)) != NULL &&
		    access(p, F_OK) == 0) {
			removeipc_in(p, &val);
			break;
		}
	}
	removeipc_dropins(&val);
	*set = val != -1;
	return val != 0;
}

/*
 * Is the daily cleaner (make install-systemd) installed, and enabled?
 * Read from the unit directories, as systemd would, without systemctl:
 * the first directory holding the timer, and the symlink that
 * "systemctl enable" makes.
 */
static void
timer_report(void)
{
	static const char *const dirs[] = {
		"/etc/systemd/system", "/run/systemd/system",
		"/usr/local/lib/systemd/system", "/usr/lib/systemd/system",
		"/lib/systemd/system"
	};
	static const char unit[] = "shmids-clean.timer";
	char path[128], buf[PATH_MAX];
	const char *p;
	struct stat st;
	const char *dir = NULL;
	size_t i;
	int on;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && dir == NULL; i++) {
		snprintf(path, sizeof(path), "%s/%s", dirs[i], unit);
		if ((p = sdpath(buf, sizeof(buf), path)) != NULL &&
		    stat(p, &st) == 0 && S_ISREG(st.st_mode))
			dir = dirs[i];
	}
	snprintf(path, sizeof(path), "/etc/systemd/system/timers.target.wants/%s",
	    unit);
	on = (p = sdpath(buf, sizeof(buf), path)) != NULL && lstat(p, &st) == 0;
	if (dir == NULL) {
		printf("%-24s not installed\n", unit);
		printf("hint: 'make install-systemd' installs a daily cleaner of "
		    "every user's\n  stale segments (shm-rm -v -s 7d -U); "
		    "or a cron line, see shm-rm(1)\n");
	} else if (!on) {
		printf("%-24s installed (%s), not enabled\n", unit, dir);
		printf("hint: as root, 'systemctl enable --now %s'\n", unit);
	} else
		printf("%-24s enabled (%s)\n", unit, dir);
}

/*
 * Does logind run?  Its state directories alone say nothing: an image
 * may carry them with no systemd at all (issue 33.8).  systemd-logind
 * runs only where systemd booted the system, which sd_booted(3) tells by
 * /run/systemd/system, and makes /run/systemd/seats as it starts;
 * elogind, logind without systemd, leaves its pid file.
 */
static int
logind_running(void)
{
	char buf[PATH_MAX];
	const char *p;
	struct stat st;

	p = sdpath(buf, sizeof(buf), "/run/systemd/system");
	if (p != NULL && lstat(p, &st) == 0 && S_ISDIR(st.st_mode) &&
	    sdexists("/run/systemd/seats"))
		return 1;
	return sdexists("/run/elogind.pid");
}

/*
 * logind keeps a lingering user's manager, and so the user, for good:
 * RemoveIPC acts when the user's last session ends and the user goes.
 */
static int
lingers(void)
{
	struct passwd *pw = getpwuid(getuid());
	char path[PATH_MAX];

	if (pw == NULL || snprintf(path, sizeof(path),
	    "/var/lib/systemd/linger/%s", pw->pw_name) >= (int)sizeof(path))
		return 0;
	return sdexists(path);
}

/*
 * File segments (SHMIDS_DIR) escape shm_rmid_forced; RemoveIPC takes
 * a user's files in /dev/shm as well as System V segments.  Whoever has
 * read the warning and knows may silence it: SHMIDS_NOWARN, as
 * SHMIDS_NOTUNE turns tuning off (set and not empty).
 */
void
syscheck_warn(void)
{
	const char *dir = shmids_dir(), *quiet = getenv("SHMIDS_NOWARN");
	int files = dir != NULL, set;
	char buf[64];

	if (quiet != NULL && *quiet != '\0')
		return;
	if (!files && strcmp(readline("/proc/sys/kernel/shm_rmid_forced",
	    buf, sizeof(buf)), "1") == 0)
		warnx("warning: kernel.shm_rmid_forced is 1: segments are "
		    "destroyed as soon as no process is attached "
		    "(SHMIDS_NOWARN=1 silences this)");
	if ((!files || strncmp(dir, "/dev/shm", 8) == 0) &&
	    getuid() > SYS_UID_MAX && logind_running() && removeipc(&set) &&
	    !lingers())
		warnx("warning: systemd-logind RemoveIPC=yes: your segments "
		    "are destroyed when you log out ('loginctl enable-linger' "
		    "keeps them; SHMIDS_NOWARN=1 silences this)");
}

/*
 * A VM whose virtio balloon reports free pages (feature bit 5) hands
 * idle blocks of 2 MiB and up back to its host; large folios, which make
 * file segments fast, come from those blocks and then fault twice.
 */
static int
page_reporting(void)
{
	char buf[64];
	glob_t g;
	size_t i;
	int on = 0;

	if (glob("/sys/bus/virtio/drivers/virtio_balloon/virtio*/features",
	    0, NULL, &g) != 0)
		return 0;
	for (i = 0; i < g.gl_pathc; i++)
		if (strlen(readline(g.gl_pathv[i], buf, sizeof(buf))) > 5 &&
		    buf[5] == '1')
			on = 1;
	globfree(&g);
	return on;
}

/* The second backend needs no administrator: only a directory. */
static void
filesetting(void)
{
	const char *dir = shmids_dir();
	int fpr = page_reporting();

	printf("%-24s %s\n", "free page reporting", fpr ?
	    "on (virtio balloon: idle memory goes back to the host)" : "off");
	if (dir != NULL) {
		printf("%-24s %s (file segments)\n", "SHMIDS_DIR", dir);
		return;
	}
	printf("%-24s unset (System V segments)\n", "SHMIDS_DIR");
	printf("hint: file segments on a local disk file system fault in "
	    "large folios:\n  'export SHMIDS_DIR=/var/tmp' (see shmids(5))%s\n",
	    fpr ? ";\n  with free page reporting that pays only for "
	    "back-to-back hand-overs,\n  while reserved huge pages (above) pay "
	    "every time" : "");
}

static void
setting(const char *name, const char *path, const char *unit)
{
	char buf[64];

	if (*readline(path, buf, sizeof(buf)) == '\0')
		printf("%-24s ?\n", name);
	else
		printf("%-24s %s%s\n", name, buf, unit);
}

void
syscheck_report(void)
{
	char buf[64], thp[128];
	int set, on;

	setting("kernel.shmmax", "/proc/sys/kernel/shmmax", " bytes");
	setting("kernel.shmall", "/proc/sys/kernel/shmall", " pages");
	setting("kernel.shmmni", "/proc/sys/kernel/shmmni", " segments");
	setting("kernel.shm_rmid_forced", "/proc/sys/kernel/shm_rmid_forced",
	    "");
	on = removeipc(&set);
	/*
	 * logind spares system users (uid < 1000), root among them; where
	 * it does not run, that it does not is all there is to say.
	 */
	printf("%-24s %s%s%s\n", "logind RemoveIPC", on ? "yes" : "no",
	    set ? "" : " (default)", !logind_running() ?
	    " (logind not running)" : on && getuid() <= SYS_UID_MAX ?
	    " (not for your uid: a system user's)" : "");
	timer_report();
	setting("vm.nr_hugepages", "/proc/sys/vm/nr_hugepages", " pages");
	setting("vm.hugetlb_shm_group", "/proc/sys/vm/hugetlb_shm_group", "");
	readline("/sys/kernel/mm/transparent_hugepage/shmem_enabled", thp,
	    sizeof(thp));
	printf("%-24s %s\n", "shmem THP", *thp ? thp : "?");
	if (strcmp(readline("/proc/sys/vm/nr_hugepages", buf, sizeof(buf)),
	    "0") == 0)
		printf("hint: no huge pages reserved; as root, "
		    "'sysctl vm.nr_hugepages=N' reserves N\n  (and "
		    "vm.hugetlb_shm_group lets a group use them)\n");
	if (strstr(thp, "[never]") != NULL || strstr(thp, "[deny]") != NULL)
		printf("hint: shmem THP off; as root,\n  'echo advise > "
		    "/sys/kernel/mm/transparent_hugepage/shmem_enabled'\n");
	filesetting();
}
