#!/bin/bash
# Runs the real-client tests against build/opt/mongod:
#   node_crud_test.js (Node driver), pymongo_crud_test.py (pymongo 3.11) on one
#   fresh mongod (free port, temporary dbpath), then kill9_durability_test.py
#   (which manages its own mongod), then oplog_replay_test.py (its own two
#   mongods: --replSet oplog replayed with applyOps, dbHash compared), the time-series
#   concurrency test, max_conns_test.py, disk_full_test.py (it mounts a small tmpfs, so it needs
#   root), collmod_restart_test.py and rollups_kill9_test.py (rollup levels across kill -9)
#   (each its own mongod), auth_test.py (its own
#   --auth mongod: SCRAM logins and role checks with pymongo, the Node driver and mongosh),
#   config_file_test.py (the sample etc/mongod.conf; its own mongod),
#   size_storer_restart_test.py (counts after a clean restart and after kill -9 + validate; its
#   own mongod), tls_test.py (its own mongods in every tlsMode, certificates made by openssl
#   at test time: X.509 logins with pymongo, the Node driver and mongosh), and
#   retryable_writes_test.py
#   (its own --replSet mongod: exactly-once retries with pymongo and, through
#   retryable_writes_node_test.js, the Node driver; its kill -9 restart step is left out
#   with --skip-kill9).
# Usage: buildscripts/client_tests/run_client_tests.sh [--mongod PATH] [--skip-kill9]
# Last line: "N passed, M failed" (each scenario step counts as one test).
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
MONGOD="$ROOT/build/opt/mongod"
PY=/usr/bin/python3
SKIP_KILL9=0
while [ $# -gt 0 ]; do
    case "$1" in
        --mongod) MONGOD="$(realpath "$2")"; shift 2 ;;
        --mongod=*) MONGOD="$(realpath "${1#--mongod=}")"; shift ;;
        --skip-kill9) SKIP_KILL9=1; shift ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done

if [ ! -x "$MONGOD" ]; then
    echo "mongod not found at $MONGOD"
    echo "0 passed, 1 failed"
    exit 1
fi
"$ROOT/buildscripts/ensure_node_modules.sh" || { echo "0 passed, 1 failed"; exit 1; }

WORK="$(mktemp -d /tmp/client-tests-XXXXXX)"
PORT="$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
mkdir -p "$WORK/db"
"$MONGOD" --dbpath "$WORK/db" --port "$PORT" --bind_ip 127.0.0.1 --logpath "$WORK/mongod.log" \
    >"$WORK/mongod.stdout" 2>&1 </dev/null &
MONGOD_PID=$!

stop_mongod() {
    if kill -0 "$MONGOD_PID" 2>/dev/null; then
        $PY - "$PORT" <<'PYEOF' >/dev/null 2>&1
import sys, pymongo
try:
    pymongo.MongoClient("127.0.0.1", int(sys.argv[1]), serverSelectionTimeoutMS=3000).admin.command("shutdown")
except Exception:
    pass
PYEOF
        for _ in $(seq 1 100); do kill -0 "$MONGOD_PID" 2>/dev/null || break; sleep 0.2; done
        kill -TERM "$MONGOD_PID" 2>/dev/null && sleep 2
        kill -KILL "$MONGOD_PID" 2>/dev/null
    fi
    wait "$MONGOD_PID" 2>/dev/null
}
trap stop_mongod EXIT

if ! $PY - "$PORT" <<'PYEOF'
import sys, time, pymongo
deadline = time.time() + 60
while time.time() < deadline:
    try:
        pymongo.MongoClient("127.0.0.1", int(sys.argv[1]), serverSelectionTimeoutMS=1000).admin.command("ping")
        sys.exit(0)
    except Exception:
        time.sleep(0.2)
sys.exit(1)
PYEOF
then
    echo "mongod did not start; log tail:"
    tail -n 30 "$WORK/mongod.log" "$WORK/mongod.stdout" 2>/dev/null
    echo "0 passed, 1 failed"
    exit 1
fi
echo "mongod running on port $PORT (dbpath $WORK/db)"

TOTAL_PASSED=0
TOTAL_FAILED=0
# run_one NAME CMD...: runs CMD, echoes its output, adds its "N passed, M failed" line.
run_one() {
    local name="$1"; shift
    echo "=== $name"
    local out rc
    out="$("$@" 2>&1)"; rc=$?
    echo "$out"
    local line
    line="$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)"
    if [ -z "$line" ]; then
        echo "[$name] FAIL: no summary line (exit code $rc)"
        TOTAL_FAILED=$((TOTAL_FAILED + 1))
        return
    fi
    local p f
    p="${line%% passed*}"
    f="${line#*, }"; f="${f%% failed}"
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "[$name] FAIL: exit code $rc"
        f=1
    fi
    TOTAL_PASSED=$((TOTAL_PASSED + p))
    TOTAL_FAILED=$((TOTAL_FAILED + f))
}

cd "$ROOT"
run_one node timeout 300 node "$HERE/node_crud_test.js" --uri "mongodb://127.0.0.1:$PORT"
run_one pymongo timeout 300 $PY "$HERE/pymongo_crud_test.py" --uri "mongodb://127.0.0.1:$PORT"
if ! kill -0 "$MONGOD_PID" 2>/dev/null; then
    echo "[client tests] FAIL: mongod died during the client tests; log tail:"
    tail -n 30 "$WORK/mongod.log"
    TOTAL_FAILED=$((TOTAL_FAILED + 1))
fi
stop_mongod
trap - EXIT
if [ "$SKIP_KILL9" -eq 0 ]; then
    run_one kill9 timeout 600 $PY "$HERE/kill9_durability_test.py" --mongod "$MONGOD"
fi
run_one oplog_replay timeout 900 $PY "$HERE/oplog_replay_test.py" --mongod "$MONGOD"
run_one ts_concurrency timeout 600 $PY "$HERE/timeseries_concurrency_test.py" --mongod "$MONGOD"
run_one max_conns timeout 300 $PY "$HERE/max_conns_test.py" --mongod "$MONGOD"
run_one disk_full timeout 600 $PY "$HERE/disk_full_test.py" --mongod "$MONGOD"
run_one collmod_restart timeout 600 $PY "$HERE/collmod_restart_test.py" --mongod "$MONGOD"
if [ "$SKIP_KILL9" -eq 0 ]; then
    run_one rollups_kill9 timeout 600 $PY "$HERE/rollups_kill9_test.py" --mongod "$MONGOD"
fi
run_one auth timeout 900 $PY "$HERE/auth_test.py" --mongod "$MONGOD"
run_one size_storer timeout 300 $PY "$HERE/size_storer_restart_test.py" --mongod "$MONGOD"
run_one tls timeout 600 $PY "$HERE/tls_test.py" --mongod "$MONGOD"
run_one config_file timeout 300 $PY "$HERE/config_file_test.py" --mongod "$MONGOD"
if [ "$SKIP_KILL9" -eq 0 ]; then
    run_one retryable_writes timeout 600 $PY "$HERE/retryable_writes_test.py" --mongod "$MONGOD"
else
    run_one retryable_writes timeout 600 $PY "$HERE/retryable_writes_test.py" --mongod "$MONGOD" --skip-kill9
fi

if [ "$TOTAL_FAILED" -eq 0 ]; then
    rm -rf "$WORK"
else
    echo "mongod dbpath and log kept in $WORK"
fi
echo "$TOTAL_PASSED passed, $TOTAL_FAILED failed"
[ "$TOTAL_FAILED" -eq 0 ]
