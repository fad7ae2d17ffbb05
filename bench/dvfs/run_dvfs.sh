#!/bin/sh
# bench/dvfs/run_dvfs.sh BUILD_DIR [WORKLOAD...]
# Runs `tally dvfs` (core dsp500, default thresholds, --max-slowdown 5) on
# the given workloads (default: the three memory-bound ones and two
# compute-bound ones) in the rv32imac flavour at their default sizes, and
# writes the reports, with the date and the machine, to
# bench/dvfs/results.md (docs/experiments.md summarises them).
# Environment: DVFS_OPTS (more tally dvfs options, e.g. "--max-slowdown 10"),
# RESULTS (another results file name in bench/dvfs/).
set -eu
build=$(cd "$1" && pwd); shift
here=$(cd "$(dirname "$0")" && pwd)
ws=${*:-"mcomp rotate spmv dct crc32"}
out=$here/${RESULTS:-results.md}
opts=${DVFS_OPTS:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
  echo "# tally dvfs results"
  echo
  echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC'); machine: $(uname -m), $(nproc) cores,"
  echo "$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), shared with other jobs."
  echo "Command: \`tally dvfs --core dsp500 $opts build/target/rv32imac/W.elf -o W.dvfs.elf\` (defaults otherwise)."
  echo
  for w in $ws; do
    echo "## $w"
    echo
    echo '```'
    (cd "$tmp" && "$build/tally" dvfs --core dsp500 $opts "$build/target/rv32imac/$w.elf" -o "$w.dvfs.elf" 2>&1) || echo "(exit $?)"
    echo '```'
    echo
  done
} >"$out"
echo "wrote $out"
