#!/usr/bin/env python3
"""tally sweep's parallel speed (issue 17: the wall time of N points on J
threads within 1.2x of N/J times one point's): runs the N points one at a
time (one `tally sweep -j 1` each, the same points), then all N in one
`tally sweep -j J`, and compares the second's wall time with the sum of the
first divided by J. Rounds alternate the two forms, so a change in the
machine's load hits both alike; /proc/loadavg is sampled every 0.5 s
during each form and reported with it, and so is the CPU time (user +
system) each form used: on a machine whose cores other work keeps busy,
equal CPU times with a longer wall time mean the threads waited for a
core, not for each other. Host times: a benchmark, never a
test. --results FILE appends a row (date, machine, load) to a markdown
results file (bench/sweep-results.md).

  bench/sweeps/speed.py --tally build/tally --elf build/target/rv32imac/hanoi.elf --size 18 --points 4
"""
import argparse
import datetime
import os
import platform
import resource
import statistics
import subprocess
import tempfile
import threading
import time


class LoadSampler:
    """The 1-minute load average, sampled while a block of work runs."""

    def __init__(self):
        self.samples, self.stop = [], threading.Event()

    def __enter__(self):
        self.t = threading.Thread(target=self.run, daemon=True)
        self.t.start()
        return self

    def run(self):
        while not self.stop.is_set():
            with open("/proc/loadavg") as f:
                self.samples.append(float(f.read().split()[0]))
            self.stop.wait(0.5)

    def __exit__(self, *exc):
        self.stop.set()
        self.t.join()


CPU = []  # CPU seconds (user + system) of each sweep, in the order run


def sweep(tally, elf, size, sizes, jobs, db):
    t = time.monotonic()
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([tally, "sweep", "-p", f"{elf} {size}", "-a", "icache.size=" + ",".join(sizes),
                    "-j", str(jobs), "--db", db, "-q"], check=True, capture_output=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    return time.monotonic() - t


def machine():
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            model = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tally", required=True)
    ap.add_argument("--elf", required=True)
    ap.add_argument("--size", default="18", help="the program's argument")
    ap.add_argument("--points", type=int, default=4)
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--results", help="append a markdown table row to this file")
    a = ap.parse_args()
    sizes = [f"{1 << (9 + i)}" for i in range(a.points)]
    ones, pars, load_one, load_par, cpu_one, cpu_par = [], [], [], [], [], []
    with tempfile.TemporaryDirectory() as d:
        for r in range(a.rounds):
            with LoadSampler() as ls:
                one = [sweep(a.tally, a.elf, a.size, [s], 1, os.path.join(d, f"one{r}-{i}.db"))
                       for i, s in enumerate(sizes)]
            ones.append(one)
            cpu_one.append(sum(CPU[-len(sizes):]))
            load_one += ls.samples
            with LoadSampler() as ls:
                pars.append(sweep(a.tally, a.elf, a.size, sizes, a.jobs, os.path.join(d, f"par{r}.db")))
            cpu_par.append(CPU[-1])
            load_par += ls.samples
    ideal = [sum(o) / a.jobs for o in ones]
    ratios = [p / i for p, i in zip(pars, ideal)]
    best = min(range(a.rounds), key=lambda r: ratios[r])
    lo = lambda s: f"{min(s):.1f}-{max(s):.1f} (mean {statistics.mean(s):.1f})" if s else "?"
    print(f"machine: {machine()}")
    print(f"workload: {os.path.basename(a.elf)} {a.size}, {a.points} points (icache.size {sizes[0]}..{sizes[-1]}), "
          f"{a.jobs} threads, {a.rounds} rounds")
    for r in range(a.rounds):
        print(f"round {r}: one at a time " + ", ".join(f"{t:.2f}" for t in ones[r])
              + f" s; sum/{a.jobs} = {ideal[r]:.2f} s; {a.points} on {a.jobs} threads {pars[r]:.2f} s; ratio {ratios[r]:.2f}"
              + f"; CPU s one at a time {cpu_one[r]:.2f}, parallel {cpu_par[r]:.2f}")
    print(f"load average while one at a time: {lo(load_one)}; while in parallel: {lo(load_par)}")
    print(f"ratio: median {statistics.median(ratios):.2f}, best {ratios[best]:.2f}")
    if a.results:
        row = (f"| {datetime.date.today()} | {machine()} | {os.path.basename(a.elf)} {a.size}, {a.points} points, "
               f"{a.jobs} threads | {lo(load_one)} / {lo(load_par)} | "
               + "; ".join(f"{sum(o):.2f}/{a.jobs}={i:.2f} vs {p:.2f}" for o, i, p in zip(ones, ideal, pars))
               + f" | {statistics.median(ratios):.2f} ({ratios[best]:.2f}) | "
               + f"{sum(cpu_one):.1f} / {sum(cpu_par):.1f} |\n")
        with open(a.results, "a") as f:
            f.write(row)


if __name__ == "__main__":
    main()
