#!/usr/bin/env bats
# python/shmids/, the Python module over libshmids.so: both backends,
# every type, exact bits, read-only views, errors, the lifetime of an
# attachment, and agreement with the C tools (shm-expand, shm-import,
# shm-ls -p).  Each script runs twice where it can: with numpy (ndarray)
# and with numpy hidden (memoryview).  Segments are named $P...: the
# teardown of tests/helper.bash removes them whatever happens, and file
# segments live in $T/d, which bats removes.

load helper

TOP=$BATS_TEST_DIRNAME/..
README=$TOP/README.md
LIB=$TOP/${SHMIDS_BUILD:-build}/libshmids.so

# need_python [numpy]: $PY, a python3 (with numpy if asked) that can load
# the library; skip, saying why, if there is none.
need_python() {
	PY=$(python_with "${1:-numpy}" || python_with "${1:-ctypes}") ||
	    skip "no python3${1:+ with $1} (Debian: python3${1:+-$1})"
	# An ASan build's library needs its runtime loaded first.
	if nm -D "$LIB" 2>/dev/null | grep -q __asan_init; then
		skip "$LIB is built with AddressSanitizer: python cannot load it"
	fi
}

# pyrun [--no-numpy] SCRIPT [ARGS...]: run SCRIPT (text) with the module
# from the source tree and the library under test; P and T are passed in
# the environment.  --no-numpy hides numpy: functions give memoryviews.
pyrun() {
	local hide=
	if [ "$1" = --no-numpy ]; then
		hide='import sys; sys.modules["numpy"] = None
'
		shift
	fi
	local script=$1
	shift
	P=$P T=$T SHMIDS_LIB=$LIB PYTHONPATH=$TOP/python \
	    timeout 120 "$PY" -c "$hide$script" "$@"
}

# both SCRIPT: run SCRIPT with numpy (if this python has it) and without;
# fails if either does.
both() {
	if "$PY" -c 'import numpy' 2>/dev/null; then
		run pyrun "$1"
		status_is 0
		is "$output" "${2:-ok}" "with numpy"
	fi
	run pyrun --no-numpy "$1"
	status_is 0
	is "$output" "${2:-ok}" "without numpy"
}

# Python shared by the scripts below: random arrays of every type, as
# numpy or as array.array, and their bytes.
COMMON='
import os, random, sys, array, shmids
rnd = random.Random(int(os.environ.get("SEED", "1")))
CODES = {"f64": "d", "f32": "f", "i64": "q", "i32": "i", "raw": "B"}
def randbits(t, n):
    """n elements of type t with random bit patterns (NaN payloads,
    signalling NaNs, subnormals, -0 included), plus special values."""
    b = bytes(rnd.getrandbits(8) for _ in range(n * array.array(CODES[t]).itemsize))
    a = array.array(CODES[t], b)
    if t == "f64":
        a.extend(array.array("d", array.array("Q", [0x7ff8000000000000,
            0xfff8000000000000, 0x7ff0000000000001, 0x7ff8000000000001,
            0x8000000000000000, 1, 0x7ff0000000000000]).tobytes()))
    if t == "f32":
        a.extend(array.array("f", array.array("I", [0x7fc00000, 0xffc00000,
            0x7f800001, 0x7fc00001, 0x80000000, 1]).tobytes()))
    if shmids.numpy:
        import numpy
        return numpy.frombuffer(a.tobytes(), dtype=shmids._library._TYPES[t][2])
    return a
def raw(x):
    return bytes(memoryview(x).cast("B"))
def backends():
    yield "sysv"
    os.makedirs(os.environ["T"] + "/d", exist_ok=True)
    os.environ["SHMIDS_DIR"] = os.environ["T"] + "/d"
    yield "file"
    del os.environ["SHMIDS_DIR"]
P = os.environ["P"]
'

@test "1: python: struct shmids_info in ctypes has the C layout, field by field" {
	need_python
	run pyrun '
import shmids, ctypes
for name, _ in shmids._library._Info._fields_:
    f = getattr(shmids._library._Info, name)
    print(name, f.offset, f.size)
print("sizeof", ctypes.sizeof(shmids._library._Info))'
	status_is 0
	is "$output" "$("$TOOLS/infolayout")" "layout"
}

@test "2.6: python: create then attach gives every type back bit for bit, System V and SHMIDS_DIR" {
	need_python
	both "$COMMON"'
for be in backends():
    for t in shmids.TYPES:
        x = randbits(t, 1000)
        label = shmids.create(P + t, x)
        assert label.startswith(os.environ["T"] + "/d/shmids." if be == "file"
                                else label.split()[0]), label
        assert label.endswith(" " + P + t), label
        y = shmids.attach(label)
        assert raw(y) == raw(x), (be, t)
        if shmids.numpy:
            assert y.dtype == x.dtype and y.shape == x.shape, (y.dtype, y.shape)
        else:
            assert y.format == CODES[t] and len(y) == len(x), (y.format, len(y))
        empty = shmids.attach(shmids.create(P + "e" + t, x[:0]))
        assert len(empty) == 0
print("ok")'
}

@test "4: python: create() takes lists through numpy (floats f64, ints i64), and says what it needs without numpy; dtypes of the other byte order are named so" {
	need_python
	both "$COMMON"'
import errno
if shmids.numpy:
    for x, t, shape in (([1.0, 2.5], "float64", (2,)),
                        ([[1, 2], [3, 4]], "int64", (2, 2))):
        label = shmids.create(P + "list", x)
        y = shmids.attach(label)
        assert y.tolist() == x and str(y.dtype) == t and y.shape == shape, y
        shmids.remove(label)
    try:
        shmids.zeros(P + "be", 3, dtype=">f4")
        raise AssertionError("no error")
    except TypeError as e:
        assert str(e).endswith("in this machine\x27s byte order"), e
else:
    try:
        shmids.create(P + "list", [1.0])
        raise AssertionError("no error")
    except TypeError as e:
        assert str(e) == "shmids: an array is needed (array.array, bytes, memoryview; numpy is not importable), not list", e
print("ok")'
	no_segments_named "${P}list"
	no_segments_named "${P}be"
}

# A ctypes array's buffer format names its byte order ("<d"): refused as
# "none of d, f, q, i, B", with numpy too (a buffer skips asarray()).
@test "2.1: python: create() takes a ctypes array (format <d, <i: this machine's byte order), and refuses the other order" {
	need_python
	both "$COMMON"'
import ctypes
for ct, t, vals in ((ctypes.c_double, "f64", [1.5, -2.0]),
                    (ctypes.c_int32, "i32", [7, -8]),
                    (ctypes.c_int64, "i64", [2**40, -1]),
                    (ctypes.c_float, "f32", [0.5, 3.0])):
    label = shmids.create(P + "ct", (ct * 2)(*vals))
    y = shmids.attach(label)
    types = [e["type"] for e in shmids.ls() if e["label"] == label]
    assert list(y) == vals and types == [t], (t, list(y), types)
    del y
    shmids.remove(label)
other = ctypes.c_double.__ctype_be__ if sys.byteorder == "little" else \
    ctypes.c_double.__ctype_le__
try:
    shmids.create(P + "ct", (other * 2)(1.5, 2.0))
    raise AssertionError("no error")
except TypeError:
    pass
print("ok")'
	no_segments_named "${P}ct"
}

@test "6: python: attached arrays are read-only views; the bytes are the segment's" {
	need_python
	both "$COMMON"'
for be in backends():
    label = shmids.create(P + "ro", array.array("d", [1, 2, 3]))
    a = shmids.attach(label)
    try:
        a[0] = 5
        print("wrote to", be)
    except (ValueError, TypeError):
        pass
    if shmids.numpy:
        assert not a.flags.writeable and not a.flags.owndata
        try:
            a.flags.writeable = True
            print("made writeable")
        except ValueError:
            pass
    else:
        assert a.readonly
    b = shmids.attach(label)
    # two attaches, two mappings of the same bytes
    assert raw(a) == raw(b) == raw(array.array("d", [1, 2, 3]))
print("ok")'
	# shmtool reads what Python wrote
	run pyrun "$COMMON"'
print(shmids.create(P + "bits", array.array("d", [1.5, -0.0])))'
	status_is 0
	is "$(shmtool bits "$output")" "3ff8000000000000 8000000000000000"
}

@test "6: python: errors are OSError subclasses with the library's errno" {
	need_python
	local l
	l=$(mkseg x f64 3)
	L=$l both "$COMMON"'
import errno
def fails(f, *args, want):
    try:
        f(*args)
    except want[0] as e:
        assert e.errno == want[1], (args, e.errno, e)
        return e
    raise AssertionError("no error: %r" % (args,))
e = fails(shmids.attach, "2147483647 nosuch", want=(FileNotFoundError, errno.ENOENT))
assert e.filename == "2147483647 nosuch" and e.strerror == "no such segment (removed, or never made)", e
fails(shmids.attach, "0999 x", want=(OSError, errno.EINVAL))
fails(shmids.attach, "12 a b", want=(OSError, errno.EINVAL))
fails(shmids.attach, "12 x\0y", want=(OSError, errno.EINVAL))
fails(shmids.attach, "12 " + "x" * 65, want=(OSError, errno.ENAMETOOLONG))
sid = os.environ["L"].split()[0]
e = fails(shmids.attach, sid + " " + P + "other", want=(OSError, errno.ESTALE))
assert e.strerror == "segment %s is labelled %r" % (sid, os.environ["L"]), e
fails(shmids.create, "", array.array("d"), want=(OSError, errno.EINVAL))
fails(shmids.create, "a b", array.array("d"), want=(OSError, errno.EINVAL))
fails(shmids.create, "x" * 65, array.array("d"), want=(OSError, errno.ENAMETOOLONG))
for bad, exc in ((0o1777, ValueError), (-1, ValueError), (True, TypeError),
                 (0o600 + 0.0, TypeError), ("0o600", TypeError), (None, TypeError)):
    for f, args in ((shmids.create, (P + "m", array.array("d"))),
                    (shmids.zeros, (P + "m", 3)),
                    (shmids.dump, ({"x": array.array("d", [1] * 64)}, os.devnull))):
        try:
            f(*args, mode=bad)
            raise AssertionError("mode %r accepted" % (bad,))
        except exc:
            pass
try:
    shmids.create(P + "t", array.array("h", [1]))
    raise AssertionError("int16 accepted")
except TypeError:
    pass
os.environ["SHMIDS_DIR"] = os.environ["T"] + "/missing"
fails(shmids.create, P + "d", array.array("d", [1]), want=(FileNotFoundError, errno.ENOENT))
print("ok")'
	no_segments_named "${P}d"
	no_segments_named "${P}m"
}

@test "2.2: python: a writer still filling is BlockingIOError (EAGAIN), one that died EOWNERDEAD, in shmids_explain()'s words" {
	need_python
	local w k
	w=$(mkwriter w 20)
	k=$(mkkilled k)
	run pyrun "$COMMON"'
import errno
for label, want in ((sys.argv[1], errno.EAGAIN), (sys.argv[2], errno.EOWNERDEAD)):
    try:
        shmids.attach(label)
        print("attached", label)
    except OSError as e:
        print(type(e).__name__, e.errno == want, e.strerror)' "$w" "$k"
	status_is 0
	is "$output" "$(why_of 'BlockingIOError True still being written by pid @pid' "$w")
$(why_of "OSError True its writer (pid @pid) died before sealing it; shm-rm '@label' removes it" "$k")"
}

