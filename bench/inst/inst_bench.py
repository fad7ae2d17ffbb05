#!/usr/bin/env python3
"""bench/inst/inst_bench.py [BUILD_DIR]
   bench/inst/inst_bench.py --default-sizes [BUILD_DIR]   (after a main run)

Figures of `tally inst` (docs/tally-inst.md), written to
bench/inst/results.md with the date and the machine:

  - every-basic-block counting (bbcount) at --tactic trap and at --tactic
    auto (jump where a trampoline can do it): simulated cycles of the
    instrumented run / the original's on the tally5 core, per workload and
    flavour, and the geometric means; at auto both ways bbcount counts:
    flow (the default: a few edges counted, every block's count derived by
    flow conservation at exit) and all (--bbcount all: a counter in every
    block), in the same run;
  - the cost of one site in simulated cycles: at --tactic trap,
    (instrumented cycles - original cycles) / site executions, with the
    empty analysis (tool none) and with bbcount; at auto, the statistics
    module's cycles in the trampolines per jump-site execution and in the
    runtime per trap-site execution, and the program's own extra I-cache
    misses; the executions are bbcount's own counts (tied to tally's exact
    counts by the bbcount law), split by the tactic --report gave each site;
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


RUNTIME = (0x88000000, 0x89000000)   # the analysis region (docs/tally-inst.md)
# The trap tactic costs ~500 cycles per block execution: it is measured on the
# workloads whose original run is shorter than this (the others would take
# tens of minutes of simulation for a figure that hardly varies per site).
TRAP_MAX_CYCLES = 1_000_000


def run_cycles(tally, elf, size, cwd, ranges=()):
    """Cycles of a run; with ranges [(lo, hi)], also the statistics module's
    (cycles in lo-hi, I-cache misses in lo-hi) for each."""
    out = os.path.join(cwd, "stats.json")
    cmd = [tally, "run", "--core", "tally5", "--stats-json", out, "--semihost-files", "rw"]
    if ranges:
        cmd += ["--interval", "4000000000", "--intervals-csv", os.path.join(cwd, "iv.csv")]
        for lo, hi in ranges:
            cmd += ["--count", "cycle@0x%x-0x%x" % (lo, hi), "--count", "icache.miss@0x%x-0x%x" % (lo, hi)]
    subprocess.run(cmd + [elf] + ([str(size)] if size is not None else []), cwd=cwd, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    with open(out) as f:
        cycles = json.load(f)["cycles"]
    if not ranges:
        return cycles
    with open(os.path.join(cwd, "iv.csv")) as f:
        total = [line.split(",") for line in f if line.startswith("total,")][0]
    v = [int(x) for x in total[3:3 + 2 * len(ranges)]]
    return cycles, [(v[2 * i], v[2 * i + 1]) for i in range(len(ranges))]


def instrument(tally, elf, out, points, tool, tactic="auto", report=None, bbcount="flow"):
    """(wall seconds, CPU seconds of tally inst and the toolchain it runs)"""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    cmd = [tally, "inst", "--points", points, "--tool", tool, "--tactic", tactic, "--bbcount", bbcount, elf, "-o", out]
    p = subprocess.run(cmd + (["--report"] if report is not None else []), check=True, capture_output=True,
                       text=True)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if report is not None:
        for line in p.stdout.splitlines():
            f = line.split()
            if f and f[0].startswith("0x"):
                report[int(f[0], 16)] = "jump" if "  jump  " in line else "trap"
    return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def bbcounts(path):
    """{original pc: count} of a bbcount.out"""
    data = open(path, "rb").read()
    n = struct.unpack_from("<I", data, 8)[0]
    return {struct.unpack_from("<I", data, 12 + 16 * i)[0]: struct.unpack_from("<Q", data, 12 + 16 * i + 8)[0]
            for i in range(n)}


def hole(elf):
    """[lo, hi) of the output's trampolines (section .tally_inst.tramp), or None."""
    out = subprocess.run(["riscv64-unknown-elf-readelf", "-SW", elf], capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.replace("[ ", "[").split()
        if len(f) > 5 and f[1] == ".tally_inst.tramp":
            lo = int(f[3], 16)
            return lo, lo + int(f[5], 16)
    return None


def symbol_range(elf, name):
    """[lo, hi) of a symbol of the output (the analysis's carry an "inst." prefix)."""
    out = subprocess.run(["riscv64-unknown-elf-nm", "-S", elf], capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[3] == name:
            return int(f[0], 16), int(f[0], 16) + int(f[1], 16)
    return 0, 0


def measure_flow(tally, elf, size, tmp, res):
    """bbcount's default (flow) at auto: cycles, counting sites, and where the
    added cycles go (trampolines, the runtime, the derivation at exit)."""
    out = os.path.join(tmp, "flow.elf")
    rep = {}
    instrument(tally, elf, out, "bb", "bbcount", "auto", rep)
    h = hole(out) or (0, 0)
    fini = symbol_range(out, "inst.tally_inst_fini")
    cyc, ranges = run_cycles(tally, out, size, tmp, [h, RUNTIME, fini])
    res["flow_bbcount"] = cyc
    res["flow_tramp_cycles"], res["flow_rt_cycles"], res["flow_fini_cycles"] = (r[0] for r in ranges)
    res["flow_sites"] = sum(1 for t in rep.values())
    res["flow_jump_sites"] = sum(1 for t in rep.values() if t == "jump")


def measure(tally, build, flavour, w, tmp):
    elf = os.path.join(build, "target", flavour, w + ".elf")
    size = SIZES[w]
    orig, [(_, orig_miss)] = run_cycles(tally, elf, size, tmp, [(0x80000000, 0x88000000)])
    res = {"orig": orig}
    for tactic in ("trap", "auto") if orig < TRAP_MAX_CYCLES else ("auto",):
        for tool in ("none", "bbcount"):
            out = os.path.join(tmp, f"{w}.{tactic}.{tool}.elf")
            rep = {}
            instrument(tally, elf, out, "bb", tool, tactic, rep, "all")  # a count per site: per-site figures
            if tactic == "auto" and tool == "bbcount":
                h = hole(out) or (0, 0)
                cyc, ranges = run_cycles(tally, out, size, tmp, [h, RUNTIME, (0x80000000, 0x88000000)])
                res["tramp_cycles"], res["tramp_miss"] = ranges[0]
                res["rt_cycles"] = ranges[1][0]
                res["extra_miss"] = ranges[2][1] - ranges[0][1] - orig_miss
            else:
                cyc = run_cycles(tally, out, size, tmp)
            res[tactic + "_" + tool] = cyc
            if tool == "bbcount":
                counts = bbcounts(os.path.join(tmp, "bbcount.out"))
                res[tactic + "_executions"] = sum(counts.values())
                if tactic == "auto":
                    res["jump_executions"] = sum(c for pc, c in counts.items() if rep.get(pc) == "jump")
                    res["jump_sites"] = sum(1 for t in rep.values() if t == "jump")
                    res["trap_sites"] = sum(1 for t in rep.values() if t == "trap")
    res["executions"] = res["auto_executions"]
    measure_flow(tally, elf, size, tmp, res)
    for points, tool in (("insn", "none"), ("bb", "bbcount")):
        runs = [instrument(tally, elf, os.path.join(tmp, "t.elf"), points, tool) for _ in range(3)]
        res["rewrite_" + points] = statistics.median(w for w, _ in runs)
        res["cpu_" + points] = statistics.median(c for _, c in runs)
    return res


def table(rows):
    lines = ["| workload | flavour | original cycles | trap: bbcount ratio | trap: cycles/site none / bbcount "
             "| auto: bb+none ratio | auto: bbcount all ratio | auto: bbcount flow ratio | flow: sites (jump) "
             "| flow: cycles in trampolines / runtime / derivation at exit | all: sites jump / trap | executions jump / trap "
             "| trampoline cycles per jump execution | runtime cycles per trap execution "
             "| I-cache misses: trampolines / program's extra | rewrite insn: wall / CPU s "
             "| rewrite bb: wall / CPU s |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for (flavour, w), r in rows:
        ex = r["executions"]
        jx = r["jump_executions"]
        tx = r["auto_executions"] - jx
        trap = (f"{r['trap_bbcount'] / r['orig']:.1f} | "
                f"{(r['trap_none'] - r['orig']) / ex:.0f} / {(r['trap_bbcount'] - r['orig']) / ex:.0f}"
                if "trap_bbcount" in r else "— | —")
        lines.append(f"| {w} | {flavour} | {r['orig']:,} | {trap} | "
                     f"{r['auto_none'] / r['orig']:.2f} | {r['auto_bbcount'] / r['orig']:.2f} | "
                     f"**{r['flow_bbcount'] / r['orig']:.2f}** | {r['flow_sites']} ({r['flow_jump_sites']}) | "
                     f"{r['flow_tramp_cycles']:,} / {r['flow_rt_cycles'] - r['flow_fini_cycles']:,} / "
                     f"{r['flow_fini_cycles']:,} | "
                     f"{r['jump_sites']} / {r['trap_sites']} | {jx:,} / {tx:,} | "
                     f"{r['tramp_cycles'] / max(jx, 1):.1f} | {r['rt_cycles'] / max(tx, 1):.0f} | "
                     f"{r['tramp_miss']:,} / {r['extra_miss']:,} | "
                     f"{r['rewrite_insn']:.2f} / {r['cpu_insn']:.2f} | {r['rewrite_bb']:.2f} / {r['cpu_bb']:.2f} |")
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


DEFAULT_HEADING = "## At the workloads' default sizes"


def measure_default_sizes(tally, build, tmp):
    """bbcount at auto, flow and all, with each workload run at its own
    default size (no argument: `bench/run.py --sizes default`), where the
    fixed costs (the runtime's start, the derivation at exit) amortise."""
    rows = []
    for flavour in FLAVOURS:
        for w in WORKLOADS:
            elf = os.path.join(build, "target", flavour, w + ".elf")
            r = {"orig": run_cycles(tally, elf, None, tmp)}
            for way in ("flow", "all"):
                out = os.path.join(tmp, f"{w}.{way}.elf")
                instrument(tally, elf, out, "bb", "bbcount", "auto", None, way)
                r[way] = run_cycles(tally, out, None, tmp)
            rows.append(((flavour, w), r))
            print("default-size", flavour, w, r, flush=True)
    return rows


def write_default_sizes(rows):
    """Puts (or replaces) the default-size section at the end of results.md."""
    path = os.path.join(HERE, "results.md")
    text = open(path).read()
    if DEFAULT_HEADING in text:
        text = text[:text.index(DEFAULT_HEADING)].rstrip() + "\n"
    geo_flow = geomean(r["flow"] / r["orig"] for _, r in rows)
    geo_all = geomean(r["all"] / r["orig"] for _, r in rows)
    lines = ["| workload | flavour | original cycles | auto: bbcount all ratio | auto: bbcount flow ratio |",
             "|---|---|---:|---:|---:|"]
    for (fl, w), r in rows:
        lines.append(f"| {w} | {fl} | {r['orig']:,} | {r['all'] / r['orig']:.2f} | **{r['flow'] / r['orig']:.2f}** |")
    text += f"""
{DEFAULT_HEADING} (a second row; the figure above stays the tiny sizes')

Written by bench/inst/inst_bench.py --default-sizes on {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC,
same host, tools and core model (tally5) as above. Each workload runs with no argument, at its own
default size (`bench/run.py --sizes default`: about 10-20 million instructions in rv32imac), so that
the fixed costs (the runtime's start, the program's semihosting calls, the derivation at exit)
amortise. Every block counted at `--tactic auto`; flow and all in the same run.

{chr(10).join(lines)}

- Geometric mean of bb+bbcount cycles / original cycles at --tactic auto, default sizes:
  **{geo_flow:.2f}x with flow-derived counts**, **{geo_all:.2f}x with a counter in every block**
  (goal: at most 3x).
"""
    with open(path, "w") as f:
        f.write(text)
    print(f"default sizes: geomean auto flow {geo_flow:.2f}, all {geo_all:.2f}; wrote bench/inst/results.md")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--default-sizes":  # the second row, after a main run
        build = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "..", "..", "build"))
        with tempfile.TemporaryDirectory() as tmp:
            write_default_sizes(measure_default_sizes(os.path.join(build, "tally"), build, tmp))
        return
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


def geomean(xs):
    return math.exp(statistics.mean(math.log(x) for x in xs))


def write_results(rows):
    trap_rows = [(k, r) for k, r in rows if "trap_bbcount" in r]
    geo_trap = geomean(r["trap_bbcount"] / r["orig"] for _, r in trap_rows)
    geo_auto_same = geomean(r["auto_bbcount"] / r["orig"] for _, r in trap_rows)
    geo_auto = geomean(r["auto_bbcount"] / r["orig"] for _, r in rows)
    geo_none = geomean(r["auto_none"] / r["orig"] for _, r in rows)
    geo_flow = geomean(r["flow_bbcount"] / r["orig"] for _, r in rows)
    geo_flow_same = geomean(r["flow_bbcount"] / r["orig"] for _, r in trap_rows)
    flow_added = [r["flow_bbcount"] - r["orig"] for _, r in rows]
    fshare_tramp = statistics.mean(r["flow_tramp_cycles"] / a for (_, r), a in zip(rows, flow_added))
    fshare_fini = statistics.mean(r["flow_fini_cycles"] / a for (_, r), a in zip(rows, flow_added))
    fshare_rt = statistics.mean((r["flow_rt_cycles"] - r["flow_fini_cycles"]) / a
                                for (_, r), a in zip(rows, flow_added))
    # the ratio with the derivation's cycles taken out: what the counting itself costs
    geo_flow_nofini = geomean((r["flow_bbcount"] - r["flow_fini_cycles"]) / r["orig"] for _, r in rows)
    sites_cut = statistics.mean(1 - r["flow_sites"] / (r["jump_sites"] + r["trap_sites"]) for _, r in rows)
    tramp_kept = [r["flow_tramp_cycles"] / r["tramp_cycles"] for _, r in rows]
    per_site = [(r["trap_none"] - r["orig"]) / r["executions"] for _, r in trap_rows]
    per_jump = [r["tramp_cycles"] / r["jump_executions"] for _, r in rows if r["jump_executions"]]
    # shares per row, then their mean (a sum over rows would be the longest runs' shares)
    added = [r["auto_bbcount"] - r["orig"] for _, r in rows]
    share_tramp = statistics.mean(r["tramp_cycles"] / a for (_, r), a in zip(rows, added))
    share_rt = statistics.mean(r["rt_cycles"] / a for (_, r), a in zip(rows, added))
    trap_share = statistics.mean(1 - r["jump_executions"] / r["auto_executions"] for _, r in rows)
    text = f"""# tally inst: figures

Written by bench/inst/inst_bench.py on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.
Host: {benchlib.cpu_model()}, {os.cpu_count()} CPUs (shared with other jobs while measuring: the
wall-clock rewrite times are upper bounds; simulated cycles do not depend on the host).
Tools: {benchlib.first_line(['riscv64-unknown-elf-gcc', '--version'])}.
Core model: tally5. Workload sizes: the tiny sizes of tests/diff (blast: its small size, 20).

Every basic block counted, with `--tactic trap` (every site an ebreak) and `--tactic auto` (a jal
to a trampoline wherever one can be placed: docs/tally-inst.md, "Tactics"); at auto both with
flow-derived counts (the default: counters on the edges off a maximum spanning tree, every block's
count derived at exit) and with a counter in every block (`--bbcount all`); the trap columns and
the per-site columns are `--bbcount all`'s (a site per block). "ratio" = instrumented
cycles / original cycles. Site executions are bbcount's own counts (equal, by the law tests/inst
checks, to tally's exact per-instruction counts), split by the tactic `--report` gave each site.
Trap cycles/site = (instrumented - original cycles) / site executions. At auto, the statistics
module counts the cycles spent in the trampolines (their section's range) and in the analysis
runtime (0x88000000-0x89000000: the trap handler, for the sites left to the trap), and the
I-cache misses in the trampolines and the program's own extra ones (the misses its code takes
because trampolines and handler evict its lines).

{table(rows)}

- Geometric mean of bb+bbcount cycles / original cycles at --tactic auto:
  **{geo_flow:.2f}x with flow-derived counts** (the default), **{geo_auto:.2f}x with a counter in every
  block** (`--bbcount all`), measured in the same run (bb+none: {geo_none:.2f}x). Goal: at most 3x with
  the jump tactic: {"reached" if geo_flow <= 3 else f"not reached, by {geo_flow - 3:.2f}x ({100 * (geo_flow / 3 - 1):.0f}% over)"}.
  Trap tactic (every site an ebreak, a counter in every block): **{geo_trap:.1f}x** on the
  {len(trap_rows)} rows where it was measured (original runs under {TRAP_MAX_CYCLES:,} cycles; auto on the same rows:
  {geo_flow_same:.2f}x flow, {geo_auto_same:.2f}x all).
- Flow: the maximum spanning tree leaves {100 * sites_cut:.0f}% fewer sites (mean over the rows) than
  a counter per block, and its trampolines take {100 * statistics.mean(tramp_kept):.0f}% of the cycles that counter's take
  ({100 * min(tramp_kept):.0f}-{100 * max(tramp_kept):.0f}%; crc32's bit loop and rv32imac matmul's one-block inner loop
  keep the most); what remains counts the blocks of loops of one block, one way of each
  diamond inside a loop, and every block that is entered from and left to the virtual node only
  (a function of one block, the code between two calls). Where its added cycles go (mean over the
  rows): {100 * fshare_tramp:.0f}% in trampolines, {100 * fshare_rt:.0f}% in the runtime's trap handler (the
  program's semihosting calls, which trap by design, and the sites no jal can reach), and
  {100 * fshare_fini:.0f}% in the derivation at exit (`tally_inst_fini`: the sums of the spanning tree, then
  writing bbcount.out; a fixed cost of some tens of thousands of cycles, large against these tiny
  runs: without it the geometric mean would be {geo_flow_nofini:.2f}x); the rest is the program's own
  extra I-cache misses and stalls. The derivation is a flat list of sums prepared by tally inst (no
  graph at run time) and runs inside the runtime's trap handler, at the program's exit call, with the
  PMU paused: `tally run --inst-cost` counts it as the instrumentation's ("in inst"), never the
  program's; the ratios here are of all simulated cycles, so they include it. A counting site left
  to a trap counts inline in the handler (as its trampoline would), without calling the tool.
- With a counter in every block: {100 * share_tramp:.0f}% of the added cycles are
  spent in trampolines, {100 * share_rt:.0f}% in the runtime's trap handler (for the
  {100 * trap_share:.1f}% of site executions left to traps), the rest is the program's own extra
  I-cache misses and stalls. A trampoline visit costs the jal there and back (a jump penalty each),
  the count (five instructions with two dead registers, eleven with a CSR swap each way, at a
  2-cycle CSR penalty) and the I-cache misses it takes and causes (tally5's I-cache is 4 KiB).
- One jump site (bbcount, count inline): {min(per_jump):.1f}-{max(per_jump):.1f} cycles in its
  trampoline per execution (median {statistics.median(per_jump):.1f}), I-cache misses included; one
  trap site with an empty analysis: {min(per_site):.0f}-{max(per_site):.0f} cycles (median
  {statistics.median(per_site):.0f}).
- Rewrite time (median of 3, --tactic auto): at most {max(r['rewrite_insn'] for _, r in rows):.2f} s wall /
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
    print(f"geomean auto flow {geo_flow:.2f}, all {geo_auto:.2f}, trap {geo_trap:.1f}; wrote bench/inst/results.md")


if __name__ == "__main__":
    main()
