/*
 * The segments this process attached through the library.  shmids_label()
 * and shmids_array() answer from what each one's header said at attach,
 * shmids_close() must know whether to seal, and the exit handler must
 * find every segment a writer left unsealed.
 */
#include <errno.h>
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
	nsegs++;
	return 0;
}

void
shmids_reg_del(struct seg *s)
{
	*s = segs[--nsegs];
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
 * Run at exit: a writer that exits normally has finished its arrays.  A
 * forked child inherits the list but did not make the segments, so it
 * seals nothing.
 */
void
shmids_reg_sealall(void)
{
	pid_t me = getpid();
	size_t i;

	for (i = 0; i < nsegs; i++)
		if (segs[i].writer == me)
			shmids_reg_seal(&segs[i]);
}
