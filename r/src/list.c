/*
 * list.c: shm_ls() and shm_remove(), the segments of this user as
 * shm-ls and shm-rm see them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmids_r.h"

/* shm_ls(): the columns of shm-ls -J, gathered by shmids_scan_dims(). */
struct lsrow {
	char	 id[SHMIDS_LABEL_MAX + 1], label[SHMIDS_LABEL_MAX + 1];
	char	 name[SHMIDS_NAME_MAX + 1], type[8], state[16], shape[48];
	char	 order[2];
	int	 shmid, key, mode, uid, gid, cpid, lpid;
	double	 count, size, nattch, ctime, atime, dtime;
};

struct lsacc {
	struct lsrow	*r;
	size_t		 n, cap;
	int		 err;
};

#define SCAN_SHAPE	shmids_scan_dims
#define SHAPE_T		struct shmids_dims	/* as meant */

static int
ls_one(const struct shmids_info *si, const SHAPE_T *sh, void *arg)
{
	struct lsacc *acc = arg;
	struct lsrow *r;

	/* a store that could not be read (SHMIDS_DIR missing): said after */
	if (si->ours == -2 && acc->err == 0)
		acc->err = si->err;
	if (si->ours != 1)
		return 0;
	if (acc->n == acc->cap) {
		size_t cap = acc->cap ? 2 * acc->cap : 16;
		void *p = realloc(acc->r, cap * sizeof *acc->r);

		if (p == NULL) {
			acc->err = ENOMEM;
			return 1;
		}
		acc->r = p;
		acc->cap = cap;
	}
	r = &acc->r[acc->n++];
	memset(r, 0, sizeof *r);
	snprintf(r->id, sizeof r->id, "%s", si->id);
	snprintf(r->label, sizeof r->label, "%s", si->label);
	snprintf(r->name, sizeof r->name, "%s", si->name ? si->name : "");
	snprintf(r->type, sizeof r->type, "%s",
	    shmids_type_name(si->type) ? shmids_type_name(si->type) : "");
	snprintf(r->state, sizeof r->state, "%s", si->state == 'r' ? "ready" :
	    si->state == 'w' ? "filling" : "dead");
	r->order[0] = sh->order == SHMIDS_COLMAJOR ? 'F' : 'C';
	if (sh->ndim == 2)
		snprintf(r->shape, sizeof r->shape, "%zux%zu", sh->rows,
		    sh->cols);
	else
		snprintf(r->shape, sizeof r->shape, "%zu", si->count);
	r->shmid = si->shmid;
	r->key = si->key;
	r->mode = (int)si->mode;
	r->uid = (int)si->uid;
	r->gid = (int)si->gid;
	r->cpid = (int)si->cpid;
	r->lpid = (int)si->lpid;
	r->count = (double)si->count;
	r->size = (double)si->size;
	r->nattch = (double)si->nattch;
	r->ctime = (double)si->ctime;
	r->atime = (double)si->atime;
	r->dtime = (double)si->dtime;
	return 0;
}

SEXP
shmr_ls(SEXP all)
{
	static const char *names[] = { "id", "label", "name", "shmid",
	    "key", "type", "count", "shape", "state", "uid", "gid", "mode",
	    "nattch", "size", "cpid", "lpid", "created", "attached",
	    "detached", "order" };
	const int nc = (int)(sizeof names / sizeof names[0]);
	struct lsacc acc = { NULL, 0, 0, 0 };
	SEXP df, nm, col, rn;
	size_t i;
	int j;

	if (SCAN_SHAPE(ls_one, &acc, Rf_asLogical(all) == TRUE ?
	    SHMIDS_ALL : 0) == -1 || acc.err) {
		free(acc.r);
		error_explained("shm_ls", NULL, acc.err ? acc.err : errno);
	}
	PROTECT(df = Rf_allocVector(VECSXP, nc));
	PROTECT(nm = Rf_allocVector(STRSXP, nc));
	for (j = 0; j < nc; j++) {
		SET_STRING_ELT(nm, j, Rf_mkChar(names[j]));
		switch (j) {
		case 0: case 1: case 2: case 4: case 5: case 7: case 8:
		case 11: case 19:
			col = Rf_allocVector(STRSXP, (R_xlen_t)acc.n);
			break;
		case 3: case 9: case 10: case 14: case 15:
			col = Rf_allocVector(INTSXP, (R_xlen_t)acc.n);
			break;
		default:
			col = Rf_allocVector(REALSXP, (R_xlen_t)acc.n);
		}
		SET_VECTOR_ELT(df, j, col);
		for (i = 0; i < acc.n; i++) {
			struct lsrow *r = &acc.r[i];
			char b[32];

			switch (j) {
			case 0: SET_STRING_ELT(col, i, Rf_mkChar(r->id)); break;
			case 1: SET_STRING_ELT(col, i, Rf_mkChar(r->label)); break;
			case 2: SET_STRING_ELT(col, i, Rf_mkChar(r->name)); break;
			case 3: INTEGER(col)[i] = r->shmid; break;
			case 4:
				snprintf(b, sizeof b, "0x%08x", (unsigned)r->key);
				SET_STRING_ELT(col, i, Rf_mkChar(b));
				break;
			case 5: SET_STRING_ELT(col, i, Rf_mkChar(r->type)); break;
			case 6: REAL(col)[i] = r->count; break;
			case 7: SET_STRING_ELT(col, i, Rf_mkChar(r->shape)); break;
			case 8: SET_STRING_ELT(col, i, Rf_mkChar(r->state)); break;
			case 9: INTEGER(col)[i] = r->uid; break;
			case 10: INTEGER(col)[i] = r->gid; break;
			case 11:
				snprintf(b, sizeof b, "%04o", (unsigned)r->mode);
				SET_STRING_ELT(col, i, Rf_mkChar(b));
				break;
			case 12: REAL(col)[i] = r->nattch; break;
			case 13: REAL(col)[i] = r->size; break;
			case 14: INTEGER(col)[i] = r->cpid; break;
			case 15: INTEGER(col)[i] = r->lpid; break;
			case 16: REAL(col)[i] = r->ctime; break;
			case 17: REAL(col)[i] = r->atime; break;
			case 18: REAL(col)[i] = r->dtime; break;
			default: SET_STRING_ELT(col, i, Rf_mkChar(r->order)); break;
			}
		}
	}
	free(acc.r);
	Rf_setAttrib(df, R_NamesSymbol, nm);
	PROTECT(rn = Rf_allocVector(INTSXP, 2));
	INTEGER(rn)[0] = NA_INTEGER;
	INTEGER(rn)[1] = -(int)acc.n;
	Rf_setAttrib(df, R_RowNamesSymbol, rn);
	Rf_setAttrib(df, R_ClassSymbol, Rf_mkString("data.frame"));
	UNPROTECT(3);
	return df;
}



SEXP
shmr_remove(SEXP label)
{
	const char *l = str1(label, "shm_remove");

	if (shmids_remove(l) == -1)
		error_explained("shm_remove", l, errno);
	return R_NilValue;
}
