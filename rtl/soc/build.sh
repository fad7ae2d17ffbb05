#!/bin/sh
# Builds the Verilator testbench of the SoC (docs/rtl-soc.md): PicoRV32 from
# a checkout of YosysHQ/picorv32 (its picorv32.v is read there, never copied
# here), rtl/soc's adapter, top and their shared parts (soc_parts.v),
# rtl/statmod.v, tb.cpp.
#
#   build.sh PICORV32_DIR OUT_DIR [P N R TOTALS SNAP [COMPACT [ARR_RAM]]]
#   build.sh --core vexriscv[-imac|-min] [--wait W] VEXRISCV_DIR OUT_DIR [P N R TOTALS SNAP [COMPACT]]
#
# --core vexriscv: LiteX's standard VexRiscv (VEXRISCV_DIR holds its
# VexRiscv.v: a pythondata-cpu-vexriscv checkout's
# pythondata_cpu_vexriscv/verilog, or the checkout itself) in
# soc_vexriscv.v with adapter_vexriscv.v, which does not hold the core:
# SNAP 1 and ARR_RAM 0 only (docs/rtl-soc.md, "VexRiscv"). --wait W: its
# memory takes W wait states a beat (0 to 3; default 0). --core
# vexriscv-imac and vexriscv-min: the same SoC and adapter around LiteX's
# IMAC and Min variants (VexRiscv_IMAC.v, VexRiscv_Min.v in VEXRISCV_DIR;
# docs/rtl-soc.md, "VEXRISCV").
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
core=picorv32 wait=0 vfile=VexRiscv.v vdef=
if [ "${1:-}" = --core ]; then
  [ $# -ge 2 ] || { echo "build.sh: --core needs a value (picorv32, vexriscv, vexriscv-imac, vexriscv-min)" >&2; exit 2; }
  core=$2; shift 2
  case $core in
    picorv32|vexriscv) vfile=VexRiscv.v vdef= ;;
    vexriscv-imac) vfile=VexRiscv_IMAC.v vdef=-DVEX_IMAC ;;
    vexriscv-min) vfile=VexRiscv_Min.v vdef=-DVEX_MIN ;;
    *) echo "build.sh: --core $core: picorv32, vexriscv, vexriscv-imac or vexriscv-min" >&2; exit 2 ;;
  esac
  if [ "${1:-}" = --wait ]; then
    case ${2:-} in [0-3]) wait=$2 ;; *) echo "build.sh: --wait is 0 to 3, not '${2:-}'" >&2; exit 2 ;; esac
    shift 2
  fi
fi
[ $# -eq 2 ] || [ $# -eq 7 ] || [ $# -eq 8 ] || [ $# -eq 9 ] ||
  { echo "usage: build.sh [--core picorv32|vexriscv|vexriscv-imac|vexriscv-min [--wait W]] RTL_DIR OUT_DIR [P N R TOTALS SNAP [COMPACT [ARR_RAM]]]" >&2; exit 2; }
rtl=$1 out=$2
P=${3:-4} N=${4:-8} R=${5:-32} T=${6:-1} SN=${7:-1} C=${8:-0} A=${9:-0}
if [ $core != picorv32 ]; then
  [ -f "$rtl/$vfile" ] || [ ! -f "$rtl/pythondata_cpu_vexriscv/verilog/$vfile" ] ||
    rtl=$rtl/pythondata_cpu_vexriscv/verilog
  [ -f "$rtl/$vfile" ] ||
    { echo "build.sh: $rtl/$vfile: not found (a litex-hub/pythondata-cpu-vexriscv checkout?)" >&2; exit 2; }
  [ "$SN" = 1 ] && [ "$A" = 0 ] ||
    { echo "build.sh: --core $core: SNAP 1 and ARR_RAM 0 only (its adapter does not hold the core)" >&2; exit 2; }
else
  [ -f "$rtl/picorv32.v" ] || { echo "build.sh: $rtl/picorv32.v: not found (a YosysHQ/picorv32 checkout?)" >&2; exit 2; }
fi
for v in "$P" "$N" "$R" "$T" "$SN" "$C" "$A"; do
  case $v in ''|*[!0-9]*) echo "build.sh: P N R TOTALS SNAP COMPACT ARR_RAM are numbers, not '$v'" >&2; exit 2 ;; esac
done
[ "$C" -le 1 ] || { echo "build.sh: COMPACT is 0 or 1, not $C" >&2; exit 2; }
[ "$A" -le 1 ] || { echo "build.sh: ARR_RAM is 0 or 1, not $A" >&2; exit 2; }
[ "$C" -eq 0 ] || [ "$T" -eq 0 ] || { echo "build.sh: COMPACT 1 sends no totals: TOTALS must be 0" >&2; exit 2; }
[ "$N" -ge 1 ] && [ "$N" -le 85 ] || { echo "build.sh: N is 1 to 85 (one COUNTER_INFO packet), not $N" >&2; exit 2; }
mkdir -p "$out"
if [ $core != picorv32 ]; then
  # shellcheck disable=SC2086
  verilator $vdef --cc --exe --build -O3 -Wno-fatal -Wno-lint -Wno-style -Wno-TIMESCALEMOD --top-module tally_soc --prefix Vsoc \
    -Mdir "$out/obj" -o ../tb -GP="$P" -GN="$N" -GR="$R" -GTOTALS="$T" -GSNAP="$SN" -GCOMPACT="$C" -GW="$wait" \
    -CFLAGS "-O2 -DSOC_VEXRISCV -DSOC_P=$P -DSOC_N=$N -DSOC_R=$R -DSOC_COMPACT=$C" \
    "$here/soc_vexriscv.v" "$here/soc_parts.v" "$here/adapter_vexriscv.v" "$here/../statmod.v" "$rtl/$vfile" "$here/tb.cpp" \
    > "$out/build.log" 2>&1 || { cat "$out/build.log" >&2; exit 1; }
  echo "$out/tb"
  exit 0
fi
verilator --cc --exe --build -O3 -Wno-fatal -Wno-lint -Wno-style --top-module tally_soc --prefix Vsoc \
  -DRISCV_FORMAL -Mdir "$out/obj" -o ../tb -GP="$P" -GN="$N" -GR="$R" -GTOTALS="$T" -GSNAP="$SN" -GCOMPACT="$C" -GARR_RAM="$A" \
  -CFLAGS "-O2 -DSOC_P=$P -DSOC_N=$N -DSOC_R=$R -DSOC_COMPACT=$C" \
  "$here/soc.v" "$here/soc_parts.v" "$here/adapter_picorv32.v" "$here/../statmod.v" "$rtl/picorv32.v" "$here/tb.cpp" \
  > "$out/build.log" 2>&1 || { cat "$out/build.log" >&2; exit 1; }
echo "$out/tb"
