/*
 * stream: the speed of streams of messages between two processes
 * (issue 43, "Speed"): each contender (contenders.c) against the
 * others, in one run, interleaved, several runs; medians with the
 * least and the most of the runs, ratios against the baselines of the
 * same run, and issue 43's targets, met or not met.
 *
 *	stream [-q] [oneway] [pingpong] [shmemq] [live]
 *
 * The parts (all by default):
 *	oneway		one-way throughput, messages/s and GB/s, at 64 B,
 *			4 KiB, 1 MiB and 16 MiB, each measurement running
 *			for the budget (BENCH_STREAM_SECONDS)
 *	pingpong	round trips at 64 B and 4 KiB: median and 99th
 *			percentile of one measurement's round trips
 *	shmemq		the shared-memory queue case (after shmemq's
 *			benchmark): 10^6 round trips of 256 B, 2 M messages,
 *			total seconds (BENCH_STREAM_ROUNDTRIPS of them, the
 *			total for 10^6 projected from those)
 *	live		issue 43's live case: BENCH_STREAM_STEPS (1000) steps
 *			of 10^5 doubles, the writer fills, the reader sums;
 *			CPU time of both, against the same work in one
 *			process on one buffer faulted in first (the floor)
 * each with both processes unpinned, both pinned to one CPU, and pinned
 * to two (sched_setaffinity(2)): the first two CPUs the driver may use.
 *
 * What the writer and the reader do with each message, and how long a
 * measurement lasts: loops.c, cell.c.  A ring (every contender but the
 * pipe) holds 8 MiB / size slots, 2 to 64: 64 at 64 B to 4 KiB, 10 at
 * 800,000 B, 8 at 1 MiB, 2 at 16 MiB (BENCH_STREAM_SLOTS forces one
 * count).
 *
 * Environment: BENCH_RUNS (3; BENCH_QUICK: 1), BENCH_STREAM_SECONDS (a
 * measurement's budget, 0.1 s; quick 0.02), BENCH_STREAM_ROUNDTRIPS
 * (the shmemq case's count, 10000; 1000000 is the source's, some 20 s
 * a measurement here; quick 500), BENCH_STREAM_CAP (the most a shmemq
 * measurement runs, 1 s; quick 0.5), BENCH_STREAM_STEPS (1000; quick 20),
 * BENCH_STREAM_PINS (of "any one two", the pin modes to run; default
 * all), BENCH_STREAM_ROWS (contenders to run by id, comma-separated:
 * pipe,sem,ring,ring-adaptive,mq,iceoryx,segment,stream; default all),
 * BENCH_STREAM_SLOTS, BENCH_PREFIX (of every name made here, default
 * "bench-<pid>-"), BENCH_ICEORYX_SKIP (why this build has no iceoryx:
 * bench/stream/run sets it).  SHMIDS_DIR is ignored: a segment a step
 * is a System V segment.
 *
 * Exit status 0; 1 if a measurement failed; 2 for a usage error.
 */
#include "stream.h"

struct conf conf;
volatile sig_atomic_t interrupted;

#define MAXC		16
#define LIVE_N		100000		/* doubles a step of the live case */
#define SHMEMQ_BYTES	256

static const size_t oneway_sizes[] = { 64, 4 * KIB, MIB, 16 * MIB };
static const size_t ping_sizes[] = { 64, 4 * KIB };
#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

static const char *init_why[MAXC];
static int failed;

const char *
pin_name(int pin)
{
	static const char *const names[NPIN] = { "unpinned", "one CPU",
	    "two CPUs" };

	return names[pin];
}

int
slots_for(size_t nbytes)
{
	size_t s;

	if (conf.slots > 0)
		return conf.slots;
	s = SLOTBYTES / nbytes;
	return s < MINSLOTS ? MINSLOTS : s > MAXSLOTS ? MAXSLOTS : (int)s;
}

