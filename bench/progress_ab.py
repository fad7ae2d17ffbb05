#!/usr/bin/env python3
"""Does tally run's progress line cost anything? --progress against
--no-progress on the same workload, the two alternating run by run so that
a slow moment of the shared machine hits both (and --no-progress against
itself, to show the machine's noise on the same scale).

usage: bench/progress_ab.py [--tally build/tally] [--elf ELF] [--size N] [--runs N] [-- EXTRA tally run options]

Prints, per pair of commands, the median user+system CPU time of each and
the median of the per-pair ratios A/B. With stderr a pipe, --progress
writes a whole line per update (every second), which is the path a
terminal takes too (the same slices, clock reads and line), less the
terminal itself. Standard library only. Results: bench/progress.md.
"""
import argparse
import resource
import statistics
import subprocess
import sys


def cpu_run(cmd):
    """user+system CPU seconds of one run of cmd (its output thrown away)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit status {p.returncode}: {p.stderr.decode(errors='replace')[-300:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def pair(a, b, runs):
    cpu_run(a), cpu_run(b)  # warm-up, not counted
    ta, tb = [], []
    for _ in range(runs):
        ta.append(cpu_run(a))
        tb.append(cpu_run(b))
    ratios = [x / y for x, y in zip(ta, tb)]
    return statistics.median(ta), statistics.median(tb), statistics.median(ratios), min(ratios), max(ratios)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tally", default="build/tally")
    ap.add_argument("--elf", default="build/target/rv32imac/dhrystone.elf")
    ap.add_argument("--size", default="2000000")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("extra", nargs="*")
    o = ap.parse_args()
    base = [o.tally, "run", *o.extra]
    on = base + ["--progress", o.elf, o.size]
    off = base + ["--no-progress", o.elf, o.size]
    print("| A | B | A cpu s | B cpu s | A/B median (min-max) |\n|---|---|--:|--:|--:|")
    for name_a, a, name_b, b in (("--progress", on, "--no-progress", off),
                                 ("--no-progress", off, "--no-progress", off)):
        ma, mb, r, lo, hi = pair(a, b, o.runs)
        print(f"| {name_a} | {name_b} | {ma:.3f} | {mb:.3f} | {r:.3f} ({lo:.3f}-{hi:.3f}) |")


if __name__ == "__main__":
    main()
