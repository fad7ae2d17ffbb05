#!/usr/bin/env python3
"""Cost of the PMU on the host (docs/pmu.md). Writes bench/pmu-results.md.

  bench/pmu.py                                   # build/, 5 runs
  bench/pmu.py --baseline /tmp/main/tally --workloads dhrystone,aes

1. A PMU access: tests/pmu/loop.S reads mhpmcounter3 200,000 times, its
   -DPLAIN twin reads mscratch instead (the same cycles on the simulated
   core); the difference of their median user CPU times, per access, is
   what a PMU access costs the simulator. The *_blocks variants first run
   4,000 blocks of code once, so that the block cache is that large.
2. The hot loop of programs that never touch the PMU: with --baseline (a
   tally binary built without the PMU, e.g. from the commit before it),
   timed runs (tally5) of shipped workloads on both binaries, interleaved;
   the ratio of median user CPU times should be 1 within noise.

Each program's output and exit status must be the same in every run.
"""
import argparse
import datetime
import math
import os
import platform
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import benchlib  # noqa: E402

LOOPS = 200000
SIZES = {"dhrystone": "300000", "aes": "2000", "crc32": "10240", "fft": "40"}


def run(cmd):
    """(exit status, stdout, user CPU seconds) of one run."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    return os.waitstatus_to_exitcode(status), out, ru.ru_utime


def medians(cmds, runs):
    """Median user time of each command, runs interleaved; checks outputs."""
    times = [[] for _ in cmds]
    first = [None] * len(cmds)
    for r in range(runs + 1):
        for i, cmd in enumerate(cmds):
            code, out, t = run(cmd)
            if first[i] is None:
                first[i] = (code, out)  # the warm-up run
                continue
            if (code, out) != first[i]:
                raise SystemExit(f"pmu.py: {' '.join(cmd)}: output or exit status changed between runs")
            times[i].append(t)
    return [statistics.median(t) for t in times], [f[0] for f in first]


def access_cost(tally, build, runs):
    rows = []
    for name in ("loop", "loop_blocks"):
        pmu = os.path.join(build, "tests", "pmu", f"{name}.elf")
        plain = os.path.join(build, "tests", "pmu", f"{name}_plain.elf")
        (tp, tq), codes = medians([[tally, "run", "--core", "tally5", pmu], [tally, "run", "--core", "tally5", plain]],
                                  runs)
        if codes != [0, 0]:
            raise SystemExit(f"pmu.py: {name}: exit status {codes}, expected 0")
        rows.append((name, tp, tq, (tp - tq) / LOOPS * 1e6))
    return rows


def hot_loop(tally, baseline, build, workloads, runs):
    rows = []
    for w in workloads:
        elf = os.path.join(build, "target", "rv32imac", f"{w}.elf")
        cmds = [[tally, "run", "--core", "tally5", elf, SIZES[w]], [baseline, "run", "--core", "tally5", elf, SIZES[w]]]
        (tn, tb), codes = medians(cmds, runs)
        if codes[0] != codes[1]:
            raise SystemExit(f"pmu.py: {w}: exit status {codes[0]} here, {codes[1]} on the baseline")
        rows.append((w, tn, tb, tn / tb))
    return rows


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--build", default=os.path.join(REPO, "build"), help="build folder (default: build/)")
    ap.add_argument("--baseline", help="a tally binary without the PMU, for the hot-loop comparison")
    ap.add_argument("--workloads", default="dhrystone,aes,crc32,fft", help="for the hot-loop comparison")
    ap.add_argument("--runs", type=int, default=5, help="timed runs per program (default 5)")
    ap.add_argument("--output", default=os.path.join(HERE, "pmu-results.md"))
    a = ap.parse_args(argv[1:])
    tally = os.path.join(a.build, "tally")
    workloads = [w for w in a.workloads.split(",") if w]
    for w in workloads:
        if w not in SIZES:
            ap.error(f"no benchmark size for workload '{w}' (known: {', '.join(SIZES)})")
    access = access_cost(tally, a.build, a.runs)
    hot = hot_loop(tally, a.baseline, a.build, workloads, a.runs) if a.baseline else []
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# Cost of the PMU on the host",
        "",
        "Written by `bench/pmu.py` (see its header); rerun it to update. docs/pmu.md says what is measured.",
        "",
        f"- date: {now}",
        f"- machine: {benchlib.cpu_model()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}",
        f"- tally: {benchlib.first_line([tally, '--version'])}",
        f"- method: median user CPU time of {a.runs} runs per program after a warm-up run, programs interleaved",
        "",
        "## A PMU access",
        "",
        f"{LOOPS:,} reads of mhpmcounter3 against as many of mscratch (tests/pmu/loop.S, core tally5).",
        "",
        "| program | PMU s | mscratch s | per access, us |",
        "|---|--:|--:|--:|",
    ]
    for name, tp, tq, per in access:
        what = "4,000 blocks cached" if name == "loop_blocks" else "a few blocks cached"
        lines.append(f"| {name} ({what}) | {tp:.3f} | {tq:.3f} | {per:.2f} |")
    if hot:
        lines += [
            "",
            "## Programs that never touch the PMU",
            "",
            f"Timed runs (tally5) on this tally and on the baseline `{a.baseline}`.",
            "",
            "| workload | size | this s | baseline s | ratio |",
            "|---|--:|--:|--:|--:|",
        ]
        for w, tn, tb, r in hot:
            lines.append(f"| {w} | {SIZES[w]} | {tn:.3f} | {tb:.3f} | {r:.3f} |")
        gm = math.exp(sum(math.log(r) for *_, r in hot) / len(hot))
        lines += ["", f"Geometric mean this / baseline: {gm:.3f}."]
    with open(a.output, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
