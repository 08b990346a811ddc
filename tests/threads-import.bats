#!/usr/bin/env bats
# shm-import on several threads (format-spec.md 6.2, issue 22): long
# arrays are read in runs on SHMIDS_THREADS threads.  Every case runs
# with SHMIDS_THREADS=1 (the one-thread path), unset (the CPUs), 2, 3
# and 7 (uneven chunks), and compares: exit status, stderr, the output
# with its labels blanked, each segment's payload (shmtool cmp) and
# shape, and the expansion of the output, byte for byte.  The arrays are
# big enough (over 1 MiB of text) for the threaded path.

load helper

eval "helper_$(declare -f teardown)"

teardown() {
	[ -s "$T/.dir" ] && rm -rf "$(cat "$T/.dir")"
	helper_teardown
}

# fdir: file segments in a directory of this test's own, removed in
# teardown; SHMIDS_DIR names it for what follows.
fdir() {
	D=$(mktemp -d /tmp/shmids-threads.XXXXXX)
	echo "$D" > "$T/.dir"
	export SHMIDS_DIR=$D
}

THREADS="1 d 2 3 7"

# gen TYPE COUNT WRAP SEED [FIELD]: an inline array FIELD (default a)
# of COUNT random values of TYPE, WRAP values a line (0: one line).
gen() {
	LC_ALL=C awk -v t="$1" -v n="$2" -v w="$3" -v seed="$4" -v f="${5:-a}" '
	function val(r) {
		r = rand()
		if (t == "raw" && r < .1)
			return sprintf("0x%x", int(rand() * 256))
		if (t == "raw")
			return int(rand() * 256)
		if (t == "i32")
			return (r < .5 ? "-" : "") int(rand() * 2147483647)
		if (t == "i64" && r < .1)
			return sprintf("0x%x", int(rand() * 2147483647))
		if (t == "i64")
			return (r < .5 ? "-" : "") int(rand() * 2147483647) \
			    sprintf("%05d", int(rand() * 100000))
		if (t == "f32")
			return sprintf("%.9g", (rand() - .5) * 10 ^ int(rand() * 60 - 30))
		if (r < .01) return "nan"
		if (r < .02) return "-inf"
		if (r < .03) return "NA"
		if (r < .04) return "0x1.8p-3"
		if (r < .2) return int(rand() * 1000) / 2
		return sprintf("%.17g", (rand() - .5) * 10 ^ int(rand() * 600 - 300))
	}
	BEGIN {
		srand(seed)
		printf "%s", f
		for (i = 1; i <= n; i++) {
			printf " %s", val()
			if (w > 0 && i % w == 0 && i < n)
				printf " /\n "
		}
		printf "\n"
	}'
}

# put LINE TOKEN FILE: the first value of line LINE of FILE becomes TOKEN.
put() {
	awk -v l="$1" -v tok="$2" 'NR == l { sub(/[^ \t\/]+[ \t]/, tok " ",
	    $0) } { print }' "$3" > "$3.new" && mv "$3.new" "$3"
}

# import TH IN MODE ARGS...: shm-import ARGS with SHMIDS_THREADS=TH (d:
# unset), reading IN as a regular file or (MODE pipe) through a pipe
# (MODE trickle: a pipe written $TRICKLE bytes a write, by dd);
# output in $T/o.TH, stderr in $T/e.TH, exit status in $T/s.TH.
import() {
	local th=$1 in=$2 mode=$3 st=0
	shift 3
	if [ "$th" = d ]; then
		unset SHMIDS_THREADS
	else
		export SHMIDS_THREADS=$th
	fi
	if [ "$mode" = trickle ]; then
		dd if="$in" bs="${TRICKLE:-1}" status=none | timeout 60 \
		    "$BIN/shm-import" -P "$P$th-" "$@" > "$T/o.$th" \
		    2> "$T/e.$th" || st=$?
	elif [ "$mode" = pipe ]; then
		cat "$in" | timeout 60 "$BIN/shm-import" -P "$P$th-" "$@" \
		    > "$T/o.$th" 2> "$T/e.$th" || st=$?
	else
		timeout 60 "$BIN/shm-import" -P "$P$th-" "$@" < "$in" \
		    > "$T/o.$th" 2> "$T/e.$th" || st=$?
	fi
	unset SHMIDS_THREADS
	echo "$st" > "$T/s.$th"
}

# labels FILE: the labels of FILE's reference lines, one a line.
labels() {
	awk '{ sub(/\r$/, "") } { for (i = 1; i < NF - 1; i++)
	    if ($i == "shmids" || $i == "shmids,") { print $(i + 1), $(i + 2)
	    break } }' "$1"
}

