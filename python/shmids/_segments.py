"""The calls over segments: attach() and segment() (readers, waiting
for a writer), zeros() and create() (writers), release() (pages
dropped)."""

import ctypes
import errno as _errno
import gc
import sys
import time

from ._library import (HEADER, _COLMAJOR, _COLS_MAX, _ROWMAJOR,
                       _SHMIDS_LAZY, _SIZE_MAX, _TYPES, _explain, _fail,
                       _get_errno, _lib, _lock, _np, _shmids_open_flags)
from ._args import (_M600, _count, _cstr, _mode, _name, _reshape,
                    _seconds, _shape, _str, _tname)
from ._mapping import (Writer, Segment, _Base, _Memory, _call, _detach,
                       _drop, _undo)


def _open(b, seconds, flags, cell):
    """shmids_open_flags(b, flags, seconds) under the lock, into cell:
    (address, errno)."""
    with _lock:
        shm = _call(cell, _lib.shmids_open_flags, b, flags, seconds)
        return shm, ctypes.get_errno()


def _wait_open(b, timeout, populate, cell):
    """One try, or tries for up to timeout seconds: the lock is not held
    between them (1 ms, doubling up to 20 ms), so that other threads'
    calls go on meanwhile.  Lazy unless populate: numpy users touch
    pages as they go (shmids(3), shmids_open_flags).  Returns (address
    or None, errno), the address in cell too."""
    flags = 0 if populate else _SHMIDS_LAZY
    if timeout is None:
        return _open(b, 0, flags, cell)
    end = time.monotonic() + _seconds(timeout)
    pause = 0.001
    while True:
        shm, e = _open(b, 0, flags, cell)
        left = end - time.monotonic()
        if shm or e != _errno.EAGAIN or left <= 0:
            return shm, e
        time.sleep(min(pause, left))
        pause = min(2 * pause, 0.02)


def segment(label, timeout=None, populate=False, shape=None):
    """Attach the segment label names: a Segment (context manager; see
    attach() for label, timeout, populate, shape and errors)."""
    return Segment(_attach(label, timeout, populate, shape))


def _attach(label, timeout, populate, shape=None):
    """The _Memory of the segment label names, attached read-only, of
    shape if given (_reshape())."""
    b = _cstr(label, label)
    cell = []
    try:
        if timeout is None:     # one try, one hold of the lock
            with _lock:
                cell[:] = map(_shmids_open_flags, (b,), (
                    0 if populate else _SHMIDS_LAZY,), (0.0,))
                if cell[0]:
                    mem = _Memory(cell, False)
                else:
                    e = _get_errno()
        else:
            shm, e = _wait_open(b, timeout, populate, cell)
            if shm:
                with _lock:
                    mem = _Memory(cell, False)
        if cell[0]:
            if shape is not None:
                _reshape(mem, shape)
            return mem
    except BaseException:
        _drop(cell)
        raise
    name = _str(b)
    err = OSError(e or _errno.EIO, _explain(e or _errno.EIO, b), name)
    if err.errno == _errno.EAGAIN and timeout:
        err.strerror += " (waited %g s)" % timeout
    raise err


