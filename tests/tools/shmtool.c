/*
 * shmtool: what the test suite needs that the shell cannot do.  Every
 * command that makes a segment prints its label (or shmid) on a line of
 * its own, so that tests/helper.bash can remove it in teardown.  A
 * failing library call prints the errno name (ENOENT, ESTALE, ...) and
 * exits 1; a usage error exits 2.
 *
 * The hostile headers are written by hand from format-spec.md section 2,
 * not with the library, so that they also check the library's layout.
 */
#include <sys/types.h>
#include <sys/ipc.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "shmids.h"
#include "shmids_paper.h"

#define HDR		128
#define KEYPREFIX	0x53480000u

static const struct {
	const char	*name;
	int		 type;
	size_t		 size;
} types[] = {
	{ "raw", SHMIDS_RAW, 1 }, { "f64", SHMIDS_F64, 8 },
	{ "f32", SHMIDS_F32, 4 }, { "i64", SHMIDS_I64, 8 },
	{ "i32", SHMIDS_I32, 4 },
};

static const struct {
	int		 e;
	const char	*name;
} errnames[] = {
	{ EINVAL, "EINVAL" }, { ENAMETOOLONG, "ENAMETOOLONG" },
	{ ENOENT, "ENOENT" }, { EACCES, "EACCES" }, { ESTALE, "ESTALE" },
	{ EBADMSG, "EBADMSG" }, { EAGAIN, "EAGAIN" }, { EMLINK, "EMLINK" },
	{ EOWNERDEAD, "EOWNERDEAD" }, { ENOMEM, "ENOMEM" }, { EPERM, "EPERM" },
	{ EIDRM, "EIDRM" }, { ENOSPC, "ENOSPC" }, { ERANGE, "ERANGE" },
	{ EPROTOTYPE, "EPROTOTYPE" }, { EEXIST, "EEXIST" }, { EFBIG, "EFBIG" },
};

static void
usage(void)
{
	fputs("usage: shmtool create NAME TYPE COUNT [MODE]\n"
	    "       shmtool set NAME TYPE HEXBITS...\n"
	    "       shmtool random NAME TYPE COUNT SEED\n"
	    "       shmtool paper NAME NBYTES [close|exit|_exit]\n"
	    "       shmtool paperopen LABEL\n"
	    "       shmtool open|bits LABEL\n"
	    "       shmtool openwait LABEL SECONDS\n"
	    "       shmtool cmp LABEL1 LABEL2\n"
	    "       shmtool header SHMID\n"
	    "       shmtool raw SIZE\n"
	    "       shmtool hostile KIND NAME\n"
	    "       shmtool mimic LABEL\n"
	    "       shmtool rewrite LABEL KIND\n"
	    "       shmtool rdonly LABEL\n"
	    "       shmtool writer NAME SECONDS\n"
	    "       shmtool forkfill NAME COUNT SECONDS exit|_exit\n"
	    "       shmtool forkexec NAME COUNT\n"
	    "       shmtool forkdaemon NAME null|pipe\n"
	    "       shmtool forkclose NAME\n"
	    "       shmtool foreign NAME SECONDS\n"
	    "       shmtool killwriter NAME\n"
	    "       shmtool hold LABEL SECONDS\n"
	    "       shmtool shrink PATH SECONDS\n"
	    "       shmtool find PREFIX\n"
	    "       shmtool maxrss PROGRAM [ARG ...]\n"
	    "       shmtool get TYPE < FILE\n"
	    "       shmtool table NAME TYPE ROWS COLS\n"
	    "       shmtool matrix NAME TYPE ROWS COLS C|F|ORDER\n"
	    "       shmtool shape LABEL|ID\n"
	    "       shmtool dims LABEL|ID\n", stderr);
	exit(2);
}

/* Print errno's name and exit 1: tests compare the name. */
static void
fail(void)
{
	int e = errno;
	size_t i;

	for (i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
		if (errnames[i].e == e) {
			printf("%s\n", errnames[i].name);
			exit(1);
		}
	printf("errno %d\n", e);
	exit(1);
}

static size_t
typeindex(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strcmp(types[i].name, name) == 0)
			return i;
	usage();
	return 0;
}

static unsigned long long
number(const char *s, int base)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, base);
	if (*s == '\0' || *end != '\0' || errno != 0)
		usage();
	return v;
}

/* Seconds, decimals allowed; negative or nan for shmids_open_wait(). */
static double
seconds(const char *s)
{
	double v;
	char *end;

	errno = 0;
	v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || errno != 0)
		usage();
	return v;
}

