"""A mapping and what holds it: _Memory (one attachment), the
Segment and Writer over it, arrays without a writable path to a
read-only mapping, detaching when the last holder goes, remove()
(Writer.remove()'s), and what the interpreter's exit does to them
(shmids-python(3), LIFETIME and EXIT)."""

import atexit
import collections
import ctypes
import errno as _errno
import functools
import gc
import os
import pickle
import sys
import weakref

from ._library import (HEADER, _BY_ENUM, _COLMAJOR, _Dims, _Info, _TYPES,
                       _TYPESTR, _explain, _fail, _lib, _lock, _np,
                       _scratch_aref, _scratch_array, _scratch_dims,
                       _scratch_dref, _shmids_array, _shmids_dims,
                       _shmids_label)
from ._args import _bytes, _cstr, _str


_PyBUF_READ = 0x100
_PyBUF_WRITE = 0x200
_frommemory = ctypes.pythonapi.PyMemoryView_FromMemory
_frommemory.restype = ctypes.py_object
_frommemory.argtypes = [ctypes.c_void_p, ctypes.c_ssize_t, ctypes.c_int]


def _keep(*objects):
    """A finalizer's callback that only held its arguments."""


class _Memory:
    """One attachment (shmids_open_flags() or shmids_create*()): its address,
    label, shape and type.  Detached (shmids_close()) when the last
    object holding it goes: its Segment or Writer until close(), and
    every array over it (numpy: through the array's base; memoryview:
    through its exporter).  Never handed out, never copied: nothing can
    reach the memory but through those, so nothing outlives the mapping
    (shmids-python(3), LIFETIME).  cell: the list _call() put the
    address in, emptied by whoever detaches first (_detach())."""

    def __init__(self, cell, writable):
        # Called with the lock held: the scratch structs are the lock's
        # (attach() is hot: no struct made, no byref() a call).
        shm = cell[0]
        a, d = _scratch_array, _scratch_dims
        _shmids_array(shm, _scratch_aref)
        _shmids_dims(shm, _scratch_dref)
        self.shm, self.addr = shm, a.data or shm + HEADER
        self.dtype = dtype = _BY_ENUM[a.type]
        self.shape = (d.rows, d.cols) if d.ndim == 2 else (a.count,)
        # a column-major table (shmids(5) 2.7): numpy's order "F"
        self.fortran = d.ndim == 2 and d.order == _COLMAJOR
        self.nbytes = a.count * _TYPES[dtype][3]
        self.ro = not writable
        self.cell = cell
        cell.append(True)   # held: a call interrupted leaves it to us

    _exiting = False    # set at the interpreter's exit (_at_exit())
    _label = None
    cell = ()           # until __init__ sets it (a signal may come first)

    @property
    def label(self):
        """The segment's label (str), asked of the library when first
        wanted (attach() needs it only for its errors)."""
        if self._label is None:
            with _lock:
                self._label = _str(_shmids_label(self.shm))
        return self._label

    def __del__(self):
        # Not at the interpreter's exit (_exiting): atexit handlers and
        # daemon threads may still read arrays.  The kernel detaches at
        # exit, and the library's exit handler seals what a writer left
        # (shmids(5) 2.2).  A __del__, not weakref.finalize(): attach()
        # is hot, and a finalizer costs as much as the attach's calls.
        if not self._exiting:
            _detach(self.cell)

    def interface(self):
        """numpy's __array_interface__ over the payload, read-only once
        self.ro is set (a reader's; a writer's after seal())."""
        i = {"data": (self.addr, self.ro), "shape": self.shape,
             "typestr": _TYPESTR[self.dtype], "version": 3}
        if self.fortran:    # column by column, no copy
            esz = _TYPES[self.dtype][3]
            i["strides"] = (esz, esz * self.shape[0])
        return i

    def array(self):
        """A new array over the whole payload, holding self."""
        if _np is not None:
            return _np.asarray(_Base(self))
        if self.nbytes == 0:
            return _wrap(b"" if self.ro else bytearray(0), self.dtype)
        # A memoryview has no column order: a column-major table's is
        # its storage, (cols, rows), the transpose (as 1.3 read it).
        return _wrap(self._buffer(), self.dtype, self.shape[::-1]
                     if self.fortran else self.shape)

    def _buffer(self):
        """A memoryview of the payload bytes that holds self (_view())."""
        return _view(self.addr, self.nbytes, self.ro, self)


