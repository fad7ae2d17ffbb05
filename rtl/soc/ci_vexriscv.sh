#!/bin/sh
# The closing check on VexRiscv in CI (tests/rtl: rtl.soc.closing.vexriscv):
# builds the VexRiscv SoC's testbench (build.sh --core vexriscv) from a
# pythondata-cpu-vexriscv checkout and runs rtl/soc/check.py --core
# vexriscv on the programs of tests/cores/vexriscv, each against `tally run
# --core vexriscv --board litex`, at periods of 97 to 1,000 cycles, with
# counters over the signals the adapter provides (cycle by cycle with
# --trace where every instruction is laid out alike: docs/rtl-soc.md,
# "VEXRISCV", says which).
#
#   ci_vexriscv.sh [--core vexriscv-imac|vexriscv-min] TALLY PROGRAM_DIR WORKDIR
#
# --core: the same SoC and adapter around LiteX's IMAC or Min variant
# (VexRiscv_IMAC.v, VexRiscv_Min.v of the same checkout), against `tally run
# --core vexriscv-imac` or `vexriscv-min`, on the runs identical today
# (docs/rtl-soc.md, "VEXRISCV" says which differ and where; CTest
# rtl.soc.closing.vexriscv-imac and rtl.soc.closing.vexriscv-min).
#
# The checkout: $VEXRISCV_RTL (a checkout, its verilog directory, or a bare
# git dir), else the mirror /work/.mirror/litex-hub+pythondata-cpu-vexriscv/repo;
# VexRiscv.v is copied into WORKDIR (never into the source tree). Exit 77
# (skipped, with the reason) when there is no checkout, no verilator or no
# test program; 0 identical; 1 a difference.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
core=vexriscv vfile=VexRiscv.v
if [ "${1:-}" = --core ]; then
  case ${2:-} in
    vexriscv-imac) core=$2 vfile=VexRiscv_IMAC.v ;;
    vexriscv-min) core=$2 vfile=VexRiscv_Min.v ;;
    *) echo "ci_vexriscv.sh: --core vexriscv-imac or vexriscv-min, not '${2:-}'" >&2; exit 2 ;;
  esac
  shift 2
