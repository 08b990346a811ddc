#!/usr/bin/env bats
# The R package as a source tarball (issue 42.3): R CMD build r bundles
# the library's sources (r/src/libshmids, a link to ../../lib), and
# R CMD INSTALL of the tarball builds them into the package where
# pkg-config finds no libshmids of its version, and uses the installed
# library where it does; R CMD check --as-cran finds no ERROR or
# WARNING.  Skipped, saying why, where R or its headers are missing
# (Debian: r-base-dev r-cran-testthat; devscripts for checkbashisms).

load helper

TOP=$BATS_TEST_DIRNAME/..
LIB=$TOP/${SHMIDS_BUILD:-build}/libshmids.so

# The tarball, made once for the file in $BATS_FILE_TMPDIR, by the
# command as the README gives it, from a directory where r is the
# package.
setup_file() {
	local why= d=$BATS_FILE_TMPDIR
	if ! command -v R > /dev/null; then
		why="no R (Debian: r-base-dev)"
	elif [ ! -f /usr/share/R/include/R.h ] &&
	    [ ! -f "$(R RHOME)/include/R.h" ]; then
		why="no R headers (Debian: r-base-dev)"
	elif nm -D "$LIB" 2>/dev/null | grep -q __asan_init; then
		why="$LIB is built with AddressSanitizer: the tarball is built as R builds it, and make check tests it"
	else
		ln -s "$TOP/r" "$d/r"
		mkdir -p "$d/tmp"
		(cd "$d" && env -u SHMIDS_BUILD TMPDIR="$d/tmp" timeout 300 R CMD build r) \
		    > "$d/build.log" 2>&1 || echo failed > "$d/failed"
	fi
	printf '%s' "$why" > "$d/skip"
}

# need_tarball: skip where R cannot build, fail where the build failed;
# $tarball is the tarball.
need_tarball() {
	local why v
	why=$(cat "$BATS_FILE_TMPDIR/skip")
	[ -z "$why" ] || skip "$why"
	if [ -f "$BATS_FILE_TMPDIR/failed" ]; then
		echo "R CMD build r failed:" >&2
		cat "$BATS_FILE_TMPDIR/build.log" >&2
		return 1
	fi
	v=$(sed -n 's/^Version: //p' "$TOP/r/DESCRIPTION")
	tarball=$BATS_FILE_TMPDIR/shmids_$v.tar.gz
	[ -f "$tarball" ] || { echo "no $tarball" >&2; false; }
}

# rinstall PKG-CONFIG-DIR: R CMD INSTALL the tarball into $T/rlib, with
# pkg-config looking in PKG-CONFIG-DIR alone (never the machine's own
# directories) and none of configure's other sources set.
rinstall() {
	mkdir -p "$T/rlib" "$T/tmp"
	run env -u SHMIDS_BUILD -u SHMIDS_CFLAGS -u SHMIDS_LIBS \
	    -u PKG_CONFIG_PATH PKG_CONFIG_LIBDIR="$1" TMPDIR="$T/tmp" \
	    timeout 300 R CMD INSTALL --library="$T/rlib" "$tarball"
	status_is 0
}

# rexample: the package in $T/rlib makes a segment, attaches it, sums it
# and removes it.
rexample() {
	run env R_LIBS="$T/rlib" P="$P" Rscript -e 'library(shmids)
l <- shm_create(paste0(Sys.getenv("P"), "tar"), as.numeric(1:100))
x <- shm_attach(l); cat(length(x), sum(x), "\n"); shm_remove(l)'
	status_is 0
	is "$output" "100 5050 " "R's example"
	no_segments_named "${P}tar"
}

@test "7: R tarball: R CMD build r bundles the library's sources as files, and nothing built" {
	need_tarball
	local f list missing=
	list=$(tar tzf "$tarball")
	for f in $(cd "$TOP/lib" && ls *.c *.h */*.c */*.h); do
		grep -qxF "shmids/src/libshmids/$f" <<< "$list" || missing+="$f "
	done
	is "$missing" "" "lib/ files not in the tarball"
	run tar tvzf "$tarball"
	is "$(grep '^l' <<< "$output")" "" "symbolic links in the tarball"
	is "$(grep -E '\.(o|so|a)$|/Makevars$' <<< "$list")" "" "built files in the tarball"
}

