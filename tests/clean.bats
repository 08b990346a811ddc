#!/usr/bin/env bats
# The machine's cleaner (format-spec.md 7, shm-rm: who may clean what;
# files in a shared directory): root's shm-rm -s with -u and -U, over
# segments of two bare uids and root, System V and files in a sticky
# 1777 directory.  Root's runs are restricted to this test's names
# (-N "$P*"), or run in a private IPC namespace of their own (unshare
# --ipc: no System V segment but the test's) over the test's own
# directory.

load helper

eval "helper_$(declare -f teardown)"

U1=$TESTUSER
U2=$((TESTUSER + 3))

# as UID CMD...: CMD as that bare uid (and gid).
as() {
	local u=$1
	shift
	setpriv --reuid="$u" --regid="$u" --clear-groups -- "$@"
}
# mkas UID [DIR] SHMTOOL-ARGS...: a segment made by UID (a file segment
# in DIR if it is a directory); prints its label.
mkas() {
	local u=$1 l dir=
	shift
	[ -d "$1" ] && { dir=$1; shift; }
	l=$(SHMIDS_DIR=$dir as "$u" "$SHMTOOL" "$@") ||
	    { echo "as $u: shmtool $*: $l" >&2; return 1; }
	track "$l"
	printf '%s\n' "$l"
}
# shared: $D, a sticky directory every user may write, as /tmp; and $V,
# a directory of root's for the files users must not reach.
shared() {
	need_user
	D=$(mktemp -d /tmp/shmids-clean.XXXXXX)
	V=$D.v
	mkdir "$V"
	chmod 1777 "$D"
	printf '%s\n' "$D" > "$T/.dir"
	echo "$V" >> "$T/.dir"
	as "$U2" test -w "$D" || skip "uid $U2 cannot write $D"
}
teardown() {
	local d
	if [ -s "$T/.dir" ]; then
		while read -r d; do rm -rf "$d"; done < "$T/.dir"
	fi
	helper_teardown
}
# rootrm ARGS...: root's shm-rm over $D, this test's names only.
rootrm() {
	SHMIDS_DIR=$D run --separate-stderr shm_rm "$@" -N "$P*"
}
# nsrm ARGS...: root's shm-rm over $D in an IPC namespace of its own,
# where no System V segment but the test's own can be: no -N.
nsrm() {
	command -v unshare > /dev/null || skip "unshare missing"
	unshare --ipc true 2> /dev/null || skip "unshare --ipc not allowed"
	SHMIDS_DIR=$D run --separate-stderr timeout 30 unshare --ipc \
	    "$BIN/shm-rm" "$@"
}
# sorted LINES...: one per line, sorted.
sorted() {
	printf '%s\n' "$@" | sort
}
# ident FILE: what must not change about a file users must not reach.
ident() {
	stat -c '%d %i %h %s %a %u %Y' "$1" && md5sum < "$1"
}
mine_exists() {
	ipcs -m | awk -v id="$1" '$2 == id { f = 1 } END { exit !f }'
}

@test "7: shm-rm -u, -U: what goes with what; a bad user; the usage says them" {
	local syn='shm-rm [-fnUv] [--dead] [-N pattern] [-s age] [-u user] [label | id ...]'
	bad_args shm-rm "$syn" <<-EOF
	-u 0|-u is not allowed without -s
	-U|-U is not allowed without -s
	-U -u 0 -s 1h|-u is not allowed with -U
	-u '' -s 1h|invalid user '' (expected a login name or numeric user ID)
	-u no-such-user-here -s 1h|invalid user 'no-such-user-here' (expected a login name or numeric user ID)
	-u 4294967295 -s 1h|invalid user '4294967295' (expected a login name or numeric user ID)
	-N 'x*' 5|-N is not allowed without -s (-s 0: of any age) or --dead
	EOF
}

