#!/usr/bin/env python3
"""longcheck.py OUT_DIR: checks longrun.sh's runs (its "check" phase).

For every program and size: each run's exit status and standard output
against QEMU's first run (rv32emu's output is its build's, which prints the
same text; `tally profile`'s begins with the program's, its report
follows); the instruction count of every `tally run -v` against the other
tally runs of the same program and size; and, where OUT_DIR/icount.tsv has
QEMU's exact counts at scales 1, 2 and 3 and they are linear in the scale
(Embench-IoT's warm-up runs the body once whatever the scale, the timed run
scale times), tally's count at the run's scale against QEMU's extrapolated
one, corrected for the instructions that benchmark() and verify_benchmark(),
each run once, take to load constants made from the scale (lui + addi where
li sufficed: the ELF files differ in those constants only). CoreMark's count is not linear in
its iterations (it prints them), so it is checked at 10, 20, 30 only. Writes
OUT_DIR/check.tsv (size, program, runs, verdict, tally's count, QEMU's
count or "-") and prints the mismatches; exit status 1 if there is one.
"""
import collections
import glob
import os
import re
import subprocess
import sys

out = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
script = open(os.path.join(here, "longrun.sh")).read()
scale = {}
for name in ("long", "short"):
    block = script.split(f"declare -A {name}=(")[1].split(")\n")[0]
    scale[name] = {p: int(v) for p, v in re.findall(r"\[(\S+?)\]=(\d+)", block)}

icount = collections.defaultdict(dict)
if os.path.exists(os.path.join(out, "icount.tsv")):
    for line in open(os.path.join(out, "icount.tsv")):
        p, k, q, t = line.split()
        icount[p][int(k)] = (q, t)


def exit_status(rss_file):
    """/usr/bin/time -f '%M %x': the last line is 'PEAK STATUS'."""
    lines = open(rss_file).read().split("\n")
    last = [l for l in lines if l.strip()][-1].split()
    return int(last[1])


def func_len(elf, name):
    """(instructions, straight-line?) of function NAME in ELF."""
    dis = subprocess.run(["riscv64-unknown-elf-objdump", "-d", elf], capture_output=True,
                         text=True, check=True).stdout
    body = dis.split(f"<{name}>:\n")[1].split("\n\n")[0].strip().split("\n")
    ops = [l.split("\t")[2].split()[0] for l in body if l.count("\t") >= 2]
    return len(ops), not any(o.startswith("b") or o in ("jal", "jalr") for o in ops)


def code_fix(elf, elf1):
    """Instructions more in ELF than in ELF1 (scale 1) outside the body's loop:
    benchmark() loads the scale and verify_benchmark() compares with a constant
    made from it, each run once; a larger constant may take more instructions
    (lui + addi for li). None unless both are straight-line code."""
    fix = 0
    for f in ("benchmark", "verify_benchmark"):
        (n, s), (n1, s1) = func_len(elf, f), func_len(elf1, f)
        if n != n1 and not (s and s1):
            return None
        fix += n - n1
    return fix


runs = collections.defaultdict(list)
for f in glob.glob(os.path.join(out, "runs", "*.rss")):
    base = f[:-4]
    size, rest = os.path.basename(base).split(".", 1)
    prog, cfg, r = rest.rsplit(".", 2)
    runs[(size, prog)].append((cfg, int(r[1:]), base))

bad = 0
rows = []
for (size, prog), lst in sorted(runs.items()):
    problems = []
    ref = [b for c, r, b in sorted(lst, key=lambda x: x[1]) if c == "qemu"]
    if not ref:
        rows.append((size, prog, len(lst), "no QEMU run", "-", "-"))
        bad += 1
        continue
    ref_out = open(ref[0] + ".out", "rb").read()
    ref_rc = exit_status(ref[0] + ".rss")
    if ref_rc != 0:
        problems.append(f"QEMU exit {ref_rc}")
    counts = set()
    for cfg, r, base in lst:
        try:
            rc = exit_status(base + ".rss")
        except (IndexError, ValueError):
            problems.append(f"{cfg} r{r}: no exit status")
            continue
        if rc != ref_rc:
            problems.append(f"{cfg} r{r}: exit {rc}")
        got = open(base + ".out", "rb").read()
        if cfg == "profile":            # the program's output, then the profile
            got = got[:len(ref_out)]
        if got != ref_out:
            problems.append(f"{cfg} r{r}: output differs")
        m = re.search(r"^tally: ([0-9,]+) instructions", open(base + ".err").read(), re.M)
        if m:
            counts.add(int(m.group(1).replace(",", "")))
    if len(counts) > 1:
        problems.append(f"tally counts differ: {sorted(counts)}")
    count = next(iter(counts)) if len(counts) == 1 else None
    q = "-"
    ic = icount.get(prog, {})
    c = [int(ic[k][0]) if k in ic and ic[k][0].isdigit() else None for k in (1, 2, 3)]
    if prog != "coremark" and None not in c:
        if c[2] - c[1] != c[1] - c[0]:
            q = "not linear"
        else:
            fix = code_fix(os.path.join(out, size, prog + ".elf"),
                           os.path.join(out, "icount", "1", prog + ".elf"))
            q = "code differs" if fix is None else c[0] + (scale[size][prog] - 1) * (c[1] - c[0]) + fix
            if fix is not None and count is not None and count != q:
                problems.append(f"count {count} != QEMU's extrapolated {q}")
    verdict = "ok" if not problems else "; ".join(problems)
    bad += bool(problems)
    rows.append((size, prog, len(lst), verdict, count if count is not None else "-", q))

with open(os.path.join(out, "check.tsv"), "w") as f:
    for row in rows:
        f.write("\t".join(map(str, row)) + "\n")
for row in rows:
    if row[3] != "ok":
        print("\t".join(map(str, row)))
for p, ic in sorted(icount.items()):
    for k, (q, t) in sorted(ic.items()):
        if q != t:
            print(f"{p} at scale {k}: QEMU {q}, tally {t}")
            bad += 1
print(f"{len(rows)} program-sizes checked, {bad} with a mismatch")
sys.exit(1 if bad else 0)
