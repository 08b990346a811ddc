/*
 * stress: the concurrency cases of issue 4, for a bounded time.
 *
 *  a. Many writers make segments with one name at once: every label must
 *     be unique and open to its own writer's data.
 *  b. shm-rm -s cleans while writers create and readers hold segments:
 *     nothing fresh or attached goes, nothing goes twice, and readers
 *     read correct data through mappings of removed segments.
 *  c. Two shm-expand -d race for one reference: each output is the
 *     whole expansion or the line unchanged with an error, at least one
 *     is whole, and the segment ends removed.
 *
 * Prints counts; exits 1 on any violation or unexpected error, 2 on a
 * usage error, 128 + signal when interrupted.  Every segment made is
 * removed at the end, on SIGINT and SIGTERM too: the cases track their
 * labels, and a final sweep removes what a process of ours made but
 * could not report (one killed inside shmids_create, say).
 *
 * The program is the files of this directory; stress.h and case_b.h say
 * which does what.
 */
#include "stress.h"


const char *bindir = "build/bin";
const char *cases = "abc";
const char *prefix = "";	/* -p: before every name we make */
unsigned	 tsecs = 20, nwriters = 8, pern = 500;
char	 name[48];		/* case a: prefix + "stress-<pid>" */
char	 bname[SHMIDS_NAME_MAX + 1];	/* case b: name + "-b" */
char	 cname[SHMIDS_NAME_MAX + 1];	/* case c: name + "-c" */
char	 tmpdir[256];
size_t	 budget;		/* slots we may fill at once */
uint64_t	 seed;
struct counts tot;
volatile sig_atomic_t stopsig;

int	 pfd[MAXFDS];		/* pipe ends children must close */
size_t	 npfd;
pid_t	 kids[MAXKIDS];
size_t	 nkids;
pid_t	*makers;		/* processes that made segments */
size_t	 nmakers, capmakers;

static unsigned
number(const char *s, unsigned min, unsigned max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s < '0' || *s > '9' || *end != '\0' || errno != 0 || v < min ||
	    v > max)
		usage(stderr, 2);
	return (unsigned)v;
}

/* Name bytes are printable ASCII but space (format-spec.md 1). */
static int
nameok(const char *s)
{
	for (; *s != '\0'; s++)
		if (*s < '!' || *s > '~')
			return 0;
	return 1;
}

static void
options(int argc, char *argv[])
{
	int ch;

	while ((ch = getopt(argc, argv, "B:c:hn:p:t:w:")) != -1)
		switch (ch) {
		case 'B':
			bindir = optarg;
			break;
		case 'c':
			cases = optarg;
			if (*cases == '\0' || strspn(cases, "abc") !=
			    strlen(cases))
				usage(stderr, 2);
			break;
		case 'h':
			usage(stdout, 0);
			break;
		case 'n':
			pern = number(optarg, 1, 1 << 20);
			break;
		case 'p':
			/* Room for "stress-<pid>-b"; a test's own name prefix. */
			prefix = optarg;
			if (strlen(prefix) > 24 || !nameok(prefix))
				usage(stderr, 2);
			break;
		case 't':
			tsecs = number(optarg, 1, 86400);
			break;
		case 'w':
			nwriters = number(optarg, 1, MAXW);
			break;
		default:
			usage(stderr, 2);
		}
	if (optind != argc)
		usage(stderr, 2);
}

static void
prepare(void)
{
	const char *tools[] = { "shm-rm", "shm-expand" };
	const char *tmp = getenv("TMPDIR");
	char path[PATH_MAX];
	size_t i;
	int n;

	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", bindir, tools[i]);
		if (access(path, X_OK) == -1) {
			fprintf(stderr, "stress: %s: %s\n", path,
			    strerror(errno));
			exit(2);
		}
	}
	snprintf(name, sizeof(name), "%sstress-%ld", prefix, (long)getpid());
	snprintf(bname, sizeof(bname), "%s-b", name);
	snprintf(cname, sizeof(cname), "%s-c", name);
	n = snprintf(tmpdir, sizeof(tmpdir), "%s/stress.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
	if (n < 0 || (size_t)n >= sizeof(tmpdir)) {
		fprintf(stderr, "stress: TMPDIR is too long\n");
		exit(1);
	}
	if (mkdtemp(tmpdir) == NULL) {
		fprintf(stderr, "stress: %s: %s\n", tmpdir, strerror(errno));
		exit(1);
	}
	seed = (uint64_t)getpid() << 32 ^ (uint64_t)time(NULL);
	maker_add(getpid());
	catch_signals();
}

/* Shares of the time: a 35, b 45, c 20, among the cases asked for. */
static void
run_cases(long long t0)
{
	long long t = (long long)tsecs * NS, wa, wb, wc, sum, at;

	wa = strchr(cases, 'a') ? 35 : 0;
	wb = strchr(cases, 'b') ? 45 : 0;
	wc = strchr(cases, 'c') ? 20 : 0;
	sum = wa + wb + wc;
	at = t0;
	if (wa > 0 && !stopsig)
		case_a(at += t * wa / sum);
	/* A cleaner needs segments to age past -s 1 while it runs. */
	if (wb > 0 && !stopsig)
		case_b(t * wb / sum > 5 * NS / 2 ? t * wb / sum : 5 * NS / 2);
	if (wc > 0 && !stopsig)
		case_c(t0 + t);
}

int
main(int argc, char *argv[])
{
	long long t0;

	options(argc, argv);
	scale();
	prepare();
	t0 = mono();
	run_cases(t0);
	sweep();
	rmtmp();
	printf("stress: total in %.1f s: made %lu opened %lu verified %lu "
	    "expanded %lu removed %lu table-full %lu errors %lu "
	    "violations %lu\n", (double)(mono() - t0) / NS, tot.made,
	    tot.opened, tot.verified, tot.expanded, tot.removed, tot.full,
	    tot.errors, tot.violations);
	if (tot.violations > MAXSHOW)
		fprintf(stderr, "stress: %lu violations not shown\n",
		    tot.violations - MAXSHOW);
	if (stopsig)
		return 128 + stopsig;
	return tot.violations > 0 || tot.errors > 0;
}
