#!/usr/bin/python3
"""Concurrent time-series inserts (issue 6 acceptance): N connections insert measurements
for S series at once, in time-major batches shared by all connections (so batches for the
same bucket race, buckets roll over, are archived and reopened). Afterwards the view must
return exactly the inserted measurements (count and sum), every bucket must unpack, and no
bucket may hold more than timeseriesBucketMaxCount (1000) measurements, and the buckets made
may exceed one per series and hour by at most 5 %.

Default (CI) size: 8 connections, 200 series x 400 points. `--full`: 1,000,000
measurements for 1,000 series. Prints one line per check and `N passed, M failed`.
Usage: timeseries_concurrency_test.py --mongod PATH [--full]
"""
import argparse
import datetime
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

import pymongo

results = []


def check(name, ok, detail=""):
    results.append(ok)
    print("[ts-concurrency] %s %s%s" % ("PASS" if ok else "FAIL", name,
                                        (": " + detail) if detail and not ok else ""), flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mongod", required=True)
    ap.add_argument("--full", action="store_true")
    args = ap.parse_args()
    series, points, workers = (1000, 1000, 8) if args.full else (200, 400, 8)

    work = tempfile.mkdtemp(prefix="ts-conc.")
    port = free_port()
    os.makedirs(os.path.join(work, "db"))
    proc = subprocess.Popen([args.mongod, "--dbpath", os.path.join(work, "db"), "--port", str(port),
                             "--quiet", "--logpath", os.path.join(work, "mongod.log")])
    try:
        client = pymongo.MongoClient("127.0.0.1", port, serverSelectionTimeoutMS=20000)
        client.admin.command("ping")
        db = client.tsconc
        db.create_collection("m", timeseries={"timeField": "t", "metaField": "s"})
        base = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)
        # Time-major batches: each holds 10 time steps (100 s) for every series, so that the
        # first batches of the connections start in different minutes.
        steps = 10
        batches = [[{"t": base + datetime.timedelta(seconds=10 * p), "s": {"id": s}, "v": p * series + s}
                    for p in range(q, min(q + steps, points)) for s in range(series)]
                   for q in range(0, points, steps)]
        lock = threading.Lock()
        errors = []

        def work_loop():
            c = pymongo.MongoClient("127.0.0.1", port)
            coll = c.tsconc.m
            while True:
                with lock:
                    if not batches:
                        return
                    b = batches.pop(0)
                try:
                    coll.insert_many(b, ordered=False)
                except Exception as e:  # noqa: BLE001
                    errors.append(str(e)[:200])

        start = time.time()
        threads = [threading.Thread(target=work_loop) for _ in range(workers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.time() - start
        n = series * points
        check("inserts succeed (%d measurements, %d connections, %.1fs)" % (n, workers, elapsed),
              not errors, "; ".join(errors[:3]))
        count = db.m.count_documents({})
        check("view returns every measurement", count == n, "%d != %d" % (count, n))
        total = list(db.m.aggregate([{"$group": {"_id": None, "sum": {"$sum": "$v"}}}]))
        expected = n * (n - 1) // 2
        got = total[0]["sum"] if total else None
        check("sum of values matches", got == expected, "%s != %s" % (got, expected))
        buckets = db["system.buckets.m"]
        too_big = buckets.count_documents({"control.count": {"$gt": 1000}})
        check("no bucket exceeds 1000 measurements", too_big == 0, "%d buckets" % too_big)
        bad = 0
        for b in buckets.find({}, {"_id": 1}):
            try:
                list(buckets.aggregate([{"$match": {"_id": b["_id"]}},
                                        {"$_unpackBucket": {"timeField": "t", "metaField": "s"}}]))
            except pymongo.errors.OperationFailure:
                bad += 1
        check("every bucket unpacks", bad == 0, "%d corrupt buckets" % bad)
        # One bucket per series and hour (granularity seconds: one-hour spans, the times start
        # on the hour), within 5 %: the first measurements of a series arrive in several
        # connections at once, out of order, and must not open a bucket per arrival.
        ideal = series * -(-points * 10 // 3600)
        made = buckets.count_documents({})
        check("buckets made within 5 %% of the ideal %d" % ideal, made <= ideal * 1.05,
              "%d buckets" % made)
    finally:
        proc.terminate()
        proc.wait(timeout=60)
        if all(results):
            shutil.rmtree(work, ignore_errors=True)
        else:
            print("dbpath and log kept in " + work)
    print("%d passed, %d failed" % (results.count(True), results.count(False)))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
