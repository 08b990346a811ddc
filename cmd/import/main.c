/*
 * shm-import: the other direction of shm-expand.  Inline arrays and
 * table blocks become segments and their lines reference lines; every
 * other line passes through unchanged.  If the output cannot be written
 * in full, every segment this run made is removed again.
 *
 * main() reads the options (conf.h), then reads each file (read.h) into
 * the sink of segments, or of streams with --stream (sink.h), the notes
 * (notes.h) listening, and says
 * at the end what the sink and the notes have to say.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "shmids.h"
#include "conf.h"
#include "filter.h"
#include "notes.h"
#include "opts.h"
#include "read.h"
#include "run.h"
#include "sink.h"
#include "syscheck.h"

#define OPT_STREAM	OPT_LONG

static const struct opt opts[] = {
	{ 'f', "fields", "fields",
	    "only these fields' arrays (as cut -f: a,b)" },
	{ 'h', "help", NULL, "print this help and exit" },
	{ 'k', "min-count", "min",
	    "arrays of min values or more (default 64)" },
	{ 'm', "mode", "mode",
	    "the segments' octal permissions (default 0600)" },
	{ 'P', "prefix", "prefix", "names are prefix and the field" },
	{ OPT_STREAM, "stream", "[slots]",
	    "a stream a field, its arrays messages (16 slots)" },
	{ 't', "type", "[field=]type",
	    "f64, f32, i64, i32 or raw (default f64)" },
	{ OPT_VERSION, "version", NULL, "print the version and exit" },
	{ 0, NULL, NULL, NULL }
};

/* The reader, for filter_each_file()'s function, which takes no more. */
static struct reader rd;

static void
usage(FILE *fp, int status)
{
	/* two lines, as BSD's usages: an 80-column terminal */
	fprintf(fp, "usage: shm-import [-f fields] [-k min] [-m mode] "
	    "[-P prefix]\n"
	    "                  [-t [field=]type] [--stream[=slots]] "
	    "[file ...]\n");
	opts_usage_end(fp, status);
}

/* A prefix that no field can complete into a name is a usage error. */
static void
check_prefix(const char *p)
{
	size_t n = strlen(p);

	if (n > 0 && (n >= SHMIDS_NAME_MAX || shmids_name_check(p, n) == -1))
		opts_invalid("prefix", p, "at most %d printable ASCII "
		    "characters other than space", SHMIDS_NAME_MAX - 1);
}

static void
option(struct conf *c, int ch, char *arg)
{
	unsigned long v;

	switch (ch) {
	case 'f':
		c->fields = arg;
		filter_fields(&c->want, arg);
		filter_fields_check(&c->want, 0);
		break;
	case 'h':
		usage(stdout, 0);
		break;
	case 'm':
		if (opts_mode(arg, &c->mode) == -1)
			opts_invalid("mode", arg, "octal 0 to 0777");
		break;
	case 'k':
		if (opts_ulong(arg, ULONG_MAX, &c->minvals) == -1)
			opts_invalid("count", arg, "0 or more values");
		break;
	case 'P':
		c->prefix = arg;
		check_prefix(arg);
		break;
	case 't':
		conf_add_type(c, arg);
		break;
	case OPT_STREAM:
		c->slots = CONF_SLOTS;
		if (arg != NULL && (opts_ulong(arg, 1UL << 24, &v) == -1 ||
		    v == 0))
			opts_invalid("slots", arg, "1 to 16777216 slots");
		if (arg != NULL)
			c->slots = v;
		break;
	default:
		usage(stderr, 2);
	}
}

static void
import_file(FILE *fp, const char *fname)
{
	read_file(&rd, fp, fname);
}

static void
undo(void *arg)
{
	struct sink *k = arg;

	k->undo(k);
}

int
main(int argc, char *argv[])
{
	static struct conf c;
	struct notes_conf nc;
	struct sink *k;
	int ch, failed;

	conf_init(&c);
	opts_args(argv, "shm-import", opts, usage);
	while ((ch = opts_getopt(argc, argv)) != -1)
		option(&c, ch, optarg);
	argc -= optind;
	argv += optind;
	opts_threads_check();
	c.nthreads = shmids_threads();
	syscheck_warn();
	k = c.slots > 0 ? sink_streams(c.mode, c.prefix, c.slots) :
	    sink_segments(c.mode, c.prefix);
	run_init(undo, k);
	nc.minvals = c.minvals;
	nc.deftype = c.deftype;
	nc.fields = c.fields != NULL;
	notes_init(&nc);
	read_init(&rd, &c, k);
	failed = filter_each_file(argc, argv, import_file) != 0;
	run_check();
	failed |= k->close(k) | rd.failed;
	notes_end();
	if (c.fields != NULL && filter_fields_report(&c.want,
	    "no inline array has this field (a reference line already?)"))
		failed = 1;
	return run_end() == -1 || failed;
}
