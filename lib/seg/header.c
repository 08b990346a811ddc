/*
 * The 128-byte header, format-spec.md section 2.  Readers copy the header
 * once and check the copy, so a writer rewriting it meanwhile cannot make
 * them act on two different versions.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "seg.h"

/*
 * "shmids" and the version: 1, 2 for a table, 3 for a column-major
 * table (format-spec.md 2.7, 9), 4 for a stream (10.1)
 */
static const char magic[] = "shmids";

int
shmids_hdr_known(int v)
{
	return v == '1' || v == '2' || v == '3' || v == '4';
}

static const char *
native_order(void)
{
	const unsigned short one = 1;

	return *(const unsigned char *)&one ? "le" : "be";
}

/* n in width decimal digits, zero-padded, at h */
static void
digits(char *h, size_t width, size_t n)
{
	for (; width > 0; width--, n /= 10)
		h[width - 1] = (char)('0' + n % 10);
}

/*
 * cols 0: a 1-D segment, version 1, as shmids 1.1 wrote it, or 4 (a
 * stream, 10.1) when order is HDR_STREAM; else a table, version 2, or
 * 3 when order is SHMIDS_COLMAJOR (the caller passes it only for rows >
 * 1 and cols > 1: 2.7).
 */
void
shmids_hdr_write(char *h, const char *id, const char *name, int type,
    size_t count, size_t cols, int order)
{
	char label[SHMIDS_LABEL_MAX + 1];
	size_t n;

	memset(h, 0, SHMIDS_HEADER);
	n = shmids_label_make(label, id, name, strlen(name));
	memcpy(h, label, n + 1);
	h[n + 1] = '\n';
	memcpy(h + HDR_MAGIC, magic, 6);
	h[HDR_MAGIC + 6] = cols == 0 ? (order == HDR_STREAM ? '4' : '1') :
	    order == SHMIDS_COLMAJOR ? '3' : '2';
	h[HDR_MAGIC + 7] = ' ';
	memcpy(h + HDR_TYPE, shmids_type_name(type), 3);
	h[HDR_TYPE + 3] = ' ';
	memcpy(h + HDR_ORDER, native_order(), 2);
	h[HDR_ORDER + 2] = ' ';
	digits(h + HDR_COUNT, HDR_COUNTSZ, count);
	h[HDR_COUNT + HDR_COUNTSZ] = ' ';
	h[HDR_STATE] = 'w';
	h[HDR_STATE + 1] = '\n';
	if (cols > 0) {
		digits(h + HDR_COLS, HDR_COLSSZ, cols);
		h[SHMIDS_HEADER - 1] = '\n';
	}
}

/*
 * Check the label area of copy c against the id it must carry.  Its
 * padding is checked with the other fields, once the magic says the
 * header is ours: bad padding is a corrupt header, not a stale label.
 * want (wantlen bytes, or NULL) is the label the caller named, parsed
 * already: a header that carries it needs no parse of its own.
 */
static int
check_label(const char *c, const char *id, const char *want, size_t wantlen,
    struct hdr *out)
{
	const char *name;
	size_t len, namelen, idlen;

	len = strnlen(c, HDR_LABELSZ);
	if (len > SHMIDS_LABEL_MAX || c[len + 1] != '\n')
		return ESTALE;
	if (want != NULL && len == wantlen && memcmp(c, want, len) == 0) {
		memcpy(out->label, c, len + 1);
		out->namepos = strlen(id) + 1;
		return 0;
	}
	if (shmids_label_parse(c, len, &idlen, &name, &namelen) == -1 ||
	    strlen(id) != idlen || memcmp(c, id, idlen) != 0)
		return ESTALE;
	memcpy(out->label, c, len + 1);
	out->namepos = (size_t)(name - c);
	return 0;
}

/*
 * The reserved bytes: NUL (versions 1 and 4), or the shape of a table
 * (versions 2 and 3: NUL NUL, 7 digits of cols, LF; format-spec.md
 * 2.7).  0 or EBADMSG.
 */
