#!/usr/bin/env python3
"""The layer check: every #include "mongo/..." in src/mongo must name a header of the same
library or of one the library depends on (directly or not), in the library table of
site_scons/mongo_build.py (LIBRARIES, in layer order); the table itself must list each
library after its dependencies (no cycle, nothing upward). The table is the layer order of
ARCHITECTURE.md. Headers belong to the library whose folder holds them (non-recursive, as the
build takes sources); generated IDL headers (mongo/idl/<stem>_gen.h) to the library that
claims <stem>.idl. Unit tests (unittests/) may include anything.

Usage: buildscripts/check_layers.py [--root DIR]. Prints each violation as
`file:line: <lib> includes <header> of <lib>` and a last line `layers: N violations`;
exit status 1 when there is any.
"""
import argparse
import ast
import os
import re
import sys

INCLUDE = re.compile(r'\s*#\s*include\s+"mongo/([^"]+)"')


def load_table(root):
    """LIBRARIES from site_scons/mongo_build.py, read as data (the module needs SCons)."""
    with open(os.path.join(root, "site_scons", "mongo_build.py")) as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "LIBRARIES" for t in node.targets):
            return ast.literal_eval(node.value)
    raise SystemExit("check_layers.py: LIBRARIES not found in site_scons/mongo_build.py")


class Layers:
    def __init__(self, table):
        self.order = [name for (name, _, _, _) in table]
        self.deps = {name: deps for (name, _, _, deps) in table}
        self.files = {}    # "mongo/db/x.cpp" -> lib (single files claimed by the table)
        self.folders = {}  # "mongo/db" -> lib
        self.idls = {}     # idl stem -> lib
        self.rest_idl = None
        for name, folders, idls, _ in table:
            for f in folders:
                (self.files if f.endswith(".cpp") else self.folders)[f] = name
            if idls == "rest":
                self.rest_idl = name
            else:
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
        for ext in (".cpp",):
            if stem + ext in self.files:
                return self.files[stem + ext]
        return self.folders.get(os.path.dirname(path))


def check(root):
    layers = Layers(load_table(root))
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


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    args = parser.parse_args(argv)
    problems = check(args.root)
    for p in problems:
        print(p)
    print("layers: %d violations" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
