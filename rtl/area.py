#!/usr/bin/env python3
"""Area of rtl/statmod.v and rtl/naive.v with yosys (docs/rtl-area.md).

  area.py check OUTDIR           one small iCE40 synthesis (CTest rtl.synth.small)
  area.py small OUTDIR [FAMILIES]  SnoopP's configuration (S=1, P=16, n=16)
                                 in the default build and each small build
                                 (TOTALS, SNAP, ARR_RAM, COMPACT, counter width R),
                                 the table of docs/rtl-area.md
  area.py sweep OUTDIR [DOCS [FAMILIES [KS [R [BUILDS]]]]]  the Statistics Module paper's Fig. 3: from 2 of
                                 each, S, P and n raised one at a time (KS, default
                                 2,4,8,16), the naive design (k signals, k ARRs, k^2
                                 counters) beside it, and the SnoopP-equivalent size
                                 (when KS holds 4), on iCE40 and Xilinx 7-series,
                                 R-bit counters (default 32), in each of BUILDS
                                 (default: default; also compact, compact-small:
                                 BUILDS below; the naive design with the default build);
                                 writes DOCS/rtl-area.csv,
                                 DOCS/rtl-area-table.md and DOCS/images/rtl-area.png
                                 (the plot: the default build), keeping the rows of
                                 DOCS/rtl-area.csv of other families or builds than
                                 this sweep's (hours; bench/experiments.py --area --small runs
                                 KS 2,4 and R 8 on iCE40 in minutes)
Exit 0 done, 1 a check failed, 64 usage, 70 yosys failed."""
import csv
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
R_SWEEP = 32
FAMILIES = {"ice40": "synth_ice40", "xilinx": "synth_xilinx"}


