/*
 * streamattack: the hostile and racy cases of a review of the streams
 * (format-spec.md 10.4 to 10.7), each a process tree of its own, for
 * tests/stream.bats.  Each prints one line per thing it checks; exit 0
 * unless a call fails outright.  Streams are System V, or in
 * SHMIDS_DIR if it is set; each case removes what it made.
 *
 *	streamattack mask	forged R = 1, mask bit 63: close stays inside
 *	streamattack stall	a dead reader, a live one that polls
 *	streamattack owpoll	overwrite: a poll that found nothing holds
 *				nothing
 *	streamattack getend [overwrite]	a failed get() moves nothing
 *	streamattack forklock	file streams: a fork keeps no lock
 *	streamattack stuck	file streams: a reader killed emptying
 */
#include <sys/types.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "shmids.h"

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void
put64(char *h, size_t off, uint64_t v)
{
	memcpy(h + off, &v, 8);
}

static void
put32(char *h, size_t off, uint32_t v)
{
	memcpy(h + off, &v, 4);
}

static uint64_t
get64(const char *h, size_t off)
{
	uint64_t v;

	memcpy(&v, h + off, 8);
	return v;
}

/* What a call said: "ok", or its errno's name (any locale). */
static const char *
said(int r)
{
	if (r != -1)
		return "ok";
	switch (errno) {
	case EAGAIN:
		return "EAGAIN";
	case ENOMSG:
		return "ENOMSG";
	case EOWNERDEAD:
		return "EOWNERDEAD";
	default:
		return strerror(errno);
	}
}

/* n messages of one i64, its seq. */
static void
publish(struct shmids_stream *w, int n)
{
	long long *p;
	int i;

	for (i = 0; i < n; i++) {
		if ((p = shmids_stream_loan(w, 1)) == NULL)
			return;
		*p = shmids_stream_publish(w, SHMIDS_I64, 1, 0,
		    SHMIDS_ROWMAJOR) == -1 ? -1 : 0;
	}
}

static void
wait_byte(int fd)
{
	char b;

	if (read(fd, &b, 1) != 1)
		exit(1);
}

static void
say_byte(int fd)
{
	if (write(fd, "x", 1) != 1)
		_exit(1);
}

/*
 * A stream of two slots, both full, and a reader in a child of this
 * process that holds message 0 and idles: the writer's handle, the
 * stream's label in lab, the child in *c; NULL if a call failed.
 */
static struct shmids_stream *
held_full(const char *name, char lab[SHMIDS_LABEL_MAX + 1], pid_t *c)
{
	struct shmids_stream *w, *r;
	struct shmids_msg m;
	int pfd[2];

	if ((w = shmids_stream_create(name, 0600, 2, 64, 1, 0)) == NULL ||
	    pipe(pfd) == -1)
		return NULL;
	strcpy(lab, shmids_stream_label(w));
	publish(w, 2);
	if ((*c = fork()) == 0) {
		if ((r = shmids_stream_open(lab, 0, 1)) == NULL ||
		    shmids_stream_next(r, &m, 1) != 1)
			_exit(1);
		say_byte(pfd[1]);
		for (;;)
			pause();
	}
	wait_byte(pfd[0]);
	close(pfd[0]);
	close(pfd[1]);
	return w;
}

/*
 * A System V stream made by hand, as another user may: R = 1 (its
 * layout 1408 bytes, all the header declares), in a segment of 16 KiB,
 * ended, with bit 63 of mask set.  Entry 63 would lie at 8832, past
 * the declared bytes: a dead reader's owner word waits there.  A
 * reader opens, reads the end, closes: the word stays as it was.
 */
static int
mask(void)
{
	const uint64_t dead = (uint64_t)4000000 << 32 | 7;
	struct shmids_stream *r;
	struct shmids_msg m;
	char lab[64], line[64];
	char *h;
	int id, n, k;

	if ((id = shmget(IPC_PRIVATE, 16384, IPC_CREAT | 0600)) == -1 ||
	    (h = shmat(id, NULL, 0)) == (void *)-1)
		return 1;
	memset(h, 0, 16384);
	n = snprintf(lab, sizeof(lab), "%d hostile", id);
	memcpy(h, lab, (size_t)n + 1);
	h[n + 1] = '\n';
	snprintf(line, sizeof(line), "shmids4 raw le %020llu r\n",
	    1408ULL - 128);
	memcpy(h + 80, line, strlen(line));
	put32(h, 136, 4);		/* slots */
	put32(h, 140, 1);		/* rtable */
	put64(h, 144, 8);		/* capacity */
	put64(h, 152, 64);		/* stride */
	put64(h, 160, 896);		/* descoff */
	put64(h, 168, 1152);		/* payoff */
	put32(h, 188, (uint32_t)getpid());
	put64(h, 640, (uint64_t)1 << 63);	/* mask */
	put32(h, 664, 1);		/* fin: ended */
	put64(h, 8832, dead);
	put64(h, 8840, 0x4141414141414141ULL);
	memcpy(h + 128, "stream\n", 8);
	if ((r = shmids_stream_open(lab, 0, 1)) == NULL) {
		printf("open %s\n", strerror(errno));
		shmctl(id, IPC_RMID, NULL);
		return 1;
	}
	k = shmids_stream_next(r, &m, 0);
	printf("next %d\n", k);
	printf("close %s\n", said(shmids_stream_close(r)));
	printf("past the table %s\n", get64(h, 8832) == dead &&
	    get64(h, 8840) == 0x4141414141414141ULL ? "untouched" :
	    "written");
	shmdt(h);
	shmctl(id, IPC_RMID, NULL);
	return 0;
}

