/*
 * Helpers shared by the tools.  Numbers are parsed with strtoul and an
 * end pointer: trailing junk, signs and overflow are errors.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <limits.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shmids.h"
#include "fmt.h"
#include "util.h"

#define NAME_MAX_BYTES	255	/* a login name whole (LOGIN_NAME_MAX) */

int
util_ulong(const char *s, unsigned long max, unsigned long *out)
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

/* The whole label is parsed, so that "5 x y" is no label at all. */
int
util_operand(const char *arg, char *id, char *label)
{
	const char *sp = strchr(arg, ' ');
	size_t n = sp ? (size_t)(sp - arg) : strlen(arg), len = strlen(arg);

	if (n > SHMIDS_LABEL_MAX || shmids_id_check(arg, n, NULL) == -1)
		return -1;
	memcpy(id, arg, n);
	id[n] = '\0';
	if (sp == NULL)
		return 0;
	if (len > SHMIDS_LABEL_MAX || shmids_label_check(arg, len) == -1)
		return -1;
	strcpy(label, arg);
	return 1;
}

/*
 * A new user types the name shm-import printed after the shmid; the
 * name alone does not say which of its segments (names repeat).
 */
void
util_bad_operand(const char *arg)
{
	char why[SHMIDS_EXPLAIN_MAX];

	/* shmids_explain() knows a name alone; other faults are one */
	shmids_explain(why, sizeof(why), arg, EINVAL);
	if (strncmp(why, "a name alone", 12) == 0 && strchr(arg, '\n') == NULL)
		warnx("%s: %s", arg, why);
	else
		warnx("%s: not a label or id", util_quote(arg, strlen(arg)));
}

/*
 * A label operand names another segment than si when si's header says
 * another label, or none (not ours, or residue); a header that could not
 * be read cannot say.
 */
int
util_stale(const struct shmids_info *si, const char *label)
{
	if (si->label[0] == '\0' && si->ours < 0)
		return 0;
	return strcmp(si->label, label) != 0;
}

const char *
util_unreadable(const struct shmids_info *si)
{
	static char buf[160];

	/* Not for want of permission, nor gone or replaced meanwhile. */
	if (si->ours >= 0 || si->label[0] != '\0' || si->err == 0 ||
	    si->err == EACCES || si->err == ENOENT || si->err == ESTALE)
		return NULL;
	if (si->err == ENOMEM)
		snprintf(buf, sizeof(buf), "cannot read its header: out of "
		    "memory for a segment of %zu bytes (address space limited? "
		    "see ulimit -v)", si->size);
	else
		snprintf(buf, sizeof(buf), "cannot read its header: %s",
		    util_why(si->id, si->err));
	return buf;
}

void
util_store_error(const struct shmids_info *si)
{
	const char *dir = shmids_dir();

	errno = si->err;
	if (si->shmid == -1)
		warn("SHMIDS_DIR %s", dir != NULL ? dir : "");
	else
		warn("segment table");
}

/*
 * A bare number is refused: tmpreaper's habit (hours) or find's (days)
 * read as seconds would clean nearly everything (issue 19).  0 is the
 * same in every unit and needs none.
 */
int
util_age(const char *s, time_t *secs)
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
	if (util_ulong(buf, LONG_MAX / mul, &v) == -1)
		return -1;
	*secs = (time_t)(v * mul);
	return 0;
}

/* A name first: an account may be called "1000" and have another uid. */
int
util_user(const char *s, uid_t *uid)
{
	struct passwd *pw;
	unsigned long v;

	if ((pw = getpwnam(s)) != NULL)
		*uid = pw->pw_uid;
	else if (util_ulong(s, (uid_t)-1 - 1, &v) == 0)
		*uid = (uid_t)v;
	else
		return -1;
	return 0;
}

void
util_bad_user(const char *arg)
{
	size_t n = strlen(arg);

	/* A name copied from the listing, where ps's cut left a '+'. */
	if (n > 1 && arg[n - 1] == '+')
		util_invalid("user", arg, "a login name or numeric user ID; "
		    "the listing cuts long names with '+': shm-ls -o uid "
		    "gives the ID");
	util_invalid("user", arg, "a login name or numeric user ID");
}

