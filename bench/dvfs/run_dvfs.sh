#!/bin/sh
# bench/dvfs/run_dvfs.sh BUILD_DIR [WORKLOAD...]
# Runs `tally dvfs` (core dsp500, default thresholds, --max-slowdown 5,
# loop regions, the oracle) on the given workloads (default: all thirteen)
# in the rv32imac flavour at their default sizes, and writes a summary
# table and the reports, with the date and the machine, to
# bench/dvfs/results.md (docs/experiments.md summarises them). About five
# minutes on two cores.
# Environment: DVFS_OPTS (more tally dvfs options, e.g. "--max-slowdown 10"),
# RESULTS (another results file name in bench/dvfs/).
set -eu
build=$(cd "$1" && pwd); shift
here=$(cd "$(dirname "$0")" && pwd)
ws=${*:-"mcomp rotate spmv dhrystone aes heapsort hanoi crc32 matmul blast qsort fft dct"}
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
    (cd "$tmp" && "$build/tally" dvfs --core dsp500 $opts --tradeoff-csv "$w.csv" \
      "$build/target/rv32imac/$w.elf" -o "$w.dvfs.elf" >"$w.txt" 2>&1) || echo "(exit $?)" >>"$tmp/$w.txt"
  done
  echo "## Summary (whole run, against the original at 500 MHz / 1.2 V)"
  echo
  python3 "$here/summary.py" "$tmp" $ws
  echo
  echo "## The paper's average: every workload at any point of its own trade-off curve"
  echo
  echo "Predicted from each workload's single-region runs (\`--tradeoff-csv\`), the best"
  echo "average over all the workloads above for each average slowdown (bench/dvfs/frontier.py):"
  echo
  python3 "$here/frontier.py" "$tmp" $ws
  for w in $ws; do
    echo
    echo "## $w"
    echo
    echo '```'
    cat "$tmp/$w.txt"
    echo '```'
  done
} >"$out"
echo "wrote $out"
