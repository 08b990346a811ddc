#!/usr/bin/env bats
# Issue 4, "System limits": kernel.shmmni, kernel.shmall, kernel.shmmax,
# out of memory, kernel.shm_rmid_forced and logind's RemoveIPC.  The
# kernel.shm* settings belong to the IPC namespace, so each test makes a
# private one (unshare --ipc, with a private mount namespace for
# logind.conf) held open by a sleeping process, and runs the tools in it
# with nsenter: the host's settings and segments are never touched.
# Segments made in there vanish with the namespace; they are still
# removed explicitly in teardown, and are never passed to track(): their
# shmids mean other segments on the host.

load helper

eval "helper_$(declare -f teardown)"
teardown() {
	local id pid
	pid=$(cat "$T/.nspid" 2>/dev/null) || pid=
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		# The namespace was made empty by this test: all it holds is ours.
		for id in $(ns ipcs -m | awk '$2 ~ /^[0-9]+$/ { print $2 }'); do
			ns ipcrm -m "$id"
		done
	fi
	helper_teardown
}

# mkns: a private IPC and mount namespace for this test, in $NSPID.
mkns() {
	local i self
	command -v unshare > /dev/null || skip "unshare missing"
	command -v nsenter > /dev/null || skip "nsenter missing"
	unshare --ipc --mount --propagation private sleep 120 \
	    > /dev/null 2> "$T/unshare.err" 3>&- &
	NSPID=$!
	echo "$NSPID" >> "$T/.pids"
	echo "$NSPID" > "$T/.nspid"
	self=$(readlink /proc/self/ns/ipc)
	for i in $(seq 100); do
		kill -0 "$NSPID" 2>/dev/null ||
		    skip "unshare --ipc --mount failed: $(cat "$T/unshare.err")"
		[ "$(readlink "/proc/$NSPID/ns/ipc" 2>/dev/null)" != "$self" ] &&
		    break
		sleep 0.05
	done
	[ "$(readlink "/proc/$NSPID/ns/ipc")" != "$self" ] ||
	    skip "unshare --ipc made no namespace"
	ns sh -c 'echo 4096 > /proc/sys/kernel/shmmni' 2> /dev/null ||
	    skip "cannot write kernel.shmmni in a private IPC namespace"
	[ -z "$(ns ipcs -m | awk '$2 ~ /^[0-9]+$/')" ] ||
	    skip "the new IPC namespace is not empty"
}
# ns CMD...: CMD in the test's namespace.
ns() {
	timeout 30 nsenter -t "$NSPID" --ipc --mount -- "$@"
}
# nsset NAME VALUE: kernel.NAME in the test's namespace.
nsset() {
	ns sh -c "echo $2 > /proc/sys/kernel/$1"
}
nscount() {
	ns ipcs -m | awk '$2 ~ /^[0-9]+$/ { n++ } END { print n + 0 }'
}

