#!/usr/bin/env python3
"""table.py OUT_DIR...: the Markdown table of run.sh's (and coremark.sh's)
timing.txt and check.txt in each OUT_DIR.

Speed ratio = QEMU time / tally time: the inverse of the median of the
pair-by-pair A/B ratios (A = tally, B = QEMU), CPU seconds (wall in
parentheses); geometric means over the programs measured.
"""
import math
import re
import sys

rows = {}
cur = None
for line in (l for out in sys.argv[1:] for l in open(out + "/timing.txt")):
    m = re.match(r"== (\S+) tally (.*) vs qemu", line)
    if m:
        cur = (m.group(1), "tally5" if "tally5" in m.group(2) else "func")
        rows.setdefault(cur[0], {})
        continue
    m = re.match(r"(A|B) (cpu) s\s+\S+\s+(\S+)", line)
    if m and cur:
        rows[cur[0]][cur[1] + "_" + m.group(1)] = float(m.group(3))
    m = re.match(r"A/B (cpu|wall)\s+\S+\s+(\S+)", line)
    if m and cur:
        rows[cur[0]][cur[1] + "_" + m.group(1)] = 1.0 / float(m.group(2))
insns = {}
for line in (l for out in sys.argv[1:] for l in open(out + "/check.txt")):
    f = line.split()
    insns[f[0]] = f[4].split("=")[1]
print("| program | instructions | QEMU cpu s | tally cpu s | tally5 cpu s "
      "| functional / QEMU speed, cpu (wall) | tally5 / QEMU speed, cpu (wall) |")
print("|---|--:|--:|--:|--:|--:|--:|")
g = {"func_cpu": [], "func_wall": [], "tally5_cpu": [], "tally5_wall": []}
for p in sorted(rows):
    r = rows[p]
    if "func_cpu" not in r or "tally5_cpu" not in r:
        continue
    for k in g:
        g[k].append(r[k])
    print(f"| {p} | {insns.get(p, '?')} | {r['func_B']:.3f} | {r['func_A']:.3f} | "
          f"{r['tally5_A']:.3f} | {r['func_cpu']:.2f} ({r['func_wall']:.2f}) | "
          f"{r['tally5_cpu']:.2f} ({r['tally5_wall']:.2f}) |")


def gm(v):
    return math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")


print(f"| **geometric mean** (n={len(g['func_cpu'])}) | | | | | "
      f"**{gm(g['func_cpu']):.2f}** ({gm(g['func_wall']):.2f}) | "
      f"**{gm(g['tally5_cpu']):.2f}** ({gm(g['tally5_wall']):.2f}) |")
if g["func_cpu"]:
    print(f"\nfunctional: min {min(g['func_cpu']):.2f}, max {max(g['func_cpu']):.2f}; "
          f"tally5: min {min(g['tally5_cpu']):.2f}, max {max(g['tally5_cpu']):.2f} (cpu)")
