#!/usr/bin/env python3
"""Where a trap's cycles end on vexriscv-min: the trapping instruction's
cycles run to the clock the RTL takes the trap from write-back
(CsrPlugin_exception), the handler's first instruction's from there to its
retire, for an illegal instruction as for an ecall.

  trap_split.py TALLY CORES_DIR BOARD TRAPS_ELF MULDIV_ELF

Expected from the RTL (VexRiscv_Min.v of pythondata-cpu-vexriscv 1979a644,
the SoC of rtl/soc at W = 0, its adapter's cycles: docs/rtl-soc.md): on
traps.elf the ecall at main+0x20 takes 2 cycles the first time and 6 after
the loop's mispredicted bne, the illegal word at main+0x28 2, and the
handler's first instruction 8 after each of the 50 traps; on muldiv.elf
(rv32im on a core without M) the mul at main+0x18 takes 2 and the handler's
first instruction 8. Exit 0 as expected, 1 not."""
import sys

from trace_rows import trace_rows


def traps(tally, cores, board, elf):
    """(pc, cycles, handler pc, handler cycles) for each trap of the run."""
    rows = trace_rows(tally, cores, "vexriscv-min", board, elf)
    return [(pc, n, rows[i + 1][0], rows[i + 1][1])
            for i, (pc, n, sigs) in enumerate(rows) if "trap" in sigs and i + 1 < len(rows)]


def main(a):
    if len(a) != 5:
        print(__doc__, file=sys.stderr)
        return 64
    tally, cores, board, traps_elf, muldiv_elf = a
    want = [(0x40000064, 2, 0x4000009c, 8), (0x4000006c, 2, 0x4000009c, 8)]
    want += [(0x40000064, 6, 0x4000009c, 8), (0x4000006c, 2, 0x4000009c, 8)] * 24
    bad = 0
    for elf, exp in ((traps_elf, want), (muldiv_elf, [(0x4000005c, 2, 0x40000038, 8)])):
        got = traps(tally, cores, board, elf)
        if got != exp:
            bad += 1
            diff = next((i for i, (g, e) in enumerate(zip(got, exp)) if g != e), min(len(got), len(exp)))
            print(f"trap_split: {elf}: {len(got)} traps (want {len(exp)}); trap {diff}: "
                  f"{got[diff:diff + 1]} where the RTL has {exp[diff:diff + 1]}")
    if not bad:
        print("trap_split: every trap's cycles end where the RTL takes it")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
