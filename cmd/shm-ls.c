/*
 * shm-ls: list segments like ls -l, under a header row, or as -p lines
 * or JSON for programs.  Times come from the kernel's table, read before
 * any attach; each of our segments is attached once, read-only.  A scan
 * never attaches other programs' segments; an operand is judged by its
 * header, as a reader judges it.
 */
#include <err.h>
#include <errno.h>
#include <fnmatch.h>
#include <stddef.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fmt.h"
#include "syscheck.h"
#include "util.h"

static int	 aflag, Hflag, Jflag, pflag, Tflag;
static const char *pattern;
static int	 uflag;
static uid_t	 uid;
static time_t	 now;
static int	 rval;

/* The long format's rows, kept until all are read to size the columns. */
struct row {
	char		 owner[256], size[24], type[8], count[24];
	const char	*state;
	char		 made[16], used[16];
	char		 label[SHMIDS_LABEL_MAX + 1];
};
static struct row *rows;
static size_t	 nrows, rowcap;

/* For -T: as ipcs -m -u, what the listed segments add up to. */
static unsigned long long nsegs, nbytes, nattached;

static const struct opt opts[] = {
	{ 'a', "all", NULL, "other programs' segments too" },
	{ 'H', "human-readable", NULL,
	    "sizes for people: 1.5K, 8.0M (as ls -h)" },
	{ 'h', "help", NULL, "print this help and exit" },
	{ 'J', "json", NULL, "JSON listing (as lsipc -J)" },
	{ 'l', "limits", NULL,
	    "the kernel's limits and system report (ipcs -l)" },
	{ 'N', "name", "pattern", "only names matching pattern (fnmatch)" },
	{ 'p', "parsable", NULL,
	    "one tab-separated line a segment, all fields" },
	{ 'T', "total", NULL, "end with the totals (as ipcs -u)" },
	{ 'u', "user", "user", "only that user's segments" },
	{ OPT_VERSION, "version", NULL, "print the version and exit" },
	{ 0, NULL, NULL, NULL }
};

