#!/usr/bin/env bats
# The Fortran module's streams (fortran/shmids.f90; format-spec.md
# section 10, message references 5.1) across languages: a Fortran
# writer read by numpy, a numpy writer read by Fortran in place, the
# same reference lines.  The Fortran side is tests/tools/fstream.f90;
# every test skips, saying why, where it was not built (no gfortran).

load helper

TOP=$BATS_TEST_DIRNAME/..
FDIR=$TOP/${SHMIDS_BUILD:-build}/fortran
FSTREAM=$FDIR/tests/tools/fstream
LIB=$TOP/${SHMIDS_BUILD:-build}/libshmids.so
ST=$TOOLS/streamtool

need_fortran() {
	[ ! -f "$FDIR/skip" ] || skip "$(cat "$FDIR/skip")"
	[ -x "$FSTREAM" ] || skip "$FSTREAM not built (make)"
}
need_numpy() {
	PY=$(python_with numpy) || skip "no python3 with numpy (Debian: python3-numpy)"
	if nm -D "$LIB" 2>/dev/null | grep -q __asan_init; then
		skip "$LIB is built with AddressSanitizer: python cannot load it"
	fi
}
pyrun() {
	P=$P T=$T SHMIDS_LIB=$LIB PYTHONPATH=$TOP/python timeout 120 "$PY" "$@"
}

@test "10.3, 5.1: Fortran: shmids_publish() of 40 matrices, read by numpy as it goes; the same reference lines; then removed" {
	need_fortran
	need_numpy
	local l
	l=$(bg w timeout 60 "$FSTREAM" write "${P}f" 40)
	track "$l"
	run pyrun -c '
import sys, numpy, shmids
f = shmids.follow(sys.argv[1])
bad = 0
for a in f:
    k = f.seq
    want = numpy.array([[k + i + 10 * j for j in range(1, 5)] for i in range(1, 4)], dtype="f8")
    bad += a.shape != (3, 4) or not a.flags.f_contiguous or not (a == want).all()
    print("u shmids %s %d" % (f.label, k))
print("bad", bad)' "$l"
	status_is 0
	is "${lines[40]}" "bad 0" "values"
	for i in $(seq 5); do
		grep -q "^u shmids " "$T/w.out" && break
		sleep 0.1
	done
	is "$(sed 1d "$T/w.out")" "$(printf '%s\n' "${lines[@]:0:40}")" \
	    "Fortran's reference lines and numpy's"
	gone_stream "$l"
}

@test "10.3, 2.7: Fortran: shmids_next() reads numpy's messages in place: a C-order table as its transpose, an F-order one as meant; the end" {
	need_fortran
	need_numpy
	local l
	l=$(pyrun -c '
import os, numpy, shmids
w = shmids.stream(os.environ["P"] + "p", 4, 200)
w.publish(numpy.arange(12.0).reshape(3, 4))
w.publish(numpy.asfortranarray(numpy.arange(12.0).reshape(3, 4)))
w.publish(numpy.arange(3.0).reshape(1, 3))
w.close()
print(w.label)')
	track "$l"
	run timeout 60 "$FSTREAM" read "$l"
	status_is 0
	is "$output" $'0 4 3 T 11.0 66.0\n1 3 4 F 11.0 66.0\n2 1 3 F 2.0 3.0\nend' "messages"
	gone_stream "$l"
}

@test "10.8: Fortran: a message of another type: stat= EPROTOTYPE and errmsg= saying which; a stream that is not there stops the program" {
	need_fortran
	need_numpy
	local l
	l=$(pyrun -c '
import os, numpy, shmids
w = shmids.stream(os.environ["P"] + "t", 4, 200)
w.publish(numpy.arange(3.0))
w.close()
print(w.label)')
	track "$l"
	run timeout 60 "$FSTREAM" wrongtype "$l"
	status_is 0
	is "$output" "91 F shmids_next: $l: message 0 holds f64, not i32: read it with an array of its type"$'\nend' "words"
	gone_stream "$l"
	run timeout 60 "$FSTREAM" read "$l"
	status_is 1
	like "$output" "*ERROR STOP shmids_follow: $l: no such segment*" "error stop"
}
