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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fmt.h"
#include "lscol.h"
#include "lsstream.h"
#include "syscheck.h"
#include "msg.h"
#include "operand.h"
#include "opts.h"
#include "user.h"

/* --noheadings has no letter (-n is a 1.0 letter that moved). */
#define NOHEADINGS	OPT_LONG

static int	 aflag, bflag, Hflag, hflag, Jflag, lflag, nohead, pflag, Tflag;
/* the reasons of a "?" written in the long format (si->err) */
#define Q_PERM		0x1	/* EACCES: no read permission */
#define Q_CORRUPT	0x2	/* EBADMSG: a corrupt header */
#define Q_OTHER		0x4	/* another, said on stderr */
static int	 qmarks;
static const char *pattern, *olist;
static int	 uflag;
static uid_t	 uid;
static time_t	 now;
static int	 rval;
static struct lscols lc;

/*
 * The long format's cells, lc.n a row, kept until all are read to size
 * the columns.
 */
static char	(*cells)[LSCOL_CELL];
static size_t	 nrows, rowcap;

/* For -T: as ipcs -m -u, what the listed segments add up to. */
static unsigned long long nsegs, nbytes, nattached;

static const struct opt opts[] = {
	{ 'a', "all", NULL, "other programs' segments too" },
	{ 'b', "bytes", NULL, "sizes in bytes (as lsipc -b)" },
	{ 'H', "human-readable", NULL,
	    "sizes for people: 1.5K, 8.0M (the default)" },
	{ 'h', "help", NULL, "print this help and exit" },
	{ 'J', "json", NULL, "JSON listing (as lsipc -J)" },
	{ 'l', "limits", NULL,
	    "the kernel's limits and system report (ipcs -l)" },
	{ 'N', "name", "pattern", "only names matching pattern (fnmatch)" },
	{ NOHEADINGS, "noheadings", NULL, "no header row" },
	{ 'o', "output", "list",
	    "these columns, comma-separated; +list adds them" },
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
	fprintf(fp, "usage: shm-ls [-abHJlpT] [-N pattern] [-o list] "
	    "[-u user] [label | id ...]\n");
	opts_usage_end(fp, status);
}

/*
 * The 1.0 format, byte for byte: no shape (a table's count is rows x
 * cols); -J and -o shape give it.
 */
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
		    si->count, lscol_state(si), si->label);
	else if (si->ours == 2)
		printf("-\t-\t%s\t-\n", lscol_state(si));
	else
		printf("%s\t%s\t%s\t%s\n", lscol_state(si), lscol_state(si),
		    lscol_state(si), si->label[0] ? si->label : "-");
}

static void
add_row(const struct shmids_info *si, const struct shmids_dims *sh)
{
	size_t i;
	void *n;

	if (nrows == rowcap) {
		rowcap = rowcap ? rowcap * 2 : 64;
		if ((n = realloc(cells, rowcap * lc.n * sizeof(*cells))) ==
		    NULL)
			msg_nomem();
		cells = n;
	}
	for (i = 0; i < lc.n; i++) {
		lscol_cell(lc.v[i], si, sh, bflag, now,
		    cells[nrows * lc.n + i]);
		if (strcmp(cells[nrows * lc.n + i], "?") == 0)
			qmarks |= si->err == EACCES ? Q_PERM :
			    si->err == EBADMSG ? Q_CORRUPT : Q_OTHER;
	}
	nrows++;
}

/* s in a column w wide; the last column is not padded. */
static void
put_cell(const char *s, size_t w, int right, int last)
{
	size_t n = fmt_width(s);

	if (right)
		for (; n < w; n++)
			putchar(' ');
	fputs(s, stdout);
	if (!last)
		for (; n < w + 1; n++)
			putchar(' ');
	else
		putchar('\n');
}

/*
 * Columns as wide as their widest entry; the last unpadded, so that a
 * label there never wraps mid-date and is copied whole.
 */
