/*
 * System settings that matter to segments meant to outlive their writer
 * (kernel.shm_rmid_forced, systemd-logind's RemoveIPC, and the daily
 * cleaner that removes them once stale) and to their speed (huge pages,
 * shmem transparent huge pages).  Linux paths; on other systems the
 * files are missing and nothing is said.
 */
#include <sys/stat.h>

#include <err.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shmids.h"
#include "syscheck.h"

#define SYS_UID_MAX	999	/* logind spares system users */

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

/* RemoveIPC= from one logind.conf file, or NULL if it is not set there. */
static const char *
removeipc_in(const char *path, char *val, size_t len)
{
	char line[256];
	const char *r = NULL;
	FILE *fp;

	if ((fp = fopen(path, "r")) == NULL)
		return NULL;
	while (fgets(line, sizeof(line), fp) != NULL)
		if (strncmp(line, "RemoveIPC=", 10) == 0) {
			size_t n = strcspn(line + 10, " \t\r\n");

			if (n >= len)
				n = len - 1;
			memcpy(val, line + 10, n);
			val[n] = '\0';
			r = val;
		}
	fclose(fp);
	return r;
}

/* The effective RemoveIPC (the compiled-in default is yes). */
static const char *
removeipc(char *val, size_t len)
{
	const char *r = "yes (default)";
	glob_t g;
	size_t i;

	if (removeipc_in("/etc/systemd/logind.conf", val, len) != NULL)
		r = val;
	if (glob("/etc/systemd/logind.conf.d/*.conf", 0, NULL, &g) == 0) {
		for (i = 0; i < g.gl_pathc; i++)
			if (removeipc_in(g.gl_pathv[i], val, len) != NULL)
				r = val;
		globfree(&g);
	}
	return r;
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
	char path[128];
	struct stat st;
	const char *dir = NULL;
	size_t i;
	int on;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && dir == NULL; i++) {
		snprintf(path, sizeof(path), "%s/%s", dirs[i], unit);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			dir = dirs[i];
	}
	snprintf(path, sizeof(path), "/etc/systemd/system/timers.target.wants/%s",
	    unit);
	on = lstat(path, &st) == 0;
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

static int
logind_running(void)
{
	return access("/run/systemd/seats", F_OK) == 0;
}

/*
 * File segments (SHMIDS_DIR) escape shm_rmid_forced; RemoveIPC takes
 * a user's files in /dev/shm as well as System V segments.
 */
void
syscheck_warn(void)
{
	const char *dir = shmids_dir();
	int files = dir != NULL;
	char buf[64];

	if (!files && strcmp(readline("/proc/sys/kernel/shm_rmid_forced",
	    buf, sizeof(buf)), "1") == 0)
		warnx("warning: kernel.shm_rmid_forced is 1: segments are "
		    "destroyed as soon as no process is attached");
	if ((!files || strncmp(dir, "/dev/shm", 8) == 0) &&
	    getuid() > SYS_UID_MAX && logind_running() &&
	    strncmp(removeipc(buf, sizeof(buf)), "no", 2) != 0)
		warnx("warning: systemd-logind RemoveIPC=yes: your segments "
		    "are destroyed when you log out");
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
	    "back-to-back hand-overs,\n  and huge pages pay always" : "");
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

	setting("kernel.shmmax", "/proc/sys/kernel/shmmax", " bytes");
	setting("kernel.shmall", "/proc/sys/kernel/shmall", " pages");
	setting("kernel.shmmni", "/proc/sys/kernel/shmmni", " segments");
	setting("kernel.shm_rmid_forced", "/proc/sys/kernel/shm_rmid_forced",
	    "");
	printf("%-24s %s%s\n", "logind RemoveIPC", removeipc(buf, sizeof(buf)),
	    logind_running() ? "" : " (logind not running)");
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
