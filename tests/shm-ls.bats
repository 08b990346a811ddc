#!/usr/bin/env bats
# shm-ls: listing segments (format-spec.md 2.4, 7).

load helper

SYNOPSIS='shm-ls [-aps] [-n pattern] [-u user] [label | id ...]'

# Dates as ls -l: month, day, then time (or year).
DATE='[A-Z][a-z][a-z] +[0-9]{1,2} +([0-9]{2}:[0-9]{2}|[0-9]{4})'

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

@test "shm-ls -h: usage on stdout, exit 0" {
	run --separate-stderr shm_ls -h
	status_is 0
	usage_has "$SYNOPSIS" "$output"
	is "$stderr" ""
}

@test "shm-ls: bad options and users: what is wrong, then usage, exit 2" {
	bad_args shm-ls "$SYNOPSIS" <<-EOF
	-x|invalid option -- 'x'
	-u|option requires an argument -- 'u'
	-n|option requires an argument -- 'n'
	-z|invalid option -- 'z'
	--all|unrecognized option '--all'
	-u nosuchuser$$|invalid user 'nosuchuser$$' (expected a login name or numeric user ID)
	-u -1|invalid user '-1' (expected a login name or numeric user ID)
	-u 4294967295|invalid user '4294967295' (expected a login name or numeric user ID)
	-u ''|invalid user '' (expected a login name or numeric user ID)
	EOF
}

@test "shm-ls: long format of a segment, by label and by shmid" {
	local l id re
	l=$(mkseg long f64 10)
	id=${l%% *}
	re="^-rw------- +0 +$(id -un) +$(id -gn) +208 +f64 +10 +ready +$DATE +(-|$DATE) +$l\$"
	run --separate-stderr shm_ls "$l"
	status_is 0
	[[ $output =~ $re ]] || { echo "line: $output" >&2; echo "re: $re" >&2; false; }
	run --separate-stderr shm_ls "$id"
	status_is 0
	[[ $output =~ $re ]] || { echo "line: $output" >&2; false; }
	is "$stderr" ""
	# created today, as ls -l writes it
	[[ $output =~ ready\ +$(LC_ALL=C date +%b)\ +$(date +%-d)\ +[0-9][0-9]:[0-9][0-9] ]] ||
	    { echo "date: $output" >&2; false; }
}

@test "shm-ls: mode column for other modes" {
	local row l fails= mode want
	for row in "644 -rw-r--r--" "640 -rw-r-----" "444 -r--r--r--" "666 -rw-rw-rw-"; do
		set -- $row
		l=$(mkseg "m$1" i32 1 "$1")
		mode=$(shm_ls "$l" | awk '{ print $1 }')
		[ "$mode" = "$2" ] || fails+="[$1: got $mode] "
	done
	is "$fails" "" "failures"
}

