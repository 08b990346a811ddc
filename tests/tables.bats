#!/usr/bin/env bats
# Tables (format-spec.md 2.7, 5, 6.1, 7) on real data, generated here:
# numpy.savetxt matrices, R's data sets, awk output, gnuplot's demo
# files.  For each: shm-import makes table segments, shm-expand -d gives
# the same values back bit for bit, and numpy or R reads the expansion.

load helper

# samevalues A B: the files have the same lines; where they differ, both
# are rows of the same separator and width whose values have the same
# bits (a text line must be the same bytes).  Python without numpy.
samevalues() {
	local py
	py=$(python_with struct) || skip "no python3"
	"$py" - "$1" "$2" <<-'EOF'
	import re, struct, sys
	def toks(l):
	    l = l.rstrip('\r').strip()
	    return re.split(r'\s*,\s*|\s+', l) if l else []
	def bits(t):
	    if t == 'NA':
	        return t
	    try:
	        return struct.pack('<d', float(t))
	    except ValueError:
	        return None
	a = open(sys.argv[1], 'rb').read().decode('latin-1').split('\n')
	b = open(sys.argv[2], 'rb').read().decode('latin-1').split('\n')
	if len(a) != len(b):
	    sys.exit('%d lines, %d lines' % (len(a), len(b)))
	for i, (x, y) in enumerate(zip(a, b)):
	    if x == y:
	        continue
	    tx, ty = toks(x), toks(y)
	    if len(tx) != len(ty) or (',' in x) != (',' in y) or \
	            any(bits(p) is None or bits(p) != bits(q)
	                for p, q in zip(tx, ty)):
	        sys.exit('line %d: %r, %r' % (i + 1, x, y))
	EOF
}

# tables FILE: the labels of FILE's table reference lines, one a line.
tables() {
	sed -n 's/^[ \t]*shmids,*[ \t][ \t]*\([^ \t]*\)[ \t][ \t]*\([^ \t\r]*\).*/\1 \2/p' "$1"
}

# roundtrip FILE [IMPORT-OPTION...]: FILE through shm-import (ref) and
# shm-expand -d (back); the values must be the same, every segment gone.
roundtrip() {
	local f=$1 l
	shift
	shm_import -P "$P" "$@" "$f" > ref
	tables ref > labels
	while read -r l; do track "$l"; done < labels
	shm_expand -d ref > back
	samevalues "$f" back
	no_segments_named "$P"
}

# expand_d FILE: shm-expand -d FILE into out and err, as runio does.
expand_d() {
	cp "$1" ref
	runio ref shm_expand -d
}

@test "6.1: tables: -f and -t of a number are usage errors (a number is never a field)" {
	bad_args shm-import "shm-import [-f fields] [-k min] [-m mode] [-P prefix] [-t [field=]type] [--stream[=slots]] [file ...]" <<-'EOF'
	-f 1|-f 1: a number is never a field (a line that begins with a number is a table row)
	-f a,nan|-f nan: a number is never a field (a line that begins with a number is a table row)
	-f NA|-f NA: a number is never a field (a line that begins with a number is a table row)
	-t 0x1p-3=f32|-t 0x1p-3: a number is never a field (a line that begins with a number is a table row)
	EOF
	bad_args shm-expand "shm-expand [-dr] [-c cols] [-f fields] [-F type=style] [-t type] [-w seconds] [file ...]" <<-'EOF'
	-f -0.5|-f -0.5: a number is never a field (a line that begins with a number is a table row)
	EOF
}

