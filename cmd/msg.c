/*
 * What the tools say, and how they end (msg.h).
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "shmids.h"
#include "msg.h"

/*
 * At most QUOTE_MAX bytes of s, bytes that are not printable as C
 * escapes, then "..." if s was longer: a 100 MB token must not be echoed
 * whole.  Two buffers in turn, so that one message may quote two things.
 */
#define QUOTE_MAX	80	/* a label (75) or a name (64) stays whole */

const char *
msg_quote(const char *s, size_t len)
{
	static char buf[2][QUOTE_MAX * 4 + 4];
	static int which;
	char *b = buf[which ^= 1], *p = b;
	size_t i;

	for (i = 0; i < len && i < QUOTE_MAX; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			*p++ = (char)c;
		else
			p += sprintf(p, "\\%03o", c);
	}
	if (len > QUOTE_MAX)
		strcpy(p, "...");
	else
		*p = '\0';
	return b;
}

const char *
msg_shword(const char *s)
{
	static char buf[2][PATH_MAX * 4 + 8];
	static int which;
	char *b = buf[which ^= 1], *p = b;
	size_t n = strlen(s);

	if (n > PATH_MAX)
		return "...";
	if (s[0] == '-') {
		memcpy(p, "./", 2);
		p += 2;
	}
	if (n > 0 && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
	    "qrstuvwxyz0123456789_./+,:=-") == n) {
		memcpy(p, s, n + 1);
		return b;
	}
	*p++ = '\'';
	for (; *s != '\0'; s++) {
		if (*s == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else
			*p++ = *s;
	}
	memcpy(p, "'", 2);
	return b;
}

void
msg_nomem(void)
{
	errx(1, "%s", MSG_NOMEM);
}

/*
 * ENOMEM: a line too long for the memory, or (under ulimit -v, threads
 * holding the address space) any line: the message names both.
 */
void
msg_read_error(const char *fname, unsigned long lineno)
{
	if (errno == ENOMEM && lineno == 0)
		warnx("%s: %s: no buffer to read it in", fname, MSG_NOMEM);
	else if (errno == ENOMEM)
		warnx("%s:%lu: cannot hold this line: %s", fname, lineno,
		    MSG_NOMEM);
	else
		warn("%s:%lu: read error", fname, lineno);
}

const char *
msg_fname(const char *path)
{
	return strcmp(path, "-") == 0 ? "stdin" : path;
}

/* A full disk must not look like success (sbase's expand.c does this). */
int
msg_close_stdout(void)
{
	if (fflush(stdout) == EOF || ferror(stdout) || fclose(stdout) == EOF) {
		warn("stdout");
		return -1;
	}
	return 0;
}

const char *
msg_why(const char *label, int e)
{
	static char buf[2][SHMIDS_EXPLAIN_MAX];
	static int which;

	shmids_explain(buf[which ^= 1], sizeof(buf[0]), label, e);
	return buf[which];
}

/* The kernel's limits give terse errno values; say which limit it was. */
const char *
msg_create_error(int e)
{
	const char *dir = shmids_dir(), *hint;

	static char buf[400];

	/*
	 * File segments: the directory is the likelier culprit than the
	 * input; not for memory (mapping the file under ulimit -v), the
	 * file size limit (ulimit -f) or a label too long for the directory
	 * and the name (its short name, format-spec.md 2.6), which
	 * shmids_explain() words.
	 */
	if (dir != NULL && e != ENOSPC && e != ENOSYS && e != ENOMEM &&
	    e != EFBIG && e != ENAMETOOLONG) {
		if ((hint = msg_dir_hint(e)) != NULL)
			return hint;
		if (e == EINVAL)
			return "SHMIDS_DIR cannot go into a label (blanks?)";
		snprintf(buf, sizeof(buf), "SHMIDS_DIR %s: %s",
		    msg_quote(dir, strlen(dir)), strerror(e));
		return buf;
	}
	/* The name was checked: EINVAL can only be the size. */
	if (e == EINVAL)
		return "size outside the kernel's limits (kernel.shmmax;"
		    " see shm-ls -l)";
	return msg_why(NULL, e);
}

/*
 * The library's words (shmids_explain() of a file segment's store), which
 * begin "SHMIDS_DIR " exactly when the directory is what is wrong.
 */
const char *
msg_dir_hint(int e)
{
	const char *why;

	if (shmids_dir() == NULL || (e != ENOENT && e != ENOTDIR &&
	    e != EACCES))
		return NULL;
	why = msg_why(NULL, e);
	return strncmp(why, "SHMIDS_DIR ", 11) == 0 ? why : NULL;
}
