#!/usr/bin/env python3
"""Self-check of layers.py on made-up miniature trees: a clean tree passes, an upward
include, a header of no library, a table listing a dependency after its user and a library
including a test-only IDL header each fail; the link check passes archives whose calls go down
and reports one whose call goes up.
Prints one line per check and `N passed, M failed`."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layers  # noqa: E402

TABLE = """LIBRARIES = [
    ('low', ['mongo/low'], ['codes'], []),
    ('mid', ['mongo/mid', 'mongo/top/pinned.cpp', 'mongo/top/names.h'], [], ['low']),
    ('idl', ['mongo/idl'], 'rest', ['low']),
    ('top', ['mongo/top'], [], ['mid', 'idl']),
]
"""


def tree(files, table=TABLE):
    root = tempfile.mkdtemp(prefix="layers-")
    os.makedirs(os.path.join(root, "site_scons"))
    with open(os.path.join(root, "site_scons", "mongo_build.py"), "w") as f:
        f.write('"""made up"""\n' + table)
    for path, text in files.items():
        full = os.path.join(root, "src", path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)
    return root


CLEAN = {
    "mongo/low/a.h": "#pragma once\n",
    "mongo/mid/b.cpp": '#include "mongo/low/a.h"\n#include "mongo/idl/codes_gen.h"\n',
    "mongo/top/c.cpp": '#include "mongo/mid/b.h"\n#include "mongo/idl/other_gen.h"\n'
                       '#include "mongo/top/pinned.h"\n',
    "mongo/top/pinned.cpp": '#include "mongo/low/a.h"\n',
    "mongo/top/c_test.cpp": '#include "mongo/top/c.h"\n',
}

results = []


def check(name, ok, detail=""):
    results.append(ok)
    print("%s %s%s" % ("ok  " if ok else "FAIL", name, "" if ok else ": %s" % detail))


problems = layers.check(tree(CLEAN))
check("a clean tree has no violation", problems == [], problems)

up = dict(CLEAN)
up["mongo/low/a.cpp"] = '#include "mongo/mid/b.h"\n'
problems = layers.check(tree(up))
check("an upward include is reported with file and line",
      problems == ["mongo/low/a.cpp:1: low includes mongo/mid/b.h of mid"], problems)

pinned = dict(CLEAN)
pinned["mongo/top/pinned.cpp"] = '#include "mongo/top/c.h"\n'
problems = layers.check(tree(pinned))
check("a file the table pins to a lower library is checked as that library",
      problems == ["mongo/top/pinned.cpp:1: mid includes mongo/top/c.h of top"], problems)

gen = dict(CLEAN)
gen["mongo/low/a.cpp"] = '#include "mongo/idl/other_gen.h"\n'
problems = layers.check(tree(gen))
check("generated IDL headers belong to the library that claims the IDL",
      problems == ["mongo/low/a.cpp:1: low includes mongo/idl/other_gen.h of idl"], problems)

stray = dict(CLEAN)
stray["mongo/elsewhere/d.cpp"] = "\n"
problems = layers.check(tree(stray))
check("a file of no library is reported",
      problems == ["mongo/elsewhere/d.cpp: belongs to no library of the table"], problems)

names = dict(CLEAN)
names["mongo/top/names.h"] = '#include "mongo/top/c.h"\n'
names["mongo/mid/e.cpp"] = '#include "mongo/top/names.h"\n'
problems = layers.check(tree(names))
check("a header the table places is checked as, and included as, that library",
      problems == ["mongo/top/names.h:1: mid includes mongo/top/c.h of top"], problems)

cycle = TABLE.replace("('low', ['mongo/low'], ['codes'], [])",
                      "('low', ['mongo/low'], ['codes'], ['mid'])")
problems = layers.check(tree(CLEAN, cycle))
check("a table dependency on a later library (a cycle) is reported",
      any("library low depends on mid" in p for p in problems), problems)



def archives(sources):
    """A tree with the made-up table and one static library per entry of `sources`."""
    root = tree(CLEAN)
    libdir = os.path.join(root, "lib")
    os.makedirs(libdir)
    for lib, code in sources.items():
        obj = os.path.join(libdir, lib + ".o")
        src = os.path.join(libdir, lib + ".c")
        with open(src, "w") as f:
            f.write(code)
        subprocess.run(["cc", "-c", "-o", obj, src], check=True)
        subprocess.run(["ar", "rcs", os.path.join(libdir, "libmongo_%s.a" % lib), obj],
                       check=True)
    return root, libdir


if shutil.which("cc") and shutil.which("nm"):
    down = {"low": "int low(void) { return 1; }\n",
            "mid": "int low(void);\nint mid(void) { return low() + 1; }\n",
            "top": "int mid(void);\nint puts(const char*);\n"
                   "int top(void) { puts(\"x\"); return mid(); }\n"}
    root, libdir = archives(down)
    problems = layers.check_symbols(root, libdir)
    check("the link check passes calls that go down (and calls into system libraries)",
          problems == [], problems)
    up = dict(down)
    up["low"] = "int mid(void);\nint low(void) { return mid(); }\n"
    root, libdir = archives(up)
    problems = layers.check_symbols(root, libdir)
    check("the link check reports a call that goes up",
          problems == ["low uses mid of mid"], problems)
else:
    check("the link check needs cc and nm", False, "not found")

graph = layers.graph(tree(CLEAN))
check("the graph lists each library in order with its dependencies",
      [l.split()[1] for l in graph if not l.startswith("      ")] == ["low", "mid", "idl", "top"]
      and graph[-2].endswith("-> mid, idl"), graph)

test_only = TABLE + "TEST_LIBRARIES = [\n    ('idl_test', [], ['testonly'], ['idl']),\n]\n"
uses_test_idl = dict(CLEAN)
uses_test_idl["mongo/top/c.cpp"] = '#include "mongo/idl/testonly_gen.h"\n'
uses_test_idl["mongo/top/c_test.cpp"] = '#include "mongo/idl/testonly_gen.h"\n'
problems = layers.check(tree(uses_test_idl, test_only))
check("a test-only IDL header is for tests only",
      problems == ["mongo/top/c.cpp:1: top includes mongo/idl/testonly_gen.h of idl_test"],
      problems)

print("%d passed, %d failed" % (sum(results), len(results) - sum(results)))
sys.exit(0 if all(results) else 1)
