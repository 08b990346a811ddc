#!/usr/bin/env bats
# What a hostile writer, a fork or the caller's locale must not break
# (issue 18): sparse segments cost a reader nothing (format-spec.md 2.3,
# 2.5), a fork's filler is sealed by the last of its family (2.2), and
# numbers are written in the C locale's form (3).  File segments are made
# in a directory of the test's own, which teardown removes.

load helper

eval "helper_$(declare -f teardown)"

teardown() {
	[ -s "$T/.dir" ] && rm -rf "$(cat "$T/.dir")"
	helper_teardown
}

# tmpfs_dir: D, a directory of this test's on tmpfs, or skip.
tmpfs_dir() {
	[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] ||
	    skip "/dev/shm is not tmpfs"
	D=$(mktemp -d /dev/shm/shmids-trust.XXXXXX)
	echo "$D" > "$T/.dir"
}

# The segment's resident bytes, from the rss column of /proc/sysvipc/shm.
seg_rss() {
	awk -v id="$1" '$2 == id && NF >= 16 { print $15 }' /proc/sysvipc/shm
}

@test "2.4: a sparse System V segment (1 GiB declared, never written): readers allocate none of it" {
	local l id rss
	l=$(mkhostile sparse s)
	id=${l%% *}
	[ -n "$(seg_rss "$id")" ] || skip "no rss column in /proc/sysvipc/shm"
	printf 'x shmids %s\n' "$l" > ref
	run bash -c '"$1" < ref | head -c 100' - "$BIN/shm-expand"
	is "$output" "x 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 /
  0 0 0 0 0 0 0 0 0 "
	run shmtool hold "$l" 0
	status_is 0
	rss=$(seg_rss "$id")
	[ "$rss" -lt $((16 << 20)) ] ||
	    { echo "segment resident after the readers: $rss bytes" >&2; false; }
}

@test "2.4: a sparse System V segment (1 GiB declared, nothing resident): its reader walks none of it with mincore" {
	local l id
	need_strace
	l=$(mkhostile sparse s)
	id=${l%% *}
	[ -n "$(seg_rss "$id")" ] || skip "no rss column in /proc/sysvipc/shm"
	printf 'x shmids %s\n' "$l" > ref
	run bash -c 'strace -qq -f -o "$2" -e trace=mincore "$1" < ref |
	    head -c 20' - "$BIN/shm-expand" "$T/trace"
	is "$output" "x 0 0 0 0 0 0 0 0 0 "
	run grep -c mincore "$T/trace"
	is "$output" 0
}

@test "2.5: a fully written System V segment (2 MiB): its reader populates it in one madvise, walking none of it with mincore" {
	local l id
	need_strace
	l=$(mkrandom full f64 262144 1)
	id=${l%% *}
	[ -n "$(seg_rss "$id")" ] || skip "no rss column in /proc/sysvipc/shm"
	printf 'x shmids %s\n' "$l" > ref
	run bash -c 'strace -qq -f -o "$2" -e trace=mincore,madvise "$1" < ref |
	    head -c 2 > /dev/null' - "$BIN/shm-expand" "$T/trace"
	run grep -c mincore "$T/trace"
	is "$output" 0
	run grep -c MADV_POPULATE_READ "$T/trace"
	is "$output" 1
}

# refused_sparse BYTES: shm-expand and the library refuse the file
# segment l whose header declares BYTES, mostly holes (format-spec.md
# 2.6, Holes): at once, in words, exit 1.
refused_sparse() {
	SECONDS=0
	run timeout 20 bash -c '"$1" < ref 2>&1 > /dev/null; echo rc=$?' - \
	    "$BIN/shm-expand"
	like "$output" "shm-expand: stdin:1: $l: segment ${l%% *} declares $1 bytes, of which only * are allocated (a sparse file: no shmids writer made it so); shm-rm '$l' removes it
rc=1"
	run shmtool hold "$l" 0
	status_is 1
	is "$output" EBADMSG
	[ "$SECONDS" -le 2 ] || { echo "refused after $SECONDS s" >&2; false; }
}

@test "2.6: a sparse file segment on tmpfs (1 GiB declared, never written): readers refuse it and allocate none of it" {
	local l f kb
	tmpfs_dir
	l=$(SHMIDS_DIR=$D _mk create "${P}s" f64 1)
	f=${l%% *}
	# The count field (offsets 95 to 114) says 2^27 f64: 1 GiB of holes.
	printf '%020d' $((1 << 27)) |
	    dd of="$f" bs=1 seek=95 conv=notrunc status=none
	truncate -s $((128 + (1 << 30))) "$f"
	printf 'x shmids %s\n' "$l" > ref
	refused_sparse $((128 + (1 << 30)))
	kb=$(( $(stat -c '%b * %B' "$f") / 1024 ))
	[ "$kb" -lt 16384 ] ||
	    { echo "file allocated after the readers: $kb kB" >&2; false; }
}

