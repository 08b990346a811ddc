/*
 * iceoryx: Eclipse iceoryx 2.0.3 (Debian: iceoryx,
 * libiceoryx-binding-c-dev), through its C binding, zero copy as it is
 * meant to be used: the writer loans a chunk (64-byte aligned), fills
 * it in place and publishes it; the reader takes it in place, waiting
 * on a WaitSet while there is none, and releases it.  The publisher
 * waits for a slow subscriber (ConsumerTooSlowPolicy_WAIT_FOR_CONSUMER,
 * QueueFullPolicy_BLOCK_PRODUCER), the subscriber's queue as deep as a
 * ring's slots, so that nothing is lost.
 *
 * init() starts iceoryx's daemon, iox-roudi, with a configuration of
 * its own (a mempool for each size of message the run uses) in a
 * directory $TMPDIR/<prefix>iox.XXXXXX, and fini() stops it (SIGTERM:
 * it removes its shared memory, /dev/shm/iceoryx_mgmt and
 * /dev/shm/<user>, and its sockets and locks in /tmp; if it must be
 * killed, or aborts, fini() removes them).  The daemon dies with the
 * driver (PR_SET_PDEATHSIG).  There is one RouDi a machine: if another
 * holds its lock, the rows are skipped (it is not ours to stop).
 *
 * Built only with -DBENCH_ICEORYX (make stream-iox-maybe, where the
 * headers are installed); without, the rows say why not.
 */
#include "stream.h"

#ifdef BENCH_ICEORYX

#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>

#include <fcntl.h>
#include <limits.h>
#include <pwd.h>

#include <iceoryx_binding_c/enums.h>
#include <iceoryx_binding_c/log.h>
#include <iceoryx_binding_c/publisher.h>
#include <iceoryx_binding_c/runtime.h>
#include <iceoryx_binding_c/subscriber.h>
#include <iceoryx_binding_c/wait_set.h>

#define SERVICE		"shmids-bench"
#define WAIT_SECS	10	/* for RouDi, and for the other end */
#define READY		"RouDi is ready for clients"
#define UNIQUE_LOCK	"/tmp/iox-unique-roudi.lock"
#define MAXSIZES	16

struct ioxchan {
	iox_pub_storage_t ps;
	iox_sub_storage_t ss;
	iox_ws_storage_t wss;
	iox_pub_t	 pub;
	iox_sub_t	 sub;
	iox_ws_t	 ws;
	void		*loaned;
	const void	*taken;
};

static pid_t roudi = -1;
static char dir[PATH_MAX - 16], cfg[PATH_MAX], logpath[PATH_MAX];
static char why[PATH_MAX + 128];
static int runtime;		/* this process's runtime is up */

static void
nap_ms(long ms)
{
	struct timespec ts = { 0, 0 };

	ts.tv_nsec = ms * 1000000L;
	nanosleep(&ts, NULL);
}

