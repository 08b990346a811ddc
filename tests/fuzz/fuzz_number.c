/*
 * The ASCII number parser of the ASCII-to-segment direction (shm-import,
 * shmids_get): shmids_parse() for every type on the input, then
 * shmids_format() back in every style and shmids_parse() again, which
 * must give the same bits, NaN payloads included (format-spec.md section
 * 6, "Every form in this table reads back to the same bits"), and
 * shmids_parsen() on the input's own bytes, no NUL after them, the
 * same as shmids_parse().  Decimals
 * and hex floats are compared with glibc's strtod/strtof (correctly
 * rounded), integers with strtoll.  Then shmids_values() reads the whole
 * input as one inline-array line of each type.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>

#include "fuzz.h"

static const int types[] = { SHMIDS_RAW, SHMIDS_F64, SHMIDS_F32,
    SHMIDS_I64, SHMIDS_I32 };

static int
isend(int c)
{
	return c == '\0' || c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int
isfloat(int t)
{
	return t == SHMIDS_F64 || t == SHMIDS_F32;
}

static void
hexdump(const void *p, size_t n, char *out)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

/* Format elem in every style of type t and parse each back. */
static void
roundtrip(int t, const void *elem)
{
	static const int styles[] = { SHMIDS_SHORT, SHMIDS_EXP, SHMIDS_HEX };
	size_t esz = shmids_type_size(t), n, k;
	char buf[SHMIDS_NUM_MAX + 16], back[8], hx[17];
	const char *end;

	for (k = 0; k < 3; k++) {
		int st = styles[k];

		if (st == SHMIDS_EXP && !isfloat(t))
			continue;
		memset(buf, 'Z', sizeof(buf));
		errno = 0;
		n = shmids_format(buf, t, elem, st);
		hexdump(elem, esz, hx);
		CHECK(n > 0 && n < SHMIDS_NUM_MAX, "format type %d style %d of "
		    "%s: length %zu", t, st, hx, n);
		CHECK(buf[n] == '\0' && strlen(buf) == n, "format type %d "
		    "style %d of %s: bad termination", t, st, hx);
		memset(back, 0x5a, sizeof(back));
		CHECK(shmids_parse(buf, &end, t, back) == 0,
		    "type %d style %d: \"%s\" (bits %s) does not parse back: %s",
		    t, st, buf, hx, strerror(errno));
		CHECK(end == buf + n, "type %d: \"%s\" parsed to %td", t, buf,
		    end - buf);
		CHECK(memcmp(back, elem, esz) == 0, "type %d style %d: bits %s"
		    " -> \"%s\" -> different bits", t, st, hx, buf);
	}
}

/* Differential check of a float token against glibc. */
static void
libc_float(int t, const char *s, size_t toklen, int r, int e,
    const void *elem)
{
	char tok[4200], *lend;
	size_t i;
	double d;
	float f;
	int le;

	if (toklen == 0 || toklen >= sizeof(tok))
		return;
	/* words (inf, nan(...)) follow section 6, not glibc */
	for (i = 0; i < toklen; i++)
		if ((s[i] | 0x20) == 'n' || (s[i] | 0x20) == 'i')
			return;
	memcpy(tok, s, toklen);
	tok[toklen] = '\0';
	/* Fortran's D exponent is an e (section 6); in hex, d is a digit */
	if (strpbrk(tok, "xX") == NULL)
		for (i = 0; i < toklen; i++)
			if ((tok[i] | 0x20) == 'd')
				tok[i] = 'e';
	/* glibc skips leading white space (\v, \f): blanks are ours */
	if (isspace((unsigned char)tok[0]))
		return;
	errno = 0;
	if (t == SHMIDS_F64) {
		d = strtod(tok, &lend);
		f = 0;
	} else {
		f = strtof(tok, &lend);
		d = f;
	}
	le = errno;
	if (lend != tok + toklen) {
		/* glibc does not take the whole token: nor may we */
		CHECK(r == -1, "type %d: accepted \"%s\", strtod takes %td "
		    "bytes", t, tok, lend - tok);
		return;
	}
	if (isinf(d)) {
		CHECK(r == -1 && e == ERANGE, "type %d: \"%s\" overflows: "
		    "returned %d errno %d", t, tok, r, e);
		return;
	}
	(void)le;
	CHECK(r == 0, "type %d: \"%s\" refused (errno %d), strtod takes it",
	    t, tok, e);
	if (t == SHMIDS_F64)
		CHECK(memcmp(elem, &d, 8) == 0, "\"%s\": %a, strtod %a", tok,
		    *(const double *)elem, d);
	else
		CHECK(memcmp(elem, &f, 4) == 0, "\"%s\": %a, strtof %a", tok,
		    (double)*(const float *)elem, (double)f);
}

