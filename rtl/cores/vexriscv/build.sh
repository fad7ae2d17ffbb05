#!/bin/sh
# build.sh RTL_DIR OUT_DIR -- build the VexRiscv testbench for each variant.
# RTL_DIR holds VexRiscv.v, VexRiscv_IMAC.v and VexRiscv_Min.v as generated in
# litex-hub/pythondata-cpu-vexriscv (pythondata_cpu_vexriscv/verilog/);
# OUT_DIR/tb-VARIANT is the testbench binary (VARIANT: std, imac, min).
set -eu
if [ $# -ne 2 ]; then echo "usage: build.sh RTL_DIR OUT_DIR" >&2; exit 2; fi
rtl=$1; out=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
for pair in std:VexRiscv imac:VexRiscv_IMAC min:VexRiscv_Min; do
    v=${pair%%:*}; f=${pair#*:}
    if [ ! -f "$rtl/$f.v" ]; then echo "build.sh: $rtl/$f.v: not found" >&2; exit 2; fi
    verilator --cc --exe --build -O3 -Wno-fatal -Wno-lint -Wno-style \
        --top-module tb_top -Mdir "$out/obj-$v" -o "$out/tb-$v" \
        -CFLAGS "-O2" "$here/tb_top.v" "$rtl/$f.v" "$here/tb.cpp" >"$out/build-$v.log" 2>&1 \
        || { echo "build.sh: verilator failed for $f (log: $out/build-$v.log)" >&2; exit 1; }
done
