#!/usr/bin/env bats
# make install and the README's library example: the example is a whole
# program, builds with pkg-config against an installed tree and runs;
# the install runs ldconfig or says what to set.  Installs only under
# $T (DESTDIR or PREFIX), with a stand-in for ldconfig.

load helper

TOP=$BATS_TEST_DIRNAME/..
README=$TOP/README.md

# make_install ARGS...: make install from the top directory, with
# $T/ldconfig standing in for ldconfig (it logs its arguments to
# $T/ldlog, and for -p prints $T/ldcache); standard output in
# $T/make.out (a parent make's jobserver may have make warn on stderr).
make_install() {
	cat > "$T/ldconfig" <<-EOF
	#!/bin/sh
	echo "ldconfig \$*" >> "$T/ldlog"
	[ "\$1" != -p ] || cat "$T/ldcache" 2>/dev/null
	EOF
	chmod +x "$T/ldconfig"
	run --separate-stderr make -s --no-print-directory -C "$TOP" B="${SHMIDS_BUILD:-build}" LDCONFIG="$T/ldconfig" "$@"
	# The Python module's lines: tests/python.bats checks them.
	# The Fortran module's line where it was not built: fortran.bats.
	printf '%s\n' "$output" | grep -v -e '^install: the Python module' \
	    -e '^install: the Fortran module not installed' \
	    -e '^install: .* does not look in .*: set PYTHONPATH=' \
	    > "$T/make.out" || true
}

# The flags a sanitizer build's library needs of the programs it links.
san_flags() {
	if nm -D "$1" 2>/dev/null | grep -q __asan_init; then
		echo "-fsanitize=address,undefined"
	fi
}

# check_hello: ./hello ran ($status, $output): a reference line, the
# sum, and no segment left.
check_hello() {
	local l
	l=$(sed -n 's/^u shmids //p' <<< "$output")
	[ -z "$l" ] || track "$l"
	status_is 0
	like "$(sed -n 1p <<< "$output")" "u shmids [0-9]* hello-u" "line 1"
	is "$(sed -n 2p <<< "$output")" "u: 1000 values, sum 124875" "line 2"
	is "$(wc -l <<< "$output")" 2 "lines"
	gone "$l"
}

@test "7: install: the README's library example is examples/hello.c, whole" {
	readme_block examples/hello.c > hello.c
	[ -s hello.c ] || { echo "no block after the marker in README.md" >&2; false; }
	same_file "$TOP/examples/hello.c" hello.c
	grep -Fqx '    cc -o hello hello.c $(pkg-config --cflags --libs shmids)' \
	    "$README" || { echo "README: no compile line" >&2; false; }
}

@test "7: install: staged with DESTDIR, the README's example builds with pkg-config and runs" {
	local root=$T/root lib=$T/root/usr/local/lib
	make_install install DESTDIR="$root" PREFIX=/usr/local
	status_is 0
	is "$(cat "$T/make.out")" \
	    "install: staged in $root: run ldconfig once installed in /usr/local/lib"
	[ ! -e "$T/ldlog" ] || { echo "ran ldconfig with DESTDIR: $(cat "$T/ldlog")" >&2; false; }
	[ -f "$lib/libshmids.so.1.7.0" ] && [ -L "$lib/libshmids.so.1" ] &&
	    [ -f "$lib/pkgconfig/shmids.pc" ] && [ -f "$root/usr/local/include/shmids.h" ]

	mkdir work && cd work
	readme_block examples/hello.c > hello.c
	# shellcheck disable=SC2046
	run env PKG_CONFIG_SYSROOT_DIR="$root" PKG_CONFIG_LIBDIR="$lib/pkgconfig" \
	    sh -c 'cc -o hello hello.c $(pkg-config --cflags --libs shmids) $0' \
	    "$(san_flags "$lib/libshmids.so.1")"
	status_is 0
	# linked to the shared library, which the loader finds only as told
	run env LD_LIBRARY_PATH="$lib" ldd ./hello
	like "$output" "*libshmids.so.1 => $lib/libshmids.so.1 *" "ldd"
	run env LD_LIBRARY_PATH="$lib" ./hello
	check_hello

	make_install uninstall DESTDIR="$root" PREFIX=/usr/local
	status_is 0
	is "$(find "$root" ! -type d)" "" "left after uninstall"
}

