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

@test "9: a header of version 4 is ESTALE, 'a header of a later version'" {
	local l
	l=$(mkhostile version v4)
	run -1 shmtool open "$l"
	is "$output" ESTALE
	run -1 shm_ls "$l"
	is "$output" "shm-ls: $l: segment ${l%% *} has a header of a later version than shmids 1.3.0 reads: a newer shmids reads it"
}
