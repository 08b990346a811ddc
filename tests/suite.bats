#!/usr/bin/env bats
# The suite itself (issue 40 items 13, 14): it runs in an environment of
# its own, whatever the user's profile exports (tests/env.sh), and its
# leak and removal checks count only the segments the run could have
# made (tests/run): in a private IPC namespace where it may have one,
# else by uid.  Nested runs of tests/run and bats, over a probe file of
# the test's own ($T/probe.bats).

load helper

TOP=$BATS_TEST_DIRNAME/..
# A probe file's test keyword, never written out here: bats takes every
# line that begins with it for a test of this file, heredocs included.
AT=@test

# nested_run [VAR=VALUE...]: tests/run over $T/probe.bats alone, no unit
# test, no fuzzer, deciding its namespace afresh (the run this test is
# part of exported its own: SHMIDS_TEST_IPC); output in $output, status
# in $status.
nested_run() {
	run env -u SHMIDS_TEST_IPC "$@" SHMIDS_SUITES="$T/probe.bats" \
	    SHMIDS_UNITS=none \
	    SHMIDS_FUZZ_SECONDS=0 timeout 300 sh "$TOP/tests/run"
}

@test "7: the suite: tests/run runs in a private IPC namespace where it may, its own segments alone counted" {
	command -v unshare > /dev/null || skip "unshare missing"
	unshare --ipc true 2> /dev/null || skip "unshare --ipc not allowed"
	cat > probe.bats <<-EOF
	$AT "probe" {
		readlink /proc/self/ns/ipc > "$T/ns"
	}
	EOF
	nested_run
	status_is 0
	like "$output" "*# segments: this run's alone, in a private IPC namespace*" "the run's word"
	like "$output" "*ok - no segment left behind*"
	[ "$(cat ns)" != "$(readlink /proc/self/ns/ipc)" ] ||
	    { echo "the nested run shared this namespace: $(cat ns)" >&2; false; }
}

# Issue 40 item 14: a run by another user (or root) at the same time
# made the leak and removal checks fail.  In the machine's namespace
# (SHMIDS_TEST_IPC=shared), a segment of a uid the run does not use that
# vanishes, and one that appears, are not the run's; one of the run's
# own uid left behind is.
@test "7: the suite: in a shared IPC namespace another uid's segments that come and go during the run are not counted; the run's own leak is" {
	need_user
	local other x y z
	other=$((TESTUSER + 11))
	x=$(setpriv --reuid="$other" --regid="$other" --clear-groups -- \
	    "$SHMTOOL" create "${P}x" f64 1)
	track "$x"
	cat > probe.bats <<-EOF
	$AT "probe" {
		ipcrm -m "${x%% *}"
		setpriv --reuid=$other --regid=$other --clear-groups -- \
		    "$SHMTOOL" create "${P}y" f64 1 > "$T/y"
		"$SHMTOOL" create "${P}z" f64 1 > "$T/z"
	}
	EOF
	nested_run SHMIDS_TEST_IPC=shared
	y=$(cat y) z=$(cat z)
	track "$y" "$z"
	status_is 1
	like "$output" "*# segments: those uids $(id -u) and $TESTUSER-$((TESTUSER + 9)) made or own*" "the run's word"
	# the run's own leak, and not another uid's new segment
	is "$(grep 'left behind (shmids):' <<< "$output")" \
	    "not ok - segments left behind (shmids): ${z%% *} " "leaks"
	like "$output" "*ok - no segment the suite did not make was removed*" "another uid's, removed"
	like "$output" "*2 passed, 1 failed*"
}

# Issue 40 item 13: the README's exports in ~/.profile made two tests
# fail.  Whatever a profile exports that changes what is built or
# loaded (pkg-config's path, the loader's, Python's, R's, SHMIDS_DIR),
# the suite's runs of them pass.
@test "7: the suite: a profile's PKG_CONFIG_PATH, LD_LIBRARY_PATH, PYTHONPATH, R_LIBS and SHMIDS_* change nothing it builds or loads" {
	command -v pkg-config > /dev/null || skip "no pkg-config"
	local p=$T/poison
	mkdir -p "$p/pc" "$p/lib" "$p/py" "$p/r"
	# an installed shmids that is not this one: any use of it fails
	printf 'Name: shmids\nDescription: not this one\nVersion: 0.1\nCflags: -I%s/none\nLibs: -L%s/none -lshmids-not-this-one\n' \
	    "$p" "$p" > "$p/pc/shmids.pc"
	cc -shared -o "$p/lib/libshmids.so.1" -x c /dev/null
	ln -s libshmids.so.1 "$p/lib/libshmids.so"
	printf 'raise ImportError("not this one")\n' > "$p/py/shmids.py"
	run env PKG_CONFIG_PATH="$p/pc" LD_LIBRARY_PATH="$p/lib" \
	    PYTHONPATH="$p/py" R_LIBS="$p/r" R_LIBS_USER="$p/r" \
	    SHMIDS_DIR="$p/none" SHMIDS_NOTUNE=1 SHMIDS_LIB="$p/lib/libshmids.so" \
	    timeout 600 bats --tap -f 'staged with DESTDIR|R CMD INSTALL builds against' \
	    "$TOP/tests/install.bats" "$TOP/tests/r.bats"
	status_is 0
	[[ $output != *"not ok"* ]] || { echo "$output" >&2; false; }
	like "$output" "*ok * staged with DESTDIR*" "install.bats ran"
}
