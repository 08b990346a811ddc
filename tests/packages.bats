#!/usr/bin/env bats
# The Debian packages (debian/, issue 42.1): dpkg-buildpackage -us -uc -b
# on a clean clone of HEAD builds libshmids1, libshmids-dev, shmids,
# python3-shmids, r-cran-shmids and libshmids-fortran-dev; lintian finds
# no error or warning; unpacked into a scratch root (dpkg-deb -x), each
# holds its files, and the README's C, Fortran, Python and R examples
# run against them; as root, the packages laid over /usr in a private
# mount namespace run the README's lines as written, with no setting.
# The machine's own /usr is never written.  Skipped, saying why, where
# the build's tools are missing (Debian: see debian/control).

load helper
load programs

TOP=$BATS_TEST_DIRNAME/..
README=$TOP/README.md
LIB=$TOP/${SHMIDS_BUILD:-build}/libshmids.so
PACKAGES="libshmids1 libshmids-dev shmids python3-shmids r-cran-shmids libshmids-fortran-dev"

# The packages, built once for the file in $BATS_FILE_TMPDIR/src (a
# clone of HEAD) and unpacked into $BATS_FILE_TMPDIR/root.  The build
# gets a clean environment: nothing of this suite's (a sanitizer
# build's make flags, SHMIDS_BUILD, PYTHONPATH) reaches it.
setup_file() {
	local d=$BATS_FILE_TMPDIR why= p
	if ! command -v dpkg-buildpackage > /dev/null ||
	    ! command -v dpkg-checkbuilddeps > /dev/null; then
		why="no dpkg-buildpackage (Debian: dpkg-dev)"
	elif nm -D "$LIB" 2>/dev/null | grep -q __asan_init; then
		why="$LIB is built with AddressSanitizer: the packages are built as Debian builds them, and make check tests them"
	elif ! git -C "$TOP" rev-parse -q --verify HEAD > /dev/null 2>&1; then
		why="$TOP is no git checkout: the packages are built from a clone of HEAD"
	else
		git clone -q --no-checkout "$TOP" "$d/src" &&
		    git -C "$d/src" checkout -q "$(git -C "$TOP" rev-parse HEAD)" ||
		    why="cannot clone $TOP"
	fi
	if [ -z "$why" ] && ! (cd "$d/src" && dpkg-checkbuilddeps) > "$d/deps" 2>&1; then
		why="$(sed 's/^dpkg-checkbuilddeps: error: //' "$d/deps" | tr '\n' ' ')(apt-get install them)"
	fi
	printf '%s' "$why" > "$d/skip"
	[ -z "$why" ] || return 0
	mkdir -p "$d/home" "$d/root" "$d/tmp"
	(cd "$d/src" && env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	    HOME="$d/home" TMPDIR="$d/tmp" DEB_BUILD_OPTIONS=parallel=2 \
	    timeout 1200 dpkg-buildpackage -us -uc -b) > "$d/build.log" 2>&1 ||
	    { echo failed > "$d/failed"; return 0; }
	for p in $PACKAGES; do
		dpkg-deb -x "$(deb_of "$p")" "$d/root" ||
		    { echo "dpkg-deb -x $p failed" >> "$d/failed"; return 0; }
	done
}

# deb_of PACKAGE: the path of PACKAGE's .deb.
deb_of() {
	ls "$BATS_FILE_TMPDIR"/"$1"_*_*.deb
}

# need_packages: skip where they cannot be built, fail where the build
# failed; sets root (the scratch root), t (the multiarch triplet) and v
# (the packages' version).
need_packages() {
	local why
	why=$(cat "$BATS_FILE_TMPDIR/skip")
	[ -z "$why" ] || skip "$why"
	if [ -f "$BATS_FILE_TMPDIR/failed" ]; then
		echo "dpkg-buildpackage -us -uc -b failed:" >&2
		cat "$BATS_FILE_TMPDIR/failed" >&2
		tail -n 30 "$BATS_FILE_TMPDIR/build.log" >&2
		return 1
	fi
	root=$BATS_FILE_TMPDIR/root
	t=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null)
	v=$(dpkg-parsechangelog -l "$BATS_FILE_TMPDIR/src/debian/changelog" -S Version)
}

# need_numpy: Debian's python3 (the one python3-shmids is for) has numpy.
need_numpy() {
	/usr/bin/python3 -c 'import numpy' 2> /dev/null ||
	    skip "no numpy for /usr/bin/python3 (Debian: python3-numpy)"
}

