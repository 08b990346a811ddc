/*
 * The streams a filter reads messages of (format-spec.md 5.1, 10):
 * each opened once, as a reader, at the first message asked for, and
 * kept open (holding the last message got) until streams_close() or
 * exit, so that a writer of the wait policy keeps every later message
 * for it.  shm-expand links it.
 */
#ifndef SHMIDS_STREAMS_H
#define SHMIDS_STREAMS_H

#include "shmids.h"

/*
 * Message seq of the stream label ("<id> <name>") into m, read-only in
 * place, valid until the next call: 1, or -1 with errno (those of
 * shmids_stream_open() and shmids_stream_get(); ENOMSG: gone, or past
 * the end); 0 never.  Waits up to seconds for a message not yet
 * published.
 */
int	 streams_get(const char *label, long long seq, double seconds,
	    struct shmids_msg *m);

/* Unregister from every stream opened. */
void	 streams_close(void);

#endif /* SHMIDS_STREAMS_H */
