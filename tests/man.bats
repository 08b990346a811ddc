#!/usr/bin/env bats
# Manual pages: mandoc-clean, and each tool's usage agrees with its
# page's SYNOPSIS and with format-spec.md section 7.

load helper

MAN=$BATS_TEST_DIRNAME/../man
TOOLS_LIST="shm-ls shm-expand shm-import shm-rm"

# Option letters of the synopses in format-spec.md section 7, read from
# the spec itself so that the three can only agree by being the same.
spec_letters() {
	grep -E "^    $1 \[" "$BATS_TEST_DIRNAME/../format-spec.md" | usage_letters
}
# sorted LETTERS: the letters, sorted, once each.
sorted() {
	fold -w1 | LC_ALL=C sort -u | tr -d "\n"
}
# Letters of "[-ab]" and "[-c arg]" in usage text.
usage_letters() {
	grep -oE '\[-[A-Za-z]+' | tr -d '[-' | tr -d '\n' | sorted
}
# Letters after Fl in the SYNOPSIS section of an mdoc page.
man_letters() {
	awk '/^\.Sh/ { on = ($2 == "SYNOPSIS"); next }
	    on { for (i = 1; i < NF; i++) if ($i == "Fl" || $i == ".Fl") printf "%s", $(i + 1) }' "$1" |
	    tr -d -c 'A-Za-z' | sorted
}
# The SYNOPSIS as mandoc renders it, blanks squeezed.
man_synopsis() {
	mandoc -Tascii "$1" | col -b | awk '/^[A-Z]/ { on = ($0 == "SYNOPSIS"); next } on' |
	    tr -s ' \t\n' '   ' | sed 's/^ //; s/ $//'
}

@test "man: a page for each tool, for the library (3) and the format (5)" {
	local f missing=
	for f in shm-ls.1 shm-expand.1 shm-import.1 shm-rm.1 shmids.3 shmids.5; do
		[ -f "$MAN/$f" ] || missing+="$f "
	done
	is "$missing" "" "missing pages"
}

@test "man: every page passes mandoc -Tlint -Wwarning" {
	command -v mandoc > /dev/null || skip "mandoc not installed"
	local f out fails=
	for f in "$MAN"/*.1 "$MAN"/*.3 "$MAN"/*.5; do
		[ -f "$f" ] || continue
		out=$(mandoc -Tlint -Wwarning "$f" 2>&1) || fails+="$out
"
		[ -z "$out" ] || fails+="$out
"
	done
	is "$fails" "" "mandoc warnings"
}

@test "man: option letters of -h usage, SYNOPSIS and format-spec.md agree" {
	local t u m s fails=
	for t in $TOOLS_LIST; do
		[ -f "$MAN/$t.1" ] || { fails+="[$t: no page] "; continue; }
		u=$("$BIN/$t" -h 2>&1 | usage_letters)
		m=$(man_letters "$MAN/$t.1")
		s=$(spec_letters "$t" | sorted)
		[ "$u" = "$s" ] || fails+="[$t: usage has $u, spec $s] "
		[ "$m" = "$s" ] || fails+="[$t: SYNOPSIS has $m, spec $s] "
	done
	is "$fails" "" "failures"
}

@test "man: the rendered SYNOPSIS is the usage line" {
	command -v mandoc > /dev/null || skip "mandoc not installed"
	command -v col > /dev/null || skip "col not installed"
	local t u m fails=
	for t in $TOOLS_LIST; do
		[ -f "$MAN/$t.1" ] || continue
		u=$("$BIN/$t" -h 2>&1 | tr -s ' \t\n' '   ' | sed 's/^ *usage: *//; s/ $//')
		m=$(man_synopsis "$MAN/$t.1")
		[ "$u" = "$m" ] || fails+="[$t: usage '$u' vs SYNOPSIS '$m'] "
	done
	is "$fails" "" "failures"
}
