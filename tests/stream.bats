#!/usr/bin/env bats
# Streams (format-spec.md section 10, message references 5.1): writers
# and readers in separate processes (tests/tools/streamtool.c), killed,
# late, lapped, interrupted, forged at, on System V and in SHMIDS_DIR.
# The unit tests (tests/unit/stream_*) check the same rules within one
# process, on threads.

load helper

ST=$TOOLS/streamtool

eval "helper_$(declare -f teardown)"

teardown() {
	[ -s "$T/.dir" ] && rm -rf "$(cat "$T/.dir")"
	helper_teardown
}

# backend sysv|file: where the test's streams are made (file: a
# directory of its own, removed in teardown, as tests/file.bats does).
backend() {
	if [ "$1" = file ]; then
		D=$(mktemp -d /tmp/shmids-stream.XXXXXX)
		chmod 1777 "$D"
		echo "$D" > "$T/.dir"
		export SHMIDS_DIR=$D
	else
		unset SHMIDS_DIR
	fi
}

st() { timeout 60 "$ST" "$@"; }

# swriter NAME ARGS...: streamtool writer in the background, its output
# in $T/wNAME.out; prints the stream's label (tracked for teardown).
swriter() {
	local l
	l=$(bg "w$1" "$ST" writer "$P$1" "${@:2}") || return 1
	track "$l"
	printf '%s\n' "$l"
}

# sreader NAME LABEL ARGS...: streamtool reader in the background, its
# output in $T/rNAME.out (its first line "open" once registered).
sreader() {
	local o
	o=$(bg "r$1" "$ST" reader "${@:2}") || return 1
	[ "$o" = open ] || { echo "reader $1: $o" >&2; return 1; }
}

# stat_says LABEL GLOB: streamtool stat of LABEL matches GLOB, within
# 10 s (the writer gets there in its own time).
stat_says() {
	local i out
	for i in $(seq 200); do
		out=$("$ST" stat "$1")
		[[ $out == $2 ]] && return 0
		sleep 0.05
	done
	like "$out" "$2" "stat"
}

# gone_now LABEL: the stream's segment is removed already.
gone_now() {
	run st stat "$1"
	is "$output" ENOENT "stat of $1 after its end"
}

# one writer, one reader, two processes (10.3, 10.5)
pair() {
	local l
	backend "$1"
	l=$(swriter a 4 8 2000)
	run st reader "$l"
	status_is 0
	is "$output" $'open\nend 2000 0' "reader"
	await wa closed
	gone_now "$l"
}

@test "10.3, 10.5: System V: a writer and a reader, two processes: every message in order, the end, then removed" {
	pair sysv
}

@test "10.3, 10.5: file segments: a writer and a reader, two processes: every message in order, the end, then removed" {
	pair file
	is "$(ls -A "$D")" "" "files left in SHMIDS_DIR"
}

@test "10.4: the expected reader comes late: the writer keeps every message until it registers" {
	local l
	l=$(swriter a 4 8 100)
	stat_says "$l" "*head 4 tail 0 state w readers 1 joined 0 *"
	run st reader "$l"
	status_is 0
	is "$output" $'open\nend 100 0' "reader"
	await wa closed
}

@test "10.4: readers that join late start at the oldest message the ring holds" {
	local l
	l=$(st writer "${P}a" 8 8 50 readers=0 keep | sed -n 1p)
	track "$l"
	run st reader "$l" print
	status_is 0
	is "$(sed -n 2p <<< "$output")" "42 0" "first message"
	is "$(tail -n 1 <<< "$output")" "end 8 0" "reader"
}

# a writer killed with half a message written (10.5)
midkill() {
	local l pid
	backend "$1"
	run st writer "${P}a" 4 8 3 end=midkill
	l=$(sed -n 1p <<< "$output")
	track "$l"
	run st reader "$l"
	status_is 1
	is "$output" $'open\nEOWNERDEAD 3 0' "reader"
	run st explain "$l" EOWNERDEAD
	like "$output" "its writer (pid *) died after 3 messages, without ending the stream; shm-rm '$l' removes it" \
	    "explain"
	run st stat "$l"
	like "$output" "*state d *" "stat"
}

