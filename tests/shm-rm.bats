#!/usr/bin/env bats
# shm-rm: removing segments by name and by age (format-spec.md 7).
# Removal by age (-s) without -n removes every stale segment of the
# caller, so it is only run as the test user, who owns nothing else.

load helper

SYNOPSIS='shm-rm [-fnUv] [--dead] [-N pattern] [-s age] [-u user] [label | id ...]'

# As the test user: make a segment, print its label.
usermk() {
	local l
	l=$(as_user "$SHMTOOL" "$@") || { echo "as $TESTUSER: shmtool $*: $l" >&2; return 1; }
	track "$l"
	printf '%s\n' "$l"
}
shmid_exists() {
	ipcs -m | awk -v id="$1" '$2 == id { f = 1 } END { exit !f }'
}

@test "7: shm-rm -h: usage on stdout, exit 0" {
	run --separate-stderr shm_rm -h
	status_is 0
	usage_has "$SYNOPSIS" "$output"
	is "$stderr" ""
}

@test "7: shm-rm: bad options, ages, combinations: what is wrong, then usage, exit 2" {
	local l big
	l=$(mkseg keep f64 1)
	big="a number and a unit: 30s, 90m, 24h or 7d, at most 9223372036854775807s"
	bad_args shm-rm "$SYNOPSIS" <<-EOF
	-x|invalid option -- 'x'
	-s|option requires an argument -- 's'
	--foo|unrecognized option '--foo'
	--help=1|option '--help' doesn't allow an argument
	--stale|option '--stale' requires an argument
	--stale=24|invalid age '24' (expected a number and a unit: 30s, 90m, 24h or 7d)
	-s 0s --all|option '--all' is short for '--all-users' (every user's segments): spell it out
	-s 0s --all-u|option '--all-u' is short for '--all-users' (every user's segments): spell it out
	--force-all|unrecognized option '--force-all'
	-n -s 5x|invalid age '5x' (expected a number and a unit: 30s, 90m, 24h or 7d)
	-n -s 1H|invalid age '1H' (expected a number and a unit: 30s, 90m, 24h or 7d)
	-n -s abc|invalid age 'abc' (expected a number and a unit: 30s, 90m, 24h or 7d)
	-n -s -1|invalid age '-1' (expected a number and a unit: 30s, 90m, 24h or 7d)
	-n -s +1|invalid age '+1' (expected a number and a unit: 30s, 90m, 24h or 7d)
	-n -s 1y|invalid age '1y' (expected a number and a unit: 30s, 90m, 24h or 7d)
	-n -s 1hh|invalid age '1hh' (expected a number and a unit: 30s, 90m, 24h or 7d)
	-n -s ''|invalid age '' (expected a number and a unit: 30s, 90m, 24h or 7d)
	-n -s \$'1\\th'|invalid age '1\\011h' (expected a number and a unit: 30s, 90m, 24h or 7d)
	-n -s 99999999999999999999d|invalid age '99999999999999999999d' (expected $big)
	-n -s 106751991167301d|invalid age '106751991167301d' (expected $big)
	-n -s 9223372036854775808s|invalid age '9223372036854775808s' (expected $big)
	-n -s $(printf '1%.0s' {1..90})s|invalid age '$(printf '1%.0s' {1..80})...' (expected $big)
	-n -s 24|invalid age '24' (expected a number and a unit: 30s, 90m, 24h or 7d)
	-n -s 1|invalid age '1' (expected a number and a unit: 30s, 90m, 24h or 7d)
	-n -s 00|invalid age '00' (expected a number and a unit: 30s, 90m, 24h or 7d)
	-n -s $(printf 'x%.0s' {1..90})|invalid age '$(printf 'x%.0s' {1..80})...' (expected a number and a unit: 30s, 90m, 24h or 7d)
	-s 0 '$l'|operands are not allowed with -s
	-s 0 ${l%% *}|operands are not allowed with -s
	-f -s 1h|-f is not allowed with -s
	-N 'x*' '$l'|-N is not allowed without -s (-s 0: of any age) or --dead
	-m 'x*' -s 0|-m is now -N (name pattern)
	|nothing to remove: give labels or ids, or -s age
	-n -v|nothing to remove: give labels or ids, or -s age
	--dead '$l'|operands are not allowed with --dead
	--dead -f|-f is not allowed with --dead
	--dead=1|option '--dead' doesn't allow an argument
	-u 0|-u is not allowed without -s
	EOF
	exists "$l"
}

@test "1: shm-rm: removes by label and by shmid, silently; -v prints labels" {
	local a b c d
	a=$(mkseg a f64 1)
	b=$(mkseg b f64 1)
	c=$(mkseg c f64 1)
	d=$(mkseg d f64 1)
	run --separate-stderr shm_rm "$a" "${b%% *}"
	status_is 0
	is "$output" ""
	is "$stderr" ""
	gone "$a"
	gone "$b"
	run --separate-stderr shm_rm -v "$c" "${d%% *}"
	status_is 0
	is "$(vlabels <<< "$output")" "$c"$'\n'"$d"
	gone "$c"
	gone "$d"
}

@test "7: shm-rm -n: prints what would go, removes nothing" {
	local a b
	a=$(mkseg a f64 1)
	b=$(mkseg b f64 1)
	run --separate-stderr shm_rm -n "$a" "${b%% *}"
	status_is 0
	is "$output" "$a"$'\n'"$b"
	exists "$a"
	exists "$b"
}

@test "1: shm-rm: no such segment, stale label: error, exit 1, nothing removed" {
	local a gone
	a=$(mkseg a f64 1)
	gone=$(mkseg gone f64 1)
	ipcrm -m "${gone%% *}"
	run --separate-stderr shm_rm "$gone"
	status_is 1
	is "$stderr" "shm-rm: $gone: no such segment (removed, or never made)"
	run --separate-stderr shm_rm "${a%% *} ${P}other"
	status_is 1
	is "$stderr" "shm-rm: ${a%% *} ${P}other: segment ${a%% *} is labelled '$a'"
	exists "$a"
}

@test "1: shm-rm -f: what names nothing goes silently, exit 0, as rm -f; other errors still said" {
	local a gone
	a=$(mkseg a f64 1)
	gone=$(mkseg gone f64 1)
	ipcrm -m "${gone%% *}"
	run --separate-stderr shm_rm -f "$gone" "${gone%% *}" "$a"
	status_is 0
	is "$output" ""
	is "$stderr" ""
	gone "$a"
	run --separate-stderr shm_rm -f -v "$gone"
	status_is 0
	is "$output$stderr" ""
	a=$(mkseg a f64 1)
	run --separate-stderr shm_rm -f "${a%% *} ${P}other"
	status_is 1
	is "$stderr" "shm-rm: ${a%% *} ${P}other: segment ${a%% *} is labelled '$a'"
	exists "$a"
}

@test "7: shm-rm -f: permission denied is still an error" {
	need_user
	local mine
	mine=$(mkseg mine f64 1 644)
	run --separate-stderr as_user "$BIN/shm-rm" -f "$mine"
	status_is 1
	is "$stderr" "shm-rm: $mine: segment ${mine%% *} is root's: only its owner, its creator or root may remove it"
	exists "$mine"
}

# Issue 40 item 15: "you may not read it" where removing was the problem.
@test "7: shm-rm: a segment the caller may not read: another user's is one it may not remove; its own (mode 000) is removed by id with -f" {
	need_user
	local theirs mine
	theirs=$(mkseg theirs f64 1 600)
	mine=$(usermk create "${P}mine" f64 1 000)
	run --separate-stderr as_user "$BIN/shm-rm" "$theirs"
	status_is 1
	is "$stderr" "shm-rm: $theirs: segment ${theirs%% *} is root's: only its owner, its creator or root may remove it"
	exists "$theirs"
	run --separate-stderr as_user "$BIN/shm-rm" "$mine"
	status_is 1
	is "$stderr" "shm-rm: $mine: segment ${mine%% *} cannot be read by you (mode 000), so it cannot be told for a shmids segment: shm-rm -f ${mine%% *} removes it"
	run --separate-stderr as_user "$BIN/shm-rm" -f "${mine%% *}"
	status_is 0
	! shmid_exists "${mine%% *}"
}

@test "7: shm-rm: refuses segments not ours (shmget, ipcmk, our key) without -f" {
	local rid iid fid id fails=
	rid=$(mkraw 100)
	iid=$(mkipcmk 1024)
	fid=$(mkhostile foreign foreign)
	fid=${fid%% *}
	for id in "$rid" "$iid" "$fid"; do
		run --separate-stderr shm_rm "$id"
		[ "$status" = 1 ] || fails+="[$id: exit $status] "
		[ "$stderr" = "shm-rm: $id: not a shmids segment" ] ||
		    fails+="[$id: stderr $stderr] "
		shmid_exists "$id" || fails+="[$id removed] "
		run --separate-stderr shm_rm -n "$id"
		[ "$status" = 1 ] || fails+="[-n $id: exit $status] "
	done
	is "$fails" "" "failures"
	run --separate-stderr shm_rm -f "$rid" "$iid" "$fid"
	status_is 0
	! shmid_exists "$rid"
	! shmid_exists "$iid"
	! shmid_exists "$fid"
}

@test "1: shm-rm: an operand neither label nor shmid is an error; next operand done" {
	local a op fails=
	while IFS= read -r op; do
		a=$(mkseg a f64 1)
		run --separate-stderr shm_rm -- "$op" "$a"
		[ "$status" = 1 ] || fails+="['$op': exit $status] "
		[ -n "$stderr" ] || fails+="['$op': no message] "
		[ "$(shmtool open "$a")" = ENOENT ] || fails+="['$op': next operand not removed] "
	done <<-EOF
	abc
	01
	-1
	+1
	12a
	2147483648
	1 2 3
	12 
	 12 x
	EOF
	is "$fails" "" "failures"
}

@test "2.4: shm-rm: another user's segment: EPERM without -f, removed with -f" {
	need_user
	local theirs mine
	theirs=$(usermk create "${P}theirs" f64 1)
	mine=$(mkseg mine f64 1 644)
	run --separate-stderr shm_rm "$theirs"
	status_is 1
	is "$stderr" "shm-rm: $theirs: segment ${theirs%% *} is uid $TESTUSER's, not yours: -f removes it all the same"
	exists "$theirs"
	run --separate-stderr as_user "$BIN/shm-rm" "$mine"
	status_is 1
	is "$stderr" "shm-rm: $mine: segment ${mine%% *} is root's: only its owner, its creator or root may remove it"
	exists "$mine"
	run --separate-stderr shm_rm -f "$theirs"
	status_is 0
	gone "$theirs"
}

@test "7: shm-rm -s: removes the caller's stale segments, never attached ones" {
	need_user
	local a b dead theirs out
	a=$(usermk create "${P}held" f64 1)
	b=$(usermk create "${P}stale" f64 1)
	dead=$(usermk killwriter "${P}dead")
	theirs=$(mkseg root f64 1)
	hold "$a" 30
	run --separate-stderr as_user "$BIN/shm-rm" -n -s 0
	status_is 0
	is "$(sort <<< "$output")" "$(printf '%s\n' "$b" "$dead" | sort)" "dry run"
	exists "$b"
	run --separate-stderr as_user "$BIN/shm-rm" -v -s 0
	status_is 0
	is "$(vlabels <<< "$output" | sort)" "$(printf '%s\n' "$b" "$dead" | sort)" "removed"
	exists "$a"
	gone "$b"
	gone "$dead"
	exists "$theirs"
}

@test "7: shm-rm --dead: only crashed writers' segments, however fresh; the caller's unless root says -u or -U; with -s, so old" {
	need_user
	local ready filling dead mine theirs
	ready=$(usermk create "${P}ready" f64 1)
	dead=$(usermk killwriter "${P}dead")
	mine=$(mkkilled rootdead)
	filling=$(mkwriter filling 30)
	# as a plain user: their own dead one only, not root's, not -s 1h's
	run --separate-stderr as_user "$BIN/shm-rm" -v --dead -s 1h
	status_is 0
	is "$output" "" "none an hour old"
	run --separate-stderr as_user "$BIN/shm-rm" -n --dead
	status_is 0
	is "$output" "$dead" "dry run"
	run --separate-stderr as_user "$BIN/shm-rm" -v --dead -U
	status_is 1
	is "$stderr" "shm-rm: -U: only root may clean other users' segments; without -U, -s cleans your own"
	run --separate-stderr as_user "$BIN/shm-rm" -v --dead -N "${P}de*"
	status_is 0
	is "$(vlabels <<< "$output")" "$dead" "removed"
	gone "$dead"
	exists "$ready"
	is "$(shmtool open "$mine")" EOWNERDEAD "root's dead one"
	# root's --dead takes root's own; -u names the user's (a dead one
	# opens as EOWNERDEAD: still there)
	dead=$(usermk killwriter "${P}dead2")
	run --separate-stderr shm_rm -n --dead -N "${P}*"
	status_is 0
	is "$output" "$mine" "root's own"
	run --separate-stderr shm_rm -v --dead -u "$TESTUSER" -N "${P}*"
	status_is 0
	is "$(vlabels <<< "$output")" "$dead" "-u's"
	gone "$dead"
	exists "$ready"
	is "$(shmtool open "$filling")" EAGAIN "a writer filling"
	is "$(shmtool open "$mine")" EOWNERDEAD "root's dead one"
}

@test "7: shm-rm -s: age units; fresh segments stay" {
	need_user
	local a age fails=
	a=$(usermk create "${P}fresh" f64 1)
	for age in 1d 2h 30m 100s; do
		run --separate-stderr as_user "$BIN/shm-rm" -v -s "$age"
		[ "$status" = 0 ] || fails+="[-s $age: exit $status $stderr] "
		[ -z "$output" ] || fails+="[-s $age: removed $output] "
	done
	is "$fails" "" "failures"
	exists "$a"
}

@test "7: shm-rm -s 24: an age without a unit is a usage error; nothing goes" {
	local a
	a=$(mkseg old f64 1)
	sleep 1
	run --separate-stderr shm_rm -s 1 -N "$P*"
	status_is 2
	is "${stderr%%$'\n'*}" "shm-rm: invalid age '1' (expected a number and a unit: 30s, 90m, 24h or 7d)"
	exists "$a"
	run --separate-stderr shm_rm -s 0 -N "${P}old"
	status_is 0
	gone "$a"
}

@test "7: shm-rm -s: other programs' segments are never removed by age" {
	need_user
	local rid out
	rid=$(as_user "$SHMTOOL" raw 100)
	track "$rid"
	run --separate-stderr as_user "$BIN/shm-rm" -s 0
	status_is 0
	shmid_exists "$rid"
	run --separate-stderr as_user "$BIN/shm-rm" -f -s 0
	shmid_exists "$rid"
}

@test "7: shm-rm -s: age is from creation; listing or expanding does not refresh" {
	need_user
	local a
	a=$(usermk create "${P}aged" f64 1 644)
	sleep 2
	shm_ls > /dev/null
	shm_ls -p "$a" > /dev/null
	printf 'x shmids %s\n' "$a" | as_user "$BIN/shm-expand" > /dev/null
	run --separate-stderr as_user "$BIN/shm-rm" -n -s 1s
	status_is 0
	is "$output" "$a"
	run --separate-stderr as_user "$BIN/shm-rm" -n -s 1h
	status_is 0
	is "$output" ""
}

# "shm-rm: : not a label or id" named nothing: an empty operand (an
# unset variable in "$label") says it is empty, and what is expected.
@test "1: shm-rm, shm-ls: an empty operand says it is empty and what form is expected, exit 1, the others done" {
	local a tool want
	a=$(mkseg a f64 1)
	want="an empty operand: not a label or id (expected '<id> <name>', a shmid or a file segment's path)"
	for tool in shm_ls shm_rm; do
		run --separate-stderr "$tool" "" "$a"
		status_is 1
		is "$stderr" "${tool/_/-}: $want" "$tool"
	done
	gone "$a"
}

@test "1: shm-rm, shm-ls: an operand whose name part is no name ('5 x y') is not a label or id" {
	local a op fails=
	a=$(mkseg a f64 1)
	for op in "5 x y" "${a%% *} x y" "${a%% *} $(printf 'n%.0s' $(seq 65))"; do
		run --separate-stderr shm_rm "$op"
		[ "$status" = 1 ] || fails+="[shm-rm '$op': exit $status] "
		[ "$stderr" = "shm-rm: $op: not a label or id" ] ||
		    fails+="[shm-rm '$op': $stderr] "
		run --separate-stderr shm_ls "$op"
		[ "$status" = 1 ] || fails+="[shm-ls '$op': exit $status] "
		[ "$stderr" = "shm-ls: $op: not a label or id" ] ||
		    fails+="[shm-ls '$op': $stderr] "
	done
	is "$fails" "" "failures"
	exists "$a"
}

@test "1: shm-rm, shm-ls: a name alone (no shmid) says how to find its label" {
	local a fails= t
	a=$(mkseg word f64 1)
	for t in shm_rm shm_ls; do
		run --separate-stderr $t "${P}word"
		[ "$status" = 1 ] || fails+="[$t: exit $status] "
		[ "$stderr" = "${t/_/-}: ${P}word: a name alone, not a label: shm-ls -N ${P}word lists its labels" ] ||
		    fails+="[$t: $stderr] "
	done
	is "$fails" "" "failures"
	exists "$a"
	run --separate-stderr shm_ls -N "${P}word"
	status_is 0
	[[ ${lines[1]} == *" $a" ]] || { echo "the hint's command does not list $a: $output" >&2; false; }
}

@test "7: shm-rm: a name alone right after a bare shmid says how to quote the label" {
	local a b id
	a=$(mkseg quote f64 1)
	b=$(mkseg quote f64 1)
	id=${a%% *}
	run --separate-stderr shm_rm "$id" "${P}quote"
	status_is 1
	[ "$stderr" = "shm-rm: ${P}quote: a name alone, not a label: shm-ls -N ${P}quote lists its labels (quote a label: shm-rm '$id ${P}quote')" ] ||
	    { echo "stderr: $stderr" >&2; false; }
	gone "$a"
	exists "$b"
	# not after a label, nor first
	run --separate-stderr shm_rm "$b" "${P}quote"
	status_is 1
	[ "$stderr" = "shm-rm: ${P}quote: a name alone, not a label: shm-ls -N ${P}quote lists its labels" ] ||
	    { echo "stderr: $stderr" >&2; false; }
	gone "$b"
}

# A uid of its own for removal by age, which takes every stale segment
# of its caller: not even the test user's segments of concurrent runs.
CLEANER=$((TESTUSER + 7))
as_cleaner() {
	setpriv --reuid="$CLEANER" --regid="$CLEANER" --clear-groups -- "$@"
}

@test "2.2, 2.4: residue (writer killed before its header): listed broken, removed by age or by id; other programs' never, 128 NUL bytes of theirs neither" {
	need_user
	local r r2 f z l line
	r=$(as_cleaner "$SHMTOOL" hostile residue "${P}r")
	track "$r"
	r=${r%% *}
	r2=$(as_cleaner "$SHMTOOL" hostile residue "${P}r2")
	track "$r2"
	r2=${r2%% *}
	f=$(as_cleaner "$SHMTOOL" hostile foreign "${P}f")
	track "$f"
	f=${f%% *}
	# all NUL under our key, mode 0600: another program's (2.4)
	z=$(as_cleaner "$SHMTOOL" hostile zero "${P}z")
	track "$z"
	z=${z%% *}
	l=$(as_cleaner "$SHMTOOL" create "${P}l" f64 1)
	track "$l"
	run --separate-stderr shm_ls -p
	status_is 0
	line=$(awk -F '\t' -v id="$r" '$1 == id' <<< "$output")
	is "$(cut -f 4,6,13-16 <<< "$line")" "$CLEANER	136	-	-	broken	-" "-p line"
	! awk -F '\t' -v id="$f" '$1 == id { f = 1 } END { exit !f }' <<< "$output" ||
	    { echo "$f listed without -a" >&2; false; }
	! awk -F '\t' -v id="$z" '$1 == id { f = 1 } END { exit !f }' <<< "$output" ||
	    { echo "$z listed without -a" >&2; false; }
	run --separate-stderr shm_ls -p -a "$z"
	is "$(cut -f 1,3,13-16 <<< "$output")" "$z	0600	-	-	-	-" "-a: another program's"
	run --separate-stderr shm_ls "$r"
	status_is 0
	is "$(awk 'NR == 2 { print $2, $3, $4, $5, $NF }' <<< "$output")" "136 - - broken $r" "long line"
	run --separate-stderr shm_ls "$r ${P}r"
	status_is 1
	is "$stderr" "shm-ls: $r ${P}r: segment $r has no label: its writer was killed before writing the header; shm-rm $r removes it"
	run --separate-stderr as_cleaner "$BIN/shm-rm" -n -s 1h
	status_is 0
	is "$output" "" "fresh residue stays"
	run --separate-stderr as_cleaner "$BIN/shm-rm" -v "$r2"
	status_is 0
	is "$(vlabels <<< "$output")" "$r2" "removed by id"
	! shmid_exists "$r2"
	run --separate-stderr as_cleaner "$BIN/shm-rm" -v -s 0
	status_is 0
	is "$(vlabels <<< "$output" | sort)" "$(printf '%s\n' "$r" "$l" | sort)" "removed by age"
	! shmid_exists "$r"
	shmid_exists "$f"
	shmid_exists "$z"
	run --separate-stderr as_cleaner "$BIN/shm-rm" "$z"
	status_is 1
	is "$stderr" "shm-rm: $z: not a shmids segment" "named"
	shmid_exists "$z"
}

# The cleaner's window (format-spec.md 7): strace holds shm-rm's first
# three shmctl calls for a second each, so a reader can come in between
# its last check and what follows.  -N: only this test's segments.
@test "7: shm-rm -s: a reader attaching just after the last check keeps its segment" {
	need_user
	need_strace
	local a
	a=$(mkseg win f64 4 644)
	delayed rm shmctl 1s:when=1..3 "$BIN/shm-rm" -v -s 0 -N "$P*"
	entered rm 2		# found idle, held before its next step
	hold "$a" 30 asuser
	wait "$DELAYED" || true
	is "$(cat "$T/rm.out" "$T/rm.err")" "" "shm-rm output"
	exists "$a"
	is "$(shm_ls -p "$a" | cut -f3,7)" "0644	1" "mode restored, nattch"
}

@test "2.4: shm-rm -s: the same as the owner, who cannot read a segment of mode 0" {
	need_user
	need_strace
	local a
	a=$(usermk create "${P}win" f64 4 644)
	delayed rm shmctl 1s:when=1..3 setpriv --reuid="$TESTUSER" \
	    --regid="$TESTUSER" --clear-groups -- \
	    "$BIN/shm-rm" -v -s 0 -N "$P*"
	entered rm 2
	hold "$a" 30 asuser
	wait "$DELAYED" || true
	is "$(cat "$T/rm.out" "$T/rm.err")" "" "shm-rm output"
	exists "$a"
	is "$(shm_ls -p "$a" | cut -f3,7)" "0644	1" "mode restored, nattch"
}

@test "2.4: shm-rm -s: once the cleaner has shut readers out, they get EACCES" {
	need_user
	need_strace
	local a
	a=$(mkseg win f64 4 644)
	delayed rm shmctl 1s:when=1..3 "$BIN/shm-rm" -v -s 0 -N "$P*"
	entered rm 3		# mode 0 set, held before the count
	run as_user "$SHMTOOL" open "$a"
	is "$output" EACCES "reader"
	wait "$DELAYED" || true
	is "$(cat "$T/rm.out" "$T/rm.err" | vlabels)" "$a" "shm-rm output"
	gone "$a"
}

@test "7: shm-rm, shm-ls: a bad operand is quoted, control bytes escaped and cut at 80 bytes" {
	local long
	long=$(head -c 300 /dev/zero | tr '\0' x)
	run --separate-stderr shm_rm "$(printf 'a\tb\001c')"
	status_is 1
	is "$stderr" 'shm-rm: a\011b\001c: not a label or id'
	run --separate-stderr shm_ls "$long"
	status_is 1
	is "$stderr" "shm-ls: ${long:0:80}...: not a label or id"
}

@test "6.1: shm-rm -s as the owner: the segment table read once, not again for each segment at mode 0" {
	need_user
	need_strace
	local a b c n
	a=$(usermk create "${P}q1" f64 1)
	b=$(usermk create "${P}q2" f64 1)
	c=$(usermk create "${P}q3" f64 1)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	    run strace -f -qq -o "$T/q.st" -e trace=openat \
	    setpriv --reuid="$TESTUSER" --regid="$TESTUSER" --clear-groups -- \
	    "$BIN/shm-rm" -s 0 -N "$P*"
	status_is 0
	is "$output" ""
	gone "$a"
	gone "$b"
	gone "$c"
	n=$(grep -c '"/proc/sysvipc/shm"' "$T/q.st")
	is "$n" 1 "reads of /proc/sysvipc/shm"
}

@test "7: shm-rm -s: nothing stale is an empty listing, as ls says nothing (-v, -n)" {
	local a
	a=$(mkseg fresh f64 1)
	run --separate-stderr shm_rm -v -s 1d -N "${P}*"
	status_is 0
	is "$output$stderr" ""
	run --separate-stderr shm_rm -n -s 1d -N "${P}*"
	status_is 0
	is "$output$stderr" ""
	exists "$a"
}

# tests/helper.bash's vlabels also takes a bare label (-f's lines); the
# owner and age that -v adds for -s are pinned here, for any caller.
@test "2.4: shm-rm -v -s: one line per removal, with its owner and age" {
	local a
	a=$(mkseg old f64 1)
	run --separate-stderr shm_rm -n -v -s 0 -N "${P}*"
	status_is 0
	like "$output" "would remove '$a' (owner $(id -un), age [0-9]s)"
	exists "$a"
	run --separate-stderr shm_rm -v -s 0 -N "${P}*"
	status_is 0
	like "$output" "removed '$a' (owner $(id -un), age [0-9]s)"
	gone "$a"
}

@test "2.4: shm-rm -v: an owner name's ESC, BEL, C1 and invalid UTF-8 from the user database are escaped; UTF-8 and backslash stay" {
	local so a name want
	# overlong, a surrogate, a character cut short: not UTF-8
	name=$'\033[2Jx\a\377y\\z\302\205\303\251\300\257\355\240\200\303'
	want='\033[2Jx\007\377y\z\302\205'$'\303\251''\300\257\355\240\200\303'
	so=$BATS_TEST_DIRNAME/../${SHMIDS_BUILD:-build}/tests/preload/hostilepw.so
	[ -f "$so" ] || { echo "$so missing: make check builds it" >&2; false; }
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
	a=$(mkseg a f64 1)
	run --separate-stderr env LD_PRELOAD="$so" SHMIDS_PWNAME="$name" \
	    "$BIN/shm-rm" -v "$a"
	status_is 0
	is "${output%, age *}" "removed '$a' (owner $want"
	like "${output#*, age }" "[0-9]s)"
	is "$stderr" ""
	gone "$a"
}

@test "2.3: shm-rm: another user's segment: a hostile owner name is escaped in the refusal" {
	need_user
	local so theirs name=$'\033]0;x\a' want='\033]0;x\007'
	so=$BATS_TEST_DIRNAME/../${SHMIDS_BUILD:-build}/tests/preload/hostilepw.so
	[ -f "$so" ] || { echo "$so missing: make check builds it" >&2; false; }
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
	theirs=$(usermk create "${P}theirs" f64 1)
	run --separate-stderr env LD_PRELOAD="$so" SHMIDS_PWNAME="$name" \
	    "$BIN/shm-rm" "$theirs"
	status_is 1
	is "$stderr" "shm-rm: $theirs: segment ${theirs%% *} is $want's, not yours: -f removes it all the same"
	exists "$theirs"
}
