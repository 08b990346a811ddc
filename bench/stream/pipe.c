/*
 * pipe: the 1990 copy loop (J. M. Smith, "Some Notes on Experiences
 * programming shared memory", the project's sources): the writer
 * write(2)s the whole message into a pipe, the reader read(2)s it whole
 * into a buffer of its own; two copies, through the kernel's buffer
 * (64 KiB, Linux's default: not raised, as the loop did not).
 */
#include "stream.h"

struct pipechan {
	int		 fd[2];
	char		*buf;
};

static int
pipe_open(struct chan *c)
{
	struct pipechan *p = xmalloc(sizeof(*p));

	if (pipe(p->fd) == -1) {
		warn("pipe");
		free(p);
		return -1;
	}
	p->buf = NULL;
	c->priv = p;
	return 0;
}

static int
pipe_attach(struct chan *c, int role)
{
	struct pipechan *p = c->priv;

	close(p->fd[role == WRITER ? 0 : 1]);
	p->fd[role == WRITER ? 0 : 1] = -1;
	p->buf = xmalloc(c->nbytes);
	memset(p->buf, 0, c->nbytes);
	return 0;
}

static void *
pipe_loan(struct chan *c)
{
	return ((struct pipechan *)c->priv)->buf;
}

static int
pipe_publish(struct chan *c)
{
	struct pipechan *p = c->priv;

	if (writeall(p->fd[1], p->buf, c->nbytes) == -1) {
		warn("pipe: write");
		return -1;
	}
	return 0;
}

static const void *
pipe_next(struct chan *c)
{
	struct pipechan *p = c->priv;

	if (readall(p->fd[0], p->buf, c->nbytes) == -1) {
		if (errno == 0)
			warnx("pipe: end of file in a message");
		else
			warn("pipe: read");
		return NULL;
	}
	return p->buf;
}

static int
pipe_release(struct chan *c)
{
	(void)c;
	return 0;
}

static void
pipe_close(struct chan *c)
{
	struct pipechan *p = c->priv;

	if (p->fd[0] != -1)
		close(p->fd[0]);
	if (p->fd[1] != -1)
		close(p->fd[1]);
	free(p->buf);
	free(p);
}

const struct contender c_pipe = {
	"pipe", "pipe",
	"copies twice: write(2) the whole message to a pipe, read(2) it "
	"whole (the 1990 copy loop)",
	1, NULL, NULL, pipe_open, pipe_attach, pipe_loan, pipe_publish,
	pipe_next, pipe_release, NULL, pipe_close, NULL
};
