#!/bin/sh
# bench/import.sh: shm-import's long arrays against the hand-written best
# (build/bench/import_best) and shm-expand, issue 31.2.  N doubles
# (BENCH_N, default 10^7) as shm-expand wraps them and on one line,
# from a file and through a pipe, SHMIDS_THREADS=1 and unset; each
# contender run BENCH_RUNS times (default 5), interleaved; medians of
# CPU time (user + system, every thread), wall time and peak RSS
# (GNU time's %M), then the targets with their ratios.  Run it from the
# top directory after make and make build/bench/import_best, inside
# unshare --ipc (it makes System V segments named "bench-<pid>-...",
# and removes them).
#
#	unshare --ipc -- sh bench/import.sh

cd "$(dirname "$0")/.." || exit 2
build=${SHMIDS_BUILD:-build}
BIN=$build/bin
BEST=$build/bench/import_best
N=${BENCH_N:-10000000}
RUNS=${BENCH_RUNS:-5}
TIME=/usr/bin/time
for f in "$BIN/shm-import" "$BIN/shm-expand" "$BIN/shm-rm" "$BEST" "$TIME"; do
	[ -x "$f" ] || { echo "bench/import.sh: $f missing" >&2; exit 2; }
done
command -v python3 > /dev/null || { echo "bench/import.sh: no python3" >&2; exit 2; }
D=$(mktemp -d "${TMPDIR:-/tmp}/bench-$$-XXXXXX") || exit 2
P=bench-$$-
trap '"$BIN"/shm-rm -s 0 -N "$P*" 2>/dev/null; rm -rf "$D"' EXIT
trap 'exit 130' INT TERM

# the values: Python's shortest repr, as shm-expand writes them
python3 - "$N" "$D" <<'EOF'
import random, sys
n, d = int(sys.argv[1]), sys.argv[2]
random.seed(1)
v = [repr(random.gauss(0, 1e3)) for _ in range(n)]
with open(d + "/one.txt", "w") as f:
    f.write("x " + " ".join(v) + "\n")
out, cur = [], "x"
for t in v:
    if len(cur) + 1 + len(t) + 2 > 80:
        out.append(cur + " /\n")
        cur = "  " + t
    else:
        cur += " " + t
out.append(cur + "\n")
with open(d + "/many.txt", "w") as f:
    f.write("".join(out))
EOF
"$BIN/shm-import" -P "${P}ref" "$D/many.txt" > "$D/ref.txt" || exit 1

# run NAME THREADS(1|d) FROM(file|pipe) CMD...: one measurement
run() {
	name=$1 th=$2 from=$3
	shift 3
	if [ "$th" = 1 ]; then
		SHMIDS_THREADS=1
		export SHMIDS_THREADS
	else
		unset SHMIDS_THREADS
	fi
	if [ "$from" = pipe ]; then
		in=$1
		shift
		# shellcheck disable=SC2002	# a pipe is what is measured
		cat "$in" | "$TIME" -f "%U %S %e %M" -o "$D/t" "$@" > "$D/o"
	else
		"$TIME" -f "%U %S %e %M" -o "$D/t" "$@" > "$D/o"
	fi
	unset SHMIDS_THREADS
	echo "$name $(tail -n 1 "$D/t")" >> "$D/res"
	"$BIN/shm-rm" -s 0 -N "${P}i*" 2>/dev/null
}

i=0
while [ "$i" -lt "$RUNS" ]; do
	i=$((i + 1))
	run best-malloc 1 file "$BEST" "$D/many.txt"
	run best-shm 1 file "$BEST" -s "$D/many.txt"
	for th in 1 d; do
		for f in many one; do
			run "file-$f-$th" "$th" file "$BIN/shm-import" -P "${P}i" \
			    "$D/$f.txt"
			run "pipe-$f-$th" "$th" pipe "$D/$f.txt" \
			    "$BIN/shm-import" -P "${P}i"
		done
		run "expand-$th" "$th" file "$BIN/shm-expand" "$D/ref.txt"
	done
done

# medians: NAME cpu wall rss(KiB)
# shellcheck disable=SC2013	# names are single words
for k in $(cut -d' ' -f1 "$D/res" | sort -u); do
	grep "^$k " "$D/res" | awk '{ print $2 + $3, $4, $5 }' > "$D/k"
	h=$(( (RUNS + 1) / 2 ))
	printf '%s %s %s %s\n' "$k" \
	    "$(cut -d' ' -f1 "$D/k" | sort -g | sed -n "${h}p")" \
	    "$(cut -d' ' -f2 "$D/k" | sort -g | sed -n "${h}p")" \
	    "$(cut -d' ' -f3 "$D/k" | sort -g | sed -n "${h}p")"
done > "$D/med"
seg=$((N * 8 / 1024))
echo "shm-import, $N doubles ($seg KiB segment), medians of $RUNS"
awk '{ printf "%-14s cpu %6.2f s  wall %6.2f s  peak RSS %7d KiB\n", $1, $2, $3, $4 }' "$D/med"
awk -v seg="$seg" '
	{ cpu[$1] = $2; rss[$1] = $4 }
	function t(what, v, lim) {
		printf "%-60s %6.2f  (at most %.2f) %s\n", what, v, lim,
		    v <= lim ? "met" : "NOT MET"
	}
	function m(what, v, lim) {
		printf "%-60s %6d KiB (at most %d) %s\n", what, v, lim,
		    v <= lim ? "met" : "NOT MET"
	}
	END {
		t("1 thread, file: CPU / best (malloc)", cpu["file-many-1"] / cpu["best-malloc"], 1.15)
		t("1 thread, file: CPU / best (shm segment)", cpu["file-many-1"] / cpu["best-shm"], 1.15)
		t("1 thread: import / expand, CPU", cpu["file-many-1"] / cpu["expand-1"], 1.5)
		t("all threads: import / expand, CPU", cpu["file-many-d"] / cpu["expand-d"], 1.5)
		m("1 thread, file: peak RSS", rss["file-many-1"], seg + 65536)
		m("all threads, file: peak RSS", rss["file-many-d"], seg + 65536)
		m("1 thread, pipe: peak RSS", rss["pipe-many-1"], 2 * seg + 65536)
		m("all threads, pipe: peak RSS", rss["pipe-many-d"], 2 * seg + 65536)
		m("1 line, 1 thread, file: peak RSS (many lines + 4 MiB)", rss["file-one-1"], rss["file-many-1"] + 4096)
		m("1 line, all threads, file: peak RSS", rss["file-one-d"], rss["file-many-d"] + 4096)
		m("1 line, 1 thread, pipe: peak RSS", rss["pipe-one-1"], rss["pipe-many-1"] + 4096)
		m("1 line, all threads, pipe: peak RSS", rss["pipe-one-d"], rss["pipe-many-d"] + 4096)
	}' "$D/med"