@test "6: python: a segment made in Python expands with shm-expand as dump writes it inline" {
	need_python
	for nonumpy in "" --no-numpy; do
		[ -n "$nonumpy" ] || "$PY" -c 'import numpy' 2>/dev/null || continue
		run pyrun $nonumpy "$COMMON"'
refs = {t: randbits(t, 300) for t in shmids.TYPES}
shmids.dump(refs, "ref.txt", min_count=0, prefix=P)
shmids.dump(refs, "inline.txt", min_count=10**9)
print("ok")'
		status_is 0
		is "$output" ok
		is "$(grep -c ' shmids ' ref.txt)" 5 "reference lines"
		track $(awk '{ print $3 }' ref.txt)
		runio ref.txt shm_expand -d
		status_is 0
		same_file inline.txt "$T/out"
	done
}

@test "4: python: a segment made by shm-import attaches in Python, every type, both backends" {
	need_python
	local t be
	for be in sysv file; do
		for t in f64 f32 i64 i32 raw; do
			l=$(mkrandom "$t$be" "$t" 500 7)
			printf 'v shmids %s\n' "$l" | shm_expand -d > "$t.txt"
			if [ "$be" = file ]; then
				mkdir -p d
				SHMIDS_DIR=$T/d shm_import -f v -t "$t" \
				    < "$t.txt" > "$t.shm"
				like "$(label_of "$t.shm")" "$T/d/shmids.* v"
			else
				shm_import -f v -t "$t" < "$t.txt" > "$t.shm"
			fi
			track "$(label_of "$t.shm")"
			run pyrun "$COMMON"'
t = sys.argv[1]
a = shmids.load(sys.argv[1] + ".shm")["v"]
b = shmids.load(sys.argv[1] + ".txt", type=t)["v"]
assert raw(a) == raw(b) and len(a) == 500, t
label = open(t + ".shm").read().split(None, 2)[2].strip()
c = shmids.attach(label)
assert raw(c) == raw(a)
print(len(raw(a)))' "$t"
			status_is 0
			case $t in
			f64|i64) n=4000 ;;
			f32|i32) n=2000 ;;
			raw) n=500 ;;
			esac
			is "$output" "$n" "$t bytes"
		done
	done
}

@test "1: python: dump writes what shm-import writes, but for the labels" {
	need_python
	run pyrun "$COMMON"'
d = {"a": randbits("f64", 100), "n": randbits("i32", 3), "s": "some text",
     "b": randbits("f32", 70), "e": array.array("d")}
shmids.dump(d, "inline.txt", min_count=10**9)
for l in shmids.dump(d, "ref.txt", min_count=64, prefix=P):
    print(l)'
	status_is 0
	track $output
	is "$(grep -c ' shmids ' ref.txt)" 2 "arrays of 64 or more as segments"
	# shm-import, the same arrays: the same bytes once the labels are
	# masked (one type a run in shm-import: two runs).
	shm_import -f a < inline.txt > a.txt
	track "$(label_of a.txt)"
	shm_import -f b -t f32 < a.txt > imp.txt
	track $(awk '$1 == "b" { print $3 }' imp.txt)
	mask='s/ shmids .*/ shmids LABEL/'
	same_file <(sed "$mask" ref.txt) <(sed "$mask" imp.txt)
	# and both expand to the inline file
	runio ref.txt shm_expand
	same_file inline.txt "$T/out"
}

@test "6: python: load reads the ASCII form: continuations, CRLF, text lines, empty arrays" {
	need_python
	# and a text line ending in "/" then an array: the array is read (shm-import -k 1 converts it)
	printf 't a /\ny 1 2 3\n' > c.txt
	run pyrun "$COMMON"'
import errno
d = shmids.load("c.txt")
print(d["t"], list(d["y"]))'
	status_is 0
	is "$output" "a / [1.0, 2.0, 3.0]"
	# named with $P, so that teardown finds it whatever fails (issue 34)
	run --separate-stderr "$BIN/shm-import" -k 1 -P "$P" < c.txt
	[[ "${lines[1]-}" != "y shmids "* ]] || track "${lines[1]#y shmids }"
	status_is 0
	is "${lines[0]}" "t a /"
	[[ "${lines[1]}" == "y shmids "* ]]
	printf 'coeff 0 1 2 3 4 5 /\n      6 7 8 9\n\n  title a / run /\r\n  more text\nn\t-1 0x10\r\nempty\nx 1e-05 -0 inf -inf nan -nan nan(0x1) /\n' > in.txt
	both "$COMMON"'
d = shmids.load("in.txt", type={"n": "i64"})
assert list(d) == ["coeff", "title", "more", "n", "empty", "x"], list(d)
assert list(d["coeff"]) == list(range(10)), d["coeff"]
# the "/" ending a text line continues nothing, as in shm-import
assert d["title"] == "a / run /" and d["more"] == "text", d
assert list(d["n"]) == [-1, 16], list(d["n"])
assert len(d["empty"]) == 0
import struct
bits = [struct.pack("<d", v).hex() for v in d["x"]]
assert bits == ["f168e388b5f8e43e", "0000000000000080", "000000000000f07f",
    "000000000000f0ff", "000000000000f87f", "000000000000f8ff",
    "010000000000f07f"], bits
# writable copies, not views
if shmids.numpy:
    d["coeff"][0] = 5
# a text file object works as well as a path, and stdin-like streams
import io
assert list(shmids.load(io.StringIO("a 1 2\n"))["a"]) == [1, 2]
assert list(shmids.load(io.BytesIO(b"a 3\n"))["a"]) == [3]
print("ok")'
}

# Attack finding (issue 9 attack2): load() read a joined line through
# shmids_get() without a file, which drops a last "/" as a continuation
# with nothing to follow.  So "c 1 / /" (a "/" that is not the marker:
# no value) was the array [1] and swallowed the next line, and an
# array's last line "2 / /" at the end of the file gave [1, 2]; shm-import
# reads both as text (section 6), and converted the line below.
@test "5: python: load reads a long array's continuation lines at once, on any number of threads, as line by line; a bad value or a reference line among them makes it text" {
	need_python
	both "$COMMON"'
N = {"f64": 40000, "f32": 60000, "i64": 40000, "i32": 80000, "raw": 200000}
def load(path, t, threads):
    os.environ["SHMIDS_THREADS"] = threads
    return shmids.load(path, type=t)
for t, n in N.items():
    x = randbits(t, n)
    shmids.dump({"a": x, "b": "after"}, "long.txt", min_count=10**9)
    with open("long.txt", "rb") as f:
        lines = f.read().split(b"\n")
    assert len(lines) > 1000 and sum(map(len, lines)) > 600000, (t, len(lines))
    for threads in ("1", "2", "7"):
        y = load("long.txt", t, threads)
        assert raw(y["a"]) == raw(x) and y["b"] == "after", (t, threads)
    # a bad value deep in, then a reference line deep in: text, as
    # line by line (the last line before the reference ends in "/")
    k = len(lines) * 2 // 3
    bad = lines[:k] + [lines[k].replace(b" ", b" zz ", 1)] + lines[k + 1:]
    with open("bad.txt", "wb") as f:
        f.write(b"\n".join(bad))
    ref = shmids.create(P + "ref", array.array("d", [1, 2]))
    cut = lines[:k] + [b"r shmids " + ref.encode()] + lines[k:]
    with open("cut.txt", "wb") as f:
        f.write(b"\n".join(cut))
    for threads in ("1", "2"):
        y = load("bad.txt", t, threads)
        assert isinstance(y["a"], str) and " zz " in y["a"], t
        assert y["a"].count("\n") == len(lines) - 3 and y["b"] == "after", t
        y = load("cut.txt", t, threads)
        assert isinstance(y["a"], str) and y["a"].count("\n") == k - 1, t
        assert list(y["r"]) == [1, 2], t
        assert y["b"] == "after", t
    del y
    shmids.remove(ref)
print("ok")'
	no_segments_named "${P}ref"
}

# Each array's continuation lines were handed to shmids_values_lines()
# (now shmids_values_read())
# with the whole rest of the file: with many short arrays before a long
# one, every short one had the long one's lines counted again (O(n^2):
# a 9 MB file of 20,000 short arrays and one long took 38 s, 1.8 s line
# by line), and on 2 threads each short one started threads.
@test "6: python: load gives the library a short array's lines, not the rest of the file: each byte read a few times, whatever comes after" {
	need_python
	both "$COMMON"'
asked = []
f = shmids._library._lib.shmids_values_read
def counted(v, s, n, *rest):
    asked.append(n)
    return f(v, s, n, *rest)
shmids._library._lib.shmids_values_read = counted
with open("many.txt", "w") as out:
    for k in range(300):
        out.write("a%d 1 2 /\n3 4\n" % k)
    out.write("big /\n" + "1 2 3 4 5 6 7 8 /\n" * 100000 + "9\n")
size = os.path.getsize("many.txt")
for threads in ("1", "2"):
    os.environ["SHMIDS_THREADS"] = threads
    del asked[:]
    y = shmids.load("many.txt")
    assert list(y["a299"]) == [1, 2, 3, 4] and len(y["big"]) == 800001, threads
    assert len(asked) > 300 and sum(asked) < 4 * size, (threads, sum(asked), size)
print("ok")'
}

@test "6: python: a '/' before the continuation marker is no value: the line is text and continues nothing, as in shm-import" {
	need_python
	printf 'c 1 / /
y 2 3
x 1 /
2 / /
' > in.txt
	run --separate-stderr "$BIN/shm-import" -k 1 -P "$P" < in.txt
	[[ "${lines[1]-}" != "y shmids "* ]] || track "${lines[1]#y shmids }"
	status_is 0
	is "${lines[0]}" "c 1 / /"
	[[ "${lines[1]}" == "y shmids "* ]]
	is "${lines[2]}" "x 1 /"
	is "${lines[3]}" "2 / /"
	both "$COMMON"'
d = shmids.load("in.txt")
assert list(d) == ["c", "y", "x"], d
assert d["c"] == "1 / /", d
assert list(d["y"]) == [2, 3], d
assert d["x"] == "1 /\n2 / /", d
print("ok")'
}

@test "5: python: load attaches reference lines; a malformed one raises EINVAL with file and line" {
	need_python
	local l
	l=$(mkseg u f64 4)
	printf 'a 1 2\nu  shmids\t%s\n' "$l" > ok.txt
	printf 'a 1\nnote shmids are fast\n' > bad.txt
	printf 'u shmids %s\n' "${l%% *} ${P}gone" > stale.txt
	both "$COMMON"'
import errno
d = shmids.load("ok.txt")
assert len(d["u"]) == 4 and list(d["a"]) == [1, 2]
try:
    shmids.load("bad.txt")
    print("loaded bad.txt")
except OSError as e:
    assert e.errno == errno.EINVAL and e.filename == "bad.txt:2", e
    assert e.strerror.startswith("malformed reference: "), e
try:
    shmids.load("stale.txt")
except OSError as e:
    assert e.errno == errno.ESTALE, e
print("ok")'
}

@test "5: python: a reference line after a continuation marker is a reference, as shm-expand reads it" {
	need_python
	local l
	l=$(mkseg u f64 4)
	printf 'x 1 /\nu shmids %s\nt a /\nv shmids 0 %s\n' "$l" "bad name" > in.txt
	# The C tools: x stays a line of its own, u is expanded.
	run --separate-stderr "$BIN/shm-expand" -f u in.txt
	is "$(head -n 2 <<< "$output")" "$(printf 'x 1 /\nu 0 1 2 3')" "shm-expand"
	both "$COMMON"'
import errno
try:
    shmids.load("in.txt")
    print("loaded in.txt")
except OSError as e:
    assert e.errno == errno.EINVAL and e.filename == "in.txt:4", e
with open("in.txt", "rb") as f:
    text = f.read().split(b"\n")
with open("ok.txt", "wb") as f:
    f.write(b"\n".join(text[:3]) + b"\n")
d = shmids.load("ok.txt")
assert list(d) == ["x", "u", "t"], list(d)
assert d["x"] == "1 /", repr(d["x"])
assert len(d["u"]) == 4
assert d["t"] == "a /", repr(d["t"])
print("ok")'
}

