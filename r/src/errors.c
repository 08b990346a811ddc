/*
 * errors.c: R errors in the tools' words, and the argument check that
 * raises them.
 */
#include "shmids_r.h"

/*
 * error_explained: an R error "what: label: explanation" (label NULL:
 * "what: explanation"), e explained by the library as the tools do.
 */
void
error_explained(const char *what, const char *label, int e)
{
	char buf[SHMIDS_EXPLAIN_MAX];

	shmids_explain(buf, sizeof buf, label, e);
	if (label != NULL)
		Rf_error("%s: %s: %s", what, label, buf);
	Rf_error("%s: %s", what, buf);
}

/* str1: x as one string, or an R error naming what wanted it. */
const char *
str1(SEXP x, const char *what)
{
	if (!Rf_isString(x) || XLENGTH(x) != 1 || STRING_ELT(x, 0) == NA_STRING)
		Rf_error("%s: a single string is wanted", what);
	return CHAR(STRING_ELT(x, 0));
}
