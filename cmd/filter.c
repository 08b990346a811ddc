/*
 * What the filters share: file operands, -f fields, labels (filter.h).
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shmids.h"
#include "filter.h"
#include "msg.h"
#include "opts.h"

/*
 * cat's rule: a regular file that is stdout too, with bytes still to
 * read, grows by what we write as we read it (shm-import < f >> f never
 * ends).  One the shell truncated (> f) is empty: nothing to refuse.
 */
static int
is_stdout(FILE *fp)
{
	static int known, isreg;
	static struct stat out;
	struct stat in;

	if (!known) {
		known = 1;
		isreg = fstat(STDOUT_FILENO, &out) == 0 && S_ISREG(out.st_mode);
	}
	if (!isreg || fstat(fileno(fp), &in) == -1 ||
	    in.st_dev != out.st_dev || in.st_ino != out.st_ino)
		return 0;
	return lseek(fileno(fp), 0, SEEK_CUR) < in.st_size;
}

/* A directory is no input: said so, not read ("read error"). */
static int
is_dir(FILE *fp, const char *fname)
{
	struct stat st;

	if (fstat(fileno(fp), &st) == -1 || !S_ISDIR(st.st_mode))
		return 0;
	errno = EISDIR;
	warn("%s", fname);
	return 1;
}

static int
each(FILE *fp, const char *fname, void (*fn)(FILE *, const char *))
{
	if (is_dir(fp, fname))
		return 1;
	if (is_stdout(fp)) {
		warnx("%s: input file is output file", fname);
		return 1;
	}
	fn(fp, fname);
	return 0;
}

int
filter_each_file(int argc, char *argv[], void (*fn)(FILE *, const char *))
{
	struct stat st;
	FILE *fp;
	int i, r = 0, dash = 0;

	if (argc == 0)
		return each(stdin, "stdin", fn);
	/*
	 * A directory among the operands, stdin as "-" too, is a mistyped
	 * command line: said before anything is read or made, as a usage
	 * slip is, not after the files before it were converted
	 * (format-spec.md 7).  "-" twice is said once.
	 */
	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "-") != 0) {
			if (stat(argv[i], &st) != 0)
				continue;
		} else if (dash++ > 0 || fstat(STDIN_FILENO, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			warn("%s", msg_fname(argv[i]));
			r = 1;
		}
	}
	if (r)
		return r;
	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "-") == 0)
			fp = stdin;
		else if ((fp = fopen(argv[i], "r")) == NULL) {
			warn("%s", argv[i]);
			r = 1;
			continue;
		}
		r |= each(fp, msg_fname(argv[i]), fn);
		if (fp != stdin)
			fclose(fp);
	}
	return r;
}

void
filter_fields(struct fields *f, const char *list)
{
	const char *p = list, *c;
	size_t n = 1;

	/* A field is one token; "a b" is cut -f's habit of a list gone wrong. */
	if (strpbrk(list, " \t") != NULL)
		opts_invalid("field list", list,
		    "fields separated by commas: a,b");
	for (c = list; (c = strchr(c, ',')) != NULL; c++)
		n++;
	if ((f->v = calloc(n, sizeof(*f->v))) == NULL)
		msg_nomem();
	for (f->n = 0; f->n < n; f->n++) {
		c = strchr(p, ',');
		f->v[f->n].name = p;
		f->v[f->n].len = c ? (size_t)(c - p) : strlen(p);
		if (f->v[f->n].len == 0)	/* "", "a,", "a,,b" */
			opts_invalid("field list", list,
			    "fields separated by commas: a,b");
		filter_field("-f", p, f->v[f->n].len, SHMIDS_FIELD_REF);
		if (c != NULL)
			p = c + 1;
	}
}

void
filter_field(const char *opt, const char *field, size_t len, int flags)
{
	const char *why;
	char msg[512];

	/* the library's rule (format-spec.md 6), not one of our own */
	if (len == 0 || shmids_field_check(field, len, flags, &why) == 0)
		return;
	snprintf(msg, sizeof(msg), "%s %s: %s", opt, msg_quote(field, len),
	    why != NULL ? why : "not a field");
	opts_misuse(msg);
}

void
filter_fields_check(const struct fields *f, int flags)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		filter_field("-f", f->v[i].name, f->v[i].len, flags);
}

int
filter_fields_has(const struct fields *f, const char *tok, size_t len)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->v[i].len == len && memcmp(f->v[i].name, tok, len) == 0)
			return 1;
	return 0;
}

void
filter_fields_note(struct fields *f, const char *tok, size_t len, int used)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->v[i].len == len && memcmp(f->v[i].name, tok, len) == 0) {
			f->v[i].seen = 1;
			f->v[i].used |= used;
		}
}

int
filter_fields_report(const struct fields *f, const char *unused)
{
	size_t i, j;
	int r = 0;

	for (i = 0; i < f->n; i++) {
		/* A field named twice is reported once. */
		for (j = 0; j < i; j++)
			if (f->v[j].len == f->v[i].len && memcmp(f->v[j].name,
			    f->v[i].name, f->v[i].len) == 0)
				break;
		if (j < i || f->v[i].used)
			continue;
		/* shm-expand: "#x" is only ever a reference's field */
		warnx("-f %s: %s", msg_quote(f->v[i].name, f->v[i].len),
		    f->v[i].seen ? unused : f->v[i].name[0] == '#' ?
		    "no such field in the input (a comment is never a field)" :
		    "no such field in the input");
		r = 1;
	}
	return r;
}

int
filter_labels_room(struct labels *l)
{
	size_t cap;
	void *n;

	if (l->n < l->cap)
		return 0;
	cap = l->cap ? l->cap * 2 : 16;
	if ((n = realloc(l->v, cap * sizeof(*l->v))) == NULL)
		return -1;
	l->v = n;
	l->cap = cap;
	return 0;
}

void
filter_labels_add(struct labels *l, const char *label)
{
	if (filter_labels_room(l) == -1)
		msg_nomem();
	strcpy(l->v[l->n++], label);
}

static int
labelcmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* Sorting once beats a search per addition: 30,000 labels took seconds. */
void
filter_labels_sort(struct labels *l)
{
	size_t i, j;

	if (l->n == 0)
		return;
	qsort(l->v, l->n, sizeof(*l->v), labelcmp);
	for (i = 1, j = 1; i < l->n; i++)
		if (strcmp(l->v[i], l->v[j - 1]) != 0)
			memmove(l->v[j++], l->v[i], sizeof(*l->v));
	l->n = j;
}
