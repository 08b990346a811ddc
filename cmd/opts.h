/*
 * The tools' options: one table per tool, which getopt_long(3) parses
 * and --help lists, so that the two cannot drift apart; the usage
 * errors (exit 2) that name what was wrong; and the parsing of the
 * options' arguments.
 */
#ifndef SHMIDS_OPTS_H
#define SHMIDS_OPTS_H

#include <stdio.h>
#include <time.h>

/*
 * One option.  letter is its short form, or, for an option with none,
 * a value from OPT_LONG up, which opts_getopt() returns for it as it
 * returns the letter of the others.  A table ends with a NULL name.
 */
struct opt {
	int		 letter;
	const char	*name;	/* the long form, without "--" */
	const char	*arg;	/* its argument's name, or NULL; "[name]"
				   an optional one (long options only) */
	const char	*help;	/* --help's line: 52 columns */
};
#define OPT_LONG	0x100
#define OPT_VERSION	0x1ff	/* opts_getopt() answers it */

/*
 * Before opts_getopt(): remember the tool's name, its table and its
 * usage(), which prints the usage line and ends with opts_usage_end().
 * argv[0] becomes prog, the name err(3) gives.
 */
void	 opts_args(char *argv[], const char *prog,
	    const struct opt *opts, void (*usage)(FILE *, int));
/*
 * getopt_long(3) over the table: the next option's letter (optarg set
 * as getopt's), or -1 after the last.  --version prints "prog (shmids)
 * VERSION" and exits 0 (1 if stdout could not be written).  An unknown
 * option, a missing or unwanted argument is a usage error: getopt's
 * words, then usage(stderr, 2); a letter of the tool's 1.0 spelling that
 * moved (issue 12: shm-ls -n and -s, shm-rm -m, shm-import -n and -p)
 * says where it went.  The words are the same with any libc.
 */
int	 opts_getopt(int argc, char *argv[]);
/*
 * The end of usage(fp, status): for --help (status 0) the table, one
 * option a line; then exit(status), or 1 when stdout could not be
 * written (a full disk is no success).
 */
void	 opts_usage_end(FILE *fp, int status);
/* Text --help prints after the options (shm-ls: the -o columns). */
void	 opts_help_tail(const char *text);
/*
 * A usage error naming the bad value: "invalid what 'value' (expected
 * form)", form printf-style with the arguments after it; then
 * usage(stderr, 2).  Needs opts_args() first.
 */
void	 opts_invalid(const char *what, const char *value, const char *form,
	    ...);
/* A usage error that no single value causes: message, then usage. */
void	 opts_misuse(const char *msg);
/*
 * For a tool that converts arrays: SHMIDS_THREADS, when set, must be
 * 1 to SHMIDS_THREADS_MAX (format-spec.md 6.2), else a usage error as
 * opts_invalid()'s.  After the options: --help still helps.
 */
void	 opts_threads_check(void);

/*
 * Option arguments, parsed with strtoul and an end pointer: trailing
 * junk, signs and overflow are errors.
 */

/*
 * "90s", "15m", "2h", "1d" (or "0") into seconds; -1 if malformed or
 * without a unit (EINVAL), or more than LONG_MAX seconds (ERANGE).
 */
int	 opts_age(const char *s, time_t *secs);
/* An octal mode 0..0777; -1 if malformed. */
int	 opts_mode(const char *s, int *mode);
/* A decimal number 0..max; -1 if malformed (EINVAL) or larger (ERANGE). */
int	 opts_ulong(const char *s, unsigned long max, unsigned long *out);

#endif /* SHMIDS_OPTS_H */
