#!/bin/sh
# Builds the riscv-tests ISA suites for the p environment (rv32ui, rv32um,
# rv32ua, rv32uc, rv32mi: 77 programs) from local checkouts and runs each
# on tally, in the functional mode and on each core model given.
# The suites' code is compiled in a scratch folder and never committed.
#
#   scripts/riscv-tests.sh [options] [CORE...]
#     --tally PATH     tally binary (default build/tally)
#     --tests DIR      riscv-tests checkout or bare git dir (default: the
#                      mirror, else $RISCV_TESTS)
#     --env DIR        riscv-test-env checkout or bare git dir (likewise)
#     --work DIR       scratch folder for sources and ELFs (default build/riscv-tests)
#     --only LIST      comma-separated test names (e.g. rv32mi-p-breakpoint)
#     --gcc CC         RISC-V compiler (default riscv64-unknown-elf-gcc)
#   CORE: a core model name, or "functional" (no model; the default list is
#   functional tally5 tally5-wt sram dsp500).
# Prints one line per failure and a "N of M passed" line per core; exits 0
# when every test passed on every core, 1 otherwise, 77 when no compiler or
# no checkout is found (skipped).
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
tally=$here/build/tally
tests=${RISCV_TESTS:-/work/.mirror/riscv-software-src+riscv-tests/repo}
env=${RISCV_TEST_ENV:-/work/.mirror/riscv+riscv-test-env/repo}
work=$here/build/riscv-tests
only=
gcc=riscv64-unknown-elf-gcc

while [ $# -gt 0 ]; do
  case $1 in
    --tally) tally=$2; shift 2 ;;
    --tests) tests=$2; shift 2 ;;
    --env) env=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --gcc) gcc=$2; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "riscv-tests.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
cores=${*:-functional tally5 tally5-wt sram dsp500}

command -v "$gcc" >/dev/null 2>&1 || { echo "riscv-tests.sh: no $gcc: skipped" >&2; exit 77; }
[ -x "$tally" ] || { echo "riscv-tests.sh: no tally at $tally" >&2; exit 2; }

# A checkout or a bare git dir, copied into $2.
get_tree() {
  if [ -d "$1/isa" ] || [ -d "$1/p" ]; then
    rm -rf "$2"; cp -r "$1" "$2"
  elif git --git-dir="$1" rev-parse HEAD >/dev/null 2>&1; then
    rm -rf "$2"; mkdir -p "$2"
    git --git-dir="$1" archive HEAD | tar -x -C "$2"
  else
    echo "riscv-tests.sh: no checkout at $1: skipped" >&2; exit 77
  fi
}

mkdir -p "$work"
if [ ! -f "$work/.fetched" ]; then
  get_tree "$tests" "$work/src"
  get_tree "$env" "$work/src/env"
  touch "$work/.fetched"
fi
src=$work/src

suite_tests() {
  sed -n "/^$1_sc_tests = /,/^\$/p" "$src/isa/$1/Makefrag" | tr -d '\\' | tr -s ' \t' '\n' |
    grep -v -e '^$' -e '_sc_tests' -e '^=$'
}

march() {
  case $1 in
    rv32ui|rv32mi) echo rv32i_zicsr_zifencei ;;
    rv32um) echo rv32im_zicsr_zifencei ;;
    rv32ua) echo rv32ima_zicsr_zifencei ;;
    rv32uc) echo rv32imc_zicsr_zifencei ;;
  esac
}

mkdir -p "$work/elf"
list=
for suite in rv32ui rv32um rv32ua rv32uc rv32mi; do
  for t in $(suite_tests $suite); do
    name=$suite-p-$t
    if [ -n "$only" ] && ! echo ",$only," | grep -q ",$name,"; then
      continue
    fi
    elf=$work/elf/$name
    if [ ! -f "$elf" ] || [ "$src/isa/$suite/$t.S" -nt "$elf" ]; then
      "$gcc" -march=$(march $suite) -mabi=ilp32 -static -mcmodel=medany -fvisibility=hidden -nostdlib \
        -nostartfiles -I"$src/env/p" -I"$src/isa/macros/scalar" -T"$src/env/p/link.ld" \
        "$src/isa/$suite/$t.S" -o "$elf" 2>"$work/elf/$name.log" ||
        { echo "riscv-tests.sh: $name does not build (see $work/elf/$name.log)" >&2; exit 2; }
    fi
    list="$list $name"
  done
done

status=0
for core in $cores; do
  pass=0 total=0
  for name in $list; do
    total=$((total + 1))
    if [ "$core" = functional ]; then set --; else set -- --core "$core"; fi
    if timeout 60 "$tally" run -q "$@" --max-insns 10M "$work/elf/$name" >"$work/out.txt" 2>&1; then
      pass=$((pass + 1))
    else
      echo "FAIL $core $name: $(tail -n 1 "$work/out.txt")"
      status=1
    fi
  done
  echo "$core: $pass of $total passed"
done
exit $status
