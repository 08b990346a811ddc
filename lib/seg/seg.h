/*
 * Internal interfaces of the segment layer, lib/seg/ (format-spec.md
 * sections 1, 2, 7): labels, the header, the backends, wake, the
 * registry.  Not installed; included by lib/seg/, by lib/explain.c and
 * by the library's tests, never by lib/text/ (the text layer calls
 * segments through shmids.h alone) nor by a tool.  Every symbol here is
 * hidden from the shared library's dynamic symbol table.
 */
#ifndef SHMIDS_SEG_H
#define SHMIDS_SEG_H

#include <stdint.h>

#include "../common.h"

/* Header layout: format-spec.md section 2. */
#define HDR_LABELSZ	80	/* label area at offset 0 */
#define HDR_MAGIC	80	/* "shmids1" */
#define HDR_TYPE	88
#define HDR_ORDER	92
#define HDR_COUNT	95
#define HDR_COUNTSZ	20
#define HDR_STATE	116
#define HDR_RESERVED	118
#define HDR_COLS	120	/* versions 2, 3: columns (2.7) */
#define HDR_COLSSZ	7

#define KEY_PREFIX	0x53480000u	/* "SH": section 2.4 */
#define KEY_MASK	0xffff0000u
/*
 * A new System V segment's mode until its header is written: the others'
 * execute bit on an owner-only segment, which grants nothing and which
 * no program has a reason to ask for, so that a writer's residue is told
 * from another program's segment under our key (format-spec.md 2.4).
 */
#define MODE_MARK	0601

/* What a header says, once checked. */
struct hdr {
	char		 label[SHMIDS_LABEL_MAX + 1];
	size_t		 namepos;	/* offset of the name in label */
	int		 type;
	size_t		 count;
	size_t		 cols;		/* a table's columns; 0: 1-D (version 1) */
	int		 order;		/* SHMIDS_COLMAJOR (version 3), else ROWMAJOR */
	int		 state;		/* 'w' or 'r' */
	int		 version;	/* '1' to '4' (a stream); another: ESTALE */
};

/* One attachment of a segment: what detaching it needs. */
struct att {
	/*
	 * The header, mapped; a file reader's is NULL until narrow() maps
	 * what it keeps, unless it waits for the writer (the futex's page).
	 */
	char		*addr;
	/*
	 * Bytes of the segment, header included: the object's size at
	 * attach, what the header declares once narrowed for a reader.
	 */
	size_t		 size;
	size_t		 maplen;	/* bytes mapped at addr (files) */
	int		 fd;		/* file segments: held open, locked; else -1 */
	int		 locked;	/* a reader's lock was granted (files) */
	int		 prot;		/* the mapping's protection (files) */
	/*
	 * A file reader's copy of the header, read with pread(2) (copied:
	 * 1), which is checked instead of the mapping; and the bytes the
	 * file had allocated at that look (2.6, Holes).
	 */
	int		 copied;
	long long	 alloc;
	char		 head[SHMIDS_HEADER];
};

/*
 * attach()'s lock: ATT_READ a reader (files: its read lock, one look
 * at the file), ATT_RDWR: attached read and write, no lock (a stream's
 * reader, which registers in the segment: format-spec.md 10.1), or
 * ATT_KEEP: a look that keeps a file's descriptor (no lock, no access
 * time) for the lock tests of a look at a stream (10.5).
 */
#define ATT_READ	1
#define ATT_RDWR	2
#define ATT_KEEP	3

/*
 * The backend: one small interface so that stores can sit side by side
 * (System V in sysv.c, files in file.c; format-spec.md 2.6).  A segment
 * is named by its id, the label's first token: a shmid or a path.
 * Functions return -1 with errno; ENOENT means no such segment, whatever
 * the store says.
 */
