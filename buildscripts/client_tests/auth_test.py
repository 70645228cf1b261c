#!/usr/bin/python3
"""Authentication and authorization with real clients against `mongod --auth`.

pymongo: the localhost exception creates the first user; SCRAM-SHA-256 and SCRAM-SHA-1
with the right password work, a wrong one fails with 18 AuthenticationFailed; without
credentials `find` fails with 13 Unauthorized; a `read` user's insert fails with 13; a
`readWrite` user inserts into and aggregates a time-series collection but cannot drop the
database (13); usersInfo hides credentials; users survive a restart. Then the same login
checks with the Node driver (auth_node_test.js) and mongosh. Last, an informational
measurement of insert throughput with and without --auth (ratio printed).
Prints one line per check and `N passed, M failed`.
Usage: auth_test.py --mongod PATH [--skip-bench]
"""
import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import pymongo
from pymongo.errors import OperationFailure

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
results = []


def check(name, ok, detail=""):
    results.append(bool(ok))
    print("[auth] %s %s%s" % ("PASS" if ok else "FAIL", name,
                              (": " + str(detail)) if detail and not ok else ""), flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Mongod:
    def __init__(self, path, dbpath, auth):
        self.path, self.dbpath, self.auth = path, dbpath, auth
        self.port = free_port()
        self.proc = None

    def start(self):
        args = [self.path, "--dbpath", self.dbpath, "--port", str(self.port), "--bind_ip",
                "127.0.0.1", "--logpath", os.path.join(self.dbpath, "mongod.log"), "--logappend"]
        if self.auth:
            args.append("--auth")
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                pymongo.MongoClient("127.0.0.1", self.port,
                                    serverSelectionTimeoutMS=500).admin.command("ping")
                return
            except Exception:
                time.sleep(0.2)
        raise RuntimeError("mongod did not start")

    def client(self, user=None, pwd=None, mech=None, source="admin"):
        kw = {"serverSelectionTimeoutMS": 5000}
        if user:
            kw.update(username=user, password=pwd, authSource=source)
            if mech:
                kw["authMechanism"] = mech
        return pymongo.MongoClient("127.0.0.1", self.port, **kw)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def log(self):
        with open(os.path.join(self.dbpath, "mongod.log")) as f:
            return f.read()


def code_of(fn):
    try:
        fn()
    except OperationFailure as e:
        return e.code
    return 0


def pymongo_steps(m):
    anon = m.client()
    check("ping needs no authentication", anon.admin.command("ping")["ok"] == 1)
    check("find without credentials is 13", code_of(lambda: list(anon.test.c.find())) == 13)
    anon.admin.command("createUser", "root", pwd="rootpw", roles=["root"])
    check("localhost exception created the first user", True)
    check("second user without credentials is 13",
          code_of(lambda: anon.admin.command("createUser", "x", pwd="x", roles=[])) == 13)
    for mech in ("SCRAM-SHA-256", "SCRAM-SHA-1"):
        c = m.client("root", "rootpw", mech)
        st = c.admin.command("connectionStatus")["authInfo"]
        check("pymongo %s with the right password" % mech,
              st["authenticatedUsers"] == [{"user": "root", "db": "admin"}], st)
        check("pymongo %s with a wrong password is 18" % mech,
              code_of(lambda: m.client("root", "nope", mech).admin.command("ping")) == 18)
    root = m.client("root", "rootpw")
    root.test.command("createUser", "reader", pwd="rpw", roles=["read"])
    root.test.command("createUser", "writer", pwd="wpw", roles=["readWrite"])
    info = root.test.command("usersInfo", "reader")["users"][0]
    check("usersInfo hides credentials", "credentials" not in info and
          sorted(info["mechanisms"]) == ["SCRAM-SHA-1", "SCRAM-SHA-256"], info)
    shown = root.test.command("usersInfo", "reader", showCredentials=True)["users"][0]
    check("usersInfo showCredentials for root",
          set(shown["credentials"]) == {"SCRAM-SHA-1", "SCRAM-SHA-256"}, shown)
    root.test.c.insert_one({"a": 1})
    reader = m.client("reader", "rpw", source="test")
    check("read user can find", len(list(reader.test.c.find())) == 1)
    check("read user insert is 13", code_of(lambda: reader.test.c.insert_one({"a": 2})) == 13)
    writer = m.client("writer", "wpw", source="test")
    writer.test.create_collection("ts", timeseries={"timeField": "t", "metaField": "m"})
    import datetime
    now = datetime.datetime.utcnow()
    writer.test.ts.insert_many([{"t": now, "m": i % 2, "v": i} for i in range(10)])
    n = list(writer.test.ts.aggregate([{"$group": {"_id": None, "n": {"$sum": 1}}}]))
    check("readWrite user inserts and aggregates a time-series collection",
          n and n[0]["n"] == 10, n)
    check("readWrite user dropDatabase is 13",
          code_of(lambda: writer.drop_database("test")) == 13)
    check("read user cannot drop the time-series collection (13)",
          code_of(lambda: reader.test.ts.drop()) == 13)
    log = m.log()
    check("failed authentication logged with id 20249", '"id":20249' in log and
          '"msg":"Authentication failed"' in log)


def node_steps(m):
    out = subprocess.run(["node", os.path.join(HERE, "auth_node_test.js"), "--port",
                          str(m.port)], capture_output=True, text=True, timeout=120, cwd=ROOT)
    for line in out.stdout.splitlines():
        if line.startswith("[node-auth]"):
            check(line[len("[node-auth] PASS "):] if " PASS " in line else line,
                  " PASS " in line, line)
    if out.returncode != 0 and "FAIL" not in out.stdout:
        check("node driver script ran", False, out.stderr[-2000:])


def mongosh_steps(m):
    mongosh = os.path.join(ROOT, "node_modules", ".bin", "mongosh")
    uri = "mongodb://writer:wpw@127.0.0.1:%d/test?authSource=test" % m.port
    out = subprocess.run([mongosh, "--quiet", "--norc", uri, "--eval",
                          "print(JSON.stringify(db.runCommand({connectionStatus: 1}).authInfo"
                          ".authenticatedUsers)); print(db.ts.countDocuments({}));"],
                         capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, MONGOSH_FORCE_DISABLE_TELEMETRY_FOR_TESTING="1"))
    check("mongosh logs in (SCRAM-SHA-256) and reads the time-series collection",
          '"user":"writer"' in out.stdout and out.stdout.strip().endswith("10"),
          out.stdout + out.stderr[-1000:])
    bad = subprocess.run([mongosh, "--quiet", "--norc",
                          "mongodb://writer:bad@127.0.0.1:%d/test?authSource=test" % m.port,
                          "--eval", "print('connected')"], capture_output=True, text=True,
                         timeout=120)
    check("mongosh with a wrong password fails", bad.returncode != 0 and
          "Authentication failed" in bad.stdout + bad.stderr, bad.stdout + bad.stderr)


