#!/usr/bin/env bash
# embench.sh EMBENCH COREMARK WORK_DIR -- compiled C on the VexRiscv RTL and on tally.
#
# usage: embench.sh EMBENCH COREMARK WORK_DIR
#   EMBENCH, COREMARK: a checkout of embench/embench-iot and of eembc/coremark,
#   or their bare git directories (then HEAD is extracted into WORK_DIR/src-*;
#   /work/.mirror/embench+embench-iot/repo, /work/.mirror/eembc+coremark/repo).
#   Third-party sources are only read: nothing of them goes into this tree.
# environment:
#   VARIANTS  (default "std imac min")  WAITS (default "0")
#   PROGS     (default: every Embench program and coremark)
#   TB_DIR    (default /work/rtl/vextb: tb-std, tb-imac, tb-min, built by
#              build.sh from litex-hub/pythondata-cpu-vexriscv 1979a644)
#   TALLY     (default build/tally of this tree)
#   GSF       Embench's GLOBAL_SCALE_FACTOR (default 1), CM_ITER CoreMark's
#             ITERATIONS (default 10), WARMUP Embench's WARMUP_HEAT (default 1)
#   MAX_CYCLES the testbench's cycle limit (-m; default 400000000: the min
#             builds of aha-mont64, depthconv, edn, matmult-int, multiplying
#             in software, pass tb's default 50 M)
#   BUILD_ONLY=1: build the programs, run nothing.
#
# Every program is built for the LiteX-like board (boards/litex.ini and the
# testbench's memory, tb.cpp: 1 MiB of RAM at 0x40000000, IO from 0x80000000)
# per variant's ISA (std rv32im, imac rv32imac, min rv32i; -misa-spec=2.2, so Zicsr for the
# start-up's csrw), -O2, picolibc: target/tally.ld moved to 0x40000000 and cut
# to 1 MiB (64 KiB of stack, no trampoline hole), and a start-up like
# tests/cores/vexriscv/crt.S's (sp, gp, tp, a trap vector that ends the run
# with 0x100 + mcause, main, main's result to the finisher at _finish_store;
# no .bss clearing: both memories start zeroed). stdout is the UART transmit
# register (CoreMark prints its report through it; clock() is fixed as in
# bench/embench/common.sh so the output is the same on both). Then for each
# variant and W: the RTL testbench (tb-V PROG.bin -w W -f _finish_store) and
# `tally run --core vexriscv[-imac|-min] --board B` with B boards/litex.ini
# with every wait_states set to W (as tests/cores/vexriscv/compare.py does),
# and one line per run: program, variant, W, RTL cycles, tally cycles,
# tally - RTL, instret equal, exit code and output equal ("ok" when all
# three match). Lines also go to WORK_DIR/results.txt.
set -euo pipefail
[ $# -eq 3 ] || { sed -n '3,4p' "$0" | sed 's/^# //' >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
work=$(mkdir -p "$3" && cd "$3" && pwd)
tally=${TALLY:-$top/build/tally}
tbdir=${TB_DIR:-/work/rtl/vextb}
variants=${VARIANTS:-std imac min}
waits=${WAITS:-0}
gsf=${GSF:-1}
cm_iter=${CM_ITER:-10}
warmup=${WARMUP:-1}
cc=riscv64-unknown-elf-gcc

# source DIR_OR_GITDIR NAME -> a checkout's path
source_dir() {
    if [ -f "$1/HEAD" ] && [ -d "$1/objects" ]; then
        local d=$work/src-$2
        if [ ! -d "$d" ]; then
            mkdir -p "$d.tmp"
            git --git-dir="$1" archive HEAD | tar -x -C "$d.tmp"
            git --git-dir="$1" rev-parse HEAD > "$d.tmp/COMMIT"
            mv "$d.tmp" "$d"
        fi
        echo "$d"
    else
        (cd "$1" && pwd)
    fi
}
embench=$(source_dir "$1" embench)
coremark=$(source_dir "$2" coremark)
[ -f "$embench/support/main.c" ] || { echo "embench.sh: $embench: not Embench-IoT" >&2; exit 2; }
[ -f "$coremark/core_main.c" ] || { echo "embench.sh: $coremark: not CoreMark" >&2; exit 2; }
progs=${PROGS:-$(ls "$embench/src") coremark}

# --- the board support, shared by every program
sup=$work/support
mkdir -p "$sup"
sed -e 's/ORIGIN = 0x80000000, LENGTH = 128M/ORIGIN = 0x40000000, LENGTH = 1M/' \
    "$top/target/tally.ld" > "$sup/litex1m.ld"
grep -q 'ORIGIN = 0x40000000, LENGTH = 1M' "$sup/litex1m.ld" \
    || { echo "embench.sh: target/tally.ld's MEMORY line changed" >&2; exit 2; }
cat > "$sup/start.S" <<'S'
    .option norvc
    .section .text.init.enter, "ax"
    .globl _start
_start:
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    la sp, __stack
    la tp, __tls_base
    la t0, _unexpected_trap
    csrw mtvec, t0
    call main
    .globl _finish
_finish:
    li t6, 0xF0000000
    slli t5, a0, 16
    li t4, 0x3333
    or t5, t5, t4
    .globl _finish_store
_finish_store:
    sw t5, 0(t6)
1:  j 1b
    .balign 4
_unexpected_trap:
    csrr a0, mcause
    addi a0, a0, 0x100
    j _finish
S
cat > "$sup/uart.c" <<'C'
#include <stdio.h>
static int uart_put(char c, FILE *f) { (void)f; *(volatile unsigned char *)0xF0001000u = (unsigned char)c; return (unsigned char)c; }
static FILE uart = FDEV_SETUP_STREAM(uart_put, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdin = &uart;
FILE *const stdout = &uart;
FILE *const stderr = &uart;
C
cat > "$sup/boardsupport.h" <<'C'
#define CPU_MHZ 1
C
: > "$sup/config.h"
cat > "$sup/boardsupport.c" <<'C'
#include "support.h"
void initialise_board (void) {}
void __attribute__ ((noinline)) start_trigger (void) { __asm__ volatile ("" ::: "memory"); }
void __attribute__ ((noinline)) stop_trigger (void) { __asm__ volatile ("" ::: "memory"); }
C
cat > "$sup/fixed_clock.c" <<'C'
#include <time.h>
static unsigned calls;
clock_t coremark_fixed_clock (void) { return (calls++ & 1) ? 10 * CLOCKS_PER_SEC : 0; }
C

march_of() { case $1 in std) echo rv32im ;; imac) echo rv32imac ;; min) echo rv32i ;; esac; }
core_of() { case $1 in std) echo vexriscv ;; imac) echo vexriscv-imac ;; min) echo vexriscv-min ;; esac; }

