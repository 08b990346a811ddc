#!/bin/sh
# make demo: a simulated 50x50x50 field travels through an ASCII pipeline
# in shared memory and comes back as ASCII.  Everything it makes it
# removes, even when a step fails.
set -eu
B=${B:-build}
dir=$(mktemp -d)
label=
cleanup() {
	[ -n "$label" ] && "$B/bin/shm-rm" "$label" 2>/dev/null || true
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

step() { printf '\n== %s\n' "$*"; }

step "writer, shm mode: simwrite -s > sim.shm (the whole ASCII file:)"
"$B/examples/simwrite" -s > "$dir/sim.shm"
label=$(awk '$2 == "shmids" { print $3 " " $4 }' "$dir/sim.shm")
cat "$dir/sim.shm"

step "shm-ls '$label'"
"$B/bin/shm-ls" "$label"

step "reader on the shm form: simread sim.shm"
"$B/examples/simread" "$dir/sim.shm" > "$dir/range.shm" 2> "$dir/time.shm"
cat "$dir/range.shm" "$dir/time.shm"

step "shm-expand < sim.shm > sim.txt (the master copy is ASCII; first 3 lines of u:)"
"$B/bin/shm-expand" < "$dir/sim.shm" > "$dir/sim.txt"
grep -A2 '^u ' "$dir/sim.txt"
printf '... (%s bytes in all)\n' "$(wc -c < "$dir/sim.txt" | tr -d ' ')"

step "reader on the ASCII form: simread sim.txt"
"$B/examples/simread" "$dir/sim.txt" > "$dir/range.txt" 2> "$dir/time.txt"
cat "$dir/range.txt" "$dir/time.txt"
cmp -s "$dir/range.shm" "$dir/range.txt" || { echo "demo: answers differ" >&2; exit 1; }
echo "same answer from both forms"

step "shm-rm -v '$label'"
"$B/bin/shm-rm" -v "$label"
gone=$label
label=
if "$B/bin/shm-ls" "$gone" >/dev/null 2>&1; then
	echo "demo: $gone is still there" >&2
	exit 1
fi
echo "nothing left behind: shm-ls '$gone' finds no such segment"

step "the second backend: SHMIDS_DIR=$dir/segs simwrite -s (a file segment; the reference line:)"
mkdir "$dir/segs"
SHMIDS_DIR=$dir/segs "$B/examples/simwrite" -s > "$dir/sim.file"
label=$(awk '$2 == "shmids" { print $3 " " $4 }' "$dir/sim.file")
grep ' shmids ' "$dir/sim.file"
"$B/examples/simread" "$dir/sim.file" > "$dir/range.file" 2> "$dir/time.file"
cat "$dir/range.file" "$dir/time.file"
cmp -s "$dir/range.shm" "$dir/range.file" || { echo "demo: answers differ" >&2; exit 1; }
echo "same answer; the reader needed no setting: the label says where"
"$B/bin/shm-rm" "$label"
label=
[ -z "$(ls -A "$dir/segs")" ] || { echo "demo: file segment left" >&2; exit 1; }