# blank FILE TH: FILE with each label, the prefix and valgrind's pid made
# the same.
blank() {
	sed -E -e "s/(shmids,?[ \t]+)[^ \t]+ [^ \t\r]+/\1LABEL/" \
	    -e "s/$P$2-/PREFIX-/g" -e 's/^==[0-9]+==/==PID==/' "$1"
}

# same_threads IN MODE ARGS...: shm-import ARGS on IN with each of
# $THREADS, all alike (see the top); the segments are removed after.
same_threads() {
	local in=$1 mode=$2 th l1 ln
	shift 2
	for th in $THREADS; do
		import "$th" "$in" "$mode" "$@"
	done
	labels "$T/o.1" > "$T/l.1"
	for th in $THREADS; do
		[ "$th" = 1 ] && continue
		is "$(cat "$T/s.$th")" "$(cat "$T/s.1")" "exit status, $th threads"
		blank "$T/e.$th" "$th" > "$T/be.$th"
		blank "$T/e.1" 1 > "$T/be.1"
		same_file "$T/be.1" "$T/be.$th"
		blank "$T/o.$th" "$th" > "$T/bo.$th"
		blank "$T/o.1" 1 > "$T/bo.1"
		same_file "$T/bo.1" "$T/bo.$th"
		labels "$T/o.$th" > "$T/l.$th"
		is "$(wc -l < "$T/l.$th")" "$(wc -l < "$T/l.1")" "segments, $th threads"
		while IFS='|' read -r l1 ln; do
			is "$(shmtool cmp "$l1" "$ln")" same "payload of $ln"
			is "$(shmtool shape "$ln")" "$(shmtool shape "$l1")" "shape of $ln"
		done < <(paste -d '|' "$T/l.1" "$T/l.$th")
	done
	for th in $THREADS; do
		timeout 60 "$BIN/shm-expand" -d < "$T/o.$th" > "$T/x.$th" ||
		    { echo "shm-expand -d failed, $th threads" >&2; return 1; }
		[ "$th" = 1 ] || same_file "$T/x.1" "$T/x.$th"
	done
	no_segments_named "$P"
}

# every MODE BACKEND: each type, wrapped, from a file or a pipe.
every() {
	local t n
	for t in f64 f32 i64 i32 raw; do
		case $t in
		raw) n=500000 ;; i32|f32) n=150000 ;; *) n=100000 ;;
		esac
		gen "$t" "$n" 13 "$RANDOM" > "in.$t"
		same_threads "in.$t" "$1" -t "$t"
		is "$(wc -l < "$T/o.1")" 1 "$t: one reference line"
	done
}

@test "6.2: threads: every type, wrapped, from a regular file: as on one thread" {
	every file
}

@test "6.2: threads: every type, wrapped, through a pipe: as on one thread" {
	every pipe
}

