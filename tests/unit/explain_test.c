/*
 * explain_test: shmids_explain()'s contract (lib/shmids.h): the words for
 * each errno of the API, snprintf(3)'s truncation, errno kept.  The
 * segments it makes are System V ones named "explain-test.<pid>.*",
 * removed at exit whatever happened; TAP output.
 */
#define _DEFAULT_SOURCE		/* MAP_ANONYMOUS on glibc */
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shmids.h"


#if defined(__SANITIZE_THREAD__)
#define TSAN	1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TSAN	1
#endif
#endif
#ifndef TSAN
#define TSAN	0
#endif
static int	ntest, nfail;
static char	made[4][SHMIDS_LABEL_MAX + 1];
static int	nmade;

static void
ok(int good, const char *desc, const char *got, const char *want)
{
	printf("%sok %d - %s\n", good ? "" : "not ", ++ntest, desc);
	if (!good)
		printf("# got:  %s\n# want: %s\n", got, want);
	nfail += !good;
}

/* The text for label and errnum is want, exactly. */
static void
is(const char *label, int errnum, const char *want, const char *desc)
{
	char buf[SHMIDS_EXPLAIN_MAX];
	int n = shmids_explain(buf, sizeof(buf), label, errnum);

	ok(n == (int)strlen(buf) && strcmp(buf, want) == 0, desc, buf, want);
}

static void
cleanup(void)
{
	while (nmade > 0)
		shmids_remove(made[--nmade]);
}

/* A segment of count i32, sealed unless seal is 0; its label in label. */
static void *
make(const char *name, int seal, char *label)
{
	char full[SHMIDS_NAME_MAX + 1];
	void *h;

	snprintf(full, sizeof(full), "explain-test.%ld.%s", (long)getpid(),
	    name);
	if ((h = shmids_create_array(full, 0600, SHMIDS_I32, 3)) == NULL) {
		printf("Bail out! shmids_create_array: %s\n", strerror(errno));
		exit(1);
	}
	strcpy(label, h);
	strcpy(made[nmade++], label);
	if (seal)
		shmids_seal(h);
	return h;
}

static void
test_truncation(void)
{
	const char *want = "no such segment (removed, or never made)";
	char buf[8];
	int n, e;

	errno = 1234;
	n = shmids_explain(NULL, 0, "2147483647 x", ENOENT);
	e = errno;
	ok(n == (int)strlen(want), "size 0, buf NULL: the length only",
	    "", "");
	ok(e == 1234, "errno unchanged", "", "");
	memset(buf, 'x', sizeof(buf));
	n = shmids_explain(buf, sizeof(buf), "2147483647 x", ENOENT);
	ok(n == (int)strlen(want) && strcmp(buf, "no such") == 0,
	    "cut to size - 1 bytes and a NUL", buf, "no such");
	buf[0] = 'x';
	n = shmids_explain(buf, 1, "2147483647 x", ENOENT);
	ok(n == (int)strlen(want) && buf[0] == '\0', "size 1: just the NUL",
	    buf, "");
}

static void
test_malformed(void)
{
	char long_name[80], long_label[100];

	is("", EINVAL, "an empty label", "EINVAL: empty");
	is("x1 name", EINVAL, "the id is neither a shmid (a decimal number "
	    "without leading zeros) nor a file segment's path", "EINVAL: id");
	is("/tmp/foo name", EINVAL, "the path is not a file segment's "
	    "(/dir/.../shmids.XXXXXX, no . or .. parts, at most 73 bytes)",
	    "EINVAL: path");
	is("12 ", EINVAL, "no name after the id", "EINVAL: no name");
	is("12 a\001", EINVAL, "the name holds a blank or a byte that is not "
	    "printable ASCII", "EINVAL: bad byte");
	is("12", EINVAL, "a bare id where a label ('<id> <name>') is needed",
	    "EINVAL: a bare id");
	snprintf(long_name, sizeof(long_name), "12 %065d", 0);
	is(long_name, ENAMETOOLONG, "the name is longer than 64 bytes",
	    "ENAMETOOLONG: name");
	snprintf(long_label, sizeof(long_label),
	    "/tmp/abcdefghijklmnopqrstuvwxyz/shmids.abcdef %050d", 0);
	is(long_label, ENAMETOOLONG, "the label is longer than 75 bytes",
	    "ENAMETOOLONG: label");
	is("x shmids 12", EINVAL, "no name after shmid",
	    "EINVAL: malformed reference line");
	is("x shmids coeff", EINVAL, "no label after shmids (a shmid, then a "
	    "name)", "EINVAL: a name without its shmid in a reference line");
	is("coeff", EINVAL, "a name alone, not a label: shm-ls -N coeff lists "
	    "its labels", "EINVAL: a name alone");
	is("coeff\n", EINVAL, "a name alone, not a label: shm-ls -N coeff "
	    "lists its labels", "EINVAL: a name alone, read with its newline");
	is("012", EINVAL, "the id is neither a shmid (a decimal number "
	    "without leading zeros) nor a file segment's path",
	    "EINVAL: digits are no name");
	is("-x", EINVAL, "the id is neither a shmid (a decimal number "
	    "without leading zeros) nor a file segment's path",
	    "EINVAL: an option is no name");
	is("x shmids 12 coeff", EINVAL, "a reference line where a label is "
	    "needed: its label is '12 coeff'", "EINVAL: a reference line");
	is("shmids, 12 coeff", EINVAL, "a reference line where a label is "
	    "needed: its label is '12 coeff'", "EINVAL: a table reference");
}

