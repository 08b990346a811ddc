"""bench/python.py: an array of doubles into numpy three ways, as
bench/run runs it (make bench):

    shmids.attach    a segment, read-only, no copy (python/shmids.py):
                     System V, and a file segment in $TMPDIR
    numpy.fromfile   a binary file of the same bytes (in the page cache)
    numpy.loadtxt    their ASCII form, one value a line, shortest digits

Prints the median of BENCH_RUNS runs (default 5) of getting the array in
hand, and of that and one sum over it (the first pass over the pages
attach mapped), each with its ratio to System V attach's.  N is BENCH_PY_N (default
10^7; 10^6 with BENCH_QUICK).  The segment and files are named
$BENCH_PREFIX...; removed at the end, whatever happens.

    SHMIDS_LIB=build/libshmids.so PYTHONPATH=python python3 bench/python.py
"""
import os
import statistics
import sys
import time

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
    finally:
        for p in (binf, txtf):
            if os.path.exists(p):
                os.unlink(p)
        for lb in (label, flabel):
            if lb is not None:
                shmids.remove(lb)
        if os.path.isdir(fdir):
            os.rmdir(fdir)


if __name__ == "__main__":
    main()
