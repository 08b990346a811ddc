/*
 * The segments this process attached through the library.  shmids_label()
 * and shmids_array() answer from what each one's header said at attach,
 * shmids_close() must know whether to seal, and the exit handler must
 * find every segment a writer left unsealed.
 *
 * A fork shares a writer's segments (format-spec.md 2.2): the pipe made
 * for a segment at its first fork has its write end in every process
 * that may still write it, and the last of them to let go reads end of
 * file, knowing no other is left to write.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static struct seg *segs;
static size_t nsegs, capsegs;

struct seg *
shmids_reg_find(const void *addr)
{
	size_t i;

	for (i = 0; i < nsegs; i++)
		if (segs[i].a.addr == addr)
			return &segs[i];
	errno = EINVAL;
	return NULL;
}

int
shmids_reg_add(const struct shmids_backend *be, const struct att *a,
    pid_t writer, const char *id, const char *label, int type, size_t count,
    size_t cols)
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
	segs[nsegs].fam[0] = segs[nsegs].fam[1] = -1;
	nsegs++;
	return 0;
}

void
shmids_reg_del(struct seg *s)
{
	int e = errno;

	if (s->fam[0] >= 0)
		close(s->fam[0]);
	if (s->fam[1] >= 0)
		close(s->fam[1]);
	errno = e;
	*s = segs[--nsegs];
}

/*
 * Before a fork: each segment this process writes gets its family pipe,
 * once.  Close-on-exec, so that an exec'd program, which has not the
 * segment mapped, is no writer; the read end does not block.  Where no
 * pipe can be had, nobody is known to be last: FAM_LOST.
 */
static void
fork_prepare(void)
{
	pid_t me = getpid();
	size_t i;
	int e = errno, *f;

	for (i = 0; i < nsegs; i++) {
		f = segs[i].fam;
		if (segs[i].writer != me || f[1] != -1)
			continue;
		if (pipe(f) == -1) {
			f[0] = -1;
			f[1] = FAM_LOST;
		} else if (fcntl(f[0], F_SETFD, FD_CLOEXEC) == -1 ||
		    fcntl(f[1], F_SETFD, FD_CLOEXEC) == -1 ||
		    fcntl(f[0], F_SETFL, O_NONBLOCK) == -1) {
			close(f[0]);
			close(f[1]);
			f[0] = -1;
			f[1] = FAM_LOST;
		}
	}
	errno = e;
}

/* In the child: it writes what its parent wrote. */
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
 * This process lets go of s, which it writes: is it the last writer,
 * the one to seal?  One that never forked is; a family's member is if,
 * its write end closed, the pipe is at end of file.
 */
int
shmids_reg_last(struct seg *s)
{
	char c;
	int e = errno, last;

	if (s->fam[1] == -1)
		return 1;
	if (s->fam[1] == FAM_LOST)
		return 0;
	close(s->fam[1]);
	s->fam[1] = FAM_LOST;
	last = read(s->fam[0], &c, 1) == 0;
	errno = e;
	return last;
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
 * and seals those no other process of its family still writes.
 */
void
shmids_reg_sealall(void)
{
	pid_t me = getpid();
	size_t i;

	for (i = 0; i < nsegs; i++)
		if (segs[i].writer == me && shmids_reg_last(&segs[i]))
			shmids_reg_seal(&segs[i]);
}
