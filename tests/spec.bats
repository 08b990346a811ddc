#!/usr/bin/env bats
# Where a reader written from format-spec.md alone stumbled (issue 40,
# item 16): each case as the text now says it, checked against the
# library, so that the text and the code cannot drift apart again.

load helper

# shmdir: D, a directory of this test's on tmpfs (mode 1777), or skip;
# teardown removes it ($T/.dir).
shmdir() {
	[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] ||
	    skip "/dev/shm is not tmpfs"
	D=$(mktemp -d /dev/shm/shmids-spec.XXXXXX)
	chmod 1777 "$D"
	echo "$D" > "$T/.dir"
}

# kinds FILE: what tests/tools/lines says each line of FILE is.
kinds() {
	"$TOOLS/lines" "$1"
}

@test "6: Fortran's forms: a letterless exponent of any digits, 03*1.0 a repeat count; +3*1.0, 00*1 and 0*1 fields; 1D2 begins a row" {
	printf '%s\n' '1.5-07 1 2' '0.1+1011 2' '0.1000000000000000+101 2' \
	    'x 1.5-07 2' '03*1.0 1 2' '03* 1' '+3*1.0 1 2' '00*1 2' '0*1 2' \
	    '1D2 3 4' '1D2,3,4' 'x 1D2' > in
	run kinds in
	status_is 0
	is "$output" "1 text 1.5-07
2 text 0.1+1011
3 text 0.1000000000000000+101
4 text x
5 text 03*1.0
6 text 03*
7 array +3*1.0 2
8 array 00*1 1
9 array 0*1 1
10 row sp 3 first
11 row comma 3 first
12 array x 1"
}

# render PAGE: mandoc's text of PAGE without its overstrikes (a UTF-8
# character, then a backspace), whatever the locale (col -b is not).
render() {
	mandoc -Tutf8 "$1" |
	    LC_ALL=C sed -E 's/([\x01-\x7f]|[\xc0-\xff][\x80-\xbf]+)\x08//g'
}

# quotes PAGE: the places in PAGE, as mandoc renders it, where a quote
# opens inside another or closes none (issue 40 item 15: shm-expand(1)
# rendered "(‘30s, ‘5m, ‘1h’’’)").
quotes() {
	render "$1" | LC_ALL=C awk '
	    { t = t " " $0 }
	    END {
		gsub(/\342\200\230/, "\001", t)
		gsub(/\342\200\231/, "\002", t)
		for (i = 1; i <= length(t); i++) {
			c = substr(t, i, 1)
			if (c == "\001" && d++ > 0 || c == "\002" && --d < 0) {
				s = substr(t, i > 40 ? i - 40 : 1, 50)
				gsub(/[\001\002]/, "\047", s)
				print s
				d = d < 0 ? 0 : 1
			}
		}
	    }'
}

@test "7: man pages: every quote closes before the next opens ('30s', '5m', '1h', never '30s, '5m, '1h''')" {
	command -v mandoc > /dev/null || skip "mandoc missing"
	local f bad=
	for f in "$BATS_TEST_DIRNAME"/../man/*.[135]; do
		[ -z "$(quotes "$f")" ] || bad+="${f##*/}: $(quotes "$f" | head -n 3) "
	done
	is "$bad" "" "unbalanced quotes"
	render "$BATS_TEST_DIRNAME/../man/shm-expand.1" |
	    tr -s ' \n' '  ' | LC_ALL=C grep -qF "(‘30s’, ‘5m’, ‘1h’)" ||
	    { echo "shm-expand(1): no (‘30s’, ‘5m’, ‘1h’)" >&2; false; }
}

# The allocated-bytes check of 2.6, Holes: refused when the bytes
# allocated plus 65536 are fewer than the declared bytes.  On tmpfs,
# which allocates whole pages and keeps no inline data.
@test "2.6: the allocated-bytes check's 64 KiB of slack: 1 MiB declared, 60 KiB punched out is read, 72 KiB refused (EBADMSG)" {
	command -v fallocate > /dev/null || skip "fallocate(1) missing"
	local l f
	shmdir
	l=$(SHMIDS_DIR=$D _mk create "${P}s" f64 131072)
	f=${l%% *}
	# 128 + 1 MiB declared; a hole of 60 KiB from byte 64 KiB on
	fallocate --punch-hole --offset 65536 --length 61440 "$f"
	run shmtool open "$l"
	like "$output" "f64 131072 *" "60 KiB missing: within the slack"
	fallocate --punch-hole --offset 65536 --length 73728 "$f"
	run shmtool open "$l"
	is "$output" EBADMSG "72 KiB missing"
}

# 2.3's table in its order for a file segment (issue 40 item 16: it
# left out 2.6's owner, link and allocated-bytes checks).
@test "2.3: a file segment's checks in the table's order: its owner's before its links', its links' before its allocated bytes'" {
	command -v fallocate > /dev/null || skip "fallocate(1) missing"
	need_user
	local l f o
	shmdir
	l=$(SHMIDS_DIR=$D _mk create "${P}o" f64 131072)
	f=${l%% *}
	fallocate --punch-hole --offset 65536 --length 73728 "$f"
	ln "$f" "$D/other"
	run shmtool open "$l"
	is "$output" EMLINK "linked and sparse"
	rm "$D/other"
	run shmtool open "$l"
	is "$output" EBADMSG "sparse"
	# an old-form name of another user's, linked: its owner first
	o=$D/shmids.Ab12Cd
	{ printf '%s\0\n' "$o x" | cat - /dev/zero | head -c 80
	    tail -c +81 "$f"; } > "$o"
	chown "$TESTUSER" "$o"
	as_user ln "$o" "$D/linked"
	run shmtool open "$o x"
	is "$output" ESTALE "another owner's old form, linked"
}
