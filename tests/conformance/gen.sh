#!/bin/sh
# tests/conformance/gen.sh DIR: the conformance corpus, made from
# lines.tab and docs.tab: DIR/dNNN.txt, a document, and DIR/dNNN.want,
# what each of its lines is (tests/tools/lines' words).  Prints the
# number of documents.
set -eu
here=$(dirname "$0")
dir=$1
n=0
tab=$(printf '\t')
doc() {	# INPUT-BYTES-FILE EXPECTED
	n=$((n + 1))
	f=$(printf '%s/d%03d' "$dir" "$n")
	mv "$dir/.in" "$f.txt"
	printf '%s\n' "$1" | sed 's/ | /\n/g' > "$f.want"
}
grep -v '^#' "$here/lines.tab" | while IFS="$tab" read -r input item only; do
	[ "$input" = "(empty)" ] && input=
	for e in lf crlf none cr; do
		case $e in
		lf) end='\n' suf= ;;
		crlf) end='\r\n' suf=' crlf' ;;
		none) end= suf=' noeol' ;;
		cr) end='\r' suf=' cr' ;;
		esac
		[ -n "$only" ] && [ "$e" != "$only" ] && continue
		# an empty line with no end is no line
		[ -z "$input" ] && [ "$e" != lf ] && continue
		printf '%b' "$input$end" > "$dir/.in"
		doc "1 $item$suf"
	done
	echo "$n" > "$dir/.n"
done
n=$(cat "$dir/.n")
grep -v '^#' "$here/docs.tab" | while IFS="$tab" read -r input want; do
	printf '%b' "$input" > "$dir/.in"
	doc "$want"
	echo "$n" > "$dir/.n"
done
# lines longer than a filter holds whole (format-spec.md 8)
n=$(cat "$dir/.n")
pad=$(printf '%4001s' '')
printf '%s1 2\n%s3 4\n' "$pad" "$pad" > "$dir/.in"
doc "1 text (row) | 2 text (row)"
printf '%s1 2\n%s3 4\n' "${pad% }" "${pad% }" > "$dir/.in"
doc "1 row sp 2 first | 2 row sp 2"
long=$(printf 'f%.0s' $(seq 5000))
printf '%s shmids 402 x\n%s 1 2 x\n%s 1 2\n' "$long" "$long" "$long" > "$dir/.in"
doc "1 ref $long 402 x | 2 text $long | 3 array $long 2"
printf '%s%s\n%sshmids 402 x\n' "$pad$pad" "coeff shmids 402 x" "$pad" > \
    "$dir/.in"
doc "1 ref coeff 402 x | 2 tref sp 402 x"
printf 'x shmids 402 %s\n' "$long" > "$dir/.in"
doc "1 malformed name longer than 64 bytes"
# 6: comments, long ones too (1.5 made "# 1 2 ... 100" a segment "#")
printf '#x %s\n' "$(seq 1 100 | tr '\n' ' ')" > "$dir/.in"
doc "1 text (comment)"
printf '# %s\r\n1 2\r\n3 4\r\n' "$(seq 1 5000 | tr '\n' ' ')" > "$dir/.in"
doc "1 text (comment) crlf | 2 row sp 2 first crlf | 3 row sp 2 crlf"
printf 'x 1 /\n%s# %s /\n2\n' "$pad" "$(seq 1 5000 | tr '\n' ' ')" > \
    "$dir/.in"
doc "1 array x 1 / | 2 cont 0 / bad | 3 cont 0 bad"
rm -f "$dir/.n"
echo "$n"
