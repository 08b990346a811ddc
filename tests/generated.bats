#!/usr/bin/env bats
# Files made by a program and committed: each is exactly what its
# generator prints, so nobody edits one by hand or forgets to
# regenerate it.

load helper

TOP=$BATS_TEST_DIRNAME/..

@test "6: generated: lib/text/pow10_table.h is what build-aux/gen_pow10.py prints" {
	command -v python3 >/dev/null 2>&1 ||
	    skip "python3 not found: lib/text/pow10_table.h not checked"
	cd "$TOP"
	python3 build-aux/gen_pow10.py > "$T/pow10_table.h"
	same_file lib/text/pow10_table.h "$T/pow10_table.h"
}
