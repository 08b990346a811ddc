"""shmids: labelled shared memory segments from Python, without a copy.

After Eric Grosse, "How Shall We Connect Our Software Tools?" (AT&T Bell
Laboratories, 1990): ASCII files keep their shape, big arrays live in
segments named by reference lines such as

    coeff shmids 402 simdat-3/23-seriesb

A writer fills a new segment in place and prints its label; a reader
(another process) waits for it and has the array, no copy:

    with shmids.zeros("grid", (1000, 1000)) as w:   # sealed at the end,
        w.array[:] = 1.5                            # removed on an error
    print(w.label)                                  # "402 grid"

    a = shmids.attach(label, timeout=10)            # read-only, (1000, 1000)
    d = shmids.load("data.shm")                     # a file of fields
    shmids.remove(label)                            # or shm-rm, shm-ls

A stream carries many messages through one segment (a live
simulation's steps), each filled and read in place:

    with shmids.stream("sim", slots=8, capacity=80000) as w:
        for step in range(1000):
            with w.loan((100, 100)) as a:           # published at the end
                a[:] = step
    for a in shmids.follow(label):                  # another process; a is
        print(a.base.seq, a.sum())                  # valid until the next

This module is ctypes over the project's own libshmids.so, so labels,
headers and numbers are checked and written by the one C
implementation; shmids(5) is the contract (the format, with its
section numbers below), shmids-python(3) the manual page of this
module, with a comparison against multiprocessing.shared_memory and
numpy.memmap.
With numpy importable, arrays are numpy.ndarray; without it, typed
memoryviews (format 'd', 'f', 'q', 'i' or 'B').

Element types (shmids(5) section 4) and what they become:

    f64 float64 'd'    f32 float32 'f'    i64 int64 'q'
    i32 int32 'i'      raw uint8 'B'

Arrays are 1-D, or 2-D (rows, cols) for a table (shmids(5) 2.7: a
segment of rows x cols elements stored row by row, which shm-import
makes of a block of rows of numbers and shmids 1.1 cannot read), in
native byte order; counts are in elements, sizes in bytes.  Errors of
the library raise OSError with its errno, whose subclass Python picks
(FileNotFoundError for ENOENT, PermissionError for EACCES,
BlockingIOError for EAGAIN, ...), the message in shmids_explain()'s
words (what the tools print), and the label or field as filename.

No writable path leads to a read-only mapping: with numpy an array's
base is a Segment, which exports no buffer; without numpy a read-only
memoryview is made over the memory (PyMemoryView_FromMemory()): its obj
is None.  A
mapping stays while any array over it lives (close() never detaches
under one), and is not detached at the interpreter's exit.

The library's list of attached segments is not locked: this module
serialises its calls with a lock of its own, so threads may share it;
attach(timeout=...) does not hold it while it waits, and a forked child
gets a fresh one.  A file segment truncated under an array kills the
reader with SIGBUS (see attach()).

Where the library is: $SHMIDS_LIB if set; else where make install put
it; else build/libshmids.so of the source tree this package is in;
else libshmids.so.1 beside the package, in pkg-config's libdir of
shmids, or where the system keeps libraries.  Without one, "import
shmids" raises ImportError saying what to install (shmids-python(3),
INSTALLATION).
"""

# One module a concern, each importing only those listed before it:
#   _locate     where libshmids is (and the version: one, the header's)
#   _library    libshmids through ctypes: loading it, its structs and
#               prototypes, the element types, the lock, its errors
#   _args       what callers pass, checked (names, modes, shapes...)
#   _mapping    an attachment and what holds it: Segment, Writer, remove()
#   _segments   attach(), segment(), zeros(), create(), release()
#   _load       load(), the ASCII files read (shmids(5) 5, 6, 6.1)
#   _dump       dump(), written
#   _ls         ls(), shm-ls -p's listing
#   _stream     stream() (a writer lending its slots), follow() (a reader)
from ._locate import _project_version
from ._library import HEADER, TYPES, numpy   # shmids.HEADER, .numpy too
from ._mapping import Segment, Writer, remove
from ._segments import attach, segment, zeros, create, release
from ._load import load
from ._dump import dump
from ._ls import ls
from ._stream import stream, follow, Stream, Follower

__all__ = ["attach", "segment", "zeros", "create", "remove", "release",
           "load", "dump", "ls", "stream", "follow", "Segment", "Writer",
           "Stream", "Follower", "TYPES"]

__version__ = _project_version()     # SHMIDS_VERSION of lib/shmids.h