@test "2.4: shm-rm -U, -u other: a user without privilege gets a clear error, exit 1, nothing removed" {
	shared
	local a b fa fb
	a=$(mkas "$U1" create "${P}a" f64 1)
	b=$(mkas "$U2" create "${P}b" f64 1)
	fa=$(mkas "$U1" "$D" create "${P}fa" f64 1)
	fb=$(mkas "$U2" "$D" create "${P}fb" f64 1)
	SHMIDS_DIR=$D run --separate-stderr as "$U1" "$BIN/shm-rm" -v -U -s 0 -N "$P*"
	status_is 1
	is "$output" ""
	is "$stderr" "shm-rm: -U: only root may clean other users' segments; without -U, -s cleans your own"
	SHMIDS_DIR=$D run --separate-stderr as "$U1" "$BIN/shm-rm" -n -u "$U2" -s 0 -N "$P*"
	status_is 1
	is "$output" ""
	is "$stderr" "shm-rm: -u $U2: only root may clean other users' segments; without -u, -s cleans your own"
	SHMIDS_DIR=$D run --separate-stderr as "$U1" "$BIN/shm-rm" -u root -s 0 -N "$P*"
	status_is 1
	is "$stderr" "shm-rm: -u root: only root may clean other users' segments; without -u, -s cleans your own"
	exists "$a"
	exists "$b"
	exists "$fa"
	exists "$fb"
	# -u naming the caller is the caller's own cleaning.
	SHMIDS_DIR=$D run --separate-stderr as "$U1" "$BIN/shm-rm" -v -u "$U1" -s 0 -N "$P*"
	status_is 0
	is "$(vlabels <<< "$output" | sort)" "$(sorted "$a" "$fa")"
	gone "$a"
	gone "$fa"
	exists "$b"
	exists "$fb"
}