@test "10.5: System V: a writer killed mid-message: every message it published, then EOWNERDEAD, never half a message" {
	midkill sysv
}

@test "10.5: file segments: a writer killed mid-message: every message it published, then EOWNERDEAD, never half a message" {
	midkill file
}

@test "10.5: a reader that waits is told EOWNERDEAD soon after its writer is killed" {
	local l
	l=$(swriter a 4 8 2 pause=30000)
	sreader b "$l"
	sleep 0.3
	kill -9 "$(sed -n 1p "$T/.pids")"
	await rb "EOWNERDEAD 1 0" 5
}

# a reader killed holding a slot: the writer goes on (10.5)
deadreader() {
	local l
	backend "$1"
	l=$(swriter a 4 8 200 readers=2)
	sreader b "$l" hold=5
	sreader c "$l"
	await rb "holding 5"
	stat_says "$l" "*head 9 *"
	kill -9 "$(sed -n 2p "$T/.pids")"
	await wa closed 5
	await rc "end 200 0"
}

@test "10.5: System V: a reader killed holding a slot does not stall the writer: its entry is taken back" {
	deadreader sysv
}

@test "10.5: file segments: a reader killed holding a slot does not stall the writer: its entry is taken back" {
	deadreader file
}

@test "10.5: a reader killed before the end keeps nothing from removal: the stream goes when its writer ends" {
	local l
	l=$(swriter a 8 8 3 pause=700)
	sreader b "$l" hold=0
	await rb "holding 0"
	kill -9 "$(sed -n 2p "$T/.pids")"
	await wa closed 10
	gone_now "$l"
}

@test "10.4: overwrite: a lapped reader is told exactly which messages it lost" {
	local l n lost
	l=$(swriter a 8 8 2000 overwrite)
	run st reader "$l" slow=1 release
	status_is 0
	read -r _ n lost <<< "$(tail -n 1 <<< "$output")"
	[[ $output != *bad* ]] || { echo "$output" >&2; false; }
	is "$((n + lost))" 2000 "messages read and lost"
	[ "$lost" -gt 0 ] || { echo "nothing lost: $output" >&2; false; }
}

# a stream header forged by another user (10.7)
forged() {
	local l f out
	backend "$1"
	for f in slots=1000000 capacity=0xffffffffffff stride=4096 \
	    descoff=0 payoff=0x7fffffffffff rtable=0 rtable=1000 policy=7 \
	    readers=65 flags=8 magic=0x4141; do
		l=$(st writer "${P}f" 4 100 2 readers=0 keep | sed -n 1p)
		track "$l"
		st forge "$l" "${f%%=*}" "${f#*=}"
		run st reader "$l"
		out+="$f: $status $output"$'\n'
		run st stat "$l"
		out+="$f: $status $output"$'\n'
	done
	is "$(grep -cE ': 1 EBADMSG$' <<< "$out")" 22 "refused: $out"
}

@test "10.7: System V: a forged stream header is refused (EBADMSG), and nothing outside the segment is read" {
	forged sysv
}

@test "10.7: file segments: a forged stream header is refused (EBADMSG), and nothing outside the segment is read" {
	forged file
}

@test "10.7: a forged descriptor: that message is skipped with EBADMSG, the others read" {
	local l
	l=$(st writer "${P}a" 4 8 4 readers=0 keep | sed -n 1p)
	track "$l"
	st forge "$l" d1.nbytes 999999
	st forge "$l" d2.type 77
	run st reader "$l" print
	status_is 0
	is "$output" $'open\n0 0\nEBADMSG 1\nEBADMSG 2\n3 0\nend 2 0' "reader"
}

# signal PID NAME: SIGUSR1 to PID, every 0.1 s, until $T/NAME.out says
# EINTR (10 s at most): a signal that comes before the wait has begun
# ends nothing, as for sem_wait(3).
signal() {
	local i
	for i in $(seq 100); do
		kill -USR1 "$1"
		sleep 0.1
		grep -qx EINTR "$T/$2.out" && return 0
	done
	echo "$2: no EINTR in:" >&2
	cat "$T/$2.out" >&2
	return 1
}

