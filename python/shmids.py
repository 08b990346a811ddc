"""shmids: labelled shared memory segments from Python, without a copy.

After Eric Grosse, "How Shall We Connect Our Software Tools?" (AT&T Bell
Laboratories, 1990): ASCII files keep their shape, big arrays live in
segments named by reference lines such as

    coeff shmids 402 simdat-3/23-seriesb

This module is ctypes over the project's own libshmids.so, so labels,
headers and numbers are checked and written by the one C
implementation; format-spec.md (in the source tree) is the contract.
With numpy importable, arrays are numpy.ndarray; without it, typed
memoryviews (format 'd', 'f', 'q', 'i' or 'B').

Element types (format-spec.md section 4) and what they become:

    f64 float64 'd'    f32 float32 'f'    i64 int64 'q'
    i32 int32 'i'      raw uint8 'B'

Every array is one-dimensional, in native byte order; counts are in
elements, sizes in bytes.  Errors of the library raise OSError with its
errno, whose subclass Python picks (FileNotFoundError for ENOENT,
PermissionError for EACCES, BlockingIOError for EAGAIN, ...), the
message, and the label or field as filename.

The library's list of attached segments is not locked: this module
serialises its calls with a lock of its own, so threads may share it.

Where the library is: $SHMIDS_LIB if set; else the path make install
wrote below; else build/libshmids.so next to this file's directory (the
source tree); else the loader's search for libshmids.so.1.
"""

import ctypes
import ctypes.util
import errno as _errno
import io
import os
import threading
import weakref

try:
    import numpy as _np
except ImportError:  # memoryviews then
    _np = None

__all__ = ["attach", "create", "remove", "load", "dump", "ls", "TYPES",
           "numpy"]

# make install replaces None with the installed library's absolute path.
_INSTALLED_LIB = None

HEADER = 128            # bytes before the payload (format-spec.md 2)
_LABEL_MAX = 75

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


class _Ref(ctypes.Structure):
    """struct shmids_ref of lib/shmids.h (library 1.1)."""
    _fields_ = [("field", ctypes.c_size_t), ("fieldlen", ctypes.c_size_t),
                ("eol", ctypes.c_size_t), ("why", ctypes.c_char_p),
                ("label", ctypes.c_char * (_LABEL_MAX + 1))]


_SCANFN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(_Info),
                           ctypes.c_void_p)


