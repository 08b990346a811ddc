/*
 * sem: a POSIX semaphore pair in shared memory (unnamed, pshared: the
 * project's sources found them as fast as named ones, with nothing to
 * remove), guarding a ring of slots: the writer waits on "empty", fills
 * the slot in place and posts "full"; the reader waits on "full", reads
 * the slot in place and posts "empty".  No copy.  With one slot it is
 * the 1990 shared-memory loop (two semaphores, one buffer).
 */
#include "stream.h"

#include <semaphore.h>

#define HEAD	128		/* the semaphores; the slots after */

struct semring {
	sem_t		 empty, full;
};

struct semchan {
	struct semring	*r;
	size_t		 len;
	uint64_t	 i;		/* this process's next slot */
};

static char *
slot(const struct chan *c, const struct semchan *s)
{
	return (char *)s->r + HEAD + (s->i % (uint64_t)c->slots) * c->nbytes;
}

static int
sp_open(struct chan *c)
{
	struct semchan *s = xmalloc(sizeof(*s));

	s->len = HEAD + (size_t)c->slots * c->nbytes;
	s->i = 0;
	if ((s->r = shared_map(s->len)) == NULL) {
		free(s);
		return -1;
	}
	if (sem_init(&s->r->empty, 1, (unsigned)c->slots) == -1 ||
	    sem_init(&s->r->full, 1, 0) == -1) {
		warn("sem_init");
		shared_unmap(s->r, s->len);
		free(s);
		return -1;
	}
	c->priv = s;
	return 0;
}

static int
xsem_wait(sem_t *sem)
{
	while (sem_wait(sem) == -1)
		if (errno != EINTR) {
			warn("sem_wait");
			return -1;
		}
	return 0;
}

static void *
sp_loan(struct chan *c)
{
	struct semchan *s = c->priv;

	return xsem_wait(&s->r->empty) == -1 ? NULL : slot(c, s);
}

static int
sp_publish(struct chan *c)
{
	struct semchan *s = c->priv;

	s->i++;
	return sem_post(&s->r->full);
}

static const void *
sp_next(struct chan *c)
{
	struct semchan *s = c->priv;

	return xsem_wait(&s->r->full) == -1 ? NULL : slot(c, s);
}

static int
sp_release(struct chan *c)
{
	struct semchan *s = c->priv;

	s->i++;
	return sem_post(&s->r->empty);
}

static void
sp_close(struct chan *c)
{
	struct semchan *s = c->priv;

	sem_destroy(&s->r->empty);
	sem_destroy(&s->r->full);
	shared_unmap(s->r, s->len);
	free(s);
}

const struct contender c_sempair = {
	"sem", "sem pair",
	"no copy: a ring of slots in shared memory, sem_wait/sem_post of "
	"two unnamed pshared POSIX semaphores",
	0, NULL, NULL, sp_open, NULL, sp_loan, sp_publish,
	sp_next, sp_release, NULL, sp_close, NULL
};