# forkfill BACKEND HOW: a writer whose forked child fills 200000 f64
# for a second, the parent ending as HOW says (exit, _exit) at once;
# shm-expand -w 5 must get every value, and till then the segment is
# filling, never dead (format-spec.md 2.2).
forkfill() {
	local l
	if [ "$1" = file ]; then
		D=$(mktemp -d /tmp/shmids-trust.XXXXXX)
		echo "$D" > "$T/.dir"
		export SHMIDS_DIR=$D
	fi
	l=$(_mk forkfill "${P}f" 200000 1 "$2" 3>&-)
	run shmtool open "$l"
	status_is 1
	is "$output" EAGAIN "a fork's filling segment, opened at once"
	printf 'x shmids %s\n' "$l" > ref
	# under valgrind shm-expand starts after the fork's second is over
	if [ "$1$2" = sysv_exit ] && [ -z "${SHMIDS_VALGRIND:-}" ]; then
		runio ref shm_expand -w 0
		status_is 1
		like "$(cat err)" "shm-expand: stdin:1: $l: still being written by a process forked from its writer (pid *, gone) (-w 0: not waited for)"
	fi
	runio ref shm_expand -w 5
	status_is 0
	is "$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+$/) {
		n++; s += $i } } END { printf "%d %.0f\n", n, s }' out)" \
	    "200000 19999900000"
}

@test "2.4: a writer returns from main while its fork fills (System V): sealed by the child, -w gets every value" {
	forkfill sysv exit
}

@test "2.4: a writer returns from main while its fork fills (file): sealed by the child, -w gets every value" {
	forkfill file exit
}

@test "2.4: a writer _exits while its fork fills (System V): filling, not dead; -w gets every value" {
	forkfill sysv _exit
}

@test "2.4: a writer _exits while its fork fills (file): filling, not dead; -w gets every value" {
	forkfill file _exit
}

