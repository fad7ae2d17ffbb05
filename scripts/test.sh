#!/usr/bin/env bash
# Runs the whole test suite: a release build, then the same tests built with
# AddressSanitizer and UndefinedBehaviorSanitizer. Installs missing Debian
# packages first. Extra arguments go to ctest (e.g. -L isa, -R diff).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
jobs=$(nproc)

echo "== release build"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs" "$@"

echo "== sanitizer build (ASan + UBSan)"
cmake -S . -B build-san -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTALLY_SANITIZE=ON >/dev/null
cmake --build build-san -j"$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-san --output-on-failure -j"$jobs" -LE slow "$@"
