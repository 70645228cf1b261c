#!/usr/bin/python3
"""Side-by-side benchmark against VictoriaMetrics on the shared dataset (issue 15, item 1).

One command: for each precision (int, f2) it starts a fresh mongod and a fresh VictoriaMetrics
(Debian package `victoria-metrics`, installed by buildscripts/setup.sh), each on a free port of
127.0.0.1 with a temporary data directory, loads the same rows into both, and measures
  * ingest: rows per second. Ours: the libmongoc loader build/opt/bench/ts_load
    (`scons bench_tools`; pymongo threads when it is not built), unordered insertMany batches of
    1,000 on 4 connections into a time-series collection {timeField: "time", metaField: "tags"}.
    Theirs: Influx line protocol over HTTP (/write), one client, batches of 10,000 lines, the
    clock stopped after /internal/force_flush returned.
  * disk: bytes per field value (rows x 10). Ours: collStats storageSize + totalIndexSize of the
    time-series collection after fsync (a checkpoint). Theirs: the size of every file under
    -storageDataPath after /internal/force_flush and /internal/force_merge.
  * queries, each the median of --runs (>= 7) runs of the request and the client's decoding
    of its reply (pymongo's BSON, json.loads), answers compared for equality (the answers'
    normalisation for that comparison is not timed):
      Q1        average of usage_user per host per hour over the whole day
      Q2        maximum of the 10 fields for one host over the middle 12 hours
      high-cpu  TSBS high-cpu-all: readings with usage_user > 90, all hosts, first 12 hours
                (ours returns whole documents, theirs the usage_user samples)
      lastpoint TSBS lastpoint: the last value of each of the 10 fields for every host
      no-op     the fixed cost of a query: an hour after the data, where neither has any (ours:
                an aggregate on the view, so parse, view resolution, rewrites and planning)
    then Q1 and Q2 again on ours with a {tags.hostname: 1, time: 1} index.
  * memory: peak RSS (VmHWM) of each server.
  * buckets made by the concurrent loaders against the ideal (hosts x hours: one bucket per
    host and hour, as 360 measurements per hour fit in one bucket).

VictoriaMetrics runs with -search.disableCache (no response cache) and a retention long enough
for the dataset's 2016 timestamps. Its range queries are evaluated at t = hour end - 1 s, so
that each window (t - 1h, t] holds exactly the samples of [hour start, hour end) as ours does.

The last line is one JSON object of ratios ours / theirs: disk_int, disk_f2, ingest_int,
ingest_f2, q1_int, q1_f2, q2_int, q2_f2 (disk and query times: lower is better for us; ingest:
higher is better for us).

Usage: peer_bench.py [--mongod build/opt/mongod] [--vm /usr/bin/victoria-metrics]
                     [--data DIR] [--runs 7] [--quick] [--keep]
  --data DIR   reuse (or write) the generated dataset there (tsbs_cpu_gen.py --formats lp,csv)
  --quick      10 hosts x 4 hours (a self-check of the script, not a measurement)

It is a benchmark, not a test: run_tests.sh does not run it.
"""
import argparse
import datetime
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

import pymongo

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The dataset, its fields and the CSV reader are ts_bench.py's: one loader for every figure.
from ts_bench import FIELDS, GEN, ROOT, TAG_KEYS, free_port, load_rows  # noqa: E402
T0 = 1451606400  # 2016-01-01T00:00:00Z, the generator's start
STEP = 10
UTC = datetime.timezone.utc
HOUR = 3600


def peak_rss_mb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def dir_bytes(path, skip=()):
    total = 0
    for d, dirs, files in os.walk(path):
        dirs[:] = [x for x in dirs if os.path.join(d, x) not in skip]
        for f in files:
            try:
                total += os.lstat(os.path.join(d, f)).st_size
            except FileNotFoundError:
                pass  # a part being merged away
    return total


def median_ms(fn, runs):
    """Median time of fn(True): the request and the client's decoding of the reply (BSON by
    pymongo, JSON by json.loads), not the answer's normalisation for the comparison."""
    fn(True)  # warm-up, not counted
    times = []
    for _ in range(runs):
        s = time.perf_counter()
        fn(True)
        times.append((time.perf_counter() - s) * 1000)
    return statistics.median(times)


def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


# ---------------------------------------------------------------------------------- ours


