#!/usr/bin/env python3
"""Profiles of every shipped workload under both engines, each run timed out.

    engines_all.py TALLY OUT_DIR --core CORE [--timeout S] [--workloads DIR]... [ELF...]

For every DIR/*/*.elf (the workloads the build makes, each flavour's
folder: target/rv32imac/, target/rv32i/, target/rv32imac-pg/), run with
the small size argument of tests/timing/laws.py, and every ELF given:
`tally profile --core CORE --json` under --engine interp and --engine jit
must give byte-identical JSON, the same output and the same exit status
(and `tally run -v --engine jit` on the first must say the translator
ran: it is there to compare with). Each run is killed
after --timeout seconds and counts as a failure: a translation that never
ends (a block re-made on every entry, a loop of translated code) fails
the test instead of holding it until CTest's own timeout.

Exit status 77 (skipped) when the translator is not supported here.
"""
import argparse
import glob
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "timing"))
from laws import OPTIONS, SIZES  # noqa: E402  the workloads' small sizes and needed options


def run(cmd, cwd, timeout):
    """The finished process, or None when it ran out of time."""
    try:
        return subprocess.run(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tally")
    ap.add_argument("out")
    ap.add_argument("--core", required=True)
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--workloads", action="append", default=[])
    ap.add_argument("elfs", nargs="*")
    a = ap.parse_intermixed_args()
    os.makedirs(a.out, exist_ok=True)
    programs = []  # (ELF, argv)
    for d in a.workloads:
        for elf in sorted(glob.glob(os.path.join(d, "*", "*.elf"))):
            name = os.path.splitext(os.path.basename(elf))[0]
            programs.append((elf, OPTIONS.get(os.path.basename(elf), []), [SIZES.get(name, "1")]))
    programs += [(elf, [], []) for elf in a.elfs]
    if not programs:
        sys.exit("engines_all: FAIL: no programs (workloads not built?)")
    probe = run([a.tally, "run", "-v", "--core", a.core, "--engine", "jit", programs[0][0]] + programs[0][2], a.out,
                a.timeout)
    if probe is not None and (b"no translator" in probe.stderr or probe.returncode == 64):
        print("engines_all: the translator is not supported on this host: skipped")
        return 77
    fails = []
    if probe is None or b"engine jit" not in probe.stderr:
        fails.append(f"the translator did not run on {programs[0][0]}: "
                     f"{'timed out' if probe is None else probe.stderr.decode(errors='replace').strip()}")
    for elf, opts, argv in programs:
        flavour = os.path.basename(os.path.dirname(elf))
        tag = f"{flavour}.{os.path.splitext(os.path.basename(elf))[0]}"
        # its own folder: the -pg builds write gmon.out where they run
        cwd = os.path.join(a.out, tag)
        os.makedirs(cwd, exist_ok=True)
        outs = {}
        for eng in ("interp", "jit"):
            prof = os.path.join(cwd, f"{eng}.json")
            if os.path.exists(prof):
                os.remove(prof)
            cmd = [a.tally, "profile", "--core", a.core, "--engine", eng, "--json", prof] + opts + [elf] + argv
            p = run(cmd, cwd, a.timeout)
            if p is None:
                fails.append(f"{tag}: --engine {eng} still running after {a.timeout:g} s: {' '.join(cmd)}")
                continue
            outs[eng] = {"json": read(prof), "output": p.stdout, "exit": p.returncode}
            if outs[eng]["json"] is None:
                fails.append(f"{tag}: --engine {eng} wrote no profile (exit {p.returncode}): "
                             f"{p.stderr.decode(errors='replace').strip()}")
        if len(outs) == 2 and None not in (outs["interp"]["json"], outs["jit"]["json"]):
            for what in outs["interp"]:
                if outs["interp"][what] != outs["jit"][what]:
                    fails.append(f"{tag}: the {what} differs between --engine interp and jit (files in {cwd})")
    for f in fails:
        print("FAIL", f)
    print(f"engines_all: {len(programs)} programs on {a.core}, {len(fails)} failures")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