@test "7: install: as root for a PREFIX the loader does not search, no ldconfig; make says what to set" {
	[ "$(id -u)" = 0 ] || skip "ldconfig runs only for root"
	local p=$T/p
	make_install install PREFIX="$p"
	status_is 0
	is "$(cat "$T/ldlog")" "ldconfig -p" "ldconfig calls"
	is "$(cat "$T/make.out")" "install: the loader does not look in $p/lib: run programs with LD_LIBRARY_PATH=$p/lib, or link them with -Wl,-rpath,$p/lib
install: pkg-config does not look in $p/lib/pkgconfig: set PKG_CONFIG_PATH=$p/lib/pkgconfig"

	# The README's other way: an rpath, and no LD_LIBRARY_PATH.
	mkdir work && cd work
	readme_block examples/hello.c > hello.c
	run env PKG_CONFIG_PATH="$p/lib/pkgconfig" sh -c \
	    'cc -o hello hello.c $(pkg-config --cflags --libs shmids) -Wl,-rpath,$1 $0' \
	    "$(san_flags "$p/lib/libshmids.so.1")" "$p/lib"
	status_is 0
	run env -u LD_LIBRARY_PATH ./hello
	check_hello

	: > "$T/ldlog"
	make_install uninstall PREFIX="$p"
	status_is 0
	is "$(find "$p" ! -type d)" "" "left after uninstall"
	is "$(cat "$T/ldlog")" "" "ldconfig after uninstall"
}

# ldsoconf DIR: $T/ld.so.conf, which includes a file that lists DIR.
ldsoconf() {
	mkdir -p "$T/ld.so.conf.d"
	printf '# test\ninclude %s/ld.so.conf.d/*.conf\n' "$T" > "$T/ld.so.conf"
	printf '# the prefix\n%s/\n' "$1" > "$T/ld.so.conf.d/p.conf"
}

@test "7: install: as root, ldconfig runs for a LIBDIR in ld.so.conf or a file it includes" {
	[ "$(id -u)" = 0 ] || skip "ldconfig runs only for root"
	local p=$T/p
	ldsoconf "$p/lib"
	make_install install PREFIX="$p" LDSOCONF="$T/ld.so.conf"
	status_is 0
	is "$(head -n 1 "$T/ldlog")" "ldconfig " "ldconfig calls"
	is "$(head -n 1 "$T/make.out")" "$T/ldconfig"
	: > "$T/ldlog"
	make_install uninstall PREFIX="$p" LDSOCONF="$T/ld.so.conf"
	status_is 0
	is "$(cat "$T/ldlog")" "ldconfig " "ldconfig after uninstall"
}

@test "7: install: no hint where the loader and pkg-config find the library" {
	[ "$(id -u)" = 0 ] || skip "ldconfig runs only for root"
	local p=$T/p
	printf '\tlibshmids.so.1 (libc6,x86-64) => %s/lib/libshmids.so.1\n' "$p" \
	    > "$T/ldcache"
	ldsoconf "$p/lib"
	PKG_CONFIG_PATH=$p/lib/pkgconfig make_install install PREFIX="$p" \
	    LDSOCONF="$T/ld.so.conf"
	status_is 0
	is "$(cat "$T/make.out")" "$T/ldconfig"
	make_install uninstall PREFIX="$p" LDSOCONF="$T/ld.so.conf"
	status_is 0
}

# public_functions: the functions lib/shmids.h and lib/shmids_paper.h
# declare, one a line (shmids_paper.h's shm_* are macros onto them).
public_functions() {
	sed -n 's/^[a-z][^(]*[	 *]\(shmids_[a-z0-9_]*\)(.*/\1/p' \
	    "$TOP/lib/shmids.h" "$TOP/lib/shmids_paper.h"
}

