/*
 * stream_ring_test: streams through the public calls (shmids.h;
 * format-spec.md 10): messages in order and whole under both policies,
 * with readers on threads of this process (what TSan watches) and in
 * forks; the expected readers; a lapped reader's exact loss; a message
 * by seq, gone or past the end; end of stream seen by every reader; a
 * writer that dies; shapes; removal and keep; the reader table full;
 * the errors and their words.  Makes its own streams, System V or in
 * SHMIDS_DIR as the environment says, and removes them.  TAP.
 */
#include <sys/wait.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shmids.h"

#include "tap.h"

#define NMSG	20000

static char what[SHMIDS_EXPLAIN_MAX + 128];

static const char *
say(const char *fmt, const char *s)
{
	snprintf(what, sizeof(what), fmt, s);
	return what;
}

/* Does the segment label names exist now (a stat, not an open)? */
static int
exists(const char *label)
{
	struct shmids_stream_info si;

	return shmids_stream_stat(label, &si) == 0 || errno != ENOENT;
}

struct rd {
	const char	*label;
	long long	 n, bad, lost;
	int		 end, err;
};

/* A reader thread: every message, checked, till the end. */
static void *
reader(void *arg)
{
	struct rd *r = arg;
	struct shmids_stream *s;
	struct shmids_msg m;
	int k;

	if ((s = shmids_stream_open(r->label, 0, 10)) == NULL) {
		r->err = errno;
		return NULL;
	}
	while ((k = shmids_stream_next(s, &m, 10)) == 1) {
		if (m.seq != r->n + r->lost + m.lost ||
		    *(const long long *)m.data != m.seq ||
		    m.nbytes != 8 || m.type != SHMIDS_I64)
			r->bad++;
		r->lost += m.lost;
		r->n++;
	}
	r->end = k;
	r->err = k == -1 ? errno : 0;
	/* the end is said again */
	if (k == 0 && shmids_stream_next(s, &m, 0) != 0)
		r->bad++;
	shmids_stream_close(s);
	return NULL;
}

static int
put(struct shmids_stream *w, long long v, double seconds)
{
	long long *p = shmids_stream_loan(w, seconds);

	if (p == NULL)
		return -1;
	*p = v;
	return shmids_stream_publish(w, SHMIDS_I64, 1, 0, SHMIDS_ROWMAJOR) == v
	    ? 0 : -1;
}