static void
usage(FILE *fp, int status)
{
	fprintf(fp, "usage: shm-ls [-aHJlpT] [-N pattern] [-u user] "
	    "[label | id ...]\n");
	util_usage_end(fp, status);
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
	static char buf[256];	/* a group name whole */
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

/*
 * The last attach or detach the kernel recorded before this listing
 * attached the segment: its own attach is not shown, an earlier
 * listing's is (shm-ls(1), "used").
 */
static time_t
used_time(const struct shmids_info *si)
{
	return si->atime > si->dtime ? si->atime : si->dtime;
}

static void
add_row(const struct shmids_info *si)
{
	struct row *r;
	void *n;

	if (nrows == rowcap) {
		rowcap = rowcap ? rowcap * 2 : 64;
		if ((n = realloc(rows, rowcap * sizeof(*rows))) == NULL)
			err(1, NULL);
		rows = n;
	}
	r = &rows[nrows++];
	snprintf(r->owner, sizeof(r->owner), "%s", util_username(si->uid));
	if (Hflag)
		fmt_human(si->size, r->size, sizeof(r->size));
	else
		snprintf(r->size, sizeof(r->size), "%zu", si->size);
	snprintf(r->type, sizeof(r->type), "%s", si->ours == 1 ?
	    shmids_type_name(si->type) : si->ours < 0 ? "?" : "-");
	if (si->ours == 1)
		snprintf(r->count, sizeof(r->count), "%zu", si->count);
	else
		snprintf(r->count, sizeof(r->count), "%s", r->type);
	r->state = state_word(si);
	datestr(si->ctime, r->made, sizeof(r->made));
	datestr(used_time(si), r->used, sizeof(r->used));
	snprintf(r->label, sizeof(r->label), "%s",
	    si->label[0] ? si->label : si->id);
}

static int
widest(size_t off, const char *head)
{
	size_t i, w = strlen(head), n;

	for (i = 0; i < nrows; i++)
		if ((n = strlen((const char *)&rows[i] + off)) > w)
			w = n;
	return (int)w;
}

/*
 * Columns as wide as their widest entry; the label last, unpadded, so
 * that it never wraps mid-date and is copied whole.
 */
static void
print_rows(void)
{
	int wo, ws, wt, wc, wst = 5;
	size_t i;

	if (nrows == 0)
		return;
	wo = widest(offsetof(struct row, owner), "OWNER");
	ws = widest(offsetof(struct row, size), "SIZE");
	wt = widest(offsetof(struct row, type), "TYPE");
	wc = widest(offsetof(struct row, count), "COUNT");
	for (i = 0; i < nrows; i++)
		if ((int)strlen(rows[i].state) > wst)
			wst = (int)strlen(rows[i].state);
	printf("%-*s %*s %-*s %*s %-*s %-12s %-12s %s\n", wo, "OWNER", ws,
	    "SIZE", wt, "TYPE", wc, "COUNT", wst, "STATE", "CREATED", "USED",
	    "LABEL");
	for (i = 0; i < nrows; i++)
		printf("%-*s %*s %-*s %*s %-*s %s %s %s\n", wo, rows[i].owner,
		    ws, rows[i].size, wt, rows[i].type, wc, rows[i].count, wst,
		    rows[i].state, rows[i].made, rows[i].used, rows[i].label);
}

static void
print_totals(void)
{
	char size[24];

	if (Hflag)
		fmt_human(nbytes, size, sizeof(size));
	else
		snprintf(size, sizeof(size), "%llu", nbytes);
	printf("total: %llu segment%s, %s%s, %llu attached\n", nsegs,
	    nsegs == 1 ? "" : "s", size, Hflag ? "" : " bytes", nattached);
}

static void
json_key(const char *key, const char *s)
{
	printf(", \"%s\": ", key);
	if (s == NULL)
		fputs("null", stdout);
	else
		fmt_json_str(stdout, s, strlen(s));
}

/* A time as epoch seconds and ISO 8601 in UTC; null for never (0). */
static void
json_time(const char *key, time_t t)
{
	char iso[32];

	if (t == 0) {
		printf(", \"%s\": null, \"%s_iso\": null", key, key);
		return;
	}
	fmt_iso(t, iso, sizeof(iso));
	printf(", \"%s\": %lld, \"%s_iso\": \"%s\"", key, (long long)t,
	    key, iso);
}

/* The JSON state: the -p word, but "foreign" and "unreadable" spelled. */
static const char *
json_state(const struct shmids_info *si)
{
	return si->ours == 0 ? "foreign" : si->ours < 0 ? "unreadable" :
	    state_word(si);
}

/* One object a line, as lsipc -J writes them; keys in shm-ls(1). */
static void
print_json(const struct shmids_info *si)
{
	char key[16];
	int sysv = si->shmid >= 0;

	printf("%s      {\"id\": ", nsegs > 1 ? ",\n" : "");
	fmt_json_str(stdout, si->id, strlen(si->id));
	json_key("label", si->label[0] ? si->label : NULL);
	json_key("name", si->ours == 1 ? si->name : NULL);
	if (sysv) {
		snprintf(key, sizeof(key), "0x%08x", (unsigned)si->key);
		printf(", \"shmid\": %d, \"key\": \"%s\"", si->shmid, key);
	} else
		fputs(", \"shmid\": null, \"key\": null", stdout);
	json_key("type", si->ours == 1 ? shmids_type_name(si->type) : NULL);
	if (si->ours == 1)
		printf(", \"count\": %zu", si->count);
	else
		fputs(", \"count\": null", stdout);
	json_key("state", json_state(si));
	json_key("owner", util_username(si->uid));
	printf(", \"uid\": %lu", (unsigned long)si->uid);
	json_key("group", group(si->gid));
	printf(", \"gid\": %lu, \"mode\": \"%04o\", \"nattch\": %lu, "
	    "\"size\": %zu", (unsigned long)si->gid, si->mode, si->nattch,
	    si->size);
	if (sysv)
		printf(", \"cpid\": %ld, \"lpid\": %ld", (long)si->cpid,
		    (long)si->lpid);
	else
		fputs(", \"cpid\": null, \"lpid\": null", stdout);
	json_time("created", si->ctime);
	json_time("used", used_time(si));
	json_time("attached", si->atime);
	json_time("detached", sysv ? si->dtime : 0);
	putchar('}');
}

static void
json_end(void)
{
	printf("%s   ]", nsegs > 0 ? "\n" : "");
	if (Tflag)
		printf(",\n   \"totals\": {\"segments\": %llu, \"bytes\": "
		    "%llu, \"attached\": %llu}", nsegs, nbytes, nattached);
	printf("\n}\n");
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
	nsegs++;
	nbytes += si->size;
	nattached += si->nattch;
	if (pflag)
		print_parsable(si);
	else if (Jflag)
		print_json(si);
	else
		add_row(si);
	return 0;
}

static void
show_operand(const char *arg)
{
	struct shmids_info si;
	char id[SHMIDS_LABEL_MAX + 1], label[SHMIDS_LABEL_MAX + 1];
	int k;

	if ((k = util_operand(arg, id, label)) == -1) {
		util_bad_operand(arg);
		rval = 1;
		return;
	}
	if (shmids_stat(id, &si, 0) == -1) {
		warnx("%s: %s", arg, util_why(arg, errno));
		rval = 1;
		return;
	}
	/* An unreadable segment cannot be checked: listed with "?". */
	if (k == 1 && util_stale(&si, label)) {
		warnx("%s: %s", arg, util_why(arg, ESTALE));
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

/* Formats that cannot go together are a usage error, not a choice. */
static void
check_flags(void)
{
	if (pflag && Jflag)
		util_misuse("-p and -J are two formats: give one");
	if (pflag && Tflag)
		util_misuse("-T has no -p form: use -J with -T, or sum the "
		    "-p lines");
}

int
main(int argc, char *argv[])
{
	int ch, i;

	util_args(argv, "shm-ls", opts, usage);
	while ((ch = util_getopt(argc, argv)) != -1)
		switch (ch) {
		case 'a':
			aflag = 1;
			break;
		case 'H':
			Hflag = 1;
			break;
		case 'h':
			usage(stdout, 0);
			break;
		case 'J':
			Jflag = 1;
			break;
		case 'l':
			syscheck_report();
			return util_close_stdout() == -1;
		case 'N':
			pattern = optarg;
			break;
		case 'p':
			pflag = 1;
			break;
		case 'T':
			Tflag = 1;
			break;
		case 'u':
			set_user(optarg);
			break;
		default:
			usage(stderr, 2);
		}
	argc -= optind;
	argv += optind;
	check_flags();
	now = time(NULL);
	tzset();
	if (Jflag)
		printf("{\n   \"segments\": [\n");
	if (argc == 0 && shmids_scan(show, NULL, aflag ? SHMIDS_ALL : 0) == -1)
		err(1, "segment table");
	for (i = 0; i < argc; i++)
		show_operand(argv[i]);
	if (Jflag)
		json_end();
	else if (!pflag) {
		print_rows();
		if (Tflag)
			print_totals();
	}
	if (util_close_stdout() == -1)
		rval = 1;
	return rval;
}
