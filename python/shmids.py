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

Where the library is: $SHMIDS_LIB if set; else the path make install
wrote below; else build/libshmids.so next to this file's directory (the
source tree); else the loader's search for libshmids.so.1.
"""

import atexit
import collections
import ctypes
import ctypes.util
import csv
import errno as _errno
import functools
import gc
import io
import numbers
import operator
import os
import pickle
import sys
import threading
import time
import weakref

try:
    import numpy as _np
except ImportError:  # memoryviews then, and a word once (at import)
    _np = None
    import warnings
    warnings.warn("shmids: numpy is not importable: arrays are typed "
                  "memoryviews (Debian: apt-get install python3-numpy)",
                  ImportWarning, stacklevel=2)

__all__ = ["attach", "segment", "zeros", "create", "remove", "release",
           "load", "dump", "ls", "Segment", "Writer", "TYPES"]

__version__ = "1.6.0"    # SHMIDS_VERSION of shmids.h (tests/version.bats)

# make install replaces None with the installed library's absolute path.
_INSTALLED_LIB = None

HEADER = 128            # bytes before the payload (shmids(5) 2)
_LABEL_MAX = 75
_NAME_MAX = 64          # bytes in a segment's name (shmids(5) 1)
_COLS_MAX = 9999999     # columns of a table (shmids(5) 2.7)
_SIZE_MAX = ctypes.c_size_t(-1).value

# type name: (enum shmids_type, memoryview format, numpy dtype, bytes)
_TYPES = {
    "raw": (0, "B", "uint8", 1),
    "f64": (1, "d", "float64", 8),
    "f32": (2, "f", "float32", 4),
    "i64": (3, "q", "int64", 8),
    "i32": (4, "i", "int32", 4),
}
TYPES = tuple(_TYPES)
_BY_ENUM = {v[0]: k for k, v in _TYPES.items()}
# numpy's typestr of each type ("<f8" here), made once: attach() is hot
_TYPESTR = {k: _np.dtype(v[2]).str for k, v in _TYPES.items()} \
    if _np is not None else {}

#: True when functions return numpy arrays (numpy importable).
numpy = _np is not None


def _library_path():
    # realpath: a symlink to python/ still finds the build tree beside it
    here = os.path.dirname(os.path.realpath(__file__))
    build = os.path.join(here, os.pardir, "build", "libshmids.so")
    for p in (os.environ.get("SHMIDS_LIB"), _INSTALLED_LIB):
        if p:
            return p
    if os.path.exists(build):
        return os.path.normpath(build)
    return ctypes.util.find_library("shmids") or "libshmids.so.1"


class _Array(ctypes.Structure):
    """struct shmids_array of lib/shmids.h."""
    _fields_ = [("data", ctypes.c_void_p), ("count", ctypes.c_size_t),
                ("type", ctypes.c_int), ("shm_", ctypes.c_void_p),
                ("buf_", ctypes.c_void_p)]


class _Values(ctypes.Structure):
    """struct shmids_values of lib/shmids.h (library 1.1)."""
    _fields_ = [("data", ctypes.c_void_p), ("count", ctypes.c_size_t),
                ("cap", ctypes.c_size_t), ("type", ctypes.c_int)]


class _Info(ctypes.Structure):
    """struct shmids_info of lib/shmids.h: its 1.0 layout, frozen (ABI)."""
    _fields_ = [
        ("shmid", ctypes.c_int),
        ("id", ctypes.c_char * (_LABEL_MAX + 1)),
        ("key", ctypes.c_int),
        ("mode", ctypes.c_uint),
        ("removed", ctypes.c_int),
        ("uid", ctypes.c_uint32), ("cuid", ctypes.c_uint32),
        ("gid", ctypes.c_uint32), ("cgid", ctypes.c_uint32),
        ("size", ctypes.c_size_t),
        ("nattch", ctypes.c_ulong),
        ("cpid", ctypes.c_int32), ("lpid", ctypes.c_int32),
        ("atime", ctypes.c_long), ("dtime", ctypes.c_long),
        ("ctime", ctypes.c_long),
        ("ours", ctypes.c_int),
        ("err", ctypes.c_int),
        ("label", ctypes.c_char * (_LABEL_MAX + 1)),
        ("name", ctypes.c_char_p),
        ("type", ctypes.c_int),
        ("count", ctypes.c_size_t),
        ("state", ctypes.c_int),
    ]


class _Span(ctypes.Structure):
    """struct shmids_span of lib/shmids.h (library 1.5): what
    shmids_values_read() read; bad an address (not read as a string)."""
    _fields_ = [("count", ctypes.c_size_t), ("used", ctypes.c_size_t),
                ("lines", ctypes.c_size_t), ("more", ctypes.c_int),
                ("bad", ctypes.c_void_p)]


class _Dims(ctypes.Structure):
    """struct shmids_dims of lib/shmids.h (library 1.4): the shape as
    meant, and the order of the payload, "C" or "F" (shmids(5) 2.7)."""
    _fields_ = [("ndim", ctypes.c_int), ("order", ctypes.c_int),
                ("rows", ctypes.c_size_t), ("cols", ctypes.c_size_t)]


_ROWMAJOR, _COLMAJOR = ord("C"), ord("F")   # SHMIDS_ROWMAJOR, _COLMAJOR


class _Line(ctypes.Structure):
    """struct shmids_line: what a line is (shmids(3), shmids(5) 5, 6)."""
    _fields_ = [("kind", ctypes.c_int), ("lineno", ctypes.c_ulong),
                ("lead", ctypes.c_size_t), ("field", ctypes.c_size_t),
                ("fieldlen", ctypes.c_size_t), ("values", ctypes.c_size_t),
                ("end", ctypes.c_size_t), ("eol", ctypes.c_int),
                ("sep", ctypes.c_int), ("count", ctypes.c_size_t),
                ("more", ctypes.c_int), ("bad", ctypes.c_int),
                ("cut", ctypes.c_int), ("first", ctypes.c_int),
                ("why", ctypes.c_char_p),
                ("label", ctypes.c_char * (_LABEL_MAX + 1))]


class _Lines(ctypes.Structure):
    """struct shmids_lines: a file's lines read in order."""
    _fields_ = [("lineno", ctypes.c_ulong), ("nthreads", ctypes.c_int),
                ("more", ctypes.c_int), ("bad", ctypes.c_int),
                ("rowsep", ctypes.c_int), ("rowcols", ctypes.c_size_t)]


