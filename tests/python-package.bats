#!/usr/bin/env bats
# python/shmids/ as a package of modules (issue 39): what the split
# must keep whole, which no module's own tests would see.  The module's
# behaviour is tests/python.bats's; installing it, tests/pip.bats's.

load helper
load python

@test "2.2: python: a forked child's threads call the library: one lock, whichever module takes it" {
	need_python
	run pyrun '
import array, os, threading, shmids
label = shmids.create(os.environ["P"] + "f", array.array("d", [1, 2]))
pid = os.fork()
if pid == 0:
    # a thread of the child: the lock the fork left held is no more
    done = []
    t = threading.Thread(target=lambda: done.append(list(shmids.attach(label))))
    t.daemon = True
    t.start()
    t.join(10)
    os._exit(0 if done == [[1.0, 2.0]] else 1)
_, st = os.waitpid(pid, 0)
shmids.remove(label)
print("child", os.waitstatus_to_exitcode(st))'
	status_is 0
	is "$output" "child 0"
}

@test "4: python: without numpy, the ImportWarning names the line that imported shmids" {
	need_python
	printf 'import sys\nsys.modules["numpy"] = None\nimport shmids\n' > imp.py
	run --separate-stderr env SHMIDS_LIB="$LIB" PYTHONPATH="$TOP/python" \
	    "$PY" -W default imp.py
	status_is 0
	is "${stderr%%: ImportWarning*}" "$T/imp.py:3" "warning's location"
}
