#!/usr/bin/env bats
# The Fortran module (fortran/shmids.f90, README.md "Fortran") across
# languages: what Fortran writes, numpy, the C tools and R's order read,
# and back; both backends; Fortran's text forms through shm-import.
# Values are checked by numpy (the checker), never by the tool under
# test.  The Fortran side is tests/tools/ftool.f90; every test skips,
# saying why, where it was not built (no gfortran).

load helper

TOP=$BATS_TEST_DIRNAME/..
README=$TOP/README.md
FDIR=$TOP/${SHMIDS_BUILD:-build}/fortran
FTOOL=$FDIR/tests/tools/ftool
LIB=$TOP/${SHMIDS_BUILD:-build}/libshmids.so

need_fortran() {
	[ ! -f "$FDIR/skip" ] || skip "$(cat "$FDIR/skip")"
	[ -x "$FTOOL" ] || skip "$FTOOL not built (make)"
}
need_numpy() {
	PY=$(python_with numpy) || skip "no python3 with numpy (Debian: python3-numpy)"
	if nm -D "$LIB" 2>/dev/null | grep -q __asan_init; then
		skip "$LIB is built with AddressSanitizer: python cannot load it"
	fi
}
ftool() { timeout 60 "$FTOOL" "$@"; }
pyrun() {
	P=$P T=$T SHMIDS_LIB=$LIB PYTHONPATH=$TOP/python timeout 120 "$PY" "$@"
}

# The values ftool writes, for numpy: f(k) of element k of the matrix
# read row by row (tests/tools/ftool.f90).
FORMULA='
import numpy as np
def f(kind, rows, cols):
    k = np.arange(rows * cols, dtype=np.int64).reshape(rows, cols)
    if kind == "f64":
        return (k + 1).astype(np.float64) / np.float64(3)
    if kind == "f32":
        return (k + 1).astype(np.float32) / np.float32(3)
    if kind == "i64":
        return k * 1000003 - 2**40
    return (k * 7 - 1000).astype(np.int32)
