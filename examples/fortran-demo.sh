#!/bin/sh
# make demo, Fortran part: Grosse's 50x50x50 field written from Fortran
# (examples/fsimwrite.f90) into a segment with its "dims" line beside
# the reference, read by the C reader (simread) and by Python; then a
# table numpy made, read by Fortran (examples/freadtable.f90).  Skipped,
# with the reason, where there is no Fortran compiler.  Everything it
# makes it removes, even when a step fails.
set -eu
B=${B:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
# the first python3 with numpy: PYTHON, python3, /usr/bin/python3
PYTHON=${PYTHON:-}
if [ -z "$PYTHON" ]; then
	for PYTHON in python3 /usr/bin/python3; do
		"$PYTHON" -c 'import numpy' >/dev/null 2>&1 && break
	done
fi
F=$B/fortran/examples
if [ -f "$B/fortran/skip" ] || [ ! -x "$F/fsimwrite" ]; then
	echo "fortran demo: skipped: $(cat "$B/fortran/skip" 2>/dev/null ||
	    echo "$F/fsimwrite not built")"
	exit 0
fi
dir=$(mktemp -d)
labels=
cleanup() {
	for l in $labels; do "$B/bin/shm-rm" "${l%%:*} ${l#*:}" 2>/dev/null || :; done
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
# keep LABEL: remembered for removal (a label is two words: id:name)
keep() { labels="$labels $(echo "$1" | tr ' ' :)"; }
step() { printf '\n== %s\n' "$*"; }

step "writer in Fortran: fsimwrite > fsim.shm (the whole ASCII file:)"
"$F/fsimwrite" > "$dir/fsim.shm"
label=$(awk '$2 == "shmids" { print $3 " " $4 }' "$dir/fsim.shm")
keep "$label"
cat "$dir/fsim.shm"

step "the C reader: simread fsim.shm, and simread on the C writer's ASCII file"
"$B/examples/simread" "$dir/fsim.shm" 2>/dev/null | tee "$dir/range.f"
"$B/examples/simwrite" > "$dir/sim.txt"
"$B/examples/simread" "$dir/sim.txt" 2>/dev/null > "$dir/range.c"
cmp -s "$dir/range.f" "$dir/range.c" || { echo "fortran demo: answers differ" >&2; exit 1; }
echo "same answer as the C writer's"

if "$PYTHON" -c 'import numpy' >/dev/null 2>&1; then
	step "Python: shmids.attach('$label'), shaped by the dims line"
	PYTHONPATH="$top/python" "$PYTHON" - "$dir/fsim.shm" <<-'PY'
	import sys, numpy, shmids
	dims = label = None
	for line in open(sys.argv[1]):
	    w = line.split()
	    if w[0] == "dims":
	        dims = [int(x) for x in w[1:]]
	    elif w[1:2] == ["shmids"]:
	        label = " ".join(w[2:])
	u = shmids.attach(label)
	# u(k, j, i) in Fortran is u[i][j][k] in C order: numpy's default
	u = u.reshape(dims)
	print("u%s: min %.17g, max %.17g, u[1,2,3] = %r"
	      % (list(u.shape), u.min(), u.max(), float(u[1, 2, 3])))
	PY

	step "numpy writes a 3x4 table; Fortran reads it: freadtable"
	PYTHONPATH="$top/python" "$PYTHON" -c 'import numpy, shmids
print("shmids " + shmids.create("demo-table", numpy.arange(12.0).reshape(3, 4)))' \
	    > "$dir/table.shm"
	keep "$(awk '{ print $2 " " $3 }' "$dir/table.shm")"
	cat "$dir/table.shm"
	"$F/freadtable" < "$dir/table.shm"
else
	step "Python: skipped ($PYTHON has no numpy)"
fi

step "shm-rm -v (every segment the demo made)"
for l in $labels; do "$B/bin/shm-rm" -v "${l%%:*} ${l#*:}"; done
labels=
