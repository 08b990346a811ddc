/*
 * shmids: labelled System V shared memory segments for ASCII pipelines.
 *
 * After Eric Grosse, "How Shall We Connect Our Software Tools?", AT&T Bell
 * Laboratories, 1990: keep the ASCII files, move only the big arrays into
 * shared memory, and write a reference line such as
 *
 *	coeff shmids 402 simdat-3/23-seriesb
 *
 * where the array used to be.  format-spec.md in the source tree is the
 * contract for every layout and error named here.
 *
 * Conventions for every function below:
 *  - "shm" is the address of a segment's 128-byte header, as returned by
 *    shmids_create_array(), shmids_create_matrix() or shmids_open_flags();
 *    the payload starts SHMIDS_HEADER bytes later.
 *  - Sizes called nbytes are in bytes; sizes called count are in elements.
 *  - On failure a function returns NULL or -1 and sets errno; it never
 *    prints and never exits.  errno is left unchanged on success.
 *  - Labels and names are NUL-terminated C strings.
 *  - Not async-signal-safe.  The list of attached segments the library
 *    keeps is not locked: call create/open/close/seal from one thread, or
 *    serialise them yourself.
 *  - A function that converts a big array on threads of its own says so
 *    (shmids_values_read(); format-spec.md 6.2).  Those threads are
 *    POSIX threads that block every signal, are joined before it
 *    returns, and touch only the caller's text and values: no callback,
 *    no global state.  Making or attaching a segment of 32 MiB or more
 *    populates its pages on such threads too (format-spec.md 2.5): they
 *    touch only that segment's pages.  shmids_par() alone runs the
 *    caller's own function on such threads, as it is asked to.
 *
 * The designed calls (shmids 1.7), one a concern, in the sections below;
 * the tools (cmd/) call these and no other:
 *  - element types: shmids_type_size(), shmids_type_name(),
 *    shmids_type_parse();
 *  - segments: make shmids_create_array() (1-D), shmids_create_matrix()
 *    (a table, either order); shmids_seal(), shmids_close(); open
 *    shmids_open_flags(); shmids_release(); an attached segment
 *    shmids_label(), shmids_array(), shmids_dims(); a segment by id, and
 *    all of them, shmids_stat_dims(), shmids_scan_dims(); remove
 *    shmids_remove() (by label, its header checked), shmids_remove_info()
 *    (a cleaner's), shmids_remove_id() (by id, unchecked); labels
 *    shmids_name_check(), shmids_id_check(), shmids_label_check(),
 *    shmids_id_uid(); shmids_dir(); shmids_advise_huge();
 *  - threads: shmids_threads(), shmids_par();
 *  - the ASCII text: a field shmids_put(), shmids_get(),
 *    shmids_array_free(), shmids_field_check(); a value shmids_format(),
 *    shmids_parse(), shmids_parsen(), shmids_isblank(), shmids_isnumber();
 *    what a line is shmids_line_kind(), shmids_line_next(),
 *    shmids_line_run(), shmids_continued(), shmids_row_parse(); an
 *    array's values shmids_values_read(), shmids_values_free(); writing
 *    shmids_layout_init(), shmids_emit(), shmids_emit_matrix(); input
 *    that is no text, shmids_compressed();
 *  - errors in the user's terms: shmids_explain().
 * The calls that 1.0 to 1.6 grew one at a time are in the last section,
 * "Calls kept for 1.x programs": each is a thin wrapper over a designed
 * call, kept so that no program built against libshmids.so.1 breaks
 * (the soname stays 1, nothing exported is removed).  New code calls
 * the designed ones.
 */
#ifndef SHMIDS_H
#define SHMIDS_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Built with -fvisibility=hidden: what is declared here is exported. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/*
 * This header's version, major.minor.patch; the Makefile takes the
 * library's version (its file name, shmids.pc) from SHMIDS_VERSION.
 */
#define SHMIDS_VERSION		"1.7.0"
#define SHMIDS_VERSION_MAJOR	1
#define SHMIDS_VERSION_MINOR	7
#define SHMIDS_VERSION_PATCH	0

#define SHMIDS_HEADER		128	/* bytes of header before the payload */
#define SHMIDS_NAME_MAX		64	/* bytes in a name, NUL excluded */
#define SHMIDS_LABEL_MAX	75	/* bytes in a label, NUL excluded */
#define SHMIDS_NUM_MAX		32	/* bytes for one formatted value, NUL included */
#define SHMIDS_COLS_MAX		9999999	/* columns of a table (format-spec.md 2.7) */

/*
 * ---------------------------------------------------------------------
 * Element types (format-spec.md section 4; lib/types.c): both layers
 * use them, the header to record an array's type, the text to read
 * and write its values.
 * ---------------------------------------------------------------------
 */

/*
 * Element types (format-spec.md section 4): the values 0 to 4 are the ABI
 * (bindings pass them); sizes in bytes, shmids_type_size(): 1, 8, 4, 8, 4.
 */
enum shmids_type {
	SHMIDS_RAW = 0,		/* bytes of unknown meaning */
	SHMIDS_F64,		/* IEEE 754 binary64 */
	SHMIDS_F32,		/* IEEE 754 binary32 */
	SHMIDS_I64,		/* int64_t */
	SHMIDS_I32		/* int32_t */
};

/*
 * Type helpers: shmids_type_size() gives the element size in bytes (0 for
 * an unknown type); shmids_type_name() the name ("f64", ...; NULL for an
 * unknown type); shmids_type_parse() the type for a name, or -1 with
 * EINVAL.
 */
size_t	 shmids_type_size(int type);
const char *shmids_type_name(int type);
int	 shmids_type_parse(const char *name);

/*
 * ---------------------------------------------------------------------
 * Segments (format-spec.md sections 1, 2 and 7; lib/seg/): labels,
 * making, opening, sealing and closing, what a segment holds, what the
 * system says of it, removal.
 * ---------------------------------------------------------------------
 */

/*
 * A typed view of an array, filled by shmids_array() or shmids_get().
 * data points at count elements of type, in native byte order; data is
 * NULL when count is 0.  The two private fields record what
 * shmids_array_free() must release; do not touch them.
 */
struct shmids_array {
	void		*data;
	size_t		 count;		/* elements */
	int		 type;		/* enum shmids_type */
	void		*shm_;		/* private: header attached by shmids_get() */
	void		*buf_;		/* private: malloc'd by shmids_get() */
};

/*
 * What the system and the header say of one segment; filled by
 * shmids_stat_dims() and shmids_scan_dims().  System fields are read before the
 * segment is attached, so the times are the ones other programs left.
 * For a file segment (format-spec.md 2.6) shmid is -1, key, cpid, lpid
 * and dtime are 0, ctime is the file's birth (else modification) time,
 * atime its access time, and nattch 1 if any process holds a lock on it
 * (attached or filling), else 0.
 */
struct shmids_info {
	int		 shmid;		/* -1 for a file segment */
	char		 id[SHMIDS_LABEL_MAX + 1]; /* label's first token: shmid or path */
	int		 key;		/* IPC key, 0 for IPC_PRIVATE */
	unsigned	 mode;		/* permission bits, 0777 mask */
	int		 removed;	/* marked for removal, still attached */
	uid_t		 uid, cuid;	/* owner, creator */
	gid_t		 gid, cgid;
	size_t		 size;		/* bytes, header included */
	unsigned long	 nattch;	/* processes attached */
	pid_t		 cpid, lpid;	/* creator, last attach/detach */
	time_t		 atime, dtime, ctime; /* last attach, detach; creation */
	/*
	 * ours: 1 the header was read and is ours (format-spec.md 2.4);
	 * 0 not ours, or not looked at; -1 may be ours but could not be
	 * read (errno in err: EACCES, or EBADMSG for a corrupt header, whose
	 * label is then filled in); 2 ours but broken: residue of a writer
	 * killed before it wrote its header (all NUL, or an empty file;
	 * format-spec.md 2.4), or a file segment's orphan, a name left to it
	 * once its own name was removed (2.6), with no label (empty) and no
	 * name (NULL).
	 * -2 is not a segment: shmids_scan() could not read a store (see
	 * there).  -3 is a name of a segment's in SHMIDS_DIR that was not
	 * examined (SHMIDS_SKIPPED): err is why (EXDEV a mount point, or
	 * the errno of its stat, EACCES say), and only shmid (-1) and id
	 * are set besides.  ours 0 with err EPROTONOSUPPORT: a shmids
	 * header of a later version than this library reads
	 * (format-spec.md 9); with err EPERM: a file segment whose name
	 * says another uid made it than the file's owner (2.6), never
	 * read.  The fields below are valid only when ours
	 * is 1.
	 */
	int		 ours;
	int		 err;
	char		 label[SHMIDS_LABEL_MAX + 1];
	const char	*name;		/* points into label */
	int		 type;		/* enum shmids_type */
	size_t		 count;		/* elements */
	int		 state;		/* 'r' ready, 'w' filling, 'd' writer died */
};

/*
 * The order of a table's elements in its payload (format-spec.md 2.7):
 * row by row (numpy's order 'C'; header version 2), or column by column
 * (Fortran, R, numpy's order 'F'; header version 3).  The values are the
 * characters numpy uses for them.  Library 1.4.
 */
#define SHMIDS_ROWMAJOR	'C'	/* row by row: numpy C order */
#define SHMIDS_COLMAJOR	'F'	/* column by column: Fortran, R */

/*
 * A segment's dimensions as meant (format-spec.md 2.7): a table of rows
 * x cols elements (ndim 2) stored in order, or a 1-D array (ndim 1, rows
 * the count, cols 1, order SHMIDS_ROWMAJOR); rows * cols is the count.
 * Element (i, j) of a table is element i * cols + j of the payload for
 * SHMIDS_ROWMAJOR, i + j * rows for SHMIDS_COLMAJOR.  ndim 0: unknown
 * (a header not read, or not ours), and order 0.  It says what the
 * writer meant (unlike struct shmids_shape of the calls kept for 1.3
 * programs, below, which holds a column-major table's transpose).  The
 * header holds two dimensions at most; an N-D shape lives in the ASCII
 * file.  Library 1.4.
 */
struct shmids_dims {
	int		 ndim;		/* 1, 2; 0 unknown */
	int		 order;		/* SHMIDS_ROWMAJOR, SHMIDS_COLMAJOR */
	size_t		 rows, cols;	/* elements */
};

/* Flags for shmids_scan_dims(), shmids_stat_dims(), shmids_remove_info(). */
#define SHMIDS_ALL	0x1	/* scan: report other programs' segments too */
#define SHMIDS_NOHDR	0x2	/* never attach: kernel data only */
#define SHMIDS_IDLE	0x4	/* remove only if no process is attached */
#define SHMIDS_SKIPPED	0x8	/* scan: report names not examined (ours -3) */
/* Flags for shmids_open_flags(). */
#define SHMIDS_LAZY	0x10	/* populate nothing: pages map as first read */

