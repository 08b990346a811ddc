/*
 * shmids_ref_parse(), the reference-line parser of shm-expand and
 * shm-import (format-spec.md section 5), on arbitrary bytes of exactly
 * the input's size (no NUL after them: an overread is an ASan report).
 * Checked against a reference written from the spec's grammar; the id
 * is a shmid or a path (section 1).
 */
#include "fuzz.h"

#define MAXTOK 8

/*
 * Set by reference() when the line is malformed only for a reason the
 * library once missed (1: a CR inside the field, which the grammar
 * excludes; 2: a fifth token, "text after the label"; both fixed since).
 * Built with -DFUZZ_SKIP_KNOWN, such lines are not compared, so that a
 * long run can look for other bugs should one come back; the default
 * build is strict.
 */
static int known;

static int
blank(int c)
{
	return c == ' ' || c == '\t';
}

/* Returns 1, 0 or -1 as shmids_ref_parse should by section 5 alone. */
static int
reference5(const char *line, size_t len, char *label, int *id,
    size_t *fpos, size_t *flen, size_t *eol)
{
	size_t ts[MAXTOK], tl[MAXTOK], nt = 0, i = 0, np, j;
	const char *nl = memchr(line, '\n', len);

	if (nl != NULL)
		len = (size_t)(nl - line);
	if (len > 0 && line[len - 1] == '\r')
		len--;
	*eol = len;
	while (nt < MAXTOK) {
		while (i < len && blank(line[i]))
			i++;
		if (i == len)
			break;
		ts[nt] = i;
		while (i < len && !blank(line[i]))
			i++;
		tl[nt] = i - ts[nt];
		nt++;
	}
	*fpos = nt > 0 ? ts[0] : len;
	*flen = nt > 0 ? tl[0] : 0;
	if (nt < 2 || tl[1] != 6 || memcmp(line + ts[1], "shmids", 6) != 0)
		return 0;
	/* field = 1*(any byte but blank, CR, LF, NUL) */
	for (j = 0; j < tl[0]; j++)
		if (line[ts[0] + j] == '\0')
			return -1;
	for (j = 0; j < tl[0]; j++)
		if (line[ts[0] + j] == '\r')
			known = 1;	/* CR in the field: see below */
	if (nt < 4)
		return -1;
	if (nt > 4)
		known = 2;		/* text after the label: see below */
	/* the label is "id SP name" however many blanks the line has */
	{
		size_t L = tl[2] + 1 + tl[3], idlen;
		char *tmp = malloc(L);
		int e;

		if (tmp == NULL)
			abort();
		memcpy(tmp, line + ts[2], tl[2]);
		tmp[tl[2]] = ' ';
		memcpy(tmp + tl[2] + 1, line + ts[3], tl[3]);
		if ((e = fuzz_ref_label(tmp, L, &idlen, id, &np)) == 0) {
			memcpy(label, tmp, L);
			label[L] = '\0';
		}
		free(tmp);
		if (e != 0)
			return -1;
	}
	return known ? -1 : 1;
}

/*
 * Returns 1, 0 or -1 as shmids_ref_parse should; label on 1.  Section 6
 * (1.6): a line whose field begins with "#" that is no valid reference
 * is a comment, 0.
 */
static int
reference(const char *line, size_t len, char *label, int *id,
    size_t *fpos, size_t *flen, size_t *eol)
{
	int r = reference5(line, len, label, id, fpos, flen, eol);

	if (r == -1 && *flen > 0 && line[*fpos] == '#') {
		known = 0;
		return 0;
	}
	return r;
}

/*
 * The classifier (shmids_line_kind(), shmids_line_next()) on the same
 * bytes: the same answer as shmids_ref_parse() (k), offsets inside the
 * line, and a part of the line judged no reference (SHMIDS_LINE_PART,
 * as shm-expand asks of a line it does not hold whole) never is one.
 */
