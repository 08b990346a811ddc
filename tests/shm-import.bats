#!/usr/bin/env bats
# shm-import: inline arrays become segments and reference lines
# (format-spec.md 5, 6, 7).

load helper

SYNOPSIS='shm-import [-f fields] [-k min] [-m mode] [-P prefix] [-t [field=]type] [--stream[=slots]] [file ...]'

# refline FIELD: the pattern of the reference line shm-import writes for
# FIELD with -P "$P".
refpat() {
	printf '%s shmids [0-9]* %s%s' "$1" "$P" "$1"
}

@test "7: shm-import -h: usage on stdout, exit 0" {
	run --separate-stderr shm_import -h
	status_is 0
	usage_has "$SYNOPSIS" "$output"
	is "$stderr" ""
}

@test "7: shm-import: bad options and option arguments: what is wrong, then usage, exit 2" {
	local types="type or field=type, type one of f64, f32, i64, i32 or raw"
	local prefix="at most 63 printable ASCII characters other than space"
	local count="0 or more values"
	bad_args shm-import "$SYNOPSIS" <<-EOF
	-x|invalid option -- 'x'
	-t|option requires an argument -- 't'
	-f|option requires an argument -- 'f'
	--fields|option '--fields' requires an argument
	--fields=x --mode=999|invalid mode '999' (expected octal 0 to 0777)
	--jason|unrecognized option '--jason'
	-t f16|invalid type 'f16' (expected $types)
	-m 8|invalid mode '8' (expected octal 0 to 0777)
	-m abc|invalid mode 'abc' (expected octal 0 to 0777)
	-m 1600|invalid mode '1600' (expected octal 0 to 0777)
	-m -1|invalid mode '-1' (expected octal 0 to 0777)
	-k abc|invalid count 'abc' (expected $count)
	-k -1|invalid count '-1' (expected $count)
	-k 5x|invalid count '5x' (expected $count)
	-k 18446744073709551616|invalid count '18446744073709551616' (expected $count)
	-f 'a b'|invalid field list 'a b' (expected fields separated by commas: a,b)
	-P 'a b'|invalid prefix 'a b' (expected $prefix)
	-P \$'a\\tb'|invalid prefix 'a\\011b' (expected $prefix)
	-P $(printf 'p%.0s' {1..64})|invalid prefix '$(printf 'p%.0s' {1..64})' (expected $prefix)
	-n 5|-n is now -k (minimum count)
	-p x|-p is now -P (name prefix)
	-f x -n5|-n is now -k (minimum count)
	EOF
	no_segments_named "$P"
}

