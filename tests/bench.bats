#!/usr/bin/env bats
# The bench's own programs on small inputs (issue 31's make bench): the
# 3-stage pipeline of build/bench/table1 hands its array on through
# segments (format-spec.md 2, 2.6: file segments; 5: the reference
# lines between the stages), pipes and .npy files, checks the sum and
# leaves nothing behind; build/bench/import_best, the hand-written best
# shm-import is timed against, reads the values shm-import reads
# (format-spec.md 6); build/bench/stream (issue 43) moves checked
# messages through every contender, a segment a step among them
# (format-spec.md 2, 2.2, 2.3), and leaves no segment, message queue,
# iceoryx daemon or file behind.  The timings themselves are make
# bench's.

load helper

B1=$BATS_TEST_DIRNAME/../${SHMIDS_BUILD:-build}/bench/table1
BEST=$BATS_TEST_DIRNAME/../${SHMIDS_BUILD:-build}/bench/import_best
STREAM=$BATS_TEST_DIRNAME/../${SHMIDS_BUILD:-build}/bench/stream

@test "2, 2.6, 5: bench: table1 pipeline hands 10^4 doubles on in every row, checks the sum, leaves nothing" {
	[ -x "$B1" ] || skip "build/bench/table1 not built"
	run -0 env BENCH_PREFIX="$P" BENCH_PIPE_N=10000 BENCH_RUNS=1 \
	    BENCH_BIN="$BIN" TMPDIR="$T" "$B1" pipeline
	[[ $output == *"target 31.pipeline "* ]]
	for r in sysv file-4k text binary npy; do
		grep -Eq "^  $r +[-0-9A-Za-z]+ +[0-9.]+ +[0-9.]+ " <<< "$output"
	done
	# as root file-2m runs on a private tmpfs (unless its labels would
	# be too long in $T), else it says what it needs
	if [ "$(id -u)" = 0 ]; then
		grep -Eq "^  file-2m +([0-9A-Za-z-]+ +[0-9.]+ |not measured: .*labels)" <<< "$output"
	else
		grep -q "^  file-2m  not measured: needs root" <<< "$output"
	fi
	run -0 "$BIN/shm-ls" -N "$P*"
	[ -z "$output" ]
	[ -z "$(ls /dev/shm | grep -F "$P")" ]
	[ -z "$(ls -A "$T" | grep -F "$P")" ]
}

@test "6: bench: import_best reads shm-expand's lines and one long line as shm-import does" {
	[ -x "$BEST" ] || skip "build/bench/import_best not built (make bench)"
	awk 'BEGIN { printf "x"; for (i = 0; i < 1000; i++)
	    printf " %.17g", (i + 1) / 3; print "" }' > long.txt
	"$BIN/shm-import" -k 1 -P "${P}i" long.txt > ref.txt
	"$BIN/shm-expand" ref.txt > many.txt
	[ "$(wc -l < many.txt)" -gt 100 ]
	for f in long.txt many.txt; do
		run -0 env BENCH_PREFIX="$P" "$BEST" -n 1000 "$f"
		[[ $output == "x shmids "* ]]
		echo "$output" > best.txt
		cmp <("$BIN/shm-expand" ref.txt) <("$BIN/shm-expand" best.txt)
		"$BIN/shm-rm" -s 0 -N "${P}b"
	done
	# a count that is not the file's is an error, and leaves nothing
	run -1 env BENCH_PREFIX="$P" "$BEST" -n 1001 many.txt
	[[ $output == *"value 1001: bad or missing"* ]]
	run -1 env BENCH_PREFIX="$P" "$BEST" -n 999 many.txt
	[[ $output == *"more than 999 values"* ]]
	run -2 "$BEST" many.txt
}

@test "6: bench: import_best reads a pipe, as shm-import does, told the count" {
	[ -x "$BEST" ] || skip "build/bench/import_best not built (make bench)"
	awk 'BEGIN { printf "x"; for (i = 0; i < 100000; i++)
	    printf " %.17g", (i + 1) / 7; print "" }' > long.txt
	"$BIN/shm-import" -k 1 -P "${P}i" long.txt > ref.txt
	"$BIN/shm-expand" ref.txt > many.txt
	# a pipe; a pipe, its text kept (-k); a file read by blocks (-r)
	for f in long.txt many.txt; do
		for how in 'cat "$1" | "$2" -n 100000' \
		    'cat "$1" | "$2" -k -n 100000' '"$2" -r -n 100000 "$1"'; do
			run -0 env BENCH_PREFIX="$P" TMPDIR="$T" sh -c "$how" \
			    sh "$f" "$BEST"
			[[ $output == "x shmids "* ]]
			echo "$output" > best.txt
			cmp <("$BIN/shm-expand" ref.txt) \
			    <("$BIN/shm-expand" best.txt)
			"$BIN/shm-rm" -s 0 -N "${P}b"
		done
	done
	# -k's file was its own, gone from the directory at once
	[ -z "$(ls -A "$T" | grep -F import_best)" ]
	run -1 env BENCH_PREFIX="$P" sh -c 'cat "$1" | "$2" -n 100001' sh \
	    many.txt "$BEST"
	[[ $output == *"stdin: 100000 values, not 100001"* ]]
	run -1 env BENCH_PREFIX="$P" sh -c 'cat "$1" | "$2" -n 99999' sh \
	    many.txt "$BEST"
	[[ $output == *"more than 99999"* ]]
	run -0 "$BIN/shm-ls" -N "${P}b"
	[ -z "$output" ]
}