dt = {"f64": np.float64, "f32": np.float32, "i64": np.int64, "i32": np.int32}
def same(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and \
        a.tobytes() == np.ascontiguousarray(b).tobytes()
'

# backend sysv|file: file segments in $T/segs, or System V.
backend() {
	if [ "$1" = file ]; then
		mkdir -p "$T/segs"
		export SHMIDS_DIR=$T/segs
	else
		unset SHMIDS_DIR
	fi
}

# fwrite KIND RANK NAME ROWS [COLS]: ftool write, tracked; the label.
fwrite() {
	local l
	l=$(ftool write "$1" "$2" "$P$3" "${@:4}") || return 1
	track "$l"
	printf '%s\n' "$l"
}

fortran_to_numpy() {
	local kind l1 l2 list=
	for kind in f64 f32 i64 i32; do
		l1=$(fwrite $kind 1 "$kind-v" 7)
		l2=$(fwrite $kind 2 "$kind-m" 3 4)
		list="$list$kind:1:7:1:$l1;$kind:2:3:4:$l2;"
	done
	run pyrun -c "$FORMULA"'
import sys, shmids
for item in sys.argv[1].rstrip(";").split(";"):
    kind, rank, rows, cols, label = item.split(":", 4)
    a = shmids.attach(label)
    want = f(kind, int(rows), int(cols))
    if rank == "1":
        want = want.reshape(-1)
    if not same(a, want):
        print(label, kind, rank, "numpy reads", a.dtype, a.shape, a.tolist()[:4])
    if rank == "2" and not a.flags.f_contiguous:
        print(label, "not in Fortran order")
    shmids.remove(label)
print("checked")' "$list"
	status_is 0
	is "$output" "checked"
}

@test "2.7: Fortran writes every kind as a(n) and a(rows, cols); numpy's attach() reads the matrix Fortran means, System V" {
	need_fortran
	need_numpy
	backend sysv
	fortran_to_numpy
}

@test "2.7: Fortran writes every kind as a(n) and a(rows, cols); numpy's attach() reads the matrix Fortran means, file segments" {
	need_fortran
	need_numpy
	backend file
	fortran_to_numpy
	is "$(ls -A "$T/segs")" "" "files left"
}

# fread_check KIND LABEL ROWS COLS TRANSPOSED: ftool read KIND 2 LABEL
# prints the matrix as meant; numpy compares it with f().
fread_check() {
	run ftool read "$1" 2 "$2"
	status_is 0
	is "$(sed -n 1p <<< "$output")" "$3 $4 $5" "shape and transposed"
	printf '%s\n' "$output" | sed 1d > "$T/read.txt"
	run pyrun -c "$FORMULA"'
import sys
kind, rows, cols = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
a = np.loadtxt(sys.argv[4], dtype=np.float64 if kind[0] == "f" else np.int64, ndmin=2)
want = f(kind, rows, cols)
if kind == "f32":
    # "%.8E" of a float32 is 9 digits: exact, read as float64 then cast
    a = a.astype(np.float32)
print("same" if np.array_equal(a.astype(want.dtype), want) and a.shape == want.shape else "differ: %r" % a[:2])' "$1" "$3" "$4" "$T/read.txt"
	status_is 0
	is "$output" "same"
}

numpy_to_fortran() {
	local kind out
	for kind in f64 f32 i64 i32; do
		out=$(pyrun -c "$FORMULA"'
import sys, shmids
kind = sys.argv[1]
print(shmids.create(sys.argv[2] + kind, f(kind, 3, 4)))' "$kind" "$P")
		track "$out"
		# row by row, as numpy made it: the transpose, said
		fread_check $kind "$out" 3 4 T
		# the same segment as rank 1: its 12 values in storage order
		run ftool read $kind 1 "$out"
		status_is 0
		is "$(sed -n 1p <<< "$output")" "12 1 F" "rank 1"
		# what Fortran wrote, Fortran reads as it wrote it
		out=$(fwrite $kind 2 "$kind-f" 3 4)
		fread_check $kind "$out" 3 4 F
	done
}

@test "2.7: numpy writes every kind as a row-major table; Fortran reads it as its transpose a(cols, rows), no copy, and says so; System V" {
	need_fortran
	need_numpy
	backend sysv
	numpy_to_fortran
}

@test "2.7: numpy writes every kind as a row-major table; Fortran reads it as its transpose, file segments" {
	need_fortran
	need_numpy
	backend file
	numpy_to_fortran
}

@test "6.1: a Fortran a(3, 4) expands to the 3 rows Fortran means (shm-expand; numpy's loadtxt checks), both backends" {
	need_fortran
	need_numpy
	local b l
	for b in sysv file; do
		backend $b
		l=$(fwrite f64 2 m 3 4)
		printf 'shmids %s\n' "$l" > "$T/m.shm"
		run shm_expand -d "$T/m.shm"
		status_is 0
		printf '%s\n' "$output" > "$T/m.txt"
		run pyrun -c "$FORMULA"'
import sys
a = np.loadtxt(sys.argv[1], ndmin=2)
print("same" if same(a, f("f64", 3, 4)) else "differ: %r" % a)' "$T/m.txt"
		is "$output" "same" "$b"
		gone "$l"
	done
}

@test "2.7: shm-import's table (row-major) read by Fortran, transposed; a 1-D segment as a(n, 1)" {
	need_fortran
	printf '1 2 3\n4 5 6\n' | shm_import -k 2 -P "$P" > "$T/t.shm"
	l=$(label_of "$T/t.shm")
	[ -n "$l" ] || l=$(awk '{ print $2 " " $3 }' "$T/t.shm")
	track "$l"
	run ftool read f64 2 "$l"
	status_is 0
	is "$output" "2 3 T
  1.00000000000000000E+000  2.00000000000000000E+000  3.00000000000000000E+000
  4.00000000000000000E+000  5.00000000000000000E+000  6.00000000000000000E+000"
	l=$(fwrite i32 1 v 3)
	run ftool read i32 2 "$l"
	status_is 0
	is "$output" "3 1 F
-1000
-993
-986"
}

@test "6: D exponents Fortran wrote ((D25.17), and d) are imported exactly; the expansion is canonical (numpy checks against the text)" {
	need_fortran
	need_numpy
	# 200 values, as the issue's example: one line, then rows of 3,
	# every other row with a lower-case d
	ftool dtext | sed '3~2s/D/d/g' > "$T/d.txt"
	grep -q '^x  0.33333333333333329D-20 ' "$T/d.txt"
	grep -q '^  0.*d+' "$T/d.txt"
	run --separate-stderr shm_import -P "$P" "$T/d.txt"
	status_is 0
	is "$stderr" "" "stderr"
	printf '%s\n' "$output" > "$T/d.shm"
	is "$(grep -c shmids "$T/d.shm")" 2 "reference lines"
	run shm_expand -d "$T/d.shm"
	status_is 0
	printf '%s\n' "$output" > "$T/d.out"
	head -n 1 "$T/d.out" | cut -c 1-40 > "$T/d.head"
	run pyrun -c "$FORMULA"'
import sys
def tok(t):
    return float(t.replace("D", "e").replace("d", "e"))
src = open(sys.argv[1]).read().split("\n")
out = open(sys.argv[2]).read().split("\n")
want = [tok(t) for t in src[0].split()[1:]]
got = np.array([float(t) for t in out[0].split()[1:] if t != "/"])
# a wrapped array: the continuation lines up to the "# rows" line
i = 1
while out[i - 1].rstrip().endswith("/"):
    got = np.append(got, [float(t) for t in out[i].split() if t != "/"])
    i += 1
rows_want = np.array([[tok(t) for t in l.split()] for l in src[2:32]])
rows_got = np.loadtxt(out[i + 1:i + 31], ndmin=2)
ok = same(got, np.array(want)) and same(rows_got, rows_want)
print("exact" if ok else "differ")
def short(t):
    r = repr(float(t))
    return r[:-2] if r.endswith(".0") else r
toks = [t for l in out for t in l.split()[1 if l.startswith("x") else 0:]
        if t not in ("/", "#", "rows")]
print("canonical" if all(t == short(t) for t in toks) else "not canonical: %r" % [t for t in toks if t != short(t)][:3])'  "$T/d.txt" "$T/d.out"
	status_is 0
	is "$output" "exact
canonical"
}

@test "6: repeat counts 60*0.0, nulls 3* and exponents without E are text, said once with how many; exit 0, lines unchanged" {
	printf '%s\n' 'a 1 2 3 60*0.0 4 5 6 7 8 9 10' 'b 1 2 3' \
	    '3*1.0 4 5' '1 2 3' '4 5 3*' 'c 0.1000000000000000+101 1 2' > "$T/r.txt"
	run --separate-stderr shm_import -k 2 -P "$P" "$T/r.txt"
	status_is 0
	like "$(sed -n 1p <<< "$output")" "a 1 2 3 60\*0.0 4 5 6 7 8 9 10" "a as text"
	like "$(sed -n 2p <<< "$output")" "b shmids *" "b converted"
	is "$(sed -n '3,$p' <<< "$output")" "$(sed -n '3,$p' "$T/r.txt")" "the rest as text"
	is "$stderr" "shm-import: $T/r.txt:1: 60*0.0 is a list-directed repeat count (Fortran's r*c), no value: the array left as text (write the values out); 4 such lines in all"
	# deep in a long array, read on threads in runs of lines
	awk 'BEGIN { printf "big"; for (i = 1; i <= 300000; i++) {
		printf " %d.5", i; if (i % 10 == 0) printf " /\n" }
	    print "7*2.0" }' > "$T/big.txt"
	run --separate-stderr shm_import -P "$P" "$T/big.txt"
	status_is 0
	is "$stderr" "shm-import: $T/big.txt:1: 7*2.0 is a list-directed repeat count (Fortran's r*c), no value: the array left as text (write the values out)"
	cmp -s "$T/big.txt" <(printf '%s\n' "$output") || { echo "big.txt changed" >&2; false; }
	printf 'x 3*\n' > "$T/n.txt"
	run --separate-stderr shm_import -k 1 -P "$P" "$T/n.txt"
	status_is 0
	is "$output" "x 3*"
	is "$stderr" "shm-import: $T/n.txt:1: 3* is a list-directed null value (Fortran's r*), no value: the array left as text (write the values out)"
}

