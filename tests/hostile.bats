#!/usr/bin/env bats
# Issue 4, "Hostile and broken input", "Faults" and "Modes": hostile
# segments, malformed ASCII (format-spec.md 5-7) one case at a time,
# output that cannot be written, read-only readers and modes that never
# widen.  Every case must give a clear error, no out-of-bounds read (the
# suite also runs under ASan and valgrind), no hang, no wrong answer.

load helper

shmid_exists() {
	ipcs -m | awk -v id="$1" '$2 == id { f = 1 } END { exit !f }'
}
# kstate SHMID...: perms, size and ctime from the kernel, one line each;
# IPC_SET (a mode change) would move the ctime.
kstate() {
	local id
	for id; do
		awk -v id="$id" '$2 == id { print $2, $3, $4, $14 }' /proc/sysvipc/shm
	done
}
# rm_refused LABEL STDERR: shm-rm's message for a label naming a segment
# that is not ours; format-spec.md 7 allows either wording.
rm_refused() {
	[ "$2" = "shm-rm: $1: segment ${1%% *} is not a shmids segment" ] ||
	    [ "$2" = "shm-rm: $1: not a shmids segment" ]
}
# perms SHMID: the mode in octal, as /proc/sysvipc/shm has it.
perms() {
	awk -v id="$1" '$2 == id { printf "%04d\n", $3 }' /proc/sysvipc/shm
}

# --- Hostile segments --------------------------------------------------

@test "2.3: hostile headers: shmids_open errno; shm-expand file:line: label: reason, -d removes nothing" {
	local kind errno why l good got fails=
	good=$(mkseg good i32 2)
	while IFS='|' read -r kind errno why; do
		l=$(mkhostile "$kind" "$kind")
		got=$(shmtool open "$l") || true
		[ "$got" = "$errno" ] || fails+="[$kind: open gave $got, want $errno] "
		printf 'x shmids %s\ny shmids %s\n' "$l" "$good" > in
		runio in shm_expand -d
		[ "$status" = 1 ] || fails+="[$kind: exit $status] "
		[ "$(cat err)" = "shm-expand: stdin:1: $l: $(why_of "$why" "$l")" ] ||
		    fails+="[$kind: stderr '$(cat err)'] "
		printf 'x shmids %s\ny 0 1\n' "$l" | cmp -s - out ||
		    fails+="[$kind: stdout '$(cat out)'] "
		shmid_exists "${l%% *}" || fails+="[$kind: removed by -d] "
		status=0
		shm_ls -p "$l" > /dev/null 2>&1 || status=$?
		[ "$status" -le 1 ] || fails+="[$kind: shm-ls exit $status] "
		good=$(mkseg good i32 2)
	done <<-'EOF'
	bigcount|EBADMSG|segment @id has a damaged header (malformed, or claiming more bytes than the segment has); shm-rm '@label' removes it
	bigtype|EBADMSG|segment @id has a damaged header (malformed, or claiming more bytes than the segment has); shm-rm '@label' removes it
	wrapcount|EBADMSG|segment @id has a damaged header (malformed, or claiming more bytes than the segment has); shm-rm '@label' removes it
	hugecount|EBADMSG|segment @id has a damaged header (malformed, or claiming more bytes than the segment has); shm-rm '@label' removes it
	reserved|EBADMSG|segment @id has a damaged header (malformed, or claiming more bytes than the segment has); shm-rm '@label' removes it
	order|EBADMSG|segment @id has a damaged header (malformed, or claiming more bytes than the segment has); shm-rm '@label' removes it
	nonul|ESTALE|segment @id is not a shmids segment
	nonl|ESTALE|segment @id is not a shmids segment
	padding|EBADMSG|segment @id has a damaged header (malformed, or claiming more bytes than the segment has); shm-rm '@label' removes it
	residue|ESTALE|segment @id has no label: its writer was killed before writing the header; shm-rm @id removes it
	zero|ESTALE|segment @id is not a shmids segment
	small|ESTALE|segment @id is not a shmids segment
	EOF
	is "$fails" "" "failures"
	run --separate-stderr shm_ls -pa
	status_is 0
	awk -F '\t' 'NF != 16 { print "bad line: " $0; bad = 1 } END { exit bad }' <<< "$output" >&2
}

