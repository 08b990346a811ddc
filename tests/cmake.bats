#!/usr/bin/env bats
# find_package(shmids CONFIG) after make install (cmake/*.in): the
# README's C and Fortran programs built by CMake against a staged
# install (DESTDIR), the targets shmids::shmids and shmids::fortran,
# the version file's answers, and the files found from their own place.
# Skipped, saying why, where cmake is missing (Debian: cmake).

load helper
load programs

TOP=$BATS_TEST_DIRNAME/..
README=$TOP/README.md
FDIR=$TOP/${SHMIDS_BUILD:-build}/fortran

need_cmake() {
	command -v cmake > /dev/null || skip "no cmake (Debian: cmake)"
}

# stage: make install DESTDIR=$T/root PREFIX=/usr/local; $pfx is the
# staged prefix.
stage() {
	pfx=$T/root/usr/local
	run --separate-stderr make -s --no-print-directory -C "$TOP" \
	    B="${SHMIDS_BUILD:-build}" LDCONFIG=true PYTHON=false \
	    install DESTDIR="$T/root" PREFIX=/usr/local
	status_is 0
	[ -f "$pfx/lib/cmake/shmids/shmidsConfig.cmake" ] &&
	    [ -f "$pfx/lib/cmake/shmids/shmidsConfigVersion.cmake" ]
}

# The flags a sanitizer build's library needs of the programs it links.
san_flags() {
	if nm -D "$pfx/lib/libshmids.so.1" 2>/dev/null | grep -q __asan_init; then
		echo "-fsanitize=address,undefined"
	fi
}

# project LANGS FIND...: $T/p/CMakeLists.txt, a project of LANGS whose
# find_package(shmids ...) call has the arguments FIND, then a program
# per README example the languages have.
project() {
	local langs=$1
	shift
	mkdir -p "$T/p"
	{
		echo 'cmake_minimum_required(VERSION 3.13)'
		echo "project(hello $langs)"
		echo "find_package(shmids $*)"
		case " $langs " in *" C "*)
			echo 'add_executable(hello hello.c)'
			echo 'target_link_libraries(hello PRIVATE shmids::shmids)' ;;
		esac
		case " $langs " in *" Fortran "*)
			echo 'add_executable(fhello hello.f90)'
			echo 'target_link_libraries(fhello PRIVATE shmids::fortran)' ;;
		esac
	} > "$T/p/CMakeLists.txt"
	readme_block examples/hello.c > "$T/p/hello.c"
	readme_block fortran > "$T/p/hello.f90"
	[ -s "$T/p/hello.c" ] && [ -s "$T/p/hello.f90" ]
}

# configure PREFIX-PATH: cmake configures $T/p in $T/b; $output with
# cmake's line breaks and indents made single spaces.
configure() {
	local san
	san=$(san_flags)
	rm -rf "$T/b"
	run cmake -S "$T/p" -B "$T/b" -DCMAKE_PREFIX_PATH="$1" \
	    -DCMAKE_EXE_LINKER_FLAGS="$san"
	output=$(tr -s ' \n' '  ' <<< "$output")
}

@test "7: cmake: find_package(shmids CONFIG) builds the README's C and Fortran programs against a staged install; they run" {
	need_cmake
	[ ! -f "$FDIR/skip" ] || skip "$(cat "$FDIR/skip")"
	stage
	project "C Fortran" 1.0 CONFIG REQUIRED COMPONENTS fortran
	configure "$pfx"
	status_is 0
	run cmake --build "$T/b"
	status_is 0

	# linked to the staged library, which CMake's build rpath finds
	run env -u LD_LIBRARY_PATH ldd "$T/b/hello"
	like "$output" "*libshmids.so.1 => $pfx/lib/libshmids.so.1 *" "ldd hello"
	run env -u LD_LIBRARY_PATH "$T/b/hello"
	check_program c
	# A main program's allocatables live till the end (Fortran: saved),
	# which LeakSanitizer would call a leak under make check-asan.
	run env -u LD_LIBRARY_PATH \
	    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$T/b/fhello"
	check_program fortran
}

@test "7, 9: cmake: the version file: this version or an earlier of its major number, within a range of that major, no other" {
	need_cmake
	local v major minor patch want
	stage
	v=$(sed -n 's/^Version: //p' "$pfx/lib/pkgconfig/shmids.pc")
	IFS=. read -r major minor patch <<< "$v"
	for want in "$major.0 ok" "$v ok" "$major.$((minor + 1)) no" \
	    "$major.$minor.$((patch + 1)) no" "$((major + 1)).0 no" \
	    "$((major - 1)).9 no" "$major.0...<$((major + 1)) ok" \
	    "$major.0...$v ok" "$major.0...<$v no"; do
		project C "${want% *}" CONFIG REQUIRED
		configure "$pfx"
		case $want in
		*ok) [ "$status" = 0 ] ||
		    { echo "find_package(shmids ${want% *}): $output" >&2; false; } ;;
		*) [ "$status" != 0 ] ||
		    { echo "find_package(shmids ${want% *}) was met by $v" >&2; false; }
		   like "$output" "*compatible with requested version*" "${want% *}" ;;
		esac
	done
}

@test "7: cmake: an unknown component, or the Fortran one where the module is not installed, fails saying why" {
	need_cmake
	stage
	project C CONFIG REQUIRED COMPONENTS nope
	configure "$pfx"
	[ "$status" != 0 ]
	like "$output" "*no component 'nope' (components: shmids, fortran)*"
	rm -f "$pfx"/lib/fortran/gfortran-mod-*/shmids.mod
	project C CONFIG REQUIRED COMPONENTS fortran
	configure "$pfx"
	[ "$status" != 0 ]
	like "$output" "*no Fortran module in $pfx/lib/fortran/gfortran-mod-*"
	# without the component asked for, the C target is all there is
	project C CONFIG REQUIRED
	configure "$pfx"
	status_is 0
	run cmake --build "$T/b"
	status_is 0
}

@test "7: cmake: the installed tree moved whole is found where it is (relocatable)" {
	need_cmake
	stage
	mv "$T/root/usr/local" "$T/moved"
	pfx=$T/moved
	project C CONFIG REQUIRED
	configure "$T/moved"
	status_is 0
	run cmake --build "$T/b"
	status_is 0
	run env -u LD_LIBRARY_PATH ldd "$T/b/hello"
	like "$output" "*libshmids.so.1 => $T/moved/lib/libshmids.so.1 *" "ldd hello"
	run grep -rl "$T/root" "$T/b/CMakeCache.txt"
	is "$output" "" "the staged path in the cache"
}
