/*
 * The contenders, in the tables' order: the baselines, then shmids's
 * own (a segment a step, and the stream of issue 43).
 */
#include "stream.h"

const struct contender *const contenders[] = {
	&c_pipe,
	&c_sempair,
	&c_ring,
	&c_ring_adaptive,
	&c_mq,
	&c_iceoryx,
	&c_segstep,
	&c_shmids_stream,
};
const int ncontenders = sizeof(contenders) / sizeof(contenders[0]);
