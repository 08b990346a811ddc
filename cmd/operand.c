/*
 * Segments named on the command line, and what a stat or a scan says
 * of them (operand.h).
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "shmids.h"
#include "msg.h"
#include "operand.h"

/* The whole label is parsed, so that "5 x y" is no label at all. */
int
operand_parse(const char *arg, char *id, char *label)
{
	const char *sp = strchr(arg, ' ');
	size_t n = sp ? (size_t)(sp - arg) : strlen(arg), len = strlen(arg);

	if (n > SHMIDS_LABEL_MAX || shmids_id_check(arg, n, NULL) == -1)
		return -1;
	memcpy(id, arg, n);
	id[n] = '\0';
	if (sp == NULL)
		return 0;
	if (len > SHMIDS_LABEL_MAX || shmids_label_check(arg, len) == -1)
		return -1;
	strcpy(label, arg);
	return 1;
}

/*
 * A new user types the name shm-import printed after the shmid; the
 * name alone does not say which of its segments (names repeat).
 */
void
operand_bad(const char *arg, const char *prog, const char *prev)
{
	char why[SHMIDS_EXPLAIN_MAX];

	/* "" (an unset variable, say) would be ": not a label or id" */
	if (*arg == '\0') {
		warnx("an empty operand: not a label or id (expected "
		    "'<id> <name>', a shmid or a file segment's path)");
		return;
	}
	/* shmids_explain() knows a name alone; other faults are one */
	shmids_explain(why, sizeof(why), arg, EINVAL);
	if (strncmp(why, "a name alone", 12) != 0 || strchr(arg, '\n') != NULL)
		warnx("%s: not a label or id", msg_quote(arg, strlen(arg)));
	else if (prev != NULL && strchr(prev, '\'') == NULL &&
	    strchr(arg, '\'') == NULL)
		/* "shm-rm 0 coeff": the label's quotes forgotten */
		warnx("%s: %s (quote a label: %s '%s %s')", arg, why, prog,
		    prev, arg);
	else
		warnx("%s: %s", arg, why);
}

/*
 * A label operand names another segment than si when si's header says
 * another label, or none (not ours, or residue); a header that could not
 * be read cannot say.
 */
int
operand_stale(const struct shmids_info *si, const char *label)
{
	if (si->label[0] == '\0' && si->ours < 0)
		return 0;
	return strcmp(si->label, label) != 0;
}

const char *
operand_unreadable(const struct shmids_info *si)
{
	static char buf[160];

	/* Not for want of permission, nor gone or replaced meanwhile. */
	if (si->ours >= 0 || si->label[0] != '\0' || si->err == 0 ||
	    si->err == EACCES || si->err == ENOENT || si->err == ESTALE)
		return NULL;
	if (si->err == ENOMEM)
		snprintf(buf, sizeof(buf), "cannot read its header: out of "
		    "memory for a segment of %zu bytes (address space limited? "
		    "see ulimit -v)", si->size);
	else
		snprintf(buf, sizeof(buf), "cannot read its header: %s",
		    msg_why(si->id, si->err));
	return buf;
}

void
operand_store_error(const struct shmids_info *si)
{
	const char *dir = shmids_dir(), *hint;

	errno = si->err;
	if (si->shmid == -1 && (hint = msg_dir_hint(si->err)) != NULL)
		warnx("%s", hint);
	else if (si->shmid == -1)
		warn("SHMIDS_DIR %s", dir != NULL ? dir : "");
	else
		warn("segment table");
}
