#!/usr/bin/env python3
"""The VexRiscv SoC's area with yosys (docs/rtl-area.md, "The VexRiscv SoC"):
synthesis only (Debian has no nextpnr-ecp5, and the SoC does not fit an
iCE40 HX8K), on iCE40 (synth_ice40: 4-input LUTs) and ECP5 (synth_ecp5).

  area_vexriscv.py VEXRISCV_DIR OUTDIR [FAMILIES [DESIGNS]]

VEXRISCV_DIR holds VexRiscv.v (a pythondata-cpu-vexriscv checkout or its
pythondata_cpu_vexriscv/verilog). Designs: the SoC with the adapter and the
module (soc: soc_vexriscv.v at fit.py's soc size, S = 37 for the adapter's
signals, 8 KiB of RAM), the same SoC without them (soc-without-module:
STATMOD = 0), and its parts synthesised alone: the core (core: the top
of VexRiscv.v), the adapter (adapter: tally_vex_adapter, its 256-entry
queue) and the module (statmod: tally_statmod at the soc size), which is
what the SoC's figures split into (a part alone is not optimised against
its neighbours, so the parts add up to about, not exactly, the SoC).
FAMILIES: some of ice40,ecp5 (default both); DESIGNS: some of the above
(default all). Results already in OUTDIR are reused.
Prints yosys' version and a Markdown table per family: LUTs (iCE40 SB_LUT4,
ECP5 LUT4), carry cells (ECP5 CCU2C), flip-flops, block RAMs (SB_RAM40_4K,
DP16KD), distributed RAMs (ECP5 TRELLIS_DPR16X4), multipliers (ECP5
MULT18X18D), and each part's share of the SoC's LUTs and flip-flops.

Exit 0 done, 64 usage, 66 yosys or the checkout is missing, 70 yosys failed."""
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MEM = 2048  # words: 8 KiB
# the module's size in the SoC (fit.py's soc row, with the VexRiscv adapter's
# 37 signals): 2 ARRs, 4 counters of 32 bits, no run totals
MODULE = dict(S=37, P=2, N=4, R=32, TOTALS=0, SNAP=1)
FAMILIES = {"ice40": "synth_ice40", "ecp5": "synth_ecp5"}
# cell name -> column, per family
COLUMNS = {
    "ice40": [("LUTs", r"SB_LUT4$"), ("carry", r"SB_CARRY$"), ("flip-flops", r"SB_DFF"),
              ("block RAMs", r"SB_RAM40")],
    "ecp5": [("LUTs", r"LUT4$"), ("carry", r"CCU2C$"), ("flip-flops", r"TRELLIS_FF$"),
             ("block RAMs", r"DP16KD$"), ("distributed RAMs", r"TRELLIS_DPR16X4$"),
             ("multipliers", r"MULT18X18D$")],
}


def designs(rtl):
    core = os.path.join(rtl, "VexRiscv.v")
    statmod = os.path.join(HERE, "..", "statmod.v")
    adapter = os.path.join(HERE, "adapter_vexriscv.v")
    soc = [os.path.join(HERE, "soc_vexriscv.v"), os.path.join(HERE, "soc_parts.v"), adapter, statmod, core]
    mod = " ".join(f"-set {k} {v}" for k, v in MODULE.items())
    return [
        ("soc", soc, "tally_soc", f"-set STATMOD 1 -set MEM_WORDS {MEM} {mod}"),
        ("soc-without-module", soc, "tally_soc", f"-set STATMOD 0 -set MEM_WORDS {MEM}"),
        ("core", [core], "VexRiscv", ""),
        ("adapter", [adapter, os.path.join(HERE, "soc_parts.v")], "tally_vex_adapter", f"-set S {MODULE['S']}"),
        ("statmod", [statmod], "tally_statmod", " ".join(f"-set {k} {v}" for k, v in MODULE.items())),
    ]


