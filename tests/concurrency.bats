#!/usr/bin/env bats
# Concurrency (issue 4): writers, readers, cleaners and expanders at once.
# A short run of tests/tools/stress ("make stress" runs it longer), then
# two of its cases again with the real tools alone.  Every name made here
# starts with $P, so teardown finds whatever a failure leaves behind, and
# shm-rm -s always gets -N "$P*": it never judges another test's segments.

load helper

STRESS=$TOOLS/stress

shmid_exists() {
	ipcs -m | awk -v id="$1" '$2 == id { f = 1 } END { exit !f }'
}

# race_result N STATUS LABEL: "whole" if out.N is the reference expansion
# and err.N is empty, "failed" if out.N is the input unchanged and err.N
# names LABEL (a clear error), else "bad ..." with what went wrong.
race_result() {
	if [ "$2" = 0 ] && cmp -s ref "out.$1" && [ ! -s "err.$1" ]; then
		echo whole
	elif [ "$2" = 1 ] && cmp -s in "out.$1" &&
	    grep -qF -- "$3" "err.$1"; then
		echo failed
	else
		echo "bad (exit $2, stderr: $(head -c 300 "err.$1"))"
	fi
}

@test "2.2: stress: same-name writers, a cleaner among readers, racing expanders" {
	run --separate-stderr timeout 60 "$STRESS" -t 3 -w 4 -n 50 \
	    -B "$BIN" -p "$P"
	status_is 0
	like "$output" "*stress: a: * made [1-9]*" "case a"
	like "$output" "*stress: b: * made [1-9]*" "case b"
	like "$output" "*stress: c: * made [1-9]*" "case c"
	like "$output" "*errors 0 violations 0" "summary"
	no_segments_named "${P}stress-"
}

@test "2.2: two shm-expand -d, one reference: whole or a clear failure; it goes" {
	local i l a b sa sb ra rb fails=''
	for i in $(seq 10); do
		l=$(mkrandom "r$i" f64 20000 "$i")
		printf '# round %s\ncoeff shmids %s\nend\n' "$i" "$l" > in
		shm_expand in > ref 2> referr
		is "$(cat referr)" "" "reference expansion, stderr"
		shm_expand -d in > out.a 2> err.a &
		a=$!
		shm_expand -d in > out.b 2> err.b &
		b=$!
		sa=0 sb=0
		wait "$a" || sa=$?
		wait "$b" || sb=$?
		ra=$(race_result a "$sa" "$l")
		rb=$(race_result b "$sb" "$l")
		[[ $ra$rb != *bad* ]] || fails+="[$i: $ra / $rb] "
		[[ $ra$rb == *whole* ]] || fails+="[$i: neither is whole] "
		gone "$l" >/dev/null 2>&1 || fails+="[$i: $l is still there] "
	done
	is "$fails" "" "failures"
}

@test "2.2: shm-rm -s among a reader, a filling writer and new segments" {
	local held old filling sum i a f fails='' removed fl
	held=$(mkseg held f64 1000)
	old=$(mkseg old f64 10)
	filling=$(mkwriter filling 300)
	hold "$held" 300
	sum=$(shmtool open "$held")
	# Now held, old and filling are all older than -s 5.  The cleaners
	# run for at most 3 s, so no new segment reaches that age, even in
	# a slow (sanitizer, valgrind) build.
	sleep 5.1
	(for i in $(seq 40); do
		"$SHMTOOL" create "${P}fresh" i32 4 || exit 1
	done) > fresh 2> fresh.err &
	f=$!
	echo "$f" >> "$T/.pids"
	# Two cleaners at a time, while the new segments come.
	local start=$SECONDS
	for i in $(seq 15); do
		[ $((SECONDS - start)) -lt 3 ] || break
		shm_rm -v -s 5s -N "$P*" > "rm.$i.a" 2> "rm.$i.a.err" &
		a=$!
		shm_rm -v -s 5s -N "$P*" > "rm.$i.b" 2> "rm.$i.b.err" ||
		    fails+="[run $i.b: exit $?] "
		wait "$a" || fails+="[run $i.a: exit $?] "
	done
	wait "$f"
	mapfile -t fl < fresh
	track "${fl[@]}"
	is "$fails" "" "cleaner failures"
	is "$(cat rm.*.err fresh.err)" "" "stderr"
	removed=$(cat rm.*.a rm.*.b | vlabels)
	# Only the stale, unattached one went, and only once.
	is "$removed" "$old" "removed by age"
	is "$(shmtool open "$held")" "$sum" "the reader's segment"
	shmid_exists "${filling%% *}"
	is "$(shmtool find "${P}fresh" | wc -l)" "$(wc -l < fresh)" \
	    "new segments left"
	# Removed under its reader: still mapped, never removed again.
	shm_rm "$held"
	shmid_exists "${held%% *}"
	run --separate-stderr shm_rm -v -s 0 -N "$P*"
	status_is 0
	is "$(vlabels <<< "$output" | sort)" "$(sort fresh)" "removed by -s 0"
}