/* What iceoryx leaves when its daemon is killed, not stopped. */
static void
remove_roudi_files(void)
{
	static const char *const files[] = { "/dev/shm/iceoryx_mgmt",
	    "/tmp/roudi", "/tmp/roudi.lock", UNIQUE_LOCK };
	struct passwd *pw = getpwuid(geteuid());
	char user[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		unlink(files[i]);
	if (pw != NULL) {
		snprintf(user, sizeof(user), "/dev/shm/%s", pw->pw_name);
		unlink(user);
	}
}

/*
 * The daemon's configuration: a mempool for each size of message, with
 * chunks enough for two channels' slots and a message held at each end,
 * and some over for chunks a killed child held.  Sizes in increasing
 * order, as iceoryx asks.
 */
static int
write_config(void)
{
	size_t v[MAXSIZES], t;
	int n = sizes_used(v, MAXSIZES), i, j;
	FILE *fp;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
			t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	if ((fp = fopen(cfg, "w")) == NULL)
		return -1;
	fprintf(fp, "[general]\nversion = 1\n\n[[segment]]\n");
	for (i = 0; i < n; i++)
		fprintf(fp, "\n[[segment.mempool]]\nsize = %zu\ncount = %d\n",
		    (v[i] + 64 + 7) / 8 * 8, 2 * (slots_for(v[i]) + 2) + 8);
	return fclose(fp);
}

/* Has the daemon said it is ready?  1 yes, 0 not yet, -1 it is gone. */
static int
ready(void)
{
	char line[512];
	FILE *fp;
	int st, yes = 0;

	if ((fp = fopen(logpath, "r")) != NULL) {
		while (fgets(line, sizeof(line), fp) != NULL)
			if (strstr(line, READY) != NULL)
				yes = 1;
		fclose(fp);
	}
	if (yes)
		return 1;
	if (waitpid(roudi, &st, WNOHANG) == roudi) {
		roudi = -1;
		snprintf(why, sizeof(why), WIFEXITED(st) &&
		    WEXITSTATUS(st) == 127 ? "iox-roudi not found (Debian: "
		    "iceoryx)" : "iox-roudi did not start (its log: %s)", logpath);
		return -1;
	}
	return 0;
}

static void
start_roudi(void)
{
	int fd, i;

	fflush(NULL);
	if ((roudi = fork()) == -1) {
		snprintf(why, sizeof(why), "fork: %s", strerror(errno));
		return;
	}
	if (roudi == 0) {
		/* its own group: a ^C reaches it through us, after the
		 * clients are gone */
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if ((fd = open(logpath, O_WRONLY | O_CREAT | O_TRUNC, 0600)) ==
		    -1)
			_exit(126);
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
		if ((fd = open("/dev/null", O_RDONLY)) != -1)
			dup2(fd, 0);
		execlp("iox-roudi", "iox-roudi", "-c", cfg, "-l", "info",
		    (char *)NULL);
		_exit(127);
	}
	for (i = 0; i < WAIT_SECS * 100; i++) {
		switch (ready()) {
		case 1:
			printf("  iceoryx: iox-roudi started, pid %ld; stopped "
			    "at the end\n", (long)roudi);
			return;
		case -1:
			return;
		}
		nap_ms(10);
	}
	snprintf(why, sizeof(why), "iox-roudi not ready after %d s (its "
	    "log: %s)", WAIT_SECS, logpath);
}

/*
 * A RouDi holds a lock on /tmp/iox-unique-roudi.lock while it runs; a
 * lock file nobody holds is a dead daemon's, whose files the next one
 * removes as it starts.
 */
static int
roudi_running(void)
{
	int fd, busy;

	if ((fd = open(UNIQUE_LOCK, O_RDONLY | O_CLOEXEC)) == -1)
		return 0;
	busy = flock(fd, LOCK_EX | LOCK_NB) == -1 && errno == EWOULDBLOCK;
	close(fd);
	return busy;
}

static const char *
iox_init(void)
{
	const char *tmp = getenv("TMPDIR");

	if (roudi_running())
		return "another iox-roudi is running (one a machine): not ours "
		    "to stop";
	snprintf(dir, sizeof(dir), "%s/%siox.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp", conf.prefix);
	if (mkdtemp(dir) == NULL) {
		snprintf(why, sizeof(why), "%s: %s", dir, strerror(errno));
		dir[0] = '\0';
		return why;
	}
	snprintf(cfg, sizeof(cfg), "%s/roudi.toml", dir);
	snprintf(logpath, sizeof(logpath), "%s/roudi.log", dir);
	if (write_config() == -1) {
		snprintf(why, sizeof(why), "%s: %s", cfg, strerror(errno));
		return why;
	}
	why[0] = '\0';
	start_roudi();
	if (roudi > 0 && why[0] != '\0')
		fprintf(stderr, "stream: %s\n", why);
	return why[0] != '\0' ? why : NULL;
}

static void
iox_fini(void)
{
	int st, i;

	if (roudi > 0) {
		kill(roudi, SIGTERM);
		for (i = 0; i < WAIT_SECS * 100; i++) {
			if (waitpid(roudi, &st, WNOHANG) == roudi)
				break;
			nap_ms(10);
		}
		if (i == WAIT_SECS * 100) {
			warnx("iox-roudi (pid %ld) did not stop in %d s: "
			    "killed", (long)roudi, WAIT_SECS);
			kill(roudi, SIGKILL);
			waitpid(roudi, &st, 0);
		}
		/* it aborts if a client it knows of is gone: tidy up */
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			if (i < WAIT_SECS * 100)
				warnx("iox-roudi did not stop cleanly: its "
				    "files removed");
			remove_roudi_files();
		}
		roudi = -1;
	}
	if (dir[0] != '\0') {
		unlink(cfg);
		unlink(logpath);
		rmdir(dir);
		dir[0] = '\0';
	}
}

static int
iox_open(struct chan *c)
{
	struct ioxchan *x = xmalloc(sizeof(*x));

	memset(x, 0, sizeof(*x));
	c->priv = x;
	return 0;
}

static void
runtime_name(char *buf, size_t len, const struct chan *c, int role)
{
	snprintf(buf, len, "%siox%d%c", conf.prefix, c->id,
	    role == WRITER ? 'w' : 'r');
}

/* Wait until the other end is there: 0, or -1 after WAIT_SECS. */
static int
await(iox_pub_t pub, iox_sub_t sub)
{
	double end = now() + WAIT_SECS;

	while (pub != NULL ? !iox_pub_has_subscribers(pub) :
	    iox_sub_get_subscription_state(sub) != SubscribeState_SUBSCRIBED) {
		if (now() > end) {
			warnx("iceoryx: no %s after %d s", pub != NULL ?
			    "subscriber" : "publisher", WAIT_SECS);
			return -1;
		}
		nap_ms(1);
	}
	return 0;
}

