#!/usr/bin/env python3
"""The layers of src/mongo: the library graph, the include check and the link check.

The include check: every #include "mongo/..." in src/mongo must name a header of the same
library or of one the library depends on (directly or not), in the library table of
site_scons/mongo_build.py (LIBRARIES, in layer order); the table itself must list each
library after its dependencies (no cycle, nothing upward). The table is the layer order of
ARCHITECTURE.md. Headers belong to the library whose folder holds them (non-recursive, as the
build takes sources); generated IDL headers (mongo/idl/<stem>_gen.h) to the library that
claims <stem>.idl, also a test-only one of TEST_LIBRARIES (whose headers no library may
include). Unit tests (unittests/) may include anything.

The link check (--symbols LIBDIR, after a build): every symbol a library's objects leave
undefined must be defined by the library itself, by a library of its dependency closure, or
by no library of ours (system and package libraries). The programs link every library whole
and as one group, so the linker would accept a call that goes up; this check does not.

Usage:
  buildscripts/layers.py [--root DIR]            the include check
  buildscripts/layers.py --symbols build/opt/lib the include check and the link check
  buildscripts/layers.py --graph                 prints the library graph (layer order)
Prints each violation as `file:line: <lib> includes <header> of <lib>` or
`<lib> uses <symbol> of <lib>` and a last line `layers: N violations`; exit status 1 when
there is any.
"""
import argparse
import ast
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'\s*#\s*include\s+"mongo/([^"]+)"')


def load_table(root, name="LIBRARIES", required=True):
    """A table (LIBRARIES, TEST_LIBRARIES) from site_scons/mongo_build.py, read as data (the
    module needs SCons); [] for a missing table that is not `required`."""
    with open(os.path.join(root, "site_scons", "mongo_build.py")) as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return ast.literal_eval(node.value)
    if not required:
        return []
    raise SystemExit("layers.py: %s not found in site_scons/mongo_build.py" % name)


class Layers:
    def __init__(self, table, test_table=()):
        self.order = [name for (name, _, _, _) in table]
        self.deps = {name: deps for (name, _, _, deps) in table}
        self.files = {}    # "mongo/db/x.cpp" -> lib (single files claimed by the table)
        self.folders = {}  # "mongo/db" -> lib
        self.idls = {}     # idl stem -> lib
        self.rest_idl = None
        for name, folders, idls, _ in table:
            for f in folders:
                (self.files if f.endswith((".cpp", ".h")) else self.folders)[f] = name
            if idls == "rest":
                self.rest_idl = name
            else:
                for stem in idls:
                    self.idls[stem] = name
        # Test-only libraries: no library of the table may include their headers (they are
        # not in any closure), only tests.
        for name, _, idls, _ in test_table:
            for stem in idls:
                self.idls[stem] = name

    def table_errors(self):
        errors = []
        for i, name in enumerate(self.order):
            for d in self.deps[name]:
                if d not in self.deps:
                    errors.append("library %s depends on unknown library %s" % (name, d))
                elif self.order.index(d) >= i:
                    errors.append("library %s depends on %s, which is not listed before it "
                                  "(upward dependency or cycle)" % (name, d))
        return errors

    def closure(self, name):
        seen, stack = set(), [name]
        while stack:
            n = stack.pop()
            if n not in seen:
                seen.add(n)
                stack.extend(self.deps.get(n, []))
        return seen

    def lib_of(self, path):
        """The library of "mongo/a/b.h" (or .cpp), or None when no library holds it."""
        if path.startswith("mongo/idl/") and path.endswith("_gen.h"):
            stem = os.path.basename(path)[:-len("_gen.h")]
            return self.idls.get(stem, self.rest_idl)
        stem = os.path.splitext(path)[0]
        for ext in (".cpp", ".h"):
            if stem + ext in self.files:
                return self.files[stem + ext]
        return self.folders.get(os.path.dirname(path))


