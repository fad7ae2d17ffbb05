#!/usr/bin/env python3
"""tally sweep's parallel speed: the wall time of N points on J threads
against N/J times the wall time of one point, on the same machine in the
same run (issue 17 asks for within 1.2x). Host times, so a benchmark, not a
test; results go to bench/sweep-results.md by hand with machine and date.

  bench/sweep_speed.py --tally build/tally --elf build/target/rv32imac/hanoi.elf --size 17 --points 4
"""
import argparse
import os
import platform
import subprocess
import tempfile
import time


def sweep(tally, elf, size, sizes, jobs, db):
    t = time.monotonic()
    subprocess.run([tally, "sweep", "-p", f"{elf} {size}", "-a", "icache.size=" + ",".join(sizes),
                    "-j", str(jobs), "--db", db, "-q"], check=True, capture_output=True)
    return time.monotonic() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tally", required=True)
    ap.add_argument("--elf", required=True)
    ap.add_argument("--size", default="17")
    ap.add_argument("--points", type=int, default=4)
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    a = ap.parse_args()
    sizes = [f"{1 << (9 + i)}" for i in range(a.points)]
    with tempfile.TemporaryDirectory() as d:
        one = [sweep(a.tally, a.elf, a.size, [s], 1, os.path.join(d, f"one{i}.db")) for i, s in enumerate(sizes)]
        par = sweep(a.tally, a.elf, a.size, sizes, a.jobs, os.path.join(d, "par.db"))
    ideal = sum(one) / a.jobs
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    print(f"points: {a.points} x {os.path.basename(a.elf)} {a.size}; one point at a time: "
          + ", ".join(f"{t:.2f}" for t in one) + " s")
    print(f"{a.points} points on {a.jobs} threads: {par:.2f} s; sum(one)/jobs = {ideal:.2f} s; ratio {par / ideal:.2f}")


if __name__ == "__main__":
    main()
