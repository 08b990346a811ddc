/*
 * shm-ls: list segments like ls -l.  Times come from the kernel's table,
 * read before any attach; each of our segments is attached once,
 * read-only.  A scan never attaches other programs' segments; an
 * operand is judged by its header, as a reader judges it.
 */
#include <err.h>
#include <errno.h>
#include <fnmatch.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "syscheck.h"
#include "util.h"

static int	 aflag, pflag;
static const char *pattern;
static int	 uflag;
static uid_t	 uid;
static time_t	 now;
static int	 rval;

static void
usage(FILE *fp, int status)
{
	fprintf(fp, "usage: shm-ls [-aps] [-n pattern] [-u user] "
	    "[label | id ...]\n");
	exit(status);
}

static const char *
state_word(const struct shmids_info *si)
{
	if (si->ours == 0)
		return "-";
	if (si->ours < 0)
		return "?";
	if (si->ours == 2)
		return "broken";
	return si->state == 'r' ? "ready" : si->state == 'w' ? "filling" :
	    "dead";
}

static void
modestr(unsigned mode, char *s)
{
	static const char rwx[] = "rwxrwxrwx";
	int i;

	s[0] = '-';
	for (i = 0; i < 9; i++)
		s[i + 1] = (mode & (0400u >> i)) ? rwx[i] : '-';
	s[10] = '\0';
}

/*
 * ls(1)'s rule: the time within six months, else the year.  localtime_r
 * after main's tzset(): glibc's localtime() stats the zone file at
 * every call, twice per segment listed.
 */
static void
datestr(time_t t, char *buf, size_t len)
{
	struct tm tmb, *tm;

	if (t == 0 || (tm = localtime_r(&t, &tmb)) == NULL) {
		snprintf(buf, len, "%-12s", "-");
		return;
	}
	if (t > now - 182 * 86400 && t < now + 182 * 86400)
		strftime(buf, len, "%b %e %H:%M", tm);
	else
		strftime(buf, len, "%b %e  %Y", tm);
}

static const char *
group(gid_t g)
{
	static char buf[24];
	static gid_t last = (gid_t)-1;
	struct group *gr;

	if (g == last)
		return buf;
	last = g;
	if ((gr = getgrgid(g)) != NULL)
		snprintf(buf, sizeof(buf), "%s", gr->gr_name);
	else
		snprintf(buf, sizeof(buf), "%lu", (unsigned long)g);
	return buf;
}

static void
print_parsable(const struct shmids_info *si)
{
	char key[16] = "-", cpid[24] = "-", lpid[24] = "-", dtime[24] = "-";

	if (si->shmid >= 0) {	/* a file segment has none of these */
		snprintf(key, sizeof(key), "0x%08x", (unsigned)si->key);
		snprintf(cpid, sizeof(cpid), "%ld", (long)si->cpid);
		snprintf(lpid, sizeof(lpid), "%ld", (long)si->lpid);
		snprintf(dtime, sizeof(dtime), "%lld", (long long)si->dtime);
	}
	printf("%s\t%s\t%04o\t%lu\t%lu\t%zu\t%lu\t%s\t%s\t%lld\t%lld\t"
	    "%s\t",
	    si->id, key, si->mode, (unsigned long)si->uid,
	    (unsigned long)si->gid, si->size, si->nattch, cpid, lpid,
	    (long long)si->ctime, (long long)si->atime, dtime);
	if (si->ours == 1)
		printf("%s\t%zu\t%s\t%s\n", shmids_type_name(si->type),
		    si->count, state_word(si), si->label);
	else if (si->ours == 2)
		printf("-\t-\t%s\t-\n", state_word(si));
	else
		printf("%s\t%s\t%s\t%s\n", state_word(si), state_word(si),
		    state_word(si), si->label[0] ? si->label : "-");
}

static void
print_long(const struct shmids_info *si)
{
	char mode[11], made[32], used[32], count[24];
	const char *type = si->ours == 1 ? shmids_type_name(si->type) :
	    si->ours < 0 ? "?" : "-";

	modestr(si->mode, mode);
	datestr(si->ctime, made, sizeof(made));
	datestr(si->atime > si->dtime ? si->atime : si->dtime, used,
	    sizeof(used));
	if (si->ours == 1)
		snprintf(count, sizeof(count), "%zu", si->count);
	else
		snprintf(count, sizeof(count), "%s", type);
	printf("%s %3lu %-8s %-8s %12zu %-3s %10s %-7s %s %s %s\n", mode,
	    si->nattch, util_username(si->uid), group(si->gid), si->size, type, count,
	    state_word(si), made, used, si->label[0] ? si->label : si->id);
}

static int
show(const struct shmids_info *si, void *arg)
{
	(void)arg;
	if (si->ours == -2) {
		util_store_error(si);
		rval = 1;
		return 0;
	}
	if (uflag && si->uid != uid)
		return 0;
	/* Listed with "?", but not without a word: it may be one sought. */
	if (util_unreadable(si) != NULL) {
		warnx("%s: %s", si->id, util_unreadable(si));
		rval = 1;
	}
	if (pattern != NULL && (si->name == NULL ||
	    fnmatch(pattern, si->name, 0) != 0))
		return 0;
	if (pflag)
		print_parsable(si);
	else
		print_long(si);
	return 0;
}

static void
show_operand(const char *arg)
{
	struct shmids_info si;
	char id[SHMIDS_LABEL_MAX + 1], label[SHMIDS_LABEL_MAX + 1];
	int k;

	if ((k = util_operand(arg, id, label)) == -1) {
		warnx("%s: not a label or id", util_quote(arg, strlen(arg)));
		rval = 1;
		return;
	}
	if (shmids_stat(id, &si, 0) == -1) {
		warn("%s", arg);
		rval = 1;
		return;
	}
	/* An unreadable segment cannot be checked: listed with "?". */
	if (k == 1 && util_stale(&si, label)) {
		errno = ESTALE;
		warn("%s", arg);
		rval = 1;
		return;
	}
	show(&si, NULL);
}

static void
set_user(const char *arg)
{
	uflag = 1;
	if (util_user(arg, &uid) == -1)
		util_invalid("user", arg, "a login name or numeric user ID");
}

int
main(int argc, char *argv[])
{
	const char *opts = "ahn:psu:";
	int ch, i;

	util_args(argc, argv, "shm-ls", opts, usage);
	while ((ch = getopt(argc, argv, opts)) != -1)
		switch (ch) {
		case 'a':
			aflag = 1;
			break;
		case 'h':
			usage(stdout, 0);
			break;
		case 'n':
			pattern = optarg;
			break;
		case 'p':
			pflag = 1;
			break;
		case 's':
			syscheck_report();
			return util_close_stdout() == -1;
		case 'u':
			set_user(optarg);
			break;
		default:
			usage(stderr, 2);
		}
	argc -= optind;
	argv += optind;
	now = time(NULL);
	tzset();
	if (argc == 0 && shmids_scan(show, NULL, aflag ? SHMIDS_ALL : 0) == -1)
		err(1, "segment table");
	for (i = 0; i < argc; i++)
		show_operand(argv[i]);
	if (util_close_stdout() == -1)
		rval = 1;
	return rval;
}
