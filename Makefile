# shmids: see README.md.  POSIX make plus GNU make's wildcard/pattern rules.

PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
LIBDIR	?= $(PREFIX)/lib
INCDIR	?= $(PREFIX)/include
MANPREFIX ?= $(PREFIX)/share/man
PKGDIR	?= $(LIBDIR)/pkgconfig
# make install-systemd: systemd reads /usr/local/lib/systemd/system and
# /usr/lib/systemd/system; for another PREFIX, SYSTEMDDIR=/etc/systemd/system.
SYSTEMDDIR ?= $(PREFIX)/lib/systemd/system
# Files that do nothing until an administrator uses them (the
# tmpfiles.d line that sets shmem_enabled: shmids(5) HUGE PAGES).
DATADIR	?= $(PREFIX)/share/shmids
# Where systemd looks for system units (systemd.unit(5), without
# systemctl): units elsewhere are never loaded.
UNITDIRS = /etc/systemd/system /run/systemd/system \
	   /usr/local/lib/systemd/system /usr/lib/systemd/system \
	   /lib/systemd/system
# The Python module goes where $(PYTHON) puts a PREFIX's pure modules
# (pip install --prefix does the same): $HOME/.local gives the user's
# site directory; where $(PYTHON) looks in PREFIX's dist-packages
# instead (Debian's /usr/bin/python3 with PREFIX=/usr/local), there
# (python/pydir.py); empty where there is no $(PYTHON).
PYTHON	?= python3
PYDIR	?= $(shell $(PYTHON) python/pydir.py "$(PREFIX)" 2>/dev/null)
# The R package (r/): make install-r puts it in R's site library (RLIB
# another library), built against the libshmids that make install put
# in PREFIX (pkg-config shmids).
R	?= R
RLIB	?=

# One version, the header's SHMIDS_VERSION: the tools' --version print it.
VERSION	:= $(shell sed -n 's/^.define SHMIDS_VERSION[[:space:]]*"\([^"]*\)".*/\1/p' lib/shmids.h)
ifeq ($(VERSION),)
$(error no SHMIDS_VERSION in lib/shmids.h)
endif
SOMAJOR	= $(firstword $(subst ., ,$(VERSION)))

CC	?= cc
CFLAGS	?= -O2 -g
WFLAGS	= -std=c99 -pedantic -Wall -Wextra -Wshadow -Wstrict-prototypes \
	  -Wmissing-prototypes -Wpointer-arith -Wcast-qual -Wwrite-strings
CPPFLAGS += -D_XOPEN_SOURCE=700 -Ilib
ALL_CFLAGS = $(WFLAGS) $(CFLAGS) -pthread -fPIC -fvisibility=hidden

