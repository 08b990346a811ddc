/*
 * Memory: private, and shared between the driver and its children.
 */
#include "stream.h"

void *
xmalloc(size_t n)
{
	void *p;

	if ((p = malloc(n ? n : 1)) == NULL)
		err(1, "malloc %zu", n);
	return p;
}

/*
 * n bytes of zeros shared with the children forked after this: no name,
 * so nothing is left behind whatever happens.  Every page is touched
 * here, once, so that no measurement pays for first-touch faults of a
 * ring (a segment a step pays them on every step: that is its cost).
 * NULL, having warned, if there is no memory.
 */
void *
shared_map(size_t n)
{
	void *p;

	p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
	    -1, 0);
	if (p == MAP_FAILED) {
		warn("shared memory of %zu bytes", n);
		return NULL;
	}
	memset(p, 0, n);
	return p;
}

void
shared_unmap(void *p, size_t n)
{
	if (p != NULL && munmap(p, n) == -1)
		warn("munmap");
}
