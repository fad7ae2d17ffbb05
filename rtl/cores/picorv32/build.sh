#!/bin/sh
# Builds the PicoRV32 testbench with Verilator.
#
#   build.sh RTL_DIR OUT_DIR CONFIG
#
# RTL_DIR: a checkout of YosysHQ/picorv32 (its picorv32.v is used, never
# copied here). CONFIG names the core parameters (config.sh's list):
#   imc      ENABLE_MUL ENABLE_DIV COMPRESSED_ISA TWO_STAGE_SHIFT (cores/picorv32.ini)
#   im       the same without COMPRESSED_ISA
#   imc-fast ENABLE_FAST_MUL ENABLE_DIV COMPRESSED_ISA BARREL_SHIFTER
#   i        no MUL/DIV, no COMPRESSED_ISA, TWO_STAGE_SHIFT
# The testbench lands in OUT_DIR/CONFIG/tb.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 3 ] || { echo "usage: build.sh RTL_DIR OUT_DIR CONFIG" >&2; exit 2; }
rtl=$1 out=$2 cfg=$3
[ -f "$rtl/picorv32.v" ] || { echo "build.sh: $rtl/picorv32.v: not found (a YosysHQ/picorv32 checkout?)" >&2; exit 2; }
params=$("$here/config.sh" "$cfg")
mkdir -p "$out/$cfg"
# shellcheck disable=SC2086
verilator --cc --exe --build -O3 -Wno-fatal -Wno-lint -Wno-style --top-module tally_pico_top \
  --prefix Vtop -Mdir "$out/$cfg/obj" -o ../tb $params \
  -CFLAGS -O2 "$here/top.v" "$rtl/picorv32.v" "$here/tb.cpp" > "$out/$cfg/build.log" 2>&1 ||
  { cat "$out/$cfg/build.log" >&2; exit 1; }
echo "$out/$cfg/tb"
