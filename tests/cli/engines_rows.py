#!/usr/bin/env python3
"""The law between the engines for what charges rows besides the totals.

For each program and each core model given, under --engine interp and
--engine jit:
  - tally profile --json: the whole profile (every function's self and
    inclusive counts, arcs, stacks);
  - tally run --stats-json with sixteen statistics-module counters
    (--count SIGNAL@FUNCTION on eight of the program's functions, two
    signals each: address regions; and on the two with the most cycles the
    counts only cache misses charge, MISS_SIGNALS) read out every INTERVAL
    cycles
    (--intervals-csv), and the program's output;
  - tally run --stats-json alone (the plain timed run; a program reading
    the PMU prints what it read);
must be byte for byte the same, and `tally run -v` must say the translator
ran (`engine jit`), so the comparison is between the two engines. The
functions are the profile's own (the interpreter's), those with the most
cycles first, so the counters count something; a profile without
functions, or counters that all read zero, fail the test.

usage: engines_rows.py TALLY OUT_DIR --cores A,B,... ELF...
Exit status 77 (skipped) when the translator is not supported here.
"""
import argparse
import csv
import json
import os
import subprocess
import sys

INTERVAL = 20000
SIGNALS = ["cycle", "icache.miss", "dcache.read_miss", "stall.load_use", "branch.taken", "dcache.write_miss",
           "stall", "load"]
# what a cache miss adds to its region's row besides the miss itself (the
# translated regions run's lean miss routines add these to the row by hand)
MISS_SIGNALS = ["mem.read", "writeback", "mem.write", "stall.icache", "stall.dcache"]


def run(cmd):
    try:
        return subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=300)
    except subprocess.TimeoutExpired:
        sys.exit(f"engines_rows: FAIL: {' '.join(cmd)} still running after 300 s")


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        sys.exit(f"engines_rows: FAIL: {path} not written: {e}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tally")
    ap.add_argument("out")
    ap.add_argument("--cores", required=True)
    ap.add_argument("elfs", nargs="+")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    probe = run([a.tally, "run", "--engine", "jit", a.elfs[0]])
    if b"no translator" in probe.stderr or probe.returncode == 64:
        print("engines_rows: the translator is not supported on this host: skipped")
        return 77
    fails = []
    checks = 0
    for elf in a.elfs:
        name = os.path.splitext(os.path.basename(elf))[0]
        for core in a.cores.split(","):
            tag = f"{name}.{core}"
            base = os.path.join(a.out, tag)
            outs = {}
            for eng in ("interp", "jit"):
                prof = f"{base}.{eng}.profile.json"
                p = run([a.tally, "profile", "--core", core, "--engine", eng, "--json", prof, elf])
                if p.returncode not in (0, 1):
                    fails.append(f"{tag}: tally profile --engine {eng} exited {p.returncode}: "
                                 f"{p.stderr.decode(errors='replace').strip()}")
                    continue
                outs[eng] = {"profile": read(prof), "profile stdout": p.stdout}
            if len(outs) < 2:
                continue
            funcs = [f for f in json.loads(outs["interp"]["profile"])["functions"] if not f.get("handler")]
            if not funcs:
                fails.append(f"{tag}: the profile has no functions")
                continue
            funcs.sort(key=lambda f: -f["self"]["cycle"])
            names = [f["name"] for f in funcs[:8]]
            counts = []
            for k, fn in enumerate(names):
                counts += ["--count", f"{SIGNALS[k % len(SIGNALS)]}@{fn}", "--count", f"instret@{fn}"]
            for fn in names[:2]:
                for sig in MISS_SIGNALS:
                    counts += ["--count", f"{sig}@{fn}"]
            for eng in ("interp", "jit"):
                stats = f"{base}.{eng}.stats.json"
                ivs = f"{base}.{eng}.intervals.csv"
                plain = f"{base}.{eng}.plain.json"
                p = run([a.tally, "run", "-v", "--core", core, "--engine", eng, "--no-store", "--stats-json", stats,
                         "--interval", str(INTERVAL), "--intervals-csv", ivs, "--counters", str(len(counts) // 2)]
                        + counts + [elf])
                q = run([a.tally, "run", "-v", "--core", core, "--engine", eng, "--stats-json", plain, elf])
                outs[eng].update({"stats-json with counters": read(stats), "intervals": read(ivs),
                                  "run stdout": p.stdout, "exit (counters)": bytes([p.returncode & 255]),
                                  "stats-json": read(plain), "run stdout (plain)": q.stdout,
                                  "exit": bytes([q.returncode & 255])})
                if eng == "jit":
                    for what, r in (("with counters", p), ("plain", q)):
                        if b"engine jit" not in r.stderr:
                            fails.append(f"{tag}: the translator did not run ({what}): "
                                         f"{r.stderr.decode(errors='replace').strip()}")
            with open(f"{base}.interp.intervals.csv", newline="") as f:
                rows = list(csv.reader(f))
            if not any(c not in ("", "0") for row in rows[1:] for c in row[1:]):
                fails.append(f"{tag}: the counters read nothing")
            for what in outs["interp"]:
                checks += 1
                if outs["interp"][what] != outs["jit"][what]:
                    fails.append(f"{tag}: {what} differs between --engine interp and --engine jit "
                                 f"(files {base}.*)")
    for f in fails:
        print("FAIL", f)
    print(f"engines_rows: {checks} comparisons, {len(fails)} failures")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
