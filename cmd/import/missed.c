/*
 * Nothing converted, though arrays or table blocks were there: the type
 * -t asked for, or else the minimum -k, is the likely surprise (the
 * README's own 10-value example), so the notes name it (format-spec.md
 * 7, shm-import); and rows that begin with R's row names, which no -k
 * or -f would make right.  Said only when nothing was converted.
 */
#include <err.h>
#include <stdio.h>
#include <string.h>

#include "shmids.h"
#include "msg.h"
#include "note.h"

/* An array left inline: its field, where, and its values. */
struct miss {
	char		 field[SHMIDS_NAME_MAX + 1];
	char		 where[NOTE_WHERE];
	size_t		 count;
	int		 type, typed;
};

/* A table block left as text: where, its shape (cols 0: none). */
struct tmiss {
	char		 where[NOTE_WHERE];
	size_t		 rows, cols;
};

static struct {
	struct notes_conf conf;
	struct miss	 longest;	/* the longest under -k */
	struct miss	 type;		/* the first not of its -t type */
	struct miss	 rowname;	/* the first row after R's row name */
	struct tmiss	 table;		/* the largest block under -k */
	struct tmiss	 ttype;		/* the first row not of -t's type */
} m;

void
missed_init(const struct notes_conf *conf)
{
	memset(&m, 0, sizeof(m));
	m.conf = *conf;
}

/*
 * Does s[0..len) begin with a number in double quotes, as R writes a
 * row name ("1")?  Its length with the quotes, else 0.
 */
static size_t
quoted_number(const char *s, size_t len)
{
	size_t j;

	if (len < 3 || s[0] != '"')
		return 0;
	for (j = 1; j < len && s[j] != '"' && !shmids_isblank(s[j]) &&
	    s[j] != ','; j++)
		;
	if (j == len || s[j] != '"' || !shmids_isnumber(s + 1, j - 1))
		return 0;
	return j + 1;
}

/*
 * The field is judged by the library's rule for one a writer may write
 * (shmids_field_check()), which the -f the notes offer is held to.
 */
int
note_arraylike(const char *field, size_t len, size_t count, int lines)
{
	return !((count < NOTE_VALUES && (lines < 2 || count < 2)) ||
	    len > SHMIDS_NAME_MAX || quoted_number(field, len) == len ||
	    shmids_field_check(field, len, 0, NULL) == -1);
}

static void
miss_note(struct miss *p, const struct notes_at *at, const char *field,
    size_t len, size_t count)
{
	p->count = count;
	memcpy(p->field, field, len);
	p->field[len] = '\0';
	note_where(p->where, at);
}

/*
 * A line that begins with R's row name and goes on as a row ("1" 100
 * 101, or "1",100,101 from write.csv): a table left as text.  The first
 * is remembered.
 */
void
missed_line(const struct notes_line *l)
{
	struct shmids_values v;
	const char *s = l->s;
	size_t n = l->n, i = strspn(s, " \t"), q, c;
	int sep;

	if (m.rowname.count > 0 || s[i] != '"' ||
	    (q = quoted_number(s + i, n - i)) == 0 || q > SHMIDS_NAME_MAX)
		return;
	for (i += q; i < n && shmids_isblank(s[i]); i++)
		;
	i += i < n && s[i] == ',';
	memset(&v, 0, sizeof(v));
	v.type = SHMIDS_F64;
	if (shmids_row_parse(&v, s + i, n - i, &sep, &c) == 1)
		miss_note(&m.rowname, &l->at, s + strspn(s, " \t"), q, c);
	shmids_values_free(&v);
}

/*
 * -t type: the first line that is no row of it, but a row of f64 of
 * two values or more (1.5 for i32), as a block's first row.
 */
void
missed_norow(const struct notes_line *l)
{
	struct shmids_values v;
	size_t c;
	int sep;

	if (m.conf.deftype == -1 || m.conf.deftype == SHMIDS_F64 ||
	    m.ttype.cols > 0)
		return;
	memset(&v, 0, sizeof(v));
	v.type = SHMIDS_F64;
	if (shmids_row_parse(&v, l->s, l->n, &sep, &c) == 1 && c >= 2) {
		m.ttype.cols = c;
		note_where(m.ttype.where, &l->at);
	}
	shmids_values_free(&v);
}

