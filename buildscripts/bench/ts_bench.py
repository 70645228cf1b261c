#!/usr/bin/python3
"""Time-series benchmark on the shared dataset (../shared/bench/tsbs_cpu_gen.py: 100 hosts x
1 day at 10 s, 10 usage_* fields, 10 tags as the meta sub-document), both precisions.

For each precision the rows are loaded once into a time-series collection
(timeField "time", metaField "tags") and once into a regular collection (with a
{tags.hostname: 1, time: 1} index), with unordered insertMany batches of 1,000 on 4
connections: by the libmongoc loader build/opt/bench/ts_load (`scons bench_tools`; the
documents are encoded before the clock starts) when it is built, else by pymongo threads.
Reported per collection: measurements inserted per second, bytes on disk per field
value after a checkpoint (collStats storageSize + totalIndexSize, over rows x 10),
and the median time of the reference queries Q1 (hourly average of usage_user per
host over the day) and Q2 (maximum of all 10 fields for one host over 12 hours).

Usage: ts_bench.py [--mongod build/opt/mongod] [--hosts 100] [--hours 24] [--out DIR]
"""
import argparse
import csv
import datetime
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import pymongo

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GEN = os.path.join(ROOT, "..", "shared", "bench", "tsbs_cpu_gen.py")
TAG_KEYS = ["hostname", "region", "datacenter", "rack", "os", "arch", "team",
            "service", "service_version", "service_environment"]
