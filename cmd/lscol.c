/*
 * shm-ls's columns.  One table says each column's name, alignment and
 * JSON key; the cells and keys are written from shmids_info and the
 * dimensions read beside it (shmids_scan_dims(), shmids_stat_dims()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "fmt.h"
#include "lscol.h"
#include "opts.h"
#include "user.h"

static const struct {
	const char	*head, *key;
	int		 right;
} cols[COL_N] = {
	[COL_ID] = { "ID", "id", 0 },
	[COL_SHMID] = { "SHMID", "shmid", 1 },
	[COL_KEY] = { "KEY", "key", 0 },
	[COL_LABEL] = { "LABEL", "label", 0 },
	[COL_NAME] = { "NAME", "name", 0 },
	[COL_OWNER] = { "OWNER", "owner", 0 },
	[COL_UID] = { "UID", "uid", 1 },
	[COL_GROUP] = { "GROUP", "group", 0 },
	[COL_GID] = { "GID", "gid", 1 },
	[COL_MODE] = { "MODE", "mode", 0 },
	[COL_NATTCH] = { "NATTCH", "nattch", 1 },
	[COL_SIZE] = { "SIZE", "size", 1 },
	[COL_TYPE] = { "TYPE", "type", 0 },
	[COL_COUNT] = { "COUNT", "count", 1 },
	[COL_SHAPE] = { "SHAPE", "shape", 1 },
	[COL_ORDER] = { "ORDER", "order", 0 },
	[COL_STATE] = { "STATE", "state", 0 },
	[COL_CREATED] = { "CREATED", "created", 0 },
	[COL_USED] = { "USED", "used", 0 },
	[COL_ATTACHED] = { "ATTACHED", "attached", 0 },
	[COL_DETACHED] = { "DETACHED", "detached", 0 },
	[COL_CPID] = { "CPID", "cpid", 1 },
	[COL_LPID] = { "LPID", "lpid", 1 },
};

/*
 * Within about 48 columns for owners of 8 and any size (issue 19): one
 * date, the one shm-rm -s judges age by; the rest is for -o.  The
 * shape stands where 1.1 had the count: a 1-D segment's shape is its
 * count, and a table's (87x61) as wide as a count of 5 digits.
 */
static const enum lscol longdef[] = {
	COL_OWNER, COL_SIZE, COL_TYPE, COL_SHAPE, COL_STATE, COL_CREATED,
	COL_LABEL
};
/*
 * Every key, in the order of shmids 1.1; the shape (1.2) after count,
 * and the order (1.4) after it.
 */
static const enum lscol jsondef[] = {
	COL_ID, COL_LABEL, COL_NAME, COL_SHMID, COL_KEY, COL_TYPE, COL_COUNT,
	COL_SHAPE, COL_ORDER, COL_STATE, COL_OWNER, COL_UID, COL_GROUP, COL_GID, COL_MODE,
	COL_NATTCH, COL_SIZE, COL_CPID, COL_LPID, COL_CREATED, COL_USED,
	COL_ATTACHED, COL_DETACHED
};

static void
add(struct lscols *c, enum lscol col)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (c->v[i] == col)
			return;
	c->v[c->n++] = col;
}

void
lscol_default(struct lscols *c, int json)
{
	size_t i, n = json ? sizeof(jsondef) / sizeof(jsondef[0]) :
	    sizeof(longdef) / sizeof(longdef[0]);

	c->n = 0;
	for (i = 0; i < n; i++)
		add(c, json ? jsondef[i] : longdef[i]);
}

const char *
lscol_names(void)
{
	static char buf[COL_N * 10];
	size_t i, n = 0;

	if (buf[0] == '\0')
		for (i = 0; i < COL_N; i++)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
			    i > 0 ? ", " : "", cols[i].head);
	return buf;
}

static void
bad_column(const char *name, size_t len)
{
	char buf[LSCOL_CELL];

	snprintf(buf, sizeof(buf), "%.*s", (int)len, name);
	opts_invalid("column", buf, "a list of %s, or +list", lscol_names());
}

void
lscol_parse(struct lscols *c, const char *list, int json)
{
	const char *p = list, *e;
	size_t len, i;

	c->n = 0;
	if (*p == '+') {
		lscol_default(c, json);
		/* The label stays last, where a long format has it. */
		c->n -= c->v[c->n - 1] == COL_LABEL;
		p++;
	}
	for (;; p = e + 1) {
		e = strchr(p, ',');
		len = e != NULL ? (size_t)(e - p) : strlen(p);
		for (i = 0; i < COL_N; i++)
			if (strlen(cols[i].head) == len &&
			    strncasecmp(cols[i].head, p, len) == 0)
				break;
		if (i == COL_N)
			bad_column(p, len);
		add(c, (enum lscol)i);
		if (e == NULL)
			break;
	}
	if (list[0] == '+')
		add(c, COL_LABEL);
}

