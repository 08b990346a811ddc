#!/usr/bin/env bats
# The C API through tests/tools/shmtool: header layout (format-spec.md 2),
# keys and modes (2.4), the paper's API, and the errno shmids_open() gives
# for every kind of bad reference (2.3).

load helper

@test "2.3: create: header bytes are exactly those of format-spec.md section 2" {
	local l
	l=$(mkseg hdr f64 3)
	like "$l" "[0-9]* ${P}hdr" "label"
	shmtool header "${l%% *}" > got
	{
		printf '%s\0\n' "$l"
		head -c $((80 - ${#l} - 2)) /dev/zero
		printf 'shmids1 f64 %s 00000000000000000003 r\n' "$ORDER"
		head -c 10 /dev/zero
	} > want
	same_file want got
}

@test "4: create: type field, segment size and key for each element type" {
	local row type count size l id got fails=
	for row in "f64 5 40" "f32 5 20" "i64 5 40" "i32 5 20" "raw 5 5" \
	    "f64 0 0" "raw 0 0"; do
		set -- $row
		type=$1 count=$2 size=$3
		l=$(mkseg "$type" "$type" "$count")
		id=${l%% *}
		got=$(hdrfield "$id" 88 3)
		[ "$got" = "$type" ] || fails+="$row: type field $got; "
		set -- $(ipcs -m | awk -v id="$id" '$2 == id { print $1, $5 }')
		[ "$2" = $((128 + size)) ] || fails+="$row: $2 bytes; "
		like "$1" "0x5348????" "$row: key" || fails+="$row: key $1; "
	done
	is "$fails" "" "failures"
}

@test "4: open: reads back what create wrote, for each type" {
	local row fails= l got
	for row in "f64 100 4950" "f32 100 4950" "i64 100 4950" \
	    "i32 100 4950" "raw 300 33586" "f64 0 0"; do
		set -- $row
		l=$(mkseg "v$1" "$1" "$2")
		got=$(shmtool open "$l") || true
		[ "$got" = "$row" ] || fails+="[$row: got $got] "
	done
	is "$fails" "" "failures"
}

@test "1: open: accepts the label followed by one newline" {
	local l
	l=$(mkseg nl f64 4)
	run shmtool open "$l"$'\n'
	status_is 0
	is "$output" "f64 4 6"
}

@test "2.4: create: mode is exactly the mode asked for, whatever the umask" {
	local row l fails=
	umask 077
	for row in 600 640 644 444 666; do
		l=$(mkseg "m$row" f64 1 "$row")
		set -- $(ipcs -m | awk -v id="${l%% *}" '$2 == id { print $4 }')
		[ "$1" = "$row" ] || fails+="[asked $row, got $1] "
	done
	is "$fails" "" "failures"
}

@test "1: create: bad names and modes give EINVAL or ENAMETOOLONG" {
	local name64 row fails= got
	name64=$(printf 'n%.0s' $(seq 64))
	while IFS='|' read -r name mode want; do
		printf -v name '%b' "$name"
		got=$(shmtool create "$name" f64 1 "$mode") || true
		case $got in [0-9]*) track "$got" ;; esac
		[ "$got" = "$want" ] || fails+="[name '$name' mode $mode: want $want, got $got] "
	done <<-EOF
	|600|EINVAL
	${P}a b|600|EINVAL
	${P}a\\177|600|EINVAL
	${P}\\001|600|EINVAL
	${P}caf\\303\\251|600|EINVAL
	${P}x|1000|EINVAL
	${P}x|4600|EINVAL
	${P}${name64}|600|ENAMETOOLONG
	EOF
	is "$fails" "" "failures"
}

@test "1: create: a 64-byte name is accepted and gives a 75-byte-or-less label" {
	local name l
	name=$(printf 'n%.0s' $(seq $((64 - ${#P}))))
	l=$(mkseg "$name" i32 2)
	is "${l#* }" "$P$name"
	run shmtool open "$l"
	status_is 0
	is "$output" "i32 2 1"
}

@test "1: open: labels that do not parse give EINVAL or ENAMETOOLONG" {
	local l id name long fails= row want label got
	l=$(mkseg p f64 1)
	id=${l%% *} name=${l#* }
	long=$(printf 'a%.0s' $(seq 65))
	while IFS='|' read -r label want; do
		printf -v label '%b' "$label"
		got=$(shmtool open "$label") || true
		[ "$got" = "$want" ] || fails+="[$(printf %q "$label"): want $want, got $got] "
	done <<-EOF
	|EINVAL
	x|EINVAL
	$id|EINVAL
	$id |EINVAL
	 $l|EINVAL
	$l |EINVAL
	0$l|EINVAL
	+$l|EINVAL
	-$l|EINVAL
	$id  $name|EINVAL
	$id\\t$name|EINVAL
	$l\\n\\n|EINVAL
	$l\\r\\n|EINVAL
	$l\\r|EINVAL
	$l x|EINVAL
	$id caf\\303\\251|EINVAL
	$id a\\177|EINVAL
	2147483648 $name|EINVAL
	99999999999 $name|EINVAL
	$id $long|ENAMETOOLONG
	EOF
	is "$fails" "" "failures"
}

@test "2: open: a removed segment gives ENOENT" {
	local l
	l=$(mkseg gone f64 1)
	ipcrm -m "${l%% *}"
	run shmtool open "$l"
	status_is 1
	is "$output" ENOENT
}

@test "2.4: open: another user's 0600 segment gives EACCES, a 0644 one opens" {
	need_user
	local a b
	a=$(mkseg private f64 2 600)
	b=$(mkseg public f64 2 644)
	run as_user "$SHMTOOL" open "$a"
	status_is 1
	is "$output" EACCES
	run as_user "$SHMTOOL" open "$b"
	status_is 0
	is "$output" "f64 2 1"
}

@test "2: open: stale and foreign segments give ESTALE" {
	local l rid fails= kind got
	l=$(mkseg real f64 1)
	got=$(shmtool open "${l%% *} ${P}other") || true
	[ "$got" = ESTALE ] || fails+="[other name: $got] "
	rid=$(mkraw 4096)
	got=$(shmtool open "$rid ${P}x") || true
	[ "$got" = ESTALE ] || fails+="[private shmget segment: $got] "
	for kind in small nonul nonl magic version foreign zero; do
		l=$(mkhostile "$kind" "$kind")
		got=$(shmtool open "$l") || true
		[ "$got" = ESTALE ] || fails+="[hostile $kind: $got] "
	done
	is "$fails" "" "failures"
}

@test "2.3: open: corrupt headers give EBADMSG" {
	local kind l got fails=
	# a label padded with other bytes than NUL: corrupt, not stale;
	# a version-2 header whose shape is wrong (format-spec.md 2.7)
	for kind in padding type order orderxx count state reserved bigcount \
	    v2noshape v2zero v2digit v2nonl v2futex v2cols; do
		l=$(mkhostile "$kind" "$kind")
		got=$(shmtool open "$l") || true
		[ "$got" = EBADMSG ] || fails+="[hostile $kind: $got] "
	done
	is "$fails" "" "failures"
}

@test "2.3: open: a header written by hand from the spec is accepted" {
	local l
	l=$(mkhostile good good)
	run shmtool open "$l"
	status_is 0
	is "$output" "f64 1 0"
}

# The segment's resident bytes, from the rss column of /proc/sysvipc/shm.
shm_rss() {
	awk -v id="$1" '$2 == id && NF >= 16 { print $15 }' /proc/sysvipc/shm
}

@test "2.5: open: a segment 256 MiB larger than its header says: only the declared bytes are populated" {
	local l id rss kb
	l=$(mkhostile roomy roomy)
	id=${l%% *}
	rss=$(shm_rss "$id")
	[ -n "$rss" ] || skip "no rss column in /proc/sysvipc/shm"
	printf 'x shmids %s\n' "$l" > ref
	runio ref "$SHMTOOL" maxrss "$BIN/shm-expand"
	status_is 0
	is "$(sed '$d' out)" "x 0"
	kb=$(tail -n 1 out)
	[ "$kb" -lt 65536 ] || { echo "shm-expand's RSS $kb kB" >&2; false; }
	run shmtool open "$l"
	status_is 0
	is "$output" "f64 1 0"
	rss=$(shm_rss "$id")
	[ "$rss" -lt 1048576 ] ||
	    { echo "segment resident after the readers: $rss bytes" >&2; false; }
}

@test "2.2: open: a segment being filled gives EAGAIN, and opens once sealed" {
	local l
	l=$(mkwriter w 2)
	run shmtool open "$l"
	status_is 1
	is "$output" EAGAIN
	sleep 2.5
	run shmtool open "$l"
	status_is 0
	is "$output" "f64 10 45"
}

@test "2.2: open: a writer killed before sealing gives EOWNERDEAD" {
	local l
	l=$(mkkilled killed)
	run shmtool open "$l"
	status_is 1
	is "$output" EOWNERDEAD
	l=$(mkhostile dead dead)
	run shmtool open "$l"
	status_is 1
	is "$output" EOWNERDEAD
}

@test "4: paper API: shm_create, shm_close, shm_open read back; type raw" {
	local l
	l=$(mkpaper paper 1000)
	like "$l" "[0-9]* ${P}paper" "label"
	run shmtool open "$l"
	status_is 0
	is "$output" "raw 1000 $(seq 0 999 | awk '{ s += $1 % 251 } END { print s }')"
	run shmtool paperopen "$l"
	status_is 0
	is "$output" "$l"
	is "$(hdrfield "${l%% *}" 80 37)" "shmids1 raw $ORDER 00000000000000001000 r"
}

@test "2.2: paper API: a writer that exits without shm_close is sealed at exit" {
	local l
	l=$(mkpaper exited 10 exit)
	run shmtool open "$l"
	status_is 0
	is "$output" "raw 10 45"
}

@test "2.2: paper API: a writer that ends with _exit leaves its segment dead" {
	local l
	l=$(mkpaper underscore 10 _exit)
	run shmtool open "$l"
	status_is 1
	is "$output" EOWNERDEAD
	run shmtool paperopen "$l"
	status_is 1
	is "$output" EOWNERDEAD
}

@test "2: paper API: shm_open of a missing segment fails with ENOENT" {
	local l
	l=$(mkpaper missing 10)
	ipcrm -m "${l%% *}"
	run shmtool paperopen "$l"
	status_is 1
	is "$output" ENOENT
}

@test "2: paper API: negative nbytes is EINVAL" {
	run shmtool paper "${P}neg" -1
	[ "$status" -ne 0 ]
	case $output in [0-9]*) track "$output" ;; esac
	is "$output" EINVAL
}

@test "1: create: names may hold / - . and the like (the paper's simdat-3/23-seriesb)" {
	local l
	l=$(mkseg 'simdat-3/23-seriesb.~!#' f64 2)
	like "$l" "[0-9]* ${P}simdat-3/23-seriesb.~!#" "label"
	run shmtool open "$l"
	status_is 0
	is "$output" "f64 2 1"
}

@test "2.2: open_wait: returns once the writer seals, sealed by the library or by hand" {
	local be kind l start ms
	for be in sysv file; do
		for kind in writer foreign; do
			l=$(bgwriter "$kind" "$be" "$kind$be" 0.5)
			start=$(date +%s%N)
			run shmtool openwait "$l" 10
			ms=$(ms_since "$start")
			status_is 0
			is "$output" "f64 10 45" "$kind $be"
			[ "$ms" -lt 5000 ] || { echo "$kind $be: $ms ms" >&2; false; }
		done
	done
}

@test "2.2: open_wait: EOWNERDEAD soon after the writer dies; at once for a dead one" {
	local be l pid start ms
	for be in sysv file; do
		l=$(bgwriter writer "$be" "w$be" 20)
		pid=$(tail -n 1 "$T/.pids")
		( sleep 0.5; kill "$pid" ) 3>&- &
		start=$(date +%s%N)
		run shmtool openwait "$l" 20
		ms=$(ms_since "$start")
		status_is 1
		is "$output" EOWNERDEAD "$be"
		[ "$ms" -lt 5000 ] || { echo "$be: $ms ms" >&2; false; }
	done
	l=$(mkkilled killed)
	run shmtool openwait "$l" 20
	status_is 1
	is "$output" EOWNERDEAD
}

@test "2.2: open_wait: 0 tries once; 1 waits the whole second; then EAGAIN" {
	local be l secs start ms low
	for be in sysv file; do
		l=$(bgwriter writer "$be" "w$be" 30)
		for secs in 0 1 0.3; do
			start=$(date +%s%N)
			run shmtool openwait "$l" "$secs"
			ms=$(ms_since "$start")
			status_is 1
			is "$output" EAGAIN "$be -w $secs"
			low=$(awk -v s="$secs" 'BEGIN { print int(s * 1000) }')
			[ "$ms" -ge "$low" ] && [ "$ms" -lt $((low + 2000)) ] ||
			    { echo "$be: $secs s gave up after $ms ms" >&2; false; }
		done
	done
}

@test "6: open_wait: seconds negative or NaN is EINVAL; other errors as open" {
	local l secs
	l=$(mkseg a f64 3)
	for secs in -1 nan -nan; do
		run shmtool openwait "$l" "$secs"
		status_is 1
		is "$output" EINVAL "$secs"
	done
	run shmtool openwait "$l" 1
	status_is 0
	is "$output" "f64 3 3"
	run shmtool openwait "${l%% *} ${P}other" 1
	status_is 1
	is "$output" ESTALE
}

@test "8: get: a continuation line too long to read is ENOMEM, not the end" {
	run bash -c 'ulimit -v 100000 && exec "$0" get f64 < /dev/null' "$SHMTOOL"
	[ "$output" = "errno 0" ] ||
	    skip "shmtool does not run under ulimit -v 100000"
	printf 'a 1 2 /\n 3 /\n' > in
	{ head -c 150000000 /dev/zero | tr '\0' x; printf '\n4\n'; } >> in
	run -1 bash -c 'ulimit -v 100000 && exec "$0" get f64 < in' "$SHMTOOL"
	is "$output" ENOMEM
	printf 'a 1 2 /\n 3 /\n' > in
	run -0 shmtool get f64 < in
	is "$output" 3
	rm -f in
}

# lazyopen LABEL FLAGS SECONDS: tests/tools/lazyopen.c's line.
lazyopen() { timeout 30 "$TOOLS/lazyopen" "$@"; }

@test "2.5: open_flags: SHMIDS_LAZY populates nothing at the attach; release drops pages read, losing nothing" {
	local be l n open read rel reread s1 s2 mb
	mkdir -p "$T/d"
	for be in sysv file; do
		if [ "$be" = file ]; then
			l=$(SHMIDS_DIR=$T/d mkseg "lz$be" f64 2097152)
		else
			l=$(mkseg "lz$be" f64 2097152)
		fi
		run lazyopen "$l" 16 0
		status_is 0
		read -r n open read rel reread s1 s2 <<< "$output"
		is "$n" 16777216 "$be bytes"
		mb=$((n / 1024))
		[ "$open" -lt 2048 ] ||
		    { echo "$be lazy: $open kB at the open" >&2; false; }
		[ "$read" -ge $((mb * 9 / 10)) ] ||
		    { echo "$be lazy: $read kB after reading" >&2; false; }
		[ "$rel" -lt 2048 ] ||
		    { echo "$be: $rel kB after the release" >&2; false; }
		[ "$reread" -ge $((mb * 9 / 10)) ] ||
		    { echo "$be: $reread kB read again" >&2; false; }
		is "$s2" "$s1" "$be: the same bytes after the release"
		[ -n "${SHMIDS_NOTUNE:-}" ] && continue
		run lazyopen "$l" 0 0
		status_is 0
		read -r n open read rel reread s1 s2 <<< "$output"
		[ "$open" -ge $((mb * 9 / 10)) ] ||
		    { echo "$be eager: $open kB at the open" >&2; false; }
	done
}

@test "2.5: open_flags: the checks of open and open_wait with SHMIDS_LAZY; other flags are EINVAL" {
	local be l flags secs
	l=$(mkseg a f64 3)
	for flags in 1 2 4 8 32 0x11 -1; do
		run lazyopen "$l" "$flags" 0
		status_is 1
		is "$output" EINVAL "flags $flags"
	done
	for secs in -1 nan; do
		run lazyopen "$l" 16 "$secs"
		status_is 1
		is "$output" EINVAL "seconds $secs"
	done
	run lazyopen "$l" 16 0
	status_is 0
	is "$(awk '{ print $1, $6 == $7 }' <<< "$output")" "24 1"
	run lazyopen "${l%% *} ${P}other" 16 0
	status_is 1
	is "$output" ESTALE
	run lazyopen "$(mkhostile count badcount)" 16 0
	status_is 1
	is "$output" EBADMSG
	l=$(mkkilled killed)
	run lazyopen "$l" 16 0
	status_is 1
	is "$output" EOWNERDEAD
	for be in sysv file; do
		l=$(bgwriter writer "$be" "w$be" 1)
		run lazyopen "$l" 16 0
		status_is 1
		is "$output" EAGAIN "$be: filling"
		run lazyopen "$l" 16 10
		status_is 0
		is "$(cut -d ' ' -f 1 <<< "$output")" 80 "$be: waited for the seal"
	done
}

@test "2.7: table: header bytes are those of format-spec.md 2.7 (version 2, cols in the reserved bytes)" {
	local l
	l=$(_mk table "${P}tab" f64 2 3)
	like "$l" "[0-9]* ${P}tab" "label"
	shmtool header "${l%% *}" > got
	{
		printf '%s\0\n' "$l"
		head -c $((80 - ${#l} - 2)) /dev/zero
		printf 'shmids2 f64 %s 00000000000000000006 r\n' "$ORDER"
		printf '\0\0%s\n' 0000003
	} > want
	same_file want got
}

@test "6.1: table: a 1-D segment is still written as version 1, reserved bytes NUL" {
	local l
	l=$(mkseg flat f64 6)
	is "$(hdrfield "${l%% *}" 80 7)" shmids1
	is "$(shmtool header "${l%% *}" | tail -c 10 | od -An -c | tr -s ' ')" \
	    " \0 \0 \0 \0 \0 \0 \0 \0 \0 \0"
}

@test "2.7: table: shape read back attached, by stat and by scan; 1-D is ndim 1, cols 1" {
	local l
	l=$(_mk table "${P}tab" i32 4 3)
	run -0 shmtool shape "$l"
	is "$output" "open 2 4 3 stat 2 4 3 scan 2 4 3"
	run -0 shmtool open "$l"
	is "$output" "i32 12 66" "the payload: 12 elements, row by row"
	l=$(_mk table "${P}one" f32 5 1)
	run -0 shmtool shape "$l"
	is "$output" "open 2 5 1 stat 2 5 1 scan 2 5 1" "one column is a table"
	l=$(_mk table "${P}none" f64 0 7)
	run -0 shmtool shape "$l"
	is "$output" "open 2 0 7 stat 2 0 7 scan 2 0 7" "no rows"
	l=$(mkseg flat f64 5)
	run -0 shmtool shape "$l"
	is "$output" "open 1 5 1 stat 1 5 1 scan 1 5 1"
}

@test "2.7, 9: table: a hand-written version-2 header opens; version 5 is ESTALE, explained as later" {
	local l
	l=$(mkhostile v2 v2)
	run -0 shmtool shape "$l"
	is "$output" "open 2 1 1 stat 2 1 1 scan 2 1 1"
	l=$(mkhostile version v5)
	run -1 shmtool open "$l"
	is "$output" ESTALE
	run -1 shm_ls "$l"
	is "$output" "shm-ls: $l: segment ${l%% *} has a header of a later version than shmids 1.7.0 reads: a newer shmids reads it"
}

@test "2.7: table: create_table refuses cols 0 and over 9999999 (EINVAL), rows x cols overflow (ENOMEM)" {
	run -1 shmtool table "${P}t" f64 2 0
	is "$output" EINVAL
	run -1 shmtool table "${P}t" f64 2 10000000
	is "$output" EINVAL
	run -1 shmtool table "${P}t" f64 4611686018427387904 8
	is "$output" ENOMEM
	no_segments_named "${P}t"
}

@test "2.7: get: a number is never a field (EINVAL); a table reference gives rows x cols" {
	local l
	printf '1 2 3 4\n' > in
	run -1 shmtool get f64 < in
	is "$output" EINVAL
	printf 'nan shmids 5 nan\n' > in
	run -1 shmtool get f64 < in
	is "$output" EINVAL
	l=$(_mk table "${P}tab" f64 3 2)
	printf 'shmids %s\n' "$l" > in
	run -0 shmtool get f64 < in
	is "$output" 6
	printf '  shmids,\t%s\r\n' "$l" > in
	run -0 shmtool get f64 < in
	is "$output" 6
	printf 'shmids %s extra\n' "$l" > in
	run -1 shmtool get f64 < in
	is "$output" EINVAL
	printf 'x 1 2\n' > in
	run -0 shmtool get f64 < in
	is "$output" 2
}
