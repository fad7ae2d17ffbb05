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
# The port's clock() is replaced by a fixed one (see common.sh) so that the
# whole output can be compared byte for byte. The speed figures come from
# the timing command.
set -euo pipefail
. "$(dirname "$0")/common.sh"
bench_usage coremark.sh "COREMARK_DIR [OUT_DIR]" 1 $#
bench_setup coremark.sh
src=$(bench_checkout coremark "$1")
out=${2:-/tmp/tally-coremark}
it=${ITERATIONS:-800}
e=$out/coremark.elf
coremark_build "$src" "$it" "$out"

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
"$tally" run -v "$e" 2> "$out/coremark.v.err" >/dev/null || true
n=$(tally_count "$out/coremark.v.err")
line="coremark iterations=$it exit=$rq output=$st tally_instructions=$n"
if [ "${CHECK_ICOUNT:-0}" = 1 ]; then
  q=$(cd "$out"; python3 "$root/tests/diff/qemu_icount.py" coremark.elf || true)
  line+=" qemu_instructions=$q"
  [ "$n" = "$q" ] || { line+=" COUNT-MISMATCH"; fail=1; }
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