/*
 * shmids_create_array: make a segment of SHMIDS_HEADER + count *
 * shmids_type_size(type) bytes for count elements of type (enum
 * shmids_type; SHMIDS_RAW: count bytes of unknown meaning, the paper's
 * shm_create()), write its header (label "<shmid> <name>"; the paper's
 * Figure 1; type and count recorded, so readers need no arithmetic) and
 * return the header's address, attached read-write.  With SHMIDS_DIR set
 * in the environment (not empty) the segment is a file in that directory
 * instead, labelled "<path> <name>" (format-spec.md 2.6).  The payload,
 * at shm + SHMIDS_HEADER, is zero.  The segment gets exactly
 * mode & 0777 (no umask) and outlives the process; it is in state
 * "filling" until shmids_seal(), shmids_close() or a normal exit.
 * Errors: EINVAL (mode has bits outside 0777, bad name byte, empty name,
 * unknown type, or the kernel refuses the size), ENAMETOOLONG (name
 * over 64 bytes; for a file segment, path and name over 74), ENOMEM (count * size overflows,
 * or no memory), ENOSPC (kernel.shmmni or kernel.shmall reached; for a file
 * segment, a full file system), EFBIG (a file segment over the file
 * size limit, ulimit -f: the SIGXFSZ this raises is blocked and taken,
 * one pending before stays), and those of shmget(2) and shmat(2), or
 * for a file segment of realpath(3), mkstemp(3), ftruncate(2), mmap(2),
 * and ENOSYS where the system lacks F_OFD_SETLK.  Every version of
 * shmids reads the segment (header version 1).
 */
void	*shmids_create_array(const char *name, int mode, int type,
	    size_t count);

/*
 * shmids_create_matrix: as shmids_create_array() for a table of rows x
 * cols elements of type whose payload the caller fills in order:
 * SHMIDS_ROWMAJOR (row by row, element (i, j) at index i * cols + j;
 * header version 2, which shmids 1.1 refuses as not a segment of its
 * version) or SHMIDS_COLMAJOR (column by column, as Fortran and R hold a
 * matrix: element (i, j) at index i + j * rows).
 * A column-major table with rows > 1 and cols > 1 gets header version 3
 * (format-spec.md 2.7), which shmids 1.3 and older refuse (ESTALE, "a
 * header of a later version") and so never misread; with one row or one
 * column both orders are the same bytes, and the header is version 2,
 * which shmids 1.2 reads: shmids_dims() then says SHMIDS_ROWMAJOR.  A
 * 1-D array is best made by shmids_create_array(), which every version
 * reads.  Sizes in elements: rows may be 0, cols is 1 to
 * SHMIDS_COLS_MAX; the payload is rows * cols * shmids_type_size(type)
 * bytes, zero.  Returns the header's address as shmids_create_array();
 * seal and close as for it.  Errors: those of shmids_create_array(),
 * EINVAL also for cols 0 or over SHMIDS_COLS_MAX or an order other than
 * SHMIDS_ROWMAJOR and SHMIDS_COLMAJOR, ENOMEM if rows * cols overflows.
 * Library 1.4.
 */
void	*shmids_create_matrix(const char *name, int mode, int type,
	    size_t rows, size_t cols, int order);

/*
 * shmids_seal: mark a segment this process made (or inherited by fork
 * from its writer) as ready (state 'r') after filling it; readers never
 * see a segment before it is sealed.  Idempotent.  Errors: EINVAL (shm
 * not from shmids_create*() in this process or its forked parent).
 */
int	 shmids_seal(void *shm);

/*
 * shmids_open_flags: attach read-only the segment named by label
 * ("<shmid> <name>" or "<path> <name>", optionally followed by one "\n";
 * a file segment holds one file descriptor while attached) after
 * checking that its header carries exactly that label and is whole
 * (format-spec.md 2.3).  Returns the header's address; the memory is not
 * writable, and only the header and the payload it declares are mapped
 * (files) or populated, whatever the segment's size; of those, only
 * pages someone wrote are populated (a sparse segment's holes read as
 * zeros and are allocated only as the caller reads them).  The segment
 * is closed with shmids_close().
 * seconds: while the segment's writer is still filling it, wait for the
 * seal up to seconds seconds in all (measured on CLOCK_MONOTONIC; 0 tries
 * once), then try a last time.  On Linux the seal wakes the waiter at
 * once (a futex on the header, format-spec.md 2.2); every 100 ms at most
 * it also checks again whether the writer died and whether a writer that
 * wakes nobody sealed (10 ms polls where there is no futex).
 * flags: 0, or SHMIDS_LAZY: attach without populating any page of the
 * payload (format-spec.md 2.5), for a caller that reads part of it, or
 * reads it over time; each page is mapped when first read, a page fault
 * each (on System V one per page: more in all than the populate, for a
 * caller that reads everything at once).  Every check is made all the
 * same: label, header, state, declared bytes.
 * Errors: EINVAL (label malformed, seconds negative or NaN, a flag other
 * than SHMIDS_LAZY), ENAMETOOLONG, ENOENT (no such segment, or removed),
 * EACCES, ESTALE (the shmid names a segment whose header does not carry
 * this label, or no shmids header at all: a stale reference; a file
 * owned by another than its name's uid, or of the old form and owned by
 * an owner the reader does not read, 2.6), EMLINK (a file segment with
 * another name, 2.6), EBADMSG
 * (header corrupt or claims more than the segment holds), EAGAIN (writer
 * still filling when the time was up), EOWNERDEAD (writer died before
 * sealing, meanwhile or before), ENOMEM, EXDEV (the path is a mount
 * point, whose file system is never asked).  Library 1.2.
 */
void	*shmids_open_flags(const char *label, int flags, double seconds);

/*
 * shmids_release: drop from this process's memory the pages that hold
 * payload bytes off to off + nbytes - 1 of the attached segment shm
 * (shmids_open_flags() or shmids_create*(); off and nbytes in bytes from the
 * payload's start), with madvise(2) MADV_DONTNEED: the data stays in
 * the segment, and reading (or, for the writer, writing) those bytes
 * again maps them again.  A filter that works window by window and
 * releases each window once done holds a window of its input, not all
 * of it (format-spec.md 2.5).  Whole pages: one that holds a byte of
 * the range goes, its other bytes too (none is lost); on huge pages
 * (SHM_HUGETLB, 2 MiB), only the huge pages inside the range go.
 * nbytes 0 does nothing.  Returns 0, or -1 with errno: EINVAL (shm not
 * attached by this library, or the range goes past the payload), or
 * madvise(2)'s.
 * Threads may read and write the payload meanwhile; the call looks shm
 * up in the library's list as shmids_array() does (see the conventions
 * at the top).  Library 1.2.
 */
int	 shmids_release(const void *shm, size_t off, size_t nbytes);

/*
 * shmids_close: detach shm (from shmids_open_flags() or shmids_create*()); a
 * segment this process made is sealed first, unless a process forked
 * from its writer may still fill it (the last writer to let go seals,
 * format-spec.md 2.2).  The segments a fork shared are let go together:
 * while this process holds others of them, shm stays attached, hidden
 * (later calls find it no more), till it has closed them all or exits.
 * A fork costs 2 descriptors (one pipe for the segments it shares),
 * kept till then.  The exit seal cannot tell a forked filler killed from
 * one that finished: a parent whose fillers may die waits for them and,
 * if one failed, removes the segment or ends with _exit(2).  The segment
 * itself stays.
 * Errors: EINVAL (shm not attached by this library).
 */
int	 shmids_close(void *shm);

/*
 * shmids_remove: remove the segment named by label, after checking its
 * header carries that label.  Processes attached keep their mapping until
 * they detach (shmctl(2) IPC_RMID).  Errors: as shmids_open_flags()
 * except EAGAIN and EOWNERDEAD, plus EPERM (not the owner or creator).
 */
int	 shmids_remove(const char *label);

/*
 * shmids_label: the label of an attached segment, as checked when it was
 * attached (a copy the library owns, valid until shmids_close(); unlike
 * shm itself as a C string, a writer rewriting the header cannot change
 * it).  NULL with EINVAL if shm is not attached by this library.
 */
const char *shmids_label(const void *shm);

/*
 * shmids_array: fill a with the payload's address, element type and count
 * as the header declared them when the segment was attached (made, or
 * checked by shmids_open_flags()): the same snapshot as shmids_label(), and the
 * only bytes mapped, whatever a writer rewrites later.  a does not own
 * anything: do not pass it to shmids_array_free().
 * Errors: EINVAL (shm not attached by this library).
 */
int	 shmids_array(const void *shm, struct shmids_array *a);

/*
 * shmids_dims: fill d with the dimensions of an attached segment as its
 * writer meant them, and the order of its payload (format-spec.md 2.7),
 * from the same snapshot as shmids_array().  A 1-D segment is ndim 1,
 * rows the count, cols 1, SHMIDS_ROWMAJOR.  Returns d->ndim (1 or 2), or
 * -1 with EINVAL (shm not attached by this library).  Library 1.4.
 */
int	 shmids_dims(const void *shm, struct shmids_dims *d);

/*
 * shmids_stat_dims: system data for the segment id names (a shmid in
 * decimal, or a file segment's path: a label's first token) into si;
 * unless flags has SHMIDS_NOHDR, the header of a segment of 128 bytes or
 * more is read too (one read-only attach; a file is read, not mapped),
 * whatever its key: the id was named, as a reader's label is.  d, unless
 * NULL (library 1.5; 1.4 needs it), gets the segment's dimensions as
 * meant and its order, as shmids_dims() gives them (ndim 0 and order 0
 * unless si->ours is 1), read from the same header copy.  si and d are
 * the caller's.  Returns 0, or -1 with errno (format-spec.md 2.3, 2.7):
 * EINVAL (id malformed), ENOENT (no such segment, or one marked for
 * removal, as shmids_open_flags() says), EACCES (for the system data;
 * header errors go in si->err with si->ours -1), ESTALE (a path that is
 * not a regular file), EXDEV (a mount point).  Library 1.4.
 */
int	 shmids_stat_dims(const char *id, struct shmids_info *si,
	    struct shmids_dims *d, int flags);

/*
 * shmids_remove_info: remove the segment si describes (from shmids_scan_dims()
 * or shmids_stat_dims(), header already checked by the caller) without
 * attaching it again: for cleaners, which then attach each segment once.
 * The system data is read again first; the segment goes only if it is
 * still the same one (shmid and creation time and creator; for a file,
 * path, creation time and size) and not already removed,
 * and with SHMIDS_IDLE only if no process is attached, shutting new
 * readers out until it is gone (all but root's for System V; the mode
 * is 0 meanwhile: format-spec.md section 7).  Errors: ENOENT (gone, or
 * already removed), ESTALE (the shmid names another segment now), EBUSY
 * (attached, or changed since si was filled, with SHMIDS_IDLE), EPERM,
 * EACCES.
 */
