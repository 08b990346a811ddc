/*
 * The table grammar of format-spec.md 5 and 6.1 on arbitrary lines:
 * shmids_row_parse(), shmids_isnumber(), shmids_tref_parse().  The first
 * byte picks the element type, the rest is the line (NUL after it, as
 * from getline(3)).  Checked: a row appends exactly its values or
 * nothing; a row's first token is a number and the row is no
 * reference of either kind; a row written back by shmids_emit_rows()
 * is a row again, of the same separator, width and bits; a comma
 * row's values are its tokens' read alone; a table reference begins
 * with "shmids" or "shmids,", is no number, and its label checks out
 * and reads back from the canonical line.
 */
#include "fuzz.h"

static char *
emitted(const struct shmids_values *v, int sep, size_t *len)
{
	struct shmids_layout l;
	char *buf = NULL;
	FILE *fp;

	if ((fp = open_memstream(&buf, len)) == NULL)
		abort();
	shmids_layout_init(&l, NULL);
	CHECK(shmids_emit_rows(fp, &l, v->type, v->data, 1, v->count,
	    sep) == 0, "emit_rows failed: errno %d", errno);
	fclose(fp);
	return buf;
}

/*
 * A comma row's values are those of its tokens read alone: each token
 * between the commas, blanks trimmed, parsed with shmids_parsen() on
 * its own bytes (table.c parses doubles up to the comma instead).
 */
static void
comma_tokens(const char *s, size_t len, const struct shmids_values *v)
{
	size_t esz = shmids_type_size(v->type), i = 0, j, t, k = 0;
	unsigned char e[8];
	const char *end;

	if (len > 0 && s[len - 1] == '\n')
		len--;
	if (len > 0 && s[len - 1] == '\r')
		len--;
	for (k = 0; i <= len && k < v->count; k++, i = j + 1) {
		for (j = i; j < len && s[j] != ','; j++)
			;
		for (t = j; t > i && shmids_isblank(s[t - 1]); t--)
			;
		while (i < t && shmids_isblank(s[i]))
			i++;
		CHECK(shmids_parsen(s + i, t - i, &end, v->type, e) == 0 &&
		    end == s + t && memcmp(e, (const char *)v->data +
		    k * esz, esz) == 0, "comma row's value %zu is not its "
		    "token \"%.*s\" read alone", k, (int)(t - i), s + i);
	}
	CHECK(k == v->count && i == len + 1, "comma row of %zu values, %zu "
	    "tokens", v->count, k);
}

static void
row(const char *s, size_t len, int type)
{
	struct shmids_values v, w;
	size_t n = 0, n2 = 0, elen, esz = shmids_type_size(type);
	char *e;
	int r, sep = 0, sep2 = 0;
	struct shmids_ref ref;

	memset(&v, 0, sizeof(v));
	v.type = type;
	r = shmids_row_parse(&v, s, len, &sep, &n);
	CHECK(r == 0 || r == 1, "row_parse returned %d", r);
	if (r == 0) {
		CHECK(v.count == 0, "not a row, yet %zu values", v.count);
		shmids_values_free(&v);
		return;
	}
	CHECK(n >= 1 && n == v.count, "n %zu, count %zu", n, v.count);
	CHECK(sep == ' ' || sep == ',', "sep %d", sep);
	if (sep == ',')
		comma_tokens(s, len, &v);
	CHECK(shmids_isnumber(s, len), "a row whose first token is no number");
	CHECK(shmids_tref_parse(s, len, &ref, &sep2) == 0,
	    "a row read as a table reference");
	CHECK(shmids_ref_parse(s, len, &ref) == 0, "a row read as a reference");
	e = emitted(&v, sep, &elen);
	memset(&w, 0, sizeof(w));
	w.type = type;
	r = shmids_row_parse(&w, e, elen, &sep2, &n2);
	CHECK(r == 1 && n2 == n && (sep2 == sep || n == 1) &&
	    memcmp(v.data, w.data, n * esz) == 0,
	    "row written back as \"%s\" reads %d, %zu values", e, r, n2);
	free(e);
	shmids_values_free(&v);
	shmids_values_free(&w);
}

static void
tref(const char *s, size_t len)
{
	struct shmids_ref r, r2;
	char canon[SHMIDS_LABEL_MAX + 16];
	int k, sep = 0, sep2 = 0;

	k = shmids_tref_parse(s, len, &r, &sep);
	CHECK(k >= -1 && k <= 1, "tref_parse returned %d", k);
	if (k == 0)
		return;
	CHECK(r.fieldlen == 6 || r.fieldlen == 7, "keyword of %zu bytes",
	    r.fieldlen);
	CHECK(memcmp(s + r.field, "shmids,", r.fieldlen) == 0,
	    "keyword is not shmids or shmids,");
	CHECK(!shmids_isnumber(s, len), "a number read as a table reference");
	if (k == -1) {
		CHECK(r.why != NULL, "malformed without a reason");
		return;
	}
	/* "shmids," is comma rows; "shmids" a blank's or a tab's (6.1) */
	CHECK(r.fieldlen == 7 ? sep == ',' : sep == ' ' || sep == '\t',
	    "sep %d", sep);
	CHECK(shmids_label_check(r.label, strlen(r.label)) == 0,
	    "label \"%s\" does not check", r.label);
	snprintf(canon, sizeof(canon), "shmids%s%s\n",
	    sep == ',' ? ", " : sep == '\t' ? "\t" : " ", r.label);
	CHECK(shmids_tref_parse(canon, strlen(canon), &r2, &sep2) == 1 &&
	    sep2 == sep && strcmp(r2.label, r.label) == 0,
	    "canonical line \"%s\" does not read back", canon);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int types[] = { SHMIDS_F64, SHMIDS_F32, SHMIDS_I64,
	    SHMIDS_I32, SHMIDS_RAW };
	char *s;

	if (size == 0)
		return 0;
	s = fuzz_strdup(data + 1, size - 1);
	row(s, size - 1, types[data[0] % 5]);
	tref(s, size - 1);
	(void)shmids_isnumber(s, size - 1);
	free(s);
	return 0;
}
