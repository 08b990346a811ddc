#!/usr/bin/env bats
# One version, SHMIDS_VERSION of lib/shmids.h: the tools' --version, the
# library's file name, shmids.pc, the Python module's __version__, R's
# DESCRIPTION, debian/changelog and the CMake package's version say it
# (issue 42.5).  --help and --version in every tool (format-spec.md
# section 7).

load helper

TOP=$BATS_TEST_DIRNAME/..
TOOLS_LIST="shm-ls shm-expand shm-import shm-rm"

# The header's macros, as a compiler sees them: "VERSION MAJOR.MINOR.PATCH".
macros() {
	printf '%s\n' '#include "shmids.h"' '#include <stdio.h>' \
	    'int main(void) { printf("%s %d.%d.%d\n", SHMIDS_VERSION,' \
	    '    SHMIDS_VERSION_MAJOR, SHMIDS_VERSION_MINOR,' \
	    '    SHMIDS_VERSION_PATCH); return 0; }' > v.c
	cc -I"$TOP/lib" -o v v.c && ./v
}

@test "9: version: SHMIDS_VERSION is major.minor.patch, the numbers' macros agree" {
	local m
	m=$(macros)
	like "${m% *}" "[0-9]*.[0-9]*.[0-9]*" "SHMIDS_VERSION"
	is "${m#* }" "${m% *}" "MAJOR.MINOR.PATCH"
}

# opt_of TOOL: an option of TOOL that does nothing by itself.
opt_of() {
	case $1 in
	shm-ls) echo -a ;;
	shm-rm) echo -n ;;
	shm-import) echo -k5 ;;
	shm-expand) echo -d ;;
	esac
}

@test "9: version: each tool's --version says 'tool (shmids) SHMIDS_VERSION', exit 0" {
	local v t fails=
	v=$(macros)
	v=${v% *}
	for t in $TOOLS_LIST; do
		run --separate-stderr "$BIN/$t" --version
		[ "$status" = 0 ] || fails+="[$t: exit $status] "
		[ "$output" = "$t (shmids) $v" ] || fails+="[$t: stdout $output] "
		[ -z "$stderr" ] || fails+="[$t: stderr $stderr] "
		# after other options, and before an operand, too
		run --separate-stderr "$BIN/$t" $(opt_of "$t") --version x
		[ "$status" = 0 ] && [ "$output" = "$t (shmids) $v" ] ||
		    fails+="[$t --version: exit $status: $output] "
	done
	is "$fails" "" "failures"
}

@test "9: version: each tool's --help is -h: usage on stdout, exit 0" {
	local t h fails=
	for t in $TOOLS_LIST; do
		h=$("$BIN/$t" -h)
		run --separate-stderr "$BIN/$t" --help
		[ "$status" = 0 ] || fails+="[$t: exit $status] "
		[ "$output" = "$h" ] || fails+="[$t: stdout $output] "
		[ -z "$stderr" ] || fails+="[$t: stderr $stderr] "
		like "$h" "usage: $t *" "$t -h"
	done
	is "$fails" "" "failures"
}

@test "9: version: --help, -h and --version to a full disk: a message, exit 1" {
	[ -w /dev/full ] || skip "no /dev/full"
	local t o fails=
	for t in $TOOLS_LIST; do
		for o in --help -h --version; do
			run --separate-stderr sh -c '"$0" "$1" > /dev/full' \
			    "$BIN/$t" "$o"
			[ "$status" = 1 ] || fails+="[$t $o: exit $status] "
			[ "$stderr" = "$t: stdout: No space left on device" ] ||
			    fails+="[$t $o: stderr $stderr] "
		done
	done
	is "$fails" "" "failures"
}

@test "9: version: --help as an option's argument or after -- is no option" {
	# -f took it for a field, which the (empty) input lacks
	run --separate-stderr shm_expand -f --help < /dev/null
	status_is 1
	is "$output" ""
	is "$stderr" "shm-expand: -f --help: no such field in the input"
	run --separate-stderr shm_expand -f x,y -c--help < /dev/null
	status_is 2
	is "${stderr%%$'\n'*}" \
	    "shm-expand: invalid width '--help' (expected 0 to 1000000 columns, 0 for no wrapping)"
	run --separate-stderr shm_expand -- --help
	status_is 1
	is "$output" ""
	is "$stderr" "shm-expand: --help: No such file or directory"
	run --separate-stderr shm_ls -N --version -p "not a label"
	status_is 1
	is "$output" ""
	is "$stderr" "shm-ls: not a label: not a label or id"
}

@test "9: version: the library's file name and, installed, pkg-config --modversion say SHMIDS_VERSION" {
	local v root=$T/root
	v=$(macros)
	v=${v% *}
	[ -f "$BIN/../libshmids.so.$v" ] || { echo "no libshmids.so.$v in $BIN/.." >&2; false; }
	is "$(readlink "$BIN/../libshmids.so.${v%%.*}")" "libshmids.so.$v" "soname link"
	command -v pkg-config > /dev/null || skip "pkg-config not installed"
	run --separate-stderr make -s -C "$TOP" B="${SHMIDS_BUILD:-build}" \
	    LDCONFIG=true install DESTDIR="$root" PREFIX=/usr/local
	status_is 0
	run --separate-stderr env PKG_CONFIG_PATH="$root/usr/local/lib/pkgconfig" \
	    pkg-config --modversion shmids
	status_is 0
	is "$output" "$v" "pkg-config --modversion"
	[ -f "$root/usr/local/lib/libshmids.so.$v" ] ||
	    { echo "installed no libshmids.so.$v" >&2; false; }
}