def synth(outdir, design, family, S, P, N, R, totals=1, snap=1, arr_ram=0, compact=0):
    """Returns (luts, ffs, cells) after synthesis, from yosys' stat."""
    os.makedirs(outdir, exist_ok=True)
    if design == "statmod":
        src, top, params = "statmod.v", "tally_statmod", f"-set S {S} -set P {P} -set N {N} -set R {R}"
        params += f" -set TOTALS {totals} -set SNAP {snap} -set ARR_RAM {arr_ram} -set COMPACT {compact}"
    else:
        src, top, params = "naive.v", "tally_statmod_naive", f"-set S {S} -set P {P} -set R {R}"
    tag = f"{design}_{family}_{S}_{P}_{N}_{R}" + ("" if totals and snap and not arr_ram else f"_t{totals}_s{snap}")
    tag += f"_a{arr_ram}" if arr_ram else ""
    tag += f"_c{compact}" if compact else ""
    stat = os.path.join(outdir, tag + ".stat")
    script = (f"read_verilog {os.path.join(HERE, src)}; chparam {params} {top}; "
              f"{FAMILIES[family]} -top {top}; tee -q -o {stat} stat")
    log = os.path.join(outdir, tag + ".log")
    fresh = os.path.exists(stat) and os.path.getmtime(stat) > os.path.getmtime(os.path.join(HERE, src))
    r = subprocess.CompletedProcess([], 0)
    if not fresh:  # a result newer than the Verilog is reused (a stopped sweep resumes)
        with open(log, "w") as f:
            r = subprocess.run(["yosys", "-q", "-p", script], stdout=f, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        print(f"area: yosys failed for {tag} (see {log})", file=sys.stderr)
        sys.exit(70)
    cells = {}
    for m in re.finditer(r"^\s+(\S+)\s+(\d+)\s*$", open(stat).read(), re.M):
        cells[m.group(1)] = int(m.group(2))
    if family == "ice40":
        luts = cells.get("SB_LUT4", 0)
        ffs = sum(v for k, v in cells.items() if k.startswith("SB_DFF"))
    else:
        luts = sum(v for k, v in cells.items() if re.fullmatch(r"LUT[1-6]", k))
        ffs = sum(v for k, v in cells.items() if re.fullmatch(r"FD[RSCP]E", k))
    return luts, ffs, cells


def min_ffs(S, P, N, R):
    """Flip-flops tally_statmod cannot do without, counted by hand from
    docs/rtl.md: per counter its count, its snapshot, 64-bit total (the
    saturation flags are read off the counts), its selectors (whether both
    name what the module has, the signal's index, ceil(log2 S) bits;
    anywhere, the ARR's index, ceil(log2 P) bits) and enable; per ARR two
    32-bit bounds; the 32-bit period and timer, the 64-bit run id and cycle."""
    bits = lambda k: max(1, (k - 1).bit_length())  # noqa: E731
    sel = 1 + bits(S) + 1 + bits(P) + 1
    return N * (2 * R + 64 + sel) + P * 64 + 32 + 32 + 64 + 64


def check(outdir):
    S, P, N, R = 4, 2, 2, 4
    luts, ffs, _ = synth(outdir, "statmod", "ice40", S, P, N, R)
    need = min_ffs(S, P, N, R)
    print(f"area: S={S} P={P} n={N} R={R} on iCE40: {luts} LUTs, {ffs} flip-flops (at least {need} needed)")
    if luts == 0 or ffs < need:
        print("area: the synthesis lost state the module must keep")
        return 1
    return 0


# the builds a sweep can take (TOTALS, SNAP, ARR_RAM, COMPACT: docs/rtl-area.md "Small builds")
BUILDS = {"default": (1, 1, 0, 0),
          "compact": (0, 1, 0, 1),        # compact frames (no run totals: the relay's FINAL has none)
          "compact-small": (0, 0, 1, 1)}  # and no snapshot, the ARRs in a RAM: the smallest build


def sweep(outdir, docs, families, ks=(2, 4, 8, 16), r=R_SWEEP, builds=("default",)):
    """Smallest sizes first, each result written at once (a long sweep
    stopped early leaves the sizes it finished in the table and plot)."""
    rows, done = [], {}
    os.makedirs(os.path.join(docs, "images"), exist_ok=True)
    kept = []  # an earlier sweep's rows of other families or builds
    try:
        with open(os.path.join(docs, "rtl-area.csv"), newline="") as f:
            for row in csv.DictReader(f):
                row.setdefault("build", "default")
                row["build"] = row["build"] or "default"
                for key in ("S", "P", "N", "R", "k", "luts", "ffs"):
                    row[key] = int(row[key])
                if row["family"] not in families or row["build"] not in builds:
                    kept.append(row)
    except FileNotFoundError:
        pass

    def add(series, design, S, P, N, R, k, build):
        for fam in families:
            key = (design, fam, S, P, N, R, build)
            if key not in done:
                done[key] = synth(outdir, design, fam, S, P, N, R, *BUILDS[build])[:2]
            luts, ffs = done[key]
            rows.append(dict(series=series, design=design, family=fam, S=S, P=P, N=N, R=R, k=k, luts=luts, ffs=ffs,
                             build=build))
            print(f"area: {series:8s} {fam:6s} {build:13s} S={S:2d} P={P:2d} n={N:2d} R={R}: {luts:6d} LUTs "
                  f"{ffs:6d} FFs", flush=True)
            write(kept + rows, docs)

    for k in ks:
        for b in builds:
            add("signals", "statmod", k, 2, 2, r, k, b)
            add("arrs", "statmod", 2, k, 2, r, k, b)
            add("counters", "statmod", 2, 2, k, r, k, b)
            if k == 4:
                # SnoopP: 16 code regions counting cycles, 64-bit counters
                add("snoopp", "statmod", 1, 16, 16, 64, 16, b)
        if "default" in builds:
            add("naive", "naive", k, k, k * k, r, k, "default")
    return 0


SNOOPP = (1, 16, 16, 64)   # S, P, n, R: 16 code ranges, 16 cycle counters of 64 bits
SNOOPP_PUBLISHED = (1719, 1129)   # 4-input LUTs, flip-flops (Virtex-II)


SMALL_BUILDS = [  # name, R, TOTALS, SNAP, ARR_RAM[, COMPACT]
    ("default", 64, 1, 1, 0), ("no totals", 64, 0, 1, 0), ("no snapshot", 64, 1, 0, 0), ("small", 64, 0, 0, 0),
    ("small, ARRs in RAM", 64, 0, 0, 1), ("small, 32-bit counters", 32, 0, 0, 0),
    ("small, 16-bit counters", 16, 0, 0, 0), ("small, ARRs in RAM, 32-bit counters", 32, 0, 0, 1),
    ("small, ARRs in RAM, 16-bit counters", 16, 0, 0, 1),
    ("compact, small", 64, 0, 0, 0, 1), ("compact, small, ARRs in RAM", 64, 0, 0, 1, 1),
    ("compact, small, 16-bit counters", 16, 0, 0, 0, 1),
    ("compact, small, ARRs in RAM, 32-bit counters", 32, 0, 0, 1, 1),
    ("compact, small, ARRs in RAM, 16-bit counters", 16, 0, 0, 1, 1),
    ("compact, snapshot, ARRs in RAM, 16-bit counters", 16, 0, 1, 1, 1)]


def small(outdir, families):
    """SnoopP's configuration (S=1, P=16, n=16) in the default build and each small build."""
    print("| build | R | TOTALS | SNAP | ARR_RAM | COMPACT | family | LUTs | flip-flops | block RAMs |\n"
          "|---|--:|--:|--:|--:|--:|---|--:|--:|--:|")
    S, P, N, _ = SNOOPP
    for name, R, t, sn, ar, *c in SMALL_BUILDS:
        cp = c[0] if c else 0
        for fam in families:
            luts, ffs, cells = synth(outdir, "statmod", fam, S, P, N, R, t, sn, ar, cp)
            rams = sum(v for k, v in cells.items() if k.startswith("SB_RAM") or k.startswith("RAMB"))
            print(f"| {name} | {R} | {t} | {sn} | {ar} | {cp} | {fam} | {luts} | {ffs} | {rams} |", flush=True)
    return 0


def write(rows, docs):
    fams, bs = list(FAMILIES), list(BUILDS)
    rows = sorted(rows, key=lambda r: (fams.index(r["family"]), bs.index(r["build"])))  # stable: sizes in order
    with open(os.path.join(docs, "rtl-area.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["series", "design", "family", "S", "P", "N", "R", "k", "luts", "ffs",
                                          "build"])
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(docs, "rtl-area-table.md"), "w") as f:
        f.write("| series | family | build (TOTALS SNAP ARR_RAM COMPACT) | S | P | n | R | LUTs | flip-flops |\n"
                "|---|---|---|--:|--:|--:|--:|--:|--:|\n")
        for r in rows:
            b = "" if r["design"] == "naive" else f"{r['build']} ({' '.join(map(str, BUILDS[r['build']]))})"
            f.write(f"| {r['series']} | {r['family']} | {b} | {r['S']} | {r['P']} | {r['N']} | {r['R']} | "
                    f"{r['luts']} | {r['ffs']} |\n")
    plot([r for r in rows if r["build"] == "default"], os.path.join(docs, "images", "rtl-area.png"))