@test "8: kernel.shmmni and kernel.shmall: ENOSPC from shmids_create, shm-import names the limit" {
	local name value fits unit old i got fails=
	mkns
	printf 'a 1 2\nb 3 4\n' > in
	while read -r name value fits unit; do
		old=$(ns cat "/proc/sys/kernel/$name")
		nsset "$name" "$value"
		ns "$BIN/shm-ls" -l | grep -Eqx "kernel\.$name +$value $unit" ||
		    fails+="[$name=$value: shm-ls -l: $(ns "$BIN/shm-ls" -l | grep "$name")] "
		for i in $(seq "$fits"); do
			got=$(ns "$SHMTOOL" create "${P}fill$i" f64 1) ||
			    fails+="[$name=$value: segment $i: $got] "
		done
		got=$(ns "$SHMTOOL" create "${P}over" f64 1) || true
		[ "$got" = ENOSPC ] || fails+="[$name=$value: shmids_create gave $got] "
		runio in ns "$BIN/shm-import" -f a,b -P "$P"
		[ "$status" = 1 ] || fails+="[$name=$value: shm-import exit $status] "
		cmp -s in out || fails+="[$name=$value: stdout $(cat out)] "
		[ "$(cat err)" = "shm-import: stdin:1: a: segment limit reached (kernel.shmmni or kernel.shmall; see shm-ls -l)
shm-import: stdin:2: b: segment limit reached (kernel.shmmni or kernel.shmall; see shm-ls -l)" ] ||
		    fails+="[$name=$value: stderr $(cat err)] "
		[ "$(nscount)" = "$fits" ] || fails+="[$name=$value: $(nscount) segments] "
		for i in $(ns ipcs -m | awk '$2 ~ /^[0-9]+$/ { print $2 }'); do
			ns ipcrm -m "$i"
		done
		nsset "$name" "$old"
	done <<-'EOF'
	shmmni 4 4 segments
	shmall 3 3 pages
	EOF
	is "$fails" "" "failures"
}

@test "8: kernel.shmmax: shmids_create EINVAL, shm-import names the size limit" {
	local got
	mkns
	nsset shmmax 4096
	# 128 + 496 * 8 = 4096 bytes fit, one element more does not
	got=$(ns "$SHMTOOL" create "${P}fits" f64 496)
	like "$got" "[0-9]* ${P}fits" "the largest segment"
	got=$(ns "$SHMTOOL" create "${P}big" f64 497) || true
	is "$got" EINVAL "shmids_create over shmmax"
	{ printf 'x'; seq 497 | tr '\n' ' ' | sed 's/^/ /; s/ $//'; printf '\n'; } > in
	runio in ns "$BIN/shm-import" -f x -P "$P"
	status_is 1
	same_file in out
	err_is "shm-import: stdin:1: x: size outside the kernel's limits (kernel.shmmax; see shm-ls -l)"
	run --separate-stderr ns "$BIN/shm-ls" -l
	status_is 0
	like "$output" "*kernel.shmmax *4096 bytes*" "shm-ls -s"
	is "$(nscount)" 1 "segments left"
}

@test "8: out of memory: shmids_create says ENOMEM and leaves no segment" {
	local got
	mkns
	# 1 GiB cannot be attached in 300 MB of address space; sanitizers
	# and valgrind cannot run at all in so little.
	got=$(ns bash -c "ulimit -v 300000 && exec '$SHMTOOL' open '2147483647 x'" 2>&1) ||
	    true
	[ "$got" = ENOENT ] ||
	    skip "shmtool cannot run under ulimit -v (sanitizer or valgrind?)"
	got=$(ns bash -c "ulimit -v 300000 && exec '$SHMTOOL' create '${P}huge' f64 134217728") ||
	    true
	is "$got" ENOMEM
	is "$(nscount)" 0 "segments left"
}

@test "8: kernel.shm_rmid_forced=1: shm-import warns, shm-ls -s reports it, segments vanish" {
	local v l got fails=
	mkns
	printf 'x 1 2\n' > in
	for v in 0 1; do
		nsset shm_rmid_forced "$v"
		runio in ns env -u SHMIDS_NOWARN "$BIN/shm-import" -f x -P "$P"
		[ "$status" = 0 ] || fails+="[$v: exit $status] "
		if [ "$v" = 1 ]; then
			[ "$(cat err)" = "shm-import: warning: kernel.shm_rmid_forced is 1: segments are destroyed as soon as no process is attached (SHMIDS_NOWARN=1 silences this)" ] ||
			    fails+="[$v: stderr '$(cat err)'] "
		else
			[ ! -s err ] || fails+="[$v: stderr '$(cat err)'] "
		fi
		l=$(label_of out)
		got=$(ns "$SHMTOOL" open "$l") || true
		if [ "$v" = 1 ]; then
			[ "$got" = ENOENT ] || fails+="[$v: segment $l: $got] "
		else
			[ "$got" = "f64 2 3" ] || fails+="[$v: segment $l: $got] "
		fi
		run --separate-stderr ns "$BIN/shm-ls" -l
		[ "$status" = 0 ] || fails+="[$v: shm-ls -l exit $status] "
		grep -Eqx "kernel\.shm_rmid_forced +$v" <<< "$output" ||
		    fails+="[$v: shm-ls -s: $output] "
	done
	is "$fails" "" "failures"
}

# logind_ns SCRIPT CASE: run bash SCRIPT in a private mount namespace
# whose systemd configuration directories are empty tmpfs mounts
# (/run/systemd with the directories seats and system: logind runs),
# after writing the
# files of CASE there: "dir/file=content,..." with dir etc, run or lib
# (/usr/lib/systemd), content with \n escapes.  Nothing of the host's
# configuration is read or changed.
logind_ns() {
	cat > "$T/logind.sh" <<-'EOS'
	set -u
	for d in /etc/systemd /run/systemd /usr/lib/systemd /lib/systemd \
	    /usr/local/lib/systemd; do
		[ -d "$d" ] || continue
		mount -t tmpfs none "$d" || exit 3
		[ "$(stat -f -c %T "$d")" = tmpfs ] || exit 3
	done
	mkdir /run/systemd/seats /run/systemd/system
	IFS=,
	for f in $2; do
		p=${f%%=*}
		case $p in
		etc/*) p=/etc/systemd/${p#etc/} ;;
		run/*) p=/run/systemd/${p#run/} ;;
		lib/*) p=/usr/lib/systemd/${p#lib/} ;;
		*) exit 3 ;;
		esac
		mkdir -p "${p%/*}" && printf '%b\n' "${f#*=}" > "$p" || exit 3
	done
	unset IFS
	. "$1"
	EOS
	timeout 30 unshare -m -i --propagation private bash "$T/logind.sh" "$@"
}

# sdroot STATE CASE: a directory for SHMIDS_SYSTEMD_ROOT, world-readable
# (the second user reads it), removed in teardown, printed: logind's
# STATE (none: no systemd files; image: /run/systemd/seats alone, as an
# image may carry it with no systemd running; sysfile: seats and a file
# /run/systemd/system; running: /run/systemd/system and seats, as
# systemd-logind leaves them; elogind: /run/elogind.pid) and the files
# of CASE, as logind_ns has them.
sdroot() {
	local r f p
	r=$(mktemp -d /tmp/shmids-root.XXXXXX) || return 1
	echo "$r" >> "$T/.rmdirs"
	mkdir -p "$r/run/systemd" "$r/etc/systemd" "$r/usr/lib/systemd"
	case $1 in
	none) ;;
	image) mkdir "$r/run/systemd/seats" ;;
	sysfile) mkdir "$r/run/systemd/seats"; : > "$r/run/systemd/system" ;;
	running) mkdir "$r/run/systemd/seats" "$r/run/systemd/system" ;;
	elogind) echo 1 > "$r/run/elogind.pid" ;;
	*) return 1 ;;
	esac
	local IFS=,
	for f in $2; do
		p=${f%%=*}
		case $p in
		etc/*) p=$r/etc/systemd/${p#etc/} ;;
		run/*) p=$r/run/systemd/${p#run/} ;;
		lib/*) p=$r/usr/lib/systemd/${p#lib/} ;;
		*) return 1 ;;
		esac
		mkdir -p "${p%/*}" && printf '%b\n' "${f#*=}" > "$p" || return 1
	done
	chmod -R a+rX "$r"
	printf '%s\n' "$r"
}

# as_nonsys CMD...: CMD as a user logind does not spare (uid 1000 and
# up): the caller if it is one, else (root) the second user.
as_nonsys() {
	if [ "$(id -u)" -ge 1000 ]; then
		"$@"
	else
		as_user "$@"
	fi
}
need_nonsys() {
	[ "$(id -u)" -ge 1000 ] && return 0
	[ "$(id -u)" = 0 ] ||
	    skip "uid $(id -u) is a system user's, which logind spares, and cannot switch users"
	need_user
}

@test "8: 7, shm-ls -l: logind RemoveIPC read as logind does (booleans, drop-ins, precedence), and whether logind runs" {
	local state conf want got sfx r fails=
	run --separate-stderr "$BIN/shm-ls" -l
	status_is 0
	grep -Eq '^logind RemoveIPC +(yes|no)' <<< "$output" ||
	    { echo "no RemoveIPC line: $output" >&2; false; }
	while IFS='|' read -r state conf want; do
		r=$(sdroot "$state" "$conf") || { fails+="[$state $conf: sdroot] "; continue; }
		got=$(SHMIDS_SYSTEMD_ROOT=$r "$BIN/shm-ls" -l 2>&1 | grep RemoveIPC) ||
		    fails+="[$state $conf: exit $?: $got] "
		# logind spares system users, root among them: said so
		# where logind runs
		sfx=
		[ "$(id -u)" -lt 1000 ] && [ "${want%% *}" = yes ] &&
		    [[ $want != *"not running"* ]] &&
		    sfx=" (not for your uid: a system user's)"
		[ "$got" = "logind RemoveIPC         $want$sfx" ] ||
		    fails+="[$state $conf: $got] "
	done <<-'EOF'
	running||yes (default)
	none||yes (default) (logind not running)
	image||yes (default) (logind not running)
	sysfile||yes (default) (logind not running)
	elogind||yes (default)
	none|etc/logind.conf=[Login]\nRemoveIPC=no|no (logind not running)
	running|etc/logind.conf=[Login]\nRemoveIPC=no|no
	running|etc/logind.conf=[Login]\nRemoveIPC=yes|yes
	running|etc/logind.conf=[Login]\nRemoveIPC=false|no
	running|etc/logind.conf=[Login]\nRemoveIPC=0|no
	running|etc/logind.conf=[Login]\nRemoveIPC=off|no
	running|etc/logind.conf=[Login]\nRemoveIPC=OFF|no
	running|etc/logind.conf=[Login]\n  RemoveIPC = No  |no
	running|etc/logind.conf=[Login]\nRemoveIPC=no\nRemoveIPC=on|yes
	running|etc/logind.conf=[Login]\nRemoveIPC=no\nRemoveIPC=maybe|no
	running|etc/logind.conf=[Login]\n#RemoveIPC=no\n;RemoveIPC=no|yes (default)
	running|etc/logind.conf=[Sleep]\nRemoveIPC=no|yes (default)
	running|lib/logind.conf=[Login]\nRemoveIPC=no|no
	running|etc/logind.conf=[Login]\nRemoveIPC=yes,lib/logind.conf.d/50-x.conf=[Login]\nRemoveIPC=no|no
	running|lib/logind.conf.d/50-x.conf=[Login]\nRemoveIPC=no,etc/logind.conf.d/50-x.conf=[Login]\nRemoveIPC=yes|yes
	running|etc/logind.conf.d/10-a.conf=[Login]\nRemoveIPC=no,run/logind.conf.d/20-b.conf=[Login]\nRemoveIPC=yes|yes
	running|run/logind.conf.d/10-a.conf=[Login]\nRemoveIPC=yes,lib/logind.conf.d/90-z.conf=[Login]\nRemoveIPC=no|no
	running|run/logind.conf.d/50-x.conf=[Login]\nRemoveIPC=no,lib/logind.conf.d/50-x.conf=[Login]\nRemoveIPC=yes|no
	EOF
	is "$fails" "" "failures"
}

@test "8: 7, shm-import: the RemoveIPC warning only where logind runs, for a user it applies to, unless SHMIDS_NOWARN" {
	local state conf nowarn want got r fails=
	local w="shm-import: warning: systemd-logind RemoveIPC=yes: your segments are destroyed when you log out ('loginctl enable-linger' keeps them; SHMIDS_NOWARN=1 silences this)"
	need_nonsys
	printf 'x 1 2\n' > in
	while IFS='|' read -r state conf nowarn want; do
		r=$(sdroot "$state" "$conf") || { fails+="[$state $conf: sdroot] "; continue; }
		got=$(as_nonsys env -u SHMIDS_NOWARN SHMIDS_SYSTEMD_ROOT="$r" \
		    ${nowarn:+"$nowarn"} "$BIN/shm-import" -f x -P "$P" \
		    < in 2>&1 > /dev/null) ||
		    fails+="[$state $conf $nowarn: exit $?: $got] "
		[ "$got" = "${want:+$w}" ] || fails+="[$state $conf $nowarn: $got] "
	done <<-'EOF'
	running|||w
	elogind|||w
	none|||
	image|||
	sysfile|||
	running|etc/logind.conf=[Login]\nRemoveIPC=off||
	running|lib/logind.conf.d/x.conf=[Login]\nRemoveIPC=false||
	running|etc/logind.conf=[Login]\nRemoveIPC=no,run/logind.conf.d/x.conf=[Login]\nRemoveIPC=yes||w
	running||SHMIDS_NOWARN=1|
	running||SHMIDS_NOWARN=|w
	EOF
	# logind spares system users, root among them
	if [ "$(id -u)" -lt 1000 ]; then
		r=$(sdroot running "")
		got=$(env -u SHMIDS_NOWARN SHMIDS_SYSTEMD_ROOT="$r" \
		    "$BIN/shm-import" -f x -P "$P" < in 2>&1 > /dev/null) ||
		    fails+="[uid $(id -u): exit $?: $got] "
		[ -z "$got" ] || fails+="[uid $(id -u): $got] "
	fi
	is "$fails" "" "failures"
}

@test "8: 7, shm-import: the RemoveIPC warning reads the system's own logind files (private mount namespace)" {
	local conf nowarn want got fails=
	need_mountns
	need_user
	printf 'x 1 2\n' > in
	cat > imp.sh <<-EOS
	setpriv --reuid="$TESTUSER" --regid="$TESTUSER" --clear-groups -- \
	    env -u SHMIDS_NOWARN -u SHMIDS_SYSTEMD_ROOT \$NOWARN "$BIN/shm-import" -f x -P "$P" < "$T/in" > /dev/null
	EOS
	while IFS='|' read -r conf nowarn want; do
		got=$(NOWARN=${nowarn:-X=} logind_ns "$T/imp.sh" "$conf" 2>&1) ||
		    fails+="[$conf $nowarn: exit $?: $got] "
		[ "$got" = "$want" ] || fails+="[$conf $nowarn: $got] "
	done <<-'EOF'
	||shm-import: warning: systemd-logind RemoveIPC=yes: your segments are destroyed when you log out ('loginctl enable-linger' keeps them; SHMIDS_NOWARN=1 silences this)
	etc/logind.conf=[Login]\nRemoveIPC=off||
	etc/logind.conf.d/x.conf=[Login]\nRemoveIPC=false||
	|SHMIDS_NOWARN=1|
	|SHMIDS_NOWARN=|shm-import: warning: systemd-logind RemoveIPC=yes: your segments are destroyed when you log out ('loginctl enable-linger' keeps them; SHMIDS_NOWARN=1 silences this)
	EOF
	is "$fails" "" "failures"
}
