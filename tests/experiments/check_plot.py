#!/usr/bin/env python3
"""scripts/intervals-plot.py: draws a tally --intervals-csv file (a PNG and
an SVG from a small file written here, the totals row ignored) and refuses
bad input with a message naming it. Usage: check_plot.py SOURCE_DIR"""
import os
import subprocess
import sys
import tempfile

src = sys.argv[1]
script = os.path.join(src, "scripts", "intervals-plot.py")
py = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
fails = []


def run(*args):
    return subprocess.run([py, script, *args], capture_output=True, text=True, timeout=60)


with tempfile.TemporaryDirectory() as d:
    good = os.path.join(d, "iv.csv")
    with open(good, "w") as f:
        f.write("interval,cycle_begin,cycle_end,data-cache read misses,data-cache read misses saturated\n"
                "0,0,1000,5,0\n1,1000,2000,7,0\n2,2000,3000,0,0\ntotal,0,3000,12,0\n")
    for out in ("fig.png", "fig.svg"):
        p = run(good, os.path.join(d, out), "--mhz", "500", "--title", "t")
        if p.returncode != 0:
            fails.append(f"{out}: status {p.returncode}: {p.stderr}")
            continue
        with open(os.path.join(d, out), "rb") as f:
            head = f.read(200)
        if out.endswith(".png") and not head.startswith(b"\x89PNG"):
            fails.append("not a PNG")
        if out.endswith(".svg") and b"<svg" not in head and b"<?xml" not in head:
            fails.append("not an SVG")
    bad = os.path.join(d, "bad.csv")
    with open(bad, "w") as f:
        f.write("a,b\n1,2\n")
    words = os.path.join(d, "words.csv")
    with open(words, "w") as f:
        f.write("interval,cycle_begin,cycle_end,x\n0,0,zero,1\n")
    for args, want in (((os.path.join(d, "none.csv"), "x.png"), "none.csv: No such file"),
                       ((bad, "x.png"), "not a tally --intervals-csv file"),
                       ((words, "x.png"), "not numbers under the header"),
                       ((good, "x.png", "--mhz", "0"), "--mhz must be above 0"),
                       ((good, "x.gif"), "must end in .png or .svg")):
        p = run(*args)
        if p.returncode == 0 or want not in p.stderr:
            fails.append(f"{args}: status {p.returncode}, stderr {p.stderr!r}, wanted {want!r}")
for f in fails:
    print("FAIL:", f)
print("intervals-plot: " + ("ok" if not fails else f"{len(fails)} failed"))
sys.exit(1 if fails else 0)
