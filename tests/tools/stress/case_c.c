/*
 * Case c: two shm-expand -d, one reference.
 */
#include "stress.h"

static unsigned long lostrace;

void
tmpname(char *buf, const char *base)
{
	snprintf(buf, PATH_MAX, "%s/%s", tmpdir, base);
}

/*
 * Random bits, so NaN payloads and subnormals take part too.  Returns 0,
 * -2 when the segment table is full (try again later), -1 on failure.
 */
static int
make_c(unsigned k, char *label)
{
	static const int types[] = {
		SHMIDS_F64, SHMIDS_F32, SHMIDS_I64, SHMIDS_I32, SHMIDS_RAW
	};
	int type = types[k % 5];
	size_t n = (size_t)(rnd() % 20000), nb, i;
	uint64_t x;
	char *h;

	if ((h = shmids_create_array(cname, 0600, type, n)) == NULL) {
		if (table_full(errno))
			return -2;
		failure("c: create: %s", strerror(errno));
		return -1;
	}
	nb = n * shmids_type_size(type);
	for (i = 0; i < nb; i += sizeof(x)) {
		x = rnd();
		memcpy(h + SHMIDS_HEADER + i, &x,
		    nb - i < sizeof(x) ? nb - i : sizeof(x));
	}
	strcpy(label, shmids_label(h));
	if (shmids_close(h) == -1)
		failure("c: close %s: %s", label, strerror(errno));
	tot.made++;
	return 0;
}

static int
write_input(unsigned k, const char *label)
{
	char path[PATH_MAX];
	FILE *fp;
	int bad;

	tmpname(path, "in");
	if ((fp = fopen(path, "w")) == NULL) {
		failure("c: %s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(fp, "# stress round %u\ncoeff shmids %s\nend\n", k, label);
	bad = ferror(fp);
	if (fclose(fp) == EOF || bad) {
		failure("c: %s: write error", path);
		return -1;
	}
	return 0;
}

/* shm-expand [-d] in > out 2> err; the pid, started when go closes. */
static pid_t
expand_to(int dflag, const char *out, const char *err, int go)
{
	const char *argv[4];
	char tool[PATH_MAX], in[PATH_MAX], o[PATH_MAX], e[PATH_MAX];
	int ofd, efd;
	pid_t pid;

	snprintf(tool, sizeof(tool), "%s/shm-expand", bindir);
	tmpname(in, "in");
	tmpname(o, out);
	tmpname(e, err);
	argv[0] = tool;
	argv[1] = dflag ? "-d" : in;
	argv[2] = dflag ? in : NULL;
	argv[3] = NULL;
	ofd = open(o, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	efd = open(e, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	pid = ofd == -1 || efd == -1 ? -1 : spawn(argv, ofd, efd, go);
	if (ofd == -1 || efd == -1)
		failure("c: %s: %s", tmpdir, strerror(errno));
	if (ofd != -1)
		close(ofd);
	if (efd != -1)
		close(efd);
	return pid;
}

/* The whole of a small file in buf (NUL added); its length, or -1. */
static long
slurp(const char *base, char *buf, size_t size)
{
	char path[PATH_MAX];
	size_t n;
	FILE *fp;

	tmpname(path, base);
	if ((fp = fopen(path, "r")) == NULL)
		return -1;
	n = fread(buf, 1, size - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	return (long)n;
}

static int
same(const char *a, const char *b)
{
	static char x[1 << 22], y[1 << 22];
	long n = slurp(a, x, sizeof(x)), m = slurp(b, y, sizeof(y));

	return n >= 0 && n == m && n < (long)sizeof(x) - 1 &&
	    memcmp(x, y, (size_t)n) == 0;
}

/* Whole expansion, or the line left alone with an error naming it. */
static int
judge_c(int i, int code, const char *label)
{
	char out[8], err[8], msg[512];
	long n;

	snprintf(out, sizeof(out), "out%d", i);
	snprintf(err, sizeof(err), "err%d", i);
	n = slurp(err, msg, sizeof(msg));
	if (code == 0 && same(out, "ref") && n == 0) {
		tot.expanded++;
		return 1;
	}
	if (code == 1 && same(out, "in") && n > 0 &&
	    strstr(msg, label) != NULL) {
		lostrace++;
		return 0;
	}
	violation("c: shm-expand -d #%d on %s: exit %d, output %s, "
	    "stderr \"%.200s\"", i, label, code, same(out, "ref") ?
	    "expanded" : same(out, "in") ? "unexpanded" : "wrong", msg);
	return 0;
}

static int
reference_c(void)
{
	char msg[256];
	pid_t pid;
	int code;

	if ((pid = expand_to(0, "ref", "referr", -1)) == -1)
		return -1;
	code = exitcode(reap(pid));
	if (code != 0 || slurp("referr", msg, sizeof(msg)) != 0) {
		if (!stopsig)
			failure("c: shm-expand exited %d: %s", code, msg);
		return -1;
	}
	return 0;
}

static void
race_c(const char *label)
{
	pid_t pid[2];
	int go[2], code[2], i, good = 0;

	if (mkpipe(go) == -1)
		return;
	pid[0] = expand_to(1, "out0", "err0", go[0]);
	pid[1] = expand_to(1, "out1", "err1", go[0]);
	xclose(go[0]);
	xclose(go[1]);
	for (i = 0; i < 2; i++)
		code[i] = pid[i] == -1 ? -1 : exitcode(reap(pid[i]));
	if (stopsig || pid[0] == -1 || pid[1] == -1)
		return;
	for (i = 0; i < 2; i++)
		good += judge_c(i, code[i], label);
	if (good == 0)
		violation("c: %s: neither shm-expand -d wrote the expansion",
		    label);
}

/* Whatever happened, the segment must be gone; if not, we remove it. */
static void
gone_c(const char *label, int raced)
{
	void *h;

	if ((h = shmids_open(label)) == NULL && errno == ENOENT) {
		tot.removed += raced;
		return;
	}
	if (raced)
		violation("c: %s is still there after shm-expand -d", label);
	if (h != NULL)
		shmids_close(h);
	if (shmids_remove(label) == 0)
		tot.removed++;
	else
		failure("c: remove %s: %s", label, strerror(errno));
}

void
case_c(long long until)
{
	char label[SHMIDS_LABEL_MAX + 1];
	struct counts c0 = tot;
	unsigned k = 0;
	int ok, r;

	do {
		if ((r = make_c(k, label)) == -2) {
			nap(50 * MS);
			continue;
		}
		if (r == -1)
			break;
		ok = write_input(k, label) == 0 && reference_c() == 0;
		if (ok)
			race_c(label);
		gone_c(label, ok && !stopsig);
		k++;
	} while (!stopsig && mono() < until);
	printf("stress: c: %u rounds of two shm-expand -d: made %lu "
	    "expanded %lu, failed cleanly %lu, removed %lu\n", k,
	    tot.made - c0.made, tot.expanded - c0.expanded, lostrace,
	    tot.removed - c0.removed);
}