/* The sizes of message the parts asked for use, distinct: how many. */
int
sizes_used(size_t *v, int max)
{
	size_t all[NELEM(oneway_sizes) + NELEM(ping_sizes) + 2];
	int n = 0, k = 0, i, j;
	size_t u;

	if (conf.parts[ONEWAY])
		for (u = 0; u < NELEM(oneway_sizes); u++)
			all[n++] = oneway_sizes[u];
	if (conf.parts[PINGPONG])
		for (u = 0; u < NELEM(ping_sizes); u++)
			all[n++] = ping_sizes[u];
	if (conf.parts[ROUNDTRIPS])
		all[n++] = SHMEMQ_BYTES;
	if (conf.parts[LIVE])
		all[n++] = conf.live_n * sizeof(double);
	for (i = 0; i < n; i++) {
		for (j = 0; j < k && v[j] != all[i]; j++)
			;
		if (j == k && k < max)
			v[k++] = all[i];
	}
	return k;
}

/* A number from the environment, def if unset; exits 2 if bad. */
static double
envnum(const char *name, double def, double min, double max)
{
	const char *s = getenv(name);
	char *end;
	double v;

	if (s == NULL || *s == '\0')
		return def;
	errno = 0;
	v = strtod(s, &end);
	if (*end != '\0' || errno != 0 || !(v >= min && v <= max))
		errx(2, "%s: %s: not a number from %g to %g", name, s, min,
		    max);
	return v;
}

/* Is word w in the list s (separated by spaces or commas)? */
static int
listed(const char *s, const char *w)
{
	size_t n = strlen(w);

	while (*s != '\0') {
		s += strspn(s, " ,");
		if (strncmp(s, w, n) == 0 && (s[n] == '\0' || s[n] == ',' ||
		    s[n] == ' '))
			return 1;
		s += strcspn(s, " ,");
	}
	return 0;
}

/* The first two CPUs this process may run on, -1 if there is no such. */
static void
find_cpus(void)
{
	cpu_set_t set;
	int i, k = 0;

	conf.cpu[0] = conf.cpu[1] = -1;
	if (sched_getaffinity(0, sizeof(set), &set) == -1)
		return;
	for (i = 0; i < CPU_SETSIZE && k < 2; i++)
		if (CPU_ISSET(i, &set))
			conf.cpu[k++] = i;
}

static void
configure(void)
{
	int quick = getenv("BENCH_QUICK") != NULL, p;
	const char *pins = getenv("BENCH_STREAM_PINS");
	static char prefix[48];

	conf.runs = (int)envnum("BENCH_RUNS", quick ? 1 : 3, 1, MAXRUNS);
	conf.budget = envnum("BENCH_STREAM_SECONDS", quick ? 0.02 : 0.1,
	    0.001, 3600);
	conf.roundtrips = (long)envnum("BENCH_STREAM_ROUNDTRIPS",
	    quick ? 500 : 10000, 1, 1e9);
	conf.cap = envnum("BENCH_STREAM_CAP", quick ? 0.5 : 1, 0.001, 3600);
	conf.steps = (long)envnum("BENCH_STREAM_STEPS", quick ? 20 : 1000, 1,
	    1e9);
	conf.slots = (int)envnum("BENCH_STREAM_SLOTS", 0, 0, 256);
	conf.live_n = LIVE_N;
	conf.only = getenv("BENCH_STREAM_ROWS");
	if (conf.only != NULL && *conf.only == '\0')
		conf.only = NULL;
	for (p = 0; p < NPIN; p++)
		conf.pins[p] = pins == NULL || *pins == '\0' ||
		    listed(pins, p == PIN_NONE ? "any" : p == PIN_ONE ?
		    "one" : "two");
	if (getenv("BENCH_PREFIX") != NULL && *getenv("BENCH_PREFIX"))
		snprintf(prefix, sizeof(prefix), "%s", getenv("BENCH_PREFIX"));
	else
		snprintf(prefix, sizeof(prefix), "bench-%ld-", (long)getpid());
	conf.prefix = prefix;
	find_cpus();
}

/*
 * One block: every contender (and for the live case the floor) at one
 * size and one pin mode, runs interleaved: in run r the contenders in
 * turn from the r-th on, so that none always goes first.
 */
