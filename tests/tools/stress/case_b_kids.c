/*
 * Case b's children: writers that make and seal segments, readers that
 * hold them and check their data.
 */
#include "stress.h"
#include "case_b.h"

/* Element j of segment shmid: a reader needs only the label to check. */
static int64_t
bval(int shmid, size_t j)
{
	return (int64_t)((uint64_t)(unsigned)shmid << 32 | j);
}

static int
bdata_ok(const void *h)
{
	struct shmids_array a;
	const char *p;
	int id = shmid_of(h);
	size_t j;
	int64_t v;

	if (shmids_array(h, &a) == -1 || a.type != SHMIDS_I64 ||
	    a.count == 0)
		return 0;
	p = a.data;
	for (j = 0; j < a.count; j++) {
		memcpy(&v, p + j * sizeof(v), sizeof(v));
		if (v != bval(id, j))
			return 0;
	}
	return 1;
}

struct whold {
	char		*h;
	long long	 due;
};

/* Seal and detach; the time sent is one at which it was still attached. */
static void
release_w(char *h, int rep)
{
	char line[LINEMAX], label[SHMIDS_LABEL_MAX + 1];
	long long d;

	snprintf(label, sizeof(label), "%s", shmids_label(h));
	shmids_seal(h);
	d = mono();
	if (shmids_close(h) == -1)
		_exit(1);
	snprintf(line, sizeof(line), "S %lld %s\n", d, label);
	say(rep, line);
}

/*
 * Make one segment and report it at once, so the parent knows it before
 * any cleaner can list it.  Every fourth stays attached and unsealed for
 * longer than the age: a cleaner must spare it however old it gets.
 */
static int
make_b(unsigned k, int rep, struct whold *hs, size_t *nh)
{
	struct shmid_ds ds;
	char line[LINEMAX], *h;
	size_t j, n = 1 + k % 40;
	int64_t v;
	int id;

	if ((h = shmids_create_array(bname, 0600, SHMIDS_I64, n)) == NULL ||
	    shmctl((id = shmid_of(h)), IPC_STAT, &ds) == -1) {
		snprintf(line, sizeof(line), "E %d\n", errno);
		say(rep, line);
		return -1;
	}
	snprintf(line, sizeof(line), "C %lld %s\n", (long long)ds.shm_ctime,
	    shmids_label(h));
	say(rep, line);
	for (j = 0; j < n; j++) {
		v = bval(id, j);
		memcpy(h + SHMIDS_HEADER + j * sizeof(v), &v, sizeof(v));
	}
	if (k % 4 == 0 && *nh < MAXWHOLD) {
		hs[*nh].h = h;
		hs[*nh].due = mono() + NS / 2 + (long long)B.age * NS +
		    (long long)(rnd() % (uint64_t)(B.age * NS));
		(*nh)++;
	} else
		release_w(h, rep);
	return 0;
}

void
writer_b(int rep, long long end, unsigned cap)
{
	struct whold hs[MAXWHOLD];
	long long now;
	size_t nh = 0, i;
	unsigned k = 0;

	while ((now = mono()) < end || nh > 0) {
		for (i = 0; i < nh; )
			if (hs[i].due <= now || now >= end) {
				release_w(hs[i].h, rep);
				hs[i] = hs[--nh];
			} else
				i++;
		if (now < end && k < cap && make_b(k++, rep, hs, &nh) == -1)
			k = cap;
		nap(10 * MS);
	}
	_exit(0);
}

struct rhold {
	char		*h;
	long long	 due;
	char		 label[SHMIDS_LABEL_MAX + 1];
};

static void
open_r(const char *label, int rep, struct rhold *hs, size_t *nh)
{
	char line[LINEMAX], *h;
	long long a;

	if (strlen(label) > SHMIDS_LABEL_MAX)
		return;
	if ((h = shmids_open(label)) == NULL) {
		snprintf(line, sizeof(line), "F %d %s\n", errno, label);
		say(rep, line);
		return;
	}
	a = mono();
	snprintf(line, sizeof(line), "H %lld %d %s\n", a, bdata_ok(h),
	    label);
	say(rep, line);
	hs[*nh].h = h;
	/* 0.3 to 2.5 ages: some holds outlast the age, some do not. */
	hs[*nh].due = a + (long long)(3 + rnd() % 23) * B.age * NS / 10;
	strcpy(hs[*nh].label, label);
	(*nh)++;
}

static void
release_r(struct rhold *r, int rep)
{
	struct shmid_ds ds;
	char line[LINEMAX];
	long long d;
	int gone, ok;

	/* Removal first, so that a good read below is a read after it. */
	gone = shmctl(shmid_of(r->label), IPC_STAT, &ds) == -1 ||
	    (ds.shm_perm.mode & SHM_DEST) != 0;
	ok = bdata_ok(r->h);
	d = mono();
	if (shmids_close(r->h) == -1)
		_exit(1);
	snprintf(line, sizeof(line), "D %lld %d %d %s\n", d, ok, gone,
	    r->label);
	say(rep, line);
}

void
reader_b(int cmd, int rep)
{
	struct rhold hs[MAXRHOLD];
	struct pollfd p;
	struct lines l;
	long long now;
	size_t nh = 0, i;
	char *s;
	int more = 1, r;

	lines_init(&l, cmd);
	while (more || nh > 0) {
		p.fd = cmd;
		p.events = POLLIN;
		if (more && poll(&p, 1, 10) > 0) {
			r = lines_fill(&l);
			while (nh < MAXRHOLD && (s = lines_next(&l)) != NULL)
				open_r(s, rep, hs, &nh);
			if (r == 0 || (r == -1 && errno != EINTR))
				more = 0;
		}
		now = mono();
		for (i = 0; i < nh; )
			if (!more || hs[i].due <= now) {
				release_r(&hs[i], rep);
				hs[i] = hs[--nh];
			} else
				i++;
	}
	_exit(0);
}