def _view(addr, nbytes, ro, owner):
    """A memoryview of nbytes bytes at addr that holds owner: one made
    over the memory itself (PyMemoryView_FromMemory(): its obj is None,
    no ctypes object, so no writable path once read-only, a writer's
    after seal()), whose managed buffer, shared by every view made from
    it, holds owner (_hold()).  A segment's payload, or a stream's
    message (_stream)."""
    m0 = _frommemory(addr, nbytes, _PyBUF_READ if ro else _PyBUF_WRITE)
    if _hold(m0, owner, addr, nbytes):
        return m0
    if ro:
        # Another layout: views of the result hold m0, m0 holds owner
        # (views made of m0 itself, the result's obj, would not).
        weakref.finalize(m0, _keep, owner).atexit = False
        return memoryview(pickle.PickleBuffer(m0))
    buf = (ctypes.c_ubyte * nbytes).from_address(addr)
    buf.owner = owner
    return memoryview(buf)


_HEAD = object.__basicsize__    # PyObject_HEAD


def _hold(m, obj, addr, n):
    """Make the managed buffer of m (a fresh PyMemoryView_FromMemory()
    over n bytes at addr) hold a reference to obj, released when its
    last view goes, as the exporter of any other memoryview is: its
    master Py_buffer's obj, NULL for memory (CPython's memoryobject.c:
    PyObject_HEAD, int flags, Py_ssize_t exports, then the Py_buffer,
    whose buf, obj and len come first).  The layout is checked first,
    and the reference after, through the garbage collector's view of
    it; False (nothing done) where either differs."""
    mb = gc.get_referents(m)
    if len(mb) != 1 or type(mb[0]).__name__ != "managedbuffer":
        return False
    base = id(mb[0]) + _HEAD + 2 * ctypes.sizeof(ctypes.c_ssize_t)
    p_buf = ctypes.c_void_p.from_address(base)
    p_obj = ctypes.c_void_p.from_address(base + ctypes.sizeof(ctypes.c_void_p))
    p_len = ctypes.c_ssize_t.from_address(base + 2 * ctypes.sizeof(
        ctypes.c_void_p))
    if p_buf.value != addr or p_obj.value is not None or p_len.value != n:
        return False
    # Both from C (map), with no Python signal handler between them: a
    # KeyboardInterrupt would leave obj a reference never released.
    collections.deque(map(functools.partial.__call__, (
        functools.partial(ctypes.pythonapi.Py_IncRef, ctypes.py_object(obj)),
        functools.partial(setattr, p_obj, "value", id(obj)))), 0)
    if not any(r is obj for r in gc.get_referents(mb[0])):
        # Not seen by the collector: undo (never happens if the
        # layout matched).
        p_obj.value = None
        ctypes.pythonapi.Py_DecRef(ctypes.py_object(obj))
        return False
    return True


def _not_pickled(obj):
    raise TypeError("shmids: a %s is an attachment in this process and "
                    "cannot be pickled: pass its label (%r) and attach "
                    "it there" % ("Writer" if isinstance(obj, Writer)
                                  else "Segment", obj.label))


class Segment:
    """A segment attached read-only (segment(), and the base of every
    array attach() returns): label, shape (a tuple: (count,) or (rows,
    cols)), dtype (f64, f32, i64, i32, raw), array (a new read-only
    array over the payload each time it is asked; numpy.asarray(s)
    gives one too), close().  As a context manager it closes on exit.
    The mapping stays while any array over it lives: close() only
    ends this object's hold.  copy.copy() and copy.deepcopy() give the
    object itself (an attachment is not copied); pickle refuses it."""

    def __init__(self, mem):
        self._mem = mem
        self.label, self.shape, self.dtype = mem.label, mem.shape, mem.dtype

    @property
    def array(self):
        with _lock:     # atomic with close()
            mem = self._mem
            if mem is None:
                raise ValueError("shmids: %s: closed" % self.label)
            return mem.array()

    def __array__(self, dtype=None, copy=None):
        a = self.array
        return a if dtype is None and not copy else a.astype(dtype or
                                                             a.dtype)

    def close(self):
        """Let go of the segment: detached now if no array over it is
        left, else when the last goes (never under an array still in
        use); no new array can be had from this object.  Idempotent."""
        with _lock:
            self._mem = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce_ex__(self, protocol):
        _not_pickled(self)

    def __repr__(self):
        return "<shmids Segment %r %s %s>" % (self.label, self.dtype,
                                              self.shape)