int	 shmids_remove_info(const struct shmids_info *si, int flags);

/*
 * shmids_scan_dims: call fn(si, d, arg) for each of our segments (with
 * SHMIDS_ALL, each System V segment), in shmid order, then for the file
 * segments in SHMIDS_DIR if set, in path order.  Each segment is attached at most
 * once, and only if its key (or file name) is ours and it has at least
 * 128 bytes.  A name in SHMIDS_DIR that cannot be examined is that
 * name's trouble, not the directory's: a mount point (a user's FUSE
 * file system, which is never asked anything, so it cannot make the scan
 * wait), or one whose stat fails (EACCES, EIO) is skipped, and with
 * SHMIDS_SKIPPED reported to fn in path order with ours -3.  A store
 * that cannot be read, wholly or in part (SHMIDS_DIR missing, unreadable
 * or not searchable; the System V segment table; memory or descriptors
 * running out), does not stop the scan: after every segment that could
 * be read, fn is called once for
 * each such store with an si whose ours is -2, err the errno, shmid -1
 * for SHMIDS_DIR and 0 for the System V table, and nothing else set, as
 * nftw(3) reports a directory it cannot read.  fn returns 0 to go on, or
 * a positive value that stops the scan and is returned.  Returns 0, that
 * value, or -1 with ENOMEM (nothing reported).  d is each segment's
 * dimensions and order, as shmids_stat_dims() gives them (ndim 0 and
 * order 0 where si->ours is not 1, and for the unreadable stores'
 * infos); d, like si, is valid during the call.  Library 1.4.
 */
int	 shmids_scan_dims(int (*fn)(const struct shmids_info *,
	    const struct shmids_dims *, void *), void *arg, int flags);

/*
 * shmids_dir: where file segments live: SHMIDS_DIR as the environment
 * holds it (not resolved), or NULL when it is unset or empty, when new
 * segments are System V ones and shmids_scan_dims() reads no directory
 * (format-spec.md 2.6).  The one place that rule is decided.  The string
 * is getenv(3)'s: valid until the environment changes; not thread-safe
 * against setenv(3).
 */
const char *shmids_dir(void);

/*
 * Checks of a label's parts (format-spec.md 1), on s[0..len) (no NUL
 * needed).  Each returns 0, or -1 with errno.
 * shmids_name_check: 1 to 64 printable ASCII bytes other than space;
 * EINVAL (empty, or another byte), ENAMETOOLONG (longer).
 * shmids_id_check: a shmid (decimal, no sign, no leading zero, at most
 * INT_MAX) or a file segment's absolute path ".../shmids.<uid>.XXXXXX"
 * (or the old form ".../shmids.XXXXXX" of shmids 1.3) short enough for
 * a label to hold it beside a name (73 bytes at most); *shmid (if shmid
 * is not NULL) is the shmid, or -1 for a path; EINVAL.
 * shmids_label_check: "id SP name", at most 75 bytes; EINVAL (a part
 * malformed, no space), ENAMETOOLONG (too long).
 */
int	 shmids_name_check(const char *s, size_t len);
int	 shmids_id_check(const char *s, size_t len, int *shmid);

/*
 * shmids_id_uid: the uid a file segment's id (a NUL-terminated shmid or
 * path, as shmids_id_check() takes them) names its maker by
 * (format-spec.md 2.6): 1 and *uid for ".../shmids.<uid>.XXXXXX", whose
 * file every reader refuses unless that uid owns it; 0 for the old form
 * ".../shmids.XXXXXX" (shmids 1.3 and before: no maker to check) and
 * for a System V shmid (the kernel keeps its owner); -1 with EINVAL if
 * id is neither.  Looks at the string only.
 */
int	 shmids_id_uid(const char *id, unsigned long *uid);
int	 shmids_label_check(const char *s, size_t len);

/*
 * shmids_remove_id: remove the segment id names (a shmid, or a file
 * segment's path: a label's first token, NUL-terminated) at once,
 * without reading its header: whatever it is, the system decides
 * whether the caller may (the segment's owner or creator for System V,
 * the directory's permissions for a file).  For what a label or a
 * header was checked against, use shmids_remove() or
 * shmids_remove_info().  Errors: EINVAL (id malformed), ENOENT (no such
 * segment), EPERM, EACCES, and those of shmctl(2) IPC_RMID or unlink(2).
 */
int	 shmids_remove_id(const char *id);

/*
 * shmids_advise_huge: advise transparent huge pages (madvise(2)
 * MADV_HUGEPAGE) for the malloc'd buffer p of len bytes that a filter
 * grows by doubling to many MiB (shmids_values_read() does it for its
 * values; shm-import for its read buffer, which holds an array's text
 * read from a pipe): 512 times fewer page
 * faults where the system gives huge pages on request (THP "madvise").
 * The advice covers the buffer's whole pages, which for a buffer this
 * big is the whole mapping malloc made: advice on part of it would
 * split the mapping, and realloc(3) could no longer move it with
 * mremap(2) but would copy.  Nothing below 4 MiB, with SHMIDS_NOTUNE set
 * in the environment, or where the system lacks MADV_HUGEPAGE, as the
 * library tunes its own segments (format-spec.md 2.5).  Never fails;
 * errno is left unchanged.
 */
void	 shmids_advise_huge(void *p, size_t len);

/*
 * ---------------------------------------------------------------------
 * Streams (format-spec.md section 10, message references 5.1;
 * lib/stream/; shmids_stream(3)): one segment whose payload is a ring
 * of slots, through which a writer hands readers a sequence of
 * messages, each an array read and written in place.  Library 1.7.
 *
 * One writer: the process that made the stream, one thread at a time
 * (its calls on a handle are not locked).  Readers: up to
 * SHMIDS_STREAM_READERS_MAX registered at once, in any processes, each
 * handle used by one thread at a time; a process may hold several
 * handles, on one stream or many, in several threads.  Making and
 * opening are as thread-safe as shmids_create() and shmids_open() (see
 * the conventions at the top); closing is thread-safe.  A stream is
 * not an array: shmids_open() refuses it (EMEDIUMTYPE).  Waits spin
 * for at most 50 us, then sleep on a futex in the segment (no daemon);
 * a signal handler run meanwhile ends them (EINTR, as sem_wait(3)).
 * seconds, in every call that waits: how long at most, on
 * CLOCK_MONOTONIC; 0 tries once; 1e9 or more waits for ever; negative
 * or NaN is EINVAL.  At a normal exit (exit(3), return from main) the
 * library closes this process's handles as shmids_stream_close()
 * does: a writer's stream ends.  A handle inherited by fork(2) can
 * only be closed in the child (EBADF for any other call), and closing
 * it there ends and unregisters nothing.
 * ---------------------------------------------------------------------
 */

/* A stream's writer or one of its readers: opaque. */
struct shmids_stream;

/* shmids_stream_create()'s flags (format-spec.md 10.4, 10.5). */
#define SHMIDS_STREAM_OVERWRITE	0x1	/* never wait for a lagging reader */
#define SHMIDS_STREAM_KEEP	0x2	/* not removed when it ends */
/* shmids_stream_open()'s flag: start at the next message published. */
#define SHMIDS_STREAM_NEW	0x4
/* Readers registered at once in one stream (the reader table). */
#define SHMIDS_STREAM_READERS_MAX	64

/*
 * One message as a reader gets it (shmids_stream_next(),
 * shmids_stream_get()): data points at its nbytes bytes in the ring,
 * read-only, in native byte order, valid until the handle's next call
 * (never NULL, whatever nbytes).  A 1-D message is ndim 1, rows its
 * count, cols 1, order SHMIDS_ROWMAJOR; a table ndim 2, rows x cols
 * elements in order (element (i, j) at i * cols + j, or i + j * rows
 * for SHMIDS_COLMAJOR), as struct shmids_dims.  nbytes is rows * cols
 * * shmids_type_size(type).  lost: messages this reader lost just
 * before this one, lapped under the overwrite policy: those of seq
 * seq - lost to seq - 1; 0 under the wait policy, always.
 */
struct shmids_msg {
	const void	*data;
	size_t		 nbytes;	/* bytes */
	long long	 seq;		/* its sequence number, from 0 */
	long long	 lost;		/* messages */
	int		 type;		/* enum shmids_type */
	int		 ndim;		/* 1 or 2 */
	int		 order;		/* SHMIDS_ROWMAJOR, SHMIDS_COLMAJOR */
	size_t		 rows, cols;	/* elements */
};

/*
 * What a stream holds now, for listings (shmids_stream_stat()): its
 * geometry, how far its writer has come, and each registered reader.
 * head - reader[i].pos is how far reader i is behind.  A snapshot: the
 * stream moves on as it is read.
 */
struct shmids_stream_info {
	char		 label[SHMIDS_LABEL_MAX + 1];
	size_t		 slots;		/* messages the ring holds */
	size_t		 capacity;	/* bytes a message may hold */
	size_t		 stride;	/* bytes from one payload to the next */
	int		 flags;		/* SHMIDS_STREAM_OVERWRITE, _KEEP */
	int		 readers;	/* registrations the writer waits for */
	long long	 joined;	/* registrations so far */
	long long	 head;		/* messages published: the next seq */
	long long	 tail;		/* the oldest message kept */
	int		 state;		/* 'w' live, 'r' ended, 'd' writer died */
	pid_t		 writer;	/* its pid (in its pid namespace) */
	int		 nreaders;	/* entries of reader[] filled */
	struct shmids_stream_reader {
		pid_t	 pid;		/* in its pid namespace */
		long long pos;		/* the next message it reads */
		int	 held;		/* 1: it holds message pos */
		int	 alive;		/* 1, 0 dead (reclaimed when needed), -1 unknown */
	} reader[SHMIDS_STREAM_READERS_MAX];
};

/*
 * shmids_stream_create: make a stream called name (a segment, System V
 * or in SHMIDS_DIR as shmids_create() says; format-spec.md 10.1), of
 * slots slots (1 or more) each holding a message of up to capacity
 * bytes (1 or more), mode & 0777 exactly (its readers need read and
 * write permission: 0600 for the maker's alone), and return its
 * writer's handle, the stream live.  readers: the registrations the
 * writer waits for before it reuses a slot, 0 to
 * SHMIDS_STREAM_READERS_MAX (1 for a pipeline's one reader: it loses
 * nothing however late it comes; 0 never waits for one to come).
 * flags: 0 (the wait policy: the writer waits for every registered
 * reader), or SHMIDS_STREAM_OVERWRITE (it waits only for a reader that
 * holds the message whose slot it needs: lapped readers are told what
 * they lost), | SHMIDS_STREAM_KEEP (not removed when it ends and its
 * readers have gone: 10.5).  The segment is about slots * capacity
 * bytes (10.2: payloads of 4 KiB or more on pages), populated at once.
 * Its label: shmids_stream_label().  Errors: EINVAL (name, mode,
 * slots 0 or past 2^32 - 1, capacity 0, readers out of range, a flag
 * not named), and
 * those of shmids_create() (ENAMETOOLONG, ENOMEM, ENOSPC, EFBIG,
 * ENOSYS, ...).
 */