@test "10.6: a signal handler ends a wait with EINTR, for the writer and the reader, and each goes on" {
	local l
	# the writer waits for room: no reader has come yet
	l=$(swriter a 2 8 3 intr)
	signal "$(sed -n 1p "$T/.pids")" wa
	run st reader "$l"
	is "$output" $'open\nend 3 0' "reader"
	await wa closed
	# the reader waits for a message the writer takes its time over
	l=$(swriter b 2 8 2 pause=3000)
	sreader c "$l" intr
	signal "$(sed -n 3p "$T/.pids")" rc
	await rc "end 2 0"
}

@test "10.5: the end of the stream is seen by every reader, after the last message" {
	local l
	l=$(swriter a 4 8 500 readers=3)
	sreader b "$l"
	sreader c "$l"
	sreader d "$l"
	await rb "end 500 0"
	await rc "end 500 0"
	await rd "end 500 0"
	await wa closed
	gone_now "$l"
}

@test "5.1, 10.4, 10.8: an old sequence number: ENOMSG, and shmids_explain's words" {
	local l
	l=$(st writer "${P}a" 4 8 10 readers=0 keep | sed -n 1p)
	track "$l"
	run st reader "$l 3"
	status_is 1
	is "$output" ENOMSG "message 3"
	run st explain "$l 3" ENOMSG
	is "$output" "message 3 is gone: the ring of 4 slots holds messages 6 to 9 now"
	run st reader "$l 7" print count=1
	status_is 0
	is "$output" $'open\n7 0\ncount 1 0' "message 7"
	run st reader "$l 12"
	is "$output" ENOMSG "message 12"
	run st explain "$l 12" ENOMSG
	is "$output" "the stream ended after 10 messages (0 to 9): there is no message 12"
}

@test "10.1, 9: the array calls refuse a stream: shm-expand of its label alone says it is a stream, exit 1" {
	local l
	l=$(st writer "${P}a" 4 8 1 readers=0 keep | sed -n 1p)
	track "$l"
	printf 'x shmids %s\n' "$l" > in.txt
	runio in.txt shm_expand in.txt
	status_is 1
	same_file in.txt out
	like "$(cat err)" "shm-expand: in.txt:1: $l: segment ${l%% *} is a stream of messages, not an array: a reference names one of its messages by its sequence number ('x shmids $l 17')" \
	    "stderr"
}

# a reader needs write permission on its stream (10.1)
perm() {
	local l
	need_user
	backend "$1"
	l=$(st writer "${P}a" 4 8 2 readers=0 keep mode=0644 | sed -n 1p)
	track "$l"
	run as_user "$ST" reader "$l"
	is "$output" EACCES "reader of a 0644 stream"
	run as_user "$ST" explain "$l" EACCES
	like "$output" "stream ${l%% *} is *'s, mode 644: a reader registers in it, so it needs read and write permission" \
	    "explain"
	l=$(st writer "${P}b" 4 8 2 readers=0 keep mode=0666 | sed -n 1p)
	track "$l"
	run as_user "$ST" reader "$l"
	is "$output" $'open\nend 2 0' "reader of a 0666 stream"
}

@test "10.1: System V: a reader needs read and write permission: EACCES, and the words say why" {
	perm sysv
}

@test "10.1: file segments: a reader needs read and write permission: EACCES, and the words say why" {
	perm file
}

@test "10.5: a stream made to be kept stays after its end and its readers; shm-rm removes it" {
	local l
	l=$(swriter a 4 8 3 keep)
	run st reader "$l"
	is "$output" $'open\nend 3 0' "reader"
	await wa closed
	run st stat "$l"
	like "$output" "*state r *nreaders 0" "stat"
	run shm_rm "$l"
	status_is 0
	gone_now "$l"
}

