#!/usr/bin/env bats
# Round trips: segment -> shm-expand -> shm-import -> segment gives the
# same bytes, for every type and style (format-spec.md 6: "expanding an
# array and reading it back is the identity on its bytes").

load helper

# again LABEL [EXPAND-OPTIONS...]: expand LABEL, import the result as
# LABEL's type, compare the two segments bytewise.
again() {
	local l=$1 type
	shift
	type=$(shmtool open "$l" | cut -d' ' -f1)
	printf 'x shmids %s\n' "$l" | shm_expand "$@" > text || return 1
	shm_import -f x -t "$type" -P "$P" < text > back || return 1
	shmtool cmp "$l" "$(label_of back)"
}

@test "6: round trip: every type, default style" {
	local type l fails= r
	for type in f64 f32 i64 i32 raw; do
		l=$(mkseg "$type" "$type" 1000)
		r=$(again "$l" 2>&1) || fails+="[$type: $r] "
	done
	is "$fails" "" "failures"
}

@test "6: round trip: random bit patterns (NaN payloads, subnormals), every style" {
	local row type style l fails= r
	for row in f64:short f64:exp f64:hex f32:short f32:exp f32:hex \
	    i64:dec i64:hex i32:dec i32:hex raw:dec raw:hex; do
		type=${row%:*} style=${row#*:}
		l=$(mkrandom "$type" "$type" 20000 "$RANDOM")
		r=$(again "$l" -F "$type=$style" 2>&1) || fails+="[$row: $r] "
	done
	is "$fails" "" "failures"
}

@test "6: round trip: special values read from ASCII have the right bits" {
	local type line bits l fails=
	while IFS='|' read -r type line bits; do
		printf 'x %s\n' "$line" > in
		if ! shm_import -f x -t "$type" -P "$P" < in > out 2> err; then
			fails+="[$type '$line': $(cat err)] "
			continue
		fi
		l=$(label_of out)
		[ "$(shmtool bits "$l")" = "$bits" ] ||
		    fails+="[$type '$line': bits $(shmtool bits "$l")] "
		again "$l" > /dev/null 2>&1 || fails+="[$type '$line': no round trip] "
	done <<-'EOF'
	f64|-0 inf nan 4.9e-324 1.7976931348623157e308|8000000000000000 7ff0000000000000 7ff8000000000000 0000000000000001 7fefffffffffffff
	f64|-inf 0 -0.0 2.2250738585072014e-308 2.225073858507201e-308|fff0000000000000 0000000000000000 8000000000000000 0010000000000000 000fffffffffffff
	f64|nan(0x8000000000001) -nan(0x8000000000000) nan(0x1) -nan(0xfffffffffffff)|7ff8000000000001 fff8000000000000 7ff0000000000001 ffffffffffffffff
	f64|-nan NaN -NAN nan(0x8000000000000)|fff8000000000000 7ff8000000000000 fff8000000000000 7ff8000000000000
	f64|0.1 0.30000000000000004 -2.5 1e22 1e23|3fb999999999999a 3fd3333333333334 c004000000000000 4480f0cf064dd592 44b52d02c7e14af6
	f64|0x1p-1074 0X1.8P+1 +1.5 .5 5. 1E3|0000000000000001 4008000000000000 3ff8000000000000 3fe0000000000000 4014000000000000 408f400000000000
	f64|1.00000000000000011102230246251565404236316680908203125 1.00000000000000011102230246251565404236316680908203126|3ff0000000000000 3ff0000000000001
	f32|-0 inf nan 1e-45 3.4028235e38 0.1|80000000 7f800000 7fc00000 00000001 7f7fffff 3dcccccd
	f32|nan(0x400001) -nan(0x400000) nan(0x1)|7fc00001 ffc00000 7f800001
	f32|-nan NaN -NAN nan(0x400000)|ffc00000 7fc00000 ffc00000 7fc00000
	f32|1.00000005960464477539062500 1.00000005960464477539062501|3f800000 3f800001
	i64|-9223372036854775808 9223372036854775807 0 -1 +5|8000000000000000 7fffffffffffffff 0000000000000000 ffffffffffffffff 0000000000000005
	i32|-2147483648 2147483647 -1|80000000 7fffffff ffffffff
	raw|0 255 16|00 ff 10
	EOF
	is "$fails" "" "failures"
}

@test "6: round trip: special values expand to the forms of section 6" {
	local l
	printf 'x -0 inf -inf nan -nan nan(0x8000000000001) -nan(0x1) 0.1\n' > in
	shm_import -f x -P "$P" < in > out
	l=$(label_of out)
	printf 'x shmids %s\n' "$l" | shm_expand > got
	same_file in got
}

@test "6: round trip: wrapped and CRLF text reads back the same" {
	local l
	l=$(mkrandom w f64 500 7)
	printf 'x shmids %s\r\n' "$l" | shm_expand -c 40 > text
	[ "$(wc -l < text)" -gt 100 ]
	shm_import -f x -P "$P" < text > back
	shmtool cmp "$l" "$(label_of back)"
}

@test "6: round trip: wrapped text without final newline reads back the same" {
	local l
	l=$(mkrandom w f64 100 9)
	printf 'x shmids %s' "$l" | shm_expand -c 40 > text
	[ "$(wc -l < text)" -gt 10 ] || { echo "not wrapped into lines: $(head -c 300 text)" >&2; false; }
	[ "$(tail -c 1 text)" != "" ]
	shm_import -f x -P "$P" < text > back
	shmtool cmp "$l" "$(label_of back)"
}

@test "6: round trip: 10^7 doubles are bit-identical after expand and import" {
	local l
	[ -z "${SHMIDS_VALGRIND:-}" ] || skip "too slow under valgrind"
	l=$(mkrandom big f64 10000000 42)
	shm_expand -c 0 <<< "x shmids $l" | shm_import -f x -P "$P" > back
	run shmtool cmp "$l" "$(label_of back)"
	status_is 0
	is "$output" same
}

# Section 6: the text is what other programs read as the same value.
# Bits: shmtool's random patterns (every magnitude, NaNs, subnormals)
# and, from near_bits, values around the layout's edges (1e-4, 1e16),
# short decimals and the NaNs real programs make.

# near_bits PYTHON TYPE: hex bit patterns near the layout's thresholds.
near_bits() {
	"$1" - "$2" <<-'EOF'
	import random, struct, sys
	f32 = sys.argv[1] == 'f32'
	def hexbits(v):
	    if f32:
	        return '%08x' % struct.unpack('<I', struct.pack('<f', v))[0]
	    return '%016x' % struct.unpack('<Q', struct.pack('<d', v))[0]
	r = random.Random(13)
	out = ['7ff8000000000000', 'fff8000000000000', '7ff8000000000001',
	    '7ff0000000000001', 'fff0000000000000', '8000000000000000']
	if f32:
	    out = ['7fc00000', 'ffc00000', '7fc00001', '7f800001', 'ff800000',
	        '80000000']
	out += [hexbits(v) for v in (1e16, 9999999999999998.0, 1e15, 1e5,
	    -739154407829714600.0, 0.0001, 0.00012345, 1e-5, 2.0**53)]
	for i in range(3000):
	    v = 10 ** r.uniform(-7, 19) * r.choice((1, -1))
	    if i % 2:
	        v = float('%.*g' % (r.randint(1, 17), v))
	    if f32:
	        v = struct.unpack('<f', struct.pack('<f', v))[0]
	    out.append(hexbits(v))
	print(' '.join(out))
	EOF
}

# expand_to LABELS: expand each label (one a line), the tokens into
# "tokens" and the bits into "bits", one per line, in the same order.
expand_to() {
	local l
	: > tokens
	: > bits
	while IFS= read -r l; do
		printf 'x shmids %s\n' "$l" | shm_expand -c 0 > text || return 1
		cut -d' ' -f2- text | tr ' ' '\n' >> tokens
		shmtool bits "$l" | tr ' ' '\n' >> bits
	done <<< "$1"
	[ "$(wc -l < tokens)" = "$(wc -l < bits)" ]
}

# mkpair NAME TYPE PYTHON: a random segment and a near_bits one; prints
# both labels, one per line.
mkpair() {
	mkrandom "$1r" "$2" 4000 "$((${#1} + 11))" || return 1
	# shellcheck disable=SC2046
	mkset "$1n" "$2" $(near_bits "$3" "$2")
}

# A checker run by each python test: TYPE READER, READER being float
# (Python's float(), and repr() for f64), numpy (loadtxt, and str() of
# a float32).  NaNs written nan(0x...) are counted, not read: the spec
# allows that form only for NaNs those readers could not keep.
write_checker() {
	cat > check.py <<-'EOF'
	import io, struct, sys
	f32, reader = sys.argv[1] == 'f32', sys.argv[2]
	toks = open('tokens').read().split()
	bits = open('bits').read().split()
	quiet = 1 << 22 if f32 else 1 << 51
	fmt, ifmt = ('<f', '<I') if f32 else ('<d', '<Q')
	bad, readable = [], []
	for t, b in zip(toks, bits):
	    if t.startswith(('nan(', '-nan(')):
	        if int(b, 16) & (2 * quiet - 1) == quiet:
	            bad.append('%s for %s' % (t, b))
	    else:
	        readable.append((t, b))
	def hexof(v):
	    x = struct.unpack(ifmt, struct.pack(fmt, v))[0]
	    return '%0*x' % (8 if f32 else 16, x)
	if reader == 'numpy':
	    import numpy as np
	    text = ' '.join(t for t, b in readable)
	    vals = np.loadtxt(io.StringIO(text),
	        dtype=np.float32 if f32 else np.float64, ndmin=1)
	    for (t, b), v in zip(readable, vals):
	        r = str(np.float32(v)) if f32 and v == v else t
	        # numpy lays float32(1e-4), just below 1e-4, out by value
	        r = t if r in ('1e-04', '-1e-04') else r
	        r = r[:-2] if r.endswith('.0') else r
	        if hexof(v) != b:
	            bad.append('%s is %s to numpy, not %s' % (t, hexof(v), b))
	        if r != t:
	            bad.append('%s: numpy writes %s' % (t, r))
	else:
	    for t, b in readable:
	        try:
	            v = float(t)
	        except ValueError:
	            bad.append('float(%r) fails (%s)' % (t, b))
	            continue
	        # repr drops a NaN's sign, which float() keeps
	        r = repr(v) if v == v and not f32 else t
	        r = r[:-2] if r.endswith('.0') else r
	        if hexof(v) != b:
	            bad.append('%s is %s to Python, not %s' % (t, hexof(v), b))
	        if r != t:
	            bad.append('%s: repr %s' % (t, r))
	print('%s %s: %d read, %d nan(0x...)' % (sys.argv[1], reader,
	    len(readable), len(toks) - len(readable)))
	print('\n'.join(bad[:20]))
	sys.exit(1 if bad or len(toks) != len(bits) or len(toks) < 7000 else 0)
	EOF
}

@test "6: round trip: Python's float() reads the text as the same bits, repr() writes f64 alike" {
	local py type labels
	py=$(python_with struct) || skip "no python3"
	write_checker
	for type in f64 f32; do
		labels=$(mkpair "$type" "$type" "$py")
		expand_to "$labels"
		run "$py" check.py "$type" float
		echo "$output" >&2
		status_is 0
	done
}

@test "6.1: round trip: numpy's loadtxt reads the text as the same bits, str() writes f32 alike" {
	local py type labels
	py=$(python_with numpy) || skip "no python3 with numpy"
	write_checker
	for type in f64 f32; do
		labels=$(mkpair "$type" "$type" "$py")
		expand_to "$labels"
		run "$py" check.py "$type" numpy
		echo "$output" >&2
		status_is 0
	done
}

# R's own reader (R 4.2) is a unit off in the last place for about one
# random double in 10^4 of extreme magnitude, Python's repr text alike:
# R reads here the NaNs and the values near the layout's edges only.
@test "6: round trip: R reads f64 text near the layout's edges, nan and -nan as the same values" {
	local py l
	command -v Rscript > /dev/null || skip "no Rscript"
	py=$(python_with struct) || skip "no python3"
	# shellcheck disable=SC2046
	l=$(mkset n f64 $(near_bits "$py" f64))
	expand_to "$l"
	cat > check.R <<-'EOF'
	t <- readLines("tokens")
	b <- readLines("bits")
	# the payload form is for NaNs R could not keep anyway
	plain <- grepl("^(7ff8|fff8)0{12}$", b)
	keep <- !grepl("^-?nan[(]", t) | plain
	t <- t[keep]
	b <- b[keep]
	plain <- plain[keep]
	v <- suppressWarnings(as.numeric(t))
	h <- vapply(v, function(d) paste(rev(writeBin(d, raw(), size = 8,
	    endian = "little")), collapse = ""), "")
	# R has one NaN: the sign of -nan is not kept
	ok <- (h == b & !is.na(v)) | (plain & is.nan(v))
	cat(length(v), "read\n")
	if (!all(ok))
		cat(paste(t[!ok], h[!ok], b[!ok]), sep = "\n")
	quit(status = if (all(ok) && length(v) > 3000) 0 else 1)
	EOF
	run Rscript check.R
	echo "$output" >&2
	status_is 0
}

# format-spec.md 6: R's NA is written NA and read as R's bits, so a file
# R wrote comes back byte for byte, and R reads the expansion as NA.
@test "6: round trip: R's NA (airquality) through shm-import and shm-expand, R reads NA back" {
	command -v Rscript > /dev/null || skip "no Rscript"
	cat > w.R <<-'EOF'
	cat("Ozone", airquality$Ozone, "\n", file = "aq.txt")
	cat("Wind", airquality$Wind, "\n", file = "aq.txt", append = TRUE)
	# as R holds a value it read: NA_real_ (arithmetic would quiet it)
	b <- vapply(as.numeric(airquality$Ozone), function(d) paste(rev(writeBin(d,
	    raw(), size = 8, endian = "little")), collapse = ""), "")
	cat(b, "\n", file = "rbits")
	EOF
	Rscript w.R
	runio aq.txt shm_import -f Ozone,Wind -P "$P"
	status_is 0
	mv "$T/out" aq.shm
	is "$(grep -c ' shmids ' aq.shm)" 2 "reference lines"
	# the segment holds R's own bits, NA included
	shmtool bits "$(sed -n 1p aq.shm | cut -d' ' -f3-)" > bits
	is "$(cat bits)" "$(sed 's/ $//' rbits)" "bits"
	grep -q 7ff00000000007a2 bits
	# cat() ends a line with " \n", shm-expand with "\n"
	runio aq.shm shm_expand -c 0
	status_is 0
	sed 's/ $//' aq.txt | same_file /dev/stdin out
	runio aq.shm shm_expand -r -d
	status_is 0
	cat > r.R <<-'EOF'
	x <- scan("out", nlines = 1, quiet = TRUE)
	y <- unlist(read.table("out", nrows = 1), use.names = FALSE)
	cat(identical(x, as.numeric(airquality$Ozone)), identical(as.numeric(y), x), sum(is.na(y)),
	    sum(is.na(x)), sum(is.nan(x)), "\n")
	EOF
	run Rscript r.R
	status_is 0
	is "$output" "TRUE TRUE 37 37 0 "
}
