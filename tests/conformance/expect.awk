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
#		reference line would have load() attach a segment; a
#		block keyed by its key line (a field alone right above it,
#		or above its CSV header, a field of as many comma-separated
#		names as it has columns), which are then no keys (format-
#		spec.md 5, "Keys"; 6.1)
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
# mode python: the lines right above that may be a block's key line
# (alone: a field alone) or its header, their keys held back
function cand(k, v, alone,   i) {
	if (nc == 2) {
		key(ck[1], cv[1])
		ck[1] = ck[2]; cv[1] = cv[2]; ca[1] = ca[2]
		nc = 1
	}
	nc++
	ck[nc] = k; cv[nc] = v; ca[nc] = alone
}
function flush(   i) {
	for (i = 1; i <= nc; i++)
		key(ck[i], cv[i])
	nc = 0
}
function end_array(ok) {
	if (!inarr)
		return
	inarr = 0
	if (mode == "get")
		print arrline " " (ok ? "ok " arrcount : "einval")
	else if (mode == "import" && ok && arrcount > 0 && isname(arrfield))
		print arrfield
	else if (mode == "python" && ok && arrcount == 0 && arrlines == 1)
		cand(arrfield, "a", 1)
	else if (mode == "python") {
		flush()
		key(arrfield, ok ? "a" : "t")
	}
}
function end_block() {
	if (!inblk)
		return
	inblk = 0
	if (mode == "import" && rows >= 2)
		print doc ":" blkline
	else if (mode == "python")
		end_pyblock()
}
function end_pyblock(   hdr, k, bk, v) {
	hdr = blksep == "comma" && nc >= 1 && split(ck[nc], nm, ",") == blkcols
	k = nc - hdr
	bk = doc ":" blkline
	v = rows >= 2 ? "a" : "t"
	if (k >= 1 && ca[k]) {
		bk = ck[k]
		v = "a"
		nc = k - 1
	} else if (hdr && rows >= 2)
		nc--
	flush()
	key(bk, v)
}
BEGIN { room = room ? room : 64 }
{
	n = $1; kind = $2
	if (inarr && kind == "cont") {
		arrcount += $3
		arrlines++
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
		arrlines = 1
		if (!has(flags(5), "/"))
			end_array(1)
	} else if (kind == "row") {
		if (!inblk) {
			inblk = 1; blkline = n; rows = 0
			blksep = $3; blkcols = $4
		}
		rows++
		if (mode == "get")
			print n " einval"
	} else if (kind == "text") {
		if (mode == "get")
			print n " einval"
		if (mode == "python" && NF >= 3 && $3 == "(row)") {
			flush()
			key(doc ":" n, "t")
		} else if (mode == "python" && NF >= 3 &&
		    $3 !~ /^(crlf|cr|noeol|\(comment\)|\(nul\))$/)
			cand($3, "t", 0)	# a comment (6), a NUL (6) no key
		else if (mode == "python")
			flush()
	} else if (mode == "python")
		flush()
}
END {
	end_array(1)			# a "/" on the last line ends it
	end_block()
	if (mode == "python") {
		flush()
		if (raised)
			print "raise " raised
		else if (refs)
			print "skip"
		else
			for (i = 1; i <= nkeys; i++)
				print order[i] " " val[order[i]]
	}
}
