#!/usr/bin/env python3
"""Runs tally on the PicoRV32 differential programs and compares with the RTL.

    check_counts.py TALLY ELF_DIR RTL_COUNTS_CSV --core NAME --config CFG --wait-states W

For every row of the CSV with that configuration and wait-state count, runs
`tally run --core NAME ELF_DIR/PROGRAM.elf` and wants the row's cycles,
instret and exit status exactly (a program's status carries values it
computed, e.g. from the counter reads). Prints one line per program and the total difference;
exit status 0 only when every program is 0 cycles off.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tally")
    ap.add_argument("elf_dir")
    ap.add_argument("csv")
    ap.add_argument("--core", required=True)
    ap.add_argument("--config", required=True)
    ap.add_argument("--wait-states", type=int, required=True)
    ap.add_argument("--set", action="append", default=[], dest="sets")
    args = ap.parse_args()
    rows = []
    with open(args.csv) as f:
        for row in csv.DictReader(line for line in f if not line.startswith("#")):
            if row["config"] == args.config and int(row["W"]) == args.wait_states:
                rows.append(row)
    if not rows:
        print(f"FAIL: {args.csv}: no rows for configuration {args.config} with W={args.wait_states}")
        return 1
    bad = 0
    total_off = 0
    with tempfile.TemporaryDirectory() as tmp:
        stats = os.path.join(tmp, "stats.json")
        for row in rows:
            elf = os.path.join(args.elf_dir, row["program"] + ".elf")
            cmd = [args.tally, "run", "--core", args.core]
            for s in args.sets:
                cmd += ["--set", s]
            cmd += ["--stats-json", stats, elf]
            proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
            try:
                with open(stats) as f:
                    rep = json.load(f)
                os.unlink(stats)
            except (OSError, ValueError) as e:
                print(f"FAIL {row['program']}: no statistics ({e}): {proc.stderr.decode(errors='replace').strip()}")
                bad += 1
                continue
            want_c, want_i = int(row["cycles"]), int(row["instret"])
            got_c, got_i = rep.get("cycles"), rep.get("instructions")
            want_e = int(row.get("exit") or 0)
            ok = got_c == want_c and got_i == want_i and proc.returncode == want_e
            bad += not ok
            total_off += abs(got_c - want_c)
            print(f"{'ok  ' if ok else 'FAIL'} {row['program']:24} rtl {want_c:>8} {want_i:>7}  "
                  f"tally {got_c:>8} {got_i:>7}  off {got_c - want_c:+d}"
                  + ("" if proc.returncode == want_e else f"  exit status {proc.returncode}, RTL {want_e}"))
    print(f"{len(rows) - bad} of {len(rows)} exact; total |difference| {total_off} cycles")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
