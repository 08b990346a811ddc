/*
 * hello: the README's library example, whole.  A writer puts n doubles
 * in a segment and prints the reference line; a reader gets the array
 * back from that line, as it would from a file; then the segment goes.
 *
 *	cc -o hello hello.c $(pkg-config --cflags --libs shmids)
 */
#include <stdio.h>
#include <shmids.h>

int
main(void)
{
	char label[SHMIDS_LABEL_MAX + 1], line[SHMIDS_LABEL_MAX + 16];
	struct shmids_array a;
	size_t i, n = 1000;
	double *u, sum = 0;
	char *shm;

	/* The writer. */
	shm = shmids_create_array("hello-u", 0644, SHMIDS_F64, n);
	if (shm == NULL) {
		perror("hello: shmids_create_array");
		return 1;
	}
	u = (double *)(shm + SHMIDS_HEADER);
	for (i = 0; i < n; i++)
		u[i] = i / 4.0;
	snprintf(label, sizeof(label), "%s", shm);	/* "<shmid> <name>" */
	printf("u shmids %s\n", label);			/* the paper's idiom */
	shmids_close(shm);				/* sealed: ready for readers */

	/* A reader, given the line; "u 0 0.25 0.5 ..." would do as well. */
	snprintf(line, sizeof(line), "u shmids %s\n", label);
	if (shmids_get(line, NULL, SHMIDS_F64, &a) == -1) {
		perror("hello: shmids_get");
		shmids_remove(label);
		return 1;
	}
	for (i = 0; i < a.count; i++)
		sum += ((double *)a.data)[i];
	printf("u: %zu values, sum %g\n", a.count, sum);
	shmids_array_free(&a);

	/* In a pipeline the last reader, or shm-rm(1), would remove it. */
	if (shmids_remove(label) == -1) {
		perror("hello: shmids_remove");
		return 1;
	}
	return 0;
}
