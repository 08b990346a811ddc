/*
 * An array's values held in memory until their count is known (a pipe's
 * array, which cannot be counted first, engine_stream.c), then moved
 * into their segment.  The values are struct shmids_values (its count,
 * cap and type), read into with SHMIDS_VALUES_FIXED; hold_room() grows
 * the room, hold_move() moves them.
 *
 * Why not a malloc'd buffer grown by realloc: glibc's realloc of a big
 * block may copy it (its mmap threshold rises as big blocks are freed),
 * so that it is there twice for a moment, and the copy into the segment
 * made it twice again: a pipe's import peaked at 2.46x its segment
 * (issue 41).  Here a long array's values are an anonymous mapping,
 * grown by mremap(2) in place or by moving its pages (never copied),
 * and hold_move() unmaps each piece once it is copied into the segment:
 * the values and the segment together are never much more than one of
 * them.  A System V segment cannot grow in place, so the values cannot
 * go straight to it; this is the one copy, at memcpy speed.
 */
#ifndef IMPORT_HOLD_H
#define IMPORT_HOLD_H

#include <stddef.h>

#include "shmids.h"

/*
 * Room in v for more elements after its count (its type set): 0, or -1
 * (ENOMEM).  Short arrays stay in a malloc'd buffer, long ones in a
 * mapping: only hold_move() and hold_free() may free v->data.
 */
int	 hold_room(struct shmids_values *v, size_t more);
/*
 * v's count elements into dst (room for them; NULL: none wanted), v's
 * memory given back as it goes; v is left empty, its type kept.
 */
void	 hold_move(struct shmids_values *v, void *dst);
void	 hold_free(struct shmids_values *v);

#endif
