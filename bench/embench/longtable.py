#!/usr/bin/env python3
"""longtable.py OUT_DIR [SIZE ...]: the Markdown tables of longrun.sh's runs.

Per size (default: long, then short): per program, QEMU's median CPU
seconds and every configuration's speed relative to QEMU (the median over
the rounds of QEMU's CPU time / the configuration's, both from the same
round: runs minutes apart at most), the geometric mean over the programs
and its spread; the ratios inside tally (the same pairing); the
translation's blocks, milliseconds and code size (`tally run -v`: medians
over the rounds, the smallest for the milliseconds) and each configuration's peak RSS (/usr/bin/time, median).
"""
import collections
import math
import os
import re
import statistics
import sys

out = sys.argv[1]
sizes = sys.argv[2:] or ["long", "short"]
NAMES = {
    "jit": "tally functional, `--engine jit`",
    "interp": "tally functional, `--engine interp`",
    "t5jit": "tally `--core tally5`, jit",
    "t5interp": "tally `--core tally5`, interp",
    "profile": "`tally profile --core tally5` (jit)",
    "cnt16": "tally5 + 16 counters (jit)",
    "qemu_icount": "QEMU `-icount shift=0`",
    "rv32emu": "rv32emu interpreter",
    "rv32emu_jit": "rv32emu JIT",
}
ORDER = list(NAMES)

cpu = collections.defaultdict(dict)      # (size, prog, cfg) -> {round: cpu}
for line in open(os.path.join(out, "times.tsv")):
    f = line.split()
    if len(f) < 6 or f[4] == "":
        continue
    r, size, prog, cfg, c, w = f
    # a run counts if its files are there (a stopped call's are removed)
    if os.path.exists(os.path.join(out, "runs", f"{size}.{prog}.{cfg}.r{r}.rss")):
        cpu[(size, prog, cfg)][int(r)] = float(c)


def gm(v):
    return math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")


def ratio(size, prog, a, b):
    """Median over the rounds both have of time(b) / time(a): a's speed over b's."""
    ra, rb = cpu.get((size, prog, a), {}), cpu.get((size, prog, b), {})
    common = sorted(set(ra) & set(rb))
    if not common:
        return None, 0
    return statistics.median(rb[r] / ra[r] for r in common), len(common)


def verbose(size, prog, cfg):
    """Medians of instructions, blocks, ms, KiB over the runs' -v reports."""
    ins, blocks, ms, kib, rss = [], [], [], [], []
    r = 1
    while True:
        base = os.path.join(out, "runs", f"{size}.{prog}.{cfg}.r{r}")
        if not os.path.exists(base + ".rss"):
            break
        err = open(base + ".err").read()
        m = re.search(r"^tally: ([0-9,]+) instructions", err, re.M)
        if m:
            ins.append(int(m.group(1).replace(",", "")))
        m = re.search(r"engine jit: (\d+) blocks translated in ([0-9.]+) ms, ([0-9.]+) KiB", err)
        if m:
            blocks.append(int(m.group(1)))
            ms.append(float(m.group(2)))
            kib.append(float(m.group(3)))
        lines = [l for l in open(base + ".rss").read().split("\n") if l.strip()]
        try:
            rss.append(int(lines[-1].split()[0]) / 1024)
        except (IndexError, ValueError):
            pass
        r += 1
    med = lambda v: statistics.median(v) if v else None
    return (statistics.median_low(ins) if ins else None), med(blocks), (min(ms) if ms else None), \
        med(kib), med(rss)


def fmt(x, d=2):
    return "–" if x is None else f"{x:.{d}f}"


