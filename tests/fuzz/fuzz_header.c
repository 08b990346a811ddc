/*
 * shmids_hdr_read(), the header check of shmids_open() and shm-ls
 * (format-spec.md 2 and 2.3).  Input: the id the caller expects (a shmid
 * or a path, as text: any bytes but NUL, at most ID_MAX), a NUL, then the
 * segment's bytes, any number (sizes < 128 included).  Checked against a
 * reference written from the spec; an accepted header must be exactly the
 * one shmids_hdr_write() makes (one spelling per header).
 */
#include <errno.h>

#include "fuzz.h"

/* Longer than any id of a label, so that the id compare is exercised. */
#define ID_MAX	(2 * SHMIDS_LABEL_MAX)

static const char *
native(void)
{
	const unsigned short one = 1;

	return *(const unsigned char *)&one ? "le" : "be";
}

static int
tsize(const char *t)
{
	if (!memcmp(t, "f64", 3) || !memcmp(t, "i64", 3))
		return 8;
	if (!memcmp(t, "f32", 3) || !memcmp(t, "i32", 3))
		return 4;
	if (!memcmp(t, "raw", 3))
		return 1;
	return 0;
}

/*
 * The reserved bytes: all NUL (versions 1 and 4), or NUL NUL, 7 digits
 * of cols (not 0) and LF (versions 2 and 3).  0 with *cols (0 for
 * versions 1 and 4), or -1.
 */
static int
reserved(const char *h, unsigned long long *cols)
{
	size_t i;

	*cols = 0;
	if (h[118] != '\0' || h[119] != '\0')
		return -1;
	if (h[86] == '1' || h[86] == '4') {
		for (i = 120; i < 128; i++)
			if (h[i] != '\0')
				return -1;
		return 0;
	}
	for (i = 120; i < 127; i++) {
		if (h[i] < '0' || h[i] > '9')
			return -1;
		*cols = *cols * 10 + (unsigned)(h[i] - '0');
	}
	return *cols == 0 || h[127] != '\n' ? -1 : 0;
}

