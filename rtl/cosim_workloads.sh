#!/usr/bin/env bash
# The longer co-simulation of rtl/statmod.v against tally's C module (the
# CI runs a few thousand cycles, tests/rtl): every shipped rv32imac workload
# up to INSNS instructions, with 32-bit counters at a 1000-cycle period and
# 4-bit counters saturating at a 37-cycle period, on tally5.
#   rtl/cosim_workloads.sh TALLY WORKLOAD_DIR OUTDIR [INSNS]
# (WORKLOAD_DIR: build/target/rv32imac). Then one long run streamed: the
# whole of STREAM_ELF (default hanoi.elf, 21.9 million cycles) with its
# trace through a named pipe, reconfigured in the middle (--at), and the
# peak bytes of regular files in the co-simulation's temporary directory
# (sampled every second: the trace never lands on disk). STREAM=0 skips it,
# WORKLOADS=0 the per-workload runs.
# Prints one line per run; exit 1 if any run's packets differ.
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
  [ "${WORKLOADS:-1}" != 0 ] || break
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
if [ "${STREAM:-1}" != 0 ]; then
  stream_elf=${STREAM_ELF:-$wl/hanoi.elf}
  tmpd=$(mktemp -d)
  TMPDIR=$tmpd python3 "$here/cosim_tally.py" "$tally" "$tb32" "$S" 4 8 32 --counters 8 --arrs 4 --width 32 \
    --count cycle --count instret --count stall --count load@main --count cycle@main --count branch.taken \
    --count stall.dcache --count stall.icache --interval 1000 --at 5000000:counter=3:load \
    --at 8000000:interval=777 --at 12000000:arr=0:0x80000000-0x80001000 --at 16000000:counter=6:store@main \
    --at 19000000:interval=100000 "$stream_elf" &
  pid=$!
  peak=0 spool=0
  while kill -0 $pid 2>/dev/null; do
    now=$(find "$tmpd" -type f -printf '%s\n' 2>/dev/null | awk '{s += $1} END {print s + 0}')
    sp=$(find "$tmpd" -type f -name '*.spool' -printf '%s\n' 2>/dev/null | awk '{s += $1} END {print s + 0}')
    [ "$now" -gt "$peak" ] && peak=$now
    [ "$sp" -gt "$spool" ] && spool=$sp
    sleep 1
  done
  wait $pid || fail=1
  # tally's board link spools its UDP packets until the collector
  # acknowledges them (docs/protocol.md): those are the packets, not the trace
  echo "stream: $(basename "$stream_elf"): peak disk use $peak bytes (regular files under the co-simulation's" \
       "TMPDIR), of which the board link's packet spool $spool bytes"
  rm -rf "$tmpd"
fi
exit $fail
