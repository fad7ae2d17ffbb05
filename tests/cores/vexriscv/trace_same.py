#!/usr/bin/env python3
"""trace_same.py -- a traced run counts the cycles a plain run does.

usage: trace_same.py TALLY BOARD_INI PROG_DIR CORES_DIR PROGRAMS_TXT [KNOWN_TXT]

`tally run --help` promises that --trace changes no cycle; --cycle-trace
steps every instruction, one per block, so both split the blocks a plain
run builds. A core model's rules must not depend on where a block starts.
For every program of PROGRAMS_TXT (its ELF in PROG_DIR) on vexriscv,
vexriscv-imac and vexriscv-min at W = 0 (the board file as given): the
--stats-json of a run with --trace and of one with --cycle-trace are the
plain run's, every field, energy_j too (a traced run counts an uncached
fetch's read as it steps the instruction, a plain run when it folds the
block: vexriscv-min's memory energy must not tell them apart). The expected
value is the plain run's own.
KNOWN_TXT lists "core program" pairs known to differ (a defect each, its
reason beside it): they are reported, not failed, and a listed pair that
agrees fails, so that the list only shrinks.
Exit 0 when all hold, 1 otherwise.
"""
import os
import re
import subprocess
import sys
import tempfile

CORES = ("vexriscv", "vexriscv-imac", "vexriscv-min")


def programs(path):
    with open(path) as f:
        return [m.group(0) for m in (re.match(r"^[a-z_0-9]+", line) for line in f) if m]


def stats(tally, core, board, elf, tmp, extra):
    out = os.path.join(tmp, "stats.json")
    cmd = [tally, "run", "--core", core, "--board", board, "--stats-json", out] + extra + [elf]
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
    with open(out, "rb") as f:
        text = f.read()
    for name in ("stats.json", "trace.txt", "cycles.bin"):
        path = os.path.join(tmp, name)
        if os.path.exists(path):
            os.remove(path)
    return p.returncode, text


def known_pairs(path):
    pairs = set()
    if path:
        with open(path) as f:
            for line in f:
                words = line.split("#", 1)[0].split()
                if len(words) >= 2:
                    pairs.add((words[0], words[1]))
    return pairs


def cycles(text):
    m = re.search(rb'"cycles":\s*(\d+)', text)
    return int(m.group(1)) if m else None


def first_difference(traced, plain):
    """the first line of the traced run's JSON that is not the plain run's"""
    for a, b in zip(traced.splitlines(), plain.splitlines()):
        if a != b:
            return f"{a.decode().strip()} (plain {b.decode().strip()})"
    return "the length"


def main():
    if len(sys.argv) not in (6, 7):
        print(__doc__, file=sys.stderr)
        return 64
    tally, board, prog_dir, cores_dir, listing = sys.argv[1:6]
    known = known_pairs(sys.argv[6] if len(sys.argv) == 7 else None)
    fails = checks = 0
    with tempfile.TemporaryDirectory(prefix="trace_same.") as tmp:
        for core in CORES:
            ini = os.path.join(cores_dir, core + ".ini")
            for prog in programs(listing):
                elf = os.path.join(prog_dir, prog + ".elf")
                rc, plain = stats(tally, ini, board, elf, tmp, [])
                differs = False
                for flag, name in (("--trace", "trace.txt"), ("--cycle-trace", "cycles.bin")):
                    checks += 1
                    rc2, traced = stats(tally, ini, board, elf, tmp, [flag, os.path.join(tmp, name)])
                    if (rc2, traced) != (rc, plain):
                        differs = True
                        listed = (core, prog) in known
                        fails += 0 if listed else 1
                        print(f"{'known' if listed else 'FAIL'}: {core} {prog} W=0: {flag} cycles "
                              f"{cycles(traced)} (exit {rc2}), plain {cycles(plain)} (exit {rc}); "
                              f"first difference: {first_difference(traced, plain)}")
                if (core, prog) in known and not differs:
                    fails += 1
                    print(f"FAIL: {core} {prog} now agrees traced and plain: take it off the known list")
    print(f"trace_same.py: {checks} checks, {fails} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
