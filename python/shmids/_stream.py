"""Streams (shmids(5) section 10, message references 5.1;
shmids_stream(3)): stream() makes one, a Stream lends its slots
(loan()) and publishes them; follow() reads one message by message, in
place.  The library keeps the ring, the policies and the words; this
module holds the handles and the arrays over them."""

import atexit
import ctypes
import errno as _errno
import time
import weakref

from ._library import (_BY_ENUM, _COLMAJOR, _COLS_MAX, _ROWMAJOR, _TYPES,
                       _SIZE_MAX, _TYPESTR, _Msg, _explain, _lib, _lock, _np)
from ._args import (_M600, _cstr, _int, _mode, _name, _seconds,
                    _shape, _str, _tname)
from ._mapping import _view, _wrap
from ._segments import _order, _type_of

_FOREVER = 1e9          # seconds: the library waits for ever (shmids.h)
_OVERWRITE, _KEEP, _NEW = 0x1, 0x2, 0x4     # SHMIDS_STREAM_*
_READERS_MAX = 64       # SHMIDS_STREAM_READERS_MAX
_exiting = []           # set at the interpreter's exit


def _at_exit():
    # The library closes this process's handles at exit (a writer's
    # stream ends): arrays may still be read by atexit handlers until then.
    _exiting.append(True)


atexit.register(_at_exit)


def _fail(label, seq=None):
    """The OSError for the errno of the stream call that just failed, in
    shmids_explain()'s words for label (bytes), or for the message label
    "label seq" when seq is given (ENOMSG says which messages are left)."""
    e = ctypes.get_errno() or _errno.EIO
    what = label if seq is None else b"%s %d" % (label, seq)
    return OSError(e, _explain(e, what), _str(what))


def _wait(call, seconds, *args):
    """call(*args, seconds) again after EINTR, for the time left: Python
    runs its signal handlers between the tries (PEP 475), so that ^C
    interrupts a wait.  Returns what the last call returned; errno is
    the library's after a failure."""
    end = time.monotonic() + seconds
    while True:
        r = call(*args, seconds)
        if (r is not None and r != -1) or \
                ctypes.get_errno() != _errno.EINTR:
            return r
        if seconds < _FOREVER:
            seconds = max(0.0, end - time.monotonic())


def _timeout(timeout):
    return _FOREVER if timeout is None else min(_seconds(timeout), _FOREVER)


class _Handle:
    """One handle of the library, a writer's or a reader's, closed
    (shmids_stream_close()) by close() or when this object goes.  Every
    array over the ring holds it: the ring stays mapped while one lives
    (no array outlives its memory)."""

    def __init__(self, p):
        self.p = p
        self.label = _lib.shmids_stream_label(p)    # bytes, "id name"

    def close(self):
        with _lock:
            p, self.p = self.p, None
            if p:
                _lib.shmids_stream_close(p)

    def __del__(self):
        if not _exiting:
            self.close()


class _Slot:
    """An array's base over a slot of the ring: numpy reads the memory
    through __array_interface__; no buffer is exported, so an array made
    read-only has no writable view.  Holds the handle.  A reader's: the
    message's seq, lost and label ("id name seq", shmids(5) 5.1)."""

    def __init__(self, h, addr, tname, shape, fortran, ro, seq, lost=0):
        self._h, self._addr, self._tname = h, addr, tname
        self._shape, self._fortran, self._ro = shape, fortran, ro
        self.seq, self.lost = seq, lost

    @property
    def label(self):
        return "%s %d" % (_str(self._h.label), self.seq)

    @property
    def __array_interface__(self):
        i = {"data": (self._addr, self._ro), "shape": self._shape,
             "typestr": _TYPESTR[self._tname], "version": 3}
        if self._fortran:
            esz = _TYPES[self._tname][3]
            i["strides"] = (esz, esz * self._shape[0])
        return i

    def array(self):
        if _np is not None:
            return _np.asarray(self)
        n = _TYPES[self._tname][3]
        for d in self._shape:
            n *= d
        # a memoryview has no column order: the storage, (cols, rows)
        shape = self._shape[::-1] if self._fortran else self._shape
        if n == 0:
            return _wrap(b"" if self._ro else bytearray(0), self._tname)
        return _wrap(_view(self._addr, n, self._ro, self), self._tname,
                     shape)


