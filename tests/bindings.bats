#!/usr/bin/env bats
# One behaviour in four languages (issue 40): what C, Python (numpy), R
# and Fortran do with the same segment or file, side by side: how a
# program's end leaves what it never sealed (format-spec.md 2.2), how a
# table of one row or one column arrives (2.7), how a reader keys what a
# writer of another language wrote (5, "Keys"; 6.1).  Each language's
# part skips, saying why, where it cannot run (no R, testthat is not
# needed; no numpy; no gfortran).  Segments are named $P..., or tracked.

load helper

TOP=$BATS_TEST_DIRNAME/..
BUILD=$(cd "$TOP/${SHMIDS_BUILD:-build}" && pwd)
LIB=$BUILD/libshmids.so
FTOOL=$BUILD/fortran/tests/tools/ftool

load rpkg

# The R package, built once for the file (tests/rpkg.bash).
setup_file() {
	rpkg_build
}

need_numpy() {
	PY=$(python_with numpy) || skip "no python3 with numpy (Debian: python3-numpy)"
	! nm -D "$LIB" 2>/dev/null | grep -q __asan_init ||
	    skip "$LIB is built with AddressSanitizer: python cannot load it"
}
need_fortran() {
	[ ! -f "$BUILD/fortran/skip" ] || skip "$(cat "$BUILD/fortran/skip")"
	[ -x "$FTOOL" ] || skip "$FTOOL not built (make)"
}

# rrun CODE [ARGS]: Rscript -e CODE with the package, P in the
# environment; py SCRIPT [ARGS]: python3 with numpy and the module.
rrun() {
	P=$P R_LIBS=$BATS_FILE_TMPDIR/lib timeout 120 Rscript -e "$@"
}
py() {
	P=$P SHMIDS_LIB=$LIB PYTHONPATH=$TOP/python timeout 120 "$PY" -c "$@"
}

# The line every binding says for a segment it removes at an end by an
# uncaught error (format-spec.md 2.2).
removed() {
	printf 'shmids: %s: removed, never sealed: the program ends by an uncaught error' "$1"
}

# ended sealed|removed STATUS: what `run --separate-stderr` of a writer
# that printed its label left: that status, and the segment sealed (its
# values 1 1 1), or removed and said so in that line.
ended() {
	local l=$output
	track "$l"
	status_is "$2"
	if [ "$1" = sealed ]; then
		run shm_expand <<< "v shmids $l"
		status_is 0
		is "$output" "v 1 1 1" "$l sealed"
	else
		grep -qxF "$(removed "$l")" <<< "$stderr" ||
		    { echo "not said: $stderr" >&2; return 1; }
		gone "$l"
	fi
}

# killed NAME COMMAND...: run COMMAND, a writer that prints its label
# and waits; kill it: the reader says its writer died.
killed() {
	local l
	l=$(bg "$@")
	track "$l"
	kill -9 "$(tail -n 1 "$T/.pids")"
	sleep 0.3
	run shm_expand <<< "v shmids $l"
	status_is 1
	like "$output" "*died before sealing*" "$l dead"
}

@test "2.2: C: exit(3) seals what a writer made and never sealed; _exit(2) and a kill leave it dead" {
	local l
	l=$(mkpaper exit 3 exit)
	run shmtool open "$l"
	status_is 0
	l=$(mkpaper under 3 _exit)
	run shmtool open "$l"
	is "$output" EOWNERDEAD
	l=$(mkkilled killed)
	run shmtool open "$l"
	is "$output" EOWNERDEAD
}

@test "2.2: Python: the interpreter's exit seals, sys.exit(1) too; an uncaught exception removes, said in one line; a kill leaves it dead" {
	need_numpy
	local how
	for how in end exit1 raise; do
		run --separate-stderr py '
import os, sys, shmids
w = shmids.zeros(os.environ["P"] + sys.argv[1], 3)
w.array[:] = 1
print(w.label, flush=True)
if sys.argv[1] == "exit1":
    sys.exit(1)
if sys.argv[1] == "raise":
    raise KeyError("half-written")' "$how"
		case $how in
		end)	ended sealed 0 ;;
		exit1)	ended sealed 1 ;;
		raise)	ended removed 1 ;;
		esac
	done
	killed pyhang env P="$P" SHMIDS_LIB="$LIB" PYTHONPATH="$TOP/python" "$PY" -c '
import os, time, shmids
w = shmids.zeros(os.environ["P"] + "killed", 3)
print(w.label, flush=True)
time.sleep(60)'
}

