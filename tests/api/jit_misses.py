#!/usr/bin/env python3
"""The translator's cache-miss paths, through the command line.

usage: jit_misses.py TALLY JIT_MISSES_ELF

tests/programs/jit_misses.S misses on nearly every access. On each core
model the translator takes (tally5, tally5-wt, dsp500, sram), `tally run
--stats-json` must report the same under --engine interp and --engine jit
(exit status, cycles, every signal). On tally5 (4 KiB two-way LRU caches,
write-back) the counts are those worked out by hand in the program's
header: 193 loads (64 trips of three, and one check), 195 stores (three,
then 64 trips of three), every one a miss; 194 writebacks (every line
leaving after the first two fills is dirty but when a load brought it in:
of the 386 lines evicted, those brought in by the 194 stores among the
first 386 accesses); and at least 4 passes of 263 lines of I-cache misses.
Exit status 77 (skipped) when this host has no translator.
"""
import json
import subprocess
import sys


def run(tally, elf, core, engine):
    p = subprocess.run([tally, "run", "--core", core, "--engine", engine, "--stats-json", "-", elf],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def main():
    tally, elf = sys.argv[1], sys.argv[2]
    fails = []
    for core in ("tally5", "tally5-wt", "dsp500", "sram"):
        ri, oi, ei = run(tally, elf, core, "interp")
        rj, oj, ej = run(tally, elf, core, "jit")
        if rj == 64 and "jit" in ej:
            print("skipped: no translator on this host")
            return 77
        if ri != 0 or rj != 0:
            fails.append(f"{core}: exit status interp {ri}, jit {rj} (want 0): {ei.strip()} {ej.strip()}")
            continue
        if oi != oj:
            fails.append(f"{core}: --stats-json differs between the engines")
            continue
        if core == "tally5":
            s = json.loads(oj)["signals"]
            want = {"dcache.read_miss": 193, "dcache.read_hit": 0, "dcache.write_miss": 195,
                    "dcache.write_hit": 0, "writeback": 194}
            for k, v in want.items():
                if s[k] != v:
                    fails.append(f"tally5: {k} {s[k]}, want {v}")
            if s["icache.miss"] < 4 * 263:
                fails.append(f"tally5: icache.miss {s['icache.miss']}, want at least {4 * 263}")
    for f in fails:
        print("FAIL", f)
    if not fails:
        print("ok: 4 core models, both engines the same; tally5's misses as planned")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
