#!/usr/bin/env python3
"""`tally sweep --one-pass` against the same sweep run point by point:
wall time and CPU time (user + system, which the machine's other load
moves much less than wall time) of each, and whether the two files' CSV
exports are identical. A benchmark, never a test (tests/sweep's onepass
case holds the equality); results go to bench/sweep-results.md with
--results.

  bench/sweeps/onepass.py --tally build/tally --elf build/target/rv32imac/aes.elf --args 200
  bench/sweeps/onepass.py --tally build/tally --elf build/target/rv32imac/matmul.elf --args 40 --cache dcache
"""
import argparse
import datetime
import os
import platform
import resource
import subprocess
import tempfile
import time


def timed(argv):
    r0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
    subprocess.run(argv, check=True, capture_output=True)
    r1, t1 = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
    return t1 - t0, r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tally", required=True)
    ap.add_argument("--elf", required=True)
    ap.add_argument("--args", default="")
    ap.add_argument("--sizes", default="256,512,1K,2K,4K,8K")
    ap.add_argument("--ways", default="1,2,4,8")
    ap.add_argument("--cache", choices=["icache", "dcache"], default="icache", help="the cache --sizes and --ways are of")
    ap.add_argument("--axis", action="append", default=[], help="another axis, e.g. icache.line=16,32,64")
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--results")
    a = ap.parse_args()
    n = len(a.sizes.split(",")) * len(a.ways.split(","))
    for ax in a.axis:
        n *= len(ax.split("=", 1)[1].split(","))
    with tempfile.TemporaryDirectory() as d:
        base = [a.tally, "sweep", "-p", f"{a.elf} {a.args}".strip(), "-a", f"{a.cache}.size=" + a.sizes,
                "-a", f"{a.cache}.ways=" + a.ways, "--set", "memory.type=sram", "-j", str(a.jobs), "-q"]
        for ax in a.axis:
            base += ["-a", ax]
        sep = timed(base + ["--db", os.path.join(d, "sep.db"), "--csv", os.path.join(d, "sep.csv")])
        one = timed(base + ["--db", os.path.join(d, "one.db"), "--csv", os.path.join(d, "one.csv"), "--one-pass"])
        same = open(os.path.join(d, "sep.csv")).read() == open(os.path.join(d, "one.csv")).read()
    load = os.getloadavg()[0]
    name = f"{os.path.basename(a.elf)} {a.args}".strip() + (f", {a.cache} size x ways" if a.cache != "icache" else "")
    name += "".join(f", {ax}" for ax in a.axis)
    print(f"{name}: {n} points, point by point {sep[0]:.2f} s wall, {sep[1]:.2f} s CPU; "
          f"--one-pass {one[0]:.2f} s wall, {one[1]:.2f} s CPU; CPU ratio {sep[1] / one[1]:.1f}x; "
          f"CSV identical: {same}; load {load:.1f}")
    if a.results:
        with open(a.results, "a") as f:
            f.write(f"| {datetime.date.today()} | {platform.machine()}, {os.cpu_count()} cores | {name}, {n} points | "
                    f"{sep[0]:.2f} / {sep[1]:.2f} | {one[0]:.2f} / {one[1]:.2f} | {sep[1] / one[1]:.1f}x | "
                    f"{'yes' if same else 'NO'} | {load:.1f} |\n")


if __name__ == "__main__":
    main()
