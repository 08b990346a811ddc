#!/usr/bin/env bats
# Page size (format-spec.md 2.5, Page size): what a writer asks for, what
# it falls back to, and what shm-ls -l says about System V segments and
# SHMIDS_DIR's file system.  No test changes a machine-wide setting:
# the huge-page pool and shmem_enabled are faked (tests/preload/hugetlb.so,
# SHMIDS_KERNEL_ROOT), and tmpfs mounts are private (unshare -m, root).

load helper

TOP=$BATS_TEST_DIRNAME/..
THP=sys/kernel/mm/transparent_hugepage/shmem_enabled
POOL=sys/kernel/mm/hugepages/hugepages-2048kB

# huge ERRNO CMD...: CMD under the shim, SHM_HUGETLB failing with ERRNO;
# what the library asked for in $T/log.
huge() {
	local e=$1
	shift
	: > "$T/log"
	# An ASan build wants its runtime first; the shim comes before.
	env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
	    LD_PRELOAD="$PRELOAD/hugetlb.so" SHMIDS_HUGELOG="$T/log" \
	    SHMIDS_HUGEERR="$e" "$@"
}

# kroot SHMEM_ENABLED FREE RESV [GROUP]: a directory for
# SHMIDS_KERNEL_ROOT, world-readable (the second user reads it): the
# line of shmem_enabled with SHMEM_ENABLED chosen ("none": no file), the
# 2 MiB pool's free and reserved pages, vm.hugetlb_shm_group (default:
# the caller's group), an empty mountinfo.
kroot() {
	local r w s=""
	r=$(mktemp -d /tmp/shmids-root.XXXXXX) || return 1
	echo "$r" >> "$T/.rmdirs"
	chmod 755 "$r"
	mkdir -p "$r/${THP%/*}" "$r/$POOL" "$r/proc/sys/vm" "$r/proc/self"
	if [ "$1" != none ]; then
		for w in always within_size advise never deny force; do
			[ "$w" = "$1" ] && s+="[$w] " || s+="$w "
		done
		echo "${s% }" > "$r/$THP"
	fi
	echo "$2" > "$r/$POOL/free_hugepages"
	echo "$3" > "$r/$POOL/resv_hugepages"
	echo "$(($2 + 0))" > "$r/proc/sys/vm/nr_hugepages"
	echo "${4:-$(id -g)}" > "$r/proc/sys/vm/hugetlb_shm_group"
	: > "$r/proc/self/mountinfo"
	echo "$r"
}

