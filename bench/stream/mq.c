/*
 * mq: POSIX message queues, for the small messages they are made for:
 * mq_send(3) copies the message into the kernel, mq_receive(3) out of
 * it.  A message is at most /proc/sys/fs/mqueue/msgsize_max bytes
 * (8192 by default: the 64 B, 256 B and 4 KiB messages here), a queue
 * holds at most fs.mqueue.msg_max of them (10 by default) whoever asks,
 * fewer than the rings' slots.  The queue is unlinked as soon as it is
 * made: the children inherit its descriptor, and nothing is left behind
 * whatever happens.
 */
#include "stream.h"

#include <fcntl.h>
#include <mqueue.h>

struct mqchan {
	mqd_t		 q;
	char		*buf;
};

static long msgsize_max = 8192, msg_max = 10;
static char why[96];

static long
proc_long(const char *path, long def)
{
	FILE *fp = fopen(path, "r");
	long v;

	if (fp == NULL)
		return def;
	if (fscanf(fp, "%ld", &v) != 1 || v < 1)
		v = def;
	fclose(fp);
	return v;
}

static const char *
mqc_init(void)
{
	msgsize_max = proc_long("/proc/sys/fs/mqueue/msgsize_max", 8192);
	msg_max = proc_long("/proc/sys/fs/mqueue/msg_max", 10);
	return NULL;
}

static const char *
mqc_skip(size_t nbytes)
{
	if (nbytes <= (size_t)msgsize_max)
		return NULL;
	snprintf(why, sizeof(why), "over fs.mqueue.msgsize_max, %ld B",
	    msgsize_max);
	return why;
}

static int
mqc_open(struct chan *c)
{
	struct mqchan *m = xmalloc(sizeof(*m));
	struct mq_attr attr;
	char name[80];

	memset(&attr, 0, sizeof(attr));
	attr.mq_maxmsg = c->slots < msg_max ? c->slots : msg_max;
	attr.mq_msgsize = (long)c->nbytes;
	snprintf(name, sizeof(name), "/%smq%d", conf.prefix, c->id);
	m->q = mq_open(name, O_RDWR | O_CREAT | O_EXCL, 0600, &attr);
	if (m->q == (mqd_t)-1) {
		warn("mq_open %s", name);
		free(m);
		return -1;
	}
	mq_unlink(name);
	m->buf = NULL;
	c->priv = m;
	return 0;
}

static int
mqc_attach(struct chan *c, int role)
{
	struct mqchan *m = c->priv;

	(void)role;
	m->buf = xmalloc(c->nbytes);
	memset(m->buf, 0, c->nbytes);
	return 0;
}

static void *
mqc_loan(struct chan *c)
{
	return ((struct mqchan *)c->priv)->buf;
}

static int
mqc_publish(struct chan *c)
{
	struct mqchan *m = c->priv;

	while (mq_send(m->q, m->buf, c->nbytes, 0) == -1)
		if (errno != EINTR) {
			warn("mq_send");
			return -1;
		}
	return 0;
}

static const void *
mqc_next(struct chan *c)
{
	struct mqchan *m = c->priv;
	ssize_t n;

	while ((n = mq_receive(m->q, m->buf, c->nbytes, NULL)) == -1)
		if (errno != EINTR) {
			warn("mq_receive");
			return NULL;
		}
	if ((size_t)n != c->nbytes) {
		warnx("mq_receive: %zd bytes, not %zu", n, c->nbytes);
		return NULL;
	}
	return m->buf;
}

static int
mqc_release(struct chan *c)
{
	(void)c;
	return 0;
}

static void
mqc_close(struct chan *c)
{
	struct mqchan *m = c->priv;

	mq_close(m->q);
	free(m->buf);
	free(m);
}

const struct contender c_mq = {
	"mq", "POSIX mq",
	"copies twice: mq_send(3), mq_receive(3) (small messages only)",
	1, mqc_init, mqc_skip, mqc_open, mqc_attach, mqc_loan, mqc_publish,
	mqc_next, mqc_release, NULL, mqc_close, NULL
};