FIELDS = ["usage_user", "usage_system", "usage_idle", "usage_nice", "usage_iowait",
          "usage_irq", "usage_softirq", "usage_steal", "usage_guest", "usage_guest_nice"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def load_rows(out, prec):
    tags = {}
    with open(os.path.join(out, "tags.csv")) as f:
        for row in csv.reader(f):  # tags_id, then the 10 tags in TAG_KEYS order (no header)
            tags[row[0]] = dict(zip(TAG_KEYS, row[1:]))
    rows = []
    utc = datetime.timezone.utc
    with open(os.path.join(out, prec, "cpu.csv")) as f:
        for row in csv.reader(f):
            t = datetime.datetime.strptime(row[0], "%Y-%m-%d %H:%M:%S").replace(tzinfo=utc)
            doc = {"time": t, "tags": tags[row[1]]}
            for name, v in zip(FIELDS, row[2:]):
                doc[name] = float(v)
            rows.append(doc)
    return rows


def insert_all(coll, rows, workers=4, batch=1000):
    batches = [rows[i:i + batch] for i in range(0, len(rows), batch)]
    lock = threading.Lock()

    def work():
        while True:
            with lock:
                if not batches:
                    return
                b = batches.pop(0)
            coll.insert_many([dict(d) for d in b], ordered=False)

    start = time.time()
    threads = [threading.Thread(target=work) for _ in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return len(rows) / (time.time() - start)


def insert_with_loader(loader, port, coll, data, prec):
    """Inserts with the libmongoc loader (documents encoded before timing): docs per second."""
    out = subprocess.check_output([loader, "--uri", "mongodb://127.0.0.1:%d" % port, "--db",
                                   "bench", "--coll", coll, "--data", data, "--prec", prec,
                                   "--threads", "4", "--batch", "1000"])
    return json.loads(out.decode().strip().splitlines()[-1])["per_s"]


def median_ms(fn, runs=5):
    times = []
    for _ in range(runs):
        s = time.time()
        fn()
        times.append((time.time() - s) * 1000)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mongod", default=os.path.join(ROOT, "build/opt/mongod"))
    ap.add_argument("--hosts", type=int, default=100)
    ap.add_argument("--hours", type=int, default=24)
    ap.add_argument("--out")
    ap.add_argument("--loader", default=os.path.join(ROOT, "build/opt/bench/ts_load"),
                    help="libmongoc loader (scons bench_tools); the Python loader when absent")
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="ts_bench.")
    data = args.out or os.path.join(work, "data")
    if not os.path.exists(os.path.join(data, "tags.csv")):
        subprocess.check_call(["/usr/bin/python3", GEN, data, "--formats", "csv", "--hosts",
                               str(args.hosts), "--hours", str(args.hours)])
    dbpath = os.path.join(work, "db")
    os.makedirs(dbpath)
    port = free_port()
    proc = subprocess.Popen([args.mongod, "--dbpath", dbpath, "--port", str(port), "--quiet",
                             "--logpath", os.path.join(work, "mongod.log")])
    try:
        client = pymongo.MongoClient("127.0.0.1", port, serverSelectionTimeoutMS=20000)
        client.admin.command("ping")
        db = client.bench
        t0 = datetime.datetime(2016, 1, 1, tzinfo=datetime.timezone.utc)
        q1 = [{"$group": {"_id": {"host": "$tags.hostname",
                                  "hour": {"$dateTrunc": {"date": "$time", "unit": "hour"}}},
                          "avg": {"$avg": "$usage_user"}}}]
        q2 = [{"$match": {"tags.hostname": "host_1",
                          "time": {"$gte": t0 + datetime.timedelta(hours=6),
                                   "$lt": t0 + datetime.timedelta(hours=18)}}},
              {"$group": dict([("_id", None)] + [("max_" + f, {"$max": "$" + f}) for f in FIELDS])}]
        results = {}
        for prec in ("int", "f2"):
            rows = load_rows(data, prec)
            values = len(rows) * len(FIELDS)
            db.create_collection("ts_" + prec, timeseries={"timeField": "time", "metaField": "tags"})
            db["reg_" + prec].create_index([("tags.hostname", 1), ("time", 1)])
            r = {"rows": len(rows)}
            if os.path.exists(args.loader):
                r["loader"] = "libmongoc"
                for kind in ("ts", "reg"):
                    r[kind + "_insert_per_s"] = insert_with_loader(args.loader, port,
                                                                   kind + "_" + prec, data, prec)
            else:
                r["loader"] = "pymongo"
                r["ts_insert_per_s"] = insert_all(db["ts_" + prec], rows)
                r["reg_insert_per_s"] = insert_all(db["reg_" + prec], rows)
            client.admin.command("fsync")
            for kind in ("ts", "reg"):
                st = db.command("collStats", kind + "_" + prec)
                r[kind + "_bytes_per_value"] = (st["storageSize"] + st["totalIndexSize"]) / values
                coll = db[kind + "_" + prec]
                r[kind + "_q1_ms"] = median_ms(lambda: list(coll.aggregate(q1)))
                r[kind + "_q2_ms"] = median_ms(lambda: list(coll.aggregate(q2)))
            # The same queries with the time-series rewrites off: the view's own unpacking
            # stage over the buckets, with $_internalInhibitOptimization after it.
            view = db["system.views"].find_one({"_id": "bench.ts_" + prec})
            raw = db["system.buckets.ts_" + prec]
            off = view["pipeline"] + [{"$_internalInhibitOptimization": {}}]
            r["ts_q1_no_rewrites_ms"] = median_ms(lambda: list(raw.aggregate(off + q1)), runs=3)
            r["ts_q2_no_rewrites_ms"] = median_ms(lambda: list(raw.aggregate(off + q2)), runs=3)
            r["q1_groups"] = len(list(db["ts_" + prec].aggregate(q1)))
            r["q2_result_equal"] = (list(db["ts_" + prec].aggregate(q2)) ==
                                    list(db["reg_" + prec].aggregate(q2)))
            results[prec] = r
            print(json.dumps({prec: r}), flush=True)
        for prec, r in results.items():
            print("%s: insert ts %.0f/s vs regular %.0f/s (x%.2f); bytes/value ts %.2f vs regular %.2f "
                  "(1/%.1f); Q1 ts %.0f ms (rewrites off %.0f) vs regular %.0f ms; Q2 ts %.1f ms "
                  "(rewrites off %.1f, x%.1f) vs regular %.1f ms" % (
                      prec, r["ts_insert_per_s"], r["reg_insert_per_s"],
                      r["ts_insert_per_s"] / r["reg_insert_per_s"], r["ts_bytes_per_value"],
                      r["reg_bytes_per_value"], r["reg_bytes_per_value"] / r["ts_bytes_per_value"],
                      r["ts_q1_ms"], r["ts_q1_no_rewrites_ms"], r["reg_q1_ms"], r["ts_q2_ms"],
                      r["ts_q2_no_rewrites_ms"], r["ts_q2_no_rewrites_ms"] / r["ts_q2_ms"],
                      r["reg_q2_ms"]))
    finally:
        proc.terminate()
        proc.wait(timeout=60)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