const char *
util_dbname(int group, unsigned long id)
{
	static struct {
		unsigned long	 id;
		int		 set;
		char		 name[NAME_MAX_BYTES + 1];
	} cache[2];
	const char *name = NULL;
	struct passwd *pw;
	struct group *gr;

	group = group != 0;
	if (cache[group].set && cache[group].id == id)
		return cache[group].name;
	if (group && (gr = getgrgid((gid_t)id)) != NULL)
		name = gr->gr_name;
	else if (!group && (pw = getpwuid((uid_t)id)) != NULL)
		name = pw->pw_name;
	if (name == NULL || name[0] == '\0')	/* an empty name is no name */
		snprintf(cache[group].name, sizeof(cache[group].name), "%lu",
		    id);
	else
		snprintf(cache[group].name, sizeof(cache[group].name), "%s",
		    name);
	cache[group].id = id;
	cache[group].set = 1;
	return cache[group].name;
}

/*
 * The password and group databases are anyone's to fill (NIS, LDAP, an
 * admin's typo): fmt_text() writes control characters and bytes that
 * are not UTF-8 as \ooo, so that no ESC or BEL reaches a terminal or
 * the journal.  UTF-8 and a backslash (a directory service's
 * DOMAIN\user) stay as they are: the name is for people, who know it so.
 */
const char *
util_username(uid_t u)
{
	static char buf[NAME_MAX_BYTES * 4 + 8];

	fmt_text(util_dbname(0, (unsigned long)u), 0, buf, sizeof(buf));
	return buf;
}

int
util_mode(const char *s, int *mode)
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

/* The kernel's limits give terse errno values; say which limit it was. */
const char *
util_create_error(int e)
{
	const char *dir = shmids_dir();

	static char buf[400];

	/*
	 * File segments: the directory is the likelier culprit than the
	 * input; not for memory (mapping the file under ulimit -v), which
	 * shmids_explain() words.
	 */
	if (dir != NULL && e != ENOSPC && e != ENOSYS && e != ENOMEM) {
		if (e == EINVAL)
			return "SHMIDS_DIR cannot go into a label (blanks?)";
		snprintf(buf, sizeof(buf), "SHMIDS_DIR %s: %s",
		    util_quote(dir, strlen(dir)),
		    e == ENAMETOOLONG ? "too long: the path and the name "
		    "share the label's 75 bytes" : strerror(e));
		return buf;
	}
	/* The name was checked: EINVAL can only be the size. */
	if (e == EINVAL)
		return "size outside the kernel's limits (kernel.shmmax;"
		    " see shm-ls -l)";
	return util_why(NULL, e);
}

const char *
util_why(const char *label, int e)
{
	static char buf[2][SHMIDS_EXPLAIN_MAX];
	static int which;

	shmids_explain(buf[which ^= 1], sizeof(buf[0]), label, e);
	return buf[which];
}

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

static int
each(FILE *fp, const char *fname, void (*fn)(FILE *, const char *))
{
	if (is_stdout(fp)) {
		warnx("%s: input file is output file", fname);
		return 1;
	}
	fn(fp, fname);
	return 0;
}

int
util_each_file(int argc, char *argv[], void (*fn)(FILE *, const char *))
{
	FILE *fp;
	int i, r = 0;

	if (argc == 0)
		return each(stdin, "stdin", fn);
	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "-") == 0)
			fp = stdin;
		else if ((fp = fopen(argv[i], "r")) == NULL) {
			warn("%s", argv[i]);
			r = 1;
			continue;
		}
		r |= each(fp, util_fname(argv[i]), fn);
		if (fp != stdin)
			fclose(fp);
	}
	return r;
}

