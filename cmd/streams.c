/*
 * The streams a filter reads messages of, one handle each, kept open:
 * see streams.h.  A filter names few streams (one a field), so a list.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmids.h"
#include "msg.h"
#include "streams.h"

static struct open {
	char			 label[SHMIDS_LABEL_MAX + 1];
	struct shmids_stream	*s;
} *strs;
static size_t nstrs, capstrs;

/* The handle of label, opened at message seq if it is not yet. */
static struct shmids_stream *
handle(const char *label, long long seq, double seconds)
{
	char mlabel[SHMIDS_LABEL_MAX + 32];
	struct shmids_stream *s;
	struct open *v;
	size_t i;

	for (i = 0; i < nstrs; i++)
		if (strcmp(strs[i].label, label) == 0)
			return strs[i].s;
	if (nstrs == capstrs) {
		capstrs = capstrs ? capstrs * 2 : 8;
		if ((v = realloc(strs, capstrs * sizeof(*strs))) == NULL)
			msg_nomem();
		strs = v;
	}
	/* the message's label: the reader starts there (5.1) */
	snprintf(mlabel, sizeof(mlabel), "%s %lld", label, seq);
	if ((s = shmids_stream_open(mlabel, 0, seconds)) == NULL)
		return NULL;
	snprintf(strs[nstrs].label, sizeof(strs[nstrs].label), "%s", label);
	strs[nstrs++].s = s;
	return s;
}

int
streams_get(const char *label, long long seq, double seconds,
    struct shmids_msg *m)
{
	struct shmids_stream *s;

	if ((s = handle(label, seq, seconds)) == NULL)
		return -1;
	if (shmids_stream_get(s, seq, m, seconds) != 1) {
		if (errno == 0)
			errno = ENOMSG;
		return -1;
	}
	return 1;
}

void
streams_close(void)
{
	size_t i;

	for (i = 0; i < nstrs; i++)
		shmids_stream_close(strs[i].s);
	nstrs = 0;
}
