/*
 * tests/unit/tap.h: the TAP line every unit test prints, one per check
 * ("ok N - what" or "not ok N - what"); main prints the plan "1..ntest"
 * at the end and exits non-zero if nfail.  One copy for every test.
 */
#ifndef SHMIDS_TAP_H
#define SHMIDS_TAP_H

#include <stdio.h>

static int	ntest, nfail;

static void
ok(int cond, const char *what)
{
	ntest++;
	if (!cond)
		nfail++;
	printf("%sok %d - %s\n", cond ? "" : "not ", ntest, what);
}

#endif /* SHMIDS_TAP_H */
