/*
 * What shm-import was asked (conf.h): the defaults and -t's types.
 */
#include <stdlib.h>
#include <string.h>

#include "shmids.h"
#include "conf.h"
#include "filter.h"
#include "msg.h"
#include "opts.h"

#define TYPE_FORM	"type or field=type, type one of f64, f32, i64, i32 or raw"

void
conf_init(struct conf *c)
{
	memset(c, 0, sizeof(*c));
	c->minvals = CONF_MINVALS;
	c->mode = CONF_MODE;
	c->prefix = "";
	c->deftype = -1;
	c->nthreads = 1;
}

static const struct ftype *
own_type(const struct conf *c, const char *f, size_t len)
{
	size_t i;

	for (i = 0; i < c->nftypes; i++)
		if (c->ftypes[i].len == len &&
		    memcmp(c->ftypes[i].field, f, len) == 0)
			return &c->ftypes[i];
	return NULL;
}

void
conf_add_type(struct conf *c, const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : 0;
	struct ftype *n;
	int t;

	if ((t = shmids_type_parse(eq ? eq + 1 : arg)) == -1 ||
	    (eq != NULL && len == 0))
		opts_invalid("type", arg, TYPE_FORM);
	filter_field("-t", arg, len, 0);
	if (eq == NULL) {
		if (c->deftype != -1)
			opts_invalid("type", arg, "one -t without a field: "
			    "field=type gives a field its own");
		c->deftype = t;
		return;
	}
	if (own_type(c, arg, len) != NULL)
		opts_invalid("type", arg, "type or field=type, each field "
		    "once");
	if ((n = realloc(c->ftypes, (c->nftypes + 1) * sizeof(*n))) == NULL)
		msg_nomem();
	c->ftypes = n;
	n[c->nftypes].field = arg;
	n[c->nftypes].len = len;
	n[c->nftypes++].type = t;
}

int
conf_type(const struct conf *c, const char *f, size_t len, int *own)
{
	const struct ftype *t = own_type(c, f, len);

	if (own != NULL)
		*own = t != NULL;
	if (t != NULL)
		return t->type;
	return c->deftype != -1 ? c->deftype : SHMIDS_F64;
}