@test "2.4: root's shm-rm -U: every user's stale segments and files go; the attached, the fresh and other programs' stay" {
	shared
	local a fa b fb r hs hf nokey mimic ipc fmimic fother out line fails=
	a=$(mkas "$U1" create "${P}a" f64 1)
	fa=$(mkas "$U1" "$D" create "${P}fa" f64 1)
	b=$(mkas "$U2" create "${P}b" i32 3)
	fb=$(mkas "$U2" "$D" create "${P}fb" f64 2)
	r=$(mkseg r f64 1)
	# Attached: a System V segment of U2's, a file of U1's.
	hs=$(mkas "$U2" create "${P}hs" f64 1)
	hf=$(mkas "$U1" "$D" create "${P}hf" f64 1)
	hold "$hs" 60
	hold "$hf" 60
	# Other programs': a good header under a key not ours, our key
	# with a header copied from a's, ipcmk's; in the directory a copy
	# of fb's file (its label names fb's path) and other data.
	nokey=$(mkas "$U2" hostile nokey "${P}nokey")
	mimic=$(as "$U1" "$SHMTOOL" mimic "$a")
	track "$mimic"
	ipc=$(as "$U2" ipcmk -M 4096)
	ipc=${ipc##*: }
	track "$ipc"
	fmimic=$D/shmids.Mimic1
	fother=$D/shmids.Other1
	as "$U2" cp "${fb%% *}" "$fmimic"
	as "$U2" sh -c "head -c 4096 /dev/urandom > '$fother'"
	# Fresh: nothing is a day old.
	rootrm -v -U -s 1d
	status_is 0
	is "$output" "" "removed at 1d"
	# The dry run names them, with owner and age; then they go.
	rootrm -n -v -U -s 0
	status_is 0
	is "$(sed -E 's/age [0-9]+s\)$/age Ns)/' <<< "$output" | sort)" \
	    "$(printf "would remove '%s' (owner %s, age Ns)\n" "$a" "$U1" \
	    "$fa" "$U1" "$b" "$U2" "$fb" "$U2" "$r" root | sort)" "dry run"
	exists "$a"
	rootrm -v -U -s 0
	status_is 0
	is "$stderr" ""
	is "$(sed -E 's/age [0-9]+s\)$/age Ns)/' <<< "$output" | sort)" \
	    "$(printf "removed '%s' (owner %s, age Ns)\n" "$a" "$U1" \
	    "$fa" "$U1" "$b" "$U2" "$fb" "$U2" "$r" root | sort)" "removed"
	for line in "$a" "$fa" "$b" "$fb" "$r"; do
		[ "$(shmtool open "$line")" = ENOENT ] || fails+="[$line still there] "
	done
	for line in "$hs" "$hf" "$nokey"; do
		shmtool open "$line" > /dev/null || fails+="[$line gone] "
	done
	mine_exists "$mimic" || fails+="[mimic $mimic gone] "
	mine_exists "$ipc" || fails+="[ipcmk's $ipc gone] "
	[ -f "$fmimic" ] || fails+="[$fmimic gone] "
	[ -f "$fother" ] || fails+="[$fother gone] "
	is "$fails" "" "failures"
}

@test "2.4: root's shm-rm -u: only the named user's stale segments, by uid or login name" {
	shared
	local a fa b fb r
	a=$(mkas "$U1" create "${P}a" f64 1)
	fa=$(mkas "$U1" "$D" create "${P}fa" f64 1)
	b=$(mkas "$U2" create "${P}b" f64 1)
	fb=$(mkas "$U2" "$D" create "${P}fb" f64 1)
	r=$(mkseg r f64 1)
	rootrm -v -u "$U1" -s 0
	status_is 0
	is "$(vlabels <<< "$output" | sort)" "$(sorted "$a" "$fa")" "removed"
	gone "$a"
	gone "$fa"
	exists "$b"
	exists "$fb"
	exists "$r"
	rootrm -v -u root -s 0
	status_is 0
	is "$(vlabels <<< "$output")" "$r" "removed by login name"
	gone "$r"
	exists "$b"
	exists "$fb"
}

@test "2.4: shared 1777 directory: planted symlinks, hard links and FIFOs never make root's cleaner remove or change anything else" {
	shared
	local fa fb link hard before removed fails=
	fa=$(mkas "$U1" "$D" create "${P}fa" f64 1)
	fb=$(mkas "$U2" "$D" create "${P}fb" f64 1)
	# U2's residue: an empty file named as ours, stale like a segment.
	as "$U2" touch "$D/shmids.Empty1"
	# Files of root's that users must not reach: one with data, one empty
	# (which under a name of ours would look like residue), read-only.
	printf 'secret\n' > "$V/secret"
	: > "$V/empty"
	chmod 0444 "$V/secret" "$V/empty"
	# U2 plants symlinks to them, to U1's segment, and a FIFO.
	as "$U2" ln -s "$V/secret" "$D/shmids.Sym001"
	as "$U2" ln -s "$V/empty" "$D/shmids.Sym002"
	as "$U2" ln -s "${fa%% *}" "$D/shmids.Sym003"
	as "$U2" mkfifo "$D/shmids.Fifo01"
	# Hard links to root's files, as a user could make them where
	# fs.protected_hardlinks is 0 (made here by root, as it is 1).
	ln "$V/secret" "$D/shmids.Hard01"
	ln "$V/empty" "$D/shmids.Hard02"
	# U1's own segment under a second name: the second name is not a
	# segment (its label names the first), the first is U1's segment,
	# stale like any; once it is removed, the second name is U1's
	# residue (an orphan, format-spec.md 2.6): removed in the same run
	# if the run comes to it after the first name, else in the next.
	hard=$(mkas "$U1" "$D" create "${P}hard" f64 1)
	as "$U1" ln "${hard%% *}" "$D/shmids.Hard03"
	before=$(ident "$V/secret"; ident "$V/empty")
	nsrm -n -U -s 0
	status_is 0
	is "$(sort <<< "$output")" \
	    "$(sorted "$fa" "$fb" "$hard" "$D/shmids.Empty1")" "dry run"
	nsrm -v -U -s 0
	status_is 0
	is "$stderr" ""
	removed=$output
	nsrm -v -U -s 0
	status_is 0
	is "$stderr" ""
	is "$(vlabels <<< "$removed${output:+
$output}" | sort)" \
	    "$(sorted "$fa" "$fb" "$hard" "$D/shmids.Empty1" "$D/shmids.Hard03")" "removed"
	for link in Sym001 Sym002 Sym003 Fifo01 Hard01 Hard02; do
		[ -e "$D/shmids.$link" ] || [ -L "$D/shmids.$link" ] ||
		    fails+="[shmids.$link gone] "
	done
	is "$fails" "" "failures"
	is "$(ident "$V/secret"; ident "$V/empty")" \
	    "$before" "the targets (links apart)"
	is "$(stat -c %h "$V/secret" "$V/empty" | tr '\n' ' ')" "2 2 " "links"
}

# The cleaner's last check (format-spec.md 7): strace holds root's
# shm-rm as it takes its write lock on U2's stale file (F_OFD_SETLK),
# and again at its unlinkat; U2 swaps names meanwhile.
@test "2.4: shared 1777 directory: files renamed or swapped during root's run: only U2's own names are touched" {
	shared
	need_strace
	local fb name before
	printf 'secret\n' > "$V/secret"
	chmod 0444 "$V/secret"
	fb=$(mkas "$U2" "$D" create "${P}fb" f64 1)
	name=${fb%% *}
	before=$(ident "$V/secret")
	# Swapped after the scan, before the lock: the name is now a
	# symlink to root's file; the file locked is not at the name.
	SHMIDS_DIR=$D delayed rm fcntl 1s unshare --ipc "$BIN/shm-rm" -v -U -s 0
	entered rm 1 F_OFD_SETLK
	as "$U2" mv "$name" "$D/shmids.Moved1"
	as "$U2" ln -s "$V/secret" "$name"
	wait "$DELAYED" || true
	is "$(cat "$T/rm.out" "$T/rm.err")" "" "shm-rm output, swapped before the lock"
	[ -L "$name" ] || { echo "$name: the planted symlink is gone" >&2; false; }
	[ -f "$D/shmids.Moved1" ] || { echo "the renamed file is gone" >&2; false; }
	is "$(ident "$V/secret")" "$before" "root's file"
	# Swapped after the last check, at the unlinkat: the unlink takes
	# the name, which is U2's symlink, never what it points to.
	as "$U2" rm "$name"
	as "$U2" mv "$D/shmids.Moved1" "$name"
	: > "$T/rm.st"
	SHMIDS_DIR=$D delayed rm unlinkat 1s unshare --ipc "$BIN/shm-rm" -v -U -s 0
	entered rm 1 shmids
	as "$U2" mv "$name" "$D/shmids.Moved2"
	as "$U2" ln -s "$V/secret" "$name"
	wait "$DELAYED" || true
	is "$(vlabels < "$T/rm.out")" "$fb" "shm-rm output, swapped at the unlink"
	is "$(cat "$T/rm.err")" "" "shm-rm errors"
	[ ! -e "$name" ] && [ ! -L "$name" ] ||
	    { echo "$name: still there" >&2; false; }
	[ -f "$D/shmids.Moved2" ] || { echo "the renamed file is gone" >&2; false; }
	is "$(ident "$V/secret")" "$before" "root's file"
}

# A lease (fcntl F_SETLEASE) its owner holds on a file makes every
# other open of it fail EWOULDBLOCK under O_NONBLOCK: the file is in use,
# as one attached is, and neither root's cleaner nor anyone's listing
# fails for it (format-spec.md 7, files in a shared directory).
@test "2.4: shared 1777 directory: a file its owner holds a lease on is in use: root's cleaner and shm-ls skip it, exit 0" {
	shared
	local py fa fb
	py=/usr/bin/python3
	as "$U2" "$py" -c 'import fcntl' 2> /dev/null ||
	    skip "uid $U2 cannot run $py"
	fa=$(mkas "$U1" "$D" create "${P}fa" f64 1)
	fb=$(mkas "$U2" "$D" create "${P}fb" f64 1)
	as "$U2" "$py" -c '
import fcntl, os, signal, sys, time
signal.signal(signal.SIGIO, signal.SIG_IGN)
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_WRLCK)
open(sys.argv[2], "w").close()
time.sleep(30)
' "${fb%% *}" "$D/leased" 3>&- &
	echo $! >> "$T/.pids"
	for _ in $(seq 100); do [ -e "$D/leased" ] && break; sleep 0.1; done
	[ -e "$D/leased" ] || skip "no lease (fs.leases-enable?)"
	SHMIDS_DIR=$D run --separate-stderr "$BIN/shm-ls" -N "$P*"
	status_is 0
	is "$stderr" "" "shm-ls errors"
	is "$(tail -n +2 <<< "$output" | awk '{ print $NF }')" "${P}fa" "listed"
	nsrm -v -U -s 0
	status_is 0
	is "$stderr" "" "shm-rm errors"
	is "$(vlabels <<< "$output")" "$fa" "removed"
	[ -f "${fb%% *}" ] || { echo "the leased file is gone" >&2; false; }
}