def attach(label, timeout=None, populate=False, shape=None):
    """Attach the segment label names; a read-only array over its payload.

    label: "<shmid> <name>" or "<path> <name>" (shmids(5) section 1), str or
    bytes, optionally ending in one newline.  timeout: None to try once (a
    writer still filling is BlockingIOError), or seconds (an int or float,
    numpy's too; 0 or more, inf for ever) to wait for the writer to seal, as
    shm-expand -w waits: tries every 20 ms at most (shmids_open_flags() with
    0 seconds), without holding the module's lock between tries, so other
    threads' calls go on.  Returns an array of the segment's shape: 1-D of
    its count elements, or 2-D (rows, cols) for a table (shmids(5) 2.7),
    dtype from its type (f64 float64, f32 float32, i64 int64, i32 int32, raw
    uint8); numpy.ndarray with numpy, else a memoryview of format d, f, q, i
    or B.  No copy: the array is the segment's memory, mapped read-only
    (writing raises ValueError, or TypeError for a memoryview); with numpy
    its base is a Segment, which exports no buffer, so no writable view can
    be had (numpy.asarray(a.base) is read-only); without numpy the
    memoryview's obj is None (it is made over the memory,
    PyMemoryView_FromMemory()).  The attach maps pages as they are first
    read (shmids_open_flags() with SHMIDS_LAZY: it costs the same whatever
    the size), a page fault each; populate=True maps every written page at
    the attach instead, as the tools do, which costs less in all for a
    caller about to read the whole array at once (a System V segment's pages
    fault one by one: shmids(3), shmids_open_flags): a reader that reads
    everything (a sum, a copy, numpy.array(a)) passes populate=True, and
    pays on 4 KiB pages no more than numpy.load of the same array from a
    .npy file (bench/python.py); a file segment's faults, or a segment's
    in 2 MiB pages, map many pages each, where lazy loses little.  release() drops pages
    read from this process's memory again.  The segment stays attached while
    the array, or any view or array made from it or its base, lives, and is
    detached when the last is collected (not at the interpreter's exit: the
    kernel detaches then); "with a.base:" (or segment()) closes it at the
    end of the block, at once if no array is left then.  Pickled
    (multiprocessing), the array is a copy.  The label is checked against
    the segment's header first (shmids(5) 2.3).  shape: the array's
    shape instead of the segment's, as many elements in row-major (C)
    order: an N-D array that zeros() or create() kept in a 1-D segment
    (shmids(5) 2.7 keeps at most 2 dimensions in the header), e.g.
    attach(label, shape=(50, 50, 50)).

    Raises TypeError for a label neither str nor bytes, or a timeout
    that is no number; ValueError for a negative or NaN timeout, or a
    shape not of the segment's number of elements;
    OSError with the library's errno (label as filename) and
    shmids_explain()'s words, as shm-expand says them:
    EINVAL or ENAMETOOLONG (label malformed), FileNotFoundError (ENOENT:
    no such segment, or removed), PermissionError (EACCES), ESTALE (the
    id names another segment now, or a file segment's file is owned by
    another user than its name says made it), EBADMSG (corrupt header,
    or a file segment with a hole in its declared bytes: a sparse file),
    BlockingIOError (EAGAIN: writer still filling, after timeout),
    EOWNERDEAD (writer died before sealing), ENOMEM.

    A file segment (SHMIDS_DIR) is the file's own pages: whoever may
    write the file (its owner) can truncate it while the array lives,
    and reading the pages it lost then kills the interpreter with
    SIGBUS, which Python cannot catch (shmids(5) 2.6); a System V
    segment cannot shrink.  So would reading a hole of a sparse file on a
    full tmpfs: such a segment (which no shmids writer makes) is refused
    at the attach (EBADMSG).
    """
    return _attach(label, timeout, populate, shape).array()


def _type_of(array):
    """(type name, shape, bytes view in row-major order) of a 1-D or
    2-D array of our dtypes; with numpy, a list or any sequence is read
    by numpy.asarray()."""
    if _np is not None and not isinstance(array, _np.ndarray):
        try:
            memoryview(array)
        except TypeError:
            array = _np.asarray(array)
    if _np is not None and isinstance(array, _np.ndarray):
        if array.ndim == 0:
            raise ValueError("shmids: an array of 1 dimension or more is "
                             "needed, not 0-D")
        dt = array.dtype
        for name, t in _TYPES.items():
            if dt.kind == _np.dtype(t[2]).kind and dt.itemsize == t[3]:
                array = _np.ascontiguousarray(array, dtype=t[2])
                return name, array.shape, memoryview(array.reshape(-1)) \
                    .cast("B")
        raise TypeError("shmids: dtype %s is none of float64, float32, "
                        "int64, int32, uint8" % dt)
    try:
        m = memoryview(array)
    except TypeError:
        raise TypeError("shmids: an array is needed (array.array, bytes, "
                        "memoryview; numpy is not importable), not %s"
                        % type(array).__name__) from None
    if m.ndim == 0:
        raise ValueError("shmids: an array of 1 dimension or more is "
                         "needed, not 0-D")
    # ctypes says its arrays' byte order: "<d" is d on this machine
    fmt = m.format.lstrip("@=" + ("<" if sys.byteorder == "little" else
                                  ">!"))
    for name, t in _TYPES.items():
        if (fmt == t[1] or (fmt in "lq" and t[1] == "q") or
                (fmt in "il" and t[1] == "i")) and m.itemsize == t[3]:
            shape = m.shape
            if not m.c_contiguous or m.ndim >= 2:
                m = memoryview(m.tobytes())
            return name, shape, m.cast("B")
    raise TypeError("shmids: memoryview format %r is none of d, f, q, i, B"
                    % m.format)


