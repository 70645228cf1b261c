#!/usr/bin/python3
"""Query and oplog-size benchmark (pymongo), issue 4.

Starts its own mongod with --replSet (temporary dbpath) unless --uri is given,
initiates it, loads --docs documents {_id, k: int, r: random int, pad}, and measures
  * point queries  find_one({k: <random>})                     without / with an index on k
  * range queries  find({k: {$gte: x, $lt: x + 100}}) (100 docs) without / with the index
for --seconds each; then the average size of the oplog entry of a one-field $set
on ~1 KB documents against the document size.

Usage: /usr/bin/python3 buildscripts/bench/query_bench.py [--mongod build/opt/mongod | --uri URI]
           [--docs 100000] [--seconds 5] [--json]
"""

import argparse
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import bson
import pymongo
from pymongo.errors import PyMongoError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_mongod(path, workdir):
    port = free_port()
    os.makedirs(os.path.join(workdir, "db"))
    proc = subprocess.Popen(
        [path, "--dbpath", os.path.join(workdir, "db"), "--port", str(port), "--bind_ip",
         "127.0.0.1", "--replSet", "bench", "--oplogSize", "1024",
         "--logpath", os.path.join(workdir, "mongod.log")],
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True)
    uri = "mongodb://127.0.0.1:%d/?directConnection=true" % port
    for _ in range(600):
        try:
            c = pymongo.MongoClient(uri, serverSelectionTimeoutMS=500)
            c.admin.command("ping")
            try:
                c.admin.command("replSetInitiate")
            except PyMongoError:
                pass  # already initiated
            c.close()
            return proc, uri
        except PyMongoError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("mongod did not start")


def timed(seconds, fn):
    n, start = 0, time.time()
    while time.time() - start < seconds:
        fn()
        n += 1
    return n / (time.time() - start)


def bench_queries(db, args, rnd):
    coll = db.q
    coll.drop()
    batch = []
    for i in range(args.docs):
        batch.append({"_id": i, "k": i, "r": rnd.randrange(1 << 30), "pad": "x" * 64})
        if len(batch) == 1000:
            coll.insert_many(batch, ordered=False)
            batch = []
    if batch:
        coll.insert_many(batch)
    out = {}

    def point():
        assert coll.find_one({"k": rnd.randrange(args.docs)}) is not None

    def range_q():
        x = rnd.randrange(args.docs - 100)
        assert len(list(coll.find({"k": {"$gte": x, "$lt": x + 100}}))) == 100

    for label in ("no_index", "index"):
        if label == "index":
            coll.create_index([("k", 1)])
        out["point_" + label] = timed(args.seconds, point)
        out["range_" + label] = timed(args.seconds, range_q)
    return out


def bench_oplog(db, client, args, rnd):
    coll = db.o
    coll.drop()
    n = 1000
    coll.insert_many([{"_id": i, "counter": 0, "name": "doc%d" % i,
                       "payload": "".join(rnd.choice("abcdef") for _ in range(900)),
                       "tags": ["a", "b", "c"]} for i in range(n)])
    doc_size = sum(len(bson.encode(d)) for d in coll.find()) / n
    start = client.local.oplog.rs.find().sort("$natural", -1).limit(1)[0]["ts"]
    for i in range(n):
        coll.update_one({"_id": i}, {"$set": {"counter": i + 1}})
    entries = list(client.local.oplog.rs.find({"ts": {"$gt": start}, "op": "u",
                                               "ns": coll.full_name}))
    assert len(entries) == n, len(entries)
    assert all(e["o"].get("$v") == 2 for e in entries)
    entry_size = sum(len(bson.encode(e)) for e in entries) / n
    diff_size = sum(len(bson.encode(e["o"])) for e in entries) / n
    return {"doc_size": doc_size, "oplog_entry_size": entry_size, "update_o_size": diff_size}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mongod", default=os.path.join(ROOT, "build/opt/mongod"))
    ap.add_argument("--uri")
    ap.add_argument("--docs", type=int, default=100000)
    ap.add_argument("--seconds", type=float, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rnd = random.Random(4)
    proc, workdir = None, None
    if args.uri:
        uri = args.uri
    else:
        workdir = tempfile.mkdtemp(prefix="query-bench-")
        proc, uri = start_mongod(args.mongod, workdir)
    try:
        client = pymongo.MongoClient(uri)
        db = client.query_bench
        q = bench_queries(db, args, rnd)
        o = bench_oplog(db, client, args, rnd)
        print("query_bench (%d docs, %.0fs per figure):" % (args.docs, args.seconds))
        print("  point query  no index: %8.1f ops/s   index: %8.1f ops/s"
              % (q["point_no_index"], q["point_index"]))
        print("  range query  no index: %8.1f ops/s   index: %8.1f ops/s  (100 docs each)"
              % (q["range_no_index"], q["range_index"]))
        print("  one-field $set on %.0f-byte documents: oplog entry %.0f bytes (o: %.0f bytes), "
              "%.1f%% of the document" % (o["doc_size"], o["oplog_entry_size"], o["update_o_size"],
                                          100.0 * o["oplog_entry_size"] / o["doc_size"]))
        if args.json:
            q.update(o)
            print(json.dumps(q))
    finally:
        if proc:
            try:
                pymongo.MongoClient(uri, serverSelectionTimeoutMS=2000).admin.command("shutdown")
            except PyMongoError:
                pass
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                os.kill(proc.pid, signal.SIGKILL)
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