# A socket swapped in between the cleaner's fstatat and its open
# (ENXIO): skipped as a symlink is, nothing said, exit 0.  strace holds
# the open of U2's file: the number of opens before it is counted in a
# first, undelayed run.
@test "2.4: shared 1777 directory: a socket swapped in before root's open is skipped without a word" {
	shared
	need_strace
	local fb name n fails= py=/usr/bin/python3
	as "$U2" "$py" -c 'import socket' 2> /dev/null ||
	    skip "uid $U2 cannot run $py"
	fb=$(mkas "$U2" "$D" create "${P}fb" f64 1)
	name=${fb%% *}
	# LeakSanitizer cannot run under ptrace (check-asan); the rest can.
	SHMIDS_DIR=$D ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	    strace -f -qq -o "$T/count.st" -e trace=openat \
	    unshare --ipc "$BIN/shm-rm" -n -U -s 0 > /dev/null
	n=$(grep -n "\"${name##*/}\"" "$T/count.st" | head -n 1 | cut -d: -f1)
	[ -n "$n" ] || { cat "$T/count.st" >&2; false; }
	SHMIDS_DIR=$D ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	    strace -f -qq -o "$T/rm.st" -e trace=openat \
	    -e inject="openat:delay_enter=1s:when=$n" \
	    unshare --ipc "$BIN/shm-rm" -v -U -s 0 \
	    > "$T/rm.out" 2> "$T/rm.err" 3>&- &
	DELAYED=$!
	echo "$DELAYED" >> "$T/.pids"
	entered rm "$n"
	as "$U2" mv "$name" "$D/shmids.Moved1"
	as "$U2" "$py" -c 'import socket, sys
socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$name"
	wait "$DELAYED" || fails=1
	is "$(cat "$T/rm.out" "$T/rm.err")" "" "shm-rm output"
	is "${fails:-0}" 0 "shm-rm's exit"
	[ -S "$name" ] || { echo "$name: the socket is gone" >&2; false; }
}