# enum shmids_line_kind
(_TEXT, _REF, _TREF, _MALFORMED, _ARRAY, _CONT, _ROW) = range(7)


_SCANFN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(_Info),
                           ctypes.POINTER(_Dims), ctypes.c_void_p)


def _load_library():
    lib = ctypes.CDLL(_library_path(), use_errno=True)
    vp, cp, sz, i = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, \
        ctypes.c_int
    protos = {
        "shmids_create_array": (vp, [cp, i, i, sz]),
        "shmids_seal": (i, [vp]),
        "shmids_create_table": (vp, [cp, i, i, sz, sz]),
        "shmids_create_matrix": (vp, [cp, i, i, sz, sz, i]),
        "shmids_open_flags": (vp, [cp, i, ctypes.c_double]),
        "shmids_release": (i, [vp, sz, sz]),
        "shmids_dims": (i, [vp, ctypes.POINTER(_Dims)]),
        "shmids_isnumber": (i, [cp, sz]),
        "shmids_close": (i, [vp]),
        "shmids_remove": (i, [cp]),
        "shmids_label": (cp, [vp]),
        "shmids_array": (i, [vp, ctypes.POINTER(_Array)]),
        "shmids_put": (i, [vp, cp, i, vp, sz, cp, i]),
        "shmids_scan_dims": (i, [_SCANFN, vp, i]),
        "shmids_line_kind": (i, [cp, sz, i, ctypes.POINTER(_Line)]),
        "shmids_line_next": (i, [ctypes.POINTER(_Lines), cp, sz,
                                 ctypes.POINTER(_Values),
                                 ctypes.POINTER(_Line)]),
        "shmids_line_run": (i, [ctypes.POINTER(_Lines), vp, sz,
                                ctypes.POINTER(_Values),
                                ctypes.POINTER(_Line), ctypes.POINTER(sz),
                                ctypes.POINTER(sz)]),
        "shmids_values_read": (i, [ctypes.POINTER(_Values), vp, sz, i, i,
                                   ctypes.POINTER(_Span)]),
        "shmids_threads": (i, []),
        "shmids_values_free": (None, [ctypes.POINTER(_Values)]),
        "shmids_explain": (i, [cp, sz, cp, i]),
        "shmids_dir": (cp, []),
        "shmids_stat_dims": (i, [cp, ctypes.POINTER(_Info),
                                 ctypes.POINTER(_Dims), i]),
        "shmids_remove_info": (i, [ctypes.POINTER(_Info), i]),
    }
    for name, (res, args) in protos.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    libc = ctypes.CDLL(None, use_errno=True)
    libc.open_memstream.restype = vp
    libc.open_memstream.argtypes = [ctypes.POINTER(vp), ctypes.POINTER(sz)]
    libc.fclose.restype, libc.fclose.argtypes = i, [vp]
    libc.free.restype, libc.free.argtypes = None, [vp]
    return lib, libc


_lib, _libc = _load_library()
# attach()'s calls, looked up once, and the structs they fill (used
# with _lock held: _Memory())
_shmids_open_flags, _shmids_array, _shmids_dims, _shmids_label = \
    _lib.shmids_open_flags, _lib.shmids_array, _lib.shmids_dims, \
    _lib.shmids_label
_scratch_array, _scratch_dims = _Array(), _Dims()
_scratch_aref, _scratch_dref = ctypes.byref(_scratch_array), \
    ctypes.byref(_scratch_dims)
_get_errno = ctypes.get_errno
_lock = threading.RLock()
_SHMIDS_ALL = 0x1
_SHMIDS_LAZY = 0x10     # shmids_open_flags(): populate nothing at attach

def _explain(e, label=None):
    """shmids_explain()'s words for errno e (on label, bytes or None):
    what the tools would print after "prog: label: "."""
    buf = ctypes.create_string_buffer(1024)    # SHMIDS_EXPLAIN_MAX
    _lib.shmids_explain(buf, len(buf), label, e)
    return buf.value.decode("ascii", "replace")


def _error(e, filename=None):
    """OSError (the subclass errno e picks) in shmids_explain()'s words
    for a call that names no segment."""
    return OSError(e, _explain(e), filename)


def _fail(filename=None, label=False):
    """The OSError for the errno of the library call that just failed.

    label: the label (bytes) the call was given, or None for create,
    to have shmids_explain() say what is there and what to do (e.g.
    "segment 11 is labelled '11 coeff'"); False: no segment involved.
    """
    e = ctypes.get_errno() or _errno.EIO
    return OSError(e, _explain(e, None if label is False else label),
                   filename)


def _bytes(s):
    if isinstance(s, str):
        return s.encode("utf-8", "surrogateescape")
    return bytes(s)


def _str(b):
    return b.decode("utf-8", "surrogateescape")


def _cstr(s, what):
    """s (str or bytes) as a C string; a NUL inside could only truncate
    it: EINVAL.  TypeError for anything else (an int is no label)."""
    if not isinstance(s, (str, bytes)):
        raise TypeError("shmids: a label or name is a str or bytes, not %s"
                        % type(s).__name__)
    b = _bytes(s)
    if b"\0" in b:
        raise OSError(_errno.EINVAL, "a label or name holds no NUL byte",
                      what)
    return b


