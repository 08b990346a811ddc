#!/usr/bin/env bats
# Column order (format-spec.md 2.7, 9): a column-major table is header
# version 3, its payload column by column; shmids_dims() says what was
# meant, the calls of 1.3 see the transpose; shm-expand writes the rows
# the matrix means (6.1), numpy attaches it in place with order 'F',
# shm-ls shows the order (7).  The test tool's matrix command fills
# element (i, j) with i * cols + j in either order, so a reader that
# honours the order sees 0, 1, 2, ... row by row.

load helper

@test "2.7: a column-major table is version 3, the shape field of version 2 (cols as meant)" {
	local l
	l=$(_mk matrix "${P}m" f64 3 2 F)
	like "$l" "[0-9]* ${P}m" "label"
	shmtool header "${l%% *}" > got
	{
		printf '%s\0\n' "$l"
		head -c $((80 - ${#l} - 2)) /dev/zero
		printf 'shmids3 f64 %s 00000000000000000006 r\n' "$ORDER"
		printf '\0\0%s\n' 0000002
	} > want
	same_file want got
}

@test "2.7: the payload is column by column: element (i, j) at i + j * rows" {
	local l
	l=$(_mk matrix "${P}m" i32 3 2 F)
	run -0 shmtool bits "$l"
	# (0,0)=0 (1,0)=2 (2,0)=4 (0,1)=1 (1,1)=3 (2,1)=5
	is "$output" "00000000 00000002 00000004 00000001 00000003 00000005"
	l=$(_mk matrix "${P}c" i32 3 2 C)
	run -0 shmtool bits "$l"
	is "$output" "00000000 00000001 00000002 00000003 00000004 00000005"
}

@test "2.7: one row, one column, no rows: version 2 in either order, reported row-major" {
	local l shape
	for shape in "1 5" "5 1" "0 4" "1 1"; do
		l=$(_mk matrix "${P}m" f64 $shape F)
		is "$(hdrfield "${l%% *}" 80 7)" shmids2 "$shape"
		run -0 shmtool dims "$l"
		set -- $shape
		is "$output" "open 2 C $1 $2 stat 2 C $1 $2 scan 2 C $1 $2" "$shape"
	done
}

@test "2.7: shmids_dims, stat_dims and scan_dims give the shape meant and the order" {
	local l
	l=$(_mk matrix "${P}m" f64 87 61 F)
	run -0 shmtool dims "$l"
	is "$output" "open 2 F 87 61 stat 2 F 87 61 scan 2 F 87 61"
	l=$(_mk matrix "${P}c" f64 87 61 C)
	run -0 shmtool dims "$l"
	is "$output" "open 2 C 87 61 stat 2 C 87 61 scan 2 C 87 61"
	l=$(_mk table "${P}t" f64 4 3)
	run -0 shmtool dims "$l"
	is "$output" "open 2 C 4 3 stat 2 C 4 3 scan 2 C 4 3" "create_table is row-major"
	l=$(mkseg flat f64 5)
	run -0 shmtool dims "$l"
	is "$output" "open 1 C 5 1 stat 1 C 5 1 scan 1 C 5 1" "1-D"
}

@test "9: the calls of 1.3 see a column-major table's storage shape, the transpose" {
	local l
	l=$(_mk matrix "${P}m" f64 87 61 F)
	run -0 shmtool shape "$l"
	is "$output" "open 2 61 87 stat 2 61 87 scan 2 61 87"
	run -0 shmtool open "$l"
	is "$output" "f64 5307 14079471" "shmids_array: every element, payload order"
}

@test "2.7: create_matrix refuses another order (EINVAL), cols 0 (EINVAL), overflow (ENOMEM)" {
	run -1 shmtool matrix "${P}m" f64 2 2 0
	is "$output" EINVAL
	run -1 shmtool matrix "${P}m" f64 2 2 99
	is "$output" EINVAL
	run -1 shmtool matrix "${P}m" f64 2 0 F
	is "$output" EINVAL
	run -1 shmtool matrix "${P}m" f64 4611686018427387904 8 F
	is "$output" ENOMEM
	no_segments_named "${P}m"
}

@test "2.3: hostile version-3 headers: a good one opens, broken ones are EBADMSG" {
	local kind l got fails=
	l=$(mkhostile v3 v3)
	run -0 shmtool dims "$l"
	is "$output" "open 2 F 2 2 stat 2 F 2 2 scan 2 F 2 2"
	for kind in v3noshape v3zero v3digit v3nonl v3futex v3cols v3onecol \
	    v3onerow v3empty v3big; do
		l=$(mkhostile "$kind" "$kind")
		got=$(shmtool open "$l") || true
		[ "$got" = EBADMSG ] || fails+="[hostile $kind: $got] "
	done
	is "$fails" "" "failures"
}

@test "9: a header of version 5 is ESTALE, 'a header of a later version'" {
	local l
	l=$(mkhostile version v5)
	run -1 shmtool open "$l"
	is "$output" ESTALE
	run -1 shm_ls "$l"
	is "$output" "shm-ls: $l: segment ${l%% *} has a header of a later version than shmids 1.7.0 reads: a newer shmids reads it"
}

@test "6.1: shm-expand writes a column-major table's rows as meant, R's write.table(m) rows" {
	local l want
	l=$(_mk matrix "${P}m" f64 3 4 F)
	printf 'shmids %s\n' "$l" > in
	run -0 shm_expand in
	want='0 1 2 3
4 5 6 7
8 9 10 11'
	is "$output" "$want" "blank-separated"
	printf '  shmids,\t%s\r\n' "$l" > in
	run -0 shm_expand in
	is "$output" "$(printf '  0,1,2,3\r\n  4,5,6,7\r\n  8,9,10,11\r')" "comma rows, CRLF"
	if command -v Rscript > /dev/null; then
		run -0 Rscript -e 'write.table(matrix(0:11, 3, 4, byrow = TRUE), row.names = FALSE, col.names = FALSE)'
		is "$output" "$want" "R writes the same rows"
	fi
}

@test "6.1: a big column-major table expands as the row-major one of the same matrix (blocks, threads)" {
	local f c
	f=$(_mk matrix "${P}f" f64 3001 1000 F)
	c=$(_mk matrix "${P}c" f64 3001 1000 C)
	printf 'shmids %s\n' "$f" > f.in
	printf 'shmids %s\n' "$c" > c.in
	shm_expand f.in > f.out
	shm_expand c.in > c.out
	same_file c.out f.out
	SHMIDS_THREADS=1 shm_expand f.in > f1.out
	same_file c.out f1.out
	f=$(_mk matrix "${P}w" i32 2 700000 F)
	c=$(_mk matrix "${P}v" i32 2 700000 C)
	printf 'shmids\t%s\n' "$f" > f.in
	printf 'shmids\t%s\n' "$c" > c.in
	shm_expand f.in > f.out
	shm_expand c.in > c.out
	same_file c.out f.out
}

@test "5: a keyed reference line to a column-major table gives its payload, column by column" {
	local l
	l=$(_mk matrix "${P}m" i32 3 2 F)
	printf 'x shmids %s\n' "$l" > in
	run -0 shm_expand in
	is "$output" "x 0 2 4 1 3 5"
}

@test "6.1: shm-import of the expansion makes the same matrix (row-major); -d removes the segment" {
	local l out
	l=$(_mk matrix "${P}m" f64 4 3 F)
	printf 'a\nshmids %s\nb\n' "$l" > in
	run -0 shm_expand -d in
	printf '%s\n' "$output" > exp
	run -1 shmtool open "$l"
	is "$output" ENOENT "removed by -d"
	shm_import -k 2 -P "${P}" exp > back
	run -0 grep -c '^shmids ' back
	out=$(grep '^shmids ' back)
	run -0 shmtool dims "${out#shmids }"
	is "$output" "open 2 C 4 3 stat 2 C 4 3 scan 2 C 4 3"
	run -0 shm_expand -d back
	is "$output" "$(cat exp)"
}

@test "7: -t on a column-major raw table is refused, the line copied, exit 1" {
	local l
	l=$(_mk matrix "${P}m" raw 4 16 F)
	printf 'shmids %s\n' "$l" > in
	run --separate-stderr -1 shm_expand -t f64 in
	is "$output" "shmids $l"
	is "$stderr" "shm-expand: in:1: $l: a column-major raw table is read as bytes only, not as f64"
	run -0 shm_expand in
	is "${lines[1]}" "16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31" "as bytes, row 1"
}

@test "7: shm-ls shows a column-major table as 87x61F, ORDER F, JSON order \"F\"" {
	local f c
	f=$(_mk matrix "${P}f" f64 87 61 F)
	c=$(_mk matrix "${P}c" f64 87 61 C)
	run -0 shm_ls -o shape,order,label "${f%% *}" "${c%% *}"
	is "$output" " SHAPE ORDER LABEL
87x61F F     $f
 87x61 C     $c"
	run -0 shm_ls -J -o shape,order "${f%% *}"
	is "${lines[2]}" '      {"shape": [87, 61], "order": "F"}'
	run -0 shm_ls -o order "$(mkseg flat f64 5)"
	is "${lines[1]}" "C" "1-D"
}

LIB=$BATS_TEST_DIRNAME/../${SHMIDS_BUILD:-build}/libshmids.so

# need_numpy: $PY, a python3 with numpy that can load the library, or skip.
need_numpy() {
	PY=$(python_with numpy) || skip "no python3 with numpy"
	if nm -D "$LIB" 2>/dev/null | grep -q __asan_init; then
		skip "the library is built with AddressSanitizer: python cannot load it"
	fi
}

# pyorder SCRIPT: SCRIPT run by $PY (need_numpy) with the module under test.
pyorder() {
	P=$P SHMTOOL=$SHMTOOL BIN=$BIN SHMIDS_LIB=$LIB \
	    PYTHONPATH=$BATS_TEST_DIRNAME/../python timeout 120 "$PY" -c "$1"
}

@test "2.7: numpy attaches a C writer's column-major table as order F, no copy" {
	local l
	need_numpy
	l=$(_mk matrix "${P}m" f64 87 61 F)
	L=$l run -0 pyorder '
import os, numpy as np, shmids
a = shmids.attach(os.environ["L"])
want = np.arange(87 * 61, dtype=float).reshape(87, 61)
print(a.shape, a.flags.f_contiguous, a.flags.owndata, a.flags.writeable,
      bool((a == want).all()))
'
	is "$output" "(87, 61) True False False True"
}

@test "2.7: Python writes column-major: zeros(order='F'), create() of a Fortran array; C, shm-expand and ls() agree" {
	need_numpy
	run -0 pyorder '
import os, subprocess, numpy as np, shmids
P, tool, bin = os.environ["P"], os.environ["SHMTOOL"], os.environ["BIN"]
m = np.arange(12.0).reshape(3, 4) / 2
out = []
with shmids.zeros(P + "z", (3, 4), order="F") as w:
    w.array[:] = m
    out.append(w.array.flags.f_contiguous)
lz = w.label
lf = shmids.create(P + "f", np.asfortranarray(m))
lc = shmids.create(P + "c", m)
lo = shmids.create(P + "o", m, order="F")
l1 = shmids.create(P + "1", np.asfortranarray(m[:1]))
for l in (lz, lf, lc, lo, l1):
    d = subprocess.run([tool, "dims", l], capture_output=True, text=True)
    e = subprocess.run([bin + "/shm-expand"], input="shmids %s\n" % l,
                       capture_output=True, text=True).stdout
    a = shmids.attach(l)
    out.append((d.stdout.split()[2], bool((a == m[:a.shape[0]]).all()),
                e == "".join(" ".join("%g" % v for v in r) + "\n"
                             for r in m[:a.shape[0]])))
ls = {e["label"]: (e["shape"], e["order"]) for e in shmids.ls()}
out.append([ls[l] for l in (lz, lc, l1)])
print(out)
'
	is "$output" "[True, ('F', True, True), ('F', True, True), ('C', True, True), ('F', True, True), ('C', True, True), [((3, 4), 'F'), ((3, 4), 'C'), ((1, 4), 'C')]]"
}

@test "2.7: without numpy a column-major table is a memoryview of its storage, (cols, rows)" {
	local l py
	py=$(python_with ctypes) || skip "no python3"
	if nm -D "$LIB" 2>/dev/null | grep -q __asan_init; then
		skip "the library is built with AddressSanitizer: python cannot load it"
	fi
	l=$(_mk matrix "${P}m" i32 3 2 F)
	L=$l SHMIDS_LIB=$LIB PYTHONPATH=$BATS_TEST_DIRNAME/../python \
	    run -0 "$py" -c '
import os, sys; sys.modules["numpy"] = None
import shmids
a = shmids.attach(os.environ["L"])
print(type(a).__name__, a.shape, a.tolist())
'
	is "$output" "memoryview (2, 3) [[0, 2, 4], [1, 3, 5]]"
}

@test "2.6, 2.7: a column-major file segment: version 3, dims, expansion, shm-ls" {
	local l
	mkdir d
	l=$(SHMIDS_DIR=$T/d _mk matrix "${P}m" f64 3 4 F)
	like "$l" "$T/d/shmids.* ${P}m"
	is "$(head -c 87 "${l%% *}" | tail -c 7)" shmids3 "version 3"
	run -0 shmtool dims "$l"
	is "$output" "open 2 F 3 4 stat 2 F 3 4 scan none" "not in the scan without SHMIDS_DIR"
	SHMIDS_DIR=$T/d run -0 shmtool dims "$l"
	is "$output" "open 2 F 3 4 stat 2 F 3 4 scan 2 F 3 4"
	run -0 shm_ls -o shape,order "${l%% *}"
	is "${lines[1]}" " 3x4F F"
	printf 'shmids %s\n' "$l" > in
	run -0 shm_expand -d in
	is "$output" "0 1 2 3
4 5 6 7
8 9 10 11"
	run -0 ls d
	is "$output" "" "removed by -d"
}

@test "2.7, 6.1: a column-major table at the end of a CRLF file keeps CRLF between its rows, and its bare CR" {
	local l
	l=$(_mk matrix "${P}m" f64 2 3 F)
	printf 'shmids, %s\r' "$l" > in
	run "$BIN/shm-expand" in
	[ "$status" -eq 0 ]
	[ "$(printf '%s' "$output" | od -An -c | tr -s ' ' | tr -d '\n')" = \
	    "$(printf '0,1,2\r\n3,4,5\r' | od -An -c | tr -s ' ' | tr -d '\n')" ]
}
