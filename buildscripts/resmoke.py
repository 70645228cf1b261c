#!/usr/bin/python3
"""Minimal resmoke: runs jstest suites against a fresh mongod, one mongosh per file.

Usage (from anywhere; paths are resolved against the repository root):
    /usr/bin/python3 buildscripts/resmoke.py --suites=core[,core_timeseries]
        [--mongod=build/opt/mongod] [--mongosh=node_modules/.bin/mongosh]
        [--timeout=300] [--summary-json=FILE] [--keep-data] [files...]

Suites live in etc/resmoke/suites/<name>.yml:
    selector:
      roots: [jstests/core/**/*.js]
      exclude_files: [jstests/core/some_test.js, jstests/core/dir/**]
    mongod_options:
      setParameter: {name: value}

For each suite a mongod is started on a free port (127.0.0.1) with a temporary
dbpath and logpath. Each test runs as
    mongosh --quiet --norc mongodb://127.0.0.1:PORT/test <testdata.js> jstests/libs/prelude.js <file>
with the repository root as the working directory; `TestData` carries the port,
the suite and the test name. The last line printed is "N passed, M failed".

Only the standard library and PyYAML are used; run it with /usr/bin/python3.
"""

import argparse
import fnmatch
import glob
import json
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

try:
    import yaml
except ImportError:  # pragma: no cover - environment problem
    sys.stderr.write("resmoke.py needs PyYAML: run it with /usr/bin/python3 "
                     "(apt-get install python3-yaml)\n")
    sys.exit(2)

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITES_DIR = os.path.join(REPO_ROOT, "etc", "resmoke", "suites")
PRELUDE = "jstests/libs/prelude.js"
DEFAULT_MONGOD = "build/opt/mongod"
DEFAULT_MONGOSH = "node_modules/.bin/mongosh"
LEGACY_SHELL = "buildscripts/legacy_shell/shell.js"

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import resmoke_upstream  # noqa: E402


# ---------------------------------------------------------------------------
# Tiny BSON / OP_MSG client, enough for hello and shutdown.

def _bson_encode_value(key, value):
    name = key.encode() + b"\x00"
    if isinstance(value, bool):
        return b"\x08" + name + (b"\x01" if value else b"\x00")
    if isinstance(value, int):
        if -2**31 <= value < 2**31:
            return b"\x10" + name + struct.pack("<i", value)
        return b"\x12" + name + struct.pack("<q", value)
    if isinstance(value, float):
        return b"\x01" + name + struct.pack("<d", value)
    if isinstance(value, str):
        data = value.encode() + b"\x00"
        return b"\x02" + name + struct.pack("<i", len(data)) + data
    if isinstance(value, dict):
        return b"\x03" + name + bson_encode(value)
    raise TypeError("cannot encode %r" % (value,))


def bson_encode(doc):
    body = b"".join(_bson_encode_value(k, v) for k, v in doc.items())
    return struct.pack("<i", len(body) + 5) + body + b"\x00"


def _cstring(buf, pos):
    end = buf.index(b"\x00", pos)
    return buf[pos:end].decode("utf-8", "replace"), end + 1


