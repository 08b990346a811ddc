/*
 * shm-rm: remove segments by label or id, or clean stale ones the way
 * a /tmp cleaner does.  Only our segments, and only the caller's, unless
 * -f names one explicitly or root asks for other users' (-u, -U); never
 * an attached one by age.
 */
#include <err.h>
#include <fnmatch.h>
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "shmids.h"
#include "msg.h"
#include "operand.h"
#include "opts.h"
#include "user.h"

#define AGE_FORM	"a number and a unit: 30s, 90m, 24h or 7d"
#define DEAD		OPT_LONG	/* --dead: no letter */

static int	 fflag, nflag, vflag;
static int	 deadflag;	/* --dead: only segments whose writer died */
static const char *pattern;	/* -N: only names matching */
static int	 allflag;	/* -U: every user's stale segments */
static const char *user;	/* -u's argument, for messages */
static uid_t	 owner;		/* whose stale segments -s cleans */
static time_t	 minage, now;
static int	 rval;

static const struct opt opts[] = {
	{ 'f', "force", NULL,
	    "others' segments too; one not there is no error" },
	{ 'h', "help", NULL, "print this help and exit" },
	{ 'N', "name", "pattern",
	    "with -s: only names matching pattern (fnmatch)" },
	{ 'n', "dry-run", NULL, "print what would be removed, remove nothing" },
	{ 's', "stale", "age",
	    "remove stale segments made age ago (30s, 24h, 7d)" },
	{ 'u', "user", "user", "with -s: that user's segments (root only)" },
	{ 'U', "all-users", NULL,
	    "with -s: every user's segments (root only)" },
	{ 'v', "verbose", NULL, "print a line for each removed (owner, age)" },
	{ DEAD, "dead", NULL,
	    "remove crashed writers' segments, of any age" },
	{ OPT_VERSION, "version", NULL, "print the version and exit" },
	{ 0, NULL, NULL, NULL }
};

static void
usage(FILE *fp, int status)
{
	fprintf(fp, "usage: shm-rm [-fnUv] [--dead] [-N pattern] [-s age] "
	    "[-u user] [label | id ...]\n");
	opts_usage_end(fp, status);
}

/*
 * An age for people: the two largest units, as "8d 3h", "3h 0m",
 * "5m 2s" or "42s".  A creation time in the future is "0s".
 */
static const char *
age(time_t t)
{
	static const struct { long secs; char unit; } u[] = {
		{ 86400, 'd' }, { 3600, 'h' }, { 60, 'm' }, { 1, 's' }
	};
	static char buf[48];
	long secs = t > 0 ? (long)t : 0;
	size_t i;

	for (i = 0; i < 3 && secs < u[i].secs; i++)
		;
	if (i == 3)
		snprintf(buf, sizeof(buf), "%lds", secs);
	else
		snprintf(buf, sizeof(buf), "%ld%c %ld%c", secs / u[i].secs,
		    u[i].unit, secs % u[i].secs / u[i + 1].secs, u[i + 1].unit);
	return buf;
}

/*
 * What -n and -v print for a segment removed (or, with -n, that would
 * be): -n alone the bare label, for scripts; -v one line for a log or
 * the journal, "removed 'label' (owner alice, age 8d 3h)", the owner
 * and age where the segment was looked at (si), as format-spec.md 7.
 */
static void
tell(const char *what, const struct shmids_info *si)
{
	if (!vflag) {
		printf("%s\n", what);
		return;
	}
	printf("%s '%s'", nflag ? "would remove" : "removed", what);
	if (si != NULL)
		printf(" (owner %s, age %s)", user_name(si->uid),
		    age(now - si->ctime));
	putchar('\n');
}

/*
 * -f as rm -f: what is not there (ENOENT) is what was wanted, silently;
 * any other failure (another segment under that shmid, no permission) is
 * reported.
 */
static void
forced_failed(const char *what)
{
	if (errno == ENOENT)
		return;
	warnx("%s: %s", what, msg_why(what, errno));
	rval = 1;
}

/* -f with a label: the library checks the label, the kernel the rest. */
static void
rm_label(const char *label)
{
	if (nflag) {
		tell(label, NULL);
		return;
	}
	if (shmids_remove(label) == -1) {
		forced_failed(label);
		return;
	}
	if (vflag)
		tell(label, NULL);
}

/*
 * Remove (or, with -n, name) a segment whose header the scan or stat has
 * read: no second attach.  A segment gone, attached or replaced
 * meanwhile is reported only when it was named (quiet is set for -s).
 */
static void
rm_info(const struct shmids_info *si, int flags, int quiet)
{
	/* Residue has no label: its id names it. */
	const char *what = si->label[0] != '\0' ? si->label : si->id;

	if (nflag) {
		tell(what, si);
		return;
	}
	if (shmids_remove_info(si, flags) == -1) {
		if (!quiet || (errno != ENOENT && errno != EBUSY &&
		    errno != ESTALE)) {
			warnx("%s: %s", what, msg_why(what, errno));
			rval = 1;
		}
		return;
	}
	if (vflag)
		tell(what, si);
}

