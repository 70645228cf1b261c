#!/usr/bin/python3
"""Record counts and data sizes persisted in the size storer (issue 15, item 5).

Starts mongod on a temporary dbpath and, with pymongo:
  * clean restart: a regular and a time-series collection, inserts and deletes, clean
    shutdown, restart: count / collStats (count, size) are exactly what they were, and the
    log says no table was counted by scanning it;
  * kill -9 (mongod runs with --syncdelay 0: no timed checkpoints): a checkpoint (fsync)
    after a first batch, a second batch journaled (j: true) and deletes, kill -9, restart:
    every document is there, the fast count is the checkpointed one (approximate, as
    upstream), and after validate the fast count and the
    data size equal the documents' (validate replaces them, as upstream's foreground
    validate does); a clean restart then keeps the repaired figures.

Usage: /usr/bin/python3 buildscripts/client_tests/size_storer_restart_test.py [--mongod build/opt/mongod]
The last line is "N passed, M failed".
"""

import argparse
import datetime
import os
import shutil
import sys
import tempfile

import bson
import pymongo
from pymongo.write_concern import WriteConcern

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kill9_durability_test import Mongod, REPO_ROOT  # noqa: E402


class MongodNoTimedCheckpoints(Mongod):
    """--syncdelay 0: checkpoints (and size storer flushes) only on fsync and shutdown."""

    extra_args = ["--syncdelay", "0"]


def sizes(db, name):
    st = db.command("collStats", name)
    return st.get("count"), st["size"]


def scanned_tables(mongod):
    """Number of "Counted a table by scanning it" lines in the current log."""
    with open(mongod.logpath, errors="replace") as f:
        return sum(1 for line in f if "Counted a table by scanning it" in line)


def clean_restart(mongod, results):
    client = mongod.client()
    db = client.sizes
    db.plain.insert_many([{"_id": i, "pad": "x" * (i % 50)} for i in range(5000)])
    db.plain.delete_many({"_id": {"$lt": 1000}})
    db.create_collection("ts", timeseries={"timeField": "t", "metaField": "m"})
    t0 = datetime.datetime(2024, 1, 1)
    db.ts.insert_many([{"t": t0 + datetime.timedelta(seconds=i), "m": i % 7, "v": i}
                       for i in range(3000)])
    before = {name: sizes(db, name) for name in ("plain", "system.buckets.ts")}
    client.close()
    mongod.stop()
    mongod.start()
    client = mongod.client()
    db = client.sizes
    after = {name: sizes(db, name) for name in ("plain", "system.buckets.ts")}
    ok = before == after and db.plain.count_documents({}) == 4000 and \
        db.plain.estimated_document_count() == 4000 and db.ts.count_documents({}) == 3000
    scans = scanned_tables(mongod)
    results.append(("counts and sizes kept by a clean restart", ok,
                    "before %s after %s" % (before, after)))
    results.append(("no table counted by a scan after a clean restart", scans == 0,
                    "%d scans" % scans))
    # New records after the restart get new ids (the next RecordId is restored too).
    db.plain.insert_many([{"_id": 10000 + i} for i in range(10)])
    results.append(("inserts after the restart counted", db.plain.estimated_document_count() == 4010,
                    str(db.plain.estimated_document_count())))
    client.close()


def kill9_then_validate(mongod, results):
    client = mongod.client()
    coll = client.sizes.get_collection("crash", write_concern=WriteConcern(w=1, j=True))
    coll.insert_many([{"_id": i, "pad": "y" * 20} for i in range(2000)])
    client.admin.command("fsync")  # a checkpoint: the size storer holds 2000
    checkpointed = 2000
    coll.insert_many([{"_id": 2000 + i, "pad": "y" * 20} for i in range(3000)])
    coll.delete_many({"_id": {"$lt": 500}})
    client.close()
    mongod.kill9()
    mongod.start()
    client = mongod.client()
    db = client.sizes
    n_docs = sum(1 for _ in db.crash.find({}, {"_id": 1}))
    fast = db.crash.estimated_document_count()
    results.append(("every journaled document there after kill -9", n_docs == 4500, str(n_docs)))
    results.append(("fast count after kill -9 is the checkpointed one (approximate, as upstream)",
                    fast == checkpointed, str(fast)))
    res = db.command("validate", "crash")
    count, size = sizes(db, "crash")
    ok = res["valid"] and count == 4500 and db.crash.estimated_document_count() == 4500
    exact_size = sum(len(bson.encode(d)) for d in db.crash.find())
    results.append(("validate repairs the fast count", ok, "valid %s count %s" % (res["valid"], count)))
    results.append(("validate repairs the data size", size == exact_size,
                    "size %s, documents %s" % (size, exact_size)))
    client.close()
    mongod.stop()
    mongod.start()
    client = mongod.client()
    count, size2 = sizes(client.sizes, "crash")
    results.append(("repaired figures kept by a clean restart", count == 4500 and size2 == size,
                    "count %s size %s" % (count, size2)))
    client.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mongod", default=os.path.join(REPO_ROOT, "build/opt/mongod"))
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="size_storer_test.")
    dbpath = os.path.join(work, "db")
    os.makedirs(dbpath)
    mongod = MongodNoTimedCheckpoints(args.mongod, dbpath, work)
    results = []
    try:
        mongod.start()
        clean_restart(mongod, results)
        kill9_then_validate(mongod, results)
    except Exception as exc:  # a crash of the scenario is a failure, not a traceback
        results.append(("scenario ran to the end", False, repr(exc)))
    finally:
        mongod.stop()
    passed = sum(1 for _, ok, _ in results if ok)
    for name, ok, detail in results:
        print("%s: %s%s" % ("PASS" if ok else "FAIL", name, "" if ok else " (%s)" % detail))
    if not args.keep and passed == len(results):
        shutil.rmtree(work, ignore_errors=True)
    else:
        print("kept %s" % work)
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
