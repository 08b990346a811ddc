/*
 * The children: writers and readers.
 */
#include "table1.h"

/* The paper's idiom: create, fill, print the reference line, close. */
static void
w_shmids(size_t n)
{
	char name[SHMIDS_NAME_MAX + 1];
	char *shm;

	snprintf(name, sizeof(name), "%sx", env_prefix());
	if ((shm = shmids_create_array(name, 0600, SHMIDS_F64, n)) == NULL)
		err(1, "create %s", name);
	fill((double *)(void *)(shm + SHMIDS_HEADER), n);
	/* stdout is a pipe, fully buffered: the line leaves after the seal. */
	printf("x shmids %s\n", shm);
	if (shmids_close(shm) == -1)
		err(1, "close");
	if (fflush(stdout) == EOF)
		err(1, "stdout");
}

static void
w_sysv(size_t n)
{
	char line[32];
	double *x;
	int id;

	if ((id = shmget(IPC_PRIVATE, n * sizeof(double), IPC_CREAT | 0600))
	    == -1)
		err(1, "shmget");
	/* The id goes out first, so the driver can remove it if we die. */
	writeall(1, line, (size_t)snprintf(line, sizeof(line), "%d\n", id));
	if ((x = shmat(id, NULL, 0)) == (void *)-1)
		err(1, "shmat");
	fill(x, n);
	if (shmdt(x) == -1)
		err(1, "shmdt");
}

/* Create, size, map, fill, unmap, close; stdout: the name. */
static void
w_map(const struct row *rw, size_t n)
{
	char name[128], path[4096];
	size_t len = n * sizeof(double);
	double *x;
	int fd;

	mapname(name, sizeof(name), env_prefix(), rw->how, (long)getpid());
	mappath(path, sizeof(path), rw->how, name);
	if ((fd = map_open(rw->how, path, O_RDWR | O_CREAT | O_EXCL, 0600))
	    == -1)
		err(1, "%s", path);
	if (ftruncate(fd, (off_t)len) == -1)
		err(1, "ftruncate %s", path);
	x = map(fd, len, PROT_READ | PROT_WRITE, rw->pop);
	fill(x, n);
	if (munmap(x, len) == -1)
		err(1, "munmap");
	if (close(fd) == -1)
		err(1, "close %s", path);
	printf("%s\n", name);
	if (fflush(stdout) == EOF)
		err(1, "stdout");
}

static void
w_stream(size_t n, int form)
{
	double *x = xmalloc(n * sizeof(double));

	fill(x, n);
	if (form == BIN)
		writeall(1, x, n * sizeof(double));
	else
		write_text(x, n, form);
	free(x);
}

/* The in-process baseline: one program sets and sums its own array. */
static void
inproc(size_t n)
{
	double t0 = now(), t1, *x;

	x = xmalloc(n * sizeof(double));
	fill(x, n);
	t1 = now();
	sumcheck(x, n);
	free(x);
	report('w', t1 - t0);
	report('r', now() - t1);
}

static void
r_shmids(size_t n, const char *label)
{
	struct shmids_array a;
	char *shm;

	if ((shm = shmids_open_flags(label, 0, 0)) == NULL)
		err(1, "%s", label);
	if (shmids_array(shm, &a) == -1)
		err(1, "%s", label);
	if (a.type != SHMIDS_F64 || a.count != n)
		errx(1, "%s: type %d count %zu", label, a.type, a.count);
	sumcheck(a.data, n);
	if (shmids_close(shm) == -1)
		err(1, "close");
}

static void
r_sysv(size_t n, const char *arg)
{
	double *x;
	char *e;
	long id = strtol(arg, &e, 10);

	if (e == arg || *e != '\0' || id < 0 || id > INT_MAX)
		errx(2, "%s: bad shmid", arg);
	if ((x = shmat((int)id, NULL, SHM_RDONLY)) == (void *)-1)
		err(1, "shmat %s", arg);
	sumcheck(x, n);
	if (shmdt(x) == -1)
		err(1, "shmdt");
}

/* Open, check the size, map read-only, sum, unmap; the caller unlinks. */
static void
r_map(const struct row *rw, size_t n, const char *path)
{
	size_t len = n * sizeof(double);
	struct stat st;
	double *x;
	int fd;

	if ((fd = map_open(rw->how, path, O_RDONLY, 0)) == -1)
		err(1, "%s", path);
	if (fstat(fd, &st) == -1)
		err(1, "fstat %s", path);
	if (st.st_size < 0 || (uintmax_t)st.st_size != len)
		errx(1, "%s: %jd bytes, want %zu", path, (intmax_t)st.st_size,
		    len);
	x = map(fd, len, PROT_READ, rw->pop);
	close(fd);
	sumcheck(x, n);
	if (munmap(x, len) == -1)
		err(1, "munmap");
}

static void
r_stream(size_t n, int form)
{
	double *x = xmalloc(n * sizeof(double));

	if (form == BIN)
		readall(0, x, n * sizeof(double));
	else
		read_text(x, n, form);
	sumcheck(x, n);
	free(x);
}

const struct row *
findrow(const char *name)
{
	size_t i;

	for (i = 0; i < NROWS; i++)
		if (strcmp(rows[i].name, name) == 0)
			return &rows[i];
	errx(2, "%s: no such row", name);
}

int
child(int writer, const char *name, size_t n, const char *arg)
{
	const struct row *rw = findrow(name);
	int mapped = rw->how == POSIXSHM || rw->how == FILEMAP;
	char path[4096];
	double t0 = now();

	if (rw->how == INPROC) {
		inproc(n);
		return 0;
	}
	if ((rw->how == SHMIDS || rw->how == SYSV || mapped) && !writer &&
	    arg == NULL)
		errx(2, "%s: the reader needs the label", name);
	if (mapped && !writer) {
		if (*arg == '\0' || strchr(arg, '/') != NULL)
			errx(2, "%s: bad name", arg);
		mappath(path, sizeof(path), rw->how, arg);
	}
	if (writer && rw->how == SHMIDS)
		w_shmids(n);
	else if (writer && rw->how == SYSV)
		w_sysv(n);
	else if (writer && mapped)
		w_map(rw, n);
	else if (writer)
		w_stream(n, rw->form);
	else if (rw->how == SHMIDS)
		r_shmids(n, arg);
	else if (rw->how == SYSV)
		r_sysv(n, arg);
	else if (mapped)
		r_map(rw, n, path);
	else
		r_stream(n, rw->form);
	report(writer ? 'w' : 'r', now() - t0);
	/* Like the segments' removal: in the total, not the reader's time. */
	if (mapped && !writer && map_unlink(rw->how, path) == -1)
		err(1, "unlink %s", path);
	return 0;
}
