/*
 * Options by getopt_long(3), from one table per tool (opts.h).  glibc's
 * and musl's <getopt.h> declare it with no feature macro.  opterr is 0
 * and the messages are ours, in glibc's words, so that they do not
 * change with the libc.
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shmids.h"
#include "msg.h"
#include "opts.h"

#define NOPTS	40	/* options of a tool, --help and --version too */

static const char	*progname;
static const struct opt	*table;
static void		(*usagefn)(FILE *, int);
static const char	*helptail;	/* opts_help_tail() */
static struct option	 longopts[NOPTS + 1];
static char		 shortopts[2 * NOPTS + 2];

/*
 * Issue 12: one letter, one meaning across the tools.  A letter that
 * moved is not kept where it would now mean something else; the usage
 * error says where it went.
 */
static const struct {
	const char	*prog;
	char		 old, now;
	const char	*what;
} moved[] = {
	{ "shm-ls", 'n', 'N', "name pattern" },
	{ "shm-ls", 's', 'l', "limits and system report" },
	{ "shm-rm", 'm', 'N', "name pattern" },
	{ "shm-import", 'n', 'k', "minimum count" },
	{ "shm-import", 'p', 'P', "name prefix" },
};

void
opts_args(char *argv[], const char *prog, const struct opt *opts,
    void (*usage)(FILE *, int))
{
	char *s = shortopts;
	size_t i;

	progname = prog;
	table = opts;
	usagefn = usage;
	/* err(3) names the program by argv[0]: the name, not the path. */
	argv[0] = (char *)(uintptr_t)prog;
	*s++ = ':';	/* a missing argument is ':', told from '?' */
	for (i = 0; opts[i].name != NULL && i < NOPTS; i++) {
		longopts[i].name = opts[i].name;
		/* "[arg]": an argument of its own, --name=arg, or none */
		longopts[i].has_arg = opts[i].arg == NULL ? no_argument :
		    opts[i].arg[0] == '[' ? optional_argument :
		    required_argument;
		longopts[i].val = opts[i].letter;
		if (opts[i].letter >= OPT_LONG)
			continue;
		*s++ = (char)opts[i].letter;
		if (opts[i].arg != NULL)
			*s++ = ':';
	}
	*s = '\0';
}

static const struct opt *
find(int letter)
{
	const struct opt *o;

	for (o = table; o->name != NULL; o++)
		if (o->letter == letter)
			return o;
	return NULL;
}

static void
bad(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
	if (usagefn != NULL)
		usagefn(stderr, 2);
	exit(2);
}

static void
moved_letter(int c)
{
	size_t i;

	for (i = 0; i < sizeof(moved) / sizeof(moved[0]); i++)
		if (moved[i].old == c && strcmp(moved[i].prog, progname) == 0)
			bad("-%c is now -%c (%s)", c, moved[i].now,
			    moved[i].what);
}

/* A long option that is none of ours, or the start of several. */
static void
unknown_long(const char *arg)
{
	const struct opt *o;
	size_t len = strcspn(arg + 2, "="), n = 0;
	char list[NOPTS * 24] = "";

	for (o = table; o->name != NULL; o++)
		if (strncmp(o->name, arg + 2, len) == 0 && len > 0) {
			n++;
			snprintf(list + strlen(list), sizeof(list) -
			    strlen(list), " '--%s'", o->name);
		}
	if (n > 1)
		bad("option '%s' is ambiguous; possibilities:%s",
		    msg_quote(arg, len + 2), list);
	bad("unrecognized option '%s'", msg_quote(arg, strlen(arg)));
}

/*
 * What getopt_long refused.  It has stepped over a long option, so
 * argv[optind - 1] is that option; a short one may be inside a cluster.
 */
static void
refused(int ch, char *argv[])
{
	const char *arg = argv[optind - 1];
	const struct opt *o = optopt != 0 ? find(optopt) : NULL;
	int islong = strncmp(arg, "--", 2) == 0;
	char c = (char)optopt;

	if (optopt == 0)
		unknown_long(arg);
	if (o != NULL && islong)
		bad(ch == ':' ? "option '--%s' requires an argument" :
		    "option '--%s' doesn't allow an argument", o->name);
	if (ch == ':')
		bad("option requires an argument -- '%s'", msg_quote(&c, 1));
	moved_letter(optopt);
	bad("invalid option -- '%s'", msg_quote(&c, 1));
}

/*
 * Options to spell out: an abbreviation of them would read as another
 * tool's option (shm-rm --all for --all-users, when shm-ls --all is
 * other programs' segments, not every user's).  They take no argument,
 * so argv[optind - 1] is what was typed.
 */
static const struct {
	const char	*name, *meaning;
} exact[] = {
	{ "all-users", "every user's segments" },
};

