#!/usr/bin/env bash
# bench/embench/longrun.sh EMBENCH_DIR COREMARK_DIR [OUT_DIR]
#
# Embench-IoT's 19 programs and CoreMark, each at two sizes: "long" (at
# least 2 s of CPU on qemu-system-riscv32, so that start-up does not decide
# a ratio) and "short" (run.sh's and coremark.sh's sizes, about 0.2 s), run
# on every configuration below in one interleaved run, every run's output
# kept and checked.
#
# Configurations (the name is the column of the result files):
#   jit         tally run --engine jit                      (functional)
#   interp      tally run --engine interp
#   t5jit       tally run --engine jit --core tally5        (cycle-accurate)
#   t5interp    tally run --engine interp --core tally5
#   profile     tally profile --core tally5 --json /dev/null
#   cnt16       tally run --core tally5 with 16 statistics-module counters:
#               --count SIGNAL@F --count instret@F for the program's eight
#               largest functions F, --interval 1000000 --no-store
#   qemu        qemu-system-riscv32 (TCG, scripts/qemu-run.sh)
#   qemu_icount the same with -icount shift=0
#   rv32emu     $RV32EMU (rv32emu's interpreter), on the program's rv32emu
#               build (bench/embench/rv32emu/: the same program with
#               Linux-style system calls in place of semihosting)
#   rv32emu_jit $RV32EMU_JIT (rv32emu built with its JIT), the same ELF
# The rv32emu configurations are left out unless their variable names a
# binary.
#
# Phases (PHASES, default "build time check"):
#   build   the ELF files, OUT_DIR/{long,short}/
#   icount  exact counts from QEMU's execution trace (tests/diff/qemu_icount.py,
#           under 1 MIPS) of each program at scales 1, 2 and 3 (ICOUNT_SCALES;
#           CoreMark: 10, 20 and 30 iterations), against tally's counts at the
#           same sizes (OUT_DIR/icount.tsv); where QEMU's three counts are
#           linear in the scale, longcheck.py extrapolates them to the long
#           and short sizes
#   time    ROUNDS rounds (default 5); in each, every program of PROGS at
#           each size of SIZES (default "long short") on every configuration,
#           the configurations' order rotated from round to round. Each run
#           is one call of $TIMER (a whole-process timing command taking
#           `-n 1 --warmup 0 --timeout S -- COMMAND`) around
#           `/usr/bin/time -f '%M %x'` (peak RSS in KiB, exit status); its output, stderr (`-v`: the
#           instruction count, the translation's blocks, milliseconds and
#           code size) and RSS go to OUT_DIR/runs/, its times to
#           OUT_DIR/times.tsv (one line a run, appended: two calls with
#           disjoint PROGS may share OUT_DIR)
#   check   every run's exit status and output against QEMU's (the first
#           round's), the instruction count of every tally run against the
#           others of its program and size and against icount.tsv's; writes
#           OUT_DIR/check.tsv. Exit status 1 on a mismatch.
# Tables: bench/embench/longtable.py OUT_DIR.
#
# Environment: TALLY (default build/tally), PROGS (default all 20), SIZES,
# ROUNDS, ROUND_FIRST (the first round's number, default 1: more rounds,
# perhaps of fewer CONFIGS, added to an earlier call's), CONFIGS (a subset,
# in this order), TIMER, RV32EMU, RV32EMU_JIT.
set -euo pipefail
. "$(dirname "$0")/common.sh"
bench_usage longrun.sh "EMBENCH_DIR COREMARK_DIR [OUT_DIR]" 2 $#
bench_setup longrun.sh
esrc=$(bench_checkout embench "$1")
csrc=$(bench_checkout coremark "$2")
out=${3:-/tmp/tally-longrun}
mkdir -p "$out/runs"