class Stream:
    """A stream's writer (stream()): label ("<shmid> <name>"), slots,
    capacity (bytes a message may hold), seq (of the last message
    published, None before the first), loan(), publish(), close().  As a
    context manager it closes at the end of the block, whatever ends it.
    A message's reference line is "field shmids <label> <seq>"
    (shmids(5) 5.1), as every language's writer prints it."""

    def __init__(self, h, slots, capacity):
        self._h = h
        self.label = _str(h.label)
        self.slots, self.capacity = slots, capacity
        self.seq = None
        self._loaned = None     # the array of the loan not yet published

    def _handle(self):
        if self._h.p is None:
            raise ValueError("shmids: stream %s: closed" % self.label)
        return self._h

    def loan(self, shape, dtype="f8", order="C", timeout=None):
        """The next message's slot, lent as a writable array of shape (n
        or (rows, cols)) and dtype (as zeros() takes them; order "F": a
        column-major table), in place (no copy): "with w.loan(shape,
        dtype) as a:" fills a and publishes it at the end of the block,
        as message w.seq; a block that raises publishes nothing (the same
        slot is lent again next time).  Waits up to timeout seconds (None:
        for ever) for the slot to be free, as the policy says (shmids(5)
        10.4).  The array is writable in the block only (read-only
        after it: its slot is the writer's again), and must not be used
        after close().

        Raises ValueError (shape, order), TypeError (dtype), OSError:
        EMSGSIZE (more bytes than the capacity), BlockingIOError (EAGAIN:
        no room within timeout: a reader lags, or the expected readers
        have not registered; the words say who), EBADF (a process forked
        from the writer)."""
        tname = _tname(dtype)
        shape = _shape(shape)
        o = _order(order)
        if len(shape) == 2 and not 1 <= shape[1] <= _COLS_MAX:
            raise ValueError("shmids: a table has 1 to %d columns, not %d"
                             % (_COLS_MAX, shape[1]))
        if len(shape) == 1 and o == _COLMAJOR:
            raise ValueError("shmids: order 'F' is for 2-D tables")
        n = _TYPES[tname][3]
        for d in shape:
            n *= d
        if n > self.capacity:
            e = _errno.EMSGSIZE
            raise OSError(e, _explain(e, self._h.label), self.label)
        return _Loan(self, tname, shape, o, _timeout(timeout))

    def _lend(self, seconds):
        h = self._handle()
        addr = _wait(_lib.shmids_stream_loan, seconds, h.p)
        if not addr:
            raise _fail(h.label)
        return addr

    def _publish(self, tname, shape, o):
        h = self._handle()
        rows, cols = shape if len(shape) == 2 else (shape[0], 0)
        seq = _lib.shmids_stream_publish(h.p, _TYPES[tname][0], rows, cols,
                                         o)
        if seq == -1:
            raise _fail(h.label)
        self.seq = seq
        return seq

    def publish(self, array, order=None, timeout=None):
        """Copy a 1-D or 2-D array (as create() takes it; order as
        create()'s) into the next slot and publish it; returns its seq.
        Waits and raises as loan()."""
        if order == "F" and _np is not None:
            array = _np.asarray(array)
        fortran = order == "F" or (order is None and _np is not None and
                                   isinstance(array, _np.ndarray) and
                                   array.ndim == 2 and
                                   array.flags.f_contiguous and
                                   not array.flags.c_contiguous)
        if fortran:
            tname, tshape, src = _type_of(array.T)
            shape = (tshape[1], tshape[0])
        else:
            tname, shape, src = _type_of(array)
        with self.loan(shape, tname, "F" if fortran else "C",
                       timeout) as a:
            if src.nbytes:
                dst = (ctypes.c_ubyte * src.nbytes).from_address(
                    self._addr)
                memoryview(dst).cast("B")[:] = src
        return self.seq

    def close(self):
        """End the stream: every reader gets the end after the last
        message published (a loan not published is dropped); the segment
        goes once its readers have (unless made with keep=True).
        Idempotent."""
        self._h.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __reduce_ex__(self, protocol):
        raise TypeError("shmids: a Stream is this process's writer and "
                        "cannot be pickled: pass its label (%r)"
                        % self.label)

    def __repr__(self):
        return "<shmids Stream %r slots=%d capacity=%d>" % (
            self.label, self.slots, self.capacity)


