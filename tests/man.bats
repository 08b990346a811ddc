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
# Letters after Fl in the SYNOPSIS section of an mdoc page (a long
# option alone, "Fl \-dead", has none).
man_letters() {
	awk '/^\.Sh/ { on = ($2 == "SYNOPSIS"); next }
	    on { for (i = 1; i < NF; i++) if (($i == "Fl" || $i == ".Fl") && $(i + 1) !~ /^\\-/) printf "%s", $(i + 1) }' "$1" |
	    tr -d -c 'A-Za-z' | sorted
}
# usage_of TOOL: the usage lines of TOOL -h, before its options list.
usage_of() {
	"$BIN/$1" -h 2>&1 | sed '/^$/,$d'
}
# help_opts TOOL: "x long" for each option TOOL --help lists ("-" for
# no letter), sorted.
help_opts() {
	"$BIN/$1" --help | sed -n 's/^  -\(.\), --\([a-z-]*\).*/\1 \2/p
	    s/^      --\([a-z-]*\).*/- \1/p' | LC_ALL=C sort
}
# man_opts PAGE: the same from the options list of the page's
# DESCRIPTION (its first .Bl, at its own level): ".It Fl a , Fl \-all".
man_opts() {
	awk '/^\.Sh/ { on = ($2 == "DESCRIPTION"); next }
	    !on || done { next }
	    /^\.Bl/ { depth++; next }
	    /^\.El/ { if (--depth == 0) done = 1; next }
	    depth == 1 && /^\.It Fl / {
		l = "-"; n = ""
		for (i = 2; i < NF; i++)
			if ($i == "Fl" && $(i + 1) ~ /^\\-/)
				n = $(i + 1)
			else if ($i == "Fl" && i == 2)
				l = $(i + 1)
		gsub(/\\/, "", n)
		print l, substr(n, 2)
	    }' "$1" | LC_ALL=C sort
}
# The SYNOPSIS as mandoc renders it, blanks squeezed.
man_synopsis() {
	mandoc -Tascii "$1" | col -b | awk '/^[A-Z]/ { on = ($0 == "SYNOPSIS"); next } on' |
	    tr -s ' \t\n' '   ' | sed 's/^ //; s/ $//'
}

@test "7: man: a page for each tool, for the library (3) and the format (5)" {
	local f missing=
	for f in shm-ls.1 shm-expand.1 shm-import.1 shm-rm.1 shmids.3 shmids.5; do
		[ -f "$MAN/$f" ] || missing+="$f "
	done
	is "$missing" "" "missing pages"
}

@test "7: man: every page passes mandoc -Tlint -Wwarning" {
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

@test "7: man: option letters of -h usage, SYNOPSIS and format-spec.md agree" {
	local t u m s fails=
	for t in $TOOLS_LIST; do
		[ -f "$MAN/$t.1" ] || { fails+="[$t: no page] "; continue; }
		u=$(usage_of "$t" | usage_letters)
		m=$(man_letters "$MAN/$t.1")
		s=$(spec_letters "$t" | sorted)
		[ "$u" = "$s" ] || fails+="[$t: usage has $u, spec $s] "
		[ "$m" = "$s" ] || fails+="[$t: SYNOPSIS has $m, spec $s] "
	done
	is "$fails" "" "failures"
}

@test "7: man: the rendered SYNOPSIS is the usage line" {
	command -v mandoc > /dev/null || skip "mandoc not installed"
	command -v col > /dev/null || skip "col not installed"
	local t u m fails=
	for t in $TOOLS_LIST; do
		[ -f "$MAN/$t.1" ] || continue
		u=$(usage_of "$t" | tr -s ' \t\n' '   ' | sed 's/^ *usage: *//; s/ $//')
		m=$(man_synopsis "$MAN/$t.1")
		[ "$u" = "$m" ] || fails+="[$t: usage '$u' vs SYNOPSIS '$m'] "
	done
	is "$fails" "" "failures"
}

@test "7: man: each page's options, long forms too, are those --help lists" {
	local t h m fails=
	for t in $TOOLS_LIST; do
		h=$(help_opts "$t")
		m=$(man_opts "$MAN/$t.1")
		[ -n "$h" ] || fails+="[$t: --help lists no option] "
		[ "$h" = "$m" ] || fails+="[$t: --help has
$h
page has
$m
] "
	done
	is "$fails" "" "failures"
}