# page_of FUNCTION: the section-3 page whose NAME section names it
# (shmids.3, shmids_stream.3 for the streams).
page_of() {
	grep -l "^\.Nm $1\( ,\)\{0,1\}\$" "$TOP"/man/*.3 | head -n 1 | xargs basename
}

# man_names: every .Nm in the NAME section of the section-3 pages.
man_names() {
	sed -n '/^\.Sh NAME/,/^\.Sh /s/^\.Nm \([^ ]*\).*/\1/p' "$TOP"/man/*.3
}

@test "7: install: man finds the page of every public function by its name" {
	local root=$T/root man3=$T/root/usr/local/share/man/man3 f n=0
	make_install install DESTDIR="$root" PREFIX=/usr/local
	status_is 0
	for f in $(public_functions); do
		n=$((n + 1))
		[ -e "$man3/$f.3" ] || { echo "no $man3/$f.3" >&2; false; }
		if command -v man >/dev/null 2>&1; then
			run env MANPATH="$root/usr/local/share/man" man -w "$f"
			status_is 0
			is "$output" "$man3/$(page_of "$f")" "man -w $f"
		fi
		run mandoc -Tascii "$man3/$f.3"
		status_is 0
		like "$(sed -n 1p <<< "$output")" \
		    "$(basename "$(page_of "$f")" .3 | tr a-z A-Z)(3) *" \
		    "mandoc $f.3"
	done
	[ "$n" -ge 20 ] || { echo "only $n functions found in the headers" >&2; false; }
	# Not the paper's shm_open: that name is POSIX's shm_open(3).
	[ ! -e "$man3/shm_open.3" ]

	make_install uninstall DESTDIR="$root" PREFIX=/usr/local
	status_is 0
	is "$(find "$root" ! -type d)" "" "left after uninstall"
}

@test "7: install: every symbol libshmids.so exports has a .Nm in a section-3 page" {
	local so=$TOP/${SHMIDS_BUILD:-build}/libshmids.so missing
	[ -f "$so" ] || { echo "no $so: run make" >&2; false; }
	missing=$(nm -D --defined-only "$so" | awk '$2 ~ /^[TWDBRV]$/ { print $3 }' |
	    sort | comm -23 - <(man_names | sort))
	is "$missing" "" "exported, without a .Nm"
	[ -n "$(nm -D --defined-only "$so" | grep -w shmids_open)" ]
}

# The tools are clients of shmids.h: no file of cmd/ includes a header
# of lib/ but the public ones.
@test "7: install: no file of cmd/ includes a library-internal header" {
	local h bad=
	for h in $(sed -n 's/^#include "\(.*\)".*/\1/p' "$TOP"/cmd/*.[ch] "$TOP"/cmd/*/*.[ch] | sort -u); do
		[ "$h" = shmids.h ] || [ -f "$TOP/cmd/$h" ] ||
		    compgen -G "$TOP/cmd/*/$h" > /dev/null || bad+="$h "
	done
	is "$bad" "" "includes other than shmids.h and cmd/'s own"
	run grep -rlwE '(internal|common|seg|text|number)\.h' "$TOP"/cmd/
	is "$output" "" "cmd/ files naming a library-internal header"
}