/*
 * The same float token parsed again, told that the whole input may be
 * read (as shmids_values() does): the digits go 8 at a time then, and
 * the outcome must not change.
 */
static void
lim_float(int t, const char *s, size_t size, int r, int e, const char *end,
    const void *elem)
{
	unsigned char back[8];
	const char *end2 = NULL;
	int r2, e2;

	memset(back, 0x5a, sizeof(back));
	errno = 0;
	r2 = shmids_parse_lim(s, s + size, &end2, t, back);
	e2 = errno;
	CHECK(r2 == r && (r == 0 ? end2 == end : e2 == e) &&
	    memcmp(back, elem, sizeof(back)) == 0, "type %d: with the "
	    "length: returned %d errno %d, without %d errno %d", t, r2, e2,
	    r, e);
}

/*
 * shmids_parsen() on the fuzzer's own buffer, exactly size bytes (ASan
 * catches a read past it): what shmids_parse() gave on its NUL-ended
 * copy s.
 */
static void
parsen_same(int t, const uint8_t *data, size_t size, const char *s, int r,
    int e, const char *end, const void *elem)
{
	unsigned char back[8];
	const char *end2 = NULL;
	int r2, e2;

	memset(back, 0x5a, sizeof(back));
	errno = 0;
	r2 = shmids_parsen((const char *)data, size, &end2, t, back);
	e2 = errno;
	CHECK(r2 == r && (r == 0 ? end2 - (const char *)data == end - s :
	    e2 == e) && memcmp(back, elem, sizeof(back)) == 0, "type %d: "
	    "parsen returned %d errno %d, parse %d errno %d", t, r2, e2, r,
	    e);
}

/* Differential check of an integer token against strtoll / strtoull. */
static void
libc_int(int t, const char *s, size_t toklen, int r, int e,
    const void *elem)
{
	char tok[64], *lend;
	long long v, lo, hi;
	unsigned long long u;
	size_t i, nd;
	int neg = 0, ok = 1, bits;

	if (toklen == 0 || toklen >= sizeof(tok))
		return;
	memcpy(tok, s, toklen);
	tok[toklen] = '\0';
	/* Fortran's D exponent is an e (section 6); in hex, d is a digit */
	if (strpbrk(tok, "xX") == NULL)
		for (i = 0; i < toklen; i++)
			if ((tok[i] | 0x20) == 'd')
				tok[i] = 'e';
	bits = t == SHMIDS_I64 ? 64 : t == SHMIDS_I32 ? 32 : 8;
	lo = t == SHMIDS_I64 ? INT64_MIN : t == SHMIDS_I32 ? INT32_MIN : 0;
	hi = t == SHMIDS_I64 ? INT64_MAX : t == SHMIDS_I32 ? INT32_MAX : 255;
	if (tok[0] == '0' && (tok[1] | 0x20) == 'x') {
		/* 0x and 1 to bits/4 hex digits: the two's-complement bits */
		for (nd = 0, i = 2; i < toklen; i++, nd++)
			if (!((tok[i] >= '0' && tok[i] <= '9') ||
			    ((tok[i] | 0x20) >= 'a' && (tok[i] | 0x20) <= 'f')))
				ok = 0;
		if (!ok || nd == 0) {
			CHECK(r == -1, "type %d: accepted \"%s\"", t, tok);
			return;
		}
		if (nd > (size_t)bits / 4) {
			CHECK(r == -1, "type %d: accepted \"%s\" (%zu digits)",
			    t, tok, nd);
			return;
		}
		u = strtoull(tok + 2, NULL, 16);
		if (bits < 64 && lo < 0 && (u >> (bits - 1)) & 1)
			u |= ~0ULL << bits;
		v = (long long)u;
	} else {
		i = 0;
		if (tok[0] == '+' || tok[0] == '-')
			neg = tok[i++] == '-';
		if (i == toklen)
			ok = 0;
		for (; i < toklen; i++)
			if (tok[i] < '0' || tok[i] > '9')
				ok = 0;
		if (!ok) {
			/* "256x": ERANGE (digits seen first) is tolerated */
			CHECK(r == -1 && (e == EINVAL || e == ERANGE),
			    "type %d: \"%s\" returned %d errno %d", t, tok, r,
			    e);
			return;
		}
		errno = 0;
		v = strtoll(tok, &lend, 10);
		if (errno == ERANGE || v < lo || v > hi) {
			CHECK(r == -1 && e == ERANGE, "type %d: \"%s\" out of "
			    "range: returned %d errno %d", t, tok, r, e);
			return;
		}
		(void)neg;
	}
	CHECK(r == 0, "type %d: \"%s\" refused (errno %d)", t, tok, e);
	if (t == SHMIDS_I64)
		CHECK(memcmp(elem, &v, 8) == 0, "\"%s\": %lld", tok, v);
	else if (t == SHMIDS_I32) {
		int32_t w = (int32_t)v;

		CHECK(memcmp(elem, &w, 4) == 0, "\"%s\": %d vs %d", tok,
		    *(const int32_t *)elem, w);
	} else
		CHECK(*(const unsigned char *)elem == (unsigned char)v,
		    "\"%s\": %u", tok, *(const unsigned char *)elem);
}

