#!/usr/bin/python3
"""The sample configuration etc/mongod.conf: mongod starts with it (`--config`, as
`run_mongod.sh --config etc/mongod.conf` runs it), takes its values (setParameter, storage,
net), lets the command line override the file key by key, and reports both, merged, in
getCmdLineOpts' `parsed`. A file with a malformed value is refused at start-up (exit 2).
Prints one line per check and `N passed, M failed`.
Usage: config_file_test.py --mongod PATH
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

from wire import command, connect, free_port  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(ROOT, "etc", "mongod.conf")
results = []


def check(name, ok, detail=""):
    results.append(bool(ok))
    print("[config-file] %s %s%s" % ("PASS" if ok else "FAIL", name,
                                     (": " + str(detail)) if detail and not ok else ""),
          flush=True)


def run(port, doc):
    """One command on a new connection."""
    with connect(port) as sock:
        return command(sock, doc)


def wait_ready(port, proc):
    deadline = time.time() + 60
    while time.time() < deadline:
        if proc.poll() is not None:
            return False
        try:
            run(port, {"ping": 1, "$db": "admin"})
            return True
        except OSError:
            time.sleep(0.2)
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mongod", required=True)
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="config-file-")
    try:
        port = free_port()
        dbpath = os.path.join(work, "db")
        os.makedirs(dbpath)
        proc = subprocess.Popen([args.mongod, "--config", SAMPLE, "--port", str(port),
                                 "--dbpath", dbpath, "--logpath", os.path.join(work, "log")],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            ok = wait_ready(port, proc)
            check("mongod starts with etc/mongod.conf and command-line overrides", ok)
            if ok:
                parsed = run(port, {"getCmdLineOpts": 1, "$db": "admin"})["parsed"]
                storage, net = parsed.get("storage", {}), parsed.get("net", {})
                check("the command line wins over the file (dbPath, port)",
                      storage.get("dbPath") == dbpath and net.get("port") == port, parsed)
                check("the file's other keys stay beside them (merged sections)",
                      storage.get("syncPeriodSecs") == 60 and net.get("bindIp") == "127.0.0.1"
                      and storage.get("wiredTiger", {}).get("collectionConfig", {})
                      .get("blockCompressor") == "snappy", parsed)
                check("parsed names the config file", parsed.get("config") == SAMPLE, parsed)
                p = run(port, {"getParameter": 1, "timeseriesBucketMaxCount": 1,
                                   "$db": "admin"})
                check("setParameter from the file is applied",
                      p.get("timeseriesBucketMaxCount") == 1000, p)
        finally:
            proc.terminate()
            proc.wait(timeout=60)

        bad = os.path.join(work, "bad.conf")
        with open(SAMPLE) as f:
            text = f.read()
        with open(bad, "w") as f:
            f.write(text.replace("authorization: disabled", "authorization: sometimes"))
        rc = subprocess.run([args.mongod, "--config", bad, "--port", str(free_port()),
                             "--dbpath", dbpath], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, timeout=60).returncode
        check("a malformed value in the file is refused at start-up (exit 2)", rc == 2, rc)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    passed = sum(results)
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
