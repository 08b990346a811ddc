#!/usr/bin/env bats
# The Python module installed as users install software (issue 42): pip
# into a virtual environment, offline, with the system's setuptools
# (python/pyproject.toml); python3 -m build's sdist and wheel; the
# installed module finding an installed libshmids by itself; make
# install's copy of the package.  Nothing outside $T is written: the
# library is staged with DESTDIR, pip's cache and configuration are
# off.  Each test skips, saying why, where a tool is missing.

load helper
load python

README=$TOP/README.md

# need_pip: PY, the python3 that makes virtual environments (Debian's
# /usr/bin/python3, with python3-venv, python3-setuptools,
# python3-wheel (pip's offline build makes the wheel with it) and
# python3-pip; SHMIDS_PIP_PYTHON another), and a library it can load.
need_pip() {
	local py
	for py in ${SHMIDS_PIP_PYTHON:-} /usr/bin/python3 python3; do
		command -v "$py" > /dev/null 2>&1 &&
		    "$py" -c 'import venv, ensurepip, setuptools, wheel, pip' 2> /dev/null &&
		    { PY=$py; break; }
	done
	[ -n "${PY:-}" ] || skip "no python3 with venv, setuptools, wheel and pip (Debian: python3-venv python3-setuptools python3-wheel python3-pip)"
	need_lib
	export PIP_CONFIG_FILE=/dev/null PIP_NO_CACHE_DIR=1 \
	    PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONNOUSERSITE=1
	unset PYTHONPATH SHMIDS_LIB LD_LIBRARY_PATH
}

# version: SHMIDS_VERSION of lib/shmids.h.
version() {
	sed -n 's/^#define[[:space:]]*SHMIDS_VERSION[[:space:]]*"\(.*\)".*/\1/p' \
	    "$TOP/lib/shmids.h"
}

# src: $T/src, the tree's python/ and lib/shmids.h as a user has them
# after a clone (no build output), so that pip builds there and the
# tree is left as it was.
src() {
	mkdir -p "$T/src/lib"
	cp "$TOP/lib/shmids.h" "$T/src/lib/"
	tar -C "$TOP" --exclude=__pycache__ --exclude=build --exclude=dist \
	    --exclude='*.egg-info' --exclude=_version.py -cf - python |
	    tar -C "$T/src" -xf -
}

# venv: $T/venv, with the system's packages (setuptools, pip, numpy),
# and the module pip installed from ./python into it.
venv() {
	src
	"$PY" -m venv --system-site-packages --without-pip "$T/venv"
	(cd "$T/src" && "$T/venv/bin/python" -m pip install -q \
	    --no-build-isolation --no-index ./python)
}

# staged: make install DESTDIR=$T/stage, and pkg-config told of it as
# a cross build is (its libdir inside the stage).
staged() {
	make -s --no-print-directory -C "$TOP" B="${SHMIDS_BUILD:-build}" \
	    LDCONFIG=true PYTHON="$PY" install DESTDIR="$T/stage" \
	    PREFIX=/usr/local > "$T/install.log" 2>&1 ||
	    { cat "$T/install.log" >&2; return 1; }
	command -v pkg-config > /dev/null || skip "no pkg-config (Debian: pkg-config)"
	export PKG_CONFIG_PATH=$T/stage/usr/local/lib/pkgconfig \
	    PKG_CONFIG_SYSROOT_DIR=$T/stage
	unset PKG_CONFIG_LIBDIR
}

