"""libshmids through ctypes: where the library is, its structs and
prototypes, the element types, the module's lock (and what a fork does
to it), and the library's errors in shmids_explain()'s words."""

import ctypes
import errno as _errno
import os
import threading

from ._locate import _library_path, _not_loaded, _too_old

try:
    import numpy as _np
except ImportError:  # memoryviews then, and a word once (at import)
    _np = None
    import warnings
    warnings.warn("shmids: numpy is not importable: arrays are typed "
                  "memoryviews (Debian: apt-get install python3-numpy)",
                  ImportWarning, stacklevel=3)   # import shmids's line


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


class _Compression(ctypes.Structure):
    """struct shmids_compression (library 1.7): a compressor the library
    told by a file's first bytes; the library's own, read only."""
    _fields_ = [("name", ctypes.c_char_p), ("command", ctypes.c_char_p),
                ("suffix", ctypes.c_char_p)]


# enum shmids_line_kind
(_TEXT, _REF, _TREF, _MALFORMED, _ARRAY, _CONT, _ROW, _MREF,
 _MTREF) = range(9)


class _Msg(ctypes.Structure):
    """struct shmids_msg of lib/shmids.h (library 1.7): one message of a
    stream as a reader gets it (shmids(5) 10.2, 10.3)."""
    _fields_ = [("data", ctypes.c_void_p), ("nbytes", ctypes.c_size_t),
                ("seq", ctypes.c_longlong), ("lost", ctypes.c_longlong),
                ("type", ctypes.c_int), ("ndim", ctypes.c_int),
                ("order", ctypes.c_int), ("rows", ctypes.c_size_t),
                ("cols", ctypes.c_size_t)]


_SCANFN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(_Info),
                           ctypes.POINTER(_Dims), ctypes.c_void_p)


def _load_library():
    """libshmids (_locate: where) with its prototypes, and libc's calls
    dump() uses; ImportError saying what to do if either fails."""
    path = _library_path()
    try:
        lib = ctypes.CDLL(path, use_errno=True)
    except OSError as e:
        raise _not_loaded(path, e) from None
    vp, cp, sz, i = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, \
        ctypes.c_int
    protos = {
        "shmids_create_array": (vp, [cp, i, i, sz]),
        "shmids_seal": (i, [vp]),
        "shmids_create_matrix": (vp, [cp, i, i, sz, sz, i]),
        "shmids_open_flags": (vp, [cp, i, ctypes.c_double]),
        "shmids_release": (i, [vp, sz, sz]),
        "shmids_dims": (i, [vp, ctypes.POINTER(_Dims)]),
        "shmids_isnumber": (i, [cp, sz]),
        "shmids_field_check": (i, [cp, sz, i, ctypes.POINTER(cp)]),
        "shmids_compressed": (ctypes.POINTER(_Compression), [cp, sz]),
        "shmids_name_check": (i, [cp, sz]),
        "shmids_close": (i, [vp]),
        "shmids_remove": (i, [cp]),
        "shmids_label": (cp, [vp]),
        "shmids_array": (i, [vp, ctypes.POINTER(_Array)]),
        "shmids_put": (i, [vp, cp, i, vp, sz, cp, i]),
        "shmids_scan_dims": (i, [_SCANFN, vp, i]),
        "shmids_line_kind": (i, [cp, sz, i, ctypes.POINTER(_Line)]),
        "shmids_line_seq": (ctypes.c_longlong, [cp, ctypes.POINTER(_Line)]),
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
        "shmids_stream_create": (vp, [cp, i, sz, sz, i, i]),
        "shmids_stream_loan": (vp, [vp, ctypes.c_double]),
        "shmids_stream_publish": (ctypes.c_longlong, [vp, i, sz, sz, i]),
        "shmids_stream_open": (vp, [cp, i, ctypes.c_double]),
        "shmids_stream_next": (i, [vp, ctypes.POINTER(_Msg),
                                   ctypes.c_double]),
        "shmids_stream_release": (i, [vp]),
        "shmids_stream_close": (i, [vp]),
        "shmids_stream_label": (cp, [vp]),
    }
    for name, (res, args) in protos.items():
        try:
            f = getattr(lib, name)
        except AttributeError:
            raise _too_old(path, name) from None
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
    # UTF-8: a SHMIDS_DIR's path in a command to paste comes as it is
    return buf.value.decode("utf-8", "replace")


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


def _fork_prepare():
    """Before os.fork(): no other thread is inside the library, whose
    own fork handler (shmids(5) 2.2) walks the segments it made."""
    _lock.acquire()


def _fork_parent():
    _lock.release()


def _reinit_lock():
    """In a forked child: the lock was held by the forking thread (or,
    forked from C, by a thread of the parent, which the child lacks).
    Made new in place, as threading's own locks are at a fork: every
    module of the package holds this one object, and a lock bound anew
    here would leave theirs held for ever."""
    _lock._at_fork_reinit()


os.register_at_fork(before=_fork_prepare, after_in_parent=_fork_parent,
                    after_in_child=_reinit_lock)