struct shmids_backend {
	/*
	 * The shmid of the shmids_info by which shmids_scan() reports this
	 * store unreadable (0 the System V table, -1 SHMIDS_DIR).
	 */
	int	 store;
	/* Does id, a label's first token, name a segment of this store? */
	int	(*names)(const char *id);
	/*
	 * Make a segment of size bytes, mode 0600, attached read-write;
	 * id gets its id.  ENAMETOOLONG if a name of namelen bytes would
	 * not fit the label.
	 */
	int	(*create)(size_t size, size_t namelen,
		    char id[SHMIDS_LABEL_MAX + 1], struct att *a);
	/*
	 * 1 if attach() itself finds all that stat() tells a reader (the
	 * segment exists, may be read, is its maker's: the file backend,
	 * on the descriptor it opens), so that a reader's open skips
	 * stat(); si then holds only the id.
	 */
	int	 selfstat;
	/*
	 * Attach si's segment as lock says (ATT_READ: read-only, as a
	 * reader; files: one that holds a read lock, asked for here).  The
	 * header need not be mapped: it is at a->addr, or copied to a->head
	 * (a->copied); a->size is the object's size, which the header is
	 * checked against.  selfstat holds for ATT_READ only: the stream
	 * modes are given what stat() said.
	 */
	int	(*attach)(const struct shmids_info *si, int lock, struct att *a);
	/*
	 * A reader keeps the first len bytes only (the header and the
	 * payload it declares; len <= a->size): map them where attach did
	 * not, and make them a->size, so that nothing past them is ever
	 * populated or handed out.  On failure a is unchanged (EBADMSG: a
	 * file with fewer bytes allocated than that, 2.6 Holes).
	 */
	int	(*narrow)(struct att *a, size_t len);
	/*
	 * The caller will touch every byte: map them now, where it pays.
	 * -1 only where a writer must not go on (a full file system).
	 */
	int	(*prefault)(const struct att *a, int rdonly);
	void	(*detach)(struct att *a);
	int	(*setmode)(const struct att *a, const char *id, int mode);
	/* The writer stored state 'r' (files: its lock becomes a reader's). */
	void	(*sealed)(const struct att *a);
	/*
	 * A reader woken on the segment it holds looks again at what
	 * attach() looked at: its lock asked for again if it was refused,
	 * the file and the header copy read afresh (files).  0, or -1 with
	 * attach()'s errno (ENOENT: removed meanwhile).
	 */
	int	(*reread)(const struct shmids_info *si, struct att *a);
	/*
	 * May si's segment, whose header says state, be handed out?  0, or
	 * EAGAIN (writer filling, or busy), EINPROGRESS (maybe filling, by
	 * a fork of the writer: wait without holding a), EOWNERDEAD (writer
	 * died), ENOENT (removed as it was attached); a is the caller's
	 * attachment, or NULL for one that only looks.
	 */
	int	(*ready)(const struct shmids_info *si, const struct att *a,
		    int state);
	/* Remove at once; shmids_remove_info() checks what it removes. */
	int	(*remove)(const char *id);
	/*
	 * Remove si's segment, just checked by shmids_remove_info(), unless
	 * a process has it attached (EBUSY), shutting out new attaches
	 * between the last test and the removal (format-spec.md section 7
	 * says what remains).
	 */
	int	(*remove_idle)(const struct shmids_info *si);
	/*
	 * The system part of si (its err untouched: info.c alone fills
	 * it).  0, or 1 when the segment is known but the caller may not
	 * read it (EACCES: no attach should be tried), or -1.
	 */
	int	(*stat)(const char *id, struct shmids_info *si);
	/*
	 * fn(si, what stat would return, arg) for each segment of the store;
	 * for a name of the store's that could not be examined, fn(si, -1,
	 * arg) with only shmid, id and err (the reason) set.
	 */
	int	(*scan)(int (*fn)(struct shmids_info *, int, void *), void *arg);
	int	(*isours)(const struct shmids_info *si);	/* by key or file name */
	/*
	 * Is si's segment, whose first bytes are residue's (none, or 128
	 * NUL), a writer's of this library killed before its header: what
	 * the system kept of its making proves it (format-spec.md 2.4)?
	 */
	int	(*residue)(const struct shmids_info *si);
	/*
	 * For tools that only look: copy si's first bytes, up to
	 * SHMIDS_HEADER, to h, and its size to *size, without keeping it
	 * attached; returns how many were copied (fewer if it is smaller).
	 * A file is read, not mapped: one truncated meanwhile gives a short
	 * copy, never SIGBUS; one with more than one name is EMLINK (not
	 * ours, format-spec.md 2.6).
	 */
	ssize_t	(*peek)(const struct shmids_info *si, char *h, size_t *size);
	/*
	 * Is si's segment, whose n bytes copied to h begin a header of ours
	 * whose label names another id, the residue of that segment: a
	 * name left to it when its own was removed (files, format-spec.md
	 * 2.6)?  NULL where a segment has no other names.
	 */
	int	(*orphan)(const struct shmids_info *si, const char *h, size_t n);
};
SHMIDS_HIDDEN extern const struct shmids_backend shmids_sysv;
SHMIDS_HIDDEN extern const struct shmids_backend shmids_file;
/*
 * backend.c: every store, in the order shmids_scan() reads and reports
 * them, NULL-terminated; SHMIDS_NSTORES of them.  A new backend is one
 * more entry there.
 */
