#!/usr/bin/env python3
"""What a new user meets first (docs/tally-run.md, docs/tally-config.md,
README.md), one case per run:

    newuser.py CASE --tally TALLY --source SRC --build BUILD --programs DIR

CASE `quick` runs all but readme (a few seconds); readme takes longer
(CTest label slow).

  readme    every `./build/tally` command line of the README's code blocks
            that needs nothing but the build (no prog.c of the reader's,
            no second machine, no browser, no GDB) runs as pasted, from a
            folder laid out like the clone (build/, target/, scripts/),
            and exits 0; each --count interval table has a non-zero count
            in every column, and the --perfetto example's counter tracks
            too (a counter that is 0 in every interval shows nothing).
  argv0     argv[0] is PROGRAM's base name: `tally profile` of prog.elf and
            of /a/longer/dir/prog.elf count the same cycles (`tally diff`
            shows no change), and --argv0-path, which passes the longer
            path, costs more cycles (crt0 copies the command line).
  counters  a program reading mcycle, minstret and mhpmcounter3 without a
            core model gets one warning naming the first read (mcycle at
            _start, 0x80000000) and the law of that mode holds (mcycle -
            minstret stays the same: the program exits 0); with --core,
            no warning.
  isa       a program assembled for rv32imafdc: tally run names its ELF
            attributes' F and D before the run and in the trap report;
            a program built for rv32imac gets no such word.
  config    tally config --program: a function name given with a range
            must hold the range (refused, 64, naming the function there),
            a range inside the named function or a name of one's own passes
            the check (and then finds no board: 69).
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

FAILS = 0


def check(ok, what):
    global FAILS
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        FAILS += 1
    return ok


def run(cmd, cwd=None, timeout=120):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)


# ---------------------------------------------------------------------------
# README

# Lines that need what a clone and a build do not have: the reader's own
# program, a second machine, a browser, GDB, a background job; and the
# made-up run id of `tally report`, and the DVFS and sweep examples whose
# own tests live elsewhere (tests/dvfs, tests/sweep).
SKIP = re.compile(r"prog(-litex)?\.(elf|bin|c)|my\.c|points\.spec|\bserve\b|--gdb|--control|\bcollect\b|"
                  r"\bconfig\b|&\s*$|report 0x|\bdvfs\b|sweep-plot|board\.key|urandom")


def readme_commands(path):
    """The `./build/tally ...` command lines of the README's code blocks,
    continuation lines joined, in order."""
    cmds, block, pending = [], False, ""
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("```"):
            block = not block
            pending = ""
            continue
        if not block:
            continue
        if pending:
            line = pending + " " + line.strip()
            pending = ""
        if line.endswith("\\"):
            pending = line[:-1].rstrip()
            continue
        if line.startswith("./build/tally "):
            cmds.append(line)
    return cmds


def interval_columns(text):
    """The interval table's count columns (tally run --count, stderr)."""
    cols = None
    for line in text.splitlines():
        f = line.split()
        if len(f) >= 4 and all(re.fullmatch(r"[\d,]+", x) for x in f) and len(f[1].replace(",", "")) >= 1:
            vals = [int(x.replace(",", "")) for x in f[3:]]
            cols = [0] * len(vals) if cols is None else cols
            if len(vals) == len(cols):
                cols = [a + (b > 0) for a, b in zip(cols, vals)]
    return cols


def case_readme(a):
    cmds = readme_commands(os.path.join(a.source, "README.md"))
    check(len(cmds) >= 15, f"the README has {len(cmds)} ./build/tally command lines")
    with tempfile.TemporaryDirectory() as d:
        os.symlink(a.build, os.path.join(d, "build"))
        for name in ("target", "scripts", "cores", "boards", "bench"):
            os.symlink(os.path.join(a.source, name), os.path.join(d, name))
        ran = 0
        for c in cmds:
            if SKIP.search(c):
                continue
            argv = shlex.split(c, comments=True)
            argv[0] = a.tally
            p = run(argv, cwd=d)
            ran += 1
            if not check(p.returncode == 0, f"as pasted: {c}"):
                print(f"     exit {p.returncode}: {p.stderr.strip()[-400:]}")
                continue
            if "--count" in argv:
                cols = interval_columns(p.stderr)
                check(cols and all(cols), f"  every --count column has a non-zero interval: {cols}")
            if "--perfetto" in argv:
                doc = json.load(open(os.path.join(d, argv[argv.index("--perfetto") + 1])))
                counts = [e["args"]["count"] for e in doc["traceEvents"] if e["ph"] == "C"]
                check(counts and any(counts), f"  the timeline's counter track is not 0 throughout "
                      f"({sum(1 for x in counts if x)} of {len(counts)} non-zero)")
        check(ran >= 15, f"{ran} README command lines run")


# ---------------------------------------------------------------------------
# argv[0]

