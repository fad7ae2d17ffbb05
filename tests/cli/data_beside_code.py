#!/usr/bin/env python3
"""data_beside_code.py TALLY ELF -- stores beside the code keep the blocks.

tests/programs/data_beside_code.S stores 1000 rounds into data in the last
256-byte chunk of its code, then patches an instruction of that chunk. Under
the translator, functional and timed (tally5): the run passes its own checks
(exit 0: the patch was seen) and translates fewer blocks than the loop has
rounds. Dropping every block at each such store (what a store into a
chunk with code did before) translates the loop's block again each round:
more than 1000.
"""
import re
import subprocess
import sys

ROUNDS = 1000


def main():
    tally, elf = sys.argv[1], sys.argv[2]
    bad = 0
    for extra in ([], ["--core", "tally5"]):
        cmd = [tally, "run", "-v", "--engine", "jit", *extra, elf]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        m = re.search(r"engine jit: ([\d,]+) blocks translated", r.stderr)
        what = " ".join(cmd[2:])
        if r.returncode != 0:
            print(f"FAIL {what}: exit {r.returncode}\n{r.stderr}")
            bad += 1
            continue
        if not m:
            print(f"FAIL {what}: no 'blocks translated' line in -v's report\n{r.stderr}")
            bad += 1
            continue
        n = int(m.group(1).replace(",", ""))
        ok = n < ROUNDS
        print(f"{'ok  ' if ok else 'FAIL'} {what}: {n} blocks translated ({ROUNDS} rounds of stores)")
        bad += not ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
