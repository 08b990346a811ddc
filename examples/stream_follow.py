"""stream_follow: the Python reader of a live simulation's stream
(examples/streamsim.c; shmids-python(3), follow()).  It follows the
stream message by message, each step's 100 x 100 field read in place
(no copy), and checks the ASCII record the writer prints, one message
reference line a step, against the library's label and each message's
seq: the same line from every language.  Run from the top directory
after make:

    build/examples/streamsim | { read -r field shmids msg && PYTHONPATH=python python3 examples/stream_follow.py "$msg"; }

The shell reads the record's first line, "u shmids <shmid> sim-u 0",
and hands its message label "<shmid> sim-u 0" to this reader, which
starts at that message; the rest of the record comes on stdin.
"""
import sys

import shmids

steps = lost = bad = 0
with shmids.follow(sys.argv[1]) as f:
    for u in f:                         # read-only, valid for this step only
        # the first step's line is the one the shell read
        if steps and sys.stdin.readline() != "u shmids %s %d\n" % (
                f.label, f.seq):
            bad += 1
        if f.seq % 250 == 0 or f.seq == 999:
            print("step %4d: %s field, mean %.6f, centre %.6f"
                  % (f.seq, "x".join(map(str, u.shape)), u.mean(),
                     u[50, 50]))
        steps += 1
        lost += f.lost
    del u                               # let go of the ring: it goes now
print("%d steps through stream %s, %d lost, %d reference lines unlike "
      "the library's" % (steps, f.label, lost, bad))
sys.exit(1 if lost or bad or sys.stdin.readline() else 0)
