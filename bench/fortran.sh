#!/bin/sh
# bench/fortran.sh: Grosse's Table 1 pipeline (bench/table1) with the
# writer in Fortran (bench/fortran/fwriter.f90): a segment through the
# module, against the two things a Fortran program would otherwise do,
# formatted text (write(u, '(ES25.17)')) and unformatted stream I/O,
# each piped to the reader (bench/fortran/reader.c), which sums and
# checks the n doubles.  Medians of BENCH_RUNS (5) runs, the rows taken
# in turn within each run; "total" is the pipeline's wall time (both
# processes' start and exit, and the segment's removal, included),
# "writer" and "reader" each process's own time.  Ratios are against
# the shm row of the same run.  Run by bench/run after make bench;
# skipped, saying why, without gfortran.
#
#	sh bench/fortran.sh		BENCH_SIZES ("1e6 1e7"), BENCH_RUNS
cd "$(dirname "$0")/.." || exit 2
build=${SHMIDS_BUILD:-build}
W=$build/fortran/bench/fortran/fwriter
R=$build/bench/fortran
if [ -f "$build/fortran/skip" ] || [ ! -x "$W" ]; then
	echo "fortran: skipped: $(cat "$build/fortran/skip" 2>/dev/null ||
	    echo "$W not built (make bench)")"
	exit 0
fi
[ -x "$R" ] || { echo "bench/fortran.sh: $R: not built (make bench)" >&2; exit 2; }
BENCH_PREFIX=${BENCH_PREFIX:-bench-$$-}
export BENCH_PREFIX
sizes=${BENCH_SIZES:-1e6 1e7}
[ -z "${BENCH_QUICK:-}" ] || sizes="1e5"
runs=${BENCH_RUNS:-5}
[ -z "${BENCH_QUICK:-}" ] || runs=3
tmp=$(mktemp -d) || exit 1
trap '"$build/bin/shm-rm" -s 0 -N "${BENCH_PREFIX}fx" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# median: the middle of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
nsec() { date +%s%N; }

echo "Table 1 with a Fortran writer ($(gfortran -dumpfullversion 2>/dev/null |
    sed 's/^/gfortran /')): medians of $runs runs, seconds"
printf '%-8s %-7s %10s %10s %10s %8s\n' n row total writer reader "x shm"
for s in $sizes; do
	n=$(awk -v s="$s" 'BEGIN { printf "%d", s }')
	for i in $(seq "$runs"); do
		for row in shm text stream; do
			t0=$(nsec)
			if ! "$W" "$row" "$n" 2> "$tmp/w" | "$R" "$row" "$n" 2> "$tmp/r"; then
				echo "bench/fortran.sh: $row $n failed: $(cat "$tmp/w" "$tmp/r")" >&2
				exit 1
			fi
			t1=$(nsec)
			echo "$(( (t1 - t0) / 1000 ))e-6" >> "$tmp/$row.total"
			sed -n 's/^w //p' "$tmp/w" >> "$tmp/$row.w"
			sed -n 's/^r //p' "$tmp/r" >> "$tmp/$row.r"
		done
	done
	base=$(median < "$tmp/shm.total")
	for row in shm text stream; do
		t=$(median < "$tmp/$row.total")
		printf '%-8s %-7s %10.4f %10.4f %10.4f %8.1f\n' "$s" "$row" \
		    "$t" "$(median < "$tmp/$row.w")" "$(median < "$tmp/$row.r")" \
		    "$(awk -v a="$t" -v b="$base" 'BEGIN { print a / b }')"
		rm -f "$tmp/$row".*
	done
done
