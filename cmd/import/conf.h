/*
 * What shm-import was asked, as its options say (main.c reads them): the
 * reading, the sink and the notes are each given what they need of it
 * at their start, and read nothing else of the tool's.
 */
#ifndef IMPORT_CONF_H
#define IMPORT_CONF_H

#include <stddef.h>

#include "filter.h"

#define CONF_MINVALS	64	/* -k's default: values of an array */
#define CONF_MODE	0600	/* -m's default */
#define CONF_SLOTS	16	/* --stream's default: slots of a stream */

/* -t field=type, in the order given. */
struct ftype {
	const char	*field;
	size_t		 len;
	int		 type;
};

struct conf {
	const char	*fields;	/* -f list, NULL for "by -k" */
	struct fields	 want;		/* -f, and what the input had of it */
	unsigned long	 minvals;	/* -k */
	int		 mode;		/* -m */
	const char	*prefix;	/* -P, "" for none */
	int		 deftype;	/* bare -t; -1 for none given: f64 */
	struct ftype	*ftypes;	/* -t field=type */
	size_t		 nftypes;
	int		 nthreads;	/* for a long array (SHMIDS_THREADS) */
	size_t		 slots;		/* --stream: slots a stream; 0 none */
};

/* The defaults, no option given. */
void	 conf_init(struct conf *c);
/*
 * -t type or -t field=type.  Repeated, they accumulate; a field given a
 * type twice, or two bare types, is a usage error as a bad type is.
 */
void	 conf_add_type(struct conf *c, const char *arg);
/*
 * The element type of field f[0..len): its own -t (*own set to 1), the
 * bare -t, f64 (*own 0).  own may be NULL.
 */
int	 conf_type(const struct conf *c, const char *f, size_t len, int *own);

#endif