class _Base(Segment):
    """A numpy array's base: a Segment that numpy reads the memory from
    (__array_interface__), one per array made.  Every array made from it
    (numpy.asarray(a.base)) has it as base too, so it lives, and holds
    the mapping, while any does; its close() only stops new arrays.  It
    exports no buffer: no view of a read-only mapping is writable."""

    _closed = False

    def __init__(self, mem):
        # label, shape and dtype are mem's, asked when wanted: one is
        # made for every array attach() returns
        self._mem = mem

    label = property(lambda self: self._mem.label)
    shape = property(lambda self: self._mem.shape)
    dtype = property(lambda self: self._mem.dtype)

    @property
    def __array_interface__(self):
        if self._closed:
            raise ValueError("shmids: %s: closed" % self.label)
        return self._mem.interface()

    def __array__(self, dtype=None, copy=None):
        a = _np.asarray(self)
        return a if dtype is None and not copy else a.astype(dtype or
                                                             a.dtype)

    @property
    def array(self):
        with _lock:
            if self._closed:
                raise ValueError("shmids: %s: closed" % self.label)
            return self._mem.array()

    def close(self):
        """No new array from this object; the mapping stays while the
        arrays that have it as base live.  Idempotent."""
        self._closed = True


# Writers of this process (for the exit after an uncaught exception).
_writers = weakref.WeakSet()


class Writer:
    """A new segment being filled (zeros()): label, shape, dtype, array
    (writable until seal()), seal(), remove(), close(), in any order,
    each idempotent.  As a context manager: seal() on a normal exit,
    remove() on an exception (a segment already removed, by shm-rm, is
    no error then).  The array's base is a Segment over the mapping, not
    this object: no cycle through arrays, which take no part in garbage
    collection."""

    def __init__(self, mem):
        self._mem = mem
        self.label, self.shape, self.dtype = mem.label, mem.shape, mem.dtype
        self._array = mem.array()
        self.sealed = self.removed = self.closed = False
        self._pid = os.getpid()
        _writers.add(self)

    @property
    def array(self):
        """The writable array over the payload (read-only after seal());
        ValueError after close()."""
        a = self._array
        if a is None:
            raise ValueError("shmids: %s: closed" % self.label)
        return a

    def seal(self):
        """Mark the segment ready: readers (attach(), shm-expand) may now
        read it.  w.array becomes read-only, and so do arrays made from
        its base afterwards; views made from w.array before keep their
        own flags (numpy cannot take them back): do not write them.
        Idempotent; nothing to do after close(), which seals (shmids(5)
        2.2)."""
        self._writer_only("seal")
        with _lock:
            mem = self._mem
            if self.sealed or mem is None:
                return
            if _lib.shmids_seal(mem.shm) == -1:
                raise _fail(self.label, _bytes(self.label))
            self.sealed = mem.ro = True
            if _np is not None:
                self._array.flags.writeable = False
            else:
                self._array = self._array.toreadonly()

    def remove(self):
        """Remove the segment (remove()); the array stays valid until it
        goes, as with shm-rm.  Idempotent."""
        self._writer_only("remove")
        if not self.removed:
            remove(self.label)
        self.removed = True

    def close(self):
        """Let go: detached, and sealed (shmids_close(), unless a process
        forked from this one still fills it: shmids(5) 2.2), now if no
        array over the segment is left, else when the last goes.  Then
        w.array raises ValueError.  Idempotent."""
        with _lock:
            self._array = self._mem = None
            self.closed = True

    def _writer_only(self, what):
        """seal() and remove() belong to the process that made the
        segment: in a child forked inside "with zeros()" they would
        end the parent's segment while it is still filling."""
        if self._pid != os.getpid():
            raise RuntimeError(
                "shmids: %s: %s() in pid %d, a process forked from its "
                "writer (pid %d): only the writer seals or removes it"
                % (self.label, what, os.getpid(), self._pid))

    def __enter__(self):
        return self

    def __exit__(self, etype, *exc):
        # A forked child leaving the block, or raising in it, leaves
        # the parent's segment to the parent (shmids-python(3), FORK).
        if self._pid != os.getpid():
            return False
        if etype is None:
            self.seal()
            return False
        try:
            self.remove()
        except FileNotFoundError:   # removed meanwhile (shm-rm): done
            self.removed = True
        return False

    def __reduce_ex__(self, protocol):
        _not_pickled(self)

    def __repr__(self):
        return "<shmids Writer %r %s %s>" % (self.label, self.dtype,
                                             self.shape)


