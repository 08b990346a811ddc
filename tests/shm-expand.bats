#!/usr/bin/env bats
# shm-expand: reference lines become inline arrays (format-spec.md 5, 6, 7).

load helper

SYNOPSIS='shm-expand [-dr] [-c cols] [-f fields] [-F type=style] [-t type] [-w seconds] [file ...]'

# wrap LEAD EOL COLS VALUE...: the layout of format-spec.md section 6.
# No line is longer than COLS, its trailing " /" included; the first
# value of a line always goes.  Continuations are indented to the column
# of the first value.  Lines before the last end as the reference line
# did, or with LF if it had no end of line (the end of a file).
wrap() {
	local lead=$1 eol=$2 cols=$3 line ind v n=0 mid room
	shift 3
	mid=${eol:-$'\n'}
	line=$lead
	printf -v ind '%*s' $((${#lead} + 1)) ''
	for v; do
		room=2
		[ $((n + 1)) -eq $# ] && room=0
		if [ "$n" -gt 0 ] && [ "$cols" -gt 0 ] &&
		    [ $((${#line} + 1 + ${#v} + room)) -gt "$cols" ]; then
			printf '%s /%s' "$line" "$mid"
			line=$ind$v
		else
			line="$line $v"
		fi
		n=$((n + 1))
	done
	printf '%s%s' "$line" "$eol"
}

@test "7: shm-expand -h: usage on stdout, exit 0" {
	run --separate-stderr shm_expand -h
	status_is 0
	usage_has "$SYNOPSIS" "$output"
	is "$stderr" ""
}

@test "7: shm-expand: bad options and option arguments: what is wrong, then usage, exit 2" {
	local cols="0 to 1000000 columns, 0 for no wrapping"
	local styles="f64 or f32=short, exp or hex; i64, i32 or raw=dec or hex; nan=NA or nan"
	local types="f64, f32, i64, i32 or raw"
	bad_args shm-expand "$SYNOPSIS" <<-EOF
	-x|invalid option -- 'x'
	-c|option requires an argument -- 'c'
	-t|option requires an argument -- 't'
	--version=1|option '--version' doesn't allow an argument
	--foo|unrecognized option '--foo'
	--wait|option '--wait' requires an argument
	--fields=|invalid field list '' (expected fields separated by commas: a,b)
	-f a,|invalid field list 'a,' (expected fields separated by commas: a,b)
	-f a,,b|invalid field list 'a,,b' (expected fields separated by commas: a,b)
	--w 5|option '--w' is ambiguous; possibilities: '--width' '--wait'
	-f 'coeff grid'|invalid field list 'coeff grid' (expected fields separated by commas: a,b)
	-c abc|invalid width 'abc' (expected $cols)
	-c -1|invalid width '-1' (expected $cols)
	-c 10x|invalid width '10x' (expected $cols)
	-c ''|invalid width '' (expected $cols)
	-c 1000001|invalid width '1000001' (expected $cols)
	-c 99999999999999999999|invalid width '99999999999999999999' (expected $cols)
	-w abc|invalid wait 'abc' (expected seconds, or a number and a unit: 30s, 5m, 1h; at most a year)
	-w -1|invalid wait '-1' (expected seconds, or a number and a unit: 30s, 5m, 1h; at most a year)
	-w 1x|invalid wait '1x' (expected seconds, or a number and a unit: 30s, 5m, 1h; at most a year)
	-w 366d|invalid wait '366d' (expected seconds, or a number and a unit: 30s, 5m, 1h; at most a year)
	-w 31536001|invalid wait '31536001' (expected seconds, or a number and a unit: 30s, 5m, 1h; at most a year)
	-F bogus|invalid style 'bogus' (expected $styles)
	-F f64=bogus|invalid style 'f64=bogus' (expected $styles)
	-F f64=dec|invalid style 'f64=dec' (expected $styles)
	-F i32=exp|invalid style 'i32=exp' (expected $styles)
	-F i32=short|invalid style 'i32=short' (expected $styles)
	-F f16=hex|invalid style 'f16=hex' (expected $styles)
	-F =hex|invalid style '=hex' (expected $styles)
	-F nan=Na|invalid style 'nan=Na' (expected $styles)
	-F nan=short|invalid style 'nan=short' (expected $styles)
	-F NA=nan|invalid style 'NA=nan' (expected $styles)
	-t f16|invalid type 'f16' (expected $types)
	-t F64|invalid type 'F64' (expected $types)
	-t ''|invalid type '' (expected $types)
	EOF
}

@test "4: shm-expand: each element type expands in its decimal form" {
	local type l fails=
	for type in f64 f32 i64 i32 raw; do
		l=$(mkseg "$type" "$type" 5)
		printf 'x shmids %s\n' "$l" > in
		runio in shm_expand
		[ "$status" = 0 ] || fails+="[$type: exit $status: $(cat "$T/err")] "
		[ "$(cat out)" = "x 0 1 2 3 4" ] || fails+="[$type: got $(cat out)] "
	done
	is "$fails" "" "failures"
}

@test "5: shm-expand: lines that are not reference lines pass byte for byte" {
	local long
	long=$(head -c 100000 /dev/zero | tr '\0' 'a')
	{
		printf '\n'
		printf 'hello world\n'
		printf 'x SHMIDS 1 a\n'
		printf 'x shmidsx 1 a\n'
		printf 'shmids is fast\n'
		printf 'shmids, the tools\n'
		printf 'shmids\n'
		printf 'x\tshmid 1 a\n'
		printf 'nul\0bytes\0 in\0the middle\n'
		printf '\0\0\0\n'
		printf 'crlf line\r\n'
		printf 'lone\rcr\n'
		printf 'bytes \377\376\200\n'
		printf '%s\n' "$long"
		printf '   \t  \n'
		printf 'no final newline'
	} > in
	runio in shm_expand
	status_is 0
	same_file in out
	is "$(cat err)" "" "stderr"
}

@test "5: shm-expand: reference line among text; blanks, tabs and CR are ignored" {
	local l id name
	l=$(mkseg a i32 3)
	id=${l%% *} name=${l#* }
	printf 'before\n  x\tshmids \t%s\t%s \t\nafter\n' "$id" "$name" > in
	printf 'before\n  x 0 1 2\nafter\n' > want
	runio in shm_expand
	status_is 0
	same_file want out
	printf 'x shmids %s %s  \r\n' "$id" "$name" > in
	runio in shm_expand
	status_is 0
	printf 'x 0 1 2\r\n' | same_file /dev/stdin out
}

@test "5: shm-expand: a reference line without final newline expands without one" {
	local l
	l=$(mkseg a i32 3)
	printf 'a\nx shmids %s' "$l" > in
	runio in shm_expand
	status_is 0
	printf 'a\nx 0 1 2' | same_file /dev/stdin out
}

@test "7: shm-expand -c: wrapping layout (default 80, narrow, 1, 0 never)" {
	local l vals row cols lead eol fails=
	l=$(mkseg w i32 120)
	vals=$(seq 0 119)
	while IFS='|' read -r cols lead eol; do
		printf -v eol '%b' "$eol"
		printf '%sshmids %s%s' "$lead " "$l" "$eol" > in
		if [ "$cols" = default ]; then
			runio in shm_expand
			cols=80
		else
			runio in shm_expand -c "$cols"
		fi
		# shellcheck disable=SC2086
		wrap "$lead" "$eol" "$cols" $vals > want
		if [ "$status" != 0 ] || ! cmp -s want out; then
			fails+="[-c $cols lead '$lead' eol $(printf %q "$eol"): exit $status; want < > got:
$(diff <(cat -A want) <(cat -A out) | head -6)]
"
		fi
	done <<-'EOF'
	default|x|\n
	default|coeff|\n
	20|x|\n
	30|  field|\n
	30|  field|\r\n
	30|  field|
	1|x|\n
	0|x|\n
	EOF
	is "$fails" "" "failures"
}

@test "7: shm-expand: a segment of count 0 gives the field alone" {
	local l
	l=$(mkseg empty f64 0)
	printf 'x shmids %s\r\n  y shmids %s\n' "$l" "$l" > in
	runio in shm_expand
	status_is 0
	printf 'x\r\n  y\n' | same_file /dev/stdin out
}

@test "7: shm-expand -f: only the named fields are expanded" {
	local a b c
	a=$(mkseg a i32 2)
	b=$(mkseg b i32 3)
	c=$(mkseg c i32 4)
	printf 'a shmids %s\nb shmids %s\nc shmids %s\n' "$a" "$b" "$c" > in
	runio in shm_expand -f b
	status_is 0
	printf 'a shmids %s\nb 0 1 2\nc shmids %s\n' "$a" "$c" | same_file /dev/stdin out
	runio in shm_expand -f a,c
	status_is 0
	printf 'a 0 1\nb shmids %s\nc 0 1 2 3\n' "$b" | same_file /dev/stdin out
	runio in shm_expand -f nosuch
	status_is 1
	same_file in out
	err_is "shm-expand: -f nosuch: no such field in the input"
}

@test "6: shm-expand -F: styles of format-spec.md section 6, exact" {
	local row type style bits want l fails=
	while IFS='|' read -r type style bits want; do
		# shellcheck disable=SC2086
		l=$(mkset "$type$style" "$type" $bits)
		printf 'x shmids %s\n' "$l" > in
		if [ "$style" = default ]; then
			runio in shm_expand -c 0
		else
			runio in shm_expand -c 0 -F "$type=$style"
		fi
		[ "$status" = 0 ] || fails+="[$type=$style: exit $status $(cat err)] "
		[ "$(cat out)" = "x $want" ] ||
		    fails+="[$type=$style: want 'x $want', got '$(cat out)'] "
	done <<-'EOF'
	f64|default|3ff0000000000000 3fb999999999999a 8000000000000000 3fe0000000000000 c004000000000000|1 0.1 -0 0.5 -2.5
	f64|short|3ff0000000000000 3fb999999999999a 3fd3333333333334|1 0.1 0.30000000000000004
	f64|default|7ff0000000000000 fff0000000000000 7ff8000000000000|inf -inf nan
	f64|default|7ff8000000000001 fff8000000000000 7ffc000000000000 fff0000000000001|nan(0x8000000000001) -nan nan(0xc000000000000) -nan(0x1)
	f64|default|7ff00000000007a2 7ff80000000007a2 fff00000000007a2|NA nan(0x80000000007a2) -nan(0x7a2)
	f64|exp|7ff00000000007a2 3ff0000000000000|NA 1.0000000000000000e+00
	f64|hex|7ff00000000007a2|NA
	f32|default|7f8007a2 7fc007a2 ff8007a2|NA nan(0x4007a2) -nan(0x7a2)
	f64|default|4341c37937e08000 4341c37937e07fff c3a484020911b56d 40f86a0000000000 3f1a36e2eb1c432d 3ee4f8b588e368f1|1e+16 9999999999999998 -7.391544078297146e+17 100000 0.0001 1e-05
	f64|exp|3ff0000000000000 3fb999999999999a 8000000000000000 3fe0000000000000|1.0000000000000000e+00 1.0000000000000001e-01 -0.0000000000000000e+00 5.0000000000000000e-01
	f64|hex|3ff0000000000000 3fb999999999999a 8000000000000000 3fe0000000000000|0x1p+0 0x1.999999999999ap-4 -0x0p+0 0x1p-1
	f32|default|3f800000 3dcccccd 80000000 3f000000|1 0.1 -0 0.5
	f32|default|7f800000 ff800000 7fc00000 7fc00001 ffc00000 ff800001|inf -inf nan nan(0x400001) -nan -nan(0x1)
	f32|default|5a0e1bca 58635fa9 4cbebc20 38d1b717 3727c5ac|1e+16 1000000000000000 100000000 0.0001 1e-05
	f32|exp|3f800000 3dcccccd 80000000 3f000000|1.00000000e+00 1.00000001e-01 -0.00000000e+00 5.00000000e-01
	f32|hex|3f800000 3dcccccd 80000000 3f000000|0x1p+0 0x1.99999ap-4 -0x0p+0 0x1p-1
	i32|default|ffffffff 7fffffff 80000000 0|-1 2147483647 -2147483648 0
	i32|dec|ffffffff 7fffffff 80000000|-1 2147483647 -2147483648
	i32|hex|ffffffff 7fffffff 80000000|0xffffffff 0x7fffffff 0x80000000
	i64|dec|ffffffffffffffff 7fffffffffffffff 8000000000000000|-1 9223372036854775807 -9223372036854775808
	i64|hex|ffffffffffffffff 7fffffffffffffff 8000000000000000|0xffffffffffffffff 0x7fffffffffffffff 0x8000000000000000
	raw|dec|ff 10 80 0|255 16 128 0
	raw|hex|ff 10 80|0xff 0x10 0x80
	EOF
	is "$fails" "" "failures"
}

@test "6: shm-expand -F nan=nan: every NaN as nan or -nan, in every style; nan=NA undoes it" {
	local a b
	a=$(mkset a f64 7ff00000000007a2 fff8000000000000 7ff0000000000001 fff0000000000001 3fb999999999999a)
	b=$(mkset b f32 7f8007a2 ff800001 3f800000)
	printf 'a shmids %s\nb shmids %s\n' "$a" "$b" > in
	runio in shm_expand -F nan=nan
	status_is 0
	printf 'a nan -nan nan -nan 0.1\nb nan -nan 1\n' | same_file /dev/stdin out
	runio in shm_expand -F f64=hex -F nan=nan -F f32=exp
	status_is 0
	printf 'a nan -nan nan -nan 0x1.999999999999ap-4\nb nan -nan 1.00000000e+00\n' |
	    same_file /dev/stdin out
	runio in shm_expand -F nan=nan -F nan=NA
	status_is 0
	printf 'a NA -nan nan(0x1) -nan(0x1) 0.1\nb NA -nan(0x1) 1\n' |
	    same_file /dev/stdin out
}

@test "5: shm-expand -r on an input with no reference line: said, exit 1; -w takes a unit" {
	local a
	printf 'coeff 1 2 3\n' > in
	runio in shm_expand -r
	status_is 1
	is "$(cat out)" ""
	is "$(cat err)" "shm-expand: -r: no reference line in the input: nothing to write (its arrays inline? shm-import makes them segments)"
	a=$(mkset a f64 3ff0000000000000)
	printf 'a shmids %s\n' "$a" > in
	runio in shm_expand -r -w 1m
	status_is 0
	is "$(cat out)" "1"
}

@test "6: shm-expand -d -F nan=nan: a segment whose NaN payload the output lost is kept, the others go" {
	local a b c
	a=$(mkset a f64 7ff00000000007a2 3ff0000000000000)
	b=$(mkset b f64 7ff8000000000000 fff8000000000000 3ff0000000000000)
	c=$(mkset c f32 7f8007a2)
	printf 'a shmids %s\nb shmids %s\nc shmids %s\n' "$a" "$b" "$c" > in
	runio in shm_expand -d -F nan=nan
	status_is 1
	printf 'a nan 1\nb nan -nan 1\nc nan\n' | same_file /dev/stdin out
	is "$(cat err)" "shm-expand: stdin:1: $a: not removed: -F nan=nan wrote a NaN without its payload (R's NA?), so the segment is the only exact copy
shm-expand: stdin:3: $c: not removed: -F nan=nan wrote a NaN without its payload (R's NA?), so the segment is the only exact copy"
	exists "$a"
	gone "$b"
	exists "$c"
}

@test "4: shm-expand -F: repeated for several types in one run" {
	local a b
	a=$(mkset a f64 3ff0000000000000)
	b=$(mkset b i32 ffffffff)
	printf 'a shmids %s\nb shmids %s\n' "$a" "$b" > in
	runio in shm_expand -F f64=hex -F i32=hex
	status_is 0
	printf 'a 0x1p+0\nb 0xffffffff\n' | same_file /dev/stdin out
}

@test "7: shm-expand -r: values only, one array a line; every other line dropped" {
	local a e v z want
	a=$(mkseg a i32 3)
	e=$(mkseg e f64 0)
	v=$(mkseg v f64 200)
	z=$(mkseg z f32 2)
	{
		printf 'a comment /\n'
		printf 'n 1 2 3\n'
		printf '  a shmids %s\r\n' "$a"
		printf 'e\tshmids %s\n' "$e"
		printf 'v shmids %s\n' "$v"
		printf 'note shmids are fast\n'
		printf 'g shmids 2147483646 %sgone\n' "$P"
		printf 'z shmids %s' "$z"
	} > in
	want=$(seq -s ' ' 0 199)
	runio in shm_expand -r -c 20
	status_is 1
	printf '0 1 2\n\n%s\n0 1\n' "$want" | same_file /dev/stdin out
	like "$(sed -n 1p err)" "shm-expand: stdin:6: malformed reference: *"
	like "$(sed -n 2p err)" "shm-expand: stdin:7: 2147483646 ${P}gone: *"
	is "$(wc -l < err)" 2 "diagnostics"
	runio in shm_expand -r -f v,z
	status_is 0
	printf '%s\n0 1\n' "$want" | same_file /dev/stdin out
	runio in shm_expand -r -f n
	status_is 1
	is "$(wc -c < out)" 0 "bytes out"
	err_is "shm-expand: -f n: no reference line has this field"
}

@test "7: shm-expand -r -d: removes what it expanded, keeps what it did not" {
	local a b
	a=$(mkseg a i32 2)
	b=$(mkseg b i32 2)
	printf 'a shmids %s\nb shmids %s\na shmids %s\n' "$a" "$b" "$a" > in
	if [ -w /dev/full ]; then
		status=0
		shm_expand -r -d -f a < in > /dev/full 2> err || status=$?
		status_is 1
		err_is "shm-expand: stdout: No space left on device"
		exists "$a"
	fi
	runio in shm_expand -r -d -f a
	status_is 0
	printf '0 1\n0 1\n' | same_file /dev/stdin out
	gone "$a"
	exists "$b"
}

@test "6.1: shm-expand -r: numpy's loadtxt and R's scan and read.table read it, NA as NA" {
	local l py
	l=$(mkset r f64 3ff0000000000000 7ff00000000007a2 fff8000000000000 3fb999999999999a)
	printf 'r shmids %s\nr shmids %s\n' "$l" "$l" > in
	if py=$(python_with numpy); then
		runio in shm_expand -r -F nan=nan
		status_is 0
		run "$py" -c 'import sys, numpy; a = numpy.loadtxt(sys.argv[1]); print(a.shape, numpy.isnan(a).sum(), a[0][3].hex())' "$T/out"
		status_is 0
		is "$output" "(2, 4) 4 0x1.999999999999ap-4"
	fi
	command -v Rscript > /dev/null || skip "no Rscript"
	runio in shm_expand -r
	status_is 0
	run Rscript -e 'x <- scan("out", quiet = TRUE); t <- read.table("out"); cat(length(x), is.na(x), is.nan(x), dim(t), is.nan(t$V2), x[4] == 0.1, "\n")'
	status_is 0
	is "$output" "8 FALSE TRUE TRUE FALSE FALSE TRUE TRUE FALSE FALSE FALSE TRUE FALSE FALSE FALSE TRUE FALSE 2 4 FALSE FALSE TRUE "
}

@test "7: shm-expand(1): the -r examples run as written; numpy and R read them" {
	local py b out=
	py=$(python_with numpy) || skip "no python3 with numpy"
	command -v Rscript > /dev/null || skip "no Rscript"
	mkdir pybin
	ln -s "$(command -v "$py")" pybin/python3
	awk '/^\.Bd -literal/ { n++; f = "b" n; next } /^\.Ed/ { f = ""; next }
	    f { print > f }' "$BATS_TEST_DIRNAME/../man/shm-expand.1"
	grep -l 'shm-expand -r' b* > blocks
	is "$(wc -l < blocks)" 3 "blocks with -r"
	for b in $(cat blocks); do
		shm_import -f coeff -P "$P" < "$BATS_TEST_DIRNAME/../examples/data.txt" > data.shm
		track "$(label_of data.shm)"
		printf 'Ozone 41 NA 12\n' | shm_import -f Ozone -P "$P" > aq.shm
		track "$(label_of aq.shm)"
		PATH=$T/pybin:$BIN:$PATH bash -e "$b" > "$b.out" 2>&1 ||
		    out+="[$b: $(cat "$b.out")] "
	done
	is "$out" "" "failures"
	grep -q '^\[ *1\.' b*.out
	grep -q 'Min\.' b*.out
	grep -Fxq '[41. nan 12.]' b*.out
}

@test "4: shm-expand -t: a raw segment read as another type" {
	[ "$ORDER" = le ] || skip "expected values written for little-endian"
	local l row type want fails=
	l=$(mkset r raw 00 00 00 00 00 00 f0 3f)
	printf 'x shmids %s\n' "$l" > in
	while IFS='|' read -r type want; do
		runio in shm_expand -t "$type"
		[ "$status" = 0 ] || fails+="[-t $type: exit $status $(cat err)] "
		[ "$(cat out)" = "x $want" ] || fails+="[-t $type: got '$(cat out)'] "
	done <<-'EOF'
	f64|1
	i64|4607182418800017408
	i32|0 1072693248
	f32|0 1.875
	EOF
	is "$fails" "" "failures"
}

@test "4: shm-expand -t: a raw payload that is not a multiple is an error" {
	local l
	l=$(mkset r7 raw 00 00 00 00 00 00 f0)
	printf 'x shmids %s\nafter\n' "$l" > in
	runio in shm_expand -t f64
	status_is 1
	same_file in out
	like "$(cat err)" "shm-expand: stdin:1: $l: ?*" "stderr"
}

@test "2.2: shm-expand: missing, stale, foreign, corrupt and dead segments" {
	local good gone l id rid why want fails= line
	good=$(mkseg good i32 2)
	gone=$(mkseg gone i32 2)
	ipcrm -m "${gone%% *}"
	rid=$(mkraw 4096)
	while IFS='|' read -r line why; do
		case $line in
		gone) l=$gone ;;
		stale) l="${good%% *} ${P}other" ;;
		foreign) l="$rid ${P}x" ;;
		ourkey) l=$(mkhostile foreign ourkey) ;;
		killed) l=$(mkkilled killed) ;;
		*) l=$(mkhostile "$line" "$line") ;;
		esac
		printf 'x shmids %s\ny shmids %s\n' "$l" "$good" > in
		runio in shm_expand
		want="shm-expand: stdin:1: $l: $(why_of "$why" "$l")"
		[ "$status" = 1 ] || fails+="[$line: exit $status] "
		[ "$(cat err)" = "$want" ] || fails+="[$line: stderr '$(cat err)', want '$want'] "
		printf 'x shmids %s\ny 0 1\n' "$l" | cmp -s - out ||
		    fails+="[$line: stdout '$(cat out)'] "
	done <<-'EOF'
	gone|no such segment (removed, or never made)
	stale|segment @id is labelled '@id @Pgood'
	foreign|segment @id is not a shmids segment
	magic|segment @id is not a shmids segment
	small|segment @id is not a shmids segment
	bigcount|segment @id has a damaged header (malformed, or claiming more bytes than the segment has); shm-rm '@label' removes it
	type|segment @id has a damaged header (malformed, or claiming more bytes than the segment has); shm-rm '@label' removes it
	nonul|segment @id is not a shmids segment
	ourkey|segment @id is not a shmids segment
	killed|its writer (pid @pid) died before sealing it; shm-rm '@label' removes it
	dead|its writer (pid @pid) died before sealing it; shm-rm '@label' removes it
	EOF
	is "$fails" "" "failures"
}

@test "5: shm-expand: malformed reference lines are reported and passed through" {
	local good long line fails= 
	good=$(mkseg good i32 2)
	long=$(printf 'a%.0s' $(seq 65))
	while IFS= read -r line; do
		printf -v line '%b' "$line"
		printf '%s\ny shmids %s\n' "$line" "$good" > in
		runio in shm_expand
		[ "$status" = 1 ] || fails+="[$line: exit $status] "
		[[ $(cat err) == "shm-expand: stdin:1: malformed reference: "?* ]] ||
		    fails+="[$line: stderr '$(cat err)'] "
		printf '%s\ny 0 1\n' "$line" | cmp -s - out ||
		    fails+="[$line: stdout '$(cat out)'] "
	done <<-EOF
	x shmids
	x shmids 12
	x shmids  \\t
	x shmids 12 a b
	note shmids are fast
	x shmids 012 a
	x shmids -1 a
	x shmids +1 a
	x shmids 2147483648 a
	x shmids 12a a
	x shmids 12 $long
	x shmids 12 caf\\303\\251
	x shmids 12 a\\177
	EOF
	is "$fails" "" "failures"
}

@test "6: shm-expand: a malformed reference whose field begins with '#' is a comment, however long the field" {
	local n lead bad fails=
	for n in 10 4090 4100 5000 9000 20000; do
		for lead in '' '  '; do
			for bad in '\0' '\r'; do
				python3 -c "import sys; sys.stdout.buffer.write(b'$lead#' + b'a' * $n + b'$bad shmids 0 x\\n')" > in
				runio in shm_expand
				[ "$status" = 0 ] && [ ! -s err ] && cmp -s in out ||
				    fails+="[$n '$lead' $bad: exit $status: $(cat err)] "
			done
		done
		# without its '#' it stays a malformed reference
		python3 -c "import sys; sys.stdout.buffer.write(b'a' * $n + b'\\0 shmids 0 x\\n')" > in
		runio in shm_expand
		[ "$status" = 1 ] && cmp -s in out ||
		    fails+="[$n no '#': exit $status] "
	done
	is "$fails" "" "failures"
}

@test "2.4: shm-expand: a segment another user may not read is an error" {
	need_user
	local l
	l=$(mkseg private i32 2 600)
	printf 'x shmids %s\n' "$l" > in
	status=0
	as_user "$BIN/shm-expand" < in > out 2> err || status=$?
	status_is 1
	err_is "shm-expand: stdin:1: $l: segment ${l%% *} is root's, mode 600: you may not read it"
	same_file in out
}

@test "7: shm-expand: named files and -, positions as file:line:" {
	local a gone
	a=$(mkseg a i32 2)
	gone=$(mkseg gone i32 1)
	ipcrm -m "${gone%% *}"
	printf 'one\nx shmids %s\n' "$a" > f1
	printf 'two\n\nz shmids %s\n' "$gone" > f2
	printf 'x shmids %s\nz shmids %s\n' "$a" "$gone" > f3
	runio f3 shm_expand f1 - f2
	status_is 1
	printf 'one\nx 0 1\nx 0 1\nz shmids %s\ntwo\n\nz shmids %s\n' \
	    "$gone" "$gone" | same_file /dev/stdin out
	printf 'shm-expand: stdin:2: %s: no such segment (removed, or never made)\nshm-expand: f2:3: %s: no such segment (removed, or never made)\n' \
	    "$gone" "$gone" | same_file /dev/stdin err
}

@test "7: shm-expand: a missing input file is reported, the others done" {
	local a
	a=$(mkseg a i32 2)
	printf 'x shmids %s\n' "$a" > f1
	runio /dev/null shm_expand nosuchfile f1
	status_is 1
	printf 'x 0 1\n' | same_file /dev/stdin out
	err_is "shm-expand: nosuchfile: No such file or directory"
}

@test "7: shm-expand -d: removes each segment only after writing it" {
	local a b
	a=$(mkseg a i32 2)
	b=$(mkseg b i32 2)
	printf 'x shmids %s\n' "$a" > in
	runio in shm_expand
	status_is 0
	exists "$a"
	printf 'x shmids %s\ny shmids %s\n' "$a" "$b" > in
	runio in shm_expand -d -f x
	status_is 0
	printf 'x 0 1\ny shmids %s\n' "$b" | same_file /dev/stdin out
	gone "$a"
	exists "$b"
}

@test "7: shm-expand: output to /dev/full: exit 1, nothing removed even with -d" {
	local a
	[ -w /dev/full ] || skip "no /dev/full"
	a=$(mkseg a i32 2)
	printf 'x shmids %s\n' "$a" > in
	status=0
	shm_expand -d < in > /dev/full 2> err || status=$?
	status_is 1
	err_is "shm-expand: stdout: No space left on device"
	exists "$a"
	status=0
	shm_expand < in > /dev/full 2> err || status=$?
	status_is 1
	exists "$a"
}

@test "2.2: shm-expand -w: waits for a writer that is still filling" {
	local l
	l=$(mkwriter w 1)
	printf 'x shmids %s\n' "$l" > in
	runio in shm_expand -w 10
	status_is 0
	is "$(cat out)" "x 0 1 2 3 4 5 6 7 8 9"
}

@test "2.2: shm-expand -w 0: a segment still filling is an error at once" {
	local l start
	l=$(mkwriter w 20)
	printf 'x shmids %s\n' "$l" > in
	start=$SECONDS
	runio in shm_expand -w 0
	status_is 1
	err_is "shm-expand: stdin:1: $l: $(why_of "still being written by pid @pid (-w 0: not waited for)" "$l")"
	same_file in out
	[ $((SECONDS - start)) -le 3 ]
}

@test "2.2: shm-expand -w 1, -w 2: wait the whole time asked, then give up" {
	local l secs start ms
	l=$(mkwriter w 30)
	printf 'x shmids %s\n' "$l" > in
	for secs in 1 2 1; do
		start=$(date +%s%N)
		runio in shm_expand -w "$secs"
		ms=$((($(date +%s%N) - start) / 1000000))
		status_is 1
		err_is "shm-expand: stdin:1: $l: $(why_of "still being written by pid @pid after $secs s (-w)" "$l")"
		same_file in out
		[ "$ms" -ge $((secs * 1000)) ] && [ "$ms" -lt $((secs * 1000 + 2000)) ] ||
		    { echo "-w $secs gave up after $ms ms" >&2; false; }
	done
}

@test "2.2: shm-expand -w: a writer that dies while waited for is an error at once" {
	local l pid start
	l=$(mkwriter w 20)
	pid=$(tail -n 1 "$T/.pids")
	printf 'x shmids %s\n' "$l" > in
	( sleep 0.5; kill "$pid" ) 3>&- &
	start=$SECONDS
	runio in shm_expand -w 20
	status_is 1
	err_is "shm-expand: stdin:1: $l: its writer (pid $pid) died before sealing it; shm-rm '$l' removes it"
	same_file in out
	[ $((SECONDS - start)) -le 5 ] || { echo "waited $((SECONDS - start)) s" >&2; false; }
}

@test "2.6: shm-expand -w: woken by the seal, System V and file segments" {
	local be l start ms
	for be in sysv file; do
		l=$(bgwriter writer "$be" "w$be" 0.5)
		printf 'x shmids %s\n' "$l" > in
		start=$(date +%s%N)
		runio in shm_expand -w 10
		ms=$(ms_since "$start")
		status_is 0
		is "$(cat out)" "x 0 1 2 3 4 5 6 7 8 9" "$be"
		[ "$ms" -lt 5000 ] || { echo "$be: $ms ms" >&2; false; }
	done
}

@test "2.2: shm-expand -w: a writer that seals without waking anyone is picked up" {
	local be l start ms
	for be in sysv file; do
		l=$(bgwriter foreign "$be" "f$be" 0.5)
		printf 'x shmids %s\n' "$l" > in
		start=$(date +%s%N)
		runio in shm_expand -w 10
		ms=$(ms_since "$start")
		status_is 0
		is "$(cat out)" "x 0 1 2 3 4 5 6 7 8 9" "$be"
		[ "$ms" -lt 5000 ] || { echo "$be: $ms ms" >&2; false; }
	done
}

@test "2.6: shm-expand -w: a file segment's writer that dies while waited for" {
	local l pid start
	l=$(bgwriter writer file w 20)
	pid=$(tail -n 1 "$T/.pids")
	printf 'x shmids %s\n' "$l" > in
	( sleep 0.5; kill "$pid" ) 3>&- &
	start=$SECONDS
	runio in shm_expand -w 20
	status_is 1
	err_is "shm-expand: stdin:1: $l: its writer died before sealing it; shm-rm '$l' removes it"
	same_file in out
	[ $((SECONDS - start)) -le 5 ] || { echo "waited $((SECONDS - start)) s" >&2; false; }
}

# Linux: the reader waits in FUTEX_WAIT (op 0: shared) on the word at
# offset 116 of the header's page, which holds "w\n" NUL NUL
# (format-spec.md 2.2); /proc/PID/syscall shows the call and arguments.
@test "2.2: shm-expand -w: sleeps on the header's futex word until the seal" {
	local be l pid i found want st addr op val
	[ -r /proc/self/syscall ] || skip "no /proc/PID/syscall"
	if [ "$ORDER" = le ]; then want=0xa77; else want=0x770a0000; fi
	for be in sysv file; do
		l=$(bgwriter writer "$be" "w$be" 3)
		printf 'x shmids %s\n' "$l" > in
		"$BIN/shm-expand" -w 20 < in > out 2> err 3>&- &
		pid=$!
		echo "$pid" >> "$T/.pids"
		found=
		for i in $(seq 40); do
			read -r _ addr op val _ < "/proc/$pid/syscall" 2>/dev/null ||
			    break
			if [ $((addr % 4096)) = 116 ] && [ "$op" = 0x0 ] &&
			    [ "$val" = "$want" ]; then
				found=1
				break
			fi
			sleep 0.05
		done
		st=0
		wait "$pid" || st=$?
		is "$found" 1 "$be: waiting in FUTEX_WAIT on the word at 116"
		is "$st" 0 "$be: exit status"
		is "$(cat out)" "x 0 1 2 3 4 5 6 7 8 9" "$be"
	done
}

@test "7: shm-expand: a line longer than the memory allows passes through" {
	local a
	need_limit shm-expand
	a=$(mkseg a i32 2)
	printf 'first\n' > in
	bigline in
	printf 'x shmids %s\nlast' "$a" >> in
	printf 'first\n' > want
	bigline want
	printf 'x 0 1\nlast' >> want
	runio in under_limit "$BIN/shm-expand"
	status_is 0
	same_file want out
	is "$(cat err)" "" "stderr"
	rm -f in out want
}

@test "5: shm-expand: a reference line too long to hold is copied unexpanded, said, and nothing after it lost" {
	local a
	need_limit shm-expand
	a=$(mkseg a i32 2)
	# Blanks after "shmids" keep it a reference line to the end.
	{ printf 'x shmids %s\ny shmids' "$a"
	  head -c 150000000 /dev/zero | tr '\0' ' '
	  printf '%s\nz\n' "$a"; } > in
	runio in under_limit "$BIN/shm-expand" -d
	status_is 1
	printf 'shm-expand: stdin:2: cannot hold this line: out of memory (address space limited? see ulimit -v): copied unexpanded\nshm-expand: -d: no segment removed, as a line that may name a segment was not held\n' |
	    same_file /dev/stdin err
	{ printf 'x 0 1\n'; tail -n +2 in; } | same_file /dev/stdin out
	exists "$a"
	rm -f in out
}

@test "1: shm-expand -d: a segment the output still names is not removed" {
	local a b c id
	a=$(mkseg a i32 2)
	b=$(mkseg b i32 2)
	c=$(mkseg c i32 2)
	# Outside -f: y names a, which x expanded; z names b, not expanded.
	printf 'x shmids %s\ny shmids %s\nz shmids %s\nw shmids %s\n' \
	    "$a" "$a" "$b" "$c" > in
	runio in shm_expand -d -f x,w
	status_is 1
	printf 'x 0 1\ny shmids %s\nz shmids %s\nw 0 1\n' "$a" "$b" |
	    same_file /dev/stdin out
	err_is "shm-expand: $a: not removed: stdin:2 still refers to it"
	exists "$a"
	exists "$b"
	gone "$c"
	# A reference that failed (another name, so stale) keeps its shmid.
	id=${a%% *}
	printf 'x shmids %s\ny shmids %s %sother\n' "$a" "$id" "$P" > in
	runio in shm_expand -d
	status_is 1
	printf 'x 0 1\ny shmids %s %sother\n' "$id" "$P" | same_file /dev/stdin out
	printf 'shm-expand: stdin:2: %s %sother: segment %s is labelled '\''%s'\''\nshm-expand: %s: not removed: stdin:2 still refers to it\n' \
	    "$id" "$P" "$id" "$a" "$a" | same_file /dev/stdin err
	exists "$a"
	# Expanded twice and named by nothing else: removed.
	printf 'x shmids %s\ny shmids %s\n' "$a" "$a" > in
	runio in shm_expand -d
	status_is 0
	gone "$a"
}

@test "7: shm-expand -d: nothing removed when an input file is missing" {
	local a
	a=$(mkseg a i32 2)
	printf 'x shmids %s\n' "$a" > f1
	runio /dev/null shm_expand -d f1 nosuchfile
	status_is 1
	printf 'shm-expand: nosuchfile: No such file or directory\nshm-expand: -d: no segment removed, as the input was not read in full\n' |
	    same_file /dev/stdin err
	exists "$a"
}

@test "5: shm-expand: long fields and blanks around a reference line" {
	local a f b
	a=$(mkseg a i32 2)
	f=$(head -c 9000 /dev/zero | tr '\0' f)
	b=$(head -c 5000 /dev/zero | tr '\0' ' ')
	# Fields and leading blanks past what is held still expand.
	printf '%s%s shmids %s\n%s shmids %s\nf shmids %s%s\n' \
	    "$b" "$f" "$a" "$f" "$a" "$a" "$b" > in
	runio in shm_expand -c 0
	status_is 0
	printf '%s%s 0 1\n%s 0 1\nf 0 1\n' "$b" "$f" "$f" | same_file /dev/stdin out
	# ... and are found malformed, or passed through, as short ones are.
	printf '%s\0%s shmids %s\n%s\r%s shmids %s\n%s shmidsx %s\n' \
	    "$f" "$f" "$a" "$f" "$f" "$a" "$f" "$a" > in
	runio in shm_expand
	status_is 1
	same_file in out
	printf 'shm-expand: stdin:1: malformed reference: NUL byte in reference\nshm-expand: stdin:2: malformed reference: CR inside reference\n' |
	    same_file /dev/stdin err
}

# Attack finding (review-attack): a malformed reference line copied to
# the output still names the expanded segment by its id; -d removed it.
@test "5: shm-expand -d: a malformed reference line naming the segment keeps it" {
	local a
	a=$(mkseg a i32 2)
	printf 'x shmids %s\ny shmids %s extra\n' "$a" "$a" > in
	runio in shm_expand -d
	status_is 1
	printf 'x 0 1\ny shmids %s extra\n' "$a" | same_file /dev/stdin out
	printf 'shm-expand: stdin:2: malformed reference: text after the label\nshm-expand: %s: not removed: stdin:2 still refers to it\n' "$a" |
	    same_file /dev/stdin err
	exists "$a"
	# a CR within: the id token up to it still names the segment
	printf 'x shmids %s\nz shmids %s\r\r\n' "$a" "$a" > in
	runio in shm_expand -d
	status_is 1
	exists "$a"
}

# --- A request that matched nothing (issue 12, item 3) -------------------

@test "7: shm-expand -f: a field no line has is reported at the end; input copied, exit 1" {
	local a
	a=$(mkseg a i32 2)
	printf 'coeff shmids %s\nx 1\n' "$a" > in
	runio in shm_expand -f cooef
	status_is 1
	same_file in out
	err_is "shm-expand: -f cooef: no such field in the input"
	# a field named twice is reported once; one that matched is not
	runio in shm_expand -f cooef,coeff,cooef
	status_is 1
	printf 'coeff 0 1\nx 1\n' | same_file /dev/stdin out
	err_is "shm-expand: -f cooef: no such field in the input"
	exists "$a"
}

@test "5: shm-expand -f: a field with no reference line (already expanded?) is reported; exit 1" {
	printf 'coeff 0 1\n' > in
	runio in shm_expand -f coeff
	status_is 1
	same_file in out
	err_is "shm-expand: -f coeff: no reference line has this field"
}

@test "4: shm-expand -t: no raw segment in the input is reported; exit 1" {
	local a
	a=$(mkseg a i32 2)
	printf 'x shmids %s\n' "$a" > in
	runio in shm_expand -t f64
	status_is 1
	is "$(cat out)" "x 0 1"
	err_is "shm-expand: -t f64: no raw segment in the input (-t applies to raw segments only)"
}

@test "7: shm-expand < f >> f: input file is output file, as cat says; exit 1, nothing written" {
	local l
	l=$(mkseg big i32 100000)
	printf 'x shmids %s\n' "$l" > f
	cp f orig
	run --separate-stderr timeout 10 sh -c '"$0" < f >> f' "$BIN/shm-expand"
	status_is 1
	is "$output" ""
	is "$stderr" "shm-expand: stdin: input file is output file"
	same_file orig f
	run --separate-stderr timeout 10 sh -c '"$0" -d f - f < f >> f' "$BIN/shm-expand"
	status_is 1
	is "$stderr" "shm-expand: f: input file is output file
shm-expand: stdin: input file is output file
shm-expand: f: input file is output file"
	same_file orig f
	exists "$l"
	# truncated by the shell first: empty, nothing to read or refuse
	run --separate-stderr timeout 10 sh -c '"$0" < f > f' "$BIN/shm-expand"
	status_is 0
	is "$stderr" ""
	[ ! -s f ]
}

@test "2.2: shm-expand -d | head: removed if all was written before head left; killed by SIGPIPE (or EPIPE), nothing removed" {
	local big small st
	big=$(mkseg big f64 1000000)
	small=$(mkseg small f64 10)
	# more than any pipe buffer: head leaves, the next write fails
	printf 'x shmids %s\n' "$big" > in
	run bash -c '"$0" -d < in | head -c 10 > /dev/null; echo "${PIPESTATUS[0]}"' \
	    "$BIN/shm-expand"
	is "$output" 141 "exit status"
	exists "$big"
	run bash -c 'trap "" PIPE; "$0" -d < in 2> err | head -c 10 > /dev/null
	    echo "${PIPESTATUS[0]}"' "$BIN/shm-expand"
	is "$output" 1 "exit status, SIGPIPE ignored"
	is "$(cat err)" "shm-expand: stdout: Broken pipe"
	exists "$big"
	# all of it in the pipe before head reads: written, so removed
	printf 'x shmids %s\n' "$small" > in
	run bash -c '{ "$0" -d < in; echo $? > st; } |
	    { while [ ! -s st ]; do sleep 0.05; done; head -c 10 > /dev/null; }' \
	    "$BIN/shm-expand"
	is "$(cat st)" 0 "exit status"
	gone "$small"
}