class _Loan:
    """What Stream.loan() returns: a context manager whose array is the
    slot, published at a normal exit of the block."""

    def __init__(self, w, tname, shape, o, seconds):
        self._w, self._tname, self._shape, self._o = w, tname, shape, o
        self._seconds = seconds
        self.array = None

    def __enter__(self):
        w = self._w
        w._addr = addr = w._lend(self._seconds)
        slot = _Slot(w._h, addr, self._tname, self._shape,
                     self._o == _COLMAJOR and len(self._shape) == 2,
                     False, None)
        self.array = slot.array()
        return self.array

    def __exit__(self, etype, *exc):
        a, self.array = self.array, None
        try:
            if etype is None:
                self._w._publish(self._tname, self._shape, self._o)
        finally:
            # its slot is the writer's again: no more writes through it
            if _np is not None:
                a.flags.writeable = False
            else:
                try:
                    a.release()
                except BufferError:     # views of it are left
                    pass
        return False


def stream(name, slots, capacity, mode=_M600, readers=1, overwrite=False,
           keep=False):
    """Make a stream called name and return its writer, a Stream.

    name: as create() takes it.  slots: messages the ring holds (1 or
    more).  capacity: bytes a message may hold (1 or more; a 100 x 100
    float64 field is 80000).  mode: permission bits, exactly (its readers
    need read and write permission: 0o600 for the maker's alone).
    readers: the registrations the writer waits for before it reuses a
    slot (0 to 64; 1: a pipeline's one reader loses nothing however late
    it comes; 0: never waits for one).  overwrite: never wait for a
    reader that lags (it is told what it lost) instead of waiting for
    every registered reader (shmids(5) 10.4).  keep: not removed when it
    ends and its readers have gone (10.5; shm-rm removes it).  The
    segment (System V, or a file in $SHMIDS_DIR) is about slots x
    capacity bytes.

    Raises TypeError or ValueError (mode, slots, capacity, readers), and
    OSError as create() does (EINVAL, ENAMETOOLONG, ENOMEM, ENOSPC...).
    """
    bname = _name(name)
    mode = _mode(mode)
    for what, v, lo, hi in (("slots", slots, 1, None),
                            ("capacity", capacity, 1, None),
                            ("readers", readers, 0, _READERS_MAX)):
        if _int(v) is None:
            raise TypeError("shmids: %s must be an int, not %s"
                            % (what, type(v).__name__))
        hi = _SIZE_MAX if hi is None else hi
        if not lo <= v <= hi:
            raise ValueError("shmids: %s %d is outside %d to %d"
                             % (what, v, lo, hi))
    flags = (_OVERWRITE if overwrite else 0) | (_KEEP if keep else 0)
    with _lock:
        p = _lib.shmids_stream_create(bname, mode, int(slots),
                                      int(capacity), int(readers), flags)
        if not p:
            e = ctypes.get_errno() or _errno.EIO
            raise OSError(e, _explain(e), _str(bname))
        h = _Handle(p)
    return Stream(h, int(slots), int(capacity))


