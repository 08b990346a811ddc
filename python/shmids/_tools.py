"""What the tools say that the library does not: cmd/'s rule for
compressed input (magic.c), mirrored here exactly, so that a Python
user reads the words a shell user reads.  The library has no call for
it; once it has (a shmids_compressed()), this asks it and goes."""

import errno as _errno
import os
import shlex

# Each compressor's Python module, whose open() load() can read through;
# zstd has none in the standard library.
_OPENERS = {"gzip": "gzip", "xz": "lzma", "bzip2": "bz2"}


def _compressed(b):
    """The compressor whose magic number the bytes b begin with (gzip,
    xz, zstd, bzip2), or None: magic.c's magic_compressed(), byte for
    byte (bzip2's "BZh" and a block size need a block's or the stream
    end's magic after them, so that text beginning "BZh9" is text)."""
    if b[:2] == b"\x1f\x8b":
        return "gzip"
    if b[:6] == b"\xfd7zXZ\0":
        return "xz"
    if b[:4] == b"\x28\xb5\x2f\xfd":
        return "zstd"
    if len(b) >= 10 and b[:3] == b"BZh" and 0x31 <= b[3] <= 0x39 and \
            b[4:10] in (b"\x31\x41\x59\x26\x53\x59",
                        b"\x17\x72\x45\x38\x50\x90"):
        return "bzip2"
    return None


def _refuse_compressed(data, file, fname):
    """OSError EINVAL, in the tools' words ("file: compressed by gzip:
    decompress it first: ..."), if data (what load() read of file)
    is compressed; the command is Python's: load() of the module's
    open() of file, or for zstd its command line."""
    how = _compressed(data[:10])
    if how is None:
        return
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
        cmd = "zstd -d %s, and load the file it writes" % shlex.quote(
            os.fsdecode(name))
    else:
        cmd = "... | zstd -dc | python3 ..."
    raise OSError(_errno.EINVAL, "compressed by %s: decompress it first: "
                  "%s" % (how, cmd), fname)