#define NMAPS	200000

/*
 * ENOMEM: the address space (ulimit -v) or the count of mappings
 * (vm.max_map_count), told apart.  The mappings are made one page each,
 * alternately readable and writable so that none merge, until mmap(2)
 * says ENOMEM; each is virtual only.
 */
static void
test_nomem(void)
{
	static void *maps[NMAPS];
	struct rlimit rl;
	char buf[SHMIDS_EXPLAIN_MAX];
	const char *want = "out of memory mappings: this process has ";
	size_t i, n = 0;
	long pg = sysconf(_SC_PAGESIZE);

	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur == RLIM_INFINITY)
		is(NULL, ENOMEM, "out of memory", "ENOMEM, no ulimit -v");
	else
		ok(1, "ENOMEM, no ulimit -v # SKIP ulimit -v is set", "", "");
	fflush(stdout);
	/*
	 * valgrind's own table of mappings is smaller than the kernel's;
	 * ThreadSanitizer's runtime needs mappings of its own to go on
	 */
	if (getenv("SHMIDS_VALGRIND") != NULL || TSAN) {
		ok(1, "ENOMEM at vm.max_map_count # SKIP under valgrind or "
		    "ThreadSanitizer", "", "");
		n = NMAPS;
	}
	while (n < NMAPS && (maps[n] = mmap(NULL, (size_t)pg, n % 2 ?
	    PROT_READ : PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	    -1, 0)) != MAP_FAILED)
		n++;
	if (n == NMAPS || errno != ENOMEM)
		strcpy(buf, "(the mappings did not run out)");
	else
		shmids_explain(buf, sizeof(buf), NULL, ENOMEM);
	for (i = 0; i < n && maps[i] != NULL; i++)
		munmap(maps[i], (size_t)pg);
	if (getenv("SHMIDS_VALGRIND") == NULL && !TSAN)
		ok(strncmp(buf, want, strlen(want)) == 0 &&
		    strstr(buf, "(vm.max_map_count ") != NULL,
		    "ENOMEM at vm.max_map_count: the mappings, not ulimit -v",
		    buf, "out of memory mappings: ... (vm.max_map_count N)");
	rl.rlim_cur = (rlim_t)1 << 46;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < rl.rlim_cur)
		rl.rlim_cur = rl.rlim_max;
	/* ThreadSanitizer's shadow memory lies past any such limit */
	if (TSAN || setrlimit(RLIMIT_AS, &rl) == -1)
		ok(1, "ENOMEM under ulimit -v # SKIP setrlimit", "", "");
	else
		is(NULL, ENOMEM, "out of memory (address space limited? see "
		    "ulimit -v)", "ENOMEM under ulimit -v");
}

/*
 * SHMIDS_DIR missing, not a directory, or a file on its path: what is
 * wrong and what to do (format-spec.md 2.6), for each errno a make or a
 * list of file segments gets of it, the path quoted as the tools quote
 * it; the words begin "SHMIDS_DIR " (the contract: a caller tells the
 * directory's fault so).
 */
static void
test_dir(void)
{
	static const char *const enoent = " does not exist: 'mkdir -p "
	    "/nonexistent/dir' (mode 1777 to share it), or unset SHMIDS_DIR "
	    "for System V segments";
	char want[256];

	setenv("SHMIDS_DIR", "/nonexistent/dir", 1);
	snprintf(want, sizeof(want), "SHMIDS_DIR /nonexistent/dir%s", enoent);
	is(NULL, ENOENT, want, "ENOENT: no SHMIDS_DIR, the mkdir to run");
	is(NULL, EACCES, want, "EACCES: no SHMIDS_DIR, the same words");
	is(NULL, ENOTDIR, want, "ENOTDIR: no SHMIDS_DIR, the same words");
	setenv("SHMIDS_DIR", "-n/it's\t", 1);
	is(NULL, ENOENT, "SHMIDS_DIR -n/it's\\011 does not exist: mkdir -p "
	    "./'-n/it'\\''s\t' (mode 1777 to share it), or unset SHMIDS_DIR "
	    "for System V segments", "ENOENT: a path sh(1) needs quoted");
	setenv("SHMIDS_DIR", "/dev/null", 1);
	is(NULL, EACCES, "SHMIDS_DIR /dev/null is not a directory: point "
	    "SHMIDS_DIR at one, or unset it for System V segments",
	    "a file, not a directory");
	setenv("SHMIDS_DIR", "/dev/null/x", 1);
	is(NULL, ENOENT, "SHMIDS_DIR /dev/null/x is not a directory (a name "
	    "on its path is a file): point SHMIDS_DIR at one, or unset it "
	    "for System V segments", "a file on its path");
	is(NULL, ENOSPC, "no space left in SHMIDS_DIR (/dev/null/x)",
	    "ENOSPC: not the directory's words");
}

