#!/usr/bin/env python3
"""tests/sections.py: tests/README, the map from each section of
format-spec.md to the tests that check it, made from the test names
(each begins with its sections: "6.1: ...", "5, 6, 6.1: ...").
Run from the top directory: python3 tests/sections.py > tests/README"""
import glob
import re

HEAD = """tests/README: where each rule of format-spec.md is tested

Every test's name begins with the format-spec.md section(s) it checks
("6.1: ...", "5, 6, 6.1: ..."), so that

    grep -h '^@test "6.1' tests/*.bats

lists a section's tests, and `bats -f '^6\\.1:' tests/tables.bats` runs
them.  A test of several sections names each.  What follows is made
from the test names (section, file, test); make it again when tests
change:

    python3 tests/sections.py > tests/README

Files: one a tool (shm-ls.bats, shm-expand.bats, shm-import.bats,
shm-rm.bats), one a concern (tables, threads-*, file, trust, hostile,
concurrency, limits, version, python, install, man, readme, clean),
format.bats for the bytes of 2.1, 3 and 4, and conformance.bats, which
runs every reader of the format over the corpus of conformance/ (5, 6,
6.1: see conformance/lines.tab and docs.tab).  The unit tests (unit/,
C, TAP) and the fuzzers (fuzz/) are named by the code they test.
"""


def main():
    spec = open("format-spec.md").read()
    titles = {m.group(1): m.group(2) for m in re.finditer(
        r"^#{2,3} (\d+(?:\.\d+)?)\.? (.*)$", spec, re.M)}
    secs = {}
    for f in sorted(glob.glob("tests/*.bats")):
        for line in open(f):
            m = re.match(r'^@test "([\d., ]+): (.*)" \{', line)
            if m:
                for s in m.group(1).split(", "):
                    secs.setdefault(s, []).append((f[6:], m.group(2)))
    out = [HEAD]
    for s in sorted(set(titles) | set(secs),
                    key=lambda s: [int(x) for x in s.split(".")]):
        tests = secs.get(s, [])
        out.append("\n## %s %s (%d)\n" % (s, titles.get(s, "?"),
                                          len(tests)))
        if not tests:
            out.append("\nno test yet\n")
        files = {}
        for f, n in tests:
            files.setdefault(f, []).append(n)
        for f in sorted(files):
            out.append("\n%s:\n" % f)
            out.extend("- %s\n" % n for n in files[f])
    print("".join(out), end="")


if __name__ == "__main__":
    main()
