/*
 * System settings that matter to segments meant to outlive their writer
 * (kernel.shm_rmid_forced, systemd-logind's RemoveIPC, and the daily
 * cleaner that removes them once stale) and to their speed (huge pages,
 * shmem transparent huge pages).  Linux paths; on other systems the
 * files are missing and nothing is said.  systemd's files are read under
 * SHMIDS_SYSTEMD_ROOT where it is set, so that tests choose what logind
 * does (format-spec.md 7, shm-import); the kernel's files that decide
 * the page size under SHMIDS_KERNEL_ROOT (format-spec.md 2.5).
 */
#include <sys/types.h>
#include <sys/stat.h>
#ifdef __linux__
#include <sys/sysmacros.h>	/* major(), minor() */
#endif

#include <err.h>
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "shmids.h"
#include "msg.h"
#include "syscheck.h"

#define SYS_UID_MAX	999	/* logind spares system users */

/*
 * path under the directory the variable var names (set and not empty)
 * in buf, or path itself; NULL if too long, which the callers take as
 * a missing file.
 */
static const char *
rooted(const char *var, char *buf, size_t len, const char *path)
{
	const char *root = getenv(var);

	if (root == NULL || *root == '\0')
		return path;
	if ((size_t)snprintf(buf, len, "%s%s", root, path) >= len)
		return NULL;
	return buf;
}