# forkexec BACKEND: 40 segments, one fork that execs true(1), under
# ulimit -n 64: the fork costs 2 descriptors, not 2 per segment, and
# the exit seals every segment (format-spec.md 2.2).
forkexec() {
	local l n=0
	if [ "$1" = file ]; then
		D=$(mktemp -d /tmp/shmids-trust.XXXXXX)
		echo "$D" > "$T/.dir"
		export SHMIDS_DIR=$D
	fi
	run bash -c 'ulimit -n 64 && exec "$@"' - "$SHMTOOL" forkexec "${P}x" 40
	for l in "${lines[@]}"; do
		case $l in [0-9]*|/*) track "$l" ;; esac
	done
	status_is 0
	is "${#lines[@]}" 40
	for l in "${lines[@]}"; do
		shmtool open "$l" > /dev/null && n=$((n + 1))
	done
	is "$n" 40 "segments sealed"
}

@test "2.4: a writer of 40 segments forks once to exec (System V, ulimit -n 64): all sealed at exit, descriptors left" {
	forkexec sysv
}

@test "2.4: a writer of 40 segments forks once to exec (file, ulimit -n 64): all sealed at exit, descriptors left" {
	forkexec file
}

@test "2.4: a writer that forked closes one of two segments: it stays filling until the second is closed, then both are sealed" {
	local l
	run shmtool forkclose "${P}c"
	for l in "${lines[@]}"; do
		case $l in [0-9]*|/*) track "$l" ;; esac
	done
	status_is 0
	is "${#lines[@]}" 2
	for l in "${lines[@]}"; do
		run shmtool open "$l"
		status_is 0
		is "$output" "f64 10 45"
	done
}

# forkdaemon HOW: the writer's child closes every descriptor and opens
# its own (HOW: /dev/null, or a pipe's read end) on the numbers, then
# exits while its parent has yet to fill: the child left the family,
# and its exit neither seals nor blocks (format-spec.md 2.2).
forkdaemon() {
	local l
	run shmtool forkdaemon "${P}d" "$1"
	case ${lines[0]} in [0-9]*|/*) track "${lines[0]}" ;; esac
	status_is 0
	is "${#lines[@]}" 1
	l=${lines[0]}
	printf 'x shmids %s\n' "$l" > ref
	runio ref shm_expand -w 10
	status_is 0
	is "$(cat out)" "x 0 1 2 3 4 5 6 7 8 9"
}

@test "2.4: a writer's fork closes its descriptors and opens /dev/null on them: its exit seals nothing" {
	forkdaemon null
}

@test "2.4: a writer's fork closes its descriptors and opens a pipe on them: its exit neither blocks nor seals" {
	forkdaemon pipe
}

# comma_locale: a locale whose radix is a comma, or skip.
comma_locale() {
	local l
	for l in de_DE.UTF-8 de_DE.utf8 fr_FR.UTF-8; do
		if [ "$(LC_ALL=$l locale decimal_point 2>/dev/null)" = , ]; then
			LOC=$l
			return 0
		fi
	done
	skip "no comma-decimal locale installed (locale-gen de_DE.UTF-8)"
}

@test "2.4: a comma-decimal locale: shm-expand -F exp and hex write '.', shm-import reads '.' back" {
	local l
	comma_locale
	l=$(mkset c f64 3ff8000000000000 bfd0000000000000)
	printf 'x shmids %s\n' "$l" > ref
	LC_ALL=$LOC runio ref shm_expand -F f64=exp
	status_is 0
	is "$(cat out)" "x 1.5000000000000000e+00 -2.5000000000000000e-01"
	LC_ALL=$LOC runio ref shm_expand -F f64=hex
	status_is 0
	is "$(cat out)" "x 0x1.8p+0 -0x1p-2"
	cp out hex
	LC_ALL=$LOC runio hex shm_import -k 1 -P "$P" -t f64
	status_is 0
	like "$(cat out)" "x shmids * ${P}x"
	cp out back
	LC_ALL=$LOC runio back shm_expand -F f64=exp
	status_is 0
	is "$(cat out)" "x 1.5000000000000000e+00 -2.5000000000000000e-01"
}

@test "2.4: a file segment renamed or hard-linked: the message names what happened, not 'not a shmids segment' or 'too many links'" {
	local l f
	D=$(mktemp -d /tmp/shmids-trust.XXXXXX)
	echo "$D" > "$T/.dir"
	l=$(SHMIDS_DIR=$D _mk create "${P}m" f64 3)
	f=${l%% *}
	mv "$f" "$D/shmids.Moved0"
	printf 'x shmids %s %sm\n' "$D/shmids.Moved0" "$P" > ref
	runio ref shm_expand
	status_is 1
	is "$(cat err)" "shm-expand: stdin:1: $D/shmids.Moved0 ${P}m: $D/shmids.Moved0 is a segment made as $f (its label says so): renamed or linked from there, it is not taken for a segment"
	mv "$D/shmids.Moved0" "$f"
	# a label whose path holds an escape is another user's bytes: not shown
	cp "$f" "$D/shmids.Evil00"
	printf '/tmp/\033[2J/shmids.abcdef %sm\0\n' "$P" |
	    dd of="$D/shmids.Evil00" conv=notrunc status=none
	printf 'x shmids %s %sm\n' "$D/shmids.Evil00" "$P" > ref
	runio ref shm_expand
	status_is 1
	is "$(cat err)" "shm-expand: stdin:1: $D/shmids.Evil00 ${P}m: segment $D/shmids.Evil00 is not a shmids segment"
	# linked, it is still its owner's under its own name (format-spec.md
	# 2.6): removed there, the other name keeps the bytes
	ln "$f" "$D/shmids.Linked"
	run --separate-stderr shm_rm -f "$l"
	status_is 0
	is "$stderr" ""
	[ ! -e "$f" ] || { echo "shm-rm left the segment's own name" >&2; false; }
	[ -e "$D/shmids.Linked" ] || { echo "shm-rm removed the other name" >&2; false; }
}

@test "2.4: shm-import out of memory for its first buffer: out of memory, not 'line too long'" {
	local so=$BATS_TEST_DIRNAME/../${SHMIDS_BUILD:-build}/tests/preload/failbig.so
	[ -f "$so" ] || { echo "$so missing: make check builds it" >&2; false; }
	ldd "$BIN/shm-import" | grep -q 'libasan\|libtsan' &&
	    skip "a malloc shim cannot go under a sanitizer's"
	[ -z "${SHMIDS_VALGRIND:-}" ] || skip "a malloc shim cannot go under valgrind's"
	printf 'abc\n' > in
	status=0
	LD_PRELOAD=$so "$BIN/shm-import" -P "$P" < in > out 2> err || status=$?
	status_is 1
	is "$(cat err)" "shm-import: stdin: out of memory (address space limited? see ulimit -v): no buffer to read it in"
}

@test "2.6: a sparse file segment on a full tmpfs: refused as sparse before any page is read, not SIGBUS" {
	local D
	[ "$(id -u)" = 0 ] && command -v unshare > /dev/null ||
	    skip "needs root and unshare for a small tmpfs"
	D=$(mktemp -d /tmp/shmids-trust.XXXXXX)
	echo "$D" > "$T/.dir"
	# 1 MiB of tmpfs, full; a file segment declaring 2 MiB, 4 KiB written
	run unshare --mount sh -c "mount -t tmpfs -o size=1m none '$D' &&
	    l=\$(SHMIDS_DIR='$D' '$SHMTOOL' create '${P}s' f64 1) &&
	    f=\${l%% *} &&
	    printf '%020d' 262144 | dd of=\"\$f\" bs=1 seek=95 conv=notrunc status=none &&
	    truncate -s 2097280 \"\$f\" &&
	    { head -c 2m /dev/zero > '$D/fill' 2>/dev/null; true; } &&
	    printf 'x shmids %s\n' \"\$l\" | '$BIN/shm-expand' > /dev/null;
	    echo rc=\$?"
	like "$output" "shm-expand: stdin:1: $D/shmids.$(id -u).?????? ${P}s: segment $D/shmids.$(id -u).?????? declares 2097280 bytes, of which only 4096 are allocated (a sparse file: no shmids writer made it so); shm-rm * removes it
rc=1"
}

@test "2.4: a segment a cleaner removes as it is made: said so, not 'no such file or directory'" {
	local so=$BATS_TEST_DIRNAME/../${SHMIDS_BUILD:-build}/tests/preload/rmbeforeat.so
	[ -f "$so" ] || { echo "$so missing: make check builds it" >&2; false; }
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
	printf 'a 1 2 3\n' > in
	status=0
	LD_PRELOAD=$so "$BIN/shm-import" -k 1 -P "$P" < in > out 2> err ||
	    status=$?
	status_is 1
	is "$(cat err)" "shm-import: stdin:1: a: the new segment was removed before it could be used (by a cleaner, shm-rm -s, given too short an age?)"
	same_file in out
}

@test "2.4: a reader that looks in a cleaner's mode-0 moment looks again: read, not 'you may not read it'" {
	local so l
	need_user
	so=$PRELOAD/modezero.so
	[ -f "$so" ] || { echo "$so missing: make check builds it" >&2; false; }
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
	l=$(as_user "$SHMTOOL" create "${P}z" f64 3 0644)
	track "$l"
	run as_user env LD_PRELOAD="$so" "$SHMTOOL" open "$l"
	status_is 0
	is "$output" "f64 3 3"
	printf 'x shmids %s\n' "$l" > ref
	run as_user env LD_PRELOAD="$so" "$BIN/shm-expand" < ref
	status_is 0
	is "$output" "x 0 1 2"
}

# sparsefile BYTES: f, a file segment on tmpfs whose header declares
# BYTES of f64 it never wrote (label l).
sparsefile() {
	tmpfs_dir
	l=$(SHMIDS_DIR=$D _mk create "${P}s" f64 1)
	f=${l%% *}
	printf '%020d' $(($1 / 8)) |
	    dd of="$f" bs=1 seek=95 conv=notrunc status=none
	truncate -s $((128 + $1)) "$f"
	printf 'x shmids %s\n' "$l" > ref
}

@test "2.5, 2.6: space allocated beyond a sparse file segment's end (fallocate -n) counts as allocated, and makes no reader populate its holes" {
	local l f kb0 kb
	command -v fallocate > /dev/null || skip "no fallocate(1)"
	sparsefile $((256 << 20))
	fallocate -n -o $((128 + (256 << 20))) -l $((300 << 20)) "$f" ||
	    skip "tmpfs keeps no space beyond a file's end here"
	kb0=$(( $(stat -c '%b * %B' "$f") / 1024 ))
	run bash -c '"$1" < ref | head -c 20' - "$BIN/shm-expand"
	is "$output" "x 0 0 0 0 0 0 0 0 0 "
	run shmtool hold "$l" 0
	status_is 0
	kb=$(( $(stat -c '%b * %B' "$f") / 1024 ))
	[ $((kb - kb0)) -lt 16384 ] ||
	    { echo "the readers allocated $((kb - kb0)) kB" >&2; false; }
}

@test "2.6: a file segment declaring 1 TiB with one page written: refused at once" {
	[ -z "${SHMIDS_VALGRIND:-}" ] || skip "valgrind maps no 1 TiB"
	local l f
	sparsefile $((1 << 40))
	printf '%s' 00000000 |
	    dd of="$f" bs=1 seek=$((128 + (1 << 30))) conv=notrunc status=none
	printf 'x shmids %s\n' "$l" > ref
	refused_sparse $((128 + (1 << 40)))
}