@test "9: version: the man pages' examples of it say SHMIDS_VERSION" {
	local v f fails=
	v=$(macros)
	v=${v% *}
	for f in "$TOP"/man/shm-*.1; do
		grep -q "(shmids) $v ,\$" "$f" || fails+="[$f] "
	done
	grep -q "^\.Qq $v ,\$" "$TOP/man/shmids.3" || fails+="[shmids.3] "
	grep -q "libshmids\.so\.$v ,\$" "$TOP/man/shmids.3" || fails+="[shmids.3 file name] "
	is "$fails" "" "pages without $v"
}

@test "9: version: the Python module's __version__ is SHMIDS_VERSION" {
	local v py
	v=$(macros)
	v=${v% *}
	py=$(python_with ctypes) || skip "no python3"
	# the source tree's answer (shmids/_locate.py alone: no library
	# loaded); tests/pip.bats checks pip's and make install's
	is "$("$py" -c 'import importlib.util, sys
s = importlib.util.spec_from_file_location("locate", sys.argv[1])
m = importlib.util.module_from_spec(s)
s.loader.exec_module(m)
print(m._project_version())' "$TOP/python/shmids/_locate.py")" "$v" "python/shmids"
	grep -q "^\.Qq $v \.\$" "$TOP/man/shmids-python.3" ||
	    { echo "shmids-python.3 does not say $v" >&2; false; }
}

# py_versions: "FILE VERSION" for each file of the Python module that
# states its version as a literal (__version__ = "...", or pyproject's
# version = "..."), wherever the module lives: python/shmids.py, or the
# package python/shmids/, or python/pyproject.toml.
py_versions() {
	local f
	for f in python/shmids.py python/shmids/__init__.py \
	    python/shmids/_version.py python/shmids/version.py \
	    python/pyproject.toml python/setup.cfg; do
		[ -f "$TOP/$f" ] || continue
		sed -n -E "s/^(__version__|version)[[:space:]]*=[[:space:]]*[\"']([^\"']*)[\"'].*/\2/p" \
		    "$TOP/$f" | head -n 1 | sed "s|^|$f |"
	done
}

@test "9: version: the Python module's __version__ is SHMIDS_VERSION, in every file that states it, and as imported" {
	local v py
	v=$(macros)
	v=${v% *}
	is "$(py_versions | awk -v v="$v" '$2 != v')" "" "files stating another version"
	grep -q "^\.Qq $v \.\$" "$TOP/man/shmids-python.3" ||
	    { echo "shmids-python.3 does not say $v" >&2; false; }
	# as the module says it, where a python3 can load this build's library
	py=$(command -v python3) || skip "no python3"
	! nm -D "$BIN/../libshmids.so" 2>/dev/null | grep -q __asan_init ||
	    skip "the library is built with AddressSanitizer: python cannot load it"
	run --separate-stderr env PYTHONPATH="$TOP/python" \
	    SHMIDS_LIB="$BIN/../libshmids.so" "$py" -c 'import shmids; print(shmids.__version__)'
	status_is 0
	is "$output" "$v" "shmids.__version__"
}

@test "9: version: R's DESCRIPTION says SHMIDS_VERSION" {
	local v
	v=$(macros)
	v=${v% *}
	is "$(sed -n 's/^Version:[[:space:]]*//p' "$TOP/r/DESCRIPTION")" "$v" \
	    "r/DESCRIPTION's Version"
}

# The packages' version is debian/changelog's latest entry: the project's
# own version (a native package), or it with a Debian revision (-N).
@test "9: version: debian/changelog's latest entry is SHMIDS_VERSION (a new release: a new entry on top)" {
	local v first
	v=$(macros)
	v=${v% *}
	first=$(sed -n 1p "$TOP/debian/changelog")
	like "$first" "shmids (*) *; urgency=*" "debian/changelog's first line"
	first=${first#*(}
	first=${first%%)*}
	is "${first%-[0-9]*}" "$v" "debian/changelog's version (dch -v $v adds the entry)"
}

@test "9: version: installed, the CMake package's version is SHMIDS_VERSION, met exactly" {
	local v root=$T/root f=$T/root/usr/local/lib/cmake/shmids/shmidsConfigVersion.cmake
	v=$(macros)
	v=${v% *}
	run --separate-stderr make -s -C "$TOP" B="${SHMIDS_BUILD:-build}" \
	    LDCONFIG=true PYTHON=false install DESTDIR="$root" PREFIX=/usr/local
	status_is 0
	[ -f "$f" ] || { echo "no $f" >&2; false; }
	command -v cmake > /dev/null || skip "no cmake (Debian: cmake)"
	printf '%s\n' "set(PACKAGE_FIND_VERSION $v)" \
	    "set(PACKAGE_FIND_VERSION_MAJOR ${v%%.*})" "include($f)" \
	    'message("${PACKAGE_VERSION} ${PACKAGE_VERSION_COMPATIBLE} ${PACKAGE_VERSION_EXACT}")' \
	    > "$T/v.cmake"
	run cmake -P "$T/v.cmake"
	status_is 0
	is "$output" "$v TRUE TRUE" "PACKAGE_VERSION COMPATIBLE EXACT"
}
