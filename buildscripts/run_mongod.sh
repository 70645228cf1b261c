#!/usr/bin/env bash
# Installs what is missing, builds, and starts mongod on 127.0.0.1:27017 with
# ./data/db. Extra arguments are passed to mongod (e.g. --port 27018 --quiet).
set -euo pipefail
cd "$(dirname "$0")/.."
buildscripts/setup.sh
buildscripts/build.sh
mkdir -p data/db
exec build/opt/mongod --dbpath data/db --port 27017 --bind_ip 127.0.0.1 "$@"
