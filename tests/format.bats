#!/usr/bin/env bats
# The segment's bytes as format-spec.md 2.1, 3 and 4 lay them out, read
# from file segments (SHMIDS_DIR), whose bytes a shell can see: the
# sections no tool's test file is the home of.

load helper

# import VALUES TYPE: a file segment of the values, its path on stdout
import() {
	local out
	out=$(printf 'x %s\n' "$1" |
	    SHMIDS_DIR=$T timeout 30 "$BIN/shm-import" -P "$P" -k 1 -t "$2") ||
	    return 1
	set -- $out
	printf '%s\n' "$3"
}

# order: le or be, as this machine stores an int
order() {
	[ "$(printf '\001\000' | od -An -tu2 | tr -d ' ')" = 1 ] && echo le ||
	    echo be
}

@test "2.1: the payload starts at byte 128 and holds count elements of the type, packed: the file is 128 + count x size bytes" {
	local f
	f=$(import "1 2 3" i32)
	is "$(stat -c %s "$f")" $((128 + 3 * 4)) "size"
	is "$(od -An -td4 -j 128 "$f" | tr -s ' ' | sed 's/^ //; s/ $//')" "1 2 3" "values"
	is "$(head -c 128 "$f" | tail -c +96 | head -c 20)" 00000000000000000003 "count"
}

@test "3: the order field says the byte order the payload is in, this machine's" {
	local f
	f=$(import "258" i32)
	is "$(head -c 94 "$f" | tail -c 2)" "$(order)" "order"
	if [ "$(order)" = le ]; then
		is "$(od -An -tx1 -j 128 "$f" | tr -d ' ')" 02010000 "bytes"
	else
		is "$(od -An -tx1 -j 128 "$f" | tr -d ' ')" 00000102 "bytes"
	fi
}

@test "4: each element type's name in the header and size in the payload: f64 8, f32 4, i64 8, i32 4, raw 1" {
	local t s f
	for t in f64:8 f32:4 i64:8 i32:4 raw:1; do
		s=${t#*:}
		t=${t%:*}
		f=$(import "1 2 3 4 5" "$t")
		is "$(head -c 91 "$f" | tail -c 3)" "$t" "$t: type field"
		is "$(stat -c %s "$f")" $((128 + 5 * s)) "$t: size"
	done
	# the contents: IEEE binary64 and binary32, two's complement, bytes
	f=$(import "-1.5" f64)
	is "$(od -An -tf8 -j 128 "$f" | tr -d ' ')" "-1.5" "f64"
	f=$(import "-1.5" f32)
	is "$(od -An -tf4 -j 128 "$f" | tr -d ' ')" "-1.5" "f32"
	f=$(import "-2" i64)
	is "$(od -An -td8 -j 128 "$f" | tr -d ' ')" "-2" "i64"
	f=$(import "255" raw)
	is "$(od -An -tu1 -j 128 "$f" | tr -d ' ')" "255" "raw"
}
