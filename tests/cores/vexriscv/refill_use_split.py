#!/usr/bin/env python3
"""How the wait of an instruction first on a line that misses is named when
it also uses a late result of the instruction before it ([pipeline]
fetch_ahead: its own wait passes during the refill), on vexriscv at W = 0:
shifts.elf's add after srl (0x40000060), muldiv.elf's add after mul
(0x40000060) and after div (0x40000080, its line refilled during the
divide).

  refill_use_split.py TALLY CORES_DIR BOARD SHIFTS_ELF MULDIV_ELF

Expected from the RTL (VexRiscv.v of pythondata-cpu-vexriscv 1979a644 in
rtl/soc's SoC at W = 0, its adapter's cycles, `check.py --trace`:
docs/rtl-soc.md): the srl retires at 212 and the add at 233, the I-bus
reading the add's line from 213 on: 21 cycles, 20 of them stall.icache
(before, the model gave the last of them to stall.load_use); muldiv.elf's
add after mul the same (21, 20 stall.icache; before, 2 of them
stall.load_use); the add after div retires 4 clocks after the div, its
line refilled during the divide and fetched again once the div moves on,
as the remu after the next div (which uses nothing of it) does: 4 cycles,
3 stall.icache (before, 1 of them stall.load_use). Exit 0 as expected, 1
not."""
import sys

from trace_rows import trace_rows


def first(rows, pc, prev):
    """the first row of pc right after a row of prev"""
    return next((r for q, r in zip(rows, rows[1:]) if r[0] == pc and q[0] == prev), None)


def want(name, row, cycles, icache):
    if row is None:
        print(f"refill_use_split: {name}: not found")
        return False
    sigs = row[2]
    ok = row[1] == cycles and f"stall.icache*{icache}" in sigs and not any(s.startswith("stall.load_use") for s in sigs)
    if not ok:
        print(f"refill_use_split: {name}: {row[1]} cycles ({' '.join(sigs)}); the RTL's: {cycles} "
              f"(stall.icache*{icache}, no stall.load_use)")
    return ok


def main(a):
    if len(a) != 5:
        print(__doc__, file=sys.stderr)
        return 64
    tally, cores, board, shifts, muldiv = a
    rows = trace_rows(tally, cores, "vexriscv", board, shifts)
    ok = want("shifts.elf's add after srl", first(rows, 0x40000060, 0x4000005C), 21, 20)
    rows = trace_rows(tally, cores, "vexriscv", board, muldiv)
    ok = want("muldiv.elf's add after mul", first(rows, 0x40000060, 0x4000005C), 21, 20) and ok
    ok = want("muldiv.elf's add after div", first(rows, 0x40000080, 0x4000007C), 4, 3) and ok
    if ok:
        print("refill_use_split: a late result used first on a missing line waits within the refill, as on the RTL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
