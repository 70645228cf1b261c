#!/usr/bin/env bash
# Builds mongod and the unit tests (optimised, in build/opt). Extra arguments go to scons.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
exec scons -Q -j"$jobs" --build-dir=build/opt mongod unittests tools "$@"