# Names from the password database (a directory service's may be long,
# in UTF-8, with a backslash): whole, and JSON that says them, in a
# mount namespace whose /etc/passwd and /etc/group name U2 so.
@test "2.4: owner names from the password database: long and UTF-8 names whole in shm-ls -J and the journal line" {
	shared
	local fb user group
	user='józef\longname_of_a_directory_service_40'
	group='grupa_ł_of_a_directory_service_over_24'
	fb=$(mkas "$U2" "$D" create "${P}fb" f64 1)
	cp /etc/passwd "$T/passwd"
	cp /etc/group "$T/group"
	printf '%s:x:%s:%s::/:/bin/false\n' "$user" "$U2" "$U2" >> "$T/passwd"
	printf '%s:x:%s:\n' "$group" "$U2" >> "$T/group"
	nsrun() {
		SHMIDS_DIR=$D unshare --mount --propagation private --ipc sh -c \
		    "mount --bind '$T/passwd' /etc/passwd &&
		    mount --bind '$T/group' /etc/group && exec \"\$@\"" sh "$@"
	}
	run --separate-stderr nsrun "$BIN/shm-ls" -J -N "$P*"
	[ "$status" = 0 ] || skip "cannot bind-mount in a mount namespace: $stderr"
	is "$(python3 -c 'import json, sys
s = json.load(sys.stdin)["segments"][0]
print(s["owner"]); print(s["group"])' <<< "$output")" "$user
$group" "owner and group in JSON"
	run --separate-stderr nsrun "$BIN/shm-rm" -v -U -s 0
	status_is 0
	is "$(sed -E 's/age [0-9]+s\)$/age Ns)/' <<< "$output")" \
	    "removed '$fb' (owner $user, age Ns)" "journal line"
}