def _create_error(e, name, shape, tname):
    """The OSError for errno e of shmids_create_*(name...), in the words
    of shm-import (cmd/msg.c's msg_create_error()): the name and the
    columns were checked before, so EINVAL is the size (or SHMIDS_DIR);
    shmids_explain() says the rest, a SHMIDS_DIR missing with the mkdir
    to run."""
    n = 1
    for d in shape:
        n *= d
    if e == _errno.EINVAL:
        why = ("SHMIDS_DIR cannot go into a label (blanks?)"
               if _lib.shmids_dir() else
               "size outside the kernel's limits (kernel.shmmax; see "
               "shm-ls -l): %d elements of %d bytes" % (n, _TYPES[tname][3]))
    elif e == _errno.ENOMEM:
        why = "out of memory for %d elements of %d bytes" % (
            n, _TYPES[tname][3])
    else:
        why = _explain(e)
    return OSError(e, why, name)


def _order(order):
    """order as SHMIDS_ROWMAJOR or SHMIDS_COLMAJOR: "C" or "F" (numpy's
    names; str or bytes)."""
    if isinstance(order, bytes):
        order = order.decode("latin-1")
    if not isinstance(order, str):
        raise TypeError("shmids: order %r is not 'C' or 'F'" % (order,))
    if order not in ("C", "F"):
        raise ValueError("shmids: order %r is not 'C' (row by row) or 'F' "
                         "(column by column)" % (order,))
    return ord(order)


def _new(name, tname, shape, mode, cell, order=_ROWMAJOR):
    """shmids_create_array() or _matrix() (a table in order): the new
    segment's address, also in cell (_call()).  Call with the lock
    held."""
    bname = _name(name)
    t = _TYPES[tname][0]
    if len(shape) == 2 and not 1 <= shape[1] <= _COLS_MAX:
        raise OSError(_errno.EINVAL, "a table has 1 to %d columns, not %d"
                      % (_COLS_MAX, shape[1]), name)
    if any(n > _SIZE_MAX for n in shape):   # ctypes would truncate it
        raise _create_error(_errno.ENOMEM, name, shape, tname)
    if len(shape) == 2:
        shm = _call(cell, _lib.shmids_create_matrix, bname, mode, t,
                    shape[0], shape[1], order)
    else:
        shm = _call(cell, _lib.shmids_create_array, bname, mode, t,
                    shape[0])
    if not shm:
        raise _create_error(ctypes.get_errno() or _errno.EIO, name, shape,
                            tname)
    return shm


