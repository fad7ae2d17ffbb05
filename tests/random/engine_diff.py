#!/usr/bin/env python3
"""Run random RV32IMAC programs under both of tally's engines and compare.

usage: engine_diff.py TALLY SEED_START COUNT [--time-budget S] [options]

For each seed: generate a program with gen.py (the same programs as
run_random.py: traps, self-modifying code with and without fence.i, AMOs,
CSRs, loops, calls), assemble and link it, then run it as

    TALLY run -v --engine interp prog.elf
    TALLY run -v --engine jit prog.elf

and require the same exit status, the same standard output (the program
prints every register, a checksum of its scratch memory and a summary of
its traps) and the same instruction count (-v). Then once more under a
budget (--max-insns K, K drawn from the seed below the program's length),
which stops both engines at the same instruction, most often inside a
block: the same status, output and count again.

With --core NAME the runs are timed on that core model, each also writes
--stats-json, and the two JSON reports (cycles, every signal, energy)
must be equal byte for byte; the translator must be seen to run (-v says
"engine jit"). A third pair of runs adds the statistics module (five
counters read out every P cycles, P drawn from the seed): its readouts
(--intervals-csv) must be equal too.

The interpreter is the reference; no QEMU is needed.

Exit status: 0 all equal, 1 a mismatch, 2 usage error, 77 the cross
binutils are missing (CTest's SKIP_RETURN_CODE).
Python 3 standard library only.
"""

import argparse
import concurrent.futures as cf
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True   # keep the source tree clean
import gen  # noqa: E402

SKIP = 77
LINK_LD = os.path.join(HERE, "link.ld")
COUNT = re.compile(rb"tally: ([0-9,]+) instructions in")


def build(tools, d, seed):
    src, obj, elf = (os.path.join(d, "prog" + x) for x in (".S", ".o", ".elf"))
    g = gen.Generator(seed, None, [])
    with open(src, "w") as f:
        f.write(g.program())
    for cmd in ([tools["as"], "-march=rv32imac", "-misa-spec=2.2", "-o", obj, src],
                [tools["ld"], "-m", "elf32lriscv", "-T", LINK_LD, "-o", elf, obj]):
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode != 0:
            raise RuntimeError(f"{os.path.basename(cmd[0])} failed on {src}:\n"
                               + p.stderr.decode(errors="replace"))
    return elf


def run(tally, engine, elf, extra, timeout, core=None):
    """(status, stdout, instructions, stats JSON or None, engine that ran)"""
    cmd = [tally, "run", "-v", "--engine", engine] + extra
    stats = elf + "." + engine + ".json"
    if core:
        cmd += ["--core", core, "--stats-json", stats]
    cmd.append(elf)
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return ("timeout", b"", None, None, None)
    m = COUNT.search(p.stderr)
    ran = re.search(rb"tally: engine (\w+)", p.stderr)
    js = None
    if core and os.path.exists(stats):
        with open(stats, "rb") as f:
            js = f.read()
    csv = extra[extra.index("--intervals-csv") + 1] if "--intervals-csv" in extra else None
    if csv and os.path.exists(csv):
        with open(csv, "rb") as f:
            js = (js or b"") + f.read()
    return (p.returncode, p.stdout, int(m.group(1).replace(b",", b"")) if m else None, js,
            ran.group(1).decode() if ran else None)


def differs(a, b):
    """how the interp run a and the jit run b differ, or None"""
    if a[:4] == b[:4]:
        return None
    why = []
    if a[1] != b[1]:
        why.append("outputs differ")
    if a[3] != b[3]:
        why.append("--stats-json differs")
    return (f"interp (status {a[0]}, {a[2]} instructions), jit (status {b[0]}, {b[2]} instructions)"
            + ("; " + ", ".join(why) if why else ""))


