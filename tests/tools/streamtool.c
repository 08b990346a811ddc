/*
 * streamtool: the writers, readers and forgers tests/stream.bats needs
 * (format-spec.md section 10).  The writer prints its stream's label on
 * a line of its own first, so that tests/helper.bash can remove it in
 * teardown.  A failing library call prints the errno name and exits 1;
 * a usage error exits 2.  forge writes the stream header and the
 * descriptors by hand from the spec's offsets (10.2), as another user
 * who may write the stream would, not with the library.
 *
 *	streamtool writer NAME SLOTS CAPACITY COUNT [key=value...]
 *		readers=N overwrite keep mode=0NNN pause=MS doubles=N intr
 *		end=close|exit|_exit|midkill|hold
 *	streamtool reader LABEL [key=value...]
 *		count=N hold=SEQ slow=MS release timeout=S new print intr
 *		(prints "open", then with print "SEQ LOST" a message,
 *		"EBADMSG SEQ" a message skipped, then "end N LOST")
 *	streamtool stat ID
 *	streamtool forge LABEL FIELD VALUE
 *	streamtool explain LABEL ERRNAME
 */
#include <sys/types.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "shmids.h"

static const struct {
	int		 e;
	const char	*name;
} errnames[] = {
	{ EINVAL, "EINVAL" }, { ENOENT, "ENOENT" }, { EACCES, "EACCES" },
	{ ESTALE, "ESTALE" }, { EBADMSG, "EBADMSG" }, { EAGAIN, "EAGAIN" },
	{ EOWNERDEAD, "EOWNERDEAD" }, { EMEDIUMTYPE, "EMEDIUMTYPE" },
	{ ENOMSG, "ENOMSG" }, { EUSERS, "EUSERS" }, { ENOLINK, "ENOLINK" },
	{ EMSGSIZE, "EMSGSIZE" }, { EBADF, "EBADF" }, { EINTR, "EINTR" },
	{ ENOMEM, "ENOMEM" }, { EPERM, "EPERM" },
};

