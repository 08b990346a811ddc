# tests/programs.bash: the README's whole programs as built by the
# routes of installing shmids (tests/cmake.bats, tests/packages.bats).

# check_program c|fortran: the README's C program (examples/hello.c) or
# its Fortran program ran ($status, $output, $lines): its reference
# line, what it read back, and its segment gone (tracked, so that
# teardown removes it whatever failed).
check_program() {
	local field name want l
	case $1 in
	c) field=u name=hello-u want="u: 1000 values, sum 124875" ;;
	fortran) field=coeff name=coeff want="read back: 100 values, sum 4950.0" ;;
	esac
	l=$(sed -n "s/^$field shmids //p" <<< "$output")
	[ -z "$l" ] || track "$l"
	status_is 0
	like "${lines[0]}" "$field shmids [0-9]* $name" "$1 program's line 1"
	is "${lines[1]}" "$want" "$1 program's line 2"
	is "${#lines[@]}" 2 "$1 program's lines"
	gone "$l"
}
