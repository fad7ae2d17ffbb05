#!/usr/bin/env python3
"""Where the wait for a late result lands after a load's redo ([dcache]
refill_refetch), on vexriscv at W = 0: dcache.elf's last loop, lw t1 and
lw t3 (each missing the D-cache), then add a0,a0,t1 at 0x400000b8 and
add a0,a0,t3 at 0x400000bc.

  redo_late_split.py TALLY CORES_DIR BOARD DCACHE_ELF

Expected from the RTL (VexRiscv.v of pythondata-cpu-vexriscv 1979a644 in
rtl/soc's SoC at W = 0, its adapter's cycles, `check.py --trace`:
docs/rtl-soc.md): `writeBack_arbitration_isFiring` retires the first add
1 clock after the second lw (t1 was written long before that load's
redo) and the second add 2 clocks after the first, 1 of them its wait for
t3 (stall.load_use), on each of the loop's 30 passes. Before, the model's
static layout gave that wait to the first add (for lw t1) and none to the
second. Exit 0 as expected, 1 not."""
import sys

from trace_rows import trace_rows

LW_T3, ADD_T1, ADD_T3 = 0x400000B4, 0x400000B8, 0x400000BC


def main(a):
    if len(a) != 4:
        print(__doc__, file=sys.stderr)
        return 64
    tally, cores, board, dcache = a
    rows = trace_rows(tally, cores, "vexriscv", board, dcache)
    seen = bad = 0
    for p, q, r in zip(rows, rows[1:], rows[2:]):
        if p[0] != LW_T3 or q[0] != ADD_T1 or r[0] != ADD_T3:
            continue
        seen += 1
        if q[1] != 1 or q[2] or r[1] != 2 or "stall.load_use" not in r[2]:
            bad += 1
            if bad == 1:
                print(f"redo_late_split: add t1 {q[1]} cycles ({' '.join(q[2])}), add t3 {r[1]} ({' '.join(r[2])}); "
                      "the RTL's: 1 (nothing), 2 (stall.load_use)")
    if seen != 30:
        print(f"redo_late_split: {seen} passes of the last loop found, not 30")
        return 1
    if bad:
        print(f"redo_late_split: {bad} of 30 passes not as on the RTL")
        return 1
    print("redo_late_split: the wait after the load's redo is the second add's, as on the RTL")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