static int
iox_attach(struct chan *c, int role)
{
	struct ioxchan *x = c->priv;
	iox_pub_options_t po;
	iox_sub_options_t so;
	char name[128], event[32];

	if (!runtime) {
		iox_set_loglevel(Iceoryx_LogLevel_Warn);
		runtime_name(name, sizeof(name), c, role);
		iox_runtime_init(name);
		runtime = 1;
	}
	snprintf(event, sizeof(event), "c%d", c->id);
	if (role == WRITER) {
		iox_pub_options_init(&po);
		po.historyCapacity = 0;
		po.subscriberTooSlowPolicy =
		    ConsumerTooSlowPolicy_WAIT_FOR_CONSUMER;
		x->pub = iox_pub_init(&x->ps, SERVICE, conf.prefix, event, &po);
		return await(x->pub, NULL);
	}
	iox_sub_options_init(&so);
	so.queueCapacity = (uint64_t)c->slots;
	so.historyRequest = 0;
	so.queueFullPolicy = QueueFullPolicy_BLOCK_PRODUCER;
	x->sub = iox_sub_init(&x->ss, SERVICE, conf.prefix, event, &so);
	x->ws = iox_ws_init(&x->wss);
	if (iox_ws_attach_subscriber_state(x->ws, x->sub,
	    SubscriberState_HAS_DATA, 0, NULL) != WaitSetResult_SUCCESS) {
		warnx("iceoryx: cannot attach the subscriber to a WaitSet");
		return -1;
	}
	return await(NULL, x->sub);
}

static void *
iox_loan(struct chan *c)
{
	struct ioxchan *x = c->priv;
	int r;

	r = iox_pub_loan_aligned_chunk(x->pub, &x->loaned,
	    (uint32_t)c->nbytes, 64);
	if (r != AllocationResult_SUCCESS) {
		warnx("iceoryx: no chunk of %zu bytes (AllocationResult %d)",
		    c->nbytes, r);
		return NULL;
	}
	return x->loaned;
}

static int
iox_publish(struct chan *c)
{
	struct ioxchan *x = c->priv;

	iox_pub_publish_chunk(x->pub, x->loaned);
	return 0;
}

static const void *
iox_next(struct chan *c)
{
	struct ioxchan *x = c->priv;
	iox_notification_info_t info[1];
	uint64_t missed;
	int r;

	while ((r = iox_sub_take_chunk(x->sub, &x->taken)) !=
	    ChunkReceiveResult_SUCCESS) {
		if (r != ChunkReceiveResult_NO_CHUNK_AVAILABLE) {
			warnx("iceoryx: take (ChunkReceiveResult %d)", r);
			return NULL;
		}
		iox_ws_wait(x->ws, info, 1, &missed);
	}
	return x->taken;
}

static int
iox_release(struct chan *c)
{
	struct ioxchan *x = c->priv;

	iox_sub_release_chunk(x->sub, x->taken);
	return 0;
}

static void
iox_detach(struct chan *c)
{
	struct ioxchan *x = c->priv;

	if (x->ws != NULL)
		iox_ws_deinit(x->ws);
	if (x->sub != NULL)
		iox_sub_deinit(x->sub);
	if (x->pub != NULL)
		iox_pub_deinit(x->pub);
}

/*
 * The driver: the socket and lock file of a client killed before it
 * could go (a client that ends well removes them at its exit(3)).
 */
static void
iox_close(struct chan *c)
{
	char name[128], path[PATH_MAX];
	int role;

	for (role = WRITER; role <= READER; role++) {
		runtime_name(name, sizeof(name), c, role);
		snprintf(path, sizeof(path), "/tmp/%s", name);
		unlink(path);
		snprintf(path, sizeof(path), "/tmp/%s.lock", name);
		unlink(path);
	}
	free(c->priv);
}

const struct contender c_iceoryx = {
	"iceoryx", "iceoryx",
	"no copy: loan a chunk, fill it in place, publish; take, read in "
	"place, release (a WaitSet while none)",
	0, iox_init, NULL, iox_open, iox_attach, iox_loan, iox_publish,
	iox_next, iox_release, iox_detach, iox_close, iox_fini
};

#else /* !BENCH_ICEORYX */

static const char *
iox_init(void)
{
	static char why[256];
	const char *s = getenv("BENCH_ICEORYX_SKIP");

	snprintf(why, sizeof(why), "not in this build: %s", s != NULL &&
	    *s != '\0' ? s : "make bench-stream builds it where iceoryx is "
	    "installed (Debian: iceoryx libiceoryx-binding-c-dev)");
	return why;
}

const struct contender c_iceoryx = {
	"iceoryx", "iceoryx",
	"no copy: loan a chunk, fill it in place, publish; take, read in "
	"place, release (not in this build)",
	0, iox_init, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
	NULL
};

#endif /* BENCH_ICEORYX */