# build VARIANT PROG -> $work/V/PROG.elf and .bin
build() {
    local v=$1 p=$2 out=$work/$1 srcs defs
    mkdir -p "$out"
    [ -f "$out/$p.bin" ] && return 0
    if [ "$p" = coremark ]; then
        srcs=("$coremark"/core_*.c "$coremark/simple/core_portme.c" "$sup/fixed_clock.c")
        defs=(-I"$coremark" -I"$coremark/simple" -Dclock=coremark_fixed_clock -DPERFORMANCE_RUN=1
              -DITERATIONS="$cm_iter" -DHAS_FLOAT=0 -DFLAGS_STR='"-O2"')
    else
        srcs=("$embench/support/main.c" "$embench/support/beebsc.c" "$embench/support/board.c"
              "$embench/support/chip.c" "$embench/src/$p"/*.c)
        defs=(-I"$sup" -I"$embench/support" -I"$embench/src/$p" -DHAVE_BOARDSUPPORT_H -DHAVE_CONFIG_H
              -DWARMUP_HEAT="$warmup" -DGLOBAL_SCALE_FACTOR="$gsf")
    fi
    "$cc" -march="$(march_of "$v")" -mabi=ilp32 -misa-spec=2.2 -O2 -ffunction-sections -fdata-sections -Wl,--gc-sections \
        "${defs[@]}" --specs=picolibc.specs -DPICOLIBC_INTEGER_PRINTF_SCANF \
        "$sup/start.S" "$sup/uart.c" "${srcs[@]}" -nostartfiles -T"$sup/litex1m.ld" \
        -Wl,--defsym=__stack_size=64K -Wl,--defsym=__tally_inst_hole_size=0 -o "$out/$p.elf"
    riscv64-unknown-elf-objcopy -O binary "$out/$p.elf" "$out/$p.bin"
}

for v in $variants; do for p in $progs; do build "$v" "$p"; done; done
[ "${BUILD_ONLY:-0}" = 1 ] && exit 0
[ -x "$tally" ] || { echo "embench.sh: $tally: not built" >&2; exit 2; }

printf '%-14s %-4s %s %10s %10s %8s %8s  %s\n' program var W rtl tally diff '%' match | tee -a "$work/results.txt"
for v in $variants; do
    for w in $waits; do
        sed -E "s/^(wait_states[[:space:]]*=[[:space:]]*)[0-9]+/\1$w/" "$top/boards/litex.ini" > "$work/board-w$w.ini"
        for p in $progs; do
            elf=$work/$v/$p.elf; bin=$work/$v/$p.bin; base=$work/$v/$p.w$w
            fpc=$(riscv64-unknown-elf-nm "$elf" | awk '/ _finish_store$/{print $1}')
            if ! line=$(nice "$tbdir/tb-$v" "$bin" -w "$w" -f "$fpc" -m "${MAX_CYCLES:-400000000}" 2>"$base.rtl.out"); then
                printf '%-14s %-4s %s  RTL run failed: %s\n' "$p" "$v" "$w" \
                    "$(tail -1 "$base.rtl.out")" | tee -a "$work/results.txt"
                continue
            fi
            rc=$(echo "$line" | sed -n 's/^cycles=\([0-9]*\).*/\1/p')
            ri=$(echo "$line" | sed -n 's/.* instret=\([0-9]*\).*/\1/p')
            rx=$(echo "$line" | sed -n 's/.* exit=\(-\?[0-9]*\).*/\1/p')
            set +e
            nice "$tally" run -q --core "$(core_of "$v")" --board "$work/board-w$w.ini" \
                --stats-json "$base.json" "$elf" > "$base.tally.out" 2> "$base.tally.err"
            tx=$?
            set -e
            tc=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["cycles"], d["instructions"])' "$base.json" 2>/dev/null) \
                || { printf '%-14s %-4s %s  tally run failed (%s)\n' "$p" "$v" "$w" "$(tail -1 "$base.tally.err")" | tee -a "$work/results.txt"; continue; }
            ti=${tc#* }; tc=${tc% *}
            m=""
            [ "$ti" = "$ri" ] || m="$m instret($ti/$ri)"
            [ $((tx & 255)) = $((rx & 255)) ] || m="$m exit($tx/$rx)"
            cmp -s "$base.tally.out" "$base.rtl.out" || m="$m output"
            printf '%-14s %-4s %s %10s %10s %+8d %+7.2f%%  %s\n' "$p" "$v" "$w" "$rc" "$tc" $((tc - rc)) \
                "$(echo "scale=4; 100 * ($tc - $rc) / $rc" | bc)" "${m:- ok}" | tee -a "$work/results.txt"
        done
    done
done
