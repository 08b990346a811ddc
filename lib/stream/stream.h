/*
 * Internal interfaces of lib/stream/, the streams (format-spec.md
 * section 10): the ring's layout, the handles, the reader table, the
 * waits.  Not installed; included by lib/stream/, by lib/explain.c and
 * by the library's tests.  Built on lib/seg/'s internal interface
 * (seg.h): lib/seg/ never calls lib/stream/, and lib/stream/ never
 * calls lib/text/ (lib/README).  Every symbol here is hidden.
 */
#ifndef SHMIDS_STREAM_H
#define SHMIDS_STREAM_H

#include <stdint.h>

#include "../seg/seg.h"

/* The stream header: format-spec.md 10.2, offsets from the segment. */
#define ST_MAGIC	128	/* "stream\n\0", written last */
#define ST_SLOTS	136	/* u32 */
#define ST_RTABLE	140	/* u32 */
#define ST_CAP		144
#define ST_STRIDE	152
#define ST_DESCOFF	160
#define ST_PAYOFF	168
#define ST_POLICY	176	/* u32 */
#define ST_READERS	180	/* u32 */
#define ST_FLAGS	184	/* u32 */
#define ST_WPID		188	/* i32 */
#define ST_WSTART	192
#define ST_WPIDNS	200
#define ST_HEAD		256	/* the writer's line */
#define ST_HSEQ		264	/* u32 futex word */
#define ST_TAIL		384	/* its own line */
#define ST_SLEEPERS	512	/* the wake line */
#define ST_WSLEEP	520	/* u32 futex word */
#define ST_MASK		640	/* the table's line */
#define ST_JOINED	648
#define ST_GEN		656
#define ST_FIN		664	/* u32: FIN_ENDED, FIN_TAKEN */
#define ST_TABLE	768	/* entry 0 of the reader table */
#define ST_ENTRY	128	/* bytes of an entry */
#define EN_OWNER	0
#define EN_POS		8
#define EN_START	16
#define EN_PIDNS	24
#define ST_DESC		64	/* bytes of a descriptor */
#define DE_PUB		0
#define DE_NBYTES	8
#define DE_ROWS		16
#define DE_COLS		24
#define DE_TYPE		32	/* u32 */
#define DE_NDIM		36	/* u32 */
#define DE_ORDER	40	/* u32 */

#define ST_RMAX		SHMIDS_STREAM_READERS_MAX	/* entries written */
#define OWNER_RECLAIM	1	/* owner of an entry being reclaimed */
#define POLICY_WAIT	0
#define POLICY_OVERWRITE 1
#define FLAG_KEEP	1	/* flags bit 0 (10.5) */
#define FIN_ENDED	1	/* fin: the writer has ended the stream */
#define FIN_TAKEN	2	/* fin: a process removes the segment */
#define SLICE_NS	100000000LL	/* 100 ms: the longest sleep (10.6) */

/* Who a process is, as the stream header and the table record it. */
struct ident {
	int32_t		 pid;
	uint64_t	 start;		/* clock ticks since boot; 0 unknown */
	uint64_t	 pidns;		/* inode of its pid namespace; 0 unknown */
};

/* The stream header's fields, as checked (layout.c). */
struct geom {
	uint64_t	 slots, rtable, capacity;
	uint64_t	 stride, descoff, payoff, size;	/* bytes */
	uint32_t	 policy, readers, flags;
	struct ident	 writer;
};

/* A wait's spin budget, adapted to what spinning won lately (wait.c). */
struct spin {
	long long	 ns;		/* the next spin's bound */
};

struct shmids_stream {
	char		*base;		/* the segment's header */
	struct att	 a;
	const struct shmids_backend *be;
	char		 id[SHMIDS_LABEL_MAX + 1];
	char		 label[SHMIDS_LABEL_MAX + 1];
	struct geom	 g;
	char		*desc, *pay;	/* descriptor 0, payload 0 */
	int		 writer;	/* a writer's handle, else a reader's */
	int		 forked;	/* inherited by fork: close alone */
	struct spin	 spin;
	/* a writer's */
	uint64_t	 head;		/* the next message's seq */
	uint64_t	 hidx;		/* its slot */
	int		 loaned;
	uint64_t	 safe;		/* messages below are released (wait) */
	uint64_t	 gen;		/* gen when safe was found */
	int		 came;		/* the expected readers have registered */
	/* a reader's */
	int		 k;		/* its entry */
	uint64_t	 owner;		/* its owner word */
	uint64_t	 pos;		/* the message it holds or waits for */
	uint64_t	 pidx;		/* its slot */
	int		 held;		/* it holds pos */
	int		 ended;		/* 0; -1 end of stream; else an errno */
	/* this process's handles (handle.c) */
	struct shmids_stream *next, *prev;
};

/*
 * Atomic words of the segment: __atomic builtins, as lib/seg/ uses for
 * the state byte (C11 <stdatomic.h> is no part of C99).  SC is for the
 * store-then-load pairs of format-spec.md 10.3.
 */
