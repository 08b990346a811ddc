"""Where make install puts the Python module for this interpreter.

Usage: python3 pydir.py PREFIX.  Prints the PREFIX's directory of pure
modules as pip install --prefix would use it (sysconfig's posix_prefix
scheme), unless the interpreter does not look there but does look in a
directory of PREFIX/lib/python3*/...-packages: Debian's python3 searches
/usr/local/lib/python3.X/dist-packages, not site-packages.  Then prints
that one.
"""

import sys
import sysconfig

prefix = sys.argv[1].rstrip("/") or "/"
d = sysconfig.get_path("purelib", "posix_prefix", vars={"base": prefix})
if d not in sys.path:
    for p in sys.path:
        if p.startswith(prefix + "/lib/python3") and \
                p.endswith(("/dist-packages", "/site-packages")):
            d = p
            break
print(d)