#define SHMIDS_NSTORES	2
SHMIDS_HIDDEN extern const struct shmids_backend *const
			shmids_stores[SHMIDS_NSTORES + 1];
/* The backend an id names, and the one new segments go to (SHMIDS_DIR). */
SHMIDS_HIDDEN const struct shmids_backend *shmids_be_of(const char *id);
SHMIDS_HIDDEN const struct shmids_backend *shmids_be_new(void);
/* Is a segment of size bytes worth a lever that pays from min bytes? */
SHMIDS_HIDDEN int	shmids_tuned(size_t size, size_t min);
#define TUNE_MIN	(1u << 20)	/* bytes; below this faults are cheap */
SHMIDS_HIDDEN int	shmids_populate(const struct att *a, int rdonly);
/* A reader's populate: only the pages someone wrote (backend.c). */
SHMIDS_HIDDEN void	shmids_populate_resident(const struct att *a);
/*
 * A reader's populate of len bytes of a from byte off (cut to a's
 * size), if that is 16 pages or more: shorter runs fault on demand.
 */
SHMIDS_HIDDEN void	shmids_populate_run(const struct att *a, size_t off,
			    size_t len);
#define HUGE_GRAIN	((size_t)2 << 20)	/* a transparent huge page */
/*
 * backend.c: a writer's new System V segment a, attached and not yet
 * written, asks for transparent huge pages (madvise(2) MADV_HUGEPAGE)
 * if it is HUGE_GRAIN bytes or more, header included, and SHMIDS_NOTUNE
 * is not set (format-spec.md 2.5, Page size).  Never fails; errno kept.
 */
SHMIDS_HIDDEN void	shmids_seg_huge(const struct att *a);

/*
 * info.c: d for count elements, a table of cols columns (0: 1-D) stored
 * in order (SHMIDS_ROWMAJOR or SHMIDS_COLMAJOR) (format-spec.md 2.7).
 */
SHMIDS_HIDDEN void	shmids_dims_of(struct shmids_dims *d, size_t count,
			    size_t cols, int order);

/*
 * info.c: 0 if si is a file segment whose owner (si->uid, from the
 * system) is not the uid its name carries (format-spec.md 2.6); else 1.
 */
SHMIDS_HIDDEN int	shmids_made_by_owner(const struct shmids_info *si);

/*
 * trust.c: may a reader read the file segment id, whose file owner is
 * owner (format-spec.md 2.6, Whose segment)?  1 if its name carries
 * owner's uid, or, for the old form (no uid), if owner is the reader
 * (euid), root, or named in SHMIDS_OLD_OWNERS; 1 for a System V id;
 * else 0.  errno kept.
 */
SHMIDS_HIDDEN int	shmids_reads_owner(const char *id, uid_t owner);

/*
 * shortdir.c: short names for long directories (format-spec.md 2.6, Long
 * directories).
 *
 * shmids_dir_open: open the directory dir (an absolute path) of a file
 * segment whose name carries uid (the caller's for the old form), as
 * open(2) O_DIRECTORY would, but follow a symbolic link as its last name
 * only if the link, and the directory holding it, belong to uid or root
 * and that directory is a real one no group or other may write; else
 * ESTALE.  A descriptor, or -1 with errno.
 */
SHMIDS_HIDDEN int	shmids_dir_open(const char *dir, uid_t uid);
struct stat;
/*
 * shmids_short_make: the short name for the directory real (its real
 * path) into out (size bytes): <base>/shmids-<uid>/<tag>, a link to it
 * made if missing, in a directory of the caller's own (made if missing,
 * mode 0755); base is SHMIDS_SHORTDIR or /tmp.  Its length, or -1 with
 * errno: EPERM (that directory is another user's, or uid is not the
 * caller's and the caller is not root), ENOSPC (no free tag), or what
 * mkdir(2), open(2) or symlink(2) said.
 */