# The system report with $T/etc as /etc/systemd/system, in a mount
# namespace of its own.
@test "7: shm-ls -l: whether the daily cleaner's timer is installed and enabled" {
	local d opt top=$BATS_TEST_DIRNAME/..
	[ "$(id -u)" = 0 ] || skip "needs root for a mount namespace"
	command -v unshare > /dev/null || skip "unshare missing"
	[ -d /etc/systemd/system ] || skip "no /etc/systemd/system to stand in for"
	for d in /run/systemd/system /usr/local/lib/systemd/system \
	    /usr/lib/systemd/system /lib/systemd/system; do
		[ ! -e "$d/shmids-clean.timer" ] ||
		    skip "the timer is installed on this machine, in $d"
	done
	mkdir -p "$T/etc/timers.target.wants"
	# The system report is shm-ls -l (1.1), -s before.
	opt=-l
	"$BIN/shm-ls" -l > /dev/null 2>&1 || opt=-s
	nsls() {
		unshare --mount --propagation private sh -c "mount --bind \
		    '$T/etc' /etc/systemd/system && exec '$BIN/shm-ls' $opt"
	}
	run --separate-stderr nsls
	[ "$status" = 0 ] || skip "cannot bind-mount in a mount namespace: $stderr"
	grep -Eqx 'shmids-clean\.timer +not installed' <<< "$output" ||
	    { echo "$output" >&2; false; }
	grep -Fqx "hint: 'make install-systemd' installs a daily cleaner of every user's" <<< "$output"
	cp "$top/systemd/shmids-clean.timer" "$T/etc/"
	run --separate-stderr nsls
	status_is 0
	grep -Eqx 'shmids-clean\.timer +installed \(/etc/systemd/system\), not enabled' <<< "$output" ||
	    { echo "$output" >&2; false; }
	grep -Fqx "hint: as root, 'systemctl enable --now shmids-clean.timer'" <<< "$output"
	ln -s /etc/systemd/system/shmids-clean.timer "$T/etc/timers.target.wants/"
	run --separate-stderr nsls
	status_is 0
	grep -Eqx 'shmids-clean\.timer +enabled \(/etc/systemd/system\)' <<< "$output" ||
	    { echo "$output" >&2; false; }
}

# Issue 19.7: a writer killed but not yet reaped by its parent (a zombie)
# still answers kill(pid, 0); it fills nothing any more.
@test "2.2: a writer killed while its parent does not reap it: dead, not filling; -w does not wait" {
	local l wpid i start
	# The writer's parent becomes sleep(1), which never reaps it.
	bash -c '"$1" writer "$2" 60 > "$3" & echo $! > "$4"; exec sleep 60' \
	    _ "$SHMTOOL" "${P}z" "$T/z.out" "$T/z.pid" 3>&- &
	echo $! >> "$T/.pids"
	for i in $(seq 100); do
		[ -s "$T/z.out" ] && break
		sleep 0.05
	done
	l=$(sed -n 1p "$T/z.out")
	track "$l"
	wpid=$(cat "$T/z.pid")
	kill -9 "$wpid"
	for i in $(seq 100); do
		[ "$(awk '{ sub(/.*\) /, ""); print $1 }' "/proc/$wpid/stat" \
		    2> /dev/null)" = Z ] && break
		sleep 0.05
	done
	is "$(awk '{ sub(/.*\) /, ""); print $1 }' "/proc/$wpid/stat")" Z \
	    "the writer's state"
	run shm_ls -p -N "${P}z"
	status_is 0
	is "$(cut -f 15 <<< "$output")" dead "shm-ls state"
	printf 'a shmids %s\n' "$l" > ref
	start=$(date +%s%N)
	runio ref shm_expand -w 10
	status_is 1
	err_is "shm-expand: stdin:1: $l: its writer (pid $wpid) died before sealing it; shm-rm '$l' removes it"
	[ "$(ms_since "$start")" -lt 5000 ]
}