def bson_decode(buf, pos=0):
    """Decodes the document at buf[pos:]; unknown types end decoding."""
    (size,) = struct.unpack_from("<i", buf, pos)
    end = pos + size - 1
    pos += 4
    out = {}
    while pos < end:
        t = buf[pos]
        pos += 1
        key, pos = _cstring(buf, pos)
        if t == 0x01:
            out[key] = struct.unpack_from("<d", buf, pos)[0]
            pos += 8
        elif t in (0x02, 0x0D, 0x0E):
            (n,) = struct.unpack_from("<i", buf, pos)
            out[key] = buf[pos + 4:pos + 3 + n].decode("utf-8", "replace")
            pos += 4 + n
        elif t in (0x03, 0x04):
            (n,) = struct.unpack_from("<i", buf, pos)
            sub = bson_decode(buf, pos)
            out[key] = list(sub.values()) if t == 0x04 else sub
            pos += n
        elif t == 0x05:
            (n,) = struct.unpack_from("<i", buf, pos)
            out[key] = bytes(buf[pos + 5:pos + 5 + n])
            pos += 5 + n
        elif t in (0x06, 0x0A, 0x7F, 0xFF):
            out[key] = None
        elif t == 0x07:
            out[key] = buf[pos:pos + 12].hex()
            pos += 12
        elif t == 0x08:
            out[key] = buf[pos] != 0
            pos += 1
        elif t in (0x09, 0x11, 0x12):
            out[key] = struct.unpack_from("<q", buf, pos)[0]
            pos += 8
        elif t == 0x0B:
            pattern, pos = _cstring(buf, pos)
            opts, pos = _cstring(buf, pos)
            out[key] = "/%s/%s" % (pattern, opts)
        elif t == 0x10:
            out[key] = struct.unpack_from("<i", buf, pos)[0]
            pos += 4
        elif t == 0x13:
            out[key] = bytes(buf[pos:pos + 16])
            pos += 16
        else:
            break
    return out


def _recv_exact(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionError("connection closed")
        data += chunk
    return data


def run_command(port, cmd, timeout=10.0, expect_reply=True):
    """Sends one OP_MSG command to 127.0.0.1:port and returns the reply dict."""
    body = dict(cmd)
    body.setdefault("$db", "admin")
    payload = struct.pack("<I", 0) + b"\x00" + bson_encode(body)
    header = struct.pack("<iiii", 16 + len(payload), 1, 0, 2013)
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(header + payload)
        if not expect_reply:
            try:
                sock.recv(1)
            except OSError:
                pass
            return None
        (length, _, _, opcode) = struct.unpack("<iiii", _recv_exact(sock, 16))
        rest = _recv_exact(sock, length - 16)
    if opcode != 2013:
        raise ConnectionError("unexpected reply opcode %d" % opcode)
    pos = 4
    while pos < len(rest):
        kind = rest[pos]
        pos += 1
        if kind == 0:
            return bson_decode(rest, pos)
        (size,) = struct.unpack_from("<i", rest, pos)
        pos += size
    raise ConnectionError("reply has no body section")


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------------------
# mongod fixture.

class MongodFixture:
    """One mongod process with its own port, dbpath and logpath."""

    def __init__(self, mongod_path, workdir, set_parameters, label, startup_timeout=60.0,
                 auth=False):
        self.auth = auth  # mongod_options.auth: start with --auth
        self.mongod_path = mongod_path
        self.workdir = workdir
        self.set_parameters = set_parameters or {}
        self.label = label
        self.startup_timeout = startup_timeout
        self.proc = None
        self.port = None
        self.dbpath = None
        self.logpath = None
        self.generation = 0

    def start(self):
        self.generation += 1
        self.port = free_port()
        self.dbpath = os.path.join(self.workdir, "db%d" % self.generation)
        self.logpath = os.path.join(self.workdir, "mongod%d.log" % self.generation)
        os.makedirs(self.dbpath, exist_ok=True)
        args = [self.mongod_path, "--dbpath", self.dbpath, "--port", str(self.port),
                "--bind_ip", "127.0.0.1", "--logpath", self.logpath]
        if self.auth:
            args.append("--auth")
        for name, value in self.set_parameters.items():
            if isinstance(value, bool):
                value = "true" if value else "false"
            args += ["--setParameter", "%s=%s" % (name, value)]
        self.stdout_path = os.path.join(self.workdir, "mongod%d.stdout" % self.generation)
        with open(self.stdout_path, "wb") as out:
            self.proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, cwd=self.workdir,
                                         start_new_session=True)
        deadline = time.time() + self.startup_timeout
        last_error = None
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("mongod exited with code %s during startup" % self.proc.returncode)
            try:
                reply = run_command(self.port, {"hello": 1}, timeout=2.0)
                if reply.get("ok") in (1, 1.0, True):
                    return
                last_error = "hello reply: %r" % (reply,)
            except (OSError, ConnectionError, ValueError, struct.error) as exc:
                last_error = exc
            time.sleep(0.1)
        self.kill()
        raise RuntimeError("mongod did not answer hello within %.0fs (%s)" %
                           (self.startup_timeout, last_error))

    def is_alive(self):
        return self.proc is not None and self.proc.poll() is None

    def is_responsive(self, timeout=10.0):
        if not self.is_alive():
            return False
        try:
            reply = run_command(self.port, {"ping": 1}, timeout=timeout)
            return reply.get("ok") in (1, 1.0, True)
        except (OSError, ConnectionError, ValueError, struct.error):
            return False

    def log_tail(self, lines=40):
        out = []
        for path in (self.logpath, self.stdout_path):
            try:
                with open(path, "r", errors="replace") as f:
                    content = f.read().splitlines()
            except OSError:
                continue
            if content:
                out.append("--- last %d lines of %s ---" % (min(lines, len(content)), path))
                out.extend(content[-lines:])
        return "\n".join(out)

    def kill(self):
        if self.proc is None or self.proc.poll() is not None:
            return
        try:
            self.proc.kill()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass

    def stop(self):
        """Stops mongod with the shutdown command, then SIGTERM, then SIGKILL.

        Returns the exit code, or None when the process had to be killed.
        """
        if self.proc is None:
            return None
        if self.proc.poll() is not None:
            return self.proc.returncode
        if not self.auth:  # under --auth the shutdown command needs a login: SIGTERM instead
            try:
                run_command(self.port, {"shutdown": 1}, timeout=10.0, expect_reply=False)
            except (OSError, ConnectionError, ValueError, struct.error):
                pass
            try:
                return self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
        try:
            self.proc.send_signal(signal.SIGTERM)
            return self.proc.wait(timeout=15)
        except (subprocess.TimeoutExpired, OSError):
            pass
        self.kill()
        return None


