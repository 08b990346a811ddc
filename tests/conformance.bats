#!/usr/bin/env bats
# The conformance corpus (tests/conformance/): some five hundred short
# documents, every form of format-spec.md 5, 6 and 6.1 under every line
# end, with what each line is.  Every reader of the format is run over
# it and must agree: the library's classifier, shmids_get(), shm-expand,
# shm-import and Python's load() (issue 28: one classifier).

load helper

CONF=$BATS_TEST_DIRNAME/conformance
LINES=$TOOLS/lines
TOP=$BATS_TEST_DIRNAME/..
LIB=$TOP/${SHMIDS_BUILD:-build}/libshmids.so

setup_file() {
	export CORPUS=$BATS_FILE_TMPDIR/corpus
	mkdir -p "$CORPUS"
	sh "$CONF/gen.sh" "$CORPUS" > "$BATS_FILE_TMPDIR/ndocs"
}

# expect MODE DOC [awk -v ...]: what the corpus says MODE should give
expect() {
	local mode=$1 d=$2
	shift 2
	awk -v mode="$mode" -v doc="$d.txt" "$@" -f "$CONF/expect.awk" \
	    "$CORPUS/$d.want"
}

# every document, as dNNN
docs() {
	local f
	for f in "$CORPUS"/d*.want; do
		f=${f##*/}
		printf '%s\n' "${f%.want}"
	done
}

# mismatch DOC WANT GOT: a report of one document's difference
mismatch() {
	printf '%s: %s\n--- want\n%s\n--- got\n%s\n' "$1" \
	    "$(od -An -c "$CORPUS/$1.txt" | head -3 | tr -s ' ')" "$2" "$3"
}

@test "5, 6, 6.1: the corpus has some five hundred documents, and the library's classifier (shmids_line_next) says of each line what the corpus says" {
	local n d bad=0
	n=$(cat "$BATS_FILE_TMPDIR/ndocs")
	[ "$n" -ge 400 ] || { echo "only $n documents"; return 1; }
	for d in $(docs); do
		run "$LINES" "$CORPUS/$d.txt"
		status_is 0
		[ "$output" = "$(cat "$CORPUS/$d.want")" ] && continue
		mismatch "$d" "$(cat "$CORPUS/$d.want")" "$output"
		bad=$((bad + 1))
	done
	[ "$bad" -eq 0 ]
}

@test "5, 6, 6.1: shmids_get() takes the corpus' arrays, opens its references, and refuses every other line (EINVAL, a malformed one's reason from shmids_explain)" {
	local d want got bad=0
	for d in $(docs); do
		# shmids_get() takes a C string: a NUL would end the line
		tr -d '\000' < "$CORPUS/$d.txt" | cmp -s - "$CORPUS/$d.txt" ||
		    continue
		want=$(expect get "$d")
		run "$LINES" -g "$CORPUS/$d.txt"
		status_is 0
		# another errno than EINVAL is an open's: the line was a
		# reference; a line that is no reference's, no reason needed
		got=$(awk 'NR == FNR { w[$1] = $0; next }
		    $2 != "ok" && $2 != "einval" { print $1 " ref"; next }
		    $2 == "einval" && w[$1] == $1 " einval" { print $1 " einval"; next }
		    { print }' <(printf '%s\n' "$want") <(printf '%s\n' "$output"))
		[ "$got" = "$want" ] && continue
		mismatch "$d" "$want" "$got"
		bad=$((bad + 1))
	done
	[ "$bad" -eq 0 ]
}

@test "5, 6.1: shm-expand names every reference line of the corpus (its segment missing) and says every malformed one's reason, file:line; nothing else" {
	local d want got bad=0
	for d in $(docs); do
		want=$(expect expand "$d")
		# from the corpus' directory: messages name d.txt
		(cd "$CORPUS" && exec timeout 30 "$BIN/shm-expand" "$d.txt") \
		    > "$T/out" 2> "$T/err" && rc=0 || rc=$?
		got=$(sed -n "s/^shm-expand: $d\.txt:\([0-9]*\): malformed reference: \(.*\)/\1 malformed \2/p; t; s/^shm-expand: $d\.txt:\([0-9]*\): .*/\1 ref/p; t; s/^/? /p" "$T/err" |
		    sed 's/^\([0-9]* malformed a number is not a field\): if shm-import 1\.1 .*/\1/')
		if [ "$got" != "$want" ] ||
		    [ "$rc" -ne "$([ -z "$want" ] && echo 0 || echo 1)" ] ||
		    ! cmp -s "$T/out" "$CORPUS/$d.txt"; then
			mismatch "$d" "$want" "$got (exit $rc)"
			bad=$((bad + 1))
		fi
	done
	[ "$bad" -eq 0 ]
}

@test "5, 6, 6.1: shm-import -k 1 converts the corpus' arrays (a field that can be a name) and table blocks of two rows or more, and nothing else" {
	local d want got bad=0
	for d in $(docs); do
		want=$(expect import "$d" -v room=$((64 - ${#P})))
		run --separate-stderr env -C "$CORPUS" "$BIN/shm-import" \
		    -P "$P" -k 1 "$d.txt"
		# the names of the segments made, without the prefix
		got=$(printf '%s\n' "$output" | tr -d '\r' |
		    awk -v p="$P" '{ n = $NF } index(n, p) == 1 &&
		    ($(NF - 2) == "shmids" || $(NF - 2) == "shmids," ||
		    $(NF - 2) ~ /^shmids/) { print substr(n, length(p) + 1) }')
		if [ "$got" != "$want" ]; then
			mismatch "$d" "$want" "$got"
			bad=$((bad + 1))
		fi
		printf '%s\n' "$output" | "$BIN/shm-expand" -d > /dev/null 2>&1 || :
	done
	[ "$bad" -eq 0 ]
}

@test "5, 6, 6.1: Python's load() keys the corpus' arrays, table blocks and text as the classifier reads them, and refuses malformed references" {
	PY=$(python_with ctypes) || skip "no python3"
	nm -D "$LIB" 2>/dev/null | grep -q __asan_init &&
	    skip "$LIB is built with AddressSanitizer: python cannot load it"
	local d want bad=0
	run env -C "$CORPUS" SHMIDS_LIB="$LIB" PYTHONPATH="$TOP/python" \
	    timeout 300 "$PY" -c '
import errno, os, sys
import shmids
def esc(k):
    b = k.encode("utf-8", "surrogateescape")
    return "".join(chr(c) if 0x21 <= c <= 0x7e and c != 0x5c
                   else "\\x%02x" % c for c in b)
for d in sys.argv[1:]:
    print("==", d)
    try:
        r = shmids.load(d + ".txt")
    except OSError as e:
        if e.errno == errno.EINVAL and e.filename.startswith(d + ".txt:"):
            print("raise", e.filename.rsplit(":", 1)[1])
        else:
            print("skip")
        continue
    for k, v in r.items():
        print(esc(k), "t" if isinstance(v, str) else "a")
' $(docs)
	status_is 0
	# one block of lines a document
	local out=$output
	for d in $(docs); do
		want=$(expect python "$d")
		got=$(printf '%s\n' "$out" | awk -v d="== $d" '$0 == d { on = 1; next } /^== / { on = 0 } on')
		[ "$want" = skip ] && continue
		[ "$got" = "$want" ] && continue
		mismatch "$d" "$want" "$got"
		bad=$((bad + 1))
	done
	[ "$bad" -eq 0 ]
}

@test "5, 6.1: shmids_explain() of shmids_get()'s EINVAL names the line's real reason: a line that begins with a number (1 2 3), a number as a 1.1 reference's field (issue 32.10)" {
	printf '1 2 3\n0.43 shmids 4 0.43\n402 co eff\nx apple\n' > f
	run "$LINES" -g f
	status_is 0
	is "$output" "1 einval a line that begins with a number is a table row or text, never a field
2 einval a number is not a field
3 einval the name holds a blank or a byte that is not printable ASCII
4 einval the id is neither a shmid (a decimal number without leading zeros) nor a file segment's path"
}

@test "5, 6.1: shm-expand of a 1.1 row's reference line ('0.43 shmids 4 0.43') says how to get its values back, exit 1, the line copied (issue 32.10)" {
	local l
	l=$(mkseg v f64 3)
	printf '0.43 shmids %s\n' "$l" > f
	run --separate-stderr shm_expand f
	status_is 1
	is "$output" "0.43 shmids $l"
	is "$stderr" "shm-expand: f:1: malformed reference: a number is not a field: if shm-import 1.1 made this of a row, the row is 0.43, then the values of segment '$l' (echo 'x shmids $l' | shm-expand writes them)"
	run shm_expand <<< "x shmids $l"
	status_is 0
	is "$output" "x 0 1 2"
}

@test "6: comments pass through shm-import and shm-expand byte for byte, from a file and a pipe ('#' then NUL, CR, CRLF, a 2 MiB one, one among continuation lines, '# 1 2 ... 100'): exit 0, nothing said, no segment made" {
	{
		printf '# %s\n' "$(seq 1 100 | tr '\n' ' ')"
		printf '#\000 1 2\n#\r\n# a\r\n  # indented 1 2 /\n1 2 3\n'
		printf '# shmids are fast\n#x shmids 12 notes here\n'
		printf '# %s\n' "$(seq 1 400000 | tr '\n' ' ')"
		printf 'x 1 /\n# c /\n2\n'
		printf '1 2\n3 4\n# c\n5 6\n7 8\n'
		printf '# last, no end of line'
	} > c.txt
	local how rc
	grep -av '^[0-9] [0-9]$' c.txt > want
	for how in file pipe; do
		if [ "$how" = file ]; then
			shm_import -P "$P" -k 1 c.txt > out 2> err && rc=0 || rc=$?
		else
			cat c.txt | shm_import -P "$P" -k 1 > out 2> err &&
			    rc=0 || rc=$?
		fi
		is "$rc" 0 "$how: shm-import exit"
		# the two table blocks of two rows are converted, nothing else
		is "$(grep -c '^shmids ' out)" 2 "$how: tables"
		grep -av '^shmids ' out > kept
		cmp kept want
		is "$(cat err)" "" "$how: shm-import stderr"
		"$BIN/shm-expand" -d out > /dev/null
		no_segments_named "$P"
	done
	for how in file pipe; do
		if [ "$how" = file ]; then
			shm_expand c.txt > out 2> err && rc=0 || rc=$?
		else
			shm_expand < c.txt > out 2> err && rc=0 || rc=$?
		fi
		is "$rc" 0 "$how: shm-expand exit"
		cmp out c.txt
		is "$(cat err)" "" "$how: shm-expand stderr"
	done
}

@test "6: a valid reference line whose field begins with # (shm-import 1.5 wrote '# shmids 0 #') is a reference: shm-expand -d expands it to its comment and removes its segment; shm-import passes it through, silent" {
	local l
	l=$(mkseg v f64 3)
	printf '# shmids %s\n#x shmids %s\n' "$l" "$l" > f
	run --separate-stderr shm_import -k 1 f
	status_is 0
	is "$output" "$(cat f)"
	is "$stderr" ""
	run --separate-stderr shm_expand -d f
	status_is 0
	is "$output" "# 0 1 2
#x 0 1 2"
	is "$stderr" ""
	no_segments_named "$P"
}
