/*
 * Fortran's forms that are no value, told apart by their shape alone:
 * shm-import asks only of a line it leaves as text, so no line it
 * converts pays for this.
 */
#include <string.h>

#include "ftoken.h"
#include "shmids.h"

static int
digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Why t[0..n) is a Fortran form that is no value, or NULL. */
static const char *
why(const char *t, size_t n)
{
	size_t i = 0, d;

	while (i < n && digit(t[i]))
		i++;
	/* r*c, r*: r a positive count, c a value or nothing */
	if (i > 0 && i < n && t[i] == '*') {
		if (t[0] == '0')
			return NULL;
		if (i + 1 == n)
			return "a list-directed null value (Fortran's r*)";
		return shmids_isnumber(t + i + 1, n - i - 1) ?
		    "a list-directed repeat count (Fortran's r*c)" : NULL;
	}
	/* [sign] digits [. digits] sign digits: Ew.d's 3-digit exponent */
	i = t[0] == '-' || t[0] == '+';
	d = i;
	while (i < n && digit(t[i]))
		i++;
	if (i < n && t[i] == '.')
		for (i++; i < n && digit(t[i]); i++)
			;
	if (i == d || i == n || (t[i] != '+' && t[i] != '-') || i + 1 == n)
		return NULL;
	for (i++; i < n && digit(t[i]); i++)
		;
	return i == n ? "a Fortran exponent without its letter (E, D)" :
	    NULL;
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
