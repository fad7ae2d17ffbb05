#!/usr/bin/env python3
"""Fmax of rtl/statmod.v (and rtl/naive.v) on an iCE40 HX8K, placed and
routed by Debian's nextpnr-ice40 after yosys' synth_ice40 (docs/rtl-area.md,
"Fmax on iCE40").

  fmax.py check OUTDIR                  one small size placed and routed: the
                                        CTest smoke check (rtl.fmax.small)
  fmax.py sweep OUTDIR [DOCS [SEEDS]]   the sizes below, SEEDS placer seeds each
                                        (default 1,2,3; and any seed an earlier
                                        sweep in OUTDIR did), smallest first, each
                                        result appended at once to
                                        DOCS/rtl-fmax.csv and DOCS/rtl-fmax-table.md

Device iCE40HX8K, package ct256 (7,680 logic cells, 206 I/O), I/O placed by
nextpnr (no PCF: every port of the module is a pin), target 12 MHz with
--timing-allow-fail so that the achieved figure is reported whatever it is.
The figure is nextpnr's own static timing of the routed design for the
clock `clk`.

Exit 0 done, 1 a check failed, 64 usage, 66 a tool is missing, 70 a tool failed."""
import csv
import datetime
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEVICE, PACKAGE = "hx8k", "ct256"
# (design, S, P, N, R): the paper's starting point, one parameter raised at
# a time, and the naive design at k = 4 (16 counters) beside them.
SIZES = [
    ("statmod", 2, 2, 2, 32),
    ("statmod", 8, 2, 2, 32),
    ("statmod", 2, 8, 2, 32),
    ("statmod", 2, 2, 4, 32),
    ("statmod", 2, 2, 8, 32),
    ("statmod", 44, 4, 8, 32),   # the size tests/rtl co-simulates against tally
    ("naive", 4, 4, 16, 32),
]
SMOKE = ("statmod", 4, 2, 2, 4)


def tool_versions():
    y = subprocess.run(["yosys", "-V"], capture_output=True, text=True).stdout.strip()
    n = subprocess.run(["nextpnr-ice40", "--version"], capture_output=True, text=True)
    n = (n.stdout or n.stderr).strip()
    return y.split(" (")[0], n.replace("nextpnr-ice40 -- Next Generation Place and Route ", "nextpnr-ice40 ")


def synth(outdir, design, S, P, N, R):
    """The netlist (JSON) of one size, reused when newer than its Verilog."""
    src, top = ("statmod.v", "tally_statmod") if design == "statmod" else ("naive.v", "tally_statmod_naive")
    params = f"-set S {S} -set P {P} -set R {R}" + (f" -set N {N}" if design == "statmod" else "")
    tag = f"{design}_{S}_{P}_{N}_{R}"
    net = os.path.join(outdir, tag + ".json")
    if os.path.exists(net) and os.path.getmtime(net) > os.path.getmtime(os.path.join(HERE, src)):
        return tag, net
    script = f"read_verilog {os.path.join(HERE, src)}; chparam {params} {top}; synth_ice40 -top {top} -json {net}"
    with open(os.path.join(outdir, tag + ".synth.log"), "w") as log:
        if subprocess.run(["yosys", "-q", "-p", script], stdout=log, stderr=subprocess.STDOUT).returncode != 0:
            print(f"fmax: yosys failed for {tag} (see {log.name})", file=sys.stderr)
            sys.exit(70)
    return tag, net


def place_route(outdir, tag, net, seed):
    """(fmax MHz, logic cells used, I/O used) from nextpnr's report."""
    rep = os.path.join(outdir, f"{tag}.seed{seed}.report.json")
    if os.path.exists(rep) and os.path.getmtime(rep) > os.path.getmtime(net):
        return read_report(rep)  # a stopped sweep resumes
    cmd = ["nextpnr-ice40", f"--{DEVICE}", "--package", PACKAGE, "--json", net, "--pcf-allow-unconstrained",
           "--freq", "12", "--timing-allow-fail", "--seed", str(seed), "--report", rep, "-q"]
    with open(os.path.join(outdir, f"{tag}.seed{seed}.pnr.log"), "w") as log:
        if subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT).returncode != 0:
            print(f"fmax: nextpnr-ice40 failed for {tag} seed {seed} (see {log.name})", file=sys.stderr)
            sys.exit(70)
    return read_report(rep)


