/*
 * A look at a stream without registering (shmids_stream_stat(), for
 * shm-ls, and shmids_explain()): one attach, the stream header and the
 * reader table copied once, nothing written.  Only the control lines
 * are mapped (a file's), whatever the ring's size.
 */
#include <errno.h>
#include <string.h>

#include "stream.h"

/* id: a bare id, or a label (checked as shmids_open() checks it). */
static int
attach(const char *id, struct shmids_stream *s, struct hdr *hd)
{
	char bare[SHMIDS_LABEL_MAX + 1];
	struct shmids_info si;
	size_t n = strcspn(id, " "), len = strlen(id);
	int e;

	if (len > 0 && id[len - 1] == '\n')
		len--;
	if (n > SHMIDS_LABEL_MAX || (n < len && shmids_label_check(id, len)
	    == -1)) {
		errno = n > SHMIDS_LABEL_MAX ? EINVAL : errno;
		return -1;
	}
	memcpy(bare, id, n);
	bare[n] = '\0';
	if (shmids_stat_dims(bare, &si, NULL, SHMIDS_NOHDR) == -1)
		return -1;
	if (!shmids_made_by_owner(&si)) {	/* another file at the path */
		errno = ESTALE;
		return -1;
	}
	s->be = shmids_be_of(si.id);
	/* a file's descriptor stays open for the lock tests (10.5) */
	if (s->be->attach(&si, ATT_KEEP, &s->a) == -1)
		return -1;
	e = shmids_hdr_read(s->a.addr, s->a.size, si.id, n < len ? id : NULL,
	    len, hd);
	if (e == 0 && n < len && (strlen(hd->label) != len ||
	    memcmp(hd->label, id, len) != 0))
		e = ESTALE;
	if (e == 0 && hd->version != '4')
		e = EMEDIUMTYPE;
	if (e == 0 && s->be->narrow(&s->a, SHMIDS_HEADER + hd->count <
	    ST_TABLE + ST_RMAX * ST_ENTRY ? SHMIDS_HEADER + hd->count :
	    ST_TABLE + ST_RMAX * ST_ENTRY) == -1)
		e = errno;
	if (e != 0) {
		s->be->detach(&s->a);
		errno = e;
		return -1;
	}
	strcpy(s->id, si.id);
	s->base = s->a.addr;
	return 0;
}

/*
 * The state: 'r' ended, 'w' live, 'd' its writer died (10.5; a writer
 * that cannot be told is alive).
 */
static int
state_of(const struct shmids_stream *s)
{
	if (shmids_hdr_state(s->base) == 'r')
		return 'r';
	return shmids_st_writer_alive(s, s->id) == 0 ? 'd' : 'w';
}

static void
readers_of(const struct shmids_stream *s, struct shmids_stream_info *si)
{
	uint64_t owner, pos;
	char *en;
	int k;

	for (k = 0; k < (int)s->g.rtable; k++) {
		en = ENTRY(s, k);
		owner = LOAD(W64(en, EN_OWNER), ACQ);
		if (owner == 0 || owner == OWNER_RECLAIM)
			continue;
		pos = LOAD(W64(en, EN_POS), RLX);
		si->reader[si->nreaders].pid = (pid_t)(owner >> 32);
		si->reader[si->nreaders].pos = (long long)(pos >> 1 &
		    (uint64_t)INT64_MAX);
		si->reader[si->nreaders].held = (int)(pos & 1);
		si->reader[si->nreaders].alive =
		    shmids_st_reader_alive(s, s->id, k);
		si->nreaders++;
	}
}

/* shmids_stream_stat()'s work, for explain.c too. */
int
shmids_st_look(const char *id, struct shmids_stream_info *si)
{
	struct shmids_stream s;
	struct hdr hd;
	int e;

	if (id == NULL) {
		errno = EINVAL;
		return -1;
	}
	memset(&s, 0, sizeof(s));
	memset(si, 0, sizeof(*si));
	if (attach(id, &s, &hd) == -1)
		return -1;
	if ((e = shmids_st_geom_read(s.base, SHMIDS_HEADER + hd.count, &s.g))
	    != 0) {
		s.be->detach(&s.a);
		errno = e;
		return -1;
	}
	strcpy(si->label, hd.label);
	si->slots = (size_t)s.g.slots;
	si->capacity = (size_t)s.g.capacity;
	si->stride = (size_t)s.g.stride;
	si->flags = (s.g.policy == POLICY_OVERWRITE ?
	    SHMIDS_STREAM_OVERWRITE : 0) |
	    (s.g.flags & FLAG_KEEP ? SHMIDS_STREAM_KEEP : 0);
	si->readers = (int)s.g.readers;
	si->joined = (long long)(LOAD(W64(s.base, ST_JOINED), SC) &
	    (uint64_t)INT64_MAX);
	si->state = state_of(&s);
	si->head = (long long)(LOAD(W64(s.base, ST_HEAD), ACQ) &
	    (uint64_t)INT64_MAX);
	si->tail = (long long)(LOAD(W64(s.base, ST_TAIL), ACQ) &
	    (uint64_t)INT64_MAX);
	si->writer = (pid_t)s.g.writer.pid;
	readers_of(&s, si);
	s.be->detach(&s.a);
	return 0;
}

int
shmids_stream_stat(const char *id, struct shmids_stream_info *si)
{
	int e = errno;

	if (si == NULL) {
		errno = EINVAL;
		return -1;
	}
	if (shmids_st_look(id, si) == -1)
		return -1;
	errno = e;
	return 0;
}
