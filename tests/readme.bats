#!/usr/bin/env bats
# The README's commands, run as written: the quick start on the sample
# file examples/data.txt in README.md, and the tour's (examples/README.md)
# numpy, R, table and pipe examples; and what the man pages' examples
# say of shm-ls -a and shm-expand -r.

load helper

TOP=$BATS_TEST_DIRNAME/..
README=$TOP/README.md
TOUR=$TOP/examples/README.md

# A top directory after make, in $T/top: the tools under test in
# build/bin, the sample file in examples/.
mktop() {
	mkdir -p top/build top/examples
	ln -s "$(cd "$BIN" && pwd)" top/build/bin
	cp "$TOP/examples/data.txt" top/examples/
}

# run_block MARKER [FILE]: run the block of FILE (default README.md) in
# $T/top with bash, stopping at the first failing command; tracks the
# segments data.shm names.
run_block() {
	local README=${2:-$README}
	readme_block "$1" > "$T/block.sh"
	[ -s "$T/block.sh" ] || { echo "$README: no block \"$1\"" >&2; return 1; }
	cd "$T/top"
	run --separate-stderr bash -e "$T/block.sh"
	[ ! -f data.shm ] || track $(awk '$2 == "shmids" { print $3 }' data.shm)
}

# quick_start: the README's quick start in $T/top, checked.
quick_start() {
	local l
	mktop
	run_block "quick start"
	status_is 0
	l=$(label_of data.shm)
	like "$l" "*coeff" "label in data.shm"
	same_file <(sed "s|^coeff .*|coeff shmids $l|; /^      /d" examples/data.txt) data.shm
	grep -Fq " $l" <<< "$output" || { echo "shm-ls did not list $l: $output" >&2; false; }
	is "$(grep -c "^same\$" <<< "$output")" 1 "cmp said same"
	same_file examples/data.txt data.out
	same_file "$TOP/examples/data.txt" data.out
	gone "$l"
}

@test "7: readme: the quick start runs as written and gives examples/data.txt back, System V" {
	unset SHMIDS_DIR
	quick_start
	like "$(label_of data.shm)" "[0-9]* coeff"
}

@test "2.6: readme: the quick start with SHMIDS_DIR, file segments, leaves the directory empty" {
	mkdir segs
	export SHMIDS_DIR=$T/segs
	quick_start
	like "$(label_of data.shm)" "$T/segs/shmids.* coeff"
	is "$(ls -A "$T/segs")" "" "files left in SHMIDS_DIR"
}

@test "6: readme: shm-import without -f converts the sample's 100-value array (64 at least)" {
	mktop
	cd top
	runio examples/data.txt shm_import -P "$P"
	track $(awk '$2 == "shmids" { print $3 }' "$T/out")
	status_is 0
	is "$(grep -c ' shmids ' "$T/out")" 1 "reference lines"
	mv "$T/out" data.shm
	runio data.shm shm_expand -d
	status_is 0
	same_file examples/data.txt "$T/out"
}

@test "6: readme: the numpy example runs as written and reads coeff bit for bit" {
	local py
	py=$(python_with numpy) || skip "no python3 with numpy"
	mktop
	mkdir pybin
	ln -s "$(command -v "$py")" pybin/python3
	PATH=$T/pybin:$BIN:$PATH run_block numpy "$TOUR"
	status_is 0
	is "$(wc -l < coeff.txt)" 1 "lines in coeff.txt"
	like "$output" "[[]*1.00000e+00*]" "numpy's print"
	gone "$(awk '$2 == "shmids" { print $3 " " $4 }' data.shm)"
	# coeff.txt holds the sample's values, which numpy reads as float() does
	"$py" - examples/data.txt coeff.txt <<-'EOF'
	import sys, numpy
	toks = ' '.join(open(sys.argv[1]).read().split('\ncoeff ')[1].split('\nend')[0].split()).split()
	want = [float(t).hex() for t in toks if t != '/']
	got = [float(v).hex() for v in numpy.loadtxt(sys.argv[2], ndmin=1)]
	if len(want) != 100 or got != want:
	    sys.exit('numpy read %d values %s, want %d %s' % (len(got), got[:3], len(want), want[:3]))
	EOF
}

