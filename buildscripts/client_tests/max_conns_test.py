#!/usr/bin/python3
"""maxIncomingConnections: a mongod started with --maxConns 5 (and one configured with YAML
net.maxIncomingConnections: 5) serves five connections, closes a sixth as soon as it is
accepted (log id 22942 "Connection refused because there are too many open connections"),
accepts again once one closes, and reports serverStatus().connections consistently
(current + available == 5, totalCreated counting only accepted connections). --maxConns 4 is
refused at start-up ("maxConns has to be at least 5", exit code 2).
Prints one line per check and `N passed, M failed`.
Usage: max_conns_test.py --mongod PATH
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from wire import command, connect, free_port  # noqa: E402

results = []
LIMIT = 5


def check(name, ok, detail=""):
    results.append(bool(ok))
    print("[max-conns] %s %s%s" % ("PASS" if ok else "FAIL", name,
                                   (": " + str(detail)) if detail and not ok else ""), flush=True)


def closed_by_server(sock):
    """True if the server closed `sock` without answering a hello."""
    try:
        command(sock, {"hello": 1, "$db": "admin"})
        return False
    except (ConnectionError, OSError):
        return True


def wait_ready(port, proc):
    deadline = time.time() + 60
    while time.time() < deadline:
        if proc.poll() is not None:
            return False
        try:
            with connect(port) as s:
                command(s, {"ping": 1, "$db": "admin"})
                return True
        except OSError:
            time.sleep(0.2)
    return False


def wait_current(sock, expected):
    """serverStatus().connections once `current` settles at `expected` (ends are async)."""
    conns = None
    for _ in range(100):
        conns = command(sock, {"serverStatus": 1, "$db": "admin"})["connections"]
        if conns["current"] == expected:
            break
        time.sleep(0.1)
    return conns


def scenario(mongod_args, label, work):
    port = free_port()
    dbpath = os.path.join(work, label)
    os.makedirs(dbpath)
    log = os.path.join(work, label + ".log")
    proc = subprocess.Popen(mongod_args(port, dbpath, log), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    socks = []
    try:
        if not wait_ready(port, proc):
            check(label + ": mongod starts", False, "did not start")
            return
        # The readiness probe's connection ends asynchronously on the server: wait until only
        # this first connection is counted before filling the remaining slots.
        first = connect(port)
        socks = [first]
        command(first, {"hello": 1, "$db": "admin"}, 1)
        wait_current(first, 1)
        socks += [connect(port) for _ in range(LIMIT - 1)]
        for i, s in enumerate(socks[1:]):
            command(s, {"hello": 1, "$db": "admin"}, i + 2)
        check(label + ": %d connections are served" % LIMIT, True)

        conns = wait_current(socks[0], LIMIT)
        check(label + ": current/available at the limit",
              conns["current"] == LIMIT and conns["available"] == 0, conns)
        created = conns["totalCreated"]

        extra = connect(port)
        check(label + ": a connection beyond the limit is closed at once", closed_by_server(extra))
        extra.close()
        refused = []
        for _ in range(50):
            with open(log) as f:
                refused = [json.loads(l) for l in f if '"id":22942' in l]
            if refused:
                break
            time.sleep(0.1)
        check(label + ": the refusal is logged (22942)",
              refused and refused[0]["msg"] ==
              "Connection refused because there are too many open connections" and
              refused[0]["attr"].get("connectionCount") == LIMIT, refused)

        socks.pop().close()
        conns = wait_current(socks[0], LIMIT - 1)
        check(label + ": a closed connection frees a slot",
              conns["current"] == LIMIT - 1 and conns["available"] == 1 and
              conns["totalCreated"] == created, conns)
        again = connect(port)
        ok = not closed_by_server(again)
        socks.append(again)
        check(label + ": a new connection is accepted again", ok)
        conns = wait_current(socks[0], LIMIT)
        check(label + ": totalCreated counts accepted connections only",
              conns["totalCreated"] == created + 1, conns)
    finally:
        for s in socks:
            s.close()
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mongod", required=True)
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="max-conns.")
    try:
        scenario(lambda port, dbpath, log: [args.mongod, "--dbpath", dbpath, "--port", str(port),
                                            "--logpath", log, "--maxConns", str(LIMIT)],
                 "cmdline", work)

        def yaml_args(port, dbpath, log):
            conf = os.path.join(work, "mongod.conf")
            with open(conf, "w") as f:
                f.write("net:\n  port: %d\n  bindIp: 127.0.0.1\n  maxIncomingConnections: %d\n"
                        "storage:\n  dbPath: %s\nsystemLog:\n  path: %s\n"
                        % (port, LIMIT, dbpath, log))
            return [args.mongod, "--config", conf]
        scenario(yaml_args, "yaml", work)

        dbpath = os.path.join(work, "tooLow")
        os.makedirs(dbpath)
        res = subprocess.run([args.mongod, "--dbpath", dbpath, "--port", str(free_port()),
                              "--maxConns", "4"], capture_output=True, text=True, timeout=60)
        check("--maxConns 4 is refused", res.returncode == 2 and
              "maxConns has to be at least 5" in res.stderr, (res.returncode, res.stderr))
    finally:
        if all(results):
            shutil.rmtree(work, ignore_errors=True)
        else:
            print("logs kept in %s" % work)
    print("%d passed, %d failed" % (results.count(True), results.count(False)))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
