"""bench/python.py: an array of doubles into numpy three ways, as
bench/run runs it (make bench):

    shmids.attach    a segment, read-only, no copy (python/shmids/):
                     System V, and a file segment in $TMPDIR
    numpy.fromfile   a binary file of the same bytes (in the page cache)
    numpy.loadtxt    their ASCII form, one value a line, shortest digits

Prints the median of BENCH_RUNS runs (default 5) of getting the array in
hand, and of that and one sum over it (the first pass over the pages,
which attach() maps as they are first read), each with its ratio to
System V attach's.  N is BENCH_PY_N (default 10^7; 10^6 with
BENCH_QUICK).  The segment and files are named $BENCH_PREFIX...;
removed at the end, whatever happens.

Then issue 31's readers, each against its anchor in the same run,
contenders interleaved, CPU time, medians of BENCH_RUNS: reading all
of an attached array (attach(populate=True), then one sum) against
numpy.load of a .npy of it in the page cache and one sum (target
31.py-read, at most 1.2x; lazy attach()es, System V and file, beside
it), and shmids.load() against numpy.loadtxt of the same ASCII file
(BENCH_PY_LOADN values, default 10^6: one a line, and 8 a row; target
31.py-load, the worse of the two, at most 1.0x).  attach() alone against
SharedMemory(name) (and numpy.ndarray over its buffer) is target
31.py-attach (at most 1.1x), from issue 21's attach rows below (P2).
Each prints "target <name>: <ratio>x (limit <x>x) met" (or "not
met").  Issue 41's rows print "target 41.<name> <what>: <ratio>x
(limit <x>) met" (or "not met"): row 6, 41.py-attach-sum, the lazy
attach() of System V and one sum against np.load(mmap_mode='r') of the
.npy copied to /dev/shm (tmpfs) and one sum (at most 1.2x); row 7,
41.py-attach-file, attach() of a file segment made in
/dev/shm/$BENCH_PREFIX"pyfdir" against SharedMemory(name) (at most
1.2x), in the attach rows below.

Then shmids.zeros() against multiprocessing.shared_memory (issue 21):
making a segment and filling it with N doubles (2 * u, written in
place), attaching it, and a 3-stage pipeline of processes (writer, x2
filter, summing reader), with what each stage's peak RSS (VmHWM: the shared
pages it touched count) and private memory (RssAnon) grew by from its
start (the interpreter and numpy loaded), against the array's size.
The filter runs twice: over the whole arrays at once, where its peak
counts both the input it read and the output it wrote (2x the array,
with either module: the pages are shared, not copies), and window by
window (WINDOW bytes), each window's pages released once done
(shmids.release(); for shared_memory, mmap.madvise(MADV_DONTNEED) on
SharedMemory's private _mmap, as it offers no public way), where the
peak is the output's pages that zeros() populates when it makes the
segment, plus a window.  Last, the targets of issue 21, met or not met,
as "target P<n>:" lines that bench/run gathers.

    SHMIDS_LIB=build/libshmids.so PYTHONPATH=python python3 bench/python.py
"""
import mmap
import os
import shutil
import statistics
import subprocess
import sys
import time
from multiprocessing import resource_tracker, shared_memory

import numpy
import shmids