@test "6.1: tables: a block becomes one table segment and one 'shmids' line; comments, blanks and the CSV header stay" {
	local l
	{
		printf '# two blocks, gnuplot style\n'
		for i in 1 2 3; do printf '%s 0.5 -%s\n' "$i" "$i"; done
		printf '\n\n'
		printf '"x","y"\n'
		for i in 1 2 3 4; do printf '%s,1e-05\n' "$i"; done
	} > in
	runio in shm_import -k 6 -P "$P"
	status_is 0
	err_is ''
	is "$(grep -c '^shmids' "$T/out")" 2 "table lines"
	tables "$T/out" > labels
	while read -r l; do track "$l"; done < labels
	like "$(sed -n 2p "$T/out")" "shmids [0-9]* ${P}stdin:2"
	like "$(sed -n 6p "$T/out")" "shmids, [0-9]* ${P}stdin:8"
	is "$(sed -n '1p;3,5p' "$T/out")" "$(printf '# two blocks, gnuplot style\n\n\n"x","y"')"
	run -0 shmtool shape "$(sed -n 1p labels)"
	is "$output" "open 2 3 3 stat 2 3 3 scan 2 3 3"
	run -0 shmtool shape "$(sed -n 2p labels)"
	is "$output" "open 2 4 2 stat 2 4 2 scan 2 4 2"
	expand_d "$T/out"
	status_is 0
	same_file in out
	no_segments_named "$P"
}

@test "6.1: tables: the canonical layout comes back byte for byte: leading blanks, CRLF, commas, no final newline" {
	local f
	printf '  1 2.5 -0\n  nan inf -inf\n  NA 0.1 1e+300\n' > a
	printf '1,2\r\n3,4\r\n5,6\r\n' > b
	printf '1e-05 -7.391544078297146e+17\n9999999999999998 0.0001' > c
	printf 'x 1 2 3\n1 2\n3 4\n' > d
	for f in a b c d; do
		runio "$f" shm_import -k 1 -P "$P"
		status_is 0
		is "$(grep -c '^ *shmids' "$T/out")" 1 "$f: one table reference line"
		tables "$T/out" > labels
		track "$(cat labels)"
		expand_d "$T/out"
		status_is 0
		same_file "$f" out
	done
	no_segments_named "$P"
}

@test "6, 6.1: a CRLF file whose last line has no LF, or ends in a bare CR, keeps its line ends: tables byte for byte, keyed arrays wrapped in CRLF" {
	local f in back
	# input (printf) | expansion of its keyed array at -c 4, if any
	while IFS='|' read -r in back; do
		printf "$in" > f
		runio f shm_import -k 2 -P "$P"
		status_is 0
		tables "$T/out" > labels
		[ -s labels ] && track "$(cat labels)"
		sed -n 's/^x shmids //p' "$T/out" | tr -d '\r' > labels
		[ -s labels ] && track "$(cat labels)"
		cp "$T/out" ref
		if [ -n "$back" ]; then
			runio ref shm_expand -c 4
			status_is 0
			printf "$back" > want
			same_file want out
			# read back as the same array, by shm-import
			cp out back
			runio back shm_import -k 2 -P "$P"
			status_is 0
			grep -q '^x shmids ' "$T/out"
			sed -n 's/^x shmids //p' "$T/out" | tr -d '\r' > l2
			track "$(cat l2)"
			cp out ref2
			runio ref2 shm_expand -d
			is "$(grep '^x' out | tr -d '\r')" "x 1 2 3 4"
			runio ref shm_expand -d
		else
			runio ref shm_expand -d
			status_is 0
			same_file f out
		fi
	done <<- 'EOF'
	a,b\r\n1,2\r\n3,4|
	a,b\r\n1,2\r\n3,4\r|
	1 2\r\n3 4\r|
	a b\r\n1 2\r\n3 4|
	x 1 2 3 4\r|x 1 /\r\n  2 /\r\n  3 /\r\n  4\r
	y\r\nx 1 2 3 4|y\r\nx 1 /\r\n  2 /\r\n  3 /\r\n  4
	x 1 2 3 4\n|x 1 /\n  2 /\n  3 /\n  4\n
	EOF
	no_segments_named "$P"
}