# The message queues of this IPC namespace, as root (a mqueue file
# system mounted in a mount namespace of its own); else nothing.
queues() {
	[ "$(id -u)" = 0 ] && mkdir -p "$T/mq" &&
	    unshare -m sh -c 'mount -t mqueue none "$1" && ls -A "$1"' sh \
	    "$T/mq" 2>/dev/null
}

@test "2, 2.2, 2.3: bench: stream moves checked messages through every contender, prints rows and targets, leaves nothing" {
	[ -x "$STREAM" ] || skip "build/bench/stream not built"
	# with iceoryx where make bench-stream built it, and not stale
	prog=$STREAM
	if [ -x "$STREAM-iox" ] &&
	    [ -z "$(find "$STREAM" -newer "$STREAM-iox")" ]; then
		prog=$STREAM-iox
	fi
	iox_before=$(ls /dev/shm/iceoryx_mgmt /tmp/roudi 2>/dev/null || true)
	run -0 env BENCH_PREFIX="$P" BENCH_QUICK=1 BENCH_STREAM_SECONDS=0.01 \
	    BENCH_STREAM_CAP=0.2 BENCH_STREAM_ROUNDTRIPS=200 \
	    BENCH_STREAM_STEPS=5 TMPDIR="$T" timeout 300 "$prog"
	# every block in every pin mode this machine has (two CPUs: 3)
	np=$(grep -c '^One way, 64 B messages, ' <<< "$output")
	[ "$np" -ge 2 ]
	[ "$(grep -c '^One way, ' <<< "$output")" -eq $((4 * np)) ]
	[ "$(grep -c '^Ping-pong, ' <<< "$output")" -eq $((2 * np)) ]
	[ "$(grep -c '^The shmemq case, ' <<< "$output")" -eq "$np" ]
	[ "$(grep -c '^The live case, ' <<< "$output")" -eq "$np" ]
	# the baselines and the stream in every block whose size they take
	num='[0-9.]+[kMG]? \[ *[0-9.]+[kMG]?, +[0-9.]+[kMG]?\]'
	for r in "pipe" "sem pair" "ring \(mutex\)" "ring \(adaptive\)" \
	    "segment/step" "shmids stream"; do
		[ "$(grep -Ec "^  $r +$num" <<< "$output")" -eq $((8 * np)) ]
	done
	[ "$(grep -Ec "^  POSIX mq +$num" <<< "$output")" -ge $((5 * np)) ]
	[ "$(grep -Ec "^  floor \(1 process\) +$num" <<< "$output")" -eq "$np" ]
	# iceoryx measured everywhere, or each row says why not
	if [ "$(grep -Ec "^  iceoryx +skipped: " <<< "$output")" -ne \
	    $((8 * np)) ]; then
		[ "$(grep -Ec "^  iceoryx +$num" <<< "$output")" -eq $((8 * np)) ]
	fi
	[[ $output != *FAILED* ]]
	# the targets, one line each
	[ "$(grep -Ec '^target 43\.[a-z0-9-]+ .*(: .* (met|not met)|: n/a \(.*\))$' <<< "$output")" -eq 7 ]
	# nothing left: segments, queues, iceoryx's daemon and files
	run -0 "$BIN/shm-ls" -N "$P*"
	[ -z "$output" ]
	[ -z "$(queues | grep -F "$P")" ]
	[ -z "$(ls -A /dev/shm /tmp "$T" | grep -F "$P")" ]
	pid=$(sed -n 's/.*iox-roudi started, pid \([0-9]*\).*/\1/p' <<< "$output")
	if [ -n "$pid" ]; then
		run -1 kill -0 "$pid"
		[ -n "$iox_before" ] || [ -z "$(ls /dev/shm/iceoryx_mgmt /tmp/roudi 2>/dev/null || true)" ]
	fi
}
