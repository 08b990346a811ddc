# tests/conformance/expect.awk: what a consumer should make of a
# document, from the corpus' words for its lines (dNNN.want, as
# tests/tools/lines writes them), so that every consumer is checked
# against the one expectation (format-spec.md 5, 6, 6.1).
#
#   awk -v mode=MODE -v doc=dNNN.txt [-v room=N] -f expect.awk dNNN.want
#
# mode get:	tests/tools/lines -g's lines, errnos but EINVAL as "ref"
# mode expand:	shm-expand's diagnostics: "N ref", "N malformed WHY"
# mode import:	the names shm-import -k 1 gives segments (without -P),
#		a field converted only if it can be a name of room bytes
# mode python:	load()'s keys, "KEY a" (an array) or "KEY t" (text), or
#		"raise N" at the first malformed line; "skip" where a
#		reference line would have load() attach a segment
function flags(from,   i, f) {
	f = " "
	for (i = from; i <= NF; i++)
		f = f $i " "
	return f
}
function has(f, w) { return index(f, " " w " ") > 0 }
function hexbytes(s) { return gsub(/\\x/, "&", s) }
function isname(s) {
	# 1 to room printable ASCII bytes, no blank (format-spec.md 1)
	return length(s) <= room && s !~ /\\x/
}
function key(k, v) {
	if (!(k in val))
		order[++nkeys] = k
	val[k] = v
}
function end_array(ok) {
	if (!inarr)
		return
	inarr = 0
	if (mode == "get")
		print arrline " " (ok ? "ok " arrcount : "einval")
	else if (mode == "import" && ok && arrcount > 0 && isname(arrfield))
		print arrfield
	else if (mode == "python")
		key(arrfield, ok ? "a" : "t")
}
function end_block() {
	if (!inblk)
		return
	inblk = 0
	if (mode == "import" && rows >= 2)
		print doc ":" blkline
	else if (mode == "python")
		key(doc ":" blkline, rows >= 2 ? "a" : "t")
}
BEGIN { room = room ? room : 64 }
{
	n = $1; kind = $2
	if (inarr && kind == "cont") {
		arrcount += $3
		f = flags(4)
		if (has(f, "bad"))
			arrok = 0
		if (!has(f, "/"))
			end_array(arrok)
		next
	}
	if (inarr) {
		end_array(0)		# cut short by a reference
		if (mode == "get")
			next		# shmids_get() read that line
	}
	if (kind != "row" || has(flags(5), "first"))
		end_block()
	if (kind == "ref" || kind == "tref") {
		if (mode == "get" || mode == "expand")
			print n " ref"
		refs++
	} else if (kind == "malformed") {
		why = $0
		sub(/^[0-9]+ malformed /, "", why)
		sub(/ (cut|crlf|cr|noeol)( (crlf|cr|noeol))?$/, "", why)
		if (mode == "get")
			print n " einval " why
		else if (mode == "expand")
			print n " malformed " why
		if (!refs && !raised) {
			raised = n
		}
		refs++
	} else if (kind == "array") {
		inarr = 1; arrline = n; arrfield = $3; arrcount = $4; arrok = 1
		if (!has(flags(5), "/"))
			end_array(1)
	} else if (kind == "row") {
		if (!inblk) {
			inblk = 1; blkline = n; rows = 0
		}
		rows++
		if (mode == "get")
			print n " einval"
	} else if (kind == "text") {
		if (mode == "get")
			print n " einval"
		if (mode == "python" && NF >= 3 && $3 == "(row)")
			key(doc ":" n, "t")
		else if (mode == "python" && NF >= 3 &&
		    $3 !~ /^(crlf|cr|noeol|\(comment\)|\(nul\))$/)
			key($3, "t")	# a comment (6), a NUL (6) no key
	}
}
END {
	end_array(1)			# a "/" on the last line ends it
	end_block()
	if (mode == "python") {
		if (raised)
			print "raise " raised
		else if (refs)
			print "skip"
		else
			for (i = 1; i <= nkeys; i++)
				print order[i] " " val[order[i]]
	}
}
