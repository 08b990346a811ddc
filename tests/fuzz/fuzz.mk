# tests/fuzz/fuzz.mk: libFuzzer harnesses of tests/fuzz/, included from
# the top Makefile.  Needs clang with libFuzzer (Debian: clang and
# libclang-rt-dev); without it both targets say so and succeed.
#
#	make fuzz [FUZZ_SECONDS=60]	each harness FUZZ_SECONDS seconds
#	make fuzz-smoke			each harness 5 seconds (make check, CI)
#
# The harnesses are compiled with the library sources themselves (not
# the static library), instrumented for coverage, ASan and UBSan, into
# $(B)/fuzz/NAME, one per tests/fuzz/fuzz_NAME.c.  Corpora grow in
# $(B)/fuzz/corpus/NAME (seeded from tests/fuzz/corpus/NAME); failing
# inputs land in $(B)/fuzz/artifacts/NAME.  Reproduce one with
# $(B)/fuzz/NAME FILE.

FUZZ_MK		:= $(lastword $(MAKEFILE_LIST))
B		?= build
FUZZCC		?= clang
FUZZ_SECONDS	?= 60
FUZZ_SMOKE_SECONDS ?= 5
FUZZ_MAXLEN	?= 4096
FUZZ_CFLAGS	?= -g -O1 -fno-omit-frame-pointer
FUZZ_SAN	= -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CPPFLAGS	= -std=c99 -D_XOPEN_SOURCE=700 -Ilib
FUZZ_B		= $(B)/fuzz
FUZZ_NAMES	= $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS	= $(FUZZ_NAMES:%=$(FUZZ_B)/%)
FUZZ_OBJS	= $(patsubst lib/%.c,$(FUZZ_B)/lib/%.o,\
		    $(wildcard lib/*.c lib/seg/*.c lib/stream/*.c lib/text/*.c))
FUZZ_LIBHDR	= $(wildcard lib/*.h lib/seg/*.h lib/stream/*.h lib/text/*.h)

$(FUZZ_B)/lib/%.o: lib/%.c $(FUZZ_LIBHDR)
	@mkdir -p $(@D)
	$(FUZZCC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) $(FUZZ_SAN) \
	    -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_BINS): $(FUZZ_B)/%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_LIBHDR) \
    $(FUZZ_OBJS)
	$(FUZZCC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) $(FUZZ_SAN) \
	    -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) -lm

fuzz-bins: $(FUZZ_BINS)

# Can FUZZCC build and link a fuzzer at all?  (Else skip, exit 0.)
FUZZ_PROBE = mkdir -p $(FUZZ_B) && \
	printf '%s\n' 'int LLVMFuzzerTestOneInput(const unsigned char *d,' \
	    'unsigned long n);' \
	    'int LLVMFuzzerTestOneInput(const unsigned char *d,' \
	    'unsigned long n) { (void)d; (void)n; return 0; }' \
	    >$(FUZZ_B)/probe.c && \
	$(FUZZCC) $(FUZZ_SAN) -fsanitize=fuzzer -o $(FUZZ_B)/probe \
	    $(FUZZ_B)/probe.c >/dev/null 2>&1

FUZZ_RUN = \
	if ! { $(FUZZ_PROBE); }; then \
		echo "fuzz: $(FUZZCC) cannot build a libFuzzer binary" \
		    "(install clang and libclang-rt-dev): skipped"; \
		exit 0; \
	fi; \
	$(MAKE) -f $(FUZZ_MK) B='$(B)' FUZZCC='$(FUZZCC)' \
	    FUZZ_CFLAGS='$(FUZZ_CFLAGS)' fuzz-bins && \
	sh tests/fuzz/run.sh $(FUZZ_B)

fuzz:
	@$(FUZZ_RUN) $(FUZZ_SECONDS) $(FUZZ_MAXLEN) $(FUZZ_NAMES)

fuzz-smoke:
	@$(FUZZ_RUN) $(FUZZ_SMOKE_SECONDS) $(FUZZ_MAXLEN) $(FUZZ_NAMES)

# For make check: the harnesses if FUZZCC can build them (tests/run then
# runs each briefly), else a note and nothing.
fuzz-maybe:
	@if { $(FUZZ_PROBE); }; then \
		$(MAKE) -s -f $(FUZZ_MK) B='$(B)' FUZZCC='$(FUZZCC)' \
		    FUZZ_CFLAGS='$(FUZZ_CFLAGS)' fuzz-bins; \
	else \
		echo "fuzz: $(FUZZCC) cannot build libFuzzer binaries:" \
		    "harnesses not built"; \
	fi

.PHONY: fuzz fuzz-smoke fuzz-bins fuzz-maybe