static void
snooze(double secs)
{
	struct timespec ts;

	if (!(secs > 0 && secs < 1e6))
		return;
	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* Store the low size bytes of v as one element, native order. */
static void
store(char *p, size_t size, unsigned long long v)
{
	uint64_t u64 = v;
	uint32_t u32 = (uint32_t)v;
	unsigned char u8 = (unsigned char)v;

	if (size == 8)
		memcpy(p, &u64, 8);
	else if (size == 4)
		memcpy(p, &u32, 4);
	else
		memcpy(p, &u8, 1);
}

static void
fill_value(char *p, int type, size_t i)
{
	double d = (double)i;
	float f = (float)i;
	int64_t l = (int64_t)i;
	int32_t n = (int32_t)i;

	switch (type) {
	case SHMIDS_F64: memcpy(p + 8 * i, &d, 8); break;
	case SHMIDS_F32: memcpy(p + 4 * i, &f, 4); break;
	case SHMIDS_I64: memcpy(p + 8 * i, &l, 8); break;
	case SHMIDS_I32: memcpy(p + 4 * i, &n, 4); break;
	default: p[i] = (char)(unsigned char)i; break;
	}
}

static char *
make(const char *name, int type, size_t count, int mode)
{
	char *shm;

	if ((shm = shmids_create_array(name, mode, type, count)) == NULL)
		fail();
	return shm;
}

static void
finish(char *shm)
{
	printf("%s\n", shmids_label(shm));
	if (shmids_seal(shm) == -1 || shmids_close(shm) == -1)
		fail();
}

static int
cmd_create(int argc, char **argv)
{
	size_t t, i, count;
	char *shm;
	int mode = 0600;

	if (argc != 4 && argc != 5)
		usage();
	t = typeindex(argv[2]);
	count = (size_t)number(argv[3], 10);
	if (argc == 5)
		mode = (int)number(argv[4], 8);
	shm = make(argv[1], types[t].type, count, mode);
	for (i = 0; i < count; i++)
		fill_value(shm + HDR, types[t].type, i);
	finish(shm);
	return 0;
}

/* A table of ROWS x COLS, element i as create fills it. */
static int
cmd_table(int argc, char **argv)
{
	size_t t, i, rows, cols;
	char *shm;

	if (argc != 5)
		usage();
	t = typeindex(argv[2]);
	rows = (size_t)number(argv[3], 10);
	cols = (size_t)number(argv[4], 10);
	if ((shm = shmids_create_table(argv[1], 0600, types[t].type, rows,
	    cols)) == NULL)
		fail();
	for (i = 0; i < rows * cols; i++)
		fill_value(shm + HDR, types[t].type, i);
	finish(shm);
	return 0;
}

/*
 * A table of ROWS x COLS made by shmids_create_matrix() in ORDER (C, F,
 * or a number: any int, to try a bad one), element (i, j) holding
 * i * COLS + j as create fills element i: a reader that honours the
 * order sees 0, 1, 2, ... row by row (format-spec.md 2.7).
 */
static int
cmd_matrix(int argc, char **argv)
{
	size_t t, i, j, rows, cols;
	char *shm;
	int order;

	if (argc != 6)
		usage();
	t = typeindex(argv[2]);
	rows = (size_t)number(argv[3], 10);
	cols = (size_t)number(argv[4], 10);
	order = strcmp(argv[5], "C") == 0 ? SHMIDS_ROWMAJOR :
	    strcmp(argv[5], "F") == 0 ? SHMIDS_COLMAJOR :
	    (int)number(argv[5], 10);
	if ((shm = shmids_create_matrix(argv[1], 0600, types[t].type, rows,
	    cols, order)) == NULL)
		fail();
	if (rows * cols > 0) {
		char *tmp = malloc(rows * cols * types[t].size);

		if (tmp == NULL)
			fail();
		for (i = 0; i < rows * cols; i++)
			fill_value(tmp, types[t].type, i);
		for (i = 0; i < rows; i++)
			for (j = 0; j < cols; j++)
				memcpy(shm + HDR + (order == SHMIDS_COLMAJOR ?
				    i + j * rows : i * cols + j) * types[t].size,
				    tmp + (i * cols + j) * types[t].size,
				    types[t].size);
		free(tmp);
	}
	finish(shm);
	return 0;
}

/*
 * "ndim order rows cols" of a segment, three ways: attached
 * (shmids_dims()), by shmids_stat_dims() and by shmids_scan_dims();
 * order C, F, or 0 printed as '-'.
 */
static int
dimsfor(const struct shmids_info *si, const struct shmids_dims *d,
    void *arg)
{
	if (strcmp(si->id, ((char **)arg)[0]) != 0)
		return 0;
	printf(" scan %d %c %zu %zu", d->ndim, d->order ? d->order : '-',
	    d->rows, d->cols);
	return 1;
}

static int
cmd_dims(int argc, char **argv)
{
	struct shmids_info si;
	struct shmids_dims d;
	char id[SHMIDS_LABEL_MAX + 1], *shm;
	char *arg[1];

	if (argc != 2)
		usage();
	snprintf(id, sizeof(id), "%.*s", (int)strcspn(argv[1], " "), argv[1]);
	if ((shm = shmids_open(argv[1])) == NULL)
		fail();
	if (shmids_dims(shm, &d) != d.ndim)
		fail();
	printf("open %d %c %zu %zu", d.ndim, d.order, d.rows, d.cols);
	shmids_close(shm);
	if (shmids_stat_dims(id, &si, &d, 0) == -1)
		fail();
	printf(" stat %d %c %zu %zu", d.ndim, d.order ? d.order : '-',
	    d.rows, d.cols);
	arg[0] = id;
	if (shmids_scan_dims(dimsfor, arg, 0) != 1)
		printf(" scan none");
	printf("\n");
	return 0;
}

/*
 * "ndim rows cols" of a segment, three ways: attached
 * (shmids_shape()), by shmids_stat_shape() and by shmids_scan_shape();
 * LABEL|ID a label, whose id the other two look up.
 */
static int
scanfor(const struct shmids_info *si, const struct shmids_shape *sh,
    void *arg)
{
	if (strcmp(si->id, ((char **)arg)[0]) != 0)
		return 0;
	printf(" scan %d %zu %zu", sh->ndim, sh->rows, sh->cols);
	return 1;
}

static int
cmd_shape(int argc, char **argv)
{
	struct shmids_info si;
	struct shmids_shape sh;
	char id[SHMIDS_LABEL_MAX + 1], *shm;
	char *arg[1];

	if (argc != 2)
		usage();
	snprintf(id, sizeof(id), "%.*s", (int)strcspn(argv[1], " "), argv[1]);
	if ((shm = shmids_open(argv[1])) == NULL)
		fail();
	if (shmids_shape(shm, &sh) != sh.ndim)
		fail();
	printf("open %d %zu %zu", sh.ndim, sh.rows, sh.cols);
	shmids_close(shm);
	if (shmids_stat_shape(id, &si, &sh, 0) == -1)
		fail();
	printf(" stat %d %zu %zu", sh.ndim, sh.rows, sh.cols);
	arg[0] = id;
	if (shmids_scan_shape(scanfor, arg, 0) != 1)
		printf(" scan none");
	printf("\n");
	return 0;
}

static int
cmd_set(int argc, char **argv)
{
	size_t t, i, n;
	char *shm;

	if (argc < 3)
		usage();
	t = typeindex(argv[2]);
	n = (size_t)(argc - 3);
	shm = make(argv[1], types[t].type, n, 0600);
	for (i = 0; i < n; i++)
		store(shm + HDR + i * types[t].size, types[t].size,
		    number(argv[3 + i], 16));
	finish(shm);
	return 0;
}

/* Random bit patterns: NaNs, infinities and subnormals included. */
static int
cmd_random(int argc, char **argv)
{
	size_t t, i, nbytes;
	uint64_t x;
	char *shm;

	if (argc != 5)
		usage();
	t = typeindex(argv[2]);
	nbytes = (size_t)number(argv[3], 10) * types[t].size;
	x = number(argv[4], 10) | 1;
	shm = make(argv[1], types[t].type, (size_t)number(argv[3], 10), 0600);
	for (i = 0; i + 8 <= nbytes; i += 8) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		memcpy(shm + HDR + i, &x, 8);
	}
	for (; i < nbytes; i++)
		shm[HDR + i] = (char)(i * 37);
	finish(shm);
	return 0;
}