@test "2.3: other programs' segments (ipcmk -M, shmget, under 128 bytes) in a reference: stale, untouched" {
	local how size id l before fails=
	while read -r how size; do
		case $how in
		ipcmk) id=$(mkipcmk "$size") ;;
		shmget) id=$(mkraw "$size") ;;
		esac
		l="$id ${P}x"
		before=$(kstate "$id")
		printf 'a shmids %s\n' "$l" > in
		runio in shm_expand -d
		[ "$status" = 1 ] || fails+="[$how $size: exit $status] "
		[ "$(cat err)" = "shm-expand: stdin:1: $l: segment $id is not a shmids segment" ] ||
		    fails+="[$how $size: stderr '$(cat err)'] "
		cmp -s in out || fails+="[$how $size: stdout '$(cat out)'] "
		got=$(shmtool open "$l") || true
		[ "$got" = ESTALE ] || fails+="[$how $size: open $got] "
		run --separate-stderr shm_ls "$l"
		[ "$status" = 1 ] && [ "$stderr" = "shm-ls: $l: segment $id is not a shmids segment" ] ||
		    fails+="[$how $size: shm-ls exit $status '$stderr'] "
		run --separate-stderr shm_rm "$l"
		[ "$status" = 1 ] && rm_refused "$l" "$stderr" ||
		    fails+="[$how $size: shm-rm exit $status '$stderr'] "
		[ "$(kstate "$id")" = "$before" ] ||
		    fails+="[$how $size: changed: $before -> $(kstate "$id")] "
	done <<-'EOF'
	ipcmk 4096
	ipcmk 64
	shmget 1
	shmget 127
	shmget 128
	shmget 65536
	EOF
	is "$fails" "" "failures"
}

@test "2.3: another user's segments: our name, and a copy of our label; never taken for ours" {
	need_user
	local mine theirs copy
	mine=$(mkseg x i32 3 644)
	theirs=$(as_user "$SHMTOOL" create "${P}x" i32 2 644)
	track "$theirs"
	copy=$(as_user "$SHMTOOL" mimic "$mine")
	track "$copy"
	is "$(kstate "$copy" | cut -d' ' -f2)" 600 "the copy's mode"
	# each reference gets its own segment's data, or a clear error
	printf 'a shmids %s\nb shmids %s\nc shmids %s %s\n' \
	    "$mine" "$theirs" "$copy" "${P}x" > in
	runio in shm_expand -d -f c
	status_is 1
	err_is "shm-expand: stdin:3: $copy ${P}x: segment $copy is not a shmids segment"
	same_file in out
	runio in shm_expand
	status_is 1
	printf 'a 0 1 2\nb 0 1\nc shmids %s %s\n' "$copy" "${P}x" | same_file /dev/stdin out
	# listed as theirs, or not at all without -a
	run --separate-stderr shm_ls -p -N "${P}x"
	status_is 0
	is "$(cut -f 1,4,16 <<< "$output" | sort)" \
	    "$(printf '%s\t0\t%s\n%s\t%s\t%s\n' "${mine%% *}" "$mine" \
	    "${theirs%% *}" "$TESTUSER" "$theirs" | sort)" "listing"
	# removal by age judges neither the copy nor the other user's one
	run --separate-stderr shm_rm -n -s 0 -N "${P}*"
	status_is 0
	is "$output" "$mine" "root's shm-rm -n -s 0"
	run --separate-stderr as_user "$BIN/shm-rm" -n -s 0 -N "${P}*"
	status_is 0
	is "$output" "$theirs" "$TESTUSER's shm-rm -n -s 0"
	run --separate-stderr shm_rm "$copy"
	status_is 1
	is "$stderr" "shm-rm: $copy: not a shmids segment"
	run --separate-stderr shm_rm "$copy ${P}x"
	status_is 1
	rm_refused "$copy ${P}x" "$stderr" || { echo "stderr: $stderr" >&2; false; }
	shmid_exists "$copy"
	exists "$mine"
	exists "$theirs"
}

@test "2.3: a header rewritten after the reader opened it: the view of the header checked at open" {
	local kind want l got fails=
	# i32 x 992 + 128 = 4096 bytes: one byte more is past the page
	while read -r kind want; do
		l=$(mkseg "rw$kind" i32 992)
		got=$(shmtool rewrite "$l" "$kind") || true
		[ "$got" = "$want" ] || fails+="[$kind: want $want, got $got] "
	done <<-'EOF'
	same i32 992
	bigcount i32 992
	bigtype i32 992
	wrapcount i32 992
	hugecount i32 992
	label i32 992
	EOF
	is "$fails" "" "failures"
}