SHMIDS_HIDDEN int	shmids_short_make(const char *real, uid_t uid,
			    char *out, size_t size);
/*
 * shmids_short_find: the short name owner has for the directory real,
 * whose stat is *dst (NULL: not checked), by the rules of
 * shmids_dir_open(), into out: 1, or 0 if there is none.  errno kept.
 */
SHMIDS_HIDDEN int	shmids_short_find(const char *real,
			    const struct stat *dst, uid_t owner, char *out,
			    size_t size);
/* shmids_short_len: the length of uid's short names; (size_t)-1 none. */
SHMIDS_HIDDEN size_t	shmids_short_len(uid_t uid);
/*
 * shmids_short_why: why the caller (uid) can have no short name for the
 * directory real, into why, or NULL if it can (format-spec.md 2.6).
 */
SHMIDS_HIDDEN const char *shmids_short_why(const char *real, uid_t uid,
			    char *why, size_t whysize);

/*
 * file.c: the bytes the file segment id has allocated, if fewer than
 * len (less 64 KiB of slack); -1 if not, or if it cannot be told
 * (format-spec.md 2.6, Holes).  errno unchanged.
 */
SHMIDS_HIDDEN long long	shmids_file_alloc(const char *id, size_t len);

/* label.c; shmids_name_check() and shmids_id_check() are public. */
SHMIDS_HIDDEN int	shmids_label_parse(const char *s, size_t len,
			    size_t *idlen, const char **name, size_t *namelen);
SHMIDS_HIDDEN size_t	shmids_label_make(char *buf, const char *id,
			    const char *name, size_t namelen);

/* header.c */
SHMIDS_HIDDEN size_t	shmids_hdr_labelid(const char *h, size_t n,
			    char id[SHMIDS_LABEL_MAX + 1]);
SHMIDS_HIDDEN void	shmids_hdr_write(char *h, const char *id,
			    const char *name, int type, size_t count,
			    size_t cols, int order);
/* Is v a header version this library reads ('1' to '4': 4 a stream)? */
SHMIDS_HIDDEN int	shmids_hdr_known(int v);
SHMIDS_HIDDEN int	shmids_hdr_read(const volatile char *h, size_t size,
			    const char *id, const char *want, size_t wantlen,
			    struct hdr *out);
SHMIDS_HIDDEN int	shmids_hdr_residue(const char *h, size_t n, size_t size);
/* hdr_write()'s order for a stream's header, version 4 (10.1) */
#define HDR_STREAM	'S'
SHMIDS_HIDDEN int	shmids_hdr_state(const volatile char *h);
SHMIDS_HIDDEN void	shmids_hdr_seal(char *h);
SHMIDS_HIDDEN int	shmids_writer_state(pid_t cpid);
SHMIDS_HIDDEN int	shmids_proc_stat(pid_t pid, char *state,
			    unsigned long long *start);

/*
 * wake.c: readers woken on seal (format-spec.md 2.2).  shmids_wait()
 * sleeps up to ns nanoseconds while the state at h is 'w'; 1 if it may
 * have changed; errno kept.
 */
SHMIDS_HIDDEN long long	shmids_now_ns(void);	/* CLOCK_MONOTONIC */
SHMIDS_HIDDEN void	shmids_wake(char *h);
SHMIDS_HIDDEN int	shmids_wait(char *h, long long ns);
/* wake.c: any futex word of a segment (a stream's, 10.6): see there. */
SHMIDS_HIDDEN void	shmids_futex_wake(uint32_t *w, int n);
SHMIDS_HIDDEN int	shmids_futex_wait(uint32_t *w, uint32_t val,
			    long long ns);