@test "2.2: a Fortran writer killed mid-fill leaves a dead segment: Fortran's open says so (stat=), shm-rm removes it" {
	need_fortran
	local l
	l=$(bg fhang "$FTOOL" hang f64 "${P}dead" 1000000)
	track "$l"
	kill -9 "$(tail -n 1 "$T/.pids")"
	wait "$(tail -n 1 "$T/.pids")" 2>/dev/null || true
	run ftool open "$l" stat
	status_is 0
	like "$(sed -n 1p <<< "$output")" "stat [1-9]* F" "stat"
	like "$(sed -n 2p <<< "$output")" "shmids_open: $l: *died before sealing*" "errmsg"
	run shm_rm "$l"
	status_is 0
	gone "$l"
}

@test "2.3: stat= and errmsg= as Fortran's intrinsics have them; without stat=, error stop with the message" {
	need_fortran
	local l
	run ftool open "99999999 ${P}none" stat
	status_is 0
	is "$output" "stat 2 F
shmids_open: 99999999 ${P}none: no such segment (removed, or never made)"
	run --separate-stderr env GFORTRAN_ERROR_BACKTRACE=0 "$FTOOL" open "99999999 ${P}none"
	status_is 1
	is "$output" ""
	like "$stderr" "ERROR STOP shmids_open: 99999999 ${P}none: no such segment*"
	# a segment of another type: EPROTOTYPE, in the library's words
	l=$(fwrite i32 1 v 5)
	run ftool open "$l" stat
	like "$(sed -n 2p <<< "$output")" "shmids_open: $l: segment * holds 5 i32 values, not the type asked for"
}