/* errno of the first failing check of section 2.3 (0: accepted). */
static int
reference(const char *h, size_t size, const char *id, int *badblank)
{
	size_t L, i, esz, idlen, np;
	int shmid;
	unsigned long long count = 0, cols;
	int over = 0;

	*badblank = 0;
	if (size < 128)
		return ESTALE;
	for (L = 0; L < 80 && h[L] != '\0'; L++)
		;
	if (L > SHMIDS_LABEL_MAX || h[L + 1] != '\n')
		return ESTALE;
	/* the label's id must be the caller's, byte for byte */
	if (fuzz_ref_label(h, L, &idlen, &shmid, &np) != 0 ||
	    idlen != strlen(id) || memcmp(h, id, idlen) != 0)
		return ESTALE;
	/*
	 * version 1, 2 for a table, 3 column-major (format-spec.md 2.7), 4
	 * a stream (10.1)
	 */
	if (memcmp(h + 80, "shmids", 6) != 0 ||
	    (h[86] != '1' && h[86] != '2' && h[86] != '3' && h[86] != '4'))
		return ESTALE;
	/* offset 87 is a blank of the layout; ESTALE or EBADMSG both fit */
	if (h[87] != ' ') {
		*badblank = 1;
		return ESTALE;
	}
	/* the label's padding: a corrupt header, not a stale label */
	for (i = L + 2; i < 80; i++)
		if (h[i] != '\0')
			return EBADMSG;
	if ((esz = (size_t)tsize(h + 88)) == 0 || h[91] != ' ' ||
	    (memcmp(h + 92, "le", 2) && memcmp(h + 92, "be", 2)) ||
	    h[94] != ' ' || h[115] != ' ' ||
	    (h[116] != 'w' && h[116] != 'r') || h[117] != '\n')
		return EBADMSG;
	for (i = 95; i < 115; i++) {
		if (h[i] < '0' || h[i] > '9')
			return EBADMSG;
		if (count > (~0ULL - 9) / 10)
			over = 1;
		else
			count = count * 10 + (unsigned)(h[i] - '0');
	}
	if (reserved(h, &cols) != 0 || (cols > 0 && count % cols != 0))
		return EBADMSG;
	/* version 3: 2 rows or more, 2 columns or more (2.7) */
	if (h[86] == '3' && !over && (cols < 2 || count / cols < 2))
		return EBADMSG;
	/* version 4: a stream's ring is raw bytes (10.1) */
	if (h[86] == '4' && memcmp(h + 88, "raw", 3) != 0)
		return EBADMSG;
	if (memcmp(h + 92, native(), 2) != 0)
		return EBADMSG;
	if (over || count > (size - 128) / esz)
		return EBADMSG;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hdr out;
	char *h, canon[SHMIDS_HEADER], id[ID_MAX + 1];
	const uint8_t *nul;
	const char *name;
	size_t idlen, namelen;
	int e, re, badblank, shmid;

	if (size == 0 || (nul = memchr(data, '\0',
	    size < ID_MAX + 1 ? size : ID_MAX + 1)) == NULL)
		return 0;
	idlen = (size_t)(nul - data);
	memcpy(id, data, idlen + 1);
	data += idlen + 1;
	size -= idlen + 1;
	/* exactly size bytes: ASan reports a read past the segment */
	if ((h = malloc(size ? size : 1)) == NULL)
		abort();
	memcpy(h, data, size);
	memset(&out, 0xa5, sizeof(out));
	e = shmids_hdr_read(h, size, id, NULL, 0, &out);
	re = reference(h, size, id, &badblank);
	CHECK(e == 0 || e == ESTALE || e == EBADMSG, "returned %d", e);
	CHECK(e == re || (badblank && e == EBADMSG),
	    "returned %d, spec says %d", e, re);
	if (e == 0) {
		size_t L = strnlen(out.label, sizeof(out.label)), esz, lidlen;

		CHECK(L <= SHMIDS_LABEL_MAX, "label not terminated");
		CHECK(shmids_label_parse(out.label, L, &lidlen, &name,
		    &namelen) == 0, "label \"%s\" does not parse", out.label);
		CHECK(lidlen == idlen && memcmp(out.label, id, idlen) == 0,
		    "label \"%s\" accepted for id \"%s\"", out.label, id);
		CHECK(shmids_id_check(id, idlen, &shmid) == 0,
		    "id \"%s\" of an accepted header is no id", id);
		CHECK(name == out.label + out.namepos, "namepos %zu",
		    out.namepos);
		CHECK(out.state == 'w' || out.state == 'r', "state %d",
		    out.state);
		CHECK(out.state == h[HDR_STATE], "state %c, header %c",
		    out.state, h[HDR_STATE]);
		esz = shmids_type_size(out.type);
		CHECK(esz != 0, "type %d", out.type);
		CHECK(out.count <= (size - SHMIDS_HEADER) / esz,
		    "count %zu x %zu > %zu - 128", out.count, esz, size);
		CHECK(memcmp(h, out.label, L + 1) == 0, "label copy differs");
		CHECK(out.order == (h[86] == '3' ? SHMIDS_COLMAJOR :
		    SHMIDS_ROWMAJOR), "order %d, version %c", out.order, h[86]);
		{
			char nm[SHMIDS_NAME_MAX + 1];

			memcpy(nm, name, namelen);
			nm[namelen] = '\0';
			shmids_hdr_write(canon, id, nm, out.type, out.count,
			    out.cols, out.version == '4' ? HDR_STREAM :
			    out.order);
		}
		canon[HDR_STATE] = (char)out.state;
		CHECK(memcmp(canon, h, SHMIDS_HEADER) == 0,
		    "accepted header is not the one shmids_hdr_write makes");
	}
	free(h);
	return 0;
}