class Ours:
    def __init__(self, mongod, work, loader, data):
        self.dbpath = os.path.join(work, "db")
        os.makedirs(self.dbpath)
        self.port = free_port()
        self.proc = subprocess.Popen([mongod, "--dbpath", self.dbpath, "--port", str(self.port),
                                      "--bind_ip", "127.0.0.1", "--quiet",
                                      "--logpath", os.path.join(work, "mongod.log")])
        self.client = pymongo.MongoClient("127.0.0.1", self.port, serverSelectionTimeoutMS=30000)
        self.client.admin.command("ping")
        self.db = self.client.bench
        self.loader = loader
        self.data = data

    def stop(self):
        self.client.close()
        self.proc.terminate()
        self.proc.wait(timeout=120)

    def load(self, prec):
        self.db.create_collection("ts", timeseries={"timeField": "time", "metaField": "tags"})
        if self.loader:
            out = subprocess.check_output([self.loader, "--uri", "mongodb://127.0.0.1:%d" % self.port,
                                           "--db", "bench", "--coll", "ts", "--data", self.data,
                                           "--prec", prec, "--threads", "4", "--batch", "1000"])
            r = json.loads(out.decode().strip().splitlines()[-1])
            return r["docs"], r["per_s"]
        rows = load_rows(self.data, prec)
        batches = [rows[i:i + 1000] for i in range(0, len(rows), 1000)]
        lock = threading.Lock()
        coll = self.db.ts

        def work():
            while True:
                with lock:
                    if not batches:
                        return
                    b = batches.pop(0)
                coll.insert_many(b, ordered=False)

        start = time.perf_counter()
        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return len(rows), len(rows) / (time.perf_counter() - start)

    def size(self):
        self.client.admin.command("fsync")
        st = self.db.command("collStats", "ts")
        return st["storageSize"] + st["totalIndexSize"]

    def buckets(self):
        return self.db["system.buckets.ts"].count_documents({})

    def q1(self, fetch_only=False):
        p = [{"$group": {"_id": {"host": "$tags.hostname",
                                 "hour": {"$dateTrunc": {"date": "$time", "unit": "hour"}}},
                         "avg": {"$avg": "$usage_user"}}}]
        docs = list(self.db.ts.aggregate(p))
        if fetch_only:
            return docs
        return {(d["_id"]["host"], int(d["_id"]["hour"].replace(tzinfo=UTC).timestamp())): d["avg"]
                for d in docs}

    def q2(self, lo, hi, fetch_only=False):
        p = [{"$match": {"tags.hostname": "host_1",
                         "time": {"$gte": datetime.datetime.fromtimestamp(lo, UTC),
                                  "$lt": datetime.datetime.fromtimestamp(hi, UTC)}}},
             {"$group": dict([("_id", None)] + [(f, {"$max": "$" + f}) for f in FIELDS])}]
        res = list(self.db.ts.aggregate(p))
        if fetch_only:
            return res
        return {f: res[0][f] for f in FIELDS} if res else {}

    def high_cpu(self, lo, hi, fetch_only=False):
        docs = list(self.db.ts.find({"usage_user": {"$gt": 90.0},
                                     "time": {"$gte": datetime.datetime.fromtimestamp(lo, UTC),
                                              "$lt": datetime.datetime.fromtimestamp(hi, UTC)}}))
        if fetch_only:
            return docs
        return {(d["tags"]["hostname"], int(d["time"].replace(tzinfo=UTC).timestamp()))
                for d in docs}

    def empty(self, end, fetch_only=False):
        p = [{"$match": {"time": {"$gte": datetime.datetime.fromtimestamp(end + HOUR, UTC)}}}]
        docs = list(self.db.ts.aggregate(p))
        if fetch_only:
            return docs
        return {(d["tags"]["hostname"], d["time"]) for d in docs}

    def lastpoint(self, fetch_only=False):
        p = [{"$group": {"_id": "$tags.hostname",
                         "last": {"$top": {"sortBy": {"time": -1},
                                           "output": ["$" + f for f in FIELDS]}}}}]
        docs = list(self.db.ts.aggregate(p))
        if fetch_only:
            return docs
        return {(d["_id"], f): v for d in docs for f, v in zip(FIELDS, d["last"])}


# ---------------------------------------------------------------------------------- theirs