/* A systemd path, under SHMIDS_SYSTEMD_ROOT. */
static const char *
sdpath(char *buf, size_t len, const char *path)
{
	return rooted("SHMIDS_SYSTEMD_ROOT", buf, len, path);
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
	if (path == NULL || (fp = fopen(path, "r")) == NULL)
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

/* A file of the kernel's (/proc, /sys), under SHMIDS_KERNEL_ROOT. */
static const char *
kpath(char *buf, size_t len, const char *path)
{
	return rooted("SHMIDS_KERNEL_ROOT", buf, len, path);
}

/* The first line of a kernel file; "" if unreadable. */
static const char *
kreadline(const char *path, char *buf, size_t len)
{
	char p[PATH_MAX];

	return readline(kpath(p, sizeof(p), path), buf, len);
}

/* A kernel file's number, or -1. */
static long
knumber(const char *path)
{
	char buf[64], *end;
	long n;

	errno = 0;
	n = strtol(kreadline(path, buf, sizeof(buf)), &end, 10);
	return end == buf || *end != '\0' || errno != 0 || n < 0 ? -1 : n;
}

#define THP	"/sys/kernel/mm/transparent_hugepage/shmem_enabled"
#define POOL	"/sys/kernel/mm/hugepages/hugepages-2048kB/"

/*
 * shmem_enabled's choice, the word in brackets: what System V segments
 * get, and what overrides tmpfs's huge= (deny, force); "" where the
 * kernel has no transparent huge pages.
 */
static const char *
thp_mode(char *mode, size_t len)
{
	char buf[128], *o, *c;

	mode[0] = '\0';
	kreadline(THP, buf, sizeof(buf));
	if ((o = strchr(buf, '[')) != NULL && (c = strchr(o, ']')) != NULL &&
	    (size_t)(c - o) <= len) {
		memcpy(mode, o + 1, (size_t)(c - o - 1));
		mode[c - o - 1] = '\0';
	}
	return mode;
}

/* May the caller have reserved huge pages (vm.hugetlb_shm_group)? */
static int
hugetlb_mine(void)
{
	gid_t g[256];
	long grp = knumber("/proc/sys/vm/hugetlb_shm_group");
	int n, i;

	if (geteuid() == 0)
		return 1;	/* CAP_IPC_LOCK, near enough */
	if (grp < 0)
		return 0;
	if ((gid_t)grp == getegid())
		return 1;
	n = getgroups(sizeof(g) / sizeof(g[0]), g);
	for (i = 0; i < n; i++)
		if (g[i] == (gid_t)grp)
			return 1;
	return 0;
}

#define PAGES_FMT	"%-24s "

/*
 * Will a System V segment of 2 MiB or more get 2 MiB pages, and if not,
 * what to change (format-spec.md 2.5, Page size): the library asks for
 * reserved huge pages of 2 MiB first, then advises transparent ones.
 */
static void
sysv_pages(void)
{
	char mode[32];
	long freep = knumber(POOL "free_hugepages");
	long resv = knumber(POOL "resv_hugepages");
	int notune = getenv("SHMIDS_NOTUNE") != NULL;
	int given, mine = hugetlb_mine();

	thp_mode(mode, sizeof(mode));
	freep = freep > 0 && resv >= 0 && resv < freep ? freep - resv : 0;
	given = strcmp(mode, "always") == 0 ||
	    strcmp(mode, "within_size") == 0 || strcmp(mode, "force") == 0;
	printf(PAGES_FMT, "System V pages");
	if (!notune && freep > 0 && mine)
		printf("2 MiB (reserved huge pages: %ld free, a segment of "
		    "up to %ld MiB)\n", freep, 2 * freep);
	else if (given)
		printf("2 MiB where memory allows (shmem THP %s)\n", mode);
	else if (strcmp(mode, "advise") == 0 && !notune)
		printf("2 MiB where memory allows (shmem THP advise: the "
		    "library asks)\n");
	else if (notune) {
		printf("4 KiB (SHMIDS_NOTUNE is set: none asked for)\n");
		printf("hint: unset SHMIDS_NOTUNE\n");
	} else {
		printf("4 KiB (%s%s%s)\n", *mode ? "shmem THP " : "no "
		    "transparent huge pages", mode, freep > 0 ?
		    "; reserved huge pages not yours: vm.hugetlb_shm_group" :
		    "; no huge pages of 2 MiB free");
		if (*mode)
			printf("hint: as root, 'echo advise > " THP "'\n  or "
			    "reserve huge pages of 2 MiB (shmids(5) HUGE "
			    "PAGES)\n");
		else
			printf("hint: as root, reserve huge pages of 2 MiB "
			    "(shmids(5) HUGE PAGES)\n");
	}
}

struct mnt {
	char	 fstype[64];
	char	 huge[32];	/* tmpfs's huge= option, "" for none */
	char	 point[PATH_MAX];
};

/* A mountinfo field in place, its \ooo escapes undone. */
static char *
unescape(char *s)
{
	char *r = s, *w = s;

	for (; *r != '\0'; r++)
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' &&
		    r[2] >= '0' && r[2] <= '7' && r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') << 6 | (r[2] - '0') << 3 |
			    (r[3] - '0'));
			r += 3;
		} else
			*w++ = *r;
	*w = '\0';
	return s;
}

/*
 * One line of mountinfo (proc(5)) into m, its device's numbers in *maj
 * and *mnr; -1 if malformed.
 */
static int
mount_line(char *line, struct mnt *m, unsigned *maj, unsigned *mnr)
{
	char *f[32], *save = NULL, *t, *o;
	int n = 0, i;

	line[strcspn(line, "\n")] = '\0';
	for (t = strtok_r(line, " ", &save); t != NULL && n < 32;
	    t = strtok_r(NULL, " ", &save))
		f[n++] = t;
	for (i = 6; i < n && strcmp(f[i], "-") != 0; i++)
		;
	/*
	 * Fields: id, parent, major:minor, root, mount point, options,
	 * optional fields up to "-", file system type, source, options.
	 */
	if (i + 1 >= n || sscanf(f[2], "%u:%u", maj, mnr) != 2)
		return -1;
	snprintf(m->point, sizeof(m->point), "%s", unescape(f[4]));
	snprintf(m->fstype, sizeof(m->fstype), "%s", f[i + 1]);
	m->huge[0] = '\0';
	for (o = i + 3 < n ? strtok_r(f[i + 3], ",", &save) : NULL; o != NULL;
	    o = strtok_r(NULL, ",", &save))
		if (strncmp(o, "huge=", 5) == 0)
			snprintf(m->huge, sizeof(m->huge), "%s", o + 5);
	return 0;
}

