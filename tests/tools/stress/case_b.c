/*
 * Case b: a cleaner among writers and readers.
 */
#include "stress.h"
#include "case_b.h"

struct bstate B;

static void
start_run(void)
{
	char path[PATH_MAX], age[16], pat[SHMIDS_NAME_MAX + 2];
	const char *argv[] = { path, "-v", "-s", age, "-N", pat, NULL };
	struct brun *n;
	struct bact *a = &B.act[B.nact];
	int p[2];

	if (B.nrun == B.caprun) {
		B.caprun = B.caprun ? B.caprun * 2 : 256;
		if ((n = realloc(B.run, B.caprun * sizeof(*n))) == NULL) {
			failure("b: out of memory");
			return;
		}
		B.run = n;
	}
	if (mkpipe(p) == -1)
		return;
	snprintf(path, sizeof(path), "%s/shm-rm", bindir);
	snprintf(age, sizeof(age), "%us", B.age);
	snprintf(pat, sizeof(pat), "%s*", bname);
	B.run[B.nrun].t0 = mono();
	a->pid = spawn(argv, p[1], -1, -1);
	xclose(p[1]);
	if (a->pid == -1) {
		xclose(p[0]);
		return;
	}
	a->run = (int)B.nrun++;
	lines_init(&a->l, p[0]);
	B.nact++;
}

static void
finish_run(size_t i)
{
	struct bact *a = &B.act[i];
	struct brun *u = &B.run[a->run];
	int code = exitcode(reap(a->pid));

	u->t1 = mono();
	u->w1 = (long long)time(NULL);
	xclose(a->l.fd);
	if (code != 0 && !stopsig)
		failure("b: shm-rm exited %d", code);
	B.act[i] = B.act[--B.nact];
	if (B.nact == 0)
		B.next = mono() + 50 * MS;
}

static void
serve_run(size_t i)
{
	struct bact *a = &B.act[i];
	char *s;
	int r;

	r = lines_fill(&a->l);
	while ((s = lines_next(&a->l)) != NULL)
		rmev_line(s, a->run);
	if (r == 0 || (r == -1 && errno != EINTR))
		finish_run(i);
}

static void
close_cmds(void)
{
	size_t i;

	for (i = 0; i < BREADERS; i++) {
		xclose(B.cmd[i]);
		B.cmd[i] = -1;
	}
}

/* Fill p with what to poll; -1 in *wi or *ri for a closed pipe. */
static nfds_t
poll_set(struct pollfd *p, const struct lines *wl, const struct lines *rl,
    int *wi, int *ri)
{
	nfds_t n = 0;
	size_t i;

	*wi = *ri = -1;
	if (wl->fd != -1) {
		*wi = (int)n;
		p[n++].fd = wl->fd;
	}
	if (rl->fd != -1) {
		*ri = (int)n;
		p[n++].fd = rl->fd;
	}
	for (i = 0; i < B.nact; i++)
		p[n++].fd = B.act[i].l.fd;
	for (i = 0; i < n; i++) {
		p[i].events = POLLIN;
		p[i].revents = 0;
	}
	return n;
}

/*
 * Until end: cleaners one after another, now and then two at once (to
 * race each other).  Then readers are told to let go, and we read until
 * writers and readers are gone.
 */
static void
loop_b(long long end, struct lines *wl, struct lines *rl)
{
	struct pollfd p[4];
	long long now;
	size_t i, base;
	nfds_t n;
	int wi, ri;

	while (!stopsig && (wl->fd != -1 || rl->fd != -1 || B.nact > 0)) {
		now = mono();
		if (now < end && B.nact == 0 && now >= B.next) {
			start_run();
			if (B.nrun % 3 == 0)
				start_run();
		}
		if (now >= end)
			close_cmds();
		else
			send_due(now);
		n = poll_set(p, wl, rl, &wi, &ri);
		if (poll(p, n, 20) <= 0)
			continue;
		if (wi != -1 && p[wi].revents && !lines_serve(wl, wline_b)) {
			xclose(wl->fd);
			wl->fd = -1;
		}
		if (ri != -1 && p[ri].revents && !lines_serve(rl, rline_b)) {
			xclose(rl->fd);
			rl->fd = -1;
		}
		base = (size_t)(wi != -1) + (size_t)(ri != -1);
		for (i = n - base; i-- > 0; )
			if (p[base + i].revents)
				serve_run(i);
	}
}

