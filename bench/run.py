#!/usr/bin/env python3
"""Speed benchmark: tally against QEMU on the shipped workloads.

Runs every workload (target/workloads/*.c, built by CMake into
BUILD/target/<flavour>/<name>.elf) alternately on tally and on QEMU
(scripts/qemu-run.sh), --runs times each after one untimed warm-up run,
checks that both exit 0 with the same output, and takes the median wall
time of each. The instruction count comes from `tally run -v`. Both
simulators' wall times include their start-up; the empty program
(empty.elf) is timed the same way, and a second set of figures has its
median subtracted.

Writes bench/results.md (or --output) with the machine, the tool versions
and one table per flavour. Standard library only.

Examples:
  bench/run.py                      # rv32imac, 5 runs each, build/ dir
  bench/run.py --build /tmp/b --all --runs 7
  bench/run.py --qemu-only          # before tally exists: QEMU times only
  bench/run.py --sizes default      # the workloads' own (small) sizes
"""
import argparse
import datetime
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QEMU_RUN = os.path.join(REPO, "scripts", "qemu-run.sh")
sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.join(REPO, "tests", "diff"))
import qemu_icount  # noqa: E402  (exact counts from QEMU's execution trace)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import cpu_model, first_line, kept_sections  # noqa: E402
FLAVOURS = ["rv32imac", "rv32i"]

# Benchmark sizes (argv[1]): about 250-300 million instructions each in the
# rv32imac flavour (more in rv32i), twenty times the workloads' defaults, so
# that QEMU's start-up (about 45 ms) is a small part of its time.
# `--sizes default` runs the defaults (about 10-20 million instructions).
BENCH_SIZES = {
    "dhrystone": "750000", "aes": "6000", "heapsort": "180000", "hanoi": "22",
    "crc32": "30720", "matmul": "300", "blast": "15000", "qsort": "400000",
    "fft": "480", "dct": "90",
}

SUMMARY_RE = re.compile(r"tally: ([0-9][0-9,.' ]*) instructions")
# Start-up-subtracted times shorter than this are timer noise, not data.
MIN_NET_SECONDS = 0.002


# Sections of the results file that other scripts write (bench/collector/run.py,
# bench/statmod.py): kept as they are when this one rewrites the file.
OTHER_WRITERS = ("## Collector and store", "## Cost of the statistics module", "## Old against new binary")


class BenchError(Exception):
    pass


def workloads_in_tree():
    d = os.path.join(REPO, "target", "workloads")
    return sorted(f[:-2] for f in os.listdir(d) if f.endswith(".c"))


def tool_versions(tally, qemu):
    v = {}
    v["tally"] = first_line([tally, "--version"]) if tally else "not used (--qemu-only)"
    git = first_line(["git", "-C", REPO, "describe", "--always", "--dirty"])
    v["tally source"] = f"git {git}" if git != "unknown" else "unknown"
    v["QEMU"] = first_line([qemu, "--version"])
    v["riscv gcc"] = first_line(["riscv64-unknown-elf-gcc", "--version"])
    pico = first_line(["dpkg-query", "-W", "-f", "${Version}", "picolibc-riscv64-unknown-elf"])
    v["picolibc"] = pico
    v["python"] = platform.python_version()
    return v


def parse_count(stderr):
    m = None
    for line in stderr.splitlines():
        m = SUMMARY_RE.search(line) or m
    if not m:
        return None
    return int(re.sub(r"[^0-9]", "", m.group(1)))


def timed(cmd, env=None, timeout=600):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, env=env,
                       timeout=timeout)
    return time.perf_counter() - t0, p


def run_tally(tally, elf, args):
    dt, p = timed([tally, "run", "-v", elf] + args)
    if p.returncode != 0:
        raise BenchError(f"tally run {os.path.basename(elf)} {' '.join(args)}: exit status "
                         f"{p.returncode}\n{p.stderr.decode(errors='replace')[-2000:]}")
    n = parse_count(p.stderr.decode(errors="replace"))
    if n is None:
        raise BenchError("no instruction count in the output of `tally run -v` "
                         f"(stderr was: {p.stderr.decode(errors='replace')[-500:]!r})")
    return dt, n, p.stdout


def run_qemu(qemu, elf, args):
    env = dict(os.environ, QEMU_SYSTEM_RISCV32=qemu)
    dt, p = timed([QEMU_RUN, elf] + args, env=env)
    if p.returncode != 0:
        raise BenchError(f"QEMU {os.path.basename(elf)} {' '.join(args)}: exit status "
                         f"{p.returncode}\n{p.stderr.decode(errors='replace')[-2000:]}")
    return dt, p.stdout