# The library's layers (lib/README): lib/text/ may call lib/seg/, through
# shmids.h; lib/seg/ never calls lib/text/.  By includes, and by symbols:
# no object of lib/seg/ needs a symbol that an object of lib/text/ defines.
@test "7: install: lib/seg/ neither includes nor calls lib/text/; lib/text/ includes no seg.h" {
	local b=$TOP/${SHMIDS_BUILD:-build}/lib
	run grep -lwE '(text|number|pow10_table)\.h' "$TOP"/lib/seg/*.[ch]
	is "$output" "" "lib/seg/ files including a header of lib/text/"
	run grep -lw 'seg\.h' "$TOP"/lib/text/*.[ch]
	is "$output" "" "lib/text/ files including seg.h"
	ls "$b"/seg/*.o "$b"/text/*.o > /dev/null
	is "$(comm -12 <(nm -u "$b"/seg/*.o | awk 'NF == 2 { print $2 }' |
	    sort -u) <(nm --defined-only "$b"/text/*.o |
	    awk 'NF == 3 { print $3 }' | sort -u))" "" "lib/seg/ calling lib/text/"
}

# lib/stream/ (lib/README) sits on lib/seg/ beside lib/text/: it may
# call lib/seg/ (through seg.h); lib/seg/ never calls it, and it and
# lib/text/ never call each other.
@test "7: install: lib/stream/ calls only lib/seg/; neither lib/seg/ nor lib/text/ calls lib/stream/" {
	local b=$TOP/${SHMIDS_BUILD:-build}/lib
	run grep -lwE '(text|number|pow10_table)\.h' "$TOP"/lib/stream/*.[ch]
	is "$output" "" "lib/stream/ files including a header of lib/text/"
	run grep -lw 'stream\.h' "$TOP"/lib/seg/*.[ch] "$TOP"/lib/text/*.[ch]
	is "$output" "" "lib/seg/ or lib/text/ files including stream.h"
	ls "$b"/seg/*.o "$b"/stream/*.o "$b"/text/*.o > /dev/null
	defined() { nm --defined-only "$@" | awk 'NF == 3 { print $3 }' | sort -u; }
	needed() { nm -u "$@" | awk 'NF == 2 { print $2 }' | sort -u; }
	is "$(comm -12 <(needed "$b"/seg/*.o) <(defined "$b"/stream/*.o))" "" \
	    "lib/seg/ calling lib/stream/"
	is "$(comm -12 <(needed "$b"/text/*.o) <(defined "$b"/stream/*.o))" "" \
	    "lib/text/ calling lib/stream/"
	is "$(comm -12 <(needed "$b"/stream/*.o) <(defined "$b"/text/*.o))" "" \
	    "lib/stream/ calling lib/text/"
	# and it does call lib/seg/ (a check that can fail)
	[ -n "$(comm -12 <(needed "$b"/stream/*.o) <(defined "$b"/seg/*.o))" ]
}

# kept_calls: the calls lib/shmids.h keeps for 1.x programs, one a
# line: those declared after a contract block that says "Kept for 1.x
# programs" (format-spec.md 9; shmids(3)), read from the header.
kept_calls() {
	awk '
	/^[ \t]*\/\*/ { inc = 1; txt = ""; kept = 0 }
	inc {
		txt = txt " " $0
		if ($0 ~ /\*\//) {
			inc = 0
			gsub(/[ \t*]+/, " ", txt)
			kept = txt ~ /Kept for 1\.x programs/
		}
		next
	}
	kept && match($0, /^[a-z][^(]*[\t *]shmids_[a-z0-9_]*\(/) {
		s = substr($0, 1, RLENGTH - 1)
		sub(/.*[\t *]/, "", s)
		print s
	}' "$TOP/lib/shmids.h"
}

# kept_types: the structs of that section (struct shmids_ref, ...), one
# a line.
kept_types() {
	sed -n '/^ \* Calls kept for 1\.x programs/,$ s/^struct \(shmids_[a-z0-9_]*\) {.*/\1/p' \
	    "$TOP/lib/shmids.h"
}

# The tools (and the examples) show the designed API: they call none of
# the wrappers kept for 1.x programs, and use none of their structs.  By
# source, comments stripped by the compiler's preprocessor, and by the
# symbols each tool needs.
@test "9: install: cmd/ and examples/ use none of the calls and structs kept for 1.x programs" {
	local kept types f hits= t
	kept=$(kept_calls | paste -sd '|' -)
	types=$(kept_types | paste -sd '|' -)
	like "|$types|" "*|shmids_ref|*" "kept structs"
	# the header's blocks were read: the list is not empty by accident
	like "|$kept|" "*|shmids_open|*" "kept calls"
	like "|$kept|" "*|shmids_values_parse|*" "kept calls"
	[ "$(kept_calls | wc -l)" -ge 10 ] || { echo "only: $kept" >&2; false; }
	for f in "$TOP"/cmd/*.[ch] "$TOP"/cmd/*/*.[ch] "$TOP"/examples/*.c; do
		run --separate-stderr "${CC:-cc}" -fpreprocessed -dD -E -P "$f"
		status_is 0
		# the stripped text still holds the calls (a check that can fail)
		case $f in */import/read.c)
			like "$output" "*shmids_line_kind(*" "$f stripped" ;;
		esac
		t=$(grep -nE "(^|[^A-Za-z0-9_])($kept)[[:space:]]*\(" <<< "$output") &&
		    hits+="${f#"$TOP"/}: $t"$'\n'
		t=$(grep -nE "struct[[:space:]]+($types)([^A-Za-z0-9_]|$)" <<< "$output") &&
		    hits+="${f#"$TOP"/}: $t"$'\n'
	done
	is "$hits" "" "calls and structs kept for 1.x programs"
	for f in shm-ls shm-rm shm-expand shm-import; do
		[ -x "$BIN/$f" ] || { echo "no $BIN/$f: run make" >&2; false; }
		is "$(nm -D --undefined-only "$BIN/$f" | awk '{ print $2 }' |
		    grep -xE "$kept")" "" "$f needs"
	done
}

