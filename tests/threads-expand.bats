#!/usr/bin/env bats
# shm-expand on several threads (format-spec.md 6.2, issue 22): an
# array of 4 MiB or more is formatted on the CPUs the process may use,
# and the output is the same bytes as with SHMIDS_THREADS=1, for every
# type, option, layout and backend.  Arrays just over that size, of
# random values with the edge ones strewn in (tests/tools/mixed.c), are
# expanded with SHMIDS_THREADS=1, unset (all CPUs), 2, 3 and 7 (at
# most the CPUs: tests/unit/emitpar_test.c runs more threads than
# CPUs).  Signals and write errors end a run as they do on one thread.

load helper

MIXED=$TOOLS/mixed
# Just over 4 MiB of each type, and not a whole number of chunks.
F64=530001
F32=1060001
RAW=4200001

# mkmixed NAME TYPE COUNT SEED [COLS]: tests/tools/mixed's segment (a
# file segment where SHMIDS_DIR is set), removed in teardown; its label.
mkmixed() {
	local out
	out=$(timeout 60 "$MIXED" "$P$1" "${@:2}") ||
	    { echo "mixed $*: $out" >&2; return 1; }
	case $out in
	[0-9]*|/*) track "$out"; printf '%s\n' "$out" ;;
	*) echo "mixed $*: $out" >&2; return 1 ;;
	esac
}

# expand THREADS ARGS...: shm-expand ARGS < in > out.THREADS, stderr in
# err.THREADS; THREADS "-" leaves SHMIDS_THREADS unset.  Sets st.
expand() {
	local t=$1
	shift
	st=0
	if [ "$t" = - ]; then
		env -u SHMIDS_THREADS timeout 60 "$BIN/shm-expand" "$@" \
		    < in > "out.$t" 2> "err.$t" || st=$?
	else
		SHMIDS_THREADS=$t timeout 60 "$BIN/shm-expand" "$@" \
		    < in > "out.$t" 2> "err.$t" || st=$?
	fi
}

# threads_same ARGS...: shm-expand ARGS < in writes the same bytes,
# diagnostics and exit status with SHMIDS_THREADS unset, 2, 3 and 7 as
# with 1; and some output.
threads_same() {
	local t st1
	expand 1 "$@"
	st1=$st
	[ -s out.1 ] || { echo "shm-expand $*: no output" >&2; return 1; }
	for t in - 2 3 7; do
		expand "$t" "$@"
		is "$st" "$st1" "exit status, SHMIDS_THREADS=$t shm-expand $*" ||
		    return 1
		cmp -s out.1 "out.$t" || {
			echo "SHMIDS_THREADS=$t shm-expand $*: not the bytes of" \
			    "one thread: $(cmp out.1 "out.$t" 2>&1)" >&2
			return 1
		}
		same_file err.1 "err.$t" || return 1
	done
}

# refs: reference lines in, one for each type, leads of every kind.
refs() {
	local f64 f32 i64 i32 raw
	f64=$(mkmixed f64 f64 $F64 1) &&
	f32=$(mkmixed f32 f32 $F32 2) &&
	i64=$(mkmixed i64 i64 $F64 3) &&
	i32=$(mkmixed i32 i32 $F32 4) &&
	raw=$(mkmixed raw raw $RAW 5) || return 1
	{
		printf 'before\n'
		printf 'a shmids %s\n' "$f64"
		printf '  b shmids %s\n' "$f32"
		printf '\tlong_field_name_for_a_wide_indent shmids %s\n' "$i64"
		printf 'd shmids %s\n' "$i32"
		printf 'e shmids %s\n' "$raw"
		printf 'after\n'
	} > in
}

@test "6.2: every type: the same bytes on 1 thread and on all CPUs, 2, 3, 7" {
	refs
	threads_same
	# the threads changed nothing of shm-expand's own text either
	[ "$(head -n 1 out.1)" = before ] && [ "$(tail -n 1 out.1)" = after ]
	[ "$(wc -l < out.1)" -gt 100000 ]
}

@test "6.2: -c: widths 0 (one line), 1, 7, 25 and 81: the same bytes on every thread count" {
	local f64 i32 c
	f64=$(mkmixed f64 f64 $F64 11)
	i32=$(mkmixed i32 i32 $F32 12)
	printf 'x shmids %s\n  y shmids %s\n' "$f64" "$i32" > in
	for c in 0 1 7 25 81; do
		threads_same -c "$c"
	done
}

@test "6.2: -F: every style of every type, and nan=nan: the same bytes on every thread count" {
	local l t s
	for t in f64 f32 i64 i32 raw; do
		case $t in
		f64|i64) l=$(mkmixed "$t" "$t" $F64 21) ;;
		f32|i32) l=$(mkmixed "$t" "$t" $F32 22) ;;
		raw) l=$(mkmixed "$t" "$t" $RAW 23) ;;
		esac
		printf 'v shmids %s\n' "$l" > in
		case $t in
		f64|f32) set -- "$t=short" "$t=exp" "$t=hex" nan=nan ;;
		*) set -- "$t=dec" "$t=hex" ;;
		esac
		for s in "$@"; do
			threads_same -F "$s"
		done
	done
	# -F nan=nan with exp: two options at once
	threads_same -F f32=exp -F nan=nan
}

@test "6.2: -t: a raw segment read as every type, on every thread count" {
	local raw t
	raw=$(mkmixed raw raw 4240000 31)
	printf 'r shmids %s\n' "$raw" > in
	for t in f64 f32 i64 i32 raw; do
		threads_same -t "$t"
	done
}

@test "6.2: -r: arrays and tables, values only: the same bytes on every thread count" {
	local f64 i32 tab
	f64=$(mkmixed f64 f64 $F64 41)
	i32=$(mkmixed i32 i32 $F32 42)
	tab=$(mkmixed tab f64 $F64 43 7)
	printf 'x shmids %s\n  y shmids %s\nshmids, %s\n' "$f64" "$i32" \
	    "$tab" > in
	threads_same -r
	is "$(wc -l < out.1)" $((F64 / 7 + 2)) "lines: two arrays and the rows"
	threads_same -r -F f64=hex
}

@test "6.2: tables: space, tab and comma rows, leads, 1 to 1000 columns: the same bytes on every thread count" {
	local a b c d
	a=$(mkmixed a f64 $F64 51 6)
	b=$(mkmixed b f64 $F64 52 1)
	c=$(mkmixed c f64 $F64 53 1000)
	d=$(mkmixed d i32 $F32 54 11)
	printf 'shmids %s\n  shmids\t%s\nshmids, %s\n\t shmids %s\n' \
	    "$a" "$b" "$c" "$d" > in
	threads_same
	threads_same -F f64=exp -F i32=hex
	threads_same -c 0
}

@test "6.2: CRLF lines, a last line without newline, a bare CR at the end: the same bytes on every thread count" {
	local a t
	a=$(mkmixed a f64 $F64 61)
	t=$(mkmixed t f64 $F64 62 9)
	printf 'x shmids %s\r\nshmids, %s\r\n  y shmids %s' "$a" "$t" "$a" > in
	threads_same
	[ "$(tail -c 1 out.1)" != "$(printf '\n')" ]
	grep -q $'\r$' out.1
	threads_same -c 0
	printf 'shmids %s\r' "$t" > in
	threads_same
	is "$(tail -c 1 out.1 | od -An -c | tr -d ' ')" '\r' "the last row ends in the bare CR"
	is "$(grep -vc $'\r$' out.1)" 0 "every row ends CR(LF)"
}

@test "6.2: over 4 KiB of leading blanks and a long field: the indent and first line as on one thread" {
	local a
	a=$(mkmixed a i32 $F32 71)
	{
		head -c 5000 /dev/zero | tr '\0' ' '
		head -c 300 /dev/zero | tr '\0' f
		printf ' shmids %s\n' "$a"
	} > in
	threads_same -c 20000
	threads_same -c 0
}

@test "6.2: file segments (SHMIDS_DIR): arrays and tables, the same bytes on every thread count" {
	local a b t
	mkdir "$T/d"
	a=$(SHMIDS_DIR=$T/d mkmixed a f64 $F64 81)
	b=$(SHMIDS_DIR=$T/d mkmixed b i32 $F32 82)
	t=$(SHMIDS_DIR=$T/d mkmixed t f32 $F32 83 3)
	[[ $a == /* && $t == /* ]] || { echo "not file segments: $a $t" >&2; false; }
	printf 'a shmids %s\n b shmids %s\nshmids\t%s\n' "$a" "$b" "$t" > in
	threads_same
	threads_same -c 0 -F f64=hex
	threads_same -r
}

@test "6.2: -d and -f: the same bytes as one thread, the big arrays removed, the others kept" {
	local a b s
	a=$(mkmixed a f64 $F64 91)
	b=$(mkmixed b f64 $F64 92)
	s=$(mkseg s f64 10)
	printf 'a shmids %s\nb shmids %s\ns shmids %s\n' "$a" "$b" "$s" > in
	threads_same -f a,s
	expand 1
	mv out.1 expected
	expand - -d
	is "$st" 0 "exit status"
	same_file expected out.-
	gone "$a"
	gone "$b"
	gone "$s"
}

@test "6.2: a malformed SHMIDS_THREADS: usage error, exit 2, naming the variable and the form" {
	local v
	: > in
	for v in 0 257 x -1 ' 2' '2 ' +2 1e1 99999999999999999999 0x2; do
		run --separate-stderr env SHMIDS_THREADS="$v" \
		    timeout 30 "$BIN/shm-expand" < in
		is "$status" 2 "exit status, SHMIDS_THREADS='$v'"
		is "$output" "" "stdout, SHMIDS_THREADS='$v'"
		is "${stderr%%$'\n'*}" "shm-expand: invalid SHMIDS_THREADS '$v' (expected a number of threads from 1 to 256, or unset for every CPU)"
		like "$stderr" "*usage: shm-expand *"
	done
	for v in 1 2 256 ''; do
		printf 'x 1 2\n' > in
		run --separate-stderr env SHMIDS_THREADS="$v" \
		    timeout 30 "$BIN/shm-expand" < in
		status_is 0
		is "$output" "x 1 2"
	done
	# --help still helps
	SHMIDS_THREADS=x run timeout 30 "$BIN/shm-expand" --help
	status_is 0
}

@test "6.2: shm-expand -d | head -c 100 on threads: killed by SIGPIPE (141), or EPIPE when ignored, as on one thread; nothing removed" {
	local a t
	a=$(mkmixed a f64 $F64 101)
	printf 'x shmids %s\n' "$a" > in
	for t in 1 2; do
		run env SHMIDS_THREADS=$t bash -c \
		    '"$0" -d < in 2> err | head -c 100 > /dev/null
		    echo "${PIPESTATUS[0]}"' "$BIN/shm-expand"
		is "$output" 141 "exit status, SHMIDS_THREADS=$t"
		is "$(cat err)" "" "stderr, SHMIDS_THREADS=$t"
		exists "$a"
		run env SHMIDS_THREADS=$t bash -c 'trap "" PIPE
		    "$0" -d < in 2> err | head -c 100 > /dev/null
		    echo "${PIPESTATUS[0]}"' "$BIN/shm-expand"
		is "$output" 1 "exit status, SIGPIPE ignored, SHMIDS_THREADS=$t"
		is "$(cat err)" "shm-expand: stdout: Broken pipe"
		exists "$a"
	done
}

# killed SIG STATUS ARGS...: shm-expand -d on in (a big array), stopped
# mid-run by SIG once its first bytes are read: it ends with STATUS,
# says nothing, removes nothing.
killed() {
	local sig=$1 want=$2 pid
	shift 2
	rm -f pipe
	mkfifo pipe
	env --default-signal=INT "$BIN/shm-expand" -d < in > pipe 2> err 3>&- &
	pid=$!
	echo "$pid" >> "$T/.pids"
	exec 5< pipe
	head -c 1000 <&5 > /dev/null
	kill -s "$sig" "$pid"
	cat <&5 > /dev/null
	exec 5<&-
	st=0
	wait "$pid" || st=$?
	is "$st" "$want" "exit status after SIG$sig"
	is "$(cat err)" "" "stderr after SIG$sig"
}

@test "6.2: SIGTERM and SIGINT mid-run on threads: the run ends at once, nothing removed, no thread left" {
	local a
	env --default-signal=INT true 2> /dev/null ||
	    skip "env --default-signal missing (coreutils 8.31)"
	a=$(mkmixed a f64 $F64 111)
	printf 'x shmids %s\nx shmids %s\n' "$a" "$a" > in
	killed TERM 143
	exists "$a"
	killed INT 130
	exists "$a"
	SHMIDS_THREADS=1 killed TERM 143
	exists "$a"
}

# truncated_under LABEL COMMAND...: COMMAND expands a reference to the
# file segment LABEL into a pipe, which is truncated to one page once
# 1000 bytes came: exit 1, the message, the file kept.
truncated_under() {
	local l=$1 st=0
	shift
	printf 'x shmids %s\n' "$l" > in
	rm -f pipe
	mkfifo pipe
	"$@" < in > pipe 2> err 3>&- &
	echo $! >> "$T/.pids"
	exec 5< pipe
	head -c 1000 <&5 > /dev/null
	truncate -s 4096 "${l%% *}"
	cat <&5 > /dev/null
	exec 5<&-
	wait $! || st=$?
	is "$st" 1 "exit status, $*"
	is "$(cat err)" "shm-expand: a file segment was truncated while being read"
	[ -e "${l%% *}" ]
}

@test "6.2: a file segment truncated under a threaded shm-expand: its message, exit 1 (a fault on any thread), nothing removed" {
	local l i
	mkdir "$T/d"
	for i in 1 2 3; do
		l=$(SHMIDS_DIR=$T/d mkmixed "t$i" f64 1000000 "$i")
		truncated_under "$l" "$BIN/shm-expand" -d
	done
}

# The first fault's message is slow to write (tests/preload/slowstderr.c):
# meanwhile the other thread meets the lost pages too, a second SIGBUS.
@test "6.2: a file segment truncated under a threaded shm-expand, two threads faulting: one message, exit 1, not killed by the second fault" {
	local so=$BATS_TEST_DIRNAME/../${SHMIDS_BUILD:-build}/tests/preload/slowstderr.so
	local l t
	[ "$(nproc)" -gt 1 ] || skip "one CPU: no second thread"
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
	mkdir "$T/d"
	for t in - 1; do
		l=$(SHMIDS_DIR=$T/d mkmixed "t$t" f64 1000000 7)
		if [ "$t" = - ]; then
			truncated_under "$l" env LD_PRELOAD="$so" \
			    "$BIN/shm-expand"
		else
			truncated_under "$l" env SHMIDS_THREADS=1 \
			    LD_PRELOAD="$so" "$BIN/shm-expand"
		fi
	done
}

@test "6.2: a full disk (/dev/full) on threads: the same message and exit status as on one thread" {
	local a t
	[ -w /dev/full ] || skip "no /dev/full"
	a=$(mkmixed a f64 $F64 121)
	printf 'x shmids %s\n' "$a" > in
	for t in 1 2; do
		st=0
		SHMIDS_THREADS=$t timeout 30 "$BIN/shm-expand" -d < in \
		    > /dev/full 2> err || st=$?
		is "$st" 1 "exit status, SHMIDS_THREADS=$t"
		is "$(cat err)" "shm-expand: stdout: No space left on device"
		exists "$a"
	done
}

@test "6.2: memory: the threads add a few MiB to shm-expand's peak RSS, whatever the array's size" {
	local a one many
	a=$(mkmixed a f64 2000000 131)
	printf 'x shmids %s\n' "$a" > in
	SHMIDS_THREADS=1 runio in "$SHMTOOL" maxrss "$BIN/shm-expand"
	status_is 0
	one=$(tail -n 1 out)
	runio in "$SHMTOOL" maxrss "$BIN/shm-expand"
	status_is 0
	many=$(tail -n 1 out)
	# the segment's 16 MB are in both; the ring is 1 MiB a thread
	[ "$many" -lt $((one + 16384)) ] ||
	    { echo "peak RSS: $one kB on one thread, $many kB on all" >&2; false; }
}
