#!/usr/bin/python3
"""Journaled writes survive kill -9.

Starts mongod on a temporary dbpath, streams single-document inserts with
writeConcern {w: 1, j: true} from pymongo while recording every acknowledged
_id, sends SIGKILL to mongod in the middle of the stream, restarts mongod on
the same dbpath and checks that every acknowledged document is there (with
the right content). Repeats for --rounds rounds on the same dbpath.

Usage: /usr/bin/python3 buildscripts/client_tests/kill9_durability_test.py
           [--mongod build/opt/mongod] [--rounds 2] [--min-acked 300] [--keep]
The last line is "N passed, M failed" (one test per round).
"""

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

import pymongo
from pymongo.errors import PyMongoError
from pymongo.write_concern import WriteConcern

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Mongod:
    def __init__(self, path, dbpath, workdir):
        self.path = path
        self.dbpath = dbpath
        self.workdir = workdir
        self.proc = None
        self.port = None
        self.starts = 0

    def start(self, timeout=60):
        self.starts += 1
        self.port = free_port()
        logpath = os.path.join(self.workdir, "mongod%d.log" % self.starts)
        self.logpath = logpath
        out = open(os.path.join(self.workdir, "mongod%d.stdout" % self.starts), "wb")
        self.proc = subprocess.Popen(
            [self.path, "--dbpath", self.dbpath, "--port", str(self.port), "--bind_ip", "127.0.0.1",
             "--logpath", logpath] + list(getattr(self, "extra_args", [])),
            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        out.close()
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("mongod exited with code %s at startup; log: %s" %
                                   (self.proc.returncode, self.tail()))
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    pass
                client = self.client(serverSelectionTimeoutMS=2000)
                client.admin.command("ping")
                client.close()
                return
            except (OSError, PyMongoError):
                time.sleep(0.1)
        raise RuntimeError("mongod did not start within %ds; log: %s" % (timeout, self.tail()))

    def client(self, **kwargs):
        kwargs.setdefault("serverSelectionTimeoutMS", 5000)
        return pymongo.MongoClient("127.0.0.1", self.port, retryWrites=False, connect=True, **kwargs)

    def kill9(self):
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self):
        if self.proc is None or self.proc.poll() is not None:
            return
        try:
            client = self.client(serverSelectionTimeoutMS=2000)
            client.admin.command("shutdown")
        except PyMongoError:
            pass  # the connection closes when the server exits
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def tail(self, lines=30):
        try:
            with open(self.logpath, errors="replace") as f:
                return "\n".join(f.read().splitlines()[-lines:])
        except OSError:
            return "(no log)"


def doc_for(i):
    return {"_id": i, "n": i, "payload": "d%08d" % i + "x" * 100}


def stream_until_killed(mongod, first_id, min_acked, max_wait):
    """Inserts documents one by one until mongod dies; returns (acked ids, attempted id)."""
    client = mongod.client(serverSelectionTimeoutMS=3000, socketTimeoutMS=10000)
    coll = client["durability"].get_collection("docs", write_concern=WriteConcern(w=1, j=True))
    acked = []
    state = {"attempted": None, "error": None}
    stop = threading.Event()

    def writer():
        i = first_id
        while not stop.is_set():
            state["attempted"] = i
            try:
                coll.insert_one(doc_for(i))
            except PyMongoError as exc:
                state["error"] = exc
                return
            acked.append(i)
            i += 1

    t = threading.Thread(target=writer, daemon=True)
    t.start()
    deadline = time.time() + max_wait
    while len(acked) < min_acked and t.is_alive() and time.time() < deadline:
        time.sleep(0.005)
    if not t.is_alive():
        raise RuntimeError("writer stopped before the kill after %d acknowledged inserts: %r" %
                           (len(acked), state["error"]))
    if len(acked) < min_acked:
        stop.set()
        raise RuntimeError("only %d acknowledged inserts in %ds" % (len(acked), max_wait))
    mongod.kill9()  # mid-stream: the writer is inside an insert right now
    t.join(timeout=60)
    stop.set()
    client.close()
    return list(acked), state["attempted"]


def verify(mongod, acked, maybe):
    client = mongod.client()
    coll = client["durability"]["docs"]
    present = {d["_id"]: d for d in coll.find({}, {"_id": 1, "n": 1, "payload": 1})}
    client.close()
    missing = [i for i in acked if i not in present]
    wrong = [i for i in acked if i in present and present[i] != doc_for(i)]
    allowed = set(acked) | set(maybe)  # in-flight inserts may or may not have survived
    unexpected = sorted(set(present) - allowed)
    problems = []
    if missing:
        problems.append("%d acknowledged documents missing (first: %s)" % (len(missing), missing[:10]))
    if wrong:
        problems.append("%d documents with wrong content (first: %s)" % (len(wrong), wrong[:10]))
    if unexpected:
        problems.append("%d documents that were never inserted (first: %s)" %
                        (len(unexpected), unexpected[:10]))
    return problems, len(present)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mongod", default=os.path.join(REPO_ROOT, "build", "opt", "mongod"))
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--min-acked", type=int, default=300,
                        help="acknowledged inserts per round before the kill")
    parser.add_argument("--max-wait", type=int, default=120, help="seconds to reach --min-acked")
    parser.add_argument("--keep", action="store_true", help="keep the dbpath and logs")
    args = parser.parse_args()

    if not os.path.exists(args.mongod):
        print("[kill9] FAIL mongod not found at %s" % args.mongod)
        print("0 passed, 1 failed")
        return 1

    workdir = tempfile.mkdtemp(prefix="kill9-")
    dbpath = os.path.join(workdir, "db")
    os.makedirs(dbpath)
    mongod = Mongod(args.mongod, dbpath, workdir)
    passed = failed = 0
    all_acked = []
    maybe = set()
    next_id = 0
    try:
        mongod.start()
        for round_no in range(1, args.rounds + 1):
            name = "round %d: kill -9 after >= %d journaled inserts" % (round_no, args.min_acked)
            start = time.time()
            try:
                acked, in_flight = stream_until_killed(mongod, next_id, args.min_acked, args.max_wait)
                all_acked.extend(acked)
                next_id = (in_flight if in_flight is not None else next_id) + 1
                if in_flight is not None:
                    maybe.add(in_flight)
                mongod.start()
                problems, n_present = verify(mongod, all_acked, maybe)
                if problems:
                    failed += 1
                    print("[kill9] FAIL %s: %s" % (name, "; ".join(problems)))
                    print("    mongod log tail:\n" + mongod.tail())
                else:
                    passed += 1
                    print("[kill9] PASS %s (%d acked this round, %d total, %d present, %.1fs)" %
                          (name, len(acked), len(all_acked), n_present, time.time() - start))
            except (RuntimeError, PyMongoError, OSError, subprocess.TimeoutExpired) as exc:
                failed += 1
                print("[kill9] FAIL %s: %s" % (name, exc))
                print("    mongod log tail:\n" + mongod.tail())
                if mongod.proc is None or mongod.proc.poll() is not None:
                    try:
                        mongod.start()
                    except RuntimeError as exc2:
                        print("[kill9] cannot restart mongod: %s" % exc2)
                        failed += args.rounds - round_no
                        break
    except RuntimeError as exc:
        failed += 1
        print("[kill9] FAIL could not start mongod: %s" % exc)
    finally:
        mongod.stop()
        if failed or args.keep:
            print("[kill9] dbpath and logs kept in %s" % workdir)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
