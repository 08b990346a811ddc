/*
 * init.c: the package's .Call entry points, registered when R loads
 * the library; no other symbol is looked up.
 */
#include "shmids_r.h"

/*
 * DL_FUNC is void *(*)(void): a cast through void (*)(void), the type
 * that matches every function, keeps -Wcast-function-type quiet.
 */
#define CALL(f, n)	{ #f, (DL_FUNC)(void (*)(void))f, n }

static const R_CallMethodDef calls[] = {
	CALL(shmr_attach, 3),
	CALL(shmr_zeros, 4),
	CALL(shmr_seal, 1),
	CALL(shmr_label, 1),
	CALL(shmr_order, 1),
	CALL(shmr_detach, 1),
	CALL(shmr_remove, 1),
	CALL(shmr_create, 4),
	CALL(shmr_field, 2),
	CALL(shmr_filling, 0),
	CALL(shmr_error_end, 0),
	CALL(shmr_ls, 1),
	CALL(shmr_read, 1),
	CALL(shmr_stream_create, 6),
	CALL(shmr_stream_open, 3),
	CALL(shmr_publish, 3),
	CALL(shmr_next, 2),
	CALL(shmr_stream_close, 1),
	CALL(shmr_stream_label, 1),
	{ NULL, NULL, 0 }
};

void R_init_shmids(DllInfo *dll);
void
R_init_shmids(DllInfo *dll)
{
	seg_classes(dll);
	R_registerRoutines(dll, NULL, calls, NULL, NULL);
	R_useDynamicSymbols(dll, FALSE);
}
