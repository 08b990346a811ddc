/*
 * Internal interfaces shared by lib/ and cmd/; not installed.  Every
 * symbol here is hidden from the shared library's dynamic symbol table.
 */
#ifndef SHMIDS_INTERNAL_H
#define SHMIDS_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include "shmids.h"

#ifndef SHMIDS_HIDDEN
#define SHMIDS_HIDDEN __attribute__((visibility("hidden")))
#endif

/* Header layout: format-spec.md section 2. */
#define HDR_LABEL	0	/* label area, 80 bytes */
#define HDR_LABELSZ	80
#define HDR_MAGIC	80	/* "shmids1" */
#define HDR_TYPE	88
#define HDR_ORDER	92
#define HDR_COUNT	95
#define HDR_COUNTSZ	20
#define HDR_STATE	116
#define HDR_RESERVED	118

#define KEY_PREFIX	0x53480000u	/* "SH": section 2.4 */
#define KEY_MASK	0xffff0000u

/* What a header says, once checked. */
struct hdr {
	int		 shmid;
	char		 label[SHMIDS_LABEL_MAX + 1];
	size_t		 namepos;	/* offset of the name in label */
	int		 type;
	size_t		 count;
	int		 state;		/* 'w' or 'r' */
};

/*
 * The backend: one small interface so that a second store (POSIX shm,
 * plain files) can sit beside System V.  Functions return -1 with errno;
 * ENOENT means no such segment, whatever the store says.
 */
struct shmids_backend {
	int	(*create)(size_t size, int *id);	/* mode 0600, our key */
	void	*(*attach)(int id, int rdonly);
	/* the caller will touch all size bytes: map them now, if it pays */
	void	 (*prefault)(void *addr, size_t size, int rdonly);
	int	(*detach)(const void *addr);
	int	(*setmode)(int id, int mode);
	int	(*remove)(int id);
	int	(*stat)(int id, struct shmids_info *si);	/* kernel part */
	int	(*scan)(int (*fn)(struct shmids_info *, void *), void *arg);
	int	(*isours)(const struct shmids_info *si);	/* by key */
};
SHMIDS_HIDDEN extern const struct shmids_backend shmids_sysv;

/* label.c */
SHMIDS_HIDDEN int	shmids_name_check(const char *name, size_t len);
SHMIDS_HIDDEN int	shmids_label_parse(const char *s, size_t len, int *shmid,
			    const char **name, size_t *namelen);
SHMIDS_HIDDEN size_t	shmids_label_make(char *buf, int shmid, const char *name,
			    size_t namelen);

/* header.c */
SHMIDS_HIDDEN void	shmids_hdr_write(char *h, int shmid, const char *name,
			    int type, size_t count);
SHMIDS_HIDDEN int	shmids_hdr_read(const volatile char *h, size_t size,
			    int shmid, struct hdr *out);
SHMIDS_HIDDEN int	shmids_hdr_state(const volatile char *h);
SHMIDS_HIDDEN void	shmids_hdr_seal(char *h);
SHMIDS_HIDDEN int	shmids_writer_state(pid_t cpid);

/* registry.c: segments this process has attached through the library */
struct seg {
	char		*addr;
	size_t		 size;		/* bytes, header included */
	int		 id;
	pid_t		 writer;	/* pid that made it here, or 0 */
	/* checked at attach; the header itself may be rewritten later */
	char		 label[SHMIDS_LABEL_MAX + 1];
};
SHMIDS_HIDDEN struct seg *shmids_reg_find(const void *addr);
SHMIDS_HIDDEN int	shmids_reg_add(char *addr, size_t size, int id,
			    pid_t writer, const char *label);
SHMIDS_HIDDEN void	shmids_reg_del(struct seg *s);
SHMIDS_HIDDEN void	shmids_reg_sealall(void);

/* refline.c: reference lines, format-spec.md section 5 */
struct ref {
	size_t		 fieldpos, fieldlen;	/* field token in line */
	int		 shmid;
	char		 label[SHMIDS_LABEL_MAX + 1];
	size_t		 eolpos;		/* CR, LF or len */
	const char	*why;			/* reason when malformed */
};
SHMIDS_HIDDEN int	shmids_ref_parse(const char *line, size_t len,
			    struct ref *r);
SHMIDS_HIDDEN int	shmids_isblank(int c);

/* emit.c: the ASCII form of an array, format-spec.md section 6 */
struct emit {
	const char	*lead;		/* blanks and field, written first */
	size_t		 leadlen;
	size_t		 indent;	/* column of the first value */
	size_t		 cols;		/* wrap column, 0 for never */
	const char	*eol;		/* "\n", "\r\n" or "" */
	int		 style[5];	/* per enum shmids_type */
};
SHMIDS_HIDDEN int	shmids_emit(FILE *fp, const struct emit *e, int type,
			    const void *data, size_t count);

/*
 * values.c: inline arrays read back.  s[len] must be a NUL, blank, CR or
 * LF: values are parsed up to their terminator (callers pass lines from
 * getline(3), which are NUL-terminated).
 */
struct vbuf {
	char		*data;
	size_t		 count, cap;	/* elements */
	int		 type;
};
SHMIDS_HIDDEN int	shmids_values(struct vbuf *v, const char *s, size_t len,
			    int *more, const char **bad);

#endif /* SHMIDS_INTERNAL_H */