def measure(name, elf, args, tally, qemu, runs, qemu_count=False):
    """Alternates tally and QEMU runs; returns a dict of medians and count."""
    # Warm-up (page cache, CPU frequency), untimed.
    if tally:
        run_tally(tally, elf, args)
    run_qemu(qemu, elf, args)
    t_times, q_times, counts, outputs = [], [], set(), set()
    for _ in range(runs):
        if tally:
            dt, n, out = run_tally(tally, elf, args)
            t_times.append(dt)
            counts.add(n)
            outputs.add(out)
        dt, out = run_qemu(qemu, elf, args)
        q_times.append(dt)
        outputs.add(out)
    if len(counts) > 1:
        raise BenchError(f"{name}: tally reported different instruction counts: {sorted(counts)}")
    if len(outputs) > 1:
        raise BenchError(f"{name}: output differs between runs or between tally and QEMU")
    if qemu_count:
        os.environ["QEMU_SYSTEM_RISCV32"] = qemu
        n, rc = qemu_icount.count(elf, args)
        if rc != 0:
            raise BenchError(f"{name}: QEMU trace run exited with status {rc}")
        if counts and n not in counts:
            raise BenchError(f"{name}: tally counts {min(counts):,} instructions, "
                             f"QEMU's trace {n:,}")
        counts = {n}
    return {
        "tally_s": statistics.median(t_times) if t_times else None,
        "qemu_s": statistics.median(q_times),
        "insns": counts.pop() if counts else None,
    }


MODES = [
    ("functional", ["run"]),
    ("timed", ["run", "--core", "tally5"]),
    ("profiled", ["profile", "--core", "tally5", "--top", "1"]),
]


def measure_modes(name, elf, args, tally, runs):
    """Alternates tally in each mode on one ELF; returns the median seconds per mode."""
    times = {m: [] for m, _ in MODES}
    for i in range(runs + 1):  # the first round is the warm-up
        for mode, cmd in MODES:
            dt, p = timed([tally] + cmd + [elf] + args)
            if p.returncode != 0:
                raise BenchError(f"tally {' '.join(cmd)} {name}: exit status {p.returncode}\n"
                                 f"{p.stderr.decode(errors='replace')[-1000:]}")
            if i:
                times[mode].append(dt)
    return {m: statistics.median(t) for m, t in times.items()}


def modes_table(rows):
    out = ["## Cost of timing and profiling", "",
           "The same ELF run by tally functionally, with the default core model (tally5), and",
           "with an exact profile of every function and arc (`tally profile`); median wall",
           "time of each, the three modes alternating. Targets: timed / functional at most 2,",
           "profiled / timed at most 1.3 (geometric means).", "",
           "| workload | functional s | timed s | profiled s | timed / functional | profiled / timed |",
           "|---|--:|--:|--:|--:|--:|"]
    tf, pt = [], []
    for r in rows:
        a, b = r["timed"] / r["functional"], r["profiled"] / r["timed"]
        tf.append(a)
        pt.append(b)
        out.append(f"| {r['name']} | {r['functional']:.3f} | {r['timed']:.3f} | {r['profiled']:.3f} "
                   f"| {a:.2f} | {b:.2f} |")
    out.append(f"| **geometric mean** | | | | **{geomean(tf):.2f}** | **{geomean(pt):.2f}** |")
    out.append("")
    return "\n".join(out), geomean(tf), geomean(pt)


def mips(insns, seconds):
    if insns is None or seconds is None or seconds < MIN_NET_SECONDS:
        return None
    return insns / seconds / 1e6


def geomean(xs):
    xs = [x for x in xs if x]
    if not xs:
        return None
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def fmt(x, spec, missing="n/a"):
    return missing if x is None else format(x, spec)


