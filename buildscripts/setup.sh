#!/usr/bin/env bash
# Installs everything the build and the tests need on a Debian 12 machine.
# Idempotent and fast when everything is present: it only calls apt-get or npm
# when something is missing or the npm lock file changed.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  scons pkg-config g++ libwiredtiger-dev wiredtiger libbson-dev libabsl-dev
  libgtest-dev libgmock-dev libbenchmark-dev libboost-dev libboost-program-options-dev
  libpcre2-dev libyaml-cpp-dev libsnappy-dev libzstd-dev libintelrdfpmath-dev libicu-dev libs2-dev libssl-dev libstemmer-dev
  python3-yaml python3-pymongo libmongoc-dev libgoogle-perftools-dev ccache clang libclang-rt-14-dev clang-format nodejs npm
  victoria-metrics
)

missing=()
for p in "${APT_PACKAGES[@]}"; do
  # nodejs/npm may come from outside Debian's packages on some images: accept a working binary.
  case "$p" in
    nodejs) command -v node >/dev/null 2>&1 && continue ;;
    npm) command -v npm >/dev/null 2>&1 && continue ;;
  esac
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}"
fi

# npm clients (mongosh, the Node driver), pinned by package-lock.json.
if [ -f package-lock.json ]; then
  buildscripts/ensure_node_modules.sh
fi
echo "setup: ok"