def zeros(name, shape, dtype="f8", mode=_M600, order="C"):
    """Make a new segment of shape and dtype, zero-filled, to fill in place.

    name: as create() takes it.  shape: n, (n,) or (rows, cols) (a
    table, shmids(5) 2.7), or (n1, n2, n3, ...): an N-D array in a 1-D
    segment of their product, which readers attach with shape=.  dtype: f8, f4, i8, i4, u1 (or f64, f32,
    i64, i32, raw, or numpy's spellings of these).  mode: as create().
    order: "C" (row by row) or "F" (column by column, as Fortran and R
    hold a matrix: a column-major table, header version 3, which
    shmids 1.3 refuses; w.array is then numpy's order "F", no copy).
    Returns a Writer w: w.array is a writable array over the payload
    (no copy; numpy.ndarray, else a memoryview), w.label the label,
    w.seal() makes it ready for readers and w.array read-only,
    w.remove() removes it.  Used as a context manager ("with
    shmids.zeros(...) as w:") it seals at a normal exit and removes the
    segment at an exception.  A segment never sealed is sealed when w
    and its arrays go (shmids_close(), the writer's end of shmids(5)
    2.2), and at the process's normal exit, half-written or not: use
    "with".  Only when the interpreter exits on an uncaught exception
    (not interactive) does the module remove, first, the segments of
    this process's writers never sealed, closed or removed
    (shmids-python(3), EXIT).  Readers wait for it with attach(label,
    timeout).

    Raises TypeError (dtype, mode), ValueError (shape; mode out of
    range) and OSError as create() does (0 columns: EINVAL).
    """
    tname = _tname(dtype)
    shape = _shape(shape, nd=True)
    mode = _mode(mode)
    o = _order(order)
    cell = []
    with _lock:
        try:
            # N-D: a 1-D segment, its arrays of the shape (2.7)
            if len(shape) > 2 and o == _COLMAJOR:
                raise ValueError("shmids: order 'F' is for 2-D tables; an "
                                 "N-D array is kept row by row (shmids(5) 2.7)")
            _new(name, tname, shape if len(shape) <= 2 else
                 (_count(shape),), mode, cell, o)
            mem = _Memory(cell, True)
            if len(shape) > 2:
                mem.shape = shape
            return Writer(mem)
        except BaseException:
            _undo(cell)
            raise


def create(name, array, mode=_M600, order=None):
    """Copy a 1-D or 2-D array into a new sealed segment; returns its label.

    name: 1 to 64 printable ASCII bytes other than space (shmids(5)
    section 1).  array: a 1-D or 2-D numpy array (one of 3 dimensions or
    more is copied in row-major order into a 1-D segment, which readers
    attach with shape=: shmids(5) 2.7) of dtype float64,
    float32, int64, int32 or uint8 (type f64, f32, i64, i32, raw), or
    any such buffer of format d, f, q, i or B (bytes, array.array,
    memoryview); with numpy, a list or other sequence numpy.asarray()
    makes one of (floats: f64, ints: i64).  A 2-D array (C-contiguous
    or not) is copied in
    row-major order into a table segment of its rows x cols (shmids(5)
    2.7, header version 2: shmids 1.1 cannot read it);
    order="F", or order None (the default) and a numpy array that is
    Fortran-contiguous and not C-contiguous (numpy.asfortranarray(),
    a transpose, R's and Fortran's matrices), makes a column-major
    table instead (header version 3, which shmids 1.3 cannot read),
    its bytes copied as they lie, column by column; order="C" a
    row-major one whatever the array's layout.
    mode: permission bits, an int 0 to 0o777, given exactly (no umask).
    The segment is a System V one, or a file in $SHMIDS_DIR when that is
    set (shmids(5) 2.6); it outlives this process.  Returns the label,
    "<shmid> <name>" or "<path> <name>" (str).

    Raises TypeError or ValueError for another dtype or shape, or a mode
    that is not an int in 0..0o777 (numpy's ints are ints); TypeError for a
    name neither str nor bytes; OSError with the library's errno, in
    shm-import's words: EINVAL (a name that is not 1 to 64 bytes of
    printable ASCII without blanks, 0 columns or more than 9999999, or a
    size the kernel refuses), ENAMETOOLONG, ENOMEM, ENOSPC (kernel.shmmni or
    shmall reached, or a full file system), PermissionError.
    """
    o = None if order is None else _order(order)
    if o == _COLMAJOR and _np is None:
        raise ValueError("shmids: order 'F' needs numpy")
    if o == _COLMAJOR and not isinstance(array, _np.ndarray):
        array = _np.asarray(array)
    if (_np is not None and isinstance(array, _np.ndarray) and
            array.ndim == 2 and (o == _COLMAJOR or (
                o is None and array.flags.f_contiguous and
                not array.flags.c_contiguous))):
        # column by column: the transpose's rows, as they lie if the
        # array is Fortran-contiguous (no reordering)
        tname, tshape, src = _type_of(array.T)
        shape, o = (tshape[1], tshape[0]), _COLMAJOR
    else:
        if o == _COLMAJOR:
            raise ValueError("shmids: order 'F' is for 2-D tables; an "
                             "N-D array is kept row by row (shmids(5) 2.7)")
        tname, shape, src = _type_of(array)
        o = _ROWMAJOR
    shape = _shape(shape, nd=True)
    if len(shape) > 2:      # N-D: a 1-D segment (shmids(5) 2.7)
        shape = (_count(shape),)
    mode = _mode(mode)
    cell, label = [], None
    with _lock:
        try:
            shm = _new(name, tname, shape, mode, cell, o)
            label = _lib.shmids_label(shm)
            if src.nbytes:
                dst = (ctypes.c_ubyte * src.nbytes).from_address(
                    shm + HEADER)
                memoryview(dst).cast("B")[:] = src
            _lib.shmids_seal(shm)
            _detach(cell)
        except BaseException:
            _undo(cell, label)
            raise
    return _str(label)


