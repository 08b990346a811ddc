#!/usr/bin/env bats
# shm-import's notes (format-spec.md 7, shm-import): each cause said
# once a run, of its largest or first case, with how many there were; a
# place said once; the rule of "/" the library's classifier's.

load helper

# csv NAME: a small file as R or pandas writes it.
csv() {
	local i
	case $1 in
	iris)	echo '"Sepal.Length","Sepal.Width","Species"'
		for i in 1 2 3 4 5; do echo "5.$i,3.5,\"setosa\""; done ;;
	iris7)	echo '"Sepal.Length","Sepal.Width","Species"'
		for i in 1 2 3 4 5 6 7; do echo "6.$i,3.0,\"virginica\""; done ;;
	pandas)	echo ',a,b,c'
		for i in 0 1 2 3 4 5; do
			[ "$i" = 3 ] && echo "$i,0.5,,0.25" || echo "$i,0.5,0.75,0.25"
		done ;;
	esac
}

IRIS="a row holds numbers only: leave column 3 out"
PANDAS='empty fields ("3,0.5,,0.25", line 5), as pandas writes NaN; an empty field is no value: write NaN as nan (pandas: to_csv(na_rep="nan"))'

@test "7: shm-import: two tables left as text for different causes both get their word, in one file or in two" {
	{ csv iris; echo; csv pandas; } > two.csv
	run --separate-stderr shm_import -P "$P" two.csv
	status_is 0
	is "$output" "$(cat two.csv)" "bytes"
	is "$stderr" "shm-import: two.csv:2-6: a table of 5 rows, 10 values, stayed text: column 3 (\"Species\") is text (\"setosa\", line 2); $IRIS (cut -d',' -f1-2 two.csv | shm-import)
shm-import: two.csv:9-14: a table of 6 rows, 23 values, stayed text: ${PANDAS/line 5/line 12}"
	csv iris > iris.csv
	csv pandas > pandas.csv
	run --separate-stderr shm_import -P "$P" iris.csv pandas.csv
	status_is 0
	is "$stderr" "shm-import: iris.csv:2-6: a table of 5 rows, 10 values, stayed text: column 3 (\"Species\") is text (\"setosa\", line 2); $IRIS (cut -d',' -f1-2 iris.csv | shm-import)
shm-import: pandas.csv:2-7: a table of 6 rows, 23 values, stayed text: $PANDAS"
}

@test "7: shm-import: tables left as text for one cause: said once a run, of the largest, with how many" {
	csv iris > iris.csv
	csv iris7 > iris7.csv
	csv pandas > pandas.csv
	run --separate-stderr shm_import -P "$P" iris.csv pandas.csv iris7.csv iris.csv
	status_is 0
	is "$stderr" "shm-import: iris7.csv:2-8: a table of 7 rows, 14 values, stayed text: column 3 (\"Species\") is text (\"virginica\", line 2); $IRIS (cut -d',' -f1-2 iris7.csv | shm-import); 3 such tables in all
shm-import: pandas.csv:2-7: a table of 6 rows, 23 values, stayed text: $PANDAS"
	# and within one file: the largest of the cause, counted
	{ csv iris; echo; csv iris7; } > both.csv
	run --separate-stderr shm_import -P "$P" both.csv
	status_is 0
	is "$stderr" "shm-import: both.csv:9-15: a table of 7 rows, 14 values, stayed text: column 3 (\"Species\") is text (\"virginica\", line 9); $IRIS (cut -d',' -f1-2 both.csv | shm-import); 2 such tables in all"
}

@test "7: shm-import: a table not made is said at its place once (file:line, not file:line: file:line)" {
	printf '1 2 3\n4 5 6\n' > t.txt
	SHMIDS_DIR=$T/nodir run --separate-stderr shm_import -k 1 -P "$P" t.txt
	status_is 1
	is "$output" "$(cat t.txt)" "bytes"
	is "$stderr" "shm-import: t.txt:1: SHMIDS_DIR $T/nodir does not exist: 'mkdir -p $T/nodir' (mode 1777 to share it), or unset SHMIDS_DIR for System V segments
shm-import: SHMIDS_DIR $T/nodir: 1 table left as text (its lines copied unchanged: nothing lost)"
	# with -P, whose name would not be the place either
	SHMIDS_DIR=$T/nodir run --separate-stderr shm_import -k 1 -P "${P}run3/" t.txt
	status_is 1
	like "$stderr" "shm-import: t.txt:1: SHMIDS_DIR $T/nodir does not exist: *" "with -P"
	# an array's is said at its field
	printf 'a 1 2 3\n' > a.txt
	SHMIDS_DIR=$T/nodir run --separate-stderr shm_import -k 1 -P "$P" a.txt
	status_is 1
	like "$stderr" "shm-import: a.txt:1: a: SHMIDS_DIR $T/nodir does not exist: *" "array"
}

# slash_ends() read "x 1 /\r \n" as continued: the classifier does not
# (a CR inside the line is no line end; its "/" ends no line), and the
# row after it, of no array, is a row alone.
@test "6, 7: shm-import: an array line ending in '/\\r ' continues nothing, as the classifier reads it: the row after it is said alone" {
	local end fails= want
	for end in '/\r \n' '/ \n' '/\r\n' '/\n'; do
		{ printf "x 1 2 3 4 5 6 7 8 9 10 11 3o $end"
		  echo '1 2 3 4 5 6 7 8 9 10 11 12'; } > s.txt
		run --separate-stderr shm_import -k 10 -P "$P" s.txt
		[ "$status" = 0 ] || fails+="[$end: exit $status] "
		[ "$output" = "$(cat s.txt)" ] || fails+="[$end: bytes] "
		want='shm-import: s.txt:1: x: "3o" is no number: the array left as text (correct it; -f x names its line)'
		[ "$end" != '/\r \n' ] ||
		    want="shm-import: s.txt:2: a row of 12 values alone stays text (a table needs 2 rows or more); a field name makes it an array: sed '2s/^/x /' s.txt | shm-import
$want"
		[ "$stderr" = "$want" ] || fails+="[$end: $stderr] "
	done
	is "$fails" "" "failures"
	# -f reads it so too: "/" a bad value, the next line an array of its own
	printf 'x 1 2 /\r \ny 3 4\n' > c.txt
	run --separate-stderr shm_import -f x,y -P "$P" c.txt
	status_is 1
	is "$stderr" 'shm-import: c.txt:1: x: bad value "/"'
	track "$(sed -n 's/^y shmids //p' <<< "$output")"
	[[ ${lines[1]} == "y shmids "*" ${P}y" ]] || { echo "$output" >&2; false; }
}

# The note on arrays -k left offers -f with the field: only for a field
# -f takes (shmids_field_check()), not "shmids", which -f refuses.
@test "6, 7: shm-import: no array converted: -f is offered only for a field -f takes" {
	printf 'coeff -1 2 3 4 5 6 7 8 9 10\n' > a.txt
	run --separate-stderr shm_import -P "$P" a.txt
	status_is 0
	is "$stderr" "shm-import: no array converted: the longest, coeff (a.txt:1), has 10 values, fewer than -k 64; -k 10 or -f coeff converts it"
	printf 'shmids -1 2 3 4 5 6 7 8 9 10\n' > s.txt
	run --separate-stderr shm_import -P "$P" s.txt
	status_is 0
	is "$output" "$(cat s.txt)" "bytes"
	is "$stderr" "" "no -f shmids offered"
	run --separate-stderr shm_import -P "$P" -f shmids s.txt
	status_is 2
}