@test "6.1: integers of more than 53 bits in a default-type table: said once, with -t i64; -t i64 keeps them; no word for exact ones" {
	local in say
	# rows (printf) | what shm-import says
	while IFS='|' read -r in say; do
		printf "$in" > f
		runio f shm_import -k 2 -P "$P"
		status_is 0
		is "$(cat err)" "$say" "$in"
		tables "$T/out" > labels
		track "$(cat labels)"
		cp "$T/out" ref
		runio ref shm_expand -d
		status_is 0
	done <<- 'EOF'
	0x7fffffffffffffff 1\n2 3\n|shm-import: stdin:1: 0x7fffffffffffffff: an integer of more than 53 bits, rounded in f64 (the default type): -t i64 keeps it exact
	1 2\n9007199254740993,4\n|
	1,2\n9007199254740993,4\n9007199254740995,4\n|shm-import: stdin:2: 9007199254740993: an integer of more than 53 bits, rounded in f64 (the default type): -t i64 keeps it exact
	9007199254740992 1\n1e300 -9007199254740992\n|
	99999999999999999999 1\n2 3\n|
	1.5 9007199254740993.0\n2 3\n|
	EOF
	printf '0x7fffffffffffffff 1\n2 3\n' > f
	runio f shm_import -t i64 -k 2 -P "$P"
	status_is 0
	is "$(cat err)" ""
	tables "$T/out" > labels
	track "$(cat labels)"
	cp "$T/out" ref
	runio ref shm_expand -d
	is "$(cat out)" "9223372036854775807 1
2 3"
	no_segments_named "$P"
}

# mixed ROWS SEP BACK WHAT: printf ROWS makes one block, its reference
# line has SEP after "shmids", and printf BACK is its expansion.
mixed() {
	local l
	printf "$1" > c
	runio c shm_import -k 1 -P "$P"
	status_is 0
	l=$(tables "$T/out")
	track "$l"
	is "$(cat "$T/out")" "shmids$2$l" "$4"
	expand_d "$T/out"
	is "$(cat "$T/out")" "$(printf "$3")" "$4: back"
}

@test "6.1: tables: tab-separated rows come back tab-separated, byte for byte ('shmids<TAB>'); a mixed block as its first row" {
	local l
	printf 'x\ty\tz\n' > a
	for i in 1 2 3 4 5; do printf '%s\t0.%s\t-%s.5\n' "$i" "$i" "$i"; done >> a
	printf '  1\t2\r\n  3\t4\r\n' > b
	for f in a b; do
		runio "$f" shm_import -k 1 -P "$P"
		status_is 0
		l=$(tables "$T/out")
		track "$l"
		is "$(grep -c "^ *shmids	$l" "$T/out")" 1 "$f: a tab after 'shmids'"
		expand_d "$T/out"
		status_is 0
		same_file "$f" out
	done
	mixed '1\t2\n3 4\n5\t6\n' '	' '1\t2\n3\t4\n5\t6' "first row tab-separated"
	mixed '1 2\n3\t4\n1\t\t2\n' ' ' '1 2\n3 4\n1 2' "first row blank-separated"
	mixed '1\t\t2\n3\t4\n' ' ' '1 2\n3 4' "two tabs are no tab-separated row"
	no_segments_named "$P"
}

@test "6.1, 7: tables: what is not a block passes through unchanged: one row (said at the end), too few values, rows of other widths or separators" {
	seq 1 100 | paste -sd' ' > in
	printf '1 2\n3 4\n\n1 2\n3\n4,5\n6 7\n1 2 /\n3 4\n' >> in
	runio in shm_import -P "$P"
	status_is 0
	# the row of 100 alone, said at the end (format-spec.md 7)
	err_is "shm-import: stdin:1: a row of 100 values alone stays text (a table needs 2 rows or more); a field name makes it an array: ... | sed '1s/^/x /' | shm-import"
	same_file in out
	runio in shm_import -k 2 -P "$P"
	status_is 0
	is "$(grep -c '^shmids' "$T/out")" 1 "only '1 2 / 3 4' is no block: '1 2 /' is text"
	tables "$T/out" > labels
	track "$(cat labels)"
	expand_d "$T/out"
	same_file in out
}

