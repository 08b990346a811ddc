/*
 * shm-ls's columns (format-spec.md 7): their names for -o, their cells
 * in the long format and their keys in the JSON format.
 */
#ifndef SHMIDS_LSCOL_H
#define SHMIDS_LSCOL_H

#include <stdio.h>
#include <time.h>

#include "shmids.h"

enum lscol {
	COL_ID, COL_SHMID, COL_KEY, COL_LABEL, COL_NAME, COL_OWNER, COL_UID,
	COL_GROUP, COL_GID, COL_MODE, COL_NATTCH, COL_SIZE, COL_TYPE,
	COL_COUNT, COL_SHAPE, COL_ORDER, COL_STATE, COL_CREATED, COL_USED, COL_ATTACHED,
	COL_DETACHED, COL_CPID, COL_LPID, COL_N
};

/* A cell's bytes: a label (75) whole, an owner cut to 8 columns. */
#define LSCOL_CELL	80
/* The columns an owner or group name is cut to, as ps(1) does. */
#define LSCOL_NAMEW	8

/* A list of columns, each at most once. */
struct lscols {
	enum lscol	 v[COL_N];
	size_t		 n;
};

/* The long format's columns, and the JSON format's keys, by default. */
void	 lscol_default(struct lscols *c, int json);
/*
 * Set c from an -o list: names separated by commas, in any case; a list
 * that begins with '+' adds to the defaults (lscol_default(json)),
 * before the label, which stays last.  A column named twice is kept
 * once.  A name that is no column is a usage
 * error (opts_invalid(), exit 2).
 */
void	 lscol_parse(struct lscols *c, const char *list, int json);
/* Every column's name for -o, "ID, SHMID, ...", in a static buffer. */
const char *lscol_names(void);
/* The column's heading, its name for -o. */
const char *lscol_head(enum lscol col);
/* Is the column a number, aligned to the right? */
int	 lscol_right(enum lscol col);
/*
 * si's cell in column col of the long format, into buf (LSCOL_CELL
 * bytes): sizes in bytes if bytes, else as ls -h; dates as ls -l
 * writes them, against now; sh, si's shape as meant (shmids_stat_dims()),
 * as "rowsxcols" for a table, "rowsxcolsF" for a column-major one, the
 * count for a 1-D segment; its order "C" or "F"; "-" where the field
 * does not apply.
 */
void	 lscol_cell(enum lscol col, const struct shmids_info *si,
	    const struct shmids_dims *sh, int bytes, time_t now, char *buf);
/*
 * si's key (or keys: a time's _iso too) for column col in a JSON
 * object, after ", " unless first; the shape (sh) as an array.
 */
void	 lscol_json(enum lscol col, const struct shmids_info *si,
	    const struct shmids_dims *sh, int first);
/* The state word: ready, filling, dead, broken; "-" not ours, "?". */
const char *lscol_state(const struct shmids_info *si);

#endif /* SHMIDS_LSCOL_H */
