#!/bin/sh
# tests/fuzz/run.sh: run built libFuzzer harnesses, as "make fuzz" and
# "make fuzz-smoke" (tests/fuzz/fuzz.mk) do.
#
#	sh tests/fuzz/run.sh builddir seconds maxlen name ...
#
# Each harness builddir/NAME runs for the given seconds on builddir/corpus/
# NAME, a copy of tests/fuzz/corpus/NAME that keeps what earlier runs
# found; a crash, leak, timeout or failed check is saved under
# builddir/artifacts/NAME/.  Prints one line a harness with the number of
# executions; exits 1 if any harness failed.
set -u
b=$1 secs=$2 maxlen=$3
shift 3
fail=0
for name in "$@"; do
	bin=$b/$name corpus=$b/corpus/$name art=$b/artifacts/$name
	log=$b/$name.log
	mkdir -p "$corpus" "$art" || exit 2
	cp tests/fuzz/corpus/"$name"/* "$corpus"/ 2>/dev/null
	"$bin" -max_total_time="$secs" -max_len="$maxlen" -timeout=10 \
	    -print_final_stats=1 -artifact_prefix="$art"/ "$corpus" \
	    >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" |
	    tail -n 1)
	[ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9]*\).*/\1/p' "$log" |
	    tail -n 1)
	files=$(ls "$corpus" | wc -l)
	if [ "$rc" -eq 0 ]; then
		echo "fuzz: $name: ${execs:-?} executions in ${secs}s," \
		    "corpus $files inputs"
	else
		fail=1
		echo "fuzz: $name: FAILED (exit $rc) after ${execs:-?}" \
		    "executions; log $log"
		grep -a -E 'check failed|ERROR|runtime error|SUMMARY' "$log" |
		    head -n 5 | sed 's/^/fuzz:   /'
		sed -n 's/.*Test unit written to /fuzz:   input: /p' "$log"
	fi
done
exit $fail