# examples DIR: in DIR, the README's blocks as scripts (python.sh,
# rnumpy.sh: the reference lines they make are tracked by track_made
# afterwards), hello.c, hello.f90, and examples/data.txt.  The blocks
# set PYTHONPATH=python, the source tree's module, which a system with
# the packages installed does not have: the tests on the scratch root
# make python a link to the package's dist-packages.
examples() {
	mkdir -p "$1/examples"
	cp "$TOP/examples/data.txt" "$1/examples/"
	readme_block examples/hello.c > "$1/hello.c"
	readme_block fortran > "$1/hello.f90"
	readme_block "python:" > "$1/python.sh"
	readme_block "R from numpy" > "$1/rnumpy.sh"
	[ -s "$1/hello.c" ] && [ -s "$1/hello.f90" ] && [ -s "$1/python.sh" ] &&
	    [ -s "$1/rnumpy.sh" ]
}

# track_made DIR: the segments the README's blocks named in DIR's files,
# removed in teardown whatever failed.
track_made() {
	local l
	for l in $(awk '$2 == "shmids" { print $3 }' "$1/data.shm" 2>/dev/null) \
	    $(cut -d' ' -f1 "$1/label" 2>/dev/null); do
		track "$l"
	done
}

@test "7: packages: dpkg-buildpackage -us -uc -b on a clean clone builds the six packages, each depending on what it needs" {
	need_packages
	local p deps
	for p in $PACKAGES; do
		[ -f "$(deb_of "$p")" ] || { echo "no $p package" >&2; false; }
		is "$(dpkg-deb -f "$(deb_of "$p")" Version)" "$v" "$p version"
		printf '# %s %s bytes\n' "$(basename "$(deb_of "$p")")" \
		    "$(stat -c %s "$(deb_of "$p")")" >&3
	done
	deps() { dpkg-deb -f "$(deb_of "$1")" Depends; }
	like "$(deps libshmids-dev)" "*libshmids1 (= $v)*" "libshmids-dev"
	like "$(deps shmids)" "*libshmids1 (>= $v)*" "shmids"
	like "$(deps python3-shmids)" "*libshmids1 (>= $v)*" "python3-shmids"
	like "$(deps python3-shmids)" "*python3*" "python3-shmids"
	like "$(deps r-cran-shmids)" "*libshmids1 (>= $v)*" "r-cran-shmids"
	like "$(deps r-cran-shmids)" "*r-api-*" "r-cran-shmids"
	like "$(deps libshmids-fortran-dev)" "*libshmids-dev (= $v)*" "libshmids-fortran-dev"
	like "$(deps libshmids-fortran-dev)" "*gfortran-mod-[0-9]*" "libshmids-fortran-dev"
	is "$(dpkg-deb -f "$(deb_of python3-shmids)" Architecture)" all "python3-shmids"
}

# holds PACKAGE PATH...: each PATH (a basic regular expression, whole)
# is in PACKAGE.
holds() {
	local p=$1 f list missing=
	shift
	list=$(dpkg-deb -c "$(deb_of "$p")" | awk '{ print $6 }' | sed 's|^\./||')
	for f in "$@"; do
		# shellcheck disable=SC2053
		grep -q "^$f\$" <<< "$list" || missing+="$f "
	done
	is "$missing" "" "not in $p"
}

@test "7: packages: each package holds its files: library, headers and pages, tools and units, modules" {
	need_packages
	local mod dir
	holds libshmids1 "usr/lib/$t/libshmids.so.1" "usr/lib/$t/libshmids.so.$v"
	holds libshmids-dev usr/include/shmids.h usr/include/shmids_paper.h \
	    "usr/lib/$t/libshmids.so" "usr/lib/$t/libshmids.a" \
	    "usr/lib/$t/pkgconfig/shmids.pc" \
	    "usr/lib/$t/cmake/shmids/shmidsConfig.cmake" \
	    "usr/lib/$t/cmake/shmids/shmidsConfigVersion.cmake" \
	    usr/share/man/man3/shmids.3.gz usr/share/man/man3/shmids_open.3.gz \
	    usr/share/man/man5/shmids.5.gz
	holds shmids usr/bin/shm-ls usr/bin/shm-expand usr/bin/shm-import \
	    usr/bin/shm-rm usr/share/man/man1/shm-ls.1.gz \
	    usr/share/man/man1/shm-import.1.gz \
	    'lib/systemd/system/shmids-clean.service' \
	    'lib/systemd/system/shmids-clean.timer' \
	    'lib/systemd/system/run-shmids.mount'
	holds python3-shmids 'usr/lib/python3/dist-packages/shmids\(\.py\|/__init__\.py\)' \
	    usr/share/man/man3/shmids-python.3.gz
	holds r-cran-shmids usr/lib/R/site-library/shmids/DESCRIPTION \
	    usr/lib/R/site-library/shmids/libs/shmids.so
	holds libshmids-fortran-dev "usr/lib/$t/fortran/gfortran-mod-[0-9]*/shmids.mod" \
	    "usr/lib/$t/libshmids-fortran.a" "usr/lib/$t/pkgconfig/shmids-fortran.pc" \
	    usr/share/man/man3/shmids-fortran.3.gz
	# the module where its directory says: gfortran-mod-N holds version N
	mod=$(ls "$root/usr/lib/$t"/fortran/gfortran-mod-*/shmids.mod)
	dir=${mod%/shmids.mod}
	like "$(gzip -dc "$mod" | head -n 1)" \
	    "GFORTRAN module version '${dir##*gfortran-mod-}'*" "$mod"
	is "$(sed -n 's/^fmoddir=//p' "$root/usr/lib/$t/pkgconfig/shmids-fortran.pc")" \
	    "${dir#"$root"}" "shmids-fortran.pc's fmoddir"
}

