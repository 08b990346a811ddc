#!/usr/bin/env bats
# Where a reader written from format-spec.md alone stumbled (issue 40,
# item 16): each case as the text now says it, checked against the
# library, so that the text and the code cannot drift apart again.

load helper

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