static int
check_shape(const char *c, struct hdr *out)
{
	size_t i, cols = 0;

	out->cols = 0;
	for (i = HDR_RESERVED; i < HDR_COLS; i++)
		if (c[i] != '\0')
			return EBADMSG;
	out->order = out->version == '3' ? SHMIDS_COLMAJOR : SHMIDS_ROWMAJOR;
	if (out->version == '1' || out->version == '4') {
		for (; i < SHMIDS_HEADER; i++)
			if (c[i] != '\0')
				return EBADMSG;
		return 0;
	}
	for (i = 0; i < HDR_COLSSZ; i++) {
		char d = c[HDR_COLS + i];

		if (d < '0' || d > '9')
			return EBADMSG;
		cols = cols * 10 + (size_t)(d - '0');
	}
	if (cols == 0 || c[SHMIDS_HEADER - 1] != '\n')
		return EBADMSG;
	out->cols = cols;
	return 0;
}

/*
 * Label padding, type, order, count, state and reserved bytes; returns
 * 0 or EBADMSG.  out->label is the label check_label() found.
 */
static int
check_fields(const char *c, struct hdr *out)
{
	char t[4];
	size_t i, count = 0;

	for (i = strlen(out->label) + 2; i < HDR_LABELSZ; i++)
		if (c[i] != '\0')
			return EBADMSG;

	memcpy(t, c + HDR_TYPE, 3);
	t[3] = '\0';
	if ((out->type = shmids_type_parse(t)) == -1 ||
	    c[HDR_TYPE + 3] != ' ' || c[HDR_ORDER + 2] != ' ' ||
	    memcmp(c + HDR_ORDER, native_order(), 2) != 0 ||
	    c[HDR_COUNT + HDR_COUNTSZ] != ' ' || c[HDR_STATE + 1] != '\n' ||
	    (c[HDR_STATE] != 'w' && c[HDR_STATE] != 'r'))
		return EBADMSG;
	for (i = 0; i < HDR_COUNTSZ; i++) {
		char d = c[HDR_COUNT + i];

		if (d < '0' || d > '9' || count > ((size_t)-1 - 9) / 10)
			return EBADMSG;
		count = count * 10 + (size_t)(d - '0');
	}
	if (check_shape(c, out) != 0 ||
	    (out->cols > 0 && count % out->cols != 0))
		return EBADMSG;
	/*
	 * Version 3 is written only for rows > 1 and cols > 1, where the
	 * order changes the bytes: one form for every segment (2.7).
	 */
	if (out->version == '3' && (out->cols < 2 || count / out->cols < 2))
		return EBADMSG;
	/* A stream's payload is its ring, bytes to the array calls (10.1). */
	if (out->version == '4' && out->type != SHMIDS_RAW)
		return EBADMSG;
	out->count = count;
	out->state = c[HDR_STATE];
	return 0;
}

/*
 * Check the header at h of a segment of size bytes whose id is id (and,
 * unless want is NULL, expected to carry label want of wantlen bytes:
 * the caller still compares out->label with it).  Returns 0 or the
 * errno of format-spec.md 2.3 (ESTALE, EBADMSG).  The state is read
 * first, with acquire order, so that a reader that sees 'r' also sees
 * the payload the writer stored before sealing.
 */
int
shmids_hdr_read(const volatile char *h, size_t size, const char *id,
    const char *want, size_t wantlen, struct hdr *out)
{
	char c[SHMIDS_HEADER];
	size_t i;
	int e, state;

	out->version = 0;
	if (size < SHMIDS_HEADER)
		return ESTALE;
	state = shmids_hdr_state(h);
	for (i = 0; i < SHMIDS_HEADER; i++)
		c[i] = h[i];
	if ((e = check_label(c, id, want, wantlen, out)) != 0)
		return e;
	/* out->version tells a later version from no header of ours */
	out->version = memcmp(c + HDR_MAGIC, magic, 6) == 0 &&
	    c[HDR_MAGIC + 7] == ' ' ? c[HDR_MAGIC + 6] : 0;
	if (!shmids_hdr_known(out->version))
		return ESTALE;
	if ((e = check_fields(c, out)) != 0)
		return e;
	out->state = state == 'r' ? 'r' : 'w';
	if (out->count > (size - SHMIDS_HEADER) / shmids_type_size(out->type))
		return EBADMSG;
	return 0;
}

