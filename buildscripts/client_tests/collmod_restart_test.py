#!/usr/bin/python3
"""collMod changes are durable, and clustered collections expire by _id.

Starts mongod (ttlMonitorSleepSecs=1) on a temporary dbpath and, with pymongo:
  * makes collMod changes of every kind (validator + level + action, index hidden,
    expireAfterSeconds, prepareUnique then unique, time-series granularity and
    expireAfterSeconds, clustered expireAfterSeconds), restarts mongod (clean shutdown,
    then kill -9 after a second round of changes) and checks each change is still in
    listCollections / listIndexes and still enforced (validator, unique index, UUID kept,
    new time-series buckets use the new span);
  * creates a clustered collection with expireAfterSeconds and checks the TTL monitor
    deletes documents whose _id (ObjectId or date) is old, and keeps recent ones.

Usage: /usr/bin/python3 buildscripts/client_tests/collmod_restart_test.py [--mongod build/opt/mongod]
The last line is "N passed, M failed".
"""

import argparse
import datetime
import os
import shutil
import sys
import tempfile
import time

import bson
import pymongo
from pymongo.errors import OperationFailure

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kill9_durability_test import Mongod, REPO_ROOT  # noqa: E402


class MongodWithParams(Mongod):
    """Mongod started with --setParameter ttlMonitorSleepSecs=1."""

    extra_args = ["--setParameter", "ttlMonitorSleepSecs=1"]


def code_of(fn):
    try:
        fn()
    except OperationFailure as exc:
        return exc.code
    return None


def make_changes(db):
    db.create_collection("v")
    db.v.insert_one({"_id": 1, "a": "not a number"})
    db.command({"collMod": "v", "validator": {"a": {"$type": "number"}},
                "validationLevel": "moderate", "validationAction": "error"})
    db.v.create_index("h")
    db.v.create_index("t", expireAfterSeconds=50)
    db.v.create_index("u")
    db.command({"collMod": "v", "index": {"name": "h_1", "hidden": True}})
    db.command({"collMod": "v", "index": {"name": "t_1", "expireAfterSeconds": 500}})
    db.command({"collMod": "v", "index": {"name": "u_1", "prepareUnique": True}})
    db.command({"collMod": "v", "index": {"name": "u_1", "unique": True}})
    db.command({"create": "ts", "timeseries": {"timeField": "t", "metaField": "m"}})
    db.command({"collMod": "ts", "timeseries": {"granularity": "hours"}})
    db.command({"collMod": "ts", "expireAfterSeconds": 86400 * 365 * 10})
    db.command({"create": "cl", "clusteredIndex": {"key": {"_id": 1}, "unique": True}})
    db.command({"collMod": "cl", "expireAfterSeconds": 3600})


def check_changes(db, uuid_before):
    errors = []
    infos = {c["name"]: c for c in db.list_collections()}
    opts = infos["v"]["options"]
    if opts.get("validator") != {"a": {"$type": "number"}} or opts.get("validationLevel") != "moderate":
        errors.append("validator options lost: %r" % opts)
    if infos["v"]["info"]["uuid"] != uuid_before:
        errors.append("uuid changed")
    if code_of(lambda: db.v.insert_one({"_id": 2, "a": "x"})) != 121:
        errors.append("validator not enforced after restart")
    idx = {i["name"]: i for i in db.v.list_indexes()}
    if not idx["h_1"].get("hidden"):
        errors.append("hidden lost: %r" % idx["h_1"])
    if idx["t_1"].get("expireAfterSeconds") != 500:
        errors.append("index TTL lost: %r" % idx["t_1"])
    if not idx["u_1"].get("unique") or idx["u_1"].get("prepareUnique"):
        errors.append("unique conversion lost: %r" % idx["u_1"])
    db.v.insert_one({"_id": 3, "a": 1, "u": 7})
    if code_of(lambda: db.v.insert_one({"_id": 4, "a": 1, "u": 7})) != 11000:
        errors.append("converted unique index does not refuse duplicates after restart")
    ts = infos["ts"]["options"]
    if ts["timeseries"].get("granularity") != "hours" or ts["timeseries"].get("bucketMaxSpanSeconds") != 2592000:
        errors.append("time-series granularity lost: %r" % ts)
    if ts.get("expireAfterSeconds") != 86400 * 365 * 10:
        errors.append("time-series expireAfterSeconds lost: %r" % ts)
    # New buckets follow the new rounding (hours: a day).
    t0 = datetime.datetime(2024, 1, 1, 5, 0, 0)
    db.ts.insert_many([{"t": t0, "m": 1}, {"t": t0 + datetime.timedelta(days=3), "m": 1}])
    buckets = list(db["system.buckets.ts"].find({"meta": 1}))
    if len(buckets) != 1 or buckets[0]["control"]["min"]["t"] != datetime.datetime(2024, 1, 1):
        errors.append("new buckets do not use the new granularity: %r" %
                      [b["control"]["min"] for b in buckets])
    cl = infos["cl"]["options"]
    if cl.get("expireAfterSeconds") != 3600 or cl.get("clusteredIndex", {}).get("unique") is not True:
        errors.append("clustered options lost: %r" % cl)
    return errors


