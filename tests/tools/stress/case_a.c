/*
 * Case a: many writers, one name.
 */
#include "stress.h"

struct arec {
	int		 shmid;
	unsigned	 w, k;
	char		 label[SHMIDS_LABEL_MAX + 1];
};

static struct arec *arecs;
static size_t	 narec, caparec;

/* Element j of writer w's k-th segment names its writer and index. */
static int64_t
aval(unsigned w, unsigned k, size_t j)
{
	return (int64_t)((uint64_t)w << 48 | (uint64_t)k << 24 | j);
}

/* Counts differ, so a segment handed to the wrong reader shows. */
static size_t
acount(unsigned w, unsigned k)
{
	return 1 + (w * 31 + k) % 64;
}

static void
writer_a(unsigned w, int go, int rep)
{
	char line[LINEMAX], label[SHMIDS_LABEL_MAX + 1], c, *h;
	unsigned k;
	size_t j, n;
	int64_t v;

	/* Parked until the parent closes go: every writer starts at once. */
	while (read(go, &c, 1) == -1 && errno == EINTR)
		;
	for (k = 0; k < pern; k++) {
		n = acount(w, k);
		h = shmids_create_array(name, 0600, SHMIDS_I64, n);
		if (h == NULL) {
			snprintf(line, sizeof(line), "E %u %u %d\n", w, k,
			    errno);
			say(rep, line);
			_exit(0);	/* the report says it all */
		}
		for (j = 0; j < n; j++) {
			v = aval(w, k, j);
			memcpy(h + SHMIDS_HEADER + j * sizeof(v), &v,
			    sizeof(v));
		}
		snprintf(label, sizeof(label), "%s", shmids_label(h));
		if (shmids_seal(h) == -1 || shmids_close(h) == -1)
			_exit(1);
		snprintf(line, sizeof(line), "L %u %u %s\n", w, k, label);
		say(rep, line);
	}
	_exit(0);
}

static int
adata_ok(const struct shmids_array *a, unsigned w, unsigned k)
{
	const char *p = a->data;
	size_t j;
	int64_t v;

	if (a->type != SHMIDS_I64 || a->count != acount(w, k))
		return 0;
	for (j = 0; j < a->count; j++) {
		memcpy(&v, p + j * sizeof(v), sizeof(v));
		if (v != aval(w, k, j))
			return 0;
	}
	return 1;
}

/* Open a reported label at once, while the other writers go on. */
static void
verify_a(const struct arec *r)
{
	struct shmids_array a;
	const char *sp = strchr(r->label, ' ');
	char *h;

	if (sp == NULL || strcmp(sp + 1, name) != 0)
		violation("a: writer %u made \"%s\", not named %s", r->w,
		    r->label, name);
	if ((h = shmids_open(r->label)) == NULL) {
		violation("a: %s (writer %u, #%u) does not open: %s",
		    r->label, r->w, r->k, strerror(errno));
		return;
	}
	tot.opened++;
	if (strcmp(shmids_label(h), r->label) != 0 ||
	    shmids_array(h, &a) == -1 || !adata_ok(&a, r->w, r->k))
		violation("a: %s does not hold writer %u's segment #%u",
		    r->label, r->w, r->k);
	else
		tot.verified++;
	if (shmids_close(h) == -1)
		failure("a: close %s: %s", r->label, strerror(errno));
}

static void
line_a(char *s)
{
	struct arec r, *n;
	int e, off = 0;

	if (sscanf(s, "L %u %u %n", &r.w, &r.k, &off) == 2 && off > 0 &&
	    strlen(s + off) <= SHMIDS_LABEL_MAX) {
		strcpy(r.label, s + off);
		r.shmid = shmid_of(r.label);
		if (narec == caparec) {
			caparec = caparec ? caparec * 2 : 1024;
			if ((n = realloc(arecs, caparec * sizeof(*n))) == NULL) {
				failure("a: out of memory");
				return;
			}
			arecs = n;
		}
		arecs[narec++] = r;
		tot.made++;
		verify_a(&r);
	} else if (sscanf(s, "E %u %u %d", &r.w, &r.k, &e) == 3) {
		if (!table_full(e))
			failure("a: writer %u, segment #%u: %s", r.w, r.k,
			    strerror(e));
	}
	else
		failure("a: bad report \"%s\"", s);
}

static int
byshmid(const void *a, const void *b)
{
	const struct arec *x = a, *y = b;

	return (x->shmid > y->shmid) - (x->shmid < y->shmid);
}

/* Sorted by shmid, two equal neighbours are one label handed out twice. */
static void
unique_a(void)
{
	size_t i;

	qsort(arecs, narec, sizeof(*arecs), byshmid);
	for (i = 1; i < narec; i++)
		if (arecs[i].shmid == arecs[i - 1].shmid)
			violation("a: shmid %d reported by writer %u #%u and "
			    "writer %u #%u", arecs[i].shmid, arecs[i - 1].w,
			    arecs[i - 1].k, arecs[i].w, arecs[i].k);
}

static void
remove_a(void)
{
	size_t i;

	for (i = 0; i < narec; i++) {
		if (i > 0 && arecs[i].shmid == arecs[i - 1].shmid)
			continue;
		if (shmids_remove(arecs[i].label) == 0)
			tot.removed++;
		else
			failure("a: remove %s: %s", arecs[i].label,
			    strerror(errno));
	}
	narec = 0;
}

static void
round_a(void)
{
	struct lines l;
	pid_t pid[MAXW];
	unsigned w;
	int go[2], rep[2], st;

	if (mkpipe(go) == -1)
		return;
	if (mkpipe(rep) == -1) {
		xclose(go[0]);
		xclose(go[1]);
		return;
	}
	for (w = 0; w < nwriters; w++)
		if ((pid[w] = fork_kid(1)) == 0) {
			in_child(go[0], rep[1]);
			writer_a(w, go[0], rep[1]);
		}
	xclose(go[0]);
	xclose(rep[1]);
	xclose(go[1]);
	lines_init(&l, rep[0]);
	while (!stopsig && lines_serve(&l, line_a))
		;
	xclose(rep[0]);
	for (w = 0; w < nwriters; w++)
		if (pid[w] != -1 && (st = exitcode(reap(pid[w]))) != 0 &&
		    !stopsig)
			failure("a: writer %u exited %d", w, st);
	unique_a();
	remove_a();
}

void
case_a(long long until)
{
	struct counts c0 = tot;
	unsigned rounds = 0;

	do {
		round_a();
		rounds++;
	} while (!stopsig && mono() < until);
	printf("stress: a: %u rounds of %u writers x %u, one name: made %lu "
	    "opened %lu verified %lu removed %lu\n", rounds, nwriters, pern,
	    tot.made - c0.made, tot.opened - c0.opened,
	    tot.verified - c0.verified, tot.removed - c0.removed);
}