@test "6: python: dump and load round trip random bits of every type inline (NaN payloads too)" {
	need_python
	both "$COMMON"'
d = {t: randbits(t, 2000) for t in shmids.TYPES}
with open("f.txt", "w") as f:   # a text file object
    shmids.dump(d, f, min_count=10**9)
back = shmids.load("f.txt", type={t: t for t in shmids.TYPES})
for t in shmids.TYPES:
    assert raw(back[t]) == raw(d[t]), t
print("ok")'
}

@test "6: python: a dump that fails removes the segments it made" {
	need_python
	both "$COMMON"'
class Full:
    def write(self, s):
        raise OSError(28, "No space left on device")
    def flush(self):
        pass
try:
    shmids.dump({"a": array.array("d", [1] * 100)}, Full(), prefix=P)
    print("no error")
except OSError as e:
    assert e.errno == 28
print("ok")'
	no_segments_named "$P"
}

@test "6: python: the array outlives the module's objects; the segment is detached when it goes" {
	need_python
	both "$COMMON"'
import gc
def mapped(label):
    key = label.split()[0]
    with open("/proc/self/maps") as f:
        text = f.read()
    if key.startswith("/"):
        return key in text
    # System V: the shmid is not in maps, the key is: /SYSV5348xxxx
    info = [s for s in shmids.ls() if s["label"] == label][0]
    return ("/SYSV%08x" % info["key"]) in text
def nattch(label):
    return [s for s in shmids.ls() if s["label"] == label][0]["nattch"]
for be in backends():
    label = shmids.create(P + "life", array.array("d", range(1000)))
    assert not mapped(label) and nattch(label) == 0
    a = shmids.attach(label)
    assert mapped(label) and nattch(label) == 1, be
    v = a[10:20]           # a view of the view keeps it too
    del a
    gc.collect()
    assert mapped(label) and nattch(label) == 1 and v[0] == 10, be
    del v
    gc.collect()
    assert not mapped(label) and nattch(label) == 0, be
print("ok")'
	# The last array alive, with nothing else of the module's around.
	run pyrun "$COMMON"'
label = shmids.create(P + "last", array.array("d", [4, 5]))
a = shmids.attach(label)
del sys.modules["shmids"], shmids
import gc
gc.collect()
print(list(a))'
	status_is 0
	is "$output" "[4.0, 5.0]"
}

@test "6.2: python: threads attach, create and detach at once; every segment is detached after" {
	need_python
	both "$COMMON"'
import threading, gc
label = shmids.create(P + "thr", array.array("i", range(5)))
errors = []
def worker(k):
    try:
        for i in range(100):
            a = shmids.attach(label)
            assert sum(a) == 10
            del a
            if i % 20 == 0:
                shmids.remove(shmids.create(P + "w%d" % k, array.array("d", [i])))
    except BaseException as e:
        errors.append(e)
ts = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
for t in ts:
    t.start()
for t in ts:
    t.join()
gc.collect()
assert not errors, errors
assert [s["nattch"] for s in shmids.ls() if s["label"] == label] == [0]
print("ok")'
}

@test "6: python: ls() lists as shm-ls -p does" {
	need_python
	local l k
	l=$(mkseg ls i32 10 0640)
	k=$(mkkilled dead)
	run pyrun "$COMMON"'
# not lpid, atime, dtime: listing attaches
for s in shmids.ls():
    if s["label"] and " " + P in s["label"]:
        print("\t".join("-" if s[c] is None else
            ("%04o" % s[c] if c == "mode" else "0x%08x" % s[c] if c == "key"
             else str(s[c])) for c in ("shmid", "key", "mode", "uid", "gid",
             "bytes", "nattch", "cpid", "ctime", "type", "count", "state",
             "label")))'
	status_is 0
	is "$output" "$(shm_ls -p | grep -F " $P" | cut -f 1-8,10,13-)" \
	    "ls() against shm-ls -p"
	like "$output" "*	i32	10	ready	$l*	dead	$k" "both listed"
	mkdir d
	run pyrun "$COMMON"'
os.environ["SHMIDS_DIR"] = os.environ["T"] + "/d"
l = shmids.create(P + "f", array.array("B", b"abc"), 0o644)
s = [s for s in shmids.ls() if s["label"] == l][0]
print(s["shmid"] == l.split()[0], s["key"], oct(s["mode"]), s["bytes"], s["type"], s["count"], s["shape"], s["state"])
t = shmids.create(P + "t", array.array("i", range(6)) if not shmids.numpy
                  else __import__("numpy").arange(6, dtype="i4").reshape(2, 3))
print([s["shape"] for s in shmids.ls() if s["label"] == t])
shmids.remove(t)
os.environ["SHMIDS_DIR"] = os.environ["T"] + "/nosuch"
try:
    shmids.ls()
except FileNotFoundError as e:
    print(e.filename, type(e.segments))'
	status_is 0
	if "$PY" -c 'import numpy' 2> /dev/null; then
		shape='[(2, 3)]'
	else
		shape='[(6,)]'
	fi
	is "$output" "True None 0o644 131 raw 3 (3,) ready
$shape
SHMIDS_DIR $T/nosuch <class 'list'>"
}

@test "6: python: make install puts the module where it says; it finds its library as installed" {
	need_python
	local p=$T/p dir
	run --separate-stderr make -s --no-print-directory -C "$TOP" \
	    B="${SHMIDS_BUILD:-build}" LDCONFIG=true PYTHON="$PY" \
	    install PREFIX="$p"
	status_is 0
	dir=$(sed -n 's/^install: the Python module shmids: \(.*\)\/shmids$/\1/p' <<< "$output")
	[ -n "$dir" ] || { echo "no module line in: $output" >&2; false; }
	like "$dir" "$p/*" "module directory"
	[ -f "$dir/shmids/__init__.py" ]
	grep -Fqx "_INSTALLED_LIB = '$p/lib/libshmids.so.1'" "$dir/shmids/_locate.py"
	cd "$T"
	run env -u SHMIDS_LIB -u LD_LIBRARY_PATH P="$P" PYTHONPATH="$dir" "$PY" -c '
import shmids, array, os
l = shmids.create(os.environ["P"] + "inst", array.array("i", [1, 2]))
print(shmids._locate._library_path(), list(shmids.attach(l)), l)' 
	status_is 0
	track "${output##* }" 2> /dev/null || true
	like "$output" "$p/lib/libshmids.so.1 [[]1, 2] *" "installed module"
	run --separate-stderr make -s --no-print-directory -C "$TOP" \
	    B="${SHMIDS_BUILD:-build}" LDCONFIG=true PYTHON="$PY" \
	    uninstall PREFIX="$p"
	status_is 0
	is "$(find "$p" ! -type d)" "" "left after uninstall"
}

@test "6: python: make install says when its python has no numpy, and when nothing is to be set" {
	need_python ctypes
	local p=$T/p
	mkdir nonumpy
	echo 'raise ImportError("hidden by the test")' > nonumpy/numpy.py
	run --separate-stderr env PYTHONPATH="$T/nonumpy" make -s \
	    --no-print-directory -C "$TOP" B="${SHMIDS_BUILD:-build}" \
	    LDCONFIG=true PYTHON="$PY" install PREFIX="$p"
	status_is 0
	grep -Fqx "install: the Python module gives memoryviews, not arrays: $PY has no numpy (install numpy for it, or name another interpreter: make install PYTHON=/path/to/python3)" <<< "$output" ||
	    { echo "no numpy line in: $output" >&2; false; }
	run --separate-stderr env PYTHONPATH="$p/lib/python3:$T/nonumpy" \
	    make -s --no-print-directory -C "$TOP" B="${SHMIDS_BUILD:-build}" \
	    LDCONFIG=true PYTHON="$PY" PYDIR="$p/lib/python3" install PREFIX="$p"
	status_is 0
	grep -Fqx "install: the Python module is where $PY looks: nothing to set" <<< "$output" ||
	    { echo "no 'nothing to set' line in: $output" >&2; false; }
	run make -s --no-print-directory -C "$TOP" B="${SHMIDS_BUILD:-build}" \
	    LDCONFIG=true PYTHON="$PY" uninstall PREFIX="$p"
	run make -s --no-print-directory -C "$TOP" B="${SHMIDS_BUILD:-build}" \
	    LDCONFIG=true PYTHON="$PY" PYDIR="$p/lib/python3" uninstall PREFIX="$p"
	is "$(find "$p" ! -type d)" "" "left after uninstall"
}

@test "2.7: python: the README's examples run as pasted (the N-D one too); so does examples/numpy_attach.py" {
	need_python numpy
	# A top directory after make: tools, library, module, sample.
	mkdir -p top/build top/examples top/python pybin
	ln -s "$(cd "$BIN" && pwd)" top/build/bin
	ln -s "$LIB" top/build/libshmids.so
	cp -R "$TOP/python/shmids" top/python/
	cp "$TOP/examples/data.txt" "$TOP/examples/numpy_attach.py" top/examples/
	ln -s "$(command -v "$PY")" pybin/python3
	readme_block "python:" > block.sh
	[ -s block.sh ] || { echo "README.md: no python block" >&2; false; }
	cd top
	PATH=$T/pybin:$BIN:$PATH run --separate-stderr env -u SHMIDS_LIB bash -e ../block.sh
	track $(awk '$2 == "shmids" { print $3 }' data.shm)
	status_is 0
	like "$output" "coeff: 100 values, float64, sum *" "README example"
	gone "$(label_of data.shm)"
	README=$TOP/examples/README.md readme_block "python-zeros:" > ../zeros.sh
	[ -s ../zeros.sh ] || { echo "examples/README.md: no python-zeros block" >&2; false; }
	PATH=$T/pybin:$BIN:$PATH run --separate-stderr env -u SHMIDS_LIB bash -e ../zeros.sh
	[ ! -s label ] || track "$(cat label)"
	status_is 0
	is "$output" "(1000, 1000) float64 1500000.0" "README zeros example"
	gone "$(cat label)"
	README=$TOP/examples/README.md readme_block "python-nd:" > ../nd.sh
	[ -s ../nd.sh ] || { echo "examples/README.md: no python-nd block" >&2; false; }
	PATH=$T/pybin:$BIN:$PATH run --separate-stderr env -u SHMIDS_LIB bash -e ../nd.sh
	status_is 0
	is "$output" "(50, 50, 50) float32 250000.0" "README N-D example (2.7)"
	run env -u SHMIDS_LIB PYTHONPATH=python "$PY" examples/numpy_attach.py "$P"
	track $(sed -n 's/^label: //p' <<< "$output")
	status_is 0
	like "$output" "*u: 1000000 values, float64, read-only True, sum 499999500000" "example"
	gone "$(sed -n 's/^label: //p' <<< "$output")"
}

@test "6: python: the module through a symlink to python/ still finds the build tree's library" {
	need_python ctypes
	[ -e "$TOP/build/libshmids.so" ] || skip "no $TOP/build/libshmids.so"
	ln -s "$TOP/python" "$T/py"
	cd "$T"
	run --separate-stderr env -u SHMIDS_LIB PYTHONPATH="$T/py" "$PY" -c \
	    'import shmids; print(shmids._locate._library_path())'
	status_is 0
	is "$output" "$(cd "$TOP/build" && pwd -P)/libshmids.so"
}