@test "2.7: shm-import: nothing converted, though table blocks were there: says the largest, its shape and -k; or -t's type; exit 0" {
	{ printf '# glass\n\n\n\n'; for i in $(seq 1 16); do printf '%s 1.5 -2\n' "$i"; done; } > glass.dat
	runio glass.dat shm_import -P "$P"
	status_is 0
	same_file glass.dat out
	err_is "shm-import: no table converted: the largest, stdin:5 (16x3, 48 values), has fewer than -k 64; -k 48 converts it"
	runio glass.dat shm_import -P "$P" -k 100000
	status_is 0
	err_is "shm-import: no table converted: the largest, stdin:5 (16x3, 48 values), has fewer than -k 100000; -k 48 converts it"
	runio glass.dat shm_import -P "$P" -t i32
	status_is 0
	same_file glass.dat out
	err_is "shm-import: no table converted: stdin:5 holds rows whose values are not i32 (-t i32)"
	printf 'coeff 0 1 2 3 4 5 6 7 8 9\n' >> glass.dat
	runio glass.dat shm_import -P "$P"
	status_is 0
	is "$(cat "$T/err")" "$(printf '%s\n' "shm-import: no table converted: the largest, stdin:5 (16x3, 48 values), has fewer than -k 64; -k 48 converts it" "shm-import: no array converted: the longest, coeff (stdin:21), has 10 values, fewer than -k 64; -k 10 or -f coeff converts it")"
	runio glass.dat shm_import -P "$P" -k 48
	status_is 0
	err_is ""
	track "$(tables "$T/out")"
}

@test "6.1: shm-import: rows that begin with R's row names are said to be so, never offered as -f" {
	printf '"V1" "V2" "V3" "V4" "V5" "V6" "V7" "V8" "V9" "V10" "V11"\n' > v.tab
	for i in $(seq 1 20); do printf '"%s" 100 100 101 101 101 100 100 100 101 101 102\n' "$i"; done >> v.tab
	runio v.tab shm_import -P "$P"
	status_is 0
	same_file v.tab out
	err_is "shm-import: stdin:2: rows begin with R's row names (\"1\"): write them with row.names = FALSE"
	printf '"","lat","long"\n"1",-20.42,181.62\n"2",-20.62,181.03\n' > q.csv
	runio q.csv shm_import -P "$P"
	status_is 0
	same_file q.csv out
	err_is "shm-import: stdin:2: rows begin with R's row names (\"1\"): write them with row.names = FALSE"
	printf '"a" 1 2 3 4 5 6 7 8 9 10\n' > in
	runio in shm_import -P "$P"
	err_is "shm-import: no array converted: the longest, \"a\" (stdin:1), has 10 values, fewer than -k 64; -k 10 or -f \"a\" converts it"
}

@test "6.1: tables: -f leaves blocks as text; -t gives their type, and rows not of it end a block" {
	local l
	printf '1 2\n3 4\n5 6\nx 1 2\n' > in
	runio in shm_import -f x -k 1 -P "$P"
	status_is 0
	is "$(head -3 "$T/out")" "$(head -3 in)" "the block, as text"
	tables "$T/out" > labels
	[ ! -s labels ]
	track "$(sed -n 4p "$T/out" | cut -d' ' -f3-)"
	printf '1 2\n3 4\n5.5 6\n' > in
	runio in shm_import -t i32 -k 1 -P "$P"
	status_is 0
	l=$(tables "$T/out")
	track "$l"
	is "$(sed -n 2p "$T/out")" "5.5 6" "a row of f64 is no row of i32"
	run -0 shmtool open "$l"
	is "$output" "i32 4 10"
}

@test "6.1: tables: names: prefix, the file's name without directories, and the first line" {
	mkdir -p d
	printf '# x\n1 2\n3 4\n' > 'd/my data.txt'
	run -0 shm_import -k 1 -P "${P}r/" 'd/my data.txt'
	like "$output" "*shmids [0-9]* ${P}r/my_data.txt:2"
	track "$(tables /dev/stdin <<< "$output")"
	printf '1 2\n3 4\n' | { run -0 shm_import -k 1 -P "$P"; printf '%s\n' "$output"; } > out
	like "$(cat out)" "shmids [0-9]* ${P}stdin:1"
	track "$(tables out)"
}

