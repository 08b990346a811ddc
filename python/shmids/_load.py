"""load(): an ASCII file of fields read (shmids(5) sections 5, 6 and
6.1), each line as the library's classifier says, the values by its
parser."""

import csv
import ctypes
import errno as _errno
import os
import shlex

from ._library import (TYPES, _ARRAY, _CONT, _Line, _Lines, _MALFORMED,
                       _MREF, _MTREF, _REF, _ROW, _Span, _TEXT, _TREF, _TYPES, _Values,
                       _lib, _np)
from ._args import _bytes, _str, _tname
from ._mapping import _wrap
from ._segments import attach


# Compressed input (shmids(5) section 7): the library tells it, load()
# refuses it with Python's way to read it.

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


# Reference lines (shmids(5) section 5).


def _read_all(file):
    """(the bytes of file, its name), or OSError for compressed input,
    as the tools refuse it (shmids(5) 7): its text is no ASCII."""
    if isinstance(file, (str, bytes, os.PathLike)):
        with open(file, "rb") as f:
            data, fname = f.read(), os.fsdecode(file)
    else:
        data = _bytes(file.read())
        fname = getattr(file, "name", "<file>")
    _refuse_compressed(data, file, fname)
    return data, fname


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
    (label as filename), and those of reading the file; EINVAL for a
    compressed file (gzip, xz, zstd, bzip2: its first bytes, as the
    tools tell it, shmids(5) 7), naming the call that reads it.
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
        if c.kind in (_MREF, _MTREF):   # a stream's message (shmids(5) 5.1)
            label = "%s %d" % (_str(c.label),
                               _lib.shmids_line_seq(line, self.cref))
            raise OSError(_errno.EMEDIUMTYPE, "a stream's message (%s): "
                          "load() reads segments; read the stream with "
                          "shmids.follow(%r)" % (label, label), where)
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
