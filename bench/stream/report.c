/*
 * What the run prints: what is measured, each block's rows (median of
 * the runs, with the least and the most), the ratios against the
 * baselines of the same block, and issue 43's targets.
 */
#include "stream.h"

#define MAXFIG		512
#define LIVE_LIMIT	1.25	/* x the floor's CPU */
#define SMALL_RATE	2.5e6	/* 64 B messages a second */
#define P99_LIMIT	60e-6	/* s, a round trip across CPUs */

enum { MEASURED, SKIPPED, FAILED, UNASKED };

/*
 * A row's figures, kept for the ratios and the targets: v is the
 * figure ratios are taken of (messages a second one way, the median
 * round trip, seconds per 10^6 round trips, CPU seconds of the live
 * case), p the 99th percentile of the round trips; each the median of
 * the runs, the least and the most.
 */
struct fig {
	int		 kind, pin;
	size_t		 nbytes;
	int		 row;
	int		 state;		/* MEASURED, SKIPPED, FAILED, UNASKED */
	char		 why[160];	/* skipped, failed: why */
	double		 v[3], p[3];	/* median, least, most */
	double		 wall;		/* median, s */
	uint64_t	 fewest;	/* round trips done, the fewest */
};

static struct fig figs[MAXFIG];
static int nfig;

const char *
size_name(size_t nbytes, char *buf, size_t len)
{
	if (nbytes >= MIB && nbytes % MIB == 0)
		snprintf(buf, len, "%zu MiB", nbytes / MIB);
	else if (nbytes >= KIB && nbytes % KIB == 0)
		snprintf(buf, len, "%zu KiB", nbytes / KIB);
	else
		snprintf(buf, len, "%zu B", nbytes);
	return buf;
}

/* v to 3 significant digits, with an SI prefix from k up: 7 columns. */
const char *
si(double v, char *buf, size_t len)
{
	if (v >= 1e9)
		snprintf(buf, len, "%.3gG", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, len, "%.3gM", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, len, "%.3gk", v / 1e3);
	else
		snprintf(buf, len, "%.3g", v);
	return buf;
}

void
report_init(void)
{
	char a[16], b[16], d[16];
	int i;

	printf("Streams between two processes (issue 43; "
	    "bench/stream/README): %d run%s, contenders interleaved; the "
	    "median of the runs [the least, the most]\n", conf.runs,
	    conf.runs == 1 ? "" : "s");
	printf("  a message: the writer writes every 8-byte word (its "
	    "sequence number, then the number XOR k), the reader reads and "
	    "checks every word\n");
	printf("  rings: %zu MiB / size slots, %d to %d: %d at 64 B, %d at "
	    "%s, %d at %s, %d at %s; a measurement: %.2f s\n",
	    SLOTBYTES / MIB, MINSLOTS, MAXSLOTS, slots_for(64),
	    slots_for(4 * KIB), size_name(4 * KIB, a, sizeof(a)),
	    slots_for(MIB), size_name(MIB, b, sizeof(b)),
	    slots_for(16 * MIB), size_name(16 * MIB, d, sizeof(d)),
	    conf.budget);
	if (conf.cpu[1] >= 0)
		printf("  pinned: one CPU, both on CPU %d; two CPUs, the "
		    "writer on CPU %d, the reader on CPU %d\n", conf.cpu[0],
		    conf.cpu[0], conf.cpu[1]);
	printf("  contenders:\n");
	for (i = 0; i < ncontenders; i++)
		printf("    %-18s %s\n", contenders[i]->name,
		    contenders[i]->how);
}

static const char *
row_id(int i)
{
	return i < ncontenders ? contenders[i]->id : "floor";
}

static const char *
row_name(int i)
{
	return i < ncontenders ? contenders[i]->name : "floor (1 process)";
}

static const struct fig *
find(int kind, size_t nbytes, int pin, const char *id)
{
	int i;

	for (i = nfig - 1; i >= 0; i--)
		if (figs[i].kind == kind && figs[i].nbytes == nbytes &&
		    figs[i].pin == pin && strcmp(row_id(figs[i].row), id) == 0)
			return &figs[i];
	return NULL;
}

/*
 * Median, least and most of field off of the runs m, all good; with
 * per not 0, of per / the field (a rate made a time).
 */