struct shmids_stream *shmids_stream_create(const char *name, int mode,
	    size_t slots, size_t capacity, int readers, int flags);

/*
 * shmids_stream_loan: the payload of the slot the next message goes
 * in, capacity bytes, writable, for the writer to fill in place (zero
 * copy), aligned to 64 bytes (4096 for a capacity of 4 KiB or more).
 * Waits up to seconds for the slot to be free, as the policy says
 * (10.4); a loan not yet published is returned again.  Returns NULL
 * with errno: EAGAIN (no room within seconds: a reader lags, or the
 * expected readers have not registered; shmids_explain() says who),
 * EINTR, EBADF (not the writer's handle, or one inherited by fork),
 * EINVAL (seconds).  A reader found dead meanwhile is reclaimed (10.5).
 */
void	*shmids_stream_loan(struct shmids_stream *s, double seconds);

/*
 * shmids_stream_publish: hand the loaned slot to the readers as the
 * next message: rows elements of type (cols 0: 1-D), or a table of
 * rows x cols in order (SHMIDS_ROWMAJOR or SHMIDS_COLMAJOR; a table of
 * one row or one column is recorded row-major, one form: 2.7); its
 * bytes are rows * cols * shmids_type_size(type), at most the
 * capacity, at the start of the loaned payload.  Returns the message's
 * sequence number (0, 1, 2, ...: the one a reference line names,
 * "field shmids <label> <seq>", format-spec.md 5.1), or -1 with errno:
 * EINVAL (no slot loaned, a type, order or cols (over
 * SHMIDS_COLS_MAX) not known), EMSGSIZE (more bytes than the
 * capacity, or an overflow), EBADF.  Wakes the readers only if one
 * sleeps.
 */
long long shmids_stream_publish(struct shmids_stream *s, int type,
	    size_t rows, size_t cols, int order);

/*
 * shmids_stream_open: register as a reader of the stream label names
 * ("<id> <name>", as shmids_open() takes it; or a message's label
 * "<id> <name> <seq>", format-spec.md 5.1, to start at message seq),
 * attached read and write (a reader writes its entry of the reader
 * table: it needs write permission), and return its handle.  It starts
 * at the oldest message the ring holds (the expected readers at
 * message 0: 10.4), at seq, or with flags SHMIDS_STREAM_NEW at the
 * next message published.  Waits up to seconds for a stream still
 * being made.  Errors: those of shmids_open() (EINVAL, ENAMETOOLONG,
 * ENOENT, EACCES: no read and write permission, ESTALE, EBADMSG: a
 * damaged stream header too, EAGAIN: still being made, EOWNERDEAD:
 * its writer died making it), EMEDIUMTYPE (not a stream), EUSERS (the
 * reader table is full), ENOMSG (message seq is gone, or past the end
 * of a stream that ended), EINTR, EINVAL (a flag not named).
 */
struct shmids_stream *shmids_stream_open(const char *label, int flags,
	    double seconds);

/*
 * shmids_stream_next: release the message the reader holds, if any,
 * and get the next one into m (read-only in place, valid until the
 * next call on s), waiting up to seconds for it.  Returns 1 with m
 * filled; 0 at the end of the stream (every message read, the writer
 * ended it), and 0 again at every later call; -1 with errno: EAGAIN
 * (none within seconds), EINTR, EOWNERDEAD (the writer died; every
 * message it published has been read: again at every later call),
 * EBADMSG (message m->seq's descriptor is damaged, forged by someone
 * who may write the stream: skipped, the next call goes on after it),
 * ENOLINK (this reader's registration was taken back: 10.5), EBADF
 * (a writer's handle, or one inherited by fork), EINVAL (seconds).
 * Messages lost under the overwrite policy are counted in m->lost.
 */
int	 shmids_stream_next(struct shmids_stream *s, struct shmids_msg *m,
	    double seconds);

/*
 * shmids_stream_get: as shmids_stream_next(), for message seq (0 or
 * more) whatever the reader's position, which follows it: the next
 * call of shmids_stream_next() gets seq + 1.  A message the ring holds
 * is handed out at once, one not yet published is waited for.  Errors:
 * those of shmids_stream_next(), and ENOMSG (seq is gone: the writer
 * has moved past it; or the stream ended before it); EINVAL (seq
 * negative).  On any failure the reader is where it was (under the
 * wait policy, at the oldest message kept if the writer moved past
 * that meanwhile: format-spec.md 10.4).  shmids_explain() with the
 * message's label says which messages the ring holds.
 */
int	 shmids_stream_get(struct shmids_stream *s, long long seq,
	    struct shmids_msg *m, double seconds);

/*
 * shmids_stream_release: let go of the message the reader holds, so
 * that the writer may reuse its slot (before a long pause; next()
 * does it anyway).  0, or -1 with EBADF.
 */
int	 shmids_stream_release(struct shmids_stream *s);

/*
 * shmids_stream_close: a writer's handle: end the stream (every reader
 * gets the end after the last message; a slot loaned and not published
 * is dropped); a reader's: unregister.  Either detaches and frees s,
 * and removes the segment if the stream has ended, its expected
 * readers have come and none is registered (unless made with
 * SHMIDS_STREAM_KEEP, or its writer died: 10.5).  A handle inherited by
 * fork is only detached and freed.  0, or -1 with EINVAL (s NULL).
 */
int	 shmids_stream_close(struct shmids_stream *s);

/*
 * shmids_stream_label: the stream's label ("<id> <name>"), a copy s
 * owns, valid until shmids_stream_close(s).
 */
const char *shmids_stream_label(const struct shmids_stream *s);

/*
 * shmids_stream_stat: what the stream named by id (a shmid or a file
 * segment's path, as shmids_stat() takes it, or a label, checked as
 * shmids_open() checks it) holds now, into si (the caller's), with one
 * read-only attach and no registration: a listing's look (shm-ls).
 * Liveness as format-spec.md 10.5 judges it.  Errors: those of
 * shmids_stat() and shmids_open(), and EMEDIUMTYPE (not a stream),
 * EAGAIN (still being made).
 */
int	 shmids_stream_stat(const char *id, struct shmids_stream_info *si);

/*
 * ---------------------------------------------------------------------
 * Threads (format-spec.md 6.2; lib/threads.c): both layers run on them,
 * segments to populate their pages, text to convert big arrays.
 * ---------------------------------------------------------------------
 */

/*
 * shmids_threads: the threads a conversion of a big array may use: the
 * CPUs this process may run on (sched_getaffinity(2): taskset(1), cgroup
 * cpusets), at most SHMIDS_THREADS_MAX, and at most SHMIDS_THREADS when
 * the environment sets it (a decimal integer, 1 for one thread).  -1
 * with EINVAL when SHMIDS_THREADS is set but is not 1..SHMIDS_THREADS_MAX;
 * the library then uses one thread.  Read at every call (getenv(3): not
 * thread-safe against setenv(3)).
 */
#define SHMIDS_THREADS_MAX	256
int	 shmids_threads(void);

/*
 * shmids_par: fn(arg, i) for every i in [0, n), on up to nthreads
 * threads (SHMIDS_THREADS_MAX at most; 1 or less: the caller's alone),
 * the caller's among them, made for the call and joined before it
 * returns: a filter's own work split the library's way (shm-import
 * reads a long array's blocks of a file with it, format-spec.md 6.2).
 * Jobs are taken in order of i, each exactly once; all are done on
 * return.  The threads block every signal but the faults (SIGBUS,
 * SIGSEGV, SIGFPE, SIGILL), so that a signal reaches the caller's
 * thread, whose handlers run as before (a job on it may see EINTR);
 * fn must be safe to run on several threads at once.  Where a thread
 * cannot be made, fewer do the work.  Returns the threads used, 1 or
 * more; errno is left unchanged.  The library's own conversions run on
 * it (shmids_values_read(), the populate of big segments).
 */
size_t	 shmids_par(size_t n, int nthreads, void (*fn)(void *, size_t),
	    void *arg);

/*
 * ---------------------------------------------------------------------
 * The ASCII text (format-spec.md sections 5 and 6; lib/text/): what any
 * filter needs to read and write the lines, as shm-expand and shm-import
 * do.  shmids_put() and shmids_get() make and open segments; the other
 * functions of this section touch no segment, are thread-safe (no
 * static state) and never print.
 * ---------------------------------------------------------------------
 */

/* ASCII styles for shmids_format() (format-spec.md section 6). */
enum shmids_style {
	SHMIDS_SHORT = 0,	/* shortest round-trip decimal; decimal for integers */
	SHMIDS_EXP,		/* %.16e / %.8e; floats only */
	SHMIDS_HEX		/* %a for floats, 0x two's complement for integers */
};
/*
 * Or'ed into a float style: every NaN as "nan" or "-nan" (R's NA and
 * payloads lost: not exact), for readers such as numpy's loadtxt that
 * read no other NaN.  Without it R's NA is "NA" and payloads are kept.
 */
#define SHMIDS_NANPLAIN	0x100

/*
 * shmids_put: write one array field to fp, either inline (name NULL; the
 * ASCII form of format-spec.md section 6, wrapped at 80 columns) or as a
 * reference line "field shmids <label>" after copying the data into a new
 * sealed segment called name with mode, which is then detached.
 * data holds count elements of type.  Returns 0, or -1 with errno from
 * shmids_create_array() or from writing fp (on a write error after the
 * segment was made, the segment is removed).  EINVAL, nothing written
 * and no segment made, for a field that would not read back as one in
 * either form (shmids_field_check(): empty, a blank, CR, LF or NUL in
 * it, a comment's "#" first (1.6), a number, a Fortran form that is no
 * value or the word shmids (1.7); format-spec.md 6).  Inline, it is
 * shmids_emit() with shmids_layout_init(field)'s layout.  Thread-safe
 * for distinct fp (it keeps no static buffer); creating a segment is not
 * (see the conventions at the top).
 */
int	 shmids_put(FILE *fp, const char *field, int type, const void *data,
	    size_t count, const char *name, int mode);