@test "7: man: --help lists every option with its long form, lines within 80 columns" {
	local t fails=
	for t in $TOOLS_LIST; do
		"$BIN/$t" --help | awk 'length($0) > 80 { exit 1 }' ||
		    fails+="[$t: a line wider than 80] "
		help_opts "$t" | awk '$2 == "" { exit 1 }' ||
		    fails+="[$t: an option without a long form] "
		# the usage names every letter but -h
		[ "$(help_opts "$t" | cut -c1 | grep -v '[-h]' | sorted)" = \
		    "$(usage_of "$t" | usage_letters)" ] ||
		    fails+="[$t: --help and the usage differ in letters] "
	done
	is "$fails" "" "failures"
}

@test "6.1: man: cmd/README's option table gives each tool's long forms as --help does" {
	local row opt tools t x long fails=
	while IFS= read -r row; do
		opt=$(cut -d'|' -f2 <<< "$row")
		tools=$(cut -d'|' -f4 <<< "$row" | tr -d ',')
		x=$(grep -oE '`-[A-Za-z]' <<< "$opt" | head -1 | cut -c3)
		x=${x:--}	# a long option without a letter, as help_opts says
		long=$(grep -oE '`--[a-z-]+' <<< "$opt" | head -1 | cut -c4-)
		for t in $tools; do
			help_opts "$t" | grep -qx -- "$x $long" ||
			    fails+="[$t: cmd/README has -$x --$long] "
		done
	done < <(grep -E '^\| `-' "$BATS_TEST_DIRNAME/../cmd/README")
	is "$fails" "" "failures"
}

@test "7: man: no example writes over a file that another page's example reads" {
	local w f
	# files an example writes with >, and files an example reads
	w=$(sed -n 's/^\.Dl .*> *\([^ &|;]*\).*/\1/p' "$MAN"/*.[0-9] | sort -u)
	for f in $w; do
		if grep -h '^\.Dl ' "$MAN"/*.[0-9] | grep -v "> *$f" |
		    grep -q "shm-import $f\b\|shm-import .* $f\b"; then
			echo "an example writes $f, another reads it" >&2
			false
		fi
	done
}

# shmids(3)'s reader example dropped what the user gave from its
# messages ("reader: no such segment"): house rule "prog: what: reason".
@test "7: man: shmids(3)'s reader example builds (-std=c99 -pedantic), reads a segment, and its diagnostics name the label or field" {
	local top=$BATS_TEST_DIRNAME/.. lib san= l
	lib=$top/${SHMIDS_BUILD:-build}
	command -v cc > /dev/null || skip "no cc"
	awk '/^A reader of one field/ { f = 1 }
	    f && /^\.Bd -literal/ { g = 1; next } g && /^\.Ed/ { exit } g' \
	    "$MAN/shmids.3" | sed 's/\\e/\\/g' > reader.c
	grep -q shmids_explain reader.c
	! nm -D "$lib/libshmids.so.1" 2>/dev/null | grep -q __asan_init ||
	    san=-fsanitize=address,undefined
	run cc -std=c99 -pedantic -Wall -Wextra -Werror $san -I"$top/lib" \
	    -o reader reader.c -L"$lib" -lshmids -Wl,-rpath,"$lib"
	status_is 0
	l=$(mkseg rd f64 3)
	printf 'x shmids %s\n' "$l" > in
	runio in ./reader
	status_is 0
	is "$(cat "$T/out")" "$(printf '0\n1\n2')" "the values"
	local in want fails=
	while IFS='|' read -r in want; do
		printf '%s\n' "$in" > in
		runio in ./reader
		[ "$status" = 1 ] || fails+="[$in: status $status] "
		[ "$(cat "$T/err")" = "reader: $want" ] ||
		    fails+="[$in: $(cat "$T/err")] "
	done <<-EOF
	x shmids ${l% *} ${P}other|stdin:1: ${l% *} ${P}other: segment ${l% *} is labelled '$l'
	x shmids 999999 ${P}none|stdin:1: 999999 ${P}none: no such segment (removed, or never made)
	|stdin:1: an empty label
	EOF
	runio /dev/null ./reader
	is "$status $(cat "$T/err")" "1 reader: stdin: no input" "no input"
	is "$fails" "" "failures"
}