/* A removal reported by a cleaner against what we know of the segment. */
static void
judge_rm(const struct rmev *e)
{
	struct brec *r = brec_find(e->label, 0);
	const struct brun *u = &B.run[e->run];

	if (r == NULL) {
		violation("b: shm-rm removed %s, which no writer reported",
		    e->label);
		return;
	}
	if (r->rmrun == -2) {
		violation("b: %s removed by cleaner run %d after we had "
		    "removed it", e->label, e->run);
		return;
	}
	if (r->rmrun != -1) {
		violation("b: %s removed twice (cleaner runs %d and %d)",
		    e->label, r->rmrun, e->run);
		return;
	}
	r->rmrun = e->run;
	tot.removed++;
	B.byclean++;
	if (u->w1 - r->ctime < (long long)B.age)
		violation("b: %s removed %llds after it was made (age %us)",
		    e->label, u->w1 - r->ctime, B.age);
	if (r->wdone == 0 || r->wdone > u->t1)
		violation("b: %s removed while its writer had it attached",
		    e->label);
	if (r->ha != 0 && r->ha < u->t0 && (r->hd == 0 || r->hd > u->t1))
		violation("b: %s removed while a reader had it attached "
		    "(held %.3f s before the run began)", e->label,
		    (double)(u->t0 - r->ha) / NS);
}

/* What no cleaner took, we remove; what vanished otherwise is lost. */
static void
cleanup_b(int judged)
{
	size_t i;

	for (i = 0; i < B.nrec; i++) {
		if (B.rec[i].rmrun != -1)
			continue;
		if (shmids_remove(B.rec[i].label) == 0)
			tot.removed++;
		else if (errno != ENOENT)
			failure("b: remove %s: %s", B.rec[i].label,
			    strerror(errno));
		else if (judged)
			violation("b: %s vanished, and no cleaner reported "
			    "removing it", B.rec[i].label);
	}
}

static int
setup_b(long long dur)
{
	size_t i;

	memset(&B, 0, sizeof(B));
	B.age = dur >= 8 * NS ? 2 : 1;
	B.cap = budget;
	for (B.hsize = 1024; B.hsize < 2 * B.cap; B.hsize *= 2)
		;
	B.rec = calloc(B.cap, sizeof(*B.rec));
	B.hash = malloc(B.hsize * sizeof(*B.hash));
	B.dq = calloc(B.cap, sizeof(*B.dq));
	B.dqdue = calloc(B.cap, sizeof(*B.dqdue));
	if (B.rec == NULL || B.hash == NULL || B.dq == NULL ||
	    B.dqdue == NULL) {
		failure("b: out of memory");
		return -1;
	}
	for (i = 0; i < B.hsize; i++)
		B.hash[i] = -1;
	for (i = 0; i < BREADERS; i++)
		B.cmd[i] = -1;
	return 0;
}

/* Fork writers and readers; their report pipes' read ends in wl, rl. */
static void
fork_b(long long end, struct lines *wl, struct lines *rl)
{
	int wp[2], rp[2], cp[2];
	unsigned i;

	lines_init(wl, -1);
	lines_init(rl, -1);
	if (mkpipe(wp) == -1)
		return;
	if (mkpipe(rp) == -1) {
		xclose(wp[0]);
		xclose(wp[1]);
		return;
	}
	for (i = 0; i < BWRITERS; i++)
		if (fork_kid(1) == 0) {
			in_child(wp[1], -1);
			writer_b(wp[1], end, (unsigned)(B.cap / BWRITERS));
		}
	for (i = 0; i < BREADERS && mkpipe(cp) == 0; i++) {
		if (fork_kid(0) == 0) {
			in_child(cp[0], rp[1]);
			reader_b(cp[0], rp[1]);
		}
		xclose(cp[0]);
		fcntl(cp[1], F_SETFL, O_NONBLOCK);
		B.cmd[i] = cp[1];
	}
	xclose(wp[1]);
	xclose(rp[1]);
	lines_init(wl, wp[0]);
	lines_init(rl, rp[0]);
}

void
case_b(long long dur)
{
	struct lines wl, rl;
	struct counts c0 = tot;
	long long end;
	size_t i;

	if (setup_b(dur) == -1)
		return;
	end = mono() + dur;
	fork_b(end, &wl, &rl);
	loop_b(end, &wl, &rl);
	close_cmds();
	xclose(wl.fd);
	xclose(rl.fd);
	while (B.nact > 0)
		finish_run(B.nact - 1);
	while (nkids > 0)
		if (exitcode(reap(kids[0])) != 0 && !stopsig)
			failure("b: a writer or reader failed");
	if (!stopsig)
		for (i = 0; i < B.nev; i++)
			judge_rm(&B.ev[i]);
	cleanup_b(!stopsig);
	printf("stress: b: %zu shm-rm -s %u runs, %d writers, %d readers: "
	    "made %lu opened %lu verified %lu removed %lu (by shm-rm %lu, "
	    "under a reader %lu), read after removal %lu, opens that lost "
	    "to the cleaner %lu\n", B.nrun, B.age, BWRITERS, BREADERS,
	    tot.made - c0.made, tot.opened - c0.opened,
	    tot.verified - c0.verified, tot.removed - c0.removed, B.byclean,
	    B.byhand, B.readafter, B.lostopen);
	free(B.rec);
	free(B.hash);
	free(B.dq);
	free(B.dqdue);
	free(B.run);
	free(B.ev);
}
