"""numpy_attach: the Python module's round trip, whole.  A writer copies
a million doubles into a segment and gets its label; a reader attaches
it (read-only, no copy) and sums it; then the segment goes.  Run from
the top directory after make:

    PYTHONPATH=python python3 examples/numpy_attach.py

An optional argument is put before the segment's name.
"""
import sys

import numpy
import shmids

name = (sys.argv[1] if len(sys.argv) > 1 else "") + "numpy-u"
label = shmids.create(name, numpy.arange(10**6, dtype=numpy.float64))
print("label:", label)                  # "<shmid> numpy-u", as shm-ls shows

u = shmids.attach(label)                # an ndarray over the segment itself
print("u: %d values, %s, read-only %s, sum %d"
      % (u.size, u.dtype, not u.flags.writeable, u.sum()))
del u                                   # detached: the last view went

shmids.remove(label)                    # in a pipeline, the last reader's job