/*
 * Streams (format-spec.md section 10): lib/stream/'s ways in.  A
 * stream's segment is no entry of the registry: lib/stream/ keeps its
 * handles, ends them at exit and knows its forks.
 *
 * segment.c: shmids_seg_stream_make() makes a segment of SHMIDS_HEADER
 * + nbytes bytes, header version 4 (type raw, count nbytes, state 'w'),
 * attached read-write at a->addr, mode 0600 while init(a->addr, arg)
 * writes the stream header, then mode (a file writer's lock narrowed to
 * the header first, 10.3); id gets its id.  0, or -1 with errno (those
 * of shmids_create(), or init's), nothing left behind.
 * shmids_seg_stream_attach() attaches the segment label names read and
 * write (ATT_RDWR), checks its header (2.3 up to the state: ESTALE,
 * EBADMSG; EMEDIUMTYPE unless version 4) and keeps the declared bytes,
 * populated (2.5); *hd is the header, si what the system said.
 * shmids_seg_stream_end() seals (state 'r'; the file writer's lock
 * given up) and wakes the seal's waiters (2.2).
 * shmids_seg_unlink() removes the segment attached at a, by id, if id
 * still names it (files: the same inode): 0, or -1 with errno.
 */
SHMIDS_HIDDEN int	shmids_seg_stream_make(const char *name, int mode,
			    size_t nbytes, int (*init)(char *, void *),
			    void *arg, const struct shmids_backend **be,
			    char id[SHMIDS_LABEL_MAX + 1], struct att *a);
SHMIDS_HIDDEN int	shmids_seg_stream_attach(const char *label,
			    const struct shmids_backend **be,
			    struct shmids_info *si, struct hdr *hd,
			    struct att *a);
SHMIDS_HIDDEN void	shmids_seg_stream_end(const struct shmids_backend *be,
			    struct att *a);
SHMIDS_HIDDEN int	shmids_seg_unlink(const struct shmids_backend *be,
			    const struct att *a, const char *id);
/*
 * file.c: byte-range OFD locks on an attached file segment (a->fd), for
 * a stream's writer and readers (10.5).  shmids_file_lock(): type
 * F_WRLCK, F_RDLCK or F_UNLCK on len bytes from off (len 0: to the
 * end), without waiting: 0, or -1 with errno (EAGAIN: held by another).
 * shmids_file_held(): is any byte of the range locked by another open
 * file description?  1, 0, or -1 when it cannot be told; a->fd, or if
 * that is -1 the file id names, opened for the look.
 */
SHMIDS_HIDDEN int	shmids_file_lock(const struct att *a, int type,
			    size_t off, size_t len);
SHMIDS_HIDDEN int	shmids_file_held(const struct att *a, const char *id,
			    size_t off, size_t len);

/* registry.c: segments this process has attached through the library */
struct seg {
	struct att	 a;
	const struct shmids_backend *be;
	pid_t		 writer;	/* pid that made it here, or 0 */
	char		 id[SHMIDS_LABEL_MAX + 1];
	/*
	 * What the header said at attach (or what the writer wrote): one
	 * snapshot for shmids_label() and shmids_array(), whatever a
	 * writer rewrites later.
	 */
	char		 label[SHMIDS_LABEL_MAX + 1];
	int		 type;
	size_t		 count;		/* elements */
	size_t		 cols;		/* a table's columns, 0 for 1-D */
	int		 order;		/* SHMIDS_ROWMAJOR, or COLMAJOR (v3) */
	/*
	 * The family pipe (registry.c) that the segments unsealed at a
	 * fork share, -1 -1 if none, and its identity, to know it again
	 * at exit; closed: shmids_close() was called, detach waits for the
	 * family to be let go.
	 */
	int		 fam[2];
	dev_t		 famdev;
	ino_t		 famino;
	int		 closed;
};
SHMIDS_HIDDEN struct seg *shmids_reg_find(const void *addr);
SHMIDS_HIDDEN int	shmids_reg_add(const struct shmids_backend *be,
			    const struct att *a, pid_t writer, const char *id,
			    const char *label, int type, size_t count,
			    size_t cols, int order);
SHMIDS_HIDDEN void	shmids_reg_del(struct seg *s);
SHMIDS_HIDDEN void	shmids_reg_seal(struct seg *s);
SHMIDS_HIDDEN void	shmids_reg_sealall(void);
/* Exit and fork handlers, once; -1 with ENOMEM. */
SHMIDS_HIDDEN int	shmids_reg_init(void);
/* shmids_close()'s part: seal if last writer, detach; errno kept. */
SHMIDS_HIDDEN void	shmids_reg_close(struct seg *s);

#endif /* SHMIDS_SEG_H */
