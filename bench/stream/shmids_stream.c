/*
 * stream: the shmids stream of issue 43 (lib/stream/), the contender
 * every target is about.  This is the seam its author fills in: this
 * file alone, through shmids.h alone, with the functions of struct
 * contender (stream.h says which process calls each and when).  The
 * driver makes c->nbytes, c->slots and a unique c->id before open();
 * loan() returns the slot's payload to fill in place (zero copy),
 * publish() publishes it, next() waits for the next message and
 * returns it read-only in place, release() lets it go; open() runs in
 * the driver before the fork (it may make the stream there, its label
 * the rendezvous, or make a pipe to pass the label on, as segstep.c
 * does), close() in the driver after both children have gone, even
 * killed: it removes the stream and anything else of the measurement's.
 * Until then init() says why there is no row, and every target reads
 * n/a.
 */
#include "stream.h"

static const char *
stream_init(void)
{
	return "not in this build: lib/stream/ (issue 43) provides it";
}

const struct contender c_shmids_stream = {
	"stream", "shmids stream",
	"no copy: loan a slot, fill it in place, publish; next, read in "
	"place, release (lib/stream/, issue 43)",
	0, stream_init, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
	NULL
};
