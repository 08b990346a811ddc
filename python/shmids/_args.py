"""What callers pass, checked and converted for the library: labels
and names as C strings, modes, timeouts, dtypes and shapes, refused in
the words of the tools (shm-import's for a name)."""

import errno as _errno
import numbers
import operator

from ._library import _np, _NAME_MAX, _TYPES


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
    """name (str or bytes) as bytes, checked as shmids_create_array() would,
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