def check_seed(args, tools, work, seed):
    """None when the engines agree, else a report."""
    d = os.path.join(work, f"seed-{seed}")
    os.makedirs(d, exist_ok=True)
    try:
        elf = build(tools, d, seed)
    except RuntimeError as e:
        return f"seed {seed}: BUILD FAILURE: {e}"
    a = run(args.tally, "interp", elf, [], args.timeout, args.core)
    b = run(args.tally, "jit", elf, [], args.timeout, args.core)
    reports = []
    d1 = differs(a, b)
    if d1:
        reports.append(f"seed {seed}: whole run: {d1}")
    if b[4] != "jit" and b[0] != "timeout":
        reports.append(f"seed {seed}: the translator did not run (engine {b[4]})")
    if a[2] and a[2] > 1:
        k = random.Random(seed).randrange(1, a[2])
        a2 = run(args.tally, "interp", elf, ["--max-insns", str(k)], args.timeout, args.core)
        b2 = run(args.tally, "jit", elf, ["--max-insns", str(k)], args.timeout, args.core)
        d2 = differs(a2, b2)
        if d2 or a2[2] != k:
            reports.append(f"seed {seed}: --max-insns {k}: {d2 or 'not stopped there'}")
    if args.core:
        period = random.Random(seed + 1).randrange(20, 2000)
        sm = ["--interval", str(period)]
        for sig in ("cycle", "instret", "stall", "dcache.read_miss", "icache.miss"):
            sm += ["--count", sig]
        a3 = run(args.tally, "interp", elf, sm + ["--intervals-csv", elf + ".interp.csv"], args.timeout, args.core)
        b3 = run(args.tally, "jit", elf, sm + ["--intervals-csv", elf + ".jit.csv"], args.timeout, args.core)
        d3 = differs(a3, b3)
        if d3:
            reports.append(f"seed {seed}: statistics module, --interval {period}: {d3}")
        if b3[4] != "jit" and b3[0] != "timeout":
            reports.append(f"seed {seed}: statistics module: the translator did not run (engine {b3[4]})")
    if not reports:
        shutil.rmtree(d, ignore_errors=True)
        return None
    keep = os.path.join(args.keep_dir, f"seed-{seed}")
    shutil.rmtree(keep, ignore_errors=True)
    shutil.copytree(d, keep)
    reports.append(f"  kept in {keep}")
    return "\n".join(reports)


def main(argv=None):
    ap = argparse.ArgumentParser(description="Compare tally's engines on random programs.")
    ap.add_argument("tally", help="path of the tally binary")
    ap.add_argument("seed_start", type=int)
    ap.add_argument("count", type=int)
    ap.add_argument("--time-budget", type=float, default=None, metavar="S",
                    help="start no new seed after S seconds")
    ap.add_argument("--jobs", "-j", type=int, default=2)
    ap.add_argument("--keep-dir", default="engine-failures")
    ap.add_argument("--timeout", type=float, default=20.0, help="per run, seconds")
    ap.add_argument("--cross-prefix", default="riscv64-unknown-elf-")
    ap.add_argument("--core", default=None, metavar="NAME", help="timed runs on this core model")
    args = ap.parse_args(argv)
    tools = {"as": shutil.which(args.cross_prefix + "as"), "ld": shutil.which(args.cross_prefix + "ld")}
    if not all(tools.values()):
        print("engines: SKIP, the cross binutils are missing")
        return SKIP
    if not os.access(args.tally, os.X_OK):
        print(f"engines: {args.tally}: not an executable file", file=sys.stderr)
        return 2
    probe = subprocess.run([args.tally, "run", "--engine", "jit", "--max-insns", "1", "/dev/null"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if b"x86-64 Linux only" in probe.stderr:
        print("engines: SKIP, no translator on this host")
        return SKIP
    work = tempfile.mkdtemp(prefix="tally-engines-")
    t0 = time.monotonic()
    ran, bad = 0, []
    try:
        with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
            seeds = iter(range(args.seed_start, args.seed_start + args.count))
            pending = set()
            while True:
                while len(pending) < 2 * args.jobs and not bad:
                    if args.time_budget is not None and time.monotonic() - t0 >= args.time_budget:
                        break
                    seed = next(seeds, None)
                    if seed is None:
                        break
                    pending.add(ex.submit(check_seed, args, tools, work, seed))
                if not pending:
                    break
                done, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                for f in done:
                    ran += 1
                    r = f.result()
                    if r:
                        bad.append(r)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for r in bad:
        print(r)
    print(f"engines: {ran} programs, {len(bad)} mismatches, {time.monotonic() - t0:.1f} s")
    return 1 if bad or ran == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