def _load_library():
    lib = ctypes.CDLL(_library_path(), use_errno=True)
    vp, cp, sz, i = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, \
        ctypes.c_int
    protos = {
        "shmids_create_array": (vp, [cp, i, i, sz]),
        "shmids_seal": (i, [vp]),
        "shmids_open": (vp, [cp]),
        "shmids_close": (i, [vp]),
        "shmids_remove": (i, [cp]),
        "shmids_label": (cp, [vp]),
        "shmids_array": (i, [vp, ctypes.POINTER(_Array)]),
        "shmids_put": (i, [vp, cp, i, vp, sz, cp, i]),
        "shmids_scan": (i, [_SCANFN, vp, i]),
        "shmids_ref_parse": (i, [cp, sz, ctypes.POINTER(_Ref)]),
        "shmids_continued": (i, [cp, sz]),
        "shmids_values_parse": (i, [ctypes.POINTER(_Values), cp, sz,
                                    ctypes.POINTER(i),
                                    ctypes.POINTER(cp)]),
        "shmids_values_free": (None, [ctypes.POINTER(_Values)]),
        "shmids_explain": (i, [cp, sz, cp, i]),
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
_lock = threading.RLock()
_SHMIDS_ALL = 0x1

def _error(e, filename=None):
    """OSError (the subclass errno e picks) with the system's message."""
    return OSError(e, os.strerror(e), filename)


def _fail(filename=None, label=False):
    """The OSError for the errno of the library call that just failed.

    label: the label (bytes) the call was given, or None for create,
    to have shmids_explain() say what is there and what to do (e.g.
    "segment 11 is labelled '11 coeff'"); False: no segment involved.
    """
    e = ctypes.get_errno() or _errno.EIO
    if label is False:
        return _error(e, filename)
    buf = ctypes.create_string_buffer(1024)    # SHMIDS_EXPLAIN_MAX
    _lib.shmids_explain(buf, len(buf), label, e)
    return OSError(e, buf.value.decode("ascii", "replace"), filename)


def _bytes(s):
    if isinstance(s, str):
        return s.encode("utf-8", "surrogateescape")
    return bytes(s)


def _str(b):
    return b.decode("utf-8", "surrogateescape")


def _cstr(s, what):
    """s as a C string; a NUL inside could only truncate it: EINVAL."""
    b = _bytes(s)
    if b"\0" in b:
        raise _error(_errno.EINVAL, what)
    return b


class _Attachment:
    """One attached segment; detached (shmids_close) when collected."""
    __slots__ = ("label", "__weakref__")

    def __init__(self, shm, label):
        self.label = label
        weakref.finalize(self, _detach, shm)


def _detach(shm):
    with _lock:
        _lib.shmids_close(shm)


def _wrap(buf, tname):
    """A buffer of bytes as an array of tname: ndarray or memoryview."""
    t = _TYPES[tname]
    if _np is not None:
        return _np.frombuffer(buf, dtype=t[2])
    return memoryview(buf).cast("B").cast(t[1])


def _view(addr, count, tname, owner):
    """A read-only array over count elements at addr, keeping owner."""
    nbytes = count * _TYPES[tname][3]
    if nbytes == 0:
        return _wrap(b"", tname)
    buf = (ctypes.c_ubyte * nbytes).from_address(addr)
    buf.owner = owner   # the memoryview's exporter holds the segment
    return _wrap(memoryview(buf).toreadonly(), tname)


def attach(label):
    """Attach the segment label names; a read-only array over its payload.

    label: "<shmid> <name>" or "<path> <name>" (format-spec.md section 1),
    str or bytes, optionally ending in one newline.  Returns a 1-D array
    of the header's count elements, dtype from its type (f64 float64,
    f32 float32, i64 int64, i32 int32, raw uint8); numpy.ndarray with
    numpy, else a memoryview of format d, f, q, i or B.  No copy: the
    array is the segment's memory, mapped read-only (writing raises
    ValueError, or TypeError for a memoryview).  The segment stays
    attached while the array, or any view made from it, lives, and is
    detached when the last is collected.  The label is checked against
    the segment's header first (format-spec.md 2.3).

    Raises OSError with the library's errno (label as filename):
    EINVAL or ENAMETOOLONG (label malformed), FileNotFoundError (ENOENT:
    no such segment, or removed), PermissionError (EACCES), ESTALE (the
    id names another segment now), EBADMSG (corrupt header),
    BlockingIOError (EAGAIN: writer still filling), EOWNERDEAD (writer
    died before sealing), ENOMEM.

    A file segment (SHMIDS_DIR) is the file's own pages: whoever may
    write the file (its owner) can truncate it while the array lives,
    and reading the pages it lost then kills the interpreter with
    SIGBUS, which Python cannot catch (format-spec.md 2.6); a System V
    segment cannot shrink.
    """
    name = _str(_bytes(label)) if not isinstance(label, str) else label
    b = _cstr(label, name)
    a = _Array()
    with _lock:
        shm = _lib.shmids_open(b)
        if not shm:
            raise _fail(name, b)
        if _lib.shmids_array(shm, ctypes.byref(a)) == -1:
            err = _fail(name, b)
            _lib.shmids_close(shm)
            raise err
        owner = _Attachment(shm, _str(_lib.shmids_label(shm)))
    return _view(a.data, a.count, _BY_ENUM[a.type], owner)


def _type_of(array):
    """(type name, count, bytes view) of a 1-D array of our dtypes."""
    if _np is not None and isinstance(array, _np.ndarray):
        if array.ndim != 1:
            raise ValueError("shmids: a 1-D array is needed, not %d-D"
                             % array.ndim)
        dt = array.dtype
        for name, t in _TYPES.items():
            if dt.kind == _np.dtype(t[2]).kind and dt.itemsize == t[3]:
                array = _np.ascontiguousarray(array, dtype=t[2])
                return name, array.size, memoryview(array).cast("B")
        raise TypeError("shmids: dtype %s is none of float64, float32, "
                        "int64, int32, uint8" % dt)
    m = memoryview(array)
    if m.ndim != 1:
        raise ValueError("shmids: a 1-D array is needed, not %d-D" % m.ndim)
    fmt = m.format.lstrip("@=")
    for name, t in _TYPES.items():
        if (fmt == t[1] or (fmt in "lq" and t[1] == "q") or
                (fmt in "il" and t[1] == "i")) and m.itemsize == t[3]:
            if not m.c_contiguous:
                m = memoryview(m.tobytes()).cast(fmt)
            return name, len(m), m.cast("B")
    raise TypeError("shmids: memoryview format %r is none of d, f, q, i, B"
                    % m.format)


def create(name, array, mode=0o600):
    """Copy a 1-D array into a new sealed segment; returns its label.

    name: 1 to 64 printable ASCII bytes other than space (format-spec.md
    section 1).  array: a 1-D numpy array of dtype float64, float32,
    int64, int32 or uint8 (type f64, f32, i64, i32, raw), or any 1-D
    buffer of format d, f, q, i or B (bytes, array.array, memoryview).
    mode: permission bits, 0 to 0o777, given exactly (no umask).  The
    segment is a System V one, or a file in $SHMIDS_DIR when that is set
    (format-spec.md 2.6); it outlives this process.  Returns the label,
    "<shmid> <name>" or "<path> <name>" (str).

    Raises TypeError or ValueError for another dtype or shape; OSError
    with the library's errno: EINVAL (bad name byte, empty name, mode
    outside 0o777, or a size the kernel refuses), ENAMETOOLONG, ENOMEM,
    ENOSPC (kernel.shmmni or shmall reached, or a full file system),
    PermissionError.
    """
    tname, count, src = _type_of(array)
    bname = _cstr(name, name)
    cmode = mode if -2**31 <= mode < 2**31 else -1
    with _lock:
        shm = _lib.shmids_create_array(bname, cmode, _TYPES[tname][0],
                                       count)
        if not shm:
            raise _fail(name, None)
        label = _lib.shmids_label(shm)
        try:
            if src.nbytes:
                dst = (ctypes.c_ubyte * src.nbytes).from_address(
                    shm + HEADER)
                memoryview(dst).cast("B")[:] = src
        except BaseException:
            _lib.shmids_close(shm)
            _lib.shmids_remove(label)
            raise
        _lib.shmids_seal(shm)
        _lib.shmids_close(shm)
    return _str(label)


def remove(label):
    """Remove the segment label names, after checking its header carries
    that label (format-spec.md 2.3); arrays attached to it stay valid
    until they go (as with shm-rm).  Raises OSError as attach() does,
    but never EAGAIN or EOWNERDEAD, and PermissionError (EPERM) for a
    segment of another owner.
    """
    b = _cstr(label, label)
    with _lock:
        if _lib.shmids_remove(b) == -1:
            raise _fail(label, b)


# Reference lines (format-spec.md section 5).


def _ref_parse(line):
    """(k, field start, field end, label or why) of one line without its
    LF: k 1 for a reference line, 0 for any other (an empty field when
    blank), -1 for a malformed one (why, str)."""
    r = _Ref()
    k = _lib.shmids_ref_parse(line, len(line), ctypes.byref(r))
    what = r.label if k == 1 else r.why and _str(r.why)
    return k, r.field, r.field + r.fieldlen, what


def _continued(s):
    """Does s (one line, no LF) end with the token "/" (section 6)?"""
    return _lib.shmids_continued(s, len(s)) == 1


def _read_all(file):
    if isinstance(file, (str, bytes, os.PathLike)):
        with open(file, "rb") as f:
            return f.read(), os.fsdecode(file)
    data = file.read()
    return _bytes(data), getattr(file, "name", "<file>")


def load(file, type="f64"):
    """Read an ASCII file of fields, the paper's reading routine.

    file: a path, or an open file (text or binary).  Each line is one of
    (format-spec.md sections 5 and 6):

    - a reference line "field shmids <label>": field -> attach(label),
      a read-only zero-copy array of the segment's own type;
    - an inline array "field v1 v2 ... /" with its continuation lines
      (a last token "/" continues the array on the next line): field ->
      a new writable 1-D array of type (f64 unless type says otherwise:
      one of f64, f32, i64, i32, raw for every field, or a dict from
      field to type name, f64 for the fields it lacks), read exactly as
      shm-import reads it; a field alone is an empty array;
    - any other line (a token that is not a value of the type, or out of
      its range, or a NUL byte): field -> str, the rest of the line
      (with its continuation lines, if it ends in "/" and its own
      tokens are values: a text line's "/" continues nothing, as in
      shm-import), blanks at either end stripped; dump() writes it back
      as "field text".  A reference
      line is never a continuation line: the line before it that ends
      in "/" is text, as shm-import and shm-expand leave it.
    Blank lines are skipped.  A field seen again replaces the earlier.
    Returns a dict from field (str) to array or str, in file order.

    Raises OSError: EINVAL for a malformed reference line (second token
    "shmids", but not a valid label: format-spec.md 5; filename is
    "file:line"), those of attach() for a reference line (label as
    filename), and those of reading the file.
    """
    data, fname = _read_all(file)
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    out = {}
    i = 0
    while i < len(lines):
        line, lineno = lines[i], i + 1
        i += 1
        k, start, end, what = _ref_parse(line)
        field = _str(line[start:end])
        if k == 1:
            out[field] = attach(what)
            continue
        if k == -1:
            raise OSError(_errno.EINVAL, "malformed reference: " + what,
                          "%s:%d" % (fname, lineno))
        if start == end:
            continue
        i, out[field] = _array_or_text(field, line[end:], lines, i, type)
    return out


def _array_or_text(field, first, lines, i, type):
    """field's values, first (the rest of its line) and the continuation
    lines from lines[i] on, read as shm-import reads them, with the
    library's shmids_values_parse(): a first line that is not values is
    text and continues nothing; a bad value on a continuation line does
    not end the array, which is then text through its last continuation.
    A reference line is never a continuation line: an array cut short by
    one is text too.  Returns the index of the next line, and the array
    (of field's type) or the text."""
    tname = type.get(field, "f64") if isinstance(type, dict) else type
    if tname not in _TYPES:
        raise ValueError("shmids: type %r is none of %s"
                         % (tname, ", ".join(TYPES)))
    v = _Values(type=_TYPES[tname][0])
    more, bad = ctypes.c_int(), ctypes.c_char_p()
    group = [first]
    try:
        k = _values_parse(v, first, more, bad)
        while more.value and i < len(lines) and \
                _ref_parse(lines[i])[0] == 0:
            group.append(lines[i])
            i += 1
            if k == 0:
                k = _values_parse(v, group[-1], more, bad)
            if k == -1:
                more.value = _continued(group[-1])
        if k == 0 and not (more.value and i < len(lines)):
            n = v.count * _TYPES[tname][3]
            arr = bytearray(n)
            if n:
                ctypes.memmove((ctypes.c_char * n).from_buffer(arr),
                               v.data, n)
            return i, _wrap(arr, tname)
    finally:
        _lib.shmids_values_free(ctypes.byref(v))
    return i, _text(group)


def _values_parse(v, line, more, bad):
    """shmids_values_parse() of one line (no LF); 0, or -1 for a token
    that is not a value of the type; MemoryError where the values do not
    fit (no array may be cut short)."""
    bad.value = None
    if _lib.shmids_values_parse(ctypes.byref(v), line, len(line),
                                ctypes.byref(more), ctypes.byref(bad)) == 0:
        return 0
    if not bad:
        raise MemoryError("shmids: out of memory for the values")
    more.value = 0
    return -1


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


def dump(fields, file, min_count=64, prefix="", mode=0o600):
    """Write fields as an ASCII file, big arrays as segments.

    fields: a mapping from field (str; no blank, CR, LF or NUL) to a
    1-D array (as create() takes) or a str (written as "field text").
    An array of at least min_count elements (64, shm-import's default)
    goes into a new sealed segment named prefix + field, with mode
    (format-spec.md 2.6: in $SHMIDS_DIR when set), and is written as
    the reference line "field shmids <label>" (section 5); a smaller one
    inline, "field v1 v2 ...", wrapped at 80 columns with " /" (section
    6), in the library's shortest exact decimals: byte for byte what
    shm-expand writes for that segment and shm-import reads back.
    file: a path (written anew) or an open file (text or binary).
    Returns the list of labels made.

    Raises OSError EINVAL for a bad field, those of create(), and those
    of writing; on any error every segment made by this call is removed
    again (the file may then hold a part of the output).
    """
    made = []
    try:
        if isinstance(file, (str, bytes, os.PathLike)):
            with open(file, "wb") as f:
                _dump(fields, f, min_count, prefix, mode, made)
        else:
            _dump(fields, file, min_count, prefix, mode, made)
    except BaseException:
        for label in made:
            _lib.shmids_remove(_bytes(label))
        raise
    return made


def _dump(fields, f, min_count, prefix, mode, made):
    text = isinstance(f, io.TextIOBase)
    for field, value in fields.items():
        bfield = _bytes(field)
        if not _field_ok(bfield):
            raise _error(_errno.EINVAL, field)
        if isinstance(value, str):
            out = bfield + (b" " + _bytes(value) if value else b"") + b"\n"
        else:
            tname, count, src = _type_of(value)
            if count >= min_count:
                label = create(prefix + _str(bfield), value, mode)
                made.append(label)
                out = b"%s shmids %s\n" % (bfield, _bytes(label))
            else:
                out = _inline(bfield, tname, count, src)
        f.write(_str(out) if text else out)
    f.flush()


# Listing (shm-ls -p).

def _state(si):
    if si.ours == 0:
        return None
    if si.ours < 0:
        return "?"
    if si.ours == 2:
        return "broken"
    return {ord("r"): "ready", ord("w"): "filling"}.get(si.state, "dead")


def _entry(si):
    sysv = si.shmid >= 0
    d = {
        "shmid": si.shmid if sysv else _str(si.id),
        "key": si.key & 0xffffffff if sysv else None,
        "mode": si.mode, "uid": si.uid, "gid": si.gid, "bytes": si.size,
        "nattch": si.nattch,
        "cpid": si.cpid if sysv else None, "lpid": si.lpid if sysv else None,
        "ctime": si.ctime, "atime": si.atime,
        "dtime": si.dtime if sysv else None,
        "type": None, "count": None, "state": _state(si),
        "label": _str(si.label) if si.label else None,
    }
    if si.ours == 1:
        d["type"], d["count"] = _BY_ENUM[si.type], si.count
    elif si.ours < 0:
        d["type"] = d["count"] = "?"
    elif si.ours == 2:
        d["label"] = None
    return d


def ls(all=False):
    """The segments, as shm-ls -p lists them (format-spec.md section 7).

    Our System V segments in shmid order, then the file segments in
    $SHMIDS_DIR (if set) in path order; with all=True other programs'
    System V segments too (shm-ls -a; never attached).  Returns a list
    of dicts with shm-ls -p's columns as keys: shmid (int; for a file
    segment its path, str), key (int, None for a file), mode (int,
    permission bits), uid, gid (int), bytes (int, header included),
    nattch (int), cpid, lpid (int, None for a file), ctime, atime (int,
    seconds since the epoch), dtime (int, None for a file), type (f64,
    f32, i64, i32, raw), count (int, elements), state (ready, filling,
    dead, broken) and label (str).  type, count, state and label are None
    for a segment that is not ours (and for broken residue all but
    state); "?" for one that may be ours but cannot be read (label then
    None, or the corrupt header's label).

    Raises OSError ENOMEM; and, after the whole scan, OSError for a store
    that could not be read (SHMIDS_DIR missing, the segment table), with
    what was listed in its attribute segments.
    """
    out, stores, raised = [], [], []

    def each(p, arg):
        try:
            si = p.contents
            if si.ours == -2:
                stores.append((si.err, si.shmid))
            else:
                out.append(_entry(si))
            return 0
        except BaseException as e:  # ctypes would print and drop it
            raised.append(e)
            return 1
    with _lock:
        r = _lib.shmids_scan(_SCANFN(each), None, _SHMIDS_ALL if all else 0)
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
