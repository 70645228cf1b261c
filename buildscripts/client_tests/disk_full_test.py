#!/usr/bin/python3
"""Disk full: mongod on a 256 MB tmpfs (mounted by this test; it needs root) takes journaled
inserts until the filesystem is nearly full. Then writes fail with OutOfDiskSpace 14031 (the
diskSpaceMinFreeMB guard, before WiredTiger can meet ENOSPC in its journal, which would be a
panic), and so do the other commands that write data (create, createIndexes, collMod,
renameCollection, applyOps, findAndModify, aggregate with $out/$merge) while reads and drop
still work, mongod stays up and keeps serving reads of every acknowledged document; after
the filesystem grows and mongod restarts, every acknowledged document is still there.
Prints one line per check and `N passed, M failed`.
Usage: disk_full_test.py --mongod PATH
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

results = []


def check(name, ok, detail=""):
    results.append(bool(ok))
    print("[disk-full] %s %s%s" % ("PASS" if ok else "FAIL", name,
                                   (": " + str(detail)) if detail and not ok else ""), flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(mongod, dbpath, port, log):
    proc = subprocess.Popen([mongod, "--dbpath", dbpath, "--port", str(port), "--bind_ip",
                             "127.0.0.1", "--wiredTigerCacheSizeGB", "0.25", "--logpath", log],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    client = pymongo.MongoClient("127.0.0.1", port, serverSelectionTimeoutMS=1000,
                                 socketTimeoutMS=60000)
    for _ in range(100):
        try:
            client.admin.command("ping")
            return proc, client
        except pymongo.errors.PyMongoError:
            if proc.poll() is not None:
                break
            time.sleep(0.2)
    return proc, None


def stop(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def code_of(db, cmd):
    try:
        db.command(cmd)
        return 0
    except pymongo.errors.OperationFailure as e:
        return e.code


def check_other_writes_refused(client):
    """Every command that writes data is refused on the full disk; reads and drops work."""
    from bson import SON
    db, admin = client.test, client.admin
    refused = {
        "create": SON([("create", "newcoll")]),
        "create (time-series)": SON([("create", "newts"), ("timeseries", {"timeField": "t"})]),
        "createIndexes": SON([("createIndexes", "side"),
                              ("indexes", [{"key": {"a": 1}, "name": "a_1"}])]),
        "collMod": SON([("collMod", "side"), ("validator", {"a": {"$exists": True}})]),
        "aggregate with $out": SON([("aggregate", "side"), ("pipeline", [{"$out": "copy"}]),
                                    ("cursor", {})]),
        "aggregate with $merge": SON([("aggregate", "side"),
                                      ("pipeline", [{"$merge": {"into": "copy2"}}]),
                                      ("cursor", {})]),
        "findAndModify": SON([("findAndModify", "side"), ("query", {"_id": 1}),
                              ("update", {"$set": {"b": 1}})]),
    }
    for name, cmd in refused.items():
        code = code_of(db, cmd)
        check("%s is refused with OutOfDiskSpace 14031" % name, code == 14031, code)
    code = code_of(admin, SON([("renameCollection", "test.side"), ("to", "test.side2")]))
    check("renameCollection is refused with OutOfDiskSpace 14031", code == 14031, code)
    code = code_of(admin, SON([("applyOps", [{"op": "i", "ns": "test.side",
                                              "o": {"_id": 2}}])]))
    check("applyOps is refused with OutOfDiskSpace 14031", code == 14031, code)
    code = code_of(db, SON([("aggregate", "side"), ("pipeline", [{"$match": {}}]),
                            ("cursor", {})]))
    check("an aggregate without $out/$merge still runs", code == 0, code)
    code = code_of(db, SON([("drop", "victim")]))
    check("drop still works (it frees space)", code == 0, code)
    check("nothing refused was applied",
          db.side.find_one({"_id": 1}) == {"_id": 1, "a": 1} and
          "newcoll" not in db.list_collection_names() and
          len(db.side.index_information()) == 1, list(db.side.index_information()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mongod", required=True)
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="disk_full_")
    mnt = os.path.join(work, "fs")
    os.makedirs(mnt)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256m", "tmpfs", mnt]).returncode != 0:
        check("mount a 256 MB tmpfs (needs root)", False, "mount failed")
        print("%d passed, %d failed" % (sum(results), len(results) - sum(results)))
        return 1
    proc = None
    try:
        port = free_port()
        proc, client = start(args.mongod, mnt, port, os.path.join(work, "mongod.log"))
        check("mongod starts on the small filesystem", client is not None)
        if client is None:
            return 1
        coll = client.test.get_collection(
            "full", write_concern=pymongo.write_concern.WriteConcern(w=1, j=True))
        client.test.victim.insert_one({"_id": 1})
        client.test.side.insert_one({"_id": 1, "a": 1})
        acknowledged, error = 0, None
        for batch in range(2000):
            try:
                coll.insert_many([{"_id": batch * 100 + i, "p": os.urandom(2000).hex()}
                                  for i in range(100)])
                acknowledged += 100
            except pymongo.errors.BulkWriteError as e:
                acknowledged += e.details.get("nInserted", 0)
                error = e.details["writeErrors"][0]
                break
            except pymongo.errors.PyMongoError as e:
                error = {"code": getattr(e, "code", None), "errmsg": str(e)}
                break
        check("inserts eventually fail on a full disk", error is not None, "all 200000 documents fitted")
        if error is not None:
            print("[disk-full] after %d documents: %s" % (acknowledged, str(error)[:200]), flush=True)
            check("the failure is a clear write error (OutOfDiskSpace 14031)",
                  error.get("code") == 14031, error)
        alive = proc.poll() is None
        check("mongod is still running", alive)
        if alive:
            try:
                n = coll.count_documents({})
                check("reads still work and see every acknowledged document", n >= acknowledged,
                      "%d < %d" % (n, acknowledged))
            except pymongo.errors.PyMongoError as e:
                check("reads still work and see every acknowledged document", False, e)
            check_other_writes_refused(client)
        stop(proc)
        subprocess.run(["mount", "-o", "remount,size=512m", mnt])
        proc, client = start(args.mongod, mnt, free_port(), os.path.join(work, "mongod2.log"))
        check("mongod restarts once there is space again", client is not None)
        if client is not None:
            n = client.test.full.count_documents({})
            check("every acknowledged document survived the restart", n >= acknowledged,
                  "%d < %d" % (n, acknowledged))
            client.test.full.insert_one({"_id": "after"})
            check("writes work again", client.test.full.find_one({"_id": "after"}) is not None)
    finally:
        if proc is not None:
            stop(proc)
        subprocess.run(["umount", mnt])
        if os.environ.get("KEEP_DISK_FULL_TEST_DIR"):  # logs kept for debugging
            print("[disk-full] kept %s" % work)
        else:
            shutil.rmtree(work, ignore_errors=True)
    passed = sum(results)
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
