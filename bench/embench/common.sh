# shellcheck shell=bash disable=SC2034
# bench/embench/common.sh: what run.sh, coremark.sh and longrun.sh share
# (sourced, not run): the checks on their arguments and the builds of
# Embench-IoT's programs and of CoreMark with the target kit.
#
# bench_setup NAME: sets root, tally, qemu_run and bench_name, and fails
# (status 2, naming NAME) unless tally is built. bench_checkout KIND DIR:
# prints DIR's absolute path, or fails (naming bench_name) unless DIR is a
# checkout of KIND (embench or coremark). bench_usage NAME ARGS MIN COUNT:
# the usage line, status 2, unless COUNT >= MIN.
#
# Ports: "board" (target/crt0.S, semihosting: tally and QEMU), "rv32emu"
# (bench/embench/rv32emu/: Linux-style system calls, no command line) or
# "litex" (boards/litex.ini, which the VexRiscv models run on: RAM at
# 0x40000000, tests/cores/vexriscv/crt.S's start-up, main's result to the
# finisher, no semihosting: tally only); the builds of a program differ in
# start-up, I/O and addresses only. MARCH (default rv32imac) sets the ISA
# (rv32imc for PicoRV32, rv32im or rv32i for VexRiscv and VexRiscv-Min).

bench_usage() {
  if [ "$4" -lt "$3" ]; then
    echo "usage: $1 $2" >&2
    exit 2
  fi
}

bench_setup() {
  bench_name=$1
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  tally=${TALLY:-$root/build/tally}
  qemu_run=$root/scripts/qemu-run.sh
  [ -x "$tally" ] || { echo "$1: $tally not built (cmake --build build --target tally)" >&2; exit 2; }
}

bench_checkout() {
  local kind=$1 dir=$2 abs
  abs=$(cd "$dir" 2>/dev/null && pwd) || { echo "$bench_name: $kind checkout $dir: no such directory" >&2; exit 2; }
  case $kind in
    embench)
      if [ ! -d "$abs/src" ] || [ ! -f "$abs/support/main.c" ]; then
        echo "$bench_name: $abs is not an Embench-IoT checkout (no src/, support/main.c)" >&2; exit 2
      fi ;;
    coremark)
      if [ ! -f "$abs/core_main.c" ] || [ ! -d "$abs/simple" ]; then
        echo "$bench_name: $abs is not a CoreMark checkout (no core_main.c, simple/)" >&2; exit 2
      fi ;;
  esac
  echo "$abs"
}

# The start-up and I/O files of a port, and its libc option.
port_files() {
  case $1 in
    board) echo "$root/target/crt0.S --oslib=semihost" ;;
    rv32emu) echo "$root/bench/embench/rv32emu/crt0.S $root/bench/embench/rv32emu/syscalls.c" ;;
    litex) echo "$root/tests/cores/vexriscv/crt.S -I$root/tests/cores/vexriscv -Wl,--defsym=__stack_top=__stack" ;;
    *) echo "unknown port $1" >&2; return 2 ;;
  esac
}

# embench_build SRC PROG GSF OUT_DIR [PORT] -> OUT_DIR/PROG.elf (board) or
# OUT_DIR/PROG.rv32emu.elf
embench_build() {
  local src=$1 p=$2 s=$3 out=$4 port=${5:-board} elf
  mkdir -p "$out"
  [ -f "$out/boardsupport.h" ] || {
    # Board support: nothing to set up; the triggers are empty.
    printf '#define CPU_MHZ 1\n' > "$out/boardsupport.h"
    cat > "$out/boardsupport.c" <<'C'
#include "support.h"
void initialise_board (void) {}
void __attribute__ ((noinline)) start_trigger (void) { __asm__ volatile ("" ::: "memory"); }
void __attribute__ ((noinline)) stop_trigger (void) { __asm__ volatile ("" ::: "memory"); }
C
    : > "$out/config.h"
  }
  elf=$out/$p.elf
  [ "$port" = board ] || elf=$out/$p.$port.elf
  local ld=$root/target/tally.ld
  if [ "$port" = litex ]; then # target/tally.ld moved to the board's RAM
    ld=$out/litex.ld
    sed 's/ORIGIN = 0x80000000/ORIGIN = 0x40000000/' "$root/target/tally.ld" > "$ld"
  fi
  # shellcheck disable=SC2046
  riscv64-unknown-elf-gcc -march="${MARCH:-rv32imac}" -mabi=ilp32 -misa-spec=2.2 -O2 \
    -ffunction-sections -fdata-sections -Wl,--gc-sections \
    -I"$root/target/include" -I"$out" -I"$src/support" -I"$src/src/$p" \
    -DHAVE_BOARDSUPPORT_H -DHAVE_CONFIG_H \
    -DWARMUP_HEAT=1 -DGLOBAL_SCALE_FACTOR="$s" \
    --specs=picolibc.specs -DPICOLIBC_INTEGER_PRINTF_SCANF $(port_files "$port") \
    "$src/support/main.c" "$src/support/beebsc.c" \
    "$src/support/board.c" "$src/support/chip.c" "$src/src/$p"/*.c \
    -nostartfiles -T"$ld" -lm -o "$elf"
}

# coremark_build SRC ITERATIONS OUT_DIR [PORT] -> OUT_DIR/coremark.elf (board)
# or OUT_DIR/coremark.rv32emu.elf
#
# The port's clock() is replaced by a fixed one (0 at the start, 10 s at
# the stop): the timed lines (ticks, seconds, a meaningless iterations per
# second) are then the same on every simulator and CoreMark's 10-second rule
# does not count as an error, so the whole output, CRCs and "Correct
# operation validated" included, can be compared byte for byte.
coremark_build() {
  local src=$1 it=$2 out=$3 port=${4:-board} elf
  mkdir -p "$out"
  cat > "$out/fixed_clock.c" <<'C'
#include <time.h>
static unsigned calls;
clock_t coremark_fixed_clock (void) { return (calls++ & 1) ? 10 * CLOCKS_PER_SEC : 0; }
C
  elf=$out/coremark.elf
  [ "$port" = board ] || elf=$out/coremark.$port.elf
  # shellcheck disable=SC2046
  riscv64-unknown-elf-gcc -march=rv32imac -mabi=ilp32 -misa-spec=2.2 -O2 \
    -I"$root/target/include" -I"$src" -I"$src/simple" \
    -Dclock=coremark_fixed_clock -DPERFORMANCE_RUN=1 -DITERATIONS="$it" \
    -DHAS_FLOAT=0 -DFLAGS_STR='"-O2"' \
    --specs=picolibc.specs -DPICOLIBC_INTEGER_PRINTF_SCANF $(port_files "$port") \
    "$src"/core_*.c "$src/simple/core_portme.c" "$out/fixed_clock.c" \
    -nostartfiles -T"$root/target/tally.ld" -o "$elf"
}

# The instruction count of `tally run -v`'s report on stderr (FILE), commas
# removed.
tally_count() {
  sed -n 's/^tally: \([0-9,]*\) instructions.*/\1/p' "$1" | head -1 | tr -d ,
}
