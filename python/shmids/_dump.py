"""dump(): fields written as an ASCII file, big arrays as segments
(shmids(5) sections 5, 6 and 6.1), in the library's words and
numbers."""

import ctypes
import errno as _errno
import io
import os

from ._library import (TYPES, _Line, _Lines, _NAME_MAX, _TEXT,
                       _TYPES, _Values, _error, _fail, _lib, _libc, _lock)
from ._args import _M600, _bytes, _mode, _str
from ._segments import _type_of, create


# Writing (dump).

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
    """OSError EINVAL unless bfield may be written as a field (the
    library's rule, shmids_field_check(): shmids(5) 6) and be a segment's
    name: printable ASCII only, as shm-import takes."""
    why = ctypes.c_char_p()
    if _lib.shmids_field_check(bfield, len(bfield), 0,
                               ctypes.byref(why)) == -1:
        raise OSError(_errno.EINVAL, why.value.decode("ascii"), field)
    if _lib.shmids_name_check(bfield, len(bfield)) == -1 and \
            ctypes.get_errno() != _errno.ENAMETOOLONG:
        raise OSError(_errno.EINVAL, "the field cannot be a segment name "
                      "(printable ASCII only)", field)


def _text_check(field, bfield, bvalue):
    """ValueError unless the line "field value" reads back, by load(), as
    the text value of field, whatever the type asked."""
    why = None
    if any(c in bvalue for c in b"\r\n\0"):
        why = "holds a CR, LF or NUL byte"
    elif bvalue != bvalue.strip(b" \t") or not bvalue:
        why = "is empty or has blanks at an end (load() strips them)"
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