@test "7: install: libshmids.so exports every library function the tools call" {
	local so=$TOP/${SHMIDS_BUILD:-build}/libshmids.so f missing
	[ -f "$so" ] || { echo "no $so: run make" >&2; false; }
	for f in shm-ls shm-rm shm-expand shm-import; do
		# linked against the shared library, not a copy of it
		run readelf -d "$BIN/$f"
		like "$output" "*NEEDED*libshmids.so.1*" "$f needs libshmids.so.1"
		missing=$(nm -D --undefined-only "$BIN/$f" | awk '{ print $2 }' |
		    grep '^shm' | sort | comm -23 - \
		    <(nm -D --defined-only "$so" | awk '{ print $3 }' | sort))
		is "$missing" "" "$f calls, the library does not export"
		[ -n "$(nm -D --undefined-only "$BIN/$f" | grep -w "shmids_line_kind\\|shmids_ref_parse\\|shmids_scan\\|shmids_scan_shape\\|shmids_scan_dims")" ]
	done
	# the build tree's tools find the build tree's library by themselves
	run env -u LD_LIBRARY_PATH ldd "$BIN/shm-ls"
	like "$output" "*libshmids.so.1 => $BIN/../libshmids.so.1 *" "ldd build tree"
}

# roundtrip DIR: DIR's shm-import then shm-expand give back the input.
roundtrip() {
	local l
	awk 'BEGIN { printf "# kept\nx"; for (i = 0; i < 100; i++) printf " %d.5", i; print ""; print "tail line" }' > in.txt
	# named with $P: teardown finds it whatever fails (issue 34)
	run --separate-stderr "$1/shm-import" -P "$P" in.txt
	status_is 0
	printf '%s\n' "$output" > ref.txt
	l=$(sed -n 's/^x shmids //p' ref.txt)
	[ -n "$l" ] || { echo "no reference line: $output" >&2; false; }
	track "$l"
	run --separate-stderr "$1/shm-expand" -c 0 -d ref.txt
	status_is 0
	printf '%s\n' "$output" > out.txt
	same_file in.txt out.txt
	gone "$l"
}