static void
test_store(void)
{
	unsetenv("SHMIDS_DIR");
	is(NULL, ENOSPC, "segment limit reached (kernel.shmmni or "
	    "kernel.shmall; see shm-ls -l)", "ENOSPC, System V");
	is(NULL, ENOSYS, "file segments need open file description locks "
	    "(Linux 3.15 or later), which this system lacks; unset "
	    "SHMIDS_DIR to make System V segments", "ENOSYS");
	test_nomem();
	is(NULL, ENOENT, "the new segment was removed before it could be "
	    "used (by a cleaner, shm-rm -s, given too short an age?)",
	    "ENOENT: made, then removed by a cleaner");
	setenv("SHMIDS_DIR", "/var/tmp", 1);
	is(NULL, ENOSPC, "no space left in SHMIDS_DIR (/var/tmp)",
	    "ENOSPC, file segments");
	is(NULL, EACCES, "permission denied",
	    "EACCES, SHMIDS_DIR usable: strerror's words");
	is(NULL, ENOENT, "the new segment was removed before it could be "
	    "used (by a cleaner, shm-rm -s, given too short an age?)",
	    "ENOENT, SHMIDS_DIR there: made, then removed");
	test_dir();
	unsetenv("SHMIDS_DIR");
	is("2147483647 x", EIO, "input/output error",
	    "another errno: strerror's words");
}

static void
test_segments(void)
{
	char label[SHMIDS_LABEL_MAX + 1], dead[SHMIDS_LABEL_MAX + 1];
	char want[600], other[SHMIDS_LABEL_MAX + 16], line[128];
	struct shmids_array a;
	ssize_t n;
	pid_t pid;
	int st, fd[2];

	is("2147483647 x", ENOENT, "no such segment (removed, or never made)",
	    "ENOENT");
	make("a", 1, label);
	snprintf(other, sizeof(other), "%.*s other",
	    (int)strcspn(label, " "), label);
	snprintf(want, sizeof(want), "segment %.*s is labelled '%s'",
	    (int)strcspn(label, " "), label, label);
	is(other, ESTALE, want, "ESTALE: the segment's label");
	snprintf(line, sizeof(line), "u shmids %s\n", other);
	is(line, ESTALE, want, "ESTALE, given the reference line");
	snprintf(line, sizeof(line), "u shmids %s\n", label);
	if (shmids_get(line, NULL, SHMIDS_F64, &a) == 0 || errno != EPROTOTYPE)
		printf("# shmids_get did not fail with EPROTOTYPE\n");
	snprintf(want, sizeof(want), "segment %.*s holds 3 i32 values, not "
	    "the type asked for", (int)strcspn(label, " "), label);
	is(line, EPROTOTYPE, want, "EPROTOTYPE, given the reference line");

	make("w", 0, label);
	snprintf(want, sizeof(want), "still being written by pid %ld",
	    (long)getpid());
	is(label, EAGAIN, want, "EAGAIN: the writer's pid");

	/*
	 * A writer that dies before sealing: _exit runs no atexit seal.
	 * Flushed first: under valgrind the child's _exit flushes stdio
	 * (libc freeres), which would print the TAP lines twice.
	 */
	fflush(stdout);
	if (pipe(fd) == -1 || (pid = fork()) == -1) {
		printf("Bail out! pipe or fork: %s\n", strerror(errno));
		exit(1);
	}
	if (pid == 0) {
		make("dead", 0, dead);
		n = write(fd[1], dead, strlen(dead));
		_exit(n > 0 ? 0 : 1);
	}
	close(fd[1]);
	memset(dead, 0, sizeof(dead));
	n = read(fd[0], dead, sizeof(dead) - 1);
	close(fd[0]);
	waitpid(pid, &st, 0);
	if (n <= 0) {
		printf("Bail out! the writer made no segment\n");
		exit(1);
	}
	strcpy(made[nmade++], dead);
	snprintf(want, sizeof(want), "its writer (pid %ld) died before "
	    "sealing it; shm-rm '%s' removes it", (long)pid, dead);
	is(dead, EOWNERDEAD, want, "EOWNERDEAD: the writer's pid, and how "
	    "to remove it");
	snprintf(want, sizeof(want), "segment %.*s has a damaged header "
	    "(malformed, or claiming more bytes than the segment has); "
	    "shm-rm '%s' removes it", (int)strcspn(label, " "), label, label);
	is(label, EBADMSG, want, "EBADMSG: how to remove it");
	snprintf(want, sizeof(want), "segment %.*s was shut to readers for "
	    "a moment (mode 0: a cleaner checking whether it is in use); it "
	    "is mode 600 now: try again", (int)strcspn(label, " "), label);
	is(label, EACCES, want, "EACCES, readable now: a cleaner's moment");
}

int
main(void)
{
	atexit(cleanup);
	test_truncation();
	test_malformed();
	test_store();
	test_segments();
	printf("1..%d\n", ntest);
	return nfail != 0;
}
