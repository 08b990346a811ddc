# tests/python.bash: loaded by the Python suites that came after
# python.bats (python-package, python-input, pip), after helper.bash.

TOP=$BATS_TEST_DIRNAME/..
LIB=$TOP/${SHMIDS_BUILD:-build}/libshmids.so

# need_lib: skip where python cannot load the library under test.
need_lib() {
	! nm -D "$LIB" 2>/dev/null | grep -q __asan_init ||
	    skip "$LIB is built with AddressSanitizer: python cannot load it"
}

# need_python [MODULE]: PY, a python3 (with MODULE, if named) that can
# load the library; skip, saying why, if there is none.
need_python() {
	PY=$(python_with "${1:-ctypes}") ||
	    skip "no python3${1:+ with $1} (Debian: python3${1:+-$1})"
	need_lib
}

# pyrun SCRIPT [ARGS...]: SCRIPT with the module of the source tree and
# the library under test; P and T in the environment.
pyrun() {
	P=$P T=$T SHMIDS_LIB=$LIB PYTHONPATH=$TOP/python \
	    timeout 60 "$PY" -c "$@"
}