# ---------------------------------------------------------------------------
# Suites and selection.

def _glob_to_regex(pattern):
    """Translates a path glob where ** spans directories into a regex."""
    out = ""
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out += "(?:.*/)?"
            i += 3
        elif pattern.startswith("**", i):
            out += ".*"
            i += 2
        elif c == "*":
            out += "[^/]*"
            i += 1
        elif c == "?":
            out += "[^/]"
            i += 1
        else:
            out += re.escape(c)
            i += 1
    return re.compile("^" + out + "$")


def path_matches(path, pattern):
    return _glob_to_regex(pattern).match(path) is not None


def normalize(path):
    """Repository-relative path with forward slashes."""
    abspath = os.path.abspath(path)
    rel = os.path.relpath(abspath, REPO_ROOT)
    return rel.replace(os.sep, "/")


def load_suite(name):
    path = os.path.join(SUITES_DIR, name + ".yml")
    if not os.path.exists(path):
        raise SystemExit("resmoke.py: unknown suite %r (no %s)" % (name, normalize(path)))
    with open(path) as f:
        config = yaml.safe_load(f) or {}
    selector = config.get("selector") or {}
    roots = selector.get("roots") or []
    excludes = selector.get("exclude_files") or []
    mongod_options = config.get("mongod_options") or {}
    suite = {
        "name": name,
        "roots": roots,
        "exclude_files": excludes,
        "set_parameters": mongod_options.get("setParameter") or {},
        "auth": bool(mongod_options.get("auth")),
        "timeout": config.get("timeout"),
        "shell": config.get("shell", "mongosh"),
        "upstream": bool(config.get("upstream")),
    }
    if suite["upstream"]:
        tags, files = resmoke_upstream.exclusion_rules(config)
        suite["exclude_files"] = []
        suite["upstream_exclude_tags"] = tags
        suite["upstream_exclude_files"] = files
        suite["shell"] = "legacy"
    return suite


