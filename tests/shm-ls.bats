#!/usr/bin/env bats
# shm-ls: listing segments (format-spec.md 2.4, 7).

load helper

SYNOPSIS='shm-ls [-abHJlpT] [-N pattern] [-o list] [-u user] [label | id ...]'

# Dates as ls -l: month, day, then time (or year).
DATE='[A-Z][a-z][a-z] +[0-9]{1,2} +([0-9]{2}:[0-9]{2}|[0-9]{4})'

# The header row of the long format.
HEAD='^OWNER +SIZE +TYPE +SHAPE +STATE +CREATED +LABEL$'

# The shim whose password database names every uid and gid as told.
HOSTILEPW=$BATS_TEST_DIRNAME/../${SHMIDS_BUILD:-build}/tests/preload/hostilepw.so
# pwrun PWNAME GRNAME PROGRAM ARGS...: PROGRAM under that shim.
pwrun() {
	[ -f "$HOSTILEPW" ] || { echo "$HOSTILEPW missing: make check builds it" >&2; return 1; }
	SHMIDS_PWNAME=$1 SHMIDS_GRNAME=$2 LD_PRELOAD=$HOSTILEPW \
	    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
	    "${@:3}"
}

# mktable NAME TYPE ROWS COLS: a table (format-spec.md 2.7); prints its label.
mktable()	{ _mk table "$P$1" "${@:2}"; }

# undate: the long format with each date written DATE, to compare exactly.
undate() {
	sed -E "s/ $DATE / DATE /"
}

# label_past N: the lines of $lines (the long format, dates with a
# time) whose label (or LABEL), what follows the date's time, starts
# past column N.
label_past() {
	local l
	for l in "${lines[@]}"; do
		l=${l%%LABEL}
		l=$(sed -E 's/^(.*[0-9]{2}:[0-9]{2} ).*/\1/' <<< "$l")
		[ "${#l}" -le "$1" ] || printf '[%s: %s] ' "${#l}" "$l"
	done
}

# plines ID [OPTIONS...]: the -p lines of `shm-ls -p -a OPTIONS` for shmid ID.
pline() {
	local id=$1
	shift
	shm_ls -p -a "$@" | awk -F '\t' -v id="$id" '$1 == id'
}
# procfield ID COLUMN: a column of /proc/sysvipc/shm for shmid ID.
procfield() {
	awk -v id="$1" -v c="$2" '$2 == id { print $c }' /proc/sysvipc/shm
}

@test "7: shm-ls -h: usage on stdout, exit 0" {
	run --separate-stderr shm_ls -h
	status_is 0
	usage_has "$SYNOPSIS" "$output"
	is "$stderr" ""
}

@test "7: shm-ls: bad options and users (-lh too): what is wrong, then usage, exit 2" {
	bad_args shm-ls "$SYNOPSIS" <<-EOF
	-x|invalid option -- 'x'
	-u|option requires an argument -- 'u'
	-N|option requires an argument -- 'N'
	-z|invalid option -- 'z'
	--everything|unrecognized option '--everything'
	--h|option '--h' is ambiguous; possibilities: '--human-readable' '--help'
	--all=1|option '--all' doesn't allow an argument
	--user|option '--user' requires an argument
	-n 'x*'|-n is now -N (name pattern)
	-a -s|-s is now -l (limits and system report)
	-an 'x*'|-n is now -N (name pattern)
	-p -J|-p and -J are two formats: give one
	-p --json|-p and -J are two formats: give one
	-pT|-T has no -p form: use -J with -T, or sum the -p lines
	-l -J|-l has no JSON form: give -l alone
	-J -l|-l has no JSON form: give -l alone
	-l --json|-l has no JSON form: give -l alone
	-la|-l reports the system, not segments: give it alone
	-l -p|-l reports the system, not segments: give it alone
	-l -T|-l reports the system, not segments: give it alone
	-l -H|-l reports the system, not segments: give it alone
	-l -o mode|-l reports the system, not segments: give it alone
	-l --noheadings|-l reports the system, not segments: give it alone
	-l -N 'x*'|-l reports the system, not segments: give it alone
	-l -u 0|-l reports the system, not segments: give it alone
	-l 1|-l reports the system, not segments: give it alone
	-p -o mode|-o does not change -p, the 1.0 format: use -o with the long format or -J
	-p --output=mode|-o does not change -p, the 1.0 format: use -o with the long format or -J
	-pH|-H is for the long format: -p and -J write bytes
	-JH|-H is for the long format: -p and -J write bytes
	-pb|-b is for the long format: -p and -J write bytes
	-J --bytes|-b is for the long format: -p and -J write bytes
	-bH|-b and -H are two forms of size: give one
	-p --noheadings|--noheadings is for the long format: -p and -J have no header row
	-J --noheadings|--noheadings is for the long format: -p and -J have no header row
	-o|option requires an argument -- 'o'
	--output|option '--output' requires an argument
	--output=|invalid column '' (expected a list of ID, SHMID, KEY, LABEL, NAME, OWNER, UID, GROUP, GID, MODE, NATTCH, SIZE, TYPE, COUNT, SHAPE, ORDER, STATE, CREATED, USED, ATTACHED, DETACHED, CPID, LPID, or +list)
	--bytes=1|option '--bytes' doesn't allow an argument
	--noheadings=1|option '--noheadings' doesn't allow an argument
	-o mode,perms|invalid column 'perms' (expected a list of ID, SHMID, KEY, LABEL, NAME, OWNER, UID, GROUP, GID, MODE, NATTCH, SIZE, TYPE, COUNT, SHAPE, ORDER, STATE, CREATED, USED, ATTACHED, DETACHED, CPID, LPID, or +list)
	-o mode,|invalid column '' (expected a list of ID, SHMID, KEY, LABEL, NAME, OWNER, UID, GROUP, GID, MODE, NATTCH, SIZE, TYPE, COUNT, SHAPE, ORDER, STATE, CREATED, USED, ATTACHED, DETACHED, CPID, LPID, or +list)
	-J -o ''|invalid column '' (expected a list of ID, SHMID, KEY, LABEL, NAME, OWNER, UID, GROUP, GID, MODE, NATTCH, SIZE, TYPE, COUNT, SHAPE, ORDER, STATE, CREATED, USED, ATTACHED, DETACHED, CPID, LPID, or +list)
	-u nosuchuser$$|invalid user 'nosuchuser$$' (expected a login name or numeric user ID)
	-u -1|invalid user '-1' (expected a login name or numeric user ID)
	-u 4294967295|invalid user '4294967295' (expected a login name or numeric user ID)
	-u nosuchuse+|invalid user 'nosuchuse+' (expected a login name or numeric user ID; the listing cuts long names with '+': shm-ls -o uid gives the ID)
	-u ''|invalid user '' (expected a login name or numeric user ID)
	-lh|-h is the help, alone: sizes are for people (as ls -h) by default, -b writes bytes, and -l reports the limits and the system, not a long listing
	-hl|-h is the help, alone: sizes are for people (as ls -h) by default, -b writes bytes, and -l reports the limits and the system, not a long listing
	-ah|-h is the help, alone: sizes are for people (as ls -h) by default, -b writes bytes, and -l reports the limits and the system, not a long listing
	-h 1|-h is the help, alone: sizes are for people (as ls -h) by default, -b writes bytes, and -l reports the limits and the system, not a long listing
	EOF
}

