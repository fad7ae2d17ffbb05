#!/usr/bin/env python3
"""rand_sweep.py -- random programs on the VexRiscv RTL and on tally.

usage: rand_sweep.py WORK_DIR --seeds A-B [--variant V]... [--tb-dir DIR]
                     [--rtl-commit HASH] [--csv OUT] [--tally TALLY] [-j N]
       rand_sweep.py WORK_DIR --counts CSV --tally TALLY [--exact FILE] [--cc CC]

For every seed and variant (std, imac, min): writes the program of
tests/cores/vexriscv/rand_gen.py, builds it as the differential programs are
(crt.S, link.ld), runs it on the RTL testbench (TB_DIR/tb-VARIANT, built by
build.sh) at 0 to 3 wait states, and writes the counts as a CSV in
rtl_counts.csv's format (program rand_SEED, to OUT, default
WORK_DIR/rand_counts.csv). With --tally it then runs compare.py over that
CSV: tally against the RTL, one line per run that differs, and the summary.
The CSV with --rtl-commit is what tests/cores/vexriscv/rand_counts.csv holds
(regenerate it with the seeds listed in that file's header).

With --counts (CTest cores.vexriscv.rand) no RTL runs: the programs of the
seeds in CSV's rows are built and compared with those counts, the runs of
the --exact file (compare.py's) checked exact.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
VEX = os.path.join(TOP, "tests", "cores", "vexriscv")
MARCH = {"std": "rv32im_zicsr_zifencei", "imac": "rv32imac_zicsr_zifencei", "min": "rv32i_zicsr_zifencei"}
FIELDS = ["cycles", "instret", "exit", "ibus_beats", "ibus_transactions", "ibus_bursts", "dbus_reads",
          "dbus_writes", "dbus_transactions", "dbus_bursts"]


def build(work, seed, variant, cc):
    """the program rand_SEED for variant in work/VARIANT/: its ELF, flat image
    and the finisher store's address"""
    d = os.path.join(work, variant)
    os.makedirs(d, exist_ok=True)
    name = f"rand_{seed}"
    src, elf, bin_ = (os.path.join(d, name + x) for x in (".S", ".elf", ".bin"))
    subprocess.run([sys.executable, os.path.join(VEX, "rand_gen.py"), str(seed), variant, "-o", src], check=True)
    subprocess.run([cc, f"-march={MARCH[variant]}", "-mabi=ilp32", "-nostdlib", "-nostartfiles",
                    "-ffreestanding", "-I" + VEX, "-T", os.path.join(VEX, "link.ld"),
                    "-Wl,--no-warn-rwx-segments", "-o", elf, os.path.join(VEX, "crt.S"), src], check=True)
    prefix = cc[:-3] if cc.endswith("gcc") else "riscv64-unknown-elf-"
    subprocess.run([prefix + "objcopy", "-O", "binary", elf, bin_], check=True)
    nm = subprocess.run([prefix + "nm", elf], capture_output=True, text=True, check=True).stdout
    fpc = next(l.split()[0] for l in nm.splitlines() if l.endswith(" _finish_store"))
    return bin_, fpc


def rtl_run(tb, bin_, fpc, w):
    out = subprocess.run([tb, bin_, "-w", str(w), "-f", fpc], capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError(f"{tb} {bin_} -w {w}: status {out.returncode}: {out.stderr.strip()[:200]}")
    kv = dict(p.split("=") for p in out.stdout.split())
    return [kv[f] for f in FIELDS]


def seeds_of(text):
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += range(int(a), int(b or a) + 1)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("work")
    ap.add_argument("--seeds", help="e.g. 1-50 or 3,7,9")
    ap.add_argument("--counts", help="compare with this CSV's counts, no RTL run")
    ap.add_argument("--exact", help="with --counts: compare.py's --exact file")
    ap.add_argument("--variant", action="append", choices=list(MARCH))
    ap.add_argument("--tb-dir", default="/work/rtl/vextb")
    ap.add_argument("--rtl-commit", default="unknown")
    ap.add_argument("--csv")
    ap.add_argument("--tally")
    ap.add_argument("--cc", default="riscv64-unknown-elf-gcc")
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args()
    variants = a.variant or ["std", "imac", "min"]
    if a.counts:
        return check(a, variants)
    if not a.seeds:
        ap.error("--seeds or --counts is needed")
    csv = a.csv or os.path.join(a.work, "rand_counts.csv")
    jobs = []
    for seed in seeds_of(a.seeds):
        for v in variants:
            bin_, fpc = build(a.work, seed, v, a.cc)
            for w in range(4):
                jobs.append((v, seed, w, bin_, fpc))
    with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
        res = list(ex.map(lambda j: rtl_run(os.path.join(a.tb_dir, "tb-" + j[0]), j[3], j[4], j[2]), jobs))
    ver = subprocess.run(["verilator", "--version"], capture_output=True, text=True).stdout.split()[:2]
    with open(csv, "w") as f:
        f.write(f"# VexRiscv RTL counts of rand_gen.py's programs (seeds {a.seeds}): "
                f"litex-hub/pythondata-cpu-vexriscv {a.rtl_commit}, {' '.join(ver)}\n")
        f.write("# made by rtl/cores/vexriscv/rand_sweep.py; memory and counting: rtl/cores/vexriscv/tb.cpp\n")
        f.write("variant,program,wait," + ",".join(FIELDS) + "\n")
        for (v, seed, w, _, _), r in zip(jobs, res):
            f.write(f"{v},rand_{seed},{w}," + ",".join(r) + "\n")
    print(f"rand_sweep.py: {len(jobs)} RTL runs -> {csv}")
    return compare(a, variants, csv, None) if a.tally else 0


def compare(a, variants, csv, exact):
    status = 0
    for v in variants:
        cmd = [sys.executable, os.path.join(VEX, "compare.py"), a.tally, csv, os.path.join(a.work, v),
               os.path.join(TOP, "cores"), "--variant", v, "--board", os.path.join(TOP, "boards", "litex.ini")]
        r = subprocess.run(cmd + (["--exact", exact, "--bus-exact", "min"] if exact else []))
        status |= r.returncode
    return status


def check(a, variants):
    """--counts: build the CSV's programs, compare tally with its counts"""
    if not a.tally:
        sys.exit("rand_sweep.py: --counts needs --tally")
    with open(a.counts) as f:
        rows = [l.split(",") for l in f if l[0].isalpha() and not l.startswith("variant,")]
    built = set()
    for v, prog, *_ in rows:
        if v in variants and (v, prog) not in built:
            build(a.work, int(prog[len("rand_"):]), v, a.cc)
            built.add((v, prog))
    return compare(a, sorted({v for v, _ in built}), a.counts, a.exact)


if __name__ == "__main__":
    sys.exit(main())
