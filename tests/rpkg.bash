# tests/rpkg.bash: the R package (r/), built once for a bats file in
# $BATS_FILE_TMPDIR/lib against this build's library (linked in
# statically), for tests/r.bats and tests/bindings.bats.  rpkg_build
# in setup_file; need_r in a test skips, saying why, where R cannot run
# the package (no R, no testthat where asked, an ASan build), and fails
# if it did not build.

# rpkg_build [testthat]: build the package; with testthat, skip unless
# testthat is there too.
rpkg_build() {
	local why= lib
	lib=$(cd "$BATS_TEST_DIRNAME/../${SHMIDS_BUILD:-build}" && pwd)
	if ! command -v Rscript > /dev/null || ! command -v R > /dev/null; then
		why="no R (Debian: r-base-dev)"
	elif [ "${1:-}" = testthat ] &&
	    ! Rscript -e 'library(testthat)' > /dev/null 2>&1; then
		why="no testthat for R (Debian: r-cran-testthat)"
	elif nm -D "$lib/libshmids.so" 2>/dev/null | grep -q __asan_init; then
		why="$lib/libshmids.so is built with AddressSanitizer: R cannot load it"
	else
		mkdir -p "$BATS_FILE_TMPDIR/lib"
		cp -r "$BATS_TEST_DIRNAME/../r" "$BATS_FILE_TMPDIR/src"
		(cd "$BATS_FILE_TMPDIR/src" && ./cleanup)
		SHMIDS_BUILD=$lib timeout 300 R CMD INSTALL --no-multiarch \
		    --library="$BATS_FILE_TMPDIR/lib" "$BATS_FILE_TMPDIR/src" \
		    > "$BATS_FILE_TMPDIR/install.log" 2>&1 ||
		    echo failed > "$BATS_FILE_TMPDIR/failed"
	fi
	printf '%s' "$why" > "$BATS_FILE_TMPDIR/skip"
}

need_r() {
	local why
	why=$(cat "$BATS_FILE_TMPDIR/skip")
	[ -z "$why" ] || skip "$why"
	if [ -f "$BATS_FILE_TMPDIR/failed" ]; then
		echo "R CMD INSTALL failed:" >&2
		tail -n 20 "$BATS_FILE_TMPDIR/install.log" >&2
		return 1
	fi
}

# have_r: whether need_r would pass (a test that uses R where it can).
have_r() {
	[ -z "$(cat "$BATS_FILE_TMPDIR/skip")" ] &&
	    [ ! -f "$BATS_FILE_TMPDIR/failed" ]
}
