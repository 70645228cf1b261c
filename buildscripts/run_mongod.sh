#!/usr/bin/env bash
# Installs what is missing, builds, and starts mongod on 127.0.0.1:27017 with
# ./data/db. Extra arguments are passed to mongod (e.g. --port 27018 --quiet).
# With --config FILE (or -f FILE), e.g. the sample etc/mongod.conf, the file says where and
# how mongod runs: no default --dbpath/--port/--bind_ip is added (the command line still
# overrides the file), and the file's storage.dbPath is created when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
buildscripts/setup.sh
buildscripts/build.sh
config=""
prev=""
for arg in "$@"; do
  case "$arg" in
    --config=*) config="${arg#--config=}" ;;
  esac
  if [ "$prev" = "--config" ] || [ "$prev" = "-f" ]; then config="$arg"; fi
  prev="$arg"
done
if [ -n "$config" ]; then
  dbpath=$(sed -n 's/^[[:space:]]*dbPath:[[:space:]]*\([^#[:space:]]*\).*/\1/p' "$config" | head -n 1)
  mkdir -p "${dbpath:-data/db}"
  exec build/opt/mongod "$@"
fi
mkdir -p data/db
exec build/opt/mongod --dbpath data/db --port 27017 --bind_ip 127.0.0.1 "$@"
