#!/usr/bin/env bats
# Python's streams (python/shmids/_stream.py; format-spec.md section 10,
# message references 5.1): shmids.stream() writes, shmids.follow()
# reads, in separate processes; the library keeps the ring and says the
# words, the module holds the handles and the arrays.  Streams are named
# $P...: the teardown of tests/helper.bash removes what a failing test
# leaves.

load helper
load python

ST=$TOOLS/streamtool

# pybg NAME SCRIPT: SCRIPT (a file of $T) in the background, its output
# in $T/NAME.out; prints its first line (a writer's label, tracked).
pybg() {
	local l
	l=$(P=$P T=$T SHMIDS_LIB=$LIB PYTHONPATH=$TOP/python \
	    bg "$1" timeout 120 "$PY" "$T/$2") || return 1
	track "$l"
	printf '%s\n' "$l"
}

WRITER='
import os, sys, shmids
n = int(sys.argv[1]) if len(sys.argv) > 1 else 500
with shmids.stream(os.environ["P"] + "s", slots=4, capacity=80000) as w:
    print(w.label, flush=True)
    for step in range(n):
        with w.loan((100, 100)) as a:
            a[:] = step
            a[99, 99] = -step
print("published", w.seq + 1, flush=True)
'

@test "10.3, 10.5: python: a writer and a reader process: every message in order, read-only in place, the end, then removed" {
	need_python numpy
	local l
	printf '%s' "$WRITER" > w.py
	l=$(pybg w w.py)
	run pyrun '
import sys, shmids
n, bad = 0, 0
for a in shmids.follow(sys.argv[1]):
    if a.shape != (100, 100) or a[0, 0] != n or a[99, 99] != -n or \
            a.base.seq != n or a.base.label != "%s %d" % (sys.argv[1], n):
        bad += 1
    try:
        a[0, 0] = 1
        bad += 1
    except ValueError:
        pass
    n += 1
print("read", n, "bad", bad, "writeable", a.flags.writeable)' "$l"
	status_is 0
	is "$output" "read 500 bad 0 writeable False" "reader"
	await w "published 500" 20
	gone_stream "$l"
}

@test "10.3: python: a loan whose block raises publishes nothing; the next loan publishes in its slot" {
	need_python numpy
	run pyrun '
import os, shmids
w = shmids.stream(os.environ["P"] + "r", slots=2, capacity=64)
try:
    with w.loan(3, "i4") as a:
        a[:] = 7
        raise KeyError("in the block")
except KeyError:
    pass
print("after raise", w.seq)
print("seq", w.publish([1.5, 2.5]))
w.close()
for a in shmids.follow(w.label, timeout=5):
    print(a.base.seq, a.dtype, a.tolist())
del a     # the last array holds the registration (and the mapping)
try:
    shmids.follow(w.label)
except FileNotFoundError as e:
    print("removed")'
	status_is 0
	is "$output" $'after raise None\nseq 0\n0 float64 [1.5, 2.5]\nremoved' "output"
}

@test "5.1: python: a message reference line is the label plus seq; a reader given it starts at that message" {
	need_python numpy
	run pyrun '
import os, numpy, shmids
w = shmids.stream(os.environ["P"] + "m", slots=8, capacity=4096)
for i in range(5):
    seq = w.publish(numpy.asfortranarray(numpy.arange(6.0).reshape(2, 3) + i))
    print("x shmids %s %d" % (w.label, seq))
with w.loan((2, 2), "i8", order="F") as a:
    a[:] = [[1, 2], [3, 4]]
w.close()
with shmids.follow(w.label + " 3") as f:
    for a in f:
        print(f.seq, f.lost, a.flags.f_contiguous, a.tolist())
print(w.label)'
	status_is 0
	local l=${lines[8]}
	track "$l"
	is "${lines[0]}" "x shmids $l 0" "reference line"
	is "${lines[4]}" "x shmids $l 4" "reference line"
	is "${lines[5]}" "3 0 True [[3.0, 4.0, 5.0], [6.0, 7.0, 8.0]]" "from 3"
	is "${lines[6]}" "4 0 True [[4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]" "then 4"
	is "${lines[7]}" "5 0 True [[1, 2], [3, 4]]" "a column-major loan"
	is "${#lines[@]}" 9 "lines"
}