@test "6.1: shm-expand: -f copies table references, -d keeps them; -r gives the rows; a number as a field is malformed" {
	local l
	printf '1,2\n3,4\n' > in
	runio in shm_import -k 1 -P "$P"
	l=$(tables "$T/out")
	track "$l"
	cp "$T/out" ref
	printf 'x shmids %s\n' "$l" >> ref
	run -1 --separate-stderr shm_expand -d -f x ref
	is "$output" "$(printf 'shmids, %s\nx 1 2 3 4' "$l")"
	is "$stderr" "shm-expand: $l: not removed: ref:1 still refers to it"
	exists "$l"
	run -0 shm_expand -r ref
	is "$output" "$(printf '1,2\n3,4\n1 2 3 4')"
	printf '1 shmids %s\nshmids %s junk\n' "$l" "$l" > bad
	run -1 --separate-stderr shm_expand -d bad
	is "$output" "$(cat bad)"
	is "$stderr" "$(printf "shm-expand: bad:1: malformed reference: a number is not a field: if shm-import 1.1 made this of a row, the row is 1, then the values of segment '%s' (echo 'x shmids %s' | shm-expand writes them)\nshm-expand: bad:2: malformed reference: text after the label" "$l" "$l")"
	exists "$l"
}

@test "6.1: shm-expand -r: rows and comma rows left inline (under -k) are written as they are; other text is dropped" {
	local l
	{
		printf '# a big block\n'
		for i in $(seq 1 40); do printf '%s 0.5 -%s\n' "$i" "$i"; done
		printf '\n# a small one, left inline\n1 2 3\n4 5 6\n'
		printf 'x,y,z\n7,8,9\n'
		seq 1 2000 | paste -sd' '
		printf 'text 1 2\n1 2 /\n'
	} > in
	runio in shm_import -k 100 -P "$P"
	status_is 0
	l=$(tables "$T/out")
	track "$l"
	is "$(grep -c . "$T/out")" 10 "one block converted, the rest inline"
	cp "$T/out" ref
	run -0 --separate-stderr shm_expand -r -d ref
	is "$stderr" ""
	is "$(printf '%s\n' "$output" | wc -l)" 44 "40 rows, 2, 1 comma row, 1 long row"
	is "$(printf '%s\n' "$output" | sed -n '41,43p')" "$(printf '1 2 3\n4 5 6\n7,8,9')"
	is "$(printf '%s\n' "$output" | sed -n 44p)" "$(seq 1 2000 | paste -sd' ')" "a row of 8 KiB, whole"
	printf '1 2\n3 4\n' > rows
	run -0 --separate-stderr shm_expand -r rows
	is "$output" "$(cat rows)" "rows alone: written, no complaint"
	is "$stderr" ""
	no_segments_named "$P"
}

@test "6.1: numpy: savetxt matrices with NaN, inf and -0 (%.18e, %g, delimiter=','), back bit for bit, read by loadtxt" {
	local py fmt
	py=$(python_with numpy) || skip "no python3 with numpy"
	"$py" - <<-'EOF'
	import numpy as np
	rng = np.random.default_rng(20)
	m = rng.standard_normal((200, 7)) * 10.0 ** rng.integers(-20, 20, (200, 7))
	m[0, 0] = np.nan; m[1, 1] = np.inf; m[2, 2] = -np.inf; m[3, 3] = -0.0
	np.save('m.npy', m)
	np.savetxt('e.txt', m)                       # %.18e
	np.savetxt('g.txt', m, fmt='%g')
	np.savetxt('c.txt', m, delimiter=',')
	np.savetxt('h.txt', m[:, :3], header='a b c')  # a '#' header line
	EOF
	for fmt in e g c h; do
		roundtrip "$fmt.txt"
		is "$(wc -l < labels)" 1 "$fmt: one table"
		cp back "$fmt.back"
	done
	"$py" - <<-'EOF'
	import numpy as np, sys
	m = np.load('m.npy')
	# back: the last expansion; each format's own, read again here
	for f, d, want in (('e', None, m), ('c', ',', m), ('h', None, m[:, :3]),
	                   ('g', None, np.loadtxt('g.txt'))):
	    got = np.loadtxt(f + '.back', delimiter=d)
	    if got.shape != want.shape or \
	            (got.view(np.uint64) != want.view(np.uint64)).any():
	        sys.exit(f + ': not the same bits')
	EOF
}

