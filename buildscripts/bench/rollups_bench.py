#!/usr/bin/python3
"""Rollup levels on the shared dataset extended to --days days (issue 17, acceptance 2).

The shared generator's one-day dataset (../shared/bench/tsbs_cpu_gen.py, int precision) is
loaded once per day, each copy shifted by a day (build/opt/bench/ts_load --shift-seconds;
`scons bench_tools`), into a fresh mongod: one time-series collection {timeField: "time",
metaField: "tags"} with an hourly level of usage_user (sum, count, min, max) kept a year.
It measures
  * ingest with the level maintained (rows/s, 4 connections) and the catch-up after it;
  * Q1 over all days (average of usage_user per host per hour), the median of --runs runs,
    answered from the level and with `$_internalRollups: false` (the raw path), answers
    compared (relative tolerance 1e-9: the level adds partial sums);
  * disk: storageSize + totalIndexSize of the raw data kept --days days (no level) against
    the raw data kept --keep-days days plus the hourly level, measured after the raw TTL
    removed the older buckets and `compact` returned their space (the retention is relative
    to now, and the data is of 2016: the bench sets it to the data's end minus the days).
The last line is one JSON object: q1_rollups_ms, q1_raw_ms, q1_speedup, disk_raw_bytes,
disk_raw_kept_plus_level_bytes, disk_ratio, ingest_rows_per_s, catchup_s, level_rows.

Usage: rollups_bench.py [--mongod build/opt/mongod] [--loader build/opt/bench/ts_load]
                        [--data DIR] [--days 30] [--keep-days 7] [--runs 7] [--quick] [--keep]
  --quick   10 hosts x 4 hours x 3 days (a self-check of the script, not a measurement)
It is a benchmark, not a test: run_tests.sh does not run it.
"""
import argparse
import datetime
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import pymongo

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GEN = os.path.join(os.path.dirname(ROOT), "shared", "bench", "tsbs_cpu_gen.py")
T0 = 1451606400  # the generator's first timestamp (2016-01-01T00:00:00Z)
Q1 = [{"$group": {"_id": {"host": "$tags.hostname",
                          "hour": {"$dateTrunc": {"date": "$time", "unit": "hour"}}},
                  "avg": {"$avg": "$usage_user"}}}]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def median_ms(fn, runs):
    fn()  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def answers(db, rollups):
    cmd = {"aggregate": "ts", "pipeline": Q1, "cursor": {}}
    if not rollups:
        cmd["$_internalRollups"] = False
    res = db.command(cmd)
    docs = list(res["cursor"]["firstBatch"])
    cursor_id = res["cursor"]["id"]
    while cursor_id:
        more = db.command({"getMore": cursor_id, "collection": "ts"})
        docs += more["cursor"]["nextBatch"]
        cursor_id = more["cursor"]["id"]
    return docs


def same(a, b):
    key = lambda d: (d["_id"]["host"], d["_id"]["hour"])
    a, b = sorted(a, key=key), sorted(b, key=key)
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if key(x) != key(y):
            return False
        if abs(x["avg"] - y["avg"]) > 1e-9 * max(1.0, abs(x["avg"])):
            return False
    return True