B	= build
# The library's layers, lib/seg/, lib/stream/ and lib/text/, and what
# they all use in lib/ itself (lib/README).
LIBSRC	= $(wildcard lib/*.c lib/seg/*.c lib/stream/*.c lib/text/*.c)
LIBHDR	= $(wildcard lib/*.h lib/seg/*.h lib/stream/*.h lib/text/*.h)
LIBOBJ	= $(LIBSRC:lib/%.c=$(B)/lib/%.o)
CMDS	= shm-ls shm-expand shm-rm shm-import
BINS	= $(CMDS:%=$(B)/bin/%)
EXSRC	= $(wildcard examples/*.c)
EXBINS	= $(EXSRC:examples/%.c=$(B)/examples/%)
UNITSRC	= $(wildcard tests/unit/*.c)
UNITS	= $(UNITSRC:tests/unit/%.c=$(B)/tests/unit/%)
TTOOLSRC = $(wildcard tests/tools/*.c)
TTOOLS	= $(TTOOLSRC:tests/tools/%.c=$(B)/tests/tools/%)
PRELOADSRC = $(wildcard tests/preload/*.c)
PRELOADS = $(PRELOADSRC:tests/preload/%.c=$(B)/tests/preload/%.so)
BENCHSRC = $(wildcard bench/*.c)
BENCHES	= $(BENCHSRC:bench/%.c=$(B)/bench/%)
# A program of several files is a directory of them: bench/table1/*.c
# make $(B)/bench/table1.
PROGDIRS = $(sort $(patsubst %/,%,$(dir $(wildcard bench/*/*.c tests/tools/*/*.c))))
PROGS	= $(PROGDIRS:%=$(B)/%)
MAN1	= $(wildcard man/*.1)
MAN3	= $(wildcard man/*.3)
MAN5	= $(wildcard man/*.5)
HDRS	= lib/shmids.h lib/shmids_paper.h

all: $(B)/libshmids.a $(B)/libshmids.so $(BINS) $(EXBINS) fortran-maybe

$(B)/lib/%.o: lib/%.c $(LIBHDR)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(B)/libshmids.a: $(LIBOBJ)
	rm -f $@
	$(AR) rcs $@ $(LIBOBJ)

$(B)/libshmids.so: $(LIBOBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -shared -Wl,-soname,libshmids.so.$(SOMAJOR) \
	    -o $(B)/libshmids.so.$(VERSION) $(LIBOBJ)
	ln -sf libshmids.so.$(VERSION) $(B)/libshmids.so.$(SOMAJOR)
	ln -sf libshmids.so.$(VERSION) $@

# The tools are clients of the shared library, like any program: built
# from cmd/ with shmids.h alone (tests/install.bats checks that), linked
# with -lshmids.  In the build tree an rpath relative to the tool itself
# ($ORIGIN/.. is $(B)) finds $(B)/libshmids.so.1 without
# LD_LIBRARY_PATH; make install links them again for $(LIBDIR).
# Examples, tests and benchmarks link the static library, as they may
# reach inside it.
# The objects' link flags are kept in $(B)/cmd/ldflags, so that make
# install links them as they were built (a sanitizer build's need
# -fsanitize) whatever flags it is given itself.
# A tool is cmd/NAME.c, or a folder of its own, cmd/DIR/ (NAME_DIR),
# all of whose files it is: shm-import's reading, notes and sink
# (cmd/import/).  Each tool links the helpers of cmd/ it uses, and no
# other (a helper is a .c and its .h; one group of functions a file):
#	opts	options, usage errors, option arguments
#	msg	what the tools say; the final check of stdout
#	operand	segments named as operands, what a stat or scan says
#	user	users as -u takes them, names from the databases
#	filter	shm-expand's and shm-import's: file operands, -f, labels
#	fmt	the listings' formats; lscol: shm-ls's columns; lsstream:
#		its streams
#	streams	the streams a filter reads messages of, kept open
#	syscheck, magic, lines, par: see each .h
shm-ls_USES	= opts msg operand user fmt lscol lsstream syscheck
shm-rm_USES	= opts msg operand user fmt
shm-expand_USES	= opts msg filter magic streams
shm-import_USES	= opts msg filter magic lines syscheck
shm-import_DIR	= import
CMDDIROBJ = $(patsubst %.c,$(B)/%.o,$(wildcard cmd/$($(1)_DIR)/*.c))
CMDOBJ	= $(sort $(foreach c,$(CMDS),$($(c)_USES:%=$(B)/cmd/%.o) \
	    $(if $($(c)_DIR),$(call CMDDIROBJ,$(c)),$(B)/cmd/$(c).o)))
CMDLINK	= $(CC) $$(cat $(B)/cmd/ldflags) -o $@ $(filter %.o,$^) -L$(B) -lshmids
# The objects of tool $*, its own and its helpers', in a rule's second
# expansion.
CMDMAIN	= $(if $($*_DIR),$(call CMDDIROBJ,$*),$(B)/cmd/$*.o)
CMDUSES	= $(patsubst %,$(B)/cmd/%.o,$($*_USES))
$(B)/cmd/%.o: cmd/%.c cmd/*.h $(wildcard cmd/*/*.h) lib/shmids.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Icmd $(WFLAGS) $(CFLAGS) -c -o $@ $<
	@echo '$(WFLAGS) $(CFLAGS) $(LDFLAGS)' > $(B)/cmd/ldflags
.SECONDEXPANSION:
$(B)/bin/%: $$(CMDMAIN) $$(CMDUSES) $(B)/libshmids.so
	@mkdir -p $(@D)
	$(CMDLINK) -Wl,-rpath,'$$ORIGIN/..'

# Installed tools use the installed library: their rpath is $(LIBDIR),
# unless that is a directory the loader searches anyway (an rpath to
# /usr/lib is against Debian's policy and useless), or INSTALL_RPATH= is
# given (a package whose LIBDIR the loader knows).
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
SYSLIBDIRS = /lib /lib64 /usr/lib /usr/lib64 \
	     $(if $(MULTIARCH),/lib/$(MULTIARCH) /usr/lib/$(MULTIARCH))