static void
over_runs(const struct meas *m, size_t off, double per, double t[3])
{
	double v[MAXRUNS];
	int r;

	for (r = 0; r < conf.runs; r++) {
		memcpy(&v[r], (const char *)&m[r] + off, sizeof(double));
		if (per != 0)
			v[r] = per / v[r];
	}
	t[1] = dmin(v, conf.runs);
	t[2] = dmax(v, conf.runs);
	t[0] = dmedian(v, conf.runs);
}

/* Row i's figures from its runs m (or why it has none). */
static struct fig *
compute(int kind, size_t nbytes, int pin, int i, const struct meas *m,
    const char *skip)
{
	struct fig *f;
	double t[3];
	int r;

	if (nfig == MAXFIG)
		errx(1, "more than %d rows", MAXFIG);
	f = &figs[nfig++];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->nbytes = nbytes;
	f->pin = pin;
	f->row = i;
	if (skip != NULL) {
		f->state = *skip == '\0' ? UNASKED : SKIPPED;
		snprintf(f->why, sizeof(f->why), "%s", skip);
		return f;
	}
	for (r = conf.runs - 1; r >= 0; r--)
		if (!m[r].ok) {
			f->state = FAILED;
			snprintf(f->why, sizeof(f->why), "%s", m[r].why);
		}
	if (f->state == FAILED)
		return f;
	if (kind == ONEWAY)
		over_runs(m, offsetof(struct meas, rate), 0, f->v);
	else if (kind == PINGPONG) {
		over_runs(m, offsetof(struct meas, med), 0, f->v);
		over_runs(m, offsetof(struct meas, p99), 0, f->p);
	} else if (kind == ROUNDTRIPS)
		over_runs(m, offsetof(struct meas, rate), 1e6, f->v);
	else
		over_runs(m, offsetof(struct meas, cpu), 0, f->v);
	over_runs(m, offsetof(struct meas, secs), 0, t);
	f->wall = t[0];
	f->fewest = m[0].n;
	for (r = 1; r < conf.runs; r++)
		if (m[r].n < f->fewest)
			f->fewest = m[r].n;
	return f;
}

/* "median [least, most]" of t, scaled, with SI prefixes. */
static void
spread(const double t[3], double scale)
{
	char a[16], b[16], c[16];

	printf(" %7s [%7s, %7s]", si(t[0] * scale, a, sizeof(a)),
	    si(t[1] * scale, b, sizeof(b)), si(t[2] * scale, c, sizeof(c)));
}

static void
ratio(const struct fig *f, const char *base, int width)
{
	const struct fig *b = find(f->kind, f->nbytes, f->pin, base);

	if (b == NULL || b->state != MEASURED || b->v[0] <= 0)
		printf(" %*s", width, "-");
	else
		printf(" %*.2f", width, f->v[0] / b->v[0]);
}

static void
print_row(const struct fig *f)
{
	const char *name = row_name(f->row);

	if (f->state != MEASURED) {
		if (f->state != UNASKED)
			printf("  %-18s %s: %s\n", name, f->state == FAILED ?
			    "FAILED" : "skipped", f->why);
		return;
	}
	printf("  %-18s", name);
	switch (f->kind) {
	case ONEWAY:
		spread(f->v, 1);
		printf(" %8.3f", f->v[0] * (double)f->nbytes / 1e9);
		ratio(f, "pipe", 8);
		ratio(f, "iceoryx", 9);
		break;
	case PINGPONG:
		spread(f->v, 1e6);
		spread(f->p, 1e6);
		ratio(f, "sem", 10);
		break;
	case ROUNDTRIPS:
		spread(f->v, 1);
		ratio(f, "ring-adaptive", 17);
		if (f->fewest < (uint64_t)conf.roundtrips)
			printf("  (stopped at %.1f s: %llu round trips)",
			    conf.cap, (unsigned long long)f->fewest);
		break;
	default:
		spread(f->v, 1);
		printf(" %8.3f", f->wall);
		ratio(f, "floor", 8);
	}
	printf("\n");
}

