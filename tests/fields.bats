#!/usr/bin/env bats
# What may be a field, one rule (format-spec.md 6, "A field a writer may
# write"; shmids_field_check()), asked by the tools; a NUL byte in a line
# (6, "NUL bytes"); a field longer than shm-expand holds, the classifier
# told so rather than shown forged bytes (7).

load helper

SYN_IMPORT="shm-import [-f fields] [-k min] [-m mode] [-P prefix] [-t [field=]type] [--stream[=slots]] [file ...]"
SYN_EXPAND="shm-expand [-dr] [-c cols] [-f fields] [-F type=style] [-t type] [-w seconds] [file ...]"

@test "6: shm-import -f and -t: Fortran's forms that are no value and the word shmids are no field (usage errors, the library's words)" {
	bad_args shm-import "$SYN_IMPORT" <<-'EOF'
	-f '3*'|-f 3*: a list-directed null value (Fortran's r*) is never a field (a line that begins with one is text)
	-f 'a,3*0.0'|-f 3*0.0: a list-directed repeat count (Fortran's r*c) is never a field (a line that begins with one is text)
	-f '0.1+101'|-f 0.1+101: a Fortran exponent without its letter (E, D) is never a field (a line that begins with one is text)
	-f shmids|-f shmids: the word shmids is never a field (a line that begins with it and a number is a table reference)
	-t 'shmids,=i32'|-t shmids,: the word shmids is never a field (a line that begins with it and a number is a table reference)
	-t '12*NA=f64'|-t 12*NA: a list-directed repeat count (Fortran's r*c) is never a field (a line that begins with one is text)
	-f '1,x'|-f 1: a number is never a field (a line that begins with a number is a table row)
	EOF
}

@test "6: shm-import -f of a field that may be one still converts it ('3*x', 'shmidsx')" {
	printf '3*x 1 2\nshmidsx 3 4\n' > in
	runio in shm_import -k 1 -f '3*x,shmidsx' -P "$P"
	status_is 0
	err_is ""
	# named with $P: teardown removes them
	is "$(grep -c " shmids [0-9]* ${P}" "$T/out")" 2 "reference lines"
}

@test "6: shm-expand -f takes what a reference line's field may be ('#x', '3*', 'shmids'), refuses a number" {
	local l
	l=$(mkseg v i32 2)
	printf '3* shmids %s\n#x shmids %s\nshmids shmids %s\n' "$l" "$l" "$l" > in
	runio in shm_expand -f '3*,#x,shmids'
	status_is 0
	printf '3* 0 1\n#x 0 1\nshmids 0 1\n' | same_file /dev/stdin out
	err_is ""
	bad_args shm-expand "$SYN_EXPAND" <<-'EOF'
	-f 'a,NA'|-f NA: a number is never a field (a line that begins with a number is a table row)
	EOF
}

@test "6: a line whose first token holds a NUL byte passes shm-expand and shm-import unchanged, silent, exit 0; so does one whose value holds one" {
	printf '\000x 1 2\nx\000y 3 4 /\n5 6\nx 1\000 2\n# \000\n' > in
	runio in shm_expand
	status_is 0
	same_file in out
	err_is ""
	runio in shm_import -k 1 -P "$P"
	status_is 0
	# only "5 6" is converted: a row alone is no table; nothing else
	same_file in out
	no_segments_named "$P"
}

@test "7: shm-expand: a field longer than it holds is told to the classifier: 'x' and 5000 digits is a reference's field, expanded; its '#', NUL and CR still count" {
	local l f
	l=$(mkseg v i32 2)
	f=x$(head -c 5000 /dev/zero | tr '\0' 1)
	printf '%s shmids %s\n' "$f" "$l" > in
	runio in shm_expand -c 0
	status_is 0
	printf '%s 0 1\n' "$f" | same_file /dev/stdin out
	err_is ""
	printf '#%s shmids are fast\n' "$f" > in
	runio in shm_expand
	status_is 0
	same_file in out
	printf '%s\000%s shmids %s\n%s\r%s shmids %s\n' "$f" "$f" "$l" "$f" \
	    "$f" "$l" > in
	runio in shm_expand
	status_is 1
	same_file in out
	printf 'shm-expand: stdin:1: malformed reference: NUL byte in reference\nshm-expand: stdin:2: malformed reference: CR inside reference\n' |
	    same_file /dev/stdin err
}