#define W64(h, off)	((uint64_t *)(void *)((h) + (off)))
#define W32(h, off)	((uint32_t *)(void *)((h) + (off)))
#define RLX		__ATOMIC_RELAXED
#define ACQ		__ATOMIC_ACQUIRE
#define REL		__ATOMIC_RELEASE
#define SC		__ATOMIC_SEQ_CST
#define LOAD(p, o)	__atomic_load_n((p), o)
#define STORE(p, v, o)	__atomic_store_n((p), (v), o)

/*
 * The bits of mask that name entries of the table (R = rtable, 1..64):
 * another user may set any of the 64, and a bit past R names memory
 * past the table (10.7).
 */
#define RMASK(s)	((s)->g.rtable < 64 ? \
			    ((uint64_t)1 << (s)->g.rtable) - 1 : ~(uint64_t)0)

/* An entry of the reader table, a descriptor, a payload. */
#define ENTRY(s, k)	((s)->base + ST_TABLE + (size_t)(k) * ST_ENTRY)
#define DESC(s, j)	((s)->desc + (size_t)(j) * ST_DESC)
#define PAYLOAD(s, j)	((s)->pay + (size_t)(j) * (s)->g.stride)

/* layout.c: format-spec.md 10.2, 10.7 */
SHMIDS_HIDDEN int	shmids_st_layout(uint64_t slots, uint64_t rtable,
			    uint64_t capacity, struct geom *g);
SHMIDS_HIDDEN void	shmids_st_geom_write(char *h, const struct geom *g);
SHMIDS_HIDDEN int	shmids_st_geom_read(const char *h, size_t size,
			    struct geom *g);
SHMIDS_HIDDEN int	shmids_st_desc_read(const char *d, uint64_t seq,
			    uint64_t capacity, struct shmids_msg *m);
SHMIDS_HIDDEN void	shmids_st_desc_write(char *d, int type, size_t rows,
			    size_t cols, int ndim, int order, size_t nbytes);

/* live.c: who is alive (10.5) */
SHMIDS_HIDDEN int	shmids_st_self(struct ident *me);
SHMIDS_HIDDEN uint64_t	shmids_st_owner(const struct ident *id);
SHMIDS_HIDDEN int	shmids_st_alive(const struct ident *who);
SHMIDS_HIDDEN int	shmids_st_writer_alive(const struct shmids_stream *s,
			    const char *id);
SHMIDS_HIDDEN int	shmids_st_reader_alive(const struct shmids_stream *s,
			    const char *id, int k);

/* table.c: the reader table (10.3, 10.5) */
SHMIDS_HIDDEN int	shmids_st_join(struct shmids_stream *s, int at_head,
			    uint64_t *start);
SHMIDS_HIDDEN int	shmids_st_back(struct shmids_stream *s, uint64_t seq);
SHMIDS_HIDDEN void	shmids_st_leave(struct shmids_stream *s);
SHMIDS_HIDDEN int	shmids_st_reclaim(struct shmids_stream *s, int k);
SHMIDS_HIDDEN void	shmids_st_wake_writer(struct shmids_stream *s);

/* wait.c: spin, then sleep on a futex word (10.6) */
SHMIDS_HIDDEN void	shmids_st_spin_init(struct spin *sp);
SHMIDS_HIDDEN int	shmids_st_spin(struct spin *sp,
			    int (*ready)(struct shmids_stream *, void *),
			    struct shmids_stream *s, void *arg,
			    long long until);
SHMIDS_HIDDEN int	shmids_st_sleep(uint32_t *word, uint32_t val,
			    long long ns);
SHMIDS_HIDDEN long long	shmids_st_until(double seconds);

/* handle.c: this process's handles, their end at exit and fork */
SHMIDS_HIDDEN int	shmids_st_track(struct shmids_stream *s);
SHMIDS_HIDDEN void	shmids_st_untrack(struct shmids_stream *s);
SHMIDS_HIDDEN void	shmids_st_free(struct shmids_stream *s);
SHMIDS_HIDDEN void	shmids_st_remove_if_last(struct shmids_stream *s);
SHMIDS_HIDDEN void	shmids_st_place(struct shmids_stream *s);

/* writer.c, reader.c: a handle's close, by kind */
SHMIDS_HIDDEN void	shmids_st_end(struct shmids_stream *s);
SHMIDS_HIDDEN void	shmids_st_unregister(struct shmids_stream *s);

/* stat.c: a look at a stream, for shmids_stream_stat() and explain.c */
SHMIDS_HIDDEN int	shmids_st_look(const char *id,
			    struct shmids_stream_info *si);
/*
 * A message's label "<id> <name> <seq>" (format-spec.md 5.1, and a
 * last "\n"): 1 with the stream's label in label and *seq; 0 if s is
 * no message label.
 */
SHMIDS_HIDDEN int	shmids_st_msglabel(const char *s,
			    char label[SHMIDS_LABEL_MAX + 1], uint64_t *seq);

#endif /* SHMIDS_STREAM_H */
