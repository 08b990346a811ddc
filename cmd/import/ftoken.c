/*
 * Fortran's forms that are no value, found in a line shm-import left as
 * text, for its note: which token, and why (the classifier's words).
 * Asked only of such a line, so no line it converts pays for this.
 */
#include <string.h>

#include "ftoken.h"
#include "shmids.h"

/*
 * Why t[0..n) (one token: no blank, comma, CR, LF or NUL) is a Fortran
 * form that is no value, or NULL.  The classifier holds the rule
 * (format-spec.md 6): alone on a line, such a token is the one token
 * that makes the line text; any other is a row's value or a field.
 */
static const char *
why(const char *t, size_t n)
{
	struct shmids_line c;

	shmids_line_kind(t, n, 0, &c);
	/* a Fortran form is the field of its text; a comment ("#") none */
	return c.kind == SHMIDS_LINE_TEXT && c.fieldlen > 0 ? c.why : NULL;
}

const char *
ftoken_find(const char *s, size_t len, const char **tok, size_t *toklen)
{
	const char *w;
	size_t i = 0, j;

	while (i < len) {
		/* strchr() finds the NUL too: it ends a token as a blank */
		while (i < len && strchr(" \t,\r\n", s[i]) != NULL)
			i++;
		for (j = i; j < len && strchr(" \t,\r\n", s[j]) == NULL; j++)
			;
		if (j > i && (w = why(s + i, j - i)) != NULL) {
			*tok = s + i;
			*toklen = j - i;
			return w;
		}
		i = j;
	}
	return NULL;
}
