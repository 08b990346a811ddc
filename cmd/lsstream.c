/*
 * shm-ls's streams: see lsstream.h.  Only a segment of ours of type raw
 * may be a stream (10.1); shmids_stream_stat() tells, with an attach of
 * its own, read-only, and registers nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmids.h"
#include "fmt.h"
#include "msg.h"
#include "lsstream.h"

static struct shmids_stream_info *st;
static size_t nst, capst;

/* si's stream state into *out: 1, or 0 if it is no stream. */
static int
stat_of(const struct shmids_info *si, struct shmids_stream_info *out)
{
	if (si->ours != 1 || si->type != SHMIDS_RAW || si->label[0] == '\0')
		return 0;
	return shmids_stream_stat(si->label, out) == 0;
}

int
lsstream_add(const struct shmids_info *si)
{
	void *v;

	if (nst == capst) {
		capst = capst ? capst * 2 : 8;
		if ((v = realloc(st, capst * sizeof(*st))) == NULL)
			msg_nomem();
		st = v;
	}
	if (!stat_of(si, &st[nst]))
		return 0;
	nst++;
	return 1;
}

enum { SLOTS, CAPACITY, NEXT, OLDEST, READER, BEHIND, LABEL, NCOL };
static const char *const head[NCOL] = {
	"SLOTS", "CAPACITY", "NEXT", "OLDEST", "READER", "BEHIND", "LABEL"
};

/* Row r of stream s (reader r, or none: r -1) into c. */
static void
cells(const struct shmids_stream_info *s, int r, int bytes,
    char c[NCOL][SHMIDS_LABEL_MAX + 32])
{
	const struct shmids_stream_reader *rd = r >= 0 ? &s->reader[r] : NULL;

	snprintf(c[SLOTS], sizeof(c[0]), "%zu", s->slots);
	if (bytes)
		snprintf(c[CAPACITY], sizeof(c[0]), "%zu", s->capacity);
	else
		fmt_human(s->capacity, c[CAPACITY], sizeof(c[0]));
	snprintf(c[NEXT], sizeof(c[0]), "%lld", s->head);
	snprintf(c[OLDEST], sizeof(c[0]), "%lld", s->tail);
	if (rd == NULL) {
		strcpy(c[READER], "-");
		strcpy(c[BEHIND], "-");
	} else {
		snprintf(c[READER], sizeof(c[0]), "%ld%s", (long)rd->pid,
		    rd->alive == 0 ? "(dead)" : "");
		snprintf(c[BEHIND], sizeof(c[0]), "%lld", s->head > rd->pos ?
		    s->head - rd->pos : 0);
	}
	snprintf(c[LABEL], sizeof(c[0]), "%s", s->label);
}

/* Cell j, s, in its column w wide: numbers right, the label last. */
static void
put(size_t j, size_t w, const char *s)
{
	if (j == LABEL)
		printf("%s\n", s);
	else
		printf(j == READER ? "%-*s " : "%*s ", (int)w, s);
}

/* Every row, or (measure) the columns' widths into w. */
static void
rows(int bytes, size_t w[NCOL], int measure)
{
	char c[NCOL][SHMIDS_LABEL_MAX + 32];
	size_t i, j, n;
	int r;

	for (i = 0; i < nst; i++)
		for (r = st[i].nreaders > 0 ? 0 : -1; r < st[i].nreaders;
		    r++) {
			cells(&st[i], r, bytes, c);
			for (j = 0; j < NCOL; j++) {
				n = strlen(c[j]);
				if (measure && n > w[j])
					w[j] = n;
				else if (!measure)
					put(j, w[j], c[j]);
			}
			if (r == -1)
				break;
		}
}

void
lsstream_print(int bytes, int nohead)
{
	size_t w[NCOL], j;

	if (nst == 0)
		return;
	for (j = 0; j < NCOL; j++)
		w[j] = nohead ? 0 : strlen(head[j]);
	rows(bytes, w, 1);
	putchar('\n');		/* a table of its own */
	if (!nohead) {
		for (j = 0; j < NCOL; j++)
			put(j, w[j], head[j]);
	}
	rows(bytes, w, 0);
}

void
lsstream_json(const struct shmids_info *si)
{
	struct shmids_stream_info s;
	int r;

	if (!stat_of(si, &s))
		return;
	printf(", \"stream\": {\"slots\": %zu, \"capacity\": %zu, "
	    "\"next\": %lld, \"oldest\": %lld, \"readers\": [", s.slots,
	    s.capacity, s.head, s.tail);
	for (r = 0; r < s.nreaders; r++)
		printf("%s{\"pid\": %ld, \"behind\": %lld, \"alive\": %s}",
		    r > 0 ? ", " : "", (long)s.reader[r].pid,
		    s.head > s.reader[r].pos ? s.head - s.reader[r].pos : 0,
		    s.reader[r].alive == 0 ? "false" : "true");
	printf("]}");
}
