#!/usr/bin/env python3
"""The SoC on an iCE40 HX8K (docs/rtl-area.md, "The SoC"): yosys synth_ice40,
then nextpnr-ice40 (package ct256, I/O placed by nextpnr, target 12 MHz with
--timing-allow-fail so the achieved Fmax is reported whatever it is).

  fit.py PICORV32_DIR OUTDIR [SEEDS [DESIGNS]]

Designs: PicoRV32 alone (rtl/soc/core_only.v, its memory interface on pins),
the SoC without the module (STATMOD = 0: core, 8 KiB of RAM, UART), the
SoC with the adapter and the module at the size below (soc), and the compact
SoC (soc-compact: the module in SnoopP's configuration, 1 signal, 16 ARRs in
a RAM, 16 counters of 16 bits, no totals, no snapshot, compact frames; the
core held while a frame goes out). SEEDS: placer seeds,
comma-separated (default 1,2,3,4,5); DESIGNS: some of picorv32,
soc-without-module,soc,soc-compact (default all). Results already in OUTDIR are reused.
Prints the tools' versions and a Markdown table: LUTs, flip-flops
(yosys' SB_LUT4 and SB_DFF* cells), block RAMs, logic cells (nextpnr), the
Fmax of each seed and their median; for the SoCs with the module, placed
after soc-without-module, each seed's change against that SoC's Fmax with
the same seed, and the medians' change (issue 29's goal: -10 % at most).

Exit 0 done, 64 usage, 66 a tool or the checkout is missing, 70 a tool failed."""
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MEM = 2048  # words: 8 KiB, 16 of the HX8K's 32 block RAMs
# the module's size in the SoC: S = 33 (the adapter's signals; the others are
# constant 0), 2 ARRs, 4 counters of 32 bits, no run totals (TOTALS = 0)
MODULE = dict(S=33, P=2, N=4, R=32, TOTALS=0, SNAP=1)
# SnoopP's configuration (16 code ranges, 16 cycle counters, 1 signal) in the
# smallest build: docs/rtl-area.md "Small builds"
COMPACT = dict(S=1, P=16, N=16, R=16, TOTALS=0, SNAP=0, ARR_RAM=1, COMPACT=1)


def designs(rtl):
    soc = [os.path.join(HERE, "soc.v"), os.path.join(HERE, "soc_parts.v"), os.path.join(HERE, "adapter_picorv32.v"),
           os.path.join(HERE, "..", "statmod.v"), os.path.join(rtl, "picorv32.v")]
    mod = " ".join(f"-set {k} {v}" for k, v in MODULE.items())
    small = " ".join(f"-set {k} {v}" for k, v in COMPACT.items())
    return [
        ("picorv32", "", [os.path.join(rtl, "picorv32.v"), os.path.join(HERE, "core_only.v")], "tally_pico_core", ""),
        ("soc-without-module", "", soc, "tally_soc", f"-set STATMOD 0 -set MEM_WORDS {MEM}"),
        ("soc", "-DRISCV_FORMAL", soc, "tally_soc", f"-set STATMOD 1 -set MEM_WORDS {MEM} {mod}"),
        ("soc-compact", "-DRISCV_FORMAL", soc, "tally_soc", f"-set STATMOD 1 -set MEM_WORDS {MEM} {small}"),
    ]


def synth(out, name, defs, files, top, params):
    net = os.path.join(out, name + ".json")
    stat = os.path.join(out, name + ".stat")
    if os.path.exists(net) and os.path.exists(stat) and \
            all(os.path.getmtime(net) > os.path.getmtime(f) for f in files):
        return net, stat
    script = f"read_verilog {defs} {' '.join(files)}; "
    if params:
        script += f"chparam {params} {top}; "
    script += f"synth_ice40 -top {top} -json {net}; tee -q -o {stat} stat"
    with open(os.path.join(out, name + ".synth.log"), "w") as log:
        if subprocess.run(["yosys", "-q", "-p", script], stdout=log, stderr=subprocess.STDOUT).returncode:
            print(f"fit: yosys failed for {name} (see {log.name})", file=sys.stderr)
            sys.exit(70)
    return net, stat


def cells(stat):
    c = {}
    for line in open(stat):
        m = re.match(r"\s+(SB_\w+)\s+(\d+)", line)
        if m:
            c[m.group(1)] = c.get(m.group(1), 0) + int(m.group(2))
    luts = c.get("SB_LUT4", 0)
    ffs = sum(v for k, v in c.items() if k.startswith("SB_DFF"))
    brams = sum(v for k, v in c.items() if k.startswith("SB_RAM40"))
    return luts, ffs, brams