INSTALL_RPATH ?= $(if $(filter $(SYSLIBDIRS),$(LIBDIR)),,$(LIBDIR))
$(B)/inst/%: $$(CMDMAIN) $$(CMDUSES) $(B)/libshmids.so FORCE
	@mkdir -p $(@D)
	$(CMDLINK) $(if $(INSTALL_RPATH),-Wl$(comma)-rpath$(comma)$(INSTALL_RPATH))
comma	:= ,
FORCE:
.SECONDARY: $(CMDOBJ)

$(EXBINS): $(B)/examples/%: examples/%.c $(B)/libshmids.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(WFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libshmids.a -lm -pthread
$(UNITS): $(B)/tests/unit/%: tests/unit/%.c tests/unit/tap.h $(B)/libshmids.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(WFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libshmids.a -lm -pthread
$(TTOOLS): $(B)/tests/tools/%: tests/tools/%.c $(B)/libshmids.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(WFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libshmids.a -lm -pthread
# Shims for LD_PRELOAD, without sanitizers: they must load in any build.
$(PRELOADS): $(B)/tests/preload/%.so: tests/preload/%.c
	@mkdir -p $(@D)
	$(CC) $(WFLAGS) -O2 -fPIC -shared -o $@ $< -ldl -pthread
$(BENCHES): $(B)/bench/%: bench/%.c $(wildcard bench/*.h) $(B)/libshmids.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(WFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libshmids.a -lm -pthread
# Each depends on every file of its directory.
$(foreach d,$(PROGDIRS),$(eval $(B)/$(d): $(wildcard $(d)/*.c $(d)/*.h)))
$(PROGS): $(B)/%: $(B)/libshmids.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(WFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(wildcard $*/*.c) $(B)/libshmids.a -lm -pthread

# The Fortran module (fortran/, README.md "Fortran"): built where
# $(FC) is, else $(B)/fortran/skip says why and the Fortran tests skip.
# libshmids-fortran.a holds the module's object and its C helper; a
# program links it before -lshmids (shmids-fortran.pc).  A .mod file is
# tied to its compiler's module version: it goes to
# $(LIBDIR)/fortran/gfortran-mod-N (N read from the .mod, as Debian's
# netcdf-fortran and HDF5 do), the source to $(FSRCDIR) for other
# compilers.
ifeq ($(origin FC),default)
FC	= gfortran
endif
FFLAGS	?= -O2 -g
FWFLAGS	= -std=f2018 -Wall -Wextra -pedantic
FDIR	= $(B)/fortran
# Programs: the examples, and the tests' tools.
FEXSRC	= $(wildcard examples/*.f90 tests/tools/*.f90 bench/*/*.f90)
FEXBINS	= $(FEXSRC:%.f90=$(FDIR)/%)
FSRCDIR	?= $(PREFIX)/share/shmids/fortran
FMODVER	= $$(gzip -dc $(FDIR)/shmids.mod 2>/dev/null | sed -n '1s/^GFORTRAN module version .\([0-9]*\).*/\1/p')
FMODDIR	?= $(LIBDIR)/fortran/gfortran-mod-$(FMODVER)

$(FDIR)/shmids.o $(FDIR)/shmids.mod: fortran/shmids.f90
	@mkdir -p $(FDIR)
	$(FC) $(FWFLAGS) $(FFLAGS) -fPIC -J$(FDIR) -c -o $(FDIR)/shmids.o fortran/shmids.f90
$(FDIR)/errno.o: fortran/errno.c lib/shmids.h
	@mkdir -p $(FDIR)
	$(CC) $(CPPFLAGS) $(WFLAGS) $(CFLAGS) -fPIC -c -o $@ fortran/errno.c
$(B)/libshmids-fortran.a: $(FDIR)/shmids.o $(FDIR)/errno.o
	rm -f $@
	$(AR) rcs $@ $(FDIR)/shmids.o $(FDIR)/errno.o
$(FEXBINS): $(FDIR)/%: %.f90 $(B)/libshmids-fortran.a $(B)/libshmids.a
	@mkdir -p $(@D)
	$(FC) $(FWFLAGS) $(FFLAGS) $(LDFLAGS) -I$(FDIR) -J$(@D) -o $@ $< \
	    $(B)/libshmids-fortran.a $(B)/libshmids.a -lm -pthread
fortran: $(B)/libshmids-fortran.a $(FEXBINS)

fortran-maybe: $(B)/libshmids.a
	@mkdir -p $(FDIR); rm -f $(FDIR)/skip; \
	if ! command -v $(FC) >/dev/null 2>&1; then \
		echo "no Fortran compiler $(FC) (Debian: gfortran)" > $(FDIR)/skip; \
		echo "fortran: skipped: no $(FC) (Debian: gfortran)"; \
	else \
		$(MAKE) -s fortran || exit 1; \
	fi

# man NAME finds the page documenting NAME: every .Nm of a section-3
# page's NAME section, other than the page's own name, is installed as
# a relative symlink to the page (one page, one file; Debian's packaging
# turns .so stubs into symlinks anyway).  Read from the pages, so a new
# function's .Nm line is all it takes.  Prints "page link" lines.
MANLINKS = for p in $(MAN3:man/%=%); do \
		sed -n '/^\.Sh NAME/,/^\.Sh /s/^\.Nm \([^ ]*\).*/\1.3/p' man/$$p | \
		    sed "/^$$p$$/d; s/^/$$p /"; \
	    done

# Made again on every install: PREFIX may differ from the last build's.
PCSED	= sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCDIR@|$(INCDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	    -e "s|@FMODDIR@|$(FMODDIR)|" -e 's|@FSRCDIR@|$(FSRCDIR)|'

# find_package(shmids CONFIG) finds $(CMAKEDIR)/shmidsConfig.cmake
# (cmake/*.in: the targets shmids::shmids and shmids::fortran), which
# finds the rest from its own place; the version file refuses a program
# built for the other pointer size.
CMAKEDIR ?= $(LIBDIR)/cmake/shmids
CMAKEIN	= cmake/shmidsConfig.cmake.in cmake/shmidsConfigVersion.cmake.in
CMAKESED = $(PCSED) -e 's|@CMAKEDIR@|$(CMAKEDIR)|' -e 's|@SOMAJOR@|$(SOMAJOR)|' \
	    -e "s|@SIZEOF_VOID_P@|$$(echo __SIZEOF_POINTER__ | $(CC) -E -P - | tail -n 1)|"

# A program linked with -lshmids finds libshmids.so.1 at run time only
# once ldconfig has cached it, and only in the directories the loader
# searches: run ldconfig where we can (as root, installing for real; a
# package's own scripts do it for a DESTDIR), then say what to set if
# the loader or pkg-config still cannot find the library.  No rpath in
# shmids.pc: that would bake this PREFIX into every program, packaged
# ones too.  INSTALL.md, "make install", says the same.
# ldconfig caches only what the loader searches: the default directories
# and those of $(LDSOCONF) and the files it includes; for another LIBDIR
# running it does nothing but take time, and LDHINT says what to set.
LDCONFIG ?= ldconfig
LDSOCONF ?= /etc/ld.so.conf
LDDIRS	= { echo $(SYSLIBDIRS); \
	    for f in $(LDSOCONF) $$(sed -n 's/^[[:space:]]*include[[:space:]]//p' \
		$(LDSOCONF) 2>/dev/null); do \
		sed -e 's/\#.*//' -e '/^[[:space:]]*include[[:space:]]/d' \
		    "$$f" 2>/dev/null; \
	    done; } | tr ' \t,:=' '\n\n\n\n\n' | sed -n 's|/*$$||; /^\//p'
LDSYNC	= if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && \
	    command -v $(LDCONFIG) >/dev/null 2>&1 && \
	    $(LDDIRS) | grep -qxF "$(patsubst %/,%,$(LIBDIR))"; then \
		echo $(LDCONFIG); $(LDCONFIG) || exit 1; \
	fi
LDHINT	= if [ -n "$(DESTDIR)" ]; then \
		echo "install: staged in $(DESTDIR): run ldconfig once installed in $(LIBDIR)"; \
		exit 0; \
	fi; \
	case :$$LD_LIBRARY_PATH:$$($(LDCONFIG) -p 2>/dev/null | \
	    sed -n 's|.* => \(.*\)/libshmids\.so\.$(SOMAJOR)$$|\1|p' | tr '\n' :) in \
	*:$(LIBDIR):*) ;; \
	*) echo "install: the loader does not look in $(LIBDIR): run programs with LD_LIBRARY_PATH=$(LIBDIR), or link them with -Wl,-rpath,$(LIBDIR)" ;; \
	esac; \
	case :$$PKG_CONFIG_PATH:$$(pkg-config --variable pc_path pkg-config 2>/dev/null): in \
	*:$(PKGDIR):*) ;; \
	*) echo "install: pkg-config does not look in $(PKGDIR): set PKG_CONFIG_PATH=$(PKGDIR)" ;; \
	esac

