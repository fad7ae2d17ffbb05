#!/usr/bin/env python3
"""Cost of the statistics module: 16 counters over 16 address ranges against
plain timing mode, on the shipped workloads. Writes its own section of
bench/results.md ("## Cost of the statistics module") and leaves the rest of
the file as it is. See bench/README.md.

  bench/statmod.py                                  # build/, 5 runs, intervals 100000 and 1000
  bench/statmod.py --build build-x --runs 7 --workloads aes,fft
  bench/statmod.py --intervals 100000 --output /tmp/r.md

For each workload (rv32imac, at the benchmark sizes of bench/run.py):
  1. its 16 hottest functions by self cycles (`tally profile --csv` at the
     workload's default size), each the range of one counter, the counters'
     signals taken in turn from SIGNALS (each signal on two functions);
  2. one warm-up run per mode, with `--stats`: the exit status must be 0,
     the output and the cycle count the same in every mode (the module is
     non-intrusive);
  3. --runs timed runs per mode, the modes interleaved (their order rotated
     each round) so that a busy moment of the shared machine hits them all;
  4. per mode, the median user CPU time of the tally process (wait4), which
     depends less on the machine's other load than the wall time.
The ratio statistics-module / timed is given per workload and as a geometric
mean over the workloads. Target (issue 4): at most 1.10 at a realistic
interval.
"""
import argparse
import csv
import datetime
import math
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from run import BENCH_SIZES  # noqa: E402  (one list of sizes for every benchmark)
from benchlib import write_section  # noqa: E402

HEADING = "## Cost of the statistics module"
TARGET = 1.10
NFUNCS = 16
# A mix of a cycle count, retirements, cache events, stalls and instruction
# classes: each is counted in two of the 16 functions.
SIGNALS = ["cycle", "instret", "dcache.read_miss", "icache.miss", "dcache.write_miss", "stall",
           "branch.taken", "load"]
CYCLES_RE = re.compile(r"^\s*cycles\s+([0-9,]+)\s*$", re.M)


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, check=True, **kw).stdout


def machine():
    try:
        model = re.search(r"Model name:\s*(.+)", sh(["lscpu"]))
        cpu = model.group(1).strip() if model else platform.processor()
    except (OSError, subprocess.CalledProcessError):
        cpu = platform.processor() or "unknown CPU"
    return f"{cpu}, {os.cpu_count()} cores (`nproc`), Linux {platform.release()}"


def load():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def hottest(tally, elf, scratch):
    """The NFUNCS functions with the most self cycles at the default size."""
    out = os.path.join(scratch, "profile.csv")
    p = subprocess.run([tally, "profile", "--csv", out, elf], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"tally profile {elf} failed (status {p.returncode}):\n{p.stderr}")
    with open(out, newline="") as f:
        rows = [r for r in csv.DictReader(f) if int(r["hi"], 16) > int(r["lo"], 16)]
    rows.sort(key=lambda r: (-int(r["cycle"]), int(r["lo"], 16)))
    names = []
    for r in rows:  # one counter per distinct range, named as tally names it
        if r["function"] not in names:
            names.append(r["function"])
    if len(names) < NFUNCS:
        raise SystemExit(f"{elf}: only {len(names)} functions, {NFUNCS} needed")
    return names[:NFUNCS]


def count_args(funcs, interval):
    args = []
    for i, f in enumerate(funcs):
        args += ["--count", f"{SIGNALS[i % len(SIGNALS)]}@{f}"]
    return args + ["--interval", str(interval)]


def run_once(cmd, scratch):
    """(status, stdout, stderr, user seconds, wall seconds) of one run."""
    out_path = os.path.join(scratch, "stdout")
    err_path = os.path.join(scratch, "stderr")
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL, cwd=scratch)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.monotonic() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
    with open(out_path, "rb") as f:
        stdout = f.read()
    with open(err_path, "rb") as f:
        stderr = f.read().decode(errors="replace")
    return p.returncode, stdout, stderr, ru.ru_utime, wall


