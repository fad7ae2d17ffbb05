#!/usr/bin/env python3
"""compare.py -- tally's VexRiscv core models against the RTL's counts.

usage: compare.py TALLY CSV PROG_DIR CORES_DIR [--variant V]... [--program P]...
                  [--wait W]... [--board BOARD_FILE] [--exact FILE]
                  [--functional-differs FILE] [--bus-exact V]...
                  [--bus-differs FILE] [-v]

For every row of CSV (rtl_counts.csv: variant, program, wait state W, the
RTL's cycles, instret, exit code and bus counts) runs PROG_DIR/PROGRAM.elf on
tally with the variant's core model (CORES_DIR/vexriscv[-imac|-min].ini) on the board
(boards/litex.ini) with its wait states set to W, and prints one line per run: the RTL's and tally's
cycles and their difference, the bus transactions on both sides.

Checked (exit status 1 when one fails):
- instret and the exit code (its low 8 bits, what a process status holds)
  equal the RTL's on every run but those of a "VARIANT PROGRAM" line of the
  --functional-differs file (tally runs an instruction the variant traps
  on), which are reported as DIFF lines;
- cycles equal the RTL's exactly for each "VARIANT PROGRAM W" line of the
  --exact file (a program/wait pair once found exact stays exact).
- with --bus-exact VARIANT (repeatable): on that variant's runs listed in the
  --exact file, the bus transactions too (tally's mem.read and mem.write
  against the RTL's reads, I-bus and D-bus, and D-bus writes), but on the
  "VARIANT PROGRAM" lines of the --bus-differs file (known differences,
  each with its reason), which are reported as BUSDIFF lines and fail only
  once they match (the line is then stale and must go).
The other runs' cycle differences are reported, not failed.
Exit status 77 (CTest's skip) when TALLY has no --board option yet.
"""
import argparse
import csv
import json
import os
import re
import tempfile
import subprocess
import sys

INI = {"std": "vexriscv", "imac": "vexriscv-imac", "min": "vexriscv-min"}


def board_for(board_file, wait, tmpdir):
    """The board at W wait states: a copy of board_file with every
    `wait_states` (the RAM's and the IO region's) set to W, so that each bus
    beat, and each device access, costs W more (docs/boards.md, Timing);
    the core model's memory gives the beat's own cycles (W = 0)."""
    with open(board_file) as f:
        text = f.read()
    text = re.sub(r"(?m)^(wait_states\s*=\s*)\d+", lambda m: m.group(1) + str(wait), text)
    path = os.path.join(tmpdir, f"board-w{wait}.ini")
    with open(path, "w") as f:
        f.write(text)
    return path