static const char *
errname(int e)
{
	size_t i;

	for (i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
		if (errnames[i].e == e)
			return errnames[i].name;
	return "E?";
}

static int
fail(void)
{
	printf("%s\n", errname(errno));
	return 1;
}

static void
usage(void)
{
	fputs("usage: streamtool writer NAME SLOTS CAPACITY COUNT [key=value...]\n"
	    "       streamtool reader LABEL [key=value...]\n"
	    "       streamtool stat ID\n"
	    "       streamtool forge LABEL FIELD VALUE\n"
	    "       streamtool explain LABEL ERRNAME\n", stderr);
	exit(2);
}

/* key=value options: the value of key, or NULL; a lone key is "1". */
static const char *
opt(int argc, char **argv, const char *key)
{
	size_t n = strlen(key);
	int i;

	for (i = 0; i < argc; i++) {
		if (strncmp(argv[i], key, n) == 0 && argv[i][n] == '=')
			return argv[i] + n + 1;
		if (strcmp(argv[i], key) == 0)
			return "1";
	}
	return NULL;
}

static long long
num(const char *s, long long dflt)
{
	char *end;
	long long v;

	if (s == NULL)
		return dflt;
	v = strtoll(s, &end, 0);
	if (*end != '\0')
		usage();
	return v;
}

static void
nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

static volatile sig_atomic_t signals;

static void
on_usr1(int sig)
{
	(void)sig;
	signals++;
}

/* SIGUSR1 caught with SA_RESTART: the wait ends anyway (EINTR, 10.6). */
static void
catch_usr1(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
}

/*
 * Each message: one i64, its seq; or doubles=N values seq + i.  intr:
 * a loan that waits and is told EINTR by SIGUSR1 says so and goes on.
 */
static int
writer(int argc, char **argv)
{
	struct shmids_stream *w;
	long long count, i, j, d, pause;
	const char *end;
	void *p;
	int flags = 0;

	if (argc < 5)
		usage();
	count = num(argv[4], 0);
	d = num(opt(argc, argv, "doubles"), 0);
	pause = num(opt(argc, argv, "pause"), 0);
	end = opt(argc, argv, "end");
	if (opt(argc, argv, "overwrite"))
		flags |= SHMIDS_STREAM_OVERWRITE;
	if (opt(argc, argv, "keep"))
		flags |= SHMIDS_STREAM_KEEP;
	if (opt(argc, argv, "intr"))
		catch_usr1();
	w = shmids_stream_create(argv[1], (int)num(opt(argc, argv, "mode"),
	    0600), (size_t)num(argv[2], 0), (size_t)num(argv[3], 0),
	    (int)num(opt(argc, argv, "readers"), 1), flags);
	if (w == NULL)
		return fail();
	printf("%s\n", shmids_stream_label(w));
	fflush(stdout);
	for (i = 0; i < count; i++) {
		while ((p = shmids_stream_loan(w, 60)) == NULL && errno == EINTR) {
			printf("EINTR\n");
			fflush(stdout);
		}
		if (p == NULL)
			return fail();
		if (d == 0)
			*(long long *)p = i;
		for (j = 0; j < d; j++)
			((double *)p)[j] = (double)(i + j);
		if (shmids_stream_publish(w, d ? SHMIDS_F64 : SHMIDS_I64,
		    d ? (size_t)d : 1, 0, SHMIDS_ROWMAJOR) != i)
			return fail();
		if (pause > 0)
			nap((long)pause);
	}
	if (end == NULL || strcmp(end, "close") == 0)
		shmids_stream_close(w);
	else if (strcmp(end, "exit") == 0)
		exit(0);
	else if (strcmp(end, "_exit") == 0)
		_exit(0);
	else if (strcmp(end, "midkill") == 0) {
		/* half a message written, never published */
		if ((p = shmids_stream_loan(w, 60)) != NULL)
			memset(p, 0xa5, 4);
		raise(SIGKILL);
	} else if (strcmp(end, "hold") == 0) {
		printf("held\n");
		fflush(stdout);
		while (getchar() != EOF)
			;
		shmids_stream_close(w);
	} else
		usage();
	printf("closed\n");
	return 0;
}

/*
 * Every message, checked: an i64 that is its seq, or doubles seq + i;
 * each seq the last + 1 + what it says was lost.  Prints "end N LOST",
 * or the errno's name, N and LOST, at the end; "bad N" if any failed.
 */
static int
reader(int argc, char **argv)
{
	struct shmids_stream *r;
	struct shmids_msg m;
	long long n = 0, lost = 0, bad = 0, last = -1, count, hold, slow;
	double timeout;
	size_t j;
	int k = 0;

	if (argc < 2)
		usage();
	count = num(opt(argc, argv, "count"), -1);
	hold = num(opt(argc, argv, "hold"), -1);
	slow = num(opt(argc, argv, "slow"), 0);
	timeout = (double)num(opt(argc, argv, "timeout"), 30);
	if (opt(argc, argv, "intr"))
		catch_usr1();
	if ((r = shmids_stream_open(argv[1], opt(argc, argv, "new") ?
	    SHMIDS_STREAM_NEW : 0, timeout)) == NULL)
		return fail();
	printf("open\n");
	fflush(stdout);
	while (n != count) {
		k = shmids_stream_next(r, &m, timeout);
		if (k == -1 && errno == EINTR && opt(argc, argv, "intr")) {
			printf("EINTR\n");
			fflush(stdout);
			continue;
		}
		/* a damaged descriptor: that message skipped (10.7) */
		if (k == -1 && errno == EBADMSG) {
			printf("EBADMSG %lld\n", m.seq);
			last = m.seq;
			continue;
		}
		if (k != 1)
			break;
		if (last >= 0 && m.seq != last + 1 + m.lost)
			bad++;
		if (m.type == SHMIDS_I64 && *(const long long *)m.data != m.seq)
			bad++;
		for (j = 0; m.type == SHMIDS_F64 && j < m.rows; j++)
			bad += ((const double *)m.data)[j] != (double)(m.seq +
			    (long long)j);
		last = m.seq;
		lost += m.lost;
		n++;
		if (opt(argc, argv, "print"))
			printf("%lld %lld\n", m.seq, m.lost);
		if (m.seq == hold) {
			printf("holding %lld\n", hold);
			fflush(stdout);
			for (;;)
				pause();
		}
		/* a monitor's way: let go, then work (10.4) */
		if (opt(argc, argv, "release"))
			shmids_stream_release(r);
		if (slow > 0)
			nap((long)slow);
	}
	if (bad)
		printf("bad %lld\n", bad);
	if (n == count)
		printf("count %lld %lld\n", n, lost);
	else if (k == 0)
		printf("end %lld %lld\n", n, lost);
	else
		printf("%s %lld %lld\n", errname(errno), n, lost);
	shmids_stream_close(r);
	return bad != 0 || (n != count && k != 0);
}

static int
stat_(int argc, char **argv)
{
	struct shmids_stream_info si;
	int i;

	if (argc != 2)
		usage();
	if (shmids_stream_stat(argv[1], &si) == -1)
		return fail();
	printf("slots %zu capacity %zu stride %zu head %lld tail %lld "
	    "state %c readers %d joined %lld flags %d nreaders %d\n",
	    si.slots, si.capacity, si.stride, si.head, si.tail, si.state,
	    si.readers, si.joined, si.flags, si.nreaders);
	for (i = 0; i < si.nreaders; i++)
		printf("reader pos %lld held %d alive %d\n", si.reader[i].pos,
		    si.reader[i].held, si.reader[i].alive);
	return 0;
}

/* The fields of 10.2 by name: offset from the segment, width. */
static const struct {
	const char	*name;
	size_t		 off, width;
} fields[] = {
	{ "magic", 128, 8 }, { "slots", 136, 4 }, { "rtable", 140, 4 },
	{ "capacity", 144, 8 }, { "stride", 152, 8 }, { "descoff", 160, 8 },
	{ "payoff", 168, 8 }, { "policy", 176, 4 }, { "readers", 180, 4 },
	{ "flags", 184, 4 }, { "head", 256, 8 }, { "tail", 384, 8 },
	{ "mask", 640, 8 }, { "pub", 0, 8 }, { "nbytes", 8, 8 },
	{ "rows", 16, 8 }, { "cols", 24, 8 }, { "type", 32, 4 },
	{ "ndim", 36, 4 }, { "order", 40, 4 },
};

/* The segment label names, mapped read-write by hand. */
static char *
map(const char *label, size_t *len)
{
	struct stat st;
	struct shmid_ds ds;
	char *p;
	int fd;

	if (label[0] == '/') {
		char path[SHMIDS_LABEL_MAX + 1];

		snprintf(path, sizeof(path), "%.*s", (int)strcspn(label, " "),
		    label);
		if ((fd = open(path, O_RDWR)) == -1 || fstat(fd, &st) == -1)
			return NULL;
		*len = (size_t)st.st_size;
		p = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		close(fd);
		return p == MAP_FAILED ? NULL : p;
	}
	if (shmctl(atoi(label), IPC_STAT, &ds) == -1)
		return NULL;
	*len = ds.shm_segsz;
	p = shmat(atoi(label), NULL, 0);
	return p == (void *)-1 ? NULL : p;
}

/*
 * FIELD: a stream header's field, or dN.FIELD: descriptor N's (from
 * descoff, as the header says it).
 */
static int
forge(int argc, char **argv)
{
	const char *f = argv[2];
	uint64_t v, descoff;
	size_t i, len, off = 0;
	char *p;

	if (argc != 4)
		usage();
	v = (uint64_t)strtoull(argv[3], NULL, 0);
	if ((p = map(argv[1], &len)) == NULL)
		return fail();
	if (f[0] == 'd' && strchr(f, '.') != NULL) {
		memcpy(&descoff, p + 160, 8);
		off = (size_t)descoff + 64 * (size_t)strtoul(f + 1, NULL, 10);
		f = strchr(f, '.') + 1;
	}
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (strcmp(fields[i].name, f) == 0)
			break;
	if (i == sizeof(fields) / sizeof(fields[0]) ||
	    off + fields[i].off + fields[i].width > len)
		usage();
	if (fields[i].width == 4) {
		uint32_t v32 = (uint32_t)v;

		memcpy(p + off + fields[i].off, &v32, 4);
	} else
		memcpy(p + off + fields[i].off, &v, 8);
	return 0;
}

static int
explain(int argc, char **argv)
{
	char buf[SHMIDS_EXPLAIN_MAX];
	size_t i;

	if (argc != 3)
		usage();
	for (i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
		if (strcmp(errnames[i].name, argv[2]) == 0)
			break;
	if (i == sizeof(errnames) / sizeof(errnames[0]))
		usage();
	shmids_explain(buf, sizeof(buf), argv[1], errnames[i].e);
	printf("%s\n", buf);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc < 2)
		usage();
	if (strcmp(argv[1], "writer") == 0)
		return writer(argc - 1, argv + 1);
	if (strcmp(argv[1], "reader") == 0)
		return reader(argc - 1, argv + 1);
	if (strcmp(argv[1], "stat") == 0)
		return stat_(argc - 1, argv + 1);
	if (strcmp(argv[1], "forge") == 0)
		return forge(argc - 1, argv + 1);
	if (strcmp(argv[1], "explain") == 0)
		return explain(argc - 1, argv + 1);
	usage();
	return 2;
}