# --- Malformed ASCII ---------------------------------------------------

@test "2.3: overlong lines: 5 MB of text and a 5 MB reference pass through; 5 MB of values round-trip" {
	local l
	{ head -c 5000000 /dev/zero | tr '\0' a; printf '\n'; } > text
	runio text shm_expand
	status_is 0
	same_file text out
	err_is ""
	runio text shm_import -k 1 -P "$P"
	status_is 0
	same_file text out
	{ printf 'x shmids 12 '; head -c 5000000 /dev/zero | tr '\0' n; printf '\n'; } > ref
	runio ref shm_expand
	status_is 1
	same_file ref out
	err_is "shm-expand: stdin:1: malformed reference: name longer than 64 bytes"
	{ printf 'x'; yes ' 1.5' | head -n 1250000 | tr -d '\n'; printf '\n'; } > values
	runio values shm_import -P "$P"
	status_is 0
	# (valgrind warns that it ignores SHM_HUGETLB: not the tool's output)
	is "$(grep -v '^==[0-9]*== ' err)" "" "stderr"
	like "$(cat out)" "x shmids [0-9]* ${P}x" "reference line"
	l=$(label_of out)
	is "$(shmtool open "$l")" "f64 1250000 1875000" "segment"
	cp out in
	runio in shm_expand -c 0
	status_is 0
	same_file values out
}