@test "6.1: shm-ls: long format of a segment under a header row, by label and by shmid" {
	local l id re
	l=$(mkseg long f64 10)
	id=${l%% *}
	re="^$(owner8_re) +208 +f64 +10 +ready +$DATE +$l\$"
	run --separate-stderr shm_ls "$l"
	status_is 0
	is "${#lines[@]}" 2 "header and one line"
	[[ ${lines[0]} =~ $HEAD ]] || { echo "header: ${lines[0]}" >&2; false; }
	[[ ${lines[1]} =~ $re ]] || { echo "line: ${lines[1]}" >&2; echo "re: $re" >&2; false; }
	run --separate-stderr shm_ls "$id"
	status_is 0
	[[ ${lines[1]} =~ $re ]] || { echo "line: $output" >&2; false; }
	is "$stderr" ""
	# created today, as ls -l writes it
	[[ $output =~ ready\ +$(LC_ALL=C date +%b)\ +$(date +%-d)\ +[0-9][0-9]:[0-9][0-9] ]] ||
	    { echo "date: $output" >&2; false; }
}

@test "2.4: shm-ls -p and -J: the mode of segments of other modes" {
	local m l fails= mode
	for m in 644 640 444 666; do
		l=$(mkseg "m$m" i32 1 "$m")
		mode=$(shm_ls -p "$l" | cut -f 3)
		[ "$mode" = "0$m" ] || fails+="[$m: -p $mode] "
		mode=$(shm_ls -J "$l" | grep -o '"mode": "[0-7]*"')
		[ "$mode" = "\"mode\": \"0$m\"" ] || fails+="[$m: -J $mode] "
	done
	is "$fails" "" "failures"
}

