#!/usr/bin/env python3
"""frontier.py DIR WORKLOAD...: what the paper's average asks of the
workloads together, from each workload's trade-off curve (DIR/W.csv,
written by `tally dvfs --tradeoff-csv`: the best predicted time and energy
within each --max-slowdown limit).

The paper reports an average over its programs (7.6% energy saved at 0.8%
slowdown). Each program may take a different point of its own curve, so
the question is a multiple-choice knapsack: one point per workload, the
average slowdown within a budget, the average energy saved as large as
possible. Solved exactly by dynamic programming over the slowdown in
steps of 0.01 percentage points (each point's slowdown rounded up, so a
budget reported as met is met). A workload without a CSV (or without
regions) contributes no change."""
import csv
import math
import sys

PAPER_TIME, PAPER_ENERGY = 0.8, 7.6
STEP = 0.01  # percentage points


def column(header, word):
    for i, h in enumerate(header):
        if word in h.lower():
            return i
    raise SystemExit("frontier.py: no '%s' column in %s" % (word, header))


def curve(path):
    """The workload's points as (slowdown %, energy saved %), (0, 0) first."""
    pts = {(0.0, 0.0)}
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
    except FileNotFoundError:
        return sorted(pts)
    if not rows:
        return sorted(pts)
    t, e = column(rows[0], "time"), column(rows[0], "energy")
    for r in rows[1:]:
        if r:
            # energies are changes against the original: a saving is negative
            pts.add((max(0.0, float(r[t])), -float(r[e])))
    return sorted(pts)


def best_by_budget(curves, max_units):
    """best[b]: the largest total saving with total slowdown <= b units,
    and the choice (one point index per workload) that gives it."""
    NEG = -math.inf
    best = [0.0] * (max_units + 1)
    choice = [[] for _ in range(max_units + 1)]
    for pts in curves:
        nxt = [NEG] * (max_units + 1)
        nch = [None] * (max_units + 1)
        for b in range(max_units + 1):
            for k, (t, e) in enumerate(pts):
                u = math.ceil(t / STEP - 1e-9)
                if u <= b and best[b - u] + e > nxt[b]:
                    nxt[b] = best[b - u] + e
                    nch[b] = choice[b - u] + [k]
        best, choice = nxt, nch
    return best, choice


def main():
    d, ws = sys.argv[1], sys.argv[2:]
    if not ws:
        raise SystemExit("usage: frontier.py DIR WORKLOAD...")
    curves = [curve("%s/%s.csv" % (d, w)) for w in ws]
    n = len(ws)
    cap = sum(max(t for t, _ in c) for c in curves)
    units = int(math.ceil(cap / STEP)) + 1
    best, choice = best_by_budget(curves, units)

    def at(avg_time):
        b = min(units, int(math.floor(avg_time * n / STEP + 1e-9)))
        return best[b] / n, choice[b]

    print("| average slowdown at most | best average energy saved | points taken (workload: slowdown / saving) |")
    print("|--:|--:|---|")
    for avg in (0.4, 0.6, PAPER_TIME, 1.0, 1.2, 1.5, 2.0):
        e, ch = at(avg)
        taken = ["%s: +%.2f%% / -%.2f%%" % (w, curves[i][k][0], curves[i][k][1])
                 for i, (w, k) in enumerate(zip(ws, ch)) if k]
        print("| %.2f%% | %.2f%% | %s |" % (avg, e, ", ".join(taken) or "none"))
    need = next((b for b in range(units + 1) if best[b] / n >= PAPER_ENERGY - 1e-9), None)
    e08, _ = at(PAPER_TIME)
    print()
    print("Over %d workloads: at the paper's average slowdown (%.1f%%) the best average saving is %.2f%%"
          % (n, PAPER_TIME, e08), end="")
    if need is None:
        print("; no choice reaches the paper's %.1f%% average saving." % PAPER_ENERGY)
    else:
        print("; the paper's %.1f%% average saving needs an average slowdown of %.2f%%."
              % (PAPER_ENERGY, need * STEP / n))


main()
