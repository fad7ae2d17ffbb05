#!/usr/bin/env python3
"""tally's RTL-checked core models against the same RTL under Verilator:
how much faster tally runs the same program to the same cycle count.

  bench/rtl_speed.py --pico-rtl /tmp/picorv32 --vex-rtl /tmp/vexpy
  bench/rtl_speed.py --pico-rtl P --vex-rtl V --cores vexriscv-min --runs 3 --no-write

--pico-rtl: a checkout of YosysHQ/picorv32; --vex-rtl: one of
litex-hub/pythondata-cpu-vexriscv (or its pythondata_cpu_vexriscv/verilog
folder). The testbenches of rtl/cores/picorv32 and rtl/cores/vexriscv are
built in --work (kept there, rebuilt only when missing), and so are the
programs:

- picorv32, picorv32-ws1: bench/picorv32/build.sh's b_sort.elf (the
  sort kernel of tests/cores/picorv32 REPEAT times, --pico-repeat), the
  testbench in configuration imc at 0 and 1 wait states;
- vexriscv, vexriscv-min: bench/vexriscv/build.sh's b_crc (crc.c of
  tests/cores/vexriscv REPEAT times, --vex-repeat), vexriscv-imac its
  b_crcloop (the same kernel called from the start-up code), on
  boards/litex.ini (W = 0).

For each core, first one run of each simulator: the cycle counts (and
instret) must be equal, else the script stops with status 1. Then a
warm-up of each and --runs runs of each, the two in turn (Verilator,
tally, Verilator, ...): user + system CPU time of the whole process (the
kernel's own accounting, os.wait4) and wall time. Reported: medians, and
the per-pair ratio Verilator / tally (min, median, max). Unless
--no-write, the tables replace the section "## Every core against
Verilator (rtl_speed.py)" of bench/vexriscv.md and bench/picorv32-rtl.md.
Standard library only.
"""
import argparse
import datetime
import json
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import benchlib  # noqa: E402

HEADING = "## Every core against Verilator (rtl_speed.py)"
PICO = ("picorv32", "picorv32-ws1")
VEX = ("vexriscv", "vexriscv-imac", "vexriscv-min")


def die(msg):
    print(f"rtl_speed.py: {msg}", file=sys.stderr)
    sys.exit(1)


def sh(cmd, what):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        die(f"{what} failed (status {p.returncode}): {' '.join(cmd)}\n{p.stderr.strip()[-2000:]}")
    return p.stdout


