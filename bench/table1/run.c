/*
 * The driver: one row, once.
 */
#include "table1.h"

static void
kidmeas(struct meas *m, const struct kid *w, const struct kid *r)
{
	m->w = w->w;
	m->r = r != NULL ? r->r : w->r;
	m->flt = (double)w->ru.ru_minflt;
	if (r != NULL)
		m->flt += (double)r->ru.ru_minflt;
}

/* Writer, then reader, then removal: the segment's whole life. */
static int
run_seg(const struct row *rw, const char *nbuf, struct meas *m)
{
	struct kid w, r;
	struct args a;
	char out[256], *label = NULL;
	int p[2], ok, id = -1;

	xpipe(p);
	spawn(&w, 0, self, selfargv(&a, "write", rw->name, nbuf, NULL), -1,
	    p[1], rw->notune);
	close(p[1]);
	slurp(p[0], out, sizeof(out));
	close(p[0]);
	ok = reap(&w, 0) == 0;
	out[strcspn(out, "\n")] = '\0';
	if (rw->how == SYSV && out[0] != '\0')
		id = (int)strtol(out, NULL, 10);
	else if (rw->how == SHMIDS && strncmp(out, "x shmids ", 9) == 0)
		label = out + 9;
	if (ok && !stop && (label != NULL || id != -1)) {
		spawn(&r, 1, self, selfargv(&a, "read", rw->name, nbuf,
		    label != NULL ? label : out), -1, -1, rw->notune);
		ok = reap(&r, 1) == 0;
	} else {
		ok = 0;
		memset(&r, 0, sizeof(r));
	}
	if (label != NULL && shmids_remove(label) == -1)
		warn("remove %s", label);
	if (id != -1 && shmctl(id, IPC_RMID, NULL) == -1)
		warn("remove shmid %d", id);
	kidmeas(m, &w, &r);
	return ok ? 0 : -1;
}

/*
 * posix-shm and file-mmap: writer, then reader, which unlinks; if either
 * failed, the driver unlinks (the name comes from the writer's pid).
 */
static int
run_map(const struct row *rw, const char *nbuf, struct meas *m)
{
	struct kid w, r;
	struct args a;
	char out[256], name[128], path[4096];
	int p[2], ok;

	xpipe(p);
	spawn(&w, 0, self, selfargv(&a, "write", rw->name, nbuf, NULL), -1,
	    p[1], 0);
	close(p[1]);
	slurp(p[0], out, sizeof(out));
	close(p[0]);
	ok = reap(&w, 0) == 0;
	out[strcspn(out, "\n")] = '\0';
	mapname(name, sizeof(name), prefix, rw->how, (long)w.pid);
	memset(&r, 0, sizeof(r));
	if (ok && !stop && strcmp(out, name) == 0) {
		spawn(&r, 1, self, selfargv(&a, "read", rw->name, nbuf, name),
		    -1, -1, 0);
		ok = reap(&r, 1) == 0;
	} else {
		ok = 0;
	}
	mappath(path, sizeof(path), rw->how, name);
	if (map_unlink(rw->how, path) == 0)
		ok = 0;			/* the reader should have */
	else if (errno != ENOENT)
		warn("remove %s", path);
	kidmeas(m, &w, &r);
	return ok ? 0 : -1;
}

/* a | b */
static int
run_pipe(const struct row *rw, const char *nbuf, struct meas *m)
{
	struct kid w, r;
	struct args a;
	int p[2], ok;

	xpipe(p);
	spawn(&w, 0, self, selfargv(&a, "write", rw->name, nbuf, NULL), -1,
	    p[1], 0);
	spawn(&r, 1, self, selfargv(&a, "read", rw->name, nbuf, NULL), p[0],
	    -1, 0);
	close(p[0]);
	close(p[1]);
	ok = reap(&w, 0) == 0;
	ok = reap(&r, 1) == 0 && ok;
	kidmeas(m, &w, &r);
	return ok ? 0 : -1;
}

/* a > x; b < x */
static int
run_file(const struct row *rw, const char *nbuf, struct meas *m)
{
	struct kid w, r;
	struct args a;
	char path[4096];
	int fd, ok = 0;

	snprintf(path, sizeof(path), "%s/%sbf-%ld", tmpdir(), prefix,
	    (long)getpid());
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) == -1)
		err(1, "%s", path);
	spawn(&w, 0, self, selfargv(&a, "write", rw->name, nbuf, NULL), -1,
	    fd, 0);
	close(fd);
	memset(&r, 0, sizeof(r));
	if (reap(&w, 0) == 0 && !stop &&
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) != -1) {
		spawn(&r, 1, self, selfargv(&a, "read", rw->name, nbuf,
		    NULL), fd, -1, 0);
		close(fd);
		ok = reap(&r, 1) == 0;
	}
	unlink(path);
	kidmeas(m, &w, &r);
	return ok ? 0 : -1;
}

static int
run_inproc(const struct row *rw, const char *nbuf, struct meas *m)
{
	struct kid w;
	struct args a;
	int ok;

	spawn(&w, 0, self, selfargv(&a, "write", rw->name, nbuf, NULL), -1,
	    -1, 0);
	ok = reap(&w, 0) == 0;
	kidmeas(m, &w, NULL);
	return ok ? 0 : -1;
}

void
run_row(const struct row *rw, size_t n, struct meas *m)
{
	char nbuf[32];
	double t0 = now();
	int r;

	snprintf(nbuf, sizeof(nbuf), "%zu", n);
	memset(m, 0, sizeof(*m));
	rowkids[0] = rowkids[1] = rowkids[2] = 0;
	kiddir = rw->fdir != FD_NONE ? fdirs[rw->fdir].path : NULL;
	if (rw->how == SHMIDS || rw->how == SYSV)
		r = run_seg(rw, nbuf, m);
	else if (rw->how == POSIXSHM || rw->how == FILEMAP)
		r = run_map(rw, nbuf, m);
	else if (rw->how == PIPE)
		r = run_pipe(rw, nbuf, m);
	else if (rw->how == FILEB)
		r = run_file(rw, nbuf, m);
	else
		r = run_inproc(rw, nbuf, m);
	m->total = now() - t0;
	m->ok = r == 0;
	if (!m->ok)
		warnx("%s n=%zu failed", rw->name, n);
	check_stop();
}