@test "1: the paper's calls from Fortran (shm_create, shm_close) make a raw segment C reads" {
	need_fortran
	local l
	l=$(ftool paper "${P}paper" 5)
	track "$l"
	like "$l" "* ${P}paper"
	printf 'b shmids %s\n' "$l" | shm_expand > "$T/b.txt"
	is "$(cat "$T/b.txt")" "b 97 98 99 100 101"
}

@test "6: install: make install puts the module where pkg-config says; gfortran builds the README's Fortran program with it, and it runs" {
	need_fortran
	local p=$T/p l san
	run --separate-stderr make -s --no-print-directory -C "$TOP" \
	    B="${SHMIDS_BUILD:-build}" LDCONFIG=true PYTHON=/nonexistent \
	    install PREFIX="$p"
	status_is 0
	ls "$p"/lib/fortran/gfortran-mod-*/shmids.mod > /dev/null
	[ -f "$p/share/shmids/fortran/shmids.f90" ] && [ -f "$p/lib/libshmids-fortran.a" ]
	mkdir work && cd work
	readme_block "fortran" > hello.f90
	[ -s hello.f90 ] || { echo "README.md: no Fortran block" >&2; false; }
	grep -Fqx '    gfortran -o hello hello.f90 $(pkg-config --cflags --libs shmids-fortran)' \
	    "$README" || { echo "README: no Fortran compile line" >&2; false; }
	# a sanitizer build's library needs its runtime (as install.bats)
	san=
	! nm -D "$p/lib/libshmids.so.1" 2>/dev/null | grep -q __asan_init ||
	    san="-fsanitize=address,undefined"
	run env PKG_CONFIG_PATH="$p/lib/pkgconfig" sh -c \
	    'gfortran -o hello hello.f90 $(pkg-config --cflags --libs shmids-fortran) -Wl,-rpath,$0 $1' "$p/lib" "$san"
	status_is 0
	# A main program's allocatables live till the end (Fortran: saved),
	# which LeakSanitizer would call a leak under make check-asan.
	run env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" ./hello
	status_is 0
	l=$(sed -n 's/^coeff shmids //p' <<< "$output")
	track "$l"
	like "$l" "[0-9]* coeff"
	is "$(sed -n 2p <<< "$output")" "read back: 100 values, sum 4950.0"
	gone "$l"
	run --separate-stderr make -s --no-print-directory -C "$TOP" \
	    B="${SHMIDS_BUILD:-build}" LDCONFIG=true PYTHON=/nonexistent \
	    uninstall PREFIX="$p"
	is "$(find "$p" ! -type d)" "" "left after uninstall"
}

