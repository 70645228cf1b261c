#!/usr/bin/python3
"""Start-up at scale (issue 15, item 5): restart time and first count against data size.

For each size N (--sizes) it starts mongod on a free port of 127.0.0.1 with a temporary
dbpath, inserts N small documents ({a: <int>, pad: 40 bytes}; the server adds _id) with
insertMany batches of 10,000 pre-encoded documents, then
  * clean shutdown, restart: time until the first ping answers, then the time of the first
    `count` on the collection (the fast count: the size storer's persisted figure) and of
    the first collStats;
  * a full scan of the collection (find().itcount()), as a yardstick: loading the counters
    by scanning the table, as happened before the size storer, costs about that;
  * kill -9 after a few more journaled inserts, restart: the same timings (the counts are
    then the last checkpoint's until validate repairs them; see the count reported).

Prints one JSON line per size and a table at the end.

Usage: startup_bench.py [--mongod build/opt/mongod] [--sizes 100000,1000000,10000000]
"""
import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import bson
import pymongo
from bson.raw_bson import RawBSONDocument

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, mongod, work):
        self.mongod = mongod
        self.work = work
        self.dbpath = os.path.join(work, "db")
        os.makedirs(self.dbpath, exist_ok=True)
        self.proc = None
        self.starts = 0

    def start(self):
        """Starts mongod; returns the seconds until a ping is answered."""
        self.starts += 1
        self.port = free_port()
        t0 = time.perf_counter()
        self.proc = subprocess.Popen([self.mongod, "--dbpath", self.dbpath, "--port", str(self.port),
                                      "--bind_ip", "127.0.0.1", "--logpath",
                                      os.path.join(self.work, "mongod%d.log" % self.starts)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError("mongod exited at start-up (log in %s)" % self.work)
            try:
                self.client = pymongo.MongoClient("127.0.0.1", self.port,
                                                  serverSelectionTimeoutMS=200, connectTimeoutMS=200)
                self.client.admin.command("ping")
                break
            except pymongo.errors.PyMongoError:
                self.client.close()
                time.sleep(0.005)
        return time.perf_counter() - t0

    def stop(self):
        try:
            self.client.admin.command("shutdown")
        except pymongo.errors.PyMongoError:
            pass
        self.client.close()
        self.proc.wait(timeout=600)

    def kill9(self):
        self.client.close()
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, (time.perf_counter() - t0) * 1000


def first_access(server):
    db = server.client.bench
    count, count_ms = timed(lambda: db.command("count", "docs")["n"])
    _, stats_ms = timed(lambda: db.command("collStats", "docs"))
    return count, count_ms, stats_ms


def run_size(mongod, n, work):
    server = Server(mongod, work)
    server.start()
    coll = server.client.bench.docs
    batch = [RawBSONDocument(bson.encode({"a": i, "pad": "p" * 40})) for i in range(10000)]
    t0 = time.perf_counter()
    left = n
    while left > 0:
        coll.insert_many(batch[:min(left, len(batch))], ordered=False)
        left -= len(batch)
    load_s = time.perf_counter() - t0
    r = {"docs": n, "load_s": round(load_s, 1)}
    server.client.admin.command("fsync")
    server.stop()
    r["data_mb"] = round(sum(os.path.getsize(os.path.join(server.dbpath, f))
                             for f in os.listdir(server.dbpath)
                             if os.path.isfile(os.path.join(server.dbpath, f))) / 2**20, 1)

    r["clean_start_ms"] = round(server.start() * 1000, 1)
    count, r["clean_first_count_ms"], r["clean_first_collstats_ms"] = first_access(server)
    r["clean_count_ok"] = count == n
    scanned, r["full_scan_ms"] = timed(lambda: sum(1 for _ in server.client.bench.docs.find({}, {"_id": 1}, batch_size=100000)))
    assert scanned == n, (scanned, n)

    server.client.bench.get_collection(
        "docs", write_concern=pymongo.WriteConcern(w=1, j=True)).insert_many(
            [{"a": -i} for i in range(100)])
    server.kill9()
    r["kill9_start_ms"] = round(server.start() * 1000, 1)
    count, r["kill9_first_count_ms"], r["kill9_first_collstats_ms"] = first_access(server)
    r["kill9_count"] = count
    server.client.bench.command("validate", "docs")
    r["count_after_validate"] = server.client.bench.command("count", "docs")["n"]
    server.stop()
    for k in ("clean_first_count_ms", "clean_first_collstats_ms", "full_scan_ms",
              "kill9_first_count_ms", "kill9_first_collstats_ms"):
        r[k] = round(r[k], 2)
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mongod", default=os.path.join(ROOT, "build/opt/mongod"))
    ap.add_argument("--sizes", default="100000,1000000")
    args = ap.parse_args()
    results = []
    for n in (int(x) for x in args.sizes.split(",")):
        work = tempfile.mkdtemp(prefix="startup_bench.")
        try:
            r = run_size(args.mongod, n, work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        results.append(r)
        print(json.dumps(r), flush=True)
    fmt = "%10s %9s %10s %13s %10s %11s %13s %10s"
    print(fmt % ("docs", "data MB", "start ms", "1st count ms", "scan ms", "kill9 start",
                 "kill9 1st cnt", "kill9 cnt"))
    for r in results:
        print(fmt % (r["docs"], r["data_mb"], r["clean_start_ms"], r["clean_first_count_ms"],
                     r["full_scan_ms"], r["kill9_start_ms"], r["kill9_first_count_ms"],
                     r["kill9_count"]))
    return 0 if all(r["clean_count_ok"] and r["count_after_validate"] == r["docs"] + 100
                    for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