/*
 * shmids_get: read one array field in either form.  line is the field's
 * line (as read by getline(3), newline optional); if it is a reference line
 * the segment is opened and a->data points into it (no copy); otherwise the
 * values after the field are parsed, continuation lines ("/" at the end)
 * being read from fp (which may be NULL), into a malloc'd buffer.  type is
 * the element type wanted: a segment must have that type, or be raw with a
 * size that is a multiple of it.  A table reference line ("shmids id
 * name", format-spec.md 5) gives its table's rows x cols elements in
 * the payload's order (row by row; column by column for a column-major
 * table), as a reference line does (the shape and order:
 * shmids_open_flags() its label and shmids_dims()).  A number is never
 * a field (format-spec.md 6.1): a line whose first token reads as a
 * value (shmids_isnumber()) is EINVAL, and nothing is read from fp; so
 * is a comment, a line whose first token
 * begins with "#" (format-spec.md 6, 1.6: "# 1 2 3" has no field; a
 * valid reference line "# shmids 0 #" is a reference all the same).
 * line is a C string: a line that holds a NUL byte is text
 * (format-spec.md 6, 1.7), but this sees only the bytes before it; a
 * caller that reads lines with getline(3) passes none whose length is
 * not strlen(line).  Continuation lines it reads itself with their
 * length.  Release with shmids_array_free().
 * Where fp is left: nothing is read from it for a reference line or a
 * first line that is no inline array's (EINVAL, or the errors of
 * shmids_open_flags()).  For an inline array it is left after the array's
 * last line, on success and on EINVAL alike (a bad value in a
 * continuation line makes the whole array bad, its continuation lines
 * read all the same);
 * a reference line where a continuation should be ends the array
 * (EINVAL) and has been read: a caller that reads on must seek back
 * (ftello() before the call).  On a read error or ENOMEM, fp is
 * somewhere inside the line that failed.
 * Errors: those of shmids_open_flags(), EINVAL (malformed line or value,
 * a number as a field, a comment), ERANGE (value out of range),
 * EPROTOTYPE (segment of another type), ENOMEM, and read errors from
 * fp.
 */
int	 shmids_get(const char *line, FILE *fp, int type,
	    struct shmids_array *a);

/* shmids_array_free: release what shmids_get() acquired; a is zeroed. */
void	 shmids_array_free(struct shmids_array *a);

/*
 * shmids_field_check: may s[0..len) (no NUL needed; s may be NULL when
 * len is 0) be written as a field (format-spec.md 6, "A field a writer
 * may write")?  A field must read back as that field in both of its
 * forms, an inline array and a reference line, as shm-expand and
 * shm-import turn one into the other: one or more bytes, none a blank,
 * CR, LF or NUL (5, 6); not beginning with "#" (a comment, 6); not a
 * number (shmids_isnumber(), up to a comma: the line would be a row,
 * 6.1); not one of Fortran's forms that are no value ("3*", "3*0.0",
 * "0.1+101", up to a comma: text, 6); not "shmids" or "shmids," (a
 * table reference's keyword, 5).  flags 0 says that, for a writer
 * (shmids_put(), shm-import's -f and -t, Python's dump(), R's
 * shm_write()); SHMIDS_FIELD_REF the rule for the field of a reference
 * line as a reader finds it (shm-expand's -f), which a valid reference
 * line has whatever it is but empty, holding a blank, CR, LF or NUL, or
 * a number (5): "#x" and "3*" are such fields.  A field has no length
 * of its own to keep; a segment named after a field is a name, for
 * shmids_name_check() to say (on the name as made, a prefix included).
 * Returns 0 (*why, if why is not NULL, set to NULL), or -1 with errno
 * EINVAL and *why a static English phrase in the tools' words, e.g. "a
 * number is never a field (a line that begins with a number is a table
 * row)", meant to follow "prog: -f field: "; *why NULL for an unknown
 * flag.  Thread-safe; errno is left unchanged on success.  Library 1.7.
 */
#define SHMIDS_FIELD_REF	0x1	/* a reference line's field, as read */
int	 shmids_field_check(const char *s, size_t len, int flags,
	    const char **why);

/*
 * shmids_format: write one element (at elem, native order) as ASCII in
 * style to buf, which holds at least SHMIDS_NUM_MAX bytes; returns the
 * length, NUL excluded.  Exact: shmids_parse() gives the same bits back
 * (R's NA, bits 7ff00000000007a2 or f32 7f8007a2, is "NA"), but for a
 * NaN with a payload under SHMIDS_NANPLAIN.  The C locale's form in any
 * locale (radix '.', format-spec.md 6), as shmids_parse() reads it.
 * Returns 0 with EINVAL for an unknown type or a style the type lacks
 * (SHMIDS_NANPLAIN: floats only).
 */
size_t	 shmids_format(char *buf, int type, const void *elem, int style);

/*
 * shmids_parse: read one value of type from s into elem (native order).
 * The value ends at the first blank, CR, LF or NUL; *end (if end is not
 * NULL) is set there.  "NA" is R's NA for f64 and f32, and no value of
 * the other types.  Returns 0, or -1 with EINVAL (not a value of the
 * type) or ERANGE (integer out of range, or a finite decimal too large
 * for the float type).  On ERANGE of f64 or f32, elem holds the infinity
 * of the value's sign and *end is set, as strtod(3) does; on any other
 * error neither is touched.
 */
int	 shmids_parse(const char *s, const char **end, int type, void *elem);

/*
 * shmids_parsen: shmids_parse() of a value in a buffer of len bytes,
 * which need not be NUL-terminated: only s[0..len) is read, never
 * s[len].  The value ends at the first blank, CR, LF or NUL, or at s +
 * len; *end (if end is not NULL) is set there.  elem receives
 * shmids_type_size(type) bytes, native order, any alignment.  The same
 * bits, return and errno as shmids_parse() on a copy of s[0..len) with a
 * NUL after it, but without the copy, and faster: knowing the end, the
 * digits are read 8 at a time.  len 0 (s may then be NULL) is EINVAL.
 * Thread-safe; errno is left alone on success.
 */
int	 shmids_parsen(const char *s, size_t len, const char **end, int type,
	    void *elem);

/*
 * shmids_isblank: 1 if c is a blank of the ASCII form (space or tab, the
 * only token separators: format-spec.md 5, 6), else 0.  A value also
 * ends at CR, LF and NUL (shmids_parse()); a NUL byte in a line is no
 * blank, but a byte of the token it is in, which is then no value and
 * no field (format-spec.md 6, 1.7).
 */
int	 shmids_isblank(int c);

/*
 * What a line is (format-spec.md 5, 6 and 6.1), decided in one place for
 * every reader: shm-import, shm-expand, shmids_get() and the bindings.
 * shmids_line_kind() reads a line's tokens alone; shmids_line_next()
 * reads it where it stands in its file (an array's continuation lines,
 * a table block's rows) and parses its values.  Offsets and lengths
 * are bytes from the start of the line handed over; nothing points
 * into it, nothing is copied, nothing allocated but v's values.
 */
enum shmids_line_kind {
	SHMIDS_LINE_TEXT,	/* passes through as it is (a comment too) */
	SHMIDS_LINE_REF,	/* "field shmids id name" (5) */
	SHMIDS_LINE_TREF,	/* "shmids id name", "shmids, id name" (5) */
	SHMIDS_LINE_MALFORMED,	/* a reference of either form, no valid one */
	SHMIDS_LINE_ARRAY,	/* a keyed inline array's first line (6) */
	SHMIDS_LINE_CONT,	/* a continuation line of an array (6) */
	SHMIDS_LINE_ROW,	/* a row of a table block (6.1) */
	/*
	 * Library 1.7: a message of a stream (5.1).  New values, at the
	 * end: a 1.x program that switches on kind passes them through as
	 * the text it knows no kind for, and never opens their label as a
	 * segment's.
	 */
	SHMIDS_LINE_MREF,	/* "field shmids id name seq" (5.1) */
	SHMIDS_LINE_MTREF	/* "shmids id name seq", "shmids, ..." (5.1) */
};

/* How a line ends (shmids_line.eol). */
#define SHMIDS_EOL_NONE		0	/* the file's last line, no LF */
#define SHMIDS_EOL_LF		1
#define SHMIDS_EOL_CRLF		2
#define SHMIDS_EOL_CR		3	/* the file's last line, one CR */

/* shmids_line_kind() flags: the line's first bytes only; its end (below). */
#define SHMIDS_LINE_PART	0x1
#define SHMIDS_LINE_CUT		0x2	/* line begins inside its first token */
#define SHMIDS_LINE_CUT_HASH	0x4	/* ... which began with "#" */
#define SHMIDS_LINE_CUT_NUL	0x8	/* ... whose bytes gone held a NUL */
#define SHMIDS_LINE_CUT_CR	0x10	/* ... or a CR */
#define SHMIDS_LINE_NOMSG	0x20	/* no message reference: 1.6's answer */

struct shmids_line {
	int		 kind;		/* enum shmids_line_kind */
	unsigned long	 lineno;	/* shmids_line_next(): 1, 2, ... */
	size_t		 lead;		/* leading blanks: bytes */
	size_t		 field, fieldlen; /* first token (REF, ARRAY: the
					   field; TREF: "shmids" or
					   "shmids,"; CONT, blank: 0, 0;
					   ROW, a comment, a NUL in the
					   first token: lead, 0: no
					   field) */
	size_t		 values;	/* ARRAY: where its values begin;
					   MREF, MTREF: its sequence
					   number (shmids_line_seq()) */
	size_t		 end;		/* the line's end: its CR LF, LF,
					   last CR, or len */
	int		 eol;		/* SHMIDS_EOL_* */
	int		 sep;		/* TREF, MTREF, ROW: ' ', '\t' or
					   ','; a MALFORMED table
					   reference's too, 0 for a
					   reference line's; TEXT: '#' for
					   a comment (1.6), else 0 */
	size_t		 count;		/* values appended to v (next()) */
	int		 more;		/* ARRAY, CONT: ends with "/" */
	int		 bad;		/* CONT: a token that is no value:
					   the array is text, whole */
	int		 cut;		/* REF, TREF, MREF, MTREF, MALFORMED
					   after a "/":
					   the array before ends, text */
	int		 first;		/* ROW: it begins a table block */
	const char	*why;		/* MALFORMED: the reason; TEXT: why
					   no other kind; static English */
	char		 label[SHMIDS_LABEL_MAX + 1]; /* REF, TREF: "id name";
					   MREF, MTREF: the stream's */
};