def synth(out, family, name, files, top, params):
    """Returns yosys' stat of the design (synthesised unless OUTDIR has it)."""
    stat = os.path.join(out, f"{name}.{family}.stat")
    if os.path.exists(stat) and all(os.path.getmtime(stat) > os.path.getmtime(f) for f in files):
        return stat
    script = f"read_verilog {' '.join(files)}; "
    if params:
        script += f"chparam {params} {top}; "
    script += f"{FAMILIES[family]} -top {top}; tee -q -o {stat}.tmp stat"
    with open(os.path.join(out, f"{name}.{family}.log"), "w") as log:
        if subprocess.run(["yosys", "-q", "-p", script], stdout=log, stderr=subprocess.STDOUT).returncode:
            print(f"area_vexriscv: yosys failed for {name} on {family} (see {log.name})", file=sys.stderr)
            sys.exit(70)
    os.replace(stat + ".tmp", stat)
    return stat


def cells(stat, family):
    """The stat's cell counts summed into the family's columns."""
    got = {}
    for line in open(stat):
        m = re.match(r"\s+(\$?\w+)\s+(\d+)$", line)
        if m:
            got[m.group(1)] = got.get(m.group(1), 0) + int(m.group(2))
    return [sum(v for k, v in got.items() if re.match(rx, k)) for _, rx in COLUMNS[family]]


def main(a):
    if len(a) not in (2, 3, 4) or a[0] in ("-h", "--help"):
        print(__doc__, file=sys.stdout if a[:1] in (["-h"], ["--help"]) else sys.stderr)
        return 0 if a[:1] in (["-h"], ["--help"]) else 64
    rtl, out = a[0], a[1]
    if not os.path.isfile(os.path.join(rtl, "VexRiscv.v")) and \
            os.path.isfile(os.path.join(rtl, "pythondata_cpu_vexriscv", "verilog", "VexRiscv.v")):
        rtl = os.path.join(rtl, "pythondata_cpu_vexriscv", "verilog")
    if not os.path.isfile(os.path.join(rtl, "VexRiscv.v")):
        print(f"area_vexriscv: {rtl}/VexRiscv.v: not found (a pythondata-cpu-vexriscv checkout?)", file=sys.stderr)
        return 66
    if not shutil.which("yosys"):
        print("area_vexriscv: yosys not found (scripts/install-deps.sh installs it)", file=sys.stderr)
        return 66
    fams = a[2].split(",") if len(a) >= 3 else list(FAMILIES)
    names = [d[0] for d in designs(rtl)]
    only = a[3].split(",") if len(a) == 4 else names
    bad = [f for f in fams if f not in FAMILIES] + [n for n in only if n not in names]
    if bad:
        print(f"area_vexriscv: no family or design {', '.join(bad)} (families {', '.join(FAMILIES)}; "
              f"designs {', '.join(names)})", file=sys.stderr)
        return 64
    os.makedirs(out, exist_ok=True)
    r = subprocess.run(["yosys", "-V"], capture_output=True, text=True)
    print(f"{r.stdout.strip()}; MEM_WORDS {MEM}; module {MODULE}")
    for fam in fams:
        cols = [c for c, _ in COLUMNS[fam]]
        print(f"\n{fam} ({FAMILIES[fam]}):\n")
        print("| design | " + " | ".join(cols) + " | % of the SoC's LUTs | % of its flip-flops |")
        print("|---|" + "--:|" * (len(cols) + 2))
        soc = None
        for name, files, top, params in designs(rtl):
            if name not in only:
                continue
            c = cells(synth(out, fam, name, files, top, params), fam)
            if name == "soc":
                soc = c
            share = (f"{100 * c[0] / soc[0]:.1f} | {100 * c[2] / soc[2]:.1f}" if soc and soc[0] and soc[2]
                     else " | ")
            print(f"| {name} | " + " | ".join(f"{v:,}" for v in c) + f" | {share} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