static void
heading(int kind, size_t nbytes, int pin)
{
	char s[16];
	int slots = slots_for(nbytes);

	size_name(nbytes, s, sizeof(s));
	switch (kind) {
	case ONEWAY:
		printf("\nOne way, %s messages, %s (%d slots)\n", s,
		    pin_name(pin), slots);
		printf("  %-18s %27s %8s %8s %9s\n", "", "messages/s",
		    "GB/s", "x pipe", "x iceoryx");
		break;
	case PINGPONG:
		printf("\nPing-pong, %s messages, %s: a round trip, us\n", s,
		    pin_name(pin));
		printf("  %-18s %27s %27s %10s\n", "", "median", "99th pct",
		    "x sem pair");
		break;
	case ROUNDTRIPS:
		printf("\nThe shmemq case, %s ping-pong, %s: s per 10^6 round "
		    "trips (2 M messages), from %ld round trips (%.1f s at "
		    "most)\n", s, pin_name(pin), conf.roundtrips, conf.cap);
		printf("  %-18s %27s %17s\n", "", "s per 10^6",
		    "x ring (adaptive)");
		break;
	default:
		printf("\nThe live case, %ld steps of %zu doubles (%zu B), "
		    "the writer fills, the reader sums, %s (%d slots)\n",
		    conf.steps, conf.live_n, nbytes, pin_name(pin), slots);
		printf("  %-18s %27s %8s %8s\n", "", "CPU s, both", "wall s",
		    "x floor");
	}
}

/*
 * A block: every row's figures first, so that each row's ratios are
 * against the baselines of the same block, then the rows in order.
 * skip[i] says why row i was not run ("": not asked for, no line).
 */
void
report_block(int kind, size_t nbytes, int pin, int nrows,
    struct meas m[][MAXRUNS], const char *const *skip)
{
	int first = nfig, i;

	for (i = 0; i < nrows; i++)
		compute(kind, nbytes, pin, i, m[i], skip[i]);
	heading(kind, nbytes, pin);
	for (i = first; i < nfig; i++)
		print_row(&figs[i]);
}

/*
 * Issue 43's targets.  The verdict is taken unpinned (the 99th
 * percentile across CPUs: pinned to two), the figures of the other
 * pin modes measured shown beside it; base NULL: an absolute limit.
 */
struct target {
	const char	*id, *what;
	int		 kind;
	size_t		 nbytes;	/* 0: the live case's */
	const char	*base;		/* the ratio's denominator, or NULL */
	const char	*also;		/* another row's ratio, for scale */
	int		 pin;
	int		 atleast;	/* a floor, not a ceiling */
	int		 p99;		/* of the 99th percentile, not v */
	double		 limit;
};

static const struct target targets[] = {
	{ "43.tput-1m", "shmids stream against iceoryx, 1 MiB one way, "
	    "messages/s", ONEWAY, MIB, "iceoryx", "segment", PIN_NONE, 1, 0,
	    1.0 },
	{ "43.tput-16m", "shmids stream against iceoryx, 16 MiB one way, "
	    "messages/s", ONEWAY, 16 * MIB, "iceoryx", "segment", PIN_NONE, 1,
	    0, 1.0 },
	{ "43.live", "the live case, shmids stream's CPU against the "
	    "floor's", LIVE, 0, "floor", "segment", PIN_NONE, 0, 0,
	    LIVE_LIMIT },
	{ "43.small", "64 B one way, shmids stream, messages/s", ONEWAY, 64,
	    NULL, "ring-adaptive", PIN_NONE, 1, 0, SMALL_RATE },
	{ "43.small-ring", "64 B one way, shmids stream against the "
	    "adaptive-mutex ring", ONEWAY, 64, "ring-adaptive", NULL,
	    PIN_NONE, 1, 0, 1.0 },
	{ "43.pp-median", "64 B ping-pong, shmids stream's median round "
	    "trip against the semaphore pair's", PINGPONG, 64, "sem", NULL,
	    PIN_NONE, 0, 0, 1.0 },
	{ "43.pp-p99", "64 B ping-pong across two CPUs, shmids stream's "
	    "99th percentile round trip", PINGPONG, 64, NULL, "sem", PIN_TWO,
	    0, 1, P99_LIMIT },
};
#define NTARGETS	(sizeof(targets) / sizeof(targets[0]))