/*
 * The file system dir is on, from /proc/self/mountinfo: the mount of
 * its device (every mount of one device shares its options), else the
 * longest mount point above its real path (btrfs subvolumes report
 * another device).  0, 1 if dir is in no mount there, -1 with errno if
 * dir cannot be looked at.
 */
static int
mount_of(const char *dir, struct mnt *m)
{
	char p[PATH_MAX], real[PATH_MAX], *line = NULL;
	const char *mi = kpath(p, sizeof(p), "/proc/self/mountinfo");
	struct mnt cur;
	struct stat st;
	size_t cap = 0, best = 0, n;
	unsigned maj, mnr;
	int found = 0;
	FILE *fp;

	if (stat(dir, &st) == -1 || realpath(dir, real) == NULL)
		return -1;
	if (mi == NULL) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if ((fp = fopen(mi, "r")) == NULL)
		return -1;
	while (found != 2 && getline(&line, &cap, fp) != -1) {
		if (mount_line(line, &cur, &maj, &mnr) == -1)
			continue;
		n = strlen(cur.point);
		if (maj == major(st.st_dev) && mnr == minor(st.st_dev)) {
			*m = cur;
			found = 2;
		} else if (strncmp(real, cur.point, n) == 0 && n >= best &&
		    (real[n] == '/' || real[n] == '\0' || n == 1)) {
			*m = cur;
			best = n;
			found = 1;
		}
	}
	free(line);
	fclose(fp);
	return !found;
}

#define HUGEDIR		"/run/shmids"

/*
 * Will a file segment of 2 MiB or more in dir get 2 MiB pages
 * (format-spec.md 2.5, Page size)?  1 yes, 0 no, with why; -1 where
 * dir cannot be looked at.
 */
static int
dir_pages(const char *dir, char *why, size_t len)
{
	char mode[32];
	struct mnt m;
	int r;

	if ((r = mount_of(dir, &m)) != 0) {
		snprintf(why, len, "%s", r == 1 ? "in no mount of "
		    "/proc/self/mountinfo" : strerror(errno));
		return -1;
	}
	thp_mode(mode, sizeof(mode));
	if (strcmp(m.fstype, "tmpfs") != 0) {
		snprintf(why, len, "%s", m.fstype);
		return 0;
	}
	if (strcmp(mode, "deny") == 0 || strcmp(mode, "force") == 0) {
		snprintf(why, len, "shmem THP %s, whatever tmpfs says", mode);
		return mode[0] == 'f';
	}
	if (m.huge[0] == '\0' || strcmp(m.huge, "never") == 0)
		snprintf(why, len, "tmpfs without huge=");
	else if (strcmp(m.huge, "advise") == 0)
		snprintf(why, len, "tmpfs huge=advise: a file segment is "
		    "allocated before any advice");
	else
		snprintf(why, len, "tmpfs huge=%s", m.huge);
	return strcmp(m.huge, "always") == 0 ||
	    strcmp(m.huge, "within_size") == 0;
}

static void
hugedir_hint(int fpr)
{
	printf("hint: for file segments in 2 MiB pages, as root,\n"
	    "  'systemctl enable --now run-shmids.mount' (make install-systemd)"
	    " or\n  'mkdir -p " HUGEDIR " &&\n"
	    "   mount -t tmpfs -o huge=within_size,mode=1777 tmpfs " HUGEDIR
	    "';\n"
	    "  then 'export SHMIDS_DIR=" HUGEDIR "' "
	    "(shmids(5) HUGE PAGES)%s\n", fpr ? ";\n  with free page "
	    "reporting (idle memory given back to the host), a writer\n"
	    "  after an idle spell pays again for the pages it touches" :
	    "");
}

