#!/usr/bin/env bash
# bench/embench/coremark.sh COREMARK_DIR [OUT_DIR]
#
# CoreMark (a checkout of github.com/eembc/coremark, never committed here)
# for rv32imac with the target kit, its "simple" port, run the way run.sh
# runs Embench-IoT: exit status and output compared between tally, tally
# --core tally5 and QEMU; CHECK_ICOUNT=1 compares instruction counts with
# QEMU's exact count; TIMER as in run.sh. ITERATIONS (default 800, about 0.2 s on QEMU) sets the
# size.
#
# The port's clock() is replaced by a fixed one (0 at the start, 10 s at
# the stop): the timed lines (ticks, seconds, a meaningless iterations per
# second) are then the same on every simulator and CoreMark's 10-second rule
# does not count as an error, so the whole output, CRCs and "Correct
# operation validated" included, can be compared byte for byte. The speed
# figures come from the timing command.
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: coremark.sh COREMARK_DIR [OUT_DIR]" >&2
  exit 2
fi
src=$(cd "$1" && pwd)
out=${2:-/tmp/tally-coremark}
root=$(cd "$(dirname "$0")/../.." && pwd)
tally=${TALLY:-$root/build/tally}
qemu_run=$root/scripts/qemu-run.sh
if [ ! -f "$src/core_main.c" ] || [ ! -d "$src/simple" ]; then
  echo "coremark.sh: $src is not a CoreMark checkout (no core_main.c, simple/)" >&2; exit 2
fi
[ -x "$tally" ] || { echo "coremark.sh: $tally not built (cmake --build build --target tally)" >&2; exit 2; }
mkdir -p "$out"
cat > "$out/fixed_clock.c" <<'C'
#include <time.h>
static unsigned calls;
clock_t coremark_fixed_clock (void) { return (calls++ & 1) ? 10 * CLOCKS_PER_SEC : 0; }
C
it=${ITERATIONS:-800}
e=$out/coremark.elf
riscv64-unknown-elf-gcc -march=rv32imac -mabi=ilp32 -misa-spec=2.2 -O2 \
  -I"$root/target/include" -I"$src" -I"$src/simple" \
  -Dclock=coremark_fixed_clock -DPERFORMANCE_RUN=1 -DITERATIONS="$it" \
  -DHAS_FLOAT=0 -DFLAGS_STR='"-O2"' \
  --specs=picolibc.specs --oslib=semihost -DPICOLIBC_INTEGER_PRINTF_SCANF \
  "$root/target/crt0.S" "$src"/core_*.c "$src/simple/core_portme.c" "$out/fixed_clock.c" \
  -nostartfiles -T"$root/target/tally.ld" -o "$e"

set +e
"$qemu_run" "$e" > "$out/coremark.qemu.out" 2>&1; rq=$?
"$tally" run "$e" > "$out/coremark.tally.out" 2>&1; rt=$?
"$tally" run --core tally5 "$e" > "$out/coremark.tally5.out" 2>&1; r5=$?
set -e
st=ok; fail=0
if [ $rq -ne 0 ] || [ $rt -ne $rq ] || [ $r5 -ne $rq ] ||
   ! grep -q "Correct operation validated" "$out/coremark.qemu.out" ||
   ! cmp -s "$out/coremark.qemu.out" "$out/coremark.tally.out" ||
   ! cmp -s "$out/coremark.qemu.out" "$out/coremark.tally5.out"; then
  st="MISMATCH (exit qemu $rq tally $rt tally5 $r5)"; fail=1
fi
n=$("$tally" run -v "$e" 2>&1 >/dev/null | sed -n 's/^tally: \([0-9,]*\) instructions.*/\1/p' | head -1)
line="coremark iterations=$it exit=$rq output=$st tally_instructions=$n"
if [ "${CHECK_ICOUNT:-0}" = 1 ]; then
  q=$(cd "$out"; python3 "$root/tests/diff/qemu_icount.py" coremark.elf || true)
  line+=" qemu_instructions=$q"
  [ "${n//,/}" = "$q" ] || { line+=" COUNT-MISMATCH"; fail=1; }
fi
echo "$line" | tee -a "$out/check.txt"
if [ -n "${TIMER:-}" ]; then
  for mode in "" "--core tally5"; do
    {
      echo "== coremark tally $mode vs qemu"
      # shellcheck disable=SC2086
      $TIMER -n "${RUNS:-5}" --vs "$qemu_run $e" -- "$tally" run $mode "$e" 2>&1
    } >> "$out/timing.txt"
  done
fi
exit $fail