fi
[ $# -eq 3 ] || { echo "usage: ci_vexriscv.sh [--core vexriscv-imac|vexriscv-min] TALLY PROGRAM_DIR WORKDIR" >&2; exit 2; }
tally=$1 progs=$2 work=$3
src=${VEXRISCV_RTL:-/work/.mirror/litex-hub+pythondata-cpu-vexriscv/repo}
command -v verilator >/dev/null 2>&1 || { echo "ci_vexriscv.sh: no verilator: skipped" >&2; exit 77; }
set -- alu branch jumps load_use hazards muldiv shifts dcache stores icache csr crc sort isa_c traps
for p in "$@"; do
  [ -f "$progs/$p.elf" ] || { echo "ci_vexriscv.sh: $progs/$p.elf missing (cmake --build build --target vexriscv-programs): skipped" >&2; exit 77; }
done
mkdir -p "$work"
. "$here/checkout.sh"
rtl_checkout "ci_vexriscv.sh: $vfile" "$src" "$work/$core" "pythondata_cpu_vexriscv/verilog/$vfile" ||
  { echo "ci_vexriscv.sh: no VexRiscv checkout at $src (set VEXRISCV_RTL to a litex-hub/pythondata-cpu-vexriscv checkout): skipped" >&2; exit 77; }
tb=$("$here/build.sh" --core $core "$rtl" "$work/tb")
wait=
rc=0
# check NAME PERIOD [--trace] COUNTER...: PROGRAM_DIR/NAME.elf, packet for
# packet (and with --trace cycle by cycle) against tally's model
check() {
  name=$1 per=$2; shift 2
  tr=; [ "${1:-}" = --trace ] && { tr=--trace; shift; }
  args=
  for c in "$@"; do args="$args --count $c"; done
  # shellcheck disable=SC2086
  python3 "$here/check.py" "$tally" "$tb" "$work/$name$per$wait" --core $core ${wait:+--wait $wait} $tr --interval "$per" \
    $args "$progs/$name.elf" || rc=1
}
base="cycle instret load store branch branch.taken jump stall"
fine="cycle instret stall.icache stall.load_use stall.dcache stall.write_buffer stall.jump"
# the memory-side signals: icache.miss (an I-bus transaction begun in the
# instruction's gap) and mem.write (a store), with the counts they go with;
# not on jumps and muldiv (where the model places a refill on another
# instruction, docs/rtl-soc.md "VEXRISCV")
mem="icache.miss mem.write icache.miss@main mem.write@main cycle instret store load"
# ... and the loads': dcache.read_miss (a D-bus read begun in the load's
# gap) or dcache.read_hit on its issue cycle, mem.read with each refill
# (not on IMAC's dcache and sort: one mem.read fewer on the RTL, not traced)
rd="dcache.read_hit dcache.read_miss mem.read mem.read@main load instret dcache.read_miss@main icache.miss"
# ... and the stores': dcache.write_hit or dcache.write_miss (the
# D-cache's hit in write-back, stageB_waysHit, for a store below the IO
# range) on its issue cycle; writeback, 0 on a write-through cache
wr="dcache.write_hit dcache.write_miss writeback store mem.write instret dcache.write_hit@main dcache.write_miss@main"
# ... and the fetch's lookups: icache.access (a lookup on a new line or
# after a redirect: with each icache.miss and each icache.hit) and
# icache.hit (not on jumps and muldiv, as icache.miss above)
ia="icache.access icache.hit icache.miss instret icache.access@main icache.hit@main cycle jump"
if [ $core = vexriscv ]; then IA_PROGRAMS="stores crc sort alu load_use dcache hazards shifts branch csr icache"
else IA_PROGRAMS="stores crc sort load_use dcache shifts branch csr icache"; fi
if [ $core != vexriscv-min ]; then
  # shellcheck disable=SC2086
  for p in stores load_use crc dcache branch shifts sort icache; do check $p 97 $mem; done
  # shellcheck disable=SC2086
  for p in crc load_use stores; do check $p 97 $rd; done
  # shellcheck disable=SC2086
  for p in stores dcache sort crc load_use; do check $p 97 $wr; done
  # shellcheck disable=SC2086
  for p in $IA_PROGRAMS; do check $p 97 $ia; done
  # shellcheck disable=SC2086
  check hazards 97 $mem
  # shellcheck disable=SC2086
  check hazards 97 $rd
  if [ $core = vexriscv ]; then
    # shellcheck disable=SC2086
    for p in dcache sort; do check $p 97 $rd; done
  fi
fi
if [ $core = vexriscv-imac ]; then
  # the IMAC variant, W = 0: the runs identical today, branch, alu,
  # load_use, crc, hazards, shifts, muldiv, sort, stores, dcache, icache and csr cycle by cycle;
  # jumps (one instret a cycle off) differs (docs/rtl-soc.md, "VEXRISCV")
  # shellcheck disable=SC2086
  for p in branch alu load_use crc hazards shifts muldiv sort stores dcache icache; do check $p 97 --trace $fine; done
  check crc 97 cycle instret load store branch.mispredict stall.branch stall.jump instret@main
  check csr 97 --trace csr system stall.system stall instret cycle stall.jump load
  # shellcheck disable=SC2086
  for p in load_use shifts stores; do check $p 97 $base; done
  check sort 97 mul div call ret branch.mispredict system instret@main stall.branch
  check sort 1000 $base
  check muldiv 113 stall.muldiv instret stall.jump stall.system csr div mul stall
  check dcache 97 cycle load store stall stall.branch branch.taken instret@main load@main
  check icache 1000 instret jump call ret stall.jump stall branch stall.branch
  # compressed code: isa_c.elf (rv32imc) and rv32imac builds of five of
  # the programs (NAME_c.elf in WORKDIR, with $RISCV_CC); the others'
  # cycles differ from the RTL's in tally's model (docs/rtl-soc.md, "VEXRISCV")
  cset="cycle instret compressed load store branch.taken jump stall"
  cset2="compressed call ret mul div csr system branch.mispredict"
  # shellcheck disable=SC2086
  for per in 97 1000; do check isa_c $per $cset; check isa_c $per $cset2; done
  cc=${RISCV_CC:-riscv64-unknown-elf-gcc}
  if command -v "$cc" >/dev/null 2>&1; then
    vsrc="$here/../../tests/cores/vexriscv"
    cprogs="$work/rv32imac"
    mkdir -p "$cprogs"
    for p in shifts csr muldiv load_use icache; do
      "$cc" -march=rv32imac_zicsr -mabi=ilp32 -nostdlib -nostartfiles -ffreestanding -I"$vsrc" -T "$vsrc/link.ld" \
        -Wl,--no-warn-rwx-segments -o "$cprogs/${p}_c.elf" "$vsrc/crt.S" "$vsrc/$p.S" -lgcc || rc=1
    done
    progs_rv32i=$progs progs=$cprogs
    # shellcheck disable=SC2086
    for p in shifts_c csr_c muldiv_c; do check $p 97 $cset; check $p 97 $cset2; done
    # shellcheck disable=SC2086
    check load_use_c 97 $cset2
    # shellcheck disable=SC2086
    for p in load_use_c icache_c; do check $p 1000 $cset; check $p 1000 $cset2; done
    progs=$progs_rv32i
  else
    echo "ci_vexriscv.sh: no $cc: the rv32imac builds are not checked" >&2
  fi
  # the memory with wait states: W = 1 and W = 3, at period 1,000 (at
  # shorter ones a boundary falls where crt.S's call into main is laid out
  # otherwise: docs/rtl-soc.md, "VEXRISCV")
  for wait in 1 3; do
    tb=$("$here/build.sh" --core vexriscv-imac --wait $wait "$rtl" "$work/tb-w$wait")
    # shellcheck disable=SC2086
    for p in alu hazards crc jumps load_use muldiv shifts sort stores icache isa_c dcache; do
      check $p 1000 $base
    done
    # (cycle by cycle: the eight laid out alike at W = 0)
    # shellcheck disable=SC2086
    for p in branch csr alu load_use crc hazards dcache icache; do check $p 1000 --trace $base; done
  done
  exit $rc
fi
if [ $core = vexriscv-min ]; then
  # the Min variant, cycle by cycle, at W = 0 to 3, muldiv.elf's mul
  # trapping as illegal on RV32I (the trap laid out from the RTL's trap
  # clock) and traps.elf's ecalls and illegal words (a zero word: an illegal
  # 32-bit instruction on a core without C; cycle by cycle at W = 0)
  mset="cycle instret load store stall stall.dcache jump mem.write"
  tset="cycle instret trap system csr stall jump mul"
  for w in 0 1 2 3; do
    wait=
    if [ $w != 0 ]; then
      wait=$w
      tb=$("$here/build.sh" --core vexriscv-min --wait $w "$rtl" "$work/tb-w$w")
    fi
    # shellcheck disable=SC2086
    for p in alu branch jumps load_use hazards shifts dcache stores icache crc sort; do
      check $p 97 --trace $mset
    done
    # shellcheck disable=SC2086
    check muldiv 97 --trace $tset
    # shellcheck disable=SC2086
    # (traced at W = 0: the others not yet run against the RTL's trace)
    if [ $w = 0 ]; then check traps 97 --trace $tset; else check traps 97 $tset; fi
    check csr 97 --trace csr system instret cycle jump load call ret
    for p in alu branch; do check $p 97 --trace cycle instret load store branch.taken jump branch.mispredict mem.write; done
  done
  exit $rc
fi
# cycle by cycle where every instruction is laid out alike (docs/rtl-soc.md,
# "VEXRISCV"), packet for packet elsewhere
# shellcheck disable=SC2086
for p in alu branch hazards csr crc jumps shifts muldiv sort stores load_use dcache icache; do check $p 97 --trace $fine; done
check crc 1000 $fine
check crc 97 cycle instret load store branch.mispredict stall.branch stall.jump instret@main
check csr 97 csr system stall.system stall instret cycle stall.jump load
# a few instructions laid out otherwise (docs/rtl-soc.md, "VEXRISCV"): packets
# shellcheck disable=SC2086
for p in jumps load_use shifts stores; do check $p 97 $base; done
check sort 97 mul div call ret branch.mispredict system instret@main stall.branch
check sort 1000 $base
check muldiv 113 stall.muldiv instret stall.jump stall.system csr div mul stall
check dcache 97 cycle load store stall stall.branch branch.taken instret@main load@main
check icache 1000 instret jump call ret stall.jump stall branch stall.branch
# the memory with wait states: W = 1 and W = 3 (tally's litex board with its
# wait_states set to W)
for wait in 1 3; do
  tb=$("$here/build.sh" --core vexriscv --wait $wait "$rtl" "$work/tb-w$wait")
  # cycle by cycle where every instruction is laid out alike, as at W = 0
  # shellcheck disable=SC2086
  for p in alu branch hazards crc csr jumps dcache load_use muldiv shifts sort icache; do check $p 97 --trace $base; done
  if [ $wait = 1 ]; then
    # shellcheck disable=SC2086
    check stores 97 --trace $base
  fi
done
exit $rc
