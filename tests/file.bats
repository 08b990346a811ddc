#!/usr/bin/env bats
# File segments, the second backend (format-spec.md 1, 2.6): each test
# makes its segments in a directory of its own, which teardown removes
# with everything in it.

load helper

eval "helper_$(declare -f teardown)"

fsetup() {
	D=$(mktemp -d /tmp/shmids-file.XXXXXX)
	chmod 1777 "$D"
	echo "$D" > "$T/.dir"
}

teardown() {
	[ -s "$T/.dir" ] && rm -rf "$(cat "$T/.dir")"
	helper_teardown
}

# fmk CMD ARGS...: shmtool CMD with file segments in $D; prints the
# label, and fails unless it names a file segment.
fmk() {
	local out
	out=$(SHMIDS_DIR=$D _mk "$@") || return 1
	[[ $out == /* ]] || { echo "not a file segment: $out" >&2; return 1; }
	printf '%s\n' "$out"
}

# ipcs_ours: our System V segments now, to show that none were made.
ipcs_ours() {
	ipcs -m | awk '$1 ~ /^0x5348/ { print $2 }' | sort
}

@test "2.6: shm-import with SHMIDS_DIR: a file segment, exact mode, back by shm-expand" {
	fsetup
	printf 'coeff 0 1.5 -2 nan inf -0 1e-310\nn 7\n' > in.txt
	before=$(ipcs_ours)
	umask 077
	SHMIDS_DIR=$D runio in.txt shm_import -k 3 -m 0640 -P "$P"
	status_is 0
	is "$(ipcs_ours)" "$before" "System V segments"
	l=$(label_of out)
	like "$l" "$(realpath "$D")/shmids.$(id -u).?????? ${P}coeff" "label"
	f=${l%% *}
	is "$(stat -c '%a %s' "$f")" "640 $((128 + 7 * 8))" "mode and size"
	is "$(sed -n 2p out)" "n 7"
	# readers need no setting: the label says where
	mv out refs
	runio refs shm_expand -d
	status_is 0
	same_file in.txt out
	[ ! -e "$f" ]
}

@test "2.6: file segments: 10^5 random-bit doubles and floats round-trip exactly" {
	fsetup
	for t in f64 f32 i32; do
		l=$(fmk random "${P}r$t" "$t" 100000 7)
		printf 'v shmids %s\n' "$l" > ref
		runio ref shm_expand
		status_is 0
		cp out ascii
		runio ascii shm_import -t "$t" -k 1 -P "${P}back"
		status_is 0
		l2=$(label_of out)
		track "$l2"
		is "$(shmtool bits "$l2" | md5sum)" "$(shmtool bits "$l" | md5sum)" \
		    "$t bits"
	done
}

@test "2.6: shm-ls: file segments with SHMIDS_DIR, by path and label, -p columns" {
	fsetup
	l=$(fmk create "${P}a" f64 10 0644)
	f=${l%% *}
	run shm_ls
	status_is 0
	[[ $output != *"$f"* ]]
	SHMIDS_DIR=$D run shm_ls
	status_is 0
	# (System V segments of concurrent tests may be listed too)
	output=$(grep -F "$(realpath "$D")/" <<< "$output")
	like "$output" "$(owner8) *208 f64 *10 ready * $l"
	SHMIDS_DIR=$D run shm_ls -p -N "${P}a"
	status_is 0
	IFS=$'\t' read -r -a c <<< "$output"
	is "${#c[@]}" 16 "columns"
	is "${c[0]} ${c[1]} ${c[2]} ${c[5]} ${c[6]} ${c[7]} ${c[8]} ${c[11]}" \
	    "$f - 0644 208 0 - - -"
	is "${c[12]} ${c[13]} ${c[14]} ${c[15]}" "f64 10 ready $l"
	run shm_ls "$f"
	status_is 0
	like "$output" "* $l"
	run shm_ls "$l"
	status_is 0
	run --separate-stderr shm_ls "$f ${P}other"
	status_is 1
	is "$stderr" "shm-ls: $f ${P}other: segment $f is labelled '$l'"
}

@test "2.6: other files in SHMIDS_DIR are never opened, symlinks never followed" {
	fsetup
	l=$(fmk create "${P}a" i32 3)
	f=${l%% *}
	echo hello > "$D/notes.txt"
	echo hello > "$D/shmids.short"
	mkfifo "$D/shmids.Fifo00"
	ln -s "$f" "$D/shmids.Link00"
	mkdir "$D/shmids.Dir000"
	cp "$f" "$D/shmids.Copy00"	# a header carrying another path
	SHMIDS_DIR=$D run shm_ls
	status_is 0
	output=$(grep -F "$(realpath "$D")/" <<< "$output")
	# the label, the last two fields (widths follow the other lines)
	is "$(awk '{ print $(NF-1), $NF }' <<< "$output")" \
	    "$(SHMIDS_DIR=$D shm_ls -N "${P}a" | awk 'NR > 1 { print $(NF-1), $NF }')" "only the segment"
	is "$(echo "$output" | wc -l)" 1 "lines"
	SHMIDS_DIR=$D run shm_ls -a -p
	status_is 0
	[[ $output != *Fifo00* && $output != *Link00* && $output != *Dir000* ]]
	# a label through a symlink, or a copy, is stale; a FIFO does not hang
	lk="$(realpath "$D")/shmids.Link00 ${P}a"
	run shmtool open "$lk"
	is "$output" ESTALE
	run shmtool open "$(realpath "$D")/shmids.Copy00 ${P}a"
	is "$output" ESTALE
	run shmtool open "$(realpath "$D")/shmids.Fifo00 ${P}a"
	is "$output" ESTALE
	run shmtool open "$(realpath "$D")/shmids.Gone00 ${P}a"
	is "$output" ENOENT
	run shmtool open "$(realpath "$D")/notes.txt ${P}a"
	is "$output" EINVAL
	SHMIDS_DIR=$D run shm_rm -s 0 -N "${P}*"
	status_is 0
	[ -p "$D/shmids.Fifo00" ] && [ -L "$D/shmids.Link00" ] &&
	    [ -f "$D/shmids.Copy00" ] && [ -f "$D/notes.txt" ]
	[ ! -e "$f" ]
}

@test "2.6: reference lines with paths: malformed ones are reported and passed through" {
	printf '%s\n' 'a shmids /tmp/x/shmids.ABC x' \
	    'b shmids tmp/shmids.ABCDEF x' 'c shmids /tmp/../shmids.ABCDEF x' \
	    'd shmids /tmp//shmids.ABCDEF x' \
	    "e shmids /tmp/shmids.ABCDEF $(printf 'n%.0s' $(seq 60))" > in
	runio in shm_expand
	status_is 1
	same_file in out
	is "$(grep -c 'malformed reference: bad shmid or path' err)" 4
	is "$(grep -c 'stdin:5: malformed reference: label longer than 75' err)" 1
}

@test "2.6: writer filling, writer killed: EAGAIN while it lives, EOWNERDEAD after" {
	fsetup
	l=$(SHMIDS_DIR=$D bg w "$SHMTOOL" writer "${P}w" 30)
	like "$l" "/*"
	run shmtool open "$l"
	is "$output" EAGAIN
	SHMIDS_DIR=$D run shm_ls -p -N "${P}w"
	is "$(cut -f 4,7,15 <<< "$output")" "$(id -u)	1	filling" "uid nattch state"
	printf 'x shmids %s\n' "$l" > ref
	runio ref shm_expand -w 1
	status_is 1
	is "$(cat err)" "shm-expand: stdin:1: $l: still being written after 1 s (-w)"
	k=$(fmk killwriter "${P}k")
	run shmtool open "$k"
	is "$output" EOWNERDEAD
	SHMIDS_DIR=$D run shm_ls -p -N "${P}k"
	is "$(cut -f 4,7,15 <<< "$output")" "$(id -u)	0	dead" "uid nattch state"
}

@test "2.6: sealed: the writer's lock becomes a reader's; readers see attaches" {
	fsetup
	l=$(fmk create "${P}s" f64 4)
	SHMIDS_DIR=$D run shm_ls -p -N "${P}s"
	is "$(cut -f7 <<< "$output")" 0 "nattch, idle"
	hold "$l" 30
	SHMIDS_DIR=$D run shm_ls -p -N "${P}s"
	is "$(cut -f7 <<< "$output")" 1 "nattch, held"
	run shmtool open "$l"
	is "$output" "f64 4 6"
	# an attached segment is never removed by age, then goes once idle
	SHMIDS_DIR=$D run shm_rm -v -s 0 -N "${P}*"
	status_is 0
	is "$output" ""
	exists "$l"
	xargs kill < "$T/.pids"
	for i in $(seq 100); do
		SHMIDS_DIR=$D run shm_ls -p -N "${P}s"
		[ "$(cut -f7 <<< "$output")" = 0 ] && break
		sleep 0.05
	done
	SHMIDS_DIR=$D run shm_rm -v -s 0 -N "${P}*"
	status_is 0
	is "$(vlabels <<< "$output")" "$l"
	gone "$l"
}

@test "2.6: shm-rm: by label and by path; stale label; age from birth; -n" {
	fsetup
	a=$(fmk create "${P}a" f64 1)
	b=$(fmk create "${P}b" f64 1)
	c=$(fmk create "${P}c" f64 1)
	run --separate-stderr shm_rm "${a%% *} ${P}wrong"
	status_is 1
	is "$stderr" "shm-rm: ${a%% *} ${P}wrong: segment ${a%% *} is labelled '$a'"
	exists "$a"
	run shm_rm -v "$a" "${b%% *}"
	status_is 0
	is "$(vlabels <<< "$output")" "$a"$'\n'"$b"
	gone "$a"
	gone "$b"
	SHMIDS_DIR=$D run shm_rm -n -s 1h -N "${P}*"
	is "$output" ""
	SHMIDS_DIR=$D run shm_rm -n -s 0 -N "${P}c"
	is "$output" "$c"
	exists "$c"
	# listing does not touch the access time
	touch -a -d '2020-01-01 00:00:00' "${c%% *}"
	at=$(stat -c %X "${c%% *}")
	SHMIDS_DIR=$D shm_ls > /dev/null
	shm_ls "$c" > /dev/null
	SHMIDS_DIR=$D shm_rm -n -s 0 > /dev/null
	is "$(stat -c %X "${c%% *}")" "$at" "atime"
	run shm_rm -f "${c%% *}"
	status_is 0
	[ ! -e "${c%% *}" ]
}

@test "2.6: another user's file segment: listed, not removed; readers cannot write" {
	need_user
	fsetup
	l=$(fmk create "${P}m" f64 8 0644)
	run as_user "$BIN/shm-rm" "$l"
	status_is 1
	exists "$l"
	SHMIDS_DIR=$D run as_user "$BIN/shm-rm" -s 0
	status_is 0
	exists "$l"
	run as_user "$SHMTOOL" open "$l"
	is "$output" "f64 8 28"
	run --separate-stderr shmtool rdonly "$l"
	is "$output" "SIGSEGV SIGSEGV SIGSEGV"
	p=$(fmk create "${P}p" f64 8 0600)
	run as_user "$SHMTOOL" open "$p"
	is "$output" EACCES
	SHMIDS_DIR=$D run as_user "$BIN/shm-ls"
	status_is 0
	like "$(grep -F "${p%% *}" <<< "$output")" \
	    "root *? *? ? * ${p%% *}"
}

# squat_old O F: as TESTUSER, write at O (an old-form path, shmids 1.3)
# the file segment F with its label's path made O's.
squat_old() {
	as_user sh -c 'l="$1 v"; { printf "%s\0\n" "$l";
	    head -c $((80 - ${#l} - 2)) /dev/zero; tail -c +81 "$2"; } > "$1"' \
	    - "$1" "$2"
}

@test "2.6: a removed file segment's path taken by another user (same label, a header of theirs): every reader refuses it, in words" {
	local l f u
	need_user
	fsetup
	printf 'v 1 2 3 4\n' > in
	SHMIDS_DIR=$D runio in shm_import -k 2 -P "$P"
	status_is 0
	l=$(sed -n 's/^v shmids //p' "$T/out")
	f=${l%% *}
	like "$f" "$(realpath "$D")/shmids.$(id -u).??????" "the maker's uid in the name"
	cp "$T/out" ref
	cp "$f" "$D/copy"
	chmod 644 "$D/copy"
	run shm_rm "$l"
	status_is 0
	# bob makes the same bytes at the same path, 9 for 1
	as_user sh -c 'cat "$1" > "$2"; printf "\0\0\0\0\0\0\42\100" |
	    dd of="$2" bs=1 seek=128 conv=notrunc status=none' - "$D/copy" "$f"
	u=$(stat -c %u "$f")
	[ "$u" = "$TESTUSER" ]
	runio ref shm_expand
	status_is 1
	is "$(cat err)" "shm-expand: stdin:1: $l: file segment $f belongs to uid $TESTUSER, not to uid $(id -u) who made it: not read"
	same_file ref out
	run shmtool open "$l"
	is "$output" ESTALE
	run shm_rm "$l"
	status_is 1
	[ -e "$f" ]
	# not ours: not listed, never cleaned; its owner removes it
	SHMIDS_DIR=$D run shm_rm -U -s 0 -N "${P}*"
	[ -e "$f" ]
	SHMIDS_DIR=$D run "$BIN/shm-ls" -p
	[[ $output != *"$f"* ]]
}

# Issue 40 item 10: an old-form name (shmids 1.3: no uid in it) that
# another user's file took after its segment was removed was read as
# data by every reader but shm-expand, which warned and exited 0.  The
# library's open decides for every reader (format-spec.md 2.6).
@test "2.6: old-form file names (shmids 1.3): their owner's and root's read; another owner's refused by every reader, in words, unless SHMIDS_OLD_OWNERS names it" {
	local l f o why py
	need_user
	fsetup
	printf 'v 1 2 3 4\n' > in
	SHMIDS_DIR=$D runio in as_user "$BIN/shm-import" -k 2
	status_is 0
	l=$(sed -n 's/^v shmids //p' "$T/out")
	f=${l%% *}
	o=$(realpath "$D")/shmids.Ab12Cd
	squat_old "$o" "$f"
	as_user chmod 644 "$o"
	printf 'v shmids %s v\nw shmids %s v\n' "$o" "$o" > ref
	why="file segment $o was made before shmids 1.4 and belongs to uid $TESTUSER, not to you: its maker cannot be checked, so it is not read (SHMIDS_OLD_OWNERS=$TESTUSER reads uid $TESTUSER's: shmids(5) 2.6)"
	runio ref shm_expand
	status_is 1
	is "$(cat err)" "shm-expand: stdin:1: $o v: $why
shm-expand: stdin:2: $o v: $why"
	same_file ref out
	run shmtool open "$o v"
	is "$output" ESTALE "shmids_open"
	run shmtool get f64 < ref
	is "$output" ESTALE "shmids_get"
	if py=$(py_lib); then
		run env SHMIDS_LIB="$LIBSO" \
		    PYTHONPATH="$BATS_TEST_DIRNAME/../python" "$py" -c '
import errno, shmids, sys
try:
    shmids.load(sys.argv[1])
except OSError as e:
    print(errno.errorcode[e.errno], e.strerror)' ref
		is "$output" "ESTALE $why" "Python load()"
	fi
	# asked for by its owner's uid, name list, or any owner: read, silent
	for who in "$TESTUSER" "nobody-here, $TESTUSER" '*'; do
		runio ref env SHMIDS_OLD_OWNERS="$who" "$BIN/shm-expand"
		status_is 0
		is "$(cat out)" "v 1 2 3 4
w 1 2 3 4" "SHMIDS_OLD_OWNERS=$who"
		is "$(cat err)" "" "SHMIDS_OLD_OWNERS=$who: stderr"
	done
	runio ref env SHMIDS_OLD_OWNERS="$((TESTUSER + 1))" "$BIN/shm-expand"
	status_is 1
	# its owner reads it as before, and cleans it as before
	runio ref as_user "$BIN/shm-expand"
	status_is 0
	is "$(cat err)" "" "its owner is told nothing"
	SHMIDS_DIR=$D run as_user "$BIN/shm-rm" -s 0
	status_is 0
	[ ! -e "$o" ] || { echo "the old form is not cleaned" >&2; false; }
}

@test "2.6: an old-form file removed by its owner right after a reader opened it: judged by the open file's owner, never by a path looked up again" {
	local l f o so
	need_user
	fsetup
	so=$PRELOAD/rmaftermap.so
	[ -f "$so" ] || { echo "$so missing: make check builds it" >&2; false; }
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
	# more than a page: mapped twice, the second time after the lock
	seq 1 1000 | tr '\n' ' ' | sed 's/^/v /; s/ $//' > in
	echo >> in
	SHMIDS_DIR=$D runio in as_user "$BIN/shm-import" -k 2
	status_is 0
	l=$(sed -n 's/^v shmids //p' "$T/out")
	f=${l%% *}
	o=$(realpath "$D")/shmids.Ab12Cd
	squat_old "$o" "$f"
	as_user chmod 644 "$o"
	printf 'v shmids %s v\n' "$o" > ref
	# the owner (root may, in the sticky directory) unlinks it once mapped
	runio ref env LD_PRELOAD="$so" SHMIDS_RMMAPPED="$o" \
	    SHMIDS_OLD_OWNERS="$TESTUSER" "$BIN/shm-expand"
	status_is 0
	[ ! -e "$o" ] || { echo "the shim did not remove $o" >&2; false; }
	is "$(tr -s ' /\n' '   ' < out)" "$(tr -d '\n' < in) "
	is "$(cat err)" "" "read as asked, nothing said"
}

@test "1, 2.6: the uid in a file segment's name fits the label's 75 bytes: made, or ENAMETOOLONG, never cut" {
	local d n
	fsetup
	d=$(realpath "$D")
	# path: dir + "/shmids.<uid>.XXXXXX"; label: path, space, name
	n=$((75 - ${#d} - 15 - ${#EUID} - 1))
	run env SHMIDS_DIR=$D "$SHMTOOL" create "$(printf 'n%.0s' $(seq "$n"))" f64 1
	status_is 0
	is "${#output}" 75
	run env SHMIDS_DIR=$D "$SHMTOOL" create "$(printf 'n%.0s' $(seq $((n + 1))))" f64 1
	is "$output" ENAMETOOLONG
}

@test "2.6: file segment limits: long labels, missing directory, full file system" {
	local d u
	fsetup
	n=$(printf 'n%.0s' $(seq 60))
	printf '%s 1 2 3\n' "$n" > in
	SHMIDS_DIR=$D runio in shm_import -k 1
	status_is 1
	# no short name for the directory here (tests/helper.bash: 2.6)
	d=$(realpath "$D") u=$(id -u)
	is "$(cat err)" "shm-import: stdin:1: $n: the name is too long for a file segment in SHMIDS_DIR: its label has room for a name of $((75 - ${#d} - 8 - ${#u} - 7 - 1)) bytes"
	same_file in out
	is "$(ls -A "$D")" "" "nothing left"
	SHMIDS_DIR=$D/none runio in shm_import -k 1 -P x -f "$n"
	status_is 1
	SHMIDS_DIR=$D/none run --separate-stderr shm_ls -N "${P}*"
	status_is 1
	is "$stderr" "shm-ls: SHMIDS_DIR $D/none does not exist: 'mkdir -p $D/none' (mode 1777 to share it), or unset SHMIDS_DIR for System V segments"
	[ "$(id -u)" = 0 ] && command -v unshare > /dev/null ||
	    skip "needs root and unshare for a small tmpfs"
	# 1 MiB of tmpfs, 2 MiB of doubles: ENOSPC, not SIGBUS; nothing left
	run unshare --mount sh -c "mount -t tmpfs -o size=1m none '$D' &&
	    SHMIDS_DIR='$D' '$SHMTOOL' create '${P}big' f64 262144;
	    echo rc=\$?; ls -A '$D'"
	like "$output" "*ENOSPC*rc=1"
	[[ $output != *shmids.* ]]
}

@test "2.6: a file segment truncated under shm-expand: an error, exit 1, nothing removed" {
	fsetup
	l=$(fmk create "${P}t" f64 1000000)
	printf 'x shmids %s\n' "$l" > ref
	mkfifo pipe
	shm_expand -d < ref > pipe 2> err 3>&- &
	exec 5< pipe
	head -c 1000 <&5 > /dev/null
	truncate -s 4096 "${l%% *}"
	cat <&5 > /dev/null
	exec 5<&-
	st=0
	wait $! || st=$?
	is "$st" 1 "exit status"
	is "$(cat err)" "shm-expand: a file segment was truncated while being read"
	[ -e "${l%% *}" ]
}

@test "2.6: file segments: same-name writers, two shm-expand -d racing on each" {
	fsetup
	echo "v $(seq -s ' ' 1 100)" > in
	for i in 1 2 3 4 5 6 7 8; do
		SHMIDS_DIR=$D shm_import -k 1 -P "$P" < in > "ref$i" &
	done
	wait
	is "$(cat ref* | awk '{ print $3 }' | sort -u | wc -l)" 8 "labels"
	for i in 1 2 3 4 5 6 7 8; do
		shm_expand -c 0 -d < "ref$i" > "a$i" 2> "ea$i" &
		shm_expand -c 0 -d < "ref$i" > "b$i" 2> "eb$i" &
	done
	wait
	for i in 1 2 3 4 5 6 7 8; do
		# each expansion is whole, or the segment was already gone
		if [ -s "ea$i" ]; then like "$(cat "ea$i")" "*: no such segment (removed, or never made)"; else same_file in "a$i"; fi
		if [ -s "eb$i" ]; then like "$(cat "eb$i")" "*: no such segment (removed, or never made)"; else same_file in "b$i"; fi
	done
	is "$(ls -A "$D")" "" "all removed"
}

# A reader maps and populates the bytes the header declares, not the
# file: one grown sparse by its owner (truncate -s 1G) would cost 1 GiB
# of memory, and on tmpfs 1 GiB of the file system that stays.
@test "2.6: a file grown sparse to 1 GiB: readers touch only the declared bytes (RSS, tmpfs usage)" {
	local dir l f kb
	for dir in /dev/shm "$T"; do
		D=$(mktemp -d "$dir/shmids-file.XXXXXX")
		echo "$D" > "$T/.dir"
		for n in 0 3; do
			# $T is long: a short name leaves room for the uid
			l=$(fmk create "s$n" f64 "$n")
			f=${l%% *}
			truncate -s 1G "$f"
			printf 'x shmids %s\n' "$l" > ref
			runio ref "$SHMTOOL" maxrss "$BIN/shm-expand"
			status_is 0
			is "$(sed '$d' out)" "x$([ "$n" = 0 ] || echo ' 0 1 2')" "$dir, count $n"
			kb=$(tail -n 1 out)
			[ "$kb" -lt 65536 ] ||
			    { echo "$dir, count $n: shm-expand's RSS $kb kB" >&2; false; }
			run shmtool open "$l"
			is "$output" "f64 $n $([ "$n" = 0 ] && echo 0 || echo 3)"
			SHMIDS_DIR=$D run shm_ls -p -N "${P}s$n"
			status_is 0
			kb=$(du -k "$f" | cut -f1)
			[ "$kb" -lt 1024 ] ||
			    { echo "$dir, count $n: $f uses $kb kB" >&2; false; }
		done
		rm -rf "$D"
	done
}

@test "2.6: a file grown sparse to 1 GiB opens in 300 MB of address space" {
	local got
	fsetup
	got=$(bash -c "ulimit -v 300000 && exec '$SHMTOOL' open '/tmp/shmids.ABCDEF x'" 2>&1) ||
	    true
	[ "$got" = ENOENT ] ||
	    skip "shmtool cannot run under ulimit -v (sanitizer or valgrind?)"
	l=$(fmk create "${P}s" i32 2)
	truncate -s 1G "${l%% *}"
	got=$(bash -c "ulimit -v 300000 && exec '$SHMTOOL' open '$l'") || true
	is "$got" "i32 2 1"
}

@test "2.6: a file segment shrunk by its owner under shm-ls and shm-rm -s: never a signal; the files after it still listed and cleaned" {
	fsetup
	local a b v k i st so fails=
	a=$(fmk create "${P}a" f64 10)
	b=$(fmk create "${P}b" f64 10)
	# files come in path order: the one shrunk is the first
	if [ "$(printf '%s\n' "${a%% *}" "${b%% *}" | LC_ALL=C sort | head -n 1)" = "${a%% *}" ]; then
		v=$a k=$b
	else
		v=$b k=$a
	fi
	# every time: truncated between the tool's fstat and its header read
	so=$BATS_TEST_DIRNAME/../${SHMIDS_BUILD:-build}/tests/preload/shrinkfstat.so
	[ -f "$so" ] || { echo "$so missing: make check builds it" >&2; false; }
	cp "${v%% *}" saved
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
	st=0
	LD_PRELOAD=$so SHMIDS_SHRINK=${v%% *} SHMIDS_DIR=$D "$BIN/shm-ls" -p \
	    > out 2> err || st=$?
	is "$st" 0 "shm-ls exit status ($(cat err))"
	[ ! -s "${v%% *}" ] || { echo "the shim did not truncate" >&2; false; }
	grep -qF "	$k" out || { echo "shm-ls: $k not listed: $(cat out)" >&2; false; }
	cp saved "${v%% *}"
	st=0
	LD_PRELOAD=$so SHMIDS_SHRINK=${v%% *} SHMIDS_DIR=$D "$BIN/shm-rm" -n -s 0 \
	    -N "${P}*" > out 2> err || st=$?
	is "$st" 0 "shm-rm exit status ($(cat err))"
	is "$(cat out)" "$k" "shm-rm -n"
	# and in a race, as it happens
	cp saved "${v%% *}"
	is "$(bg shrink "$SHMTOOL" shrink "${v%% *}" 30)" shrinking
	for i in $(seq 50); do
		st=0
		SHMIDS_DIR=$D "$BIN/shm-ls" -p > out 2> err || st=$?
		[ "$st" = 0 ] || { fails+="[shm-ls run $i: exit $st $(cat err)] "; break; }
		grep -qF "	$k" out || fails+="[shm-ls run $i: $k not listed] "
		st=0
		SHMIDS_DIR=$D "$BIN/shm-rm" -n -s 0 -N "${P}*" > out 2> err || st=$?
		[ "$st" = 0 ] || { fails+="[shm-rm run $i: exit $st $(cat err)] "; break; }
		grep -qxF "$k" out || fails+="[shm-rm run $i: $k not named] "
	done
	is "$fails" "" "failures"
	SHMIDS_DIR=$D run --separate-stderr shm_rm -v -s 0 -N "${k#* }"
	status_is 0
	is "$(vlabels <<< "$output")" "$k"
	[ ! -e "${k%% *}" ]
}

@test "2.6: SHMIDS_DIR missing or unreadable: said once, System V segments listed and cleaned anyway, exit 1" {
	need_user
	fsetup
	local l m dir
	l=$(as_user "$SHMTOOL" create "${P}sv" f64 1)
	track "$l"
	m=$(as_user "$SHMTOOL" create "${P}sw" f64 1)
	track "$m"
	mkdir "$D/closed"
	chmod 700 "$D/closed"
	for dir in "$D/none| does not exist: 'mkdir -p $D/none' (mode 1777 to share it), or unset SHMIDS_DIR for System V segments" \
	    "$D/closed| cannot be read or searched by you: its owner may 'chmod 1777' it, or point SHMIDS_DIR at a directory of yours, or unset it for System V segments"; do
		SHMIDS_DIR=${dir%|*} run --separate-stderr as_user "$BIN/shm-ls" -p -N "${P}*"
		status_is 1
		is "$stderr" "shm-ls: SHMIDS_DIR ${dir%|*}${dir#*|}" "shm-ls stderr"
		is "$(cut -f 16 <<< "$output")" "$l"$'\n'"$m" "shm-ls listing"
		SHMIDS_DIR=${dir%|*} run --separate-stderr as_user "$BIN/shm-rm" -n -s 0 -N "${P}*"
		status_is 1
		is "$stderr" "shm-rm: SHMIDS_DIR ${dir%|*}${dir#*|}" "shm-rm stderr"
		is "$output" "$l"$'\n'"$m" "shm-rm -n"
	done
	SHMIDS_DIR=$D/none run --separate-stderr as_user "$BIN/shm-rm" -v -s 0 -N "${P}sv"
	status_is 1
	is "$(vlabels <<< "$output")" "$l" "removed"
	gone "$l"
	exists "$m"
}

@test "2.6: file residue (writer killed before its header): empty or all-NUL files listed broken, cleaned by age; others not" {
	need_user
	fsetup
	local f rd
	rd=$(realpath "$D")
	# as the test user: empty (mkstemp), sized and NUL, and 64 NUL bytes
	as_user sh -c ": > '$D/shmids.Empty0'; truncate -s 4096 '$D/shmids.Zeros0';
	    head -c 64 /dev/zero > '$D/shmids.Small0'; head -c 200 /dev/zero |
	    tr '\0' x > '$D/shmids.Xxxxx0'"
	SHMIDS_DIR=$D run --separate-stderr shm_ls -p
	status_is 0
	is "$(grep -F "$rd/" <<< "$output" | cut -f 1,6,13-16)" \
	    "$rd/shmids.Empty0	0	-	-	broken	-
$rd/shmids.Zeros0	4096	-	-	broken	-" "residue listed"
	SHMIDS_DIR=$D run --separate-stderr shm_ls -b
	status_is 0
	like "$(grep -F "$rd/shmids.Zeros0" <<< "$output")" \
	    "$TESTUSER *4096 - *- broken * $rd/shmids.Zeros0" "long format"
	SHMIDS_DIR=$D run --separate-stderr shm_ls -p -a
	is "$(grep -cF "$rd/shmids.Small0	" <<< "$output")" 1 "-a: a small file listed"
	is "$(grep -F "$rd/shmids.Small0	" <<< "$output" | cut -f 13-16)" "-	-	-	-" "not ours"
	SHMIDS_DIR=$D run --separate-stderr as_user "$BIN/shm-rm" -n -s 1h
	status_is 0
	is "$output" "" "fresh residue stays"
	SHMIDS_DIR=$D run --separate-stderr as_user "$BIN/shm-rm" -n -s 0 -N '*'
	status_is 0
	is "$output" "" "-N never matches residue"
	SHMIDS_DIR=$D run --separate-stderr as_user "$BIN/shm-rm" -v -s 0
	status_is 0
	is "$(vlabels <<< "$output")" "$rd/shmids.Empty0"$'\n'"$rd/shmids.Zeros0" "removed"
	[ -e "$D/shmids.Small0" ] && [ -e "$D/shmids.Xxxxx0" ]
	[ ! -e "$D/shmids.Empty0" ] && [ ! -e "$D/shmids.Zeros0" ]
}

# The cleaner's window (format-spec.md 2.6): strace holds the cleaner's
# unlink, or the reader's lock, for a while, so that the other comes in.
@test "2.6: file segments: no reader gets in while shm-rm -s removes one" {
	need_strace
	fsetup
	local l
	l=$(fmk create "${P}w" f64 4)
	SHMIDS_DIR=$D delayed rm unlink,unlinkat 1s \
	    "$BIN/shm-rm" -v -s 0 -N "$P*"
	entered rm 1		# found idle, held before the unlink
	run shmtool open "$l"
	is "$output" EAGAIN "reader"
	wait "$DELAYED" || true
	is "$(cat "$T/rm.out" "$T/rm.err" | vlabels)" "$l" "shm-rm output"
	[ ! -e "${l%% *}" ]
}

@test "2.6: file segments: a reader whose lock comes after the unlink gets ENOENT" {
	need_strace
	fsetup
	local l
	l=$(fmk create "${P}n" f64 4)
	delayed rd fcntl 3s "$SHMTOOL" hold "$l" 0
	entered rd 1 F_OFD_SETLK	# opened, its lock held back
	SHMIDS_DIR=$D run shm_rm -v -s 0 -N "$P*"
	status_is 0
	is "$(vlabels <<< "$output")" "$l" "removed"
	wait "$DELAYED" || true
	is "$(cat "$T/rd.out")" ENOENT "reader"
}

@test "2.6: file segments: the owner's cleaner removes a read-only one by age" {
	need_user
	fsetup
	local l i
	l=$(SHMIDS_DIR=$D as_user "$SHMTOOL" create "${P}ro" f64 4 0444)
	[[ $l == /* ]] || { echo "not a file segment: $l" >&2; false; }
	hold "$l" 30
	SHMIDS_DIR=$D run as_user "$BIN/shm-rm" -v -s 0 -N "$P*"
	status_is 0
	is "$output" "" "removed while held"
	is "$(stat -c %a "${l%% *}")" 444 "mode"
	xargs kill < "$T/.pids"
	for i in $(seq 100); do
		SHMIDS_DIR=$D run shm_ls -p -N "${P}ro"
		[ "$(cut -f7 <<< "$output")" = 0 ] && break
		sleep 0.05
	done
	SHMIDS_DIR=$D run as_user "$BIN/shm-rm" -v -s 0 -N "$P*"
	status_is 0
	is "$(vlabels <<< "$output")" "$l" "removed once idle"
	[ ! -e "${l%% *}" ]
}

@test "2.6: shm-rm -f LABEL on a file segment its owner shrinks meanwhile: an error for that label, never a signal" {
	fsetup
	local l so st
	l=$(fmk create "${P}f" f64 10)
	so=$BATS_TEST_DIRNAME/../${SHMIDS_BUILD:-build}/tests/preload/shrinkfstat.so
	[ -f "$so" ] || { echo "$so missing: make check builds it" >&2; false; }
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
	st=0
	LD_PRELOAD=$so SHMIDS_SHRINK=${l%% *} "$BIN/shm-rm" -f "$l" \
	    > out 2> err || st=$?
	is "$st" 1 "shm-rm -f exit status ($(cat err))"
	[ ! -s "${l%% *}" ] || { echo "the shim did not truncate" >&2; false; }
	grep -qF "shm-rm: $l: " err
	[ -e "${l%% *}" ]
}

@test "2.6: shm-import: a SHMIDS_DIR that fails is named, not the input file" {
	fsetup
	printf 'a 1 2 3\n' > in.txt
	SHMIDS_DIR=$D/nodir run --separate-stderr shm_import -k 1 -P "$P" in.txt
	status_is 1
	is "$stderr" "shm-import: in.txt:1: a: SHMIDS_DIR $D/nodir does not exist: 'mkdir -p $D/nodir' (mode 1777 to share it), or unset SHMIDS_DIR for System V segments
shm-import: SHMIDS_DIR $D/nodir: 1 array left as text (its lines copied unchanged: nothing lost)"
	is "$output" "a 1 2 3"
}

@test "7: shm-import: a missing SHMIDS_DIR is said once, with what to do, then how many arrays stayed text" {
	fsetup
	local n
	for n in a b c; do printf '%s 1 2 3\n' "$n"; done > in.txt
	printf '1 2\n3 4\n5 6\n' >> in.txt
	SHMIDS_DIR=$D/nodir run --separate-stderr shm_import -k 1 -P "$P" in.txt
	status_is 1
	is "$stderr" "shm-import: in.txt:1: a: SHMIDS_DIR $D/nodir does not exist: 'mkdir -p $D/nodir' (mode 1777 to share it), or unset SHMIDS_DIR for System V segments
shm-import: SHMIDS_DIR $D/nodir: 4 arrays and tables left as text (their lines copied unchanged: nothing lost)"
	is "$output" "$(cat in.txt)"
	: > "$D/f"
	SHMIDS_DIR=$D/f/x run --separate-stderr shm_import -k 1 -P "$P" in.txt
	status_is 1
	is "$stderr" "shm-import: in.txt:1: a: SHMIDS_DIR $D/f/x is not a directory (a name on its path is a file): point SHMIDS_DIR at one, or unset it for System V segments
shm-import: SHMIDS_DIR $D/f/x: 4 arrays and tables left as text (their lines copied unchanged: nothing lost)"
	is "$output" "$(cat in.txt)"
}

@test "2.6: shm-import: a file segment that cannot be mapped for want of memory says so, not that SHMIDS_DIR failed" {
	local so
	fsetup
	so=$PRELOAD/failmapshared.so
	[ -f "$so" ] || { echo "$so missing: make check builds it" >&2; false; }
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
	printf 'a 1 2 3\n' > in.txt
	SHMIDS_DIR=$D run --separate-stderr env LD_PRELOAD="$so" \
	    "$BIN/shm-import" -k 1 -P "$P" in.txt
	status_is 1
	is "$stderr" "shm-import: in.txt:1: a: out of memory"
	is "$output" "a 1 2 3"
	[ -z "$(ls -A "$D")" ] || { ls -l "$D" >&2; false; }
	bash -c "ulimit -v 4000000 && exec '$BIN/shm-import' --version" \
	    > /dev/null 2>&1 ||
	    skip "shm-import cannot run under ulimit -v (sanitizer or valgrind?)"
	SHMIDS_DIR=$D run --separate-stderr bash -c "ulimit -v 4000000 &&
	    LD_PRELOAD='$so' exec '$BIN/shm-import' -k 1 -P '$P' in.txt"
	status_is 1
	is "$stderr" "shm-import: in.txt:1: a: out of memory (address space limited? see ulimit -v)"
}

# Attack finding (review-attack): a directory that can be read but not
# searched (mode 0744) lists its names, but no file in it can be looked
# at: its segments vanished from the listing without a word, exit 0.
@test "2.6: SHMIDS_DIR readable but not searchable: said, exit 1" {
	need_user
	fsetup
	local f
	mkdir "$D/ns"
	chmod 1777 "$D/ns"
	f=$(SHMIDS_DIR=$D/ns as_user "$SHMTOOL" create "${P}ns" f64 1)
	chmod 0744 "$D/ns"
	SHMIDS_DIR=$D/ns run --separate-stderr as_user "$BIN/shm-ls" -p -N "${P}*"
	status_is 1
	is "$stderr" "shm-ls: SHMIDS_DIR $D/ns cannot be read or searched by you: its owner may 'chmod 1777' it, or point SHMIDS_DIR at a directory of yours, or unset it for System V segments" "shm-ls stderr"
	SHMIDS_DIR=$D/ns run --separate-stderr as_user "$BIN/shm-rm" -n -s 0 -N "${P}*"
	status_is 1
	chmod 1777 "$D/ns"
}

# need_fuse: bindfs, a setuid fusermount and /dev/fuse (Debian: bindfs,
# fuse3), and an account (nobody) whose fusermount may mount.
need_fuse() {
	local fm
	need_mountns
	command -v bindfs > /dev/null || skip "bindfs missing (package bindfs)"
	fm=$(command -v fusermount3 || command -v fusermount) ||
	    skip "fusermount missing (package fuse3)"
	[ -u "$fm" ] || skip "$fm is not setuid"
	[ -c /dev/fuse ] || skip "/dev/fuse missing"
	NOBODY=$(id -u nobody 2> /dev/null) || skip "no account nobody for fusermount"
	NOGROUP=$(id -g nobody)
}
# in_ns SCRIPT: run the file SCRIPT with bash in a private mount and IPC
# namespace, for 60 s at most.
in_ns() {
	run timeout 60 unshare -m -i bash "$1"
}

# Attack finding 18.2 and 18.3: a user's mount point on a name of ours.
@test "2.6: SHMIDS_DIR: mount points on names of ours are skipped, named by shm-rm -v" {
	need_mountns
	fsetup
	local l rd
	l=$(fmk create "${P}kept" f64 1)
	rd=$(realpath "$D")
	head -c 200 /dev/zero > "$D/src.f"
	cat > ns.sh <<-EOS
	mkdir "$D/shmids.Mnt0d1"
	mount -t tmpfs none "$D/shmids.Mnt0d1" || exit 3
	: > "$D/shmids.Mnt0f1"
	mount --bind "$D/src.f" "$D/shmids.Mnt0f1" || exit 3
	export SHMIDS_DIR=$D
	timeout 10 "$BIN/shm-ls" -p > ls.out 2> ls.err; echo \$? > ls.rc
	timeout 10 "$BIN/shm-ls" -J > json.out 2> json.err; echo \$? > json.rc
	timeout 10 "$BIN/shm-ls" "$rd/shmids.Mnt0f1" > op.out 2> op.err
	echo \$? > op.rc
	timeout 10 "$BIN/shm-rm" -v -s 0 > rm.out 2> rm.err; echo \$? > rm.rc
	EOS
	in_ns ns.sh
	status_is 0
	is "$(cat ls.rc ls.err)" 0 "shm-ls status and stderr"
	is "$(awk -F '\t' '{ print $16 }' ls.out)" "$l" "shm-ls -p"
	is "$(cat json.rc json.err)" 0 "shm-ls -J status and stderr"
	is "$(grep -c '"label"' json.out)" 1 "shm-ls -J segments"
	is "$(cat op.rc op.err)" "1
shm-ls: $rd/shmids.Mnt0f1: $rd/shmids.Mnt0f1 is a mount point, not a file segment" \
	    "a mount point named"
	is "$(cat rm.rc rm.err)" 0 "shm-rm status and stderr"
	is "$(vlabels < rm.out | sort)" "$(printf '%s\n' "$l" \
	    "skipped '$rd/shmids.Mnt0d1' (a mount point, not a segment)" \
	    "skipped '$rd/shmids.Mnt0f1' (a mount point, not a segment)" |
	    sort)" "shm-rm -v"
	[ ! -e "${l%% *}" ]
}

@test "2.6: SHMIDS_DIR: another user's FUSE mount (EACCES) fails no listing and no cleaner" {
	need_fuse
	fsetup
	local l rd
	l=$(fmk create "${P}kept" f64 1)
	rd=$(realpath "$D")
	mkdir -m 755 "$D/src" "$T/dev"
	# /dev/fuse is often root's alone: a node for the test, in its namespace.
	cat > ns.sh <<-EOS
	mount -t tmpfs none "$T/dev" && mknod -m 666 "$T/dev/fuse" c 10 229 &&
	    mount --bind "$T/dev/fuse" /dev/fuse || exit 3
	nb() { setpriv --reuid=$NOBODY --regid=$NOGROUP --clear-groups -- "\$@"; }
	nb mkdir "$D/shmids.FuseA1" || exit 3
	nb bindfs --no-allow-other "$D/src" "$D/shmids.FuseA1" || exit 4
	trap 'umount -l "$D/shmids.FuseA1"' EXIT
	export SHMIDS_DIR=$D
	stat "$D/shmids.FuseA1" > stat.out 2>&1; echo \$? > stat.rc
	timeout 10 "$BIN/shm-ls" -p > ls.out 2> ls.err; echo \$? > ls.rc
	timeout 10 "$BIN/shm-ls" -J > json.out 2> json.err; echo \$? > json.rc
	timeout 10 "$BIN/shm-rm" -v -s 0 > rm.out 2> rm.err; echo \$? > rm.rc
	EOS
	in_ns ns.sh
	[ "$status" != 4 ] || skip "bindfs cannot mount as nobody here: $output"
	status_is 0
	# The mount refuses root, which is what this test is about.
	is "$(cat stat.rc)" 1 "root's stat(1) of the mount point"
	is "$(cat ls.rc ls.err)" 0 "shm-ls status and stderr"
	is "$(awk -F '\t' '{ print $16 }' ls.out)" "$l" "shm-ls -p"
	is "$(cat json.rc json.err)" 0 "shm-ls -J status and stderr"
	is "$(grep -c '"label"' json.out)" 1 "shm-ls -J segments"
	is "$(cat rm.rc rm.err)" 0 "shm-rm status and stderr"
	is "$(vlabels < rm.out | sort)" "$(printf '%s\n' "$l" \
	    "skipped '$rd/shmids.FuseA1' (cannot be looked at: Permission denied)" |
	    sort)" "shm-rm -v"
}

@test "2.6: SHMIDS_DIR: a stopped FUSE daemon on names of ours stalls neither shm-ls nor shm-rm -s" {
	need_fuse
	fsetup
	local l rd pid
	l=$(fmk create "${P}kept" f64 1)
	rd=$(realpath "$D")
	mkdir -m 755 "$D/src"
	# A directory and a file (bound from the daemon's tree) whose every
	# stat(2) would ask the daemon (no attribute cache), which is stopped.
	cat > ns.sh <<-EOS
	trap 'exit 1' TERM INT
	mkdir "$D/shmids.FuseB1"
	bindfs -f -o allow_other,attr_timeout=0,entry_timeout=0 "$D/src" \
	    "$D/shmids.FuseB1" &
	pid=\$!
	echo \$pid > fuse.pid
	trap 'kill -CONT \$pid; umount -l "$D/shmids.FuseF1" "$D/shmids.FuseB1";
	    kill \$pid; wait \$pid' EXIT
	for i in \$(seq 100); do
		mountpoint -q "$D/shmids.FuseB1" && break
		sleep 0.05
	done
	echo x > "$D/shmids.FuseB1/f" || exit 3
	: > "$D/shmids.FuseF1"
	mount --bind "$D/shmids.FuseB1/f" "$D/shmids.FuseF1" || exit 3
	kill -STOP \$pid
	export SHMIDS_DIR=$D
	timeout 10 "$BIN/shm-ls" -p > ls.out 2> ls.err; echo \$? > ls.rc
	timeout 10 "$BIN/shm-rm" -v -s 0 > rm.out 2> rm.err; echo \$? > rm.rc
	EOS
	in_ns ns.sh
	# However it ended, the daemon must not stay stopped.
	if pid=$(cat fuse.pid 2> /dev/null); then
		kill -CONT "$pid" 2> /dev/null || true
		kill -9 "$pid" 2> /dev/null || true
	fi
	status_is 0
	is "$(cat ls.rc ls.err)" 0 "shm-ls status and stderr (124: it hung)"
	is "$(awk -F '\t' '{ print $16 }' ls.out)" "$l" "shm-ls -p"
	is "$(cat rm.rc rm.err)" 0 "shm-rm status and stderr (124: it hung)"
	is "$(vlabels < rm.out | sort)" "$(printf '%s\n' "$l" \
	    "skipped '$rd/shmids.FuseB1' (a mount point, not a segment)" \
	    "skipped '$rd/shmids.FuseF1' (a mount point, not a segment)" |
	    sort)" "shm-rm -v"
}

# Issue 18.11: another user who may write a file segment (mode 666) may
# hard-link it (fs.protected_hardlinks asks no more).  The segment is
# still its owner's: listed, read, removed with -d, by label, and by age;
# only its name in SHMIDS_DIR goes, the data stays under the other name.
# Issue 40 item 11: another user may link a mode-0666 segment at a path
# a removed segment of the same owner's left free and rewrite its label:
# a reader refuses a file segment of more than one name (2.6).
@test "2.6: a file segment another user hard-linked: still listed, not read while linked (EMLINK, in words), removed by label and age" {
	need_user
	fsetup
	local a b c u
	a=$(fmk create "${P}la" f64 3 0666)
	b=$(fmk create "${P}lb" f64 3 0666)
	c=$(fmk create "${P}lc" f64 3 0666)
	u=$D/elsewhere
	mkdir "$u"
	chown "$TESTUSER:$TESTUSER" "$u"
	as_user ln "${a%% *}" "$u/a"
	as_user ln "${b%% *}" "$u/b"
	as_user ln "${c%% *}" "$u/c"
	is "$(stat -c %h "${a%% *}")" 2 "links"
	SHMIDS_DIR=$D run --separate-stderr shm_ls -p -N "${P}l*"
	status_is 0
	is "$stderr" ""
	is "$(cut -f 15,16 <<< "$output")" "$(printf 'ready\t%s\n' "$a" "$b" "$c" | LC_ALL=C sort)" "shm-ls -p"
	printf 'x shmids %s\n' "$a" > ref
	runio ref shm_expand -d
	status_is 1
	is "$(cat err)" "shm-expand: stdin:1: $a: file segment ${a%% *} has another name besides this one (a hard link: stat -c %h counts them): a segment has one, so it is not taken for one; its owner removes the other names, or makes the segment again"
	same_file ref out
	run shmtool open "$a"
	is "$output" EMLINK "shmids_open"
	[ -e "${a%% *}" ]
	# read again once the other name is gone
	as_user rm "$u/a"
	runio ref shm_expand -d
	status_is 0
	is "$(cat out)" "x 0 1 2" "shm-expand -d"
	[ ! -e "${a%% *}" ]
	run shm_rm "$b"
	status_is 0
	[ ! -e "${b%% *}" ]
	SHMIDS_DIR=$D run --separate-stderr shm_rm -v -s 0 -N "${P}l*"
	status_is 0
	is "$(vlabels <<< "$output")" "$c" "shm-rm -s"
	[ ! -e "${c%% *}" ]
	# The other names keep the data: only the segments' names went.
	is "$(stat -c %h "$u/b" "$u/c" | tr '\n' ' ')" "1 1 " "other names"
}

# The attack of issue 40 item 11 itself: another user links a mode-0666
# segment of root's at the path of a removed one of root's, and rewrites
# its label to the removed one's; the removed one's reference line would
# read their bytes from root's file under its own name (2.6).
@test "2.6: another user links a 0666 segment at a removed one's path and gives it that label: no reader reads it" {
	need_user
	fsetup
	local a b
	a=$(fmk create "${P}ra" f64 3 0666)
	b=$(fmk create "${P}rb" f64 3 0666)
	printf 'x shmids %s\n' "$a" > ref
	run shm_rm "$a"
	status_is 0
	as_user ln "${b%% *}" "${a%% *}"
	as_user sh -c 'printf "%s\0\n" "$1" | dd of="$2" conv=notrunc status=none' - "$a" "${a%% *}"
	is "$(head -c "${#a}" "${b%% *}")" "$a" "the label rewritten"
	runio ref shm_expand
	status_is 1
	is "$(cat err)" "shm-expand: stdin:1: $a: file segment ${a%% *} has another name besides this one (a hard link: stat -c %h counts them): a segment has one, so it is not taken for one; its owner removes the other names, or makes the segment again"
	same_file ref out
	run shmtool get f64 < ref
	is "$output" EMLINK "shmids_get"
}

# Attack finding (issue 18, round 2): another user links a mode-0666
# segment under a name of ours in a sticky SHMIDS_DIR; once its owner
# removed it, the link pinned its space for good (the other user may not
# unlink it, and it was nobody's segment).  It is the owner's residue
# now: listed to it, cleaned by its -s and root's -U; a linked segment
# whose own name remains is not (format-spec.md 2.6).
@test "2.6: a hard link another user planted in SHMIDS_DIR (old name or one with its uid) outlives its segment: residue, cleaned by its owner's -s" {
	need_user
	need_mountns
	fsetup
	local a b rd
	a=$(fmk create "${P}oa" f64 3 0666)
	b=$(fmk create "${P}ob" f64 3 0666)
	rd=$(realpath "$D")
	# held from before it has other names, which no reader attaches
	# (format-spec.md 2.6): so no -s takes it by age
	hold "$b" 30
	as_user ln "${a%% *}" "$D/shmids.ZZZZZZ"
	as_user ln "${a%% *}" "$D/shmids.$TESTUSER.ZZZZZZ"
	as_user ln "${b%% *}" "$D/shmids.YYYYYY"
	run shm_rm "$a"
	status_is 0
	# The other user takes the old name too, with another segment of
	# the owner's, whose label names its own path.
	as_user ln "${b%% *}" "${a%% *}"
	SHMIDS_DIR=$D run --separate-stderr shm_ls -p
	status_is 0
	is "$(grep "^$rd/" <<< "$output" | cut -f 1,15)" "$({ printf '%s\tready\n' "${b%% *}"
	    printf '%s\tbroken\n' "$rd/shmids.ZZZZZZ" "$rd/shmids.$TESTUSER.ZZZZZZ"
	    } | LC_ALL=C sort)" "shm-ls -p"
	# Cleaners in a private IPC namespace: only this test's segments.
	cat > ns.sh <<-EOS
	export SHMIDS_DIR=$D
	"$BIN/shm-rm" -v -s 0 > rm.out 2>&1; echo \$? > rm.rc
	setpriv --reuid=$TESTUSER --regid=$TESTUSER --clear-groups -- \
	    "$BIN/shm-rm" -v -s 0 > user.out 2>&1; echo \$? > user.rc
	EOS
	in_ns ns.sh
	status_is 0
	is "$(cat user.rc) $(cat user.out)" "0 " "the other user's -s"
	is "$(cat rm.rc)" 0 "the owner's -s"
	is "$(sed 's/ (owner .*//' rm.out)" "removed '$rd/shmids.$TESTUSER.ZZZZZZ'
removed '$rd/shmids.ZZZZZZ'" "the owner's -s"
	[ ! -e "$D/shmids.ZZZZZZ" ] && [ ! -e "$D/shmids.$TESTUSER.ZZZZZZ" ]
	[ -e "$D/shmids.YYYYYY" ] && [ -e "${b%% *}" ] && [ -e "${a%% *}" ]
}

# A file size limit (ulimit -f) under a file segment's size: the
# library's ftruncate(2)/fallocate(2)/pwrite(2) raise SIGXFSZ, whose
# default action killed any program that had not ignored it (shmtool
# does not; shm-import does).  The library takes the signal its own call
# raised; the caller gets EFBIG, nothing left (format-spec.md 2.6, 7).
@test "2.6: create under ulimit -f: EFBIG, not SIGXFSZ; no file left; the same for a program that ignores SIGXFSZ" {
	local st
	fsetup
	st=0
	(ulimit -f 100; SHMIDS_DIR=$D "$SHMTOOL" create "${P}big" f64 100000 \
	    > out 2> err) || st=$?
	is "$st" 1 "exit status (153: killed by SIGXFSZ)"
	is "$(cat out)" "EFBIG" "errno"
	is "$(ls -A "$D")" "" "files left"
	# under the limit: made as ever
	st=0
	(ulimit -f 100; SHMIDS_DIR=$D "$SHMTOOL" create "${P}small" f64 1000 \
	    > out 2> err) || st=$?
	is "$st" 0 "exit status, a segment under the limit"
	like "$(cat out)" "$D/shmids\.[0-9]*\.[^ ]* ${P}small" "label"
	SHMIDS_DIR=$D "$BIN/shm-rm" "$(cat out)"
	is "$(ls -A "$D")" "" "files left after shm-rm"
	# shm-import ignores SIGXFSZ itself; the same answer, said in words
	printf 'a ' > in
	seq 100000 | tr '\n' ' ' >> in
	echo >> in
	st=0
	(ulimit -f 100; SHMIDS_DIR=$D "$BIN/shm-import" -k 1 -P "$P" in \
	    > /dev/null 2> err) || st=$?
	is "$st" 1 "shm-import's exit status"
	is "$(cat err)" "shm-import: in:1: a: the segment is larger than this process's file size limit, 102400 bytes (ulimit -f)" "shm-import's message"
	is "$(ls -A "$D")" "" "files left by shm-import"
}
