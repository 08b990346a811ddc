/*
 * What the tools say, and how they end: a value quoted for a message,
 * the words for memory running out, for a read error and for a failed
 * call on a segment, and the check that standard output was really
 * written.  Every tool links it.
 */
#ifndef SHMIDS_MSG_H
#define SHMIDS_MSG_H

#include <stddef.h>

/*
 * What the tools say when memory runs out: under an address-space limit
 * (ulimit -v) that happens for short lines and small tables too, and
 * the limit is what to look at (issue 32).
 */
#define MSG_NOMEM	"out of memory (address space limited? see ulimit -v)"

/*
 * What shm-import says when a pipe's kept lines, in a file in TMPDIR
 * (lines.h), fail it: followed by "could not be read back" and why, or
 * "changed".
 */
#define MSG_KEPT	"its lines, kept in a file in TMPDIR,"

/* Says MSG_NOMEM and exits 1. */
void	 msg_nomem(void);

/*
 * s[0..len) fit to quote in a message: at most 64 bytes (a name's
 * limit), other than printable ASCII written as \ooo, then "..." if s is
 * longer.  The result lives until the next call but one.
 */
const char *msg_quote(const char *s, size_t len);

/*
 * A file name as one word of a command a message offers to paste into
 * sh(1): as it is when it holds only [A-Za-z0-9_./+,:=-], else in single
 * quotes (a ' as '\''), after "./" when it begins with "-" (else sed
 * or cut reads it as an option).  Never cut: a name cut short names
 * another file.  The result lives until the next call but one, or is
 * "..." for a name over PATH_MAX bytes.
 */
const char *msg_shword(const char *s);

/* Flush and close stdout; 0, or -1 after a diagnostic. */
int	 msg_close_stdout(void);
/*
 * Report that line lineno of fname could not be read (errno): a line
 * too long for the memory (ENOMEM, which getline(3) returns without
 * setting the stream's error flag) or a read error.  lineno 0: no
 * buffer could be had to read fname in at all.
 */
void	 msg_read_error(const char *fname, unsigned long lineno);
/* The name diagnostics give a file: "stdin" for "-". */
const char *msg_fname(const char *path);
/* Why shmids_create*() failed, naming the limit or setting (errno e). */
const char *msg_create_error(int e);
/*
 * Where making or listing file segments failed with errno e: what is
 * wrong with SHMIDS_DIR, that no file segment can be made in or listed
 * from it, and what to do: "SHMIDS_DIR /x does not exist: 'mkdir -p /x'
 * ..."; NULL if SHMIDS_DIR is unset or looks usable, or e is another
 * error than ENOENT, ENOTDIR or EACCES.  The library's words
 * (shmids_explain()), as msg_why()'s result lives.
 */
const char *msg_dir_hint(int e);
/*
 * Why a call on the segment label (or id; NULL for creation) failed
 * with errno e, in the user's terms: shmids_explain()'s text.  Two
 * buffers in turn: the result lives until the next call but one.
 */
const char *msg_why(const char *label, int e);

#endif /* SHMIDS_MSG_H */
