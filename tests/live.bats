#!/usr/bin/env bats
# Live pipelines: shm-import and shm-expand write out what they made
# before waiting for input (format-spec.md 7, "Live pipelines"; issue 33).

load helper

# live TOOL ARGS...: start TOOL reading FIFO in and writing FIFO out;
# fd 7 writes its input, fd 8 reads its output.
live() {
	mkfifo in out
	timeout 60 "$BIN/$1" "${@:2}" < in > out 2> err &
	echo $! >> "$T/.pids"
	exec 7> in
	exec 8< out
}

# first LINE...: write each line to the tool, then read its output's
# first line within 10 s, while the input stays open (no end of file to
# flush on); then the rest after a last line and the end of the input.
first() {
	local l
	for l in "$@"; do
		printf '%s\n' "$l" >&7
	done
	IFS= read -r -t 10 -u 8 got || got="(nothing within 10 s)"
	printf 'after\n' >&7
	exec 7>&-
	rest=$(timeout 20 cat <&8)
	exec 8<&-
	wait
}

@test "7: live pipelines: shm-import writes each line out before waiting for the next" {
	local vals fails= i
	vals=$(seq -s ' ' 1 70)
	# input lines|the first output line, as a pattern
	while IFS='|' read -r input want; do
		cd "$T" && rm -f in out
		live shm-import -P "$P"
		IFS=';' read -ra lines <<< "$input"
		first "${lines[@]}"
		# shellcheck disable=SC2053
		[[ $got == $want ]] || fails+="[$input: got '$got'] "
	done <<-EOF
	# a comment|# a comment
	x $vals|x shmids [0-9/]* ${P}x
	1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32;1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32;# end|shmids [0-9/]* ${P}stdin:1
	EOF
	is "$fails" "" "failures"
}

@test "7: live pipelines: shm-expand writes each expansion and line out before waiting for the next" {
	local label fails=
	label=$(mkseg u f64 3)
	while IFS='|' read -r input want; do
		cd "$T" && rm -f in out
		live shm-expand
		first "$input"
		[[ $got == $want ]] || fails+="[$input: got '$got'] "
	done <<-EOF
	# a comment|# a comment
	u shmids $label|u 0 1 2
	EOF
	is "$fails" "" "failures"
}

@test "7: live pipelines: a regular file and a pipe give the same bytes as before (flushes change no byte)" {
	local vals
	vals=$(seq -s ' ' 1 100)
	{ for i in $(seq 300); do echo "# $i"; echo "a$i $vals"; done; } > f.txt
	run --separate-stderr shm_import -P "$P" -k 1000 f.txt
	status_is 0
	cmp <(printf '%s\n' "$output") f.txt
	run bash -c "cat f.txt | (sleep 0.1; exec timeout 30 '$BIN/shm-expand')"
	status_is 0
	cmp <(printf '%s\n' "$output") f.txt
}
