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
