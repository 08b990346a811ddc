"""ls(): the segments as shm-ls -p lists them (shmids(5) section 7)."""

import ctypes
import os

from ._library import (_BY_ENUM, _SCANFN, _SHMIDS_ALL, _error, _lib,
                       _lock)
from ._args import _str


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
        # shmids_explain(): for SHMIDS_DIR, what is wrong and what to do
        exc = _error(err, where)
        exc.segments = out
        raise exc
    return out