/* The paper's API: create, fill, end as asked; "close" also reads back. */
static int
cmd_paper(int argc, char **argv)
{
	const char *how = argc == 4 ? argv[3] : "close";
	char *shm, *rd, label[SHMIDS_LABEL_MAX + 2];
	int i, n;

	if (argc != 3 && argc != 4)
		usage();
	n = (int)number(argv[2], 10);
	if ((shm = shm_create(argv[1], 0600, n)) == NULL)
		fail();
	for (i = 0; i < n; i++)
		shm[HDR + i] = (char)(i % 251);
	snprintf(label, sizeof(label), "%s", shm);
	printf("%s\n", label);
	fflush(stdout);
	if (strcmp(how, "exit") == 0)
		exit(0);
	if (strcmp(how, "_exit") == 0)
		_exit(0);
	if (shm_close(shm) == -1)
		fail();
	if ((rd = shm_open(label)) == NULL)
		fail();
	for (i = 0; i < n; i++)
		if (rd[HDR + i] != (char)(i % 251)) {
			printf("byte %d differs\n", i);
			return 1;
		}
	return shm_close(rd) == -1 ? 1 : 0;
}

static int
cmd_paperopen(int argc, char **argv)
{
	char *shm;

	if (argc != 2)
		usage();
	if ((shm = shm_open(argv[1])) == NULL)
		fail();
	printf("%s\n", shm);
	return shm_close(shm) == -1 ? 1 : 0;
}

static const char *
typename(int type)
{
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (types[i].type == type)
			return types[i].name;
	return "?";
}

static size_t
typesize(int type)
{
	return types[typeindex(typename(type))].size;
}

static int waiting;		/* openwait: shmids_open_wait() ... */
static double waitsecs;		/* ... for so long */

/* Open label and check that the library agrees with itself. */
static char *
openchecked(const char *label, struct shmids_array *a)
{
	size_t n = strcspn(label, "\n");
	const char *l;
	char *shm;

	shm = !waiting ? shmids_open(label) :
	    shmids_open_wait(label, waitsecs);
	if (shm == NULL)
		fail();
	if ((l = shmids_label(shm)) == NULL || strlen(l) != n ||
	    strncmp(l, label, n) != 0 || strcmp(l, shm) != 0) {
		printf("label mismatch\n");
		exit(3);
	}
	if (shmids_array(shm, a) == -1)
		fail();
	if (a->count > 0 && (char *)a->data != shm + HDR) {
		printf("payload not at offset %d\n", HDR);
		exit(3);
	}
	return shm;
}

static int
cmd_open(int argc, char **argv)
{
	struct shmids_array a;
	double fsum = 0;
	uint64_t isum = 0;	/* wraps: a checksum, not a number */
	size_t i;
	char *shm;

	if (argc != 2)
		usage();
	shm = openchecked(argv[1], &a);
	for (i = 0; i < a.count; i++) {
		const char *p = (const char *)a.data;
		double d; float f; int64_t l; int32_t n;

		switch (a.type) {
		case SHMIDS_F64: memcpy(&d, p + 8 * i, 8); fsum += d; break;
		case SHMIDS_F32: memcpy(&f, p + 4 * i, 4); fsum += f; break;
		case SHMIDS_I64: memcpy(&l, p + 8 * i, 8); isum += (uint64_t)l; break;
		case SHMIDS_I32: memcpy(&n, p + 4 * i, 4); isum += (uint64_t)n; break;
		default: isum += (unsigned char)p[i]; break;
		}
	}
	if (a.type == SHMIDS_F64 || a.type == SHMIDS_F32)
		printf("%s %zu %.17g\n", typename(a.type), a.count, fsum);
	else
		printf("%s %zu %lld\n", typename(a.type), a.count,
		    (long long)isum);
	return shmids_close(shm) == -1 ? 1 : 0;
}

/* As open, waiting SECONDS for a writer still filling. */
static int
cmd_openwait(int argc, char **argv)
{
	if (argc != 3)
		usage();
	waitsecs = seconds(argv[2]);
	waiting = 1;
	return cmd_open(2, argv);
}