def durability_scenario(mongod):
    client = mongod.client()
    db = client["collmod_restart"]
    make_changes(db)
    uuid_before = next(c for c in db.list_collections() if c["name"] == "v")["info"]["uuid"]
    client.close()
    mongod.stop()
    mongod.start()
    client = mongod.client()
    errors = check_changes(client["collmod_restart"], uuid_before)
    # A second round of changes, then kill -9: collMod is journaled like any catalog write.
    db = client["collmod_restart"]
    db.command({"collMod": "v", "validationAction": "warn"})
    db.command({"collMod": "v", "index": {"name": "u_1", "forceNonUnique": True}})
    db.command({"collMod": "cl", "expireAfterSeconds": "off"})
    client.admin.command({"fsync": 1})
    client.close()
    mongod.kill9()
    mongod.start()
    client = mongod.client()
    db = client["collmod_restart"]
    opts = next(c for c in db.list_collections() if c["name"] == "v")["options"]
    if opts.get("validationAction") != "warn":
        errors.append("validationAction lost after kill -9: %r" % opts)
    if any(i.get("unique") for i in db.v.list_indexes() if i["name"] == "u_1"):
        errors.append("forceNonUnique lost after kill -9")
    db.v.insert_one({"_id": 5, "a": 1, "u": 7})
    cl = next(c for c in db.list_collections() if c["name"] == "cl")["options"]
    if "expireAfterSeconds" in cl:
        errors.append("clustered expireAfterSeconds 'off' lost: %r" % cl)
    client.close()
    return errors


def clustered_ttl_scenario(mongod):
    client = mongod.client()
    db = client["clustered_ttl"]
    errors = []
    db.command({"create": "c", "clusteredIndex": {"key": {"_id": 1}, "unique": True, "name": "k"},
                "expireAfterSeconds": 60})
    now = datetime.datetime.utcnow()
    old_oid = bson.ObjectId.from_datetime(now - datetime.timedelta(days=1))
    new_oid = bson.ObjectId()
    db.c.insert_many([
        {"_id": old_oid, "w": "old oid"},
        {"_id": new_oid, "w": "new oid"},
        {"_id": now - datetime.timedelta(hours=2), "w": "old date"},
        {"_id": now + datetime.timedelta(hours=2), "w": "new date"},
        {"_id": 5, "w": "number never expires"},
    ])
    deadline = time.time() + 30
    while time.time() < deadline and db.c.count_documents({}) != 3:
        time.sleep(0.2)
    left = sorted(d["w"] for d in db.c.find())
    if left != ["new date", "new oid", "number never expires"]:
        errors.append("clustered TTL left %r" % left)
    info = next(c for c in db.list_collections() if c["name"] == "c")
    if info["options"].get("clusteredIndex") != {"v": 2, "key": {"_id": 1}, "name": "k", "unique": True}:
        errors.append("listCollections clusteredIndex: %r" % info["options"])
    if "idIndex" in info:
        errors.append("a clustered collection shows an idIndex: %r" % info)
    client.close()
    return errors


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mongod", default=os.path.join(REPO_ROOT, "build", "opt", "mongod"))
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="collmod-restart-")
    dbpath = os.path.join(work, "db")
    os.makedirs(dbpath)
    mongod = MongodWithParams(os.path.abspath(args.mongod), dbpath, work)
    passed = failed = 0
    try:
        mongod.start()
        for name, fn in [("durability", durability_scenario), ("clustered_ttl", clustered_ttl_scenario)]:
            try:
                errors = fn(mongod)
            except Exception as exc:  # a scenario that throws is a failure, not a crash
                errors = ["%s: %r" % (type(exc).__name__, exc)]
            if errors:
                failed += 1
                print("[%s] FAIL" % name)
                for e in errors:
                    print("    " + e)
            else:
                passed += 1
                print("[%s] ok" % name)
    finally:
        mongod.stop()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