def _remove_unsealed():
    """At the interpreter's exit after an uncaught exception (the top
    level set sys.last_value; not an interactive session, where that
    happens at every error): remove the segments this process's Writers
    never sealed, closed or removed, which the library's exit handler
    would seal as ready half-written, and say so, a line each (shmids(5)
    2.2: the rule of every language).  A forked child's exit leaves its
    parent's alone."""
    if getattr(sys, "last_value", None) is None or \
            hasattr(sys, "ps1") or sys.flags.interactive:
        return
    for w in list(_writers):
        if w._pid == os.getpid() and not (w.sealed or w.removed or
                                          w.closed):
            try:
                w.remove()
            except OSError:
                continue
            try:
                sys.stderr.write("shmids: %s: removed, never sealed: the "
                                 "program ends by an uncaught error\n"
                                 % w.label)
                sys.stderr.flush()
            except (AttributeError, OSError, ValueError):
                pass    # no stderr left (closed, pythonw)


atexit.register(_remove_unsealed)


def _at_exit():
    _Memory._exiting = True


atexit.register(_at_exit)


def _call(cell, fn, *args):
    """cell[:] = [fn(*args)], a library function that attaches: the
    address is in cell before any Python signal handler can run (they
    run between bytecodes, and list's slice assignment calls fn from C
    through map), so that KeyboardInterrupt at the end of a long call
    (a big segment made) leaves it to the caller's cleanup, not lost."""
    cell[:] = map(fn, *zip(args))
    return cell[0]


def _detach(cell):
    """Detach the address cell holds, once: its _Memory's finalizer, or
    a call that failed or was interrupted, whichever comes first."""
    with _lock:
        shm = cell.pop(0) if cell and cell[0] is not True else None
        if shm:
            _lib.shmids_close(shm)


def _drop(cell):
    """A call that failed or was interrupted: detach what cell holds,
    unless a _Memory holds it (cell [address, True]), which detaches it
    when it goes: an array over it may be left in the traceback."""
    with _lock:
        if len(cell) == 1:
            _detach(cell)


def _undo(cell, label=None):
    """Remove the new segment cell holds (or label, once detached) and
    detach it (_drop()): create() or zeros() interrupted."""
    with _lock:
        if cell and cell[0] and cell[0] is not True:
            label = _lib.shmids_label(cell[0])
        if label:
            _lib.shmids_remove(label)
        _drop(cell)


def _wrap(buf, tname, shape=None):
    """A buffer of bytes as an array of tname (of shape, if given; a
    memoryview with a 0 in its shape stays 1-D): ndarray or memoryview."""
    t = _TYPES[tname]
    if _np is not None:
        a = _np.frombuffer(buf, dtype=t[2])
        return a.reshape(shape) if shape else a
    m = memoryview(buf).cast("B")
    if shape and len(shape) >= 2 and 0 not in shape:
        return m.cast(t[1], list(shape))
    return m.cast(t[1])


def remove(label):
    """Remove the segment label names, after checking its header carries
    that label (shmids(5) 2.3); arrays attached to it stay valid
    until they go (as with shm-rm).  A segment of one's own whose
    header is damaged (EBADMSG) but still carries that label is removed
    as shm-rm removes it (shmids_stat_dims(), then shmids_remove_info()).
    Raises OSError as attach() does, but never EAGAIN or EOWNERDEAD, and
    PermissionError (EPERM) for a segment of another owner.
    """
    b = _cstr(label, label)
    with _lock:
        if _lib.shmids_remove(b) == 0:
            return
        e = ctypes.get_errno() or _errno.EIO
        if e == _errno.EBADMSG and _remove_damaged(b):
            return
    raise OSError(e, _explain(e, b), label)


def _remove_damaged(b):
    """As shm-rm removes an operand: the segment the label b names, if
    its header (damaged) still carries that label, and it is the
    caller's and not removed yet.  True if removed."""
    si = _Info()
    label = b[:-1] if b.endswith(b"\n") else b
    if _lib.shmids_stat_dims(label.split(b" ", 1)[0], ctypes.byref(si),
                             ctypes.byref(_Dims()), 0) == -1:
        return False
    if si.label != label or si.removed or si.uid != os.geteuid():
        return False
    return _lib.shmids_remove_info(ctypes.byref(si), 0) == 0