def _name(name):
    """name (str or bytes) as bytes, checked as shmids_create() would,
    in shm-import's words: OSError EINVAL or ENAMETOOLONG."""
    b = _cstr(name, name)
    if len(b) > _NAME_MAX:
        raise OSError(_errno.ENAMETOOLONG, "segment name too long: "
                      "more than %d bytes" % _NAME_MAX, name)
    if not b or any(c < 0x21 or c > 0x7e for c in b):
        raise OSError(_errno.EINVAL, "cannot be a segment name (1 to %d "
                      "bytes of printable ASCII, no blank)" % _NAME_MAX,
                      name)
    return b


class _Octal(int):
    """An int that help() shows as 0o600, not 384."""

    def __repr__(self):
        return "0o%o" % self


_M600 = _Octal(0o600)


def _int(x):
    """x as an int if it is one (numpy's integers too), else None; a
    bool is no int here."""
    if isinstance(x, bool) or (_np is not None and isinstance(x, _np.bool_)):
        return None
    try:
        return operator.index(x)
    except TypeError:
        return None


def _mode(mode):
    """mode checked: an int (numpy's too, not a bool) in 0..0o777."""
    m = _int(mode)
    if m is None:
        raise TypeError("shmids: mode must be an int such as 0o600, not %s"
                        % type(mode).__name__)
    if not 0 <= m <= 0o777:
        raise ValueError("shmids: mode %#o is outside 0 to 0o777" % m
                         if m >= 0 else "shmids: mode %d is negative" % m)
    return m


def _seconds(timeout):
    """timeout checked: seconds, an int or float (numpy's too), 0 or
    more (inf waits for ever)."""
    if isinstance(timeout, (bool, str, bytes)) or (
            _np is not None and isinstance(timeout, _np.bool_)) or \
            not isinstance(timeout, numbers.Real):
        raise TypeError("shmids: timeout must be seconds (an int or a "
                        "float), not %s" % type(timeout).__name__)
    try:
        t = float(timeout)
    except OverflowError:   # an int beyond any double: for ever, or < 0
        t = float("inf") if timeout > 0 else -1.0
    if not t >= 0:
        raise ValueError("shmids: timeout %r is not a number of seconds "
                         "0 or more" % (timeout,))
    return t


# dtype spellings zeros() and load() take (numpy's own too, with numpy).
_DTYPES = {"f64": "f64", "f8": "f64", "float64": "f64", "d": "f64",
           "f32": "f32", "f4": "f32", "float32": "f32", "f": "f32",
           "i64": "i64", "i8": "i64", "int64": "i64", "q": "i64",
           "i32": "i32", "i4": "i32", "int32": "i32", "i": "i32",
           "raw": "raw", "u1": "raw", "uint8": "raw", "B": "raw"}


def _tname(dtype):
    """The type name (f64, f32, i64, i32, raw) of a dtype spelling."""
    if isinstance(dtype, str) and dtype in _DTYPES:
        return _DTYPES[dtype]
    if _np is not None and dtype is not None:
        try:
            dt = _np.dtype(dtype)
        except TypeError:
            dt = None
        for name, t in _TYPES.items():
            if dt == _np.dtype(t[2]):
                return name
    raise TypeError("shmids: dtype %r is none of f8, f4, i8, i4, u1 "
                    "(f64, f32, i64, i32, raw), in this machine's byte "
                    "order" % (dtype,))


def _shape(shape, nd=False):
    """shape as a tuple of 1 or 2 non-negative ints (numpy's too; a
    table: rows, cols), or, nd, of any number of them (an N-D array,
    kept in a 1-D segment: shmids(5) 2.7); ValueError naming the value
    and its type else."""
    if _int(shape) is not None:
        shape = (shape,)
    elif not isinstance(shape, (str, bytes)):
        try:
            shape = tuple(shape)
        except TypeError:
            pass
    dims = [_int(n) for n in shape] if isinstance(shape, tuple) else [None]
    if not isinstance(shape, tuple) or not 1 <= len(dims) <= (
            len(dims) if nd else 2) or any(n is None or n < 0 for n in dims):
        raise ValueError("shmids: shape %r (%s) is not n or (rows, cols)%s "
                         "of non-negative ints" % (shape, ", ".join(
                             type(n).__name__ for n in shape)
                             if isinstance(shape, tuple)
                             else type(shape).__name__,
                             " or (n1, n2, ...)" if nd else ""))
    return tuple(dims)


def _count(shape):
    """The number of elements of shape."""
    n = 1
    for d in shape:
        n *= d
    return n


def _reshape(mem, shape):
    """mem's arrays of shape (attach(shape=)): an N-D shape of a 1-D
    segment, or any shape of as many elements (row-major, as numpy's C
    order); ValueError else."""
    shape = _shape(shape, nd=True)
    if _count(shape) != _count(mem.shape):
        raise ValueError("shmids: %s: shape %r holds %d elements, the "
                         "segment %d" % (mem.label, shape, _count(shape),
                                         _count(mem.shape)))
    mem.shape = shape

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
        # its storage, (cols, rows), the transpose (shmids_shape()).
        return _wrap(self._buffer(), self.dtype, self.shape[::-1]
                     if self.fortran else self.shape)

    def _buffer(self):
        """A memoryview of the payload bytes that holds self: one made
        over the memory itself (PyMemoryView_FromMemory(): its obj is
        None, no ctypes object, so no writable path once read-only, a
        writer's after seal()), whose managed buffer, shared by every
        view made from it, holds self (_hold())."""
        m0 = _frommemory(self.addr, self.nbytes,
                         _PyBUF_READ if self.ro else _PyBUF_WRITE)
        if _hold(m0, self, self.addr, self.nbytes):
            return m0
        if self.ro:
            # Another layout: views of the result hold m0, m0 holds self
            # (views made of m0 itself, the result's obj, would not).
            weakref.finalize(m0, _keep, self).atexit = False
            return memoryview(pickle.PickleBuffer(m0))
        buf = (ctypes.c_ubyte * self.nbytes).from_address(self.addr)
        buf.owner = self
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


