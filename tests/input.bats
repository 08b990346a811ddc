#!/usr/bin/env bats
# Input the tools do not convert, and what they say about it: compressed
# files (format-spec.md 7), tables left as text (6.1, 7).

load helper

@test "7: compressed input (gzip, xz, zstd, bzip2) is refused with the command to use, nothing written, exit 1" {
	local fails= c tool how
	seq 100 | sed 's/^/w /' > s.txt
	for c in gzip xz zstd bzip2; do
		command -v "$c" > /dev/null || { fails+="[$c missing] "; continue; }
		"$c" -c < s.txt > "s.$c"
	done
	: | bzip2 -c > e.bzip2
	for tool in shm-import shm-expand; do
		for f in s.gzip s.xz s.zstd s.bzip2 e.bzip2; do
			[ -f "$f" ] || continue
			how=${f#*.}
			run --separate-stderr timeout 30 "$BIN/$tool" "$f"
			[ "$status" = 1 ] || fails+="[$tool $f: exit $status] "
			[ -z "$output" ] || fails+="[$tool $f: output] "
			[ "$stderr" = "$tool: $f: compressed by $how: decompress it first: $how -dc $f | $tool" ] ||
			    fails+="[$tool $f: $stderr] "
		done
		run --separate-stderr bash -c "timeout 30 '$BIN/$tool' < s.gzip"
		[ "$status" = 1 ] && [ -z "$output" ] &&
		    [ "$stderr" = "$tool: stdin: compressed by gzip: decompress it first: ... | gzip -dc | $tool" ] ||
		    fails+="[$tool stdin: $status $stderr] "
		# the other inputs are read; text that begins BZh9 is text
		printf 'BZh9 is a word\n' > t.txt
		run --separate-stderr timeout 30 "$BIN/$tool" s.gzip t.txt
		[ "$status" = 1 ] && [ "$output" = "BZh9 is a word" ] ||
		    fails+="[$tool s.gzip t.txt: $status $output] "
	done
	# the command it names works
	run --separate-stderr bash -c "gzip -dc s.gzip | timeout 30 '$BIN/shm-import' -P '$P'"
	status_is 0
	is "$output" "$(cat s.txt)"
	is "$fails" "" "failures"
}