/*
 * A block left as text for want of -k values: the largest of those
 * that look like a table, 10 values or more, as an array.
 */
void
missed_table(const struct notes_block *b)
{
	if (b->count >= m.conf.minvals || b->rows < 2 ||
	    b->cols > SHMIDS_COLS_MAX || b->rows * b->cols < NOTE_VALUES ||
	    b->rows * b->cols <= m.table.rows * m.table.cols)
		return;
	m.table.rows = b->rows;
	m.table.cols = b->cols;
	note_where(m.table.where, &b->at);
}

/* An array left inline for want of -k values: the longest. */
void
missed_array(const struct notes_block *b)
{
	if (b->count < m.conf.minvals && b->count > m.longest.count &&
	    note_arraylike(b->s + b->field, b->fieldlen, b->count,
	    (int)(b->last - b->at.line + 1)))
		miss_note(&m.longest, &b->at, b->s + b->field, b->fieldlen,
		    b->count);
}

/*
 * An array left inline because its values are not of the type -t asked
 * for (i32, and 1.5 read): the first that reads as f64 and looks like
 * an array.  b->s holds its first line.
 */
void
missed_bad(const struct notes_block *b)
{
	struct shmids_values v;
	struct shmids_span sp;
	size_t vals = b->field + b->fieldlen, count;
	int k;

	if (b->type == SHMIDS_F64 || m.type.count > 0)
		return;
	memset(&v, 0, sizeof(v));
	v.type = SHMIDS_F64;
	k = shmids_values_read(&v, b->s + vals, b->n - vals, 1,
	    SHMIDS_VALUES_LINE, &sp);
	count = v.count;
	shmids_values_free(&v);
	if (k == 0 && note_arraylike(b->s + b->field, b->fieldlen, count,
	    sp.more ? 2 : 1)) {
		miss_note(&m.type, &b->at, b->s + b->field, b->fieldlen, count);
		m.type.type = b->type;
		m.type.typed = b->typed;
	}
}

/*
 * Table blocks: the same words as for arrays, a block named by where it
 * begins; no -k hint where a table was said to be left as text for
 * another cause.
 */
static void
say_tables(int tablesaid)
{
	const char *t = shmids_type_name(m.conf.deftype);
	size_t n = m.table.rows * m.table.cols;

	if (m.ttype.cols > 0)
		warnx("no table converted: %s holds rows whose values are "
		    "not %s (-t %s)", m.ttype.where, t, t);
	else if (m.table.rows > 0 && !tablesaid)
		warnx("no table converted: the largest, %s (%zux%zu, %zu "
		    "values), has fewer than -k %lu; -k %zu converts it",
		    m.table.where, m.table.rows, m.table.cols, n,
		    m.conf.minvals, n);
}

static void
say_type(void)
{
	const char *t = m.type.field, *tname = shmids_type_name(m.type.type);

	warnx("no array converted: %s (%s) holds values that are not %s "
	    "(-t %s%s%s)", msg_quote(t, strlen(t)), m.type.where, tname,
	    m.type.typed ? msg_quote(t, strlen(t)) : "",
	    m.type.typed ? "=" : "", tname);
}

void
missed_say(int tablesaid)
{
	const char *f = m.longest.field;

	if (m.rowname.count > 0)
		warnx("%s: rows begin with R's row names (%s): write them "
		    "with row.names = FALSE", m.rowname.where, m.rowname.field);
	say_tables(tablesaid);
	if (m.type.count > 0) {
		say_type();
		return;
	}
	/*
	 * A quoted field in a table said to be left as text is a row name
	 * ("Valiant"): -f would make that one row a segment.
	 */
	if (m.longest.count == 0 || (tablesaid && f[0] == '"'))
		return;
	warnx("no array converted: the longest, %s (%s), has %zu values, "
	    "fewer than -k %lu; -k %zu or -f %s converts it",
	    msg_quote(f, strlen(f)), m.longest.where, m.longest.count,
	    m.conf.minvals, m.longest.count, msg_quote(f, strlen(f)));
}
