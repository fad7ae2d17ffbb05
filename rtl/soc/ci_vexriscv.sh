#!/bin/sh
# The closing check on VexRiscv in CI (tests/rtl: rtl.soc.closing.vexriscv):
# builds the VexRiscv SoC's testbench (build.sh --core vexriscv) from a
# pythondata-cpu-vexriscv checkout and runs rtl/soc/check.py --core
# vexriscv on the programs of tests/cores/vexriscv, each against `tally run
# --core vexriscv --board litex`, with counters covering every signal the
# adapter provides whose cycles the model and the RTL place alike
# (docs/rtl-soc.md, "VexRiscv": the period is one interval longer than any
# of these programs, the rest is said there).
#
#   ci_vexriscv.sh TALLY PROGRAM_DIR WORKDIR
#
# The checkout: $VEXRISCV_RTL (a checkout, its verilog directory, or a bare
# git dir), else the mirror /work/.mirror/litex-hub+pythondata-cpu-vexriscv/repo;
# VexRiscv.v is copied into WORKDIR (never into the source tree). Exit 77
# (skipped, with the reason) when there is no checkout, no verilator or no
# test program; 0 identical; 1 a difference.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 3 ] || { echo "usage: ci_vexriscv.sh TALLY PROGRAM_DIR WORKDIR" >&2; exit 2; }
tally=$1 progs=$2 work=$3
src=${VEXRISCV_RTL:-/work/.mirror/litex-hub+pythondata-cpu-vexriscv/repo}
command -v verilator >/dev/null 2>&1 || { echo "ci_vexriscv.sh: no verilator: skipped" >&2; exit 77; }
set -- alu branch jumps load_use hazards muldiv shifts dcache stores icache csr crc sort
for p in "$@"; do
  [ -f "$progs/$p.elf" ] || { echo "ci_vexriscv.sh: $progs/$p.elf missing (cmake --build build --target vexriscv-programs): skipped" >&2; exit 77; }
done
mkdir -p "$work"
. "$here/checkout.sh"
rtl_checkout "ci_vexriscv.sh: VexRiscv.v" "$src" "$work/vexriscv" pythondata_cpu_vexriscv/verilog/VexRiscv.v ||
  { echo "ci_vexriscv.sh: no VexRiscv checkout at $src (set VEXRISCV_RTL to a litex-hub/pythondata-cpu-vexriscv checkout): skipped" >&2; exit 77; }
tb=$("$here/build.sh" --core vexriscv "$rtl" "$work/tb")
rc=0
period=250000   # one interval: longer than sort.elf's 206,363 cycles
base="--count cycle --count instret --count load --count store --count branch --count branch.taken --count jump --count stall"
for p in alu branch jumps load_use hazards shifts stores; do
  # shellcheck disable=SC2086
  python3 "$here/check.py" "$tally" "$tb" "$work/$p" --core vexriscv --interval $period $base "$progs/$p.elf" || rc=1
done
python3 "$here/check.py" "$tally" "$tb" "$work/crc" --core vexriscv --interval $period --count cycle --count instret \
  --count load --count store --count branch.mispredict --count stall.branch --count stall.jump --count instret@main \
  "$progs/crc.elf" || rc=1
python3 "$here/check.py" "$tally" "$tb" "$work/sort" --core vexriscv --interval $period --count mul --count div \
  --count call --count ret --count branch.mispredict --count system --count instret@main --count stall.branch \
  "$progs/sort.elf" || rc=1
python3 "$here/check.py" "$tally" "$tb" "$work/muldiv" --core vexriscv --interval $period --count stall.muldiv \
  --count instret --count stall.jump --count stall.system --count csr --count div --count mul --count stall \
  "$progs/muldiv.elf" || rc=1
python3 "$here/check.py" "$tally" "$tb" "$work/dcache" --core vexriscv --interval $period --count cycle --count load \
  --count store --count stall --count stall.branch --count branch.taken --count instret@main --count load@main \
  "$progs/dcache.elf" || rc=1
python3 "$here/check.py" "$tally" "$tb" "$work/icache" --core vexriscv --interval $period --count instret --count jump \
  --count call --count ret --count stall.jump --count stall --count branch --count stall.branch \
  "$progs/icache.elf" || rc=1
python3 "$here/check.py" "$tally" "$tb" "$work/csr" --core vexriscv --interval $period --count csr --count system \
  --count stall.system --count stall --count instret --count cycle --count stall.jump --count load \
  "$progs/csr.elf" || rc=1
exit $rc
