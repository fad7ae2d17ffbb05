#!/usr/bin/env python3
"""A deliberately wrong machine, for testing run_random.py itself.

usage: mutant.py run prog.elf

Stands in for `tally run`: runs the program on QEMU, then spoils the result
the way a buggy simulator would, so that the harness must notice. The kind of
damage comes from the environment variable TALLY_RANDOM_MUTANT:

  reg   (default) register x05 is off by one in its lowest bit
  mem   the scratch checksum (and the first dumped scratch word) is wrong
  exit  the exit status is 1 instead of 0
  trap  the trap summary is wrong, but only if the program took a trap: the
        harness's shrinking must then single out the first trapping item
"""

import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True   # keep the source tree clean
from run_random import QEMU_ARGS  # noqa: E402


def flip_last_hex(line):
    head, digit = line[:-1], line[-1]
    return head + "%x" % (int(digit, 16) ^ 1)


def main():
    if len(sys.argv) != 3 or sys.argv[1] != "run":
        print("usage: mutant.py run prog.elf", file=sys.stderr)
        return 2
    mode = os.environ.get("TALLY_RANDOM_MUTANT", "reg")
    p = subprocess.run(["qemu-system-riscv32"] + QEMU_ARGS + ["-kernel", sys.argv[2]],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
    lines = p.stdout.decode().split("\n")
    status = p.returncode
    done = False
    for i, ln in enumerate(lines):
        if done:
            break
        if mode == "reg" and ln.startswith("x05 "):
            lines[i], done = flip_last_hex(ln), True
        elif mode == "mem" and (ln.startswith("mem ") or re.match(r"w[0-9a-f]{3} ", ln)):
            lines[i] = flip_last_hex(ln)
            done = ln.startswith("w")
        elif mode == "trap" and ln.startswith("trp ") and not ln.startswith("trp 00000000 "):
            lines[i], done = flip_last_hex(ln), True
    if mode == "exit" and status == 0:
        status = 1
    sys.stdout.write("\n".join(lines))
    return status


if __name__ == "__main__":
    sys.exit(main())