def fmt_s(x):
    return f"{x:.3f}"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(REPO, "build"), help="build directory (default build/)")
    ap.add_argument("--tally", help="tally binary (default BUILD/tally)")
    ap.add_argument("--runs", type=int, default=5, help="timed runs per mode (default 5, at least 3)")
    ap.add_argument("--intervals", default="100000,1000",
                    help="dispatch periods in cycles, comma-separated (default 100000,1000); the first is "
                         "the one held to the target")
    ap.add_argument("--workloads", help="a comma-separated subset")
    ap.add_argument("--output", default=os.path.join(REPO, "bench", "results.md"))
    opt = ap.parse_args(argv)
    if opt.runs < 3:
        ap.error("--runs: at least 3")
    try:
        intervals = [int(x) for x in opt.intervals.split(",")]
    except ValueError:
        ap.error(f"--intervals: whole numbers of cycles, not '{opt.intervals}'")
    if not intervals or min(intervals) < 1:
        ap.error("--intervals: at least one period of 1 cycle or more")
    tally = opt.tally or os.path.join(opt.build, "tally")
    if not os.access(tally, os.X_OK):
        raise SystemExit(f"no tally at {tally}: build it first (cmake --build {opt.build})")
    tally = os.path.abspath(tally)
    wdir = os.path.join(os.path.abspath(opt.build), "target", "rv32imac")
    names = sorted(BENCH_SIZES)
    if opt.workloads:
        names = opt.workloads.split(",")
        unknown = [n for n in names if n not in BENCH_SIZES]
        if unknown:
            ap.error(f"--workloads: unknown {', '.join(unknown)} (known: {', '.join(sorted(BENCH_SIZES))})")
    for n in names:
        if not os.path.exists(os.path.join(wdir, n + ".elf")):
            raise SystemExit(f"no {wdir}/{n}.elf: build the workloads first")
    # When tally run stores intervals in a database by default, keep it in the scratch directory.
    run_help = sh([tally, "run", "--help"])
    store_args = ["--db", "statmod-bench.db"] if "--db" in run_help else []

    # Each interval twice: with the run stored through the embedded collector
    # (a thread of the same process, so its CPU time counts), and the module
    # alone (--no-store).
    modes = ["timed"] + [f"{k}@{iv}" for iv in intervals for k in ("statmod", "nostore")]
    load0 = load()
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-statmod-", dir=os.path.abspath(opt.build)) as scratch:
        for name in names:
            elf = os.path.join(wdir, name + ".elf")
            size = BENCH_SIZES[name]
            funcs = hottest(tally, elf, scratch)
            cmds = {"timed": [tally, "run", "--core", "tally5", elf, size]}
            for iv in intervals:
                cmds[f"statmod@{iv}"] = [tally, "run", "--core", "tally5"] + store_args + \
                    count_args(funcs, iv) + [elf, size]
                cmds[f"nostore@{iv}"] = [tally, "run", "--core", "tally5", "--no-store"] + \
                    count_args(funcs, iv) + [elf, size]
            print(f"[{name} {size}] counting in {', '.join(funcs)}", flush=True)
            # warm-up, and the non-intrusiveness check: same output, same cycles
            ref = None
            for m in modes:
                c = cmds[m][:2] + ["--stats"] + cmds[m][2:]
                st, out, err, _, _ = run_once(c, scratch)
                if st != 0:
                    raise SystemExit(f"{' '.join(c)}: exit status {st}\n{err[-2000:]}")
                cyc = CYCLES_RE.search(err)
                if not cyc:
                    raise SystemExit(f"{' '.join(c)}: no cycle count in --stats output")
                if ref is None:
                    ref = (out, cyc.group(1))
                elif (out, cyc.group(1)) != ref:
                    raise SystemExit(f"{name}: mode {m} changed the program's output or cycle count "
                                     f"({cyc.group(1)} against {ref[1]} cycles)")
            user = {m: [] for m in modes}
            wall = {m: [] for m in modes}
            for r in range(opt.runs):
                order = modes[r % len(modes):] + modes[:r % len(modes)]
                for m in order:
                    st, out, err, u, w = run_once(cmds[m], scratch)
                    if st != 0 or out != ref[0]:
                        raise SystemExit(f"{' '.join(cmds[m])}: status {st}, output "
                                         f"{'same' if out == ref[0] else 'different'}\n{err[-2000:]}")
                    user[m].append(u)
                    wall[m].append(w)
            row = {"name": name, "size": size, "cycles": ref[1], "funcs": funcs,
                   "user": {m: statistics.median(user[m]) for m in modes},
                   "wall": {m: statistics.median(wall[m]) for m in modes}}
            rows.append(row)
            print("    " + ", ".join(f"{m} {row['user'][m]:.3f} s" for m in modes), flush=True)
    load1 = load()

    def geomean(xs):
        return math.exp(sum(math.log(x) for x in xs) / len(xs))

    ratios = {m: [r["user"][m] / r["user"]["timed"] for r in rows] for m in modes[1:]}
    wratios = {m: [r["wall"][m] / r["wall"]["timed"] for r in rows] for m in modes[1:]}
    g = {m: geomean(ratios[m]) for m in modes[1:]}
    gw = {m: geomean(wratios[m]) for m in modes[1:]}
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    try:
        rev = sh(["git", "-C", REPO, "describe", "--always", "--dirty"]).strip()
    except (OSError, subprocess.CalledProcessError):
        rev = "unknown"
    try:
        version = sh([tally, "--version"]).strip()
    except (OSError, subprocess.CalledProcessError):
        version = "unknown"
    ivs = " and ".join(f"{iv:,}" for iv in intervals)
    first, alone = modes[1], modes[2]

    def label(m):
        kind, iv = m.split("@")
        return f"interval {int(iv):,}{', stored' if kind == 'statmod' else ', no store'}"

    out = [HEADING, "",
           "Written by `bench/statmod.py` (see bench/README.md); rerun it to update.", "",
           f"- date: {now}",
           f"- machine: {machine()}",
           f"- load average (1 min) before / after: {load0} / {load1} — the machine is shared",
           f"- tally: {version}; source: git {rev}",
           f"- command: `bench/statmod.py --runs {opt.runs} --intervals {opt.intervals}"
           f"{' --workloads ' + opt.workloads if opt.workloads else ''}`",
           f"- method: median **user CPU time** of {opt.runs} runs per mode after one warm-up run each, "
           "the modes interleaved (order rotated every round); rv32imac workloads at the benchmark sizes "
           "of `bench/run.py`; the warm-up runs check that every mode gives the same output and the same "
           "cycle count (`--stats`), and every timed run that the output is the same",
           "- peer: plain timing mode, `tally run --core tally5 PROGRAM SIZE`",
           f"- statistics module: `tally run --core tally5 --count SIGNAL@FUNC` × {NFUNCS} "
           f"`--interval N PROGRAM SIZE`, N = {ivs} cycles: one counter on each of the workload's {NFUNCS} "
           "hottest functions by self cycles (`tally profile` at the default size), signals "
           f"{', '.join(SIGNALS)} in turn (each on two functions)",
           "",
           "- *stored*: the run goes through the board link to the embedded collector and into SQLite "
           "(`--db` in the scratch folder); *no store*: `--no-store`, the module and its table only",
           "",
           "| workload | size | cycles | timed s | " +
           " | ".join(f"{label(m)} s | ratio" for m in modes[1:]) + " |",
           "|---|--:|--:|--:|" + "--:|--:|" * (len(modes) - 1)]
    for i, r in enumerate(rows):
        cells = [r["name"], r["size"], r["cycles"], fmt_s(r["user"]["timed"])]
        for m in modes[1:]:
            cells += [fmt_s(r["user"][m]), f"{ratios[m][i]:.3f}"]
        out.append("| " + " | ".join(cells) + " |")
    out.append("| **geometric mean** | | | | " + " | ".join(f" | **{g[m]:.3f}**" for m in modes[1:]).strip() + " |")
    out += ["",
            "Geometric mean of the wall-time ratios, for comparison: " +
            ", ".join(f"{label(m)}: {gw[m]:.3f}" for m in modes[1:]) + ".",
            "",
            f"Target: at most {TARGET:.2f}× timing mode (geometric mean) at a realistic interval. "
            f"At {int(first.split('@')[1]):,} cycles: the module alone **{g[alone]:.3f}** "
            f"({'meets' if g[alone] <= TARGET else 'misses'} the target); stored through the embedded "
            f"collector **{g[first]:.3f}** ({'meets' if g[first] <= TARGET else 'misses'} it).",
            "",
            "Functions counted (hottest first):",
            ""]
    for r in rows:
        out.append(f"- {r['name']}: {', '.join(r['funcs'])}")
    out.append("")
    section = "\n".join(out)
    write_section(opt.output, HEADING, section)
    print(f"wrote {opt.output}")
    print(section)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