@test "7: packages: the tools need libshmids.so.1 and no rpath; the units are installed, not enabled" {
	need_packages
	local f
	for f in shm-ls shm-expand shm-import shm-rm; do
		run readelf -d "$root/usr/bin/$f"
		like "$output" "*NEEDED*libshmids.so.1*" "$f"
		[[ $output != *RPATH* && $output != *RUNPATH* ]] ||
		    { echo "$f has an rpath: $output" >&2; false; }
	done
	is "$(grep '^ExecStart=' "$root/lib/systemd/system/shmids-clean.service")" \
	    "ExecStart=/usr/bin/shm-rm -v -s 7d -U"
	is "$(find "$root/etc" -name '*.wants' 2>/dev/null)" "" "enabled in the package"
	# the maintainer scripts enable a unit only where it was enabled
	# before (an upgrade), and start none
	dpkg-deb -e "$(deb_of shmids)" "$T/ctl"
	run awk '/was-enabled/ { ok = 1; next }
	    /deb-systemd-helper enable/ && !ok { print FILENAME ": " $0 }
	    /deb-systemd-invoke (start|restart)/ { print FILENAME ": " $0 }
	    /^[[:space:]]*fi/ { ok = 0 }' "$T/ctl/postinst"
	is "$output" "" "units enabled or started by postinst"
}

@test "7: packages: lintian finds no error or warning" {
	need_packages
	command -v lintian > /dev/null || skip "no lintian (Debian: lintian)"
	run --separate-stderr env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	    HOME="$BATS_FILE_TMPDIR/home" TMPDIR="$BATS_FILE_TMPDIR/tmp" \
	    timeout 600 lintian --fail-on error,warning \
	    --info --display-level '>=pedantic' --show-overrides \
	    "$BATS_FILE_TMPDIR"/shmids_"$v"_*.changes
	# the summary, for the record: hints by level, overrides
	printf '# lintian: %s errors, %s warnings, %s info, %s pedantic, %s overridden\n' \
	    "$(grep -c '^E:' <<< "$output")" "$(grep -c '^W:' <<< "$output")" \
	    "$(grep -c '^I:' <<< "$output")" "$(grep -c '^P:' <<< "$output")" \
	    "$(grep -c '^O:' <<< "$output")" >&3
	is "$(grep '^[EW]:' <<< "$output")" "" "errors and warnings"
	status_is 0
}

@test "7: packages: unpacked, the README's C and Fortran programs build with pkg-config against them and run" {
	need_packages
	examples "$T/x"
	cd "$T/x"
	export PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_LIBDIR=$root/usr/lib/$t/pkgconfig
	run sh -c 'cc -o hello hello.c $(pkg-config --cflags --libs shmids)'
	status_is 0
	run env LD_LIBRARY_PATH="$root/usr/lib/$t" ldd ./hello
	like "$output" "*libshmids.so.1 => $root/usr/lib/$t/libshmids.so.1 *" "ldd hello"
	run env LD_LIBRARY_PATH="$root/usr/lib/$t" ./hello
	check_program c
	command -v gfortran > /dev/null || skip "no gfortran"
	run sh -c 'gfortran -o fhello hello.f90 $(pkg-config --cflags --libs shmids-fortran)'
	status_is 0
	run env LD_LIBRARY_PATH="$root/usr/lib/$t" ./fhello
	check_program fortran
}

