#!/usr/bin/env bats
# What a reader's attach of a file segment costs in system calls (issue
# 41): each check of format-spec.md 2.3 and 2.6 made once, on the one
# descriptor, none dropped.  The checks themselves are file.bats' and
# trust.bats'; these hold that they stay one look.

load helper

# LeakSanitizer cannot run under ptrace; the rest of ASan can.
lsan_off() {
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 "$@"
}

# calls_on TRACE FILE: the calls of TRACE (strace output) on the file
# segment FILE, by name or by the descriptor its open returned, one a
# line without pid and result.
calls_on() {
	awk -v base="${2##*/}" '
	    { sub(/^[0-9]+ +/, "") }
	    index($0, "\"" base "\"") && /^openat/ { fd = $NF }
	    index($0, "\"" base "\"") || (fd != "" &&
	        index($0, "(" fd ",") == index($0, "(")) { print }
	    /^close\(/ && fd != "" && index($0, "(" fd ")") { fd = "" }' "$1"
}

@test "2.6: a reader attaches a file segment with one open, one lock, one fstat: no lock probe, no second look" {
	local l f
	need_strace
	mkdir -p "$T/d"
	l=$(SHMIDS_DIR=$T/d mkrandom cost f64 1000 1)
	f=${l%% *}
	printf 'x shmids %s\n' "$l" > ref
	run lsan_off bash -c 'strace -qq -f -o "$2" -e trace=%file,%desc "$1" < ref |
	    head -c 2' - "$BIN/shm-expand" "$T/trace"
	is "$output" "x "
	run calls_on "$T/trace" "$f"
	is "${#lines[@]}" 5 "calls"
	like "${lines[*]}" "statx(* openat(* fcntl(*F_OFD_SETLK*F_RDLCK*= 0 newfstatat(* pread64(*" "calls"
	is "$(grep -c "^[0-9]* *openat(AT_FDCWD, \"${f%/*}\"" "$T/trace")" 1 \
	    "directory opens"
}

@test "2.2: a reader woken on a file segment looks again with one lock and one fstat, reading its header where it waited" {
	local l f n
	need_strace
	l=$(bgwriter writer file wcost 0.5)
	f=${l%% *}
	run lsan_off strace -qq -f -o "$T/trace" -e trace=%file,%desc "$SHMTOOL" \
	    openwait "$l" 10
	status_is 0
	is "$output" "f64 10 45"
	# Each look while the writer fills (the first, and one a slice
	# that no wake ended): one open, its lock refused, one fstat, one
	# copy of the header; then the wake: the lock, one fstat.
	calls_on "$T/trace" "$f" > calls
	n=$(grep -c '^openat' calls)
	[ "$n" -ge 1 ]
	is "$(grep -c '^statx' calls)" "$n" "statx"
	is "$(grep -c 'F_RDLCK.*= -1 EAGAIN' calls)" "$n" "locks refused"
	is "$(grep -c '^pread64' calls)" "$n" "header copies"
	is "$(grep -c '^newfstatat' calls)" $((n + 1)) "fstats"
	run sed -n '/F_RDLCK.*= 0/,$p' calls
	is "${#lines[@]}" 2 "calls once woken"
	like "${lines[1]}" "newfstatat(*" "after the lock"
}
