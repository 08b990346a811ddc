/*
 * shmids_hdr_read(), the header check of shmids_open() and shm-ls
 * (format-spec.md 2 and 2.3).  Input: 4 bytes of shmid (native order),
 * then the segment's bytes, any number (sizes < 128 included).  Checked
 * against a reference written from the spec; an accepted header must be
 * exactly the one shmids_hdr_write() makes (one spelling per header).
 */
#include <errno.h>

#include "fuzz.h"

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

/* errno of the first failing check of section 2.3 (0: accepted). */
static int
reference(const char *h, size_t size, int shmid, int *badblank)
{
	size_t L, i, esz;
	int id;
	size_t np;
	unsigned long long count = 0;
	int over = 0;

	*badblank = 0;
	if (size < 128)
		return ESTALE;
	for (L = 0; L < 80 && h[L] != '\0'; L++)
		;
	if (L > SHMIDS_LABEL_MAX || h[L + 1] != '\n')
		return ESTALE;
	for (i = L + 2; i < 80; i++)
		if (h[i] != '\0')
			return ESTALE;
	if (fuzz_ref_label(h, L, &id, &np) != 0 || id != shmid)
		return ESTALE;
	if (memcmp(h + 80, "shmids1", 7) != 0)
		return ESTALE;
	/* offset 87 is a blank of the layout; ESTALE or EBADMSG both fit */
	if (h[87] != ' ') {
		*badblank = 1;
		return ESTALE;
	}
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
	for (i = 118; i < 128; i++)
		if (h[i] != '\0')
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
	char *h, canon[SHMIDS_HEADER];
	int shmid, e, re, badblank, id;
	const char *name;
	size_t namelen;

	if (size < 4)
		return 0;
	memcpy(&shmid, data, 4);
	size -= 4;
	/* exactly size bytes: ASan reports a read past the segment */
	if ((h = malloc(size ? size : 1)) == NULL)
		abort();
	memcpy(h, data + 4, size);
	memset(&out, 0xa5, sizeof(out));
	e = shmids_hdr_read(h, size, shmid, &out);
	re = reference(h, size, shmid, &badblank);
	CHECK(e == 0 || e == ESTALE || e == EBADMSG, "returned %d", e);
	CHECK(e == re || (badblank && e == EBADMSG),
	    "returned %d, spec says %d", e, re);
	if (e == 0) {
		size_t L = strnlen(out.label, sizeof(out.label)), esz;

		CHECK(L <= SHMIDS_LABEL_MAX, "label not terminated");
		CHECK(shmids_label_parse(out.label, L, &id, &name,
		    &namelen) == 0, "label \"%s\" does not parse", out.label);
		CHECK(id == shmid && out.shmid == shmid, "shmid %d/%d, not %d",
		    id, out.shmid, shmid);
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
		{
			char nm[SHMIDS_NAME_MAX + 1];

			memcpy(nm, name, namelen);
			nm[namelen] = '\0';
			shmids_hdr_write(canon, id, nm, out.type, out.count);
		}
		canon[HDR_STATE] = (char)out.state;
		CHECK(memcmp(canon, h, SHMIDS_HEADER) == 0,
		    "accepted header is not the one shmids_hdr_write makes");
	}
	free(h);
	return 0;
}
