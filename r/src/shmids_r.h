/*
 * shmids_r.h: what the files of R's side of libshmids share.
 *
 * An attached segment is an ALTREP vector (double, integer or raw)
 * whose data is the segment's payload itself (altrep.c).  Format rules
 * stay in the library: these files convert types and lifetimes, and
 * ask shmids.h for everything else.
 *
 * Internal names are hidden: the package's only entry points are the
 * .Call routines registered in init.c.
 */
#ifndef SHMIDS_R_H
#define SHMIDS_R_H

#include <sys/types.h>

#include <shmids.h>
/* column-major tables and the classifier of lines: libshmids 1.4 */
#if SHMIDS_VERSION_MAJOR == 1 && SHMIDS_VERSION_MINOR < 4
#error "the R package needs libshmids 1.4 or later"
#endif

#define R_NO_REMAP
#include <R.h>
#include <Rinternals.h>
#include <R_ext/Altrep.h>
#include <R_ext/Rdynload.h>
#include <R_ext/Visibility.h>

/*
 * struct seg: one segment under an ALTREP vector, owned by the external
 * pointer in the vector's data1, whose finalizer detaches it (and
 * removes it if made here, by this process, and never sealed).  A
 * segment made here is on the list of write.c from its making to its
 * free (seg_free()), for the end of R by an error (format-spec.md 2.2).
 */
struct seg {
	void		*shm;		/* header; NULL once detached */
	void		*data;		/* payload */
	R_xlen_t	 n;		/* elements */
	int		 type;		/* enum shmids_type */
	int		 writable;	/* made here, attached read-write */
	int		 sealed;
	int		 direct;	/* writable DATAPTR gets the segment */
	int		 order;		/* 'F' where R's view is the matrix
					   meant, else 'C' (format-spec.md 2.7) */
	pid_t		 pid;		/* the process that made it (writable) */
	struct seg	*next, *prev;	/* write.c's list (writable) */
	char		 label[SHMIDS_LABEL_MAX + 1];
};

/* errors.c */
NORET void	 error_explained(const char *, const char *, int)
		    attribute_hidden;
const char	*str1(SEXP, const char *) attribute_hidden;

/* altrep.c */
void		 seg_classes(DllInfo *) attribute_hidden;
SEXP		 seg_wrap(struct seg *, int, size_t, size_t) attribute_hidden;
int		 seg_is(SEXP) attribute_hidden;
struct seg	*seg_of(SEXP) attribute_hidden;
struct seg	*seg_arg(SEXP, const char *) attribute_hidden;
void		 seg_free(struct seg *) attribute_hidden;
size_t		 elsize(SEXP) attribute_hidden;

/* write.c: the segments made here, for the end of R by an error */
void		 seg_track(struct seg *) attribute_hidden;
void		 seg_untrack(struct seg *) attribute_hidden;
int		 seg_mine(const struct seg *) attribute_hidden;

/* attach.c: f32 and i64 copied into a double vector */
SEXP		 widen(const void *, size_t, int) attribute_hidden;

/* The .Call entry points (init.c registers them). */
SEXP	shmr_attach(SEXP, SEXP, SEXP);		/* attach.c */
SEXP	shmr_label(SEXP);
SEXP	shmr_order(SEXP);
SEXP	shmr_zeros(SEXP, SEXP, SEXP, SEXP);	/* write.c */
SEXP	shmr_seal(SEXP);
SEXP	shmr_detach(SEXP);
SEXP	shmr_create(SEXP, SEXP, SEXP, SEXP);
SEXP	shmr_field(SEXP, SEXP);
SEXP	shmr_filling(void);
SEXP	shmr_stream_create(SEXP, SEXP, SEXP, SEXP, SEXP, SEXP); /* stream.c */
SEXP	shmr_stream_open(SEXP, SEXP, SEXP);
SEXP	shmr_publish(SEXP, SEXP, SEXP);
SEXP	shmr_next(SEXP, SEXP);
SEXP	shmr_stream_close(SEXP);
SEXP	shmr_stream_label(SEXP);
SEXP	shmr_error_end(void);
SEXP	shmr_ls(SEXP);				/* list.c */
SEXP	shmr_remove(SEXP);
SEXP	shmr_read(SEXP);			/* files.c */

#endif