@test "shm-ls -p: 16 tab-separated fields as format-spec.md 7 says" {
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

@test "shm-ls -p: every line has 16 fields, with and without -a" {
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

@test "shm-ls: state is ready, filling or dead" {
	local r w d row l want fails= got
	r=$(mkseg ready f64 1)
	w=$(mkwriter filling 20)
	d=$(mkkilled dead)
	for row in "$r|ready" "$w|filling" "$d|dead"; do
		l=${row%|*} want=${row#*|}
		got=$(shm_ls -p "$l" | cut -f 15)
		[ "$got" = "$want" ] || fails+="[-p $want: got $got] "
		got=$(shm_ls "$l" | awk '{ print $8 }')
		[ "$got" = "$want" ] || fails+="[long $want: got $got] "
	done
	is "$fails" "" "failures"
}

@test "shm-ls -a: other programs' segments only with -a, from kernel data" {
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
	re="^-rw------- +[0-9]+ +$(id -un) +$(id -gn) +100 +- +- +- +$DATE +(-|$DATE) +$rid\$"
	grep -Eq "$re" <<< "$output" || { echo "no line for $rid: $output" >&2; false; }
	re="^-rw------- +[0-9]+ +$(id -un) +$(id -gn) +136 +- +- +- +$DATE +(-|$DATE) +$fid\$"
	grep -Eq "$re" <<< "$output" || { echo "no line for $fid: $output" >&2; false; }
	is "$(pline "$rid" | cut -f 13-15)" "-	-	-" "-p type count state"
	is "$(pline "$rid" | cut -f 2)" 0x00000000 "-p key"
	# never attached: the kernel's last pid and attach time did not move
	is "$(procfield "$rid" 6)" "$lpid" lpid
	is "$(procfield "$rid" 12)" "$atime" atime
}

@test "shm-ls: a segment the user may not read is listed with ?" {
	need_user
	local l id line
	l=$(mkseg private f64 1 600)
	id=${l%% *}
	line=$(as_user "$BIN/shm-ls" -p | awk -F '\t' -v id="$id" '$1 == id')
	# -p writes "-" where a field is unknown: either mark will do there
	like "$(cut -f 13-15 <<< "$line")" "[?-]	[?-]	[?-]" "-p type count state"
	line=$(as_user "$BIN/shm-ls" | awk -v id="$id" '$NF == id || $(NF-1) == id')
	is "$(awk '{ print $6, $7, $8 }' <<< "$line")" "? ? ?" "long type count state"
}

@test "shm-ls: operands: several, missing, not a label" {
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

@test "shm-ls -n: only names matching the pattern" {
	local a1 a2 b1
	a1=$(mkseg a1 f64 1)
	a2=$(mkseg a2 f64 1)
	b1=$(mkseg b1 f64 1)
	run --separate-stderr shm_ls -p -n "${P}a*"
	status_is 0
	is "$(cut -f 16 <<< "$output" | sort)" "$(printf '%s\n' "$a1" "$a2" | sort)"
	run --separate-stderr shm_ls -n "${P}?1"
	status_is 0
	is "$(awk '{ print $(NF-1) " " $NF }' <<< "$output" | sort)" \
	    "$(printf '%s\n' "$a1" "$b1" | sort)"
	run --separate-stderr shm_ls -n "${P}nomatch*"
	status_is 0
	is "$output" ""
}

@test "shm-ls -u: owner by name or uid" {
	local a
	a=$(mkseg a f64 1)
	run --separate-stderr shm_ls -p -u "$(id -un)" -n "$P*"
	status_is 0
	is "$(cut -f 16 <<< "$output")" "$a"
	run --separate-stderr shm_ls -p -u "$(id -u)" -n "$P*"
	status_is 0
	is "$(cut -f 16 <<< "$output")" "$a"
	run --separate-stderr shm_ls -p -u nobody -n "$P*"
	status_is 0
	is "$output" ""
	run --separate-stderr shm_ls -p -u no-such-user-xyz
	[ "$status" -ne 0 ]
	[ -n "$stderr" ]
}

@test "shm-ls -u: another user's segments" {
	need_user
	local l
	l=$(as_user "$SHMTOOL" create "${P}theirs" f64 1)
	track "$l"
	run --separate-stderr shm_ls -p -u "$TESTUSER" -n "$P*"
	status_is 0
	is "$(cut -f 16 <<< "$output")" "$l"
	is "$(cut -f 4 <<< "$output")" "$TESTUSER" uid
}

@test "shm-ls: reads times before attaching; ctime and nattch unchanged" {
	local l before after
	l=$(mkseg aged f64 3)
	sleep 2
	before=$(shm_ls -p "$l")
	# the last attach is still the creator's, not this listing's
	[ "$(cut -f 11 <<< "$before")" -le $(($(cut -f 10 <<< "$before") + 1)) ] ||
	    { echo "atime is the listing's own: $before" >&2; false; }
	shm_ls > /dev/null
	shm_ls -a > /dev/null
	printf 'x shmids %s\n' "$l" | shm_expand > /dev/null
	after=$(shm_ls -p "$l")
	is "$(cut -f 10 <<< "$after")" "$(cut -f 10 <<< "$before")" ctime
	is "$(cut -f 7 <<< "$after")" 0 nattch
	[ "$(cut -f 11 <<< "$after")" -gt "$(cut -f 11 <<< "$before")" ] ||
	    { echo "atime did not move after attaching: $before / $after" >&2; false; }
}

@test "shm-ls: the time zone is read once, not again for each segment listed" {
	need_strace
	local n1 n3
	mkseg z1 f64 1 > /dev/null
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	    strace -f -qq -o "$T/z1.st" "$BIN/shm-ls" -n "${P}z*" > /dev/null
	mkseg z2 f64 1 > /dev/null
	mkseg z3 f64 1 > /dev/null
	run --separate-stderr env \
	    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	    strace -f -qq -o "$T/z3.st" "$BIN/shm-ls" -n "${P}z*"
	status_is 0
	is "$(wc -l <<< "$output")" 3 "lines listed"
	n1=$(grep -c localtime "$T/z1.st")
	n3=$(grep -c localtime "$T/z3.st")
	is "$n3" "$n1" "system calls naming the zone file, 3 segments against 1"
}
