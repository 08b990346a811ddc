# tests/helper.bash: loaded by every tests/*.bats file.
#
# Each test gets a name prefix of its own ($P) and a scratch directory
# ($T).  Segments are made through the mk* functions below, which note
# each shmid; teardown removes those, plus every segment of ours whose
# name starts with $P (made by shm-import, say), and nothing else.

bats_require_minimum_version 1.5.0

BIN=${SHMIDS_BIN:-$BATS_TEST_DIRNAME/../${SHMIDS_BUILD:-build}/bin}
TOOLS=${SHMIDS_TOOLS:-$BATS_TEST_DIRNAME/../${SHMIDS_BUILD:-build}/tests/tools}
SHMTOOL=$TOOLS/shmtool
# LD_PRELOAD shims (tests/preload/); a copy where TESTUSER reads them
# after user_build.
PRELOAD=$BATS_TEST_DIRNAME/../${SHMIDS_BUILD:-build}/tests/preload
# The second user is a bare uid and gid with no account: setpriv needs
# none, so the suite adds no user to the machine.  Tests use TESTUSER
# and a few uids above it (+3, +7): the first base whose ten uids
# neither the password nor the group database knows, picked once a run
# (tests/env.sh, free_uid; SHMIDS_TEST_UID imposes one, and tests/run
# sets it for every file).
# The suite's own environment (issue 40 item 13): the user's profile
# changes nothing it builds or loads.
. "$BATS_TEST_DIRNAME/env.sh"
if [ -n "${SHMIDS_TEST_UID:-}" ]; then
	TESTUSER=$SHMIDS_TEST_UID
elif [ -s "${BATS_RUN_TMPDIR:-/nonexistent}/testuser" ]; then
	TESTUSER=$(cat "$BATS_RUN_TMPDIR/testuser")
else
	TESTUSER=$(free_uid)
	[ -z "${BATS_RUN_TMPDIR:-}" ] ||
	    echo "$TESTUSER" > "$BATS_RUN_TMPDIR/testuser"
fi

# shm-import's warnings of system settings (logind's RemoveIPC,
# kernel.shm_rmid_forced) say what the machine does, not what a test
# does: off for every test, whoever runs it and wherever, so that
# exact stderr comparisons hold.  limits.bats turns them back on
# (env -u SHMIDS_NOWARN), with the settings it chooses
# (SHMIDS_SYSTEMD_ROOT for logind's files), to test them.
export SHMIDS_NOWARN=1
unset SHMIDS_SYSTEMD_ROOT SHMIDS_KERNEL_ROOT
# Short names for long directories (format-spec.md 2.6) go under
# SHMIDS_SHORTDIR, /tmp by default: a test never makes them there, the
# machine's.  Here a directory that does not exist, so that a writer in
# a long directory fails (ENAMETOOLONG) unless its test gives one of its
# own (tests/longdir.bats).
export SHMIDS_SHORTDIR="${BATS_RUN_TMPDIR:-/nonexistent}/no-shortdir"

setup() {
	P="t$$.${BATS_TEST_NUMBER}."
	T=$BATS_TEST_TMPDIR
	: > "$T/.segs"
	: > "$T/.pids"
	cd "$T" || return 1
}

teardown() {
	local pid id ids d

	while read -r pid; do
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done < "$T/.pids"
	ids=$( {
		awk '{ print $1 }' "$T/.segs"
		timeout 10 "$BIN/shm-ls" -p 2>/dev/null |
		    awk -F '\t' -v p="$P" 'NF >= 16 { split($16, l, " ");
			if (index(l[2], p) == 1) print $1 }'
		timeout 10 "$SHMTOOL" find "$P" 2>/dev/null
	} | sort -u)
	for id in $ids; do
		case $id in
		*[!0-9]*|'') ;;
		*) ipcrm -m "$id" 2>/dev/null ;;
		esac
	done
	# Directories a test made for its files, one a line in $T/.dir.
	if [ -s "$T/.dir" ]; then
		while read -r d; do
			[ -n "$d" ] && rm -rf "$d"
		done < "$T/.dir"
	fi
	# Last: BIN and SHMTOOL above may be a copy in one of these
	# (user_build), which finds the segments the second user made.
	if [ -s "$T/.rmdirs" ]; then
		while read -r d; do
			case $d in
			/tmp/shmids-build.*|/tmp/shmids-root.*) rm -rf "$d" ;;
			esac
		done < "$T/.rmdirs"
	fi
	return 0
}