@test "2.2: R: the end of an Rscript seals, quit(status = 1) too; an error that ends it removes, said in one line; a kill leaves it dead" {
	need_r
	local how
	for how in end quit1 error; do
		run --separate-stderr rrun '
library(shmids)
how <- commandArgs(TRUE)[1]
w <- shm_zeros(paste0(Sys.getenv("P"), how), 3)
w[] <- 1
writeLines(shm_label(w))
if (how == "quit1") quit(status = 1)
if (how == "error") stop("half-written")' "$how"
		case $how in
		end)	ended sealed 0 ;;
		quit1)	ended sealed 1 ;;
		error)	ended removed 1 ;;
		esac
	done
	killed rhang env P="$P" R_LIBS="$BATS_FILE_TMPDIR/lib" Rscript -e '
library(shmids); w <- shm_zeros(paste0(Sys.getenv("P"), "killed"), 3)
writeLines(shm_label(w)); Sys.sleep(60)'
}

@test "2.2: Fortran: the end of the program and STOP seal, ERROR STOP too (the module cannot tell it); the module's own error stop removes, said in one line; a kill leaves it dead" {
	need_fortran
	local how
	for how in stop errorstop fail; do
		run --separate-stderr env GFORTRAN_ERROR_BACKTRACE=0 \
		    "$FTOOL" end "$how" "$P$how" 3
		case $how in
		stop)	ended sealed 0 ;;
		errorstop) ended sealed 1 ;;
		fail)	ended removed 1 ;;
		esac
	done
	killed fhang "$FTOOL" hang f64 "${P}killed" 10
}