@test "6.1: readme: -c 0 writes a long array on one line, which numpy.loadtxt reads bit for bit" {
	local py l l2
	py=$(python_with numpy) || skip "no python3 with numpy"
	# finite values of every magnitude, the edges of the layout, -0
	l=$(mkset v f64 3ff0000000000000 8000000000000000 0000000000000001 \
	    000fffffffffffff 7fefffffffffffff 3f1a36e2eb1c432d 3f1a36e2eb1c432c \
	    4341c37937e08000 4341c37937e07fff c3a4836b7d2b5a80 3fb999999999999a)
	l2=$(mkrandom r f64 2000 12345)
	printf 'v shmids %s\nr shmids %s\n' "$l" "$l2" > refs
	runio refs shm_expand
	status_is 0
	[ "$(wc -l < "$T/out")" -gt 2 ] || { echo "no wrapping at 80 columns" >&2; false; }
	runio refs shm_expand -c 0
	status_is 0
	is "$(wc -l < "$T/out")" 2 "lines with -c 0"
	! grep -q ' /$' "$T/out" || { echo "a continuation with -c 0" >&2; false; }
	sed -n 's/^v //p' "$T/out" > v.txt
	sed -n 's/^r //p' "$T/out" > r.txt
	runio refs shm_expand -c 0 -F f64=hex
	status_is 0
	sed -n 's/^v //p' "$T/out" > v.hex
	sed -n 's/^r //p' "$T/out" > r.hex
	"$py" - <<-'EOF'
	import math, sys, numpy
	def bits(v):
	    return numpy.float64(v).view(numpy.uint64)
	bad = 0
	for name in 'v', 'r':
	    want = [math.nan if 'nan' in t else float.fromhex(t)
	        for t in open(name + '.hex').read().split()]
	    # random bits: NaNs with a payload are written nan(0x...), for no reader
	    keep = [not math.isnan(w) for w in want]
	    toks = open(name + '.txt').read().split()
	    toks = [t for t, k in zip(toks, keep) if k]
	    want = [w for w, k in zip(want, keep) if k]
	    got = numpy.loadtxt(name + '.txt', ndmin=1, usecols=[i for i, k in enumerate(keep) if k])
	    if len(got) != len(want) or len(want) < (11 if name == 'v' else 1900):
	        sys.exit('%s: %d values read, %d wanted' % (name, len(got), len(want)))
	    for t, g, w in zip(toks, got, want):
	        if bits(g) != bits(w):
	            print('%s: %s reads as %s, not %s' % (name, t, float(g).hex(), w.hex()))
	            bad += 1
	sys.exit(1 if bad else 0)
	EOF
}

@test "7: readme: R's scan reads the numpy example's coeff.txt" {
	command -v Rscript > /dev/null || skip "no Rscript"
	mktop
	PATH=$BIN:$PATH run_block numpy "$TOUR"
	# python3 may lack numpy: only coeff.txt matters here
	[ -s coeff.txt ] || status_is 0
	gone "$(awk '$2 == "shmids" { print $3 " " $4 }' data.shm)"
	run Rscript -e 'x <- scan("coeff.txt", quiet = TRUE); cat(length(x), x[1], x[100], "\n")'
	status_is 0
	is "$output" "100 1 -0.000108 "
}

@test "7: readme: the R example runs as written: R reads coeff from the pipe" {
	command -v Rscript > /dev/null || skip "no Rscript"
	mktop
	PATH=$BIN:$PATH run_block R "$TOUR"
	status_is 0
	gone "$(awk '$2 == "shmids" { print $3 " " $4 }' data.shm)"
	like "$output" "*Min.*Max.*"
	like "$stderr" "Read 100 items"
}

