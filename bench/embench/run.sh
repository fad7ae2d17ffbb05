#!/usr/bin/env bash
# bench/embench/run.sh EMBENCH_DIR [OUT_DIR]
#
# Builds Embench-IoT's programs (a checkout of github.com/embench/embench-iot,
# never committed here) for rv32imac with the target kit (target/crt0.S,
# target/tally.ld, picolibc over semihosting), then for each program:
#   - runs it on tally (translator, default engine), tally --core tally5 and
#     qemu-system-riscv32 (scripts/qemu-run.sh) and checks that the exit
#     statuses (Embench's own verification: main returns !correct) and
#     outputs agree;
#   - with CHECK_ICOUNT=1, compares tally's retired-instruction count with
#     QEMU's exact count (tests/diff/qemu_icount.py, under 1 MIPS: minutes
#     a program at these sizes);
#   - with TIMER set to a whole-process timing command that takes
#     `--vs 'B' -- A` (interleaved runs, medians and pair-by-pair ratios),
#     times tally and tally5 each against QEMU and appends its output to
#     OUT_DIR/timing.txt.
#
# Environment: TALLY (default build/tally), PROGS (space-separated subset),
# CHECK_ICOUNT, TIMER, RUNS (counted runs, default 5), GSF (one
# GLOBAL_SCALE_FACTOR for every program instead of the table's; GSF=1 with
# CHECK_ICOUNT=1 keeps QEMU's exact count to a few seconds a program).
#
# Sizes: GLOBAL_SCALE_FACTOR per program (table below), chosen so QEMU 7.2
# takes about 0.2 s of CPU time on an AMD EPYC
# (0.1-0.4 s), calibrated from single runs.
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: run.sh EMBENCH_DIR [OUT_DIR]" >&2
  exit 2
fi
src=$(cd "$1" && pwd)
out=${2:-/tmp/tally-embench}
root=$(cd "$(dirname "$0")/../.." && pwd)
tally=${TALLY:-$root/build/tally}
qemu_run=$root/scripts/qemu-run.sh
if [ ! -d "$src/src" ] || [ ! -f "$src/support/main.c" ]; then
  echo "run.sh: $src is not an Embench-IoT checkout (no src/, support/main.c)" >&2; exit 2
fi
[ -x "$tally" ] || { echo "run.sh: $tally not built (cmake --build build --target tally)" >&2; exit 2; }
mkdir -p "$out"

# program  GLOBAL_SCALE_FACTOR
declare -A gsf=(
  [aha-mont64]=111 [crc32]=56 [depthconv]=145 [edn]=109 [huffbench]=132
  [matmult-int]=120 [md5sum]=150 [nettle-aes]=90 [nettle-sha256]=67
  [nsichneu]=15 [picojpeg]=95 [qrduino]=91 [sglib-combined]=72 [slre]=109
  [statemate]=44 [tarfind]=114 [ud]=117 [wikisort]=75 [xgboost]=56
)
progs=${PROGS:-$(cd "$src/src" && ls)}

# Board support: nothing to set up; the triggers are empty.
cat > "$out/boardsupport.h" <<'H'
#define CPU_MHZ 1
H
cat > "$out/boardsupport.c" <<'C'
#include "support.h"
void initialise_board (void) {}
void __attribute__ ((noinline)) start_trigger (void) { __asm__ volatile ("" ::: "memory"); }
void __attribute__ ((noinline)) stop_trigger (void) { __asm__ volatile ("" ::: "memory"); }
C
: > "$out/config.h"

build() {
  local p=$1
  local s=${GSF:-${gsf[$p]:-1}}
  riscv64-unknown-elf-gcc -march=rv32imac -mabi=ilp32 -misa-spec=2.2 -O2 \
    -ffunction-sections -fdata-sections -Wl,--gc-sections \
    -I"$root/target/include" -I"$out" -I"$src/support" -I"$src/src/$p" \
    -DHAVE_BOARDSUPPORT_H -DHAVE_CONFIG_H \
    -DWARMUP_HEAT=1 -DGLOBAL_SCALE_FACTOR="$s" \
    --specs=picolibc.specs --oslib=semihost -DPICOLIBC_INTEGER_PRINTF_SCANF \
    "$root/target/crt0.S" "$src/support/main.c" "$src/support/beebsc.c" \
    "$src/support/board.c" "$src/support/chip.c" "$src/src/$p"/*.c \
    -nostartfiles -T"$root/target/tally.ld" -lm -o "$out/$p.elf"
}

fail=0
for p in $progs; do
  build "$p" || { echo "$p: build failed" >&2; fail=1; continue; }
  e=$out/$p.elf
  set +e
  "$qemu_run" "$e" > "$out/$p.qemu.out" 2>&1; rq=$?
  "$tally" run "$e" > "$out/$p.tally.out" 2>&1; rt=$?
  "$tally" run --core tally5 "$e" > "$out/$p.tally5.out" 2>&1; r5=$?
  set -e
  st="ok"
  if [ $rq -ne 0 ] || [ $rt -ne $rq ] || [ $r5 -ne $rq ] ||
     ! cmp -s "$out/$p.qemu.out" "$out/$p.tally.out" ||
     ! cmp -s "$out/$p.qemu.out" "$out/$p.tally5.out"; then
    st="MISMATCH (exit qemu $rq tally $rt tally5 $r5)"; fail=1
  fi
  n=$("$tally" run -v "$e" 2>&1 >/dev/null | sed -n 's/^tally: \([0-9,]*\) instructions.*/\1/p' | head -1)
  line="$p gsf=${GSF:-${gsf[$p]:-1}} exit=$rq output=$st tally_instructions=$n"
  if [ "${CHECK_ICOUNT:-0}" = 1 ]; then
    q=$(cd "$out"; python3 "$root/tests/diff/qemu_icount.py" "$p.elf" || true)
    line+=" qemu_instructions=$q"
    [ "${n//,/}" = "$q" ] || { line+=" COUNT-MISMATCH"; fail=1; }
  fi
  echo "$line" | tee -a "$out/check.txt"
  if [ -n "${TIMER:-}" ]; then
    for mode in "" "--core tally5"; do
      {
        echo "== $p tally $mode vs qemu"
        # shellcheck disable=SC2086
        $TIMER -n "${RUNS:-5}" --vs "$qemu_run $e" -- "$tally" run $mode "$e" 2>&1
      } >> "$out/timing.txt"
    done
  fi
done
exit $fail
