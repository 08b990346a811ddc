/*
 * shm-ls's streams (format-spec.md 7, shm-ls; 10): what each stream
 * listed holds now (shmids_stream_stat()), as a second table after the
 * segments' (one row a registered reader), or as the "stream" object
 * of its JSON entry.
 */
#ifndef SHMIDS_LSSTREAM_H
#define SHMIDS_LSSTREAM_H

#include "shmids.h"

/* If si is a stream, its state kept for lsstream_print(): 1, else 0. */
int	 lsstream_add(const struct shmids_info *si);
/* The streams' table; sizes in bytes with bytes, no header row with nohead. */
void	 lsstream_print(int bytes, int nohead);
/* If si is a stream, ", \"stream\": {...}" on stdout. */
void	 lsstream_json(const struct shmids_info *si);

#endif /* SHMIDS_LSSTREAM_H */
