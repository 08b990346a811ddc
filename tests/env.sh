# tests/env.sh: the environment the suite runs in, sourced (POSIX sh) by
# tests/run and tests/helper.bash (a bats file run alone), whatever the
# user's profile exports (issue 40 item 13: the README's PKG_CONFIG_PATH
# and LD_LIBRARY_PATH, in ~/.profile, made make check fail).  Cleared:
# every variable that changes what a test builds or loads, or what a
# program under test reads from its environment:
#
#   pkg-config	PKG_CONFIG_*
#   compilers	LIBRARY_PATH, CPATH, C_INCLUDE_PATH, CPLUS_INCLUDE_PATH,
#		GCC_EXEC_PREFIX, COMPILER_PATH, DEPENDENCIES_OUTPUT,
#		SUNPRO_DEPENDENCIES
#   the loader	LD_* (LD_LIBRARY_PATH, LD_PRELOAD, LD_AUDIT, LD_DEBUG,
#		LD_TRACE_LOADED_OBJECTS, ...), GLIBC_TUNABLES, MALLOC_*
#   Python	PYTHON* (PYTHONPATH, PYTHONHOME, PYTHONWARNINGS, ...)
#   R		R_LIBS, R_LIBS_SITE, R_HOME, R_PROFILE, R_ENVIRON,
#		R_DEFAULT_PACKAGES; and the user's files R reads
#		(~/.Renviron, ~/.Rprofile, ~/.R/Makevars, the user library)
#		turned off by R_*_USER=/dev/null
#   Fortran	GFORTRAN_* (GFORTRAN_CONVERT_UNIT changes byte order)
#   shmids	SHMIDS_* but the suite's own controls, below
#   getopt	POSIXLY_CORRECT (options after operands)
#
# Kept: what the user chose for the build itself and that make check
# passed on (CC, CFLAGS, LDFLAGS, MAKEFLAGS: check-asan sets them), the
# sanitizers' options, PATH, HOME, TMPDIR, TZ and the locale (the suite
# passes under any: tests/trust.bats, tests/unit/locale_test.c), and the
# suite's controls: SHMIDS_BUILD, SHMIDS_SUITES, SHMIDS_UNITS,
# SHMIDS_VALGRIND, SHMIDS_FUZZ_SECONDS, SHMIDS_TEST_UID, SHMIDS_TEST_IPC,
# SHMIDS_PYTHON, SHMIDS_BIN, SHMIDS_TOOLS.

for _v in $(awk 'BEGIN { for (k in ENVIRON) print k }' < /dev/null); do
	case $_v in
	*[!A-Za-z0-9_]*) continue ;;
	SHMIDS_BUILD|SHMIDS_SUITES|SHMIDS_UNITS|SHMIDS_VALGRIND) ;;
	SHMIDS_FUZZ_SECONDS|SHMIDS_TEST_UID|SHMIDS_TEST_IPC) ;;
	SHMIDS_PYTHON|SHMIDS_BIN|SHMIDS_TOOLS) ;;
	PKG_CONFIG_*|LD_*|MALLOC_*|PYTHON*|GFORTRAN_*|SHMIDS_*) unset "$_v" ;;
	LIBRARY_PATH|CPATH|C_INCLUDE_PATH|CPLUS_INCLUDE_PATH) unset "$_v" ;;
	GCC_EXEC_PREFIX|COMPILER_PATH|DEPENDENCIES_OUTPUT) unset "$_v" ;;
	SUNPRO_DEPENDENCIES|GLIBC_TUNABLES|POSIXLY_CORRECT) unset "$_v" ;;
	R_LIBS|R_LIBS_SITE|R_HOME|R_PROFILE|R_ENVIRON) unset "$_v" ;;
	R_DEFAULT_PACKAGES) unset "$_v" ;;
	esac
done
unset _v
R_LIBS_USER=/dev/null R_ENVIRON_USER=/dev/null R_PROFILE_USER=/dev/null
R_MAKEVARS_USER=/dev/null
export R_LIBS_USER R_ENVIRON_USER R_PROFILE_USER R_MAKEVARS_USER

# free_uid: the first base of ten uids (54321, 55321, ...) that neither
# the password nor the group database knows: the suite's second user
# and a few above it (tests/helper.bash), which have no account.
free_uid() {
	for _u in 54321 55321 56321 57321 58321 59321 61321 62321 63321; do
		_i=0
		while [ "$_i" -le 9 ]; do
			if getent passwd $((_u + _i)) > /dev/null ||
			    getent group $((_u + _i)) > /dev/null; then
				continue 2
			fi
			_i=$((_i + 1))
		done
		echo "$_u"
		return 0
	done
	echo 54321
}