@test "9: pip: pip install ./python into a virtual environment, offline; imported outside the tree, its version is SHMIDS_VERSION" {
	need_pip
	venv
	local v site
	v=$(version)
	run "$T/venv/bin/python" -m pip show shmids
	status_is 0
	grep -Fqx "Version: $v" <<< "$output" || { echo "pip show: $output" >&2; false; }
	site=$("$T/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
	mkdir elsewhere
	cd elsewhere
	run env SHMIDS_LIB="$LIB" P="$P" "$T/venv/bin/python" -c '
import array, os, shmids
l = shmids.create(os.environ["P"] + "pip", array.array("d", [1.5, 2.5]))
print(shmids.__version__, shmids.__file__, list(shmids.attach(l)))
shmids.remove(l)'
	status_is 0
	is "$output" "$v $site/shmids/__init__.py [1.5, 2.5]"
	# the package alone: no pydir.py, no tests
	is "$(cd "$site" && ls -d shmids* pydir* 2> /dev/null | tr '\n' ' ')" "shmids shmids-$v.dist-info " "installed"
	"$T/venv/bin/python" -m pip uninstall -q -y shmids
	[ ! -e "$site/shmids" ]
}

@test "9: pip: the README's Python example runs with pip's module against a staged make install: no SHMIDS_LIB, no LD_LIBRARY_PATH" {
	need_pip
	"$PY" -c 'import numpy' 2> /dev/null ||
	    skip "$PY has no numpy, which the README's example needs (Debian: python3-numpy)"
	staged
	venv
	mkdir -p run/examples
	cp "$TOP/examples/data.txt" run/examples/
	readme_block "python:" > block.sh
	[ -s block.sh ] || { echo "README.md: no python block" >&2; false; }
	cd run
	run "$T/venv/bin/python" -c 'import shmids; print(shmids._locate._library_path())'
	status_is 0
	is "$output" "$T/stage/usr/local/lib/libshmids.so.1" "the library found"
	PATH=$T/venv/bin:$BIN:$PATH run --separate-stderr bash -e ../block.sh
	track $(awk '$2 == "shmids" { print $3 }' data.shm)
	status_is 0
	like "$output" "coeff: 100 values, float64, sum *" "README example"
	gone "$(label_of data.shm)"
}

@test "9: pip: the installed module takes a library bundled beside it first, and says what to do when it finds none" {
	need_pip
	venv
	local site
	site=$("$T/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
	# nothing: no pkg-config file, and the system has none
	if "$PY" -c 'import ctypes; ctypes.CDLL("libshmids.so.1")' 2> /dev/null; then
		skip "the system's loader finds a libshmids.so.1: the module would load it"
	fi
	mkdir empty
	PKG_CONFIG_PATH=$T/empty PKG_CONFIG_LIBDIR=$T/empty \
	    run --separate-stderr "$T/venv/bin/python" -c 'import shmids'
	status_is 1
	is "${stderr##*$'\n'}" "ImportError: shmids: libshmids.so.1 not found (not beside the module, not in pkg-config's libdir of shmids, not where the system keeps libraries): install libshmids (make install in shmids's source tree, or Debian's package libshmids1), or set SHMIDS_LIB to the library's path"
	SHMIDS_LIB=$T/nosuch.so run --separate-stderr "$T/venv/bin/python" -c 'import shmids'
	status_is 1
	is "${stderr##*$'\n'}" "ImportError: shmids: SHMIDS_LIB=$T/nosuch.so: $T/nosuch.so: cannot open shared object file: No such file or directory: set SHMIDS_LIB to libshmids.so's path, or unset it"
	# bundled: found before pkg-config and the system, and used
	cp -L "$LIB" "$site/shmids/libshmids.so.1"
	PKG_CONFIG_PATH=$T/empty PKG_CONFIG_LIBDIR=$T/empty P=$P \
	    run "$T/venv/bin/python" -c '
import array, os, shmids
l = shmids.create(os.environ["P"] + "b", array.array("i", [7]))
print(shmids._locate._library_path(), list(shmids.attach(l)))
shmids.remove(l)'
	status_is 0
	is "$output" "$site/shmids/libshmids.so.1 [7]"
}

@test "9: pip: python3 -m build makes an sdist and a wheel offline, of SHMIDS_VERSION; pip installs the sdist by itself" {
	need_pip
	"$PY" -m build --version > /dev/null 2>&1 ||
	    skip "no $PY -m build (Debian: python3-build)"
	local v
	v=$(version)
	src
	run "$PY" -m build --no-isolation --outdir "$T/dist" "$T/src/python"
	status_is 0
	is "$(cd "$T/dist" && ls | tr '\n' ' ')" "shmids-$v-py3-none-any.whl shmids-$v.tar.gz " "built"
	run "$PY" -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
print(sorted(n for n in z.namelist() if n.startswith("shmids/")))
print(z.read("shmids/_version.py").decode().splitlines()[-1])' "$T/dist/shmids-$v-py3-none-any.whl"
	status_is 0
	is "${lines[1]}" "version = '$v'" "the wheel's version"
	like "${lines[0]}" "*'shmids/__init__.py'*'shmids/_locate.py'*" "the wheel's modules"
	# the sdist has no lib/ beside it: its _version.py is the version
	"$PY" -m venv --system-site-packages --without-pip "$T/venv"
	run "$T/venv/bin/python" -m pip install -q --no-build-isolation \
	    --no-index "$T/dist/shmids-$v.tar.gz"
	status_is 0
	run env SHMIDS_LIB="$LIB" "$T/venv/bin/python" -c 'import shmids; print(shmids.__version__)'
	status_is 0
	is "$output" "$v" "installed from the sdist"
}

@test "7: install: make install puts the package in place of a 1.6 shmids.py; uninstall removes both, and nothing it did not install" {
	need_pip
	local d=$T/p/py
	mkdir -p "$d/__pycache__"
	echo '# shmids 1.6' > "$d/shmids.py"
	: > "$d/__pycache__/shmids.cpython-311.pyc"
	run --separate-stderr make -s --no-print-directory -C "$TOP" \
	    B="${SHMIDS_BUILD:-build}" LDCONFIG=true PYTHON="$PY" PYDIR="$d" \
	    install PREFIX="$T/p"
	status_is 0
	grep -Fqx "install: the Python module shmids: $d/shmids" <<< "$output" ||
	    { echo "no module line in: $output" >&2; false; }
	[ ! -e "$d/shmids.py" ] && [ ! -e "$d/__pycache__/shmids.cpython-311.pyc" ]
	run env PYTHONPATH="$d" "$PY" -c 'import shmids; print(shmids.__version__, shmids._locate._library_path())'
	status_is 0
	is "$output" "$(version) $T/p/lib/libshmids.so.1" "installed"
	echo '# shmids 1.6' > "$d/shmids.py"
	echo mine > "$d/shmids/notes.txt"
	run --separate-stderr make -s --no-print-directory -C "$TOP" \
	    B="${SHMIDS_BUILD:-build}" LDCONFIG=true PYTHON="$PY" PYDIR="$d" \
	    uninstall PREFIX="$T/p"
	status_is 0
	is "$(cd "$T/p" && find . ! -type d | sort)" "./py/shmids/notes.txt" "left after uninstall"
}