static void
classifier(const char *line, size_t size, int k)
{
	struct shmids_line c, p;
	struct shmids_lines rd;
	struct shmids_values v;
	const char *nl = memchr(line, '\n', size);
	size_t n = nl != NULL ? (size_t)(nl - line) : size, i;
	char *copy;
	int refish;

	CHECK(shmids_line_kind(line, size, 0, &c) == 1, "not 1");
	CHECK(c.kind >= SHMIDS_LINE_TEXT && c.kind <= SHMIDS_LINE_MTREF,
	    "kind %d", c.kind);
	CHECK(c.end <= n && c.field + c.fieldlen <= c.end, "offsets");
	refish = c.kind == SHMIDS_LINE_REF || c.kind == SHMIDS_LINE_TREF ||
	    c.kind == SHMIDS_LINE_MREF || c.kind == SHMIDS_LINE_MTREF ||
	    c.kind == SHMIDS_LINE_MALFORMED;
	/* 5.1: a message's number, digits the classifier checked */
	CHECK((shmids_line_seq(line, &c) >= 0) == (c.kind ==
	    SHMIDS_LINE_MREF || c.kind == SHMIDS_LINE_MTREF), "seq");
	CHECK((k == 1) == (c.kind == SHMIDS_LINE_REF || (c.kind ==
	    SHMIDS_LINE_MALFORMED && c.sep == 0 && c.label[0] != '\0')) ||
	    k == -1, "ref_parse %d, kind %d", k, c.kind);
	for (i = 0; i <= n; i += 1 + i / 3)
		if (shmids_line_kind(line, i, SHMIDS_LINE_PART, &p) == 1)
			CHECK(!refish, "a part of %zu bytes said no reference "
			    "(kind %d), the line is one (kind %d)", i, p.kind,
			    c.kind);
	/* values may be read up to their end: a NUL after the bytes */
	if ((copy = malloc(size + 1)) == NULL)
		abort();
	memcpy(copy, line, size);
	copy[size] = '\0';
	memset(&rd, 0, sizeof(rd));
	memset(&v, 0, sizeof(v));
	v.type = SHMIDS_F64;
	if (shmids_line_next(&rd, copy, size, &v, &p) == 0) {
		CHECK(p.kind == c.kind || (c.kind == SHMIDS_LINE_ARRAY &&
		    p.kind == SHMIDS_LINE_TEXT) || (c.kind == SHMIDS_LINE_ROW &&
		    p.kind == SHMIDS_LINE_TEXT), "next %d, kind %d", p.kind,
		    c.kind);
		CHECK(p.count == v.count, "count %zu, values %zu", p.count,
		    v.count);
	}
	shmids_values_free(&v);
	free(copy);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *line = (const char *)data;
	char rlabel[SHMIDS_LABEL_MAX + 1];
	struct shmids_ref r;
	size_t fpos, flen, eol;
	int k, rk, rid = -2, id = -2, np_ok;
	const char *name;
	size_t idlen, namelen;

	memset(&r, 0xa5, sizeof(r));
	k = shmids_ref_parse(line, size, &r);
	CHECK(k == 1 || k == 0 || k == -1, "returned %d", k);
	CHECK(r.eol <= size, "eol %zu > size %zu", r.eol, size);
	CHECK(r.eol == size || line[r.eol] == '\r' ||
	    line[r.eol] == '\n', "eol %zu at byte 0x%02x", r.eol,
	    (unsigned char)line[r.eol]);
	known = 0;
	rk = reference(line, size, rlabel, &rid, &fpos, &flen, &eol);
#ifdef FUZZ_SKIP_KNOWN
	if (known && rk == -1 && k == 1)
		return 0;
#endif
	CHECK(r.eol == eol, "eol %zu, spec says %zu", r.eol, eol);
	if (k == -1)
		CHECK(r.why != NULL && strlen(r.why) > 0, "malformed, no reason");
	if (k != 0 || r.fieldlen != 0) {
		/* shm-import reads the field of lines that are not references */
		CHECK(r.field + r.fieldlen <= size, "field %zu+%zu > %zu",
		    r.field, r.fieldlen, size);
		CHECK(r.field + r.fieldlen <= r.eol, "field past eol");
		CHECK(r.field == fpos && r.fieldlen == flen,
		    "field %zu+%zu, spec says %zu+%zu", r.field,
		    r.fieldlen, fpos, flen);
	}
	if (k == 1) {
		size_t L = strnlen(r.label, sizeof(r.label));

		CHECK(L <= SHMIDS_LABEL_MAX, "label not terminated");
		np_ok = shmids_label_parse(r.label, L, &idlen, &name,
		    &namelen);
		CHECK(np_ok == 0, "label \"%s\" does not parse", r.label);
		CHECK(shmids_id_check(r.label, idlen, &id) == 0,
		    "id of \"%s\"", r.label);
		/* -1 is the mark of a path, never a shmid */
		CHECK((id == -1) == (r.label[0] == '/'),
		    "shmid %d for \"%s\"", id, r.label);
		CHECK(r.fieldlen > 0, "empty field");
	}
	classifier(line, size, k);
	CHECK(k == rk, "returned %d, spec says %d (why: %s)", k, rk,
	    k == -1 ? r.why : "-");
	if (k == 1)
		CHECK(strcmp(r.label, rlabel) == 0 &&
		    shmids_id_check(r.label, strcspn(r.label, " "), &id) == 0 &&
		    id == rid,
		    "label \"%s\", spec says \"%s\"", r.label, rlabel);
	return 0;
}