def read_report(rep):
    r = json.load(open(rep))
    clocks = [v["achieved"] for k, v in r.get("fmax", {}).items() if k.startswith("clk")]
    if len(clocks) != 1:
        print(f"fmax: {rep}: no single clock 'clk' in the report ({list(r.get('fmax', {}))})", file=sys.stderr)
        sys.exit(70)
    u = r["utilization"]
    return clocks[0], u["ICESTORM_LC"]["used"], u["SB_IO"]["used"]


def seeds_for(outdir, tag, net, seeds):
    """The seeds asked for, and those an earlier sweep already placed and
    routed this netlist with (a sweep rerun with fewer seeds keeps them)."""
    done = set()
    for name in os.listdir(outdir):
        m = re.fullmatch(re.escape(tag) + r"\.seed(\d+)\.report\.json", name)
        if m and os.path.getmtime(os.path.join(outdir, name)) > os.path.getmtime(net):
            done.add(int(m.group(1)))
    return sorted(done | set(seeds))


def need_tools():
    missing = [t for t in ("yosys", "nextpnr-ice40") if not shutil.which(t)]
    if missing:
        print(f"fmax: {', '.join(missing)} not found (scripts/install-deps.sh installs them)", file=sys.stderr)
        sys.exit(66)


def check(outdir):
    need_tools()
    os.makedirs(outdir, exist_ok=True)
    design, S, P, N, R = SMOKE
    tag, net = synth(outdir, design, S, P, N, R)
    mhz, lcs, ios = place_route(outdir, tag, net, 1)
    # The module cannot be smaller than its flip-flops (one per logic cell at
    # most): counted by hand in area.py's min_ffs. 200 MHz is beyond any
    # iCE40 path through a 32-bit comparator and a counter (a sanity bound).
    sys.path.insert(0, HERE)
    from area import min_ffs
    need = min_ffs(S, P, N, R)
    print(f"fmax: S={S} P={P} n={N} R={R} on iCE40{DEVICE.upper()}-{PACKAGE}: {mhz:.1f} MHz, {lcs} logic cells "
          f"(at least {need}), {ios} I/O")
    return 0 if 1.0 < mhz < 200.0 and lcs >= need else 1


def sweep(outdir, docs, seeds):
    need_tools()
    os.makedirs(outdir, exist_ok=True)
    ysv, npv = tool_versions()
    date = datetime.date.today().isoformat()
    rows = []
    for design, S, P, N, R in SIZES:
        tag, net = synth(outdir, design, S, P, N, R)
        got = [place_route(outdir, tag, net, s) for s in seeds_for(outdir, tag, net, seeds)]
        mhz = sorted(g[0] for g in got)
        rows.append(dict(design=design, S=S, P=P, N=N, R=R, lcs=got[0][1], ios=got[0][2],
                         fmax_min=round(mhz[0], 1), fmax_median=round(mhz[len(mhz) // 2], 1),
                         fmax_max=round(mhz[-1], 1), seeds=len(got)))
        print(f"fmax: {design:7s} S={S:2d} P={P:2d} n={N:2d} R={R}: {rows[-1]['lcs']:5d} LCs, "
              f"{mhz[0]:.1f}-{mhz[-1]:.1f} MHz over {len(got)} seeds", flush=True)
        write(rows, docs, ysv, npv, date)
    return 0


def write(rows, docs, ysv, npv, date):
    with open(os.path.join(docs, "rtl-fmax.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(docs, "rtl-fmax-table.md"), "w") as f:
        f.write(f"iCE40{DEVICE.upper()}, package {PACKAGE}; {ysv} synth_ice40, {npv}; {date}; "
                f"Fmax of `clk` from nextpnr's timing report, over the placer seeds counted.\n\n")
        f.write("| design | S | P | n | R | logic cells (of 7,680) | I/O | seeds | Fmax min | median | max (MHz) |\n"
                "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
        for r in rows:
            f.write(f"| {r['design']} | {r['S']} | {r['P']} | {r['N']} | {r['R']} | {r['lcs']} | {r['ios']} | "
                    f"{r['seeds']} | {r['fmax_min']} | {r['fmax_median']} | {r['fmax_max']} |\n")


def main(a):
    if a and a[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    if len(a) == 2 and a[0] == "check":
        return check(a[1])
    if len(a) in (2, 3, 4) and a[0] == "sweep":
        try:
            seeds = [int(s) for s in a[3].split(",")] if len(a) == 4 else [1, 2, 3]
        except ValueError:
            print(f"fmax: SEEDS is a comma-separated list of numbers, not '{a[3]}'", file=sys.stderr)
            return 64
        return sweep(a[1], a[2] if len(a) >= 3 else os.path.join(HERE, "..", "docs"), seeds)
    print(__doc__, file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
