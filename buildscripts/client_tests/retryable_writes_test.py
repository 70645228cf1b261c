#!/usr/bin/python3
"""Retryable writes: exactly-once through a connection closed after the write was applied.

Starts a one-node replica set (--replSet rs0, enableTestCommands=1), then with pymongo 3.11
(retryWrites=true) turns on the onPrimaryTransactionalWrite fail point (closeConnection: the
server applies the write, then drops the connection without a reply) and runs insert,
insertMany, update, upsert, delete, findAndModify and a time-series insert: the driver
retries each write and the collection shows it applied exactly once, with the driver
getting the original result. Also failCommand (closeConnection, errorCode + the
RetryableWriteError label), raw retries of one command (a partly executed batch, an older
txnNumber, multi:true), the Node driver test (retryable_writes_node_test.js), and a retry
after kill -9 and restart that still answers the first result.

Usage: /usr/bin/python3 buildscripts/client_tests/retryable_writes_test.py
           [--mongod build/opt/mongod] [--keep] [--skip-kill9]
The last line is "N passed, M failed".
"""

import argparse
import datetime
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import uuid

import bson
import pymongo
from bson import SON, Int64
from bson.binary import Binary, UUID_SUBTYPE
from pymongo import monitoring, ReturnDocument
from pymongo.errors import OperationFailure, PyMongoError

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(os.path.dirname(HERE))
RESULTS = []


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Mongod:
    def __init__(self, path, workdir):
        self.path, self.workdir = path, workdir
        self.dbpath = os.path.join(workdir, "db")
        os.makedirs(self.dbpath, exist_ok=True)
        self.proc, self.port, self.starts = None, free_port(), 0

    def start(self, timeout=60):
        self.starts += 1
        self.logpath = os.path.join(self.workdir, "mongod-%d.log" % self.starts)
        self.proc = subprocess.Popen(
            [self.path, "--dbpath", self.dbpath, "--port", str(self.port), "--bind_ip",
             "127.0.0.1", "--logpath", self.logpath, "--replSet", "rs0", "--oplogSize", "64",
             "--setParameter", "enableTestCommands=1"],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("mongod exited with %s at startup" % self.proc.returncode)
            try:
                raw_command(self.port, {"ping": 1, "$db": "admin"}, timeout=1)
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("mongod did not start")

    def wait_primary(self, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            r = raw_command(self.port, {"hello": 1, "$db": "admin"})
            if r.get("isWritablePrimary"):
                return r
            time.sleep(0.1)
        raise RuntimeError("not primary")

    def kill9(self):
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        if self.proc is None or self.proc.poll() is not None:
            return
        try:
            raw_command(self.port, {"shutdown": 1, "$db": "admin"}, timeout=5)
        except OSError:
            pass
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.kill9()


_request_id = [0]


def raw_command(port, cmd, timeout=10.0):
    """Sends one OP_MSG command (no driver: lsid/txnNumber are ours) and returns the reply."""
    body = bson.encode(SON(cmd) if not isinstance(cmd, SON) else cmd)
    _request_id[0] += 1
    payload = struct.pack("<I", 0) + b"\x00" + body
    header = struct.pack("<iiii", 16 + len(payload), _request_id[0], 0, 2013)
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(header + payload)
        head = _recv(s, 16)
        (length,) = struct.unpack("<i", head[:4])
        rest = _recv(s, length - 16)
    return bson.decode(rest[5:])


def _recv(s, n):
    buf = b""
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("connection closed")
        buf += chunk
    return buf


def step(name, fn):
    start = time.time()
    try:
        fn()
        RESULTS.append(True)
        print("[retryable] PASS %s (%dms)" % (name, (time.time() - start) * 1000), flush=True)
    except Exception:  # noqa: BLE001 - report and continue
        RESULTS.append(False)
        print("[retryable] FAIL %s:\n%s" % (name, traceback.format_exc()), flush=True)


class Recorder(monitoring.CommandListener):
    """Remembers the commands sent (name, txnNumber)."""

    def __init__(self):
        self.sent = []

    def started(self, event):
        self.sent.append((event.command_name, event.command.get("txnNumber")))

    def succeeded(self, event):
        pass

    def failed(self, event):
        pass

    def attempts(self, name):
        return [t for (n, t) in self.sent if n == name]


def new_lsid():
    return {"id": Binary(uuid.uuid4().bytes, UUID_SUBTYPE)}


def run(args, m):
    rec = Recorder()
    client = pymongo.MongoClient("127.0.0.1", m.port, directConnection=True, retryWrites=True,
                                 event_listeners=[rec], serverSelectionTimeoutMS=10000)
    admin = client.admin
    db = client.rw

    def fail_after_write(times=1):
        r = admin.command(SON([("configureFailPoint", "onPrimaryTransactionalWrite"),
                               ("mode", {"times": times}),
                               ("data", {"closeConnection": True})]))
        assert r["ok"] == 1 and "count" in r, r

    def off(name):
        admin.command(SON([("configureFailPoint", name), ("mode", "off")]))

    def retried_once(name):
        tx = rec.attempts(name)[-2:]
        assert len(tx) == 2 and tx[0] is not None and tx[0] == tx[1], rec.sent[-6:]

    def hello_reports_a_replica_set():
        r = raw_command(m.port, {"hello": 1, "$db": "admin"})
        assert r.get("setName") == "rs0" and r.get("isWritablePrimary") is True, r
        assert r.get("logicalSessionTimeoutMinutes") == 30, r

    def insert_one_exactly_once():
        db.c.drop()
        fail_after_write()
        res = db.c.insert_one({"_id": 1, "x": "a"})
        assert res.inserted_id == 1
        retried_once("insert")
        assert db.c.count_documents({}) == 1

    def insert_many_exactly_once():
        db.c.drop()
        fail_after_write()
        res = db.c.insert_many([{"_id": i} for i in range(5)])
        assert res.inserted_ids == list(range(5))
        retried_once("insert")
        assert db.c.count_documents({}) == 5

    def update_one_exactly_once():
        db.c.drop()
        db.c.insert_one({"_id": 1, "n": 0})
        fail_after_write()
        res = db.c.update_one({"_id": 1}, {"$inc": {"n": 1}})
        assert (res.matched_count, res.modified_count) == (1, 1), res.raw_result
        retried_once("update")
        assert db.c.find_one({"_id": 1})["n"] == 1

    def upsert_returns_the_first_upserted_id():
        db.c.drop()
        fail_after_write()
        res = db.c.update_one({"k": "u"}, {"$inc": {"n": 1}}, upsert=True)
        retried_once("update")
        docs = list(db.c.find({"k": "u"}))
        assert len(docs) == 1 and docs[0]["n"] == 1, docs
        assert res.upserted_id == docs[0]["_id"], (res.raw_result, docs)

    def delete_one_exactly_once():
        db.c.drop()
        db.c.insert_many([{"_id": 1, "g": 1}, {"_id": 2, "g": 1}])
        fail_after_write()
        res = db.c.delete_one({"g": 1})
        assert res.deleted_count == 1, res.raw_result
        retried_once("delete")
        assert db.c.count_documents({}) == 1

    def find_one_and_update_returns_the_original_value():
        db.c.drop()
        db.c.insert_one({"_id": 1, "n": 10})
        fail_after_write()
        doc = db.c.find_one_and_update({"_id": 1}, {"$inc": {"n": 1}},
                                       return_document=ReturnDocument.AFTER)
        assert doc == {"_id": 1, "n": 11}, doc
        retried_once("findAndModify")
        assert db.c.find_one({"_id": 1})["n"] == 11
        fail_after_write()
        before = db.c.find_one_and_update({"_id": 1}, {"$inc": {"n": 5}})
        assert before == {"_id": 1, "n": 11}, before
        assert db.c.find_one({"_id": 1})["n"] == 16

    def find_one_and_delete_exactly_once():
        db.c.drop()
        db.c.insert_many([{"_id": 1, "g": 1}, {"_id": 2, "g": 1}])
        fail_after_write()
        doc = db.c.find_one_and_delete({"g": 1}, sort=[("_id", 1)])
        assert doc == {"_id": 1, "g": 1}, doc
        retried_once("findAndModify")
        assert db.c.count_documents({}) == 1

    def timeseries_insert_exactly_once():
        db.ts.drop()
        db.create_collection("ts", timeseries={"timeField": "t", "metaField": "m"})
        fail_after_write()
        t0 = datetime.datetime(2024, 1, 1)
        res = db.ts.insert_many([{"t": t0 + datetime.timedelta(seconds=i), "m": i % 2, "v": i}
                                 for i in range(6)])
        assert len(res.inserted_ids) == 6
        retried_once("insert")
        assert db.ts.count_documents({}) == 6, db.ts.count_documents({})

    def ts_seed(name):
        db[name].drop()
        db.create_collection(name, timeseries={"timeField": "t", "metaField": "m"})
        t0 = datetime.datetime(2024, 3, 1)
        db[name].insert_many([{"_id": i, "t": t0 + datetime.timedelta(seconds=i), "m": i % 2,
                               "v": i} for i in range(6)])
        return t0

    def timeseries_update_one_exactly_once():
        ts_seed("tsu")
        fail_after_write()
        res = db.tsu.update_one({"_id": 3}, {"$inc": {"v": 100}})
        assert (res.matched_count, res.modified_count) == (1, 1), res.raw_result
        retried_once("update")
        assert db.tsu.find_one({"_id": 3})["v"] == 103, list(db.tsu.find())
        assert db.tsu.count_documents({}) == 6

    def timeseries_upsert_returns_the_first_upserted_id():
        t0 = ts_seed("tsu")
        fail_after_write()
        res = db.tsu.update_one({"m": 7, "t": t0}, {"$inc": {"v": 1}}, upsert=True)
        retried_once("update")
        docs = list(db.tsu.find({"m": 7}))
        assert len(docs) == 1 and docs[0]["v"] == 1, docs
        assert res.upserted_id == docs[0]["_id"], (res.raw_result, docs)
        assert db.tsu.count_documents({}) == 7

    def timeseries_delete_one_exactly_once():
        ts_seed("tsd")
        fail_after_write()
        res = db.tsd.delete_one({"m": 0})
        assert res.deleted_count == 1, res.raw_result
        retried_once("delete")
        assert db.tsd.count_documents({"m": 0}) == 2, list(db.tsd.find())

    def timeseries_find_one_and_update_and_delete_exactly_once():
        ts_seed("tsf")
        fail_after_write()
        doc = db.tsf.find_one_and_update({"_id": 2}, {"$inc": {"v": 10}},
                                         return_document=ReturnDocument.AFTER,
                                         projection={"_id": 1, "v": 1})
        assert doc == {"_id": 2, "v": 12}, doc
        retried_once("findAndModify")
        assert db.tsf.find_one({"_id": 2})["v"] == 12
        fail_after_write()
        gone = db.tsf.find_one_and_delete({"m": 1}, projection={"_id": 0, "v": 1})
        assert gone is not None and "v" in gone and "_id" not in gone, gone
        retried_once("findAndModify")
        assert db.tsf.count_documents({"m": 1}) == 2, list(db.tsf.find())

    def timeseries_raw_retry_answers_the_first_result():
        ts_seed("tsr")
        lsid = new_lsid()
        cmd = SON([("update", "tsr"), ("updates", [{"q": {"_id": 1}, "u": {"$inc": {"v": 5}}},
                                                   {"q": {"_id": 4}, "u": {"$set": {"v": -1}}}]),
                   ("lsid", lsid), ("txnNumber", Int64(4)), ("$db", "rw")])
        first = raw_command(m.port, cmd)
        assert first["ok"] == 1 and first["n"] == 2 and first["nModified"] == 2, first
        again = raw_command(m.port, cmd)
        assert again["n"] == 2 and again["nModified"] == 2 and "writeErrors" not in again, again
        assert db.tsr.find_one({"_id": 1})["v"] == 6 and db.tsr.find_one({"_id": 4})["v"] == -1
        # Statement 0 of txnNumber 4 was an update: a delete retrying it is refused.
        kind = raw_command(m.port, SON([("delete", "tsr"), ("deletes", [{"q": {"_id": 1}, "limit": 1}]),
                                        ("lsid", lsid), ("txnNumber", Int64(4)), ("$db", "rw")]))
        assert kind["ok"] == 1 and kind["writeErrors"][0]["code"] == 40637, kind
        assert db.tsr.count_documents({"_id": 1}) == 1
        multi = raw_command(m.port, SON([("update", "tsr"),
                                         ("updates", [{"q": {}, "u": {"$set": {"a": 1}},
                                                       "multi": True}]),
                                         ("lsid", lsid), ("txnNumber", Int64(5)), ("$db", "rw")]))
        assert multi["ok"] == 1 and multi["writeErrors"][0]["code"] == 72, multi
        limit0 = raw_command(m.port, SON([("delete", "tsr"), ("deletes", [{"q": {}, "limit": 0}]),
                                          ("lsid", lsid), ("txnNumber", Int64(6)), ("$db", "rw")]))
        assert limit0["ok"] == 1 and limit0["writeErrors"][0]["code"] == 72, limit0
        assert db.tsr.count_documents({}) == 6

    def busy_session_wait_honours_max_time_and_kill_op():
        # A retryable delete that scans slowly and matches nothing holds its session.
        db.slow.drop()
        db.slow.insert_many([{"_id": i} for i in range(3000)])
        lsid = new_lsid()
        slow_q = {"$expr": {"$lt": [{"$size": {"$range": [0, 200000]}}, 0]}}

        def delete_cmd(comment, extra=()):
            return SON([("delete", "slow"), ("deletes", [{"q": slow_q, "limit": 1}]),
                        ("lsid", lsid), ("txnNumber", Int64(1)), ("comment", comment)]
                       + list(extra) + [("$db", "rw")])

        def op_of(comment):
            ops = admin.command(SON([("currentOp", 1), ("command.comment", comment)]))["inprog"]
            return ops[0] if ops else None

        def wait_op(comment):
            deadline = time.time() + 30
            while time.time() < deadline:
                op = op_of(comment)
                if op:
                    return op
                time.sleep(0.05)
            raise AssertionError("%s never showed up in currentOp" % comment)

        results = {}

        def run_in_thread(key, cmd):
            def body():
                try:
                    results[key] = raw_command(m.port, cmd, timeout=120)
                except Exception as e:  # noqa: BLE001 - reported by the asserts below
                    results[key] = {"exception": repr(e)}
            t = threading.Thread(target=body)
            t.start()
            return t

        holder = run_in_thread("holder", delete_cmd("holder"))
        wait_op("holder")
        start = time.time()
        timed = raw_command(m.port, delete_cmd("timed", [("maxTimeMS", 300)]), timeout=60)
        assert timed["ok"] == 0 and timed["code"] == 50, timed  # MaxTimeMSExpired
        assert time.time() - start < 10, time.time() - start
        assert op_of("holder") is not None, "the holder ended before the wait was tested"
        waiter = run_in_thread("waiter", delete_cmd("waiter"))
        op = wait_op("waiter")
        admin.command(SON([("killOp", 1), ("op", op["opid"])]))
        waiter.join(30)
        assert results["waiter"].get("code") == 11601, results["waiter"]  # Interrupted
        # killSessions interrupts the holder itself.
        admin.command(SON([("killSessions", [lsid])]))
        holder.join(60)
        h = results["holder"]
        code = h.get("code") or (h.get("writeErrors") or [{}])[0].get("code")
        assert code == 11601, h

    def fail_command_close_connection_before_the_write():
        db.c.drop()
        admin.command(SON([("configureFailPoint", "failCommand"), ("mode", {"times": 1}),
                           ("data", {"failCommands": ["insert"], "closeConnection": True})]))
        db.c.insert_one({"_id": 1})
        retried_once("insert")
        assert db.c.count_documents({}) == 1

    def fail_command_error_code_is_labelled_and_retried():
        db.c.drop()
        admin.command(SON([("configureFailPoint", "failCommand"), ("mode", {"times": 1}),
                           ("data", {"failCommands": ["insert"], "errorCode": 91})]))
        db.c.insert_one({"_id": 1})
        retried_once("insert")
        assert db.c.count_documents({}) == 1
        # The label itself, on a raw retryable insert.
        admin.command(SON([("configureFailPoint", "failCommand"), ("mode", {"times": 1}),
                           ("data", {"failCommands": ["insert"], "errorCode": 91})]))
        r = raw_command(m.port, SON([("insert", "c"), ("documents", [{"_id": 2}]),
                                     ("lsid", new_lsid()), ("txnNumber", Int64(1)),
                                     ("$db", "rw")]))
        assert r["ok"] == 0 and r["code"] == 91, r
        assert r.get("errorLabels") == ["RetryableWriteError"], r
        # Not a retryable write: no label.
        admin.command(SON([("configureFailPoint", "failCommand"), ("mode", {"times": 1}),
                           ("data", {"failCommands": ["insert"], "errorCode": 91})]))
        r = raw_command(m.port, SON([("insert", "c"), ("documents", [{"_id": 3}]),
                                     ("$db", "rw")]))
        assert r["code"] == 91 and "errorLabels" not in r, r

    def raw_retry_runs_only_the_missing_statements():
        db.c.drop()
        lsid = new_lsid()
        first = raw_command(m.port, SON([("insert", "c"), ("documents", [{"_id": 1}, {"_id": 2}]),
                                         ("lsid", lsid), ("txnNumber", Int64(7)), ("$db", "rw")]))
        assert first["ok"] == 1 and first["n"] == 2, first
        again = raw_command(m.port, SON([("insert", "c"),
                                         ("documents", [{"_id": 1}, {"_id": 2}, {"_id": 3}]),
                                         ("lsid", lsid), ("txnNumber", Int64(7)), ("$db", "rw")]))
        assert again["ok"] == 1 and again["n"] == 3 and "writeErrors" not in again, again
        assert sorted(d["_id"] for d in db.c.find()) == [1, 2, 3]
        old = raw_command(m.port, SON([("insert", "c"), ("documents", [{"_id": 9}]),
                                       ("lsid", lsid), ("txnNumber", Int64(6)), ("$db", "rw")]))
        assert old["ok"] == 0 and old["code"] == 225, old  # TransactionTooOld
        # Statement 0 of txnNumber 7 was an insert: a delete retrying it is refused.
        kind = raw_command(m.port, SON([("delete", "c"), ("deletes", [{"q": {"_id": 1}, "limit": 1}]),
                                        ("lsid", lsid), ("txnNumber", Int64(7)), ("$db", "rw")]))
        assert kind["ok"] == 0 and kind["code"] == 40637, kind
        assert db.c.count_documents({"_id": 1}) == 1
        multi = raw_command(m.port, SON([("update", "c"),
                                         ("updates", [{"q": {}, "u": {"$set": {"a": 1}},
                                                       "multi": True}]),
                                         ("lsid", lsid), ("txnNumber", Int64(8)), ("$db", "rw")]))
        assert multi["ok"] == 1 and multi["writeErrors"][0]["code"] == 72, multi

    def configure_fail_point_errors():
        try:
            admin.command(SON([("configureFailPoint", "noSuchFailPoint"), ("mode", "off")]))
            raise AssertionError("expected FailPointSetFailed")
        except OperationFailure as e:
            assert e.code == 266, e.details
        try:
            admin.command(SON([("configureFailPoint", "failCommand"), ("mode", "sometimes")]))
            raise AssertionError("expected BadValue")
        except OperationFailure as e:
            assert e.code == 2, e.details

    def node_driver():
        out = subprocess.run(["node", os.path.join(HERE, "retryable_writes_node_test.js"), "--uri",
                              "mongodb://127.0.0.1:%d/?directConnection=true" % m.port],
                             capture_output=True, text=True, timeout=240, cwd=REPO_ROOT)
        sys.stdout.write(out.stdout)
        last = out.stdout.strip().splitlines()[-1] if out.stdout.strip() else ""
        assert out.returncode == 0 and last.endswith(" 0 failed"), (last, out.stderr[-2000:])

    step("hello reports a replica set", hello_reports_a_replica_set)
    step("insert_one exactly once after closeConnection", insert_one_exactly_once)
    step("insert_many exactly once after closeConnection", insert_many_exactly_once)
    step("update_one exactly once after closeConnection", update_one_exactly_once)
    step("upsert returns the first upserted id", upsert_returns_the_first_upserted_id)
    step("delete_one exactly once after closeConnection", delete_one_exactly_once)
    step("find_one_and_update returns the original value",
         find_one_and_update_returns_the_original_value)
    step("find_one_and_delete exactly once", find_one_and_delete_exactly_once)
    step("time-series insert exactly once", timeseries_insert_exactly_once)
    step("time-series update_one exactly once", timeseries_update_one_exactly_once)
    step("time-series upsert returns the first upserted id",
         timeseries_upsert_returns_the_first_upserted_id)
    step("time-series delete_one exactly once", timeseries_delete_one_exactly_once)
    step("time-series findAndModify exactly once",
         timeseries_find_one_and_update_and_delete_exactly_once)
    step("time-series raw retry answers the first result",
         timeseries_raw_retry_answers_the_first_result)
    step("a busy session's waiter honours maxTimeMS and killOp",
         busy_session_wait_honours_max_time_and_kill_op)
    step("failCommand closeConnection before the write", fail_command_close_connection_before_the_write)
    step("failCommand errorCode is labelled and retried", fail_command_error_code_is_labelled_and_retried)
    step("raw retry runs only the missing statements", raw_retry_runs_only_the_missing_statements)
    step("configureFailPoint errors", configure_fail_point_errors)
    for name in ("onPrimaryTransactionalWrite", "failCommand"):
        off(name)
    step("Node driver exactly once", node_driver)
    client.close()

    if args.skip_kill9:
        return

    lsid = new_lsid()
    ts_lsid = new_lsid()
    ts_fam_lsid = new_lsid()
    saved = {}

    def before_crash():
        db2 = pymongo.MongoClient("127.0.0.1", m.port, directConnection=True).rw
        db2.k.drop()
        db2.k.insert_one({"_id": 1, "n": 0})
        saved["ins"] = raw_command(m.port, SON([("insert", "k"), ("documents", [{"_id": 2}]),
                                                ("lsid", lsid), ("txnNumber", Int64(1)),
                                                ("$db", "rw")]))
        saved["fam"] = raw_command(m.port, SON([("findAndModify", "k"), ("query", {"_id": 1}),
                                                ("update", {"$inc": {"n": 1}}), ("new", True),
                                                ("lsid", lsid), ("txnNumber", Int64(2)),
                                                ("writeConcern", {"j": True}), ("$db", "rw")]))
        assert saved["fam"]["value"] == {"_id": 1, "n": 1}, saved
        db2.kts.drop()
        db2.create_collection("kts", timeseries={"timeField": "t", "metaField": "m"})
        saved["ts"] = raw_command(m.port, ts_insert_command())
        assert saved["ts"]["ok"] == 1 and saved["ts"]["n"] == 4, saved["ts"]
        saved["tsfam"] = raw_command(m.port, ts_fam_command())
        assert saved["tsfam"]["ok"] == 1 and saved["tsfam"]["value"]["v"] == 101, saved["tsfam"]
        m.kill9()
        m.start()
        m.wait_primary()

    def ts_insert_command():
        t0 = datetime.datetime(2024, 2, 1)
        docs = [{"t": t0 + datetime.timedelta(seconds=i), "m": i % 2, "v": i} for i in range(4)]
        return SON([("insert", "kts"), ("documents", docs), ("ordered", False), ("lsid", ts_lsid),
                    ("txnNumber", Int64(3)), ("writeConcern", {"j": True}), ("$db", "rw")])

    def ts_fam_command():
        return SON([("findAndModify", "kts"), ("query", {"v": 1}), ("update", {"$inc": {"v": 100}}),
                    ("new", True), ("lsid", ts_fam_lsid), ("txnNumber", Int64(4)),
                    ("writeConcern", {"j": True}), ("$db", "rw")])

    def retry_after_restart_answers_the_first_result():
        fam = raw_command(m.port, SON([("findAndModify", "k"), ("query", {"_id": 1}),
                                       ("update", {"$inc": {"n": 1}}), ("new", True),
                                       ("lsid", lsid), ("txnNumber", Int64(2)), ("$db", "rw")]))
        assert fam["ok"] == 1 and fam["value"] == {"_id": 1, "n": 1}, fam
        assert fam["lastErrorObject"] == saved["fam"]["lastErrorObject"], (fam, saved)
        old = raw_command(m.port, SON([("insert", "k"), ("documents", [{"_id": 2}]),
                                       ("lsid", lsid), ("txnNumber", Int64(1)), ("$db", "rw")]))
        assert old["code"] == 225, old
        db3 = pymongo.MongoClient("127.0.0.1", m.port, directConnection=True).rw
        assert db3.k.find_one({"_id": 1})["n"] == 1
        assert db3.k.count_documents({}) == 2
        ts = raw_command(m.port, ts_insert_command())
        assert ts["ok"] == 1 and ts["n"] == 4, ts
        assert db3.kts.count_documents({}) == 4, db3.kts.count_documents({})
        tsfam = raw_command(m.port, ts_fam_command())
        assert tsfam["ok"] == 1 and tsfam["value"] == saved["tsfam"]["value"], (tsfam, saved)
        assert tsfam["lastErrorObject"] == saved["tsfam"]["lastErrorObject"], (tsfam, saved)
        assert db3.kts.count_documents({"v": 101}) == 1 and db3.kts.count_documents({"v": 201}) == 0

    step("writes before kill -9", before_crash)
    step("retry after kill -9 and restart answers the first result",
         retry_after_restart_answers_the_first_result)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mongod", default=os.path.join(REPO_ROOT, "build", "opt", "mongod"))
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--skip-kill9", action="store_true")
    args = ap.parse_args()
    workdir = tempfile.mkdtemp(prefix="retryable_writes_")
    m = Mongod(os.path.abspath(args.mongod), workdir)
    try:
        m.start()
        r = raw_command(m.port, {"replSetInitiate": {}, "$db": "admin"})
        assert r.get("ok") == 1, r
        m.wait_primary()
        run(args, m)
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        RESULTS.append(False)
    finally:
        m.stop()
    passed = sum(1 for r in RESULTS if r)
    failed = len(RESULTS) - passed
    if failed == 0 and not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    else:
        print("dbpath and logs kept in %s" % workdir)
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
