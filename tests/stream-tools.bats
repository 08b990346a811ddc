#!/usr/bin/env bats
# Streams through the tools (format-spec.md 5.1, 7, 10): shm-expand of
# message reference lines, shm-import --stream, shm-ls and shm-rm of
# streams.  Writers are tests/tools/streamtool.c (tests/stream.bats has
# the library's own tests); every stream made is tracked and removed in
# teardown, or named with the test's prefix $P, which teardown removes.

load helper

ST=$TOOLS/streamtool

st() { timeout 60 "$ST" "$@"; }

# kept NAME SLOTS CAPACITY COUNT ARGS...: a stream that keeps its last
# SLOTS messages after its writer ended it (readers=0 keep), each
# message doubles=3: seq, seq + 1, seq + 2; prints its label.
kept() {
	local l
	l=$(st writer "$P$1" "$2" "$3" "$4" doubles=3 readers=0 keep "${@:5}" |
	    sed -n 1p)
	case $l in [0-9]*|/*) ;; *) echo "writer: $l" >&2; return 1 ;; esac
	track "$l"
	printf '%s\n' "$l"
}

@test "5.1, 7: shm-expand writes a message as a segment's array, a message table reference's as rows" {
	local l
	l=$(kept a 4 64 10)
	run shm_expand <<< "u shmids $l 7
  shmids, $l 8
text"
	status_is 0
	is "$output" "u 7 8 9
  8
  9
  10
text"
	run shm_expand -r <<< "u shmids $l 9"
	status_is 0
	is "$output" "9 10 11"
}

@test "5.1, 7, 10.4: shm-expand of a message gone from the ring: file, line, label and seq, what to do; line unchanged, exit 1" {
	local l
	l=$(kept a 4 64 10)
	printf 'u shmids %s 2\nu shmids %s 12\nv shmids %s 9\n' "$l" "$l" "$l" > f.txt
	run -1 --separate-stderr shm_expand f.txt
	is "$output" "u shmids $l 2
u shmids $l 12
v 9 10 11" "lines copied unchanged"
	is "$stderr" "shm-expand: f.txt:1: $l 2: message 2 is gone: the ring of 4 slots holds messages 6 to 9 now: expand a stream while it is written (... | shm-expand), or give it more slots (shm-import --stream=SLOTS)
shm-expand: f.txt:2: $l 12: the stream ended after 10 messages (0 to 9): there is no message 12"
}

@test "5.1, 10.1: shm-expand: a stream named without seq, a segment with one: EMEDIUMTYPE's words, exit 1" {
	local l s
	l=$(kept a 2 64 2)
	s=$(mkseg b f64 3)
	run -1 shm_expand <<< "u shmids $l
v shmids $s 0"
	like "$output" "*stdin:1: $l: segment ${l%% *} is a stream of messages, not an array*"
	like "$output" "*stdin:2: $s 0: *holds an array, not a stream*"
}

@test "5.1, 10.4: shm-expand keeps the stream open: a writer of 2 slots waits for it, nothing lost" {
	local l i
	l=$(bg w "$ST" writer "${P}a" 2 64 40 doubles=1) || return 1
	track "$l"
	run shm_expand -r < <(for i in $(seq 0 39); do
		echo "u shmids $l $i"; done)
	status_is 0
	is "$output" "$(seq 0 39)"
}

# gen N: N steps of a simulation: fields u (4 values) and v (3), text
# between, each step's values its own.
gen() {
	local i
	for i in $(seq 0 $(($1 - 1))); do
		echo "step $i"
		echo "u $i.5 $((i + 1)).25 -$((i + 1)) 0.00$((i % 9 + 1))"
		echo "v $i $((2 * i)) $((3 * i))"
	done
}

@test "7, 5.1: shm-import --stream: a stream a field, message reference lines; shm-expand gives the input back" {
	gen 40 > in.txt
	run --separate-stderr bash -c "'$BIN/shm-import' -k 1 -P '$P' --stream=3 < in.txt |
	    tee refs.txt | '$BIN/shm-expand'"
	status_is 0
	is "$stderr" ""
	printf '%s\n' "$output" > out.txt
	same_file in.txt out.txt
	like "$(sed -n 2p refs.txt)" "u shmids * ${P}u 0"
	like "$(sed -n 3p refs.txt)" "v shmids * ${P}v 0"
	like "$(tail -n 2 refs.txt)" "u shmids * ${P}u 39
v shmids * ${P}v 39"
	# "step N" is an array of one value too: three streams
	is "$(grep -c shmids refs.txt)" 120 "reference lines"
	no_segments_named "$P"
}

@test "7, 10.4: shm-import --stream is live: a line's expansion is out while the input still comes" {
	# the second step comes only once the first is expanded (10 s)
	live() {
		echo "u 1 2 3"
		for i in $(seq 200); do
			grep -qx 'u 1 2 3' out.txt 2>/dev/null && break
			sleep 0.05
		done
		grep -qx 'u 1 2 3' out.txt && echo "u 4 5 6" || echo "not live"
	}
	live | shm_import -k 1 -P "$P" --stream | shm_expand > out.txt
	is "$(cat out.txt)" "u 1 2 3
u 4 5 6"
	no_segments_named "$P"
}

@test "7: shm-import --stream: an array larger than its stream's slots: file, line, field, the size; lines unchanged, exit 1" {
	printf 'u 1 2\nu 3 4 5\nu 6 7\n' > in.txt
	run --separate-stderr bash -c "'$BIN/shm-import' -k 1 -P '$P' --stream < in.txt |
	    '$BIN/shm-expand'"
	is "$output" "u 1 2
u 3 4 5
u 6 7"
	like "$stderr" "shm-import: stdin:2: u: an array larger than the 16 bytes each message of stream '* ${P}u' holds (its first array's): its lines copied unchanged"
	no_segments_named "$P"
}

@test "7: shm-import --stream: table blocks become segments as without it; a bad slot count is a usage error" {
	printf '1 2\n3 4\nu 5 6\n' > in.txt
	shm_import -k 1 -P "$P" --stream < in.txt > refs.txt
	like "$(cat refs.txt)" "shmids * ${P}stdin:1
u shmids * ${P}u 0"
	run shm_expand -d refs.txt
	status_is 0
	is "$output" "1 2
3 4
u 5 6"
	run -2 shm_import --stream=0
	like "$output" "shm-import: invalid slots '0' (expected 1 to 16777216 slots)*"
	no_segments_named "$P"
}

@test "7, 10.8: shm-ls lists streams: slots, capacity, next, oldest, each reader and how far behind" {
	local l m pid
	l=$(kept a 4 64 10)
	m=$(kept b 16 40000 3)
	bg r "$ST" reader "$l" hold=7 > /dev/null || return 1
	await r "holding 7"
	pid=$(tail -n 1 "$T/.pids")
	run --separate-stderr shm_ls -N "$P*"
	status_is 0
	like "$output" "OWNER *
*raw*$l
*raw*$m

SLOTS CAPACITY NEXT OLDEST READER BEHIND LABEL*"
	is "$(tail -n 2 <<< "$output" | tr -s ' ')" " 4 64 10 6 $pid 3 $l
 16 40K 3 0 - - $m"
	run shm_ls -b --noheadings "$m"
	is "$(tail -n 1 <<< "$output" | tr -s ' ')" "16 40000 3 0 - - $m"
	run shm_ls -J "$l"
	like "$output" "*\"stream\": {\"slots\": 4, \"capacity\": 64, \"next\": 10, \"oldest\": 6, \"readers\": \[{\"pid\": $pid, \"behind\": 3, \"alive\": true}\]}}*"
}

@test "7, 10.5: shm-rm --dead and -s remove a stream whose writer died as any stale segment; never a live one" {
	local d e w
	d=$(st writer "${P}d" 4 64 3 readers=0 end=_exit | sed -n 1p)
	track "$d"
	e=$(kept e 4 64 3)
	# live: a message every 100 ms, its writer attached
	w=$(bg w "$ST" writer "${P}w" 4 64 600 readers=0 pause=100) || return 1
	track "$w"
	run shm_ls -N "$P*"
	like "$output" "*dead *$d*"
	run shm_rm -v --dead -N "$P*"
	status_is 0
	like "$output" "removed '$d' (owner $(id -un), age *s)"
	run shm_rm -v -s 0s -N "$P*"
	status_is 0
	like "$output" "removed '$e' (owner $(id -un), age *s)"
	run shm_ls -N "$P*" --noheadings
	like "$output" "*filling *$w
*"
	[[ $output != *"$d"* && $output != *"$e"* ]]
}

@test "7, 10.5: shm-rm of a dead stream's label removes it" {
	local d
	d=$(st writer "${P}d" 4 64 3 readers=0 end=_exit | sed -n 1p)
	track "$d"
	run shm_rm -v "$d"
	status_is 0
	like "$output" "removed '$d'*"
	run -1 shm_ls "$d"
}

@test "7, 10.4: shm-import --stream: a stream no reader takes from is said once after 5 s; SIGTERM then removes it" {
	local pid i
	gen 4 > in.txt
	"$BIN/shm-import" -k 1 -P "$P" -f u --stream=2 < in.txt > refs.txt 2> err.txt &
	pid=$!
	for i in $(seq 150); do
		[ -s err.txt ] && break
		sleep 0.1
	done
	kill -TERM "$pid"
	wait "$pid" || status=$?
	is "${status:-0}" 143 "exit status"
	like "$(cat err.txt)" "shm-import: stream '* ${P}u': its slots are full and no reader has taken a message for 5 s: waiting (a stream waits for its reader: expand every field, or leave this one out with -f)" "the note"
	is "$(grep -c 'no reader' err.txt)" 1 "said once"
	no_segments_named "$P"
}