/* Each element's bits in hex, native order, on one line. */
static int
cmd_bits(int argc, char **argv)
{
	struct shmids_array a;
	size_t i, size;
	char *shm;

	if (argc != 2)
		usage();
	shm = openchecked(argv[1], &a);
	size = typesize(a.type);
	for (i = 0; i < a.count; i++) {
		const char *p = (const char *)a.data + i * size;
		uint64_t u64; uint32_t u32;

		if (i > 0)
			putchar(' ');
		if (size == 8) {
			memcpy(&u64, p, 8);
			printf("%016" PRIx64, u64);
		} else if (size == 4) {
			memcpy(&u32, p, 4);
			printf("%08" PRIx32, u32);
		} else
			printf("%02x", (unsigned char)*p);
	}
	putchar('\n');
	return shmids_close(shm) == -1 ? 1 : 0;
}

static int
cmd_cmp(int argc, char **argv)
{
	struct shmids_array a, b;
	size_t i, size;

	if (argc != 3)
		usage();
	openchecked(argv[1], &a);
	openchecked(argv[2], &b);
	if (a.type != b.type) {
		printf("type %s != %s\n", typename(a.type), typename(b.type));
		return 1;
	}
	if (a.count != b.count) {
		printf("count %zu != %zu\n", a.count, b.count);
		return 1;
	}
	size = typesize(a.type);
	if (a.count > 0 && memcmp(a.data, b.data, a.count * size) != 0) {
		for (i = 0; memcmp((char *)a.data + i * size,
		    (char *)b.data + i * size, size) == 0; i++)
			;
		printf("element %zu differs\n", i);
		return 1;
	}
	printf("same\n");
	return 0;
}

/* The raw header bytes of any segment (root may read every segment). */
static int
cmd_header(int argc, char **argv)
{
	struct shmid_ds ds;
	int id;
	char *p;

	if (argc != 2)
		usage();
	id = (int)number(argv[1], 10);
	if (shmctl(id, IPC_STAT, &ds) == -1 ||
	    (p = shmat(id, NULL, SHM_RDONLY)) == (void *)-1)
		fail();
	fwrite(p, 1, ds.shm_segsz < HDR ? ds.shm_segsz : HDR, stdout);
	shmdt(p);
	return 0;
}

/* Another program's segment: private key, bytes that mean nothing to us. */
static int
cmd_raw(int argc, char **argv)
{
	size_t size;
	int id;
	char *p;

	if (argc != 2)
		usage();
	size = (size_t)number(argv[1], 10);
	if ((id = shmget(IPC_PRIVATE, size, IPC_CREAT | 0600)) == -1)
		fail();
	printf("%d\n", id);
	if ((p = shmat(id, NULL, 0)) != (void *)-1) {
		memset(p, 'x', size);
		shmdt(p);
	}
	return 0;
}

/* A segment with our key prefix (or none), made without the library. */
static char *
forge(size_t size, int *idp, int keyed)
{
	key_t key;
	char *p;
	int id;

	srand((unsigned)(getpid() ^ time(NULL)));
	if (!keyed)
		id = shmget(IPC_PRIVATE, size, IPC_CREAT | 0600);
	else do {
		key = (key_t)(KEYPREFIX | ((unsigned)rand() & 0xffff));
		id = shmget(key, size, IPC_CREAT | IPC_EXCL | 0600);
	} while (id == -1 && errno == EEXIST);
	if (id == -1 || (p = shmat(id, NULL, 0)) == (void *)-1)
		fail();
	*idp = id;
	return p;
}

/* A well-formed header (format-spec.md section 2) written by hand. */
static void
header(char *h, int id, const char *name, const char *type, size_t count,
    int state)
{
	const unsigned short one = 1;
	int n;

	memset(h, 0, HDR);
	n = sprintf(h, "%d %s", id, name);
	h[n + 1] = '\n';
	sprintf(h + 80, "shmids1 %s %s %020zu %c", type,
	    *(const unsigned char *)&one ? "le" : "be", count, state);
	h[117] = '\n';
	h[118] = '\0';
}

/*
 * Kinds, with the errno shmids_open() must give (format-spec.md 2.3):
 * good (none), small, nonul, nonl, padding, magic, version (4), foreign,
 * zero (ESTALE: 128 NUL bytes under another program's mode, 0600),
 * residue (ESTALE: 128 NUL bytes of mode 0601, format-spec.md 2.4);
 * padding, type, order,
 * orderxx, count, state, reserved, bigcount, bigtype, wrapcount,
 * hugecount, v2noshape ... v2cols, v3noshape ... v3big (EBADMSG); v2,
 * v3 (none: a table 1 x 1, a column-major table 2 x 2); dead (EOWNERDEAD: state w, creator gone); nokey
 * (none: a good header under a key that is not ours).  The payload is 8 bytes: bigcount claims 2 f64,
 * bigtype 2 i32 retyped f64, wrapcount 2^61 + 1 f64 (8 bytes once the
 * product wraps), hugecount 10^20 - 1.  roomy (none) is good with 256 MiB
 * more than it declares, of which only the header's page is touched.
 * sparse (none) declares 2^27 f64 (1 GiB) that no one ever wrote.
 */