const char *
lscol_head(enum lscol col)
{
	return cols[col].head;
}

int
lscol_right(enum lscol col)
{
	return cols[col].right;
}

const char *
lscol_state(const struct shmids_info *si)
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

/* The JSON state: the long format's word, "foreign" and "unreadable". */
static const char *
json_state(const struct shmids_info *si)
{
	return si->ours == 0 ? "foreign" : si->ours < 0 ? "unreadable" :
	    lscol_state(si);
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

/* A file segment has no detach time: its dtime is no time of its own. */
static time_t
col_time(enum lscol col, const struct shmids_info *si)
{
	switch (col) {
	case COL_CREATED:
		return si->ctime;
	case COL_USED:
		return used_time(si);
	case COL_ATTACHED:
		return si->atime;
	default:
		return si->shmid >= 0 ? si->dtime : 0;
	}
}

/*
 * ls(1)'s rule: the time within six months, else the year.  localtime_r
 * after main's tzset(): glibc's localtime() stats the zone file at
 * every call, twice per segment listed.
 */
static void
datestr(time_t t, time_t now, char *buf, size_t len)
{
	struct tm tmb, *tm;

	if (t == 0 || (tm = localtime_r(&t, &tmb)) == NULL)
		snprintf(buf, len, "-");
	else if (t > now - 182 * 86400 && t < now + 182 * 86400)
		strftime(buf, len, "%b %e %H:%M", tm);
	else
		strftime(buf, len, "%b %e  %Y", tm);
}

/* As ls -l writes the permissions, without the file type. */
static void
modestr(unsigned mode, char *buf)
{
	static const char rwx[] = "rwxrwxrwx";
	int i;

	for (i = 0; i < 9; i++)
		buf[i] = mode & (0400u >> i) ? rwx[i] : '-';
	buf[9] = '\0';
}

/*
 * Is sh a shape to show?  Only ours has one (a broken segment's header
 * says none).
 */
static int
has_shape(const struct shmids_info *si, const struct shmids_dims *sh)
{
	return si->ours == 1 && (sh->ndim == 1 || sh->ndim == 2);
}

/*
 * A table's shape whole, rows first as numpy writes it, as meant: a
 * shape is compared and copied, so it is never rounded as sizes are; a
 * wide one widens the column as a long count does.  A column-major
 * table's ends in F, numpy's name for its order (format-spec.md 2.7).
 */
static void
shapestr(const struct shmids_info *si, const struct shmids_dims *sh,
    char *buf, size_t len)
{
	if (!has_shape(si, sh))
		snprintf(buf, len, "%s", si->ours < 0 ? "?" : "-");
	else if (sh->ndim == 2)
		snprintf(buf, len, "%zux%zu%s", sh->rows, sh->cols,
		    sh->order == SHMIDS_COLMAJOR ? "F" : "");
	else
		snprintf(buf, len, "%zu", sh->rows);
}

void
lscol_cell(enum lscol col, const struct shmids_info *si,
    const struct shmids_dims *sh, int bytes, time_t now, char *buf)
{
	int ours = si->ours == 1;
	const size_t len = LSCOL_CELL;

	/* A file segment has no shmid, key or pids. */
	if (si->shmid < 0 && (col == COL_SHMID || col == COL_KEY ||
	    col == COL_CPID || col == COL_LPID)) {
		snprintf(buf, len, "-");
		return;
	}
	switch (col) {
	case COL_ID:
		snprintf(buf, len, "%s", si->id);
		break;
	case COL_SHMID:
		snprintf(buf, len, "%d", si->shmid);
		break;
	case COL_KEY:
		snprintf(buf, len, "0x%08x", (unsigned)si->key);
		break;
	case COL_LABEL:
		snprintf(buf, len, "%s", si->label[0] ? si->label : si->id);
		break;
	case COL_NAME:
		snprintf(buf, len, "%s", ours ? si->name : si->ours < 0 ? "?" :
		    "-");
		break;
	case COL_OWNER:
		fmt_text(user_dbname(0, (unsigned long)si->uid), LSCOL_NAMEW,
		    buf, len);
		break;
	case COL_UID:
		snprintf(buf, len, "%lu", (unsigned long)si->uid);
		break;
	case COL_GROUP:
		fmt_text(user_dbname(1, (unsigned long)si->gid), LSCOL_NAMEW,
		    buf, len);
		break;
	case COL_GID:
		snprintf(buf, len, "%lu", (unsigned long)si->gid);
		break;
	case COL_MODE:
		modestr(si->mode, buf);
		break;
	case COL_NATTCH:
		snprintf(buf, len, "%lu", si->nattch);
		break;
	case COL_SIZE:
		if (bytes)
			snprintf(buf, len, "%zu", si->size);
		else
			fmt_human(si->size, buf, len);
		break;
	case COL_TYPE:
		snprintf(buf, len, "%s", ours ? shmids_type_name(si->type) :
		    si->ours < 0 ? "?" : "-");
		break;
	case COL_COUNT:
		if (ours)
			snprintf(buf, len, "%zu", si->count);
		else
			snprintf(buf, len, "%s", si->ours < 0 ? "?" : "-");
		break;
	case COL_SHAPE:
		shapestr(si, sh, buf, len);
		break;
	case COL_ORDER:
		if (has_shape(si, sh))
			snprintf(buf, len, "%c", sh->order);
		else
			snprintf(buf, len, "%s", si->ours < 0 ? "?" : "-");
		break;
	case COL_STATE:
		snprintf(buf, len, "%s", lscol_state(si));
		break;
	case COL_CPID:
		snprintf(buf, len, "%ld", (long)si->cpid);
		break;
	case COL_LPID:
		snprintf(buf, len, "%ld", (long)si->lpid);
		break;
	default:
		datestr(col_time(col, si), now, buf, len);
		break;
	}
}

/* Before a key: ", " but before an object's first. */
static const char *sep;

static void
json_str(const char *key, const char *s)
{
	printf("%s\"%s\": ", sep, key);
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
		printf("%s\"%s\": null, \"%s_iso\": null", sep, key, key);
		return;
	}
	fmt_iso(t, iso, sizeof(iso));
	printf("%s\"%s\": %lld, \"%s_iso\": \"%s\"", sep, key,
	    (long long)t, key, iso);
}