@test "10.5, 7: shm-rm -s removes a stream whose writer died, as any stale segment, never a live one" {
	local live dead
	live=$(swriter a 4 8 100)
	run st writer "${P}b" 4 8 3 end=midkill
	dead=$(sed -n 1p <<< "$output")
	track "$dead"
	run shm_ls "$dead"
	like "$output" "*raw * dead *" "shm-ls of the dead one"
	# only this test's, by name: the machine's other segments are not ours
	run shm_rm -s 0 -N "$P*"
	status_is 0
	gone_now "$dead"
	run st stat "$live"
	like "$output" "*state w *" "the live one"
}

@test "10.8: stat and EAGAIN's words: how far the reader the writer waits for is behind" {
	local l
	l=$(swriter a 4 8 10)
	sreader b "$l" hold=1
	await rb "holding 1"
	stat_says "$l" "slots 4 capacity 8 stride 64 head 5 tail 1 state w readers 1 joined 1 flags 0 nreaders 1"$'\n'"reader pos 1 held 1 alive 1"
	run st explain "$l" EAGAIN
	like "$output" "stream ${l%% *} is live: its writer (pid *) has published 5 messages; reader pid * is 4 behind, at message 1, and the ring of 4 slots is full until it reads on" \
	    "explain"
}

# ticks PID: its CPU time, user and system, in clock ticks.
ticks() {
	sed 's/.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}

@test "10.6: a reader that waits for a writer with nothing to say uses no CPU" {
	local l pid t0 t1
	l=$(swriter a 4 8 2 pause=4000)
	sreader b "$l"
	pid=$(sed -n 2p "$T/.pids")
	sleep 0.5
	t0=$(ticks "$pid")
	sleep 2
	t1=$(ticks "$pid")
	[ $((t1 - t0)) -le 5 ] ||
	    { echo "the reader used $((t1 - t0)) ticks in 2 s" >&2; false; }
}

# The cases of a review of the streams, each a process tree of its own
# (tests/tools/streamattack.c).
SA=$TOOLS/streamattack

@test "10.7: a forged reader table of one entry with mask bit 63 set: a reader closes without a byte past the table" {
	run timeout 60 "$SA" mask
	status_is 0
	is "$output" $'next 0\nclose ok\npast the table untouched' "streamattack"
}

@test "10.5: a dead reader holds the writer up 100 ms, not for ever, while another reader polls and wakes it" {
	run timeout 60 "$SA" stall
	status_is 0
	is "$output" "loan ok" "streamattack"
	backend file
	run timeout 60 "$SA" stall
	status_is 0
	is "$output" "loan ok" "streamattack, file segments"
}

@test "10.4: overwrite: a reader whose next() found nothing and failed holds nothing: the writer never waits for it" {
	run timeout 60 "$SA" owpoll
	status_is 0
	is "$output" $'poll EAGAIN\npublished 12' "streamattack"
}

@test "10.4: a get() that fails, timed out or past the end, leaves the reader where it was, under both policies" {
	local p
	for p in wait overwrite; do
		run timeout 60 "$SA" getend $p
		status_is 0
		is "$output" $'get 20 EAGAIN\nlive: next 3\nget 17 ENOMSG\nended: next 4' "$p"
	done
}

@test "10.5: file segments: a fork of a reader or of a writer keeps no lock: the parent killed is judged dead" {
	backend file
	run timeout 60 "$SA" forklock
	status_is 0
	is "$output" $'reader\'s fork: loan ok\nwriter\'s fork: next EOWNERDEAD' "streamattack"
	is "$(ls -A "$D")" "" "files left in SHMIDS_DIR"
}

@test "10.5: file segments: a reader killed while it emptied its entry does not stall the writer: the entry is emptied again" {
	backend file
	run timeout 60 "$SA" stuck
	status_is 0
	is "$output" "loan ok" "streamattack"
	is "$(ls -A "$D")" "" "files left in SHMIDS_DIR"
}

@test "10.2: more slots than the header's 32 bits hold: EINVAL, not ENOMEM" {
	run st writer "${P}big" 4294967296 8 0
	status_is 1
	is "$output" EINVAL "writer"
}
