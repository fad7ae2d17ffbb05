#!/usr/bin/env bash
# The longer co-simulation of rtl/statmod.v against tally's C module (the
# CI runs a few thousand cycles, tests/rtl): every shipped rv32imac workload
# up to INSNS instructions, with 32-bit counters at a 1000-cycle period and
# 4-bit counters saturating at a 37-cycle period, on tally5.
#   rtl/cosim_workloads.sh TALLY WORKLOAD_DIR OUTDIR [INSNS]
# (WORKLOAD_DIR: build/target/rv32imac). Prints one line per run; exit 1
# if any run's packets differ.
set -euo pipefail
if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ] || [ $# -lt 3 ]; then
  echo "usage: $0 TALLY WORKLOAD_DIR OUTDIR [INSNS]   (default INSNS 200000)"
  [ $# -ge 3 ] || [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ] || exit 64
  exit 0
fi
tally=$1 wl=$2 out=$3 insns=${4:-200000}
here=$(cd "$(dirname "$0")" && pwd)
S=$("$tally" signals | awk 'NR > 1 && $1 ~ /^[0-9]+$/' | wc -l)
tb32=$("$here/build_tb.sh" "$out" "$S" 4 8 32)
tb4=$("$here/build_tb.sh" "$out" "$S" 4 8 4)
fail=0
for elf in "$wl"/*.elf; do
  for cfg in 32 4; do
    if [ $cfg = 32 ]; then tb=$tb32 period=1000; else tb=$tb4 period=37; fi
    # counters: anywhere and in main (every workload has one)
    if ! python3 "$here/cosim_tally.py" "$tally" "$tb" "$S" 4 8 $cfg --counters 8 --arrs 4 --width $cfg \
         --max-insns "$insns" --count cycle --count instret --count stall --count load@main \
         --count cycle@main --count branch.taken --count stall.dcache --count stall.icache \
         --interval $period "$elf"; then
      fail=1
    fi
  done
done
exit $fail
