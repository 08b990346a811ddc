/*
 * Small helpers the tools share: operand parsing, and the final check
 * that standard output was really written; options are in opts.h.
 */
#ifndef SHMIDS_UTIL_H
#define SHMIDS_UTIL_H

/*
 * What the tools say when memory runs out: under an address-space limit
 * (ulimit -v) that happens for short lines and small tables too, and
 * the limit is what to look at (issue 32).
 */
#define UTIL_NOMEM	"out of memory (address space limited? see ulimit -v)"

/* Says UTIL_NOMEM and exits 1. */
void	 util_nomem(void);

#include <sys/types.h>

#include <stdio.h>
#include <time.h>

#include "shmids.h"
#include "opts.h"

/*
 * A label or a bare id (shmid or path): 1 label, 0 id only, -1 neither.
 * id and label hold SHMIDS_LABEL_MAX + 1 bytes; the id is copied to id,
 * a label to label.
 */
int	 util_operand(const char *arg, char *id, char *label);

/*
 * Report an operand util_operand() refused; a lone word that could be
 * a segment name gets the way to its label (shm-ls -N).
 */
void	 util_bad_operand(const char *arg);
/* Does the label operand name another segment than si (ESTALE)? */
int	 util_stale(const struct shmids_info *si, const char *label);
/*
 * Why si's header could not be read, when it is not for want of
 * permission (listed as "?", format-spec.md 7) but a failure to report
 * (ENOMEM under an address-space limit, say); NULL otherwise.
 */
const char *util_unreadable(const struct shmids_info *si);
/* Report a store shmids_scan() could not read (si->ours -2). */
void	 util_store_error(const struct shmids_info *si);
/*
 * "90s", "15m", "2h", "1d" (or "0") into seconds; -1 if malformed or
 * without a unit (EINVAL), or more than LONG_MAX seconds (ERANGE).
 */
int	 util_age(const char *s, time_t *secs);
/*
 * A user as shm-ls -u and shm-rm -u take one: a login name, else a
 * numeric user ID (which needs no account); -1 if neither.
 */
int	 util_user(const char *s, uid_t *uid);
/* util_user() refused arg: a usage error (exit 2) saying what it takes. */
void	 util_bad_user(const char *arg);
/*
 * uid's login name (whole: up to 255 bytes), or the number where it has
 * none; control characters and bytes that are not UTF-8 written \ooo,
 * for the database is not ours.  The result lives until the next call
 * with another uid.
 */
const char *util_username(uid_t uid);
/*
 * A user's (group 0) or group's (group 1) name as the database holds it,
 * raw, for output that escapes it itself (JSON, fmt_text()); the number
 * where there is none or it is empty.  Up to 255 bytes; the result lives
 * until the next call for another id of the same kind.
 */
const char *util_dbname(int group, unsigned long id);
/* An octal mode 0..0777; -1 if malformed. */
int	 util_mode(const char *s, int *mode);
/* A decimal number 0..max; -1 if malformed (EINVAL) or larger (ERANGE). */
int	 util_ulong(const char *s, unsigned long max, unsigned long *out);
/*
 * Report that line lineno of fname could not be read (errno): a line
 * too long for the memory (ENOMEM, which getline(3) returns without
 * setting the stream's error flag) or a read error.  lineno 0: no
 * buffer could be had to read fname in at all.
 */
void	 util_read_error(const char *fname, unsigned long lineno);
/* The name diagnostics give a file: "stdin" for "-". */
const char *util_fname(const char *path);
/* Why shmids_create*() failed, naming the limit or setting (errno e). */
const char *util_create_error(int e);
/*
 * Why a call on the segment label (or id; NULL for creation) failed
 * with errno e, in the user's terms: shmids_explain()'s text.  Two
 * buffers in turn: the result lives until the next call but one.
 */
const char *util_why(const char *label, int e);
/*
 * Run fn on each file operand ("-" or none: stdin), as a filter does;
 * a file that cannot be opened, or that is stdout with bytes left to
 * read (cat's "input file is output file"), is reported and skipped.
 * Returns 0, or 1 if any was.
 */
int	 util_each_file(int argc, char *argv[],
	    void (*fn)(FILE *fp, const char *fname));

/*
 * The fields of a -f list, and what the input had of each: a request
 * that matched nothing is reported, not passed over in silence.
 */
struct fields {
	struct field {
		const char	*name;	/* in the list, not NUL-terminated */
		size_t		 len;
		int		 seen;	/* first token of some line */
		int		 used;	/* of a line the tool acted on */
	}		*v;
	size_t		 n;
};
/*
 * Split list (a -f argument); exits after a diagnostic on ENOMEM, and
 * as util_invalid() (exit 2) if the list has a blank.
 */
void	 util_fields(struct fields *f, const char *list);
/*
 * A number is never a field (format-spec.md 6.1): a usage error naming
 * opt if field[0..len) reads as a value.
 */
void	 util_not_number(const char *opt, const char *field, size_t len);
/* Is tok[0..len) one of f's fields? */
int	 util_fields_has(const struct fields *f, const char *tok, size_t len);
/* Note a line whose field is tok[0..len), used or only seen. */
void	 util_fields_note(struct fields *f, const char *tok, size_t len,
	    int used);
/*
 * Report each field no line used: "no such field in the input", or,
 * when lines had it, unused (the tool's reason).  1 if any, else 0.
 */
int	 util_fields_report(const struct fields *f, const char *unused);

/* A growing list of labels. */
struct labels {
	char		(*v)[SHMIDS_LABEL_MAX + 1];
	size_t		 n, cap;
};
/*
 * Room for one more label: 0, or -1 (ENOMEM).  A program that records
 * what it makes asks first, so that the adding cannot fail after.
 */
int	 util_labels_room(struct labels *l);
/* Append label; exits after a diagnostic on ENOMEM. */
void	 util_labels_add(struct labels *l, const char *label);
/* Sort the list and drop duplicates. */
void	 util_labels_sort(struct labels *l);

/*
 * s[0..len) fit to quote in a message: at most 64 bytes (a name's
 * limit), other than printable ASCII written as \ooo, then "..." if s is
 * longer.  The result lives until the next call but one.
 */
const char *util_quote(const char *s, size_t len);

/* Flush and close stdout; 0, or -1 after a diagnostic. */
int	 util_close_stdout(void);

#endif /* SHMIDS_UTIL_H */
