#!/usr/bin/python3
"""Draws the counters of a `tally run --count ... --intervals-csv FILE` run
over time, one stacked bar per interval (as DSPInst's Figure 9 draws data-
cache misses), with matplotlib (Debian's python3-matplotlib). The output's
format follows its name (.png, .svg).

  scripts/intervals-plot.py intervals.csv out.png [--mhz 500] [--title T]

Every counter column is drawn (its "... saturated" column is not); the x axis
is the interval's first cycle, in ms at --mhz (default: cycles).
"""
import argparse
import csv
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", help="the file tally run --intervals-csv wrote")
    ap.add_argument("output", help="the picture (.png or .svg)")
    ap.add_argument("--mhz", type=float, help="the core clock, for a time axis in ms")
    ap.add_argument("--title", default="", help="the title")
    a = ap.parse_args()
    if not a.output.lower().endswith((".png", ".svg")):
        sys.exit(f"intervals-plot.py: {a.output}: the picture's name must end in .png or .svg")
    if a.mhz is not None and a.mhz <= 0:
        sys.exit(f"intervals-plot.py: --mhz must be above 0, got {a.mhz}")
    try:
        with open(a.csv, newline="") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        sys.exit(f"intervals-plot.py: {a.csv}: {e.strerror}")
    fixed = ["interval", "cycle_begin", "cycle_end"]
    if len(rows) < 2 or rows[0][:3] != fixed:
        sys.exit(f"intervals-plot.py: {a.csv}: not a tally --intervals-csv file "
                 f"(its header starts {','.join(fixed)})")
    head = rows[0]
    rows = [rows[0]] + [r for r in rows[1:] if r and r[0] != "total"]  # the totals row
    cols = [i for i in range(3, len(head)) if not head[i].endswith(" saturated")]
    try:
        begin = [int(r[1]) for r in rows[1:]]
        width = [int(r[2]) - int(r[1]) for r in rows[1:]]
        data = {i: [int(r[i]) for r in rows[1:]] for i in cols}
    except (ValueError, IndexError):
        sys.exit(f"intervals-plot.py: {a.csv}: a row is not numbers under the header")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("intervals-plot.py: needs matplotlib (Debian package python3-matplotlib)")
    scale = (1.0 / (a.mhz * 1000)) if a.mhz else 1.0
    x = [b * scale for b in begin]
    w = [v * scale for v in width]
    fig, ax = plt.subplots(figsize=(7, 2.8), dpi=80)
    bottom = [0] * len(x)
    colours = ["#3060a0", "#d08030", "#40a060", "#a04060", "#707070"]
    for k, i in enumerate(cols):
        ax.bar(x, data[i], width=w, align="edge", bottom=bottom, label=head[i],
               color=colours[k % len(colours)], linewidth=0)
        bottom = [b + v for b, v in zip(bottom, data[i])]
    ax.set_xlabel(f"time (ms at {a.mhz:g} MHz)" if a.mhz else "cycles")
    ax.set_ylabel(f"per interval of {width[0]:,} cycles" if width else "")
    if a.title:
        ax.set_title(a.title, fontsize=10)
    ax.legend(loc="upper right", fontsize=7)
    ax.set_xlim(0, x[-1] + w[-1])
    fig.tight_layout()
    # no software version or date in the file: the same data give the same bytes
    meta = {"Software": None} if a.output.lower().endswith(".png") else {"Creator": None, "Date": None}
    fig.savefig(a.output, metadata=meta)


if __name__ == "__main__":
    main()