def pnr(out, name, net, seed):
    rep = os.path.join(out, f"{name}.seed{seed}.report.json")
    if not (os.path.exists(rep) and os.path.getmtime(rep) > os.path.getmtime(net)):
        cmd = ["nextpnr-ice40", "--hx8k", "--package", "ct256", "--json", net, "--pcf-allow-unconstrained",
               "--freq", "12", "--timing-allow-fail", "--seed", str(seed), "--report", rep, "-q"]
        with open(os.path.join(out, f"{name}.seed{seed}.pnr.log"), "w") as log:
            if subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT).returncode:
                print(f"fit: nextpnr-ice40 failed for {name} seed {seed} (see {log.name})", file=sys.stderr)
                sys.exit(70)
    r = json.load(open(rep))
    mhz = [v["achieved"] for k, v in r.get("fmax", {}).items() if k.startswith("clk")]
    if len(mhz) != 1:
        print(f"fit: {rep}: no single clock 'clk' ({list(r.get('fmax', {}))})", file=sys.stderr)
        sys.exit(70)
    return mhz[0], r["utilization"]["ICESTORM_LC"]["used"], r["utilization"]["ICESTORM_RAM"]["used"]


def median(v):
    v = sorted(v)
    return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2


def main(a):
    if len(a) not in (2, 3, 4) or a[0] in ("-h", "--help"):
        print(__doc__, file=sys.stderr if a[:1] != ["-h"] and a[:1] != ["--help"] else sys.stdout)
        return 0 if a[:1] in (["-h"], ["--help"]) else 64
    rtl, out = a[0], a[1]
    try:
        seeds = [int(s) for s in a[2].split(",")] if len(a) >= 3 else [1, 2, 3, 4, 5]
    except ValueError:
        print(f"fit: SEEDS is a comma-separated list of numbers, not '{a[2]}'", file=sys.stderr)
        return 64
    for t in ("yosys", "nextpnr-ice40"):
        if not shutil.which(t):
            print(f"fit: {t} not found (scripts/install-deps.sh installs it)", file=sys.stderr)
            return 66
    if not os.path.isfile(os.path.join(rtl, "picorv32.v")):
        print(f"fit: {rtl}/picorv32.v: not found (a YosysHQ/picorv32 checkout?)", file=sys.stderr)
        return 66
    names = [d[0] for d in designs(rtl)]
    only = a[3].split(",") if len(a) == 4 else names
    for n in only:
        if n not in names:
            print(f"fit: no design '{n}' ({', '.join(names)})", file=sys.stderr)
            return 64
    os.makedirs(out, exist_ok=True)
    tools = []
    for t, v in (("yosys", "-V"), ("nextpnr-ice40", "--version")):
        r = subprocess.run([t, v], capture_output=True, text=True)
        tools.append(((r.stdout + r.stderr).strip().splitlines() or [t])[0])
    print(f"{tools[0]}; {tools[1]}; seeds {','.join(map(str, seeds))}\n")
    cols = " | ".join(f"seed {s}" for s in seeds)
    print(f"| design | LUTs | flip-flops | block RAMs | logic cells (of 7,680) | {cols} | median (MHz) |")
    print("|---|" + "--:|" * (5 + len(seeds)))
    ref = None  # the SoC without the module, seed by seed: the change the module makes
    for name, defs, files, top, params in designs(rtl):
        if name not in only:
            continue
        net, stat = synth(out, name, defs, files, top, params)
        luts, ffs, brams = cells(stat)
        got = [pnr(out, name, net, s) for s in seeds]
        mhz = [g[0] for g in got]
        med = median(mhz)
        if name == "soc-without-module":
            ref = (mhz, med)
        rel = (lambda a, b: f" ({100 * (a - b) / b:+.1f} %)") if ref and name.startswith("soc-") and \
            name != "soc-without-module" else (lambda a, b: "")
        per = " | ".join(f"{m:.1f}{rel(m, r)}" for m, r in zip(mhz, ref[0] if ref else mhz))
        print(f"| {name} | {luts:,} | {ffs:,} | {brams} | {got[0][1]:,} | {per} | "
              f"{med:.1f}{rel(med, ref[1] if ref else med)} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
