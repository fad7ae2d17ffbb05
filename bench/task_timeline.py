#!/usr/bin/env python3
"""Draws the task timeline of `tally profile --tasks --perfetto FILE` as an SVG.

  bench/task_timeline.py TIMELINE.json OUT.svg [--title T] [--until CYCLE]

One row per task and trap context (in the file's order), a bar for each
stretch it ran, on an axis of core cycles. Standard library only.
"""
import argparse
import html
import json
import sys

COLOURS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("timeline")
    ap.add_argument("out")
    ap.add_argument("--title", default="")
    ap.add_argument("--until", type=int, default=0, help="last cycle shown (default: the end)")
    a = ap.parse_args()
    try:
        ev = json.load(open(a.timeline))["traceEvents"]
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"task_timeline.py: {a.timeline}: not a tally timeline: {e}")
    tracks, order = {}, {}
    for e in ev:
        if e.get("ph") == "M" and e.get("name") == "thread_name" and e.get("tid", 0) >= 100:
            tracks[e["tid"]] = e["args"]["name"]
        if e.get("ph") == "M" and e.get("name") == "thread_sort_index":
            order[e["tid"]] = e["args"]["sort_index"]
    slices = [(e["tid"], e["ts"], e["ts"] + e["dur"]) for e in ev if e.get("ph") == "X" and e.get("tid") in tracks]
    if not slices:
        sys.exit(f"task_timeline.py: {a.timeline} has no task slices (was it written with --tasks?)")
    end = a.until or max(s[2] for s in slices)
    tids = sorted(tracks, key=lambda t: order.get(t, t))
    left, width, row, top = 110, 820, 22, 34
    height = top + row * len(tids) + 40
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 20}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{left}" y="18" font-size="14">{html.escape(a.title)}</text>']
    for i, tid in enumerate(tids):
        y = top + i * row
        out.append(f'<text x="{left - 8}" y="{y + 15}" text-anchor="end">{html.escape(tracks[tid])}</text>')
        out.append(f'<line x1="{left}" y1="{y + row - 2}" x2="{left + width}" y2="{y + row - 2}" stroke="#ddd"/>')
        for t, b, e in slices:
            if t != tid or b >= end:
                continue
            x0 = left + width * b / end
            x1 = left + width * min(e, end) / end
            out.append(f'<rect x="{x0:.2f}" y="{y + 3}" width="{max(x1 - x0, 0.6):.2f}" height="{row - 8}" '
                       f'fill="{COLOURS[i % len(COLOURS)]}"/>')
    ya = top + row * len(tids) + 6
    out.append(f'<line x1="{left}" y1="{ya}" x2="{left + width}" y2="{ya}" stroke="black"/>')
    for k in range(6):
        c = end * k / 5
        x = left + width * k / 5
        out.append(f'<line x1="{x:.1f}" y1="{ya}" x2="{x:.1f}" y2="{ya + 4}" stroke="black"/>')
        out.append(f'<text x="{x:.1f}" y="{ya + 17}" text-anchor="middle">{int(c):,}</text>')
    out.append(f'<text x="{left + width}" y="{ya + 32}" text-anchor="end">core cycles</text>')
    out.append("</svg>")
    with open(a.out, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
