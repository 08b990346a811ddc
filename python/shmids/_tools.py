"""What the module says where the tools say more than the library's
calls: compressed input, which the library tells (shmids_compressed())
and load() refuses with Python's way to read it; and cmd/msg.c's hint
for a SHMIDS_DIR that is not there, mirrored here exactly, so that a
Python user reads the words a shell user reads."""

import errno as _errno
import os
import shlex
import stat

from ._library import _lib

_QUOTE_MAX = 80         # msg.c: a label (75) or a name (64) stays whole
_PATH_MAX = 4096        # <limits.h> on Linux
_SHSAFE = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                    b"0123456789_./+,:=-")

# Each compressor's Python module, whose open() load() can read through;
# zstd has none in the standard library.
_OPENERS = {"gzip": "gzip", "xz": "lzma", "bzip2": "bz2"}


def _compressed(b):
    """The compressor (the library's struct shmids_compression) whose
    magic number the bytes b, a file's first, begin with, or None:
    shmids_compressed(), the rule the tools and R refuse it by."""
    c = _lib.shmids_compressed(b, len(b))
    return c.contents if c else None


def _refuse_compressed(data, file, fname):
    """OSError EINVAL, in the tools' words ("file: compressed by gzip:
    decompress it first: ..."), if data (what load() read of file)
    is compressed; the command is Python's: load() of the module's
    open() of file, or for zstd its command line."""
    c = _compressed(data[:10])
    if c is None:
        return
    how = c.name.decode("ascii")
    # the file by its path where it has one (an open file's name too)
    name = os.fspath(file) if isinstance(file, (str, bytes, os.PathLike)) \
        else fname if isinstance(fname, str) and fname[:1] != "<" else None
    if how in _OPENERS:
        cmd = "shmids.load(%s.open(%s))%s" % (
            _OPENERS[how], repr(name) if name is not None else
            "sys.stdin.buffer" if fname == "<stdin>" else "f",
            ", f the open file" if name is None and fname != "<stdin>"
            else "")
    elif name is not None:
        cmd = "%s -d %s, and load the file it writes" % (
            how, shlex.quote(os.fsdecode(name)))
    else:
        cmd = "... | %s | python3 ..." % c.command.decode("ascii")
    raise OSError(_errno.EINVAL, "compressed by %s: decompress it first: "
                  "%s" % (how, cmd), fname)


def _quote(s):
    """msg.c's msg_quote(): at most _QUOTE_MAX bytes of s (bytes), those
    that are not printable ASCII (or are a backslash) as C's octal
    escapes, then "..." if s was longer."""
    q = "".join(chr(c) if 0x20 <= c < 0x7f and c != 0x5c else "\\%03o" % c
                for c in s[:_QUOTE_MAX])
    return q + "..." if len(s) > _QUOTE_MAX else q


def _shword(s):
    """msg.c's msg_shword(): s (bytes) as one word sh(1) reads back as
    s: "./" before a leading "-", quoted unless every byte is one sh
    takes as it is; "..." for a path longer than PATH_MAX."""
    if len(s) > _PATH_MAX:
        return b"..."
    lead = b"./" if s[:1] == b"-" else b""
    if s and all(c in _SHSAFE for c in s):
        return lead + s
    return lead + b"'" + s.replace(b"'", b"'\\''") + b"'"


def _dir_hint(d):
    """What the tools say of SHMIDS_DIR d (bytes) where a file segment
    could not be made or listed: missing (the mkdir to run), no
    directory, or not readable and searchable by this process (what
    to do); None when it is none of these.  msg.c's msg_dir_hint(),
    its 600-byte buffer included."""
    q, w = _quote(d), _shword(d)
    try:
        st, e = os.stat(d), 0
    except OSError as x:
        st, e = None, x.errno
    if e == _errno.ENOENT:
        # the command in quotes, unless its name needs sh(1)'s own
        mark = "'" if w == d else ""
        hint = ("SHMIDS_DIR %s does not exist: %smkdir -p %s%s (mode 1777 "
                "to share it), or unset SHMIDS_DIR for System V segments"
                % (q, mark, os.fsdecode(w if len(w) < 256 else b"..."),
                   mark))
    elif e == _errno.ENOTDIR or (e == 0 and not stat.S_ISDIR(st.st_mode)):
        hint = ("SHMIDS_DIR %s is not a directory%s: point SHMIDS_DIR at "
                "one, or unset it for System V segments"
                % (q, " (a name on its path is a file)"
                   if e == _errno.ENOTDIR else ""))
    elif e == _errno.EACCES or (e == 0 and
                                not os.access(d, os.R_OK | os.X_OK)):
        hint = ("SHMIDS_DIR %s cannot be read or searched by you: its "
                "owner may 'chmod 1777' it, or point SHMIDS_DIR at a "
                "directory of yours, or unset it for System V segments"
                % q)
    else:
        return None
    return os.fsencode(hint)[:599].decode("utf-8", "surrogateescape")


def _dir_error(e):
    """The tools' hint for errno e of making or listing file segments
    (ENOENT, ENOTDIR or EACCES, with SHMIDS_DIR set, and the directory
    one of _dir_hint()'s cases), else None."""
    d = _lib.shmids_dir()
    if d is None or e not in (_errno.ENOENT, _errno.ENOTDIR, _errno.EACCES):
        return None
    return _dir_hint(d)
