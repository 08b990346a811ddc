#!/usr/bin/env bats
# What the Python module says of input and settings the tools refuse
# (issue 40 items 5, 15): compressed input refused as shm-import refuses
# it (format-spec.md 7; the library tells it, shmids_compressed()), and
# a SHMIDS_DIR that is not there with shm-ls's hint (2.6, 7; the
# library's words, shmids_explain()).  Each test holds the module to
# the tools' own answer.

load helper
load python

# refused FILE: what shm-import says of FILE's first bytes: the
# compressor it names, or "text".
refused() {
	local err
	err=$(timeout 30 "$BIN/shm-import" -P "$P" "$1" 2>&1 > /dev/null)
	case $err in
	*": compressed by "*)
		err=${err#*: compressed by }
		echo "${err%%:*}" ;;
	*)	echo text ;;
	esac
}

@test "7: python: load() refuses compressed input whose first bytes shm-import refuses, no other, with the call that reads it" {
	need_python
	local c f want= got fails=
	seq 100 | sed 's/^/w /' > s.txt
	for c in gzip xz zstd bzip2; do
		command -v "$c" > /dev/null && "$c" -c < s.txt > "s.$c"
	done
	: | bzip2 -c > e.bzip2 2> /dev/null || true
	# the edges of the magic numbers: short, near, and text that is one
	printf '\037' > b.1
	printf '\375' > b.2
	printf '\3757zXZ' > b.3
	printf '\3757zXZ\000rest\n' > b.4
	printf '(\265/' > b.5
	printf 'BZh9 is a word\n' > b.6
	printf 'BZh91AY&SY\n' > b.7
	printf 'BZh0\027rE8P\220\n' > b.8
	printf 'BZh1\027rE8P\220' > b.9
	printf '\037\213' > b.10
	printf 'x 1 2\n' > b.11
	for f in s.* e.bzip2 b.*; do
		[ -f "$f" ] || continue
		want+="$f $(refused "$f")"$'\n'
	done
	run pyrun '
import sys, shmids
for f in sys.argv[1:]:
    try:
        shmids.load(f)
        print(f, "text")
    except OSError as e:
        w = e.strerror.split(": ")[0]
        print(f, w[len("compressed by "):] if w.startswith("compressed by ") else e)' s.* e.bzip2 b.*
	status_is 0
	is "$output"$'\n' "$want" "python against shm-import"
	[ -f s.gzip ] || skip "no gzip"
	# the words, and the call they give reads the file
	run pyrun '
import gzip, bz2, lzma, os, sys, shmids
want = shmids.load("s.txt")
for f in sys.argv[1:]:
    for x in (f, open(f, "rb")):
        try:
            shmids.load(x)
            raise AssertionError(f + ": read")
        except OSError as e:
            print(e.errno, e.strerror, e.filename)
            call = e.strerror.split("decompress it first: ")[1]
        if not f.endswith("zstd"):
            assert eval(call) == want, call
try:
    shmids.load(sys.stdin.buffer)
except OSError as e:
    print(e.errno, e.strerror, e.filename)' $(ls s.gzip s.xz s.zstd s.bzip2 2> /dev/null) < s.gzip
	status_is 0
	for f in s.gzip s.xz s.bzip2; do
		[ -f "$f" ] || continue
		case $f in
		*gzip)	c=gzip m=gzip ;;
		*xz)	c=xz m=lzma ;;
		*)	c=bzip2 m=bz2 ;;
		esac
		grep -Fqx "22 compressed by $c: decompress it first: shmids.load($m.open('$f')) $f" <<< "$output" ||
		    fails+="[$f] "
	done
	if [ -f s.zstd ]; then
		grep -Fqx "22 compressed by zstd: decompress it first: zstd -d s.zstd, and load the file it writes s.zstd" <<< "$output" ||
		    fails+="[s.zstd] "
	fi
	is "${lines[${#lines[@]} - 1]}" "22 compressed by gzip: decompress it first: shmids.load(gzip.open(sys.stdin.buffer)) <stdin>" "stdin"
	is "$fails" "" "files whose words differ"
}

@test "2.6, 7: python: a SHMIDS_DIR missing, no directory or closed gets shm-ls's hint from create(), zeros(), dump() and ls()" {
	need_python
	local d want got fails=
	: > afile
	mkdir closed
	chmod 0 closed
	for d in "$T/none" "$T/my dir/none" "$T/it's" "$T/afile" \
	    "$T/afile/sub" "-x" "rel/none" "$T/closed" \
	    "$T/"$'\303\251t\303\251'; do
		want=$(SHMIDS_DIR=$d timeout 30 "$BIN/shm-ls" 2>&1 > /dev/null) || true
		want=${want#shm-ls: }
		[ "$d" != "$T/closed" ] || [ "$(id -u)" != 0 ] ||
		    continue	# root searches any directory: no hint
		got=$(SHMIDS_DIR=$d pyrun '
import array, os, shmids
P = os.environ["P"]
for f, a in ((shmids.ls, ()), (shmids.create, (P + "c", array.array("d", [1]))),
             (shmids.zeros, (P + "z", 3)),
             (shmids.dump, ({"x": array.array("d", range(100))}, "out.txt"))):
    try:
        f(*a)
        print(f.__name__, "no error")
    except OSError as e:
        print(e.strerror)' 2>&1) || true
		[ "$got" = "$want"$'\n'"$want"$'\n'"$want"$'\n'"$want" ] ||
		    fails+="[$d: want $want; got $got] "
	done
	chmod 700 closed
	is "$fails" "" "directories whose words differ"
}