def git_commit(path):
    p = subprocess.run(["git", "-C", path, "rev-parse", "HEAD"], capture_output=True, text=True)
    if p.returncode != 0:
        return "unknown (not a git checkout)"
    dirty = subprocess.run(["git", "-C", path, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return p.stdout.strip()[:12] + (" (with uncommitted changes)" if dirty else "")


def vex_verilog_dir(path):
    for d in (path, os.path.join(path, "pythondata_cpu_vexriscv", "verilog")):
        if os.path.isfile(os.path.join(d, "VexRiscv.v")):
            return d
    die(f"--vex-rtl {path}: no VexRiscv.v there nor in pythondata_cpu_vexriscv/verilog/")


def symbol(elf, name):
    out = sh(["riscv64-unknown-elf-nm", elf], "nm")
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[2] == name:
            return f[0]
    die(f"{elf}: no symbol {name}")


def prepare(a):
    """The testbenches and the programs; the command pair of each core."""
    work = os.path.abspath(a.work)
    os.makedirs(work, exist_ok=True)
    specs = {}
    want = a.cores
    if any(c in PICO for c in want):
        if not os.path.isfile(os.path.join(a.pico_rtl or "", "picorv32.v")):
            die(f"--pico-rtl {a.pico_rtl}: no picorv32.v there (a YosysHQ/picorv32 checkout)")
        tb = os.path.join(work, "ptb", "imc", "tb")
        if not os.path.exists(tb):
            print("building the PicoRV32 testbench (imc) ...", flush=True)
            sh([os.path.join(REPO, "rtl/cores/picorv32/build.sh"), os.path.abspath(a.pico_rtl),
                os.path.join(work, "ptb"), "imc"], "rtl/cores/picorv32/build.sh")
        pdir = os.path.join(work, f"pico-{a.pico_repeat}")
        sh([os.path.join(HERE, "picorv32/build.sh"), pdir, str(a.pico_repeat)], "bench/picorv32/build.sh")
        elf = os.path.join(pdir, "b_sort.elf")
        for core, w in (("picorv32", 0), ("picorv32-ws1", 1)):
            specs[core] = {
                "rtl": [tb, elf, "-w", str(w)],
                "tally": [a.tally, "run", "-q", "--core", core, elf],
                "program": f"b_sort.elf (sort kernel x {a.pico_repeat}, rv32imac -O2), W = {w}",
                "rtl_name": f"tb (imc) -w {w}",
            }
    if any(c in VEX for c in want):
        vdir = vex_verilog_dir(os.path.abspath(a.vex_rtl or "."))
        tbdir = os.path.join(work, "vextb")
        if not all(os.path.exists(os.path.join(tbdir, f"tb-{v}")) for v in ("std", "imac", "min")):
            print("building the VexRiscv testbenches ...", flush=True)
            sh([os.path.join(REPO, "rtl/cores/vexriscv/build.sh"), vdir, tbdir], "rtl/cores/vexriscv/build.sh")
        pdir = os.path.join(work, "vex")
        sh([os.path.join(HERE, "vexriscv/build.sh"), pdir, str(a.vex_repeat)], "bench/vexriscv/build.sh")
        for core, v, prog in (("vexriscv", "std", "b_crc"), ("vexriscv-imac", "imac", "b_crcloop"),
                              ("vexriscv-min", "min", "b_crc")):
            base = os.path.join(pdir, f"{prog}_{a.vex_repeat}")
            fin = symbol(base + ".elf", "_finish_store")
            specs[core] = {
                "rtl": [os.path.join(tbdir, f"tb-{v}"), base + ".bin", "-m", "4000000000", "-f", fin],
                "tally": [a.tally, "run", "-q", "--core", core, "--board", "litex", base + ".elf"],
                "program": f"{prog}_{a.vex_repeat} (crc.c x {a.vex_repeat}, rv32i -O2), W = 0",
                "rtl_name": f"tb-{v}",
            }
    return {c: specs[c] for c in want}


def check_counts(core, s):
    out = sh(s["rtl"], f"{core}: the RTL testbench")
    m = re.search(r"cycles[= ](\d+) instret[= ](\d+)", out)
    if not m:
        die(f"{core}: the testbench printed no cycle count: {out.strip()[:200]}")
    rc, ri = int(m[1]), int(m[2])
    p = subprocess.run(s["tally"][:2] + ["--stats-json", "-"] + s["tally"][2:], capture_output=True, text=True)
    try:
        d = json.loads(p.stdout)
    except ValueError:
        die(f"{core}: tally gave no statistics (status {p.returncode}): {p.stderr.strip()[:300]}")
    tc, ti = int(d["cycles"]), int(d["instructions"])
    if (tc, ti) != (rc, ri):
        die(f"{core}: tally {tc} cycles / {ti} instructions, the RTL {rc} / {ri}: not the same run")
    return rc, ri


def one_run(cmd):
    """(cpu seconds, wall seconds) of one whole process."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        die(f"{' '.join(cmd)}: exit status {code}")
    return ru.ru_utime + ru.ru_stime, wall


def time_pair(s, runs):
    rtl, tal = [], []
    one_run(s["rtl"])
    one_run(s["tally"])
    for _ in range(runs):
        rtl.append(one_run(s["rtl"]))
        tal.append(one_run(s["tally"]))
    return rtl, tal


def fmt_ratio(rs):
    return f"{min(rs):.0f} / **{statistics.median(rs):.0f}** / {max(rs):.0f}"


def table(rows):
    lines = ["| core | program | cycles (both) | Verilator cpu s | tally cpu s | Verilator / tally, cpu "
             "(min / median / max) | Verilator wall s | tally wall s | Verilator / tally, wall (median) |",
             "|---|---|--:|--:|--:|--:|--:|--:|--:|"]
    for core, s, (cyc, _), (rtl, tal) in rows:
        rc = [x[0] for x in rtl]
        tc = [x[0] for x in tal]
        rw = [x[1] for x in rtl]
        tw = [x[1] for x in tal]
        cpu_r = [a / max(b, 1e-6) for a, b in zip(rc, tc)]
        wall_r = [a / max(b, 1e-6) for a, b in zip(rw, tw)]
        lines.append(f"| `{core}` | {s['program']} | {cyc:,} | {statistics.median(rc):.2f} | "
                     f"{statistics.median(tc):.3f} | {fmt_ratio(cpu_r)} | {statistics.median(rw):.2f} | "
                     f"{statistics.median(tw):.3f} | {statistics.median(wall_r):.0f} |")
    return "\n".join(lines)


def section(a, rows, rtl_desc):
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return f"""{HEADING}

Written by `bench/rtl_speed.py` (its docstring says how it measures).

- date: {date}; machine: {benchlib.cpu_model()}, {os.cpu_count()} CPUs, load average at the start
  {a.load}
- tally: commit {git_commit(REPO)} (`{os.path.relpath(a.tally, REPO) if a.tally.startswith(REPO) else a.tally}`)
- RTL: {rtl_desc}; {benchlib.first_line(["verilator", "--version"])}, the testbenches of rtl/cores
  (`-O3`, C++ `-O2`)
- method: per core one warm-up and {a.runs} counted runs of each simulator, in turn; whole-process
  user + system CPU time and wall time; medians, and the ratio pair by pair; the cycle counts
  (and instret) of both equal, checked before timing

{table(rows)}
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pico-rtl", help="a YosysHQ/picorv32 checkout")
    ap.add_argument("--vex-rtl", help="a litex-hub/pythondata-cpu-vexriscv checkout")
    ap.add_argument("--work", default="/tmp/tally-rtl-speed", help="where testbenches and programs are built")
    ap.add_argument("--tally", default=os.path.join(REPO, "build", "tally"))
    ap.add_argument("--cores", default=",".join(PICO + VEX), help="comma-separated (default: all five)")
    ap.add_argument("--runs", type=int, default=5, help="counted runs of each simulator (default 5)")
    ap.add_argument("--pico-repeat", type=int, default=200, help="sort kernel repetitions (default 200)")
    ap.add_argument("--vex-repeat", type=int, default=400, help="crc kernel repetitions (default 400)")
    ap.add_argument("--no-write", action="store_true", help="print the tables, write no file")
    a = ap.parse_args()
    a.cores = [c for c in a.cores.split(",") if c]
    bad = [c for c in a.cores if c not in PICO + VEX]
    if bad or not a.cores:
        ap.error(f"--cores: {','.join(bad) or 'empty'}: not among {','.join(PICO + VEX)}")
    if a.runs < 1 or a.pico_repeat < 1 or a.vex_repeat < 1:
        ap.error("--runs, --pico-repeat and --vex-repeat must be positive")
    if not os.access(a.tally, os.X_OK):
        ap.error(f"--tally {a.tally}: not an executable (build tally first)")
    if any(c in PICO for c in a.cores) and not a.pico_rtl:
        ap.error("--pico-rtl is needed for the PicoRV32 cores")
    if any(c in VEX for c in a.cores) and not a.vex_rtl:
        ap.error("--vex-rtl is needed for the VexRiscv cores")
    a.tally = os.path.abspath(a.tally)
    a.load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    specs = prepare(a)
    rows = []
    for core, s in specs.items():
        counts = check_counts(core, s)
        print(f"{core}: {counts[0]:,} cycles, {counts[1]:,} instructions on both; timing ...", flush=True)
        rows.append((core, s, counts, time_pair(s, a.runs)))
    for group, path, rtl_desc in (
            (PICO, "picorv32-rtl.md", f"YosysHQ/picorv32 {git_commit(a.pico_rtl) if a.pico_rtl else ''}, "
                                      "`picorv32.v`, configuration imc"),
            (VEX, "vexriscv.md", f"litex-hub/pythondata-cpu-vexriscv "
                                 f"{git_commit(a.vex_rtl) if a.vex_rtl else ''}, `VexRiscv.v`, "
                                 "`VexRiscv_IMAC.v`, `VexRiscv_Min.v`")):
        grows = [r for r in rows if r[0] in group]
        if not grows:
            continue
        text = section(a, grows, rtl_desc)
        print(text)
        if not a.no_write:
            benchlib.write_section(os.path.join(HERE, path), HEADING, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
