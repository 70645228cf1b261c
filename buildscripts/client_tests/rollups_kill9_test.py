#!/usr/bin/python3
"""Rollup levels survive kill -9 (issue #17): no row counted twice, none lost.

Starts mongod on a temporary dbpath, creates a time-series collection with two rollup levels,
and runs four writers (batches of measurements from several series, out of time order, plus
updates and deletes through the view) until mongod is killed with SIGKILL mid-stream. After the
restart the background catch-up must bring every level to exactly what a recomputation from the
surviving raw data gives (the test computes it itself with $group on the view; sums of doubles
are compared with a relative tolerance of 1e-9, everything else exactly). Repeats for --rounds
rounds on the same dbpath, and ends with a collMod that adds a level, killed while it builds.

Usage: /usr/bin/python3 buildscripts/client_tests/rollups_kill9_test.py
           [--mongod build/opt/mongod] [--rounds 2] [--keep]
The last line is "N passed, M failed" (one test per round, one for the collMod).
"""

import argparse
import datetime
import os
import random
import shutil
import sys
import tempfile
import threading
import time

import pymongo
from pymongo.errors import PyMongoError

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kill9_durability_test import Mongod, REPO_ROOT  # noqa: E402

NAME = "rollups"
BASE = datetime.datetime(2026, 3, 1, tzinfo=datetime.timezone.utc)
LEVELS = [
    {"granularity": "minutes", "fields": {"v": ["min", "max", "sum", "count", "first", "last"]}},
    {"granularity": "hours", "fields": {"v": ["sum", "count", "max"], "w": ["sum"]}},
]
ADDED_LEVEL = {"granularity": "days", "fields": {"v": ["min", "sum", "count"]}}


def span_of(level):
    if "bucketSpanSeconds" in level:
        return level["bucketSpanSeconds"]
    return {"seconds": 1, "minutes": 60, "hours": 3600, "days": 86400}[level["granularity"]]


def expected_rows(db, level):
    """{(bin, meta): {n, tmin, tmax, f: {...}}} recomputed from the view."""
    span = span_of(level)
    group = {"_id": {"t": {"$dateTrunc": {"date": "$t", "unit": "second", "binSize": span}},
                     "m": "$m"},
             "n": {"$sum": 1}, "tmin": {"$min": "$t"}, "tmax": {"$max": "$t"}}
    for f, accs in level["fields"].items():
        for acc in accs:
            out = f + "_" + acc
            if acc in ("min", "max", "sum"):
                group[out] = {"$" + acc: "$" + f}
            elif acc == "count":
                group[out] = {"$sum": {"$cond": [{"$isNumber": "$" + f}, 1, 0]}}
            else:
                group[out] = {"$" + acc: "$" + f}
    rows = {}
    # Times are distinct per series, so $first/$last after the sort on time are exact.
    for g in db[NAME].aggregate([{"$sort": {"t": 1}}, {"$group": group}], allowDiskUse=True):
        rows[(g["_id"]["t"], repr(g["_id"].get("m")))] = g
    return rows


def close(a, b):
    if isinstance(a, float) or isinstance(b, float):
        if a is None or b is None:
            return a is b
        return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))
    return a == b and type(a) is type(b)


def compare_level(db, level):
    span = span_of(level)
    expected = expected_rows(db, level)
    actual = list(db["system.rollups.%s.%d" % (NAME, span)].find())
    problems = []
    if len(actual) != len(expected):
        problems.append("level %d: %d rows, expected %d" % (span, len(actual), len(expected)))
    for row in actual:
        key = (row["_id"]["t"], repr(row["_id"].get("m")))
        e = expected.get(key)
        if e is None:
            problems.append("level %d: unexpected row %r" % (span, row["_id"]))
            continue
        for name in ("n", "tmin", "tmax"):
            if row[name] != e[name]:
                problems.append("level %d %r: %s %r, expected %r" %
                                (span, key, name, row[name], e[name]))
        for f, accs in level["fields"].items():
            for acc in accs:
                got = row["f"][f].get(acc)
                want = e[f + "_" + acc]
                if not close(got, want):
                    problems.append("level %d %r: %s.%s %r, expected %r" %
                                    (span, key, f, acc, got, want))
    return problems[:10]


def wait_caught_up(db, timeout=120):
    deadline = time.time() + timeout
    pending = db["system.rollups.%s.pending" % NAME]
    while time.time() < deadline:
        if pending.count_documents({}) == 0:
            return True
        time.sleep(0.2)
    return False