@test "2.7: make demo's Fortran part: the 50x50x50 field from Fortran, its dims line, read by simread as the C writer's; numpy's table read by freadtable; nothing left" {
	need_fortran
	run --separate-stderr env B="$TOP/${SHMIDS_BUILD:-build}" sh "$TOP/examples/fortran-demo.sh"
	status_is 0
	grep -qx 'dims 50 50 50' <<< "$output" || { echo "no dims line" >&2; false; }
	grep -qx 'u shmids [0-9]* simdat-u' <<< "$output" || { echo "no reference line" >&2; false; }
	grep -qx "same answer as the C writer's" <<< "$output" || { echo "answers differ" >&2; false; }
	if python_with numpy > /dev/null; then
		grep -q '^u\[50, 50, 50\]: min ' <<< "$output" || { echo "python" >&2; false; }
		grep -qx 'column sums 12.000000000000000 15.000000000000000 18.000000000000000 21.000000000000000' \
		    <<< "$output" || { echo "freadtable" >&2; false; }
	fi
	is "$(grep -c "^removed '" <<< "$output")" "$(grep -c '^u* *shmids [0-9]' <<< "$output")" "removed"
}

@test "2.7: a(1, n), a(n, 1) and a(0, n) (version 2: either order is the same bytes) read back as written, never transposed" {
	need_fortran
	local l
	l=$(fwrite i32 2 r 1 4)
	run ftool read i32 2 "$l"
	status_is 0
	is "$output" "1 4 F
-1000 -993 -986 -979"
	l=$(fwrite i32 2 c 3 1)
	run ftool read i32 2 "$l"
	is "$output" "3 1 F
-1000
-993
-986"
	l=$(fwrite f64 2 z 0 3)
	run ftool read f64 2 "$l"
	status_is 0
	is "$output" "0 3 F"
}

@test "2.2: the end of a Fortran program seals what it never sealed, ERROR STOP too (the module cannot tell it from STOP); the module's own error stop removes it, said on stderr in one line" {
	need_fortran
	local l how
	for how in stop errorstop; do
		run --separate-stderr env GFORTRAN_ERROR_BACKTRACE=0 "$FTOOL" end "$how" "${P}$how" 3
		l=$output
		track "$l"
		like "$l" "* ${P}$how"
		[ "$how" = stop ] && status_is 0 || status_is 1
		run shm_expand <<< "v shmids $l"
		status_is 0
		is "$output" "v 1 1 1" "$how: sealed"
	done
	run --separate-stderr env GFORTRAN_ERROR_BACKTRACE=0 "$FTOOL" end fail "${P}fail" 3
	status_is 1
	l=$output
	track "$l"
	is "$stderr" "shmids: $l: removed, never sealed: the program ends by an uncaught error
ERROR STOP shmids_open: 2147483646 ${P}fail-none: no such segment (removed, or never made)"
	gone "$l"
}