static int
cmd_hostile(int argc, char **argv)
{
	const unsigned short one = 1;
	const char *kind, *name;
	size_t size = HDR + 8;
	char *h;
	int id;

	if (argc != 3)
		usage();
	kind = argv[1];
	name = argv[2];
	if (strcmp(kind, "small") == 0)
		size = 64;
	else if (strcmp(kind, "roomy") == 0)
		size += (size_t)256 << 20;
	else if (strcmp(kind, "sparse") == 0)
		size = HDR + ((size_t)1 << 30);
	else if (strncmp(kind, "v3", 2) == 0)
		size = HDR + 32;	/* 2 x 2 f64 */
	h = forge(size, &id, strcmp(kind, "nokey") != 0);
	if (strcmp(kind, "small") == 0) {
		memset(h, 0, size);
		snprintf(h, size, "%d %s", id, name);
		printf("%d %s\n", id, name);
		return 0;
	}
	header(h, id, name, "f64", 1, 'r');
	if (strcmp(kind, "good") == 0 || strcmp(kind, "roomy") == 0 ||
	    strcmp(kind, "nokey") == 0)
		;
	else if (strcmp(kind, "sparse") == 0)
		header(h, id, name, "f64", (size_t)1 << 27, 'r');
	else if (strcmp(kind, "nonul") == 0)
		memset(h + strlen(h), 'x', 80 - strlen(h));
	else if (strcmp(kind, "nonl") == 0)
		h[strlen(h) + 1] = '\0';
	else if (strcmp(kind, "padding") == 0)
		h[79] = 'x';
	else if (strcmp(kind, "magic") == 0)
		memcpy(h + 80, "shmidz", 6);
	else if (strcmp(kind, "version") == 0)
		h[86] = '4';	/* later than 1.4's 3 (format-spec.md 9) */
	else if (strncmp(kind, "v3", 2) == 0) {
		/*
		 * a column-major table's header (format-spec.md 2.7), 2 x 2:
		 * v3 good; broken as v2's, or with one row or one column,
		 * which no writer writes as version 3
		 */
		header(h, id, name, "f64", 4, 'r');
		h[86] = '3';
		memcpy(h + 120, "0000002\n", 8);
		if (strcmp(kind, "v3noshape") == 0)
			memset(h + 120, 0, 8);
		else if (strcmp(kind, "v3zero") == 0)
			memcpy(h + 120, "0000000", 7);
		else if (strcmp(kind, "v3digit") == 0)
			h[121] = 'x';
		else if (strcmp(kind, "v3nonl") == 0)
			h[127] = '\0';
		else if (strcmp(kind, "v3futex") == 0)
			h[119] = '1';
		else if (strcmp(kind, "v3cols") == 0)
			h[126] = '3';	/* count 4 is no multiple of 3 */
		else if (strcmp(kind, "v3onecol") == 0)
			h[126] = '1';	/* 4 x 1 */
		else if (strcmp(kind, "v3onerow") == 0)
			h[126] = '4';	/* 1 x 4 */
		else if (strcmp(kind, "v3empty") == 0)
			h[114] = '0';	/* 0 x 2 */
		else if (strcmp(kind, "v3big") == 0)
			h[114] = '6';	/* 3 x 2: 48 bytes in 32 */
		else if (strcmp(kind, "v3") != 0) {
			shmdt(h);
			shmctl(id, IPC_RMID, NULL);
			usage();
		}
	}
	else if (strncmp(kind, "v2", 2) == 0) {
		/* a table's header (format-spec.md 2.7), 1 x 1, or broken */
		h[86] = '2';
		memcpy(h + 120, "0000001\n", 8);
		if (strcmp(kind, "v2noshape") == 0)
			memset(h + 120, 0, 8);
		else if (strcmp(kind, "v2zero") == 0)
			memcpy(h + 120, "0000000", 7);
		else if (strcmp(kind, "v2digit") == 0)
			h[121] = 'x';
		else if (strcmp(kind, "v2nonl") == 0)
			h[127] = '\0';
		else if (strcmp(kind, "v2futex") == 0)
			h[119] = '1';
		else if (strcmp(kind, "v2cols") == 0)
			h[126] = '2';	/* count 1 is no multiple of 2 */
	}
	else if (strcmp(kind, "foreign") == 0) {
		memset(h, 0, HDR);
		strcpy(h, "another program's data, not a header");
	} else if (strcmp(kind, "type") == 0)
		memcpy(h + 88, "f16", 3);
	else if (strcmp(kind, "order") == 0)
		memcpy(h + 92, *(const unsigned char *)&one ? "be" : "le", 2);
	else if (strcmp(kind, "orderxx") == 0)
		memcpy(h + 92, "xx", 2);
	else if (strcmp(kind, "count") == 0)
		h[114] = 'x';
	else if (strcmp(kind, "state") == 0)
		h[116] = 'x';
	else if (strcmp(kind, "reserved") == 0)
		h[127] = 'x';
	else if (strcmp(kind, "bigcount") == 0)
		header(h, id, name, "f64", 2, 'r');
	else if (strcmp(kind, "bigtype") == 0) {
		header(h, id, name, "i32", 2, 'r');
		memcpy(h + 88, "f64", 3);
	} else if (strcmp(kind, "wrapcount") == 0)
		header(h, id, name, "f64", (size_t)1 << 61 | 1, 'r');
	else if (strcmp(kind, "hugecount") == 0) {
		header(h, id, name, "f64", 1, 'r');
		memset(h + 95, '9', 20);
	} else if (strcmp(kind, "zero") == 0)
		memset(h, 0, size);
	else if (strcmp(kind, "residue") == 0) {
		/* what a writer killed before its header leaves (2.4) */
		struct shmid_ds ds;

		memset(h, 0, size);
		if (shmctl(id, IPC_STAT, &ds) == -1)
			fail();
		ds.shm_perm.mode = 0601;
		if (shmctl(id, IPC_SET, &ds) == -1)
			fail();
	}
	else if (strcmp(kind, "dead") == 0)
		h[116] = 'w';
	else {
		shmdt(h);
		shmctl(id, IPC_RMID, NULL);
		usage();
	}
	printf("%d %s\n", id, name);
	shmdt(h);
	return 0;
}

/*
 * A segment with our key prefix and a whole header carrying LABEL, which
 * is not its own shmid: our label text copied by someone else.  Prints
 * the new segment's shmid.
 */
static int
cmd_mimic(int argc, char **argv)
{
	const char *sp;
	char *h;
	int id;

	if (argc != 2 || (sp = strchr(argv[1], ' ')) == NULL)
		usage();
	h = forge(HDR + 8, &id, 1);
	header(h, 0, sp + 1, "f64", 1, 'r');
	memset(h, 0, 80);
	memcpy(h, argv[1], strlen(argv[1]));
	h[strlen(argv[1]) + 1] = '\n';
	printf("%d\n", id);
	shmdt(h);
	return 0;
}