/*
 * Wait policy, two slots, both full: reader A is killed holding
 * message 0, reader B has read both and polls every 10 ms.  The
 * writer's loan has its slot within about 100 ms all the same.
 */
static int
stall(void)
{
	struct shmids_stream *w, *r;
	struct shmids_msg m;
	char lab[SHMIDS_LABEL_MAX + 1];
	pid_t a, b;
	int pfd[2];
	double t0;
	void *p;

	if ((w = held_full("stall", lab, &a)) == NULL || pipe(pfd) == -1)
		return 1;
	if ((b = fork()) == 0) {
		if ((r = shmids_stream_open(lab, 0, 1)) == NULL)
			_exit(1);
		say_byte(pfd[1]);
		while (shmids_stream_next(r, &m, 0.01) != 0)
			;
		shmids_stream_close(r);
		_exit(0);
	}
	wait_byte(pfd[0]);
	kill(a, SIGKILL);
	waitpid(a, NULL, 0);
	t0 = now();
	p = shmids_stream_loan(w, 5);
	printf("loan %s%s\n", p != NULL ? "ok" : strerror(errno),
	    now() - t0 < 2 ? "" : " (slow)");
	shmids_stream_close(w);
	waitpid(b, NULL, 0);
	return 0;
}

/*
 * Overwrite: a reader's next(0) finds nothing (EAGAIN) and the reader
 * idles.  It holds nothing, so the writer never waits for it.
 */
static int
owpoll(void)
{
	struct shmids_stream *w, *r;
	struct shmids_msg m;
	char lab[SHMIDS_LABEL_MAX + 1];
	int pfd[2], i;
	pid_t c;

	if ((w = shmids_stream_create("owpoll", 0600, 4, 64, 1,
	    SHMIDS_STREAM_OVERWRITE)) == NULL || pipe(pfd) == -1)
		return 1;
	strcpy(lab, shmids_stream_label(w));
	if ((c = fork()) == 0) {
		if ((r = shmids_stream_open(lab, 0, 1)) == NULL)
			_exit(1);
		printf("poll %s\n", shmids_stream_next(r, &m, 0) == -1 &&
		    errno == EAGAIN ? "EAGAIN" : "no EAGAIN");
		fflush(stdout);
		say_byte(pfd[1]);
		for (;;)
			pause();
	}
	wait_byte(pfd[0]);
	for (i = 0; i < 12; i++)
		if (shmids_stream_loan(w, 2) == NULL ||
		    shmids_stream_publish(w, SHMIDS_I64, 1, 0,
		    SHMIDS_ROWMAJOR) == -1)
			break;
	printf("published %d\n", i);
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
	shmids_stream_close(w);
	return 0;
}

static void
next_is(struct shmids_stream *r, const char *when)
{
	struct shmids_msg m;
	int k = shmids_stream_next(r, &m, 0);

	if (k == 1)
		printf("%s: next %lld\n", when, m.seq);
	else
		printf("%s: next %s\n", when, k == 0 ? "end" : said(k));
}

/*
 * Ten messages, three read; get() of one not yet written times out,
 * then (the stream ended) get() of one past the end: each time the
 * reader goes on where it was.
 */
static int
getend(int argc, char **argv)
{
	struct shmids_stream *w, *r;
	struct shmids_msg m;
	int i;

	if ((w = shmids_stream_create("getend", 0600, 16, 64, 1, argc > 1 &&
	    strcmp(argv[1], "overwrite") == 0 ? SHMIDS_STREAM_OVERWRITE : 0))
	    == NULL ||
	    (r = shmids_stream_open(shmids_stream_label(w), 0, 1)) == NULL)
		return 1;
	publish(w, 10);
	for (i = 0; i < 3; i++)
		shmids_stream_next(r, &m, 1);
	printf("get 20 %s\n", said(shmids_stream_get(r, 20, &m, 0.05)));
	next_is(r, "live");
	shmids_stream_close(w);
	printf("get 17 %s\n", said(shmids_stream_get(r, 17, &m, 0)));
	next_is(r, "ended");
	shmids_stream_close(r);
	return 0;
}

