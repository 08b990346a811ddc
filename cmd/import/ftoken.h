/*
 * Fortran's text forms that are no value (format-spec.md 6): a
 * list-directed repeat count "r*c" or null "r*", and an E edit
 * descriptor's exponent without its letter ("0.1+101").  shm-import
 * names them where they leave an array or a row as text.
 */
#ifndef SHMIDS_FTOKEN_H
#define SHMIDS_FTOKEN_H

#include <stddef.h>

/*
 * The first such token of s[0..len) (tokens end at a blank, comma, CR,
 * LF or NUL; a "/" is no token): its words ("a list-directed repeat
 * count", ...), *tok and *toklen set; NULL if there is none.
 */
const char *ftoken_find(const char *s, size_t len, const char **tok,
	    size_t *toklen);

#endif /* SHMIDS_FTOKEN_H */
