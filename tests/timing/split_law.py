#!/usr/bin/env python3
"""The statistics module perturbs nothing, on every core model.

  split_law.py TALLY CORES_DIR WORKLOADS_DIR...

Counting with the module splits the run at every dispatch (its horizon,
docs/statmod.md): blocks that would cross one are run in shorter prefixes or
single-stepped. A core model whose rules carry state from one instruction to
the next (late results, a refill overlapping the instruction ahead, a write
buffer) must give the same cycles whichever way the instructions were
grouped. The law: `tally run --count cycle --interval N` reports the same
cycles for N = 7, 97 and a period longer than the run, for every model in
CORES_DIR, on Dhrystone-style code (rv32i: every model runs it) and, on the
models with compressed code and interrupts, on the RTOS pipeline (a timer
tick, context switches, traps). The expected value is the run's own cycles
without any split; nothing here is a number of tally's.
Exit 0 when the law holds everywhere, 1 otherwise.
"""
import glob
import os
import re
import subprocess
import sys

INTERVALS = ["7", "97", "4000000000"]
CYCLES_RE = re.compile(r"^\s+cycles\s+([\d,]+)\s*$", re.M)


def isa_of(ini):
    """The model's `isa =` (all of rv32imac when it names none)."""
    with open(ini) as f:
        m = re.search(r"^\s*isa\s*=\s*(\S+)", f.read(), re.M)
    return m.group(1) if m else "rv32imac"


def takes_interrupts(ini):
    with open(ini) as f:
        return not re.search(r"^\s*micro_arch\s*=\s*picorv32\b", f.read(), re.M)


def cycles(tally, core, elf, arg, interval):
    p = subprocess.run([tally, "run", "--core", core, "--no-store", "--interval", interval, "--count", "cycle",
                        elf, arg], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=120)
    text = p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace")
    m = CYCLES_RE.search(text)
    return (int(m.group(1).replace(",", "")) if m else None), p.returncode, text


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 64
    tally, cores_dir, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]

    def find(name):
        for d in dirs:
            p = os.path.join(d, name)
            if os.path.exists(p):
                return p
        return None

    failures = checks = 0
    for ini in sorted(glob.glob(os.path.join(cores_dir, "*.ini"))):
        core = os.path.splitext(os.path.basename(ini))[0]
        runs = [("rv32i/dhrystone.elf", "40")]
        isa = isa_of(ini)
        if "c" in isa[4:] and takes_interrupts(ini):
            runs += [("rv32imac/dhrystone.elf", "40"), ("rv32imac/rtos_pipeline.elf", "20")]
        for rel, arg in runs:
            elf = find(rel)
            if not elf:
                print(f"FAIL: {rel} not built")
                failures += 1
                continue
            got = [cycles(tally, core, elf, arg, iv) for iv in INTERVALS]
            checks += 1
            whole = got[-1][0]
            if whole is None or got[-1][1] != 0:
                failures += 1
                print(f"FAIL: {core} {rel} {arg}: no cycles (status {got[-1][1]}):\n{got[-1][2]}")
                continue
            for iv, (c, st, _) in zip(INTERVALS[:-1], got[:-1]):
                if c != whole:
                    failures += 1
                    print(f"FAIL: {core} {rel} {arg}: {c} cycles counted every {iv}, {whole} unsplit")
    print(f"{checks} runs on {len(glob.glob(os.path.join(cores_dir, '*.ini')))} core models, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
