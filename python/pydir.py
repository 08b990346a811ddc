"""Where make install puts the Python module for this interpreter.

Usage: python3 pydir.py PREFIX.  Prints the PREFIX's directory of pure
modules as pip install --prefix would use it (sysconfig's posix_prefix
scheme), unless the interpreter does not look there but does look in a
directory of PREFIX/lib/python3*/...-packages: Debian's python3 searches
/usr/local/lib/python3.X/dist-packages, not site-packages.  Then prints
that one.  Where the interpreter looks is sys.path and, for the
directories that do not exist yet (sys.path leaves them out: a fresh
/usr/local has no dist-packages), site.getsitepackages().
"""

import site
import sys
import sysconfig

prefix = sys.argv[1].rstrip("/") or "/"
d = sysconfig.get_path("purelib", "posix_prefix", vars={"base": prefix})
looked = list(sys.path)
try:
    looked += site.getsitepackages()
except AttributeError:          # old virtualenvs' own site.py
    pass
if d not in looked:
    for p in looked:
        if p.startswith(prefix + "/lib/python3") and \
                p.endswith(("/dist-packages", "/site-packages")):
            d = p
            break
print(d)
