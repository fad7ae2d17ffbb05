#!/usr/bin/env python3
"""Two tally binaries side by side: is the new one as fast as the old?

usage: bench/ab.py OLD_TALLY NEW_TALLY [--runs N] [--workloads a,b] [--build DIR] [--output FILE]
                   [--ignore-lines REGEX]

For a change that must not slow the hot loop (a refactoring), each workload
is run by both binaries in four modes (functional, timed on tally5, profiled,
and the statistics module with two counters stored through the embedded
collector), the binaries alternating run by run so that a slow moment of the
shared machine hits both. After one warm-up run each (which must give the
same output from both), the median user+system CPU time of N runs is taken
per binary and mode; the ratio new/old is printed per row and as a
geometric mean per mode. Writes the "## Old against new binary" section of
bench/results.md (or --output). A change that adds words to a report on
purpose names those lines with --ignore-lines: they are left out of the
comparison, everything else must still be equal. Standard library only.
"""
import argparse
import datetime
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import tempfile

import benchlib
import run as bench_run

MODES = [
    ("functional", lambda elf, size, db: ["run", elf, size]),
    ("timed", lambda elf, size, db: ["run", "--core", "tally5", elf, size]),
    ("profiled", lambda elf, size, db: ["profile", "--core", "tally5", "--top", "1", elf, size]),
    ("statmod stored", lambda elf, size, db: ["run", "--core", "tally5", "--count", "cycle@main", "--count",
                                              "dcache.read_miss", "--interval", "100000", "--db", db, elf, size]),
]
HEADING = "## Old against new binary"


def cpu_run(cmd):
    """Runs cmd; returns (user+system CPU seconds of the child, completed process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, capture_output=True, timeout=900)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), p


def without(text, ignore):
    """The output with the lines that match `ignore` (a compiled regex, or None) left out."""
    if ignore is None:
        return text
    return b"\n".join(l for l in text.split(b"\n") if not ignore.search(l.decode(errors="replace")))


def measure(old, new, elf, size, runs, scratch, ignore=None):
    """{mode: (old median s, new median s)} for one workload."""
    out = {}
    for mode, args in MODES:
        times = {old: [], new: []}
        outputs = {}
        for i in range(runs + 1):                     # round 0 is the warm-up
            order = (old, new) if i % 2 == 0 else (new, old)
            for binary in order:
                db = os.path.join(scratch, f"{'old' if binary == old else 'new'}-{i}.db")
                dt, p = cpu_run([binary] + args(elf, size, db))
                if p.returncode != 0:
                    sys.exit(f"ab.py: {binary} {mode} {elf}: exit status {p.returncode}\n"
                             f"{p.stderr.decode(errors='replace')[-800:]}")
                if i == 0:
                    outputs[binary] = without(p.stdout, ignore)
                else:
                    times[binary].append(dt)
        if outputs[old] != outputs[new]:
            sys.exit(f"ab.py: {mode} {elf}: the two binaries print different output")
        out[mode] = (statistics.median(times[old]), statistics.median(times[new]))
    return out


def section(old, new, rows, runs):
    load = os.getloadavg()[0]
    lines = [HEADING, "",
             "Written by `bench/ab.py` (see its header); rerun it to compare two builds.", "",
             f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC",
             f"- machine: {benchlib.cpu_model()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}",
             f"- load average (1 min) at the end: {load:.2f} — the machine is shared",
             f"- old: `{old}`; new: `{new}` (name their commits here when they are copies)",
             f"- method: median user+system CPU time of {runs} runs per binary and mode after one warm-up run each, "
             "the binaries alternating; rv32imac workloads at the sizes of `bench/run.py`; *statmod stored*: "
             "`--count cycle@main --count dcache.read_miss --interval 100000` into a fresh store", "",
             "| workload | mode | old s | new s | new / old |", "|---|---|--:|--:|--:|"]
    ratios = {m: [] for m, _ in MODES}
    for name, res in rows:
        for mode, _ in MODES:
            o, n = res[mode]
            ratios[mode].append(n / o)
            lines.append(f"| {name} | {mode} | {o:.3f} | {n:.3f} | {n / o:.3f} |")
    lines.append("")
    lines.append("Geometric mean new / old: " + ", ".join(
        f"{m} **{bench_run.geomean(r):.3f}**" for m, r in ratios.items()) + ".")
    return "\n".join(lines) + "\n"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--workloads", default="aes,crc32,dhrystone,qsort")
    ap.add_argument("--build", default=os.environ.get("TALLY_BUILD", os.path.join(bench_run.REPO, "build")))
    ap.add_argument("--output", default=os.path.join(bench_run.REPO, "bench", "results.md"))
    ap.add_argument("--ignore-lines", default=None, help="a regex: output lines the new binary adds on purpose")
    a = ap.parse_args(argv[1:])
    old, new = os.path.abspath(a.old), os.path.abspath(a.new)
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for name in a.workloads.split(","):
            elf = os.path.join(a.build, "target", "rv32imac", name + ".elf")
            res = measure(old, new, elf, bench_run.BENCH_SIZES[name], a.runs, scratch,
                          re.compile(a.ignore_lines) if a.ignore_lines else None)
            rows.append((name, res))
            print(name, {m: f"{n / o:.3f}" for m, (o, n) in res.items()}, flush=True)
    text = section(old, new, rows, a.runs)
    benchlib.write_section(a.output, HEADING, text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