@test "2.5: System V: a segment of 2 MiB or more asks for SHM_HUGETLB of 2 MiB, then advises MADV_HUGEPAGE before its header is written; any SHM_HUGETLB failure falls back to ordinary pages, silently" {
	local e l fails=""
	for e in ENOMEM EPERM EINVAL EACCES; do
		l=$(huge "$e" "$SHMTOOL" create "${P}big$e" f64 400000 2> "$T/err") ||
		    { fails+="[$e: shmtool: $(cat "$T/err")] "; continue; }
		track "$l"
		[ ! -s "$T/err" ] || fails+="[$e: stderr $(cat "$T/err")] "
		[ "$(cat "$T/log")" = "shmget SHM_HUGETLB page 2^21 size 3200128
madvise MADV_HUGEPAGE first page resident 0 len 3200128" ] ||
		    fails+="[$e: asked $(tr '\n' ';' < "$T/log")] "
		# The size asked for, header and payload, whatever the page.
		[ "$(shm_ls -b -o size --noheadings "$l")" = 3200128 ] ||
		    fails+="[$e: size $(shm_ls -b -o size --noheadings "$l")] "
		shmtool open "$l" > /dev/null 2>&1 || fails+="[$e: open] "
	done
	is "$fails" ""
}

@test "2.5: System V: below 2 MiB (header included), and with SHMIDS_NOTUNE, neither SHM_HUGETLB nor MADV_HUGEPAGE is asked for" {
	local row count env want l fails=""
	while IFS='|' read -r count env want; do
		[ -n "$count" ] || continue
		l=$(huge ENOMEM env $env "$SHMTOOL" create "${P}c$count" f64 "$count") ||
		    { fails+="[$count $env: failed] "; continue; }
		track "$l"
		[ "$(tr '\n' ';' < "$T/log")" = "$want" ] ||
		    fails+="[$count $env: asked $(tr '\n' ';' < "$T/log")] "
	done <<-EOF
	262127|SHMIDS_X=1|
	262128|SHMIDS_X=1|shmget SHM_HUGETLB page 2^21 size 2097152;madvise MADV_HUGEPAGE first page resident 0 len 2097152;
	400000|SHMIDS_NOTUNE=1|
	EOF
	is "$fails" ""
}

@test "2.5: readers ask for no page size: an attach advises nothing" {
	local l
	l=$(mkseg r f64 400000)
	huge ENOMEM "$SHMTOOL" open "$l" > /dev/null
	is "$(cat "$T/log")" "" "asked"
}

@test "2.5: shm-ls -l: System V pages for each shmem_enabled state and the 2 MiB pool" {
	local st fr rs line want r got fails=""
	while IFS='|' read -r st fr rs want; do
		[ -n "$st" ] || continue
		r=$(kroot "$st" "$fr" "$rs")
		got=$(SHMIDS_KERNEL_ROOT=$r "$BIN/shm-ls" -l | grep '^System V pages') ||
		    { fails+="[$st $fr: no line] "; continue; }
		[ "$got" = "$want" ] || fails+="[$st $fr $rs: $got] "
	done <<-EOF
	always|0|0|System V pages           2 MiB where memory allows (shmem THP always)
	within_size|0|0|System V pages           2 MiB where memory allows (shmem THP within_size)
	force|0|0|System V pages           2 MiB where memory allows (shmem THP force)
	advise|0|0|System V pages           2 MiB where memory allows (shmem THP advise: the library asks)
	never|4|4|System V pages           4 KiB (shmem THP never; no huge pages of 2 MiB free)
	deny|0|0|System V pages           4 KiB (shmem THP deny; no huge pages of 2 MiB free)
	never|10|2|System V pages           2 MiB (reserved huge pages: 8 free, a segment of up to 16 MiB)
	none|0|0|System V pages           4 KiB (no transparent huge pages; no huge pages of 2 MiB free)
	EOF
	is "$fails" ""
	# What to change, when it is 4 KiB.
	r=$(kroot never 0 0)
	run --separate-stderr env SHMIDS_KERNEL_ROOT="$r" "$BIN/shm-ls" -l
	status_is 0
	grep -A2 '^System V pages' <<< "$output" > got
	is "$(sed -n 2,3p got)" "hint: as root, 'echo advise > /sys/kernel/mm/transparent_hugepage/shmem_enabled'
  or reserve huge pages of 2 MiB (shmids(5) HUGE PAGES)"
	# SHMIDS_NOTUNE: the library asks for nothing.
	r=$(kroot advise 8 0)
	is "$(SHMIDS_NOTUNE=1 SHMIDS_KERNEL_ROOT=$r "$BIN/shm-ls" -l | grep -A1 '^System V pages')" \
	    "System V pages           4 KiB (SHMIDS_NOTUNE is set: none asked for)
hint: unset SHMIDS_NOTUNE"
}

@test "2.5: shm-ls -l: reserved huge pages another group's (vm.hugetlb_shm_group) are not the caller's" {
	need_user
	local r
	r=$(kroot never 8 0 0)
	run --separate-stderr as_user env SHMIDS_KERNEL_ROOT="$r" "$BIN/shm-ls" -l
	status_is 0
	is "$(grep '^System V pages' <<< "$output")" \
	    "System V pages           4 KiB (shmem THP never; reserved huge pages not yours: vm.hugetlb_shm_group)"
	r=$(kroot never 8 0 "$TESTUSER")
	run --separate-stderr as_user env SHMIDS_KERNEL_ROOT="$r" "$BIN/shm-ls" -l
	is "$(grep '^System V pages' <<< "$output")" \
	    "System V pages           2 MiB (reserved huge pages: 8 free, a segment of up to 16 MiB)"
}

@test "2.5: shm-ls -l: SHMIDS_DIR pages from the directory's mount in mountinfo: tmpfs huge=, shmem_enabled deny and force, a disk file system, no mount" {
	local dev st fs opts want r got fails=""
	mkdir "$T/d"
	dev=$(stat -c '%Hd:%Ld' "$T/d")
	while IFS='|' read -r st fs opts want; do
		[ -n "$st" ] || continue
		r=$(kroot "$st" 0 0)
		[ "$fs" = - ] ||
		    printf '1 0 %s / %s rw,relatime - %s %s %s\n' "$dev" \
		    "$(sed 's/ /\\040/g' <<< "$T/d")" "$fs" "$fs" "$opts" \
		    > "$r/proc/self/mountinfo"
		got=$(SHMIDS_DIR=$T/d SHMIDS_KERNEL_ROOT=$r "$BIN/shm-ls" -l |
		    grep '^SHMIDS_DIR pages') || { fails+="[$fs $opts: no line] "; continue; }
		[ "$got" = "SHMIDS_DIR pages         $want" ] || fails+="[$st $fs $opts: $got] "
	done <<-EOF
	never|tmpfs|rw,huge=within_size|2 MiB where memory allows (tmpfs huge=within_size)
	never|tmpfs|rw,size=100k,huge=always,inode64|2 MiB where memory allows (tmpfs huge=always)
	never|tmpfs|rw,huge=advise|4 KiB (tmpfs huge=advise: a file segment is allocated before any advice)
	never|tmpfs|rw,huge=never|4 KiB (tmpfs without huge=)
	advise|tmpfs|rw,inode64|4 KiB (tmpfs without huge=)
	deny|tmpfs|rw,huge=within_size|4 KiB (shmem THP deny, whatever tmpfs says)
	force|tmpfs|rw|2 MiB where memory allows (shmem THP force, whatever tmpfs says)
	never|ext4|rw,relatime|as ext4's page cache decides (large folios, or 4 KiB)
	never|-||? (in no mount of /proc/self/mountinfo)
	EOF
	is "$fails" ""
}

# dir_report DIR [as_user]: shm-ls -l's lines from "SHMIDS_DIR pages" on,
# its hint's lines joined as one; and what shm-ls says of DIR on stderr.
dir_report() {
	local d=$1
	shift
	run --separate-stderr "$@" env SHMIDS_DIR="$d" "$BIN/shm-ls" -l
	status_is 0
	awk 'length($0) > 80 { print "wider than 80: " $0; bad = 1 } END { exit bad }' <<< "$output" >&2
	got=$(sed -n '/^SHMIDS_DIR pages/,$p' <<< "$output" |
	    awk 'NR > 2 && /^  / { sub(/^ /, ""); printf "%s", $0; next } NR > 1 { printf "\n" } { printf "%s", $0 } END { print "" }')
	said=$("$@" env SHMIDS_DIR="$d" "$BIN/shm-ls" 2>&1 > /dev/null) || true
}

# SHMIDS_DIR that cannot be looked at was "SHMIDS_DIR pages ?" and no
# more; now a hint: says what is wrong with it and what to do.
# One copy of the words: shm-ls -l's hint is what shm-ls (and the
# library, shmids_explain()) says of the directory, wrapped.
@test "2.5: shm-ls -l: SHMIDS_DIR missing, not a directory, or unreadable: ? (reason) and a hint: of what is wrong and what to do" {
	local dir reason want got said fails=""
	printf x > "$T/file"
	while IFS='|' read -r dir reason want; do
		[ -n "$dir" ] || continue
		dir_report "$dir"
		[ "$said" = "shm-ls: $want" ] || fails+="[$dir: shm-ls said $said] "
		[ "$got" = "SHMIDS_DIR pages         ? ($reason)"$'\n'"hint: $want" ] ||
		    fails+="[$dir: $got] "
	done <<-EOF
	$T/none|No such file or directory|SHMIDS_DIR $T/none does not exist: 'mkdir -p $T/none' (mode 1777 to share it), or unset SHMIDS_DIR for System V segments
	$T/file|Not a directory|SHMIDS_DIR $T/file is not a directory: point SHMIDS_DIR at one, or unset it for System V segments
	$T/file/d|Not a directory|SHMIDS_DIR $T/file/d is not a directory (a name on its path is a file): point SHMIDS_DIR at one, or unset it for System V segments
	$T/a b/it's|No such file or directory|SHMIDS_DIR $T/a b/it's does not exist: mkdir -p '$T/a b/it'\\''s' (mode 1777 to share it), or unset SHMIDS_DIR for System V segments
	EOF
	is "$fails" ""
	# the command to paste stays on one line
	dir_report "$T/none"
	like "$output" "*'mkdir -p $T/none'*" "mkdir on one line"
	# one the caller cannot read: a plain user's view of a 0700 directory
	need_user
	mkdir -m 700 "$T/priv"
	dir_report "$T/priv" as_user
	is "$got" "SHMIDS_DIR pages         ? (Permission denied)
hint: SHMIDS_DIR $T/priv cannot be read or searched by you: its owner may 'chmod 1777' it, or point SHMIDS_DIR at a directory of yours, or unset it for System V segments"
	is "$said" "shm-ls: ${got#*hint: }" "shm-ls's words"
}

# The hint names the mount unit's directory, and says it once there.
@test "2.5: shm-ls -l without SHMIDS_DIR: how to get file segments in 2 MiB pages, or that /run/shmids has them" {
	local r
	r=$(kroot never 0 0)
	run --separate-stderr env SHMIDS_KERNEL_ROOT="$r" "$BIN/shm-ls" -l
	status_is 0
	sed -n '/^SHMIDS_DIR/,$p' <<< "$output" | grep -v 'free page reporting' > got
	is "$(sed 's/;$//' got | head -6)" "SHMIDS_DIR               unset (System V segments)
hint: for file segments in 2 MiB pages, as root,
  'systemctl enable --now run-shmids.mount' (make install-systemd) or
  'mkdir -p /run/shmids &&
   mount -t tmpfs -o huge=within_size,mode=1777 tmpfs /run/shmids'
  then 'export SHMIDS_DIR=/run/shmids' (shmids(5) HUGE PAGES)"
	# /run/shmids mounted as run-shmids.mount would, in a private /run.
	need_mountns
	cat > in.sh <<-EOF
	mount -t tmpfs tmpfs /run && mkdir /run/shmids &&
	    mount -t tmpfs -o huge=within_size,mode=1777 tmpfs /run/shmids || exit 3
	"$BIN/shm-ls" -l | grep -A9 '^SHMIDS_DIR'
	EOF
	run --separate-stderr timeout 60 unshare -m sh in.sh
	[ "$status" != 3 ] || skip "no private tmpfs mounts here: $stderr"
	status_is 0
	is "$output" "SHMIDS_DIR               unset (System V segments)
hint: /run/shmids is a tmpfs huge=within_size: 'export SHMIDS_DIR=/run/shmids'
  gives file segments in 2 MiB pages"
}

# In a private tmpfs mounted with the options of systemd/run-shmids.mount,
# as its unit mounts it: a big file segment gets 2 MiB pages (a reader's
# smaps shows them mapped by PMD), its size is what its header declares,
# and shm-ls -l says so.
@test "2.5: a private tmpfs with run-shmids.mount's options: file segments in 2 MiB pages, sizes unrounded, and shm-ls -l says so" {
	need_mountns
	command -v python3 > /dev/null || skip "python3 missing"
	local opts
	opts=$(sed -n 's/^Options=//p' "$TOP/systemd/run-shmids.mount")
	[ -n "$opts" ] || { echo "no Options= in run-shmids.mount" >&2; false; }
	cat > pmd.py <<-'EOF'
	import mmap, os, sys
	f = open(sys.argv[1], "rb")
	m = mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)
	s = sum(m[i] for i in range(0, len(m), 4096))
	a = None
	kb = 0
	for line in open("/proc/self/smaps"):
	    if "-" in line.split()[0] and line.split()[-1] == sys.argv[1]:
	        a = True
	    elif a and line.split()[0] in ("ShmemPmdMapped:", "FilePmdMapped:"):
	        kb += int(line.split()[1])
	    elif ":" not in line.split()[0]:
	        a = None
	print(kb)
	EOF
	cat > in.sh <<-EOF
	mkdir -p "$T/m" && mount -t tmpfs -o "$opts" tmpfs "$T/m" || exit 3
	export SHMIDS_DIR="$T/m"
	"$BIN/shm-ls" -l | grep '^SHMIDS_DIR pages'
	l=\$("$SHMTOOL" create ${P}f f64 1000000) || exit 4
	f=\${l%% *}
	"$BIN/shm-ls" -b -o size --noheadings "\$l"
	stat -c %s "\$f"
	python3 pmd.py "\$f"
	"$SHMTOOL" open "\$l" > /dev/null || exit 5
	EOF
	run --separate-stderr timeout 60 unshare -m bash in.sh
	[ "$status" != 3 ] || skip "no tmpfs with $opts here: $stderr"
	status_is 0
	is "${lines[0]}" "SHMIDS_DIR pages         2 MiB where memory allows (tmpfs huge=within_size)"
	is "${lines[1]}" 8000128 "size listed"
	is "${lines[2]}" 8000128 "file size"
	# 8000128 bytes hold three whole 2 MiB pages; memory may be too
	# fragmented for a huge page, so at least one.
	[ "${lines[3]}" -ge 2048 ] ||
	    { echo "PMD-mapped: ${lines[3]} kB, no 2 MiB page" >&2; false; }
}
