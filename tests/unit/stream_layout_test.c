/*
 * stream_layout_test: a stream's layout (format-spec.md 10.2) as the
 * spec's examples compute it; the checks of 10.7 on a stream header and
 * on a descriptor, each field forged in turn, written by hand from the
 * spec's offsets, not by the library; a message's label (5.1).  No
 * segment is made.  TAP.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "stream/stream.h"

#include "tap.h"

static char hdr[ST_TABLE + 64];

static void
put64(char *p, size_t off, uint64_t v)
{
	memcpy(p + off, &v, 8);
}

static void
put32(char *p, size_t off, uint32_t v)
{
	memcpy(p + off, &v, 4);
}

/* A stream header of N slots of capacity bytes, R 64, by the spec. */
static void
by_hand(uint32_t n, uint64_t cap)
{
	uint64_t a = cap < 4096 ? 64 : 4096, descoff = 768 + 128 * 64;

	memset(hdr, 0, sizeof(hdr));
	memcpy(hdr + 128, "stream\n", 8);
	put32(hdr, 136, n);
	put32(hdr, 140, 64);
	put64(hdr, 144, cap);
	put64(hdr, 152, (cap + a - 1) / a * a);
	put64(hdr, 160, descoff);
	put64(hdr, 168, (descoff + 64 * (uint64_t)n + a - 1) / a * a);
	put32(hdr, 180, 1);
}

static void
examples(void)
{
	struct geom g;

	ok(shmids_st_layout(64, 64, 64, &g) == 0 && g.descoff == 8960 &&
	    g.payoff == 13056 && g.stride == 64 && g.size == 17152,
	    "10.2: 64 slots of 64 bytes: descoff 8960, payoff 13056, size 17152");
	ok(shmids_st_layout(16, 64, 1 << 20, &g) == 0 && g.payoff == 12288 &&
	    g.stride == 1 << 20, "10.2: 16 slots of 1 MiB: payoff 12288, "
	    "stride 1 MiB: payloads on pages");
	ok(shmids_st_layout(8, 64, 80000, &g) == 0 &&
	    g.size - SHMIDS_HEADER == 667520 && g.stride == 81920,
	    "10.1: 8 slots of 80000 bytes: count 667520 (the spec's header)");
	ok(shmids_st_layout(3, 64, 4095, &g) == 0 && g.stride == 4096 &&
	    g.payoff % 64 == 0, "10.2: 4095 bytes: stride on a cache line");
	ok(shmids_st_layout(3, 64, 4097, &g) == 0 && g.stride == 8192 &&
	    g.payoff % 4096 == 0, "10.2: 4097 bytes: payloads on pages");
	ok(shmids_st_layout(0, 64, 64, &g) == -1 &&
	    shmids_st_layout(1, 64, 0, &g) == -1 &&
	    shmids_st_layout(1, 0, 64, &g) == -1 &&
	    shmids_st_layout(1, 65, 64, &g) == -1,
	    "10.2: no slots, no capacity, no or 65 readers: refused");
	ok(shmids_st_layout(UINT32_MAX, 64, UINT64_MAX / 2, &g) == -1 &&
	    shmids_st_layout(2, 64, UINT64_MAX - 10, &g) == -1,
	    "10.2: sizes past 64 bits: refused, no overflow");
}

/* Each field of the stream header forged: what a reader says. */
static void
forged_header(void)
{
	static const struct {
		size_t		 off;
		int		 w32;
		uint64_t	 v;
		const char	*what;
	} f[] = {
		{ 136, 1, 0, "no slots" },
		{ 136, 1, 1000000, "more slots than the segment holds" },
		{ 140, 1, 0, "a reader table of 0" },
		{ 140, 1, 65, "a reader table of 65" },
		{ 144, 0, 0, "capacity 0" },
		{ 144, 0, UINT64_MAX, "capacity 2^64 - 1" },
		{ 152, 0, 192, "a stride not the layout's" },
		{ 160, 0, 768, "descoff not the layout's" },
		{ 168, 0, 1 << 30, "payoff past the segment" },
		{ 176, 1, 2, "policy 2" },
		{ 180, 1, 65, "more expected readers than entries" },
		{ 184, 1, 2, "a flag bit not known" },
	};
	struct geom g;
	char what[128];
	size_t i, size;

	by_hand(8, 100);
	shmids_st_layout(8, 64, 100, &g);
	size = (size_t)g.size;
	ok(shmids_st_geom_read(hdr, size, &g) == 0 && g.slots == 8 &&
	    g.capacity == 100 && g.readers == 1,
	    "10.7: a stream header written by hand from the spec is read");
	ok(shmids_st_geom_read(hdr, size - 1, &g) == EBADMSG,
	    "10.7: a segment a byte short of the layout: EBADMSG");
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		by_hand(8, 100);
		if (f[i].w32)
			put32(hdr, f[i].off, (uint32_t)f[i].v);
		else
			put64(hdr, f[i].off, f[i].v);
		snprintf(what, sizeof(what), "10.7: a stream header with %s: "
		    "EBADMSG", f[i].what);
		ok(shmids_st_geom_read(hdr, size, &g) == EBADMSG, what);
	}
	by_hand(8, 100);
	memset(hdr + 128, 0, 8);
	ok(shmids_st_geom_read(hdr, size, &g) == EAGAIN,
	    "10.7: no magic yet: EAGAIN (being made)");
	memcpy(hdr + 128, "stream\n!", 8);
	ok(shmids_st_geom_read(hdr, size, &g) == EBADMSG,
	    "10.7: a wrong magic: EBADMSG");
}