static void
values(const char *s, size_t size, int t)
{
	struct shmids_values v;
	const char *bad = NULL;
	size_t esz = shmids_type_size(t), len = size, i, ntok = 0, ts;
	unsigned char elem[8];
	int more = -1, r;

	memset(&v, 0, sizeof(v));
	v.type = t;
	r = shmids_values_parse(&v, s, size, &more, &bad);
	CHECK(r == 0 || r == -1, "values returned %d", r);
	CHECK(v.count <= v.cap, "count %zu > cap %zu", v.count, v.cap);
	if (r == -1) {
		CHECK(bad >= s && bad <= s + size, "bad outside the line");
		CHECK(more == 0, "more set on error");
	} else {
		/* every blank-separated token a value, but a final "/" */
		while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == '\r'))
			len--;
		for (i = 0;;) {
			while (i < len && (s[i] == ' ' || s[i] == '\t'))
				i++;
			if (i == len)
				break;
			ts = i;
			while (i < len && s[i] != ' ' && s[i] != '\t')
				i++;
			if (i - ts == 1 && s[ts] == '/') {
				size_t j = i;

				while (j < len && (s[j] == ' ' || s[j] == '\t'))
					j++;
				if (j == len) {
					CHECK(more == 1, "final / without more");
					break;
				}
			}
			CHECK(ntok < v.count, "fewer values than tokens");
			CHECK(shmids_parse(s + ts, NULL, t, elem) == 0,
			    "value token does not parse alone");
			CHECK(memcmp(elem, (char *)v.data + ntok * esz, esz) == 0,
			    "value %zu differs", ntok);
			ntok++;
		}
		CHECK(ntok == v.count, "%zu tokens, %zu values", ntok,
		    v.count);
	}
	free(v.data);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strdup(data, size);
	unsigned char elem[8];
	const char *end;
	size_t k, toklen;
	int r, e;

	for (toklen = 0; !isend(s[toklen]); toklen++)
		;
	for (k = 0; k < sizeof(types) / sizeof(types[0]); k++) {
		int t = types[k];

		memset(elem, 0x5a, sizeof(elem));
		end = NULL;
		errno = 0;
		r = shmids_parse(s, &end, t, elem);
		e = errno;
		CHECK(r == 0 || r == -1, "returned %d", r);
		if (r == 0) {
			CHECK(end == s + toklen, "type %d: end at %td, token "
			    "%zu", t, end - s, toklen);
			CHECK(toklen > 0, "empty token accepted");
			roundtrip(t, elem);
		} else
			CHECK(e == EINVAL || e == ERANGE, "type %d: errno %d",
			    t, e);
		parsen_same(t, data, size, s, r, e, end, elem);
		if (isfloat(t)) {
			lim_float(t, s, size, r, e, end, elem);
			libc_float(t, s, toklen, r, e, elem);
		} else
			libc_int(t, s, toklen, r, e, elem);
	}
	for (k = 0; k < sizeof(types) / sizeof(types[0]); k++)
		values(s, size, types[k]);
	free(s);
	return 0;
}
