#!/usr/bin/env bats
# The bench's own programs on small inputs (issue 31's make bench): the
# 3-stage pipeline of build/bench/table1 hands its array on through
# segments (format-spec.md 2, 2.6: file segments; 5: the reference
# lines between the stages), pipes and .npy files, checks the sum and
# leaves nothing behind; build/bench/import_best, the hand-written best
# shm-import is timed against, reads the values shm-import reads
# (format-spec.md 6).  The timings themselves are make bench's.

load helper

B1=$BATS_TEST_DIRNAME/../${SHMIDS_BUILD:-build}/bench/table1
BEST=$BATS_TEST_DIRNAME/../${SHMIDS_BUILD:-build}/bench/import_best

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
