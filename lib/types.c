/*
 * Element types, format-spec.md section 4.
 */
#include <errno.h>
#include <string.h>

#include "shmids.h"

static const struct {
	const char	*name;
	size_t		 size;
} types[] = {
	{ "raw", 1 }, { "f64", 8 }, { "f32", 4 }, { "i64", 8 }, { "i32", 4 }
};
#define NTYPES	(sizeof(types) / sizeof(types[0]))

size_t
shmids_type_size(int type)
{
	if (type < 0 || (size_t)type >= NTYPES)
		return 0;
	return types[type].size;
}

const char *
shmids_type_name(int type)
{
	if (type < 0 || (size_t)type >= NTYPES)
		return NULL;
	return types[type].name;
}

int
shmids_type_parse(const char *name)
{
	size_t i;

	for (i = 0; i < NTYPES; i++)
		if (strcmp(name, types[i].name) == 0)
			return (int)i;
	errno = EINVAL;
	return -1;
}
