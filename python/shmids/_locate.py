"""Where libshmids is, and which version this is, for a module that may
run from the source tree, from make install's copy, or from pip's.

The library, in this order (the first that is there is loaded, and an
error names it rather than trying the next):

1. $SHMIDS_LIB, when set;
2. the path make install wrote into _INSTALLED_LIB below;
3. build/libshmids.so of the source tree, for python/shmids/ after make
   (the tests; a symlink to python/ still finds it);
4. libshmids.so.1 beside this module, where a package bundled it;
5. libshmids.so.1 in pkg-config's libdir of shmids (the shmids.pc that
   make install wrote; PKG_CONFIG_PATH for a PREFIX of one's own);
6. the SONAME, libshmids.so.1, for the dynamic loader to find where the
   system keeps libraries (Debian's libshmids1; make install's
   /usr/local/lib after ldconfig).

The SONAME, never ctypes.util.find_library("shmids"), whose answer may
be another major version, another ABI.
"""

import os
import re

# make install replaces None with the installed library's absolute path.
_INSTALLED_LIB = None

_SONAME = "libshmids.so.1"      # the ABI this module's prototypes are

# What to do when there is none (a sentence's end).
_INSTALL = ("install libshmids (make install in shmids's source tree, "
            "or Debian's package libshmids1), or set SHMIDS_LIB to the "
            "library's path")


def _here():
    # realpath: a symlink to python/ still finds the tree beside it
    return os.path.dirname(os.path.realpath(__file__))


def _library_path():
    """The library to load: a path, or the SONAME for the loader."""
    here = _here()
    build = os.path.join(here, os.pardir, os.pardir, "build",
                         "libshmids.so")
    for p in (os.environ.get("SHMIDS_LIB"), _INSTALLED_LIB):
        if p:
            return p
    if os.path.exists(build):
        return os.path.normpath(build)
    for where in (lambda: here, _pkgconfig_libdir):   # pkg-config if need be
        d = where()
        if d and os.path.exists(os.path.join(d, _SONAME)):
            return os.path.join(d, _SONAME)
    return _SONAME


def _pkgconfig_libdir():
    """pkg-config's libdir of shmids, or None: no pkg-config ($PKG_CONFIG
    or pkg-config on PATH), or no shmids.pc where it looks."""
    import subprocess   # only here: most imports never get this far
    try:
        r = subprocess.run([os.environ.get("PKG_CONFIG") or "pkg-config",
                            "--variable=libdir", "shmids"],
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    d = os.fsdecode(r.stdout.strip())
    return d if r.returncode == 0 and d else None


def _not_loaded(path, e):
    """The ImportError for the library at path (or the SONAME) that
    ctypes could not load, with e (dlopen(3)'s words), saying what to
    do."""
    if path == os.environ.get("SHMIDS_LIB"):
        why = ("SHMIDS_LIB=%s: %s: set SHMIDS_LIB to libshmids.so's "
               "path, or unset it" % (path, e))
    elif path == _INSTALLED_LIB:
        why = ("%s, where make install put the library: %s: make "
               "install again, or %s" % (path, e, _INSTALL))
    elif path == _SONAME:
        why = ("%s not found (not beside the module, not in "
               "pkg-config's libdir of shmids, not where the system "
               "keeps libraries): %s" % (_SONAME, _INSTALL))
    else:
        why = "%s: %s: %s" % (path, e, _INSTALL)
    return ImportError("shmids: " + why, path=path)


def _too_old(path, name):
    """The ImportError for a library at path (or the SONAME) that lacks
    the call name: an older one than this module is written for."""
    return ImportError("shmids: %s is older than this module: it has no "
                       "%s: install libshmids %s (make install in shmids's "
                       "source tree), or set SHMIDS_LIB to its path"
                       % (path, name, _project_version()), path=path)


def _project_version():
    """The project's one version, SHMIDS_VERSION of lib/shmids.h: the
    header's in the source tree (python/shmids/ with lib/ beside
    python/), else the one setup.py or make install wrote into
    _version.py from it ("unknown" if neither: the package copied by
    hand)."""
    here = _here()
    top = os.path.dirname(os.path.dirname(here))
    if os.path.basename(os.path.dirname(here)) == "python":
        try:
            with open(os.path.join(top, "lib", "shmids.h")) as f:
                m = re.search(r'^#define[ \t]+SHMIDS_VERSION[ \t]+"([^"]+)"',
                              f.read(), re.M)
            if m:
                return m.group(1)
        except OSError:
            pass
    try:
        from ._version import version
    except ImportError:
        return "unknown"
    return version