@test "6.1: shm-ls: the header row and a 16-byte name fit 80 columns; no line when nothing is listed" {
	local name l
	name=$P$(printf 'n%.0s' $(seq $((16 - ${#P}))))
	is "${#name}" 16 "name length"
	l=$(mkseg "${name#$P}" f64 10)
	run --separate-stderr shm_ls -N "$name"
	status_is 0
	is "${#lines[@]}" 2 "header and one line"
	[[ ${lines[1]} == *" $l" ]] || { echo "label not last: ${lines[1]}" >&2; false; }
	awk 'length($0) > 80 { print "wider than 80: " length($0) ": " $0; bad = 1 } END { exit bad }' <<< "$output" >&2
	# the label starts at the LABEL heading: columns line up
	is "$(awk 'NR == 1 { print index($0, "LABEL") } NR == 2 { print index($0, L) }' L="$l" <<< "$output" | uniq | wc -l)" 1 "label column"
	run --separate-stderr shm_ls -N "${P}nomatch*"
	status_is 0
	is "$output" "" "nothing listed, no header"
}

@test "2.6: shm-ls -l: the report and its hints fit 80 columns, SHMIDS_DIR set or not" {
	local dir
	for dir in "" /var/tmp; do
		run --separate-stderr env SHMIDS_DIR="$dir" "$BIN/shm-ls" -l
		status_is 0
		awk 'length($0) > 80 { print "wider than 80: " length($0) ": " $0; bad = 1 } END { exit bad }' <<< "$output" >&2
	done
}

@test "7: shm-ls: sizes as ls -h writes them (-H), in bytes with -b; -p and -J in bytes" {
	local row l fails= got
	# count of f64 | bytes (128 + 8 count) | as ls -h
	for row in "10 208 208" "112 1024 1.0K" "176 1536 1.5K" "177 1544 1.6K" \
	    "1264 10240 10K" "1265 10248 11K" "131056 1048576 1.0M"; do
		set -- $row
		l=$(mkseg "h$1" f64 "$1")
		got=$(shm_ls "$l" | awk 'NR == 2 { print $2 }')
		[ "$got" = "$3" ] || fails+="[$2: $got] "
		got=$(shm_ls -H "$l" | awk 'NR == 2 { print $2 }')
		[ "$got" = "$3" ] || fails+="[$2: -H $got] "
		got=$(shm_ls -b "$l" | awk 'NR == 2 { print $2 }')
		[ "$got" = "$2" ] || fails+="[$2: -b $got] "
		got=$(shm_ls --bytes "$l" | awk 'NR == 2 { print $2 }')
		[ "$got" = "$2" ] || fails+="[$2: --bytes $got] "
		got=$(shm_ls -p "$l" | cut -f 6)
		[ "$got" = "$2" ] || fails+="[$2: -p $got] "
		got=$(shm_ls -J -o size "$l" | grep -o '"size": [0-9]*')
		[ "$got" = "\"size\": $2" ] || fails+="[$2: -J $got] "
	done
	is "$fails" "" "failures"
}

@test "7: shm-ls -T: a total of segments, bytes and processes attached" {
	mkseg t1 f64 10 > /dev/null
	mkseg t2 f64 176 > /dev/null
	run --separate-stderr shm_ls -T -N "${P}t*"
	status_is 0
	is "${#lines[@]}" 4 "header, two lines, total"
	is "${lines[3]}" "total: 2 segments, 1.8K, 0 attached"
	run --separate-stderr shm_ls -HT -N "${P}t*"
	is "${lines[3]}" "total: 2 segments, 1.8K, 0 attached"
	run --separate-stderr shm_ls -bT -N "${P}t*"
	is "${lines[3]}" "total: 2 segments, 1744 bytes, 0 attached"
	run --separate-stderr shm_ls -bT -N "${P}t1"
	is "${lines[2]}" "total: 1 segment, 208 bytes, 0 attached"
	run --separate-stderr shm_ls -T -N "${P}none"
	status_is 0
	is "$output" "total: 0 segments, 0, 0 attached"
	run --separate-stderr shm_ls -bT -N "${P}none"
	is "$output" "total: 0 segments, 0 bytes, 0 attached"
	run --separate-stderr shm_ls -JT -N "${P}t*"
	status_is 0
	grep -Fqx '   "totals": {"segments": 2, "bytes": 1744, "attached": 0}' <<< "$output" ||
	    { echo "no totals: $output" >&2; false; }
}

# json_check: python3 -m json.tool accepts stdin (skip without python3).
json_check() {
	command -v python3 > /dev/null || skip "python3 not installed"
	python3 -m json.tool > /dev/null
}

@test "7: shm-ls -J: JSON as lsipc -J: numbers as numbers, times as epoch and ISO 8601 UTC" {
	command -v python3 > /dev/null || skip "python3 not installed"
	local l id now
	l=$(mkseg json f64 10 640)
	id=${l%% *}
	now=$(date +%s)
	run --separate-stderr shm_ls --json "$l"
	status_is 0
	is "$stderr" ""
	json_check <<< "$output"
	run python3 -c '
import json, sys, time
d = json.loads(sys.argv[1])
s, = d["segments"]
want = {"id": sys.argv[2], "label": sys.argv[3], "name": sys.argv[3].split(" ", 1)[1],
    "shmid": int(sys.argv[2]), "type": "f64", "count": 10, "state": "ready",
    "uid": int(sys.argv[4]), "gid": int(sys.argv[5]), "mode": "0640",
    "nattch": 0, "size": 208, "detached": s["detached"]}
for k, v in want.items():
    if s[k] != v: print("%s: %r, not %r" % (k, s[k], v))
for k in ("created", "used", "attached", "detached"):
    if s[k] is None: continue
    if not isinstance(s[k], int): print(k, "not a number")
    iso = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(s[k]))
    if s[k + "_iso"] != iso: print(k + "_iso", s[k + "_iso"], "not", iso)
if abs(s["created"] - int(sys.argv[6])) > 60: print("created", s["created"])
if s["used"] != max(s["attached"] or 0, s["detached"] or 0) or None: print("used", s["used"])
if not s["key"].startswith("0x5348"): print("key", s["key"])
' "$output" "$id" "$l" "$(id -u)" "$(id -g)" "$now"
	is "$output" "" "mismatches"
}

@test "1: shm-ls -J: valid JSON for every segment, with and without -a, and for a name with quote and backslash" {
	command -v python3 > /dev/null || skip "python3 not installed"
	local h
	mkseg a f64 1 > /dev/null
	mkraw 100 > /dev/null
	mkhostile foreign foreign > /dev/null
	h=$(mkhostile good 'q"b\s')
	run --separate-stderr shm_ls -J -a
	status_is 0
	json_check <<< "$output"
	run --separate-stderr shm_ls -J -T
	status_is 0
	json_check <<< "$output"
	run --separate-stderr shm_ls -J "$h"
	status_is 0
	run python3 -c 'import json, sys; print(json.loads(sys.argv[1])["segments"][0]["label"])' "$output"
	is "$output" "$h" "label read back"
	run --separate-stderr shm_ls -J -N "${P}nomatch"
	status_is 0
	json_check <<< "$output"
	is "$output" $'{\n   "segments": [\n   ]\n}'
}

@test "7: shm-ls -p: 16 tab-separated fields as format-spec.md 7 says" {
	local l id now
	local -a f
	l=$(mkseg parsable f64 10 640)
	id=${l%% *}
	now=$(date +%s)
	run --separate-stderr shm_ls -p "$l"
	status_is 0
	IFS=$'\t' read -r -a f <<< "$output"
	is "${#f[@]}" 16 "field count in '$output'"
	is "${f[0]}" "$id" shmid
	like "${f[1]}" "0x5348[0-9a-f][0-9a-f][0-9a-f][0-9a-f]" key
	is "${f[2]}" 0640 mode
	is "${f[3]}" "$(id -u)" uid
	is "${f[4]}" "$(id -g)" gid
	is "${f[5]}" 208 bytes
	is "${f[6]}" 0 nattch
	like "${f[7]}" "[1-9]*" cpid
	like "${f[8]}" "[0-9]*" lpid
	[ "${f[9]}" -le "$now" ] && [ "${f[9]}" -ge $((now - 60)) ] ||
	    { echo "ctime ${f[9]} not near $now" >&2; false; }
	[[ ${f[10]} =~ ^(-|[0-9]+)$ ]] || { echo "atime ${f[10]}" >&2; false; }
	[[ ${f[11]} =~ ^(-|[0-9]+)$ ]] || { echo "dtime ${f[11]}" >&2; false; }
	is "${f[12]}" f64 type
	is "${f[13]}" 10 count
	is "${f[14]}" ready state
	is "${f[15]}" "$l" label
}

@test "7: shm-ls -p: every line has 16 fields, with and without -a" {
	local opt
	mkseg a f64 1 > /dev/null
	mkraw 100 > /dev/null
	mkhostile foreign foreign > /dev/null
	for opt in -p -pa; do
		run --separate-stderr shm_ls $opt
		status_is 0
		[ -n "$output" ]
		awk -F '\t' 'NF != 16 { print "bad line: " $0; bad = 1 } END { exit bad }' <<< "$output" >&2
	done
}

@test "2.2: shm-ls: state is ready, filling or dead" {
	local r w d row l want fails= got
	r=$(mkseg ready f64 1)
	w=$(mkwriter filling 20)
	d=$(mkkilled dead)
	for row in "$r|ready" "$w|filling" "$d|dead"; do
		l=${row%|*} want=${row#*|}
		got=$(shm_ls -p "$l" | cut -f 15)
		[ "$got" = "$want" ] || fails+="[-p $want: got $got] "
		got=$(shm_ls "$l" | awk 'NR == 2 { print $5 }')
		[ "$got" = "$want" ] || fails+="[long $want: got $got] "
	done
	is "$fails" "" "failures"
}

@test "7: shm-ls -a: other programs' segments only with -a, from kernel data" {
	local rid fid lpid atime re
	rid=$(mkraw 100)
	fid=$(mkhostile foreign foreign)
	fid=${fid%% *}
	lpid=$(procfield "$rid" 6) atime=$(procfield "$rid" 12)
	run --separate-stderr shm_ls
	status_is 0
	! grep -Eq "(^| )($rid|$fid)( |\$)" <<< "$output" ||
	    { echo "listed without -a: $output" >&2; false; }
	run --separate-stderr shm_ls -a
	status_is 0
	re="^$(owner8_re) +100 +- +- +- +$DATE +$rid\$"
	grep -Eq "$re" <<< "$output" || { echo "no line for $rid: $output" >&2; false; }
	re="^$(owner8_re) +136 +- +- +- +$DATE +$fid\$"
	grep -Eq "$re" <<< "$output" || { echo "no line for $fid: $output" >&2; false; }
	is "$(pline "$rid" | cut -f 13-15)" "-	-	-" "-p type count state"
	is "$(pline "$rid" | cut -f 2)" 0x00000000 "-p key"
	# never attached: the kernel's last pid and attach time did not move
	is "$(procfield "$rid" 6)" "$lpid" lpid
	is "$(procfield "$rid" 12)" "$atime" atime
}

@test "7: shm-ls: a segment the user may not read is listed with ? for what its header says, and what the system says of it" {
	need_user
	local l id line
	l=$(mkseg private f64 1 600)
	id=${l%% *}
	line=$(as_user "$BIN/shm-ls" -p | awk -F '\t' -v id="$id" '$1 == id')
	# -p writes "-" where a field is unknown: either mark will do there
	like "$(cut -f 13-15 <<< "$line")" "[?-]	[?-]	[?-]" "-p type count state"
	# owner, mode and size: the kernel's (issue 40 item 15)
	is "$(cut -f 3,4,6 <<< "$line")" "0600	$(id -u)	136" "-p mode uid size"
	line=$(as_user "$BIN/shm-ls" | awk -v id="$id" '$NF == id || $(NF-1) == id')
	is "$(awk '{ print $3, $4, $5 }' <<< "$line")" "? ? ?" "long type count state"
	is "$(awk '{ print $1, $2 }' <<< "$line")" "$(owner8) 136" "long owner size"
	[[ $line =~ \?\ +$(LC_ALL=C date +%b)\ +$(date +%-d)\ +[0-9][0-9]:[0-9][0-9] ]] ||
	    { echo "no creation time: $line" >&2; false; }
	is "$(as_user "$BIN/shm-ls" -o mode,nattch,uid,name,type,state "$id" | sed 1d | tr -s ' ')" \
	    "rw------- 0 $(id -u) ? ? ?" "-o: the system's columns, and ? for the header's"
}

# A "?" with no word of why: to a terminal, one line says it, once.
@test "7: shm-ls: a ? in the long format to a terminal: one line says why, last; never to a pipe, nor with -p or -J" {
	need_user
	command -v script > /dev/null || skip "script (util-linux) missing"
	local a b out
	a=$(mkseg private1 f64 1 600)
	b=$(mkseg private2 f64 1 600)
	as_user script -qec "\"$BIN/shm-ls\" -T \"${a%% *}\" \"${b%% *}\"" /dev/null > tty.out
	out=$(tr -d '\r' < tty.out)
	is "$(sed -n '$p' <<< "$out")" "?: no read permission (its owner or root lists it)" "last line"
	is "$(grep -c '^?:' <<< "$out")" 1 "said once"
	is "$(sed -n '4p' <<< "$out")" "total: 2 segments, 272, 0 attached" "the total before it"
	# to a pipe, and the machine formats: the rows alone
	run --separate-stderr as_user "$BIN/shm-ls" -T "${a%% *}" "${b%% *}"
	status_is 0
	is "${#lines[@]}" 4 "lines to a pipe"
	[[ $output != *'?:'* ]] || { echo "footnote to a pipe: $output" >&2; false; }
	as_user script -qec "\"$BIN/shm-ls\" -p \"${a%% *}\"; \"$BIN/shm-ls\" -J \"${a%% *}\"" /dev/null > tty.out
	! grep -q '^?:' tty.out || { echo "footnote with -p or -J: $(cat tty.out)" >&2; false; }
	# a readable one: no line
	script -qec "\"$BIN/shm-ls\" \"$a\"" /dev/null > tty.out
	! grep -q '^?:' tty.out || { echo "footnote for a readable one" >&2; false; }
}

@test "1: shm-ls: operands: several, missing, not a label" {
	local a b gone
	a=$(mkseg a f64 1)
	b=$(mkseg b f64 1)
	gone=$(mkseg gone f64 1)
	ipcrm -m "${gone%% *}"
	run --separate-stderr shm_ls -p "$a" "$gone" "${b%% *}"
	status_is 1
	is "$(cut -f 16 <<< "$output")" "$a"$'\n'"$b"
	is "$stderr" "shm-ls: $gone: no such segment (removed, or never made)"
	run --separate-stderr shm_ls -p "${a%% *} ${P}other"
	status_is 1
	is "$stderr" "shm-ls: ${a%% *} ${P}other: segment ${a%% *} is labelled '$a'"
	run --separate-stderr shm_ls -p "not a label"
	[ "$status" = 1 ] || [ "$status" = 2 ]
	[ -n "$stderr" ]
}

@test "1: shm-ls -N: only names matching the pattern" {
	local a1 a2 b1
	a1=$(mkseg a1 f64 1)
	a2=$(mkseg a2 f64 1)
	b1=$(mkseg b1 f64 1)
	run --separate-stderr shm_ls -p -N "${P}a*"
	status_is 0
	is "$(cut -f 16 <<< "$output" | sort)" "$(printf '%s\n' "$a1" "$a2" | sort)"
	run --separate-stderr shm_ls -N "${P}?1"
	status_is 0
	is "$(awk 'NR > 1 { print $(NF-1) " " $NF }' <<< "$output" | sort)" \
	    "$(printf '%s\n' "$a1" "$b1" | sort)"
	run --separate-stderr shm_ls -N "${P}nomatch*"
	status_is 0
	is "$output" ""
}

@test "2.4: shm-ls -u: owner by name or uid" {
	local a
	a=$(mkseg a f64 1)
	run --separate-stderr shm_ls -p -u "$(id -un)" -N "$P*"
	status_is 0
	is "$(cut -f 16 <<< "$output")" "$a"
	run --separate-stderr shm_ls -p -u "$(id -u)" -N "$P*"
	status_is 0
	is "$(cut -f 16 <<< "$output")" "$a"
	run --separate-stderr shm_ls -p -u nobody -N "$P*"
	status_is 0
	is "$output" ""
	run --separate-stderr shm_ls -p -u no-such-user-xyz
	[ "$status" -ne 0 ]
	[ -n "$stderr" ]
}

@test "2.4: shm-ls -u: another user's segments" {
	need_user
	local l
	l=$(as_user "$SHMTOOL" create "${P}theirs" f64 1)
	track "$l"
	run --separate-stderr shm_ls -p -u "$TESTUSER" -N "$P*"
	status_is 0
	is "$(cut -f 16 <<< "$output")" "$l"
	is "$(cut -f 4 <<< "$output")" "$TESTUSER" uid
}

@test "7: shm-ls: reads times before attaching; ctime and nattch unchanged" {
	local l before after kern
	l=$(mkseg aged f64 3)
	sleep 2
	# the kernel's attach and detach times just before the listing (the
	# creator's: compared with them, not with the creation time, which a
	# slow creator, as under valgrind, leaves seconds behind)
	kern=$(awk -v id="${l%% *}" '$2 == id { print $12, $13 }' /proc/sysvipc/shm)
	before=$(shm_ls -p "$l")
	# the last attach and detach are still the creator's, not this listing's
	is "$(cut -f 11,12 <<< "$before" | tr '\t' ' ')" "$kern" "atime and dtime"
	sleep 1		# the attaches below fall in a later second than any before
	shm_ls > /dev/null
	shm_ls -a > /dev/null
	printf 'x shmids %s\n' "$l" | shm_expand > /dev/null
	after=$(shm_ls -p "$l")
	is "$(cut -f 10 <<< "$after")" "$(cut -f 10 <<< "$before")" ctime
	is "$(cut -f 7 <<< "$after")" 0 nattch
	[ "$(cut -f 11 <<< "$after")" -gt "$(cut -f 11 <<< "$before")" ] ||
	    { echo "atime did not move after attaching: $before / $after" >&2; false; }
}

@test "7: shm-ls: USED is the last use before this listing: never its own attach, an earlier listing's" {
	local us
	command -v unshare > /dev/null || skip "unshare missing"
	# A private IPC namespace: no other listing (another test's teardown)
	# attaches the segment meanwhile; it vanishes with the namespace.
	# A plain user makes one in a user namespace of its own, where the
	# kernel lets it.
	us=(unshare --ipc)
	"${us[@]}" true 2> /dev/null || us=(unshare --user --map-root-user --ipc)
	"${us[@]}" true 2> /dev/null ||
	    skip "no private IPC namespace: needs root, or user namespaces"
	run --separate-stderr timeout 60 "${us[@]}" bash -c '
		ls=$1/shm-ls
		l=$("$2" create used f64 3) || exit 3
		t0=$("$ls" -p "$l" | cut -f 10)
		sleep 2
		first=$("$ls" -J "$l" | grep -o "\"used\": [0-9]*" | grep -o "[0-9]*\$")
		second=$("$ls" -J "$l" | grep -o "\"used\": [0-9]*" | grep -o "[0-9]*\$")
		long=$("$ls" -o used,label "$l" | awk "NR == 2 { print \$(NF-2) }")
		echo "$((first - t0)) $((second - t0 >= 2)) $long $(date -d "@$second" +%H:%M)"
	' _ "$BIN" "$SHMTOOL"
	[ "$status" != 3 ] || skip "no segment in a private IPC namespace: $stderr"
	status_is 0
	set -- $output
	# the first listing sees the creator's detach, the second the first's
	[ "$1" -le 1 ] || { echo "first used $1 s after creation: $output" >&2; false; }
	is "$2" 1 "second listing shows the first"
	is "$3" "$4" "long USED"
}

@test "7: shm-ls: the time zone is read once, not again for each segment listed" {
	need_strace
	local n1 n3
	mkseg z1 f64 1 > /dev/null
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	    strace -f -qq -o "$T/z1.st" "$BIN/shm-ls" -N "${P}z*" > /dev/null
	mkseg z2 f64 1 > /dev/null
	mkseg z3 f64 1 > /dev/null
	run --separate-stderr env \
	    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	    strace -f -qq -o "$T/z3.st" "$BIN/shm-ls" -N "${P}z*"
	status_is 0
	is "$(wc -l <<< "$output")" 4 "header and lines listed"
	n1=$(grep -c localtime "$T/z1.st")
	n3=$(grep -c localtime "$T/z3.st")
	is "$n3" "$n1" "system calls naming the zone file, 3 segments against 1"
}

@test "2.4: shm-ls -o: columns by name in any case, MODE as ls -l, NATTCH; +list before the label; --noheadings" {
	local l id key cpid
	l=$(mkseg cols i32 20 640)
	id=${l%% *}
	hold "$l" 30
	run --separate-stderr shm_ls -o mode,NATTCH,Label "$l"
	status_is 0
	is "$stderr" ""
	is "$output" "MODE      NATTCH LABEL
rw-r-----      1 $l"
	run --separate-stderr shm_ls --output mode,mode,LABEL --noheadings "$l"
	status_is 0
	is "$output" "rw-r----- $l" "a column named twice, no header row"
	run --separate-stderr shm_ls --output=+mode,nattch "$l"
	status_is 0
	[[ ${lines[0]} =~ ^OWNER\ +SIZE\ +TYPE\ +SHAPE\ +STATE\ +CREATED\ +MODE\ +NATTCH\ +LABEL$ ]] ||
	    { echo "header: ${lines[0]}" >&2; false; }
	[[ ${lines[1]} =~ ^$(owner8_re)\ +208\ +i32\ +20\ +ready\ +$DATE\ rw-r-----\ +1\ $l$ ]] ||
	    { echo "line: ${lines[1]}" >&2; false; }
	key=$(shm_ls -p "$l" | cut -f 2)
	cpid=$(shm_ls -p "$l" | cut -f 8)
	run --separate-stderr shm_ls -o id,shmid,key,name,uid,gid,cpid,group --noheadings "$l"
	status_is 0
	is "$output" "$id $id $key ${P}cols $(id -u) $(id -g) $cpid $(owner8 "$(id -gn)")"
	# a label that is not last is padded; the last column never is
	run --separate-stderr shm_ls -o label,size "$l"
	is "$output" "$(printf '%-*s SIZE\n%s  208' ${#l} LABEL "$l")"
	run --separate-stderr shm_ls -o created,used,attached,detached,lpid "$l"
	status_is 0
	[[ ${lines[1]} =~ ^$DATE\ +$DATE\ +$DATE\ +$DATE\ +[0-9]+$ ]] ||
	    { echo "line: ${lines[1]}" >&2; false; }
}

# Issue: check that --noheadings keeps the columns aligned as the
# header does: each column as wide as its widest entry among the rows
# (the header, not written, not counted), numbers right-aligned.
@test "7: shm-ls --noheadings: the rows' columns aligned as with the header, each as wide as its widest row" {
	local a b
	a=$(mkseg nh f64 3)
	b=$(mkseg nh-longer-name i32 1234567)
	run --separate-stderr shm_ls -b -o size,shape,state,label "$a" "$b"
	status_is 0
	is "$output" "$(printf '%7s %7s %-5s %s\n' SIZE SHAPE STATE LABEL \
	    152 3 ready "$a" 4938396 1234567 ready "$b")" "with the header"
	run --separate-stderr shm_ls -b -o size,shape,state,label --noheadings "$a" "$b"
	status_is 0
	is "$output" "$(printf '%7s %7s %-5s %s\n' 152 3 ready "$a" \
	    4938396 1234567 ready "$b")" "without"
	# a header wider than every row: the rows alone decide
	run --separate-stderr shm_ls -b -o shape,state,label --noheadings "$a"
	is "$output" "3 ready $a" "one row"
	run --separate-stderr shm_ls -b -o shape,state,label "$a"
	is "$output" "$(printf '%5s %-5s %s\n' SHAPE STATE LABEL 3 ready "$a")" "its header"
}

@test "7: shm-ls -J -o: only those keys, in that order; +list keeps every key" {
	local l created iso
	l=$(mkseg jcols i32 20 640)
	created=$(shm_ls -p "$l" | cut -f 10)
	iso=$(date -u -d "@$created" +%Y-%m-%dT%H:%M:%SZ)
	run --separate-stderr shm_ls -J -o label,MODE,nattch,created,shmid "$l"
	status_is 0
	is "$output" "{
   \"segments\": [
      {\"label\": \"$l\", \"mode\": \"0640\", \"nattch\": 0, \"created\": $created, \"created_iso\": \"$iso\", \"shmid\": ${l%% *}}
   ]
}"
	# lpid moves with each listing's attach
	is "$(shm_ls -J -o +mode "$l" | sed 's/"lpid.*//')" \
	    "$(shm_ls -J "$l" | sed 's/"lpid.*//')" "-J -o +mode: every key"
}

@test "2.6: shm-ls: file segments, 8-column owners, a writer filling: every column but the label within 48" {
	local D=$T/d w
	mkdir -p "$D"
	SHMIDS_DIR=$D mkseg a f64 125000 > /dev/null
	SHMIDS_DIR=$D mkseg b i32 20 > /dev/null
	w=$(mkwriter filling 20)
	run --separate-stderr pwrun abcdefgh '' env SHMIDS_DIR="$D" "$BIN/shm-ls" -N "$P*"
	status_is 0
	is "${#lines[@]}" 4 "header and three lines"
	[[ ${lines[0]} =~ $HEAD ]] || { echo "header: ${lines[0]}" >&2; false; }
	is "$(label_past 48)" "" "lines whose label starts past column 48"
	# System V segments first, then files in path order
	like "${lines[1]}" "abcdefgh  208 f64      10 filling * $w" "writer"
	grep -Eq "^abcdefgh 977K f64  125000 ready   $DATE $D/shmids.$(id -u).[A-Za-z0-9]{6} ${P}a\$" <<< "$output" ||
	    { echo "no line for ${P}a: $output" >&2; false; }
	# a longer name is cut as ps(1) cuts it; -J and -p keep it whole
	run --separate-stderr pwrun abcdefghijk '' "$BIN/shm-ls" -o owner "$w"
	is "$output" "OWNER
abcdefg+"
	run --separate-stderr pwrun abcdefghijk '' "$BIN/shm-ls" -J -o owner "$w"
	like "$output" '*{"owner": "abcdefghijk"}*'
}

@test "2.4: shm-ls: owner and group names with control bytes or invalid UTF-8 are escaped as \\ooo, UTF-8 kept" {
	local l
	l=$(mkseg esc f64 1)
	run --separate-stderr pwrun '\033[2J\007' 'gr\377\302\233p' "$BIN/shm-ls" -o owner,group,label "$l"
	status_is 0
	is "$stderr" ""
	is "$output" 'OWNER    GROUP   LABEL
\033[2J+ gr\377+ '"$l"
	! grep -q $'[\x01-\x1f\x7f]' <<< "$output" || { echo "raw control bytes" >&2; false; }
	run --separate-stderr pwrun 'józef' 'ł\134x' "$BIN/shm-ls" -o owner,group,label "$l"
	status_is 0
	is "$output" "OWNER GROUP LABEL
józef ł\\x   $l"
	run --separate-stderr pwrun '\033[2J\007' 'x' "$BIN/shm-ls" -J -o owner "$l"
	grep -Fqx '      {"owner": "\u001b[2J\u0007"}' <<< "$output" ||
	    { echo "JSON: $output" >&2; false; }
}

@test "2.6: shm-ls(1): the R example reads -p as pasted, a file segment's '-' fields too" {
	command -v Rscript > /dev/null || skip "no Rscript"
	local l
	mkdir d
	l=$(SHMIDS_DIR=$T/d mkseg r i32 20)
	awk '/^shm-ls -p \| Rscript/ { on = 1 } on && /^\.Ed/ { exit } on' \
	    "$BATS_TEST_DIRNAME/../man/shm-ls.1" > r.sh
	[ -s r.sh ] || { echo "shm-ls(1) has no R example" >&2; false; }
	run --separate-stderr env SHMIDS_DIR="$T/d" PATH="$BIN:$PATH" bash r.sh
	status_is 0
	is "$(grep -F " $l " <<< "$output" | tr -s ' ' | sed 's/^ *[0-9]* //')" \
	    "$l 208 20 ready"
}

@test "2.4: shm-ls: an owner name that hides or reorders text (U+202E, U+200B) is escaped; an empty one is the uid" {
	local l
	l=$(mkseg bidi i32 20)
	run --separate-stderr pwrun 'root\342\200\256x\342\200\213' 'g' "$BIN/shm-ls" -o owner,label "$l"
	status_is 0
	# cut as ps cuts, after root: the '+' says there is more
	is "$output" "OWNER LABEL
root+ $l"
	run --separate-stderr pwrun '' '' "$BIN/shm-ls" -o owner,group,label --noheadings "$l"
	status_is 0
	is "$output" "$(id -u) $(id -g) $l"
	# whole, in shm-rm's journal line
	run --separate-stderr pwrun 'ab\342\200\213' 'g' "$BIN/shm-rm" -v "$l"
	status_is 0
	is "${output%, age *}" "removed '$l' (owner ab\\342\\200\\213"
}

@test "2.7: shm-ls: SHAPE is a table's rows x cols, a 1-D segment's count, a file segment's table too; -p keeps the count" {
	local t o f D=$T/d ow
	mkdir -p "$D"
	t=$(mktable vol f64 87 61)
	o=$(mkseg one f64 125000)
	f=$(SHMIDS_DIR=$D mktable ft i32 3 4)
	ow=$(owner8)
	[ "${#ow}" -ge 5 ] || ow=$(printf '%-5s' "$ow")
	run --separate-stderr shm_ls "$t" "$o" "$f"
	status_is 0
	is "$stderr" ""
	is "$(undate <<< "$output")" "$(printf '%-*s %s\n' ${#ow} OWNER 'SIZE TYPE  SHAPE STATE CREATED      LABEL'
	    printf '%-*s %s\n' ${#ow} "$(owner8)" " 42K f64   87x61 ready DATE $t" \
		${#ow} "$(owner8)" "977K f64  125000 ready DATE $o" \
		${#ow} "$(owner8)" " 176 i32     3x4 ready DATE $f")"
	# the same by scan, the file segment after the System V ones
	run --separate-stderr env SHMIDS_DIR="$D" "$BIN/shm-ls" -o shape,count,label -N "${P}[vf]*"
	status_is 0
	is "$output" "SHAPE COUNT LABEL
87x61  5307 $t
  3x4    12 $f"
	# -p is the 1.0 format: the count, rows x cols, never the shape
	is "$(shm_ls -p "$t" "$o" "$f" | cut -f 13-16)" "f64	5307	ready	$t
f64	125000	ready	$o
i32	12	ready	$f"
	run shm_ls -p "$t"
	awk -F '\t' 'NF != 16 { print "bad line: " $0; bad = 1 } END { exit bad }' <<< "$output" >&2
	# a table of one column is still a table
	o=$(mktable col f32 5 1)
	is "$(shm_ls -o shape --noheadings "$o")" 5x1
}

@test "2.7: shm-ls -J: shape is [rows, cols] for a table, [count] for 1-D, null for foreign, unreadable and broken; after count" {
	local t o f h u D=$T/d
	mkdir -p "$D"
	t=$(mktable vol f64 87 61)
	o=$(mkseg one f64 125000)
	f=$(SHMIDS_DIR=$D mktable ft i32 3 4)
	h=$(mkhostile foreign foreign)
	u=$(mkhostile v2cols unread)
	: > "$D/shmids.Empty0"
	run --separate-stderr shm_ls -J -o label,count,shape "$t" "$o" "$f"
	status_is 0
	is "$stderr" ""
	is "$output" "{
   \"segments\": [
      {\"label\": \"$t\", \"count\": 5307, \"shape\": [87, 61]},
      {\"label\": \"$o\", \"count\": 125000, \"shape\": [125000]},
      {\"label\": \"$f\", \"count\": 12, \"shape\": [3, 4]}
   ]
}"
	run --separate-stderr shm_ls -J -o id,state,count,shape "${h%% *}" "${u%% *}" "$D/shmids.Empty0"
	is "$output" "{
   \"segments\": [
      {\"id\": \"${h%% *}\", \"state\": \"foreign\", \"count\": null, \"shape\": null},
      {\"id\": \"${u%% *}\", \"state\": \"unreadable\", \"count\": null, \"shape\": null},
      {\"id\": \"$D/shmids.Empty0\", \"state\": \"broken\", \"count\": null, \"shape\": null}
   ]
}"
	# the long format's marks for the same
	run --separate-stderr shm_ls -o shape,state --noheadings "${h%% *}" "${u%% *}" "$D/shmids.Empty0"
	is "$output" "- -
? ?
- broken"
	# every key by default, shape after count (the order of format-spec.md 7)
	shm_ls -J "$t" | grep -Fq '"type": "f64", "count": 5307, "shape": [87, 61], "order": "C", "state": "ready", "owner": ' ||
	    { echo "keys: $(shm_ls -J "$t")" >&2; false; }
	run --separate-stderr shm_ls -J -a
	status_is 0
	json_check <<< "$output"
}

@test "2.7: shm-ls: a wide shape (10000x1000) widens SHAPE by its characters past 7: every column but the label within 48, 51 with it" {
	local t o b
	t=$(mktable vol f64 87 61)
	o=$(mkseg one f64 125000)
	run --separate-stderr pwrun abcdefgh '' "$BIN/shm-ls" "$t" "$o"
	status_is 0
	is "$(label_past 48)" "" "lines whose label starts past column 48"
	b=$(mktable big raw 10000 1000)
	run --separate-stderr pwrun abcdefgh '' "$BIN/shm-ls" "$t" "$o" "$b"
	status_is 0
	is "$(undate <<< "$output")" "OWNER    SIZE TYPE      SHAPE STATE CREATED      LABEL
abcdefgh  42K f64       87x61 ready DATE $t
abcdefgh 977K f64      125000 ready DATE $o
abcdefgh 9.6M raw  10000x1000 ready DATE $b"
	is "$(label_past $((48 + 10 - 7)))" "" "lines whose label starts past column 51"
	# whole, never rounded: 10000x999 is not 10000x1000
	is "$(shm_ls -J -o shape "$b" | sed -n 3p)" '      {"shape": [10000, 1000]}'
}

# Root may read every segment: a "?" is then never for want of permission.
@test "7: shm-ls: a ? to a terminal names only the reasons met: root listing a corrupt header gets 'a corrupt header' alone" {
	command -v script > /dev/null || skip "script (util-linux) missing"
	[ "$(id -u)" = 0 ] || skip "root lists it"
	local l out
	l=$(mkhostile padding bad)
	script -qec "\"$BIN/shm-ls\" \"${l%% *}\"" /dev/null > tty.out
	out=$(tr -d '\r' < tty.out)
	is "$(awk 'NR == 2 { print $3, $4, $5 }' <<< "$out")" "? ? ?" "type shape state"
	is "$(sed -n '$p' <<< "$out")" "?: a corrupt header" "last line"
	is "$(grep -c '^?:' <<< "$out")" 1 "said once"
}