def _fork_prepare():
    """Before os.fork(): no other thread is inside the library, whose
    own fork handler (shmids(5) 2.2) walks the segments it made."""
    _lock.acquire()


def _fork_parent():
    _lock.release()


def _reinit_lock():
    """In a forked child: the lock was held by the forking thread (or,
    forked from C, by a thread of the parent, which the child lacks)."""
    global _lock
    _lock = threading.RLock()


os.register_at_fork(before=_fork_prepare, after_in_parent=_fork_parent,
                    after_in_child=_reinit_lock)


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
    of shm-import (util_create_error()): the name and the columns were
    checked before, so EINVAL is the size (or SHMIDS_DIR)."""
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
    2.7, made by shmids_create_table(): shmids 1.1 cannot read it);
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


# Reference lines (shmids(5) section 5).


def _read_all(file):
    if isinstance(file, (str, bytes, os.PathLike)):
        with open(file, "rb") as f:
            return f.read(), os.fsdecode(file)
    data = file.read()
    return _bytes(data), getattr(file, "name", "<file>")


def load(file, type="f64"):
    """Read an ASCII file of fields, the paper's reading routine.

    file: a path, or an open file (text or binary).  Each line is one of
    (shmids(5) sections 5, 6 and 6.1):

    - a reference line "field shmids <label>": field -> attach(label),
      a read-only zero-copy array of the segment's own type and shape;
    - a table reference line "shmids <label>" or "shmids, <label>":
      its key (below) -> attach(label), 2-D for a table;
    - a table block: consecutive lines of values only (blank- or
      comma-separated, the same separator and number of values on each,
      at least 2 lines, or 1 under a key line), read with the library's
      row parser as shm-import reads them: its key -> a new writable
      2-D array (rows, cols); a blank line, a "#" comment or a row of
      another width ends a block (the last may begin the next);
    - a table's key (shmids(5) 5, "Keys": the same in every language,
      R's shm_read() too): the field of its key line, a field alone on
      the line right above it (or right above its CSV header), which
      is then no item of its own, as dump() and R's shm_write() write
      it; without one, a table reference line's segment's name (the
      label's second word) and a block's "source:line", source the
      file's name without its directories ("stdin" for a file object
      without a name) and line the number of the block's first line:
      the name shm-import gives its segment (without -P), so that a
      file has the same keys before and after shm-import;
    - a CSV header (shmids(5) 6.1): the line right above a table of
      comma rows or a "shmids," reference that holds as many
      comma-separated names (quoted or not) as the table has columns,
      as R's write.csv and pandas' to_csv write it, is no item: with
      numpy the table comes as a structured array of shape (rows,)
      whose field names they are, one copy, as numpy.genfromtxt(
      names=True) gives a CSV file (pandas.DataFrame(a) keeps them),
      or as it is where the names cannot name fields (empty or
      repeated) and without numpy;
    - a number is never a field: any other line whose first token reads
      as a value (1, -0.5, nan, 0x1p-3...; a row alone, "1 apple") is
      text, "source:line" -> the line, blanks at either end stripped;
    - an inline array "field v1 v2 ... /" with its continuation lines
      (a last token "/" continues the array on the next line): field ->
      a new writable 1-D array of type, read exactly as shm-import reads
      it; a field alone is an empty array, unless it is a table's key
      line;
    - any other line (a token that is not a value of the type, or out of
      its range, or a NUL byte): field -> str, the rest of the line
      (with its continuation lines, if it ends in "/" and its own
      tokens are values: a text line's "/" continues nothing, as in
      shm-import), blanks at either end stripped; dump() writes it back
      as "field text".  A reference line (of either kind) is never a
      continuation line: the line before it that ends in "/" is text,
      as shm-import and shm-expand leave it.
    type: the element type of what is read (f64 unless it says
    otherwise): one of f64, f32, i64, i32, raw (or zeros()'s dtype
    spellings: f8, float64, numpy dtypes...) for every field and
    table block, or a dict from key (field, or "source:line") to type
    name, f64 for the keys it lacks.
    Blank lines are skipped, and so are comments, lines whose first
    token begins with "#" (as numpy's loadtxt skips them; "# 1 2 3"
    too, shmids(5) 6): a comment is never a key, and dump(load(f))
    writes none back; a valid reference line is read whatever its field
    ("# shmids 0 #", as shm-import 1.5 wrote).  What each line
    is, the library's classifier says (shmids_line_next(), shmids(3)),
    as it says for shm-import and shm-expand.  A key seen again
    replaces the earlier.
    Returns a dict from key (str) to array or str, in file order.

    Raises OSError: EINVAL for a malformed reference line (second token
    "shmids", but not a valid label, or a number as its field; a table
    reference "shmids <digit>..." that is not a valid one: shmids(5) 5;
    filename is "file:line"), those of attach() for a reference line
    (label as filename), and those of reading the file.
    """
    type = ({k: _load_type(t) for k, t in type.items()}
            if isinstance(type, dict) else _load_type(type))
    data, fname = _read_all(file)
    source = os.path.basename(fname.rstrip("/")) if not \
        fname.startswith("<") else "stdin"
    return _Reader(data, fname, source, type).read()


class _Reader:
    """load()'s walk through a file's lines: what each is, the library's
    classifier says (shmids_line_kind(), shmids_line_next(): shmids(5)
    5, 6, 6.1); this keeps what it hands out.  Lines are byte offsets
    into the file's text, never split into Python objects: a table
    block's rows after its first, and an array's continuation lines,
    go to the library in one call (shmids_line_run(),
    shmids_values_read()), whose values parser fills the array."""

    def __init__(self, data, fname, source, type):
        self.data, self.n, self.fname = data, len(data), fname
        self.source, self.type = source, type
        # data's own bytes (no copy): the text the library reads, with
        # the NUL Python keeps after a bytes object's end
        self.base = ctypes.cast(ctypes.c_char_p(data), ctypes.c_void_p).value
        self.lineno = 0         # lines before the one at hand
        self.rd = _Lines(nthreads=max(_lib.shmids_threads(), 1))
        self.c = _Line()
        self.rdref, self.cref = ctypes.byref(self.rd), ctypes.byref(self.c)
        self.next = _lib.shmids_line_next
        self.out = {}
        self.v = None           # the values of the array or block at hand
        self.item = None        # (kind, key, first line's offset, tname)
        self.rows = 0
        # the lines right above the one at hand that may be a table's
        # key line or CSV header (shmids(5) 5, "Keys"; 6.1), their items
        # held back: [key, value, line, a field alone], the last nearest
        self.above = []

    def _tname(self, key):
        t = self.type.get(key, "f64") if isinstance(self.type, dict) \
            else self.type
        if t not in _TYPES:
            raise ValueError("shmids: type %r is none of %s"
                             % (t, ", ".join(TYPES)))
        return t

    def _new_values(self, tname):
        self._free()
        self.v = _Values(type=_TYPES[tname][0])
        self.vref = ctypes.byref(self.v)

    def _free(self):
        if self.v is not None:
            _lib.shmids_values_free(ctypes.byref(self.v))
            self.v = None

    def _take(self, count, tname, shape=None):
        """The first count values of v, as a new writable array."""
        nb = count * _TYPES[tname][3]
        if _np is not None:
            a = _np.empty(count, dtype=_TYPES[tname][2])
            if nb:
                ctypes.memmove(a.ctypes.data, self.v.data, nb)
            return a.reshape(shape) if shape else a
        arr = bytearray(nb)
        if nb:
            ctypes.memmove((ctypes.c_char * nb).from_buffer(arr),
                           self.v.data, nb)
        return _wrap(arr, tname, shape)

    def _next(self, line):
        if self.next(self.rdref, line, len(line), self.vref,
                     self.cref) == -1:
            raise MemoryError("shmids: out of memory for the values")

    def _run(self, pos):
        """shmids_line_run() from pos: the offset after the lines it
        read, counted in lineno."""
        used, nlines = ctypes.c_size_t(), ctypes.c_size_t()
        if _lib.shmids_line_run(self.rdref, self.base + pos, self.n - pos,
                                self.vref, self.cref, ctypes.byref(used),
                                ctypes.byref(nlines)) == -1:
            raise MemoryError("shmids: out of memory for the values")
        self.lineno += nlines.value
        return pos + used.value, nlines.value

    def read(self):
        try:
            pos = 0
            while pos < self.n:
                pos = self._line(pos)
            self._end_item(None)
            self._put(None, None)
            return self.out
        finally:
            self._free()

    def _group(self, first, j):
        """The lines from offset first to j (None: the end), LF gone."""
        chunk = self.data[first:j]
        group = chunk.split(b"\n")
        if chunk.endswith(b"\n"):
            group.pop()
        return group

    def _end_item(self, j, cut=False):
        """The array or table block at hand ends before offset j."""
        if self.item is None:
            return
        kind, key, first, tname = self.item
        self.item = None
        if kind == _ROW:
            cols = self.v.count // self.rows
            # a row alone: a table under a key line, else text
            self._put(key, self._take(self.v.count, tname,
                                      (self.rows, cols)), self.sep,
                      self.rows < 2 and _text(self._group(first, j)))
        elif kind == _ARRAY and not self.bad and not cut:
            group = self._group(first, j) if self.v.count == 0 else ()
            # a field alone: a table's key line, perhaps
            self._put(key, self._take(self.v.count, tname),
                      group[0] if len(group) == 1 else None, True)
        else:
            group = self._group(first, j)
            c = _Line()
            _lib.shmids_line_kind(group[0], len(group[0]), 0,
                                  ctypes.byref(c))
            group[0] = group[0][c.field + c.fieldlen:]
            self._put(key, _text(group))

    def _put(self, key, value, line=None, alone=False):
        """out[key] = value, in file order; key None: no item, but the
        end of what may stand above a table.  line: a table's separator
        (int: value is a table, keyed by the key line above it, and
        named by the CSV header above it: shmids(5) 5, "Keys", 6.1;
        alone: a row alone's text, what it is without a key line); or
        the bytes of a line that may be a key line (alone: a field
        alone) or a header, whose item is held back till the next."""
        above = self.above
        if isinstance(line, bytes):
            above.append([key, value, line, alone])
            if len(above) > 2:
                k, v = above.pop(0)[:2]
                self.out[k] = v
            return
        if line is not None:
            names = None
            cols = value.shape[1] if len(value.shape) == 2 else 1
            if line == ord(",") and above:
                row = above[-1][2].rstrip(b"\r").decode("latin-1")
                names = [n.strip(" \t") for n in
                         next(csv.reader([row], skipinitialspace=True))]
                if len(names) != cols:
                    names = None
            k = len(above) - 1 - (names is not None)
            if k >= 0 and above[k][3]:
                key = above[k][0]       # the key line, the header: no items
                del above[k:]
            elif alone:
                value, names = alone, None
            elif names is not None:
                above.pop()
            if names is not None and _np is not None and \
                    all(names) and len(set(names)) == len(names):
                a = _np.empty(len(value), [(n, value.dtype) for n in names])
                for i, n in enumerate(names):
                    a[n] = value[:, i] if len(value.shape) == 2 else value
                value = a
        for k, v, _, _ in above:
            self.out[k] = v
        above.clear()
        if key is not None:
            self.out[key] = value

    def _line(self, pos):
        """The line at offset pos: the offset of the next line to read."""
        data = self.data
        e = data.find(b"\n", pos)
        if e < 0:
            e = self.n
        line, nxt, c = data[pos:e], e + 1, self.c
        self.lineno += 1
        lineno = self.lineno
        if self.item is not None and self.item[0] == _ARRAY and \
                self.rd.more:
            self._next(line)                # CONT, or a reference (cut)
            if c.kind == _CONT:
                self.bad |= c.bad
                if not c.more:
                    self._end_item(nxt)
                return nxt
            self._end_item(pos, cut=True)
            return self._other(nxt, line, lineno)
        shmids_kind = _lib.shmids_line_kind
        shmids_kind(line, len(line), 0, self.cref)
        self._end_item(pos)
        if c.kind == _ROW:
            key = "%s:%d" % (self.source, lineno)
            tname = self._tname(key)
            self._new_values(tname)
            self._next(line)
            if c.kind != _ROW:
                self._put(key, _text([line]))
                return nxt
            # the block's other rows, in one call: its first line that
            # is no row of it is left unread, to be read on its own
            self.item, self.rows, self.sep = (_ROW, key, pos, tname), 1, c.sep
            if nxt >= self.n:
                return nxt
            end, nrows = self._run(nxt)
            self.rows += nrows
            self._end_item(end)
            self.rd.rowcols = self.rd.more = self.rd.bad = 0
            return end
        if c.kind == _ARRAY:
            field = _str(line[c.field:c.field + c.fieldlen])
            tname = self._tname(field)
            self._new_values(tname)
            self._next(line)
            if c.kind == _TEXT:     # a CSV header, perhaps
                self._put(field, _text([line[c.values:]]), line)
                return nxt
            self.item, self.bad = (_ARRAY, field, pos, tname), 0
            if not c.more:
                self._end_item(nxt)
                return nxt
            if nxt < self.n:
                j, nlines = _continuation_lines(self.v, data, self.base,
                                                nxt, ctypes.c_int(1))
                if j > nxt:                 # read at once, to their end
                    self.rd.more = 0
                    self.rd.lineno += nlines
                    self.lineno += nlines
                    self._end_item(j)
                    return j
            return nxt
        if self.v is None:
            self._new_values("f64")
        self._next(line)
        return self._other(nxt, line, lineno)

    def _other(self, nxt, line, lineno):
        """A line that is no array's nor row's, classified in c."""
        c = self.c
        where = "%s:%d" % (self.fname, lineno)
        if c.kind == _MALFORMED:
            raise OSError(_errno.EINVAL, "malformed reference: " +
                          _str(c.why), where)
        if c.kind == _REF:
            self._put(_str(line[c.field:c.field + c.fieldlen]),
                      attach(c.label))
        elif c.kind == _TREF:   # keyed by its key line, else its name
            self._put(_str(c.label.rsplit(b" ", 1)[1]), attach(c.label),
                      c.sep)
        elif c.kind == _TEXT and c.fieldlen > 0:
            # a line that begins with a Fortran form that is no value
            # ("3*0.0 1 2": the classifier's text, shmids(5) 6); a
            # comment ("# 1 2 3", sep "#") and a blank line have no field
            field = _str(line[c.field:c.field + c.fieldlen])
            self._put(field, _text([line[c.field + c.fieldlen:]]), line)
        else:
            self._put(None, None)
        return nxt


def _load_type(t):
    """A type name of load()'s type argument: zeros()'s dtype
    spellings; ValueError for another."""
    try:
        return _tname(t)
    except TypeError:
        raise ValueError("shmids: type %r is none of f64, f32, i64, i32, "
                         "raw (or f8, f4, i8, i4, u1, numpy's spellings)"
                         % (t,)) from None


def _continuation_lines(v, data, base, pos, more):
    """An array's continuation lines from offset pos on, all at once
    with shmids_values_read() (on threads for a long array, as
    shm-import reads it): (the offset after them, their number), more
    set.  Where it finds a token that is not a value (a reference line
    ends an array too, and its first token is never a value), v is as
    before and (pos, 0) is returned, for the line by line reading to
    say which it is.  The lines go in windows of whole lines, 4 KiB,
    then twice as many bytes each time while the array goes on
    (threads from 512 KiB): the library counts each chunk of what it is
    given to its first line not continued, so that the whole rest of
    the file given for each array had a long array's lines, after many
    short ones, counted for every one, and threads made for each."""
    sp = _Span()
    before = v.count
    n = len(data)
    nthreads = max(_lib.shmids_threads(), 1)
    j, want, count = pos, 4096, 0
    while True:
        # whole lines: to the first line that begins want bytes on
        e = data.find(b"\n", j + want - 1) if j + want < n else -1
        end = e + 1 if e >= 0 else n
        r = _lib.shmids_values_read(ctypes.byref(v), base + j, end - j,
                                    nthreads, 0, ctypes.byref(sp))
        more.value = sp.more
        if r == -1:
            break
        j += sp.used
        count += sp.lines
        if not (more.value and end < n):
            return j, count
        want *= 2
    if not sp.bad:
        raise MemoryError("shmids: out of memory for the values")
    v.count = before
    more.value = 1
    return pos, 0


def _text(group):
    """A line and its continuation lines as text (dump writes it back)."""
    return _str(b"\n".join(g.rstrip(b"\r") for g in group).strip(b" \t"))


# Writing (dump).

def _field_ok(field):
    return field and not any(c in field for c in b" \t\r\n\0")


def _inline(field, tname, count, src):
    """field and its values as shmids_put() writes them (section 6)."""
    buf, size = ctypes.c_void_p(), ctypes.c_size_t()
    cbuf = ctypes.c_char * src.nbytes
    # A pointer to the caller's bytes, copied only if they are read-only.
    data = cbuf.from_buffer_copy(src) if src.readonly else \
        cbuf.from_buffer(src)
    with _lock:
        fp = _libc.open_memstream(ctypes.byref(buf), ctypes.byref(size))
        if not fp:
            raise _fail(field)
        r = _lib.shmids_put(fp, field, _TYPES[tname][0],
                            ctypes.addressof(data) if count else None,
                            count, None, 0)
        e = ctypes.get_errno()
        if _libc.fclose(fp) != 0 and r == 0:
            r, e = -1, ctypes.get_errno()
        try:
            if r == -1:
                raise _error(e, _str(field))
            return ctypes.string_at(buf, size.value)
        finally:
            _libc.free(buf)


def dump(fields, file, min_count=64, prefix="", mode=_M600):
    """Write fields as an ASCII file, big arrays as segments.

    fields: a mapping from field (str; no blank, CR, LF or NUL, not a
    number: shmids(5) 6.1, not beginning with "#": a comment, 6) to a
    1-D or 2-D array (as create()
    takes) or a str (written as "field text").  A 1-D array of at least
    min_count elements (64, shm-import's default) goes into a new sealed
    segment named prefix + field, with mode (shmids(5) 2.6: in
    $SHMIDS_DIR when set), and is written as the reference line "field
    shmids <label>" (section 5); a smaller one inline, "field v1 v2
    ...", wrapped at 80 columns with " /" (section 6), in the library's
    shortest exact decimals: byte for byte what shm-expand writes for
    that segment and shm-import reads back.  A 2-D array, whatever its
    size, becomes a table segment named prefix + field, written as the
    table reference line "shmids <label>" (section 5) under its key
    line, the field alone: a table's rows have no field, and load()
    (and R's shm_read()) give it back under that key, whatever the
    prefix, before and after shm-expand.  A str must read back as the same text:
    not empty, no CR, LF or NUL, no blank at either end, no last token
    "/", no first word "shmids", not values of any type.
    file: a path (written anew) or an open file (text or binary).
    Returns the list of labels made.  load(dump(x)) == x for every x
    dump() takes (whatever the prefix; load's type the arrays' types).

    Raises ValueError for a str it refuses (naming the field) and for
    mode (as create()); OSError EINVAL for a bad field, those of
    create(), and those of writing; on any error every segment made by
    this call is removed again (the file may then hold a part of the
    output).
    """
    mode = _mode(mode)
    made = []
    try:
        if isinstance(file, (str, bytes, os.PathLike)):
            with open(file, "wb") as f:
                _dump(fields, f, min_count, prefix, mode, made)
        else:
            _dump(fields, file, min_count, prefix, mode, made)
    except BaseException:
        for label in made:
            with _lock:
                _lib.shmids_remove(_bytes(label))
        raise
    return made


def _dump(fields, f, min_count, prefix, mode, made):
    text = isinstance(f, io.TextIOBase)
    for field, value in fields.items():
        if not isinstance(field, (str, bytes)):
            raise TypeError("shmids: dump: a key is a str or bytes, not %s"
                            % type(field).__name__)
        bfield = _bytes(field)
        # Every key, whatever its value: one that could not name a
        # segment is refused inline too, so that a dict dumps or not
        # whatever min_count and the sizes of its arrays.
        _field_check(field, bfield)
        if isinstance(value, str):
            bvalue = _bytes(value)
            _text_check(field, bfield, bvalue)
            out = bfield + b" " + bvalue + b"\n"
        else:
            tname, shape, src = _type_of(value)
            if len(shape) > 2:
                raise ValueError("shmids: dump: %s: a %d-D array has no "
                                 "ASCII form that keeps its shape: dump "
                                 "a.reshape(-1) and its shape beside it, "
                                 "or create() it and attach(label, "
                                 "shape=)" % (field, len(shape)))
            if len(shape) == 2:     # under its key line (shmids(5) 5)
                label = _dump_segment(prefix, field, value, mode)
                made.append(label)
                out = b"%s\nshmids %s\n" % (bfield, _bytes(label))
            elif shape[0] >= min_count:
                label = _dump_segment(prefix, field, value, mode)
                made.append(label)
                out = b"%s shmids %s\n" % (bfield, _bytes(label))
            else:
                out = _inline(bfield, tname, shape[0], src)
        f.write(_str(out) if text else out)
    f.flush()


def _dump_segment(prefix, field, value, mode):
    """create(prefix + field, value, mode), with shm-import's words for
    a name too long."""
    name = _bytes(prefix) + _bytes(field)
    if len(name) > _NAME_MAX:
        raise OSError(_errno.ENAMETOOLONG, "segment name too long: the "
                      "prefix and the field make more than %d bytes"
                      % _NAME_MAX, field)
    return create(name, value, mode)


def _field_check(field, bfield):
    """OSError EINVAL unless bfield can be a field (shmids(5) 5, 6.1)
    and a segment's name: printable ASCII only, as shm-import takes."""
    if not _field_ok(bfield):
        raise OSError(_errno.EINVAL, "a field is one or more bytes, none "
                      "a blank, CR, LF or NUL", field)
    if any(c < 0x21 or c > 0x7e for c in bfield):
        raise OSError(_errno.EINVAL, "the field cannot be a segment name "
                      "(printable ASCII only)", field)
    if _lib.shmids_isnumber(bfield, len(bfield)):
        raise OSError(_errno.EINVAL, "a number is never a field (a line "
                      "that begins with one is a table row)", field)
    c = _Line()         # the classifier's: "shmids 0 x" is a table's
    t = bfield + b" 0 x"
    _lib.shmids_line_kind(t, len(t), 0, ctypes.byref(c))
    if c.kind == _TREF:
        raise OSError(_errno.EINVAL, "the word shmids is no field (a line "
                      "that begins with it and a number is a table "
                      "reference)", field)
    # and a "#" line is a comment
    _lib.shmids_line_kind(bfield, len(bfield), 0, ctypes.byref(c))
    if c.kind == _TEXT and c.sep == ord("#"):
        raise OSError(_errno.EINVAL, "a field that begins with # would be "
                      "a comment, which load() skips (shmids(5) 6)", field)


def _text_check(field, bfield, bvalue):
    """ValueError unless the line "field value" reads back, by load(), as
    the text value of field, whatever the type asked."""
    why = None
    words = bvalue.replace(b"\t", b" ").split(b" ")    # blanks: shmids(5)
    if any(c in bvalue for c in b"\r\n\0"):
        why = "holds a CR, LF or NUL byte"
    elif bvalue != bvalue.strip(b" \t") or not bvalue:
        why = "is empty or has blanks at an end (load() strips them)"
    elif words[-1] == b"/":
        why = "ends in the token \"/\" (it would continue onto the next line)"
    elif words[0] in (b"shmids", b"shmids,"):
        why = "begins with the word shmids (a reference line)"
    else:
        line = bfield + b" " + bvalue
        c = _Line()
        for tname in TYPES:
            v = _Values(type=_TYPES[tname][0])
            try:
                if _lib.shmids_line_next(ctypes.byref(_Lines()), line,
                                         len(line), ctypes.byref(v),
                                         ctypes.byref(c)) == -1:
                    raise MemoryError("shmids: out of memory")
            finally:
                _lib.shmids_values_free(ctypes.byref(v))
            if c.kind != _TEXT:
                why = "reads back as %s values, not text" % tname
                break
    if why:
        raise ValueError("shmids: dump: field %r: the text %s" % (field, why))


# Listing (shm-ls -p).

def _state(si):
    if si.ours == 0:
        return None
    if si.ours < 0:
        return "?"
    if si.ours == 2:
        return "broken"
    return {ord("r"): "ready", ord("w"): "filling"}.get(si.state, "dead")


def _entry(si, sh):
    sysv = si.shmid >= 0
    d = {
        "shmid": si.shmid if sysv else _str(si.id),
        "key": si.key & 0xffffffff if sysv else None,
        "mode": si.mode, "uid": si.uid, "gid": si.gid, "bytes": si.size,
        "nattch": si.nattch,
        "cpid": si.cpid if sysv else None, "lpid": si.lpid if sysv else None,
        "ctime": si.ctime, "atime": si.atime,
        "dtime": si.dtime if sysv else None,
        "type": None, "count": None, "shape": None, "order": None,
        "state": _state(si),
        "label": _str(si.label) if si.label else None,
    }
    if si.ours == 1:
        d["type"], d["count"] = _BY_ENUM[si.type], si.count
        d["shape"] = (sh.rows, sh.cols) if sh.ndim == 2 else (si.count,)
        d["order"] = chr(sh.order) if sh.ndim else None
    elif si.ours < 0:
        d["type"] = d["count"] = d["shape"] = d["order"] = "?"
    elif si.ours == 2:
        d["label"] = None
    return d


def ls(all=False):
    """The segments, as shm-ls -p lists them (shmids(5) section 7).

    Our System V segments in shmid order, then the file segments in
    $SHMIDS_DIR (if set) in path order; with all=True other programs'
    System V segments too (shm-ls -a; never attached).  Returns a list
    of dicts with shm-ls -p's columns as keys: shmid (int; for a file
    segment its path, str), key (int, None for a file), mode (int,
    permission bits), uid, gid (int), bytes (int, header included),
    nattch (int), cpid, lpid (int, None for a file), ctime, atime (int,
    seconds since the epoch), dtime (int, None for a file), type (f64,
    f32, i64, i32, raw), count (int, elements), shape (a tuple, as
    attach() would give: (rows, cols) for a table, as meant whatever
    its order, (count,) else; shm-ls -l's SHAPE), order ("C", or "F"
    for a column-major table, shmids(5) 2.7; shm-ls -J's order), state
    (ready, filling, dead, broken) and label (str).
    type, count, shape, order, state and label are None for a segment that is
    not ours (and for broken residue all but state); "?" for one that
    may be ours but cannot be read (label then None, or the corrupt
    header's label).

    Raises OSError ENOMEM; and, after the whole scan, OSError for a store
    that could not be read (SHMIDS_DIR missing, the segment table), with
    what was listed in its attribute segments.
    """
    out, stores, raised = [], [], []

    def each(p, shape, arg):
        try:
            si = p.contents
            if si.ours == -2:
                stores.append((si.err, si.shmid))
            else:
                out.append(_entry(si, shape.contents))
            return 0
        except BaseException as e:  # ctypes would print and drop it
            raised.append(e)
            return 1
    with _lock:
        r = _lib.shmids_scan_dims(_SCANFN(each), None,
                                   _SHMIDS_ALL if all else 0)
        e = ctypes.get_errno()
    if raised:
        raise raised[0]
    if r == -1:
        raise _error(e)
    if stores:
        err, shmid = stores[0]
        where = ("SHMIDS_DIR " + os.environ.get("SHMIDS_DIR", "")
                 if shmid == -1 else "segment table")
        exc = _error(err, where)
        exc.segments = out
        raise exc
    return out