def case_argv0(a):
    elf = os.path.join(a.build, "target", "rv32imac", "hanoi.elf")
    with tempfile.TemporaryDirectory() as d:
        deep = os.path.join(d, "a", "much", "longer", "folder", "name", "than", "the", "other")
        os.makedirs(deep)
        for where in (d, deep):
            with open(os.path.join(where, "prog.elf"), "wb") as f:
                f.write(open(elf, "rb").read())
        short, long_, path = (os.path.join(d, n) for n in ("short.json", "long.json", "path.json"))
        p1 = run([a.tally, "profile", "--json", short, "prog.elf", "5"], cwd=d)
        p2 = run([a.tally, "profile", "--json", long_, os.path.join(deep, "prog.elf"), "5"], cwd=d)
        p3 = run([a.tally, "profile", "--argv0-path", "--json", path, os.path.join(deep, "prog.elf"), "5"], cwd=d)
        if not check(p1.returncode == p2.returncode == p3.returncode == 0,
                     f"three profiles ran: {p1.stderr}{p2.stderr}{p3.stderr}"):
            return
        c1, c2, c3 = (json.load(open(x))["totals"]["cycle"] for x in (short, long_, path))
        check(c1 == c2, f"prog.elf and {len(deep)}-character folder/prog.elf: the same cycles ({c1}, {c2})")
        diff = run([a.tally, "diff", short, long_])
        rows = [l for l in diff.stdout.splitlines() if re.match(r"^\s+[\d,]+\s+[\d,]+\s+", l)]
        check(diff.returncode == 0 and rows and all(l.split()[2] == "0" for l in rows),
              f"tally diff shows no change ({len(rows)} functions)")
        check(c3 > c1, f"--argv0-path passes the longer path: more cycles ({c3} > {c1})")
        r = run([a.tally, "run", "--help"])
        check("--argv0-path" in r.stdout, "tally run --help lists --argv0-path")


# ---------------------------------------------------------------------------
# counters without a core model

def case_counters(a):
    elf = os.path.join(a.programs, "read_counters.elf")
    p = run([a.tally, "run", elf])
    check(p.returncode == 0, f"mcycle - minstret is constant without a core model (exit {p.returncode})")
    warn = [l for l in p.stderr.splitlines() if "warning" in l]
    check(len(warn) == 1 and "mcycle (at 0x80000000 <_start>)" in warn[0] and "--core" in warn[0] and
          "mhpmcounter reads 0" in warn[0], f"one warning naming mcycle at _start: {warn}")
    p = run([a.tally, "run", "--core", "tally5", elf])
    check("warning" not in p.stderr, f"with --core tally5: no warning ({p.stderr.strip()})")
    hanoi = os.path.join(a.build, "target", "rv32imac", "hanoi.elf")
    p = run([a.tally, "run", hanoi, "3"])
    check(p.returncode == 0 and "warning" not in p.stderr, f"a program reading no counter: no warning "
          f"({p.stderr.strip()})")


# ---------------------------------------------------------------------------
# the ELF's ISA

def case_isa(a):
    elf = os.path.join(a.programs, "float_add.elf")
    p = run([a.tally, "run", elf])
    want = "F and D are not in the core's rv32imac"
    lines = p.stderr.splitlines()
    first = lines[0] if lines else ""
    check(p.returncode == 125 and first.startswith("tally run: warning: the program is built for rv32imafdc") and
          want in first and "Tag_RISCV_arch" not in first and "rv32i2p0_m2p0_a2p0_f2p0_d2p0_c2p0" in first,
          f"the warning before the run: {first}")
    note = [l for l in lines if l.strip().startswith("note")]
    check(note and want in note[0], f"the trap report's note: {note}")
    p = run([a.tally, "run", "--core", "vexriscv", elf])
    check("not in the core's rv32im;" in p.stderr and "A, F, D and C are" in p.stderr,
          f"on vexriscv (rv32im): A, F, D and C named: {p.stderr.splitlines()[:1]}")
    ok = os.path.join(a.build, "target", "rv32imac", "hanoi.elf")
    p = run([a.tally, "run", ok, "3"])
    check("built for" not in p.stderr, "an rv32imac program: no word about its ISA")


# ---------------------------------------------------------------------------
# tally config --arr LO-HI,NAME

def case_config(a):
    elf = os.path.join(a.build, "target", "rv32imac", "aes.elf")
    syms = run([a.tally, "symbols", elf]).stdout
    rng = {}
    for l in syms.splitlines():
        f = l.split()
        if len(f) >= 4 and f[0].startswith("0x"):
            rng[f[3]] = (int(f[0], 16), int(f[1], 16))
    if not check("main" in rng and "MixColumns" in rng, "aes.elf has main and MixColumns"):
        return
    lo, hi = rng["main"]
    inside_main = f"0x{lo + 0x10:08x}-0x{lo + 0x40:08x}"
    base = [a.tally, "config", "--program", elf, "--board", "127.0.0.1:9", "--timeout", "0.2", "--retries", "1"]
    p = run(base + ["--arr", f"0={inside_main},MixColumns", "--start"])
    check(p.returncode == 64 and "is not inside MixColumns" in p.stderr and "main+0x10" in p.stderr,
          f"a range in main named MixColumns: refused, main named: {p.returncode} {p.stderr.strip()}")
    mlo, mhi = rng["MixColumns"]
    p = run(base + ["--arr", f"0=0x{mlo:08x}-0x{mhi:08x},MixColumns", "--start"])
    check(p.returncode == 69, f"MixColumns's own range: checked and sent (no board: 69): {p.returncode} "
          f"{p.stderr.strip()}")
    p = run(base + ["--arr", f"0={inside_main},main-loop", "--start"])
    check(p.returncode == 69, f"a name of one's own: not checked (69): {p.returncode} {p.stderr.strip()}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case", choices=["readme", "argv0", "counters", "isa", "config", "quick"])
    ap.add_argument("--tally", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--programs", required=True)
    a = ap.parse_args()
    a.tally, a.source, a.build = (os.path.abspath(x) for x in (a.tally, a.source, a.build))
    for case in ["argv0", "counters", "isa", "config"] if a.case == "quick" else [a.case]:
        print(f"--- {case}")
        globals()["case_" + case](a)
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
