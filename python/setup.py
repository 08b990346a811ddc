"""The package's version, which pyproject.toml leaves to this file: the
project has one, SHMIDS_VERSION of lib/shmids.h.  Built from the source
tree, it is read there and written into shmids/_version.py, which the
sdist carries; built from an sdist (no lib/ beside it), that file is
read."""

import os
import re

from setuptools import setup

HERE = os.path.dirname(os.path.abspath(__file__))
HEADER = os.path.join(HERE, os.pardir, "lib", "shmids.h")
VERSION_PY = os.path.join(HERE, "shmids", "_version.py")


def version():
    if os.path.exists(HEADER):
        with open(HEADER) as f:
            m = re.search(r'^#define[ \t]+SHMIDS_VERSION[ \t]+"([^"]+)"',
                          f.read(), re.M)
        if not m:
            raise SystemExit("setup.py: no SHMIDS_VERSION in " + HEADER)
        text = ("# SHMIDS_VERSION of lib/shmids.h, written by setup.py.\n"
                "version = %r\n" % m.group(1))
        old = open(VERSION_PY).read() if os.path.exists(VERSION_PY) else ""
        if old != text:
            with open(VERSION_PY, "w") as f:
                f.write(text)
        return m.group(1)
    ns = {}
    try:
        with open(VERSION_PY) as f:
            exec(f.read(), ns)
    except OSError:
        raise SystemExit("setup.py: neither %s nor %s: build from shmids's "
                         "source tree or its sdist" % (HEADER, VERSION_PY))
    return ns["version"]


setup(version=version())