@test "5.1: python: load() of a message reference line says to follow the stream, EMEDIUMTYPE" {
	need_python
	run pyrun '
import errno, os, shmids
w = shmids.stream(os.environ["P"] + "l", slots=2, capacity=64)
print(w.label)
p = os.path.join(os.environ["T"], "m.txt")
with open(p, "w") as f:
    f.write("u shmids %s %d\n" % (w.label, w.publish(b"abc")))
try:
    shmids.load(p)
except OSError as e:
    print(e.errno == errno.EMEDIUMTYPE, e.strerror, e.filename)
w.close()'
	status_is 0
	local l=${lines[0]}
	track "$l"
	is "${lines[1]}" "True a stream's message ($l 0): load() reads segments; read the stream with shmids.follow('$l 0') $T/m.txt:1" "load()"
}

@test "10.8: python: errors are OSError with the errno and shmids_explain's words" {
	need_python numpy
	local l s
	s=$(mkseg a f64 4)
	run pyrun '
import os, sys, shmids
def say(f, *a, **k):
    try:
        f(*a, **k)
        print("no error")
    except OSError as e:
        print(e.errno, e.filename, e.strerror, sep="|")
w = shmids.stream(os.environ["P"] + "e", slots=2, capacity=100)
print(w.label)
say(w.loan, 101, "u1")
say(w.loan, (13, 1))
say(shmids.follow, sys.argv[1])
f = shmids.follow(w.label, timeout=0.1)
say(next, f, None)
say(next, f, None)
w.close()
print(list(f), f.seq)' "$s"
	status_is 0
	l=${lines[0]}
	track "$l"
	local big="a message larger than the 100 bytes each slot of stream ${l%% *} holds"
	is "${lines[1]}" "90|$l|$big" "EMSGSIZE"
	is "${lines[2]}" "90|$l|$big" "EMSGSIZE (13 x 1 x 8 bytes)"
	is "${lines[3]}" "124|$s|$("$ST" explain "$s" EMEDIUMTYPE)" "a segment is no stream"
	like "${lines[4]}" "11|$l|stream * is live: *" "EAGAIN after timeout"
	is "${lines[5]}" "${lines[4]}" "the same"
	is "${lines[6]}" "[] None" "the end"
	gone_stream "$l"
}

@test "10.3: python: without numpy, messages are read-only memoryviews" {
	need_python
	run pyrun '
import sys; sys.modules["numpy"] = None
import os, array, shmids
w = shmids.stream(os.environ["P"] + "n", slots=4, capacity=64)
with w.loan(4, "f8") as a:
    a[:] = array.array("d", [1, 2, 3, 4])
w.publish(array.array("i", [5, 6]))
w.close()
for a in shmids.follow(w.label):
    print(type(a).__name__, a.format, a.readonly, a.tolist())'
	status_is 0
	is "$output" $'memoryview d True [1.0, 2.0, 3.0, 4.0]\nmemoryview i True [5, 6]' "output"
}

@test "10.5: python: a reader that stops early lets the writer finish, and the stream goes" {
	need_python numpy
	local l
	printf '%s' "$WRITER" > w.py
	l=$(pybg w w.py)
	run pyrun '
import sys, shmids
for a in shmids.follow(sys.argv[1]):
    if a.base.seq == 10:
        break
del a
print("stopped")' "$l"
	status_is 0
	is "$output" stopped "reader"
	await w "published 500" 20
	gone_stream "$l"
}

@test "10.3, 5.1: examples: streamsim's 1000 steps of a 100x100 field, read by stream_follow.py, as pasted; nothing left" {
	need_python numpy
	local cmd l
	cmd=$(sed -n 's/^    \(build\/examples\/streamsim .*\)$/\1/p' \
	    "$TOP/examples/stream_follow.py")
	[ -n "$cmd" ]
	cmd=${cmd//build\//${SHMIDS_BUILD:-build}/}
	# python3 is the one with numpy the suite found
	mkdir bin && ln -s "$(command -v "$PY")" bin/python3
	run env -u SHMIDS_LIB PATH="$T/bin:$PATH" SHMIDS_LIB="$LIB" \
	    bash -c "cd '$TOP' && timeout 120 bash -c '$cmd'"
	l=$(printf '%s\n' "$output" | sed -n 's/^1000 steps through stream \(.*\), [0-9]* lost, .*/\1/p')
	[ -z "$l" ] || track "$l"
	status_is 0
	is "${lines[0]}" "step    0: 100x100 field, mean 0.010000, centre 0.000000" "first step"
	is "${lines[5]}" "1000 steps through stream $l, 0 lost, 0 reference lines unlike the library's" "the end"
	gone_stream "$l"
}