def table(flavour, rows, empty):
    out = []
    out.append(f"### {flavour}\n")
    te, qe = empty["tally_s"], empty["qemu_s"]
    out.append(f"Start-up (empty.elf, {fmt(empty['insns'], ',', 'n/a')} instructions): "
               f"tally {fmt(te and te * 1e3, '.1f')} ms, QEMU {fmt(qe * 1e3, '.1f')} ms.\n")
    out.append("| workload | size | instructions | tally s | QEMU s | tally MIPS | QEMU MIPS "
               "| tally/QEMU | tally MIPS net | QEMU MIPS net | tally/QEMU net |")
    out.append("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    ratios, ratios_net = [], []
    for r in rows:
        n = r["insns"]
        tm, qm = mips(n, r["tally_s"]), mips(n, r["qemu_s"])
        tn = mips(n, r["tally_s"] - te) if r["tally_s"] is not None and te is not None else None
        qn = mips(n, r["qemu_s"] - qe)
        ratio = tm / qm if tm and qm else None
        ratio_net = tn / qn if tn and qn else None
        ratios.append(ratio)
        ratios_net.append(ratio_net)
        out.append(f"| {r['name']} | {r['size']} | {fmt(n, ',')} | {fmt(r['tally_s'], '.3f')} "
                   f"| {r['qemu_s']:.3f} | {fmt(tm, '.1f')} | {fmt(qm, '.1f')} "
                   f"| {fmt(ratio, '.3f')} | {fmt(tn, '.1f')} | {fmt(qn, '.1f')} "
                   f"| {fmt(ratio_net, '.3f')} |")
    g, gn = geomean(ratios), geomean(ratios_net)
    out.append(f"| **geometric mean** | | | | | | | **{fmt(g, '.3f')}** | | "
               f"| **{fmt(gn, '.3f')}** |")
    out.append("")
    return "\n".join(out), g, gn


def count_source(tally, qemu_count):
    if tally is None:
        return ("exact count from QEMU's execution trace" if qemu_count else
                "not measured (--qemu-only without --qemu-count)")
    return "exact count from `tally run -v`" + (
        ", equal to QEMU's execution trace count" if qemu_count else "")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--build", default=os.environ.get("TALLY_BUILD", os.path.join(REPO, "build")),
                    help="CMake build directory (default: build/ or $TALLY_BUILD)")
    ap.add_argument("--tally", help="tally binary (default: BUILD/tally)")
    ap.add_argument("--qemu", default=os.environ.get("QEMU_SYSTEM_RISCV32", "qemu-system-riscv32"),
                    help="QEMU binary (default: qemu-system-riscv32)")
    ap.add_argument("--all", action="store_true", help="both flavours (default: rv32imac only)")
    ap.add_argument("--runs", type=int, default=5, help="timed runs per simulator (default 5)")
    ap.add_argument("--sizes", choices=["bench", "default"], default="bench",
                    help="bench: large sizes, ~250M+ instructions each (default); "
                         "default: the workloads' own sizes")
    ap.add_argument("--workloads", help="comma-separated subset (default: all)")
    ap.add_argument("--qemu-only", action="store_true",
                    help="no tally: QEMU times only (instruction counts and MIPS marked n/a)")
    ap.add_argument("--qemu-count", action="store_true",
                    help="also count instructions from QEMU's execution trace and require "
                         "tally's count to match; fills the count in with --qemu-only "
                         "(slow, ~0.5M instructions/s: use with --sizes default)")
    ap.add_argument("--no-modes", action="store_true",
                    help="skip the timing/profiling cost table (tally functional vs timed vs "
                         "profiled)")
    ap.add_argument("--output", default=os.path.join(REPO, "bench", "results.md"),
                    help="results file (default: bench/results.md)")
    opt = ap.parse_args(argv)

    if opt.runs < 5:
        ap.error("--runs must be at least 5 (the median of fewer runs is not worth reporting)")
    tally = None
    if not opt.qemu_only:
        tally = opt.tally or os.path.join(opt.build, "tally")
        if not (os.path.isfile(tally) and os.access(tally, os.X_OK)):
            print(f"bench/run.py: error: tally binary not found at {tally}\n"
                  f"  build it (cmake --build {opt.build} --target tally), point --build or "
                  f"--tally at it, or run with --qemu-only", file=sys.stderr)
            return 2
        tally = os.path.abspath(tally)
    if shutil.which(opt.qemu) is None:
        print(f"bench/run.py: error: {opt.qemu} not found (Debian package qemu-system-misc)",
              file=sys.stderr)
        return 2

    names = workloads_in_tree()
    if opt.workloads:
        wanted = opt.workloads.split(",")
        unknown = [w for w in wanted if w not in names]
        if unknown:
            ap.error(f"unknown workloads: {', '.join(unknown)} (have: {', '.join(names)})")
        names = wanted
    flavours = FLAVOURS if opt.all else FLAVOURS[:1]

    for flavour in flavours:
        for name in names + ["empty"]:
            elf = os.path.join(opt.build, "target", flavour, name + ".elf")
            if not os.path.isfile(elf):
                print(f"bench/run.py: error: {elf} is missing: build the workloads first "
                      f"(cmake --build {opt.build} --target workloads)", file=sys.stderr)
                return 2

    started = datetime.datetime.now(datetime.timezone.utc)
    sections, summary = [], []
    try:
        for flavour in flavours:
            d = os.path.join(opt.build, "target", flavour)
            print(f"[{flavour}] empty.elf ...", flush=True)
            empty = measure("empty", os.path.join(d, "empty.elf"), [], tally, opt.qemu, opt.runs,
                            opt.qemu_count)
            rows = []
            for name in names:
                size = BENCH_SIZES.get(name) if opt.sizes == "bench" else None
                args = [size] if size else []
                print(f"[{flavour}] {name} {' '.join(args)} ...", flush=True)
                r = measure(name, os.path.join(d, name + ".elf"), args, tally, opt.qemu, opt.runs,
                            opt.qemu_count)
                r.update(name=name, size=size or "default")
                rows.append(r)
                print(f"    instructions {fmt(r['insns'], ',')}, tally "
                      f"{fmt(r['tally_s'], '.3f')} s, QEMU {r['qemu_s']:.3f} s", flush=True)
            text, g, gn = table(flavour, rows, empty)
            sections.append(text)
            summary.append((flavour, g, gn))
        modes_text = None
        if tally and not opt.no_modes:
            mrows = []
            d = os.path.join(opt.build, "target", FLAVOURS[0])
            for name in names:
                size = BENCH_SIZES.get(name) if opt.sizes == "bench" else None
                args = [size] if size else []
                print(f"[modes] {name} {' '.join(args)} ...", flush=True)
                r = measure_modes(name, os.path.join(d, name + ".elf"), args, tally, opt.runs)
                r.update(name=name)
                mrows.append(r)
                print(f"    functional {r['functional']:.3f} s, timed {r['timed']:.3f} s, "
                      f"profiled {r['profiled']:.3f} s", flush=True)
            modes_text, g_tf, g_pt = modes_table(mrows)
    except BenchError as e:
        print(f"bench/run.py: error: {e}", file=sys.stderr)
        return 1

    v = tool_versions(tally, opt.qemu)
    lines = [
        "# tally speed benchmark",
        "",
        "Written by `bench/run.py` (see bench/README.md); rerun it to update. Earlier results",
        "are in this file's git history.",
        "",
        f"- date: {started.strftime('%Y-%m-%d %H:%M UTC')}",
        f"- machine: {cpu_model()}, {os.cpu_count()} cores, {platform.system()} "
        f"{platform.release()}",
    ]
    lines += [f"- {k}: {val}" for k, val in v.items()]
    lines += [
        f"- method: median wall time of {opt.runs} runs per simulator, tally and QEMU "
        f"alternating on the same ELF after one warm-up run each; sizes: "
        f"{'benchmark sizes (argv[1] below)' if opt.sizes == 'bench' else 'workload defaults'}",
        "- instructions: " + count_source(tally, opt.qemu_count)
        + "; MIPS = instructions / wall time",
        "- *net* columns: the median wall time of empty.elf (each simulator's start-up and exit)",
        f"  subtracted first; times under {MIN_NET_SECONDS * 1e3:.0f} ms after subtraction "
        "are shown as n/a",
        "- ratio > 1: tally is faster than QEMU",
        "",
    ]
    if tally is None:
        lines += ["**tally figures missing: this run used --qemu-only.**", ""]
    lines += ["## Summary", "", "| flavour | geomean tally/QEMU | geomean tally/QEMU net |",
              "|---|--:|--:|"]
    lines += [f"| {f} | {fmt(g, '.3f')} | {fmt(gn, '.3f')} |" for f, g, gn in summary]
    if modes_text:
        lines += ["", f"Timed / functional (tally5): geomean {g_tf:.2f}; profiled / timed: {g_pt:.2f}."]
    lines += ["", "## Per workload", ""] + sections
    if modes_text:
        lines += [modes_text]
    text = "\n".join(lines).rstrip() + "\n"
    kept = kept_sections(opt.output, OTHER_WRITERS)
    with open(opt.output, "w") as f:
        f.write(text + ("\n" + kept if kept else ""))
    print(f"wrote {opt.output}")
    for f_, g, gn in summary:
        print(f"{f_}: geomean tally/QEMU {fmt(g, '.3f')}, net {fmt(gn, '.3f')}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