class Theirs:
    def __init__(self, vm, work):
        self.path = os.path.join(work, "vm")
        os.makedirs(work, exist_ok=True)
        self.port = free_port()
        self.log = open(os.path.join(work, "vm.log"), "w")
        self.proc = subprocess.Popen([vm, "-httpListenAddr", "127.0.0.1:%d" % self.port,
                                      "-storageDataPath", self.path, "-retentionPeriod", "100y",
                                      "-search.disableCache", "-loggerLevel", "ERROR"],
                                     stdout=self.log, stderr=subprocess.STDOUT)
        self.conn = None
        deadline = time.time() + 30
        while True:
            try:
                if self.get("/health")[0] == 200:
                    break
            except OSError:
                pass
            if time.time() > deadline or self.proc.poll() is not None:
                raise RuntimeError("victoria-metrics did not start (see %s)" % self.log.name)
            time.sleep(0.1)

    def stop(self):
        if self.conn:
            self.conn.close()
        self.proc.terminate()
        self.proc.wait(timeout=120)
        self.log.close()

    def request(self, method, path, body=None):
        for attempt in (0, 1):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
            try:
                self.conn.request(method, path, body=body)
                r = self.conn.getresponse()
                return r.status, r.read()
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = None
                if attempt:
                    raise

    def get(self, path, **params):
        if params:
            path += "?" + urllib.parse.urlencode(params)
        return self.request("GET", path)

    def ok(self, method, path, body=None):
        status, out = self.request(method, path, body)
        if status // 100 != 2:
            raise RuntimeError("%s %s: %d %s" % (method, path, status, out[:300]))
        return out

    def load(self, data, prec, batch=10000):
        with open(os.path.join(data, prec, "cpu.lp"), "rb") as f:
            lines = f.readlines()
        bodies = [b"".join(lines[i:i + batch]) for i in range(0, len(lines), batch)]
        del lines
        start = time.perf_counter()
        for b in bodies:
            self.ok("POST", "/write", b)
        self.ok("GET", "/internal/force_flush")
        secs = time.perf_counter() - start
        return sum(b.count(b"\n") for b in bodies) / secs

    def size(self):
        self.ok("GET", "/internal/force_flush")
        self.ok("GET", "/internal/force_merge")
        # force_merge runs in the background: wait until no merge is running.
        deadline = time.time() + 600
        while time.time() < deadline:
            m = self.ok("GET", "/metrics").decode()
            active = sum(float(l.split()[-1]) for l in m.splitlines()
                         if l.startswith("vm_active_merges") or l.startswith("vm_active_force_merges"))
            if active == 0:
                break
            time.sleep(0.2)
        time.sleep(1)  # parts replaced by the merge are deleted right after it
        return dir_bytes(self.path, skip={os.path.join(self.path, "cache")})

    def query(self, path, **params):
        r = json.loads(self.ok("GET", path + "?" + urllib.parse.urlencode(params)))
        if r.get("status") != "success":
            raise RuntimeError(str(r)[:300])
        return r["data"]["result"]

    def q1(self, end, fetch_only=False):
        res = self.query("/api/v1/query_range", query="avg_over_time(cpu_usage_user[1h])",
                         start=T0 + HOUR - 1, end=end - 1, step=HOUR)
        if fetch_only:
            return res
        return {(s["metric"]["hostname"], int(ts) + 1 - HOUR): float(v)
                for s in res for ts, v in s["values"]}

    def q2(self, lo, hi, fetch_only=False):
        res = self.query("/api/v1/query_range",
                         query='max_over_time({__name__=~"cpu_usage_.+",hostname="host_1"}[1h]) '
                               'keep_metric_names',
                         start=lo + HOUR - 1, end=hi - 1, step=HOUR)
        if fetch_only:
            return res
        return {s["metric"]["__name__"][len("cpu_"):]: max(float(v) for _, v in s["values"])
                for s in res}

    def high_cpu(self, lo, hi, fetch_only=False):
        res = self.query("/api/v1/query_range", query="cpu_usage_user > 90",
                         start=lo, end=hi - STEP, step=STEP)
        if fetch_only:
            return res
        return {(s["metric"]["hostname"], int(ts)) for s in res for ts, _ in s["values"]}

    def empty(self, end, fetch_only=False):
        res = self.query("/api/v1/query_range", query="cpu_usage_user",
                         start=end + HOUR, end=end + 2 * HOUR, step=HOUR)
        if fetch_only:
            return res
        return {(s["metric"]["hostname"], int(ts)) for s in res for ts, _ in s["values"]}

    def lastpoint(self, end, fetch_only=False):
        res = self.query("/api/v1/query",
                         query='last_over_time({__name__=~"cpu_usage_.+"}[1h]) keep_metric_names',
                         time=end)
        if fetch_only:
            return res
        return {(s["metric"]["hostname"], s["metric"]["__name__"][len("cpu_"):]): float(s["value"][1])
                for s in res}