/*
 * -f with a bare id: whatever the segment is, the system decides (for a
 * path, the directory's permissions; the grammar allows only shmids.*).
 */
static void
rm_forced(const char *arg)
{
	if (nflag) {
		tell(arg, NULL);
		return;
	}
	if (shmids_remove_id(arg) == -1) {
		forced_failed(arg);
		return;
	}
	if (vflag)
		tell(arg, NULL);
}

/*
 * Another user's segment: the kernel may let us remove it (root, its
 * creator), but shm-rm takes only the caller's unless told (-f).
 */
static const char *
not_yours(const struct shmids_info *si)
{
	static char buf[1200];
	const char *who;

	if (geteuid() != 0 && geteuid() != si->cuid)
		return msg_why(si->id, EPERM);
	/* user_name() gives the number where there is no account. */
	who = user_name(si->uid);
	if (getpwuid(si->uid) != NULL)
		snprintf(buf, sizeof(buf), "segment %.64s is %s's, not "
		    "yours: -f removes it all the same", si->id, who);
	else
		snprintf(buf, sizeof(buf), "segment %.64s is uid %lu's, not "
		    "yours: -f removes it all the same", si->id,
		    (unsigned long)si->uid);
	return buf;
}

/* Why we refuse to remove si, whoever owns it, or NULL if it may go. */
static const char *
notours(const struct shmids_info *si)
{
	const char *why;

	if (si->removed)
		return msg_why(si->id, ENOENT);
	if ((why = operand_unreadable(si)) != NULL)
		return why;
	if (si->ours == 0 || (si->ours != 2 && si->label[0] == '\0'))
		return si->err == EACCES ? msg_why(si->id, EACCES) :
		    "not a shmids segment";
	return NULL;
}

/*
 * A segment the caller may not read (listed with '?'): whether it may
 * be removed is the question, not whether it may be read.  Another
 * user's goes only by its owner, its creator or root; the caller's own
 * (mode 000, a cleaner killed at its mode-0 moment) cannot be told for a
 * shmids segment, and -f removes it by its id (format-spec.md 7).
 */
static const char *
unreadable(const struct shmids_info *si)
{
	static char buf[SHMIDS_LABEL_MAX * 2 + 160];
	uid_t me = geteuid();

	if (si->removed || si->ours != -1 || si->err != EACCES ||
	    si->label[0] != '\0')
		return NULL;
	if (me != 0 && me != si->uid && me != si->cuid)
		return msg_why(si->id, EPERM);
	snprintf(buf, sizeof(buf), "segment %s cannot be read by you (mode "
	    "%03o), so it cannot be told for a shmids segment: shm-rm -f %s "
	    "removes it", si->id, si->mode, msg_shword(si->id));
	return buf;
}

/* An operand goes only if it is the caller's too. */
static const char *
refuse(const struct shmids_info *si)
{
	const char *why;

	if ((why = unreadable(si)) != NULL || (why = notours(si)) != NULL)
		return why;
	if (si->uid != geteuid())
		return not_yours(si);
	return NULL;
}

/* Is si's owner one whose stale segments -s cleans? */
static int
selected(const struct shmids_info *si)
{
	return allflag || si->uid == owner;
}

/*
 * Remove the segment arg names; prev is the operand before it, a bare
 * id, or NULL (format-spec.md 7, shm-rm: "shm-rm 0 coeff").  Return
 * what operand_parse() made of arg.
 */
static int
rm_operand(const char *arg, const char *prev)
{
	struct shmids_info si;
	struct shmids_dims d;
	char id[SHMIDS_LABEL_MAX + 1], label[SHMIDS_LABEL_MAX + 1];
	const char *why;
	int k;

	if ((k = operand_parse(arg, id, label)) == -1) {
		operand_bad(arg, "shm-rm", prev);
		rval = 1;
		return k;
	}
	if (fflag) {
		if (k == 1)
			rm_label(label);
		else
			rm_forced(arg);
		return k;
	}
	if (shmids_stat_dims(id, &si, &d, 0) == -1) {
		warnx("%s: %s", arg, msg_why(arg, errno));
		rval = 1;
	} else if (k == 1 && operand_stale(&si, label)) {
		warnx("%s: %s", arg, msg_why(arg, ESTALE));
		rval = 1;
	} else if ((why = refuse(&si)) != NULL) {
		warnx("%s: %s", arg, why);
		rval = 1;
	} else
		rm_info(&si, 0, 0);
	return k;
}

/*
 * -v's journal line for a name in SHMIDS_DIR that -s did not look at
 * (format-spec.md 7, files in a shared directory).
 */