@test "2.3: NUL and CR inside reference lines: malformed, passed through, file:line" {
	local good line why fails=
	good=$(mkseg good i32 2)
	while IFS='|' read -r line why; do
		printf 'b\n%b\ny shmids %s\n' "$line" "$good" > in
		runio in shm_expand
		[ "$status" = 1 ] || fails+="[$line: exit $status] "
		[ "$(cat err)" = "shm-expand: stdin:2: malformed reference: $why" ] ||
		    fails+="[$line: stderr '$(cat err)'] "
		printf 'b\n%b\ny 0 1\n' "$line" | cmp -s - out ||
		    fails+="[$line: stdout $(od -c out | head -3)] "
	done <<-EOF
	x shmids ${good% *} ${good#* }\\0|NUL byte in reference
	x shmids ${good% *}\\0 ${good#* }|NUL byte in reference
	x\\0 shmids ${good}|NUL byte in reference
	x shmids ${good}\\0\\r|NUL byte in reference
	x shmids ${good% *}\\r ${good#* }|CR inside reference
	x shmids ${good}\\r\\r|CR inside reference
	x shmids ${good}\\rz|CR inside reference
	EOF
	is "$fails" "" "failures"
}

@test "2.3: no final newline: malformed, stale and good references all keep their end" {
	local good gone line want why fails=
	good=$(mkseg good i32 2)
	gone=$(mkseg gone i32 2)
	ipcrm -m "${gone%% *}"
	while IFS='|' read -r line want why; do
		printf 'a\n%b' "$line" > in
		runio in shm_expand
		if [ -n "$why" ]; then
			[ "$status" = 1 ] || fails+="[$line: exit $status] "
			[ "$(cat err)" = "shm-expand: stdin:2: $why" ] ||
			    fails+="[$line: stderr '$(cat err)'] "
		else
			[ "$status" = 0 ] || fails+="[$line: exit $status] "
		fi
		printf 'a\n%b' "$want" | cmp -s - out ||
		    fails+="[$line: stdout '$(cat out)'] "
	done <<-EOF
	x shmids|x shmids|malformed reference: no label after shmids
	x shmids ${good%% *}|x shmids ${good%% *}|malformed reference: no name after shmid
	x shmids coeff|x shmids coeff|malformed reference: no label after shmids (a shmid, then a name)
	x shmids $gone|x shmids $gone|$gone: no such segment (removed, or never made)
	x shmids $good|x 0 1|
	x shmids $good \t |x 0 1|
	EOF
	is "$fails" "" "failures"
}

@test "2.3: blanks after the label are ignored with every end of line" {
	local good blank eol fails=
	good=$(mkseg good i32 3)
	for eol in '\n' '\r\n' ''; do
		for blank in ' ' '\t' ' \t ' '\t\t'; do
			printf 'x shmids %s\t%s%b%b' "${good%% *}" "${good#* }" "$blank" "$eol" > in
			runio in shm_expand
			[ "$status" = 0 ] || fails+="[$blank$eol: exit $status $(cat err)] "
			printf 'x 0 1 2%b' "$eol" | cmp -s - out ||
			    fails+="[$blank$eol: stdout $(od -c out | head -2)] "
		done
	done
	is "$fails" "" "failures"
}

@test "2.3: shm-import: numbers that overflow are errors naming file:line; without -f the line stays" {
	local type tok fails=
	while read -r type tok; do
		printf 'a\nx 1 %s 2\n' "$tok" > in
		runio in shm_import -f x -t "$type" -P "$P"
		[ "$status" = 1 ] || fails+="[$type $tok: exit $status] "
		[ "$(cat err)" = "shm-import: stdin:2: x: bad value \"$tok\"" ] ||
		    fails+="[$type $tok: stderr '$(cat err)'] "
		cmp -s in out || fails+="[$type $tok: stdout '$(cat out)'] "
		runio in shm_import -k 1 -t "$type" -P "$P"
		[ "$status" = 0 ] || fails+="[$type $tok, no -f: exit $status] "
		cmp -s in out || fails+="[$type $tok, no -f: converted] "
	done <<-'EOF'
	i32 2147483648
	i32 -2147483649
	i32 0x1ffffffff
	i64 9223372036854775808
	i64 99999999999999999999999999999999999999999999
	i64 0x10000000000000000
	f64 1e400
	f64 -1e400
	f64 1.7976931348623159e308
	f64 0x1.fffffffffffff8p1023
	f32 1e39
	f32 340282356779733661637539395458142568448
	raw 256
	raw 0x100
	EOF
	is "$fails" "" "failures"
	no_segments_named "$P"
}

@test "2.3: shm-import: a NUL among the values is an error, line unchanged" {
	printf 'x 1 2\0 3\n' > in
	runio in shm_import -f x -P "$P"
	status_is 1
	same_file in out
	# the NUL ends the token "2"; the token it begins is shown as \000
	err_is 'shm-import: stdin:1: x: bad value "\000"'
	no_segments_named "$P"
}

# --- Faults ------------------------------------------------------------

@test "2.3: shm-expand | head -n 1: quiet, and -d removes nothing" {
	local l
	l=$(mkseg big f64 200000)
	printf 'x shmids %s\n' "$l" > in
	status=0
	( set -o pipefail; shm_expand -d < in 2> err | head -n 1 > first ) || status=$?
	[ "$status" != 0 ] || { echo "exit 0: the pipe never closed?" >&2; false; }
	err_is ""
	like "$(cat first)" "x 0 1 2 3 *" "first line"
	exists "$l"
}

@test "2.3: shm-expand | head -n 1 with SIGPIPE ignored: stdout error, exit 1, -d removes nothing" {
	local l
	l=$(mkseg big f64 200000)
	printf 'x shmids %s\n' "$l" > in
	status=0
	( trap '' PIPE; set -o pipefail; shm_expand -d < in 2> err | head -n 1 > /dev/null ) ||
	    status=$?
	status_is 1
	err_is "shm-expand: stdout: Broken pipe"
	exists "$l"
}

@test "2.3: shm-import | head -n 1: every segment the run made is removed" {
	local i sig n fails=
	for i in $(seq 3000); do
		printf 'x%s 1 2 3\n' "$i"
	done > in
	for sig in default ignored; do
		status=0
		if [ "$sig" = ignored ]; then
			( trap '' PIPE; set -o pipefail
			  shm_import -k 3 -P "$P$sig." < in 2> err | head -n 1 > /dev/null ) ||
			    status=$?
		else
			( set -o pipefail
			  shm_import -k 3 -P "$P$sig." < in 2> err | head -n 1 > /dev/null ) ||
			    status=$?
		fi
		[ "$status" != 0 ] || fails+="[SIGPIPE $sig: exit 0] "
		n=$("$SHMTOOL" find "$P$sig." | wc -l)
		[ "$n" = 0 ] || fails+="[SIGPIPE $sig: $n segments left] "
	done
	is "$fails" "" "failures"
}

# --- Modes -------------------------------------------------------------

@test "2.3: readers attach read-only: a write through shmids_open/array/get faults" {
	local l
	l=$(mkseg ro f64 4 666)
	run --separate-stderr shmtool rdonly "$l"
	status_is 0
	is "$output" "SIGSEGV SIGSEGV SIGSEGV"
	is "$(shmtool open "$l")" "f64 4 6" "data after the attempts"
}

@test "2.3: tools never widen permissions: shm-ls, shm-expand, shm-rm leave modes and ctime" {
	local mode l ids='' labels=() before st deny rmdeny
	for mode in 600 640 644 444 400 000; do
		l=$(mkseg "m$mode" i32 2 "$mode")
		labels+=("$l")
		ids+=" ${l%% *}"
	done
	# shellcheck disable=SC2086
	before=$(kstate $ids)
	sleep 1.1
	shm_ls > /dev/null
	shm_ls -a > /dev/null
	shm_ls -p "${labels[@]}" > /dev/null
	printf 'x shmids %s\n' "${labels[@]}" > in
	# a plain user may not read even its own segment of mode 000
	st=0 deny= rmdeny=
	if [ "$(id -u)" != 0 ]; then
		st=1
		deny="${labels[5]}: segment ${labels[5]%% *} is $(id -un 2> /dev/null || id -u)'s, mode 000: you may not read it"
		# shm-rm says what removes it (format-spec.md 7)
		rmdeny="${labels[5]}: segment ${labels[5]%% *} cannot be read by you (mode 000), so it cannot be told for a shmids segment: shm-rm -f ${labels[5]%% *} removes it"
	fi
	runio in shm_expand
	status_is "$st"
	err_is "${deny:+shm-expand: stdin:6: $deny}"
	runio /dev/null shm_rm -n "${labels[@]}"
	status_is "$st"
	err_is "${rmdeny:+shm-rm: $rmdeny}"
	shm_rm -n -s 0 -N "${P}*" > /dev/null
	shm_rm "${labels[0]% *} ${P}other" 2> /dev/null || true
	if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
		as_user "$BIN/shm-ls" -a > /dev/null 2>&1 || true
		as_user "$BIN/shm-expand" < in > /dev/null 2>&1 || true
		as_user "$BIN/shm-rm" "${labels[@]}" > /dev/null 2>&1 || true
	fi
	# shellcheck disable=SC2086
	is "$(kstate $ids)" "$before" "shmid perms bytes ctime"
	for l in "${labels[@]}"; do
		# kstate saw the mode-000 one, which a plain user cannot open
		[ -n "$deny" ] && [ "$l" = "${labels[5]}" ] || exists "$l"
	done
}

@test "2.3: shm-import -m: exactly the mode asked for, whatever the umask" {
	local um mode l fails=
	printf 'x 1 2\n' > in
	for um in 000 077; do
		for mode in 0600 0400 0000 0660; do
			umask "$um"
			runio in shm_import -f x -m "$mode" -P "$P"
			[ "$status" = 0 ] || fails+="[umask $um -m $mode: exit $status $(cat err)] "
			l=$(label_of out)
			track "$l"
			[ "$(perms "${l%% *}")" = "$mode" ] ||
			    fails+="[umask $um -m $mode: perms $(perms "${l%% *}")] "
		done
	done
	umask 022
	is "$fails" "" "failures"
}

# --- What is ours ------------------------------------------------------

# lpidatime SHMID: last pid and attach time from the kernel.
lpidatime() {
	awk -v id="$1" '$2 == id { print $6, $12 }' /proc/sysvipc/shm
}

@test "2.3: a label names its segment whatever the key: readers, shm-ls and shm-rm agree; scans never attach it" {
	local n id before
	n=$(mkhostile nokey nokey)
	id=${n%% *}
	is "$(shmtool open "$n")" "f64 1 0" "reader"
	before=$(lpidatime "$id")
	run --separate-stderr shm_ls -p
	status_is 0
	! awk -F '\t' -v id="$id" '$1 == id { f = 1 } END { exit !f }' <<< "$output" ||
	    { echo "listed without -a" >&2; false; }
	run --separate-stderr shm_ls -p -a
	status_is 0
	is "$(awk -F '\t' -v id="$id" '$1 == id' <<< "$output" | cut -f 13-16)" \
	    "-	-	-	-" "-a"
	shm_rm -n -s 0 -N "${P}*" > /dev/null
	is "$(lpidatime "$id")" "$before" "scans did not attach it"
	run --separate-stderr shm_ls -p "$n"
	status_is 0
	is "$(cut -f 13-16 <<< "$output")" "f64	1	ready	$n" "shm-ls label"
	run --separate-stderr shm_ls -p "$id"
	status_is 0
	is "$(cut -f 13-16 <<< "$output")" "f64	1	ready	$n" "shm-ls id"
	run --separate-stderr shm_rm -n "$n"
	status_is 0
	is "$output" "$n" "shm-rm -n"
	run --separate-stderr shm_rm "$n"
	status_is 0
	! shmid_exists "$id"
}

@test "2.3: scans never attach a segment under 128 bytes, even under our key" {
	local s id pids= lpid
	s=$(mkhostile small small)
	id=${s%% *}
	# the last attach is never one of the scans' (concurrent test
	# teardowns, shmtool find, may attach it meanwhile)
	"$BIN/shm-ls" > /dev/null &
	pids+=" $!"
	wait $!
	"$BIN/shm-ls" -a > /dev/null &
	pids+=" $!"
	wait $!
	"$BIN/shm-rm" -n -s 0 -N "${P}*" > /dev/null &
	pids+=" $!"
	wait $!
	lpid=$(lpidatime "$id" | cut -d' ' -f1)
	[[ " $pids " != *" $lpid "* ]] ||
	    { echo "attached by a scan: lpid $lpid in$pids" >&2; false; }
	run --separate-stderr shm_ls -p -a
	is "$(awk -F '\t' -v id="$id" '$1 == id' <<< "$output" | cut -f 6,13-16)" \
	    "64	-	-	-	-" "-a"
}

@test "2.3: a segment removed while attached (dest) is gone to every tool" {
	local l id op why fails=
	l=$(mkseg dest f64 1)
	id=${l%% *}
	hold "$l" 30
	ipcrm -m "$id"
	is "$(shmtool open "$l")" ENOENT "reader"
	why="segment $id was removed; another process still attached keeps it until it detaches"
	for op in "$l" "$id"; do
		run --separate-stderr shm_ls "$op"
		[ "$status" = 1 ] && [ "$stderr" = "shm-ls: $op: $why" ] ||
		    fails+="[shm-ls '$op': exit $status '$stderr'] "
		run --separate-stderr shm_rm "$op"
		[ "$status" = 1 ] && [ "$stderr" = "shm-rm: $op: $why" ] ||
		    fails+="[shm-rm '$op': exit $status '$stderr'] "
	done
	is "$fails" "" "failures"
	printf 'x shmids %s\n' "$l" > in
	runio in shm_expand
	status_is 1
	err_is "shm-expand: stdin:1: $l: $why"
}

# A segment larger than the address space a job may use cannot be
# attached to read its header; every tool says so, in those words.
@test "2.3: a segment too large for ulimit -v: each tool says it cannot read the header, exit 1" {
	local l id
	(ulimit -v 100000 && exec "$BIN/shm-ls" -p -u 0 > /dev/null 2>&1) ||
	    skip "$BIN/shm-ls does not run under ulimit -v 100000"
	l=$(mkseg big f64 20000000)
	id=${l%% *}
	msg="cannot read its header: out of memory for a segment of 160000128 bytes (address space limited? see ulimit -v)"
	run --separate-stderr bash -c "ulimit -v 100000 && exec '$BIN/shm-ls' '$l'"
	status_is 1
	is "$stderr" "shm-ls: $id: $msg"
	run --separate-stderr bash -c "ulimit -v 100000 && exec '$BIN/shm-rm' -n '$l'"
	status_is 1
	is "$stderr" "shm-rm: $l: $msg"
	run --separate-stderr bash -c "ulimit -v 100000 && exec '$BIN/shm-rm' -n -s 0 -N '${P}*'"
	status_is 1
	is "$stderr" "shm-rm: $id: $msg"
	run --separate-stderr bash -c "echo 'x shmids $l' | { ulimit -v 100000 && exec '$BIN/shm-expand'; }"
	status_is 1
	is "$output" "x shmids $l"
	is "$stderr" "shm-expand: stdin:1: $l: out of memory (address space limited? see ulimit -v)"
	shmid_exists "$id"
}
