#!/usr/bin/env bash
# Formats the C++ of src/ and unittests/ with clang-format and etc/.clang-format.
#   buildscripts/format.sh            rewrites every file that is not formatted
#   buildscripts/format.sh --check    changes nothing; lists the files that are not formatted
#                                     and ends with `format: N files to format` (exit 1 if N > 0)
# Files: the tracked *.cpp and *.h of src/ and unittests/ (git ls-files), so generated
# sources in build/ are never touched.
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
if [ "${1:-}" = "--check" ]; then check=1; fi
cf=$(command -v clang-format || command -v clang-format-14 || true)
if [ -z "$cf" ]; then
  echo "format: clang-format not found (buildscripts/setup.sh installs it)"
  exit 1
fi
style="--style=file:etc/.clang-format"
bad=0
while IFS= read -r f; do
  if [ "$check" -eq 1 ]; then
    if ! "$cf" "$style" "$f" | cmp -s - "$f"; then
      echo "$f"
      bad=$((bad + 1))
    fi
  else
    "$cf" "$style" -i "$f"
  fi
done < <(git ls-files 'src/*.cpp' 'src/*.h' 'unittests/*.cpp' 'unittests/*.h')
if [ "$check" -eq 1 ]; then
  echo "format: $bad files to format"
  [ "$bad" -eq 0 ]
fi