def insert_rate(client, n=3000):
    coll = client.bench.c
    coll.drop()
    start = time.perf_counter()
    for i in range(n):
        coll.insert_one({"_id": i, "x": i})
    return n / (time.perf_counter() - start)


def bench(mongod_path, work):
    """Alternates unauthenticated and authenticated runs; prints the median ratio."""
    plain = Mongod(mongod_path, os.path.join(work, "plain"), auth=False)
    secure = Mongod(mongod_path, os.path.join(work, "secure"), auth=True)
    for d in (plain.dbpath, secure.dbpath):
        os.makedirs(d)
    plain.start()
    secure.start()
    try:
        secure.client().admin.command("createUser", "root", pwd="pw", roles=["root"])
        pc, sc = plain.client(), secure.client("root", "pw")
        ratios = []
        for _ in range(5):
            a = insert_rate(pc)
            b = insert_rate(sc)
            ratios.append(b / a)
        ratios.sort()
        print("[auth] insert throughput authenticated/unauthenticated (median of 5): %.3f %s"
              % (ratios[2], ["%.3f" % r for r in ratios]), flush=True)
    finally:
        plain.stop()
        secure.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mongod", default=os.path.join(ROOT, "build", "opt", "mongod"))
    ap.add_argument("--skip-bench", action="store_true")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="auth-test-")
    dbpath = os.path.join(work, "db")
    os.makedirs(dbpath)
    m = Mongod(args.mongod, dbpath, auth=True)
    try:
        m.start()
        for steps in (pymongo_steps, node_steps, mongosh_steps):
            try:
                steps(m)
            except Exception as e:  # a step's failure must not hide the others
                check(steps.__name__, False, repr(e))
        m.stop()
        m.start()
        check("users survive a restart",
              m.client("reader", "rpw", source="test").test.command("ping")["ok"] == 1)
        m.stop()
        if not args.skip_bench:
            bench(args.mongod, work)
    except Exception as e:
        check("scenario", False, repr(e))
    finally:
        m.stop()
    failed = results.count(False)
    if failed == 0:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print("[auth] kept %s" % work)
    print("%d passed, %d failed" % (results.count(True), failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
