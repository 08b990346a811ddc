/*
 * The segments this process attached through the library.  shmids_label()
 * and shmids_array() answer from what each one's header said at attach,
 * shmids_close() must know whether to seal, and the exit handler must
 * find every segment a writer left unsealed.
 *
 * A fork shares a writer's segments (format-spec.md 2.2): the segments
 * unsealed at a fork share one pipe, their family's, whose write end
 * every process that may still write them holds; the last of them to
 * let go finds no writer left, knowing no other is left to write.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seg.h"

static struct seg *segs;
static size_t nsegs, capsegs;

struct seg *
shmids_reg_find(const void *addr)
{
	size_t i;

	for (i = 0; i < nsegs; i++)
		if (segs[i].a.addr == addr && !segs[i].closed)
			return &segs[i];
	errno = EINVAL;
	return NULL;
}

int
shmids_reg_add(const struct shmids_backend *be, const struct att *a,
    pid_t writer, const char *id, const char *label, int type, size_t count,
    size_t cols, int order)
{
	struct seg *n;
	size_t cap;

	if (nsegs == capsegs) {
		cap = capsegs ? capsegs * 2 : 16;
		if ((n = realloc(segs, cap * sizeof(*n))) == NULL)
			return -1;
		segs = n;
		capsegs = cap;
	}
	segs[nsegs].a = *a;
	segs[nsegs].be = be;
	segs[nsegs].writer = writer;
	strcpy(segs[nsegs].id, id);
	strcpy(segs[nsegs].label, label);
	segs[nsegs].type = type;
	segs[nsegs].count = count;
	segs[nsegs].cols = cols;
	segs[nsegs].order = order;
	segs[nsegs].fam[0] = segs[nsegs].fam[1] = -1;
	segs[nsegs].closed = 0;
	nsegs++;
	return 0;
}

void
shmids_reg_del(struct seg *s)
{
	*s = segs[--nsegs];
}

/*
 * Before a fork: the segments this process writes that no family holds
 * yet join one new pipe, shared by all of them, so that a fork costs 2
 * descriptors however many segments it shares.  Close-on-exec, so that
 * an exec'd program, which has not the segments mapped, is no writer.
 * Where no pipe can be had, they stay out of any family: the child is
 * no writer of them, and this process seals them at its exit (1.1).
 */
static void
fork_prepare(void)
{
	struct stat st;
	pid_t me = getpid();
	size_t i;
	int e = errno, f[2] = { -1, -1 };

	for (i = 0; i < nsegs; i++) {
		if (segs[i].writer != me || segs[i].fam[1] != -1)
			continue;
		if (f[1] == -1 && (pipe(f) == -1 || fstat(f[0], &st) == -1 ||
		    fcntl(f[0], F_SETFD, FD_CLOEXEC) == -1 ||
		    fcntl(f[1], F_SETFD, FD_CLOEXEC) == -1)) {
			if (f[1] != -1) {
				close(f[0]);
				close(f[1]);
			}
			break;
		}
		segs[i].fam[0] = f[0];
		segs[i].fam[1] = f[1];
		segs[i].famdev = st.st_dev;
		segs[i].famino = st.st_ino;
	}
	errno = e;
}

/* In the child: it writes what its parent wrote in a family. */
static void
fork_child(void)
{
	pid_t me = getpid();
	size_t i;

	for (i = 0; i < nsegs; i++)
		if (segs[i].writer != 0 && segs[i].fam[1] != -1)
			segs[i].writer = me;
}

int
shmids_reg_init(void)
{
	static int done;

	if (!done && (atexit(shmids_reg_sealall) != 0 ||
	    pthread_atfork(fork_prepare, NULL, fork_child) != 0)) {
		errno = ENOMEM;
		return -1;
	}
	done = 1;
	return 0;
}

/*
 * Is fd still s's family pipe?  A process that closed descriptors it
 * did not open (a daemon) may have the numbers back for its own files:
 * it left the family, and must neither close nor read them.
 */
static int
fam_ours(const struct seg *s, int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode) &&
	    st.st_dev == s->famdev && st.st_ino == s->famino;
}

/*
 * This process lets go of s's family: was it the last writer?  Its
 * write end closed, the pipe has no writer left (POLLHUP) if so.  poll,
 * not read: a sibling may have cleared O_NONBLOCK, and exit must never
 * block.
 */
static int
fam_last(const struct seg *s)
{
	struct pollfd p;

	if (!fam_ours(s, s->fam[0]) || !fam_ours(s, s->fam[1]))
		return 0;
	close(s->fam[1]);
	p.fd = s->fam[0];
	p.events = POLLIN;
	p.revents = 0;
	if (poll(&p, 1, 0) != 1)
		p.revents = 0;
	close(s->fam[0]);
	return (p.revents & POLLHUP) != 0;
}

static void
drop(struct seg *s)
{
	s->be->detach(&s->a);
	shmids_reg_del(s);
}

/*
 * Let go of the family whose write end is w: its segments here are
 * sealed if this process was the last writer, and no longer this
 * process's to seal either way; with detach, those shmids_close() kept
 * for this moment are detached (backwards: shmids_reg_del() moves the
 * last entry down).
 */
static void
fam_end(int w, int detach)
{
	pid_t me = getpid();
	size_t i;
	int e = errno, last = -1;

	for (i = nsegs; i-- > 0; ) {
		if (segs[i].writer != me || segs[i].fam[1] != w)
			continue;
		if (last == -1)
			last = fam_last(&segs[i]);
		if (last)
			shmids_reg_seal(&segs[i]);
		segs[i].writer = 0;
		segs[i].fam[0] = segs[i].fam[1] = -1;
		if (detach && segs[i].closed)
			drop(&segs[i]);
	}
	errno = e;
}

/*
 * shmids_close() of s: detach it, sealed first if this process made it
 * and is its last writer.  The pipe tells that of the whole family
 * only: while this process holds other segments of s's family, s stays
 * attached, hidden, to be sealed and detached as the family is let go.
 */
void
shmids_reg_close(struct seg *s)
{
	size_t i;
	int w = s->fam[1];

	s->closed = 1;
	if (s->writer != getpid() || w == -1) {
		if (s->writer == getpid())
			shmids_reg_seal(s);
		drop(s);
		return;
	}
	for (i = 0; i < nsegs; i++)
		if (segs[i].fam[1] == w && !segs[i].closed &&
		    segs[i].writer == s->writer)
			return;
	fam_end(w, 1);
}

/*
 * State 'r' first: a file writer's lock may go only after it.  Readers
 * are woken last, so that none finds the lock still a writer's.
 */
void
shmids_reg_seal(struct seg *s)
{
	shmids_hdr_seal(s->a.addr);
	s->be->sealed(&s->a);
	shmids_wake(s->a.addr);
}

/*
 * Run at exit: a writer that exits normally has finished its arrays,
 * and seals those no other process of their family still writes.
 */
void
shmids_reg_sealall(void)
{
	pid_t me = getpid();
	size_t i;

	for (i = 0; i < nsegs; i++) {
		if (segs[i].writer != me)
			continue;
		if (segs[i].fam[1] == -1)
			shmids_reg_seal(&segs[i]);
		else
			fam_end(segs[i].fam[1], 0);
	}
}