# Long sizes: scaled from single QEMU runs to about 2.3 s of CPU on QEMU
# (AMD EPYC, 2026-12-03), at least 2 s in the medians of bench/jit-long.md.
declare -A long=(
  [aha-mont64]=2066 [crc32]=709 [depthconv]=1756 [edn]=1704 [huffbench]=1817
  [matmult-int]=1881 [md5sum]=2166 [nettle-aes]=1521 [nettle-sha256]=968 [nsichneu]=155
  [picojpeg]=1215 [qrduino]=1471 [sglib-combined]=1110 [slre]=1392 [statemate]=566
  [tarfind]=1403 [ud]=2002 [wikisort]=1026 [xgboost]=1052 [coremark]=12500
)
declare -A short=(
  [aha-mont64]=111 [crc32]=56 [depthconv]=145 [edn]=109 [huffbench]=132
  [matmult-int]=120 [md5sum]=150 [nettle-aes]=90 [nettle-sha256]=67
  [nsichneu]=15 [picojpeg]=95 [qrduino]=91 [sglib-combined]=72 [slre]=109
  [statemate]=44 [tarfind]=114 [ud]=117 [wikisort]=75 [xgboost]=56
  [coremark]=800
)
progs=${PROGS:-$(cd "$esrc/src" && ls) coremark}
sizes=${SIZES:-long short}
rounds=${ROUNDS:-5}
configs=${CONFIGS:-jit interp t5jit t5interp profile cnt16 qemu qemu_icount rv32emu rv32emu_jit}
phases=${PHASES:-build time check}
[ -n "${RV32EMU:-}" ] || configs=${configs//rv32emu_jit/}
[ -n "${RV32EMU:-}" ] || configs=${configs//rv32emu/}
[ -n "${RV32EMU_JIT:-}" ] || configs=${configs//rv32emu_jit/}
for p in $progs; do
  [ -n "${long[$p]:-}" ] || { echo "longrun.sh: no program $p" >&2; exit 2; }
done

size_of() { # SIZE PROG
  if [ "$1" = long ]; then echo "${long[$2]}"; else echo "${short[$2]}"; fi
}

build_one() { # SIZE PROG PORT
  local s
  s=$(size_of "$1" "$2")
  if [ "$2" = coremark ]; then coremark_build "$csrc" "$s" "$out/$1" "$3"
  else embench_build "$esrc" "$2" "$s" "$out/$1" "$3"; fi
}

# The 16 counters: two on each of the eight largest functions.
count_args() { # ELF
  local sig=(cycle icache.miss dcache.read_miss stall.load_use branch.taken dcache.write_miss stall load)
  local i=0 f
  for f in $(riscv64-unknown-elf-nm -S --size-sort "$1" | awk '$3 ~ /^[tT]$/ {print $4}' | tail -8); do
    printf -- '--count %s@%s --count instret@%s ' "${sig[$i]}" "$f" "$f"
    i=$((i + 1))
  done
}

command_of() { # CONFIG SIZE PROG
  local e=$out/$2/$3.elf
  case $1 in
    jit) echo "$tally run -v --engine jit $e" ;;
    interp) echo "$tally run -v --engine interp $e" ;;
    t5jit) echo "$tally run -v --engine jit --core tally5 $e" ;;
    t5interp) echo "$tally run -v --engine interp --core tally5 $e" ;;
    profile) echo "$tally profile --core tally5 --json /dev/null $e" ;;
    cnt16) echo "$tally run -v --core tally5 --no-store --interval 1000000 $(count_args "$e")$e" ;;
    qemu) echo "$qemu_run $e" ;;
    qemu_icount) echo "env 'QEMU_EXTRA_ARGS=-icount shift=0' $qemu_run $e" ;;
    rv32emu) echo "$RV32EMU $out/$2/$3.rv32emu.elf" ;;
    rv32emu_jit) echo "$RV32EMU_JIT $out/$2/$3.rv32emu.elf" ;;
  esac
}

phase_build() {
  local size p
  for size in $sizes; do
    for p in $progs; do
      build_one "$size" "$p" board
      [ -z "${RV32EMU:-}" ] || build_one "$size" "$p" rv32emu
    done
  done
}

phase_icount() {
  local p k e q n d
  d=$out/icount
  for p in $progs; do
    for k in ${ICOUNT_SCALES:-1 2 3}; do
      if [ "$p" = coremark ]; then coremark_build "$csrc" $((k * 10)) "$d/$k"
      else embench_build "$esrc" "$p" "$k" "$d/$k"; fi
      e=$d/$k/$p.elf
      q=$(cd "$d/$k" && QEMU_TIMEOUT=3600 python3 "$root/tests/diff/qemu_icount.py" --timeout 3600 "$p.elf" || echo failed)
      "$tally" run -v "$e" 2> "$d/$k/$p.v.err" > /dev/null || true
      n=$(tally_count "$d/$k/$p.v.err")
      printf '%s\t%s\t%s\t%s\n' "$p" "$k" "$q" "$n" | tee -a "$out/icount.tsv"
    done
  done
}

# One timed run: the timing command's report to timing.txt, a line to times.tsv.
time_one() { # ROUND SIZE PROG CONFIG
  local r=$1 size=$2 p=$3 c=$4 base cmd rep
  base=$out/runs/$size.$p.$c.r$r
  cmd=$(command_of "$c" "$size" "$p")
  rep=$($TIMER -n 1 --warmup 0 --timeout 900 -- sh -c \
    "exec /usr/bin/time -o $base.rss -f '%M %x' $cmd > $base.out 2> $base.err" 2>&1) || true
  { echo "== round $r $size $p $c"; echo "$rep"; } >> "$out/timing.txt"
  awk -v r="$r" -v s="$size" -v p="$p" -v c="$c" '
    $1 == "A" && $2 == "cpu" { cpu = $5 } $1 == "A" && $2 == "wall" { wall = $5 }
    END { printf "%s\t%s\t%s\t%s\t%s\t%s\n", r, s, p, c, cpu, wall }' <<< "$rep" >> "$out/times.tsv"
}

phase_time() {
  [ -n "${TIMER:-}" ] || { echo "longrun.sh: TIMER not set (a whole-process timing command)" >&2; exit 2; }
  local r size p c cs i n
  read -ra cs <<< "$configs"
  n=${#cs[@]}
  for r in $(seq "${ROUND_FIRST:-1}" "$rounds"); do
    for p in $progs; do
      for size in $sizes; do
        for i in $(seq 0 $((n - 1))); do
          c=${cs[$(((i + r) % n))]}
          time_one "$r" "$size" "$p" "$c"
        done
      done
    done
  done
}

phase_check() {
  python3 "$root/bench/embench/longcheck.py" "$out"
}

for ph in $phases; do
  case $ph in
    build|icount|time|check) "phase_$ph" ;;
    *) echo "longrun.sh: unknown phase $ph (build, icount, time, check)" >&2; exit 2 ;;
  esac
done