@test "7: R tarball: where pkg-config finds no libshmids, R CMD INSTALL builds the bundled sources into the package" {
	need_tarball
	rinstall "$T/none"
	like "$output" "*configure: libshmids from its sources in src/libshmids (pkg-config finds no shmids * or later)*"
	# the library is inside the package: it needs no libshmids.so
	run ldd "$T/rlib/shmids/libs/shmids.so"
	status_is 0
	[[ $output != *libshmids* ]] || { echo "ldd: $output" >&2; false; }
	rexample
}

@test "7: R tarball: where pkg-config finds an installed libshmids, R CMD INSTALL uses it; an older one, the bundled sources" {
	need_tarball
	command -v pkg-config > /dev/null || skip "no pkg-config"
	[ -w "$(dirname "$LIB")" ] || skip "$(dirname "$LIB") is not writable: make install builds there"
	local p=$T/prefix v
	run --separate-stderr make -s --no-print-directory -C "$TOP" \
	    B="${SHMIDS_BUILD:-build}" LDCONFIG=true PYTHON=false \
	    PREFIX="$p" install
	status_is 0
	v=$(sed -n 's/^Version: //p' "$p/lib/pkgconfig/shmids.pc")
	rinstall "$p/lib/pkgconfig"
	like "$output" "*configure: libshmids from pkg-config shmids $v*"
	run env -u LD_LIBRARY_PATH ldd "$T/rlib/shmids/libs/shmids.so"
	like "$output" "*libshmids.so.1 => $p/lib/libshmids.so.1 *" "ldd"
	rexample

	# a libshmids older than the package is passed over, saying why
	sed -i 's/^Version: .*/Version: 1.0.0/' "$p/lib/pkgconfig/shmids.pc"
	rm -rf "$T/rlib"
	rinstall "$p/lib/pkgconfig"
	like "$output" "*configure: libshmids from its sources in src/libshmids (pkg-config finds no shmids $v or later)*"
	rexample
}

@test "7: R tarball: R CMD check --as-cran, offline: no ERROR, no WARNING" {
	need_tarball
	command -v checkbashisms > /dev/null ||
	    skip "no checkbashisms, without which --as-cran warns (Debian: devscripts)"
	local status_line utf8
	# R checks a package in UTF-8 in a UTF-8 locale, and warns where it
	# cannot switch to one: the check runs in one, whatever the user's
	utf8=$(locale -a 2> /dev/null | grep -i -m 1 '^c\.utf-\{0,1\}8$\|^en_us\.utf-\{0,1\}8$')
	[ -n "$utf8" ] || skip "no C.UTF-8 or en_US.UTF-8 locale, which R CMD check needs (Debian: locales)"
	# offline: CRAN is an empty local repository, and the remote checks
	# are off
	mkdir -p "$T/cran/src/contrib" "$T/check" "$T/tmp"
	: > "$T/cran/src/contrib/PACKAGES"
	echo "options(repos = c(CRAN = 'file://$T/cran'))" > "$T/Rprofile"
	cd "$T/check"
	run env -u SHMIDS_BUILD -u SHMIDS_CFLAGS -u SHMIDS_LIBS \
	    -u PKG_CONFIG_PATH PKG_CONFIG_LIBDIR="$T/none" TMPDIR="$T/tmp" \
	    LC_ALL="$utf8" \
	    R_PROFILE_USER="$T/Rprofile" _R_CHECK_CRAN_INCOMING_REMOTE_=false \
	    timeout 600 R CMD check --as-cran --no-manual "$tarball"
	status_line=$(grep '^Status:' <<< "$output")
	[[ $status_line != *ERROR* && $status_line != *WARNING* ]] || {
		grep -B1 -A6 'ERROR$\|WARNING$' <<< "$output" >&2
		false
	}
	status_is 0
	# what it noted, for the record (the run's log)
	awk '/ \.\.\. NOTE$/ { on = 1; print "# " $0; next }
	    /^\* / { on = 0 } on { print "# " $0 }' <<< "$output" >&3
}