def check(root):
    layers = Layers(load_table(root), load_table(root, "TEST_LIBRARIES", required=False))
    problems = list(layers.table_errors())
    src = os.path.join(root, "src")
    for d, _, names in os.walk(os.path.join(src, "mongo")):
        for n in sorted(names):
            if not n.endswith((".h", ".cpp")):
                continue
            path = os.path.join(d, n)
            rel = os.path.relpath(path, src)
            if n == "mongod_main.cpp" or n.endswith(("_test.cpp", "_bm.cpp", "_fuzzer.cpp",
                                                     "_tool.cpp")):
                continue  # programs and tests sit on top of every library
            lib = layers.lib_of(rel)
            if lib is None:
                problems.append("%s: belongs to no library of the table" % rel)
                continue
            allowed = layers.closure(lib)
            with open(path, errors="replace") as f:
                for lineno, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = "mongo/" + m.group(1)
                    tlib = layers.lib_of(target)
                    if tlib is None:
                        problems.append("%s:%d: includes %s, which belongs to no library" %
                                        (rel, lineno, target))
                    elif tlib not in allowed:
                        problems.append("%s:%d: %s includes %s of %s" %
                                        (rel, lineno, lib, target, tlib))
    return problems


# nm symbol classes that define a symbol (text, data, bss, read-only, weak, unique, indirect).
DEFINED = set("TDBRVWuiGS")


def archive_symbols(path):
    """(defined, undefined) symbol sets of one static library."""
    out = subprocess.run(["nm", "-P", "-g", path], check=True, capture_output=True,
                         text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2 or line.endswith(":"):
            continue  # member headers ("lib.a[x.o]:")
        sym, kind = parts[0], parts[1]
        if kind == "U":
            undefined.add(sym)
        elif kind in DEFINED or kind.upper() in DEFINED:
            defined.add(sym)
    return defined, undefined - defined


def check_symbols(root, libdir):
    """Violations of the link check over the archives libmongo_<lib>.a in `libdir`."""
    layers = Layers(load_table(root))
    defined, undefined = {}, {}
    for name in layers.order:
        path = os.path.join(libdir, "libmongo_%s.a" % name)
        if os.path.exists(path):
            defined[name], undefined[name] = archive_symbols(path)
    owners = {}
    for name, syms in defined.items():
        for s in syms:
            owners.setdefault(s, set()).add(name)
    problems = []
    for name, syms in undefined.items():
        allowed = layers.closure(name)
        bad = {}
        for s in syms:
            libs = owners.get(s)
            if libs and not (libs & allowed):
                bad.setdefault(min(libs, key=layers.order.index), []).append(s)
        for other, ss in sorted(bad.items()):
            for s in sorted(ss)[:5]:
                problems.append("%s uses %s of %s" % (name, demangle(s), other))
            if len(ss) > 5:
                problems.append("%s uses %d more symbols of %s" % (name, len(ss) - 5, other))
    return problems


def demangle(sym):
    try:
        return subprocess.run(["c++filt", sym], check=True, capture_output=True,
                              text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return sym


def graph(root):
    """The library table as text: layer number, name, folders, direct dependencies."""
    table = load_table(root)
    lines = []
    for i, (name, folders, idls, deps) in enumerate(table, 1):
        lines.append("%2d %-16s -> %s" % (i, name, ", ".join(deps) or "(none)"))
        for f in folders:
            lines.append("      src/%s" % f)
        if idls:
            lines.append("      idl/%s" % ("*.idl (the rest)" if idls == "rest" else
                                            ", ".join(s + ".idl" for s in idls)))
    return lines


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    parser.add_argument("--symbols", metavar="LIBDIR",
                        help="also run the link check on the archives in LIBDIR")
    parser.add_argument("--graph", action="store_true", help="print the library graph")
    args = parser.parse_args(argv)
    if args.graph:
        print("\n".join(graph(args.root)))
        return 0
    problems = check(args.root)
    if args.symbols:
        problems += check_symbols(args.root, args.symbols)
    for p in problems:
        print(p)
    print("layers: %d violations" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
