"""Upstream jstests as an input of resmoke.py (see buildscripts/README.md).

`resmoke.py --upstream-root DIR --suites=upstream_core_timeseries` runs the jstests of an
upstream MongoDB checkout (or a partial copy holding `jstests/` and
`src/mongo/base/error_codes.yml`) against our mongod under the legacy shell
(buildscripts/legacy_shell/). A suite YAML marks itself `upstream: true`; its roots are
globs under DIR, and it names why it leaves tests out:

    exclude_with_any_tags:            # upstream's @tags in the test's header comment
      requires_sharding: needs a sharded cluster
    exclude_files:
      - files: [jstests/core/timeseries/foo.js]
        reason: uses the SBE-only internal command X

Results are compared with buildscripts/resmokeconfig/upstream_expected.yml, one entry per
test: `pass`, `{fail: why}` (a known behaviour gap) or `{excluded: why}`. Nothing from
upstream is stored in this repository; only test paths and outcomes are.
"""

import json
import os
import re

import yaml

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = os.environ.get("RESMOKE_UPSTREAM_MANIFEST") or os.path.join(
    REPO_ROOT, "buildscripts", "resmokeconfig", "upstream_expected.yml")

_TAGS_RE = re.compile(r"@tags\s*:\s*\[(.*?)\]", re.S)


def test_tags(path):
    """The @tags of an upstream jstest ([] when it has none)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            head = f.read(8192)
    except OSError:
        return []
    m = _TAGS_RE.search(head)
    if not m:
        return []
    lines = [re.sub(r"^\s*(//+|\*+)", "", line) for line in m.group(1).splitlines()]
    body = re.sub(r"#[^\n]*", "", "\n".join(lines))
    return [t.strip().strip("'\"") for t in re.split(r"[,\s]+", body) if t.strip().strip("'\"*")]


def exclusion_rules(config):
    """(tag -> reason, [(glob, reason)]) from a suite's YAML config."""
    tags = config.get("exclude_with_any_tags") or {}
    if isinstance(tags, list):
        raise SystemExit("upstream suites must give a reason per excluded tag (a mapping)")
    files = []
    for entry in (config.get("selector") or {}).get("exclude_files") or []:
        if not isinstance(entry, dict) or "reason" not in entry:
            raise SystemExit("upstream suites must give a reason per excluded file: %r" % (entry,))
        for f in entry.get("files") or []:
            files.append((f, entry["reason"]))
    return tags, files


def exclusion_reason(suite, relpath, abspath, path_matches):
    for pattern, reason in suite["upstream_exclude_files"]:
        if path_matches(relpath, pattern):
            return reason
    for tag in test_tags(abspath):
        if tag in suite["upstream_exclude_tags"]:
            return "tag %s: %s" % (tag, suite["upstream_exclude_tags"][tag])
    return None


def is_helper_file(relpath):
    """Upstream keeps libraries beside tests (libs/ folders, *_util.js): not tests."""
    parts = relpath.split("/")
    return "libs" in parts[:-1] or "extras" in parts[:-1]


def error_codes_json(upstream_root, out_path):
    """Writes {codes: {name: n}, categories: {cat: [names]}} from upstream's error_codes.yml."""
    path = os.path.join(upstream_root, "src", "mongo", "base", "error_codes.yml")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        doc = yaml.safe_load(f)
    codes = {}
    categories = {}
    for e in doc.get("error_codes") or []:
        codes[e["name"]] = e["code"]
        for c in e.get("categories") or []:
            categories.setdefault(c, []).append(e["name"])
    for c in doc.get("error_categories") or []:
        categories.setdefault(c, [])
    with open(out_path, "w") as f:
        json.dump({"codes": codes, "categories": categories}, f)
    return out_path


def load_manifest():
    if not os.path.exists(MANIFEST):
        return {}
    with open(MANIFEST) as f:
        return yaml.safe_load(f) or {}


def expected_outcome(manifest, suite_name, relpath):
    """'pass', ('fail', why), ('excluded', why) or None when the manifest does not list it."""
    entry = (manifest.get(suite_name) or {}).get(relpath)
    if entry is None:
        return None
    if entry == "pass":
        return "pass"
    if isinstance(entry, dict):
        for k in ("fail", "excluded"):
            if k in entry:
                return (k, entry[k])
    return None


def write_manifest(results, suites_run):
    """
    Records this run's outcomes in the manifest: the tests of the run get their outcome (a known
    failure keeps the reason already written), every other entry stays as it was, since a run
    may cover a few files or one partial upstream tree of several.
    """
    manifest = load_manifest()
    for name in suites_run:
        old = manifest.get(name) or {}
        new = dict(old)
        for r in results:
            if r["suite"] != name:
                continue
            if r.get("excluded"):
                new[r["test"]] = {"excluded": r["reason"]}
            elif r["passed"]:
                new[r["test"]] = "pass"
            else:
                prev = old.get(r["test"])
                why = prev["fail"] if isinstance(prev, dict) and "fail" in prev else r["reason"]
                new[r["test"]] = {"fail": why}
        manifest[name] = dict(sorted(new.items()))
    header = ("# Upstream jstests and how our mongod does on them (resmoke.py --upstream-root DIR\n"
              "# --suites=upstream_... --update-manifest writes it). pass | {fail: behaviour gap}\n"
              "# | {excluded: why the test does not apply}. Paths only: no upstream code is stored.\n")
    with open(MANIFEST, "w") as f:
        f.write(header)
        yaml.safe_dump(manifest, f, default_flow_style=False, sort_keys=True, width=100)


def summarize(results, manifest):
    """Lines comparing this run with the manifest: regressions, fixes, unlisted tests."""
    lines = []
    for r in results:
        if r.get("excluded") or "upstream" not in r:
            continue
        exp = expected_outcome(manifest, r["suite"], r["test"])
        if exp == "pass" and not r["passed"]:
            lines.append("REGRESSION [%s] %s: expected to pass" % (r["suite"], r["test"]))
        elif isinstance(exp, tuple) and exp[0] == "fail" and r["passed"]:
            lines.append("FIXED [%s] %s: now passes (was: %s)" % (r["suite"], r["test"], exp[1]))
        elif exp is None:
            lines.append("NEW [%s] %s: %s" % (r["suite"], r["test"], "pass" if r["passed"] else "fail"))
    return lines