/* The target's figure in pin mode pin: 0, or -1 and why not. */
static int
figure(const struct target *t, int pin, const char *id, double *v,
    const char **why)
{
	size_t n = t->nbytes ? t->nbytes : conf.live_n * sizeof(double);
	const struct fig *f = find(t->kind, n, pin, id), *b;

	*why = NULL;
	if (f == NULL || f->state == UNASKED) {
		*why = "not measured";
		return -1;
	}
	if (f->state != MEASURED) {
		*why = f->why;
		return -1;
	}
	*v = t->p99 ? f->p[0] : f->v[0];
	if (t->base == NULL || strcmp(id, "stream") != 0)
		return 0;
	b = find(t->kind, n, pin, t->base);
	if (b == NULL || b->state != MEASURED || b->v[0] <= 0) {
		*why = "its baseline not measured";
		return -1;
	}
	*v /= b->v[0];
	return 0;
}

/* A figure as the target states it: a ratio, a rate or a time. */
static const char *
shown(const struct target *t, double v, int ratio, char *buf, size_t len)
{
	char s[16];

	if (ratio)
		snprintf(buf, len, "%.2fx", v);
	else if (t->kind == PINGPONG)
		snprintf(buf, len, "%.1f us", v * 1e6);
	else if (t->kind == LIVE)
		snprintf(buf, len, "%.3g s of CPU", v);
	else if (t->nbytes >= MIB)
		snprintf(buf, len, "%s/s, %.2f GB/s", si(v, s, sizeof(s)),
		    v * (double)t->nbytes / 1e9);
	else
		snprintf(buf, len, "%s/s", si(v, s, sizeof(s)));
	return buf;
}

/*
 * Another row's figure in the verdict's mode, for scale: the base's
 * own, any other's against the base.
 */
static void
beside(const struct target *t, const char *id, const char *label)
{
	struct target u = *t;
	const char *why;
	double v, b;
	char s[32];

	u.base = NULL;
	if (figure(&u, t->pin, id, &v, &why) == -1)
		return;
	if (t->base == NULL || strcmp(id, t->base) == 0)
		printf("; %s %s", label, shown(t, v, 0, s, sizeof(s)));
	else if (figure(&u, t->pin, t->base, &b, &why) == 0 && b > 0)
		printf("; %s %s", label, shown(t, v / b, 1, s, sizeof(s)));
}

static const char *
row_label(const char *id)
{
	int i;

	for (i = 0; i < ncontenders; i++)
		if (strcmp(contenders[i]->id, id) == 0)
			return contenders[i]->name;
	return id;
}

static void
one_target(const struct target *t)
{
	size_t n = t->nbytes ? t->nbytes : conf.live_n * sizeof(double);
	const char *why, *w;
	double v, o;
	char s[32], lim[32], others[128] = "";
	int p, ratio = t->base != NULL;

	printf("target %s %s", t->id, t->what);
	if (find(t->kind, n, t->pin, "stream") == NULL) {
		printf(": not measured in this run (needs bench/stream %s, "
		    "%s)\n", t->kind == ONEWAY ? "oneway" : t->kind ==
		    PINGPONG ? "pingpong" : "live", pin_name(t->pin));
		return;
	}
	if (figure(t, t->pin, "stream", &v, &why) == -1) {
		printf(": n/a (shmids stream: %s", why);
		if (t->base != NULL)
			beside(t, t->base, row_label(t->base));
		if (t->also != NULL)
			beside(t, t->also, row_label(t->also));
		printf(")\n");
		return;
	}
	for (p = 0; p < NPIN; p++)
		if (p != t->pin && figure(t, p, "stream", &o, &w) == 0)
			snprintf(others + strlen(others), sizeof(others) -
			    strlen(others), "%s%s %s", *others ? ", " : " (",
			    pin_name(p), shown(t, o, ratio, s, sizeof(s)));
	printf(", %s%s%s", pin_name(t->pin), others, *others ? ")" : "");
	printf(": %s (%s %s) %s\n", shown(t, v, ratio, s, sizeof(s)),
	    t->atleast ? "at least" : "limit", shown(t, t->limit, ratio, lim,
	    sizeof(lim)), (t->atleast ? v >= t->limit : v <= t->limit) ?
	    "met" : "not met");
}

void
report_targets(void)
{
	size_t i;

	printf("\n");
	for (i = 0; i < NTARGETS; i++)
		one_target(&targets[i]);
}