# The Fortran module, where it was built (make says so where it was not).
FINSTALL = if [ -f $(FDIR)/skip ] || [ ! -f $(B)/libshmids-fortran.a ]; then \
		echo "install: the Fortran module not installed: $$(cat $(FDIR)/skip 2>/dev/null || echo not built)"; \
		exit 0; \
	fi; \
	mkdir -p $(DESTDIR)$(FMODDIR) $(DESTDIR)$(FSRCDIR) && \
	cp $(FDIR)/shmids.mod $(DESTDIR)$(FMODDIR)/ && \
	cp fortran/shmids.f90 fortran/errno.c $(DESTDIR)$(FSRCDIR)/ && \
	cp $(B)/libshmids-fortran.a $(DESTDIR)$(LIBDIR)/ && \
	$(PCSED) fortran/shmids-fortran.pc.in > $(DESTDIR)$(PKGDIR)/shmids-fortran.pc

# python/shmids/, the package, with the installed library's path written
# into _locate.py, so that it needs no LD_LIBRARY_PATH, and the version
# into _version.py; says where it went, and what to set if $(PYTHON)
# does not look there.  The module of 1.6 and before, one file, goes:
# the package would hide it.  (pip install ./python installs the same
# package, which finds the library by itself: python/pyproject.toml.)
# PYLIB is what is written in: a package whose library is in a directory
# the loader searches gives the bare SONAME (debian/rules).
PYLIB	?= $(LIBDIR)/libshmids.so.$(SOMAJOR)
PYMODS	= $(filter-out _version.py,$(notdir $(wildcard python/shmids/*.py)))
PYOLD	= rm -f $(DESTDIR)$(PYDIR)/shmids.py \
	    $(DESTDIR)$(PYDIR)/__pycache__/shmids.*.pyc
PYINSTALL = if [ -z "$(PYDIR)" ]; then \
		echo "install: no $(PYTHON): the Python module shmids not installed (set PYDIR)"; \
		exit 0; \
	fi; \
	mkdir -p $(DESTDIR)$(PYDIR)/shmids && $(PYOLD) || exit 1; \
	for m in $(PYMODS); do \
		cp python/shmids/$$m $(DESTDIR)$(PYDIR)/shmids/ || exit 1; \
	done; \
	sed "s|^_INSTALLED_LIB = None\$$|_INSTALLED_LIB = '$(PYLIB)'|" \
	    python/shmids/_locate.py > $(DESTDIR)$(PYDIR)/shmids/_locate.py || exit 1; \
	printf '\# SHMIDS_VERSION of lib/shmids.h, written by make install.\nversion = "%s"\n' \
	    '$(VERSION)' > $(DESTDIR)$(PYDIR)/shmids/_version.py || exit 1; \
	echo "install: the Python module is for $$(command -v $(PYTHON)) (Python $$($(PYTHON) -c 'import platform; print(platform.python_version())'))"; \
	echo "install: the Python module shmids: $(PYDIR)/shmids"; \
	$(PYTHON) -c 'import numpy' >/dev/null 2>&1 || \
	    echo "install: the Python module gives memoryviews, not arrays: $(PYTHON) has no numpy (install numpy for it, or name another interpreter: make install PYTHON=/path/to/python3)"; \
	[ -n "$(DESTDIR)" ] && exit 0; \
	if $(PYTHON) -c 'import sys; sys.exit(sys.argv[1] not in sys.path)' "$(PYDIR)"; then \
		echo "install: the Python module is where $(PYTHON) looks: nothing to set"; \
	else \
		echo "install: $(PYTHON) does not look in $(PYDIR): set PYTHONPATH=$(PYDIR)"; \
	fi

# What PYINSTALL wrote (and what Python compiled of it), and a 1.6
# module; directories only if empty.
PYUNINSTALL = [ -z "$(PYDIR)" ] && exit 0; \
	d=$(DESTDIR)$(PYDIR)/shmids; \
	for m in $(PYMODS:.py=) _version; do \
		rm -f $$d/$$m.py $$d/__pycache__/$$m.*.pyc || exit 1; \
	done; \
	rmdir $$d/__pycache__ $$d 2>/dev/null; \
	$(PYOLD)

demo: all
	sh examples/demo.sh
	B=$(B) sh examples/fortran-demo.sh

check: all $(UNITS) $(TTOOLS) $(PROGS) $(B)/bench/import_best $(PRELOADS) fuzz-maybe
	SHMIDS_BUILD=$(B) sh tests/run

# The suite again, built with AddressSanitizer and UBSan in build-asan/.
SANFLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all \
	   -fno-omit-frame-pointer
ASAN_B	= build-asan
check-asan:
	$(MAKE) B=$(ASAN_B) CFLAGS="-O1 -g $(SANFLAGS)" \
	    LDFLAGS="$(SANFLAGS)" SHMIDS_FUZZ_SECONDS=0 check

# The unit tests built by clang with UBSan, which aborts at its first
# report (as the fuzzers' builds do), and the fuzzers' smoke run, in
# build-ubsan/ (issue 32: NULL + 0 in span.c passed gcc's UBSan).
UBSANFLAGS = -fsanitize=undefined -fno-sanitize-recover=all \
	     -fno-omit-frame-pointer
UBSAN_B	= build-ubsan
check-ubsan:
	$(MAKE) B=$(UBSAN_B) CC=clang CFLAGS="-O1 -g $(UBSANFLAGS)" \
	    LDFLAGS="$(UBSANFLAGS)" SHMIDS_SUITES=none check

# The unit tests and the threads' and streams' suites built with
# ThreadSanitizer in build-tsan/ (the rest of the suite runs no threads
# of ours, nor shares memory between processes; slow).
TSAN_B	= build-tsan
check-tsan:
	$(MAKE) B=$(TSAN_B) CFLAGS="-O1 -g -fsanitize=thread" \
	    LDFLAGS="-fsanitize=thread" SHMIDS_FUZZ_SECONDS=0 \
	    SHMIDS_SUITES="threads-import threads-expand stream" check

# The concurrency cases of tests/tools/stress/, for a bounded time.
stress: all $(B)/tests/tools/stress
	$(B)/tests/tools/stress -t 30

# The suite again, every binary under valgrind (slow: minutes).
check-valgrind: all $(UNITS) $(TTOOLS) $(PROGS) $(PRELOADS)
	SHMIDS_BUILD=$(B) SHMIDS_VALGRIND=1 sh tests/run

lint:
	mandoc -Tlint -Wwarning $(MAN1) $(MAN3) $(MAN5)

bench: bench-build
	sh bench/run

# The bench's programs alone, for a run of bench/run by hand (sh
# bench/run -q, the smoke test) or of one of its programs.
bench-build: all $(BENCHES) $(PROGS) numcmp-maybe stream-iox-maybe

# The stream bench alone (issue 43; bench/stream/README).
bench-stream: all $(B)/bench/stream stream-iox-maybe
	sh bench/stream/run

# $(B)/bench/stream, every contender of bench/stream/ but iceoryx, is one
# of PROGS (make check builds it for tests/bench.bats).  stream-iox is
# the same program with Eclipse iceoryx's C binding: built only where
# iox-roudi and the headers are (Debian: iceoryx
# libiceoryx-binding-c-dev); else $(B)/bench/stream-iox.skip says what
# is missing, and bench/stream/run runs $(B)/bench/stream, which says
# so on iceoryx's rows.
IOX_INC	?= $(lastword $(wildcard /usr/include/iceoryx/v*))
IOX_CFLAGS ?= $(if $(IOX_INC),-isystem $(IOX_INC))
IOX_LIBS ?= -liceoryx_binding_c
$(B)/bench/stream-iox: $(wildcard bench/stream/*.c bench/stream/*.h) $(B)/libshmids.a
	@mkdir -p $(@D)
	$(CC) -DBENCH_ICEORYX $(IOX_CFLAGS) $(CPPFLAGS) $(WFLAGS) $(CFLAGS) \
	    $(LDFLAGS) -o $@ $(wildcard bench/stream/*.c) $(B)/libshmids.a \
	    $(IOX_LIBS) -lm -pthread

stream-iox-maybe: $(B)/libshmids.a
	@mkdir -p $(B)/bench; rm -f $(B)/bench/stream-iox.skip; miss=; \
	command -v iox-roudi >/dev/null 2>&1 || \
	    miss=" iox-roudi (Debian: iceoryx)"; \
	printf '#include <iceoryx_binding_c/publisher.h>\n' | \
	    $(CC) $(IOX_CFLAGS) -x c -fsyntax-only - >/dev/null 2>&1 || \
	    miss="$$miss <iceoryx_binding_c/publisher.h> (Debian: libiceoryx-binding-c-dev)"; \
	if [ -n "$$miss" ]; then \
		rm -f $(B)/bench/stream-iox; \
		echo "missing$$miss" > $(B)/bench/stream-iox.skip; \
		echo "stream-iox: skipped: missing$$miss"; \
	elif ! $(MAKE) -s $(B)/bench/stream-iox; then \
		rm -f $(B)/bench/stream-iox; \
		echo "it did not build (iceoryx 2.0's C binding expected)" \
		    > $(B)/bench/stream-iox.skip; \
	fi

# bench/numcmp.cc, our number conversions against std::to_chars, {fmt}
# and fast_float: built only where a C++17 compiler and the headers are
# there (Debian: g++ libfmt-dev libfast-float-dev); else
# $(B)/bench/numcmp.skip says what is missing, and bench/run prints it.
# The library itself stays C and libc only.
CXXFLAGS ?= -O2 -g
$(B)/bench/numcmp: bench/numcmp.cc lib/text/number.h $(B)/libshmids.a
	@mkdir -p $(@D)
	$(CXX) -std=c++17 $(CPPFLAGS) -Wall -Wextra $(CXXFLAGS) $(LDFLAGS) \
	    -o $@ bench/numcmp.cc $(B)/libshmids.a -lfmt -pthread

numcmp-maybe: $(B)/libshmids.a
	@mkdir -p $(B)/bench; rm -f $(B)/bench/numcmp.skip; miss=; \
	if ! command -v $(CXX) >/dev/null 2>&1; then \
		miss=" a C++ compiler, $(CXX) (Debian: g++)"; \
	else \
		for h in fmt/format.h:libfmt-dev \
		    fast_float/fast_float.h:libfast-float-dev; do \
			printf '#include <%s>\n' "$${h%%:*}" | \
			    $(CXX) -std=c++17 -x c++ -fsyntax-only - \
			    >/dev/null 2>&1 || \
			    miss="$$miss <$${h%%:*}> (Debian: $${h#*:})"; \
		done; \
	fi; \
	if [ -n "$$miss" ]; then \
		rm -f $(B)/bench/numcmp; \
		echo "missing$$miss" > $(B)/bench/numcmp.skip; \
		echo "numcmp: skipped: missing$$miss"; \
	elif ! $(MAKE) -s $(B)/bench/numcmp; then \
		rm -f $(B)/bench/numcmp; \
		echo "it did not build (std::to_chars of double needs" \
		    "g++ 11 or later)" > $(B)/bench/numcmp.skip; \
	fi

install: all $(CMDS:%=$(B)/inst/%)
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR) \
	    $(DESTDIR)$(PKGDIR) $(DESTDIR)$(MANPREFIX)/man1 \
	    $(DESTDIR)$(MANPREFIX)/man3 $(DESTDIR)$(MANPREFIX)/man5
	cp $(CMDS:%=$(B)/inst/%) $(DESTDIR)$(BINDIR)/
	cp $(B)/libshmids.a $(B)/libshmids.so.$(VERSION) $(DESTDIR)$(LIBDIR)/
	ln -sf libshmids.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libshmids.so.$(SOMAJOR)
	ln -sf libshmids.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libshmids.so
	cp $(HDRS) $(DESTDIR)$(INCDIR)/
	$(PCSED) shmids.pc.in > $(DESTDIR)$(PKGDIR)/shmids.pc
	mkdir -p $(DESTDIR)$(CMAKEDIR)
	for f in $(CMAKEIN:cmake/%.in=%); do \
		$(CMAKESED) cmake/$$f.in > $(DESTDIR)$(CMAKEDIR)/$$f || exit 1; \
	done
	cp $(MAN1) $(DESTDIR)$(MANPREFIX)/man1/
	cp $(MAN3) $(DESTDIR)$(MANPREFIX)/man3/
	$(MANLINKS) | while read p l; do \
		ln -sf $$p $(DESTDIR)$(MANPREFIX)/man3/$$l || exit 1; \
	done
	cp $(MAN5) $(DESTDIR)$(MANPREFIX)/man5/
	@$(FINSTALL)
	@$(LDSYNC)
	@$(LDHINT)
	@$(PYINSTALL)

uninstall:
	for f in $(CMDS); do rm -f $(DESTDIR)$(BINDIR)/$$f; done
	rm -f $(DESTDIR)$(LIBDIR)/libshmids.a $(DESTDIR)$(LIBDIR)/libshmids.so \
	    $(DESTDIR)$(LIBDIR)/libshmids.so.$(SOMAJOR) \
	    $(DESTDIR)$(LIBDIR)/libshmids.so.$(VERSION) \
	    $(DESTDIR)$(INCDIR)/shmids.h $(DESTDIR)$(INCDIR)/shmids_paper.h \
	    $(DESTDIR)$(PKGDIR)/shmids.pc $(DESTDIR)$(LIBDIR)/libshmids-fortran.a \
	    $(DESTDIR)$(PKGDIR)/shmids-fortran.pc \
	    $(DESTDIR)$(FSRCDIR)/shmids.f90 $(DESTDIR)$(FSRCDIR)/errno.c \
	    $(CMAKEIN:cmake/%.in=$(DESTDIR)$(CMAKEDIR)/%)
	rm -f $(DESTDIR)$(LIBDIR)/fortran/gfortran-mod-*/shmids.mod
	for f in $(MAN1:man/%=%); do rm -f $(DESTDIR)$(MANPREFIX)/man1/$$f; done
	for f in $(MAN3:man/%=%); do rm -f $(DESTDIR)$(MANPREFIX)/man3/$$f; done
	$(MANLINKS) | while read p l; do \
		rm -f $(DESTDIR)$(MANPREFIX)/man3/$$l; \
	done
	for f in $(MAN5:man/%=%); do rm -f $(DESTDIR)$(MANPREFIX)/man5/$$f; done
	@$(PYUNINSTALL)
	@$(LDSYNC)

install-r:
	PKG_CONFIG_PATH=$(PKGDIR)$${PKG_CONFIG_PATH:+:$$PKG_CONFIG_PATH} \
	    $(R) CMD INSTALL --no-multiarch $(RLIB:%=--library=%) r
	cd r && ./cleanup

uninstall-r:
	$(R) CMD REMOVE $(RLIB:%=--library=%) shmids

# The R bench (bench/r_attach.R): the package built against this tree
# in $(B)/rlib; needs R's data.table and bigmemory (Debian:
# r-cran-data.table r-cran-bigmemory).
bench-r: all
	@mkdir -p $(B)/rlib
	SHMIDS_BUILD=$(CURDIR)/$(B) $(R) CMD INSTALL --no-multiarch \
	    --library=$(B)/rlib r > $(B)/rlib/install.log 2>&1 || \
	    { cat $(B)/rlib/install.log; exit 1; }
	cd r && ./cleanup
	R_LIBS=$(CURDIR)/$(B)/rlib Rscript bench/r_attach.R

# The daily cleaner (shm-rm(1)): units only, never enabled here, and
# never by plain make install, which leaves the system's units alone.
install-systemd:
	mkdir -p $(DESTDIR)$(SYSTEMDDIR)
	sed 's|@BINDIR@|$(BINDIR)|' systemd/shmids-clean.service.in \
	    > $(DESTDIR)$(SYSTEMDDIR)/shmids-clean.service
	cp systemd/shmids-clean.timer systemd/run-shmids.mount \
	    $(DESTDIR)$(SYSTEMDDIR)/
	mkdir -p $(DESTDIR)$(DATADIR)
	sed 's|@DATADIR@|$(DATADIR)|' systemd/shmids-thp.conf.in \
	    > $(DESTDIR)$(DATADIR)/shmids-thp.conf
	@case " $(UNITDIRS) " in \
	*" $(SYSTEMDDIR) "*) echo "install-systemd: to start it:" \
	    "systemctl daemon-reload; systemctl enable --now shmids-clean.timer"; \
	    echo "install-systemd: for a shared SHMIDS_DIR in 2 MiB pages:" \
	    "systemctl enable --now run-shmids.mount" ;; \
	*) echo "install-systemd: warning: systemd does not look in" \
	    "$(SYSTEMDDIR): install with SYSTEMDDIR=/etc/systemd/system," \
	    "or link the units there" >&2 ;; \
	esac

uninstall-systemd:
	rm -f $(DESTDIR)$(SYSTEMDDIR)/shmids-clean.service \
	    $(DESTDIR)$(SYSTEMDDIR)/shmids-clean.timer \
	    $(DESTDIR)$(SYSTEMDDIR)/run-shmids.mount \
	    $(DESTDIR)$(DATADIR)/shmids-thp.conf

# Every build directory: the default, and each check-* target's (a new
# one is named by a variable above, and listed here).
BUILDDIRS = build $(ASAN_B) $(UBSAN_B) $(TSAN_B)
clean:
	rm -rf $(sort $(B) $(BUILDDIRS))

include tests/fuzz/fuzz.mk

.PHONY: all demo check check-asan check-tsan check-ubsan check-valgrind stress lint bench bench-build install \
	uninstall install-systemd uninstall-systemd clean numcmp-maybe \
	bench-stream stream-iox-maybe \
	fortran fortran-maybe install-r uninstall-r bench-r FORCE
