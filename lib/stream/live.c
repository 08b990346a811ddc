/*
 * Who is alive (format-spec.md 10.5).  A file stream's writer and
 * readers hold locks, which vanish with their process: asked of the
 * file.  A System V stream records pids, which are reused (pid_max is
 * 32768 on many systems): a pid names the process recorded only if its
 * start time, field 22 of /proc/PID/stat, is the one recorded, and a
 * zombie is dead, as 2.2 judges a writer.  A pid of another pid
 * namespace means nothing here: such a process counts as alive.
 */
#include <sys/stat.h>

#include <errno.h>
#include <signal.h>
#include <unistd.h>

#include "stream.h"

static uint64_t
pidns(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (uint64_t)st.st_ino : 0;
}

/* This process, as a stream records it; errno kept.  0 always. */
int
shmids_st_self(struct ident *me)
{
	unsigned long long start;
	char state;
	int e = errno;

	me->pid = (int32_t)getpid();
	if (shmids_proc_stat(me->pid, &state, &start) == -1)
		start = 0;
	me->start = start;
	me->pidns = pidns("/proc/self/ns/pid");
	errno = e;
	return 0;
}

/*
 * The owner word of an entry (10.2): pid above, the start time's low 32
 * bits below; never 0 or OWNER_RECLAIM, as a pid is 1 or more.
 */
uint64_t
shmids_st_owner(const struct ident *id)
{
	return (uint64_t)(uint32_t)id->pid << 32 | (id->start & 0xffffffffu);
}

/*
 * 1 alive, 0 dead, -1 cannot be told (another pid namespace: alive to
 * the caller).  Start times are compared by their low 32 bits, all an
 * owner word keeps: 497 days of ticks at 100 Hz.  errno kept.
 */
int
shmids_st_alive(const struct ident *who)
{
	struct ident me;
	unsigned long long start;
	char state;
	int e = errno, r;

	if (who->pid <= 0)
		return -1;
	shmids_st_self(&me);
	if (who->pidns != 0 && me.pidns != 0 && who->pidns != me.pidns)
		return -1;
	if (shmids_proc_stat(who->pid, &state, &start) == 0)
		r = state == 'Z' || state == 'X' ? 0 : who->start == 0 ||
		    (start & 0xffffffffu) == (who->start & 0xffffffffu);
	else if (kill(who->pid, 0) == 0 || errno == EPERM)
		r = 1;		/* there, but no /proc to tell its start */
	else
		r = errno == ESRCH ? 0 : -1;
	errno = e;
	return r;
}

/*
 * The writer of stream s (id its id, for a look that holds no
 * descriptor): a file's writer by the write lock on its header, a
 * System V one by the ident its stream header records.
 */
int
shmids_st_writer_alive(const struct shmids_stream *s, const char *id)
{
	if (id[0] == '/')
		return shmids_file_held(s->a.fd >= 0 ? &s->a : NULL, id, 0,
		    SHMIDS_HEADER);
	return shmids_st_alive(&s->g.writer);
}

/* The reader of entry k: by the lock on its entry, or its ident. */
int
shmids_st_reader_alive(const struct shmids_stream *s, const char *id, int k)
{
	char *en = ENTRY(s, k);
	struct ident who;
	uint64_t owner = LOAD(W64(en, EN_OWNER), ACQ);

	if (owner == 0 || owner == OWNER_RECLAIM)
		return 0;
	if (id[0] == '/')
		return shmids_file_held(s->a.fd >= 0 ? &s->a : NULL, id,
		    ST_TABLE + (size_t)k * ST_ENTRY, ST_ENTRY);
	who.pid = (int32_t)(owner >> 32);
	who.start = owner & 0xffffffffu;
	who.pidns = LOAD(W64(en, EN_PIDNS), RLX);
	return shmids_st_alive(&who);
}