# Issue 20: tables (2-D segments, format-spec.md 2.7 and 6.1).

# Python for the table tests: mat(t, r, c) random bits as a 2-D array
# (numpy, or a memoryview cast to [r, c]); flat(y) its elements in
# row-major order as bytes.
TABLES='
def mat(t, r, c):
    x = randbits(t, r * c)[:r * c]
    if shmids.numpy:
        return x.reshape(r, c)
    return memoryview(array.array(CODES[t], x).tobytes()).cast(CODES[t], [r, c])
def shape(y):
    return tuple(memoryview(y).shape)
def raw(x):
    return memoryview(x).tobytes()
'

@test "6.1: python: create and attach 2-D tables of every type, C-contiguous or not, both backends" {
	need_python
	both "$COMMON$TABLES"'
for be in backends():
    for t in shmids.TYPES:
        x = mat(t, 7, 5)
        label = shmids.create(P + t, x)
        y = shmids.attach(label)
        assert shape(y) == (7, 5) and raw(y) == raw(x), (be, t, shape(y))
        if shmids.numpy:
            assert y.dtype == x.dtype
            xt = x.T                    # Fortran order: copied row by row
            y = shmids.attach(shmids.create(P + "T" + t, xt))
            assert y.shape == (5, 7) and (y.tobytes() == xt.tobytes()), (be, t)
            xs = x[::2, 1::2]           # strided
            y = shmids.attach(shmids.create(P + "S" + t, xs))
            assert y.shape == (4, 2) and y.tobytes() == xs.tobytes(), (be, t)
        else:
            assert y.format == CODES[t]
            # a non-contiguous memoryview: every other row
            xs = x[::2]
            y = shmids.attach(shmids.create(P + "S" + t, xs))
            assert shape(y) == (4, 5) and raw(y) == xs.tobytes(), (be, t)
        one = shmids.attach(shmids.create(P + "1" + t, mat(t, 3, 1)))
        assert shape(one) == (3, 1), shape(one)
        flat = shmids.attach(shmids.create(P + "f" + t, randbits(t, 9)))
        assert len(shape(flat)) == 1, shape(flat)
    if shmids.numpy:
        import numpy
        e = shmids.attach(shmids.create(P + "e0", numpy.zeros((0, 3))))
        assert e.shape == (0, 3), e.shape
        for bad in (numpy.float64(1),):
            try:
                shmids.create(P + "bad", bad)
                raise AssertionError("%d-D accepted" % bad.ndim)
            except ValueError:
                pass
        try:
            shmids.create(P + "c0", numpy.zeros((3, 0)))
            raise AssertionError("0 columns accepted")
        except OSError as e:
            import errno
            assert e.errno == errno.EINVAL, e
print("ok")'
	no_segments_named "${P}bad"
	no_segments_named "${P}c0"
}

@test "2.7: python: a table's header is version 2 with its columns; a 1-D array's stays version 1" {
	need_python
	run pyrun "$COMMON$TABLES"'
print(shmids.create(P + "t", mat("i32", 4, 3)))
print(shmids.create(P + "v", randbits("i32", 12)))'
	status_is 0
	local t v
	t=$(sed -n 1p <<< "$output")
	v=$(sed -n 2p <<< "$output")
	is "$(hdrfield "${t%% *}" 80 8)" "shmids2 " "table version"
	is "$(hdrfield "${t%% *}" 120 8 | tr -d '\n')" "0000003" "cols"
	is "$(hdrfield "${v%% *}" 80 8)" "shmids1 " "1-D version"
}

@test "6.1: python: load reads table blocks as 2-D arrays, keyed source:line; a number is never a field" {
	need_python
	printf '%s\n' '# gnuplot data' '1 2 3' '4	5 6' '' '7,8' '9, 10' \
	    '11,12' '13 14' '15 16 17' '1 apple' '5' 'a 1 2 3' 'x hello' \
	    '-0.5 1e300' 'nan -inf' '1e999 2' > g.txt
	both "$COMMON"'
d = shmids.load("g.txt")
keys = ["g.txt:2", "g.txt:5", "g.txt:8", "g.txt:9", "g.txt:10",
        "g.txt:11", "a", "x", "g.txt:14", "g.txt:16"]
assert list(d) == keys, list(d)
def rows(y):
    return [list(y[i]) for i in range(y.shape[0])] if shmids.numpy else y.tolist()
assert rows(d["g.txt:2"]) == [[1, 2, 3], [4, 5, 6]], d
assert rows(d["g.txt:5"]) == [[7, 8], [9, 10], [11, 12]], d
assert d["g.txt:8"] == "13 14" and d["g.txt:9"] == "15 16 17", d
assert d["g.txt:10"] == "1 apple" and d["g.txt:11"] == "5", d
assert list(d["a"]) == [1, 2, 3] and d["x"] == "hello", d
r = rows(d["g.txt:14"])
assert str(r) == "[[-0.5, 1e+300], [nan, -inf]]", r
assert d["g.txt:16"] == "1e999 2", d   # out of range: no row
# type: one for all, or by key
i = shmids.load("g.txt", type="i32")
assert rows(i["g.txt:2"]) == [[1, 2, 3], [4, 5, 6]] and i["g.txt:14"] == "-0.5 1e300", i
i = shmids.load(open("g.txt"), type={"g.txt:5": "i64"})
assert rows(i["g.txt:5"]) == [[7, 8], [9, 10], [11, 12]], i
assert (i["g.txt:5"].dtype.name if shmids.numpy else i["g.txt:5"].format) in ("int64", "q")
import io
s = shmids.load(io.BytesIO(b"1 2\n3 4\n"))
assert list(s) == ["stdin:1"], s
print("ok")'
}

@test "6.1: python: load reads a table block's rows after its first in one library call (shmids_line_run), and what ends the block as line by line would" {
	need_python
	both "$COMMON"'
calls = {"next": 0, "run": 0}
nxt, run = shmids._library._lib.shmids_line_next, shmids._library._lib.shmids_line_run
def counted_next(*a):
    calls["next"] += 1
    return nxt(*a)
def counted_run(*a):
    calls["run"] += 1
    return run(*a)
shmids._library._lib.shmids_line_next = counted_next
shmids._library._lib.shmids_line_run = counted_run
n = 20000
with open("rows.txt", "wb") as out:
    out.write(b"".join(b"%d %d.5\n" % (k, k) for k in range(n)))
    out.write(b"1 2 3\r\n4 5 6\r\n")         # a wider block ends the first
    out.write(b"x some text\n")             # text ends the second
    out.write(b"a 1 /\n2\n")                # an array, one continuation
    out.write(b"7,8\n9,10")                 # comma rows, no LF at the end
d = shmids.load("rows.txt")
keys = ["rows.txt:1", "rows.txt:%d" % (n + 1), "x", "a", "rows.txt:%d" % (n + 6)]
assert list(d) == keys, list(d)
def rows(y):
    return [list(y[i]) for i in range(y.shape[0])] if shmids.numpy else y.tolist()
big = d["rows.txt:1"]
assert tuple(big.shape) == (n, 2), big.shape
assert rows(big)[n - 1] == [n - 1, n - 0.5] and rows(big)[0] == [0, 0.5]
assert rows(d["rows.txt:%d" % (n + 1)]) == [[1, 2, 3], [4, 5, 6]], d
assert d["x"] == "some text" and list(d["a"]) == [1, 2], d
assert rows(d["rows.txt:%d" % (n + 6)]) == [[7, 8], [9, 10]], d
# one call for each of the blocks rows after its first, a few a line
# for the rest: never one a row
assert calls["next"] < 20 and calls["run"] < 10, calls
# a block that is a single row is text, as line by line
with open("one.txt", "wb") as out:
    out.write(b"1 2\n3 4 5\n")
d = shmids.load("one.txt")
assert d == {"one.txt:1": "1 2", "one.txt:2": "3 4 5"}, d
print("ok")'
}

@test "5: python: load attaches table reference lines, 2-D, keyed by the segment's name; malformed ones raise EINVAL" {
	need_python
	run pyrun "$COMMON$TABLES"'
print(shmids.create(P + "m", mat("f32", 6, 4)))'
	status_is 0
	local l=$output
	printf 'shmids %s\n  shmids, %s\r\n' "$l" "$l" > ok.txt
	printf 'x 1\nshmids 12 segments made\n' > bad1.txt
	printf 'nan shmids %s\n' "$l" > bad2.txt
	printf 'shmids is fast\nshmids, the tools\n' > text.txt
	both "$COMMON$TABLES"'
import errno
d = shmids.load("ok.txt")
assert list(d) == [P + "m"], d
y = d[P + "m"]
assert shape(y) == (6, 4), shape(y)
for f, line in (("bad1.txt", 2), ("bad2.txt", 1)):
    try:
        shmids.load(f)
        raise AssertionError("loaded " + f)
    except OSError as e:
        assert e.errno == errno.EINVAL and e.filename == "%s:%d" % (f, line), e
d = shmids.load("text.txt")
assert d == {"shmids": "is fast", "shmids,": "the tools"}, d
print("ok")'
}

@test "5: python: dump writes 2-D arrays as table references under their key line; load gives them back under their key, whatever the prefix, both backends" {
	need_python
	both "$COMMON$TABLES"'
for be in backends():
    for t in shmids.TYPES:
        x = {"m": mat(t, 3, 2), "v": randbits(t, 5), "w": mat(t, 0 if shmids.numpy else 1, 4)}
        made = shmids.dump(x, "out.txt", prefix=P)
        assert len(made) == 2, made
        lines = open("out.txt").read().splitlines()
        assert lines[:2] == ["m", "shmids " + made[0]] and lines[-2:] == ["w", "shmids " + made[1]], lines
        y = shmids.load("out.txt", type=t)
        assert list(y) == list(x), list(y)
        for k in x:
            assert raw(y[k]) == raw(x[k]) and shape(y[k]) == shape(x[k]), (be, t, k)
        for l in made:
            shmids.remove(l)
print("ok")'
}

# Issue 21: make, fill and wait for segments in place.