class Follower:
    """A stream's reader (follow()): iterate it for the messages, in
    order.  label (the stream's), seq and lost (of the last message
    yielded: its sequence number, and the messages lost just before it
    under the overwrite policy), close(); a context manager too."""

    def __init__(self, h, seconds):
        self._h, self._seconds = h, seconds
        self._m = _Msg()
        self._bases = weakref.WeakSet()     # the arrays' (_Slot)
        self.label = _str(h.label)
        self.seq, self.lost = None, 0

    def __iter__(self):
        return self

    def __next__(self):
        h = self._h
        if h is None:
            raise StopIteration
        r = _wait(_lib.shmids_stream_next, self._seconds, h.p, self._m)
        if r == -1:
            raise _fail(h.label)
        if r == 0:
            self.close()
            raise StopIteration
        m = self._m
        tname = _BY_ENUM[m.type]
        shape = (m.rows, m.cols) if m.ndim == 2 else (m.rows,)
        self.seq, self.lost = m.seq, m.lost
        slot = _Slot(h, m.data, tname, shape, m.ndim == 2 and
                     m.order == _COLMAJOR, True, m.seq, m.lost)
        self._bases.add(slot)
        return slot.array()

    def close(self):
        """Stop reading: unregistered (the writer no longer waits for this
        reader) at once if no array this reader yielded is alive, else
        when the last goes (the ring stays mapped under them).
        Idempotent."""
        h, self._h = self._h, None
        if h is None:
            return
        with _lock:
            if h.p:
                _lib.shmids_stream_release(h.p)
        if not self._bases:     # else the last array's base closes it
            h.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        return "<shmids Follower %r seq=%s>" % (self.label, self.seq)


def follow(label, timeout=None, new=False):
    """Read the stream label names, message by message: a Follower to
    iterate, yielding each message as a read-only array in place.

    label: the stream's label "<shmid> <name>" (w.label), or a message's
    "<shmid> <name> <seq>" (shmids(5) 5.1) to start at message seq; a
    reader registers in the stream (it needs read and write permission)
    and starts at the oldest message the ring holds (the expected
    readers at message 0), or, new=True, at the next one published.
    timeout: seconds to wait for each message (and for a stream still
    being made); None waits for ever.  The iteration ends at the end of
    the stream (the writer closed it) and the reader unregisters.

    Each array (1-D, or 2-D (rows, cols) for a table, dtype from the
    message's type; a memoryview without numpy) is the message's slot
    in the ring, no copy, read-only, and valid until the next
    iteration only: the next step releases it, and the writer fills
    the slot again.  To keep a message, copy it (numpy.array(a)).  Its
    base has seq, lost and label (the message label "<shmid> <name>
    <seq>").  The ring stays mapped while any array lives, so a stale
    array never crashes, but a reader that stops early (break) while
    one is alive stays registered until it goes: drop it, or copy.

    Raises OSError with the library's errno and shmids_explain()'s
    words (label as filename): those of attach() for the label,
    EMEDIUMTYPE (not a stream), EUSERS (64 readers registered), ENOMSG
    (message seq is gone); while iterating BlockingIOError (EAGAIN:
    nothing within timeout; iterate again to go on), EOWNERDEAD (the
    writer died; every message it published has been read), EBADMSG (a
    damaged message, skipped: iterate again to go on), ENOLINK.
    """
    b = _cstr(label, label)
    seconds = _timeout(timeout)
    end = time.monotonic() + seconds
    while True:
        with _lock:
            p = _lib.shmids_stream_open(b, _NEW if new else 0, 0.0)
            if p:
                h = _Handle(p)
                break
            e = ctypes.get_errno() or _errno.EIO
        left = end - time.monotonic()
        if e not in (_errno.EAGAIN, _errno.EINTR) or left <= 0:
            raise OSError(e, _explain(e, b), _str(b))
        time.sleep(min(0.01, left))
    return Follower(h, seconds)