@test "7: readme: shm-expand(1) and the README show the same -r example" {
	local line
	line=$(README=$TOUR readme_block numpy | sed -n 2,3p)
	is "$(printf '%s\n' "$line" | wc -l)" 2
	run mandoc -Tascii "$TOP/man/shm-expand.1"
	[ "$status" = 0 ] || skip "mandoc not installed"
	output=$(col -b <<< "$output" 2>/dev/null || printf '%s' "$output")
	while IFS= read -r line; do
		grep -Fq -- "$line" <<< "$output" ||
		    { echo "shm-expand(1) lacks: $line" >&2; false; }
	done <<< "$(README=$TOUR readme_block numpy | sed -n 2,3p)"
}

@test "1: readme: shm-ls lists every user's shmids segments, -a adds other programs'" {
	need_user
	local mine theirs raw
	mine=$(mkseg mine f64 1)
	theirs=$(as_user "$SHMTOOL" create "${P}theirs" f64 1)
	track "$theirs"
	raw=$(mkraw 100)
	run --separate-stderr shm_ls -p
	status_is 0
	cut -f 16 <<< "$output" | grep -Fqx "$mine"
	cut -f 16 <<< "$output" | grep -Fqx "$theirs"
	! cut -f 1 <<< "$output" | grep -qx "$raw"
	run --separate-stderr shm_ls -p -a
	status_is 0
	cut -f 1 <<< "$output" | grep -qx "$raw"
	cut -f 16 <<< "$output" | grep -Fqx "$theirs"
}

@test "7: readme: shm-import on the 10-value coeff prints what the README shows, converts with -k 10" {
	local cmd want
	cmd=$(sed -n 's/^    \$ \(printf .* | shm-import\) > small.shm$/\1/p' "$TOUR")
	want=$(grep -A1 '^    \$ printf .* | shm-import > small.shm$' "$TOUR" | sed -n '2s/^    //p')
	[ -n "$cmd" ] && [ -n "$want" ] || { echo "$TOUR: no shm-import example" >&2; false; }
	PATH=$BIN:$PATH run --separate-stderr bash -c "$cmd"
	status_is 0
	is "$stderr" "$want"
	is "$output" "$(printf 'coeff 0 1 2 3 4 5 /\n      6 7 8 9')" "copied unchanged"
	PATH=$BIN:$PATH run --separate-stderr bash -c "${cmd/shm-import/shm-import -k 10 -P $P}"
	status_is 0
	is "$stderr" ""
	like "$output" "coeff shmids * ${P}coeff"
	track "$(cut -d' ' -f3- <<< "$output")"
}

@test "7: readme: the listing sample is what shm-ls shows right after shm-import" {
	local sample l
	sample=$(README=$TOUR readme_block listing)
	[ -n "$sample" ] || { echo "$TOUR: no listing sample" >&2; false; }
	mktop
	cd top
	shm_import -f coeff -P "$P" < examples/data.txt > data.shm
	l=$(label_of data.shm)
	track "${l%% *}"
	run --separate-stderr shm_ls "$l"
	status_is 0
	is "${#lines[@]}" 2 "header and one line"
	is "$(sed -n 1p <<< "$sample" | tr -s ' ')" "$(tr -s ' ' <<< "${lines[0]}")" "header"
	# size, type, count, state and the name part of the label; the
	# owner, the date and the shmid are the reader's own
	is "$(awk 'NR == 2 { print $2, $3, $4, $5, $NF }' <<< "$sample" | sed "s/ coeff\$/ ${P}coeff/")" \
	    "$(awk '{ print $2, $3, $4, $5, $NF }' <<< "${lines[1]}")" "the segment's line"
}

# The table labels of FILE (shmids id name), for track.
table_labels() {
	sed -n 's/^shmids,* \([^ ]* [^ ]*\)$/\1/p' "$1"
}