/*
 * A reader opens LABEL; then a writer (this process, through a second,
 * read-write attach) rewrites the header as KIND says; then the reader
 * asks for the array again and reads every element it is given.  Prints
 * the errno name if shmids_array() refuses, else "TYPE COUNT" (the
 * header checked at open: format-spec.md 2.3); exits 3
 * if the view reaches past the segment (it would also fault or trip
 * ASan/valgrind while reading).  Kinds: bigcount (count + 1), bigtype
 * (f64 over i32/f32/raw), wrapcount (2^61 + 1), hugecount (10^20 - 1),
 * label (no NUL in the label area), same (rewritten with the same bytes).
 */
static int
cmd_rewrite(int argc, char **argv)
{
	struct shmids_array a;
	struct shmid_ds ds;
	const char *kind;
	char *shm, *w, c[24];
	size_t i, count;
	unsigned sum = 0;
	int id;

	if (argc != 3)
		usage();
	kind = argv[2];
	if ((shm = shmids_open(argv[1])) == NULL)
		fail();
	id = atoi(argv[1]);
	if (shmctl(id, IPC_STAT, &ds) == -1 ||
	    (w = shmat(id, NULL, 0)) == (void *)-1)
		fail();
	memcpy(c, w + 95, 20);
	c[20] = '\0';
	count = (size_t)strtoull(c, NULL, 10);
	if (strcmp(kind, "bigcount") == 0) {
		snprintf(c, sizeof(c), "%020zu", count + 1);
		memcpy(w + 95, c, 20);
	} else if (strcmp(kind, "bigtype") == 0)
		memcpy(w + 88, "f64", 3);
	else if (strcmp(kind, "wrapcount") == 0) {
		snprintf(c, sizeof(c), "%020zu", (size_t)1 << 61 | 1);
		memcpy(w + 95, c, 20);
	} else if (strcmp(kind, "hugecount") == 0)
		memset(w + 95, '9', 20);
	else if (strcmp(kind, "label") == 0)
		memset(w, 'x', 80);
	else if (strcmp(kind, "same") != 0)
		usage();
	shmdt(w);
	if (shmids_array(shm, &a) == -1)
		fail();
	if (a.count > (ds.shm_segsz - HDR) / typesize(a.type)) {
		printf("out of bounds: %s %zu in %zu bytes\n",
		    typename(a.type), a.count, (size_t)ds.shm_segsz);
		exit(3);
	}
	for (i = 0; i < a.count * typesize(a.type); i++)
		sum += ((const unsigned char *)a.data)[i];
	printf("%s %zu\n", typename(a.type), a.count);
	return sum == 0xffffffffu ? 1 : shmids_close(shm) == -1 ? 1 : 0;
}

/*
 * Write through a reader's pointer in a child: the header from
 * shmids_open(), the payload from shmids_array(), and the payload from
 * shmids_get() of a reference line.  Prints, for each, the signal that
 * killed the child ("SIGSEGV"), or "wrote" if the write went through.
 * The child restores the default action first: sanitizers catch SIGSEGV.
 */
static void
trywrite(volatile char *p)
{
	pid_t pid;
	int st;

	fflush(stdout);
	if ((pid = fork()) == -1)
		fail();
	if (pid == 0) {
		signal(SIGSEGV, SIG_DFL);
		signal(SIGBUS, SIG_DFL);
		*p = *p;
		_exit(0);
	}
	if (waitpid(pid, &st, 0) == -1)
		fail();
	if (WIFSIGNALED(st))
		printf("%s", WTERMSIG(st) == SIGSEGV ? "SIGSEGV" :
		    WTERMSIG(st) == SIGBUS ? "SIGBUS" : "signal");
	else
		printf("%s", WEXITSTATUS(st) == 0 ? "wrote" : "failed");
}

static int
cmd_rdonly(int argc, char **argv)
{
	struct shmids_array a, g;
	char line[SHMIDS_LABEL_MAX + 16];
	char *shm;

	if (argc != 2)
		usage();
	if ((shm = shmids_open(argv[1])) == NULL || shmids_array(shm, &a) == -1)
		fail();
	if (a.count == 0) {
		printf("empty segment\n");
		return 2;
	}
	snprintf(line, sizeof(line), "x shmids %s\n", argv[1]);
	if (shmids_get(line, NULL, a.type, &g) == -1)
		fail();
	trywrite(shm);
	putchar(' ');
	trywrite(a.data);
	putchar(' ');
	trywrite(g.data);
	putchar('\n');
	shmids_array_free(&g);
	return shmids_close(shm) == -1 ? 1 : 0;
}

/* A writer that fills slowly: state w for SECONDS, then sealed. */
static int
cmd_writer(int argc, char **argv)
{
	double secs;
	size_t i;
	char *shm;

	if (argc != 3)
		usage();
	secs = seconds(argv[2]);
	shm = make(argv[1], SHMIDS_F64, 10, 0600);
	printf("%s\n", shmids_label(shm));
	fflush(stdout);
	snooze(secs);
	for (i = 0; i < 10; i++)
		fill_value(shm + HDR, SHMIDS_F64, i);
	return shmids_close(shm) == -1 ? 1 : 0;
}

/*
 * A writer that forks its filler (format-spec.md 2.2): the child fills
 * COUNT f64 with 0 .. COUNT-1 over SECONDS and exits normally; the
 * parent at once ends as HOW says (exit, _exit).
 */