/*
 * shmids_line_kind: the classifier, and the one reference parser: what
 * line[0..len) is by its tokens, alone in its
 * file (the line ends at its first LF, or at len; a CR before that is
 * the end of line, format-spec.md 5).  In this order: a blank line is
 * TEXT; a line whose second token is "shmids" is REF, or MALFORMED
 * (why: "bad name", ..., "a number is not a field" when its field
 * reads as a value, 6.1), but that a malformed one whose field begins
 * with "#" is a comment (below); one whose first token is "shmids" or
 * "shmids," and second begins with a digit or "/" is TREF (sep as its
 * rows are written), or MALFORMED; either with one more token, a
 * message's sequence number (decimal, no leading zero, at most 2^63 -
 * 1: format-spec.md 5.1, library 1.7), is MREF or MTREF, label the
 * stream's and values where the number begins (shmids_line_seq()), and
 * with another such token MALFORMED ("text after the label", "a
 * sequence number with a leading zero", ...); a comment, one whose first token
 * begins with "#" (format-spec.md 6, library 1.6), is TEXT with sep
 * '#', fieldlen 0 (field and lead at the "#": a comment has no field)
 * and why "a comment (its first token begins with #)": kind TEXT, not
 * a kind of its own, so that a 1.x program that switches on kind
 * passes it through as it passed text (sep '#' tells it from other
 * TEXT, whose sep is 0); one whose first token holds a NUL byte is
 * TEXT with fieldlen 0 and why "a NUL byte in the first token (no field
 * holds one)" (format-spec.md 6, library 1.7); one whose first token reads as a
 * value (shmids_isnumber()) is ROW, a row if its values are
 * (shmids_line_next() tells); one whose first token, up to a comma, is
 * one of Fortran's forms that are no value ("3*0.0", "3*", "0.1+101":
 * format-spec.md 6) is TEXT, why the form's words ("a list-directed
 * repeat count (Fortran's r*c)", ...); any other is ARRAY, an array if its
 * tokens after the field are values, text if not (shmids_line_next()
 * tells).  c is filled: kind, lead, field, fieldlen, values, end, eol,
 * sep, why and label as above; lineno, count, more, bad, cut, first 0.
 * Returns 1.  With flags SHMIDS_LINE_PART, line[0..len) is a line's
 * first bytes, the rest still to come (a filter that does not hold a
 * long line whole): returns 0 when they cannot yet tell whether the
 * line is a reference of either form, else 1 with kind TEXT, ARRAY or
 * ROW as far as they tell (eol NONE, end len).
 * With flags SHMIDS_LINE_CUT (library 1.7), line[0..len) begins inside
 * its first token, whose first bytes, and the line's leading blanks,
 * the caller wrote out without holding them (a filter whose memory must
 * not grow with a long token: shm-expand, format-spec.md 7); line[0] is
 * a byte of that token, or the blank after it.  What the classifier
 * needs of the bytes gone, the caller says in flags, as it saw them
 * pass: SHMIDS_LINE_CUT_HASH, the token began with "#";
 * SHMIDS_LINE_CUT_NUL, SHMIDS_LINE_CUT_CR, they held a NUL, a CR.  Such
 * a token, longer than its caller holds, is taken for no number, no
 * Fortran form and no table reference's keyword.  field is then 0 and
 * fieldlen the token's bytes in line; SHMIDS_LINE_PART may be given too.
 * With flags SHMIDS_LINE_NOMSG (library 1.7), a line is read as library
 * 1.6 read it, before message references: any token after a label is
 * "text after the label" (MALFORMED), and kind is never MREF nor MTREF
 * (the calls kept for 1.x programs give 1.6's answers so).
 * Never fails; errno is left unchanged; thread-safe.
 */
int	 shmids_line_kind(const char *line, size_t len, int flags,
	    struct shmids_line *c);

/*
 * shmids_line_seq: the sequence number of the message a message
 * reference line names (format-spec.md 5.1): c is what
 * shmids_line_kind() or shmids_line_next() said of line, kind
 * SHMIDS_LINE_MREF or SHMIDS_LINE_MTREF.  Its label and this number
 * name the message: shmids_stream_open() of c->label (or of the
 * message's label, "<label> <seq>"), then shmids_stream_get().  Returns
 * 0 to 2^63 - 1, or -1 with EINVAL for a c of another kind (or not
 * line's).  Reads line from c->values to c->end only; thread-safe.
 * Library 1.7.
 */
long long shmids_line_seq(const char *line, const struct shmids_line *c);

/*
 * A file's lines read in order by shmids_line_next(): zero it before
 * the first line.  nthreads: the threads an array's first line of 512
 * KiB or more is parsed on (shmids_values_read(); 0 or 1: the
 * caller's); the rest is the reader's.  A caller that reads an array's
 * continuation lines itself (shmids_values_read() on many at once)
 * sets more to 0 after them and counts them in lineno.
 */
struct shmids_lines {
	unsigned long	 lineno;	/* lines read */
	int		 nthreads;
	int		 more;		/* the last line continues an array */
	int		 bad;		/* that array held a bad token */
	int		 rowsep;	/* the last line's, if a row */
	size_t		 rowcols;	/* its values; 0: no row */
};

/*
 * shmids_line_next: line s[0..len) (one line, as for
 * shmids_line_kind(); s[len] readable as for shmids_values_read()'s
 * SHMIDS_VALUES_LINE),
 * the one after those rd has read: shmids_line_kind(), then in its
 * file (format-spec.md 5, 6, 6.1).  A reference of either form or a
 * malformed one is never a continuation (c->cut: the array before it,
 * whose last line ended in "/", is text).  After a line that
 * continues an array, any other line is CONT: its values are appended
 * to v (more: it continues too); a token that is no value of v->type
 * makes it bad (values not kept) and the array, through its last
 * continuation, text.  ARRAY: the values after the field are appended
 * to v (more as above), or, a token not being a value, the line is
 * TEXT and its "/" continues nothing.  ROW: a row of v->type
 * (shmids_row_parse(): sep ' ', ',' or '\t' for values one tab
 * apart), its values appended, first 1 when it begins a table block
 * (the line before was no row, or one of another width or separator:
 * comma rows against blank and tab ones), else TEXT (also with more
 * than 4000 leading blanks).  c->count is the values appended (a
 * block's rows are taken off v by the caller when first says the row
 * begins another).  Set v->type first (after shmids_line_kind(), say,
 * to choose it by field).  Returns 0, or -1 with ENOMEM (v without the
 * line's values) or EINVAL (v->type unknown).  errno is left unchanged
 * on success; thread-safe for distinct rd and v.
 */
struct shmids_values;
int	 shmids_line_next(struct shmids_lines *rd, const char *s, size_t len,
	    struct shmids_values *v, struct shmids_line *c);

/*
 * shmids_line_run: shmids_line_next() on the lines of s[0..len) in
 * turn (each ends with its LF, the last may end at len; s[len]
 * readable as for shmids_values_read()'s SHMIDS_VALUES_LINE) for as
 * long as each goes on
 * with what the line before it began: a continuation line of an array
 * (rd->more set before it; the run ends after the first that does not
 * continue) or the next row of a table block (ROW, not first:
 * format-spec.md 6, 6.1).  The first line that does neither (a
 * reference line after a "/", a row of another width, text) is left
 * unread: rd and v are as before it, for the caller to read it with
 * shmids_line_next().  Nothing is read when rd is at neither (rd->more
 * 0, rd->rowcols 0).  For a reader for which one call a line costs
 * more than the parse (a binding): a block of a million rows is one
 * call.  *used is the bytes of the lines read, *lines how many; c is
 * filled for the last of them (untouched when none).  A CONT line's
 * bad token shows in rd->bad and c->bad as with shmids_line_next().
 * Returns 0, or -1 with errno as shmids_line_next() (ENOMEM: *used
 * and *lines count the lines before the one it failed on, v and rd as
 * before that line).  errno is left unchanged on success;
 * thread-safe for distinct rd and v.  Library 1.5.
 */
int	 shmids_line_run(struct shmids_lines *rd, const char *s, size_t len,
	    struct shmids_values *v, struct shmids_line *c, size_t *used,
	    size_t *lines);

/*
 * How shmids_emit() lays out an array: lead (the line's leading blanks
 * and field, leadlen bytes, not NUL-terminated), then each value after
 * one space, wrapped with " /" and eol so that no line passes column
 * cols (0: never wrap; a value longer than the room still gets a line of
 * its own), continuation lines indented with indent spaces.  Columns are
 * bytes, counted from the start of the output line, of which col0 bytes
 * were written by the caller before lead.  eol is a C string: "\n",
 * "\r\n", "" (the last line of a file without newline) or "\r" (a
 * file's last line ending in a bare CR); it ends the last line, and
 * lines break with it too, with "\n" where it is "", and with "\r\n"
 * where it is "\r".
 * Version 2 adds weol, what lines break with ("\n" or "\r\n"; NULL:
 * as in version 1), so that the last line of a CRLF file keeps its end
 * ("" or "\r") while the lines before it end "\r\n" (format-spec.md 6).
 * style[t] is the enum shmids_style for values of type t.  Versioned:
 * fill it with shmids_layout_init() (which sets version 1 and leaves
 * weol alone: a program built against shmids 1.3 has no room for it),
 * then change fields; to use weol set version to SHMIDS_LAYOUT_V2 and
 * weol.  A later minor version adds fields at the end only, and accepts
 * a struct whose version is older.
 */
#define SHMIDS_LAYOUT_V1	1
#define SHMIDS_LAYOUT_V2	2	/* shmids 1.4: weol */
struct shmids_layout {
	int		 version;	/* SHMIDS_LAYOUT_V1 */
	const char	*lead;		/* leadlen bytes, written first */
	size_t		 leadlen;	/* bytes */
	size_t		 col0;		/* bytes on the line before lead */
	size_t		 indent;	/* column of a continuation's first value */
	size_t		 cols;		/* wrap column, 0 = one line */
	const char	*eol;		/* "\n", "\r\n", "" or "\r" */
	int		 style[5];	/* enum shmids_style, per enum shmids_type */
	const char	*weol;		/* version 2: "\n" or "\r\n"; NULL */
};

/*
 * shmids_layout_init: l becomes the layout of shmids_put(): lead field
 * (NULL: none), col0 0, indent strlen(field) + 1, cols 80, eol "\n",
 * SHMIDS_SHORT for every type.  l keeps field's address, not a copy.
 */
void	 shmids_layout_init(struct shmids_layout *l, const char *field);

