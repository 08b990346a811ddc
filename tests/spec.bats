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
