#!/usr/bin/env python3
"""How a jump's wrong-path wait and its target's refill are split between
the two ([pipeline] wrong_path_tail): crt.S's jalr into main, whose wrong
path's next line and whose target's line both miss, on alu.elf at W = 0.

  wrong_path_split.py TALLY CORES_DIR BOARD ALU_ELF

Expected from the RTL (VexRiscv.v and VexRiscv_IMAC.v of
pythondata-cpu-vexriscv 1979a644 in rtl/soc's SoC at W = 0, its adapter's
cycles, `check.py --trace`: docs/rtl-soc.md): the jalr (0x40000018) waits
while the wrong-path refill is on the I-bus, then its 3 bubbles; main's
first instruction waits for the rest, its own line's refill after the
wrong-path line is written: on vexriscv the jalr 19 cycles (15
stall.icache) and main's first 24, on vexriscv-imac 18 (14) and 23
(without the rule the jalr takes 22 and 21, main's first 21 and 20).
Exit 0 as expected, 1 not."""
import sys

from trace_rows import trace_rows

JALR, MAIN = 0x40000018, 0x40000044


def first_rows(tally, cores, core, board, elf):
    """{pc: (cycles, signals)} of the first row of each of JALR and MAIN."""
    got = {}
    for pc, n, sigs in trace_rows(tally, cores, core, board, elf):
        if pc in (JALR, MAIN):
            got.setdefault(pc, (n, sigs))
    return got


def main(a):
    if len(a) != 4:
        print(__doc__, file=sys.stderr)
        return 64
    tally, cores, board, elf = a
    bad = 0
    for core, jalr, icache, main_first in (("vexriscv", 19, 15, 24), ("vexriscv-imac", 18, 14, 23)):
        got = first_rows(tally, cores, core, board, elf)
        j, m = got.get(JALR, (0, [])), got.get(MAIN, (0, []))
        want_sig = f"stall.icache*{icache}"
        if j[0] != jalr or want_sig not in j[1] or "stall.jump*3" not in j[1] or m[0] != main_first:
            bad += 1
            print(f"wrong_path_split: {core}: the jalr {j[0]} cycles ({' '.join(j[1])}), main's first {m[0]}; "
                  f"the RTL's: {jalr} ({want_sig}, stall.jump*3) and {main_first}")
    if not bad:
        print("wrong_path_split: the jalr's wait ends with the wrong-path burst, as on the RTL")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