# The tables of one row, one column and no rows that each writer makes,
# a line "WRITER ROWS COLS LABEL" each; the values, row by row, are
# 0, 1, 2 (C, numpy, R) or Fortran's (k+1)/3.
one_row_tables() {
	local rc r c o l
	for rc in 1x3 3x1 0x3; do
		r=${rc%x*} c=${rc#*x}
		for o in C F; do
			l=$(shmtool matrix "${P}c$o$rc" f64 "$r" "$c" "$o") &&
			    track "$l" && echo "C $r $c $l"
		done
	done
	if PY=$(python_with numpy) && ! nm -D "$LIB" 2>/dev/null | grep -q __asan_init; then
		py '
import os, numpy, shmids
for r, c in ((1, 3), (3, 1), (0, 3)):
    for o in "CF":
        a = numpy.arange(r * c, dtype=numpy.float64).reshape(r, c)
        print("numpy", r, c, shmids.create("%sn%s%dx%d" % (os.environ["P"], o, r, c), a, order=o))'
	fi
	if have_r; then
		rrun '
library(shmids)
for (rc in list(c(1, 3), c(3, 1), c(0, 3))) {
  m <- matrix(seq_len(prod(rc)) - 1, rc[1], rc[2], byrow = TRUE)
  cat("R", rc, shm_create(sprintf("%sr%dx%d", Sys.getenv("P"), rc[1], rc[2]), m), "\n")
}'
	fi
	if [ -x "$FTOOL" ] && [ ! -f "$BUILD/fortran/skip" ]; then
		for rc in 1x3 3x1 0x3; do
			r=${rc%x*} c=${rc#*x}
			l=$(timeout 60 "$FTOOL" write f64 2 "${P}f$rc" "$r" "$c") &&
			    track "$l" && echo "Fortran $r $c $l"
		done
	fi
}

@test "2.7: a table of one row, one column or no rows arrives as the same matrix, rows x cols, never transposed, in C, numpy, R and Fortran, whoever wrote it" {
	local w r c id name l want got fails= n=0
	one_row_tables > tables.txt
	while read -r w r c id name; do
		l="$id $name"
		n=$((n + 1))
		got=$(shmtool dims "$l")
		like "$got" "open 2 C $r $c *" "C's shmids_dims() of $w's $r x $c"
		if [ "$w" = Fortran ]; then
			want=$(seq 0 $((r * c - 1)) | awk '{ printf "%s%g", (NR > 1 ? " " : ""), ($1 + 1) / 3 }')
		else
			want=$(seq 0 $((r * c - 1)) | tr '\n' ' ' | sed 's/ $//')
		fi
		if PY=$(python_with numpy) && ! nm -D "$LIB" 2>/dev/null | grep -q __asan_init; then
			got=$(py '
import sys, shmids
a = shmids.attach(sys.argv[1])
print(" ".join(["%d" % n for n in a.shape] + ["%g" % v for v in a.ravel()]))' "$l")
			[ "$got" = "$r $c${want:+ $want}" ] || fails+="[numpy of $w's $r x $c: $got] "
		fi
		if have_r; then
			got=$(rrun '
x <- shmids::shm_attach(commandArgs(TRUE)[1])
cat(dim(x), sprintf("%g", as.vector(t(x[, , drop = FALSE]))), "\n")' "$l" | sed 's/ *$//')
			[ "$got" = "$r $c${want:+ $want}" ] || fails+="[R of $w's $r x $c: $got] "
		fi
		if [ -x "$FTOOL" ]; then
			got=$(timeout 60 "$FTOOL" read f64 2 "$l" | awk 'NR == 1 { printf "%s %s %s", $1, $2, $3; next }
			    { for (i = 1; i <= NF; i++) printf " %g", $i } END { print "" }')
			[ "$got" = "$r $c F${want:+ $want}" ] || fails+="[Fortran of $w's $r x $c: $got] "
		fi
	done < tables.txt
	[ "$n" -ge 6 ] || { echo "only $n tables made" >&2; false; }
	is "$fails" "" "readers that disagree"
}

@test "5, 6.1: keys: what R's shm_write() writes with a prefix (vector, matrix, data frame, integer matrix with NA), numpy's load() reads under R's names, as R reads it; and back from dump()" {
	need_r
	need_numpy
	local made
	rrun '
library(shmids)
x <- list(v = c(1, 2.5), m = matrix(c(1L, NA, 3L, 4L, 5L, 6L), 3, 2),
          d = data.frame(a = c(1.5, NA), b = c(10, 20)), one = matrix(1:3, 1))
writeLines(shm_write(x, "r.txt", prefix = paste0(Sys.getenv("P"), "a-")), "made")
r <- shm_read("r.txt")
cat(names(r), "\n")
cat(dim(r$m), class(r$d), names(r$d), dim(r$one), "\n")' > r.out
	while read -r made; do track "$made"; done < made
	is "$(cat r.out)" "v m d one 
3 2 data.frame a b 1 3 "
	run py '
import numpy, shmids
d = shmids.load("r.txt")
print(list(d))
print(d["m"].shape, d["m"].tolist()[1], d["d"].dtype.names, d["d"]["a"].tolist(), d["one"].shape)'
	status_is 0
	is "$output" "['v', 'm', 'd', 'one']
(3, 2) [nan, 5.0] ('a', 'b') [1.5, nan] (1, 3)"
	# and back: what dump() writes with a prefix, R reads under its keys
	run py '
import os, numpy, shmids
x = {"v": numpy.arange(3.0), "m": numpy.arange(6.0).reshape(2, 3), "k": numpy.arange(70.0)}
for l in shmids.dump(x, "p.txt", min_count=64, prefix=os.environ["P"] + "b-"):
    print(l)'
	status_is 0
	while read -r made; do track "$made"; done <<< "$output"
	run rrun '
r <- shmids::shm_read("p.txt")
cat(names(r), "|", r$v, "|", as.vector(t(r$m)), "|", dim(r$m), "|", sum(r$k), "\n")'
	status_is 0
	# numpy's 2 x 3 (C order): R's view is its transpose, dim 3 2
	is "$output" "v m k | 0 1 2 | 0 3 1 4 2 5 | 3 2 | 2415 "
}

@test "5, 6.1: keys: a file, its shm-import and its shm-expand read by numpy's load() and R's shm_read() give the same keys; a CSV header names the columns, never a key" {
	need_r
	need_numpy
	local l
	printf '%s\n' 'x 1 2 3' '' '1 2' '3 4' '' '"a","b"' '5,6' '7,8' \
	    m '9 10' '11 12' > t.txt
	# no -P: shm-import names a table source:line, as readers key it
	shm_import -k 4 t.txt > i.txt
	for l in $(sed -n 's/^shmids,* //p' i.txt | tr ' ' '@'); do
		track "${l%%@*}"
	done
	# the expansion, under the same name: a block's key is its file's
	mkdir e && shm_expand i.txt > e/t.txt
	for f in t.txt i.txt e/t.txt; do
		run py '
import sys, shmids
d = shmids.load(sys.argv[1])
print(" ".join(d), d["t.txt:7"].dtype.names)' "$f"
		status_is 0
		is "$output" "x t.txt:3 t.txt:7 m ('a', 'b')" "numpy's keys of $f"
		run rrun '
r <- shmids::shm_read(commandArgs(TRUE)[1])
cat(names(r), names(r[["t.txt:7"]]), "\n")' "$f"
		status_is 0
		is "$output" "x t.txt:3 t.txt:7 m a b " "R's keys of $f"
	done
}