@test "2.7: numpy: the expansion of a table is read by loadtxt as the matrix imported, bits and shape" {
	local py
	py=$(python_with numpy) || skip "no python3 with numpy"
	"$py" -c 'import numpy as np; m = np.arange(-30, 30).reshape(6, 10) / 7; m[2, 3] = -0.0; m[4, 4] = np.nan; np.save("m.npy", m); np.savetxt("m.txt", m, delimiter=",")'
	run -0 shm_import -P "$P" -k 1 m.txt
	printf '%s\n' "$output" > m.shm
	track "$(tables m.shm)"
	run -0 shmtool shape "$(tables m.shm)"
	is "$output" "open 2 6 10 stat 2 6 10 scan 2 6 10"
	run -0 shm_expand -d m.shm
	printf '%s\n' "$output" > back.txt
	"$py" -c 'import numpy as np, sys; m = np.load("m.npy"); b = np.loadtxt("back.txt", delimiter=","); sys.exit(int(b.shape != m.shape or (b.view(np.uint64) != m.view(np.uint64)).any()))'
}

@test "6.1: R: volcano, faithful and quakes by write.table and write.csv, back as identical data frames" {
	local l
	command -v Rscript > /dev/null || skip "no Rscript (Debian: r-base-core)"
	Rscript -e 'write.table(volcano, "volcano.txt", row.names = FALSE, col.names = FALSE)' \
	    -e 'write.csv(faithful, "faithful.csv", row.names = FALSE)' \
	    -e 'write.table(quakes, "quakes.txt", row.names = FALSE, col.names = FALSE)' \
	    -e 'write.csv(quakes, "quakes.csv", row.names = FALSE)'
	shm_import -P "$P" volcano.txt > v.shm
	l=$(tables v.shm)
	track "$l"
	run -0 shmtool shape "$l"
	is "$output" "open 2 87 61 stat 2 87 61 scan 2 87 61"
	shm_rm "$l"
	roundtrip volcano.txt
	is "$(wc -l < labels)" 1 "volcano: one table"
	cp back volcano.back
	roundtrip faithful.csv
	is "$(head -1 ref)" '"eruptions","waiting"' "the CSV header stays"
	cp back faithful.back
	roundtrip quakes.txt
	cp back quakes.back
	roundtrip quakes.csv
	cp back quakesc.back
	cat > check.R <<-'EOF'
	stopifnot(identical(read.table("volcano.back"), read.table("volcano.txt")),
	    identical(read.csv("faithful.back"), read.csv("faithful.csv")),
	    identical(read.table("quakes.back"), read.table("quakes.txt")),
	    identical(read.csv("quakesc.back"), read.csv("quakes.csv")),
	    all(as.matrix(read.table("volcano.back")) == volcano))
	EOF
	run Rscript check.R
	is "$status $output" "0 "
}

@test "6.1: R: write.table(sep = \"\\t\") comes back byte for byte, and read.delim reads it identical()" {
	command -v Rscript > /dev/null || skip "no Rscript (Debian: r-base-core)"
	Rscript -e 'write.table(quakes, "quakes.tsv", sep = "\t", row.names = FALSE)'
	roundtrip quakes.tsv
	is "$(grep -c '^shmids	' ref)" 1 "one tab-separated table"
	same_file quakes.tsv back
	run -0 Rscript -e 'stopifnot(identical(read.delim("back"), read.delim("quakes.tsv")))'
}

@test "6.1: R: NA in a table comes back as NA" {
	command -v Rscript > /dev/null || skip "no Rscript (Debian: r-base-core)"
	Rscript -e 'x <- airquality[1:40, ]; write.csv(x, "aq.csv", row.names = FALSE)'
	roundtrip aq.csv
	is "$(grep -c '^shmids' ref)" 1
	run -0 Rscript -e 'stopifnot(identical(read.csv("back"), read.csv("aq.csv")))'
}

@test "6.1: awk: rows printed by awk (%.17g, blank lines between blocks) back bit for bit" {
	# mawk prints the locale's decimal mark (1,5 under de_DE): the
	# numbers a user's awk writes are C's, as section 6 reads them
	LC_ALL=C awk 'BEGIN { for (b = 0; b < 3; b++) { for (i = 0; i < 50; i++) {
		for (j = 0; j < 4; j++) printf "%s%.17g", (j ? "\t" : ""), sin(i * j + b) * 10 ^ (j - 2)
		print "" } print "" } }' > awk.txt
	roundtrip awk.txt
	is "$(wc -l < labels)" 3 "three blocks"
}