def read_runs(path, with_wait):
    """The "VARIANT PROGRAM W" lines of PATH (with_wait) or its "VARIANT
    PROGRAM" lines, as a set of tuples ('#' starts a comment; an empty set
    when PATH is not given)."""
    shape = "VARIANT PROGRAM W" if with_wait else "VARIANT PROGRAM"
    runs = set()
    if not path:
        return runs
    with open(path) as f:
        for n, line in enumerate(f, 1):
            parts = line.split("#", 1)[0].split()
            if not parts:
                continue
            if (len(parts) != len(shape.split()) or parts[0] not in INI
                    or (with_wait and not parts[2].isdigit())):
                sys.exit(f"compare.py: {path}:{n}: expected '{shape}', got {' '.join(parts)!r}")
            runs.add((parts[0], parts[1], int(parts[2])) if with_wait else (parts[0], parts[1]))
    return runs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tally")
    ap.add_argument("csv")
    ap.add_argument("prog_dir")
    ap.add_argument("cores_dir")
    ap.add_argument("--variant", action="append")
    ap.add_argument("--program", action="append")
    ap.add_argument("--wait", action="append", type=int)
    ap.add_argument("--board", help="a board file (its wait_states are set to each run's W)")
    ap.add_argument("--exact")
    ap.add_argument("--functional-differs")
    ap.add_argument("--bus-exact", action="append", default=[], choices=list(INI))
    ap.add_argument("--bus-differs", help="known bus-count differences, 'VARIANT PROGRAM' lines")
    ap.add_argument("-v", action="store_true", help="print every run, not only the differing ones")
    a = ap.parse_args()

    if a.board:
        h = subprocess.run([a.tally, "run", "--board", a.board, "--help"], capture_output=True, text=True)
        if "unrecognized option '--board'" in h.stdout + h.stderr:
            print("compare.py: tally run has no --board option: skipped")
            return 77
    exact = read_runs(a.exact, True)
    differs = read_runs(a.functional_differs, False)
    bus_differs = read_runs(a.bus_differs, False)
    rows = []
    with open(a.csv) as f:
        lines = [l for l in f if not l.startswith("#")]
    for r in csv.DictReader(lines):
        if a.variant and r["variant"] not in a.variant:
            continue
        if a.program and r["program"] not in a.program:
            continue
        if a.wait is not None and int(r["wait"]) not in a.wait:
            continue
        rows.append(r)
    if not rows:
        print("compare.py: no row of the CSV selected")
        return 1
    tmpdir = tempfile.mkdtemp(prefix="vexcompare.")
    fails = 0
    n_exact = 0
    total_abs = 0
    print(f"{'variant':7} {'program':9} W {'rtl':>8} {'tally':>8} {'diff':>7} {'%':>7}   "
          f"{'rtl rd/wr':>11} {'tally rd/wr':>11}")
    for r in rows:
        v, p, w = r["variant"], r["program"], int(r["wait"])
        elf = os.path.join(a.prog_dir, p + ".elf")
        cmd = [a.tally, "run", "--core", os.path.join(a.cores_dir, INI[v] + ".ini")]
        if a.board:
            cmd += ["--board", board_for(a.board, w, tmpdir)]
        cmd += ["--stats-json", "-", elf]
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        try:
            d = json.loads(res.stdout)
        except ValueError:
            print(f"FAIL {v} {p} W={w}: tally gave no statistics (status {res.returncode}): "
                  f"{res.stderr.strip()[:300]}")
            fails += 1
            continue
        sig = d["signals"]
        rc, tc = int(r["cycles"]), int(d["cycles"])
        diff = tc - rc
        total_abs += abs(diff)
        # read transactions: I-bus ones and D-bus reads; writes: single beats
        rtl_rd = int(r["ibus_transactions"]) + int(r["dbus_transactions"]) - int(r["dbus_writes"])
        rtl_wr = int(r["dbus_writes"])
        t_rd, t_wr = sig.get("mem.read", 0), sig.get("mem.write", 0)
        problems = []
        functional = []
        if int(d["instructions"]) != int(r["instret"]):
            functional.append(f"instret {d['instructions']} != RTL {r['instret']}")
        if (int(d["exit_status"]) & 0xff) != (int(r["exit"]) & 0xff):
            functional.append(f"exit {d['exit_status']} != RTL {int(r['exit']) & 0xff} (low 8 bits)")
        if (v, p) in differs:
            for fn in functional:
                print(f"DIFF {v} {p} W={w}: {fn} (listed: the variant's ISA)")
        else:
            problems += functional
        if (v, p, w) in exact and diff != 0:
            problems.append(f"cycles {tc} != RTL {rc}: listed exact")
        if (v, p, w) in exact and v in a.bus_exact:
            bus_same = (t_rd, t_wr) == (rtl_rd, rtl_wr)
            if (v, p) in bus_differs and not bus_same:
                print(f"BUSDIFF {v} {p} W={w}: bus reads/writes {t_rd}/{t_wr} != RTL "
                      f"{rtl_rd}/{rtl_wr} (listed in --bus-differs)")
            elif (v, p) in bus_differs:
                problems.append("bus counts equal the RTL's: remove the --bus-differs line")
            elif not bus_same:
                problems.append(f"bus reads/writes {t_rd}/{t_wr} != RTL {rtl_rd}/{rtl_wr}: listed exact")
        if diff == 0:
            n_exact += 1
        if a.v or diff != 0 or problems:
            pct = 100.0 * diff / rc
            print(f"{v:7} {p:9} {w} {rc:8} {tc:8} {diff:+7} {pct:+6.2f}%   "
                  f"{rtl_rd:5}/{rtl_wr:<5} {t_rd:5}/{t_wr:<5}")
        for pr in problems:
            print(f"FAIL {v} {p} W={w}: {pr}")
            fails += 1
    for name in os.listdir(tmpdir):
        os.remove(os.path.join(tmpdir, name))
    os.rmdir(tmpdir)
    print(f"compare.py: {len(rows)} runs, {n_exact} exact in cycles, sum of |differences| "
          f"{total_abs}, {fails} failures")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
