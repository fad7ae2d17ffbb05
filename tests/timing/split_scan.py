#!/usr/bin/env python3
"""Scan rand_gen.py's random programs for runs that break the split law.

The split law (split_law.py, timing.split_law): `tally run --interval N`
counts the same cycles and the same total of every stall signal as the run
without any split. This builds the random program of each seed in a range
for a VexRiscv variant (as rtl/cores/vexriscv/rand_sweep.py builds it), runs
it unsplit and split every N cycles for each N given, and prints one line a
program that differs:

  VARIANT SEED [(N, signal, split total, unsplit total), ...]

then a summary (how many differ, the largest cycle difference). With
--wait W, on a copy of the board with every region's wait_states set to W. Exit 0 when
no program differs, 1 when one does, 2 on a usage or build error.
"""
import argparse
import os
import re
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "rtl", "cores", "vexriscv"))
import split_law  # noqa: E402  (totals, SIGNALS)
import rand_sweep  # noqa: E402  (build)

CORES = {"imac": "vexriscv-imac", "std": "vexriscv", "min": "vexriscv-min"}
UNSPLIT = "4000000000"


def seeds_of(text):
    """'1-40' or '7' or '1-5,19'"""
    out = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tally", help="the tally binary (build/tally)")
    ap.add_argument("--seeds", default="1-40", help="seed range, e.g. 1-40 or 4,7,19 (default 1-40)")
    ap.add_argument("--variant", action="append", choices=sorted(CORES),
                    help="VexRiscv variant (repeatable; default imac and std)")
    ap.add_argument("--intervals", default="500,97", help="split periods, comma-separated (default 500,97)")
    ap.add_argument("--board", default=os.path.join(ROOT, "boards", "litex.ini"), help="board .ini (default LiteX)")
    ap.add_argument("--wait", type=int, help="run on a copy of the board with every region's wait_states set to W")
    ap.add_argument("--cc", default="riscv64-unknown-elf-gcc", help="cross compiler (default %(default)s)")
    ap.add_argument("--work", help="where to build the programs (default a temporary directory, removed)")
    a = ap.parse_args()
    if not (os.path.isfile(a.tally) and os.access(a.tally, os.X_OK)):
        ap.error(f"{a.tally}: not an executable")
    if not os.path.isfile(a.board):
        ap.error(f"{a.board}: no such board")
    if not shutil.which(a.cc):
        ap.error(f"{a.cc}: cross compiler not found (--cc)")
    try:
        seeds = seeds_of(a.seeds)
        intervals = [str(int(i)) for i in a.intervals.split(",")]
    except ValueError:
        ap.error("--seeds takes e.g. 1-40 or 4,7,19; --intervals e.g. 500,97")
    variants = a.variant or ["imac", "std"]
    work = a.work or tempfile.mkdtemp(prefix="split_scan.")
    csv = os.path.join(work, "intervals.csv")
    board = a.board
    if a.wait is not None:
        # the board with every region's wait_states set to W, as split_law.py's --wait
        with open(a.board) as f:
            text = re.sub(r"(?m)^(wait_states\s*=\s*)\d+", lambda m: m.group(1) + str(a.wait), f.read())
        os.makedirs(work, exist_ok=True)
        board = os.path.join(work, f"w{a.wait}.ini")
        with open(board, "w") as f:
            f.write(text)
    bad = total = 0
    worst = None
    try:
        for v in variants:
            for s in seeds:
                try:
                    bin_, _ = rand_sweep.build(work, s, v, a.cc)
                except Exception as e:  # noqa: BLE001
                    print(f"{v} {s}: build failed: {e}", file=sys.stderr)
                    return 2
                elf = bin_[:-4] + ".elf"
                res = {}
                for n in [UNSPLIT] + intervals:
                    res[n], rc, text = split_law.totals(a.tally, CORES[v], elf, None, n, csv, board)
                    if res[n] is None:
                        print(f"{v} {s} --interval {n}: no totals (status {rc}): {text.strip()[-300:]}",
                              file=sys.stderr)
                        return 2
                total += 1
                diff = [(n, g, res[n][g], res[UNSPLIT][g]) for n in intervals for g in split_law.SIGNALS
                        if res[n][g] != res[UNSPLIT][g]]
                if diff:
                    bad += 1
                    print(v, s, diff, flush=True)
                    d = max((abs(x[2] - x[3]), x) for x in diff if x[1] == "cycle") if any(
                        x[1] == "cycle" for x in diff) else (0, diff[0])
                    if worst is None or d[0] > worst[0]:
                        worst = (d[0], v, s, d[1])
    finally:
        if not a.work:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{bad} of {total} programs differ split from unsplit"
          + (f"; worst: {worst[1]} rand_{worst[2]}, cycle {worst[3][2]} every {worst[3][0]} ({worst[3][3]} unsplit)"
             if worst else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
