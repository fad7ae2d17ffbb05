#!/usr/bin/env bash
# bench/inst/all_workloads.sh [BUILD_DIR]
#
# The transparency check of tests/inst (run_inst.sh) on every shipped
# workload in both flavours, at every basic block (bbcount: output, exit
# status, the bbcount law, QEMU's counts equal tally's) and at every
# instruction (tool none: output and exit status on tally and QEMU), at
# the tiny sizes of tests/diff (blast: its small size). Too long for CI
# (every-instruction runs trap on each instruction); prints one line per
# case and a summary; exit 1 if any case failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$(realpath "${1:-$here/../../build}")
declare -A size=([dhrystone]=500 [aes]=4 [heapsort]=200 [hanoi]=8 [crc32]=8 [matmul]=16 [blast]=20
                 [qsort]=200 [fft]=1 [dct]=1)
pass=0; fail=0
for flavour in rv32imac rv32i; do
  for w in dhrystone aes heapsort hanoi crc32 matmul blast qsort fft dct; do
    for case in "bb bbcount" "insn none"; do
      set -- $case
      if out=$(QEMU_TIMEOUT=600 "$here/../../tests/inst/run_inst.sh" --qemu "$build/tally" \
                 "$build/target/$flavour/$w.elf" "$1" "$2" "${size[$w]}" 2>&1); then
        pass=$((pass + 1)); echo "ok   $flavour $w $1 $2"
      else
        fail=$((fail + 1)); echo "FAIL $flavour $w $1 $2"; echo "$out" | tail -5
      fi
    done
  done
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
