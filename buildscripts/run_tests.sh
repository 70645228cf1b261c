#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: GoogleTest unit tests,
# a short smoke run of every fuzzer, the layer and format checks, the jstest suites (resmoke) and the client
# tests (Node driver, pymongo, kill -9 durability). The last line is
# `N passed, M failed` over all of them. Exit status 0 only when nothing failed.
set -uo pipefail
cd "$(dirname "$0")/.."

buildscripts/setup.sh || exit 1
buildscripts/build.sh || { echo "0 passed, 1 failed"; exit 1; }

passed=0
failed=0
add_counts() {  # add_counts <passed> <failed>
  passed=$((passed + $1))
  failed=$((failed + $2))
}
last_counts() {  # the last "N passed, M failed" line of a log -> "N M"
  grep -Eo '[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1 | awk '{print $1, $3}'
}

logdir=$(mktemp -d /tmp/run_tests.XXXXXX)

echo "=== unit tests"
build/opt/unittests --gtest_brief=1 > "$logdir/unit.log" 2>&1
unit_rc=$?
cat "$logdir/unit.log" | tail -n 30
up=$(grep -Eo '\[  PASSED  \] [0-9]+' "$logdir/unit.log" | grep -Eo '[0-9]+' | tail -n 1)
uf=$(grep -Eo '\[  FAILED  \] [0-9]+ test' "$logdir/unit.log" | grep -Eo '[0-9]+' | tail -n 1)
up=${up:-0}; uf=${uf:-0}
if [ "$unit_rc" -ne 0 ] && [ "$uf" -eq 0 ]; then uf=1; fi
echo "unit tests: $up passed, $uf failed"
add_counts "$up" "$uf"

echo "=== fuzz smoke (every fuzzer: BSONColumn, OP_MSG, geometry parser, KeyString, DocDiff, match expression, pipeline)"
if command -v clang++ >/dev/null 2>&1 && \
   scons -Q -j2 --build-dir=build/fuzz --sanitize=address,undefined,fuzzer fuzzers > "$logdir/fuzz-build.log" 2>&1; then
  fz_ok=0; fz_bad=0
  for f in build/fuzz/fuzzers/*; do
    [ -x "$f" ] || continue
    # A fresh corpus directory per run (libFuzzer writes new inputs to the first one), the
    # committed seeds (buildscripts/fuzz_corpus/<fuzzer>/) read-only after it; a run that
    # holds more than 2 GB, or asks for more than 1 GB in one allocation, is a failure.
    corpus="$logdir/corpus-$(basename "$f")"; mkdir -p "$corpus"
    seeds="buildscripts/fuzz_corpus/$(basename "$f")"; [ -d "$seeds" ] || seeds=""
    if "$f" -max_total_time=20 -print_final_stats=1 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
         "$corpus" ${seeds:+"$seeds"} > "$logdir/$(basename "$f").log" 2>&1; then
      fz_ok=$((fz_ok + 1)); echo "fuzz $(basename "$f"): ok ($(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$logdir/$(basename "$f").log" | grep -Eo '[0-9]+$') runs)"
    else
      fz_bad=$((fz_bad + 1)); echo "fuzz $(basename "$f"): FAILED"; tail -n 40 "$logdir/$(basename "$f").log"
    fi
  done
  add_counts "$fz_ok" "$fz_bad"
else
  echo "fuzz smoke: build failed"; tail -n 40 "$logdir/fuzz-build.log"
  add_counts 0 1
fi

echo "=== jstests"
/usr/bin/python3 buildscripts/resmoke.py --suites=core,core_timeseries,replsets,legacy_shell,auth --mongod=build/opt/mongod > "$logdir/jstests.log" 2>&1
grep -E '^\[|passed|failed|FAIL' "$logdir/jstests.log" | tail -n 200
read -r jp jf <<< "$(last_counts "$logdir/jstests.log")"
jp=${jp:-0}; jf=${jf:-1}
add_counts "$jp" "$jf"

echo "=== layer check (every include and every linked symbol follows the library table of site_scons/mongo_build.py)"
/usr/bin/python3 buildscripts/layers.py --symbols build/opt/lib > "$logdir/layers.log" 2>&1
layers_rc=$?
tail -n 20 "$logdir/layers.log"
if [ "$layers_rc" -eq 0 ]; then add_counts 1 0; else add_counts 0 1; fi
/usr/bin/python3 buildscripts/layers_test.py > "$logdir/layers_test.log" 2>&1
cat "$logdir/layers_test.log"
read -r lp lf <<< "$(last_counts "$logdir/layers_test.log")"
lp=${lp:-0}; lf=${lf:-1}
add_counts "$lp" "$lf"

echo "=== format check (clang-format with etc/.clang-format over src/ and unittests/)"
buildscripts/format.sh --check > "$logdir/format.log" 2>&1
format_rc=$?
tail -n 20 "$logdir/format.log"
if [ "$format_rc" -eq 0 ]; then add_counts 1 0; else add_counts 0 1; fi

echo "=== resmoke upstream mode (a made-up miniature upstream tree)"
/usr/bin/python3 buildscripts/resmoke_upstream_test.py > "$logdir/upstream_mode.log" 2>&1
cat "$logdir/upstream_mode.log"
read -r upp upf <<< "$(last_counts "$logdir/upstream_mode.log")"
upp=${upp:-0}; upf=${upf:-1}
add_counts "$upp" "$upf"

echo "=== client tests"
buildscripts/client_tests/run_client_tests.sh --mongod build/opt/mongod > "$logdir/clients.log" 2>&1
tail -n 40 "$logdir/clients.log"
read -r cp cf <<< "$(last_counts "$logdir/clients.log")"
cp=${cp:-0}; cf=${cf:-1}
add_counts "$cp" "$cf"

echo "logs: $logdir"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
