#!/usr/bin/env bash
# Builds tally and the shipped workloads (installing missing Debian packages
# first), then runs the Dhrystone-style workload with a summary line.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
echo
echo "== tally run -v build/target/rv32imac/dhrystone.elf"
./build/tally run -v build/target/rv32imac/dhrystone.elf
