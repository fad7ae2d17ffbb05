#!/usr/bin/env python3
"""The statistics module perturbs nothing, on every core model.

  split_law.py TALLY CORES_DIR WORKLOADS_DIR... [--board BOARD_INI [--wait W,...] ELF...]

(an ELF given as rand:SEED:VARIANT:CC is rand_gen.py's program of that
seed for that variant, built with the cross compiler CC as
rtl/cores/vexriscv/rand_sweep.py builds it)

Counting with the module splits the run at every dispatch (its horizon,
docs/statmod.md): blocks that would cross one are run in shorter prefixes or
single-stepped. A core model whose rules carry state from one instruction to
the next (late results, a refill overlapping the instruction ahead, a write
buffer) must give the same cycles whichever way the instructions were
grouped, and count each of them as the same signal. The law: `tally run
--interval N` counts the same cycles and the same totals of every stall
signal (SIGNALS) for N = 7, 97 and a period longer than the run, for every
model in CORES_DIR, on Dhrystone-style code (rv32i: every model runs it)
and, on the models with compressed code and interrupts, on the RTOS
pipeline (a timer tick, context switches, traps). The expected values are
the run's own totals without any split; nothing here is a number of tally's.
With --board, the VexRiscv models (vexriscv*.ini) also run each ELF on that
board (tests/cores/vexriscv's programs on the LiteX board: I-cache misses
next to late results), whatever their exit status, as long as it is the
same split or not; with --wait, also on copies of that board with every
region's wait_states set to each W (dcache.elf on vexriscv-imac at W = 1
counted 28,591 cycles every 1,000, 28,592 unsplit, as on the RTL: an lw
that misses, first in a prefix stepped before the dispatch at 27,000, made
its D-bus access a cycle late, after the entry wait of the add behind it).
Exit 0 when the law holds everywhere, 1 otherwise.
"""
import csv as _csv
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

INTERVALS = ["7", "97", "4000000000"]
# the board runs also at periods long enough for whole blocks to run between
# dispatches and prefixes to be stepped before each (below some 300 cycles
# the VexRiscv models' block bounds leave only steps): load_use.elf on
# vexriscv counted 13,050 cycles every 1,000 (13,021 unsplit) when a
# prefix's entry wait passed a wait of the block's own and both were charged
BOARD_INTERVALS = ["7", "97", "500", "1000", "4000000000"]
SIGNALS = ["cycle", "stall", "stall.icache", "stall.load_use", "stall.muldiv", "stall.dcache",
           "stall.write_buffer", "stall.branch", "stall.jump", "stall.system"]


def isa_of(ini):
    """The model's `isa =` (all of rv32imac when it names none)."""
    with open(ini) as f:
        m = re.search(r"^\s*isa\s*=\s*(\S+)", f.read(), re.M)
    return m.group(1) if m else "rv32imac"


def takes_interrupts(ini):
    with open(ini) as f:
        return not re.search(r"^\s*micro_arch\s*=\s*picorv32\b", f.read(), re.M)