def medians(get, runs):
    """Median seconds to get the array, and to get it and sum it once."""
    hand, total = [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        a = get()
        t1 = time.perf_counter()
        a.sum()
        t2 = time.perf_counter()
        hand.append(t1 - t0)
        total.append(t2 - t0)
        del a
    return statistics.median(hand), statistics.median(total)


def main():
    quick = os.environ.get("BENCH_QUICK")
    n = int(float(os.environ.get("BENCH_PY_N", "1e6" if quick else "1e7")))
    runs = int(os.environ.get("BENCH_RUNS", "3" if quick else "5"))
    prefix = os.environ.get("BENCH_PREFIX", "bench-%d-" % os.getpid())
    tmp = os.environ.get("TMPDIR", "/tmp")
    u = numpy.random.default_rng(1).standard_normal(n)
    label = flabel = None
    fdir = os.path.join(tmp, prefix + "pydir")
    binf = os.path.join(tmp, prefix + "py-bin")
    txtf = os.path.join(tmp, prefix + "py-txt")
    npyf = os.path.join(tmp, prefix + "py.npy")
    tabf = os.path.join(tmp, prefix + "py-tab")
    try:
        label = shmids.create(prefix + "py", u)
        os.mkdir(fdir)
        os.environ["SHMIDS_DIR"] = fdir
        flabel = shmids.create(prefix + "py", u)
        del os.environ["SHMIDS_DIR"]
        u.tofile(binf)
        # shortest round-trip digits, as shm-expand writes them
        with open(txtf, "w") as f:
            f.write("\n".join(map(repr, u.tolist())))
            f.write("\n")
        want = u.sum()
        rows = [
            ("shmids.attach", lambda: shmids.attach(label)),
            ("  file segment", lambda: shmids.attach(flabel)),
            ("numpy.fromfile", lambda: numpy.fromfile(binf)),
            ("numpy.loadtxt", lambda: numpy.loadtxt(txtf)),
        ]
        for _, get in rows:
            assert get().tobytes() == u.tobytes()
        print("Python: %d doubles into numpy %s (Python %s), median of %d "
              "runs" % (n, numpy.__version__, sys.version.split()[0], runs))
        print("  %-16s %10s %8s %12s %8s" % ("", "in hand", "ratio",
                                              "+ one sum", "ratio"))
        base = None
        for name, get in rows:
            hand, total = medians(get, runs)
            base = base or (hand, total)
            print("  %-16s %8.4f s %8.1f %10.4f s %8.1f"
                  % (name, hand, hand / base[0], total, total / base[1]))
        readers(u, label, flabel, npyf, txtf, tabf, runs)
        global SHMDIR
        if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
            SHMDIR = os.path.join("/dev/shm", prefix + "pyfdir")
            os.mkdir(SHMDIR)
        targets(*zeros_rows(u, prefix, runs))
    finally:
        for p in (binf, txtf, npyf, tabf):
            if os.path.exists(p):
                os.unlink(p)
        for lb in (label, flabel):
            if lb is not None:
                shmids.remove(lb)
        if os.path.isdir(fdir):
            os.rmdir(fdir)
        if SHMDIR is not None and os.path.isdir(SHMDIR):
            try:
                os.rmdir(SHMDIR)
            except OSError as e:    # a segment left: bench/run's trap
                print("bench/python.py: %s: %s" % (SHMDIR, e),
                      file=sys.stderr)


def interleaved(rows, runs):
    """Median CPU seconds (this process's, all its threads: the
    library's populate threads count) of each (name, fn) of rows, the
    rows run in turn in each of runs rounds (contenders interleaved: a
    slow moment of the machine falls on all of them; CPU time, not
    wall, on a machine shared with other work)."""
    times = {name: [] for name, _ in rows}
    for _ in range(runs):
        for name, fn in rows:
            t0 = time.process_time()
            fn()
            times[name].append(time.process_time() - t0)
    return {name: statistics.median(t) for name, t in times.items()}


def say_target(name, got, limit):
    """One target line as bench/run gathers it (issue 31)."""
    print("target %s: %.2fx (limit %.1fx) %s" % (
        name, got, limit, "met" if got <= limit else "not met"))


def readers(u, label, flabel, npyf, txtf, tabf, runs):
    """Issue 31's Python readers against their anchors, interleaved:
    reading all of an attached array (attach, then one sum) against
    numpy.load of the same array from a .npy in the page cache, and
    shmids.load() of ASCII against numpy.loadtxt of the same file (one
    value a line: BENCH_PY_LOADN values, default 10^6; and 8 columns
    a row, as many values)."""
    numpy.save(npyf, u)
    nl = int(float(os.environ.get("BENCH_PY_LOADN", "1e5" if os.environ.get(
        "BENCH_QUICK") else "1e6")))
    v = u[:nl]
    with open(txtf, "w") as f:  # shortest round-trip digits, as before
        f.write("\n".join(map(repr, v.tolist())))
        f.write("\n")
    w = v[:nl - nl % 8].reshape(-1, 8)
    with open(tabf, "w") as f:
        f.write("\n".join(" ".join(map(repr, r)) for r in w.tolist()))
        f.write("\n")
    for p in (npyf, txtf, tabf):    # into the page cache
        with open(p, "rb") as f:
            f.read()
    key, tkey = os.path.basename(txtf) + ":1", os.path.basename(tabf) + ":1"
    assert shmids.load(txtf)[key].tobytes() == v.tobytes()
    assert (shmids.load(tabf)[tkey] == numpy.loadtxt(tabf)).all()
    assert (numpy.load(npyf) == shmids.attach(label, populate=True)).all()
    page = os.sysconf("SC_PAGE_SIZE")
    print("Python: issue 31's readers, %d doubles (%.0f MiB), CPU "
          "time, median of %d interleaved runs; System V segments in %d "
          "KiB pages (shm-ls -l says whether 2 MiB ones can be had)"
          % (u.size, u.nbytes / 2**20, runs, page >> 10))
    # issue 41 row 6's anchor: the .npy mapped from tmpfs, as a reader
    # of a file in /dev/shm would have it (its faults map 16 pages each)
    shmf = npyf
    try:
        if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
            shmf = os.path.join("/dev/shm", os.path.basename(npyf))
            shutil.copyfile(npyf, shmf)
        t = interleaved([
            ("numpy.load+sum", lambda: numpy.load(npyf).sum()),
            ("np.load(mmap_mode='r')+sum",
             lambda: numpy.load(shmf, mmap_mode="r").sum()),
            ("attach(populate=True)+sum",
             lambda: shmids.attach(label, populate=True).sum()),
            ("attach()+sum", lambda: shmids.attach(label).sum()),
            ("attach()+sum, file", lambda: shmids.attach(flabel).sum()),
        ], runs)
    finally:
        if shmf != npyf and os.path.exists(shmf):
            os.unlink(shmf)
    for name, x in t.items():
        print("  %-28s %8.4f s %6.2f" % (name, x, x / t["numpy.load+sum"]))
    tl = interleaved([
        ("numpy.loadtxt, 1 column", lambda: numpy.loadtxt(txtf)),
        ("shmids.load, 1 column", lambda: shmids.load(txtf)),
        ("numpy.loadtxt, 8 columns", lambda: numpy.loadtxt(tabf)),
        ("shmids.load, 8 columns", lambda: shmids.load(tabf)),
    ], runs)
    print("  %d values of ASCII, shortest digits:" % nl)
    for name, x in tl.items():
        anchor = "numpy.loadtxt, " + name.split(", ")[1]
        print("  %-28s %8.4f s %6.2f" % (name, x, x / tl[anchor]))
    print("  (a file segment: the lazy attach's faults map 16 pages each "
          "on tmpfs, fault-around)")
    say_target("31.py-read", t["attach(populate=True)+sum"] / t["numpy.load+sum"], 1.2)
    # issue 41 row 6: the default, lazy attach, System V
    r = t["attach()+sum"] / t["np.load(mmap_mode='r')+sum"]
    print("target 41.py-attach-sum Python attach() (lazy) + one sum of "
          "the array, System V, against np.load(mmap_mode='r') + sum of "
          "a .npy on %s: %.2fx (limit 1.20) %s"
          % ("tmpfs" if shmf != npyf else "$TMPDIR", r,
             "met" if r <= 1.2 else "not met"))
    say_target("31.py-load", max(
                   tl["shmids.load, 1 column"] /
                   tl["numpy.loadtxt, 1 column"],
                   tl["shmids.load, 8 columns"] /
                   tl["numpy.loadtxt, 8 columns"]), 1.0)


def _shm(name=None, size=0):
    """A SharedMemory that the resource tracker does not unlink when this
    process exits (it would under a later stage: Python 3.11)."""
    m = shared_memory.SharedMemory(name, create=name is None, size=size)
    resource_tracker.unregister(m._name, "shared_memory")
    return m


# A directory on the file system SharedMemory uses (/dev/shm), for the
# file segments of issue 41 row 7 ("shmids file"): made by main().
SHMDIR = None


def make_fill(u, how, prefix, i):
    """Make a segment of u's size, fill it with 2 * u in place; returns
    what names it."""
    if how in ("shmids", "shmids file"):
        if how == "shmids file":
            os.environ["SHMIDS_DIR"] = SHMDIR
        try:
            with shmids.zeros("%sz%d" % (prefix, i), u.shape) as w:
                numpy.multiply(u, 2, out=w.array)
        finally:
            os.environ.pop("SHMIDS_DIR", None)
        return w.label
    m = _shm(size=u.nbytes)
    numpy.multiply(u, 2, out=numpy.ndarray(u.shape, numpy.float64,
                                           buffer=m.buf))
    m.close()
    return m.name


def attach_one(how, name, n):
    """The array, and the SharedMemory to close after it (or None)."""
    if how.startswith("shmids"):    # "shmids populate": populate=True
        return shmids.attach(name, populate=how == "shmids populate"), None
    m = _shm(name)
    return numpy.ndarray((n,), numpy.float64, buffer=m.buf), m


def drop(how, name):
    if how.startswith("shmids"):
        shmids.remove(name)
    else:   # attaching registers it, unlink() unregisters: balanced
        m = shared_memory.SharedMemory(name)
        m.close()
        m.unlink()


WINDOW = 1 << 20     # bytes a windowed filter works on at a time


def memory():
    """(VmHWM, RssAnon) of this process, bytes."""
    out = {}
    with open("/proc/self/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmHWM", "RssAnon"):
                out[k] = int(v.split()[0]) * 1024
    return out["VmHWM"], out["RssAnon"]


def count(a):
    """a[i] = i, in blocks of 2^16: no temporary array of a's size."""
    for i in range(0, a.size, 1 << 16):
        b = a[i:i + (1 << 16)]
        b[:] = numpy.arange(i, i + b.size, dtype=numpy.float64)


def stage(how, what, n, arg, prefix):
    """One stage of the pipeline, in a process of its own; prints the
    name of what it made (or the sum), and how much its VmHWM and
    RssAnon grew from the start (interpreter and numpy loaded)."""
    hwm0, anon0 = memory()
    if what == "writer":
        if how == "shmids":
            with shmids.zeros(prefix + "pw", (n,)) as w:
                count(w.array)
            out = w.label
        else:
            m = _shm(size=8 * n)
            count(numpy.ndarray((n,), numpy.float64, buffer=m.buf))
            out = m.name
    elif what == "wfilter":
        a, keep = attach_one(how, arg, n)
        out = windowed(how, a, keep, n, prefix)
    elif what == "filter":
        a, keep = attach_one(how, arg, n)
        if how == "shmids":
            with shmids.zeros(prefix + "pf", (n,)) as w:
                numpy.multiply(a, 2, out=w.array)
            out = w.label
        else:
            m = _shm(size=8 * n)
            numpy.multiply(a, 2, out=numpy.ndarray((n,), numpy.float64,
                                                   buffer=m.buf))
            out = m.name
    else:
        a, keep = attach_one(how, arg, n)
        out = repr(float(a.sum()))
    hwm, anon = memory()
    print(out, hwm - hwm0, anon - anon0)


def windowed(how, a, keep, n, prefix):
    """out = 2 * a, WINDOW bytes at a time, each window's input and output
    pages released once done; returns what names out."""
    step = WINDOW // 8
    if how == "shmids":
        with shmids.zeros(prefix + "pf", (n,)) as w:
            for i in range(0, n, step):
                x, y = a[i:i + step], w.array[i:i + step]
                numpy.multiply(x, 2, out=y)
                shmids.release(x, y)
        return w.label
    m = _shm(size=8 * n)
    out = numpy.ndarray((n,), numpy.float64, buffer=m.buf)
    for i in range(0, n, step):
        numpy.multiply(a[i:i + step], 2, out=out[i:i + step])
        # whole pages: both maps start on a page
        lo, hi = 8 * i, min(8 * (i + step), 8 * n)
        hi = -(-hi // mmap.PAGESIZE) * mmap.PAGESIZE
        for sm in (keep, m):
            sm._mmap.madvise(mmap.MADV_DONTNEED, lo,
                             min(hi, len(sm._mmap)) - lo)
    return m.name


def pipeline(how, n, prefix, filt="filter"):
    """Wall seconds of the 3 stages run one after the other, the sum,
    and each stage's (VmHWM, RssAnon)."""
    made, mem, arg = [], [], ""
    t0 = time.perf_counter()
    try:
        for what in ("writer", filt, "reader"):
            r = subprocess.run([sys.executable, __file__, "--stage", how,
                                what, str(n), arg, prefix],
                               stdout=subprocess.PIPE, text=True, check=True)
            arg, hwm, anon = r.stdout.strip().rsplit(None, 2)
            mem.append((int(hwm), int(anon)))
            if what != "reader":
                made.append(arg)
        return time.perf_counter() - t0, float(arg), mem
    finally:
        for name in made:
            drop(how, name)


ATTACHES = 50      # attaches timed a run, each alone: medians of them


def attach_time(how, name, u, what):
    """CPU seconds to attach (and sum, for attach+sum) the segment name
    (CPU time: some 20 us each, on a machine shared with other work)."""
    n = u.size
    t1 = time.process_time()
    a, keep = attach_one(how, name, n)
    if what == "attach+sum":
        a.sum()
    t2 = time.process_time()
    assert a[n - 1] == 2 * u[n - 1]
    del a
    if keep is not None:
        keep.close()
    return t2 - t1


def zeros_rows(u, prefix, runs):
    n, mib = u.size, u.nbytes / 2**20
    print("Python: zeros() against multiprocessing.shared_memory, %d "
          "doubles (%.0f MiB), median of %d runs (attach: of %d attaches "
          "each)" % (n, mib, runs, ATTACHES))
    base = {}
    for what in ("make+fill", "attach", "attach+sum"):
        hows = ("shared_memory", "shmids") + (
            ("shmids populate",) if what == "attach+sum" else
            ("shmids file",) if what == "attach" and SHMDIR else ())
        # contenders interleaved, run by run; a run's figure is the
        # median of its ATTACHES attaches (an attach alone is some 20
        # us), the row's the median of the runs'
        times = {how: [] for how in hows}
        for i in range(runs):
            for how in hows:
                t0 = time.perf_counter()
                name = make_fill(u, how if how == "shmids file" else
                                 how.split()[0], prefix, i)
                t1 = time.perf_counter()
                try:
                    if what == "make+fill":
                        times[how].append(t1 - t0)
                    else:
                        times[how].append(statistics.median(
                            attach_time(how, name, u, what) for _ in
                            range(ATTACHES if what == "attach" else 1)))
                finally:
                    drop(how.split()[0], name)
        for how in hows:
            t = base[what, how] = statistics.median(times[how])
            print("  %-10s %-16s %11.6f s %7.2f" % (
                what, how, t, t / base[what, "shared_memory"]))
    want = 2.0 * (n - 1) * n / 2
    print("  3-stage pipeline (writer, x2 filter, summing reader): wall "
          "time, each stage's growth of peak RSS / private MiB")
    piped = {}
    for filt, say in (("filter", "whole arrays"),
                      ("wfilter", "filter by %d KiB windows, released"
                       % (WINDOW >> 10))):
        print("   %s:" % say)
        for how in ("shared_memory", "shmids"):
            times, mems = [], []
            for _ in range(runs):
                t, total, mem = pipeline(how, n, prefix, filt)
                assert total == want, (total, want)
                times.append(t)
                mems.append(mem)
            t = statistics.median(times)
            mem = [tuple(statistics.median(m[k][j] for m in mems)
                         for j in (0, 1)) for k in range(3)]
            piped[filt, how] = t, mem[1][0] / u.nbytes
            print("  %-14s %7.3f s %5.2f  " % (
                how, t, t / piped[filt, "shared_memory"][0]) + "  ".join(
                "%s %.0f/%.0f" % (w, h / 2**20, a / 2**20) for w, (h, a)
                in zip(("writer", "filter", "reader"), mem)) +
                "  (filter RSS %.2fx the array)" % piped[filt, how][1])
    return base, piped


def targets(base, piped):
    """Issue 21's targets, each "target P<n>: what: figure (threshold):
    met or not met"."""
    def ratio(what):
        return base[what, "shmids"] / base[what, "shared_memory"]

    if ("attach", "shmids file") in base:
        r = base["attach", "shmids file"] / base["attach", "shared_memory"]
        print("target 41.py-attach-file Python attach() of a file segment "
              "in /dev/shm against SharedMemory(name): %.2fx (limit 1.20) "
              "%s" % (r, "met" if r <= 1.2 else "not met"))
    else:
        print("target 41.py-attach-file Python attach() of a file segment "
              "in /dev/shm against SharedMemory(name): not measured (no "
              "writable /dev/shm) not met")
    rows = [
        ("P1", "zeros() make+fill against shared_memory", ratio("make+fill"),
         1.1, "x"),
        ("P2", "attach against SharedMemory(name)", ratio("attach"), 1.1,
         "x"),
        ("P3", "3-stage pipeline time against shared_memory's (the worse "
         "filter)", max(piped[f, "shmids"][0] / piped[f, "shared_memory"][0]
                        for f in ("filter", "wfilter")), 1.1, "x"),
        ("P4", "filter stage's peak RSS, windows released, over the array",
         piped["wfilter", "shmids"][1], 1.2, "x"),
    ]
    say_target("31.py-attach", ratio("attach"), 1.1)
    for tag, what, got, limit, unit in rows:
        print("target %s: %s: %.2f%s (<= %.1f%s): %s" % (
            tag, what, got, unit, limit, unit,
            "met" if got <= limit else "not met"))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--stage"]:
        stage(*sys.argv[2:4], int(sys.argv[4]), *sys.argv[5:7])
    elif sys.argv[1:]:
        # no options: the sizes are the environment's (see above)
        print("usage: python3 bench/python.py (BENCH_PY_N, BENCH_RUNS, "
              "BENCH_QUICK, BENCH_PREFIX, TMPDIR set the run)",
              file=sys.stderr)
        sys.exit(2)
    else:
        main()