static int
cmd_forkfill(int argc, char **argv)
{
	size_t i, n;
	double secs;
	char *shm;
	pid_t pid;

	if (argc != 5)
		usage();
	n = (size_t)number(argv[2], 10);
	secs = seconds(argv[3]);
	shm = make(argv[1], SHMIDS_F64, n, 0600);
	printf("%s\n", shmids_label(shm));
	fflush(stdout);
	if ((pid = fork()) == -1)
		fail();
	if (pid == 0) {
		/* Off the caller's pipe: $(...) waits for no filler. */
		if (freopen("/dev/null", "w", stdout) == NULL)
			_exit(1);
		snooze(secs);
		for (i = 0; i < n; i++)
			fill_value(shm + HDR, SHMIDS_F64, i);
		return 0;
	}
	if (strcmp(argv[4], "_exit") == 0)
		_exit(0);
	return 0;
}

/*
 * COUNT filled segments, then one fork that execs true(1), then return
 * from main: the exit seal must seal every one, and the fork must leave
 * this process descriptors to open.
 */
static int
cmd_forkexec(int argc, char **argv)
{
	size_t i, n;
	char *shm;
	pid_t pid;
	int st;

	if (argc != 3)
		usage();
	n = (size_t)number(argv[2], 10);
	for (i = 0; i < n; i++) {
		shm = make(argv[1], SHMIDS_F64, 1, 0600);
		printf("%s\n", shmids_label(shm));
	}
	fflush(stdout);
	if ((pid = fork()) == -1)
		fail();
	if (pid == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) == -1 || open("/dev/null", O_RDONLY) == -1)
		fail();
	return 0;
}

/*
 * Fill descriptors 3 to 9 as a daemon would after closing them all: with
 * /dev/null, or with the read end of a pipe whose write end stays open
 * (fd 20), where a read blocks.
 */
static void
daemon_fds(const char *how)
{
	int fd, p[2];

	for (fd = 3; fd < 1024; fd++)
		close(fd);
	if (strcmp(how, "null") == 0) {
		for (fd = 3; fd <= 9; fd++)
			if (open("/dev/null", O_RDONLY) != fd)
				_exit(1);
		return;
	}
	if (pipe(p) == -1 || dup2(p[1], 20) == -1)
		_exit(1);
	for (fd = 4; fd <= 9; fd++)
		if (dup2(p[0], fd) == -1)
			_exit(1);
}

/*
 * A writer forks a child that leaves like a daemon (HOW as daemon_fds)
 * and returns from main at once, while the parent has yet to fill its
 * 10 f64: the child's exit must neither seal nor hang (alarm: 5 s).
 */
static int
cmd_forkdaemon(int argc, char **argv)
{
	size_t i;
	char *shm;
	pid_t pid;
	int st;

	if (argc != 3)
		usage();
	shm = make(argv[1], SHMIDS_F64, 10, 0600);
	printf("%s\n", shmids_label(shm));
	fflush(stdout);
	if ((pid = fork()) == -1)
		fail();
	if (pid == 0) {
		daemon_fds(argv[2]);
		alarm(5);
		return 0;
	}
	if (waitpid(pid, &st, 0) == -1)
		fail();
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		printf("child: %s\n", WIFSIGNALED(st) ? strsignal(WTERMSIG(st)) :
		    "exit status not 0");
		return 1;
	}
	if (shm[116] != 'w') {
		printf("sealed by the child, not filled\n");
		return 1;
	}
	for (i = 0; i < 10; i++)
		fill_value(shm + HDR, SHMIDS_F64, i);
	return 0;
}

/*
 * Two filled segments, one fork that execs true(1), then shmids_close()
 * of each and _exit(0): the first stays attached and filling until the
 * second is closed, then both are sealed (and detached) by the closes
 * alone.
 */
static int
cmd_forkclose(int argc, char **argv)
{
	char *a, *b;
	size_t i;
	pid_t pid;
	int st;

	if (argc != 2)
		usage();
	a = make(argv[1], SHMIDS_F64, 10, 0600);
	b = make(argv[1], SHMIDS_F64, 10, 0600);
	for (i = 0; i < 10; i++) {
		fill_value(a + HDR, SHMIDS_F64, i);
		fill_value(b + HDR, SHMIDS_F64, i);
	}
	printf("%s\n%s\n", shmids_label(a), shmids_label(b));
	fflush(stdout);
	if ((pid = fork()) == -1)
		fail();
	if (pid == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) == -1 || shmids_close(a) == -1)
		fail();
	if (a[116] != 'w' || shmids_close(a) != -1 || errno != EINVAL) {
		printf("first segment sealed or still found after its close\n");
		_exit(1);
	}
	if (shmids_close(b) == -1)
		fail();
	_exit(0);
}

/*
 * As writer, but sealed as a program that knows only format-spec.md 2.2
 * would: state 'r' stored by hand, nobody woken, then _exit(2), which
 * seals nothing more (for a file segment, the writer's lock goes).
 */
static int
cmd_foreign(int argc, char **argv)
{
	double secs;
	size_t i;
	char *shm;

	if (argc != 3)
		usage();
	secs = seconds(argv[2]);
	shm = make(argv[1], SHMIDS_F64, 10, 0600);
	printf("%s\n", shmids_label(shm));
	fflush(stdout);
	snooze(secs);
	for (i = 0; i < 10; i++)
		fill_value(shm + HDR, SHMIDS_F64, i);
	__atomic_store_n(shm + 116, 'r', __ATOMIC_RELEASE);
	_exit(0);
}

