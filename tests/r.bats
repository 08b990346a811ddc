#!/usr/bin/env bats
# r/, the R package over libshmids: its testthat suites (r/tests/testthat,
# one test here per file), run against this build's library (linked in
# statically) and tools, on System V and file segments; its install
# against an installed libshmids (pkg-config); the README's R hand-overs.
# Skipped, saying why, where R or testthat is missing (Debian:
# r-base-dev r-cran-testthat).  The testthat files name their segments
# $P...: the teardown of tests/helper.bash removes them whatever happens.

load helper

TOP=$BATS_TEST_DIRNAME/..
README=$TOP/README.md
BUILD=$(cd "$TOP/${SHMIDS_BUILD:-build}" && pwd)
LIB=$BUILD/libshmids.so

load rpkg

# The package, built once for the file (tests/rpkg.bash).
setup_file() {
	rpkg_build testthat
}

# rtest FILE: r/tests/testthat/FILE with testthat, with the build's
# tools and python3 (with numpy, if any) at hand; fails if any
# expectation fails or errors.
rtest() {
	local py
	py=$(python_with numpy) || py=
	P=$P SHMIDS_BIN=$(cd "$BIN" && pwd) PY=$py \
	    PYTHONPATH=$TOP/python SHMIDS_LIB=$LIB \
	    R_LIBS=$BATS_FILE_TMPDIR/lib \
	    run timeout 300 Rscript "$TOP/tests/r/testthat_file.R" \
	    "$TOP/r/tests/testthat/$1"
	[ "$status" -eq 0 ] || { printf '%s\n' "$output" >&2; return 1; }
	like "$output" "*failed: 0 passed:*"
}

@test "2.2, 2.5, 4, 6: R: shm_attach() gives the segment in place (r/tests/testthat/test-attach.R)" {
	need_r
	rtest test-attach.R
}

@test "2.2, 4: R: shm_zeros() is filled in place, shm_seal(), shm_create() (test-write.R)" {
	need_r
	rtest test-write.R
}

@test "5, 6, 6.1: R: shm_write() and shm_read() with the tools, shm_ls() (test-files.R)" {
	need_r
	rtest test-files.R
}

@test "2.7, 4, 6: R and numpy: each attaches what the other wrote (test-numpy.R)" {
	need_r
	python_with numpy > /dev/null || skip "no python3 with numpy (Debian: python3-numpy)"
	rtest test-numpy.R
}

@test "10.3, 10.5, 5.1: R: shm_stream(), shm_publish(), shm_follow(), shm_next(), with numpy (test-stream.R)" {
	need_r
	rtest test-stream.R
}

@test "2.6: R: attach and write file segments (SHMIDS_DIR; test-attach.R, test-write.R)" {
	need_r
	mkdir -p "$T/d"
	export SHMIDS_DIR=$T/d
	rtest test-attach.R
	rtest test-write.R
	is "$(ls -A "$T/d")" "" "files left in SHMIDS_DIR"
}

@test "2.2: R: a killed R writer's segment is dead, and shm-rm -s 0 removes it" {
	need_r
	local l
	l=$(bg rwriter env R_LIBS="$BATS_FILE_TMPDIR/lib" Rscript -e \
	    "library(shmids); w <- shm_zeros('${P}killed', 10); w[] <- 1; writeLines(shm_label(w)); Sys.sleep(60)")
	track "$l"
	kill -9 "$(tail -n 1 "$T/.pids")"
	sleep 0.3
	like "$(shm_ls | grep -F " $l")" "* dead *" "shm-ls state"
	run shm_expand <<< "v shmids $l"
	status_is 1
	like "$output" "*died before sealing*"
	run shm_rm -s 0 -N "${P}*"
	status_is 0
	gone "$l"
}

@test "7: R: R CMD INSTALL builds against an installed libshmids (pkg-config)" {
	need_r
	command -v pkg-config > /dev/null || skip "no pkg-config"
	[ -w "$BUILD" ] || skip "$BUILD is not writable: make install builds there"
	local prefix=$T/prefix
	run --separate-stderr make -s --no-print-directory -C "$TOP" \
	    B="${SHMIDS_BUILD:-build}" LDCONFIG=true PYTHON=false \
	    PREFIX="$prefix" install
	status_is 0
	cp -r "$TOP/r" "$T/src"
	(cd "$T/src" && ./cleanup)
	mkdir -p "$T/rlib"
	PKG_CONFIG_PATH=$prefix/lib/pkgconfig run env -u SHMIDS_BUILD \
	    R CMD INSTALL --no-multiarch --library="$T/rlib" "$T/src"
	status_is 0
	like "$output" "*configure: libshmids from pkg-config shmids*"
	# the library found without LD_LIBRARY_PATH (the rpath configure set)
	run env R_LIBS="$T/rlib" P="$P" Rscript -e 'library(shmids); l <- shm_create(paste0(Sys.getenv("P"), "inst"), c(1, 2)); x <- shm_attach(l); cat(sum(x), "\n"); shm_remove(l)'
	status_is 0
	is "$output" "3 "
	like "$(ldd "$T/rlib/shmids/libs/shmids.so")" "*$prefix/lib/libshmids.so*"
}

@test "6: R: the README's numpy -> R hand-over runs as written" {
	need_r
	python_with numpy > /dev/null || skip "no python3 with numpy (Debian: python3-numpy)"
	readme_block "R from numpy" > "$T/block.sh"
	[ -s "$T/block.sh" ] || { echo "README.md: no block \"R from numpy\"" >&2; false; }
	mkdir -p top pybin && ln -s "$TOP/python" top/python
	ln -s "$(command -v "$(python_with numpy)")" pybin/python3
	cd top
	PATH=$T/pybin:$BIN:$PATH R_LIBS=$BATS_FILE_TMPDIR/lib SHMIDS_LIB=$LIB \
	    run --separate-stderr bash -e "$T/block.sh"
	status_is 0
	is "$output" "[1] 1000
[1] 499500"
	no_segments_named ramp
}

@test "6: R: the README's R -> numpy hand-over runs as written" {
	need_r
	python_with numpy > /dev/null || skip "no python3 with numpy (Debian: python3-numpy)"
	# numpy's view of a column-major table (format-spec.md 2.7)
	local l v
	l=$(R_LIBS=$BATS_FILE_TMPDIR/lib Rscript -e \
	    "writeLines(shmids::shm_create('${P}probe', matrix(c(1, 2, 3, 4), 2)))")
	track "$l"
	v=$(PYTHONPATH=$TOP/python SHMIDS_LIB=$LIB "$(python_with numpy)" -c '
import shmids, sys
print(shmids.attach(sys.argv[1]).tolist())' "$l")
	[ "$v" = "[[1.0, 3.0], [2.0, 4.0]]" ] ||
	    skip "the Python module does not attach column-major tables as meant yet"
	README=$TOP/examples/README.md readme_block "numpy from R" > "$T/block.sh"
	[ -s "$T/block.sh" ] || { echo "examples/README.md: no block \"numpy from R\"" >&2; false; }
	mkdir -p top pybin && ln -s "$TOP/python" top/python
	ln -s "$(command -v "$(python_with numpy)")" pybin/python3
	cd top
	PATH=$T/pybin:$BIN:$PATH R_LIBS=$BATS_FILE_TMPDIR/lib SHMIDS_LIB=$LIB \
	    run --separate-stderr bash -e "$T/block.sh"
	status_is 0
	is "$output" "(87, 61) [100.0, 100.0, 101.0] 195.0"
	no_segments_named volcano
}