/*
 * shmids_emit: write count elements of type at data (native order) to fp
 * in the ASCII form of format-spec.md 6, laid out as l says, then l->eol.
 * Written through a buffer of its own in blocks of 64 KiB (never more
 * than one line of values late: all is written on return).  Returns 0,
 * or -1 with errno: EINVAL (l->version unknown, unknown type, or a style
 * the type lacks; part of the array may have been written), or that of
 * the failed write (EIO when stdio set none).  Thread-safe for distinct fp.
 * Threads (format-spec.md 6.2): an array of 4 MiB (count * element size)
 * or more is formatted on shmids_threads() threads, made for the call and
 * joined before it returns; the bytes are those of one thread.  They
 * only read data and format values into buffers of the call's own (35
 * MiB at most, 2.4 MiB on 2 threads, whatever count); l and fp are
 * used, and every write made, on the caller's thread alone, so
 * SIGPIPE, EINTR and write errors are the caller's as on one thread.
 * They block every signal but the faults (SIGBUS, SIGSEGV, SIGFPE,
 * SIGILL), which strike the thread that faults: SIGBUS for a file
 * segment truncated under the reader may come on any of them.  No
 * callback and no global state is touched from them.  Without memory or
 * threads, one thread does it all.
 */
int	 shmids_emit(FILE *fp, const struct shmids_layout *l, int type,
	    const void *data, size_t count);

/*
 * An inline array read back (format-spec.md 6).  Zero it, set type,
 * then call shmids_values_read() on the values of the first line (the
 * bytes after the field) and of its continuation lines while sp->more
 * says they go on.  data is malloc'd and grown by the library; it holds
 * count elements of type (cap: elements it has room for).  The caller
 * owns it: shmids_values_free() (or free(3) of data) releases it, also
 * after an error.
 */
struct shmids_values {
	void		*data;		/* count elements of type, malloc'd */
	size_t		 count, cap;	/* elements */
	int		 type;		/* enum shmids_type; set it first */
};

/*
 * What shmids_values_read() read: the caller's, filled by the call
 * (zeroed first), valid after it.
 */
struct shmids_span {
	size_t		 count;		/* elements appended, written or counted */
	size_t		 used;		/* bytes of the lines read */
	size_t		 lines;		/* lines read */
	int		 more;		/* the last of them ends with "/" */
	const char	*bad;		/* the first bad value in s, or NULL */
};

/* Flags for shmids_values_read(): at most one. */
#define SHMIDS_VALUES_LINE	0x1	/* one line; its end as below */
#define SHMIDS_VALUES_FIXED	0x2	/* v->data is the caller's: no growth */
#define SHMIDS_VALUES_COUNT	0x4	/* count the values, parse none */

/*
 * shmids_values_read: the one values parser (library 1.5): the values
 * of an inline array's lines s[0..len) (format-spec.md 6, 6.2), of type
 * v->type, on up to nthreads threads (1 or less: the caller's alone;
 * SHMIDS_THREADS_MAX at most; shmids_threads() tells how many to ask
 * for), for the many lines of a long array.  Sizes in elements but used,
 * in bytes.
 *  - flags 0: whole lines, each with its LF but the last, which may end
 *    at len (s[len] then as for SHMIDS_VALUES_LINE); the first may begin
 *    anywhere a token may (after a first line's field, say).  Read
 *    through the first line not continued ("/"), its values appended to
 *    v, v->data malloc'd and grown by the library (the caller owns it:
 *    shmids_values_free()).  The text is cut into chunks of 256 KiB or
 *    more where a line or a token begins (less than 512 KiB is read on
 *    the caller's thread); v is grown once, then each chunk's values
 *    parsed into their place.
 *  - SHMIDS_VALUES_LINE: s[0..len) is one line; s[len] must be NUL,
 *    blank, CR or LF (a line from getline(3) is fine).  Its CRs and LF
 *    at its end are ignored; sp->more is 1 if its last token is "/" and
 *    every value before it was read.  Values appended to v as for 0;
 *    sp->used is len and sp->lines 1 on success.  One thread.
 *  - SHMIDS_VALUES_FIXED: as 0, into the caller's memory: v->data has
 *    room for v->cap elements of v->type (aligned for it, as a
 *    segment's payload is), none written past it; values go from
 *    element v->count on, and v->count grows by sp->count.  The library
 *    never frees or grows v->data: do not pass v to shmids_values_free().
 *    One more error, E2BIG: more values than room (sp->bad points at
 *    the first with no room; the values before it are written).  On
 *    one thread (nthreads 1 or less) it counts nothing first, so that a
 *    program may run it on threads of its own, one block of lines each
 *    (shm-import, format-spec.md 7); on several it counts its chunks
 *    itself to place them.
 *  - SHMIDS_VALUES_COUNT: the values flags 0 would read, were every
 *    token a value (each line's tokens, runs of bytes above the space,
 *    less its continuation "/": tokens are not read as values, so a
 *    bad one counts as one), into sp->count; v is neither read nor
 *    written (it may be NULL), and s[len] need not be readable.  A
 *    program that makes a segment of the count before it parses checks
 *    that it parsed as many (format-spec.md 6.2).
 * sp (the caller's, required) says what was read: sp->count the values
 * appended, written or counted, sp->used the bytes and sp->lines the
 * lines (through the first line not continued, or the one holding the
 * bad value, else len and all of them), sp->more 1 if the last of them
 * ends with "/" (the array goes on after s), sp->bad NULL or the bad
 * value.  Returns 0, or -1 with errno: EINVAL or ERANGE for the first
 * bad value in s's order (as shmids_parse(); sp->bad points at it, v
 * keeps the values before it, sp->used and sp->lines count through its
 * line, sp->more 0), ENOMEM (v unchanged, sp all 0), E2BIG (FIXED,
 * above), EINVAL also for an unknown v->type, more than one flag, an
 * unknown one, v->count over v->cap with SHMIDS_VALUES_FIXED, sp NULL,
 * or v NULL but with SHMIDS_VALUES_COUNT (nothing read).  Same
 * values, bad value and errno whatever nthreads is.  Thread use: the
 * threads read s and write their own part of v->data, nothing else (no
 * callback, no global state); they block every signal but the faults,
 * so that a signal reaches the caller's thread, which sees it on
 * return.  Not async-signal-safe; distinct v and s may be read from
 * several threads at once.  errno is left unchanged on success.
 */
int	 shmids_values_read(struct shmids_values *v, const char *s,
	    size_t len, int nthreads, int flags, struct shmids_span *sp);

/* shmids_values_free: free v->data and zero v but its type. */
void	 shmids_values_free(struct shmids_values *v);

/*
 * Tables (format-spec.md 6.1): blocks of rows, one row of values a line,
 * blank- or comma-separated, which stand for a table segment (2.7).
 */

/*
 * shmids_isnumber: 1 if the first token of s[0..len) (leading blanks
 * skipped; it ends at a blank, comma, CR, LF, NUL or len) reads as a
 * value of any type (format-spec.md 6: its f64 reading, out of range
 * included, or an integer's 0x form), else 0.  A number is never a
 * field: a line for which this is 1 is a row or text, never an inline
 * array or a reference line; a tool refuses such a field in -f.
 * Never fails; errno is left unchanged.
 */
int	 shmids_isnumber(const char *s, size_t len);

/*
 * shmids_row_parse: is line s[0..len) (its LF and one CR before it
 * ignored; s[len] readable as for shmids_values_read()'s
 * SHMIDS_VALUES_LINE) a row of
 * values of v->type?  A row is values separated by blanks (*sep set to
 * ' '), or by commas with blanks allowed around them (*sep ','; the
 * first token followed by a comma makes it one); a line of one value
 * is a blank row.  Returns 1 with its values appended to v and *n
 * (elements, 1 or more) set; 0 if the line is no row (an empty line,
 * a token that is no value of the type, an empty value between
 * commas, a "/"), v, *sep and *n unchanged; -1 with ENOMEM (v
 * unchanged) or EINVAL (unknown v->type).  A table block is a run of
 * rows with the same *sep and *n; the caller decides where it ends.
 */
int	 shmids_row_parse(struct shmids_values *v, const char *s, size_t len,
	    int *sep, size_t *n);

/*
 * shmids_emit_matrix: write a table of rows x cols elements of type at
 * data (native order) stored in order (SHMIDS_ROWMAJOR: row by row,
 * element (i, j) at index i * cols + j; SHMIDS_COLMAJOR: column by
 * column, at index i + j * rows) to fp, one row a line (format-spec.md
 * 6.1): row i, the values of elements (i, 0) to (i, cols - 1), on line
 * i, as R's write.table(m) writes them: l->lead, the values in l->style
 * joined by sep (' ', '\t' or ','), then l->eol (between rows "\n"
 * where l->eol is ""); l->col0, l->indent and l->cols do not apply:
 * rows are never wrapped.  rows 0 writes nothing.  Memory: a
 * column-major table's block of rows copied row by row, about 4 MiB
 * (one row if a row is larger, or if memory is short), never the whole
 * table.  Returns 0, or -1 with errno as shmids_emit(), EINVAL also for
 * another sep or order, or cols 0 with rows, EOVERFLOW where rows * cols
 * elements would be more bytes than a size_t counts (nothing written),
 * and ENOMEM.  Threads as shmids_emit()'s, for rows * cols elements of 4
 * MiB or more.  Library 1.4.
 */
int	 shmids_emit_matrix(FILE *fp, const struct shmids_layout *l, int type,
	    const void *data, size_t rows, size_t cols, int sep, int order);

/*
 * shmids_continued: 1 if line s[0..len), CRs and LF at its end ignored,
 * ends with the blank-separated token "/" (more values on the next line,
 * format-spec.md 6), else 0.  The rule shmids_values_read() applies; a
 * filter that passes a line through unparsed asks it here.
 */
int	 shmids_continued(const char *s, size_t len);

/*
 * A compressor, as shmids_compressed() names it.  The library's own
 * (static, never freed); a later version may add fields at the end,
 * since no caller makes one.  Library 1.7.
 */
struct shmids_compression {
	const char	*name;		/* "gzip", "xz", "zstd", "bzip2" */
	const char	*command;	/* decompresses a file named after it,
					   or stdin, to stdout: "gzip -dc" */
	const char	*suffix;	/* its files' names end so: ".gz",
					   ".xz", ".zst", ".bz2" */
};

/*
 * shmids_compressed: the compressor whose magic number the n bytes at p
 * (a file's first bytes; p may be NULL when n is 0) begin with
 * (format-spec.md 7): gzip, xz, zstd or bzip2; NULL for any other
 * bytes, and for fewer than the magic number needs (bzip2's is 10
 * bytes: ask with 10 or more where the file has them).  Such input is
 * no text of shmids(5): a reader refuses it, nothing of it written,
 * and offers the command, as the tools say "file: compressed by gzip:
 * decompress it first: gzip -dc file | shm-import" (Python's load() and
 * R's shm_read() say it in their own terms).  Never fails; errno is
 * left unchanged; thread-safe.  Library 1.7.
 */
const struct shmids_compression *shmids_compressed(const void *p,
	    size_t n);

/*
 * ---------------------------------------------------------------------
 * Errors in the user's terms (lib/explain.c), over both layers: a
 * label may be given as a reference line.
 * ---------------------------------------------------------------------
 */