# ---------------------------------------------------------------------------------- main


def same(a, b):
    if isinstance(a, set):
        return a == b
    return a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)


def run_prec(args, data, meta, prec, work):
    hosts, hours = meta["hosts"], meta["hours"]
    end = T0 + hours * HOUR
    q2_lo, q2_hi = T0 + hours * HOUR // 4, T0 + 3 * hours * HOUR // 4  # 6h..18h of a day
    hc_hi = T0 + hours * HOUR // 2                                     # the first 12 hours
    values = meta["rows"] * len(FIELDS)
    r = {"rows": meta["rows"]}

    ours = Ours(args.mongod, os.path.join(work, "ours"), args.loader, data)
    theirs = None
    try:
        rows, r["ingest_ours"] = ours.load(prec)
        assert rows == meta["rows"], (rows, meta["rows"])
        r["bytes_ours"] = ours.size()
        r["buckets"] = ours.buckets()
        r["buckets_ideal"] = hosts * hours
        theirs = Theirs(args.vm, os.path.join(work, "theirs"))
        r["ingest_theirs"] = theirs.load(data, prec)
        r["bytes_theirs"] = theirs.size()
        r["bpv_ours"] = r["bytes_ours"] / values
        r["bpv_theirs"] = r["bytes_theirs"] / values

        queries = [
            ("q1", ours.q1, lambda f=False: theirs.q1(end, f)),
            ("q2", lambda f=False: ours.q2(q2_lo, q2_hi, f),
             lambda f=False: theirs.q2(q2_lo, q2_hi, f)),
            ("high_cpu", lambda f=False: ours.high_cpu(T0, hc_hi, f),
             lambda f=False: theirs.high_cpu(T0, hc_hi, f)),
            ("lastpoint", ours.lastpoint, lambda f=False: theirs.lastpoint(end, f)),
            ("empty", lambda f=False: ours.empty(end, f), lambda f=False: theirs.empty(end, f)),
        ]
        for name, fo, ft in queries:
            a, b = fo(), ft()
            r[name + "_equal"] = same(a, b)
            r[name + "_answers"] = len(a)
            if not r[name + "_equal"]:
                diff = sorted(set(a) ^ set(b))[:3] if isinstance(a, set) else \
                    [(k, a.get(k), b.get(k)) for k in sorted(set(a) | set(b))
                     if k not in a or k not in b or not close(a[k], b[k])][:3]
                print("  %s %s: answers differ (%d vs %d), e.g. %s" % (prec, name, len(a), len(b), diff),
                      flush=True)
            r[name + "_ours_ms"] = median_ms(fo, args.runs)
            r[name + "_theirs_ms"] = median_ms(ft, args.runs)
        ours.db.ts.create_index([("tags.hostname", 1), ("time", 1)])
        r["q1_idx_ours_ms"] = median_ms(ours.q1, args.runs)
        r["q2_idx_ours_ms"] = median_ms(lambda f=False: ours.q2(q2_lo, q2_hi, f), args.runs)
        r["rss_mb_ours"] = peak_rss_mb(ours.proc.pid)
        r["rss_mb_theirs"] = peak_rss_mb(theirs.proc.pid)
    finally:
        ours.stop()
        if theirs:
            theirs.stop()
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mongod", default=os.path.join(ROOT, "build/opt/mongod"))
    ap.add_argument("--vm", default=shutil.which("victoria-metrics") or "/usr/bin/victoria-metrics")
    ap.add_argument("--loader", default=os.path.join(ROOT, "build/opt/bench/ts_load"))
    ap.add_argument("--data", help="dataset directory (generated there when missing)")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--quick", action="store_true", help="10 hosts x 4 hours")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = ap.parse_args()
    if args.runs < 7 and not args.quick:
        ap.error("--runs must be at least 7")
    if not os.path.exists(args.vm):
        ap.error("no %s: run buildscripts/setup.sh (Debian package victoria-metrics)" % args.vm)
    if not os.path.exists(args.loader):
        print("note: %s not built (scons bench_tools): loading ours with pymongo threads, "
              "which measures the client more than the server" % args.loader, flush=True)
        args.loader = None

    work = tempfile.mkdtemp(prefix="peer_bench.")
    try:
        hosts, hours = (10, 4) if args.quick else (100, 24)
        data = args.data or os.path.join(work, "data")
        if not os.path.exists(os.path.join(data, "meta.json")):
            subprocess.check_call(["/usr/bin/python3", GEN, data, "--formats", "lp,csv",
                                   "--hosts", str(hosts), "--hours", str(hours)],
                                  stdout=subprocess.DEVNULL)
        with open(os.path.join(data, "meta.json")) as f:
            meta = json.load(f)
        results = {}
        for prec in ("int", "f2"):
            results[prec] = run_prec(args, data, meta, prec, os.path.join(work, prec))
            print(json.dumps({prec: results[prec]}), flush=True)

        print("\n%s hosts x %s hours = %d rows; ours: %s, 4 connections; theirs: %s, 1 client"
              % (meta["hosts"], meta["hours"], meta["rows"],
                 "ts_load" if args.loader else "pymongo", "victoria-metrics"))
        fmt = "%-34s %12s %12s %12s %12s %8s %8s"
        print(fmt % ("", "ours int", "theirs int", "ours f2", "theirs f2", "int", "f2"))
        lines = [("bytes/value", "bpv", "%.3f"), ("rows/s", "ingest", "%.0f"),
                 ("Q1 ms", "q1", "%.2f"), ("Q2 ms", "q2", "%.2f"),
                 ("high-cpu ms", "high_cpu", "%.2f"), ("lastpoint ms", "lastpoint", "%.2f"),
                 ("no-op ms (empty range)", "empty", "%.2f"),
                 ("peak RSS MB", "rss_mb", "%.0f")]
        for label, key, vf in lines:
            cells = []
            for prec in ("int", "f2"):
                r = results[prec]
                o = r.get(key + "_ours", r.get(key + "_ours_ms"))
                t = r.get(key + "_theirs", r.get(key + "_theirs_ms"))
                cells += [vf % o, vf % t]
            ratios = []
            for prec in ("int", "f2"):
                r = results[prec]
                o = r.get(key + "_ours", r.get(key + "_ours_ms"))
                t = r.get(key + "_theirs", r.get(key + "_theirs_ms"))
                ratios.append("%.2f" % (o / t) if t else "-")
            print(fmt % tuple([label] + cells + ratios))
        for key, label in (("q1_idx", "Q1 ms, {tags.hostname,time} idx"),
                           ("q2_idx", "Q2 ms, {tags.hostname,time} idx")):
            cells, ratios = [], []
            for prec in ("int", "f2"):
                r = results[prec]
                base = key.split("_")[0]
                cells += ["%.2f" % r[key + "_ours_ms"], "%.2f" % r[base + "_theirs_ms"]]
                ratios.append("%.2f" % (r[key + "_ours_ms"] / r[base + "_theirs_ms"]))
            print(fmt % tuple([label] + cells + ratios))
        for prec in ("int", "f2"):
            r = results[prec]
            print("%s: buckets %d (ideal %d, x%.2f); answers equal: %s" % (
                prec, r["buckets"], r["buckets_ideal"], r["buckets"] / r["buckets_ideal"],
                ", ".join("%s %s" % (q, "yes" if r[q + "_equal"] else "NO")
                          for q in ("q1", "q2", "high_cpu", "lastpoint", "empty"))))
        ratios = {}
        for prec in ("int", "f2"):
            r = results[prec]
            ratios["disk_" + prec] = round(r["bpv_ours"] / r["bpv_theirs"], 3)
            ratios["ingest_" + prec] = round(r["ingest_ours"] / r["ingest_theirs"], 3)
            ratios["q1_" + prec] = round(r["q1_ours_ms"] / r["q1_theirs_ms"], 3)
            ratios["q2_" + prec] = round(r["q2_ours_ms"] / r["q2_theirs_ms"], 3)
        keys = ["disk_int", "disk_f2", "ingest_int", "ingest_f2", "q1_int", "q1_f2", "q2_int", "q2_f2"]
        print(json.dumps({k: ratios[k] for k in keys}))
        ok = all(results[p][q + "_equal"] for p in results
                 for q in ("q1", "q2", "high_cpu", "lastpoint", "empty"))
        return 0 if ok else 1
    finally:
        if args.keep:
            print("kept %s" % work, file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
