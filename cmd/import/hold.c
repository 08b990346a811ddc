/*
 * Values held until their count is known, then moved (hold.h).
 */
#define _GNU_SOURCE		/* mremap(2), MAP_ANONYMOUS, MADV_HUGEPAGE */
#include <sys/mman.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shmids.h"
#include "hold.h"

#define SMALL	((size_t)1 << 20)	/* bytes: below, a malloc'd buffer */
#define PIECE	((size_t)2 << 20)	/* bytes mapped at a time, moved at a
					   time: a huge page */

/* A mapping of bytes (a multiple of PIECE) with old's first keep bytes. */
static void *
remap(void *old, size_t oldlen, size_t keep, size_t bytes)
{
	void *p;

#ifdef MREMAP_MAYMOVE
	if (oldlen > 0)
		return (p = mremap(old, oldlen, bytes, MREMAP_MAYMOVE)) ==
		    MAP_FAILED ? NULL : p;
#endif
	if ((p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS, -1, 0)) == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	/* 2 MiB pages where the kernel gives them: 512 times fewer faults */
	(void)madvise(p, bytes, MADV_HUGEPAGE);
#endif
	if (keep > 0)
		memcpy(p, old, keep);
	if (oldlen > 0)
		(void)munmap(old, oldlen);
	else
		free(old);
	return p;
}

int
hold_room(struct shmids_values *v, size_t more)
{
	size_t esz = shmids_type_size(v->type), cap, bytes, had;
	void *p;

	if (esz == 0) {
		errno = EINVAL;
		return -1;
	}
	if (more <= v->cap - v->count)
		return 0;
	if (more > SIZE_MAX / esz / 4 - v->count) {
		errno = ENOMEM;
		return -1;
	}
	/* doubling at least: a long array is read in many runs */
	cap = v->count + more;
	cap = cap > v->cap * 2 ? cap : v->cap * 2;
	bytes = cap * esz;
	had = v->cap * esz;
	if (bytes <= SMALL) {
		cap = cap < 256 ? 256 : cap;
		if ((p = realloc(v->data, cap * esz)) == NULL)
			return -1;
	} else {
		bytes = (bytes + PIECE - 1) / PIECE * PIECE;
		if ((p = remap(v->data, had > SMALL ? had : 0,
		    v->count * esz, bytes)) == NULL)
			return -1;
		cap = bytes / esz;
	}
	v->data = p;
	v->cap = cap;
	return 0;
}

void
hold_move(struct shmids_values *v, void *dst)
{
	size_t esz = shmids_type_size(v->type), len = v->count * esz, off, n;
	size_t mapped = v->cap * esz;
	char *src = v->data;

	if (mapped <= SMALL) {
		if (dst != NULL && len > 0)
			memcpy(dst, src, len);
		hold_free(v);
		return;
	}
	/* piece by piece, each unmapped once copied */
	for (off = 0; off < mapped; off += PIECE) {
		n = off < len ? (len - off < PIECE ? len - off : PIECE) : 0;
		if (dst != NULL && n > 0)
			memcpy((char *)dst + off, src + off, n);
		(void)munmap(src + off, PIECE);
	}
	v->data = NULL;
	v->count = v->cap = 0;
}

void
hold_free(struct shmids_values *v)
{
	size_t bytes = v->cap * shmids_type_size(v->type);

	if (bytes > SMALL)
		(void)munmap(v->data, bytes);
	else
		free(v->data);
	v->data = NULL;
	v->count = v->cap = 0;
}