def suite_matches(suite, relpath):
    return (any(path_matches(relpath, r) for r in suite["roots"]) and
            not any(path_matches(relpath, e) for e in suite["exclude_files"]))


def select_files(suite, base=None):
    files = set()
    base = base or REPO_ROOT
    for root in suite["roots"]:
        for path in glob.glob(os.path.join(base, root), recursive=True):
            if os.path.isfile(path):
                rel = os.path.relpath(path, base).replace(os.sep, "/")
                if suite_matches(suite, rel):
                    if suite.get("upstream") and resmoke_upstream.is_helper_file(rel):
                        continue
                    files.add(rel)
    return sorted(files)


# ---------------------------------------------------------------------------
# Test execution.

def js_string(s):
    return json.dumps(s)


def run_test(args, suite, fixture, relpath, workdir, home):
    test_name = os.path.splitext(os.path.basename(relpath))[0]
    test_data = {
        "port": fixture.port,
        "host": "127.0.0.1:%d" % fixture.port,
        "uri": "mongodb://127.0.0.1:%d" % fixture.port,
        "suite": suite["name"],
        "testFile": relpath,
        "testName": test_name,
        "dbpath": fixture.dbpath,
        "setParameters": suite["set_parameters"],
        "auth": suite["auth"],
        # As upstream's resmoke sets it: tests build {storageEngine: {[TestData.storageEngine]: ...}}.
        "storageEngine": "wiredTiger",
    }
    testdata_path = os.path.join(workdir, "testdata.js")
    with open(testdata_path, "w") as f:
        f.write("globalThis.TestData = %s;\n" % json.dumps(test_data))
    if suite.get("shell") == "legacy":
        cmd = ["node", os.path.join(REPO_ROOT, LEGACY_SHELL), "--port", str(fixture.port),
               "--tools-dir", os.path.join(os.path.dirname(args.mongod), "tools")]
        cwd = REPO_ROOT
        if suite.get("upstream"):
            cmd += ["--root", args.upstream_root]
            cwd = args.upstream_root
            if args.error_codes_json:
                cmd += ["--error-codes", args.error_codes_json]
        cmd += [testdata_path, relpath]
    else:
        cwd = REPO_ROOT
        cmd = [args.mongosh, "--quiet", "--norc",
               "mongodb://127.0.0.1:%d/test?serverSelectionTimeoutMS=10000" % fixture.port,
               testdata_path, PRELUDE, relpath]
    env = dict(os.environ)
    env["MONGOSH_FORCE_DISABLE_TELEMETRY_FOR_TESTING"] = "1"
    env["HOME"] = home  # keeps mongosh's log files out of the real home
    env.setdefault("NO_COLOR", "1")
    timeout = args.timeout or suite.get("timeout") or 300
    start = time.time()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, env=env, start_new_session=True)
    timed_out = False
    try:
        output, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass
        output, _ = proc.communicate()
    elapsed = time.time() - start
    text = output.decode("utf-8", "replace")
    if timed_out:
        reason = "timed out after %ds" % timeout
    elif proc.returncode != 0:
        reason = "%s exited with code %d" % (
            "shell" if suite.get("shell") == "legacy" else "mongosh", proc.returncode)
    else:
        reason = None
    return reason, text, elapsed


def first_error_line(reason, output, relpath=None):
    """The reason, with the test's first error message (and the test's line that raised it,
    when the stack shows one) when the shell printed one."""
    if reason is None:
        return None
    where = ""
    if relpath:
        m = re.search(re.escape(relpath) + r":(\d+)", output)
        if m:
            where = " (%s:%s)" % (os.path.basename(relpath), m.group(1))
    for line in output.splitlines():
        line = line.strip()
        if line.startswith("uncaught exception:") or line.startswith("Error:") or \
                line.startswith("MongoServerError") or "AssertionError" in line:
            return "%s: %s%s" % (reason, line[:300], where)
    return reason + where