/* A number, or null where it does not apply. */
static void
json_num(const char *key, int valid, long long n)
{
	if (valid)
		printf("%s\"%s\": %lld", sep, key, n);
	else
		printf("%s\"%s\": null", sep, key);
}

/* [rows, cols] for a table, [count] for a 1-D segment, else null. */
static void
json_shape(const char *key, const struct shmids_info *si,
    const struct shmids_dims *sh)
{
	printf("%s\"%s\": ", sep, key);
	if (!has_shape(si, sh))
		fputs("null", stdout);
	else if (sh->ndim == 2)
		printf("[%zu, %zu]", sh->rows, sh->cols);
	else
		printf("[%zu]", sh->rows);
}

void
lscol_json(enum lscol col, const struct shmids_info *si,
    const struct shmids_dims *sh, int first)
{
	int sysv = si->shmid >= 0, ours = si->ours == 1;
	const char *key = cols[col].key;
	char buf[LSCOL_CELL];

	sep = first ? "" : ", ";
	switch (col) {
	case COL_ID:
		json_str(key, si->id);
		break;
	case COL_SHMID:
		json_num(key, sysv, si->shmid);
		break;
	case COL_KEY:
		lscol_cell(col, si, sh, 1, 0, buf);
		json_str(key, sysv ? buf : NULL);
		break;
	case COL_LABEL:
		json_str(key, si->label[0] ? si->label : NULL);
		break;
	case COL_NAME:
		json_str(key, ours ? si->name : NULL);
		break;
	case COL_OWNER:
		json_str(key, user_dbname(0, (unsigned long)si->uid));
		break;
	case COL_UID:
		json_num(key, 1, (long long)si->uid);
		break;
	case COL_GROUP:
		json_str(key, user_dbname(1, (unsigned long)si->gid));
		break;
	case COL_GID:
		json_num(key, 1, (long long)si->gid);
		break;
	case COL_MODE:
		snprintf(buf, sizeof(buf), "%04o", si->mode);
		json_str(key, buf);
		break;
	case COL_NATTCH:
		json_num(key, 1, (long long)si->nattch);
		break;
	case COL_SIZE:
		json_num(key, 1, (long long)si->size);
		break;
	case COL_TYPE:
		json_str(key, ours ? shmids_type_name(si->type) : NULL);
		break;
	case COL_COUNT:
		json_num(key, ours, (long long)si->count);
		break;
	case COL_SHAPE:
		json_shape(key, si, sh);
		break;
	case COL_ORDER:
		snprintf(buf, sizeof(buf), "%c", sh->order);
		json_str(key, has_shape(si, sh) ? buf : NULL);
		break;
	case COL_STATE:
		json_str(key, json_state(si));
		break;
	case COL_CPID:
		json_num(key, sysv, (long long)si->cpid);
		break;
	case COL_LPID:
		json_num(key, sysv, (long long)si->lpid);
		break;
	default:
		json_time(key, col_time(col, si));
		break;
	}
}