/* Fork a child that sleeps: its pid. */
static pid_t
sleeper(void)
{
	pid_t h;

	if ((h = fork()) == 0) {
		sleep(30);
		_exit(0);
	}
	return h;
}

/*
 * File streams: a reader that forks a helper (no exec) and is killed
 * holding message 0; the writer has the slot back soon.  Then a writer
 * that forks and is killed: its reader is told EOWNERDEAD.
 */
static int
forklock(void)
{
	struct shmids_stream *w, *r;
	struct shmids_msg m;
	char lab[SHMIDS_LABEL_MAX + 1];
	pid_t c, h;
	int pfd[2], k;
	double t0;
	void *p;

	if ((w = shmids_stream_create("fork", 0600, 2, 64, 1, 0)) == NULL ||
	    pipe(pfd) == -1)
		return 1;
	strcpy(lab, shmids_stream_label(w));
	publish(w, 2);
	if ((c = fork()) == 0) {
		if ((r = shmids_stream_open(lab, 0, 1)) == NULL ||
		    shmids_stream_next(r, &m, 1) != 1)
			_exit(1);
		h = sleeper();
		if (write(pfd[1], &h, sizeof(h)) != sizeof(h))
			_exit(1);
		for (;;)
			pause();
	}
	if (read(pfd[0], &h, sizeof(h)) != sizeof(h))
		return 1;
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
	t0 = now();
	p = shmids_stream_loan(w, 3);
	printf("reader's fork: loan %s%s\n", p != NULL ? "ok" :
	    strerror(errno), now() - t0 < 2 ? "" : " (slow)");
	kill(h, SIGKILL);
	waitpid(h, NULL, 0);
	shmids_stream_close(w);

	if ((c = fork()) == 0) {
		if ((w = shmids_stream_create("fork2", 0600, 4, 64, 1, 0))
		    == NULL)
			_exit(1);
		publish(w, 1);
		h = sleeper();
		strcpy(lab, shmids_stream_label(w));
		if (write(pfd[1], &h, sizeof(h)) != sizeof(h) ||
		    write(pfd[1], lab, sizeof(lab)) != sizeof(lab))
			_exit(1);
		for (;;)
			pause();
	}
	if (read(pfd[0], &h, sizeof(h)) != sizeof(h) ||
	    read(pfd[0], lab, sizeof(lab)) != sizeof(lab))
		return 1;
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
	if ((r = shmids_stream_open(lab, 0, 1)) == NULL)
		return 1;
	shmids_stream_next(r, &m, 1);
	k = shmids_stream_next(r, &m, 3);
	printf("writer's fork: next %s\n", k == -1 ? said(k) : k == 0 ?
	    "end" : "a message");
	kill(h, SIGKILL);
	waitpid(h, NULL, 0);
	shmids_stream_close(r);
	shmids_remove(lab);
	return 0;
}

/*
 * File streams: a reader killed while it emptied its entry (after its
 * owner word became 1, before its bit of mask went; the word stored by
 * hand): the writer, waiting for its slot, takes the entry back.
 */
static int
stuck(void)
{
	struct shmids_stream *w;
	char lab[SHMIDS_LABEL_MAX + 1];
	struct stat st;
	uint64_t one = 1;
	int fd;
	pid_t c;
	void *p;

	if ((w = held_full("stuck", lab, &c)) == NULL)
		return 1;
	lab[strcspn(lab, " ")] = '\0';
	if ((fd = open(lab, O_RDWR)) == -1 || fstat(fd, &st) == -1 ||
	    pwrite(fd, &one, 8, 768) != 8)
		return 1;
	close(fd);
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
	p = shmids_stream_loan(w, 3);
	printf("loan %s\n", p != NULL ? "ok" : strerror(errno));
	shmids_stream_close(w);
	return 0;
}

int
main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 2 && strcmp(argv[1], "mask") == 0)
		return mask();
	if (argc >= 2 && strcmp(argv[1], "stall") == 0)
		return stall();
	if (argc >= 2 && strcmp(argv[1], "owpoll") == 0)
		return owpoll();
	if (argc >= 2 && strcmp(argv[1], "getend") == 0)
		return getend(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "forklock") == 0)
		return forklock();
	if (argc >= 2 && strcmp(argv[1], "stuck") == 0)
		return stuck();
	fprintf(stderr, "usage: streamattack mask|stall|owpoll|getend "
	    "[overwrite]|forklock|stuck\n");
	return 2;
}