@test "6.1: gnuplot: the demo data files (gnuplot-doc) through the pipeline, same values, text lines untouched" {
	local d=/usr/share/doc/gnuplot/examples f n=0 fails=
	ls "$d"/*.dat > /dev/null 2>&1 || skip "no gnuplot demo data (Debian: gnuplot-doc)"
	for f in "$d"/*.dat; do
		roundtrip "$f" || fails+="[$f] "
		n=$((n + $(wc -l < labels)))
	done
	is "$fails" "" "failures"
	[ "$n" -ge 50 ] || { echo "only $n tables in the demo files" >&2; false; }
}

@test "6.1: shm-expand: a table reference to a 1-D segment gives a column; a reference line to a table, its values inline" {
	local a t
	a=$(mkseg flat i32 3)
	t=$(_mk table "${P}tab" i32 2 2)
	printf 'shmids %s\nx shmids %s\n' "$a" "$t" > in
	run -0 shm_expand in
	is "$output" "$(printf '0\n1\n2\nx 0 1 2 3')"
	printf 'shmids, %s\n' "$t" > in
	run -0 shm_expand -F i32=hex in
	is "$output" "$(printf '0x0,0x1\n0x2,0x3')"
}

@test "6.1: gnuplot: a plot of each demo file's expansion is the same picture as of the file" {
	local d=/usr/share/doc/gnuplot/examples f x n=0 fails=
	ls "$d"/*.dat > /dev/null 2>&1 || skip "no gnuplot demo data (Debian: gnuplot-doc)"
	command -v gnuplot > /dev/null || skip "no gnuplot (Debian: gnuplot-nox)"
	for f in "$d"/*.dat; do
		cp "$f" o.dat
		shm_import -P "$P" o.dat > o.shm
		shm_expand -d o.shm > e.dat
		for x in o e; do
			gnuplot -e "set terminal dumb 100 40; set output '$x.txt'; plot '$x.dat' using 1:2 notitle with lines" 2> /dev/null || true
		done
		[ -s o.txt ] || continue
		n=$((n + 1))
		cmp -s o.txt e.txt || fails+="[$f] "
		rm -f o.txt e.txt
	done
	is "$fails" "" "pictures that differ"
	[ "$n" -ge 30 ] || { echo "only $n pictures drawn" >&2; false; }
	no_segments_named "$P"
}

@test "6.1: tables: rows with two CRs, or over 4000 leading blanks, are text; a table reference ending in a bare CR gives CRLF rows, the last ending in the CR" {
	local l
	printf '1 2\n3 4\r\r\n5 6\n' > in
	runio in shm_import -k 2 -P "$P"
	status_is 0
	same_file in out "'3 4' with two CRs is text: no block of two rows"
	for l in 1 2 3; do printf '%*s1 2\n' 4001 ''; done > in
	runio in shm_import -k 2 -P "$P"
	status_is 0
	same_file in out "rows shm-expand could not give all their blanks back"
	l=$(_mk table "${P}cr" f64 2 2)
	printf 'shmids %s\r' "$l" > in
	runio in shm_expand
	status_is 0
	printf '0 1\r\n2 3\r' | same_file /dev/stdin out
	# a hand-made reference with more blanks than shm-expand holds stays
	{ printf '%*s' 5000 ''; printf 'shmids %s\n' "$l"; } > in
	runio in shm_expand -d
	status_is 1
	same_file in out
	is "$(cat err)" "shm-expand: stdin:1: $l: a table reference with over 4 KiB of leading blanks: copied unexpanded"
	exists "$l"
}

@test "6.1: tables: a file segment's table name is cut to fit the label beside a long SHMIDS_DIR" {
	local D pad
	# a directory that leaves 12 bytes of the label's 75 for the name
	# (its path: "/shmids.<uid>.XXXXXX", 15 bytes and the uid's)
	pad=$((75 - 12 - 1 - 15 - ${#EUID} - ${#T} - 1))
	[ "$pad" -ge 1 ] || skip "the test directory's path is too long"
	D=$T/$(printf 'd%.0s' $(seq "$pad"))
	mkdir -p "$D"
	printf '1 2\n3 4\n' > a_rather_long_file_name_for_tables.txt
	SHMIDS_DIR=$D run --separate-stderr "$BIN/shm-import" -k 2 a_rather_long_file_name_for_tables.txt
	status_is 0
	is "$stderr" ""
	track "$(tables /dev/stdin <<< "$output")"
	like "$output" "shmids $D/shmids.$(id -u).?????? tables.txt:1"
	printf '%s\n' "$output" > ref
	SHMIDS_DIR=$D runio ref shm_expand -d
	status_is 0
	printf '1 2\n3 4\n' | same_file /dev/stdin out
}

# cut_rows N LINE TEXT: N rows of 3 values, line LINE (0: none) replaced
# by TEXT.
cut_rows() {
	local i
	for ((i = 1; i <= $1; i++)); do
		if [ "$i" = "$2" ]; then printf '%s\n' "$3"
		else printf '%s.5 0.25 -%s.75\n' "$i" "$i"; fi
	done
}

@test "7: shm-import: a typo in a table row that cuts the table in two is said; a text line of another kind is not" {
	local l line text msg fails=
	while IFS='|' read -r line text msg; do
		cut_rows 30 "$line" "$text" > in
		runio in shm_import -k 6 -P "$P"
		tables "$T/out" > labels
		while read -r l; do track "$l"; done < labels
		[ "$status" = 0 ] || fails+="[$text: exit $status] "
		[ "$(cat "$T/err")" = "$msg" ] || fails+="[$text: $(cat "$T/err")] "
		expand_d "$T/out"
		cmp -s in out || fails+="[$text: not the input back] "
	done <<-EOF
	15|15.5 2.1e-0l -15.75|shm-import: stdin:15: "2.1e-0l" is no number: the table is cut in two there (rows 1-14 and 16-30 made 2 segments; correct it)
	15|15.5 -6,26e-01 -15.75|shm-import: stdin:15: "-6,26e-01" is no number: the table is cut in two there (rows 1-14 and 16-30 made 2 segments; correct it)
	15|1.2.3 0.25 -15.75|shm-import: stdin:15: "1.2.3" is no number: the table is cut in two there (rows 1-14 and 16-30 made 2 segments; correct it)
	30|30.5 0.25 -3o.75|shm-import: stdin:30: "-3o.75" is no number: the row left as text (after the table of rows 1-29; correct it)
	1|1.5 0.2S -1.75|shm-import: stdin:1: "0.2S" is no number: the row left as text (before the table of rows 2-30; correct it)
	15||
	15|# 1 2 3|
	15|a b c|
	15|1 2 x|shm-import: stdin:1-30: a table of 30 rows, 89 values, stayed text in part (29 of its rows made 2 segments): column 3 is text ("x", line 15); a row holds numbers only: leave column 3 out
	15|1 2|
	15|1 2 3 4e-0l|
	15|"1" 2 3e-0l|
	EOF
	is "$fails" "" "failures"
	# more than one: the first said, and how many
	cut_rows 30 10 "10.5 0.2S 1" | sed '20s/0.25/0.2S/' > in
	runio in shm_import -k 6 -P "$P"
	tables "$T/out" > labels
	while read -r l; do track "$l"; done < labels
	status_is 0
	err_is 'shm-import: stdin:10: "0.2S" is no number: the table is cut in two there (rows 1-9 and 11-19 made 2 segments; correct it); 2 such lines in all'
	# under -k: the blocks stay text, and the cut is said all the same
	cut_rows 30 15 "15.5 2.1e-0l -15.75" > in
	runio in shm_import -k 100 -P "$P"
	status_is 0
	[[ $(cat "$T/err") == *'stdin:15: "2.1e-0l" is no number: the table is cut in two there (rows 1-14 and 16-30 left as text; correct it)'* ]] ||
	    { cat "$T/err" >&2; false; }
}