/* 4 slots, 2 expected readers on threads: all of NMSG, in order. */
static void
two_readers(void)
{
	struct shmids_stream *w;
	struct rd r[2];
	pthread_t t[2];
	char label[SHMIDS_LABEL_MAX + 1];
	long long i;
	int k, fails = 0;

	w = shmids_stream_create("unit-two", 0600, 4, 8, 2, 0);
	ok(w != NULL, "10.1: a stream of 4 slots of 8 bytes, 2 readers, made");
	if (w == NULL)
		return;
	strcpy(label, shmids_stream_label(w));
	memset(r, 0, sizeof(r));
	for (k = 0; k < 2; k++) {
		r[k].label = label;
		pthread_create(&t[k], NULL, reader, &r[k]);
	}
	for (i = 0; i < NMSG; i++)
		fails += put(w, i, 10) == -1;
	ok(fails == 0, "10.3: the writer published every message");
	shmids_stream_close(w);
	for (k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	ok(r[0].n == NMSG && r[1].n == NMSG && r[0].bad == 0 &&
	    r[1].bad == 0 && r[0].lost == 0 && r[1].lost == 0,
	    "10.4: wait: each reader got every message, in order, whole");
	ok(r[0].end == 0 && r[1].end == 0,
	    "10.5: both readers saw the end of stream after the last message");
	ok(!exists(label), "10.5: ended, its readers gone: removed");
}

/*
 * The expected reader: the writer keeps all, and that reader starts at
 * message 0; a later one at the oldest message kept.
 */
static void
expected(void)
{
	struct shmids_stream *w, *r, *late;
	struct shmids_msg m;
	char buf[SHMIDS_EXPLAIN_MAX];
	int i, fails = 0;

	w = shmids_stream_create("unit-exp", 0600, 4, 8, 1, 0);
	if (w == NULL) {
		ok(0, "10.4: made");
		return;
	}
	for (i = 0; i < 4; i++)
		fails += put(w, i, 0) == -1;
	errno = 0;
	ok(fails == 0 && shmids_stream_loan(w, 0) == NULL && errno == EAGAIN,
	    "10.4: the ring full and no reader yet: the writer waits (EAGAIN)");
	shmids_explain(buf, sizeof(buf), shmids_stream_label(w), EAGAIN);
	ok(strstr(buf, "until 1 readers have registered, and 0 have") != NULL,
	    say("10.8: EAGAIN's words: %s", buf));
	r = shmids_stream_open(shmids_stream_label(w), 0, 0);
	ok(r != NULL && shmids_stream_next(r, &m, 0) == 1 && m.seq == 0,
	    "10.4: the expected reader starts at message 0");
	/* message 0 held: no room yet */
	errno = 0;
	ok(shmids_stream_loan(w, 0) == NULL && errno == EAGAIN,
	    "10.4: a message held: its slot is not reused");
	ok(r != NULL && shmids_stream_next(r, &m, 0) == 1 && m.seq == 1 &&
	    put(w, 4, 0) == 0, "10.4: released, its slot is reused");
	late = shmids_stream_open(shmids_stream_label(w), 0, 0);
	ok(late != NULL && shmids_stream_next(late, &m, 0) == 1 &&
	    m.seq == 1, "10.4: a later reader starts at the oldest message kept");
	if (late != NULL)
		shmids_stream_close(late);
	if (r != NULL)
		shmids_stream_close(r);
	shmids_stream_close(w);
}

/* Messages by seq: one held, one gone, one past the end. */
static void
by_seq(void)
{
	struct shmids_stream *w, *r, *r2;
	struct shmids_msg m;
	char label[SHMIDS_LABEL_MAX + 24], buf[SHMIDS_EXPLAIN_MAX];
	int i, fails = 0;

	w = shmids_stream_create("unit-seq", 0600, 4, 8, 0, 0);
	if (w == NULL) {
		ok(0, "made");
		return;
	}
	for (i = 0; i < 10; i++)
		fails += put(w, i, 0) == -1;
	ok(fails == 0, "10.4: readers 0: the writer never waits for one");
	snprintf(label, sizeof(label), "%s 7", shmids_stream_label(w));
	r = shmids_stream_open(label, 0, 0);
	ok(r != NULL && shmids_stream_next(r, &m, 0) == 1 && m.seq == 7 &&
	    *(const long long *)m.data == 7,
	    "5.1: a message's label opens at that message");
	ok(r != NULL && shmids_stream_get(r, 6, &m, 0) == 1 && m.seq == 6 &&
	    shmids_stream_next(r, &m, 0) == 1 && m.seq == 7,
	    "10.4: get steps back to a message the ring holds; next goes on");
	errno = 0;
	ok(r != NULL && shmids_stream_get(r, 2, &m, 0) == -1 &&
	    errno == ENOMSG && shmids_stream_next(r, &m, 0) == 1 &&
	    m.seq == 8, "10.4: get of a message gone: ENOMSG, the reader "
	    "where it was");
	snprintf(label, sizeof(label), "%s 2", shmids_stream_label(w));
	errno = 0;
	ok(shmids_stream_open(label, 0, 0) == NULL && errno == ENOMSG,
	    "10.4: open at a message gone: ENOMSG");
	shmids_explain(buf, sizeof(buf), label, ENOMSG);
	ok(strcmp(buf, "message 2 is gone: the ring of 4 slots holds messages "
	    "6 to 9 now") == 0, say("10.8: ENOMSG's words: %s", buf));
	shmids_stream_close(w);
	ok(r != NULL && shmids_stream_next(r, &m, 0) == 1 && m.seq == 9 &&
	    shmids_stream_next(r, &m, 0) == 0, "10.5: the rest, then the end");
	errno = 0;
	ok(r != NULL && shmids_stream_get(r, 10, &m, 0) == -1 &&
	    errno == ENOMSG && shmids_stream_next(r, &m, 0) == 0,
	    "10.4: get past the end of an ended stream: ENOMSG, then the end");
	snprintf(label, sizeof(label), "%s 12", r != NULL ?
	    shmids_stream_label(r) : "0 x");
	shmids_explain(buf, sizeof(buf), label, ENOMSG);
	ok(strcmp(buf, "the stream ended after 10 messages (0 to 9): there is "
	    "no message 12") == 0, say("10.8: ENOMSG's words, past the end: "
	    "%s", buf));
	r2 = shmids_stream_open(label, 0, 0);
	ok(r2 == NULL && errno == ENOMSG, "10.4: open past the end: ENOMSG");
	strcpy(label, shmids_stream_label(r));
	if (r != NULL)
		shmids_stream_close(r);
	ok(!exists(label), "10.5: the last reader gone: removed");
}

/* Overwrite: a reader that does not read is lapped, and told. */
static void
overwrite(void)
{
	struct shmids_stream *w, *r;
	struct shmids_msg m;
	long long next = 92;
	int i, fails = 0, k;

	w = shmids_stream_create("unit-ow", 0600, 8, 8, 1,
	    SHMIDS_STREAM_OVERWRITE);
	if (w == NULL) {
		ok(0, "made");
		return;
	}
	r = shmids_stream_open(shmids_stream_label(w), 0, 0);
	for (i = 0; i < 100; i++)
		fails += put(w, i, 0) == -1;
	ok(r != NULL && fails == 0,
	    "10.4: overwrite: the writer never waits for a lagging reader");
	ok(r != NULL && shmids_stream_next(r, &m, 0) == 1 && m.seq == 92 &&
	    m.lost == 92, "10.4: the lapped reader gets the oldest kept, "
	    "told it lost 92 (0 to 91)");
	while (r != NULL && (k = shmids_stream_next(r, &m, 0)) == 1)
		fails += m.seq != ++next || m.lost != 0;
	ok(fails == 0 && next == 99, "10.4: then each message, none lost");
	/* a message held is never overwritten */
	ok(r != NULL && put(w, 100, 0) == 0 &&
	    shmids_stream_next(r, &m, 0) == 1 && m.seq == 100,
	    "10.4: the reader holds message 100");
	for (i = 101; i < 108; i++)
		fails += put(w, i, 0) == -1;
	errno = 0;
	ok(fails == 0 && shmids_stream_loan(w, 0) == NULL && errno == EAGAIN,
	    "10.4: overwrite waits for a reader that holds the slot it needs");
	ok(r != NULL && shmids_stream_release(r) == 0 && put(w, 108, 0) == 0,
	    "10.4: released, the slot is reused");
	if (r != NULL)
		shmids_stream_close(r);
	shmids_stream_close(w);
}

/* Shapes, and what a message may not be. */
static void
shapes(void)
{
	struct shmids_stream *w, *r;
	struct shmids_msg m;
	double *p;

	w = shmids_stream_create("unit-shape", 0600, 2, 96, 1, 0);
	r = w != NULL ? shmids_stream_open(shmids_stream_label(w), 0, 0) :
	    NULL;
	if (r == NULL) {
		ok(0, "made, opened");
		return;
	}
	errno = 0;
	ok(shmids_stream_publish(w, SHMIDS_F64, 1, 0, SHMIDS_ROWMAJOR) == -1 &&
	    errno == EINVAL, "10.3: publish with no slot loaned: EINVAL");
	p = shmids_stream_loan(w, 0);
	ok(p != NULL && ((size_t)p & 63) == 0,
	    "10.2: a loaned payload is on a cache line");
	errno = 0;
	ok(shmids_stream_publish(w, SHMIDS_F64, 13, 0, SHMIDS_ROWMAJOR) == -1 &&
	    errno == EMSGSIZE, "10.3: more than the capacity: EMSGSIZE");
	errno = 0;
	ok(shmids_stream_publish(w, 9, 1, 0, SHMIDS_ROWMAJOR) == -1 &&
	    errno == EINVAL && shmids_stream_publish(w, SHMIDS_F64, 1, 1, 'X')
	    == -1 && errno == EINVAL, "10.3: an unknown type or order: EINVAL");
	ok(shmids_stream_publish(w, SHMIDS_F64, 3, 4, SHMIDS_COLMAJOR) == 0 &&
	    shmids_stream_next(r, &m, 0) == 1 && m.ndim == 2 && m.rows == 3 &&
	    m.cols == 4 && m.order == SHMIDS_COLMAJOR && m.nbytes == 96,
	    "10.2: a 3 x 4 column-major table, as published");
	ok(shmids_stream_loan(w, 0) != NULL &&
	    shmids_stream_publish(w, SHMIDS_I32, 1, 5, SHMIDS_COLMAJOR) == 1 &&
	    shmids_stream_next(r, &m, 0) == 1 && m.ndim == 2 &&
	    m.order == SHMIDS_ROWMAJOR, "2.7, 10.2: one row: recorded row-major");
	ok(shmids_stream_loan(w, 0) != NULL &&
	    shmids_stream_publish(w, SHMIDS_F32, 5, 0, SHMIDS_COLMAJOR) == 2 &&
	    shmids_stream_next(r, &m, 0) == 1 && m.ndim == 1 && m.rows == 5 &&
	    m.cols == 1 && m.nbytes == 20, "10.2: cols 0: a 1-D message");
	errno = 0;
	ok(shmids_stream_loan(r, 0) == NULL && errno == EBADF &&
	    shmids_stream_next(w, &m, 0) == -1 && errno == EBADF,
	    "10.8: a reader's handle to loan, a writer's to next: EBADF");
	shmids_stream_close(w);
	ok(shmids_stream_next(r, &m, 0) == 0, "10.5: the end");
	shmids_stream_close(r);
}

/* KEEP, stat, the table full, and what is not a stream. */
static void
kept(void)
{
	struct shmids_stream *w, *r[SHMIDS_STREAM_READERS_MAX + 1];
	struct shmids_stream_info si;
	char label[SHMIDS_LABEL_MAX + 1], buf[SHMIDS_EXPLAIN_MAX];
	void *a;
	int i, n = 0;

	w = shmids_stream_create("unit-keep", 0600, 3, 100, 0,
	    SHMIDS_STREAM_KEEP);
	if (w == NULL) {
		ok(0, "made");
		return;
	}
	strcpy(label, shmids_stream_label(w));
	errno = 0;
	ok(shmids_open(label) == NULL && errno == EMEDIUMTYPE,
	    "10.1: shmids_open() of a stream: EMEDIUMTYPE");
	shmids_explain(buf, sizeof(buf), label, EMEDIUMTYPE);
	ok(strstr(buf, "is a stream of messages, not an array") != NULL,
	    say("10.8: EMEDIUMTYPE's words: %s", buf));
	for (i = 0; i <= SHMIDS_STREAM_READERS_MAX; i++)
		n += (r[i] = shmids_stream_open(label, 0, 0)) != NULL;
	ok(n == SHMIDS_STREAM_READERS_MAX && errno == EUSERS,
	    "10.2: 64 readers registered; the 65th: EUSERS");
	shmids_explain(buf, sizeof(buf), label, EUSERS);
	ok(strstr(buf, "has 64 readers registered") != NULL,
	    say("10.8: EUSERS' words: %s", buf));
	ok(put(w, 0, 0) == 0 && shmids_stream_stat(label, &si) == 0 &&
	    si.slots == 3 && si.capacity == 100 && si.stride == 128 &&
	    si.head == 1 && si.tail == 0 && si.state == 'w' &&
	    si.nreaders == 64 && si.reader[0].pos == 0 &&
	    si.reader[0].alive == 1 && si.writer == getpid() &&
	    si.flags == SHMIDS_STREAM_KEEP,
	    "10.8: stat: geometry, head, tail, state, readers");
	for (i = 0; i < SHMIDS_STREAM_READERS_MAX; i++)
		shmids_stream_close(r[i]);
	shmids_stream_close(w);
	ok(shmids_stream_stat(label, &si) == 0 && si.state == 'r' &&
	    si.nreaders == 0, "10.5: KEEP: ended and idle, it stays");
	ok(shmids_remove(label) == 0, "10.5: shmids_remove() removes it");
	a = shmids_create("unit-array", 0600, 64);
	strcpy(label, shmids_label(a));
	errno = 0;
	ok(shmids_stream_open(label, 0, 0) == NULL && errno == EMEDIUMTYPE,
	    "10.1: shmids_stream_open() of an array: EMEDIUMTYPE");
	shmids_remove(label);
	shmids_close(a);
}

/* Arguments a call refuses. */
static void
refused(void)
{
	struct shmids_stream *w;
	struct shmids_msg m;

	errno = 0;
	ok(shmids_stream_create("x", 0600, 0, 8, 1, 0) == NULL &&
	    errno == EINVAL && shmids_stream_create("x", 0600, 1, 0, 1, 0) ==
	    NULL && shmids_stream_create("x", 0600, 1, 8, 65, 0) == NULL &&
	    shmids_stream_create("x", 0600, 1, 8, -1, 0) == NULL &&
	    shmids_stream_create("x", 0600, 1, 8, 1, 0x10) == NULL &&
	    shmids_stream_create("x", 01600, 1, 8, 1, 0) == NULL &&
	    shmids_stream_create("a b", 0600, 1, 8, 1, 0) == NULL &&
	    errno == EINVAL, "10.8: create: bad slots, capacity, readers, "
	    "flags, mode, name: EINVAL");
	w = shmids_stream_create("unit-args", 0600, 1, 8, 0, 0);
	errno = 0;
	ok(w != NULL && shmids_stream_loan(w, -1) == NULL && errno == EINVAL,
	    "10.8: negative seconds: EINVAL");
	errno = 0;
	ok(shmids_stream_open("1 2 3 4", 0, 0) == NULL && errno == EINVAL,
	    "10.8: open of no label: EINVAL");
	if (w != NULL) {
		struct shmids_stream *r;

		r = shmids_stream_open(shmids_stream_label(w), 0, 0);
		errno = 0;
		ok(r != NULL && shmids_stream_next(r, &m, 0.01) == -1 &&
		    errno == EAGAIN, "10.6: no message within the time: EAGAIN");
		if (r != NULL)
			shmids_stream_close(r);
		shmids_stream_close(w);
	}
}

/*
 * In a fork: a writer that exits normally ends its stream; one that
 * ends with _exit(2) mid-message leaves it to EOWNERDEAD.
 */
static void
forked(int die)
{
	struct shmids_stream *w, *r;
	struct shmids_msg m;
	char label[SHMIDS_LABEL_MAX + 1];
	int fd[2], n = 0, k, st;
	ssize_t len;
	pid_t pid;

	if (pipe(fd) == -1)
		return;
	fflush(stdout);
	if ((pid = fork()) == 0) {
		close(fd[0]);
		w = shmids_stream_create("unit-fork", 0600, 8, 8, 1, 0);
		if (w == NULL)
			_exit(1);
		write(fd[1], shmids_stream_label(w),
		    strlen(shmids_stream_label(w)));
		close(fd[1]);
		put(w, 0, 0);
		put(w, 1, 0);
		put(w, 2, 0);
		if (die) {
			memset(shmids_stream_loan(w, 0), 0xff, 4);
			_exit(0);
		}
		exit(0);
	}
	close(fd[1]);
	len = read(fd[0], label, sizeof(label) - 1);
	close(fd[0]);
	waitpid(pid, &st, 0);
	label[len > 0 ? len : 0] = '\0';
	r = shmids_stream_open(label, 0, 1);
	while (r != NULL && (k = shmids_stream_next(r, &m, 2)) == 1)
		n += m.seq == n;
	if (die) {
		ok(r != NULL && n == 3 && k == -1 && errno == EOWNERDEAD,
		    "10.5: a writer dead mid-message: its 3 messages, then "
		    "EOWNERDEAD, never half a message");
		ok(r != NULL && shmids_stream_next(r, &m, 0) == -1 &&
		    errno == EOWNERDEAD, "10.5: EOWNERDEAD again");
		shmids_stream_close(r);
		ok(exists(label), "10.5: a stream whose writer died stays");
		shmids_remove(label);
	} else {
		ok(r != NULL && n == 3 && k == 0,
		    "10.5: a writer that exits normally ends its stream");
		if (r != NULL)
			shmids_stream_close(r);
		ok(!exists(label), "10.5: removed once its reader is done");
	}
}

int
main(void)
{
	refused();
	two_readers();
	expected();
	by_seq();
	overwrite();
	shapes();
	kept();
	forked(0);
	forked(1);
	printf("1..%d\n", ntest);
	return nfail != 0;
}
