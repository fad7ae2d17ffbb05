#!/usr/bin/env python3
"""bench/inst/inst_bench.py [BUILD_DIR]

Figures of `tally inst` (docs/tally-inst.md), written to
bench/inst/results.md with the date and the machine:

  - every-basic-block counting (bbcount, trap tactic): simulated cycles of
    the instrumented run / the original's on the tally5 core, per workload
    and flavour, and the geometric mean;
  - the cost of one site in simulated cycles: (instrumented cycles -
    original cycles) / site executions, with the empty analysis (tool none)
    and with bbcount; the executions are bbcount's own total, which the
    bbcount law ties to tally's exact counts;
  - the time to rewrite each workload (wall clock of `tally inst`, every
    instruction and every block, median of 3).

Cycles come from `tally run --stats-json` (tally measures the
instrumentation from outside: nothing in the program is counted by the
program). Standard library only.
"""
import json
import math
import os
import resource
import statistics
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import benchlib  # noqa: E402

WORKLOADS = ["dhrystone", "aes", "heapsort", "hanoi", "crc32", "matmul", "blast", "qsort", "fft", "dct"]
# tiny sizes (tests/diff/CMakeLists.txt); blast has none, its small size is used
SIZES = {"dhrystone": 500, "aes": 4, "heapsort": 200, "hanoi": 8, "crc32": 8, "matmul": 16, "blast": 20,
         "qsort": 200, "fft": 1, "dct": 1}
FLAVOURS = ["rv32imac", "rv32i"]


def run_cycles(tally, elf, size, cwd, ram=None):
    out = os.path.join(cwd, "stats.json")
    cmd = [tally, "run", "--core", "tally5", "--stats-json", out, "--semihost-files", "rw"]
    if ram:
        cmd += ["--ram-size", ram]
    subprocess.run(cmd + [elf, str(size)], cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        return json.load(f)["cycles"]


def instrument(tally, elf, out, points, tool):
    """(wall seconds, CPU seconds of tally inst and the toolchain it runs)"""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([tally, "inst", "--points", points, "--tool", tool, elf, "-o", out], check=True)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def bbcount_total(path):
    data = open(path, "rb").read()
    n = struct.unpack_from("<I", data, 8)[0]
    return sum(struct.unpack_from("<Q", data, 12 + 16 * i + 8)[0] for i in range(n))


def measure(tally, build, flavour, w, tmp):
    elf = os.path.join(build, "target", flavour, w + ".elf")
    size = SIZES[w]
    orig = run_cycles(tally, elf, size, tmp)
    res = {"orig": orig}
    for tool in ("none", "bbcount"):
        out = os.path.join(tmp, f"{w}.{tool}.elf")
        instrument(tally, elf, out, "bb", tool)
        res[tool] = run_cycles(tally, out, size, tmp, ram="256Mi")
    res["executions"] = bbcount_total(os.path.join(tmp, "bbcount.out"))
    for points, tool in (("insn", "none"), ("bb", "bbcount")):
        runs = [instrument(tally, elf, os.path.join(tmp, "t.elf"), points, tool) for _ in range(3)]
        res["rewrite_" + points] = statistics.median(w for w, _ in runs)
        res["cpu_" + points] = statistics.median(c for _, c in runs)
    return res


def table(rows):
    lines = ["| workload | flavour | original cycles | bb+none cycles | bb+bbcount cycles | ratio (bbcount) "
             "| site executions | cycles/site none | cycles/site bbcount | rewrite insn: wall / CPU s "
             "| rewrite bb: wall / CPU s |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for (flavour, w), r in rows:
        ex = r["executions"]
        lines.append(f"| {w} | {flavour} | {r['orig']:,} | {r['none']:,} | {r['bbcount']:,} | "
                     f"{r['bbcount'] / r['orig']:.1f} | {ex:,} | {(r['none'] - r['orig']) / ex:.1f} | "
                     f"{(r['bbcount'] - r['orig']) / ex:.1f} | {r['rewrite_insn']:.2f} / {r['cpu_insn']:.2f} | "
                     f"{r['rewrite_bb']:.2f} / {r['cpu_bb']:.2f} |")
    return "\n".join(lines)


def rows_from_log(path):
    """The rows of an earlier run's progress lines ("flavour workload {...}")."""
    import ast
    rows = []
    for line in open(path):
        f = line.split(" ", 2)
        if len(f) == 3 and f[0] in FLAVOURS and f[1] in WORKLOADS:
            rows.append(((f[0], f[1]), ast.literal_eval(f[2])))
    return rows


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--from-log":  # rewrite results.md from a run's progress lines
        write_results(rows_from_log(sys.argv[2]))
        return
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "build"))
    tally = os.path.join(build, "tally")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for flavour in FLAVOURS:
            for w in WORKLOADS:
                rows.append(((flavour, w), measure(tally, build, flavour, w, tmp)))
                print(flavour, w, rows[-1][1], flush=True)
    write_results(rows)


def write_results(rows):
    geo = math.exp(statistics.mean(math.log(r["bbcount"] / r["orig"]) for _, r in rows))
    per_site = [(r["none"] - r["orig"]) / r["executions"] for _, r in rows]
    text = f"""# tally inst: figures

Written by bench/inst/inst_bench.py on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.
Host: {benchlib.cpu_model()}, {os.cpu_count()} CPUs (shared with other jobs while measuring: the
wall-clock rewrite times are upper bounds; simulated cycles do not depend on the host).
Tools: {benchlib.first_line(['riscv64-unknown-elf-gcc', '--version'])}.
Core model: tally5. Workload sizes: the tiny sizes of tests/diff (blast: its small size, 20).

Every basic block instrumented, trap tactic (the only one this build offers: see docs/tally-inst.md).
"cycles/site" = (instrumented - original cycles) / site executions, the executions being bbcount's
own count total (equal, by the law tests/inst checks, to tally's exact per-instruction counts).

{table(rows)}

- Geometric mean of bb+bbcount cycles / original cycles: **{geo:.1f}x** (goal with the jump tactic:
  at most 3x; the trap tactic alone does not reach it).
- Cost of one trap-tactic site with an empty analysis: {min(per_site):.0f}-{max(per_site):.0f} simulated
  cycles (median {statistics.median(per_site):.0f}).
- Rewrite time (median of 3): at most {max(r['rewrite_insn'] for _, r in rows):.2f} s wall /
  {max(r['cpu_insn'] for _, r in rows):.2f} s CPU for every instruction of a workload, {max(r['rewrite_bb'] for _, r in rows):.2f} s wall /
  {max(r['cpu_bb'] for _, r in rows):.2f} s CPU for every block with bbcount (goal: under 1 s). CPU is the
  time of tally inst and the cross compiler and linker it runs; wall is larger on this shared machine
  (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs when written).
"""
    missing = [f"{fl}/{w}" for fl in FLAVOURS for w in WORKLOADS if (fl, w) not in dict(rows)]
    if missing:
        text += f"\nNot measured in this run: {', '.join(missing)}.\n"
    with open(os.path.join(HERE, "results.md"), "w") as f:
        f.write(text)
    print(f"geomean {geo:.2f}; wrote bench/inst/results.md")


if __name__ == "__main__":
    main()
