#!/bin/sh
# The closing check in CI (tests/rtl: rtl.soc.closing): builds the SoC's
# testbench from a PicoRV32 checkout and runs rtl/soc/check.py on five
# programs, periods and configurations that use every signal the adapter
# provides (two of them also compared cycle by cycle: check.py --trace);
# then the small build of the iCE40 fit on one, and that build sending
# compact frames (COMPACT = 1) through the testbench's relay; then the
# builds that hold their input, where the adapter holds the core
# (docs/rtl-soc.md, "A module that holds the core"): without a snapshot and
# with the ARRs in a RAM (SNAP = 0, ARR_RAM = 1) at periods 200 and 3, and
# SnoopP's configuration in the smallest build (16 ARRs in a RAM, 16
# counters of 16 bits, compact frames: the iCE40 fit's soc-compact).
#
#   ci.sh TALLY PROGRAM_DIR WORKDIR
#
# The checkout: $PICORV32_RTL (a checkout, or a bare git dir), else the
# mirror /work/.mirror/YosysHQ+picorv32/repo; copied into WORKDIR (never into
# the source tree). Exit 77 (skipped, with the reason) when there is no
# checkout, no verilator or no test program; 0 identical; 1 a difference.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 3 ] || { echo "usage: ci.sh TALLY PROGRAM_DIR WORKDIR" >&2; exit 2; }
tally=$1 progs=$2 work=$3
src=${PICORV32_RTL:-/work/.mirror/YosysHQ+picorv32/repo}
command -v verilator >/dev/null 2>&1 || { echo "ci.sh: no verilator: skipped" >&2; exit 77; }
for p in c-crc-O2-rv32imac rand02-rvc dense06-rvc c-sort-Os-rv32imac misc c-str-O2-rv32imac; do
  [ -f "$progs/$p.elf" ] || { echo "ci.sh: $progs/$p.elf missing (cmake --build build --target pico-programs): skipped" >&2; exit 77; }
done
mkdir -p "$work"
. "$here/checkout.sh"
rtl_checkout "ci.sh: PicoRV32" "$src" "$work/picorv32" picorv32.v ||
  { echo "ci.sh: no PicoRV32 checkout at $src (set PICORV32_RTL to a YosysHQ/picorv32 checkout): skipped" >&2; exit 77; }
tb=$("$here/build.sh" "$rtl" "$work/tb")
rc=0
python3 "$here/check.py" "$tally" "$tb" "$work/crc" --interval 1000 --count cycle --count instret \
  --count load@main --count store --count stall --count mul --count cycle@_start --count branch.taken \
  "$progs/c-crc-O2-rv32imac.elf" || rc=1
python3 "$here/check.py" "$tally" "$tb" "$work/rand" --trace --interval 97 --count branch --count jump --count call \
  --count ret --count div --count compressed --count stall.muldiv --count stall.branch \
  "$progs/rand02-rvc.elf" || rc=1
python3 "$here/check.py" "$tally" "$tb" "$work/dense" --interval 101 --count csr --count system \
  --count stall.icache --count stall --count mul --count call --count ret --count instret \
  "$progs/dense06-rvc.elf" || rc=1
python3 "$here/check.py" "$tally" "$tb" "$work/sort" --interval 500 --count stall.icache --count instret@main \
  --count load --count store@main --count cycle@_start --count cycle@main --count stall --count compressed \
  "$progs/c-sort-Os-rv32imac.elf" || rc=1
python3 "$here/check.py" "$tally" "$tb" "$work/misc" --trace --interval 7 --count cycle --count instret \
  --count csr --count system --count stall --count stall.icache --count compressed --count load \
  "$progs/misc.elf" || rc=1
# the size rtl/soc/fit.py places on the iCE40 (2 ARRs, 4 counters, no run totals)
tbs=$("$here/build.sh" "$rtl" "$work/tb-small" 2 4 32 0 1)
python3 "$here/check.py" "$tally" "$tbs" "$work/small" --interval 200 --count cycle@main --count load \
  --count stall --count instret "$progs/c-crc-O2-rv32imac.elf" || rc=1
# the same size sending compact frames, the testbench their relay
# (docs/protocol.md, "Compact stream"): the same stored run as tally's
tbc=$("$here/build.sh" "$rtl" "$work/tb-compact" 2 4 32 0 1 1)
python3 "$here/check.py" "$tally" "$tbc" "$work/compact" --interval 200 --count cycle@main --count load \
  --count stall --count instret "$progs/c-crc-O2-rv32imac.elf" || rc=1
# no snapshot, the ARRs in a RAM: the core held while a DATA packet goes out
# or the bounds are scanned (at period 3, most of the time)
tbh=$("$here/build.sh" "$rtl" "$work/tb-held" 2 4 32 0 0 0 1)
python3 "$here/check.py" "$tally" "$tbh" "$work/held" --interval 200 --count cycle@main --count load \
  --count stall --count instret "$progs/c-crc-O2-rv32imac.elf" || rc=1
python3 "$here/check.py" "$tally" "$tbh" "$work/held3" --interval 3 --count cycle@main --count load \
  --count stall --count instret "$progs/c-str-O2-rv32imac.elf" || rc=1
# SnoopP's configuration (16 ARRs, 16 counters) in the smallest build: 16-bit
# counters, no totals, no snapshot, the ARRs in a RAM, compact frames
tbs16=$("$here/build.sh" "$rtl" "$work/tb-snoopp" 16 16 16 0 0 1 1)
python3 "$here/check.py" "$tally" "$tbs16" "$work/snoopp" --trace --interval 97 --count cycle@F0 --count cycle@L1 \
  --count cycle@L2 --count cycle@L3 --count cycle@L4 --count cycle@L5 --count cycle@L6 --count cycle@L7 \
  --count cycle@_start --count cycle --count instret --count load --count store --count stall \
  --count branch.taken --count call "$progs/rand02-rvc.elf" || rc=1
python3 "$here/check.py" "$tally" "$tbs16" "$work/snoopp-sort" --interval 1000 --count cycle@main --count cycle@_start \
  --count cycle --count instret --count load --count store --count stall --count stall.icache --count mul \
  --count branch.taken --count compressed --count jump --count call --count ret --count csr --count load@main \
  "$progs/c-sort-Os-rv32imac.elf" || rc=1
exit $rc
