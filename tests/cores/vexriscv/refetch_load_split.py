#!/usr/bin/env python3
"""Where the wait of a refetch after a load that missed the D-cache lands
([dcache] refill_refetch), on vexriscv at W = 0: load_use.elf's lw at
0x4000007c misses the D-cache and the add after it, first on the next line,
misses the I-cache; the add's refill goes out during the load's fill and
the load's redo from the fetch waits for it.

  refetch_load_split.py TALLY CORES_DIR BOARD LOAD_USE_ELF

Expected from the RTL (VexRiscv.v of pythondata-cpu-vexriscv 1979a644 in
rtl/soc's SoC at W = 0, its adapter's cycles, `check.py --trace`:
docs/rtl-soc.md): `writeBack_arbitration_isFiring` retires the lw 22
clocks after the instruction before it, 21 of them stall.dcache (the
D-cache's redo), and the add 3 clocks after the lw, 2 of them its wait for
the load (stall.load_use), none a fetch wait. Before, the model retired the
lw a clock early (21, 20 stall.dcache) and gave that clock to the add as
stall.icache (4 cycles). Exit 0 as expected, 1 not."""
import sys

from trace_rows import trace_rows


def first(rows, pc, prev):
    """the first row of pc right after a row of prev"""
    return next((r for q, r in zip(rows, rows[1:]) if r[0] == pc and q[0] == prev), None)


def want(name, row, cycles, sig, n):
    if row is None:
        print(f"refetch_load_split: {name}: not found")
        return False
    sigs = row[2]
    ok = row[1] == cycles and f"{sig}*{n}" in sigs and not any(s.startswith("stall.icache") for s in sigs)
    if not ok:
        print(f"refetch_load_split: {name}: {row[1]} cycles ({' '.join(sigs)}); the RTL's: {cycles} "
              f"({sig}*{n}, no stall.icache)")
    return ok


def main(a):
    if len(a) != 4:
        print(__doc__, file=sys.stderr)
        return 64
    tally, cores, board, load_use = a
    rows = trace_rows(tally, cores, "vexriscv", board, load_use)
    ok = want("load_use.elf's lw", first(rows, 0x4000007C, 0x40000078), 22, "stall.dcache", 21)
    ok = want("load_use.elf's add after it", first(rows, 0x40000080, 0x4000007C), 3, "stall.load_use", 2) and ok
    if ok:
        print("refetch_load_split: the refetch's wait is the missing load's, as on the RTL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