static void
print_rows(void)
{
	size_t w[COL_N], i, j, n;

	if (nrows == 0)
		return;
	for (j = 0; j < lc.n; j++) {
		w[j] = nohead ? 0 : strlen(lscol_head(lc.v[j]));
		for (i = 0; i < nrows; i++)
			if ((n = fmt_width(cells[i * lc.n + j])) > w[j])
				w[j] = n;
	}
	for (j = 0; !nohead && j < lc.n; j++)
		put_cell(lscol_head(lc.v[j]), w[j], lscol_right(lc.v[j]),
		    j == lc.n - 1);
	for (i = 0; i < nrows; i++)
		for (j = 0; j < lc.n; j++)
			put_cell(cells[i * lc.n + j], w[j],
			    lscol_right(lc.v[j]), j == lc.n - 1);
}

static void
print_totals(void)
{
	char size[24];

	if (bflag)
		snprintf(size, sizeof(size), "%llu", nbytes);
	else
		fmt_human(nbytes, size, sizeof(size));
	printf("total: %llu segment%s, %s%s, %llu attached\n", nsegs,
	    nsegs == 1 ? "" : "s", size, bflag ? " bytes" : "", nattached);
}

/* One object a line, as lsipc -J writes them; keys in shm-ls(1). */
static void
print_json(const struct shmids_info *si, const struct shmids_dims *sh)
{
	size_t i;

	printf("%s      {", nsegs > 1 ? ",\n" : "");
	for (i = 0; i < lc.n; i++)
		lscol_json(lc.v[i], si, sh, i == 0);
	lsstream_json(si);
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
show(const struct shmids_info *si, const struct shmids_dims *sh, void *arg)
{
	(void)arg;
	if (si->ours == -2) {
		operand_store_error(si);
		rval = 1;
		return 0;
	}
	if (uflag && si->uid != uid)
		return 0;
	/* Listed with "?", but not without a word: it may be one sought. */
	if (operand_unreadable(si) != NULL) {
		warnx("%s: %s", si->id, operand_unreadable(si));
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
		print_json(si, sh);
	else {
		add_row(si, sh);
		lsstream_add(si);
	}
	return 0;
}

/*
 * Why a "?": only the reasons met, so that root, who may read every
 * segment, is not offered a permission it has (format-spec.md 7).
 */
static void
footnote(void)
{
	const char *sep = "?: ";

	if (qmarks & Q_PERM) {
		printf("%sno read permission (its owner or root lists it)", sep);
		sep = ", or ";
	}
	if (qmarks & Q_CORRUPT) {
		printf("%sa corrupt header", sep);
		sep = ", or ";
	}
	if (qmarks & Q_OTHER)
		printf("%sa header that could not be read", sep);
	printf("\n");
}

static void
show_operand(const char *arg)
{
	struct shmids_info si;
	struct shmids_dims sh;
	char id[SHMIDS_LABEL_MAX + 1], label[SHMIDS_LABEL_MAX + 1];
	int k;

	if ((k = operand_parse(arg, id, label)) == -1) {
		operand_bad(arg, "shm-ls", NULL);
		rval = 1;
		return;
	}
	if (shmids_stat_dims(id, &si, &sh, 0) == -1) {
		warnx("%s: %s", arg, msg_why(arg, errno));
		rval = 1;
		return;
	}
	/* An unreadable segment cannot be checked: listed with "?". */
	if (k == 1 && operand_stale(&si, label)) {
		warnx("%s: %s", arg, msg_why(arg, ESTALE));
		rval = 1;
		return;
	}
	show(&si, &sh, NULL);
}

static void
set_user(const char *arg)
{
	uflag = 1;
	if (user_parse(arg, &uid) == -1)
		user_bad(arg);
}

/*
 * Options that cannot go together are a usage error, not a choice: none
 * is ignored in silence.
 */
static void
check_flags(int argc)
{
	if (lflag && Jflag)
		opts_misuse("-l has no JSON form: give -l alone");
	if (lflag && (aflag || bflag || Hflag || nohead || pflag || Tflag ||
	    pattern != NULL || olist != NULL || uflag || argc > 0))
		opts_misuse("-l reports the system, not segments: give it "
		    "alone");
	if (pflag && Jflag)
		opts_misuse("-p and -J are two formats: give one");
	if (pflag && Tflag)
		opts_misuse("-T has no -p form: use -J with -T, or sum the "
		    "-p lines");
	if (pflag && olist != NULL)
		opts_misuse("-o does not change -p, the 1.0 format: use -o "
		    "with the long format or -J");
	if (bflag && Hflag)
		opts_misuse("-b and -H are two forms of size: give one");
	if ((pflag || Jflag) && (bflag || Hflag))
		opts_misuse(bflag ? "-b is for the long format: -p and -J "
		    "write bytes" : "-H is for the long format: -p and -J "
		    "write bytes");
	if ((pflag || Jflag) && nohead)
		opts_misuse("--noheadings is for the long format: -p and -J "
		    "have no header row");
}

/* --help's list of -o's columns, wrapped within 80 columns. */
static void
help_columns(char *buf, size_t len)
{
	const char *p = lscol_names(), *e;
	size_t n, col = 0, out = 0;

	out += (size_t)snprintf(buf, len, "columns for -o:");
	for (; *p != '\0'; p = *e ? e + 2 : e) {
		e = strchr(p, ',');
		e = e != NULL ? e : p + strlen(p);
		n = (size_t)(e - p) + (*e != '\0');
		if (col == 0 || col + n + 1 > 78)
			out += (size_t)snprintf(buf + out, len - out, "\n "),
			    col = 1;
		out += (size_t)snprintf(buf + out, len - out, " %.*s", (int)n,
		    p);
		col += n + 1;
	}
}

int
main(int argc, char *argv[])
{
	static char coltail[300];
	int ch, i;

	opts_args(argv, "shm-ls", opts, usage);
	help_columns(coltail, sizeof(coltail));
	opts_help_tail(coltail);
	while ((ch = opts_getopt(argc, argv)) != -1)
		switch (ch) {
		case 'a':
			aflag = 1;
			break;
		case 'b':
			bflag = 1;
			break;
		case 'H':
			Hflag = 1;
			break;
		case 'h':
			hflag = 1;
			break;
		case 'J':
			Jflag = 1;
			break;
		case 'l':
			lflag = 1;
			break;
		case 'N':
			pattern = optarg;
			break;
		case 'o':
			olist = optarg;
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
		case NOHEADINGS:
			nohead = 1;
			break;
		default:
			usage(stderr, 2);
		}
	argc -= optind;
	argv += optind;
	/*
	 * ls's -lh (issue 33): here -h is the help and -l the limits, and
	 * sizes are for people already.  Help asked for beside anything
	 * else is a usage error that says so, not the help and exit 0.
	 */
	if (hflag && (aflag || bflag || Hflag || Jflag || lflag || nohead ||
	    pflag || Tflag || pattern != NULL || olist != NULL || uflag ||
	    argc > 0))
		opts_misuse("-h is the help, alone: sizes are for people "
		    "(as ls -h) by default, -b writes bytes, and -l reports "
		    "the limits and the system, not a long listing");
	if (hflag)
		usage(stdout, 0);
	check_flags(argc);
	if (lflag) {
		syscheck_report();
		return msg_close_stdout() == -1;
	}
	if (olist != NULL)
		lscol_parse(&lc, olist, Jflag);
	else
		lscol_default(&lc, Jflag);
	now = time(NULL);
	tzset();
	if (Jflag)
		printf("{\n   \"segments\": [\n");
	if (argc == 0 &&
	    shmids_scan_dims(show, NULL, aflag ? SHMIDS_ALL : 0) == -1)
		err(1, "segment table");
	for (i = 0; i < argc; i++)
		show_operand(argv[i]);
	if (Jflag)
		json_end();
	else if (!pflag) {
		print_rows();
		lsstream_print(bflag, nohead);
		if (Tflag)
			print_totals();
		/*
		 * A person wonders what "?" means; a script reads rows and
		 * the total, and gets no line it does not know.
		 */
		if (qmarks && isatty(STDOUT_FILENO))
			footnote();
	}
	if (msg_close_stdout() == -1)
		rval = 1;
	return rval;
}