static char desc[64];

static void
good_desc(uint64_t seq, uint32_t type, uint64_t rows, uint64_t cols,
    uint32_t ndim, uint32_t order, uint64_t nbytes)
{
	memset(desc, 0, sizeof(desc));
	put64(desc, 0, seq + 1);
	put64(desc, 8, nbytes);
	put64(desc, 16, rows);
	put64(desc, 24, cols);
	put32(desc, 32, type);
	put32(desc, 36, ndim);
	put32(desc, 40, order);
}

static void
descriptors(void)
{
	static const struct {
		uint32_t	 type, ndim, order;
		uint64_t	 rows, cols, nbytes;
		const char	*what;
	} bad[] = {
		{ 5, 1, 'C', 10, 1, 10, "type 5" },
		{ 1, 3, 'C', 10, 1, 80, "ndim 3" },
		{ 1, 1, 'C', 10, 2, 160, "ndim 1 with 2 columns" },
		{ 1, 1, 'F', 10, 1, 80, "ndim 1 in order F" },
		{ 1, 2, 'X', 2, 2, 32, "order X" },
		{ 1, 2, 'F', 1, 5, 40, "order F of one row" },
		{ 1, 2, 'C', 5, 0, 0, "a table of 0 columns" },
		{ 1, 2, 'C', 1, 10000000, 80000000, "10^7 columns" },
		{ 1, 1, 'C', 10, 1, 79, "nbytes not rows * cols * 8" },
		{ 1, 1, 'C', 200, 1, 1600, "more bytes than the capacity" },
		{ 1, 2, 'C', UINT64_MAX / 2, 4, 0, "rows * cols overflowing" },
		{ 1, 1, 'C', UINT64_MAX / 4, 1, 0, "bytes overflowing" },
	};
	struct shmids_msg m;
	char what[128];
	size_t i;

	good_desc(7, SHMIDS_F64, 3, 4, 2, 'F', 96);
	ok(shmids_st_desc_read(desc, 7, 1000, &m) == 0 && m.seq == 7 &&
	    m.type == SHMIDS_F64 && m.ndim == 2 && m.rows == 3 &&
	    m.cols == 4 && m.order == SHMIDS_COLMAJOR && m.nbytes == 96,
	    "10.2: a descriptor written by hand from the spec is read");
	good_desc(0, SHMIDS_RAW, 0, 1, 1, 'C', 0);
	ok(shmids_st_desc_read(desc, 0, 1000, &m) == 0 && m.nbytes == 0,
	    "10.2: a message of no bytes is one");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		good_desc(7, bad[i].type, bad[i].rows, bad[i].cols,
		    bad[i].ndim, bad[i].order, bad[i].nbytes);
		snprintf(what, sizeof(what), "10.7: a descriptor with %s: "
		    "EBADMSG", bad[i].what);
		ok(shmids_st_desc_read(desc, 7, 1000, &m) == EBADMSG, what);
	}
}

static void
msglabels(void)
{
	static const struct {
		const char	*s;
		int		 is;
		const char	*label;
		uint64_t	 seq;
	} t[] = {
		{ "402 sim-u 17", 1, "402 sim-u", 17 },
		{ "402 sim-u 0\n", 1, "402 sim-u", 0 },
		{ "/tmp/d/shmids.0.Ab12Cd x 9223372036854775807", 1,
		    "/tmp/d/shmids.0.Ab12Cd x", 9223372036854775807ULL },
		{ "402 sim-u 9223372036854775808", 0, NULL, 0 },
		{ "402 sim-u 017", 0, NULL, 0 },
		{ "402 sim-u -1", 0, NULL, 0 },
		{ "402 sim-u", 0, NULL, 0 },
		{ "402 17", 0, NULL, 0 },
		{ "402 sim-u 17 18", 0, NULL, 0 },
		{ "402  sim-u 17", 0, NULL, 0 },
		{ "x shmids 402 sim-u 17", 0, NULL, 0 },
		{ "402 sim-u 1x", 0, NULL, 0 },
		{ "402 sim-u ", 0, NULL, 0 },
	};
	char label[SHMIDS_LABEL_MAX + 1], what[160];
	uint64_t seq;
	size_t i;
	int r;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		r = shmids_st_msglabel(t[i].s, label, &seq);
		snprintf(what, sizeof(what), "5.1: '%.*s' is %sa message's "
		    "label", (int)strcspn(t[i].s, "\n"), t[i].s,
		    t[i].is ? "" : "no ");
		ok(r == t[i].is && (!r || (strcmp(label, t[i].label) == 0 &&
		    seq == t[i].seq)), what);
	}
}

int
main(void)
{
	examples();
	forged_header();
	descriptors();
	msglabels();
	printf("1..%d\n", ntest);
	return nfail != 0;
}
