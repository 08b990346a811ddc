/*
 * The label parser as shmids_open() sees it (format-spec.md section 1):
 * a C string, one trailing "\n" allowed.  Checked against a reference
 * written from the spec, and round-tripped through shmids_label_make():
 * a label has exactly one spelling.  The first token is also checked
 * alone, as shm-ls and shm-rm take a bare id operand.
 */
#include <errno.h>

#include "fuzz.h"

/* shmids_id_check() on the first token (all of s if it has no space). */
static void
check_id(const char *s, size_t len)
{
	const char *sp = memchr(s, ' ', len);
	size_t n = sp != NULL ? (size_t)(sp - s) : len;
	int shmid = -2, rshmid = -2, r, e, ok;

	errno = 0;
	r = shmids_id_check(s, n, &shmid);
	e = errno;
	ok = fuzz_ref_id(s, n, &rshmid);
	CHECK(r == 0 || r == -1, "id check returned %d", r);
	if (r == -1) {
		CHECK(e == EINVAL, "id \"%.*s\": errno %d", (int)n, s, e);
		/*
		 * A well-formed id too long for any label (path, space and
		 * a 1-byte name in 75 bytes) names nothing: it may go.
		 */
		CHECK(!ok || n > SHMIDS_LABEL_MAX - 2,
		    "id \"%.*s\" refused, spec accepts", (int)n, s);
		return;
	}
	CHECK(ok, "id \"%.*s\" accepted, spec refuses", (int)n, s);
	CHECK(shmid == rshmid, "id \"%.*s\": shmid %d, spec says %d", (int)n,
	    s, shmid, rshmid);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strdup(data, size);
	char id[SHMIDS_LABEL_MAX + 1], out[SHMIDS_LABEL_MAX + 1 + 16];
	const char *name = NULL;
	size_t len = strlen(s), idlen = 0, namelen = 0, n, ridlen = 0, rnp = 0;
	int shmid = -2, rshmid = -2, r, e, re;

	if (len > 0 && s[len - 1] == '\n')
		len--;
	check_id(s, len);
	errno = 0;
	r = shmids_label_parse(s, len, &idlen, &name, &namelen);
	e = errno;
	re = fuzz_ref_label(s, len, &ridlen, &rshmid, &rnp);
	CHECK(r == 0 || r == -1, "returned %d", r);
	if (r == -1) {
		CHECK(re != 0, "refused (errno %d), spec accepts", e);
		CHECK(fuzz_errno_ok(e, re), "errno %d, spec allows %s%s", e,
		    re & FUZZ_EINVAL ? "EINVAL " : "",
		    re & FUZZ_ENAMETOOLONG ? "ENAMETOOLONG" : "");
		free(s);
		return 0;
	}
	CHECK(re == 0, "accepted, spec allows errnos %d", re);
	CHECK(idlen == ridlen && name == s + rnp && namelen == len - rnp,
	    "id %zu bytes name@%td+%zu, spec %zu @%zu", idlen, name - s,
	    namelen, ridlen, rnp);
	CHECK(idlen >= 1 && namelen >= 1 && namelen <= SHMIDS_NAME_MAX &&
	    len <= SHMIDS_LABEL_MAX, "idlen %zu namelen %zu len %zu", idlen,
	    namelen, len);
	CHECK(shmids_name_check(name, namelen) == 0, "name check disagrees");
	/* the id of a label is an id alone too, and says the same */
	CHECK(shmids_id_check(s, idlen, &shmid) == 0 && shmid == rshmid,
	    "id check disagrees: shmid %d, spec %d", shmid, rshmid);
	memcpy(id, s, idlen);
	id[idlen] = '\0';
	memset(out, 'Z', sizeof(out));
	n = shmids_label_make(out, id, name, namelen);
	CHECK(n == len && memcmp(out, s, len) == 0 && out[n] == '\0',
	    "remade label differs: \"%.*s\" vs \"%s\"", (int)len, s, out);
	free(s);
	return 0;
}