@test "7: install: each tool builds from cmd/ against the installed header and libshmids.so, and round-trips" {
	local p=$T/p f san helpers
	make_install install PREFIX="$p" INSTALL_RPATH="$p/lib"
	status_is 0
	san=$(san_flags "$p/lib/libshmids.so.1")
	# the installed tools use the installed library
	for f in shm-ls shm-rm shm-expand shm-import; do
		run readelf -d "$p/bin/$f"
		like "$output" "*RUNPATH*\[$p/lib\]*" "$f runpath"
		run env -u LD_LIBRARY_PATH ldd "$p/bin/$f"
		like "$output" "*libshmids.so.1 => $p/lib/libshmids.so.1 *" "ldd $f"
	done
	mkdir work && cd work
	roundtrip "$p/bin"

	# cmd/ alone, away from lib/, with the installed header
	mkdir -p src bin
	cp -R "$TOP"/cmd src/
	# the tools' shared helpers: every file of cmd/ that is no tool; a
	# tool is cmd/NAME.c, or the folder cmd/import/ (shm-import)
	helpers=$(ls src/cmd/*.c | grep -v '/shm-[a-z]*\.c$')
	for f in shm-ls shm-rm shm-expand shm-import; do
		main=src/cmd/$f.c
		[ "$f" != shm-import ] || main=$(echo src/cmd/import/*.c)
		run env PKG_CONFIG_PATH="$p/lib/pkgconfig" sh -c \
		    'cc -std=c99 -D_XOPEN_SOURCE=700 -Isrc/cmd -o bin/$0 $4 $3 $(pkg-config --cflags --libs shmids) -Wl,-rpath,$1 $2' \
		    "$f" "$p/lib" "$san" "$helpers" "$main"
		status_is 0
		run env -u LD_LIBRARY_PATH ldd "bin/$f"
		like "$output" "*libshmids.so.1 => $p/lib/libshmids.so.1 *" "ldd $f"
	done
	roundtrip "$PWD/bin"
	run bin/shm-ls --version
	status_is 0

	make_install uninstall PREFIX="$p"
	status_is 0
	is "$(find "$p" ! -type d)" "" "left after uninstall"
}

@test "7: install-systemd: the cleaner's units, with the prefix's shm-rm; plain install leaves units alone" {
	local root=$T/root unit=$T/root/usr/local/lib/systemd/system
	make_install install DESTDIR="$root" PREFIX=/usr/local
	status_is 0
	[ ! -e "$root/usr/local/lib/systemd" ] ||
	    { echo "make install installed units: $(find "$root" -name '*.timer')" >&2; false; }
	make_install uninstall DESTDIR="$root" PREFIX=/usr/local
	make_install install-systemd DESTDIR="$root" PREFIX=/usr/local
	status_is 0
	is "$(cat "$T/make.out")" "install-systemd: to start it: systemctl daemon-reload; systemctl enable --now shmids-clean.timer
install-systemd: for a shared SHMIDS_DIR in 2 MiB pages: systemctl enable --now run-shmids.mount"
	is "$(grep '^ExecStart=' "$unit/shmids-clean.service")" \
	    "ExecStart=/usr/local/bin/shm-rm -v -s 7d -U"
	grep -qx 'EnvironmentFile=-/etc/default/shmids' "$unit/shmids-clean.service"
	grep -qx 'OnCalendar=daily' "$unit/shmids-clean.timer"
	grep -qx 'WantedBy=timers.target' "$unit/shmids-clean.timer"
	make_install uninstall-systemd DESTDIR="$root" PREFIX=/usr/local
	status_is 0
	is "$(find "$root" ! -type d)" "" "left after uninstall-systemd"
	# The units as systemd reads them, with this build's shm-rm.
	command -v systemd-analyze > /dev/null || skip "systemd-analyze missing"
	make_install install-systemd SYSTEMDDIR="$T/units" DATADIR="$T/data" \
	    BINDIR="$TOP/${SHMIDS_BUILD:-build}/bin"
	status_is 0
	run systemd-analyze verify --man=no "$T/units/shmids-clean.service" \
	    "$T/units/shmids-clean.timer"
	status_is 0
	is "$output" ""
}

# Issue 31.1: a shared SHMIDS_DIR in 2 MiB pages, and the line that lets
# System V segments ask for them: installed, neither in effect until an
# administrator enables them.
@test "2.5: install-systemd: run-shmids.mount (tmpfs huge=within_size, 1777, off until enabled) and shmids-thp.conf outside tmpfiles.d" {
	local root=$T/root unit=$T/root/usr/local/lib/systemd/system
	local conf=$T/root/usr/local/share/shmids/shmids-thp.conf
	make_install install-systemd DESTDIR="$root" PREFIX=/usr/local
	status_is 0
	grep -qx 'Where=/run/shmids' "$unit/run-shmids.mount"
	grep -qx 'Options=mode=1777,nosuid,nodev,huge=within_size' "$unit/run-shmids.mount"
	grep -qx 'WantedBy=local-fs.target' "$unit/run-shmids.mount"
	is "$(find "$root" -path '*.wants*' -o -path '*tmpfiles.d*')" "" "enabled by install"
	is "$(grep -v '^#' "$conf")" "w /sys/kernel/mm/transparent_hugepage/shmem_enabled - - - - advise"
	grep -qx '#	ln -s /usr/local/share/shmids/shmids-thp.conf /etc/tmpfiles.d/' "$conf"
	make_install uninstall-systemd DESTDIR="$root" PREFIX=/usr/local
	status_is 0
	is "$(find "$root" ! -type d)" "" "left after uninstall-systemd"
	command -v systemd-analyze > /dev/null || skip "systemd-analyze missing"
	make_install install-systemd SYSTEMDDIR="$T/units" DATADIR="$T/data"
	status_is 0
	run systemd-analyze verify --man=no "$T/units/run-shmids.mount"
	status_is 0
	is "$output" ""
	# The line as systemd-tmpfiles applies it, to a file under --root.
	command -v systemd-tmpfiles > /dev/null || skip "systemd-tmpfiles missing"
	mkdir -p "$T/r/sys/kernel/mm/transparent_hugepage"
	echo never > "$T/r/sys/kernel/mm/transparent_hugepage/shmem_enabled"
	run systemd-tmpfiles --root="$T/r" --create "$T/data/shmids-thp.conf"
	status_is 0
	is "$(cat "$T/r/sys/kernel/mm/transparent_hugepage/shmem_enabled")" advise
}

# Issue 19.9: units where systemd never looks are never loaded.
@test "7: install-systemd: a directory systemd does not read is warned about, with no enable line" {
	local root=$T/root
	make_install install-systemd DESTDIR="$root" PREFIX=/opt/x
	status_is 0
	is "$(cat "$T/make.out")" "" "stdout"
	is "$stderr" "install-systemd: warning: systemd does not look in /opt/x/lib/systemd/system: install with SYSTEMDDIR=/etc/systemd/system, or link the units there"
	[ -f "$root/opt/x/lib/systemd/system/shmids-clean.timer" ]
	make_install install-systemd DESTDIR="$root" PREFIX=/opt/x \
	    SYSTEMDDIR=/etc/systemd/system
	status_is 0
	is "$(cat "$T/make.out")" "install-systemd: to start it: systemctl daemon-reload; systemctl enable --now shmids-clean.timer
install-systemd: for a shared SHMIDS_DIR in 2 MiB pages: systemctl enable --now run-shmids.mount"
	is "$(grep '^ExecStart=' "$root/etc/systemd/system/shmids-clean.service")" \
	    "ExecStart=/opt/x/bin/shm-rm -v -s 7d -U"
}

# Issue 18.12: the units as staged by make install install-systemd
# DESTDIR=..., checked where they would be installed (the staged
# /usr/local mounted on /usr/local in a private mount namespace), man
# pages and shm-rm included; and the hardening systemd-analyze security
# asks for, short of what the cleaner needs.
@test "7: install-systemd: staged units pass systemd-analyze verify; hardened, with a start timeout" {
	local root=$T/root unit f exposure
	command -v systemd-analyze > /dev/null || skip "systemd-analyze missing"
	need_mountns
	unit=$root/usr/local/lib/systemd/system/shmids-clean.service
	make_install install install-systemd DESTDIR="$root" PREFIX=/usr/local
	status_is 0
	for f in TimeoutStartSec=30min ProtectProc=invisible PrivateMounts=yes \
	    SystemCallFilter=@system-service 'SystemCallFilter=~@privileged @resources' \
	    SystemCallErrorNumber=EPERM DevicePolicy=closed IPAddressDeny=any \
	    UMask=0077; do
		grep -qx -- "$f" "$unit" || { echo "no $f in $unit" >&2; false; }
	done
	cat > verify.sh <<-EOS
	mount --bind "$root/usr/local" /usr/local || exit 3
	systemd-analyze verify /usr/local/lib/systemd/system/shmids-clean.service \
	    /usr/local/lib/systemd/system/shmids-clean.timer 2>&1
	echo "verify \$?"
	systemd-analyze security --offline=yes \
	    /usr/local/lib/systemd/system/shmids-clean.service 2>&1 | tail -n 1
	EOS
	run timeout 60 unshare -m bash verify.sh
	status_is 0
	is "${lines[0]}" "verify 0" "systemd-analyze verify"
	# Older systemd (before 250) has no offline security report.
	[[ ${lines[1]} == *"Overall exposure level"* ]] ||
	    skip "systemd-analyze security --offline missing: ${lines[1]}"
	exposure=$(sed -n 's/.*: \([0-9]*\.[0-9]\).*/\1/p' <<< "${lines[1]}")
	[ "${exposure%.*}${exposure#*.}" -le 20 ] ||
	    { echo "exposure $exposure, over 2.0" >&2; false; }
}

@test "7: install: a /usr/local with no dist-packages yet: the module goes where Debian's python3 will look once it exists" {
	[ -x /usr/bin/python3 ] || skip "no /usr/bin/python3"
	[ "$(id -u)" = 0 ] || skip "a private /usr/local needs root"
	local want
	want=$(/usr/bin/python3 -c 'import site
print([p for p in site.getsitepackages() if p.startswith("/usr/local/lib/python3")][0])' 2>/dev/null) ||
	    skip "/usr/bin/python3 looks in no /usr/local/lib/python3*"
	run unshare -m sh -c 'mount -t tmpfs tmpfs /usr/local &&
	    ls -A /usr/local && /usr/bin/python3 "$1" /usr/local' sh \
	    "$TOP/python/pydir.py"
	[ "$status" != 1 ] || skip "no private mount namespace: $output"
	status_is 0
	is "$output" "$want" "module directory"
}

@test "7: install: PYTHON=/usr/bin/python3 PREFIX=/usr/local puts the module where that python looks (Debian: dist-packages), and says so" {
	[ -x /usr/bin/python3 ] || skip "no /usr/bin/python3"
	local root=$T/root want
	want=$(/usr/bin/python3 -c 'import sys
print([p for p in sys.path if p.startswith("/usr/local/lib/python3")][0])' 2>/dev/null) ||
	    skip "/usr/bin/python3 looks in no /usr/local/lib/python3*"
	run --separate-stderr make -s --no-print-directory -C "$TOP" \
	    B="${SHMIDS_BUILD:-build}" LDCONFIG=true PYTHON=/usr/bin/python3 \
	    install DESTDIR="$root" PREFIX=/usr/local
	status_is 0
	grep -Fqx "install: the Python module is for /usr/bin/python3 (Python $(/usr/bin/python3 -c 'import platform; print(platform.python_version())'))" <<< "$output" ||
	    { echo "no interpreter line in: $output" >&2; false; }
	grep -Fqx "install: the Python module shmids: $want/shmids" <<< "$output" ||
	    { echo "not $want in: $output" >&2; false; }
	[ -f "$root$want/shmids/__init__.py" ]
	[ -f "$root/usr/local/share/man/man3/shmids-python.3" ]
	run --separate-stderr make -s --no-print-directory -C "$TOP" \
	    B="${SHMIDS_BUILD:-build}" LDCONFIG=true PYTHON=/usr/bin/python3 \
	    uninstall DESTDIR="$root" PREFIX=/usr/local
	status_is 0
	[ ! -e "$root$want/shmids" ]
}