static void
block(int kind, size_t nbytes, int pin)
{
	static struct meas m[MAXC + 1][MAXRUNS];
	const char *skip[MAXC + 1];
	int nrows = ncontenders + (kind == LIVE), r, k, i;
	const struct contender *c;

	for (i = 0; i < nrows; i++) {
		c = i < ncontenders ? contenders[i] : NULL;
		skip[i] = NULL;
		if (c != NULL && conf.only != NULL && !listed(conf.only, c->id))
			skip[i] = "";	/* not asked for: no row */
		else if (c != NULL && init_why[i] != NULL)
			skip[i] = init_why[i];
		else if (c != NULL && c->skip != NULL)
			skip[i] = c->skip(nbytes);
	}
	for (r = 0; r < conf.runs && !interrupted; r++)
		for (k = 0; k < nrows && !interrupted; k++) {
			i = (k + r) % nrows;
			if (skip[i] != NULL)
				continue;
			c = i < ncontenders ? contenders[i] : NULL;
			measure(c, c != NULL ? kind : FLOOR, nbytes, pin,
			    &m[i][r]);
			if (!m[i][r].ok && !interrupted)
				failed = 1;
		}
	if (!interrupted)
		report_block(kind, nbytes, pin, nrows, m, skip);
}

static void
part(int kind, const size_t *sizes, size_t nsizes)
{
	size_t s;
	int p;

	for (s = 0; s < nsizes && !interrupted; s++)
		for (p = 0; p < NPIN && !interrupted; p++) {
			if (!conf.pins[p])
				continue;
			if (p == PIN_TWO && conf.cpu[1] < 0) {
				printf("\n(%s: not measured: this process may "
				    "run on one CPU only)\n", pin_name(p));
				continue;
			}
			block(kind, sizes[s], p);
		}
}

static void
usage(void)
{
	fprintf(stderr, "usage: stream [-q] [oneway] [pingpong] [shmemq] "
	    "[live]\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	static const char *const names[] = { "oneway", "pingpong", "shmemq",
	    "live" };
	size_t shmemq = SHMEMQ_BYTES, live;
	double t0 = now();
	int c, i, k, any = 0;

	while ((c = getopt(argc, argv, "q")) != -1) {
		if (c != 'q')
			usage();
		setenv("BENCH_QUICK", "1", 1);
	}
	for (i = optind; i < argc; i++) {
		for (k = 0; k < (int)NELEM(names) && strcmp(argv[i],
		    names[k]) != 0; k++)
			;
		if (k == (int)NELEM(names))
			usage();
		conf.parts[k] = any = 1;
	}
	for (k = 0; k < (int)NELEM(names) && !any; k++)
		conf.parts[k] = 1;
	configure();
	unsetenv("SHMIDS_DIR");
	setvbuf(stdout, NULL, _IOLBF, 0);
	cell_signals();
	report_init();
	for (i = 0; i < ncontenders && !interrupted; i++)
		init_why[i] = contenders[i]->init != NULL ?
		    contenders[i]->init() : NULL;
	if (conf.parts[ONEWAY])
		part(ONEWAY, oneway_sizes, NELEM(oneway_sizes));
	if (conf.parts[PINGPONG])
		part(PINGPONG, ping_sizes, NELEM(ping_sizes));
	if (conf.parts[ROUNDTRIPS])
		part(ROUNDTRIPS, &shmemq, 1);
	live = conf.live_n * sizeof(double);
	if (conf.parts[LIVE])
		part(LIVE, &live, 1);
	for (i = 0; i < ncontenders; i++)
		if (contenders[i]->fini != NULL)
			contenders[i]->fini();
	if (interrupted) {
		fprintf(stderr, "stream: interrupted\n");
		signal((int)interrupted, SIG_DFL);
		raise((int)interrupted);
		return 1;
	}
	report_targets();
	printf("bench/stream: %.0f s%s\n", now() - t0, failed ?
	    "; a measurement FAILED (see above)" : "");
	return failed;
}