def _span(a):
    """(mapping, offset, bytes) of the payload bytes array a spans."""
    if _np is not None and isinstance(a, _np.ndarray):
        base = a
        while base is not None and not isinstance(base, _Base):
            base = getattr(base, "base", None)
        if base is None:
            raise ValueError("shmids: release() takes arrays over "
                             "segments (attach(), zeros()), not a copy")
        mem = base._mem
        if a.size == 0:
            return mem, 0, 0
        lo = hi = a.__array_interface__["data"][0]
        for n, st in zip(a.shape, a.strides):
            lo += min(0, (n - 1) * st)
            hi += max(0, (n - 1) * st)
        return mem, lo - mem.addr, hi - lo + a.itemsize
    mem = _memory_of(a) if isinstance(a, memoryview) else None
    if mem is None:
        raise ValueError("shmids: release() takes arrays over segments "
                         "(attach(), zeros()), not %s" % type(a).__name__)
    if a.nbytes != mem.nbytes:
        raise ValueError("shmids: without numpy, release() takes a whole "
                         "array, not part of one")
    return mem, 0, a.nbytes


def _memory_of(m):
    """The _Memory a memoryview m is over, or None: what its managed
    buffer holds (_hold()), or the owner of the ctypes array it
    holds (a writer's)."""
    for mb in gc.get_referents(m):
        for o in gc.get_referents(mb):
            if isinstance(o, _Memory):
                return o
            if isinstance(getattr(o, "owner", None), _Memory):
                return o.owner
    return None


def release(*arrays):
    """Drop the pages of arrays over segments from this process's memory.

    arrays: arrays from attach(), segment().array or zeros().array, or
    views of them (slices, windows; with numpy any view, else whole
    memoryviews).  Each array's pages leave this process's resident set
    (shmids_release(), madvise(2) MADV_DONTNEED): the data stays in the
    segment, and reading the array again (or writing it, before
    seal()) maps them again.  A page that holds any byte of an array
    goes whole, which loses nothing.  For a filter that reads one
    segment and writes another window by window, releasing each window
    once done keeps its memory to the output's pages and a window or
    two instead of both arrays (shmids-python(3) has the loop; bench/
    measures it).  Returns None.

    Raises ValueError for an array that is not over a segment (an
    array over a closed one is: the mapping stays while it lives);
    OSError as shmids_release() fails (madvise(2)).
    """
    spans = [_span(a) for a in arrays]
    with _lock:
        for m, off, nbytes in spans:
            if _lib.shmids_release(m.shm, off, nbytes) == -1:
                raise _fail(m.label)