@test "6.1: readme: the numpy table example runs as written: one 1000 x 50 segment, loadtxt reads the same matrix" {
	local py l
	py=$(python_with numpy) || skip "no python3 with numpy"
	mktop
	mkdir pybin
	ln -s "$(command -v "$py")" pybin/python3
	PATH=$T/pybin:$BIN:$PATH run_block "numpy table" "$TOUR"
	l=$(table_labels m.shm)
	[ -z "$l" ] || track "$l"
	status_is 0
	like "$(cat m.shm)" "shmids [0-9]* m.txt:1"
	is "$(tail -n 1 <<< "$output")" "(1000, 50) True"
	gone "$l"
}

@test "6.1: readme: the R table example runs as written: the CSV header stays, R reads an identical data frame" {
	local l
	command -v Rscript > /dev/null || skip "no Rscript"
	mktop
	PATH=$BIN:$PATH run_block "R table" "$TOUR"
	l=$(table_labels quakes.shm)
	[ -z "$l" ] || track "$l"
	status_is 0
	is "$(cat quakes.shm)" "$(printf '"lat","long","depth","mag","stations"\nshmids, %s' "$l")"
	like "$l" "[0-9]* quakes.csv:2"
	is "$(tail -n 1 <<< "$output")" "[1] TRUE"
	gone "$l"
}

@test "7: readme: the pipe names example runs as written: -P names a table from a pipe run3/stdin:1, shm-ls -N finds it" {
	local l
	mktop
	PATH=$BIN:$PATH run_block "pipe names" "$TOUR"
	status_is 0
	l=$(table_labels run3.shm)
	[ -z "$l" ] || track "$l"
	like "$l" "[0-9]* run3/stdin:1"
	is "$(head -n 1 <<< "$output")" "shmids $l"
	like "$(sed -n 3p <<< "$output")" "* 10x7 ready * $l"
	is "$(head -n 2 run3.txt)" "$(printf '0 0 0 0 1 2 3\n1 1 0.25 -1 1 2 3')"
	gone "$l"
}

@test "6.1, 7: readme: the mtcars example runs as written: why it stayed text, then cut makes it a 32x11 table" {
	local l
	command -v Rscript > /dev/null || skip "no Rscript"
	mktop
	PATH=$BIN:$PATH run_block "mtcars" "$TOUR"
	l=$(table_labels mtcars.shm)
	[ -z "$l" ] || track "$l"
	status_is 0
	is "$stderr" "shm-import: mtcars.csv:2-33: a table of 32 rows, 352 values, stayed text: column 1 holds row names (\"Mazda RX4\", line 2); write it without them (R: row.names = FALSE, or cut -d',' -f2- mtcars.csv | shm-import)"
	is "$output" "$(printf '"mpg","cyl","disp","hp","drat","wt","qsec","vs","am","gear","carb"\nshmids, %s' "$l")"
	like "$l" "[0-9]* stdin:2"
	same_file <(cut -d',' -f2- mtcars.csv) mtcars2.csv
	gone "$l"
}

@test "6: readme: pandas' default float parser misreads shortest forms that float_precision=\"round_trip\" reads exactly" {
	local py
	py=$(python_with pandas) || skip "no python3 with pandas"
	grep -q 'float_precision="round_trip"' "$TOUR"

	run "$py" -c 'import numpy, pandas, io
x = numpy.random.default_rng(1).normal(size=20000)
s = "x\n" + "\n".join(repr(float(v)) for v in x) + "\n"
a = pandas.read_csv(io.StringIO(s))["x"].to_numpy()
b = pandas.read_csv(io.StringIO(s), float_precision="round_trip")["x"].to_numpy()
print((a != x).sum() > 0, (b != x).sum())'
	status_is 0
	is "$output" "True 0"
}

@test "10, 5.1: readme: the streams' example runs as written: 1,000 steps through shm-expand and awk, nothing left" {
	mktop
	ln -s "$(cd "$BIN/../examples" && pwd)" top/build/examples
	run_block "streams"
	status_is 0
	is "${lines[0]}" "step    0: mean 0.010000" "the first step"
	is "${lines[4]}" "step  999: mean 0.149866" "the last step"
	is "${#lines[@]}" 5 "lines"
}
