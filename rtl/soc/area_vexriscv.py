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

The SoC reads the core's write-back stage and D-cache through hierarchical
references (cpu.writeBack_PC, cpu.dataCache_1.stageB_waysHit, ...), which
yosys 0.23 does not resolve: it leaves the adapter's inputs undriven. So
the SoC is synthesised from copies written to OUTDIR (VexRiscv_ports.v,
soc_vexriscv_ports.v; never part of the sources) in which each of those
signals is an output port of the core (of its DataCache too, for the
hit) and the SoC reads the port; the core alone is VexRiscv.v as it is.
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


def width(text, module, name):
    """The declared width ("" or "[31:0]") of NAME in MODULE's body of TEXT."""
    body = re.search(rf"^module {module} \((.*?)^endmodule", text, re.S | re.M).group(1)
    m = re.search(rf"^\s*(?:(?:input|output)\s+)?(?:wire|reg)\s*(\[[^\]]+\])?\s*{name}\s*[,;]", body, re.M)
    if not m:
        return None
    return m.group(1) or ""


def tap(text, module, ports):
    """TEXT with MODULE given an output port tap_NAME for each (NAME, width),
    driven by an assign at the end of its body."""
    head = f"module {module} (\n"
    i = text.index(head) + len(head)
    text = text[:i] + "".join(f"  output wire {w} tap_{n},\n" for n, w in ports) + text[i:]
    j = text.index("endmodule", i)
    return text[:j] + "".join(f"  assign tap_{n} = {n};\n" for n, _ in ports) + text[j:]


def patched(rtl, out):
    """Copies of VexRiscv.v and soc_vexriscv.v, written to OUT, in which every
    hierarchical reference of the SoC into the core (cpu.X, cpu.INST.X) is a
    port of the core instead. yosys 0.23 does not resolve such references: it
    leaves the adapter's inputs undriven and may remove the logic behind them
    (docs/rtl-area.md). References the core does not declare (another
    variant's, in an inactive `ifdef) are left as they are. Returns the two
    paths; neither is part of the project's sources."""
    core = open(os.path.join(rtl, "VexRiscv.v")).read()
    soc = open(os.path.join(HERE, "soc_vexriscv.v")).read()
    own, inner, top = [], {}, []  # the top's signals; per instance its module and signals; all (ref, width)
    for ref in sorted(set(re.findall(r"\bcpu\.([\w.]+)", soc))):
        parts = ref.split(".")
        if len(parts) == 1:
            w = width(core, "VexRiscv", ref)
            if w is not None:
                own.append((ref, w))
                top.append((ref, w))
        elif len(parts) == 2:
            m = re.search(rf"^\s*(\w+)\s+{parts[0]}\s*\(", core, re.M)
            w = width(core, m.group(1), parts[1]) if m else None
            if w is not None:
                inner.setdefault(parts[0], (m.group(1), []))[1].append((parts[1], w))
                top.append((ref, w))
    core = tap(core, "VexRiscv", own)
    head = "module VexRiscv (\n"
    for inst, (mod, sigs) in inner.items():
        core = tap(core, mod, sigs)
        # the instance's tap drives the top's port tap_INST_X directly
        i = core.index(head) + len(head)
        core = core[:i] + "".join(f"  output wire {w} tap_{inst}_{n},\n" for n, w in sigs) + core[i:]
        k = re.search(rf"^\s*{mod}\s+{inst}\s*\(\n", core, re.M).end()
        core = core[:k] + "".join(f"    .tap_{n}(tap_{inst}_{n}),\n" for n, _ in sigs) + core[k:]
    inst_line = "  VexRiscv cpu (\n"
    k = soc.index(inst_line)
    name = {ref: ref.replace(".", "_") for ref, _ in top}
    soc = (soc[:k] + "".join(f"  wire {w} cpu_tap_{name[r]};\n" for r, w in top) + inst_line +
           "".join(f"    .tap_{name[r]}(cpu_tap_{name[r]}),\n" for r, _ in top) + soc[k + len(inst_line):])
    for ref, _ in top:
        soc = re.sub(rf"\bcpu\.{re.escape(ref)}\b", f"cpu_tap_{name[ref]}", soc)
    paths = (os.path.join(out, "VexRiscv_ports.v"), os.path.join(out, "soc_vexriscv_ports.v"))
    for path, text in zip(paths, (core, soc)):
        if not os.path.exists(path) or open(path).read() != text:  # (unchanged: results reused)
            with open(path, "w") as f:
                f.write(text)
    return paths


def designs(rtl, out):
    core = os.path.join(rtl, "VexRiscv.v")
    statmod = os.path.join(HERE, "..", "statmod.v")
    adapter = os.path.join(HERE, "adapter_vexriscv.v")
    core_ports, soc_ports = patched(rtl, out)
    soc = [soc_ports, os.path.join(HERE, "soc_parts.v"), adapter, statmod, core_ports]
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
    os.makedirs(out, exist_ok=True)
    names = [d[0] for d in designs(rtl, out)]
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
        for name, files, top, params in designs(rtl, out):
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