/*
 * shmids_explain: the text a program needs to report that a call failed
 * with errnum on the segment label names: what is there, what went
 * wrong and, where something helps, what to do; e.g. for ESTALE
 * "segment 11 is labelled '11 coeff'", for EOWNERDEAD "its writer (pid
 * 19286) died before sealing it; shm-rm '15 slow-u' removes it", for
 * EPROTOTYPE "segment 12 holds 100 i32 values, not the type asked for".
 * One line, no newline, lower case first and no final period, meant to
 * follow "prog: label: " (it does not repeat the label).
 * label: the label, a bare id (shmids_stat_dims()), or the reference line
 * given to shmids_get(), as the failed call had it; NULL for
 * shmids_create*(), where SHMIDS_DIR decides which store is meant.
 * To say what is there it looks at the segment now, as shmids_stat_dims()
 * does (system data, one read-only attach to copy the header, no lock,
 * nothing changed), and at the password database for an owner's name;
 * the segment may have changed since the call failed.  Every errno of
 * this header has its words (EINVAL and ENAMETOOLONG say what is wrong
 * with a malformed label, a name alone or a reference line given where
 * a label is wanted included; ENOSPC, ENOSYS and EFBIG name the limit
 * or the setting); any other gives strerror(3)'s text.  With label NULL
 * and SHMIDS_DIR set, ENOENT, ENOTDIR and EACCES (of making file
 * segments, or of listing them: shmids_scan_dims()'s unreadable store)
 * say what is wrong with the directory and what to do where it is
 * missing, not a directory, not one the caller may read and search, or
 * cannot be looked at (ELOOP, say); e.g. "SHMIDS_DIR /x does not exist:
 * 'mkdir -p /x' (mode 1777 to share it), or unset SHMIDS_DIR for
 * System V segments", the path quoted as a word sh(1) reads back
 * (library 1.7).  Such a text begins "SHMIDS_DIR ", which no other
 * text of those errnos does, so that a caller may tell the directory's
 * fault from another.  EAGAIN says "still being written by pid N" and
 * no more: a caller that waited says for how long.
 * Writes at most size bytes to buf, NUL included (nothing if size is 0,
 * and buf may then be NULL); returns the length of the whole text, NUL
 * excluded, as snprintf(3) does: a return of size or more means the
 * text was cut.  SHMIDS_EXPLAIN_MAX bytes hold any text.  Never fails,
 * never prints; errno is left unchanged.  Thread-safe: no static state
 * (strerror_r(3), getpwuid_r(3)).
 */
#define SHMIDS_EXPLAIN_MAX	1024	/* bytes, NUL included */
int	 shmids_explain(char *buf, size_t size, const char *label,
	    int errnum);

/*
 * ---------------------------------------------------------------------
 * Calls kept for 1.x programs (lib/compat.c).  shmids 1.0 to 1.6 grew
 * these one at a time; each is a thin wrapper over a designed call
 * above, with the same answers, kept so that a program built against
 * libshmids.so.1 runs unchanged (the soname stays 1: nothing exported
 * is removed).  New code calls the designed ones; the tools call none
 * of these (tests/install.bats checks it).  Units, ownership, threads
 * and errors are those of the call each names, but where it says more.
 * ---------------------------------------------------------------------
 */

/*
 * shmids_create: shmids_create_array(name, mode, SHMIDS_RAW, nbytes): a
 * segment of SHMIDS_HEADER + nbytes bytes of type raw (the paper's
 * shm_create(), shmids_paper.h).  Kept for 1.x programs; new code calls
 * shmids_create_array().
 */
void	*shmids_create(const char *name, int mode, size_t nbytes);

/*
 * shmids_create_table: shmids_create_matrix(name, mode, type, rows,
 * cols, SHMIDS_ROWMAJOR): a table stored row by row (header version 2).
 * Library 1.2.  Kept for 1.x programs; new code calls
 * shmids_create_matrix().
 */
void	*shmids_create_table(const char *name, int mode, int type,
	    size_t rows, size_t cols);

/*
 * shmids_open: shmids_open_flags(label, 0, 0): attach, try once.  Kept
 * for 1.x programs; new code calls shmids_open_flags().
 */
void	*shmids_open(const char *label);

/*
 * shmids_open_wait: shmids_open_flags(label, 0, seconds): attach,
 * waiting up to seconds for a writer still filling.  Kept for 1.x
 * programs; new code calls shmids_open_flags().
 */
void	*shmids_open_wait(const char *label, double seconds);

/*
 * A segment's shape as 1.3's calls give it (format-spec.md 2.7, 9): a
 * table of rows x cols elements as its payload reads row by row (ndim
 * 2), or a 1-D array (ndim 1, rows the count, cols 1); ndim 0 unknown.
 * For a column-major table (SHMIDS_COLMAJOR, header version 3) that is
 * the transpose of what was meant, rows and cols swapped, so that a
 * program written for 1.3 reads it right, transposed.  struct
 * shmids_dims says what was meant, and the order.
 */
struct shmids_shape {
	int		 ndim;		/* 1, 2; 0 unknown */
	size_t		 rows, cols;	/* elements */
};

/*
 * shmids_shape: shmids_dims(shm, &d), as a struct shmids_shape (above);
 * returns sh->ndim (1 or 2), or -1 with EINVAL.  Kept for 1.x programs;
 * new code calls shmids_dims().
 */
int	 shmids_shape(const void *shm, struct shmids_shape *sh);

/*
 * shmids_stat: shmids_stat_dims(id, si, NULL, flags).  Kept for 1.x
 * programs; new code calls shmids_stat_dims().
 */
int	 shmids_stat(const char *id, struct shmids_info *si, int flags);

/*
 * shmids_stat_shape: shmids_stat_dims(id, si, &d, flags), the dimensions
 * given as a struct shmids_shape (ndim 0 unless si->ours is 1).  Kept
 * for 1.x programs; new code calls shmids_stat_dims().
 */
int	 shmids_stat_shape(const char *id, struct shmids_info *si,
	    struct shmids_shape *sh, int flags);

/*
 * shmids_scan: shmids_scan_dims(), fn given no dimensions.  Kept for 1.x
 * programs; new code calls shmids_scan_dims().
 */
int	 shmids_scan(int (*fn)(const struct shmids_info *, void *), void *arg,
	    int flags);

/*
 * shmids_scan_shape: shmids_scan_dims(), fn given each segment's
 * dimensions as a struct shmids_shape (ndim 0 where si->ours is not 1);
 * sh, like si, is valid during the call.  Kept for 1.x programs; new
 * code calls shmids_scan_dims().
 */
int	 shmids_scan_shape(int (*fn)(const struct shmids_info *,
	    const struct shmids_shape *, void *), void *arg, int flags);

/*
 * A reference line as 1.1's and 1.2's parsers give it (format-spec.md
 * 5): offsets and lengths in bytes from the start of the line handed
 * over; nothing points into it but why.  shmids_line_kind() fills a
 * struct shmids_line instead, which says which form a reference is.
 */
struct shmids_ref {
	size_t		 field, fieldlen;	/* first token: offset, bytes */
	size_t		 eol;			/* offset of the CR or LF ending it, or len */
	const char	*why;			/* malformed: static text, else NULL */
	char		 label[SHMIDS_LABEL_MAX + 1]; /* "id name", NUL-terminated */
};

/*
 * shmids_ref_parse: shmids_line_kind()'s REF half, with 1.1's answers:
 * 1 for a reference line (r filled: field, fieldlen, eol and label, "id
 * SP name" whatever blanks the line has), "1 shmids 5 x" (a number as a
 * field, malformed to shmids_line_kind()) included; 0 for any other
 * line, a table reference and a comment included (field, fieldlen and
 * eol filled: the first token; fieldlen 0 for a blank line); -1 with
 * EINVAL for a line whose second token is "shmids" but which is no valid
 * reference (r->why, a static English phrase such as "bad name").  Kept
 * for 1.x programs; new code calls shmids_line_kind().
 */
int	 shmids_ref_parse(const char *line, size_t len, struct shmids_ref *r);

/*
 * shmids_tref_parse: shmids_line_kind()'s TREF half: 1 for a table
 * reference line, r filled as shmids_ref_parse() fills it (field and
 * fieldlen: the "shmids" or "shmids," token) and *sep ',', '\t' or ' '
 * (shmids_line.sep); 0 for any other line; -1 with EINVAL for a
 * malformed one (r->why set).  Library 1.2.  Kept for 1.x programs; new
 * code calls shmids_line_kind().
 */
int	 shmids_tref_parse(const char *line, size_t len, struct shmids_ref *r,
	    int *sep);

/*
 * shmids_values_parse: shmids_values_read(v, s, len, 1,
 * SHMIDS_VALUES_LINE, &sp), sp's more in *more and, where a value was
 * bad, its bad in *bad (*bad untouched else).  Kept for 1.x programs;
 * new code calls shmids_values_read().
 */
int	 shmids_values_parse(struct shmids_values *v, const char *s,
	    size_t len, int *more, const char **bad);

/*
 * shmids_values_lines: shmids_values_read(v, s, len, nthreads, 0, &sp),
 * sp's used, lines, more and (where a value was bad) bad in *used,
 * *lines, *more and *bad.  Kept for 1.x programs; new code calls
 * shmids_values_read().
 */
int	 shmids_values_lines(struct shmids_values *v, const char *s,
	    size_t len, int nthreads, size_t *used, size_t *lines, int *more,
	    const char **bad);

/*
 * shmids_values_count: shmids_values_read(NULL, s, len, nthreads,
 * SHMIDS_VALUES_COUNT, &sp), sp's count, used, lines and more in the
 * outputs.  Kept for 1.x programs; new code calls shmids_values_read().
 */
int	 shmids_values_count(const char *s, size_t len, int nthreads,
	    size_t *count, size_t *used, size_t *lines, int *more);

/*
 * shmids_values_into: shmids_values_read() with SHMIDS_VALUES_FIXED into
 * dst (v->data dst, v->cap cap, v->type type, v->count 0), sp's count,
 * used, lines, more and (where a value was bad) bad in the outputs, all
 * required.  Kept for 1.x programs; new code calls shmids_values_read().
 */
int	 shmids_values_into(void *dst, size_t cap, int type, const char *s,
	    size_t len, int nthreads, size_t *count, size_t *used,
	    size_t *lines, int *more, const char **bad);

/*
 * shmids_emit_rows: shmids_emit_matrix(fp, l, type, data, rows, cols,
 * sep, SHMIDS_ROWMAJOR).  Library 1.2.  Kept for 1.x programs; new code
 * calls shmids_emit_matrix().
 */
int	 shmids_emit_rows(FILE *fp, const struct shmids_layout *l, int type,
	    const void *data, size_t rows, size_t cols, int sep);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* SHMIDS_H */
