#!/usr/bin/env python3
"""How a refill's wait is split between a load replayed after a store and
the instruction that missed ([dcache] store_load_replay with [pipeline]
fetch_ahead_data): hazards.elf's lw a4, 4(a1) (0x40000098) right after
sw a3, 4(a1), then andi of a4 and an add (0x400000a0) on a line that
misses, on vexriscv-imac at W = 0.

  replay_split.py TALLY CORES_DIR BOARD HAZARDS_ELF

Expected from the RTL (VexRiscv_IMAC.v of pythondata-cpu-vexriscv 1979a644
in rtl/soc's SoC at W = 0, its adapter's cycles, `check.py --trace`:
docs/rtl-soc.md): the lw issues at 284 and retires at 305, its redo having
waited for the add's refill; the andi retires at 308 and the add, its line
refilled, at 309: the lw 22 cycles (21 stall.dcache), the andi 3, the add 1
with its miss (before, the model gave the lw 6 cycles, 5 stall.dcache, and
the add 17, 16 stall.icache). Exit 0 as expected, 1 not."""
import sys

from trace_rows import trace_rows

LW, ANDI, ADD = 0x40000098, 0x4000009C, 0x400000A0


def main(a):
    if len(a) != 4:
        print(__doc__, file=sys.stderr)
        return 64
    tally, cores, board, elf = a
    rows = trace_rows(tally, cores, "vexriscv-imac", board, elf)
    # the first pass, whose add refills its line
    at = next((i for i, (pc, _n, sigs) in enumerate(rows[:-2])
               if pc == LW and rows[i + 2][0] == ADD and "icache.miss" in rows[i + 2][2]), None)
    if at is None or rows[at + 1][0] != ANDI:
        print("replay_split: no lw, andi, then an add that misses")
        return 1
    lw, andi, add = rows[at], rows[at + 1], rows[at + 2]
    if lw[1] != 22 or "stall.dcache*21" not in lw[2] or andi[1] != 3 or add[1] != 1:
        print(f"replay_split: the lw {lw[1]} cycles ({' '.join(lw[2])}), the andi {andi[1]}, the add {add[1]} "
              f"({' '.join(add[2])}); the RTL's: 22 (stall.dcache*21), 3 and 1")
        return 1
    print("replay_split: the replayed lw waits for the refill and the add does not, as on the RTL")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