def plot(rows, path):
    try:
        import matplotlib
    except ImportError:
        print("area: no matplotlib for this python3 (Debian: python3-matplotlib, /usr/bin/python3); no plot",
              file=sys.stderr)
        return
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fams = [f for f in FAMILIES if any(r["family"] == f for r in rows)]
    fig, axes = plt.subplots(1, len(fams), figsize=(5 * len(fams), 4), squeeze=False)
    for ax, fam in zip(axes[0], fams):
        for series in ["signals", "arrs", "counters", "naive"]:
            pts = [(r["k"], r["luts"]) for r in rows if r["family"] == fam and r["series"] == series]
            label = {"signals": "S varied", "arrs": "P varied", "counters": "n varied",
                     "naive": "naive (S=P=k, k² counters)"}[series]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
        ax.set_xscale("log", base=2)
        ks = sorted({r["k"] for r in rows if r["series"] != "snoopp"})
        ax.set_xticks(ks)
        ax.set_xticklabels([str(k) for k in ks])
        ax.set_xlabel(f"k (the varied parameter; others 2), R = {rows[0]['R']}")
        ax.set_ylabel("LUTs")
        ax.set_title(f"yosys {FAMILIES[fam]}")
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main(a):
    if a and a[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    if len(a) == 2 and a[0] == "check":
        return check(a[1])
    if len(a) in (2, 3) and a[0] == "small":
        fams = a[2].split(",") if len(a) == 3 else ["ice40"]
        if any(f not in FAMILIES for f in fams):
            print(f"area: families are {', '.join(FAMILIES)}", file=sys.stderr)
            return 64
        return small(a[1], fams)
    if 2 <= len(a) <= 7 and a[0] == "sweep":
        fams = a[3].split(",") if len(a) >= 4 else list(FAMILIES)
        if any(f not in FAMILIES for f in fams):
            print(f"area: families are {', '.join(FAMILIES)}", file=sys.stderr)
            return 64
        try:
            ks = [int(k) for k in a[4].split(",")] if len(a) >= 5 else [2, 4, 8, 16]
            r = int(a[5]) if len(a) >= 6 else R_SWEEP
        except ValueError:
            ks, r = [], 0
        if not ks or any(k < 1 or k > 64 for k in ks) or not 1 <= r <= 64:
            print("area: KS is a list of sizes 1..64 (e.g. 2,4), R a counter width 1..64", file=sys.stderr)
            return 64
        builds = a[6].split(",") if len(a) >= 7 else ["default"]
        if any(b not in BUILDS for b in builds):
            print(f"area: builds are {', '.join(BUILDS)}", file=sys.stderr)
            return 64
        return sweep(a[1], a[2] if len(a) >= 3 else os.path.join(HERE, "..", "docs"), fams, ks, r, builds)
    print(__doc__, file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