/* A writer killed with SIGKILL halfway through filling. */
static int
cmd_killwriter(int argc, char **argv)
{
	char label[SHMIDS_LABEL_MAX + 2] = "";
	ssize_t n = 0, r;
	int fd[2], st;
	pid_t pid;

	if (argc != 2)
		usage();
	if (pipe(fd) == -1 || (pid = fork()) == -1)
		fail();
	if (pid == 0) {
		char *shm = make(argv[1], SHMIDS_F64, 1000, 0600);
		const char *l = shmids_label(shm);
		size_t i;

		for (i = 0; i < 500; i++)
			fill_value(shm + HDR, SHMIDS_F64, i);
		if (write(fd[1], l, strlen(l)) == -1)
			_exit(1);
		close(fd[1]);
		for (;;)
			pause();
	}
	close(fd[1]);
	while (n < (ssize_t)sizeof(label) - 1 &&
	    (r = read(fd[0], label + n, sizeof(label) - 1 - (size_t)n)) > 0)
		n += r;
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	if (n == 0) {
		printf("writer failed\n");
		return 1;
	}
	label[n] = '\0';
	printf("%s\n", label);
	return 0;
}

/* A reader that keeps a segment attached for SECONDS. */
static int
cmd_hold(int argc, char **argv)
{
	unsigned secs;
	char *shm;

	if (argc != 3)
		usage();
	secs = (unsigned)number(argv[2], 10);
	if ((shm = shmids_open(argv[1])) == NULL)
		fail();
	printf("held\n");
	fflush(stdout);
	sleep(secs);
	return shmids_close(shm) == -1 ? 1 : 0;
}

/*
 * The owner of a file segment shrinking it under the tools: truncate
 * PATH to nothing and write its first bytes back, as fast as it goes,
 * for SECONDS.  Prints "shrinking" once it starts.
 */
static int
cmd_shrink(int argc, char **argv)
{
	char buf[4096];
	time_t end;
	ssize_t n;
	int fd;

	if (argc != 3)
		usage();
	end = time(NULL) + (time_t)number(argv[2], 10);
	if ((fd = open(argv[1], O_RDWR)) == -1 ||
	    (n = pread(fd, buf, sizeof(buf), 0)) == -1)
		fail();
	printf("shrinking\n");
	fflush(stdout);
	while (time(NULL) < end)
		if (ftruncate(fd, 0) == -1 ||
		    pwrite(fd, buf, (size_t)n, 0) != n)
			fail();
	return 0;
}

/*
 * Shmids of segments with our key prefix whose label area names
 * something starting with prefix; read from the kernel's table without
 * the library, so teardown works even when the tools do not.
 */
static int
cmd_find(int argc, char **argv)
{
	char line[512], area[81], *name, *p;
	long key, id, size;
	size_t n;
	FILE *fp;

	if (argc != 2)
		usage();
	if ((fp = fopen("/proc/sysvipc/shm", "r")) == NULL)
		fail();
	if (fgets(line, sizeof(line), fp) == NULL)
		return 0;
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (sscanf(line, "%ld %ld %*o %ld", &key, &id, &size) != 3 ||
		    ((unsigned long)key & 0xffff0000ul) != KEYPREFIX)
			continue;
		if ((p = shmat((int)id, NULL, SHM_RDONLY)) == (void *)-1)
			continue;
		n = size < 80 ? (size_t)size : 80;
		memcpy(area, p, n);
		area[n] = '\0';
		shmdt(p);
		if ((name = strchr(area, ' ')) != NULL &&
		    strncmp(name + 1, argv[1], strlen(argv[1])) == 0)
			printf("%ld\n", id);
	}
	fclose(fp);
	return 0;
}

/*
 * Run PROGRAM, then print its peak resident set in kB on a line of its
 * own; exits as PROGRAM did (128 + the signal that killed it).
 */
static int
cmd_maxrss(int argc, char **argv)
{
	struct rusage ru;
	pid_t pid;
	int st;

	if (argc < 2)
		usage();
	fflush(stdout);
	if ((pid = fork()) == -1)
		fail();
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) == -1 || getrusage(RUSAGE_CHILDREN, &ru) == -1)
		fail();
	printf("%ld\n", (long)ru.ru_maxrss);
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st);
}

/*
 * shmids_get() of the first line of stdin, continuation lines from
 * stdin: prints the number of values, or errno's name.
 */
static int
cmd_get(int argc, char **argv)
{
	struct shmids_array a;
	char *line = NULL;
	size_t cap = 0;

	if (argc != 2)
		usage();
	if (getline(&line, &cap, stdin) == -1)
		fail();
	if (shmids_get(line, stdin, types[typeindex(argv[1])].type, &a) == -1)
		fail();
	printf("%zu\n", a.count);
	shmids_array_free(&a);
	free(line);
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct {
		const char	*name;
		int		(*fn)(int, char **);
	} cmds[] = {
		{ "create", cmd_create }, { "set", cmd_set },
		{ "random", cmd_random }, { "paper", cmd_paper },
		{ "paperopen", cmd_paperopen }, { "open", cmd_open },
		{ "bits", cmd_bits }, { "cmp", cmd_cmp },
		{ "header", cmd_header }, { "raw", cmd_raw },
		{ "hostile", cmd_hostile }, { "writer", cmd_writer },
		{ "forkfill", cmd_forkfill },
		{ "forkexec", cmd_forkexec },
		{ "forkdaemon", cmd_forkdaemon },
		{ "forkclose", cmd_forkclose },
		{ "killwriter", cmd_killwriter }, { "hold", cmd_hold },
		{ "openwait", cmd_openwait }, { "foreign", cmd_foreign },
		{ "find", cmd_find }, { "mimic", cmd_mimic },
		{ "rewrite", cmd_rewrite }, { "rdonly", cmd_rdonly },
		{ "maxrss", cmd_maxrss }, { "shrink", cmd_shrink },
		{ "get", cmd_get }, { "table", cmd_table },
		{ "shape", cmd_shape }, { "matrix", cmd_matrix },
		{ "dims", cmd_dims },
	};
	size_t i;

	if (argc < 2)
		usage();
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (strcmp(argv[1], cmds[i].name) == 0)
			return cmds[i].fn(argc - 1, argv + 1);
	usage();
	return 2;
}
