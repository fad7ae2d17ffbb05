#!/usr/bin/env python3
"""How a refill's wait is split between a load that missed the D-cache and
a jal's target whose line misses ([pipeline] fetch_ahead_data with
fetch_ahead_insns 2): sort.elf's lw at 0x400000ac (a D-cache miss), the addi
after it, then the jal at 0x400000b4 to 0x400000c4 on a line that misses,
all three and the jal's next word on one line, on vexriscv-imac at W = 0.

  dmiss_jal_split.py TALLY CORES_DIR BOARD SORT_ELF

Expected from the RTL (VexRiscv_IMAC.v of pythondata-cpu-vexriscv 1979a644
in rtl/soc's SoC at W = 0, its adapter's cycles, `check.py --trace`:
docs/rtl-soc.md): the lw issues at 5075 and retires at 5098, its redo having
waited for the target's refill (23 stall.dcache); the addi retires at 5099,
the jal at 5101 (its bubble) and the target, with its icache.miss, at 5102:
the lw 24 cycles, the addi 1, the jal 2, the target 1 (before, the model gave
the lw 21 cycles, 20 stall.dcache, and the target 4, 3 stall.icache). Exit 0
as expected, 1 not."""
import sys

from trace_rows import trace_rows

LW, ADDI, JAL, TARGET = 0x400000AC, 0x400000B0, 0x400000B4, 0x400000C4


def main(a):
    if len(a) != 4:
        print(__doc__, file=sys.stderr)
        return 64
    tally, cores, board, elf = a
    rows = trace_rows(tally, cores, "vexriscv-imac", board, elf)
    # the first pass, whose target refills its line
    at = next((i for i, (pc, _n, sigs) in enumerate(rows[:-3])
               if pc == LW and rows[i + 3][0] == TARGET and "icache.miss" in rows[i + 3][2]), None)
    if at is None or rows[at + 1][0] != ADDI or rows[at + 2][0] != JAL:
        print("dmiss_jal_split: no lw, addi, jal, then a target that misses")
        return 1
    lw, addi, jal, tgt = rows[at:at + 4]
    if lw[1] != 24 or "stall.dcache*23" not in lw[2] or addi[1] != 1 or jal[1] != 2 or tgt[1] != 1:
        print(f"dmiss_jal_split: the lw {lw[1]} cycles ({' '.join(lw[2])}), the addi {addi[1]}, the jal {jal[1]}, "
              f"the target {tgt[1]} ({' '.join(tgt[2])}); the RTL's: 24 (stall.dcache*23), 1, 2 and 1")
        return 1
    print("dmiss_jal_split: the lw waits for the jal target's refill and the target does not, as on the RTL")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
