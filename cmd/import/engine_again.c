/*
 * A pipe's long array parsed again from its text (engine.h,
 * eng_again()).  A pipe cannot be read twice, but shm-import keeps an
 * array's text as it reads it (lines.h: in memory, past 4 MiB in a file
 * of its own), in case the array has to pass through as it was: that
 * text is read again, in runs of whole lines, and parsed straight into
 * the segment made of the count.  Issue 41: parsed as it came, the
 * values were held in memory, then copied into their segment, which
 * the library populates as it makes it: 2.46 times the segment at the
 * peak.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "shmids.h"
#include "engine.h"
#include "hold.h"
#include "lines.h"

#define AGAIN_RUN	((size_t)1 << 20)	/* bytes parsed at a time */
#define AGAIN_MORE	2	/* again_run(): more values than counted */

struct again {
	struct eng_array *st;
	struct shmids_values v;	/* the segment's room, or a run's scratch */
	int		 scratch;	/* no segment: values only checked */
	size_t		 parsed;
	unsigned long	 line;		/* the next run's first line */
	unsigned long	 badline;
	char		*tok;		/* the first bad value's token */
};

/* The bad token at p, kept for the message (a NUL byte shown as it). */
static char *
token(const char *p)
{
	size_t n = strcspn(p, " \t\r\n");
	char *t;

	if (n == 0)
		n = 1;
	if ((t = malloc(n + 1)) != NULL) {
		memcpy(t, p, n);
		t[n] = '\0';
	}
	return t;
}

static int
again_run(void *arg, const char *s, size_t n)
{
	struct again *g = arg;
	struct shmids_span sp;
	int r;

	g->st->io->stop(g->st->io->arg);
	if (g->scratch) {
		g->v.count = 0;
		if (hold_room(&g->v, n / 2 + 1) == -1)
			return -1;
	}
	r = shmids_values_read(&g->v, s, n, g->st->nthreads,
	    SHMIDS_VALUES_FIXED, &sp);
	g->parsed += sp.count;
	if (r == -1 && sp.bad != NULL && errno != E2BIG) {
		g->badline = g->line + sp.lines - 1;
		if ((g->tok = token(sp.bad)) == NULL)
			return -1;
		return 1;
	}
	if (r == -1 && errno == E2BIG)
		return AGAIN_MORE;
	if (r == -1)
		return -1;
	/* a run cut inside a long line (eng_cut()) ends no line */
	g->line += sp.lines - (s[n - 1] != '\n');
	return 0;
}

int
eng_again(struct eng_array *st, char *dst)
{
	const struct eng_io *io = st->io;
	struct again g;
	int r;

	memset(&g, 0, sizeof(g));
	g.st = st;
	g.line = st->fromline;
	g.v.type = st->v.type;
	if ((g.scratch = dst == NULL) == 0) {
		g.v.data = dst;
		g.v.cap = st->counted;
	}
	r = lines_replay(st->l, st->from, AGAIN_RUN, eng_cut, again_run,
	    &g);
	if (g.scratch)
		hold_free(&g.v);
	if (r == -1) {
		io->drop(io->arg);
		return -1;
	}
	/* no bad value: as many as counted (format-spec.md 6.2), as the
	   file's engine checks a file's */
	if (r == AGAIN_MORE || (r == 0 && g.parsed != st->counted)) {
		io->drop(io->arg);
		return ENG_CHANGED;
	}
	if (r == 1) {
		io->drop(io->arg);
		io->bad(io->arg, g.badline, g.tok);
		free(g.tok);
		return ENG_BAD;
	}
	return 0;
}
