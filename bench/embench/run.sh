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
. "$(dirname "$0")/common.sh"
bench_usage run.sh "EMBENCH_DIR [OUT_DIR]" 1 $#
bench_setup run.sh
src=$(bench_checkout embench "$1")
out=${2:-/tmp/tally-embench}
mkdir -p "$out"

# program  GLOBAL_SCALE_FACTOR
declare -A gsf=(
  [aha-mont64]=111 [crc32]=56 [depthconv]=145 [edn]=109 [huffbench]=132
  [matmult-int]=120 [md5sum]=150 [nettle-aes]=90 [nettle-sha256]=67
  [nsichneu]=15 [picojpeg]=95 [qrduino]=91 [sglib-combined]=72 [slre]=109
  [statemate]=44 [tarfind]=114 [ud]=117 [wikisort]=75 [xgboost]=56
)
progs=${PROGS:-$(cd "$src/src" && ls)}

build() {
  embench_build "$src" "$1" "${GSF:-${gsf[$1]:-1}}" "$out"
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
  "$tally" run -v "$e" 2> "$out/$p.v.err" >/dev/null || true
  n=$(tally_count "$out/$p.v.err")
  line="$p gsf=${GSF:-${gsf[$p]:-1}} exit=$rq output=$st tally_instructions=$n"
  if [ "${CHECK_ICOUNT:-0}" = 1 ]; then
    q=$(cd "$out"; python3 "$root/tests/diff/qemu_icount.py" "$p.elf" || true)
    line+=" qemu_instructions=$q"
    [ "$n" = "$q" ] || { line+=" COUNT-MISMATCH"; fail=1; }
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