@test "6.2: threads: every type, file segments (SHMIDS_DIR), file and pipe: as on one thread" {
	local t
	fdir
	for t in f64 i32 raw; do
		gen "$t" 200000 9 "$RANDOM" > "in.$t"
		same_threads "in.$t" file -t "$t"
		same_threads "in.$t" pipe -t "$t"
	done
	[[ $(labels "$T/o.1") == "$D"/* ]]
}

@test "6.2: threads: one long line of values (no wrap), every type, both backends" {
	local t
	for t in f64 f32 i64 i32 raw; do
		gen "$t" 120000 0 "$RANDOM" > "in.$t"
		same_threads "in.$t" file -t "$t"
	done
	fdir
	same_threads in.f64 pipe -t f64
}

@test "6.2: threads: CRLF, tabs and uneven wraps, text around, several arrays and continuation at the end" {
	{
		echo "# a header line /"
		gen f64 90000 7 1 a
		echo "between a and b"
		gen f64 60000 31 2 b | sed 's/ /\t/3; s/$/\r/'
		gen i32 300000 200 3 c
		printf 'last line, no newline'
	} > in
	same_threads in file -t c=i32
	same_threads in pipe -t c=i32
	is "$(wc -l < "$T/o.1")" 5 "lines out"
	# the last array continued on the file's last line
	gen f64 80000 5 4 z | sed '$ s/$/ \//' > end
	same_threads end file
	printf 'x %s' "$(seq -s ' ' 1 200000)" > nonl
	same_threads nonl pipe
}

# A regular file's long array is read in blocks of 1 MiB by offset
# (cmd/import/engine.c), cut where a line or a token begins: long lines of 60
# and 200 KiB, and blocks that end anywhere in a line.
@test "6.2: threads: continuation lines of 60 KiB and of 200 KiB, blocks cut anywhere: as on one thread" {
	gen f64 60000 2600 41 a > in
	gen f64 40000 9000 42 b >> in
	gen i32 400000 7 43 c >> in
	printf 'after\n' >> in
	same_threads in file -t c=i32
	is "$(grep -c shmids "$T/o.1")" 3 "arrays converted"
	# an array that ends in its first block, its last line cut anywhere
	for n in 1048576 1048577 1048580; do
		{ printf 'x'; seq -f ' %.0f /' 1 300000; } | head -c "$n" |
		    sed '$ s/ *\/* *$//' > in
		printf '\ny 1 2\n' >> in
		same_threads in file
	done
}

# The lines counted ahead of a long array (cmd/import/engine.c)
# ended at a read that held only the file's last line, continued and
# without its LF (a long one: the block reading leaves it to them): its
# values went uncounted, and the array that one thread converts was "a
# file that changed".
@test "6.2: threads: an array whose continued last line ends the file without LF: as on one thread" {
	local n
	for n in 40000 9000 20; do
		{
			printf 'a'
			seq -f ' %.0f /' 1 150000
			seq -s ' ' 1 "$n" | tr -d '\n'
			printf ' /'
		} > in
		same_threads in file
		is "$(cat "$T/s.2") $(cat "$T/e.2")" "0 " "status, stderr, $n values last"
	done
}

@test "6.2: threads: bad values near the start, in the middle, at the end, twice: the first reported, as on one thread" {
	local n
	gen f64 90000 6 5 a > in
	gen f64 90000 6 6 b >> in
	gen f64 90000 6 7 c >> in
	gen f64 90000 6 8 d >> in
	gen f64 90000 6 9 e >> in
	n=15000
	put 3 x in			# a: early, a line at a time
	put $((n + 13001)) 1e999 in	# b: out of range, in a run
	put $((2 * n + 9000)) oops in	# c: two, in runs
	put $((2 * n + 12001)) 1..2 in
	put $((4 * n)) 1,5 in		# d: its last line
	same_threads in file -f a,b,c,d,e
	is "$(cat "$T/s.1")" 1 "exit status"
	is "$(cat "$T/e.1")" "shm-import: stdin:3: a: bad value \"x\"
shm-import: stdin:28001: b: bad value \"1e999\"
shm-import: stdin:39000: c: bad value \"oops\"
shm-import: stdin:60000: d: bad value \"1,5\"" "stderr"
	is "$(grep -c shmids "$T/o.1")" 1 "e alone converted"
	# bad values everywhere: each array's first, whatever the threads
	for n in 2001 19567 39999 41000 74999; do
		put "$n" "bad$n" in
	done
	same_threads in pipe -f a,b,c,d,e
	same_threads in file
}

@test "6.2: threads: out of range values of every type, and 1.5 for i32: the first reported, as on one thread" {
	local t mode=file
	for t in f32:1e39 i32:2147483648 i64:9223372036854775808 raw:256 i32:1.5; do
		gen "${t%%:*}" 150000 10 11 > in
		put 11000 "${t#*:}" in
		put 13000 "${t#*:}" in
		same_threads in "$mode" -f a -t "${t%%:*}"
		is "$(cat "$T/e.1")" "shm-import: stdin:11000: a: bad value \"${t#*:}\""
		mode=pipe
	done
	same_threads in file -t i32
}

@test "6.2: threads: short arrays pass through or convert as on one thread; -k, -m, -t field=type, -f, tables" {
	{
		for n in 3 10 63 64 100 1000; do
			printf 's%d %s\n' "$n" "$(seq -s ' ' 1 "$n")"
			printf 'w%d 1 2 /\n 3 4 /\n' "$n"
			seq -s ' ' 1 "$n"
		done
		gen i64 100000 8 12 big
		LC_ALL=C awk 'BEGIN { srand(3); for (i = 0; i < 100000; i++)
		    printf "%d %.6f %d\n", i, rand(), -i }'
		echo "text"
		gen f32 100000 8 13 g
	} > in
	same_threads in file
	same_threads in pipe -k 100 -m 0640 -t big=i64 -t g=f32
	same_threads in file -f big,s10,w3
	same_threads in file -k 100000000
	is "$(sed -n 1p "$T/e.1")" "shm-import: no table converted: the largest, stdin:12525 (100000x3, 300000 values), has fewer than -k 100000000; -k 300000 converts it"
}

@test "6.2: threads: SHMIDS_THREADS not a number from 1 to 256 is a usage error, exit 2, nothing read" {
	local v
	for v in 0 257 x -1 " 2" 2x +2 1000000000000000000000; do
		run --separate-stderr env SHMIDS_THREADS="$v" \
		    "$BIN/shm-import" -P "$P" <<< "a $(seq -s ' ' 1 100)"
		status_is 2
		is "$output" ""
		is "${stderr%%$'\n'*}" "shm-import: invalid SHMIDS_THREADS '$v' (expected a number of threads from 1 to 256, or unset for every CPU)"
	done
	no_segments_named "$P"
	for v in 1 256 ""; do
		run env SHMIDS_THREADS="$v" "$BIN/shm-import" -k 1000 <<< "a 1 2"
		status_is 0
		is "$output" "a 1 2"
	done
}

# Removing a segment reads its header through an attach of its own: a
# process short of address space, the segment still mapped, could not,
# and forgot it (a block's buffer that could not be had sent the array
# the other way after its segment was made).
@test "6.2: threads: under any memory limit (ulimit -v) a long array converts, or fails and no segment stays, output failing too" {
	local th lim low st ok=0 bad=0
	ldd "$BIN/shm-import" | grep -q 'libasan\|libtsan' &&
	    skip "a sanitizer reserves more address space than any limit here"
	[ -z "${SHMIDS_VALGRIND:-}" ] || skip "valgrind needs more address space"
	gen f64 1000000 7 51 x > in
	# try LIMIT TH: shm-import under ulimit -v LIMIT (KiB); its status
	try() {
		st=0
		(ulimit -v "$1" && SHMIDS_THREADS=$2 "$BIN/shm-import" \
		    -P "$P" < in > out 2> err) || st=$?
		if [ "$st" = 0 ]; then
			ok=$((ok + 1))
			is "$(labels out | wc -l)" 1 "$2 threads, ulimit -v $1: a segment"
			"$BIN/shm-rm" "$(labels out)"
		else
			bad=$((bad + 1))
			is "$st" 1 "$2 threads, ulimit -v $1: exit status"
		fi
		no_segments_named "$P" ||
		    { echo "$2 threads, ulimit -v $1: $(cat err)" >&2; return 1; }
	}
	# full LIMIT TH: the same, its output to /dev/full, flushed as the
	# reference line is written (a line of 4095 bytes first): exit 1
	full() {
		st=0
		(ulimit -v "$1" && SHMIDS_THREADS=$2 "$BIN/shm-import" \
		    -P "$P" < in2 > /dev/full 2> err) || st=$?
		is "$st" 1 "$2 threads, ulimit -v $1, /dev/full: exit status"
		no_segments_named "$P" ||
		    { echo "$2 threads, ulimit -v $1, /dev/full: $(cat err)" >&2; return 1; }
	}
	{ printf '%4094s\n' '#'; cat in; } > in2
	for th in 1 2; do
		# the least that converts, then every 250 KiB below it: where
		# the segment can be made and what comes after it cannot
		for low in $(seq 4000 2000 400000); do
			try "$low" "$th"
			[ "$st" = 0 ] && break
		done
		# (one thread parses in place too: the least may be low)
		for lim in $(seq $((low > 20000 ? low - 16000 : 4000)) 250 "$low"); do
			try "$lim" "$th"
		done
		# and above it, where the segment is made but output fails
		for lim in $(seq "$low" 500 $((low + 16000))); do
			full "$lim" "$th"
		done
	done
	[ "$ok" -gt 0 ] && [ "$bad" -gt 0 ] ||
	    { echo "no limit tells: $ok converted, $bad failed" >&2; false; }
}

@test "6.2: threads: SIGTERM while long arrays are read on threads: dies of it, every segment gone, at once" {
	local i pid st=0
	for i in 1 2 3 4 5 6; do
		gen f64 150000 8 "$i" "a$i"
	done > in
	mkfifo fifo
	{ cat in; exec sleep 60; } > fifo &
	echo $! >> "$T/.pids"
	SHMIDS_THREADS=2 "$BIN/shm-import" -P "$P" < fifo > out 2> err &
	pid=$!
	echo "$pid" >> "$T/.pids"
	for i in $(seq 200); do
		[ "$(awk '$1 == "rchar:" { print $2 }' "/proc/$pid/io")" -gt \
		    9000000 ] && break
		sleep 0.05
	done
	kill -TERM "$pid"
	# at once: long before the writer's 60 s (5 s for a loaded machine)
	for i in $(seq 100); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	kill -0 "$pid" 2>/dev/null && { echo "still running 5 s after SIGTERM" >&2; false; }
	wait "$pid" || st=$?
	is "$st" 143 "exit status"
	is "$(cat err)" "" "stderr"
	no_segments_named "$P"
}

@test "6.2: threads: a file that shrinks before a long array's lines are read again: error, no segment stays" {
	local so=$BATS_TEST_DIRNAME/../${SHMIDS_BUILD:-build}/tests/preload/shrinkpread.so
	[ -f "$so" ] || { echo "$so missing: make check builds it" >&2; false; }
	{ printf 'a 1 2\n'; gen f64 200000 8 21 x; } > in
	put 20000 bad in
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
	status=0
	LD_PRELOAD=$so SHMIDS_SHRINK=$T/in SHMIDS_SHRINK_BELOW=100 \
	    SHMIDS_THREADS=2 "$BIN/shm-import" -f a,x -P "$P" in > out 2> err ||
	    status=$?
	status_is 1
	printf 'shm-import: in:20000: x: bad value "bad"\nshm-import: in:2: the file shrank while it was read: its lines cannot be copied unchanged\n' |
	    same_file /dev/stdin err
	no_segments_named "$P"
}

# A long array of a regular file is counted first, its segment made, then
# its lines read again and parsed into it (format-spec.md 6.2): a file
# that changed between the two readings (shrank, or a value split in
# two) cannot fill it as counted.
@test "6.2: threads: a file that changes between a long array's count and its parse: error, no segment stays" {
	local so=$BATS_TEST_DIRNAME/../${SHMIDS_BUILD:-build}/tests/preload/shrinkpread.so
	[ "$(nproc)" -gt 1 ] || skip "one CPU: no second thread"
	{ printf 'a 1 2\n'; gen f64 200000 8 21 x; } > in
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
	status=0
	LD_PRELOAD=$so SHMIDS_SHRINK=$T/in SHMIDS_THREADS=2 "$BIN/shm-import" \
	    -f a,x -P "$P" in > out 2> err || status=$?
	status_is 1
	is "$(cat err)" "shm-import: in:2: x: the file changed while it was read: its values are not those counted"
	no_segments_named "$P"
	# without the shim: the same file converts, on threads as on one
	same_threads in file -f a,x
	is "$(cat "$T/s.2") $(cat "$T/e.2")" "0 " "status, stderr"
}

# A long array whose last line ends the file without LF, the file then
# appended to between the count and the parse (format-spec.md 6.2): the
# line counted to the file's end goes on, its text in neither segment
# nor output: an error, as for other changes, no segment stays.
@test "6.2: threads: a file whose long array's last line, without LF, grows between its count and its parse: error, no segment stays" {
	local so=$BATS_TEST_DIRNAME/../${SHMIDS_BUILD:-build}/tests/preload/shrinkpread.so
	local w th
	[ -f "$so" ] || { echo "$so missing: make check builds it" >&2; false; }
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
	for w in 8 0; do
		gen f64 200000 "$w" 23 x | head -c -1 > in.$w
		for th in 1 2; do
			cp "in.$w" in
			status=0
			LD_PRELOAD=$so SHMIDS_SHRINK=$T/in SHMIDS_GROW=' 1 2 3 /
more 5
' SHMIDS_THREADS=$th "$BIN/shm-import" -P "$P" in > out 2> err ||
			    status=$?
			status_is 1
			is "$(cat err)" "shm-import: in:1: x: the file changed while it was read: its values are not those counted" "wrap $w, $th threads"
			no_segments_named "$P"
		done
	done
}

# first_alone IN EXP VALS: IN, whose first line is long (read in parts:
# a pipe's, or a regular file's that the file's engine gives up on),
# converts with -k 1 from a file as from a pipe, on one thread or two:
# exit 0, nothing said, the output (labels blanked) printf's EXP, the
# expansions alike and beginning VALS; EXP empty: IN passes unchanged.
first_alone() {
	local th m
	for th in 1 2; do
		for m in file pipe; do
			import "$th" "$1" "$m" -k 1
			is "$(cat "$T/s.$th") $(cat "$T/e.$th")" "0 " "$1, $m, $th threads"
			if [ -n "$2" ]; then
				printf "$2" > want
				blank "$T/o.$th" "$th" | same_file want /dev/stdin
			else
				same_file "$1" "$T/o.$th"
			fi
			"$BIN/shm-expand" -d < "$T/o.$th" > "x.$m.$th"
		done
		same_file "x.file.$th" "x.pipe.$th"
		is "$(head -c ${#3} "x.file.$th")" "$3" "$1: values"
	done
	no_segments_named "$P"
}

# z N C: N bytes C.
z() {
	head -c "$1" /dev/zero | tr '\0' "$2"
}

# A long first line that the file's engine gives up on (a token of
# MiBs, on it or on a continuation line), read whole after all: its
# reference line holds no rest of it (format-spec.md 6.2).
@test "6.2: threads: a regular file's long first line with a token of MiBs on it or on a continuation line: its reference line alone, as from a pipe" {
	{ printf 'x 1 2 '; z 2097152 0; printf '1 3 4\nnext line\n'; } > in.1
	first_alone in.1 'x shmids LABEL\nnext line\n' 'x 1 2 1 3 4'
	{ printf 'x %s /\n 1 2 ' "$(seq -s ' ' 0 199999)"; z 2500000 0
	    printf '1 3 4\nnext line\n'; } > in.2
	first_alone in.2 'x shmids LABEL\nnext line\n' 'x 0 1 2 3'
}

# A pipe's long first line is read in pieces cut where a token begins
# (format-spec.md 6.2): a token or run of blanks longer than a piece
# (4 MiB) reads as from a file, values or text, and never spins.
@test "6.2: threads: a pipe's long first line with a token or run of blanks of 5 MB: as from a file, no endless loop" {
	{ printf 'x 1 2 '; z 5000000 ' '; printf '1 3 4\nnext line\n'; } > in.3
	first_alone in.3 'x shmids LABEL\nnext line\n' 'x 1 2 1 3 4'
	{ printf 'x 1 2 '; z 5000000 0; printf '1 3 4\nnext line\n'; } > in.4
	first_alone in.4 'x shmids LABEL\nnext line\n' 'x 1 2 1 3 4'
	# 1e5000000: out of the range of f64, the line is text
	{ printf 'x 1 2 1'; z 5000000 0; printf ' 3 4\nnext line\n'; } > in.5
	first_alone in.5 '' ''
}

# A long first line's end, read in parts, is a short line's (format-spec.md
# 6): CR LF, LF or a last CR; CRs before a CR LF go with the values.
@test "6: threads: a long first line ending in CR CR LF, or in a last CR after 9 MB of tabs: the reference line's end as a short line's, from a file and a pipe" {
	printf 'x %s\r\r\nnext line\n' "$(seq -s ' ' 0 299999)" > in.6
	first_alone in.6 'x shmids LABEL\r\nnext line\n' 'x 0 1 2 3'
	{ printf 'x 1 2 '; z 9000000 '\t'; printf '3\r'; } > in.7
	first_alone in.7 'x shmids LABEL\r' 'x 1 2 3'
}

# A writer that sends an array whole, then waits (a simulation between
# two outputs, a program that reads the reference line back): the array
# is converted once its last line came, as on one thread, not when
# enough text for a run came after it, or the end.
@test "6.2: threads: a long array through a pipe that then stays silent: its segment made at once, as on one thread" {
	local t i pid
	gen f64 150000 8 31 a > in
	for t in 1 2; do
		mkfifo "fifo$t"
		{ cat in; exec sleep 60; } > "fifo$t" &
		echo $! >> "$T/.pids"
		SHMIDS_THREADS=$t "$BIN/shm-import" -P "$P$t." < "fifo$t" \
		    > /dev/null &
		pid=$!
		echo "$pid" >> "$T/.pids"
		for i in $(seq 100); do
			[ -n "$("$SHMTOOL" find "$P$t.a")" ] && break
			sleep 0.05
		done
		[ -n "$("$SHMTOOL" find "$P$t.a")" ] || {
			echo "SHMIDS_THREADS=$t: no segment 5 s after the array" >&2
			return 1
		}
		kill -TERM "$pid"
		wait "$pid" || true
		no_segments_named "$P$t."
	done
}

# One long line (Fortran's print *) is cut at its blanks and never held
# whole, from a regular file (read by offset) or a pipe (in pieces):
# peak RSS no more than for the same values wrapped on many lines
# (format-spec.md 6.2, 7; issue 31.2).  The text is 45 MB, the segment
# 16 MB.
@test "6.2: memory: one long line of 2000000 values costs no more than the same values on many lines, from a file or a pipe, on one thread or all" {
	local th mode w rss
	[ -z "${SHMIDS_VALGRIND:-}" ] || skip "valgrind's own memory"
	ldd "$BIN/shm-import" | grep -q 'libasan\|libtsan' &&
	    skip "a sanitizer's shadow memory"
	gen f64 2000000 0 41 > in.0
	gen f64 2000000 9 41 > in.9
	for th in 1 d; do
		for mode in file pipe; do
			for w in 9 0; do
				if [ "$th" = 1 ]; then
					export SHMIDS_THREADS=1
				else
					unset SHMIDS_THREADS
				fi
				if [ "$mode" = file ]; then
					"$SHMTOOL" maxrss "$BIN/shm-import" -P "$P" \
					    "in.$w" > out 2> err || true
				else
					cat "in.$w" | "$SHMTOOL" maxrss \
					    "$BIN/shm-import" -P "$P" > out 2> err ||
					    true
				fi
				unset SHMIDS_THREADS
				is "$(cat err)" "" "$th $mode $w: stderr"
				is "$(head -n 1 out | cut -d' ' -f1,2)" "a shmids" \
				    "$th $mode $w: a reference line"
				"$BIN/shm-rm" "$(labels out)"
				rss[$w]=$(tail -n 1 out)
			done
			[ "${rss[0]}" -le $((rss[9] + 8192)) ] || {
				echo "$th $mode: ${rss[0]} kB for one line, ${rss[9]} kB for many" >&2
				false
			}
			# from a file, well under the text's 45 MB
			[ "$mode" = pipe ] || [ "${rss[0]}" -lt 40000 ] || {
				echo "$th file: ${rss[0]} kB for one line" >&2
				false
			}
		done
	done
	no_segments_named "$P"
}

# A bad value at the end of one long line: the first line is text
# (format-spec.md 6), named on line 1, and passes through unchanged,
# read in pieces (a pipe) or by offset (a file) whatever the threads.
@test "6.2: threads: a bad value at the end of one long line of 4 MB, from a file or a pipe: line 1 named, the text unchanged" {
	local th
	gen f64 200000 0 43 a | sed '1s/$/ bad 7/' > in
	printf 'b 1 2 3\n' >> in
	for th in $THREADS; do
		import "$th" in file -f a
		is "$(cat "$T/s.$th") $(cat "$T/e.$th")" \
		    '1 shm-import: stdin:1: a: bad value "bad"' "file, $th threads"
		same_file in "$T/o.$th"
		import "$th" in pipe -f a
		is "$(cat "$T/s.$th") $(cat "$T/e.$th")" \
		    '1 shm-import: stdin:1: a: bad value "bad"' "pipe, $th threads"
		same_file in "$T/o.$th"
	done
	no_segments_named "$P"
}

# trickle_same IN ARGS...: IN through a pipe written in small pieces
# reads as IN from a file, on every number of threads.
trickle_same() {
	local in=$1 th
	shift
	for th in $THREADS; do
		import "$th" "$in" file "$@"
		mv "$T/o.$th" "$T/fo.$th"
		mv "$T/e.$th" "$T/fe.$th"
		mv "$T/s.$th" "$T/fs.$th"
		import "$th" "$in" trickle "$@"
		is "$(cat "$T/s.$th")" "$(cat "$T/fs.$th")" "exit status, $th threads"
		same_file "$T/fe.$th" "$T/e.$th"
		blank "$T/fo.$th" "$th" > "$T/bf.$th"
		blank "$T/o.$th" "$th" > "$T/bo.$th"
		same_file "$T/bf.$th" "$T/bo.$th"
		"$BIN/shm-expand" -d < "$T/fo.$th" > "$T/fx.$th"
		"$BIN/shm-expand" -d < "$T/o.$th" > "$T/x.$th"
		same_file "$T/fx.$th" "$T/x.$th"
	done
	no_segments_named "$P"
}

@test "6, 6.2: threads: a pipe written a byte at a time, then in small writes: CR LF, a bad value on a continued line, a long first line, no final LF, as from a file" {
	printf 't 1\r\na %s /\r\n%s /\r\n%s\nb 1 2 x /\n3 4\nc 5 6 /\n7' \
	    "$(seq -s ' ' 1 80)" "$(seq -s ' ' 81 160)" \
	    "$(seq -s ' ' 161 240)" > small
	TRICKLE=1 trickle_same small -k 3
	is "$(grep -c shmids "$T/o.1")" 2 "a and c converted"
	TRICKLE=1 trickle_same small -f a,b,c
	is "$(cat "$T/s.1") $(cat "$T/e.1")" \
	    '1 shm-import: stdin:5: b: bad value "x"' "b's bad value"
	gen f64 200000 0 51 a | sed 's/$/\r/' > in
	gen f64 90000 6 52 b >> in
	put 12000 oops in
	gen f64 9000 6 53 c >> in
	printf 'd 1 2 3' >> in
	TRICKLE=4093 trickle_same in -k 5
	TRICKLE=4093 trickle_same in -f a,b,c,d
	is "$(cat "$T/e.1")" 'shm-import: stdin:12000: b: bad value "oops"' \
	    "b's bad value"
}

# A pipe's kept lines past 4 MiB go to an unlinked file in TMPDIR (a
# directory of this test's own here): a bad value at a long array's end
# still lets every line through unchanged, and the file is gone after.
@test "7: a pipe's long array of 25 MB with a bad value on its last line: its lines pass through unchanged, spilled to TMPDIR and gone" {
	local th n
	gen f64 1000000 8 47 x > in
	n=$(wc -l < in)
	put "$n" bad in
	mkdir tmp
	for th in 1 d; do
		TMPDIR=$PWD/tmp import "$th" in pipe -f x
		is "$(cat "$T/s.$th") $(cat "$T/e.$th")" \
		    "1 shm-import: stdin:$n: x: bad value \"bad\"" "$th threads"
		same_file in "$T/o.$th"
		is "$(ls -A tmp)" "" "nothing left in TMPDIR"
		# no TMPDIR to spill to: kept in memory, the same output
		TMPDIR=$PWD/none import "$th" in pipe -f x
		is "$(cat "$T/s.$th")" 1 "$th threads, no TMPDIR"
		same_file in "$T/o.$th"
	done
	no_segments_named "$P"
}

# The file in TMPDIR that a pipe's long array was kept in cannot be read
# back (an EIO of its pread(2), tests/preload/failspill.c): to parse the
# values, or to pass a bad array through; or it is read back changed
# (format-spec.md 6.2: as many values as counted).  Said as such, every
# segment removed, exit 1.
@test "7: a pipe's long array whose kept lines cannot be read back from TMPDIR: said, exit 1, no segment stays" {
	local so=$BATS_TEST_DIRNAME/../${SHMIDS_BUILD:-build}/tests/preload/failspill.so
	[ -f "$so" ] || { echo "$so missing: make check builds it" >&2; false; }
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
	{ printf 'a 1 2\n'; gen f64 700000 8 48 x; } > in
	[ "$(wc -c < in)" -gt 8000000 ]
	mkdir tmp
	LD_PRELOAD=$so TMPDIR=$PWD/tmp import 1 in pipe -f a,x
	is "$(cat "$T/s.1")" 1 "exit status, the parse"
	grep -q '^shm-import: stdin:2: x: its lines, kept in a file in TMPDIR, could not be read back: ' "$T/e.1"
	put 100 bad in
	LD_PRELOAD=$so SHMIDS_FAILSPILL_AFTER=3 TMPDIR=$PWD/tmp \
	    import 1 in pipe -f a,x
	is "$(cat "$T/s.1")" 1 "exit status, the pass through"
	grep -q '^shm-import: stdin:100: x: bad value "bad"$' "$T/e.1"
	grep -q '^shm-import: stdin:2: its lines, kept in a file in TMPDIR, could not be read back: ' "$T/e.1"
	# read back, but not as counted (2.5 become 2 and 5), well past
	# where the read-back begins
	put 100 1 in
	put 20000 2.5 in
	LD_PRELOAD=$so SHMIDS_FAILSPILL_SPLIT=1 TMPDIR=$PWD/tmp \
	    import 1 in pipe -f a,x
	is "$(cat "$T/s.1")" 1 "exit status, the text changed"
	is "$(cat "$T/e.1")" "shm-import: stdin:2: x: its lines, kept in a file in TMPDIR, changed while they were read back: its values are not those counted" \
	    "the text changed"
	# the same in a long first line, continued (read back on its own)
	awk 'BEGIN { printf "y"; for (i = 0; i < 1000000; i++)
	    printf " %s", i == 700000 ? "2.5" : i + 0.25; print " /"
	    print "  1 2" }' > first
	LD_PRELOAD=$so SHMIDS_FAILSPILL_SPLIT=1 TMPDIR=$PWD/tmp \
	    import 1 first pipe -f y
	is "$(cat "$T/s.1")" 1 "exit status, a first line changed"
	is "$(cat "$T/e.1")" "shm-import: stdin:1: y: its lines, kept in a file in TMPDIR, changed while they were read back: its values are not those counted" \
	    "a first line changed"
	is "$(ls -A tmp)" "" "nothing left in TMPDIR"
	no_segments_named "$P"
}