def indent(text, prefix="    "):
    return "\n".join(prefix + line for line in text.rstrip("\n").splitlines())


def run_suite(args, suite, files, results, base_tmp):
    label = "[%s]" % suite["name"]
    print("%s running %d file(s)" % (label, len(files)), flush=True)
    if not files:
        return
    workdir = tempfile.mkdtemp(prefix="%s-" % suite["name"], dir=base_tmp)
    home = os.path.join(base_tmp, "home")
    os.makedirs(home, exist_ok=True)
    fixture = MongodFixture(args.mongod, workdir, suite["set_parameters"], label,
                            auth=suite["auth"])
    try:
        fixture.start()
    except (RuntimeError, OSError) as exc:
        msg = "could not start mongod: %s" % exc
        print("%s FAIL (mongod) %s" % (label, msg), flush=True)
        tail = fixture.log_tail()
        if tail:
            print(indent(tail), flush=True)
        for relpath in files:
            results.append({"suite": suite["name"], "test": relpath, "passed": False,
                            "reason": msg, "seconds": 0.0})
            print("%s FAIL %s (not run: mongod did not start)" % (label, relpath), flush=True)
        return
    print("%s mongod started on port %d (dbpath %s)" % (label, fixture.port, fixture.dbpath),
          flush=True)
    try:
        for relpath in files:
            if suite.get("upstream"):
                why = resmoke_upstream.exclusion_reason(
                    suite, relpath, os.path.join(args.upstream_root, relpath), path_matches)
                if why:
                    results.append({"suite": suite["name"], "test": relpath, "passed": False,
                                    "excluded": True, "upstream": True, "reason": why,
                                    "seconds": 0.0})
                    print("%s EXCLUDED %s (%s)" % (label, relpath, why), flush=True)
                    continue
            reason, output, elapsed = run_test(args, suite, fixture, relpath, workdir, home)
            crash = None
            if not fixture.is_alive():
                crash = "mongod exited with code %s during the test" % fixture.proc.returncode
            elif not fixture.is_responsive():
                crash = "mongod stopped answering ping after the test"
            if crash:
                reason = crash + ("; " + reason if reason else "")
            passed = reason is None
            result = {"suite": suite["name"], "test": relpath, "passed": passed,
                      "reason": first_error_line(reason, output, relpath),
                      "seconds": round(elapsed, 2)}
            if suite.get("upstream"):
                result["upstream"] = True
            results.append(result)
            status = "PASS" if passed else "FAIL"
            print("%s %s %s (%.1fs)" % (label, status, relpath, elapsed), flush=True)
            if not passed:
                print("    reason: %s" % reason, flush=True)
                if output.strip():
                    print(indent(output), flush=True)
            elif args.verbose and output.strip():
                print(indent(output), flush=True)
            if crash:
                print(indent(fixture.log_tail()), flush=True)
                fixture.kill()
                print("%s restarting mongod (fresh dbpath) for the remaining files" % label,
                      flush=True)
                try:
                    fixture.start()
                except (RuntimeError, OSError) as exc:
                    print("%s could not restart mongod: %s" % (label, exc), flush=True)
                    remaining = files[files.index(relpath) + 1:]
                    for rest in remaining:
                        results.append({"suite": suite["name"], "test": rest, "passed": False,
                                        "reason": "not run: mongod could not be restarted",
                                        "seconds": 0.0})
                        print("%s FAIL %s (not run: mongod could not be restarted)" %
                              (label, rest), flush=True)
                    return
    finally:
        code = fixture.stop()
        if code not in (0, None):
            print("%s warning: mongod exited with code %s at shutdown" % (label, code), flush=True)
        elif code is None and fixture.proc is not None:
            print("%s warning: mongod had to be killed at shutdown" % label, flush=True)


