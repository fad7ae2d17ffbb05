#!/usr/bin/env bash
# Runs the test suite: a release build, then the same tests built with
# AddressSanitizer and UndefinedBehaviorSanitizer. Installs missing Debian
# packages first. Extra arguments go to ctest (e.g. -L isa, -R diff). The
# labelled slow set (long fuzz runs, timing laws over big inputs) is left
# out here, and so is the bench label (the papers' experiments at full
# size: `ctest --test-dir build -L bench`); `ctest --test-dir build -L slow` runs it, and CI does (.ci/run).
# The sanitizer pass leaves out the tests labelled nosan: those that run no
# tally code at all (the random-test harness against QEMU alone, a yosys
# synthesis), and long sweeps whose code the shorter tests already take
# under the sanitizers (the VexRiscv random programs against the RTL, their
# test set traced and plain).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
jobs=$(nproc)

echo "== release build"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs" -LE 'slow|bench' "$@"

echo "== sanitizer build (ASan + UBSan)"
cmake -S . -B build-san -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTALLY_SANITIZE=ON >/dev/null
cmake --build build-san -j"$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-san --output-on-failure -j"$jobs" -LE 'slow|bench|nosan' "$@"