# Programs under test; timeout keeps a hanging tool from hanging the suite.
shm_ls()	{ timeout 30 "$BIN/shm-ls" "$@"; }
shm_expand()	{ timeout 30 "$BIN/shm-expand" "$@"; }
shm_import()	{ timeout 30 "$BIN/shm-import" "$@"; }
shm_rm()	{ timeout 30 "$BIN/shm-rm" "$@"; }
shmtool()	{ timeout 30 "$SHMTOOL" "$@"; }

# track LABEL-OR-SHMID...: remove these in teardown.
track() {
	local x
	for x in "$@"; do
		printf '%s\n' "${x%% *}" >> "$T/.segs"
	done
}

# Each mk* prints the label (or shmid) it made, and fails if none was
# made; a label starts with a shmid, or with a path for a file segment.
_mk() {
	local out
	out=$(shmtool "$@") || { echo "shmtool $*: $out" >&2; return 1; }
	case $out in
	[0-9]*|/*) track "$out"; printf '%s\n' "$out" ;;
	*) echo "shmtool $*: $out" >&2; return 1 ;;
	esac
}
mkseg()		{ _mk create "$P$1" "${@:2}"; }		# NAME TYPE COUNT [MODE]
mkset()		{ _mk set "$P$1" "${@:2}"; }		# NAME TYPE HEXBITS...
mkrandom()	{ _mk random "$P$1" "${@:2}"; }		# NAME TYPE COUNT SEED
mkpaper()	{ _mk paper "$P$1" "${@:2}"; }		# NAME NBYTES [HOW]
mkhostile()	{ _mk hostile "$1" "$P$2"; }		# KIND NAME
mkkilled()	{ _mk killwriter "$P$1"; }		# NAME
mkraw()		{ _mk raw "$1"; }			# SIZE

# mkipcmk SIZE: a segment made by ipcmk(1); prints its shmid.
mkipcmk() {
	local out
	out=$(ipcmk -M "$1") || return 1
	out=${out##*: }
	track "$out"
	printf '%s\n' "$out"
}

# bg NAME PROGRAM ARGS...: run PROGRAM (not a shell function, so that
# its pid is $!) in the background, killed in teardown, with its output
# in $T/NAME.out; wait until it has printed a line, and print that line.
bg() {
	local name=$1 i
	shift
	"$@" > "$T/$name.out" 2>&1 3>&- &
	echo $! >> "$T/.pids"
	for i in $(seq 100); do
		[ -s "$T/$name.out" ] && { sed -n 1p "$T/$name.out"; return 0; }
		sleep 0.05
	done
	echo "bg $name: no output from $*" >&2
	return 1
}

# gone_stream LABEL: the stream's segment is removed, within 5 s (its
# last reader lets go in another process).
gone_stream() {
	local i
	for i in $(seq 100); do
		[ "$("$TOOLS/streamtool" stat "$1")" = ENOENT ] && return 0
		sleep 0.05
	done
	is "$("$TOOLS/streamtool" stat "$1")" ENOENT "stat of $1 after its end"
}

# await NAME TEXT [SECONDS]: $T/NAME.out (bg's) has a line TEXT, within
# SECONDS (10).
await() {
	local i
	for i in $(seq $((${3:-10} * 20))); do
		grep -qxF -- "$2" "$T/$1.out" 2>/dev/null && return 0
		sleep 0.05
	done
	echo "$1: no line '$2' in:" >&2
	cat "$T/$1.out" >&2
	return 1
}

# mkwriter NAME SECONDS: a writer filling for SECONDS; prints the label.
mkwriter() {
	local l
	l=$(bg "writer$1" "$SHMTOOL" writer "$P$1" "$2") || return 1
	track "$l"
	printf '%s\n' "$l"
}

# hold LABEL SECONDS [asuser]: keep LABEL attached in the background.
hold() {
	local l n
	n=hold$(printf '%s' "${1%% *}" | tr / _)
	if [ "${3:-}" = asuser ]; then
		l=$(bg "$n" setpriv --reuid="$TESTUSER" \
		    --regid="$TESTUSER" --clear-groups -- \
		    "$SHMTOOL" hold "$1" "$2")
	else
		l=$(bg "$n" "$SHMTOOL" hold "$1" "$2")
	fi
	[ "$l" = held ] || { echo "hold $1: $l" >&2; return 1; }
}

# A second, unprivileged user (uid and gid TESTUSER); skip if impossible.
# Every test that switches users calls it first.  Where that user cannot
# run the build (a checkout in a mode-700 home), the test runs a copy.
need_user() {
	[ "$(id -u)" = 0 ] || skip "needs root to switch users"
	command -v setpriv >/dev/null || skip "setpriv missing"
	user_runs && return 0
	user_build ||
	    skip "uid $TESTUSER cannot run the binaries under $BIN, nor a copy"
}
# user_runs: TESTUSER can run the tools and shmtool (126 and 127 are
# setpriv's and the loader's "cannot execute").
user_runs() {
	local st=0
	as_user "$BIN/shm-ls" --version > /dev/null 2>&1 || return 1
	as_user "$SHMTOOL" > /dev/null 2>&1 || st=$?
	[ "$st" != 126 ] && [ "$st" != 127 ]
}
# user_build: BIN, TOOLS, SHMTOOL and PRELOAD become a copy of the build
# in a world-readable directory of /tmp, removed in teardown.
user_build() {
	local c f
	c=$(mktemp -d /tmp/shmids-build.XXXXXX) || return 1
	echo "$c" >> "$T/.rmdirs"
	mkdir "$c/bin" "$c/tools" "$c/preload" || return 1
	cp -P "$BIN"/../libshmids.so* "$c/" || return 1
	for f in "$PRELOAD"/*.so; do
		[ -f "$f" ] || continue
		cp "$f" "$c/preload/" || return 1
	done
	for f in "$BIN"/* "$TOOLS"/*; do
		[ -f "$f" ] && [ -x "$f" ] || continue
		case $f in
		"$BIN"/*) cp "$f" "$c/bin/" ;;
		*) cp "$f" "$c/tools/" ;;
		esac || return 1
	done
	chmod -R a+rX "$c"
	BIN=$c/bin TOOLS=$c/tools SHMTOOL=$c/tools/shmtool PRELOAD=$c/preload
	user_runs
}
as_user() {
	setpriv --reuid="$TESTUSER" --regid="$TESTUSER" --clear-groups -- "$@"
}

# need_mountns: a private mount and IPC namespace (unshare -m -i), so
# that mounts, and the System V segments shm-rm -s sees, are the test's.
need_mountns() {
	[ "$(id -u)" = 0 ] || skip "needs root for a private mount namespace"
	command -v unshare > /dev/null || skip "unshare missing"
	unshare -m -i true 2> /dev/null || skip "unshare -m -i is not allowed here"
}

# owner8 [NAME]: NAME (default: the caller's login name, or uid where
# the password database has none) as shm-ls's long format writes it:
# cut to 8 columns as ps(1) cuts it, with a '+'.
owner8() {
	local n=${1:-$(id -un 2> /dev/null || id -u)}
	[ "${#n}" -le 8 ] && printf '%s\n' "$n" || printf '%s+\n' "${n:0:7}"
}
# owner8_re [NAME]: owner8 as an ERE matching it: the '+' of a long
# name, and whatever else a login name holds, escaped.
owner8_re() {
	owner8 "$@" | sed 's/[][\.*^$+?(){}|/]/\\&/g'
}

# Assertions that say what they expected.
is() {	# ACTUAL EXPECTED [WHAT]
	[ "$1" = "$2" ] && return 0
	printf '%s\n  expected: %q\n  got:      %q\n' "${3:-value}" "$2" "$1" >&2
	return 1
}
like() {	# ACTUAL GLOB [WHAT]
	# shellcheck disable=SC2053
	[[ $1 == $2 ]] && return 0
	printf '%s\n  expected to match: %s\n  got:               %q\n' \
	    "${3:-value}" "$2" "$1" >&2
	return 1
}
# status_is N: after run or runio, with stderr shown on mismatch.
status_is() {
	[ "$status" = "$1" ] && return 0
	printf 'exit status: expected %s, got %s\nstdout: %s\nstderr: %s\n' \
	    "$1" "$status" "${output:-$(head -c 2000 "$T/out" 2>/dev/null)}" \
	    "${stderr:-$(head -c 2000 "$T/err" 2>/dev/null)}" >&2
	return 1
}

# runio INPUT CMD...: CMD with stdin from file INPUT, stdout in $T/out
# and stderr in $T/err (byte-exact, NULs included); sets status.
runio() {
	local in=$1
	shift
	output= stderr= status=0
	"$@" < "$in" > "$T/out" 2> "$T/err" || status=$?
}
# same_file EXPECTED ACTUAL: byte-exact, with a readable diff if not.
same_file() {
	cmp -s "$1" "$2" && return 0
	echo "files differ: $1 (expected) vs $2 (got)" >&2
	diff <(od -An -c "$1") <(od -An -c "$2") >&2
	return 1
}
# err_is TEXT: $T/err holds exactly TEXT and a newline.
err_is() {
	is "$(cat "$T/err")" "$1" "stderr"
}

# The label in a reference line "field shmids SHMID NAME".
label_of() {
	awk '$2 == "shmids" { sub(/\r$/, "", $4); print $3 " " $4; exit }' "$@"
}

# The machine's byte order, as the header's order field spells it.
if [ "$(printf '\001\000' | od -An -tu2 | tr -d ' ')" = 1 ]; then
	ORDER=le
else
	ORDER=be
fi

# no_segments_named PREFIX: fails if a segment of ours is named PREFIX*.
no_segments_named() {
	local ids
	ids=$("$SHMTOOL" find "$1")
	[ -z "$ids" ] && return 0
	echo "segments named $1* exist: $ids" >&2
	return 1
}
# exists LABEL: the segment is still there (shmtool open succeeds).
exists() {
	local r
	r=$(shmtool open "$1") && return 0
	echo "segment $1 does not open: $r" >&2
	return 1
}
# gone LABEL: no segment has that shmid any more.
gone() {
	local r
	r=$(shmtool open "$1") || true
	[ "$r" = ENOENT ] && return 0
	echo "segment $1 still there: $r" >&2
	return 1
}
# hdrfield SHMID OFFSET LENGTH: bytes of a segment's header.
hdrfield() {
	"$SHMTOOL" header "$1" | tail -c +$(($2 + 1)) | head -c "$3"
}
# usage_has SYNOPSIS TEXT: TEXT, blanks squeezed, contains SYNOPSIS.
usage_has() {
	local t
	t=$(printf '%s' "$2" | tr -s ' \t\n' '   ')
	[[ $t == *"$1"* ]] && return 0
	printf 'usage should contain: %s\ngot: %s\n' "$1" "$2" >&2
	return 1
}

# Windows between a program's system calls, made wide by strace(1):
# delayed NAME SYSCALLS DELAY PROGRAM ARGS... runs PROGRAM in the
# background (its pid in $DELAYED, killed in teardown), each call of
# SYSCALLS (comma-separated) held for DELAY as it enters (strace's
# delay_enter: "1s", or "1s:when=1..3" for the first three); the calls
# go to $T/NAME.st, the output to $T/NAME.out and $T/NAME.err.
need_strace() {
	[ -z "${SHMIDS_VALGRIND:-}" ] || skip "strace and valgrind do not mix"
	command -v strace >/dev/null || skip "strace missing"
	strace -qq -o /dev/null -e trace=getpid \
	    -e inject=getpid:delay_enter=1 true 2>/dev/null ||
	    skip "strace cannot trace here"
}
delayed() {
	local name=$1 calls=$2 delay=$3
	shift 3
	# LeakSanitizer cannot run under ptrace; the rest of ASan can.
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	    strace -f -qq -o "$T/$name.st" -e trace="$calls" \
	    -e inject="$calls:delay_enter=$delay" "$@" \
	    > "$T/$name.out" 2> "$T/$name.err" 3>&- &
	DELAYED=$!
	echo "$DELAYED" >> "$T/.pids"
}
# entered NAME N [ERE]: wait (10 s at most) until the program of delayed
# NAME has entered its Nth traced call (matching ERE), which strace now
# holds; fails if the program ended first.
entered() {
	local i
	for i in $(seq 200); do
		[ "$(grep -cE "^[0-9]+ +[a-z0-9_]+\(.*${3:-}" "$T/$1.st" \
		    2>/dev/null)" -ge "$2" ] && return 0
		kill -0 "$DELAYED" 2>/dev/null || break
		sleep 0.05
	done
	echo "$1 did not reach its system call $2 ${3:-}:" >&2
	cat "$T/$1.st" "$T/$1.err" >&2
	return 1
}

# bad_args TOOL SYNOPSIS < TABLE: each line "ARGS|MESSAGE" (ARGS eval'd,
# so quotes and $var work) must exit 2 with nothing on stdout and, on
# stderr, "TOOL: MESSAGE" (getopt's own, "$BIN/TOOL: MESSAGE") then
# "usage: SYNOPSIS" (on one line or wrapped, each usage line at most 80
# columns).  Prints the failures; returns 1 if any.
bad_args() {
	local tool=$1 syn=$2 args msg fails= use
	while IFS='|' read -r args msg; do
		eval "run --separate-stderr timeout 30 \"\$BIN/$tool\" $args" \
		    < /dev/null
		[ "$status" = 2 ] || fails+="[$args: exit $status] "
		[ -z "$output" ] || fails+="[$args: stdout $output] "
		use=$(sed 1d <<< "$stderr" | tr -s ' \n' '  ' | sed 's/ $//')
		[ "${stderr%%$'\n'*}" = "$tool: $msg" ] &&
		    [ "$use" = "usage: $syn" ] ||
		    fails+="[$args: stderr $stderr] "
		sed 1d <<< "$stderr" | awk 'length($0) > 80 { exit 1 }' ||
		    fails+="[$args: a usage line wider than 80] "
	done
	is "$fails" "" "failures"
}

# readme_block MARKER: the indented block after $README's line
# "<!-- MARKER...", indent removed.
readme_block() {
	awk -v m="<!-- $1" '
	    index($0, m) == 1 { on = 1; next }
	    on == 1 && /^$/ { next }
	    on == 1 { on = 2 }
	    on == 2 && /^    / {
		for (; blank > 0; blank--)
			print ""
		print substr($0, 5)
		next
	    }
	    on == 2 && /^$/ { blank++; next }
	    on == 2 { exit }' "$README"
}

# bgwriter KIND BACKEND NAME SECONDS: shmtool writer (seals with the
# library, waking readers) or foreign (stores 'r' by hand, wakes nobody,
# _exit) in the background, System V or file segments in $T/d.
bgwriter() {
	local l
	if [ "$2" = file ]; then
		mkdir -p "$T/d"
		l=$(SHMIDS_DIR=$T/d bg "$1$3" "$SHMTOOL" "$1" "$P$3" "$4")
	else
		l=$(bg "$1$3" "$SHMTOOL" "$1" "$P$3" "$4")
	fi || return 1
	track "$l"
	printf '%s\n' "$l"
}

# ms_since START: milliseconds since START, from date +%s%N.
ms_since() {
	echo $((($(date +%s%N) - $1) / 1000000))
}

# under_limit CMD...: CMD with its address space limited to 100 MB, as
# batch systems limit jobs.  need_limit TOOL: skip where TOOL cannot run
# so (an ASan build).
under_limit() {
	(ulimit -v 100000 && exec "$@")
}
need_limit() {
	under_limit "$BIN/$1" < /dev/null > /dev/null 2>&1 ||
	    skip "$BIN/$1 does not run under ulimit -v 100000"
}
# bigline FILE: a 150 MB line of x and a newline appended to FILE.
bigline() {
	{ head -c 150000000 /dev/zero | tr '\0' x; echo; } >> "$1"
}

# python_with MODULE: a python3 that imports MODULE, or nothing.
python_with() {
	local py
	for py in ${SHMIDS_PYTHON:-} python3 /usr/bin/python3; do
		command -v "$py" > /dev/null 2>&1 &&
		    "$py" -c "import $1" 2> /dev/null &&
		    { printf '%s\n' "$py"; return 0; }
	done
	return 1
}

# py_lib: a python3 with numpy that can load this build's library
# ($LIBSO), or nothing: not an ASan build's, whose runtime would have to
# come first.
LIBSO=$BATS_TEST_DIRNAME/../${SHMIDS_BUILD:-build}/libshmids.so
py_lib() {
	nm -D "$LIBSO" 2> /dev/null | grep -q __asan_init && return 1
	python_with numpy
}

# vlabels: shm-rm -v's lines "removed 'LABEL' (owner USER, age AGE)" on
# stdin, as the bare labels; any other line is kept as it is, so that
# a comparison shows it.
vlabels() {
	sed -E "s/^removed '(.*)'( \(owner [^ ,]+, age [0-9]+[dhms]( [0-9]+[hms])?\))?$/\1/"
}

# why_of TEXT LABEL: TEXT with @label, @id and @pid (the creator's, from
# /proc/sysvipc/shm) of LABEL's segment, and @P ($P), filled in: the words of
# shmids_explain() that a test expects after "prog: what: ".
why_of() {
	local t=$1 l=$2 id=${2%% *} pid
	pid=$(awk -v id="$id" '$2 == id { print $5 }' /proc/sysvipc/shm)
	t=${t//@label/"$l"}
	t=${t//@id/"$id"}
	t=${t//@pid/"$pid"}
	t=${t//@P/"$P"}
	printf '%s\n' "$t"
}