# The module finds libshmids.so.1 without LD_LIBRARY_PATH once
# installed: it asks the loader for the SONAME (LD_DEBUG shows the
# search), which libshmids1 puts in a directory of the loader's own
# system search path.  LD_LIBRARY_PATH stands here for that directory,
# the scratch root being no system's.
@test "7: packages: unpacked, python3-shmids runs the README's Python lines, and loads libshmids.so.1 by its SONAME from the loader's own directories" {
	need_packages
	need_numpy
	local ldso
	examples "$T/x"
	cd "$T/x"
	run --separate-stderr env PATH="$root/usr/bin:/usr/bin:/bin" \
	    LD_LIBRARY_PATH="$root/usr/lib/$t" LD_DEBUG=libs \
	    PYTHONPATH="$root/usr/lib/python3/dist-packages" PYTHONNOUSERSITE=1 \
	    /usr/bin/python3 -c 'import shmids; shmids.ls(); print(shmids.__file__)'
	status_is 0
	like "$output" "$root/usr/lib/python3/dist-packages/shmids*" "module"
	like "$stderr" "*find library=libshmids.so.1 \[0\]; searching*" "loaded by SONAME"
	like "$stderr" "*trying file=$root/usr/lib/$t/libshmids.so.1*" "found"
	ldso=$(readelf -l /bin/sh | sed -n 's/.*interpreter: \(.*\)]$/\1/p')
	run "$ldso" --help
	like "$output" "*/usr/lib/$t (system search path)*" "the loader's own directories"

	ln -s "$root/usr/lib/python3/dist-packages" python
	run env PATH="$root/usr/bin:/usr/bin:/bin" LD_LIBRARY_PATH="$root/usr/lib/$t" \
	    PYTHONNOUSERSITE=1 bash -e python.sh
	track_made "$T/x"
	status_is 0
	like "$output" "coeff: 100 values, float64, sum *" "README's Python lines"
}

@test "7: packages: unpacked, r-cran-shmids runs the README's numpy -> R lines" {
	need_packages
	need_numpy
	command -v Rscript > /dev/null || skip "no R (Debian: r-base-core)"
	examples "$T/x"
	cd "$T/x"
	ln -s "$root/usr/lib/python3/dist-packages" python
	run env PATH="$root/usr/bin:/usr/bin:/bin" LD_LIBRARY_PATH="$root/usr/lib/$t" \
	    PYTHONNOUSERSITE=1 R_LIBS="$root/usr/lib/R/site-library" bash -e rnumpy.sh
	track_made "$T/x"
	status_is 0
	is "$output" "[1] 1000
[1] 499500" "README's R lines"
}

# As installed: the scratch root laid over /usr (overlayfs, read-only)
# in a private mount namespace, /usr/local hidden (a shmids that make
# install put there would come first), nothing set.
@test "7: packages: laid over /usr in a private mount namespace, the README's lines run as written, with no setting" {
	need_packages
	[ "$(id -u)" = 0 ] || skip "needs root for a private mount namespace"
	need_numpy
	local l
	examples "$T/x"
	cat > "$T/asinstalled.sh" <<-'EOF'
	mount -t overlay overlay -o "lowerdir=$1/usr:/usr" /usr || exit 3
	mount -t tmpfs tmpfs /usr/local || exit 3
	cd "$2" || exit 1
	set -e
	export PATH=/usr/bin:/bin
	unset LD_LIBRARY_PATH PYTHONPATH R_LIBS PKG_CONFIG_PATH
	# a user's own copies (make install PREFIX=$HOME/.local, R's user
	# library) would come first
	export PYTHONNOUSERSITE=1 R_LIBS_USER="$2/none"
	echo "== C"
	cc -o hello hello.c $(pkg-config --cflags --libs shmids)
	./hello
	ldd ./hello | grep libshmids
	echo "== Fortran"
	gfortran -o fhello hello.f90 $(pkg-config --cflags --libs shmids-fortran)
	./fhello
	echo "== Python"
	python3 -c 'import shmids; print(shmids.__file__)'
	bash -e python.sh
	echo "== R"
	Rscript -e 'cat(find.package("shmids"), "\n")'
	bash -e rnumpy.sh
	EOF
	run timeout 300 unshare -m bash "$T/asinstalled.sh" "$root" "$T/x"
	track_made "$T/x"
	for l in $(sed -n 's/^\(u\|coeff\) shmids //p' <<< "$output" | cut -d' ' -f1); do
		track "$l"
	done
	[ "$status" != 3 ] || skip "no overlayfs or tmpfs mount here: $output"
	status_is 0
	like "$output" "*== C
u shmids [0-9]* hello-u
u: 1000 values, sum 124875
*libshmids.so.1 => */lib/$t/libshmids.so.1 *" "C"
	like "$output" "*== Fortran
coeff shmids [0-9]* coeff
read back: 100 values, sum 4950.0
== Python
/usr/lib/python3/dist-packages/shmids*
coeff: 100 values, float64, sum *
== R
/usr/lib/R/site-library/shmids 
\[1\] 1000
\[1\] 499500" "Fortran, Python, R"
}