summary = collections.defaultdict(dict)   # cfg -> size -> (gm, lo, hi)
for size in sizes:
    progs = sorted({p for (s, p, c) in cpu if s == size})
    cfgs = [c for c in ORDER if any((size, p, c) in cpu for p in progs)]
    if not progs:
        continue
    print(f"### {size} runs: speed relative to QEMU 7.2 (TCG), CPU time\n")
    print("| program | instructions | QEMU cpu s | " + " | ".join(cfgs) + " |")
    print("|---|--:|--:|" + "--:|" * len(cfgs))
    per = collections.defaultdict(dict)
    npairs = collections.defaultdict(list)
    for p in progs:
        q = cpu.get((size, p, "qemu"), {})
        ins = verbose(size, p, "jit")[0]
        cells = []
        for c in cfgs:
            v, n = ratio(size, p, c, "qemu")
            if v is not None:
                per[c][p] = v
                npairs[c].append(n)
            cells.append(fmt(v))
        qm = statistics.median(q.values()) if q else None
        print(f"| {p} | {ins:,} | {fmt(qm, 3)} | " if ins else f"| {p} | – | {fmt(qm, 3)} | ", end="")
        print(" | ".join(cells) + " |")
    print(f"| **geometric mean** (n={len(progs)}) | | | " +
          " | ".join(f"**{gm(list(per[c].values())):.2f}**" for c in cfgs) + " |")
    print("| pairs per program (fewest–most) | | | " +
          " | ".join(f"{min(npairs[c])}–{max(npairs[c])}" if npairs[c] else "–" for c in cfgs) + " |\n")
    print(f"#### {size}: summary (geometric mean over the programs; spread: lowest … highest)\n")
    print("| mode | ratio to QEMU | spread |")
    print("|---|--:|---|")
    for c in cfgs:
        v = per[c]
        if not v:
            continue
        lo = min(v, key=v.get)
        hi = max(v, key=v.get)
        print(f"| {NAMES[c]} | {gm(list(v.values())):.2f} | {v[lo]:.2f} ({lo}) … {v[hi]:.2f} ({hi}) |")
        summary[c][size] = f"**{gm(list(v.values())):.2f}** ({v[lo]:.2f} {lo} … {v[hi]:.2f} {hi})"
    print(f"\n#### {size}: ratios between configurations (each the median over the rounds of a pair's "
          "ratio, paired by round)\n")
    print("| ratio | geometric mean | spread |")
    print("|---|--:|---|")
    for a, b, what in [("jit", "interp", "functional, jit's speed / interp's"),
                       ("t5jit", "t5interp", "tally5, jit's speed / interp's"),
                       ("jit", "t5jit", "jit: tally5's time / functional's (the cost of timing)"),
                       ("interp", "t5interp", "interp: tally5's time / functional's"),
                       ("t5jit", "profile", "jit: profile's time / tally5's (the cost of profiling)"),
                       ("t5jit", "cnt16", "jit: 16 counters' time / tally5's"),
                       ("jit", "rv32emu_jit", "functional jit's speed / rv32emu JIT's"),
                       ("interp", "rv32emu", "functional interp's speed / rv32emu interpreter's")]:
        v = {p: ratio(size, p, a, b)[0] for p in progs}
        v = {p: x for p, x in v.items() if x is not None}
        if not v:
            continue
        lo = min(v, key=v.get)
        hi = max(v, key=v.get)
        print(f"| {what} | {gm(list(v.values())):.2f} | {v[lo]:.2f} ({lo}) … {v[hi]:.2f} ({hi}) |")
    print(f"\n#### {size}: translation and memory\n")
    print("blocks, ms, KiB: `tally run -v`'s report (blocks translated, the time spent "
          "translating them, the code they occupy); blocks and KiB the median over the rounds, "
          "ms the smallest (wall clock: a loaded machine's preemptions land in single runs); "
          "peak RSS: /usr/bin/time's maximum resident set, MiB, median.\n")
    rcfgs = [c for c in ["jit", "interp", "t5jit", "qemu", "rv32emu", "rv32emu_jit"]
             if any((size, p, c) in cpu for p in progs)]
    print("| program | jit blocks | jit ms | jit KiB | tally5 jit blocks | tally5 jit ms | tally5 jit KiB | "
          + " | ".join(f"{c} RSS" for c in rcfgs) + " |")
    print("|---|--:|--:|--:|--:|--:|--:|" + "--:|" * len(rcfgs))
    tot = collections.defaultdict(list)
    for p in progs:
        _, b1, m1, k1, _ = verbose(size, p, "jit")
        _, b5, m5, k5, _ = verbose(size, p, "t5jit")
        rs = [verbose(size, p, c)[4] for c in rcfgs]
        for k, v in zip(["b1", "m1", "k1", "b5", "m5", "k5"] + rcfgs, [b1, m1, k1, b5, m5, k5] + rs):
            if v is not None:
                tot[k].append(v)
        print(f"| {p} | {fmt(b1, 0)} | {fmt(m1, 1)} | {fmt(k1, 1)} | {fmt(b5, 0)} | {fmt(m5, 1)} | {fmt(k5, 1)} | "
              + " | ".join(fmt(x, 1) for x in rs) + " |")
    med = lambda k, d: fmt(statistics.median(tot[k]), d) if tot[k] else "–"
    print(f"| **median** | {med('b1', 0)} | {med('m1', 1)} | {med('k1', 1)} | {med('b5', 0)} | "
          f"{med('m5', 1)} | {med('k5', 1)} | " + " | ".join(med(c, 1) for c in rcfgs) + " |\n")

if len(sizes) > 1 and summary:
    print("### Both sizes: speed relative to QEMU, geometric mean (lowest … highest program)\n")
    print("| mode | " + " | ".join(sizes) + " |")
    print("|---|" + "---|" * len(sizes))
    for c in ORDER:
        if c in summary:
            print(f"| {NAMES[c]} | " + " | ".join(summary[c].get(z, "–") for z in sizes) + " |")
