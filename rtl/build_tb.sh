#!/usr/bin/env bash
# Builds the Verilator testbench of rtl/statmod.v for one set of parameters:
#   rtl/build_tb.sh OUTDIR S P N R      -> OUTDIR/tb_S_P_N_R/tb
#   rtl/build_tb.sh OUTDIR S P N R TOTALS SNAP
#                                       -> OUTDIR/tb_S_P_N_R_tTOTALS_sSNAP/tb (a small build)
#   rtl/build_tb.sh OUTDIR S P N R TOTALS SNAP ARR_RAM
#                                       -> OUTDIR/tb_S_P_N_R_tTOTALS_sSNAP_aARR_RAM/tb
#   rtl/build_tb.sh OUTDIR S P N R TOTALS SNAP ARR_RAM COMPACT
#                                       -> OUTDIR/tb_S_P_N_R_tTOTALS_sSNAP_aARR_RAM_cCOMPACT/tb
#                                          (COMPACT = 1: compact frames, docs/protocol.md)
set -euo pipefail
if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
  echo "usage: $0 OUTDIR S P N R [TOTALS SNAP [ARR_RAM [COMPACT]]]   (builds OUTDIR/tb_S_P_N_R[_tTOTALS_sSNAP[_aARR_RAM[_cCOMPACT]]]/tb, the Verilator testbench of rtl/statmod.v)"
  exit 0
fi
if [ $# -ne 5 ] && [ $# -ne 7 ] && [ $# -ne 8 ] && [ $# -ne 9 ]; then
  echo "usage: $0 OUTDIR S P N R [TOTALS SNAP [ARR_RAM [COMPACT]]]" >&2
  exit 64
fi
here=$(cd "$(dirname "$0")" && pwd)
dir="$1/tb_$2_$3_$4_$5"
small=()
if [ $# -ge 7 ]; then
  for v in "$6" "$7" "${8:-0}" "${9:-0}"; do
    case "$v" in 0|1) ;; *) echo "build_tb: TOTALS, SNAP, ARR_RAM and COMPACT are 0 or 1, not '$v'" >&2; exit 64 ;; esac
  done
  if [ "${9:-0}" = 1 ] && [ "$6" = 1 ]; then
    echo "build_tb: COMPACT = 1 sends no totals: TOTALS must be 0" >&2; exit 64
  fi
  dir="${dir}_t$6_s$7"
  small=(-GTOTALS="$6" -GSNAP="$7")
  if [ $# -ge 8 ]; then
    dir="${dir}_a$8"
    small+=(-GARR_RAM="$8")
  fi
  if [ $# -eq 9 ]; then
    dir="${dir}_c$9"
    small+=(-GCOMPACT="$9")
  fi
fi
mkdir -p "$dir"
command -v verilator >/dev/null || { echo "build_tb: verilator not found (scripts/install-deps.sh installs it)" >&2; exit 66; }
# -Wno-WIDTH: the register map compares 16-bit addresses with 32-bit integer
# expressions on purpose; everything else is a lint error.
verilator --cc --exe --build -O1 -Wall -Wno-WIDTH -Wno-UNUSEDSIGNAL -Wno-DECLFILENAME \
  -GS="$2" -GP="$3" -GN="$4" -GR="$5" "${small[@]}" --Mdir "$dir" --top-module tally_statmod \
  "$here/statmod.v" "$here/tb_statmod.cpp" -o tb >"$dir/build.log" 2>&1 ||
  { cat "$dir/build.log" >&2; exit 70; }
echo "$dir/tb"
