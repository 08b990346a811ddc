/*
 * A stream header and a descriptor forged by another user (format-spec.md
 * 10.2, 10.7): shmids_st_geom_read() and shmids_st_desc_read().  Input:
 * the segment's first bytes (its declared bytes: a reader maps no more),
 * any number; its last 64 bytes are also read as a descriptor.  An
 * accepted stream header must be the one the spec's formula gives, and
 * every payload it places must end inside the segment; an accepted
 * descriptor must say no more bytes than a slot holds.
 */
#include "fuzz.h"
#include "stream/stream.h"

static uint64_t
rd(const uint8_t *h, size_t off, size_t w)
{
	uint64_t v = 0;
	uint32_t v32 = 0;

	if (w == 4) {
		memcpy(&v32, h + off, 4);
		return v32;
	}
	memcpy(&v, h + off, 8);
	return v;
}

/* x rounded up to a multiple of a, or -1 past 64 bits. */
static int
roundup(uint64_t x, uint64_t a, uint64_t *out)
{
	if (x > UINT64_MAX - a)
		return -1;
	*out = x + (a - x % a) % a;
	return 0;
}

/* The spec's formula (10.2), written again: 0 and the sizes, or -1. */
static int
formula(uint64_t n, uint64_t r, uint64_t cap, uint64_t *stride,
    uint64_t *descoff, uint64_t *payoff, uint64_t *size)
{
	uint64_t a = cap < 4096 ? 64 : 4096;

	if (n == 0 || n > UINT32_MAX || r == 0 || r > 64 || cap == 0 ||
	    roundup(cap, a, stride) == -1)
		return -1;
	*descoff = 768 + 128 * r;
	if (n > (UINT64_MAX - *descoff) / 64 ||
	    roundup(*descoff + 64 * n, a, payoff) == -1 ||
	    n > (UINT64_MAX - *payoff) / *stride)
		return -1;
	*size = *payoff + n * *stride;
	return *size > (uint64_t)(size_t)-1 ? -1 : 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct geom g;
	struct shmids_msg m;
	uint64_t stride, descoff, payoff, total, pub, seq, end;
	char *h;
	int e;

	/* exactly size bytes: ASan reports a read past the segment */
	if ((h = malloc(size ? size : 1)) == NULL)
		abort();
	if (size > 0)
		memcpy(h, data, size);
	e = shmids_st_geom_read(h, size, &g);
	CHECK(e == 0 || e == EAGAIN || e == EBADMSG, "returned %d", e);
	if (e == 0) {
		CHECK(memcmp(h + 128, "stream\n", 8) == 0, "magic");
		CHECK(formula(rd(data, 136, 4), rd(data, 140, 4),
		    rd(data, 144, 8), &stride, &descoff, &payoff, &total) == 0,
		    "accepted geometry the formula refuses");
		CHECK(g.stride == stride && rd(data, 152, 8) == stride &&
		    g.descoff == descoff && rd(data, 160, 8) == descoff &&
		    g.payoff == payoff && rd(data, 168, 8) == payoff &&
		    g.size == total, "accepted a layout not the formula's");
		CHECK(total <= size, "a ring of %llu bytes in %zu",
		    (unsigned long long)total, size);
		CHECK(g.policy <= 1 && g.flags <= 1 && g.readers <= g.rtable,
		    "policy %u flags %u readers %u", g.policy, g.flags,
		    g.readers);
	}
	if (size >= 64) {
		uint64_t cap = e == 0 ? g.capacity : 4096;
		int geom = e == 0;

		pub = rd(data, size - 64, 8);
		seq = pub - 1;
		memset(&m, 0, sizeof(m));
		e = shmids_st_desc_read(h + size - 64, seq, cap, &m);
		CHECK(e == 0 || e == EBADMSG, "descriptor: %d", e);
		if (e == 0) {
			CHECK(m.nbytes <= cap, "nbytes %zu", m.nbytes);
			CHECK(m.rows * m.cols * shmids_type_size(m.type) ==
			    m.nbytes, "shape and bytes disagree");
			if (geom) {
				end = g.payoff + (seq % g.slots) * g.stride +
				    m.nbytes;
				CHECK(end <= g.size && g.size <= size,
				    "a payload past the segment");
			}
		}
	}
	free(h);
	return 0;
}