@test "1: shm-import -P: a prefix of 63 bytes is good, the name of 64 too" {
	local p63
	p63=${P}$(printf 'p%.0s' $(seq $((63 - ${#P}))))
	printf 'x 1 2\n' > in
	runio in shm_import -f x -P "$p63"
	status_is 0
	like "$(cat out)" "x shmids [0-9]* ${p63}x"
	err_is ""
}

@test "7: shm-import -f: converts the field, the segment holds the values" {
	printf 'title some text\nx 1 2 3.5\ny 4 5 6\n' > in
	runio in shm_import -f x -P "$P"
	status_is 0
	is "$(cat err)" "" "stderr"
	is "$(sed -n 1p out)" "title some text"
	like "$(sed -n 2p out)" "$(refpat x)"
	is "$(sed -n 3p out)" "y 4 5 6"
	is "$(wc -l < out)" 3 "lines"
	run shmtool open "$(label_of out)"
	status_is 0
	is "$output" "f64 3 6.5"
	run shmtool bits "$(label_of out)"
	is "$output" "3ff0000000000000 4000000000000000 400c000000000000"
}

@test "7: shm-import: without -f, lines of at least -k values (default 64), a field alone never" {
	local row n count conv fails=
	while read -r n count conv; do
		{ printf 'x'; seq 1 "$count" | tr '\n' ' ' | sed 's/^/ /; s/ $//'; printf '\n'; } > in
		if [ "$n" = default ]; then
			runio in shm_import -P "$P"
		else
			runio in shm_import -k "$n" -P "$P"
		fi
		[ "$status" = 0 ] || fails+="[-k $n, $count values: exit $status] "
		if [ "$conv" = yes ]; then
			[[ $(cat out) == $(refpat x) ]] || fails+="[-k $n, $count values: not converted] "
			[ "$(shmtool open "$(label_of out)")" = "f64 $count $((count * (count + 1) / 2))" ] ||
			    fails+="[-k $n, $count values: wrong segment] "
		else
			cmp -s in out || fails+="[-k $n, $count values: converted] "
		fi
	done <<-'EOF'
	default 64 yes
	default 63 no
	3 3 yes
	3 2 no
	1 1 yes
	0 1 yes
	0 0 no
	EOF
	is "$fails" "" "failures"
}

@test "7: shm-import: without -f, a line with a token that is not a value stays" {
	local line fails=
	while IFS= read -r line; do
		printf '%s\n' "$line" > in
		runio in shm_import -k 3 -t i32 -P "$P"
		[ "$status" = 0 ] || fails+="['$line': exit $status] "
		cmp -s in out || fails+="['$line': converted to $(cat out)] "
	done <<-'EOF'
	x 1 2 three
	x 1.5 2 3
	x 1 2 3 4294967296
	a shmids 12 name
	x 1 / 2 3
	x 1 2 3 /x
	EOF
	is "$fails" "" "failures"
	no_segments_named "$P"
}

@test "4: shm-import -t: each element type" {
	local type line want fails=
	while IFS='|' read -r type line want; do
		printf '%s\n' "$line" > in
		runio in shm_import -f x -t "$type" -P "$P"
		[ "$status" = 0 ] || fails+="[$type: exit $status $(cat err)] "
		[ "$(shmtool open "$(label_of out)")" = "$want" ] ||
		    fails+="[$type: got $(shmtool open "$(label_of out)")] "
	done <<-'EOF'
	f64|x 0.5 1.5 -3|f64 3 -1
	f32|x 0.5 1.5 -3|f32 3 -1
	i64|x -9223372036854775807 9223372036854775807 5|i64 3 5
	i32|x -2147483648 2147483647 1|i32 3 0
	raw|x 0 255 3|raw 3 258
	EOF
	is "$fails" "" "failures"
}

@test "6: shm-import -t field=type: doubles and an i32 mask in one run, exact round trip" {
	local l fails=
	printf 'title run 7\nx 0.1 -2.5e-300 3 1.7976931348623157e+308\nmask 1 0 -2147483648 2147483647\ny 1 2\n' > in
	runio in shm_import -f x,mask,y -t f64 -t mask=i32 -t y=f32 -P "$P"
	status_is 0
	err_is ""
	is "$(grep -c ' shmids ' out)" 3 "reference lines"
	l=$(grep '^x ' out | label_of)
	is "$(shmtool open "$l" | cut -d' ' -f 1,2)" "f64 4" "x"
	l=$(grep '^mask ' out | label_of)
	is "$(shmtool open "$l" | cut -d' ' -f 1,2)" "i32 4" "mask"
	l=$(grep '^y ' out | label_of)
	is "$(shmtool open "$l" | cut -d' ' -f 1,2)" "f32 2" "y"
	# shm-expand writes each segment back in its own type, to the same
	# text (the input is in its layout: shortest digits, one line)
	shm_expand -d < out > back
	same_file in back
	no_segments_named "$P"
}

@test "4: shm-import -t: a bare type for the fields not named; order does not matter" {
	local l
	printf 'a 1 2 3\nb 4 5 6\n' > in
	runio in shm_import -k 3 -t b=i64 -t i32 -P "$P"
	status_is 0
	is "$(shmtool open "$(grep '^a ' out | label_of)" | cut -d' ' -f 1)" i32 "a, the bare type"
	is "$(shmtool open "$(grep '^b ' out | label_of)" | cut -d' ' -f 1)" i64 "b, its own"
	runio in shm_import -k 3 -t b=i64 -P "${P}d"
	status_is 0
	is "$(shmtool open "$(grep '^a ' out | label_of)" | cut -d' ' -f 1)" f64 "a, the default"
}

@test "4: shm-import -t: a field named twice, two bare types, a bad type: usage errors" {
	local form="type or field=type, type one of f64, f32, i64, i32 or raw"
	bad_args shm-import "$SYNOPSIS" <<-EOF
	-t mask=i32 -t mask=i32|invalid type 'mask=i32' (expected type or field=type, each field once)
	-t m=i32 -t x=f32 -t m=f64|invalid type 'm=f64' (expected type or field=type, each field once)
	-t f64 -t i32|invalid type 'i32' (expected one -t without a field: field=type gives a field its own)
	-t mask=f16|invalid type 'mask=f16' (expected $form)
	-t =i32|invalid type '=i32' (expected $form)
	-t mask=|invalid type 'mask=' (expected $form)
	-t mask|invalid type 'mask' (expected $form)
	EOF
	no_segments_named "$P"
}

@test "6: shm-import: R's NA is a value of f64 and f32, with R's bits, and stays NA" {
	printf 'Ozone 41 36 12 18 NA 28\nw 1 NA\n' > in
	runio in shm_import -k 6 -P "$P"
	status_is 0
	is "$(cat err)" "" "stderr"
	like "$(sed -n 1p out)" "$(refpat Ozone)"
	is "$(sed -n 2p out)" "w 1 NA"
	run shmtool bits "$(label_of out)"
	is "$output" "4044800000000000 4042000000000000 4028000000000000 4032000000000000 7ff00000000007a2 403c000000000000"
	mv out refs
	runio refs shm_expand -d
	status_is 0
	same_file in out
	printf 'x NA 2\n' > in
	runio in shm_import -f x -t f32 -P "$P"
	status_is 0
	run shmtool bits "$(label_of out)"
	is "$output" "7f8007a2 40000000"
	runio in shm_import -k 2 -t i32 -P "$P"
	status_is 0
	same_file in out
}

@test "7: shm-import -f: a bad or out-of-range value is an error, lines unchanged" {
	local type line tok fails=
	while IFS='|' read -r type line tok; do
		printf 'a\n%s\nb\n' "$line" > in
		runio in shm_import -f x -t "$type" -P "$P"
		[ "$status" = 1 ] || fails+="[$type '$line': exit $status] "
		cmp -s in out || fails+="[$type '$line': stdout $(cat out)] "
		[ "$(cat err)" = "shm-import: stdin:2: x: bad value \"$tok\"" ] ||
		    fails+="[$type '$line': stderr $(cat err)] "
	done <<-'EOF'
	f64|x 1 2 three|three
	f64|x 1 1e309|1e309
	f64|x 1 0x|0x
	f32|x 1 1e39|1e39
	i64|x 9223372036854775808|9223372036854775808
	i64|x -9223372036854775809|-9223372036854775809
	i32|x 2147483648|2147483648
	i32|x -2147483649|-2147483649
	i32|x 1.5|1.5
	raw|x 256|256
	raw|x -1|-1
	f64|x 1 -NA|-NA
	f64|x 1 na|na
	i64|x 1 NA|NA
	i32|x NA 1|NA
	raw|x 1 NA|NA
	EOF
	is "$fails" "" "failures"
	no_segments_named "$P"
}

@test "7: shm-import: continuation lines make one array" {
	printf 'x 0 1 2 /\n      3 4\nnext line\n' > in
	runio in shm_import -f x -P "$P"
	status_is 0
	like "$(sed -n 1p out)" "$(refpat x)"
	is "$(sed -n 2p out)" "next line"
	is "$(wc -l < out)" 2 "lines"
	is "$(shmtool open "$(label_of out)")" "f64 5 10"
	runio in shm_import -k 5 -P "$P"
	status_is 0
	like "$(sed -n 1p out)" "$(refpat x)"
	is "$(shmtool open "$(label_of out)")" "f64 5 10"
}

@test "7: shm-import: a continuation at end of file ends the array there" {
	local input
	for input in 'x 1 2 /\n' 'x 1 2 /'; do
		printf "$input" > in
		runio in shm_import -f x -P "$P"
		status_is 0
		like "$(cat out)" "$(refpat x)"
		is "$(shmtool open "$(label_of out)")" "f64 2 3"
	done
}

@test "7: shm-import -f: several fields; fields not named stay even if long" {
	{
		printf 'a 1 2\n'
		printf 'b 3\n'
		printf 'c'; seq 1 100 | tr '\n' ' ' | sed 's/^/ /; s/ $//'; printf '\n'
	} > in
	runio in shm_import -f a,b -P "$P"
	status_is 0
	like "$(sed -n 1p out)" "$(refpat a)"
	like "$(sed -n 2p out)" "$(refpat b)"
	is "$(sed -n 3p out)" "$(sed -n 3p in)"
	is "$(shmtool open "$(sed -n 2p out | label_of)")" "f64 1 3"
}

@test "7: shm-import -f: a field with no values gives a segment of count 0" {
	printf 'x\n' > in
	runio in shm_import -f x -P "$P"
	status_is 0
	like "$(cat out)" "$(refpat x)"
	is "$(shmtool open "$(label_of out)")" "f64 0 0"
}

@test "7: shm-import: the line keeps its leading blanks, CRLF and missing newline" {
	printf '  x 1 2\r\n' > in
	runio in shm_import -f x -P "$P"
	status_is 0
	printf '  x shmids %s\r\n' "$(label_of out)" | same_file /dev/stdin out
	is "$(shmtool open "$(label_of out)")" "f64 2 3"
	printf 'x 1 2' > in
	runio in shm_import -f x -P "$P"
	status_is 0
	printf 'x shmids %s' "$(label_of out)" | same_file /dev/stdin out
}

@test "7: shm-import: other lines pass byte for byte (NUL, CR, no final newline)" {
	{
		printf 'nul\0bytes\0\n'
		printf 'crlf\r\n'
		printf 'a shmids 12 name\n'
		printf '\377\376 1 2 3\n'
		printf '\n'
		printf 'no newline 1 2 3'
	} > in
	runio in shm_import -k 2 -t i32 -P "$P" -f zz
	status_is 1
	err_is "shm-import: -f zz: no such field in the input"
	same_file in out
	no_segments_named "$P"
}

@test "2.4: shm-import -m: mode of new segments (default 0600)" {
	local mode got fails=
	printf 'x 1\n' > in
	for mode in default 640 644 0444; do
		if [ "$mode" = default ]; then
			runio in shm_import -f x -P "$P"
		else
			runio in shm_import -f x -P "$P" -m "$mode"
		fi
		got=$(ipcs -m | awk -v id="$(label_of out | cut -d' ' -f1)" '$2 == id { print $4 }')
		case $mode in default) mode=600 ;; 0*) mode=${mode#0} ;; esac
		[ "$got" = "$mode" ] || fails+="[-m $mode: got $got] "
	done
	is "$fails" "" "failures"
}

@test "1: shm-import -P: the name is prefix and field; without -P the field" {
	printf '%sfield 1 2\n' "$P" > in
	runio in shm_import -f "${P}field"
	status_is 0
	like "$(cat out)" "${P}field shmids [0-9]* ${P}field"
	runio in shm_import -f "${P}field" -P "${P}pre-"
	status_is 0
	like "$(cat out)" "${P}field shmids [0-9]* ${P}pre-${P}field"
}

@test "7: shm-import: named files and -, positions as file:line:" {
	printf 'a 1\n' > f1
	printf 'x\nx bad\n' > f2
	printf 'x 2\nx no\n' > f3
	runio f3 shm_import -f x -P "$P" f1 - f2
	status_is 1
	is "$(sed -n 1p out)" "a 1"
	like "$(sed -n 2p out)" "$(refpat x)"
	is "$(sed -n 3p out)" "x no"
	like "$(sed -n 4p out)" "$(refpat x)"
	is "$(sed -n 5p out)" "x bad"
	printf 'shm-import: stdin:2: x: bad value "no"\nshm-import: f2:2: x: bad value "bad"\n' |
	    same_file /dev/stdin err
}

@test "7: shm-import: a missing input file is reported, the others done" {
	printf 'x 1\n' > f1
	runio /dev/null shm_import -f x -P "$P" nosuchfile f1
	status_is 1
	like "$(cat out)" "$(refpat x)"
	err_is "shm-import: nosuchfile: No such file or directory"
}

@test "7: shm-import: a segment that cannot be made is an error, lines unchanged" {
	local long
	# A prefix of 63 bytes is good; with a field of two, too long.
	long=$(printf 'p%.0s' $(seq $((63 - ${#P}))))
	printf 'xx 1 2\nyy 3\n' > in
	runio in shm_import -f xx,yy -P "$P$long"
	status_is 1
	same_file in out
	printf 'shm-import: stdin:1: xx: segment name too long: the prefix (-P) and the field make more than 64 bytes\nshm-import: stdin:2: yy: segment name too long: the prefix (-P) and the field make more than 64 bytes\n' |
	    same_file /dev/stdin err
	printf 'x\001 1 2\n' > in
	runio in shm_import -f $'x\001' -P "$P"
	status_is 1
	same_file in out
	# A byte that is not printable is quoted as an octal escape.
	err_is 'shm-import: stdin:1: x\001: the field cannot be a segment name (printable ASCII only)'
}

@test "7: shm-import: output that cannot be written removes every segment made" {
	[ -w /dev/full ] || skip "no /dev/full"
	printf 'x 1 2\ny 3 4\n' > in
	status=0
	shm_import -f x,y -P "$P" < in > /dev/full 2> err || status=$?
	status_is 1
	like "$(cat err)" "shm-import: *No space left on device*" "stderr"
	no_segments_named "$P"
}

@test "8: shm-import: a line too long to read is an error; no segment stays" {
	need_limit shm-import
	printf 'a 1 2\n' > in
	bigline in
	printf 'b 3 4\n' >> in
	runio in under_limit "$BIN/shm-import" -f a,b -P "$P"
	status_is 1
	err_is "shm-import: stdin:2: cannot hold this line: out of memory (address space limited? see ulimit -v)"
	no_segments_named "$P"
	# The same in a continued array: not the end of the array.
	printf 'a 1 2\nb 1 2 /\n' > in
	bigline in
	printf '3\n' >> in
	runio in under_limit "$BIN/shm-import" -f a,b -P "$P"
	status_is 1
	err_is "shm-import: stdin:3: cannot hold this line: out of memory (address space limited? see ulimit -v)"
	no_segments_named "$P"
	rm -f in out
}

@test "7: shm-import: a bad value and a field are quoted up to 80 bytes" {
	local v
	v=$(head -c 1000 /dev/zero | tr '\0' v)
	printf 'x 1 %s\n%s 1 2 %s\n' "$v" "$v" "$v" > in
	runio in shm_import -f "x,$v" -P "$P"
	status_is 1
	same_file in out
	printf 'shm-import: stdin:1: x: bad value "%s..."\nshm-import: stdin:2: %s...: bad value "%s..."\n' \
	    "${v:0:80}" "${v:0:80}" "${v:0:80}" | same_file /dev/stdin err
	no_segments_named "$P"
}

# bigarray FILE LAST [TYPO]: a line, then array x of 200000 values over
# 25001 lines (CRLF, " /" continuations, 1.8 MB: more than one read),
# whose last token, on line 25002, is LAST, and whose value number TYPO
# (on line 2 + (TYPO - 1) / 8) is 1O0.5; then a line.
bigarray() {
	awk -v last="$2" -v typo="${3:-0}" 'BEGIN { printf "head\n  x"
		for (i = 1; i <= 200000; i++) {
			printf (i == typo ? " 1O0.5" : " %d.5"), i
			if (i % 8 == 0) printf " /\r\n   "
		}
		printf " %s\ntail\n", last }' > "$1"
}

# Issue 9: the lines of an array are no longer copied as they are read;
# a regular file's are read again, a pipe's kept in the read buffer.
@test "7: shm-import: an array longer than a read that fails at its end comes out byte for byte, from a file and a pipe" {
	bigarray in bad
	runio in shm_import -f x -P "$P"
	status_is 1
	err_is 'shm-import: stdin:25002: x: bad value "bad"'
	same_file in out
	status=0
	cat in | shm_import -f x -P "$P" > out 2> err || status=$?
	status_is 1
	err_is 'shm-import: stdin:25002: x: bad value "bad"'
	same_file in out
	runio in shm_import -k 1 -P "$P"
	status_is 0
	same_file in out
	no_segments_named "$P"
}

@test "7: shm-import: an array longer than a read converts whole, from a file and a pipe" {
	bigarray in 0.5
	runio in shm_import -f x -P "$P"
	status_is 0
	printf 'head\n  x shmids %s\r\ntail\n' "$(label_of out)" | same_file /dev/stdin out
	# 1.5 + 2.5 + ... + 200000.5, and 0.5
	is "$(shmtool open "$(label_of out)")" "f64 200001 20000200000.5"
	cat in | shm_import -f x -P "$P" > out
	is "$(shmtool open "$(label_of out)")" "f64 200001 20000200000.5"
	# and one line of 100000 values, longer than a read
	{ printf 'y '; seq 1 100000 | tr '\n' ' '; printf '\n'; } > in
	runio in shm_import -f y -P "$P"
	status_is 0
	is "$(shmtool open "$(label_of out)")" "f64 100000 5000050000"
}

@test "7: shm-import: an input file that shrinks before an array is read again: error, no segment stays" {
	local so=$BATS_TEST_DIRNAME/../${SHMIDS_BUILD:-build}/tests/preload/shrinkpread.so
	[ -f "$so" ] || { echo "$so missing: make check builds it" >&2; false; }
	bigarray big bad
	{ printf 'a 1 2\n'; cat big; } > in
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
	status=0
	LD_PRELOAD=$so SHMIDS_SHRINK=$T/in SHMIDS_SHRINK_BELOW=100 \
	    "$BIN/shm-import" -f a,x -P "$P" in > out 2> err || status=$?
	status_is 1
	printf 'shm-import: in:25003: x: bad value "bad"\nshm-import: in:3: the file shrank while it was read: its lines cannot be copied unchanged\n' |
	    same_file /dev/stdin err
	no_segments_named "$P"
}

# A typo deep in a long array ended the array at the typo's line: the
# continuation lines after it were read as lines of their own, the
# first value of the next taken for a field, and without -f they made
# a segment named by that number (71428.6) of the array's tail.
@test "7: shm-import: a bad value deep in a continued array: its later continuation lines go with it, never an array of their own" {
	printf 'x 1 2 /\n 3 O /\n 5 6 /\n 7\ntail\n' > in
	runio in shm_import -k 1 -P "$P"
	status_is 0
	err_is ''
	same_file in out
	# the 5 of a continuation line is no field: a number never is
	runio in shm_import -f x -P "$P"
	status_is 1
	printf 'shm-import: stdin:2: x: bad value "O"\n' | same_file /dev/stdin err
	same_file in out
	# from a file (read again by offset) and from a pipe
	bigarray in 0.5 100000
	runio in shm_import -k 1 -P "$P"
	status_is 0
	# a typo deep in a long array: said at the end (format-spec.md 7)
	err_is 'shm-import: stdin:2: x: "1O0.5" is no number: the array left as text (correct it; -f x names its line)'
	same_file in out
	runio <(cat in) shm_import -f x -P "$P"
	status_is 1
	err_is 'shm-import: stdin:12501: x: bad value "1O0.5"'
	same_file in out
	no_segments_named "$P"
}

@test "7: shm-import: leaves its standard input's offset at the end, as a filter that read it all" {
	printf 'a 1 2\nb 3 4 /\n5 x\nc\n' > in
	{ shm_import -f a,b -P "$P"; cat; } < in > out 2> err || true
	is "$(sed -n 3p out)" "5 x"
	is "$(sed -n 4p out)" "c"
	is "$(wc -l < out)" 4 "lines"
}

# Attack finding (review-attack): format-spec.md 7 says SIGINT, SIGTERM
# and SIGHUP remove this run's segments and kill the tool by that signal,
# without a diagnostic.  Blocked writing to a reader that does not read
# (a full pipe), shm-import instead said "stdout: Interrupted system
# call" and exited 1.
@test "7: shm-import: SIGTERM while blocked on a full pipe: dies of SIGTERM, no diagnostic, no segment left" {
	local i pid st
	printf 'a 1 2\n' > in
	for i in $(seq 3000); do
		printf 'line %d %080d\n' "$i" "$i"
	done >> in
	mkfifo out
	exec 5<>out
	timeout 30 "$BIN/shm-import" -k 1 -P "$P" in > out 2> err &
	pid=$!
	sleep 1
	kill -TERM "$pid"
	st=0
	wait "$pid" || st=$?
	exec 5<&-
	is "$st" 143 "exit status"
	is "$(cat err)" "" "stderr"
	is "$("$SHMTOOL" find "$P")" "" "segments left"
}

# Attack finding (review-attack): format-spec.md 7 says a reader of the
# output that went away (EPIPE) removes this run's segments and kills
# the tool by SIGPIPE, without a diagnostic.  When the reader went away
# before the last output (written at exit, after the input ended),
# shm-import said "stdout: Broken pipe" and exited 1.
@test "7: shm-import: the reader gone before the last output: dies of SIGPIPE, no diagnostic, no segment left" {
	{ printf 'x 1\n'; sleep 1; printf 'a 1 2\n'; } |
	    { st=0; "$BIN/shm-import" -k 1 -P "$P" 2> err || st=$?
	    echo "$st" > st; } |
	    head -c 1 > /dev/null
	is "$(cat st)" 141 "exit status"
	is "$(cat err)" "" "stderr"
	is "$("$SHMTOOL" find "$P")" "" "segments left"
}

# Attack finding (review-attack): a file size limit (ulimit -f) below a
# file segment's size killed shm-import by SIGXFSZ in the segment's
# ftruncate(2), the segments made so far and an empty segment file
# left; format-spec.md 7 wants a creation error said, nothing left.
@test "7: shm-import: a file size limit under a file segment's size: the error said, no segment left, no SIGXFSZ" {
	mkdir "$T/d"
	{ printf 'a'; seq 300000 | tr '\n' ' '; echo; } > in
	st=0
	(ulimit -f 1000; SHMIDS_DIR=$T/d "$BIN/shm-import" -k 1 -P "$P" \
	    in > /dev/null 2> err) || st=$?
	is "$st" 1 "exit status (153: SIGXFSZ)"
	is "$(cat err)" "shm-import: in:1: a1: the segment is larger than this process's file size limit, 1024000 bytes (ulimit -f)" "message"
	is "$(ls "$T/d")" "" "segments left"
}

# --- Text left silently (format-spec.md 7, shm-import's notes) ------------

# A line of 100 numbers alone (one row: no table) and a long array with
# one typo stayed text without a word; now one line each at the end,
# naming file:line, what stayed text and what would convert it; the
# output a faithful copy, exit 0.
@test "7: shm-import: a row of numbers alone and an array with a typo left as text: said at the end, file:line and the fix; exit 0, bytes unchanged" {
	local row name want fails=
	seq 1 100 | paste -sd' ' > alone.txt
	{ printf x; for i in $(seq 1 100); do
		[ "$i" = 30 ] && printf ' 3o' || printf ' %s' "$i"; done; echo; } > typo.txt
	{ echo 'y 1 2 3 4 5 /'; echo '6 7 1.2.3 8 9 10'; } > cont.txt
	{ cat typo.txt typo.txt; seq 1 70 | paste -sd' '; echo 'title x'; seq 1 80 | paste -sd' '; } > two.txt
	# not typos, no note: a CSV row's text (RX4), a word, Fortran's form
	{ echo 'Mazda RX4 21 6 160 110 3.9 2.62 16.46 0 1 4 4'
	  echo 'the quick 1 2 3 4 5 6 7 8 9 10 11 (approx)'
	  echo 'z 1 2 3 4 5 6 7 8 9 10 1x 2x 3x 4x'
	  seq 1 20 | paste -sd' '; } > quiet.txt
	while IFS='|' read -r name want; do
		[ -n "$name" ] || continue
		runio "$name" shm_import -P "$P"
		[ "$status" = 0 ] || fails+="[$name: status $status] "
		cmp -s "$name" "$T/out" || fails+="[$name: output changed] "
		[ "$(cat "$T/err")" = "$(printf "$want")" ] ||
		    fails+="[$name: '$(cat "$T/err")'] "
		runio "$name" shm_import -P "$P" "$name"
		[ "$(cat "$T/err")" = "$(printf "$want" | sed "s/^shm-import: stdin:/shm-import: $name:/; s/\.\.\. | sed '\([0-9]*\)s\/^\/x \/' | shm-import/sed '\1s\/^\/x \/' $name | shm-import/")" ] ||
		    fails+="[$name as operand: '$(cat "$T/err")'] "
	done <<-EOF
	alone.txt|shm-import: stdin:1: a row of 100 values alone stays text (a table needs 2 rows or more); a field name makes it an array: ... | sed '1s/^/x /' | shm-import
	typo.txt|shm-import: stdin:1: x: "3o" is no number: the array left as text (correct it; -f x names its line)
	cont.txt|shm-import: stdin:1: y: "1.2.3" is no number: the array left as text (correct it; -f y names its line)
	two.txt|shm-import: stdin:3: a row of 70 values alone stays text (a table needs 2 rows or more); a field name makes it an array: ... | sed '3s/^/x /' | shm-import; 2 such lines in all\\nshm-import: stdin:1: x: "3o" is no number: the array left as text (correct it; -f x names its line); 2 such arrays in all
	quiet.txt|
	EOF
	is "$fails" "" "failures"
	is "$("$SHMTOOL" find "$P")" "" "segments made"
	# the fix the note gives converts it
	runio alone.txt sh -c "sed '1s/^/x /' | \"$BIN/shm-import\" -P \"$P\""
	status_is 0
	like "$(cat "$T/out")" "x shmids * ${P}x" "converted once named"
	track "$(label_of "$T/out")"
	# under -k 101 the row alone is below the minimum: no note
	runio alone.txt shm_import -P "$P" -k 101
	is "$(cat "$T/err")" "" "no note under -k 101"
	# -f names the typo's line, as an error (exit 1)
	runio cont.txt shm_import -P "$P" -f y
	status_is 1
	err_is 'shm-import: stdin:2: y: bad value "1.2.3"'
	# a comma row: its commas made blanks first; a file name quoted
	# for sh; the command given converts it
	{ echo 'a,b'; seq 0 99 | paste -sd,; } > "it's -x.csv"
	cp "it's -x.csv" ./-n.csv
	runio /dev/null shm_import -P "$P" "it's -x.csv" -- -n.csv
	status_is 0
	err_is "shm-import: it's -x.csv:2: a row of 100 values alone stays text (a table needs 2 rows or more); a field name makes it an array: sed -e '2s/,/ /g' -e '2s/^/x /' 'it'\\''s -x.csv' | shm-import; 2 such lines in all"
	runio /dev/null sh -c "sed -e '2s/,/ /g' -e '2s/^/x /' 'it'\\''s -x.csv' | \"$BIN/shm-import\" -P \"$P\""
	status_is 0
	like "$(cat "$T/out")" "*x shmids * ${P}x" "the comma row converted once named"
	track "$(label_of "$T/out")"
	# the line after an array left as text by a bad value on its
	# first line, which "/" ended: the typo is said, not a row alone
	{ printf 'x 1 2 3o '; seq 4 100 | paste -sd' ' | sed 's,$, /,'
	  seq 1 100 | paste -sd' '; } > slash.txt
	runio slash.txt shm_import -P "$P"
	status_is 0
	err_is 'shm-import: stdin:1: x: "3o" is no number: the array left as text (correct it; -f x names its line)'
	# a row cut from a table of its width (within one: a decimal
	# comma) is not alone: no field would mend it
	{ for i in 0 1 2 3 4; do seq -s, $((i * 12)) $((i * 12 + 11)); done; } |
	    sed '3s/,30,/,30,5/; 3s/,29,/,2,9,/' > comma.csv
	runio comma.csv shm_import -P "$P" -k 5
	status_is 0
	err_is ""
	local r
	r=$(seq -s ' ' 1 100)
	printf '%s\n' "$r" "$r" "$r" "$r" "$r" | sed '2s/ 50 / 5.0e-0l /' > ty5.txt
	runio ty5.txt shm_import -P "$P"
	status_is 0
	err_is 'shm-import: stdin:2: "5.0e-0l" is no number: the row left as text (before the table of rows 3-5; correct it)'
	"$SHMTOOL" find "$P" | while read -r l; do track "$l"; done
}

# --- A request that matched nothing (issue 12, item 3) -------------------

@test "1: shm-import: nothing converted for want of -k values: says so, names -k and -f, exit 0" {
	# The README's own example: 10 values, under the default minimum.
	printf 'title x\ncoeff 0 1 2 3 4 5 /\n      6 7 8 9\n' > in
	runio in shm_import -P "$P"
	status_is 0
	same_file in out
	err_is "shm-import: no array converted: the longest, coeff (stdin:2), has 10 values, fewer than -k 64; -k 10 or -f coeff converts it"
	runio in shm_import -P "$P" -k 10
	status_is 0
	is "$(cat err)" "" "stderr with -k 10"
	like "$(sed -n 2p out)" "$(refpat coeff)"
	is "$(shm_expand -d < out)" "$(printf 'title x\ncoeff 0 1 2 3 4 5 6 7 8 9')" "round trip"
}

@test "4: shm-import -t i32 on float data: nothing converted says which type, exit 0" {
	printf 'title x\ncoeff 0.5 1 2 3 4 5 /\n      6 7 8 9 10 11\n' > in
	runio in shm_import -P "$P" -t i32
	status_is 0
	same_file in out
	err_is "shm-import: no array converted: coeff (stdin:2) holds values that are not i32 (-t i32)"
	runio in shm_import -P "$P" -t coeff=i64
	status_is 0
	same_file in out
	err_is "shm-import: no array converted: coeff (stdin:2) holds values that are not i64 (-t coeff=i64)"
	# a setting is no array: nothing to say
	printf 'dt 0.5\n' > in
	runio in shm_import -P "$P" -t i32
	status_is 0
	is "$(cat err)" "" "stderr"
}

@test "7: shm-import: no word where nothing looked like an array, or something was converted" {
	local in
	for in in 'grid 100\ndt 0.5\nsize 3 4\n' '1 2 3 4 5 6 7 8 9 10 11\n2 3 4 5 6 7 8 9 10 11 12\n' \
	    'a 1 2 3 4 5 6 7 8 9 10\nb 1 2\n'; do
		printf "$in" > in
		runio in shm_import -P "$P" -k 3
		status_is 0
		is "$(cat err)" "" "stderr for $in"
	done
	printf 'grid 100\nsize 3 4\n' > in
	runio in shm_import -P "$P"
	status_is 0
	same_file in out
	is "$(cat err)" "" "settings only"
}

@test "7: shm-import -f: a field no line has, or only as a reference, is reported; exit 1" {
	printf 'coeff 1 2 3\n' > in
	runio in shm_import -P "$P" -f cooef,coeff
	status_is 1
	err_is "shm-import: -f cooef: no such field in the input"
	like "$(cat out)" "$(refpat coeff)"
	cp out in2
	runio in2 shm_import -P "$P" -f coeff
	status_is 1
	same_file in2 out
	err_is "shm-import: -f coeff: no inline array has this field (a reference line already?)"
	shm_expand -d < in2 > /dev/null
}

# Section 6 on where an array ends: a bad value on a continuation line
# does not end it (and the line after it is a line of its own again); a
# bad value on the first line makes it text, whose "/" continues
# nothing, as shmids.load() reads it.
@test "7: shm-import: a bad value on a continuation line does not end the array; a first line that is not values continues nothing" {
	# a typo deep in an array: the rest stays with it, no array of its own
	printf 'x 1 2 /\n3 q /\n 4 5 6\ny 7 8\n' > in
	runio in shm_import -k 1 -P "$P"
	status_is 0
	is "$(sed -n 1,3p out)" "$(sed -n 1,3p in)"
	like "$(sed -n 4p out)" "$(refpat y)"
	is "$(wc -l < out)" 4 "lines"
	no_segments_named "${P}4"
	# (with -f, and from a file and a pipe: the deep-typo test above)
	# a first line that is text: its "/" continues nothing (section 6),
	# whether -f names it or not
	printf 't a /\ny 1 2 3\n' > in
	runio in shm_import -k 1 -P "$P"
	status_is 0
	is "$(sed -n 1p out)" "t a /"
	like "$(sed -n 2p out)" "$(refpat y)"
	is "$(wc -l < out)" 2 "lines"
	# a "/" left before the marker is no value: text too (shmids.load()
	# reads it so, tests/python.bats)
	printf 'c 1 / /\ny 2 3\nx 1 /\n2 / /\n' > in
	runio in shm_import -k 1 -P "$P"
	status_is 0
	is "$(sed -n 1p out)" "c 1 / /"
	like "$(sed -n 2p out)" "$(refpat y)"
	is "$(sed -n 3,4p out)" "$(sed -n 3,4p in)"
	printf 'note see dir /\ncoeff 1 2 3\n' > in
	runio in shm_import -f coeff -P "$P"
	status_is 0
	is "$(sed -n 1p out)" "note see dir /"
	like "$(sed -n 2p out)" "$(refpat coeff)"
	# an unnamed array that is values goes on over its continuations
	printf 'a 1 2 /\ncoeff 3 4\n' > in
	runio in shm_import -f coeff -P "$P"
	status_is 1
	same_file in out
}

# Attack finding (review-attack): an array -f does not name was followed
# through its continuations with the "/" looked for in the whole line,
# field included: a line "/" (a field "/", nothing after it) swallowed
# the next line, and the array there was not converted.
@test "7: shm-import -f: a line that is a lone \"/\" continues nothing" {
	printf '/\nx 1 2 3\n  /\r\ny 4 5\n' > in
	runio in shm_import -f x,y -P "$P"
	status_is 0
	is "$(sed -n 1p out)" "/"
	like "$(sed -n 2p out)" "$(refpat x)"
	is "$(sed -n 3p out)" "$(printf '  /\r')"
	like "$(sed -n 4p out)" "$(refpat y)"
	is "$(shmtool open "$(label_of out)")" "f64 3 6"
}

# Attack finding (review-attack): the segment name was made with
# "%.*s", which stops at a NUL: a field "a<NUL>b" made a segment named
# "a" (the prefix alone, with an empty field before the NUL) and a
# reference line no reader takes (a NUL in a reference).
@test "6: shm-import: a line whose first token holds a NUL byte is text with no field (1.7): lines unchanged, exit 0, nothing said" {
	printf 'a\000b 1 2 3\n\000 4 5 6\n' > in
	runio in shm_import -k 1 -P "$P"
	status_is 0
	same_file in out
	err_is ""
	no_segments_named "$P"
}

# Attack finding (review-attack): a SIGTERM that came while shm-import
# parsed an array's lines (no read blocked, so none interrupted) was only
# looked at once the array ended: a pipe that then fell silent mid-array
# held the run, segments and all, until its writer went on.
@test "7: shm-import: SIGTERM while parsing an array from a pipe that then falls silent: dies at once" {
	local i pid wpid st=0
	awk 'BEGIN { print "a 1 2 3"; printf "x"
		for (i = 0; i < 1500000; i++) printf " 1.5 2.5 3.5 /\n" }' > in
	mkfifo fifo
	{ cat in; exec sleep 60; } > fifo &
	wpid=$!
	echo "$wpid" >> "$T/.pids"
	"$BIN/shm-import" -k 1 -P "$P" < fifo > out 2> err &
	pid=$!
	echo "$pid" >> "$T/.pids"
	# a few MB read: busy parsing, the pipe full behind it
	for i in $(seq 200); do
		[ "$(awk '$1 == "rchar:" { print $2 }' "/proc/$pid/io")" -gt \
		    4000000 ] && break
		sleep 0.05
	done
	kill -TERM "$pid"
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

@test "7: shm-import < f >> f: input file is output file, as cat says; exit 1, nothing written or made" {
	seq -s ' ' 1 100000 | sed "s/^/${P}x /" > f
	cp f orig
	run --separate-stderr timeout 10 sh -c '"$0" -k 1000000 < f >> f' "$BIN/shm-import"
	status_is 1
	is "$output" ""
	is "$stderr" "shm-import: stdin: input file is output file"
	same_file orig f
	run --separate-stderr timeout 10 sh -c '"$0" f >> f' "$BIN/shm-import"
	status_is 1
	is "$stderr" "shm-import: f: input file is output file"
	same_file orig f
	is "$(shm_ls -p -N "${P}x")" "" "segments made"
}

@test "7: shm-import(1) says what 'the file changed while it was read' detects and what it does not" {
	local page=$BATS_TEST_DIRNAME/../man/shm-import.1
	sed -n '/the file changed while it was read/,/^\.It/p' "$page" |
	    tr '\n' ' ' > said
	grep -q 'goes unseen' said
	grep -q 'two versions' said
	grep -q 'read from a pipe' said
}

@test "5, 7: shm-import passes a malformed reference line through unchanged and warns file:line: reason, exit status unchanged; valid ones pass in silence" {
	local line why fails=
	while IFS='|' read -r line why; do
		printf 'a b\n%s\nc d\n' "$line" > in
		runio in shm_import -P "$P"
		[ "$status" = 0 ] || fails+="[$line: exit $status] "
		cmp -s in out || fails+="[$line: changed] "
		if [ -n "$why" ]; then
			[ "$(cat err)" = "shm-import: stdin:2: malformed reference: $why" ] ||
			    fails+="[$line: stderr '$(cat err)'] "
		else
			[ ! -s err ] || fails+="[$line: stderr '$(cat err)'] "
		fi
	done <<-'TABLE'
	coeff shmids 12x y|bad shmid or path
	coeff shmids 402|no name after shmid
	coeff shmids 402 a b|text after the label
	shmids 12 segments made|text after the label
	0.43 shmids 4 0.43|a number is not a field
	coeff shmids 402 simdat|
	shmids 402 volcano|
	note shmid is fast|
	TABLE
	[ -z "$fails" ] || { echo "$fails"; return 1; }
	# a file's name in the message, and -f changes nothing
	printf 'coeff shmids 12x y\n' > bad.txt
	run --separate-stderr shm_import -f coeff -P "$P" bad.txt
	status_is 1
	is "$output" "coeff shmids 12x y"
	like "$stderr" "shm-import: bad.txt:1: malformed reference: bad shmid or path*"
}

@test "6: shm-import -f and -t of a field that begins with # are usage errors (a comment is never a field); shm-expand -f '#x' names a reference's field" {
	local l
	bad_args shm-import "$SYNOPSIS" <<-'EOF'
	-f '#x'|-f #x: a comment is never a field (a line whose first token begins with # is a comment)
	-f 'a,#'|-f #: a comment is never a field (a line whose first token begins with # is a comment)
	-t '#x=i32'|-t #x: a comment is never a field (a line whose first token begins with # is a comment)
	EOF
	# a reference line of a field '#x' (R's shm_write()) is one
	l=$(mkseg v i32 2)
	printf '#x 1 2\n#x shmids %s\n' "$l" > in
	runio in shm_expand -f '#x'
	status_is 0
	printf '#x 1 2\n#x 0 1\n' | same_file /dev/stdin out
	printf '#x 1 2\n' > in
	runio in shm_expand -f '#x'
	status_is 1
	same_file in out
	err_is "shm-expand: -f #x: no such field in the input (a comment is never a field)"
}