/*
 * The id of the label in n bytes copied from h, whatever segment they
 * were copied from, if they begin a header of ours (label and magic):
 * its length, with id set to it and a NUL; else 0.
 */
size_t
shmids_hdr_labelid(const char *h, size_t n, char id[SHMIDS_LABEL_MAX + 1])
{
	const char *name;
	size_t len, idlen, namelen;

	/* a header of ours, of any version read (a table's too) */
	if (n < SHMIDS_HEADER || memcmp(h + HDR_MAGIC, magic, 6) != 0 ||
	    !shmids_hdr_known(h[HDR_MAGIC + 6]) ||
	    h[HDR_MAGIC + 7] != ' ')
		return 0;
	len = strnlen(h, HDR_LABELSZ);
	if (len > SHMIDS_LABEL_MAX || h[len + 1] != '\n' ||
	    shmids_label_parse(h, len, &idlen, &name, &namelen) == -1)
		return 0;
	memcpy(id, h, idlen);
	id[idlen] = '\0';
	return idlen;
}

/*
 * Residue of a writer killed before it wrote its header
 * (format-spec.md 2.4): n bytes copied from the start of a segment of
 * size bytes, none of them or all 128 NUL.
 */
int
shmids_hdr_residue(const char *h, size_t n, size_t size)
{
	size_t i;

	if (n == 0)
		return size == 0;
	if (n < SHMIDS_HEADER)
		return 0;
	for (i = 0; i < SHMIDS_HEADER; i++)
		if (h[i] != '\0')
			return 0;
	return 1;
}

int
shmids_hdr_state(const volatile char *h)
{
#if defined(__GNUC__)
	return __atomic_load_n(h + HDR_STATE, __ATOMIC_ACQUIRE);
#else
	return h[HDR_STATE];
#endif
}

/* The release store pairs with the acquire load in shmids_hdr_state(). */
void
shmids_hdr_seal(char *h)
{
#if defined(__GNUC__)
	__atomic_store_n(h + HDR_STATE, 'r', __ATOMIC_RELEASE);
#else
	*(volatile char *)(h + HDR_STATE) = 'r';
#endif
}

/*
 * shmids_proc_stat: /proc/PID/stat's state (field 3) and start time
 * (field 22, clock ticks since boot; 0 if not there): 0, or -1 if it
 * cannot be read (no such process, no /proc).  The fields follow the
 * last ')': the command name may hold one.  errno unchanged.  A
 * stream's writer and readers are known by their start time too
 * (format-spec.md 10.5), as pids are reused.
 */
int
shmids_proc_stat(pid_t pid, char *state, unsigned long long *start)
{
	char path[32], buf[1024], *p;
	ssize_t n;
	int fd, i, e = errno;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		errno = e;
		return -1;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	errno = e;
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if ((p = strrchr(buf, ')')) == NULL || p[1] != ' ')
		return -1;
	*state = p[2];
	for (p += 2, i = 3; i < 22 && (p = strchr(p, ' ')) != NULL; i++)
		p++;
	if (p == NULL || sscanf(p, "%llu", start) != 1)
		*start = 0;
	return 0;
}

/*
 * A process that has exited but that its parent has not reaped yet (a
 * zombie, state Z, or X while it goes) still answers kill(2), and fills
 * nothing any more: 1 if pid is one, by /proc/PID/stat (Linux), else 0.
 */
static int
zombie(pid_t pid)
{
	unsigned long long start;
	char state;

	return shmids_proc_stat(pid, &state, &start) == 0 &&
	    (state == 'Z' || state == 'X');
}

/*
 * For a segment still in state 'w': EAGAIN while its creator lives,
 * EOWNERDEAD once it is gone or a zombie (format-spec.md 2.2).  A pid we
 * cannot see (0, from another pid namespace) is taken as alive: waiting
 * is safe, handing out a half-written array is not.
 */
int
shmids_writer_state(pid_t cpid)
{
	if (cpid <= 0)
		return EAGAIN;
	if ((kill(cpid, 0) == 0 || errno == EPERM) && !zombie(cpid))
		return EAGAIN;
	return EOWNERDEAD;
}
