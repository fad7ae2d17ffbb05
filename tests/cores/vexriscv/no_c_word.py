#!/usr/bin/env python3
"""On a core without the C extension there are no 16-bit instructions: a
word whose low two bits are not 11 is an illegal 32-bit instruction, so it
issues no `compressed` pulse (VexRiscv.v and VexRiscv_Min.v decode every
word as 32 bits; the SoC's adapter, rtl/soc, gives `compressed` on the IMAC
variant only).

  no_c_word.py TALLY CORES_DIR BOARD TRAPS_ELF

traps.elf's `.word 0` at main+0x28 (0x4000006c) traps 25 times; on
vexriscv-min and vexriscv (rv32im) its rows in `tally run --trace` carry
the trap and no `compressed`, and the run counts no `compressed` at all.
Exit 0 as expected, 1 not."""
import sys

from trace_rows import trace_rows

WORD = 0x4000006C


def rows(tally, cores, core, board, elf):
    """(pc, signals) of each row of the run's trace."""
    return [(pc, sigs) for pc, _, sigs in trace_rows(tally, cores, core, board, elf)]


def main(a):
    if len(a) != 4:
        print(__doc__, file=sys.stderr)
        return 64
    tally, cores, board, elf = a
    bad = 0
    for core in ("vexriscv-min", "vexriscv"):
        got = rows(tally, cores, core, board, elf)
        word = [s for pc, s in got if pc == WORD]
        comp = sum("compressed" in s for _, s in got)
        if len(word) != 25 or any("trap" not in s for s in word) or comp:
            bad += 1
            print(f"no_c_word: {core}: the word at {WORD:#x} ran {len(word)} times (want 25, each a trap); "
                  f"{comp} rows with `compressed` (want 0)")
    if not bad:
        print("no_c_word: the zero word is an illegal 32-bit instruction on both cores")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