void
util_fields(struct fields *f, const char *list)
{
	const char *p = list, *c;
	size_t n = 1;

	/* A field is one token; "a b" is cut -f's habit of a list gone wrong. */
	if (strpbrk(list, " \t") != NULL)
		util_invalid("field list", list,
		    "fields separated by commas: a,b");
	for (c = list; (c = strchr(c, ',')) != NULL; c++)
		n++;
	if ((f->v = calloc(n, sizeof(*f->v))) == NULL)
		util_nomem();
	for (f->n = 0; f->n < n; f->n++) {
		c = strchr(p, ',');
		f->v[f->n].name = p;
		f->v[f->n].len = c ? (size_t)(c - p) : strlen(p);
		if (f->v[f->n].len == 0)	/* "", "a,", "a,,b" */
			util_invalid("field list", list,
			    "fields separated by commas: a,b");
		util_not_number("-f", p, f->v[f->n].len);
		if (c != NULL)
			p = c + 1;
	}
}

void
util_not_number(const char *opt, const char *field, size_t len)
{
	char msg[160];

	if (len == 0 || !shmids_isnumber(field, len))
		return;
	snprintf(msg, sizeof(msg), "%s %s: a number is never a field (a "
	    "line that begins with a number is a table row)", opt,
	    util_quote(field, len));
	util_misuse(msg);
}

int
util_fields_has(const struct fields *f, const char *tok, size_t len)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->v[i].len == len && memcmp(f->v[i].name, tok, len) == 0)
			return 1;
	return 0;
}

void
util_fields_note(struct fields *f, const char *tok, size_t len, int used)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->v[i].len == len && memcmp(f->v[i].name, tok, len) == 0) {
			f->v[i].seen = 1;
			f->v[i].used |= used;
		}
}

int
util_fields_report(const struct fields *f, const char *unused)
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
		warnx("-f %s: %s", util_quote(f->v[i].name, f->v[i].len),
		    f->v[i].seen ? unused : "no such field in the input");
		r = 1;
	}
	return r;
}

int
util_labels_room(struct labels *l)
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
util_labels_add(struct labels *l, const char *label)
{
	if (util_labels_room(l) == -1)
		util_nomem();
	strcpy(l->v[l->n++], label);
}

static int
labelcmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* Sorting once beats a search per addition: 30,000 labels took seconds. */
void
util_labels_sort(struct labels *l)
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

/*
 * At most QUOTE_MAX bytes of s, bytes that are not printable as C
 * escapes, then "..." if s was longer: a 100 MB token must not be echoed
 * whole.  Two buffers in turn, so that one message may quote two things.
 */
#define QUOTE_MAX	80	/* a label (75) or a name (64) stays whole */

const char *
util_quote(const char *s, size_t len)
{
	static char buf[2][QUOTE_MAX * 4 + 4];
	static int which;
	char *b = buf[which ^= 1], *p = b;
	size_t i;

	for (i = 0; i < len && i < QUOTE_MAX; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			*p++ = (char)c;
		else
			p += sprintf(p, "\\%03o", c);
	}
	if (len > QUOTE_MAX)
		strcpy(p, "...");
	else
		*p = '\0';
	return b;
}

void
util_nomem(void)
{
	errx(1, "%s", UTIL_NOMEM);
}

/*
 * ENOMEM: a line too long for the memory, or (under ulimit -v, threads
 * holding the address space) any line: the message names both.
 */
void
util_read_error(const char *fname, unsigned long lineno)
{
	if (errno == ENOMEM && lineno == 0)
		warnx("%s: %s: no buffer to read it in", fname, UTIL_NOMEM);
	else if (errno == ENOMEM)
		warnx("%s:%lu: cannot hold this line: %s", fname, lineno,
		    UTIL_NOMEM);
	else
		warn("%s:%lu: read error", fname, lineno);
}

const char *
util_fname(const char *path)
{
	return strcmp(path, "-") == 0 ? "stdin" : path;
}

/* A full disk must not look like success (sbase's expand.c does this). */
int
util_close_stdout(void)
{
	if (fflush(stdout) == EOF || ferror(stdout) || fclose(stdout) == EOF) {
		warn("stdout");
		return -1;
	}
	return 0;
}