def disk(db, names):
    db.client.admin.command("fsync")
    total = 0
    for n in names:
        st = db.command("collStats", n)
        total += st["storageSize"] + st["totalIndexSize"]
    return total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mongod", default=os.path.join(ROOT, "build/opt/mongod"))
    ap.add_argument("--loader", default=os.path.join(ROOT, "build/opt/bench/ts_load"))
    ap.add_argument("--data")
    ap.add_argument("--days", type=int, default=30)
    ap.add_argument("--keep-days", type=int, default=7)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    if args.quick:
        args.days, args.keep_days = 3, 1
    if not os.path.exists(args.loader):
        sys.exit("the loader %s is missing: scons bench_tools" % args.loader)

    work = tempfile.mkdtemp(prefix="rollups-bench-")
    data = args.data or os.path.join(work, "data")
    if not os.path.exists(os.path.join(data, "int", "cpu.csv")):
        gen = [sys.executable, GEN, data, "--formats", "csv", "--precs", "int"]
        if args.quick:
            gen += ["--hosts", "10", "--hours", "4"]
        subprocess.check_call(gen, stdout=subprocess.DEVNULL)
    meta = json.load(open(os.path.join(data, "meta.json")))
    hours = meta["hours"]

    dbpath = os.path.join(work, "db")
    os.makedirs(dbpath)
    port = free_port()
    proc = subprocess.Popen([args.mongod, "--dbpath", dbpath, "--port", str(port), "--bind_ip",
                             "127.0.0.1", "--quiet", "--logpath", os.path.join(work, "mongod.log"),
                             "--setParameter", "ttlMonitorSleepSecs=1"])
    client = pymongo.MongoClient("127.0.0.1", port, serverSelectionTimeoutMS=30000,
                                 socketTimeoutMS=3600 * 1000)
    try:
        client.admin.command("ping")
        db = client.bench
        now = int(time.time())
        # Retentions are relative to now; the data are of 2016: keep everything while loading,
        # the level a year after the data's end.
        data_end = T0 + args.days * 86400
        keep_all = now - T0 + 86400
        level_keep = now - (data_end - 365 * 86400)
        db.command("create", "ts", timeseries={
            "timeField": "time", "metaField": "tags",
            "rollups": [{"granularity": "hours", "expireAfterSeconds": level_keep,
                         "fields": {"usage_user": ["sum", "count", "min", "max"]}}]},
            expireAfterSeconds=keep_all)

        rows = 0
        start = time.perf_counter()
        for day in range(args.days):
            out = subprocess.check_output([args.loader, "--uri", "mongodb://127.0.0.1:%d" % port,
                                           "--db", "bench", "--coll", "ts", "--data", data,
                                           "--prec", "int", "--threads", "4", "--batch", "1000",
                                           "--shift-seconds", str(day * 86400)])
            rows += json.loads(out.decode().strip().splitlines()[-1])["docs"]
        load_s = time.perf_counter() - start
        pending = db["system.rollups.ts.pending"]
        start = time.perf_counter()
        while pending.estimated_document_count() > 0:
            time.sleep(0.05)
        catchup_s = time.perf_counter() - start
        # Time spent loading includes most of the catch-up (it runs beside the writers).
        ingest = rows / load_s

        rolled, raw = answers(db, True), answers(db, False)
        if not same(rolled, raw):
            sys.exit("Q1 answers differ between the level and the raw path")
        if len(rolled) != meta["hosts"] * hours * args.days:
            sys.exit("Q1 has %d groups, expected hosts x hours x days" % len(rolled))
        ex = db.command({"aggregate": "ts", "pipeline": Q1, "explain": True})
        if ex.get("rollups", {}).get("rawPath", True):
            sys.exit("Q1 was not served by the level: %s" % ex.get("rollups"))
        q1_rollups = median_ms(lambda: answers(db, True), args.runs)
        q1_raw = median_ms(lambda: answers(db, False), max(3, args.runs // 2))

        level_rows = db["system.rollups.ts.3600"].estimated_document_count()
        disk_raw = disk(db, ["system.buckets.ts"])
        # The raw data kept --keep-days days: the TTL removes the older buckets, compact
        # returns their space; the level keeps every hour.
        keep_raw = now - (data_end - args.keep_days * 86400)
        db.command("collMod", "ts", expireAfterSeconds=keep_raw)
        cutoff = data_end - args.keep_days * 86400
        cutoff_dt = datetime.datetime.fromtimestamp(cutoff, datetime.timezone.utc)
        deadline = time.time() + 600
        while db["system.buckets.ts"].count_documents(
                {"control.max.time": {"$lt": cutoff_dt - datetime.timedelta(hours=2)}}) > 0:
            if time.time() > deadline:
                sys.exit("the raw TTL did not remove the old buckets within 600 s")
            time.sleep(1)
        for n in ("system.buckets.ts", "system.rollups.ts.3600"):
            db.command("compact", n)
        disk_kept = disk(db, ["system.buckets.ts", "system.rollups.ts.3600",
                              "system.rollups.ts.pending"])
        level_now = db["system.rollups.ts.3600"].estimated_document_count()

        print("| | value |")
        print("|---|---|")
        print("| rows loaded (%d days) | %d |" % (args.days, rows))
        print("| ingest with the level, rows/s | %.0f |" % ingest)
        print("| catch-up after the load, s | %.2f |" % catchup_s)
        print("| Q1 over %d days, level, ms | %.2f |" % (args.days, q1_rollups))
        print("| Q1 over %d days, raw path, ms | %.2f |" % (args.days, q1_raw))
        print("| Q1 speed-up | %.1fx |" % (q1_raw / q1_rollups))
        print("| disk, raw %d days | %d |" % (args.days, disk_raw))
        print("| disk, raw %d days + hourly level | %d |" % (args.keep_days, disk_kept))
        print("| level rows before / after the raw TTL | %d / %d |" % (level_rows, level_now))
        print(json.dumps({
            "q1_rollups_ms": round(q1_rollups, 2), "q1_raw_ms": round(q1_raw, 2),
            "q1_speedup": round(q1_raw / q1_rollups, 1), "disk_raw_bytes": disk_raw,
            "disk_raw_kept_plus_level_bytes": disk_kept,
            "disk_ratio": round(disk_kept / disk_raw, 3), "ingest_rows_per_s": round(ingest),
            "catchup_s": round(catchup_s, 2), "level_rows": level_rows}))
    finally:
        client.close()
        proc.terminate()
        proc.wait(timeout=120)
        if args.keep:
            print("kept %s" % work)
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
