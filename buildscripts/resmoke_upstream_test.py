#!/usr/bin/python3
"""Self-test of resmoke.py's upstream mode against a made-up miniature upstream tree
(buildscripts/legacy_shell/testdata/upstream_root): selection, tag exclusions with reasons,
ErrorCodes from error_codes.yml, ES-module imports, the manifest comparison and update.
Prints "N passed, M failed"."""

import os
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.join(REPO, "buildscripts", "legacy_shell", "testdata", "upstream_root")
checks = []


def check(name, cond, detail=""):
    checks.append(cond)
    print("%s %s%s" % ("ok  " if cond else "FAIL", name, "" if cond else ": " + detail))


def run(manifest, *extra):
    env = dict(os.environ, RESMOKE_UPSTREAM_MANIFEST=manifest)
    p = subprocess.run([sys.executable, os.path.join(REPO, "buildscripts", "resmoke.py"),
                        "--upstream-root", ROOT, "--suites=upstream_core_timeseries"] + list(extra),
                       cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


with tempfile.TemporaryDirectory() as tmp:
    manifest = os.path.join(tmp, "expected.yml")
    with open(manifest, "w") as f:
        f.write("upstream_core_timeseries:\n"
                "  jstests/core/timeseries/a_pass.js: pass\n"
                "  jstests/core/timeseries/b_fail.js: pass\n")
    rc, out = run(manifest)
    check("counts", "[upstream_core_timeseries] 1 passed, 1 failed, 1 excluded" in out, out[-2000:])
    check("exit status 1 on a failure", rc == 1, str(rc))
    check("exclusion names the tag and reason",
          "EXCLUDED jstests/core/timeseries/c_sharded.js (tag requires_sharding: needs a sharded" in out)
    check("regression reported", "REGRESSION [upstream_core_timeseries] jstests/core/timeseries/b_fail.js" in out)
    check("libraries are not tests", "helper.js" not in out.replace("libs/helper.js\"", ""))
    check("failure message carried", "deliberate" in out)
    rc, out = run(manifest, "--update-manifest")
    text = open(manifest).read()
    check("manifest updated", "a_pass.js: pass" in text and "b_fail.js:\n    fail:" in text and
          "c_sharded.js:\n    excluded: 'tag requires_sharding" in text, text)
    rc, out = run(manifest)
    check("no regression once recorded", "REGRESSION" not in out, out[-1000:])
    check("known failures do not fail the run", rc == 0, str(rc))
    # A run over one file, named by its absolute path: it is recorded under its path in the
    # tree, and the other entries stay.
    with open(manifest, "a") as f:
        f.write("  jstests/core/timeseries/z_elsewhere.js: pass\n")
    rc, out = run(manifest, "--update-manifest",
                  os.path.join(ROOT, "jstests/core/timeseries/b_fail.js"))
    text = open(manifest).read()
    check("partial update keeps the other entries",
          "z_elsewhere.js: pass" in text and "a_pass.js: pass" in text and
          "b_fail.js:\n    fail:" in text and ROOT not in text, text)

passed = sum(1 for c in checks if c)
print("%d passed, %d failed" % (passed, len(checks) - passed))
sys.exit(0 if passed == len(checks) else 1)