# Issue 40 item 9: root's shm-rm -s 0 -U removed a segment shmids never
# made, under key 0x5348abcf (what another program's ftok(3) gives for
# project 'S' on a device ending in 0x48), 128 NUL bytes as it had just
# been made.  Residue is proved ours by the mode a writer of ours gives
# a segment until its header is written, 0601 (format-spec.md 2.4).  In
# an IPC namespace of the test's own: -U without -N sees only these.
@test "2.4: root's shm-rm -U -s 0: 128 NUL bytes under our key and another mode stay; residue of mode 0601, and a writer killed before its header, go" {
	need_user
	need_strace
	command -v unshare > /dev/null || skip "unshare missing"
	unshare --ipc true 2> /dev/null || skip "unshare --ipc not allowed"
	cat > ns.sh <<-EOS
	as() { setpriv --reuid="\$1" --regid="\$1" --clear-groups -- "\${@:2}"; }
	z=\$(as $U2 "$SHMTOOL" hostile zero z) && echo "\${z%% *}" > z.id
	r=\$(as $U2 "$SHMTOOL" hostile residue r) && echo "\${r%% *}" > r.id
	# a writer of the library's, killed between shmget(2) and shmat(2)
	strace -f -qq -o w.st -e trace=shmget,shmat \
	    -e inject=shmat:delay_enter=30s \
	    setpriv --reuid=$U1 --regid=$U1 --clear-groups -- \
	    "$SHMTOOL" create k f64 1 > /dev/null 2>&1 &
	for i in \$(seq 200); do
		grep -q '^[0-9]* *shmat(' w.st 2> /dev/null && break
		sleep 0.05
	done
	sed -n 's/^[0-9]* *shmget(.*) = \([0-9]*\)$/\1/p' w.st > k.id
	kill -9 "\$(sed -n 's/^\([0-9]*\) *shmat(.*/\1/p' w.st)"
	wait
	"$BIN/shm-ls" -p > ls.out
	"$BIN/shm-ls" -p -a > lsa.out
	"$BIN/shm-rm" -v -U -s 0 > rm.out 2> rm.err; echo \$? > rm.rc
	ipcs -m | awk '\$2 ~ /^[0-9]+\$/ { print \$2, \$4 }' > after
	EOS
	run timeout 60 unshare --ipc bash ns.sh
	status_is 0
	local z r k
	z=$(cat z.id) r=$(cat r.id) k=$(cat k.id)
	[ -n "$z" ] && [ -n "$r" ] && [ -n "$k" ] ||
	    { echo "not made: z '$z' r '$r' k '$k'; $(cat w.st)" >&2; false; }
	is "$(cut -f 1,3,4,15 ls.out)" "$(printf '%s\t0601\t%s\tbroken\n' "$r" "$U2" "$k" "$U1" | sort -n)" "listed"
	is "$(awk -F '\t' -v z="$z" '$1 == z' lsa.out | cut -f 3,13-16)" "0600	-	-	-	-" "-a: another program's"
	is "$(cat rm.rc) $(cat rm.err)" "0 " "shm-rm"
	is "$(vlabels < rm.out | sort -n)" "$(printf '%s\n' "$r" "$k" | sort -n)" "removed"
	is "$(cat after)" "$z 600" "left"
}
