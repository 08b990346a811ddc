#!/usr/bin/env bats
# Round trips: segment -> shm-expand -> shm-import -> segment gives the
# same bytes, for every type and style (format-spec.md 6: "expanding an
# array and reading it back is the identity on its bytes").

load helper

# again LABEL [EXPAND-OPTIONS...]: expand LABEL, import the result as
# LABEL's type, compare the two segments bytewise.
again() {
	local l=$1 type
	shift
	type=$(shmtool open "$l" | cut -d' ' -f1)
	printf 'x shmids %s\n' "$l" | shm_expand "$@" > text || return 1
	shm_import -f x -t "$type" -p "$P" < text > back || return 1
	shmtool cmp "$l" "$(label_of back)"
}

@test "round trip: every type, default style" {
	local type l fails= r
	for type in f64 f32 i64 i32 raw; do
		l=$(mkseg "$type" "$type" 1000)
		r=$(again "$l" 2>&1) || fails+="[$type: $r] "
	done
	is "$fails" "" "failures"
}

@test "round trip: random bit patterns (NaN payloads, subnormals), every style" {
	local row type style l fails= r
	for row in f64:short f64:exp f64:hex f32:short f32:exp f32:hex \
	    i64:dec i64:hex i32:dec i32:hex raw:dec raw:hex; do
		type=${row%:*} style=${row#*:}
		l=$(mkrandom "$type" "$type" 20000 "$RANDOM")
		r=$(again "$l" -F "$type=$style" 2>&1) || fails+="[$row: $r] "
	done
	is "$fails" "" "failures"
}

@test "round trip: special values read from ASCII have the right bits" {
	local type line bits l fails=
	while IFS='|' read -r type line bits; do
		printf 'x %s\n' "$line" > in
		if ! shm_import -f x -t "$type" -p "$P" < in > out 2> err; then
			fails+="[$type '$line': $(cat err)] "
			continue
		fi
		l=$(label_of out)
		[ "$(shmtool bits "$l")" = "$bits" ] ||
		    fails+="[$type '$line': bits $(shmtool bits "$l")] "
		again "$l" > /dev/null 2>&1 || fails+="[$type '$line': no round trip] "
	done <<-'EOF'
	f64|-0 inf nan 4.9e-324 1.7976931348623157e308|8000000000000000 7ff0000000000000 7ff8000000000000 0000000000000001 7fefffffffffffff
	f64|-inf 0 -0.0 2.2250738585072014e-308 2.225073858507201e-308|fff0000000000000 0000000000000000 8000000000000000 0010000000000000 000fffffffffffff
	f64|nan(0x8000000000001) -nan(0x8000000000000) nan(0x1) -nan(0xfffffffffffff)|7ff8000000000001 fff8000000000000 7ff0000000000001 ffffffffffffffff
	f64|0.1 0.30000000000000004 -2.5 1e22 1e23|3fb999999999999a 3fd3333333333334 c004000000000000 4480f0cf064dd592 44b52d02c7e14af6
	f64|0x1p-1074 0X1.8P+1 +1.5 .5 5. 1E3|0000000000000001 4008000000000000 3ff8000000000000 3fe0000000000000 4014000000000000 408f400000000000
	f64|1.00000000000000011102230246251565404236316680908203125 1.00000000000000011102230246251565404236316680908203126|3ff0000000000000 3ff0000000000001
	f32|-0 inf nan 1e-45 3.4028235e38 0.1|80000000 7f800000 7fc00000 00000001 7f7fffff 3dcccccd
	f32|nan(0x400001) -nan(0x400000) nan(0x1)|7fc00001 ffc00000 7f800001
	f32|1.00000005960464477539062500 1.00000005960464477539062501|3f800000 3f800001
	i64|-9223372036854775808 9223372036854775807 0 -1 +5|8000000000000000 7fffffffffffffff 0000000000000000 ffffffffffffffff 0000000000000005
	i32|-2147483648 2147483647 -1|80000000 7fffffff ffffffff
	raw|0 255 16|00 ff 10
	EOF
	is "$fails" "" "failures"
}

@test "round trip: special values expand to the forms of section 6" {
	local l
	printf 'x -0 inf -inf nan nan(0x8000000000001) -nan(0x8000000000000) 0.1\n' > in
	shm_import -f x -p "$P" < in > out
	l=$(label_of out)
	printf 'x shmids %s\n' "$l" | shm_expand > got
	same_file in got
}

@test "round trip: wrapped and CRLF text reads back the same" {
	local l
	l=$(mkrandom w f64 500 7)
	printf 'x shmids %s\r\n' "$l" | shm_expand -c 40 > text
	[ "$(wc -l < text)" -gt 100 ]
	shm_import -f x -p "$P" < text > back
	shmtool cmp "$l" "$(label_of back)"
}

@test "round trip: wrapped text without final newline reads back the same" {
	local l
	l=$(mkrandom w f64 100 9)
	printf 'x shmids %s' "$l" | shm_expand -c 40 > text
	[ "$(wc -l < text)" -gt 10 ] || { echo "not wrapped into lines: $(head -c 300 text)" >&2; false; }
	[ "$(tail -c 1 text)" != "" ]
	shm_import -f x -p "$P" < text > back
	shmtool cmp "$l" "$(label_of back)"
}

@test "round trip: 10^7 doubles are bit-identical after expand and import" {
	local l
	[ -z "${SHMIDS_VALGRIND:-}" ] || skip "too slow under valgrind"
	l=$(mkrandom big f64 10000000 42)
	shm_expand -c 0 <<< "x shmids $l" | shm_import -f x -p "$P" > back
	run shmtool cmp "$l" "$(label_of back)"
	status_is 0
	is "$output" same
}
