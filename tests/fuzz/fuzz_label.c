/*
 * The label parser as shmids_open() sees it (format-spec.md section 1):
 * a C string, one trailing "\n" allowed.  Checked against a reference
 * written from the spec, and round-tripped through shmids_label_make():
 * a label has exactly one spelling.
 */
#include <errno.h>

#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strdup(data, size);
	char out[SHMIDS_LABEL_MAX + 1 + 16];
	const char *name = NULL;
	size_t len = strlen(s), namelen = 0, n, rnp = 0;
	int id = -1, rid = -1, r, e, re;

	if (len > 0 && s[len - 1] == '\n')
		len--;
	errno = 0;
	r = shmids_label_parse(s, len, &id, &name, &namelen);
	e = errno;
	re = fuzz_ref_label(s, len, &rid, &rnp);
	CHECK(r == 0 || r == -1, "returned %d", r);
	if (r == -1) {
		CHECK(re != 0, "refused (errno %d), spec accepts", e);
		CHECK(e == EINVAL || e == ENAMETOOLONG, "errno %d", e);
		/* a name both too long and with a bad byte may say either */
		CHECK(e == re || re == EINVAL, "errno %d, spec says %d", e, re);
		free(s);
		return 0;
	}
	CHECK(re == 0, "accepted, spec says errno %d", re);
	CHECK(id == rid && name == s + rnp && namelen == len - rnp,
	    "id %d name@%td+%zu, spec %d @%zu", id, name - s, namelen, rid, rnp);
	CHECK(id >= 0 && namelen >= 1 && namelen <= SHMIDS_NAME_MAX &&
	    len <= SHMIDS_LABEL_MAX, "id %d namelen %zu len %zu", id, namelen,
	    len);
	CHECK(shmids_name_check(name, namelen) == 0, "name check disagrees");
	memset(out, 'Z', sizeof(out));
	n = shmids_label_make(out, id, name, namelen);
	CHECK(n == len && memcmp(out, s, len) == 0 && out[n] == '\0',
	    "remade label differs: \"%.*s\" vs \"%s\"", (int)len, s, out);
	free(s);
	return 0;
}