/*
 * A "hint:" line of text s, its words wrapped at 72 columns with the
 * lines after the first indented, as the other hints are; never inside
 * a word's single quotes, so that a command to paste stays on one line.
 */
static void
hint_wrapped(const char *s)
{
	size_t col = 5, n;
	int quoted = 0;

	fputs("hint:", stdout);
	while (*s != '\0') {
		/* a quote opens a word, or goes on after an escaped one */
		for (n = 0; s[n] != '\0' && (quoted || s[n] != ' '); n++) {
			if (quoted)
				quoted = s[n] != '\'';
			else if (s[n] == '\\' && s[n + 1] != '\0')
				n++;
			else if (s[n] == '\'' && (n == 0 || (n >= 2 &&
			    s[n - 2] == '\\' && s[n - 1] == '\'')))
				quoted = 1;
		}
		if (col > 5 && col + 1 + n > 72) {
			fputs("\n ", stdout);
			col = 1;
		}
		printf(" %.*s", (int)n, s);
		col += 1 + n;
		s += n;
		s += strspn(s, " ");
	}
	putchar('\n');
}

/*
 * SHMIDS_DIR that no file segment can be made in or listed from: the
 * system's word for why its pages cannot be told ("? (reason)"), then
 * what is wrong with it and what to do, in the library's words
 * (msg_dir_hint(), the tools' on one line).  Returns 1 if it said so,
 * else 0.
 */
static int
dir_hint(const char *dir)
{
	char path[PATH_MAX];
	const char *hint;
	int e;

	/* "dir/.": ENOTDIR for a file, EACCES for a closed directory */
	if ((size_t)snprintf(path, sizeof(path), "%s/.", dir) >= sizeof(path))
		return 0;
	e = access(path, R_OK | X_OK) == -1 ? errno : 0;
	if (e == 0 || (hint = msg_dir_hint(e)) == NULL)
		return 0;
	printf("? (%s)\n", strerror(e));
	hint_wrapped(hint);
	return 1;
}

/* The second backend needs no administrator: only a directory. */
static void
filesetting(void)
{
	const char *dir = shmids_dir();
	char why[256];
	int fpr = page_reporting(), r;

	printf("%-24s %s\n", "free page reporting", fpr ?
	    "on (virtio balloon: idle memory goes back to the host)" : "off");
	if (dir == NULL) {
		printf("%-24s unset (System V segments)\n", "SHMIDS_DIR");
		if (dir_pages(HUGEDIR, why, sizeof(why)) == 1)
			printf("hint: " HUGEDIR " is a %s: 'export SHMIDS_DIR="
			    HUGEDIR "'\n  gives file segments in 2 MiB pages\n",
			    why);
		else
			hugedir_hint(fpr);
		return;
	}
	printf("%-24s %s (file segments)\n", "SHMIDS_DIR", dir);
	printf(PAGES_FMT, "SHMIDS_DIR pages");
	if (dir_hint(dir))
		return;
	if ((r = dir_pages(dir, why, sizeof(why))) == 1)
		printf("2 MiB where memory allows (%s)\n", why);
	else if (r == 0 && strncmp(why, "tmpfs", 5) != 0 &&
	    strncmp(why, "shmem", 5) != 0)
		printf("as %s's page cache decides (large folios, or 4 KiB)\n",
		    why);
	else
		printf("%s (%s)\n", r == 0 ? "4 KiB" : "?", why);
	if (r == 0)
		hugedir_hint(fpr);
}

static void
setting(const char *name, const char *path, const char *unit)
{
	char buf[64];

	if (*kreadline(path, buf, sizeof(buf)) == '\0')
		printf("%-24s ?\n", name);
	else
		printf("%-24s %s%s\n", name, buf, unit);
}

void
syscheck_report(void)
{
	char thp[128];
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
	kreadline(THP, thp, sizeof(thp));
	printf("%-24s %s\n", "shmem THP", *thp ? thp : "?");
	sysv_pages();
	filesetting();
}