@test "2.2: python: zeros() makes a segment to fill in place, every dtype, 1-D and 2-D, both backends; seal() makes it ready and read-only" {
	need_python
	both "$COMMON"'
import errno
SPELL = {"f64": ["f8", "float64", "f64"], "f32": ["f4", "float32"],
         "i64": ["i8", "int64"], "i32": ["i4", "int32"], "raw": ["u1", "uint8", "raw"]}
n = 0
for be in backends():
    for t, spellings in SPELL.items():
        for dt in spellings:
            for shp in (5, (5,), (3, 4), (0, 2)):
                n += 1
                w = shmids.zeros(P + "z%d" % n, shp, dt)
                want = shp if isinstance(shp, tuple) else (shp,)
                a = w.array
                assert tuple(memoryview(a).shape) == want or 0 in want, (dt, shp, memoryview(a).shape)
                assert not memoryview(a).readonly
                assert memoryview(a).tobytes() == bytes(len(memoryview(a).tobytes()))
                assert w.label.endswith(" " + P + "z%d" % n) and w.dtype == t
                try:
                    shmids.attach(w.label)
                    raise AssertionError("attached while filling")
                except BlockingIOError:
                    pass
                x = randbits(t, 12)
                if want == (3, 4):
                    memoryview(a).cast("B")[:] = memoryview(x).cast("B")[:48 * len(memoryview(a).cast("B")) // 48]
                elif want == (5,):
                    memoryview(a).cast("B")[:] = memoryview(x).cast("B")[:len(memoryview(a).cast("B"))]
                w.seal()
                w.seal()
                y = shmids.attach(w.label)
                assert memoryview(y).tobytes() == memoryview(a).tobytes()
                assert tuple(memoryview(y).shape) == tuple(memoryview(a).shape)
                assert memoryview(w.array).readonly, (dt, shp)
                if 0 not in want:
                    try:
                        if shmids.numpy:
                            w.array[0] = 1
                        else:
                            w.array[(0,) * len(want)] = 1
                        raise AssertionError("written after seal")
                    except (ValueError, TypeError):
                        pass
                w.remove()
                w.remove()
                try:
                    shmids.attach(w.label)
                    raise AssertionError("still there")
                except FileNotFoundError:
                    pass
for bad in ("f2", "c16", "int16", None):
    try:
        shmids.zeros(P + "bad", 3, bad)
        raise AssertionError("dtype %r accepted" % (bad,))
    except TypeError:
        pass
for bad in (-1, (1, -2, 3), (2.0,), (), True):
    try:
        shmids.zeros(P + "bad", bad)
        raise AssertionError("shape %r accepted" % (bad,))
    except ValueError:
        pass
if shmids.numpy:
    import numpy
    w = shmids.zeros(P + "np", (2, 2), numpy.dtype("float32"))
    assert w.array.dtype == numpy.float32
    w.remove()
print("ok")'
	no_segments_named "${P}bad"
	no_segments_named "${P}z"
}

@test "2.2: python: zeros() as a context manager seals on a normal exit and removes the segment on an exception" {
	need_python
	both "$COMMON"'
for be in backends():
    with shmids.zeros(P + "ok", (2, 3), "i4") as w:
        memoryview(w.array).cast("B")[:4] = b"\x07\0\0\0"
    y = shmids.attach(w.label)
    assert memoryview(y).tolist()[0][0] == 7 and memoryview(y).shape == (2, 3)
    shmids.remove(w.label)
    try:
        with shmids.zeros(P + "ex", 8) as w:
            raise KeyError("stop")
    except KeyError:
        pass
    try:
        shmids.attach(w.label)
        raise AssertionError("kept")
    except FileNotFoundError:
        pass
    # a writer never sealed is sealed when it goes (shmids_close)
    w = shmids.zeros(P + "gc", 3)
    label = w.label
    del w
    import gc; gc.collect()
    assert len(shmids.attach(label)) == 3
    shmids.remove(label)
print("ok")'
	no_segments_named "${P}ex"
}

@test "2.2: python: a child forked inside 'with zeros()' that leaves the block, or raises in it, neither seals nor removes the parent's segment; its seal() and remove() raise" {
	need_python
	both "$COMMON"'
def case(raise_in_child):
    pid = -1
    try:
        with shmids.zeros(P + "fk", 4) as w:
            w.array[0] = 1.0
            pid = os.fork()
            if pid == 0:
                for f in (w.seal, w.remove):
                    try:
                        f()
                        os._exit(3)
                    except RuntimeError as e:
                        if "forked from its writer" not in str(e):
                            os._exit(4)
                if raise_in_child:
                    raise KeyError("child")
            else:
                _, st = os.waitpid(pid, 0)
                assert st == 0, st
                try:
                    shmids.attach(w.label)
                    raise AssertionError("ready before the writer sealed it")
                except BlockingIOError:
                    pass
                w.array[1] = 2.0
    except KeyError:
        os._exit(0)
    if pid == 0:
        os._exit(0)
    assert memoryview(shmids.attach(w.label)).tolist() == [1, 2, 0, 0]
    shmids.remove(w.label)
for be in backends():
    case(False)
    case(True)
print("ok")'
	no_segments_named "${P}fk"
}

@test "2.2: python: attach(label, timeout) waits for the writer to seal; timed out it is BlockingIOError saying how long" {
	need_python
	both "$COMMON"'
import subprocess, time
WRITER = """
import shmids, sys, time
w = shmids.zeros(sys.argv[1], (2, 2), "f8")
print(w.label, flush=True)
sys.stdin.readline()
if shmids.numpy:
    w.array[1][1] = 4
if not shmids.numpy:
    w.array.cast("B")[24:32] = bytes.fromhex("0000000000001040")
w.seal()
time.sleep(0.5)
"""
for be in backends():
    p = subprocess.Popen([sys.executable, "-c", WRITER, P + "wait"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    label = p.stdout.readline().strip()
    t0 = time.monotonic()
    try:
        shmids.attach(label, timeout=0.3)
        raise AssertionError("no wait")
    except BlockingIOError as e:
        assert time.monotonic() - t0 >= 0.29, time.monotonic() - t0
        assert e.strerror.startswith("still being written"), e
        assert e.strerror.endswith("(waited 0.3 s)"), e
    def seal_later():
        time.sleep(0.3)
        p.stdin.write("\n")
        p.stdin.flush()
    import threading
    th = threading.Thread(target=seal_later)
    th.start()
    t0 = time.monotonic()
    y = shmids.attach(label, timeout=30)
    waited = time.monotonic() - t0
    th.join()
    assert 0.2 < waited < 5, waited
    assert memoryview(y).tolist() == [[0, 0], [0, 4]], memoryview(y).tolist()
    p.wait()
    shmids.remove(label)
    for bad in ("1", True):
        try:
            shmids.attach(label, timeout=bad)
            raise AssertionError("timeout %r accepted" % (bad,))
        except TypeError:
            pass
print("ok")'
}

@test "2.5: python: attach() maps no page until read, populate=True maps them; release() drops pages read or written, losing nothing; both backends" {
	need_python
	both "$COMMON"'
N = 1 << 21                     # 16 MiB of f64
MIB16 = 8 * N // 1024           # kB
def shared():
    """kB of shared pages this process maps: segments and files."""
    kb = 0
    for line in open("/proc/self/status"):
        k, _, v = line.partition(":")
        if k in ("RssFile", "RssShmem"):
            kb += int(v.split()[0])
    return kb
def readall(a):
    return bytes(memoryview(a).cast("B"))
for be in backends():
    with shmids.zeros(P + "lazy" + be, N) as w:
        if shmids.numpy:
            w.array[:] = 1.5
        else:
            w.array.cast("B")[:] = bytes(range(256)) * (8 * N // 256)
        r0 = shared()
        shmids.release(w.array)
        assert r0 - shared() > MIB16 * 9 // 10, (be, "writer", r0, shared())
    want = readall(w.array)
    r0 = shared()
    a = shmids.attach(w.label)
    assert shared() - r0 < 2048, (be, "lazy attach", shared() - r0)
    assert readall(a) == want, be
    r1 = shared()
    assert r1 - r0 > MIB16 * 9 // 10, (be, "read", r1 - r0)
    shmids.release(a)
    assert shared() - r0 < 2048, (be, "released", shared() - r0)
    assert readall(a) == want, (be, "read again")
    shmids.release(a)
    if shmids.numpy:        # any view: slices, steps, 2-D, empty
        shmids.release(a[10:20], a[::-1], a[::4096], a[:0],
                       a.reshape(1024, -1)[3:5, 7:9])
        assert a.tobytes() == want
    else:                   # without numpy, whole arrays only
        try:
            shmids.release(a[10:20])
            raise AssertionError("part of a memoryview released")
        except ValueError as e:
            assert "whole array" in str(e), e
    for bad in (b"abc", bytearray(8), memoryview(b"xy")):
        try:
            shmids.release(bad)
            raise AssertionError("released %r" % (bad,))
        except ValueError:
            pass
    r2 = shared()
    b = shmids.attach(w.label, populate=True)
    if not os.environ.get("SHMIDS_NOTUNE"):
        assert shared() - r2 > MIB16 * 9 // 10, (be, "populate", shared() - r2)
    assert readall(b) == want
    s = shmids.segment(w.label)
    x = s.array
    s.close()               # x keeps the mapping: release still works
    shmids.release(x)
    del a, b, x
    shmids.remove(w.label)
print("ok")'
}

@test "6: python: an attached segment is a context manager; closing it under a live array keeps the mapping until the array goes" {
	need_python
	local l
	l=$(mkseg c f64 1000)
	L=$l both "$COMMON"'
import gc
L = os.environ["L"]
def nattch():
    return [s["nattch"] for s in shmids.ls() if s["label"] == L][0]
assert nattch() == 0
with shmids.segment(L) as s:
    assert s.label == L and s.shape == (1000,) and s.dtype == "f64"
    assert nattch() == 1
assert nattch() == 0, "closed with no array: detached at once"
a = shmids.attach(L)
assert nattch() == 1
b = a[10:20]
if shmids.numpy:
    with a.base as seg:
        pass
    try:
        seg.array
        raise AssertionError("array after close")
    except ValueError:
        pass
    del seg
del a
gc.collect()
assert nattch() == 1 and len(memoryview(b).tolist()) == 10, "b still reads"
del b
gc.collect()
assert nattch() == 0
print("ok")'
}

@test "6: python: no writable path to a read-only mapping (a.base, a.base.obj, memoryview(a), flags)" {
	need_python numpy
	local l
	l=$(mkseg r f64 100)
	L=$l run pyrun "$COMMON$TABLES"'
import numpy
for label in (os.environ["L"], shmids.create(P + "t", mat("i32", 3, 3))):
    a = shmids.attach(label)
    assert memoryview(a).readonly and not a.flags.writeable
    for how in (lambda: numpy.frombuffer(a.base, dtype="u1"),
                lambda: numpy.frombuffer(a.base.obj, dtype="u1"),
                lambda: memoryview(a.base),
                lambda: setattr(a.flags, "writeable", True),
                lambda: numpy.asarray(a.base).__setitem__(0, 1)):
        try:
            how()
            raise AssertionError("a writable path")
        except (TypeError, ValueError, AttributeError):
            pass
    assert not numpy.asarray(a.base).flags.writeable
print("ok")'
	status_is 0
	is "$output" ok
}

@test "6: python: dump refuses a str that would not read back as the same text, naming the field" {
	need_python
	both "$COMMON"'
import errno
for bad in ("1 2 /", "note\nz shmids 0 victim", "a\rb", "x\0y", "shmids 1 x",
            "1 2 3", "nan", "", " lead", "trail ", "0xff 1e-3"):
    try:
        shmids.dump({"a": "ok", "b" + P: bad}, "out.txt")
        raise AssertionError("accepted %r" % bad)
    except ValueError as e:
        assert ("field %r" % ("b" + P)) in str(e), e
for bad in ("1", "nan", "-0.5", "0x1p-3", "shmids", "shmids,"):
    try:
        shmids.dump({bad: "12 x"}, "out.txt")
        raise AssertionError("a number as field: %r" % bad)
    except OSError as e:
        assert e.errno == errno.EINVAL and e.filename == bad, e
ok = {"a": "x 1 2", "b": "1 2 x", "c": "/ x", "d": "a/", "e": "shmidsx 1",
      "f": "x  \t y", "g": "nan apple", "h": "\u00e9t\u00e9",
      "i": "x /"}     # text: x is no value, so its "/" continues nothing
shmids.dump(ok, "out.txt")
assert shmids.load("out.txt") == ok, shmids.load("out.txt")
print("ok")'
	no_segments_named "b$P"
}

@test "6: python: property: load(dump(x)) == x for random fields dump accepts (seeded), both backends" {
	need_python
	both "$COMMON$TABLES"'
WORDS = ["1", "2.5", "nan", "/", "shmids", "shmids,", "x", "-0", "0x1p-3",
         "a/b", "#", "1e999", "\u00e9", "\t", " ", "", "12 x", "NA"]
def rtext():
    return "".join(rnd.choice(WORDS) + rnd.choice(["", " ", "  "])
                   for _ in range(rnd.randrange(1, 5)))
def eq(a, b):
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return raw(a) == raw(b) and shape(a) == shape(b)
runs = accepted = refused = 0
for be in backends():
    for run in range(60):
        x, types = {}, {}
        for k in range(rnd.randrange(1, 7)):
            field = rnd.choice(["f", "g", "h", "k1", "k2", "z"]) + str(k)
            kind = rnd.randrange(4)
            t = rnd.choice(shmids.TYPES)
            if kind == 0:
                x[field] = rtext()
            elif kind == 1:
                x[field] = randbits(t, rnd.choice([0, 1, 3, 63, 64, 200]))
                types[field] = t
            elif kind == 2:
                field = P + field
                x[field] = mat(t, rnd.randrange(1, 5), rnd.randrange(1, 4))
                types[field] = t
            else:
                x[field] = randbits(t, 2)[:rnd.randrange(0, 3)]
                types[field] = t
        try:
            made = shmids.dump(x, "p.txt")
        except ValueError:
            refused += 1
            continue
        accepted += 1
        y = shmids.load("p.txt", type=types)
        assert list(y) == list(x), (list(x), list(y))
        for k in x:
            assert eq(x[k], y[k]), (k, x[k], y[k])
        for l in made:
            shmids.remove(l)
        runs += 1
assert accepted >= 30 and refused >= 5, (accepted, refused)
print("ok")'
}

@test "1: python: errors speak the tools' words (shmids_explain()), whatever the call" {
	need_python
	both "$COMMON"'
import errno
os.environ["SHMIDS_DIR"] = os.environ["T"] + "/nosuch"
for f, args in ((shmids.ls, ()), (shmids.create, (P + "x", array.array("d", [1]))),
                (shmids.zeros, (P + "x", 3))):
    try:
        f(*args)
        raise AssertionError("no error")
    except FileNotFoundError as e:
        assert e.strerror == "SHMIDS_DIR {0}/nosuch does not exist: \x27mkdir -p {0}/nosuch\x27 (mode 1777 to share it), or unset SHMIDS_DIR for System V segments".format(os.environ["T"]), e
del os.environ["SHMIDS_DIR"]
try:
    shmids.attach("coeff")
except OSError as e:
    assert e.errno == errno.EINVAL and e.strerror == "a name alone, not a label: shm-ls -N coeff lists its labels", e
try:
    shmids.attach("x shmids 12 coeff")
except OSError as e:
    assert e.errno == errno.EINVAL and e.strerror == "a reference line where a label is needed: its label is \x2712 coeff\x27", e
try:
    shmids.attach("x1 coeff")
except OSError as e:
    assert e.errno == errno.EINVAL and e.strerror.startswith("the id is neither a shmid"), e
try:
    shmids.remove("12 a\0b")
except OSError as e:
    assert e.errno == errno.EINVAL and "NUL" in e.strerror, e
print("ok")'
	no_segments_named "${P}x"
}

@test "6: python: __all__ lists only the API; without numpy, one ImportWarning at import" {
	need_python
	run pyrun 'import shmids
print(sorted(shmids.__all__))
ns = {}
exec("from shmids import *", ns)
print("numpy" in ns, all(callable(ns[n]) or n == "TYPES" for n in shmids.__all__))'
	status_is 0
	is "$output" "['Follower', 'Segment', 'Stream', 'TYPES', 'Writer', 'attach', 'create', 'dump', 'follow', 'load', 'ls', 'release', 'remove', 'segment', 'stream', 'zeros']
False True"
	run pyrun --no-numpy 'import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    import shmids
    import shmids
print(len(w), w[0].category.__name__, w[0].message)
print(shmids.numpy, type(shmids.attach).__name__)'
	status_is 0
	is "$output" "1 ImportWarning shmids: numpy is not importable: arrays are typed memoryviews (Debian: apt-get install python3-numpy)
False function"
	# ignored by default, as every ImportWarning: nothing on stderr
	run pyrun --no-numpy 'import shmids'
	status_is 0
	is "$output" ""
}

@test "2.4: python: docstrings point at shmids(5) and shmids-python(3), not the source tree; help() shows mode=0o600" {
	need_python
	run pyrun 'import shmids, pydoc, inspect
text = pydoc.render_doc(shmids, renderer=pydoc.plaintext)
print("format-spec" in text, "shmids(5)" in text, "shmids-python(3)" in text)
print(inspect.signature(shmids.zeros))
print(all(getattr(shmids, n).__doc__ for n in shmids.__all__ if n != "TYPES"))'
	status_is 0
	is "$output" "False True True
(name, shape, dtype='f8', mode=0o600, order='C')
True"
	[ -f "$TOP/man/shmids-python.3" ]
	grep -q '^\.Xr shmids 5' "$TOP/man/shmids-python.3"
}

@test "6.1: python: load reads table blocks of every type, blank and comma rows, exactly" {
	need_python
	both "$COMMON"'
import struct
def value(t):
    if t == "f64":
        return repr(rnd.uniform(-1e300, 1e300) * rnd.choice([1, 1e-300]))
    if t == "f32":
        return repr(struct.unpack("f", struct.pack("f", rnd.uniform(-1e30, 1e30)))[0])
    lim = {"i64": 2**63, "i32": 2**31}.get(t)
    return str(rnd.randrange(-lim, lim) if lim else rnd.randrange(256))
for t in shmids.TYPES:
    for sep in (" ", ",", "\t", ", "):
        r, c = rnd.randrange(2, 9), rnd.randrange(1, 7)
        text = [[value(t) for _ in range(c)] for _ in range(r)]
        with open("b.txt", "w") as f:
            f.write("hdr x\n" + "\n".join(sep.join(row) for row in text) + "\n")
        y = shmids.load("b.txt", type=t)["b.txt:2"]
        assert tuple(memoryview(y).shape) == (r, c), (t, memoryview(y).shape)
        want = array.array(CODES[t], [float(v) if t[0] == "f" else int(v)
                                      for row in text for v in row])
        assert memoryview(y).tobytes() == want.tobytes(), (t, sep, text)
print("ok")'
}

# --- Review of issue 21: lifetime, threads, fork, exit, errors, writers. ---

@test "6: python: every array over a mapping holds it: numpy.asarray(segment), numpy.asarray(a.base), copy.copy(a.base) survive close() and del, both backends" {
	need_python numpy
	run pyrun "$COMMON"'
import numpy, copy, gc, pickle
for be in backends():
    lab = shmids.create(P + "life", numpy.arange(1000.0))
    with shmids.segment(lab) as s:
        x = numpy.asarray(s)
    gc.collect()
    assert x.sum() == 499500.0 and not x.flags.writeable, be
    a = shmids.attach(lab)
    y = numpy.asarray(a.base)
    z = copy.copy(a.base)
    assert z is a.base and copy.deepcopy(a.base) is a.base
    del a
    gc.collect()
    assert y.sum() == 499500.0 and not y.flags.writeable
    del y
    gc.collect()
    assert numpy.asarray(z).sum() == 499500.0
    with z:
        pass
    try:
        numpy.asarray(z)
        raise AssertionError("an array from a closed base")
    except ValueError:
        pass
    for obj in (z, shmids.segment(lab)):
        try:
            pickle.dumps(obj)
            raise AssertionError("pickled")
        except TypeError as e:
            assert "cannot be pickled" in str(e), e
    b = pickle.loads(pickle.dumps(x))
    assert b.sum() == 499500.0 and b.base is not x.base
    del x, z, b
    gc.collect()
    shmids.remove(lab)
print("ok")'
	status_is 0
	is "$output" ok
}

@test "6.2: python: a fork while a thread waits in attach(timeout) leaves the child a working module; waiters do not hold the lock, both backends" {
	need_python
	both "$COMMON"'
import threading, time, signal
for be in backends():
    w = shmids.zeros(P + "fill", 3)
    ready = shmids.create(P + "ready", array.array("d", [1, 2, 3]))
    def _wait(label):
        try:
            shmids.attach(label, timeout=1.5)
        except BlockingIOError:
            pass
    ts = [threading.Thread(target=_wait, args=(w.label,)) for _ in range(3)]
    for t in ts:
        t.start()
    time.sleep(0.3)
    # the lock is free nearly all the time while they wait
    free = 0
    for i in range(50):
        if shmids._library._lock.acquire(blocking=False):
            shmids._library._lock.release()
            free += 1
        time.sleep(0.005)
    assert free >= 40, free
    pid = os.fork()
    if pid == 0:
        signal.alarm(10)
        shmids.attach(ready)
        os._exit(0)
    _, st = os.waitpid(pid, 0)
    assert st == 0, "child status %d" % st
    for t in ts:
        t.join()
    w.remove()
    shmids.remove(ready)
print("ok")'
}

@test "6.2: python: os.fork() waits for a library call in another thread (the library's fork handler walks its segments)" {
	need_python
	both "$COMMON"'
import threading, time
held = threading.Event()
def call():
    with shmids._library._lock:  # as a library call in progress holds it
        held.set()
        time.sleep(0.5)
t = threading.Thread(target=call)
t.start()
held.wait()
t0 = time.monotonic()
pid = os.fork()
if pid == 0:
    os._exit(0 if shmids._library._lock.acquire(blocking=False) else 1)
waited = time.monotonic() - t0
_, st = os.waitpid(pid, 0)
t.join()
assert st == 0, "child status %d" % st
assert waited >= 0.3, waited
print("ok")'
}

@test "6.2: python: close() and .array from two threads at once never leave an array over a detached mapping" {
	need_python
	both "$COMMON"'
import threading, time
sys.setswitchinterval(1e-6)
lab = shmids.create(P + "race", array.array("d", range(20000)))
end = time.monotonic() + 2
n = 0
while time.monotonic() < end:
    s = shmids.segment(lab)
    out = []
    def reader():
        try:
            out.append(s.array)
        except ValueError:
            pass
    t = threading.Thread(target=reader)
    t.start()
    s.close()
    t.join()
    for a in out:
        assert memoryview(a)[19999] == 19999.0
    n += 1
shmids.remove(lab)
print("ok")'
}

@test "6.2: python: arrays stay readable in atexit handlers and daemon threads; a writer left unsealed at a normal exit is sealed (shmids(5) 2.2)" {
	need_python
	both "$COMMON"'
import subprocess
CHILD = """
import atexit, sys, threading, time, array, shmids
@atexit.register
def report():           # registered first: runs last
    time.sleep(0.1)
    print("atexit", sum(memoryview(a).tolist()), flush=True)
a = shmids.attach(sys.argv[1])
w = shmids.zeros(sys.argv[2], 2)
memoryview(w.array)[1] = 5
def loop():
    while True:
        sum(memoryview(a).tolist())
threading.Thread(target=loop, daemon=True).start()
"""
for be in backends():
    lab = shmids.create(P + "ax", array.array("d", range(1000)))
    r = subprocess.run([sys.executable, "-c", CHILD, lab, P + "ax-w"],
                       capture_output=True, text=True)
    assert r.returncode == 0, (r.returncode, r.stderr)
    assert r.stdout == "atexit 499500.0\n", r.stdout
    wl = [s["label"] for s in shmids.ls() if s["label"] and s["label"].endswith(" " + P + "ax-w")]
    assert len(wl) == 1, wl
    assert memoryview(shmids.attach(wl[0])).tolist() == [0, 5]
    shmids.remove(wl[0])
    shmids.remove(lab)
print("ok")'
}

@test "2.6: python: attach() of a sparse file segment on a full tmpfs raises EBADMSG in words, not SIGBUS" {
	local D
	need_python
	[ "$(id -u)" = 0 ] && unshare -m -i true 2> /dev/null ||
	    skip "needs root and unshare -m -i for a small tmpfs"
	D=$(mktemp -d "$T/tmpfs.XXXXXX")
	# 1 MiB of tmpfs, full; a file segment declaring 2 MiB, 4 KiB written
	run unshare --mount --ipc sh -c "mount -t tmpfs -o size=1m none '$D' &&
	    l=\$(SHMIDS_DIR='$D' '$SHMTOOL' create s f64 1) &&
	    f=\${l%% *} &&
	    printf '%020d' 262144 | dd of=\"\$f\" bs=1 seek=95 conv=notrunc status=none &&
	    truncate -s 2097280 \"\$f\" &&
	    { head -c 2m /dev/zero > '$D/fill' 2>/dev/null; true; } &&
	    SHMIDS_LIB='$LIB' PYTHONPATH='$TOP/python' '$PY' -c '
import errno, sys, shmids
try:
    shmids.attach(sys.argv[1])[-1]
    print(\"read\")
except OSError as e:
    print(errno.errorcode[e.errno], e.strerror)
' \"\$l\"; echo rc=\$?"
	like "$output" "EBADMSG segment $D/shmids.0.?????? declares 2097280 bytes, of which only 4096 are allocated (a sparse file: no shmids writer made it so); shm-rm * removes it
rc=0"
}

@test "6: python: load() reads back as an array what shm-expand -c 4 writes of a keyed array ending a file in a bare CR" {
	need_python
	printf 'x 1 2 3 4\r' > in
	runio in shm_import -k 2 -P "$P"
	status_is 0
	cp "$T/out" ref
	runio ref shm_expand -d -c 4
	status_is 0
	both "$COMMON"'
d = shmids.load(os.path.join(os.environ["T"], "out"))
assert list(d) == ["x"] and list(d["x"]) == [1, 2, 3, 4], d
print("ok")'
}

@test "2.6: python: the manual page and the README warn of SIGBUS under a truncated file segment" {
	grep -q SIGBUS "$TOP/man/shmids-python.3"
	sed -n '/^## From Python/,/^## The library/p' "$README" | tr '\n' ' ' > py.md
	grep -q SIGBUS py.md
	grep -q 'System V segments* cannot shrink' py.md
}

@test "1: python: create, zeros and dump refuse names, shapes and sizes in the tools' words" {
	need_python
	both "$COMMON"'
import errno, io
def refused(f, exc, words):
    try:
        f()
    except exc as e:
        assert words in str(e), (words, str(e))
        return
    raise AssertionError("accepted: %s" % words)
for be in backends():
    for bad in ("", "a b", "caf\u00e9", "a\x7f", "\udcff"):
        refused(lambda: shmids.zeros(bad, 3), OSError, "cannot be a segment name (1 to 64 bytes of printable ASCII, no blank)")
        refused(lambda: shmids.create(bad, array.array("d", [1])), OSError, "printable ASCII")
    refused(lambda: shmids.zeros("x" * 65, 3), OSError, "segment name too long")
    refused(lambda: shmids.zeros(P + "z", (3, 0)), OSError, "a table has 1 to 9999999 columns, not 0")
    refused(lambda: shmids.zeros(P + "z", (2, 10**7)), OSError, "a table has 1 to 9999999 columns")
    if be == "sysv":
        try:
            shmids.zeros(P + "big", 2**58).remove()
            raise AssertionError("2**61 bytes made")
        except OSError as e:
            assert e.errno in (errno.EINVAL, errno.ENOMEM, errno.ENOSPC), e
            assert "invalid argument" not in e.strerror and str(2**58) in e.strerror, e
    for key in ("caf\u00e9", "\udcff"):
        for v in ("text", array.array("d", [1, 2]), array.array("d", range(100))):
            refused(lambda: shmids.dump({key: v}, io.BytesIO(), prefix=P), OSError,
                    "the field cannot be a segment name (printable ASCII only)")
    refused(lambda: shmids.dump({"1": memoryview(array.array("d", range(4))).cast("B").cast("d", [2, 2])},
                                io.BytesIO(), prefix=P), OSError, "a number is never a field")
    refused(lambda: shmids.dump({"k" * 60: array.array("d", range(100))}, io.BytesIO(), prefix=P),
            OSError, "segment name too long: the prefix and the field make more than 64 bytes")
print("ok")'
	no_segments_named "${P}big"
}

@test "2.7: python: numpy integers and floats are ints and seconds for shape, mode and timeout; refusals name the type" {
	need_python numpy
	run pyrun "$COMMON"'
import numpy
w = shmids.zeros(P + "n", (numpy.int64(2), numpy.int32(3)), mode=numpy.uint16(0o640))
assert w.shape == (2, 3)
assert [s["mode"] for s in shmids.ls() if s["label"] == w.label] == [0o640]
w.seal()
for t in (numpy.float64(0.1), numpy.float32(0.1), numpy.int64(1), 0.5, 1):
    assert shmids.attach(w.label, timeout=t).shape == (2, 3)
l = shmids.create(P + "c", numpy.zeros(3), mode=numpy.int64(0o600))
assert shmids.zeros(P + "s", numpy.int64(4)).shape == (4,)
for f, words in ((lambda: shmids.zeros(P + "b", 3, mode=0.5), "not float"),
                 (lambda: shmids.zeros(P + "b", 3, mode=numpy.float64(384)), "not float64"),
                 (lambda: shmids.zeros(P + "b", 3.0), "(float)"),
                 (lambda: shmids.zeros(P + "b", (2, 3.0)), "(int, float)"),
                 (lambda: shmids.attach(w.label, timeout="1"), "not str"),
                 (lambda: shmids.attach(w.label, timeout=numpy.bool_(True)), "not bool")):
    try:
        f()
        raise AssertionError("accepted: " + words)
    except (TypeError, ValueError) as e:
        assert words in str(e), (words, str(e))
w.remove()
shmids.remove(l)
print("ok")'
	status_is 0
	is "$output" ok
}

@test "2.3: python: remove() removes one's own segment with a damaged header, as shm-rm does, both backends" {
	need_python
	both "$COMMON"'
import ctypes, errno
for be in backends():
    w = shmids.zeros(P + "dmg", 4)
    ctypes.memmove(w._mem.shm + 95, b"00000000000000099999", 20)
    w.seal()
    try:
        shmids.attach(w.label)
        raise AssertionError("a damaged header attached")
    except OSError as e:
        assert e.errno == errno.EBADMSG and "shm-rm" in e.strerror, e
    shmids.remove(w.label)
    try:
        shmids.remove(w.label)
        raise AssertionError("removed twice")
    except FileNotFoundError:
        pass
    w.close()
print("ok")'
	no_segments_named "${P}dmg"
}

@test "6: python: without numpy a read-only memoryview has no writable path (obj is read-only) and keeps the mapping while any view lives" {
	need_python
	local l
	l=$(mkseg nn f64 6)
	L=$l run pyrun --no-numpy "$COMMON"'
import gc, ctypes
L = os.environ["L"]
def nattch():
    return [s["nattch"] for s in shmids.ls() if s["label"] == L][0]
a = shmids.attach(L)
assert a.readonly and (a.obj is None or memoryview(a.obj).readonly), a.obj
for how in (lambda: memoryview(a).cast("B").__setitem__(0, 1),
            lambda: (ctypes.c_char * 8).from_buffer(a),
            lambda: (ctypes.c_char * 8).from_buffer(a.obj)):
    try:
        how()
        raise AssertionError("a writable path")
    except (TypeError, ValueError):
        pass
b = a[2:4]
want = a.tolist()[2:4]
c = memoryview(a).cast("B")
del a
gc.collect()
assert nattch() == 1 and b.tolist() == want and len(c) == 48
del b
gc.collect()
assert nattch() == 1
del c
gc.collect()
assert nattch() == 0
print("ok")'
	status_is 0
	is "$output" ok
}

@test "2.2: python: a Writer seals, closes and removes in any order, idempotent; __exit__ after close() or seal(), or after shm-rm, keeps the user's exception" {
	need_python
	both "$COMMON"'
import itertools
n = 0
for be in backends():
    for order in itertools.permutations(("seal", "close", "remove")):
        n += 1
        w = shmids.zeros(P + "o%d" % n, 2)
        for step in order + order:
            getattr(w, step)()
        try:
            w.array
            raise AssertionError("array after close")
        except ValueError as e:
            assert "closed" in str(e)
    with shmids.zeros(P + "c", 2) as w:
        w.close()
    assert len(shmids.attach(w.label)) == 2
    shmids.remove(w.label)
    with shmids.zeros(P + "s", 2) as w:
        w.seal()
    shmids.remove(w.label)
    try:
        with shmids.zeros(P + "r", 2) as w:
            shmids.remove(w.label)      # as shm-rm would
            raise KeyError("mine")
    except KeyError as e:
        assert e.args == ("mine",) and e.__context__ is None, repr(e)
    w = shmids.zeros(P + "ro", 3)
    a = w.array
    w.seal()
    # the same object: read-only (a memoryview cannot be made so: the
    # one taken before seal stays writable, as numpy views do)
    assert memoryview(w.array).readonly
    assert memoryview(a).readonly or not shmids.numpy
    if shmids.numpy:
        import numpy
        assert not numpy.asarray(w.array.base).flags.writeable
    w.remove()
print("ok")'
	no_segments_named "${P}r"
}

@test "1: python: wrong types are TypeError (a label, a dump key), a negative or NaN timeout ValueError" {
	need_python
	both "$COMMON"'
import io
for f, exc in ((lambda: shmids.attach(402), TypeError),
               (lambda: shmids.segment(None), TypeError),
               (lambda: shmids.remove(402), TypeError),
               (lambda: shmids.zeros(5, 3), TypeError),
               (lambda: shmids.dump({5: "x"}, io.BytesIO()), TypeError),
               (lambda: shmids.attach("1 x", timeout=-1), ValueError),
               (lambda: shmids.attach("1 x", timeout=float("nan")), ValueError)):
    try:
        f()
        raise AssertionError("accepted")
    except exc:
        pass
print("ok")'
}

@test "4: python: load(type=) takes the dtype spellings zeros() takes; the manual says arrays pickle as copies" {
	need_python
	both "$COMMON"'
import io
for t in ("f8", "float64", "i4", "int32", "u1"):
    x = shmids.load(io.BytesIO(b"x 1 2\n"), type=t)["x"]
    assert memoryview(x).tolist() == [1, 2], t
assert memoryview(shmids.load(io.BytesIO(b"x 1 2\n"), type={"x": "i8"})["x"]).format in "ql"
if shmids.numpy:
    import numpy
    assert shmids.load(io.BytesIO(b"x 1 2\n"), type=numpy.dtype("f4"))["x"].dtype == numpy.float32
try:
    shmids.load(io.BytesIO(b"x 1 2\n"), type="f2")
    raise AssertionError("f2 accepted")
except ValueError:
    pass
print("ok")'
	grep -qi 'pickl.*cop' "$TOP/man/shmids-python.3"
}

@test "6: python: the manual page renders in 80 columns without groff warnings, its quotes nested right" {
	command -v mandoc > /dev/null || skip "no mandoc"
	run mandoc -Tlint -W warning "$TOP/man/shmids-python.3"
	is "$output" "" "mandoc -Tlint"
	run sh -c 'mandoc -Tascii -O width=80 "$1" | col -b' sh "$TOP/man/shmids-python.3"
	status_is 0
	! grep -q '.\{81\}' <<< "$output"
	grep -q '("shmid name" or "path name")' <<< "$output"
	if command -v groff > /dev/null; then
		run sh -c 'groff -mandoc -Tutf8 -rLL=80n -ww "$1" 2>&1 > /dev/null' sh "$TOP/man/shmids-python.3"
		is "$output" "" "groff warnings"
	fi
	for w in SIGBUS fork thread pickl; do
		grep -qi "$w" "$TOP/man/shmids-python.3" || { echo "no $w"; false; }
	done
}

@test "2.2: python: a Writer not sealed when the interpreter exits on an uncaught exception is removed, not sealed half-written, said on stderr in one line; a normal exit seals it" {
	need_python
	both "$COMMON"'
import subprocess
CHILD = """
import os, sys, shmids
w = shmids.zeros(sys.argv[1], 3)
print(w.label, flush=True)
if sys.argv[2] == "fork":
    if os.fork() == 0:
        raise KeyError("in the child")
    os.wait()
    raise SystemExit(0)
if sys.argv[2] == "raise":
    raise KeyError("half-written")
"""
for be in backends():
    for how, kept in (("raise", False), ("exit", True), ("fork", True)):
        r = subprocess.run([sys.executable, "-c", CHILD, P + "x" + how, how],
                           capture_output=True, text=True)
        label = r.stdout.split("\n")[0]
        said = [l for l in r.stderr.splitlines() if l.startswith("shmids: ")]
        assert said == ([] if kept else ["shmids: %s: removed, never sealed: "
                        "the program ends by an uncaught error" % label]), (how, r.stderr)
        try:
            y = shmids.attach(label)
            assert kept, (how, "sealed half-written")
            shmids.remove(label)
        except FileNotFoundError:
            assert not kept, (how, "removed")
print("ok")'
	no_segments_named "${P}xraise"
}

@test "6: python: a signal's exception at the end of a long call (KeyboardInterrupt) leaves no segment half-made nor attached: zeros, create, attach, both backends" {
	need_python
	both "$COMMON"'
import gc, signal
class Boom(Exception):
    pass
armed = False
def boom(*a):
    global armed
    if armed:       # one exception an arming: the cleanup runs in peace
        armed = False
        raise Boom
signal.signal(signal.SIGALRM, boom)
def mine():
    gc.collect()
    return [s for s in shmids.ls() if s["label"].split(" ")[1].startswith(P)]
def hammer(call, n=400):
    global armed
    booms = 0
    signal.setitimer(signal.ITIMER_REAL, 0.0003, 0.0003)
    for i in range(n):
        try:
            armed = True
            r = call()      # kept until disarmed: finalizers run in peace
            armed = False
            del r
        except Boom:
            booms += 1
    armed = False
    signal.setitimer(signal.ITIMER_REAL, 0)
    assert booms, "no signal came"
big = array.array("d", bytes(8 * 10**5))
for be in backends():
    def z():
        w = shmids.zeros(P + "z", 10**5)
        w.seal()
        return w
    hammer(z)
    hammer(lambda: shmids.create(P + "c", big))
    for s in mine():
        assert s["state"] == "ready" and s["nattch"] == 0, (be, s)
        shmids.remove(s["label"])
    label = shmids.create(P + "a", big)
    hammer(lambda: shmids.attach(label, populate=True), 2000)
    assert [s["nattch"] for s in mine()] == [0], (be, mine())
    shmids.remove(label)
    # interrupted once its array exists, zeros() removes the segment but
    # leaves the mapping to the Writer, which the traceback still holds
    # (pdb.pm() may write its array)
    class Interrupting(set):
        def add(self, w):
            raise KeyboardInterrupt
    keep, shmids._mapping._writers = shmids._mapping._writers, Interrupting()
    try:
        shmids.zeros(P + "tb", 1000)
        raise AssertionError("not interrupted")
    except KeyboardInterrupt as e:
        tb = e.__traceback__
        while tb.tb_frame.f_code.co_name != "__init__":
            tb = tb.tb_next
        w = tb.tb_frame.f_locals["self"]
    shmids._mapping._writers = keep
    del tb
    gc.collect()
    w.array[999] = 5
    assert w.array[999] == 5 and mine() == [], mine()
    del w
print("ok")'
}

@test "2.7: python: zeros() of a shape beyond size_t is ENOMEM, not a segment of the count modulo 2**64" {
	need_python
	both "$COMMON"'
import errno, ctypes
big = ctypes.c_size_t(-1).value + 1
for be in backends():
    for shape in (big + 3, (big + 3, 2), (2, big + 3)):
        try:
            w = shmids.zeros(P + "z", shape)
            w.remove()
            raise AssertionError("%s made %s" % (shape, w.shape))
        except OSError as e:
            assert e.errno in (errno.ENOMEM, errno.EINVAL), e
            assert str(big + 3) in e.strerror or \
                str(2 * (big + 3)) in e.strerror, e
print("ok")'
	no_segments_named "${P}z"
}

@test "2.2: python: without numpy a sealed Writer's array has no writable path (w.array.obj), and release() still finds its mapping" {
	need_python
	run pyrun --no-numpy "$COMMON"'
import ctypes, gc
for be in backends():
    w = shmids.zeros(P + "w", 4)
    a = w.array
    a[0] = 1.5
    shmids.release(a)
    w.seal()
    b = w.array
    assert b.readonly and (b.obj is None or memoryview(b.obj).readonly), b.obj
    for how in (lambda: b.__setitem__(0, 2.0),
                lambda: ctypes.c_double.from_buffer(b.obj),
                lambda: memoryview(b.obj).cast("B").__setitem__(0, 0)):
        try:
            how()
            raise AssertionError("a writable path")
        except (TypeError, ValueError):
            pass
    shmids.release(b)
    assert shmids.attach(w.label).tolist() == [1.5, 0, 0, 0]
    w.remove()
print("ok")'
	status_is 0
	is "$output" ok
}

@test "6: python: dump takes a str of vertical tabs or form feeds (no blanks to the library) and load gives it back; no IndexError" {
	need_python
	both "$COMMON"'
ok = {"a": "\x0b", "b": "\x0c\x0b", "c": "x\x0b/", "d": "shmids\x0c1 x", "e": "/\x0b"}
shmids.dump(ok, "out.txt")
for t in shmids.TYPES:
    assert shmids.load("out.txt", type=t) == ok, (t, shmids.load("out.txt"))
print("ok")'
}

@test "6: python: a timeout of an int beyond any double waits for ever (as inf), not OverflowError; a negative one is ValueError" {
	need_python
	both "$COMMON"'
import errno
for be in backends():
    label = shmids.create(P + "r", array.array("d", [1, 2]))
    assert list(shmids.attach(label, timeout=10**400)) == [1, 2]
    try:
        shmids.attach(label, timeout=-10**400)
        raise AssertionError("accepted")
    except ValueError:
        pass
    shmids.remove(label)
print("ok")'
}

@test "6: python: load() skips comment lines (the classifier's: first token begins with #), as numpy's loadtxt does: none replaces another, none is a key, a comment's / continues nothing; dump() refuses a field that begins with #" {
	need_python
	printf '%s\n' '# first comment' 'a 1 2' '# second comment' \
	    '  #indented 1 2 3' '# 1 2 /' '3 4' 'b 5' > c.txt
	run pyrun "$COMMON"'
import errno
d = shmids.load("c.txt")
assert list(d) == ["a", "c.txt:6", "b"], d
assert list(d["a"]) == [1, 2] and list(d["b"]) == [5], d
assert d["c.txt:6"] == "3 4", d
try:
    shmids.dump({"#x": "text"}, "o.txt")
    raise SystemExit("dump took #x")
except OSError as e:
    assert e.errno == errno.EINVAL and "comment" in e.strerror, e
print("ok")'
	status_is 0
	is "$output" "ok"
}

@test "2.7: python: N-D arrays: zeros((50, 50, 50)) and create() of a 3-D array make a 1-D segment, attach(shape=) gives the shape back; dump, uint16 and complex refused with the way, both backends" {
	need_python
	both "$COMMON"'
def shape(a):
    return tuple(memoryview(a).shape)
with shmids.zeros(P + "grid", (50, 50, 50), "f") as w:
    assert shape(w.array) == (50, 50, 50) and w.shape == (50, 50, 50), w.shape
    m = memoryview(w.array).cast("B").cast("f")
    for i in range(0, 125000, 997):
        m[i] = i
a = shmids.attach(w.label)
assert shape(a) == (125000,), shape(a)
g = shmids.attach(w.label, shape=(50, 50, 50))
assert shape(g) == (50, 50, 50)
assert g[1, 2, 3] == 0 and g[0, 19, 47] == 997, g[0, 19, 47]
assert memoryview(g).tobytes() == memoryview(a).tobytes()
assert shape(shmids.attach(w.label, shape=[125000])) == (125000,)
for bad in ((50, 50), (2, -1, 3), "50"):
    try:
        shmids.attach(w.label, shape=bad)
        raise AssertionError("shape %r accepted" % (bad,))
    except ValueError as e:
        assert "shape" in str(e), e
x = randbits("i32", 24)
if shmids.numpy:
    x = x.reshape(2, 3, 4)
else:
    x = memoryview(x).cast("B").cast("i", [2, 3, 4])
l = shmids.create(P + "cube", x)
assert shape(shmids.attach(l)) == (24,)
c = shmids.attach(l, shape=(2, 3, 4))
assert shape(c) == (2, 3, 4) and memoryview(c).tobytes() == memoryview(x).tobytes()
try:
    shmids.dump({"g": x}, os.path.join(os.environ["T"], "g.txt"))
    raise AssertionError("dump of 3-D accepted")
except ValueError as e:
    assert "attach(label, shape=)" in str(e), e
if shmids.numpy:
    import numpy
    for dt, what in (("u2", "uint16"), ("c16", "complex128")):
        try:
            shmids.create(P + "bad", numpy.zeros((3, 3, 3), dtype=dt))
            raise AssertionError(dt + " accepted")
        except TypeError as e:
            assert what in str(e), e
print("ok")'
	no_segments_named "${P}bad"
}

@test "5, 6.1: python: load() keys a table by the key line above it (above its CSV header), else by its segment's name or source:line; a CSV header is numpy's field names, never a key; a field alone elsewhere is an empty array" {
	need_python
	local l
	printf '%s\n' e '' t '"p","q"' 1,2 3,4 u '5 6' '7 8' n '1 2' '3 4' \
	    '"a", "b"' 9,10 11,12 one '5 6 7' 'w 1' > t.txt
	# no -P: shm-import names a table source:line, as load() keys it
	run shm_import -k 2 t.txt
	status_is 0
	printf '%s\n' "$output" > i.txt
	for l in $(sed -n 's/^shmids,* //p' i.txt | tr ' ' '@'); do
		track "${l%%@*}"
	done
	grep -v -x -e u -e n i.txt > k.txt
	both "$COMMON"'
for f in ("t.txt", "i.txt"):
    d = shmids.load(f)
    assert list(d) == ["e", "t", "u", "n", "t.txt:14", "one", "w"], (f, list(d))
    assert len(d["e"]) == 0 and list(d["w"]) == [1.0]
    u = d["u"].tolist()
    assert u == [[5.0, 6.0], [7.0, 8.0]], u
    one = d["one"].tolist()
    assert one == [[5.0, 6.0, 7.0]], one
    if shmids.numpy:
        assert d["t"].dtype.names == ("p", "q"), d["t"].dtype
        assert d["t"]["q"].tolist() == [2.0, 4.0] and d["t"].shape == (2,)
        assert d["t.txt:14"].dtype.names == ("a", "b")
        assert d["t.txt:14"]["a"].tolist() == [9.0, 11.0]
    else:
        assert d["t"].tolist() == [[1.0, 2.0], [3.0, 4.0]]
# without their key lines: the segments names, source:line
d = shmids.load("k.txt")
assert list(d) == ["e", "t", "t.txt:8", "t.txt:11", "t.txt:14", "one", "w"], list(d)
print("ok")'
}
