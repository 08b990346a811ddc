#!/usr/bin/env python3
"""build-aux/test-sections.py: prefix every bats test name that does not
begin with its format-spec.md sections yet ("6.1: ...") with a section
guessed from its file and its words (issue 28.5), in place; prints how
many tests there are and how many it renamed.  For tests merged from
branches written before the rule: run it from the top directory, read
the diff (a guess may be wrong: fix it by hand), then
python3 tests/sections.py > tests/README."""
import re, glob, sys
default = {
 "clean": "7", "concurrency": "2.2", "file": "2.6", "generated": "6",
 "hostile": "2.3", "install": "7", "library": "2", "limits": "8",
 "man": "7", "python": "6", "readme": "7", "roundtrip": "6",
 "shm-expand": "7", "shm-import": "7", "shm-ls": "7", "shm-rm": "7",
 "tables": "6.1", "threads-expand": "6.2", "threads-import": "6.2",
 "trust": "2.4", "version": "9", "conformance": "5",
 "fortran": "6", "r": "6", "order": "2.7", "live": "7", "input": "7",
 "format": "2.1", "pages": "2.5",
}
# keyword rules, first match wins; applied where the file's default is a
# broad one (7, 2, 6)
rules = [
 (r"malformed|reference line|table reference|refline", "5"),
 (r"thread|SHMIDS_THREADS", "6.2"),
 (r"\btables?\b|\brows?\b|csv|comma|tsv|write\.table|savetxt|loadtxt|volcano", "6.1"),
 (r"SHMIDS_DIR|file segment|tmpfs|huge", "2.6"),
 (r"\bversion\b|SONAME|1\.0|1\.1 ", "9"),
 (r"ulimit|shmmax|shmall|limit|ENOSPC|too long|64 KiB|4 KiB", "8"),
 (r"\bdead\b|filling|seal|broken|killed|EOWNERDEAD|EAGAIN|-w\b", "2.2"),
 (r"header|EBADMSG|corrupt|hostile", "2.3"),
 (r"owner|\bmode\b|umask|uid|root|another user|EACCES|privilege|0600|0644", "2.4"),
 (r"\blabels?\b|\bnames?\b|ENAMETOOLONG|shmid", "1"),
 (r"\bNaN\b|\bnan\b|\bNA\b|shortest|exact|bit for bit|round.?trip|hex|-F ", "6"),
 (r"\btypes?\b|f32|i32|i64|\braw\b|EPROTOTYPE", "4"),
 (r"payload|byte order|native", "2.1"),
]
pre = re.compile(r'^@test "(\d+(?:\.\d+)?(?:, \d+(?:\.\d+)?)*): ')
total = changed = 0
for f in sorted(glob.glob("tests/*.bats")):
    base = f[6:-5]
    out = []
    for line in open(f):
        m = re.match(r'^@test "(.*)" \{\s*$', line)
        if m:
            total += 1
            if not pre.match(line):
                name = m.group(1)
                sec = None
                if default[base] in ("7", "2", "6"):
                    for rx, s in rules:
                        if re.search(rx, name, re.I):
                            sec = s
                            break
                sec = sec or default[base]
                line = '@test "%s: %s" {\n' % (sec, name)
                changed += 1
        out.append(line)
    open(f, "w").write("".join(out))
print(total, changed)
