#!/bin/sh
# Builds the Verilator testbench of the SoC (docs/rtl-soc.md): PicoRV32 from
# a checkout of YosysHQ/picorv32 (its picorv32.v is read there, never copied
# here), rtl/soc's adapter and top, rtl/statmod.v, tb.cpp.
#
#   build.sh PICORV32_DIR OUT_DIR [P N R TOTALS SNAP [COMPACT [ARR_RAM]]]
#
# The module's size: P ARRs, N counters (at most 85), R bits (default
# 4 8 32 1 1 0 0, the size rtl/soc/check.py uses). COMPACT 1 (with TOTALS 0):
# the module sends compact frames and the testbench relays them as
# DATA_COMPACT and FINAL packets (docs/protocol.md, "Compact stream").
# SNAP 0 and ARR_RAM 1 are the builds that hold their input (a DATA packet
# going out, a scan of the bounds): the adapter then holds the core
# (docs/rtl-soc.md, "A module that holds the core"). The testbench lands in
# OUT_DIR/tb (its Verilator log in OUT_DIR/build.log).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 2 ] || [ $# -eq 7 ] || [ $# -eq 8 ] || [ $# -eq 9 ] ||
  { echo "usage: build.sh PICORV32_DIR OUT_DIR [P N R TOTALS SNAP [COMPACT [ARR_RAM]]]" >&2; exit 2; }
rtl=$1 out=$2
P=${3:-4} N=${4:-8} R=${5:-32} T=${6:-1} SN=${7:-1} C=${8:-0} A=${9:-0}
[ -f "$rtl/picorv32.v" ] || { echo "build.sh: $rtl/picorv32.v: not found (a YosysHQ/picorv32 checkout?)" >&2; exit 2; }
for v in "$P" "$N" "$R" "$T" "$SN" "$C" "$A"; do
  case $v in ''|*[!0-9]*) echo "build.sh: P N R TOTALS SNAP COMPACT ARR_RAM are numbers, not '$v'" >&2; exit 2 ;; esac
done
[ "$C" -le 1 ] || { echo "build.sh: COMPACT is 0 or 1, not $C" >&2; exit 2; }
[ "$A" -le 1 ] || { echo "build.sh: ARR_RAM is 0 or 1, not $A" >&2; exit 2; }
[ "$C" -eq 0 ] || [ "$T" -eq 0 ] || { echo "build.sh: COMPACT 1 sends no totals: TOTALS must be 0" >&2; exit 2; }
[ "$N" -ge 1 ] && [ "$N" -le 85 ] || { echo "build.sh: N is 1 to 85 (one COUNTER_INFO packet), not $N" >&2; exit 2; }
mkdir -p "$out"
verilator --cc --exe --build -O3 -Wno-fatal -Wno-lint -Wno-style --top-module tally_soc --prefix Vsoc \
  -DRISCV_FORMAL -Mdir "$out/obj" -o ../tb -GP="$P" -GN="$N" -GR="$R" -GTOTALS="$T" -GSNAP="$SN" -GCOMPACT="$C" -GARR_RAM="$A" \
  -CFLAGS "-O2 -DSOC_P=$P -DSOC_N=$N -DSOC_R=$R -DSOC_COMPACT=$C" \
  "$here/soc.v" "$here/adapter_picorv32.v" "$here/../statmod.v" "$rtl/picorv32.v" "$here/tb.cpp" \
  > "$out/build.log" 2>&1 || { cat "$out/build.log" >&2; exit 1; }
echo "$out/tb"
