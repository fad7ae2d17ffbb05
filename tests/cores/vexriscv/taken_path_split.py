#!/usr/bin/env python3
"""How a taken-path refill's wait is split between a jump and its target
([pipeline] taken_path_fill): alu.elf's main loop bne (0x400000bc), taken
backward from its line's last word while the next line misses, on
vexriscv-imac at W = 0.

  taken_path_split.py TALLY CORES_DIR BOARD ALU_ELF

Expected from the RTL (VexRiscv_IMAC.v of pythondata-cpu-vexriscv 1979a644
in rtl/soc's SoC at W = 0, its adapter's cycles, `check.py --trace`:
docs/rtl-soc.md): the bne issues at 289 and retires at 290 with its taken
bubble; the refill of the next line goes out at 291 and its target
(0x4000005c, whose line hits) retires at 309: the bne 2 cycles (its miss,
its bubble), the target 19, 18 of them stall.icache (before, the model
gave the bne 20 cycles, its wait before its issue, and the target 1).
Exit 0 as expected, 1 not."""
import sys

from trace_rows import trace_rows

BNE, TARGET = 0x400000bc, 0x4000005c


def main(a):
    if len(a) != 4:
        print(__doc__, file=sys.stderr)
        return 64
    tally, cores, board, elf = a
    rows = trace_rows(tally, cores, "vexriscv-imac", board, elf)
    # the first pass of the loop whose bne refills the next line
    at = next((i for i, (pc, _n, sigs) in enumerate(rows[:-1]) if pc == BNE and "icache.miss" in sigs), None)
    if at is None or rows[at + 1][0] != TARGET:
        print("taken_path_split: no taken-path refill at the bne followed by its target")
        return 1
    b, t = rows[at], rows[at + 1]
    if b[1] != 2 or "stall.branch" not in b[2] or t[1] != 19 or "stall.icache*18" not in t[2]:
        print(f"taken_path_split: the bne {b[1]} cycles ({' '.join(b[2])}), its target {t[1]} "
              f"({' '.join(t[2])}); the RTL's: 2 (its bubble) and 19 (stall.icache*18)")
        return 1
    print("taken_path_split: the bne retires on time and its target waits for the refill, as on the RTL")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
