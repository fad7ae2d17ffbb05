#!/usr/bin/python3
"""Plots a metric of a sweep over one or two of its axes, from the JSON of
`tally sweep --json FILE` (docs/tally-sweep.md), with matplotlib (Debian's
python3-matplotlib). The output's format follows its name (.svg, .png).

  scripts/sweep-plot.py sweep.json cycles icache.size -o cycles.svg
  scripts/sweep-plot.py sweep.json icache.miss icache.size --by icache.ways -o miss.png

X is an axis (its values in the sweep's order); --by draws one line per
value of a second axis; points of other programs or configurations are
told apart in the legend. Exit status: 0; 64 usage; 65 the JSON lacks the
metric or axis; 66 the JSON cannot be read.
"""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("json", help="tally sweep --json output")
    ap.add_argument("metric", help="a metric the sweep recorded (cycles, energy_uj, a signal)")
    ap.add_argument("axis", help="the axis along X")
    ap.add_argument("--by", help="a second axis: one line per value")
    ap.add_argument("-o", "--output", required=True, help="output file (.svg or .png)")
    a = ap.parse_args()
    try:
        with open(a.json) as f:
            pts = json.load(f)["points"]
    except (OSError, ValueError, KeyError) as e:
        print(f"sweep-plot: {a.json}: {e}", file=sys.stderr)
        return 66
    for p in pts:
        for what, where in ((a.metric, p["metrics"]), (a.axis, p["axes"])) + (((a.by, p["axes"]),) if a.by else ()):
            if what not in where:
                print(f"sweep-plot: {a.json}: point {p['point']} has no '{what}'", file=sys.stderr)
                return 65
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    xs = list(dict.fromkeys(p["axes"][a.axis] for p in pts))
    lines = {}
    for p in pts:
        label = " ".join(x for x in (p["program"], p["config"], f"{a.by}={p['axes'][a.by]}" if a.by else "") if x)
        lines.setdefault(label, {})[p["axes"][a.axis]] = p["metrics"][a.metric]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for label, ys in lines.items():
        xv = [x for x in xs if x in ys]
        ax.plot([xs.index(x) for x in xv], [ys[x] for x in xv], marker="o", label=label or a.metric)
    ax.set_xticks(range(len(xs)), xs)
    ax.set_xlabel(a.axis)
    ax.set_ylabel(a.metric)
    ax.grid(True, alpha=0.3)
    if len(lines) > 1:
        ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(a.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