static void
skipped(const struct shmids_info *si)
{
	if (si->err == EXDEV)
		printf("skipped '%s' (a mount point, not a segment)\n", si->id);
	else
		printf("skipped '%s' (cannot be looked at: %s)\n", si->id,
		    strerror(si->err));
}

/*
 * A stale segment: ours, of a selected owner (the caller's, -u's or, with
 * -U, anyone's), unattached, made minage ago.
 */
static int
rm_stale(const struct shmids_info *si, const struct shmids_dims *d,
    void *arg)
{
	(void)d;
	(void)arg;
	if (si->ours == -2) {
		operand_store_error(si);
		rval = 1;
		return 0;
	}
	/* A user's mount point on a name of ours is no failure of -s. */
	if (si->ours == -3) {
		skipped(si);
		return 0;
	}
	/* One of those asked for that cannot be judged is not skipped silently. */
	if (selected(si) && operand_unreadable(si) != NULL) {
		warnx("%s: %s", si->id, operand_unreadable(si));
		rval = 1;
		return 0;
	}
	if (!selected(si) || notours(si) != NULL || si->nattch != 0 ||
	    now - si->ctime < minage)
		return 0;
	/* --dead: a crashed writer's segment, whatever its age (2.2). */
	if (deadflag && si->state != 'd')
		return 0;
	/* Residue has no name: -N never matches it. */
	if (pattern != NULL && (si->name == NULL ||
	    fnmatch(pattern, si->name, 0) != 0))
		return 0;
	/* Another cleaner, or a new reader, may have been quicker. */
	rm_info(si, SHMIDS_IDLE, 1);
	return 0;
}

/* The combinations the SYNOPSIS cannot say. */
static void
check_args(int sflag, int nops)
{
	if (deadflag && nops > 0)
		opts_misuse("operands are not allowed with --dead");
	if (deadflag && fflag)
		opts_misuse("-f is not allowed with --dead");
	if (sflag && nops > 0)
		opts_misuse("operands are not allowed with -s");
	if (sflag && fflag)
		opts_misuse("-f is not allowed with -s");
	/* --dead cleans as -s does, by state instead of age */
	sflag |= deadflag;
	if (pattern != NULL && !sflag)
		opts_misuse("-N is not allowed without -s "
		    "(-s 0: of any age) or --dead");
	if (user != NULL && allflag)
		opts_misuse("-u is not allowed with -U");
	if (user != NULL && !sflag)
		opts_misuse("-u is not allowed without -s");
	if (allflag && !sflag)
		opts_misuse("-U is not allowed without -s");
	if (!sflag && nops == 0)
		opts_misuse("nothing to remove: give labels or ids, or -s age");
}

/*
 * Other users' segments need root.  The kernel's own rules differ by
 * store (CAP_IPC_OWNER for System V, the directory's sticky bit and
 * CAP_FOWNER for files) and would let a cleaner remove some of them and
 * not others; one rule, checked before anything is touched, says the
 * same for both: euid 0, or only the caller's own segments.
 */
static void
check_privilege(void)
{
	if (geteuid() == 0 || (!allflag && owner == geteuid()))
		return;
	if (allflag)
		errx(1, "-U: only root may clean other users' segments; "
		    "without -U, -s cleans your own");
	errx(1, "-u %s: only root may clean other users' segments; "
	    "without -u, -s cleans your own", msg_quote(user, strlen(user)));
}

int
main(int argc, char *argv[])
{
	int ch, sflag = 0, i, k;

	opts_args(argv, "shm-rm", opts, usage);
	while ((ch = opts_getopt(argc, argv)) != -1)
		switch (ch) {
		case 'f':
			fflag = 1;
			break;
		case 'h':
			usage(stdout, 0);
			break;
		case 'N':
			pattern = optarg;
			break;
		case 'n':
			nflag = 1;
			break;
		case 's':
			if (opts_age(optarg, &minage) == -1)
				opts_invalid("age", optarg, errno == ERANGE ?
				    AGE_FORM ", at most %lds" : AGE_FORM,
				    LONG_MAX);
			sflag = 1;
			break;
		case 'u':
			user = optarg;
			if (user_parse(optarg, &owner) == -1)
				user_bad(optarg);
			break;
		case 'U':
			allflag = 1;
			break;
		case 'v':
			vflag = 1;
			break;
		case DEAD:
			deadflag = 1;
			break;
		default:
			usage(stderr, 2);
		}
	argc -= optind;
	argv += optind;
	check_args(sflag, argc);
	if (user == NULL)
		owner = geteuid();
	check_privilege();
	now = time(NULL);
	if ((sflag || deadflag) && shmids_scan_dims(rm_stale, NULL,
	    vflag ? SHMIDS_SKIPPED : 0) == -1)
		err(1, "segment table");
	for (i = 0, k = -1; i < argc; i++)
		k = rm_operand(argv[i], k == 0 ? argv[i - 1] : NULL);
	if (msg_close_stdout() == -1)
		rval = 1;
	return rval;
}
