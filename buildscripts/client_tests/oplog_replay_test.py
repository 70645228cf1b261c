#!/usr/bin/python3
"""Oplog replay: one server's oplog applied to another gives the same dbHash.

Starts server A with --replSet rs0, checks the pre-initiate errors, runs
replSetInitiate, runs a seeded random workload of --ops operations (inserts,
updates with $set/$inc/$push/$unset/$pull on nested fields and arrays,
replacements, deletes) on two collections, reads A's local.oplog.rs, starts
server B (standalone), applies the entries with applyOps, and compares dbHash.
Also checks that the replica-set config survives a restart and that a tailable
awaitData cursor on the oplog sees a new entry.

Usage: /usr/bin/python3 buildscripts/client_tests/oplog_replay_test.py
           [--mongod build/opt/mongod] [--ops 10000] [--seed 1] [--keep]
The last line is "N passed, M failed" (one test per step).
"""

import argparse
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import uuid

import bson
import pymongo
from bson import Timestamp
from pymongo import CursorType
from pymongo.errors import OperationFailure, PyMongoError

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DB = "replay"
RESULTS = []


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Mongod:
    def __init__(self, path, workdir, name, extra):
        self.path, self.workdir, self.name, self.extra = path, workdir, name, extra
        self.dbpath = os.path.join(workdir, name)
        os.makedirs(self.dbpath, exist_ok=True)
        self.proc, self.port, self.starts = None, free_port(), 0

    def start(self, timeout=60):
        self.starts += 1
        self.logpath = os.path.join(self.workdir, "%s-%d.log" % (self.name, self.starts))
        self.proc = subprocess.Popen(
            [self.path, "--dbpath", self.dbpath, "--port", str(self.port), "--bind_ip",
             "127.0.0.1", "--logpath", self.logpath] + self.extra,
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("%s exited with %s at startup" % (self.name, self.proc.returncode))
            try:
                c = self.client(serverSelectionTimeoutMS=1000)
                c.admin.command("ping")
                c.close()
                return
            except PyMongoError:
                time.sleep(0.1)
        raise RuntimeError("%s did not start" % self.name)

    def client(self, **kw):
        kw.setdefault("serverSelectionTimeoutMS", 5000)
        return pymongo.MongoClient("127.0.0.1", self.port, directConnection=True,
                                   retryWrites=False, **kw)

    def stop(self):
        if self.proc is None or self.proc.poll() is not None:
            return
        try:
            self.client(serverSelectionTimeoutMS=2000).admin.command("shutdown")
        except PyMongoError:
            pass
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


def step(name, fn):
    start = time.time()
    try:
        fn()
        RESULTS.append(True)
        print("[replay] PASS %s (%dms)" % (name, (time.time() - start) * 1000), flush=True)
        return True
    except Exception:  # noqa: BLE001 - report and continue
        RESULTS.append(False)
        print("[replay] FAIL %s:\n%s" % (name, traceback.format_exc()), flush=True)
        return False


def expect_code(code, fn):
    try:
        fn()
    except PyMongoError as e:
        got = getattr(e, "code", None) or (getattr(e, "details", None) or {}).get("code")
        assert got == code, "expected code %d, got %s: %s" % (code, got, e)
        return
    raise AssertionError("expected error code %d, command succeeded" % code)


def random_value(rnd, depth=0):
    k = rnd.randrange(6 if depth < 2 else 4)
    if k == 0:
        return rnd.randrange(-1000, 1000)
    if k == 1:
        return rnd.random() * 100
    if k == 2:
        return "s%d" % rnd.randrange(100000)
    if k == 3:
        return rnd.choice([True, False, None])
    if k == 4:
        return [random_value(rnd, depth + 1) for _ in range(rnd.randrange(4))]
    return {"f%d" % i: random_value(rnd, depth + 1) for i in range(rnd.randrange(4))}


def random_doc(rnd, _id):
    return {"_id": _id, "n": rnd.randrange(100), "tags": [rnd.randrange(10) for _ in range(3)],
            "sub": {"x": rnd.randrange(10), "arr": [{"k": i, "v": rnd.random()} for i in range(3)],
                    "deep": {"a": random_value(rnd)}},
            "pad": "p" * rnd.randrange(50), "any": random_value(rnd)}


def random_update(rnd):
    k = rnd.randrange(11)
    if k == 9:  # pipeline-style updates log $v: 2 deltas too
        return [{"$set": {"n": {"$add": [{"$ifNull": ["$n", 0]}, rnd.randrange(1, 5)]},
                          "sub.px": random_value(rnd)}}]
    if k == 10:
        return [{"$unset": ["pad", "sub.deep.a"]}, {"$set": {"pv": {"$concat": ["p", {"$toString": "$n"}]}}}]
    if k == 0:
        return {"$set": {"sub.x": rnd.randrange(1000), "sub.deep.b": random_value(rnd)}}
    if k == 1:
        return {"$inc": {"n": rnd.randrange(1, 5), "sub.x": 1}}
    if k == 2:
        return {"$push": {"tags": rnd.randrange(10)}}
    if k == 3:
        return {"$unset": {"sub.deep.a": "", "pad": ""}}
    if k == 4:
        return {"$set": {"sub.arr.1.v": rnd.random(), "sub.arr.0.new": "x"}}
    if k == 5:
        return {"$pull": {"tags": rnd.randrange(10)}}
    if k == 6:
        return {"$set": {"new.field.%d" % rnd.randrange(3): random_value(rnd)}}
    if k == 7:
        return {"$push": {"sub.arr": {"$each": [{"k": 9}], "$slice": -4}}, "$set": {"any": random_value(rnd)}}
    return {"$set": {"tags.%d" % rnd.randrange(5): "t"}, "$inc": {"sub.deep.c": 2}}


def run(args, workdir):
    a = Mongod(args.mongod, workdir, "A", ["--replSet", "rs0", "--oplogSize", "256"])
    b = Mongod(args.mongod, workdir, "B", [])
    state = {}
    try:
        a.start()
        ca = a.client()

        def before_initiate():
            hello = ca.admin.command("hello")
            assert hello["isWritablePrimary"] is False and hello.get("isreplicaset"), hello
            expect_code(94, lambda: ca.admin.command("replSetGetStatus"))
            expect_code(10107, lambda: ca[DB].c0.insert_one({"_id": 1}))
        step("before replSetInitiate: not writable, NotYetInitialized", before_initiate)

        def initiate():
            ca.admin.command("replSetInitiate")
            expect_code(23, lambda: ca.admin.command("replSetInitiate"))
            hello = ca.admin.command("hello")
            assert hello["setName"] == "rs0" and hello["isWritablePrimary"] is True, hello
            assert hello["primary"] == hello["me"] and hello["hosts"] == [hello["me"]], hello
            assert "topologyVersion" not in hello and hello["secondary"] is False, hello
            st = ca.admin.command("replSetGetStatus")
            assert st["set"] == "rs0" and st["myState"] == 1, st
            m = st["members"][0]
            assert m["stateStr"] == "PRIMARY" and m["self"] is True and m["health"] == 1, m
            first = list(ca.local.oplog.rs.find().limit(3))
            assert any(e["op"] == "n" and e["o"].get("msg") == "initiating set" for e in first), first
        step("replSetInitiate, hello and replSetGetStatus", initiate)

        def transactions_refused():
            # Multi-document transactions are not implemented: a statement in one is refused
            # (OperationNotSupportedInTransaction) and writes nothing.
            # (The server does not advertise sessions, so drivers never start one: send the
            # statement's fields by hand.)
            db = ca["txn_check"]
            expect_code(263, lambda: db.command({
                "insert": "t", "documents": [{"x": 1}],
                "lsid": {"id": bson.Binary(uuid.uuid4().bytes, 4)},
                "txnNumber": bson.Int64(1), "startTransaction": True, "autocommit": False}))
            assert db.t.count_documents({}) == 0
        step("multi-document transactions are refused", transactions_refused)

        def workload():
            rnd = random.Random(args.seed)
            db = ca[DB]
            db.create_collection("c0")
            db.c1.create_index([("n", 1)])
            ids = {"c0": [], "c1": []}
            next_id = 0
            for _ in range(args.ops):
                cname = rnd.choice(["c0", "c1"])
                coll = db[cname]
                k = rnd.random()
                if k < 0.4 or len(ids[cname]) < 10:
                    coll.insert_one(random_doc(rnd, next_id))
                    ids[cname].append(next_id)
                    next_id += 1
                elif k < 0.85:
                    coll.update_one({"_id": rnd.choice(ids[cname])}, random_update(rnd))
                elif k < 0.9:
                    _id = rnd.choice(ids[cname])
                    coll.replace_one({"_id": _id}, random_doc(rnd, _id))
                else:
                    _id = ids[cname].pop(rnd.randrange(len(ids[cname])))
                    coll.delete_one({"_id": _id})
            state["counts"] = {c: db[c].count_documents({}) for c in ("c0", "c1")}
        step("random workload of %d operations" % args.ops, workload)

        def read_oplog():
            entries = list(ca.local.oplog.rs.find({"ns": {"$regex": "^%s\\." % DB}}))
            tss = [e["ts"] for e in ca.local.oplog.rs.find({}, {"ts": 1})]
            assert tss == sorted(tss) and len(set(tss)) == len(tss), "ts not strictly increasing"
            deltas = [e for e in entries if e["op"] == "u" and e["o"].get("$v") == 2]
            assert deltas, "no $v: 2 update entries"
            for e in deltas[:50]:
                assert set(e["o2"]) == {"_id"} and "diff" in e["o"], e
            assert all(e["v"] == 2 and "wall" in e and "t" in e for e in entries)
            assert any(e["op"] == "c" and "create" in e["o"] for e in entries)
            state["entries"] = entries
            print("[replay] %d oplog entries (%d delta updates)" % (len(entries), len(deltas)))
        step("read local.oplog.rs", read_oplog)

        def replay():
            b.start()
            cb = b.client()
            cb[DB].create_collection("c0")  # applyOps tolerates the create that follows
            entries = state["entries"]
            for i in range(0, len(entries), 500):
                res = cb.admin.command("applyOps", entries[i:i + 500])
                assert res["applied"] == len(entries[i:i + 500]), res
            ha = ca[DB].command("dbHash")
            hb = cb[DB].command("dbHash")
            assert ha["collections"] == hb["collections"], (ha, hb)
            assert ha["md5"] == hb["md5"], (ha["md5"], hb["md5"])
            assert {c: cb[DB][c].count_documents({}) for c in ("c0", "c1")} == state["counts"]
            print("[replay] dbHash md5 %s on both servers" % ha["md5"])
        step("applyOps on a second server gives equal dbHash", replay)

        def tail_oplog():
            last = ca.local.oplog.rs.find().sort("$natural", -1).limit(1)[0]["ts"]
            cur = ca.local.oplog.rs.find({"ts": {"$gt": last}, "op": "i"},
                                         cursor_type=CursorType.TAILABLE_AWAIT)
            cur.max_await_time_ms(3000)
            timer = threading.Timer(0.5, lambda: a.client().replay.tail.insert_one({"_id": "x"}))
            timer.start()
            t0 = time.time()
            got = None
            while cur.alive and time.time() - t0 < 10:
                for e in cur:
                    got = e
                    break
                if got:
                    break
            timer.join()
            assert got and got["op"] == "i" and got["o"] == {"_id": "x"}, got
        step("tailable awaitData cursor on the oplog sees a new entry", tail_oplog)

        def restart():
            term = ca.admin.command("replSetGetStatus")["term"]
            ca.close()
            a.stop()
            a.start()
            c2 = a.client()
            hello = c2.admin.command("hello")
            assert hello["setName"] == "rs0" and hello["isWritablePrimary"], hello
            st = c2.admin.command("replSetGetStatus")
            assert st["term"] > term, (st["term"], term)
            c2[DB].c0.insert_one({"_id": "after-restart"})
            assert c2.local.oplog.rs.find_one({"o._id": "after-restart"})
        step("config and oplog survive a restart", restart)
    finally:
        a.stop()
        b.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mongod", default=os.path.join(REPO_ROOT, "build/opt/mongod"))
    ap.add_argument("--ops", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    workdir = tempfile.mkdtemp(prefix="oplog-replay-")
    try:
        run(args, workdir)
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        RESULTS.append(False)
    passed = sum(1 for r in RESULTS if r)
    failed = len(RESULTS) - passed
    if failed or args.keep:
        print("[replay] logs kept in %s" % workdir)
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
