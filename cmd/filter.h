/*
 * What the two filters, shm-expand and shm-import, share: each file
 * operand read in turn, the fields of -f, and the labels a run made or
 * met.
 */
#ifndef SHMIDS_FILTER_H
#define SHMIDS_FILTER_H

#include <stdio.h>

#include "shmids.h"

/*
 * Run fn on each file operand ("-" or none: stdin), as a filter does;
 * a file that cannot be opened, or that is stdout with bytes left to
 * read (cat's "input file is output file"), is reported and skipped.
 * A directory among the operands is reported before any file is read,
 * and none is.  Returns 0, or 1 if any was reported.
 */
int	 filter_each_file(int argc, char *argv[],
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
 * as opts_invalid() (exit 2) if the list has a blank.  Each field is
 * checked as a reference line's (filter_field(), SHMIDS_FIELD_REF): a
 * tool that writes them checks them again with filter_fields_check().
 */
void	 filter_fields(struct fields *f, const char *list);
/*
 * What may be a field is the library's rule (shmids_field_check(),
 * format-spec.md 6): a usage error "opt field: why" (exit 2) if
 * field[0..len) is none, for a tool that writes it (flags 0:
 * shm-import's -f and -t) or that picks reference lines by it
 * (SHMIDS_FIELD_REF: shm-expand's -f).  len 0 (-t type: no field) is
 * not checked.  filter_fields_check(): each of a -f list.
 */
void	 filter_field(const char *opt, const char *field, size_t len,
	    int flags);
void	 filter_fields_check(const struct fields *f, int flags);
/* Is tok[0..len) one of f's fields? */
int	 filter_fields_has(const struct fields *f, const char *tok, size_t len);
/* Note a line whose field is tok[0..len), used or only seen. */
void	 filter_fields_note(struct fields *f, const char *tok, size_t len,
	    int used);
/*
 * Report each field no line used: "no such field in the input", or,
 * when lines had it, unused (the tool's reason).  1 if any, else 0.
 */
int	 filter_fields_report(const struct fields *f, const char *unused);

/* A growing list of labels. */
struct labels {
	char		(*v)[SHMIDS_LABEL_MAX + 1];
	size_t		 n, cap;
};
/*
 * Room for one more label: 0, or -1 (ENOMEM).  A program that records
 * what it makes asks first, so that the adding cannot fail after.
 */
int	 filter_labels_room(struct labels *l);
/* Append label; exits after a diagnostic on ENOMEM. */
void	 filter_labels_add(struct labels *l, const char *label);
/* Sort the list and drop duplicates. */
void	 filter_labels_sort(struct labels *l);

#endif /* SHMIDS_FILTER_H */