def totals(tally, core, elf, arg, interval, csv, board=None):
    """The run's total of each of SIGNALS (the intervals CSV's total row), or None."""
    cmd = [tally, "run", "--core", core, "--no-store", "--interval", interval, "--intervals-csv", csv]
    if board:
        cmd += ["--board", board]
    for sig in SIGNALS:
        cmd += ["--count", sig]
    p = subprocess.run(cmd + [elf] + ([arg] if arg else []), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    text = p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace")
    try:
        with open(csv, newline="") as f:
            rows = list(_csv.reader(f))
        os.remove(csv)
    except OSError:
        return None, p.returncode, text
    total = [r for r in rows if r and r[0] == "total"]
    if not total or len(total[-1]) < 3 + len(SIGNALS):
        return None, p.returncode, text
    # interval, cycle_begin, cycle_end, then one column per counter
    return dict(zip(SIGNALS, (int(v) for v in total[-1][3:3 + len(SIGNALS)]))), p.returncode, text


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 64
    args, board = sys.argv[1:], None
    if "--board" in args:
        i = args.index("--board")
        if len(args) < i + 3:
            print(__doc__, file=sys.stderr)
            return 64
        board, elfs, args = args[i + 1], args[i + 2:], args[:i]
    waits = []
    if board and elfs[:1] == ["--wait"]:
        if len(elfs) < 3:
            print(__doc__, file=sys.stderr)
            return 64
        waits, elfs = elfs[1].split(","), elfs[2:]
    tally, cores_dir, dirs = args[0], args[1], args[2:]

    def find(name):
        for d in dirs:
            p = os.path.join(d, name)
            if os.path.exists(p):
                return p
        return None

    failures = checks = 0
    tmp = tempfile.mkdtemp(prefix="split_law.")
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
            got = [totals(tally, core, elf, arg, iv, os.path.join(tmp, "i.csv")) for iv in INTERVALS]
            checks += 1
            whole = got[-1][0]
            if whole is None or got[-1][1] != 0:
                failures += 1
                print(f"FAIL: {core} {rel} {arg}: no totals (status {got[-1][1]}):\n{got[-1][2]}")
                continue
            for iv, (c, st, text) in zip(INTERVALS[:-1], got[:-1]):
                if c is None:
                    failures += 1
                    print(f"FAIL: {core} {rel} {arg}: no totals counted every {iv} (status {st}):\n{text}")
                    continue
                for sig in SIGNALS:
                    if c[sig] != whole[sig]:
                        failures += 1
                        print(f"FAIL: {core} {rel} {arg}: {sig} {c[sig]} counted every {iv}, {whole[sig]} unsplit")
    boards = [board] if board else []
    for w in waits:
        # the board with every region's wait_states set to w
        with open(board) as f:
            text = re.sub(r"(?m)^(wait_states\s*=\s*)\d+", lambda m: m.group(1) + w, f.read())
        boards.append(os.path.join(tmp, f"w{w}.ini"))
        with open(boards[-1], "w") as f:
            f.write(text)
    # rand:SEED:VARIANT:CC: the random program of rand_gen.py's SEED for
    # VARIANT, built here as rtl/cores/vexriscv/rand_sweep.py builds it
    built = []
    for elf in elfs:
        if elf.startswith("rand:"):
            seed, variant, cc = elf.split(":", 3)[1:]
            sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "rtl", "cores",
                                            "vexriscv"))
            import rand_sweep
            try:
                bin_, _ = rand_sweep.build(os.path.join(tmp, "rand"), int(seed), variant, cc)
                built.append(bin_[:-len(".bin")] + ".elf")
            except (OSError, subprocess.CalledProcessError) as e:
                print(f"FAIL: {elf} not built: {e}")
                failures += 1
        else:
            built.append(elf)
    elfs = built
    for ini, board in [(i, b) for i in sorted(glob.glob(os.path.join(cores_dir, "vexriscv*.ini"))) for b in boards]:
        core = os.path.splitext(os.path.basename(ini))[0]
        for elf in elfs:
            if not os.path.exists(elf):
                print(f"FAIL: {elf} not built")
                failures += 1
                continue
            got = [totals(tally, core, elf, None, iv, os.path.join(tmp, "i.csv"), board) for iv in BOARD_INTERVALS]
            checks += 1
            name = f"{core} --board {os.path.basename(board)} {os.path.basename(elf)}"
            for iv, (c, st, text) in zip(BOARD_INTERVALS, got):
                if c is None or st != got[-1][1]:
                    failures += 1
                    print(f"FAIL: {name}: no totals counted every {iv} (status {st}):\n{text}")
                    break
            else:
                for iv, (c, _, _) in zip(BOARD_INTERVALS[:-1], got[:-1]):
                    for sig in SIGNALS:
                        if c[sig] != got[-1][0][sig]:
                            failures += 1
                            print(f"FAIL: {name}: {sig} {c[sig]} counted every {iv}, {got[-1][0][sig]} unsplit")
    print(f"{checks} runs on {len(glob.glob(os.path.join(cores_dir, '*.ini')))} core models, {failures} failed")
    for b in boards[1:]:
        os.remove(b)
    shutil.rmtree(tmp)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
