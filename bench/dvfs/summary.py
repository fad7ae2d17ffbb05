#!/usr/bin/env python3
"""summary.py DIR WORKLOAD...: the summary table of bench/dvfs/results.md
from the tally dvfs reports DIR/WORKLOAD.txt: time and energy change of
tally dvfs, of the oracle and of the whole program at the slowest point,
and the averages over all workloads and over the memory-bound three."""
import re
import sys

ROW = r"%s[^\n]*?time\s+([-+][\d.]+)%%\s+energy\s+([-+][\d.]+)%%"
MEMORY_BOUND = ("mcomp", "rotate", "spmv")


def parse(text):
    def find(label):
        m = re.search(ROW % label, text)
        return (float(m.group(1)), float(m.group(2))) if m else None
    statics = re.findall(r"static (\S+) \(whole program\)" + ROW % "", text)
    return find(r"  tally dvfs\s"), find(r"  oracle \("), statics[-1] if statics else None


def main():
    d, ws = sys.argv[1], sys.argv[2:]
    print("| workload | tally dvfs time | energy | oracle time | energy | slowest static point | time | energy |")
    print("|---|--:|--:|--:|--:|---|--:|--:|")
    sums = {"all": [0, 0, 0], "memory-bound": [0, 0, 0]}
    for w in ws:
        tool, orc, st = parse(open("%s/%s.txt" % (d, w)).read())
        if not tool:
            print("| %s | (failed) | | | | | | |" % w)
            continue
        cells = ["%+.2f%%" % x for x in tool + (orc or (0, 0))]
        stat = [st[0], "%+.2f%%" % float(st[1]), "%+.2f%%" % float(st[2])] if st else ["", "", ""]
        print("| %s | %s |" % (w, " | ".join(cells + stat)))
        for k in ("all", "memory-bound"):
            if k == "all" or w in MEMORY_BOUND:
                sums[k][0] += tool[0]
                sums[k][1] += tool[1]
                sums[k][2] += 1
    for k, (t, e, n) in sums.items():
        if n:
            print("| average, %s (%d) | %+.2f%% | %+.2f%% | | | | | |" % (k, n, t / n, e / n))


main()