def resolve_tool(path, what):
    if os.path.isabs(path):
        resolved = path
    else:
        resolved = os.path.join(REPO_ROOT, path)
        if not os.path.exists(resolved) and os.path.exists(os.path.abspath(path)):
            resolved = os.path.abspath(path)
    if not os.path.exists(resolved):
        raise SystemExit("resmoke.py: %s not found at %s" % (what, resolved))
    return resolved


def parse_args(argv):
    if argv and argv[0] == "run":  # accept upstream's `resmoke.py run ...`
        argv = argv[1:]
    parser = argparse.ArgumentParser(description="Run jstest suites against a fresh mongod.")
    parser.add_argument("--suites", default="",
                        help="comma-separated suite names (etc/resmoke/suites)")
    parser.add_argument("--mongod", default=DEFAULT_MONGOD)
    parser.add_argument("--mongosh", default=DEFAULT_MONGOSH)
    parser.add_argument("--timeout", type=float, default=None,
                        help="per-file timeout in seconds (default 300)")
    parser.add_argument("--summary-json", default=None, help="write a JSON summary to this file")
    parser.add_argument("--keep-data", action="store_true",
                        help="keep dbpaths and logs even if everything passed")
    parser.add_argument("--verbose", "-v", action="store_true", help="show output of passing tests")
    parser.add_argument("--upstream-root", default=None,
                        help="an upstream MongoDB checkout (jstests/, src/mongo/base/error_codes.yml)"
                             " for the upstream_* suites")
    parser.add_argument("--update-manifest", action="store_true",
                        help="write this run's upstream outcomes to upstream_expected.yml")
    parser.add_argument("--shell", choices=["mongosh", "legacy"], default=None,
                        help="run our own suites under this shell instead of the suite's")
    parser.add_argument("files", nargs="*", help="run only these files")
    return parser.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    suite_names = [s.strip() for s in args.suites.split(",") if s.strip()]
    if not suite_names and not args.files:
        raise SystemExit("resmoke.py: give --suites=NAME[,NAME] and/or test files")
    suites = [load_suite(n) for n in suite_names]
    if args.shell:
        for suite in suites:
            if not suite["upstream"]:
                suite["shell"] = args.shell
    args.error_codes_json = None
    if any(s["upstream"] for s in suites):
        if not args.upstream_root:
            raise SystemExit("resmoke.py: upstream suites need --upstream-root DIR")
        args.upstream_root = os.path.abspath(args.upstream_root)
        if not os.path.isdir(os.path.join(args.upstream_root, "jstests")):
            raise SystemExit("resmoke.py: no jstests/ under %s" % args.upstream_root)
    if args.mongosh == DEFAULT_MONGOSH:
        # npm ci when node_modules does not match package-lock.json (no-op otherwise).
        subprocess.call([os.path.join(REPO_ROOT, "buildscripts", "ensure_node_modules.sh")])
    args.mongosh = resolve_tool(args.mongosh, "mongosh (run `npm ci --no-audit --no-fund`)")

    plan = []  # (suite, files)
    if args.files:
        wanted = []
        for f in args.files:
            if args.upstream_root and any(s["upstream"] for s in suites):
                # A file of the upstream tree, named from it or by a path into it: recorded
                # by its path in the tree (the manifest's key).
                rel = os.path.relpath(os.path.abspath(f), args.upstream_root) \
                    if os.path.isabs(f) else f
                if not rel.startswith("..") and os.path.isfile(os.path.join(args.upstream_root, rel)):
                    wanted.append(rel)
                    continue
            if not os.path.isfile(f) and os.path.isfile(os.path.join(REPO_ROOT, f)):
                f = os.path.join(REPO_ROOT, f)
            if not os.path.isfile(f):
                raise SystemExit("resmoke.py: no such test file: %s" % f)
            wanted.append(normalize(f))
        if not suites:
            suites = [{"name": "adhoc", "roots": [], "exclude_files": [], "set_parameters": {},
                       "timeout": None, "auth": False, "shell": "mongosh", "upstream": False}]
        assigned = set()
        for suite in suites:
            mine = [f for f in wanted if suite_matches(suite, f)]
            assigned.update(mine)
            plan.append((suite, mine))
        leftover = [f for f in wanted if f not in assigned]
        if leftover:
            plan[0] = (plan[0][0], sorted(set(plan[0][1]) | set(leftover)))
    else:
        plan = [(suite, select_files(suite, args.upstream_root if suite["upstream"] else None))
                for suite in suites]

    n_planned = sum(len(files) for _, files in plan)
    if n_planned:
        try:
            args.mongod = resolve_tool(args.mongod, "mongod")
        except SystemExit as exc:
            print(exc)
            if args.summary_json:
                with open(args.summary_json, "w") as f:
                    json.dump({"passed": 0, "failed": n_planned,
                               "failures": [{"suite": s["name"], "test": t, "reason": str(exc)}
                                            for s, files in plan for t in files]}, f, indent=2)
            print("0 passed, %d failed" % n_planned)
            return 1
    if n_planned and not all(s.get("upstream") for s, _ in plan) and \
            not os.path.isfile(os.path.join(REPO_ROOT, "jstests", "libs", "error_codes.js")):
        # Generated from idl/error_codes.idl by the build (git-ignored).
        raise SystemExit("resmoke.py: jstests/libs/error_codes.js is missing; run "
                         "buildscripts/build.sh (or scons ... mongod) first")
    base_tmp = tempfile.mkdtemp(prefix="resmoke-")
    if args.upstream_root:
        args.error_codes_json = resmoke_upstream.error_codes_json(
            args.upstream_root, os.path.join(base_tmp, "error_codes.json"))
    results = []
    start = time.time()
    try:
        for suite, files in plan:
            run_suite(args, suite, files, results, base_tmp)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
    excluded = [r for r in results if r.get("excluded")]
    results_run = [r for r in results if not r.get("excluded")]
    passed = sum(1 for r in results_run if r["passed"])
    failed = len(results_run) - passed
    upstream_run = [s["name"] for s, _ in plan if s["upstream"]]
    if upstream_run:
        manifest = resmoke_upstream.load_manifest()
        for line in resmoke_upstream.summarize(results, manifest):
            print(line)
        for name in upstream_run:
            mine = [r for r in results if r["suite"] == name]
            ran = [r for r in mine if not r.get("excluded")]
            ok = sum(1 for r in ran if r["passed"])
            print("[%s] %d passed, %d failed, %d excluded (pass rate %.0f%% of %d run)" % (
                name, ok, len(ran) - ok, len(mine) - len(ran),
                100.0 * ok / len(ran) if ran else 0.0, len(ran)))
        if args.update_manifest:
            resmoke_upstream.write_manifest(results, upstream_run)
            print("wrote %s" % normalize(resmoke_upstream.MANIFEST))
    failures = [{"suite": r["suite"], "test": r["test"], "reason": r["reason"]}
                for r in results_run if not r["passed"]]
    if failures:
        print("failed tests:")
        for f in failures:
            print("  [%s] %s: %s" % (f["suite"], f["test"], f["reason"]))
    if failures or args.keep_data:
        print("dbpaths and logs kept in %s" % base_tmp)
    else:
        shutil.rmtree(base_tmp, ignore_errors=True)
    print("total time %.1fs" % (time.time() - start))
    if args.summary_json:
        with open(args.summary_json, "w") as f:
            json.dump({"passed": passed, "failed": failed, "failures": failures,
                       "tests": results}, f, indent=2)
            f.write("\n")
    print("%d passed, %d failed" % (passed, failed), flush=True)
    # Upstream failures the manifest already records as behaviour gaps do not fail the run.
    manifest = resmoke_upstream.load_manifest() if upstream_run else {}
    unexpected = [r for r in results_run if not r["passed"] and not (
        r.get("upstream") and isinstance(resmoke_upstream.expected_outcome(
            manifest, r["suite"], r["test"]), tuple))]
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