static void
check_exact(int li, char *argv[])
{
	const char *typed = argv[optind - 1] + 2, *name = table[li].name;
	size_t i;

	for (i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if (strcmp(name, exact[i].name) == 0 && strcmp(typed, name) != 0)
			bad("option '--%s' is short for '--%s' (%s): spell it "
			    "out", msg_quote(typed, strlen(typed)), name,
			    exact[i].meaning);
}

int
opts_getopt(int argc, char *argv[])
{
	int ch, li = -1;

	opterr = 0;
	ch = getopt_long(argc, argv, shortopts, longopts, &li);
	if (li >= 0)
		check_exact(li, argv);
	switch (ch) {
	case '?':
	case ':':
		refused(ch, argv);
		break;
	case OPT_VERSION:
		printf("%s (shmids) %s\n", progname, SHMIDS_VERSION);
		exit(msg_close_stdout() == -1);
	}
	return ch;
}

/* "  -a, --all" or "      --version", then "=arg" if it takes one. */
static int
print_opt(FILE *fp, const struct opt *o)
{
	if (o->letter < OPT_LONG)
		return fprintf(fp, "  -%c, --%s%s%s", o->letter, o->name,
		    o->arg ? "=" : "", o->arg ? o->arg : "");
	if (o->arg != NULL && o->arg[0] == '[')
		return fprintf(fp, "      --%s[=%s", o->name, o->arg + 1);
	return fprintf(fp, "      --%s%s%s", o->name, o->arg ? "=" : "",
	    o->arg ? o->arg : "");
}

void
opts_usage_end(FILE *fp, int status)
{
	const struct opt *o;
	int n;

	if (status == 0 && table != NULL) {
		fprintf(fp, "\noptions:\n");
		for (o = table; o->name != NULL; o++) {
			if ((n = print_opt(fp, o)) > 24)
				fprintf(fp, "\n%26s%s\n", "", o->help);
			else
				fprintf(fp, "%*s%s\n", 26 - n, "", o->help);
		}
		if (helptail != NULL)
			fprintf(fp, "\n%s\n", helptail);
	}
	if (fp == stdout && msg_close_stdout() == -1)
		exit(1);
	exit(status);
}

void
opts_help_tail(const char *text)
{
	helptail = text;
}

void
opts_misuse(const char *msg)
{
	bad("%s", msg);
}

void
opts_invalid(const char *what, const char *value, const char *form, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, form);
	vsnprintf(buf, sizeof(buf), form, ap);
	va_end(ap);
	bad("invalid %s '%s' (expected %s)", what,
	    msg_quote(value, strlen(value)), buf);
}

void
opts_threads_check(void)
{
	const char *e = getenv("SHMIDS_THREADS");

	if (shmids_threads() == -1)
		opts_invalid("SHMIDS_THREADS", e != NULL ? e : "",
		    "a number of threads from 1 to %d, or unset for every CPU",
		    SHMIDS_THREADS_MAX);
}

int
opts_ulong(const char *s, unsigned long max, unsigned long *out)
{
	unsigned long v;
	char *end;

	if (*s < '0' || *s > '9')
		goto bad;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*end != '\0')
		goto bad;
	if (errno != 0 || v > max) {
		errno = ERANGE;
		return -1;
	}
	*out = v;
	return 0;
bad:
	errno = EINVAL;
	return -1;
}

/*
 * A bare number is refused: tmpreaper's habit (hours) or find's (days)
 * read as seconds would clean nearly everything (issue 19).  0 is the
 * same in every unit and needs none.
 */
int
opts_age(const char *s, time_t *secs)
{
	static const struct {
		char		 unit;
		unsigned long	 mul;
	} units[] = { { 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 } };
	char buf[32];
	unsigned long v, mul = 0;
	size_t n = strlen(s), i;

	if (n == 0 || n >= sizeof(buf)) {
		i = strspn(s, "0123456789");
		errno = i > 0 && i == n - 1 && strchr("smhd", s[i]) != NULL ?
		    ERANGE : EINVAL;
		return -1;
	}
	memcpy(buf, s, n + 1);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (buf[n - 1] == units[i].unit) {
			mul = units[i].mul;
			buf[--n] = '\0';
			break;
		}
	if (mul == 0) {
		if (strcmp(buf, "0") != 0) {
			errno = EINVAL;
			return -1;
		}
		mul = 1;
	}
	if (opts_ulong(buf, LONG_MAX / mul, &v) == -1)
		return -1;
	*secs = (time_t)(v * mul);
	return 0;
}

int
opts_mode(const char *s, int *mode)
{
	unsigned long v;
	char *end;

	if (*s < '0' || *s > '7')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 8);
	if (errno != 0 || *end != '\0' || v > 0777)
		return -1;
	*mode = (int)v;
	return 0;
}