def writer(mongod, seed, stop, errors):
    rnd = random.Random(seed)
    client = mongod.client(serverSelectionTimeoutMS=3000, socketTimeoutMS=10000)
    coll = client["test"][NAME]
    series = ["h%d" % i for i in range(6)]
    used = set()  # (series, time) already written by this writer
    try:
        while not stop.is_set():
            r = rnd.random()
            if r < 0.85:
                docs = []
                for _ in range(rnd.randint(20, 200)):
                    # Writer-specific millisecond offsets keep the times of a series distinct
                    # across writers, `used` within one.
                    t = BASE + datetime.timedelta(seconds=rnd.randint(0, 8 * 3600),
                                                  milliseconds=seed * 10 + rnd.randint(0, 9))
                    host = rnd.choice(series)
                    if (host, t) in used:
                        continue
                    used.add((host, t))
                    d = {"t": t, "m": {"host": host},
                         "v": rnd.choice([rnd.randint(0, 100), rnd.random() * 50, None])}
                    if rnd.random() < 0.8:
                        d["w"] = rnd.randint(0, 10)
                    docs.append(d)
                coll.insert_many(docs, ordered=False)
            elif r < 0.95:
                coll.update_many({"m.host": rnd.choice(series), "v": {"$gt": 95}},
                                 {"$set": {"v": -1}})
            else:
                lo = BASE + datetime.timedelta(seconds=rnd.randint(0, 8 * 3600))
                coll.delete_many({"t": {"$gte": lo, "$lt": lo + datetime.timedelta(seconds=30)}})
    except PyMongoError as exc:
        errors.append(exc)  # the kill ends every writer this way
    finally:
        client.close()


def run_round(mongod, round_no, rnd):
    stop = threading.Event()
    errors = []
    threads = [threading.Thread(target=writer, args=(mongod, round_no * 10 + i, stop, errors),
                                daemon=True) for i in range(4)]
    for t in threads:
        t.start()
    time.sleep(rnd.uniform(2.0, 4.0))
    mongod.kill9()
    stop.set()
    for t in threads:
        t.join(timeout=60)
    mongod.start()
    db = mongod.client()["test"]
    if not wait_caught_up(db):
        return ["the catch-up did not finish within 120 s"]
    problems = []
    for level in LEVELS:
        problems += compare_level(db, level)
    return problems


def run_collmod_kill(mongod):
    """A collMod adding a level, killed while it builds: after restart the level is complete."""
    db = mongod.client(socketTimeoutMS=60000)["test"]
    done = threading.Event()

    def collmod():
        try:
            db.command("collMod", NAME, timeseries={"rollups": LEVELS + [ADDED_LEVEL]})
        except PyMongoError:
            pass
        done.set()

    t = threading.Thread(target=collmod, daemon=True)
    t.start()
    time.sleep(0.05)
    mongod.kill9()
    t.join(timeout=60)
    mongod.start()
    db = mongod.client()["test"]
    if not wait_caught_up(db):
        return ["the catch-up did not finish within 120 s"]
    info = db.command("listCollections", filter={"name": NAME})["cursor"]["firstBatch"][0]
    levels = info["options"]["timeseries"].get("rollups", [])
    problems = []
    for level in levels:
        problems += compare_level(db, level)
    names = set(db.list_collection_names())
    for level in levels:
        if "system.rollups.%s.%d" % (NAME, span_of(level)) not in names:
            problems.append("level %d missing" % span_of(level))
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mongod", default=os.path.join(REPO_ROOT, "build", "opt", "mongod"))
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the dbpath and logs")
    args = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="rollups-kill9-")
    dbpath = os.path.join(workdir, "db")
    os.makedirs(dbpath)
    mongod = Mongod(args.mongod, dbpath, workdir)
    mongod.extra_args = ["--setParameter", "rollupCatchUpIntervalMillis=200"]
    rnd = random.Random(17)
    passed = failed = 0
    try:
        mongod.start()
        mongod.client()["test"].command(
            "create", NAME, timeseries={"timeField": "t", "metaField": "m", "rollups": LEVELS})
        tests = [("round %d: kill -9 during 4 writers" % i,
                  lambda i=i: run_round(mongod, i, rnd)) for i in range(1, args.rounds + 1)]
        tests.append(("kill -9 during a collMod that adds a level",
                      lambda: run_collmod_kill(mongod)))
        for name, fn in tests:
            start = time.time()
            try:
                problems = fn()
            except (RuntimeError, PyMongoError, OSError) as exc:
                problems = ["%s: %s" % (type(exc).__name__, exc)]
                if mongod.proc is None or mongod.proc.poll() is not None:
                    try:
                        mongod.start()
                    except RuntimeError:
                        pass
            if problems:
                failed += 1
                print("[rollups_kill9] FAIL %s: %s" % (name, "; ".join(problems)))
                print("    mongod log tail:\n" + mongod.tail())
            else:
                passed += 1
                print("[rollups_kill9] PASS %s (%.1fs)" % (name, time.time() - start))
    except (RuntimeError, PyMongoError) as exc:
        failed += 1
        print("[rollups_kill9] FAIL setup: %s" % exc)
    finally:
        mongod.stop()
        if failed or args.keep:
            print("[rollups_kill9] dbpath and logs kept in %s" % workdir)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
