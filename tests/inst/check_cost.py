#!/usr/bin/env python3
"""check_cost.py --tally TALLY --work DIR COSTLOOP.elf

`tally run --inst-cost` on costloop.c, instrumented before step() (whose
loop runs N = argv[1] times; nothing else depends on N), checked by laws:

  1. every row: in the program + in inst = instrumented, and cost =
     instrumented - original;
  2. the original column is what `tally run --stats-json` of the original
     alone says (cycles, instructions): the in-process run of ORIG.elf is
     the real one (same core, same command line);
  3. on the sram core (no caches, no memory stalls: nothing remembers
     earlier visits), one more visit of the site costs the same every time:
     for N = 100, 200, 300 the analysis region's cycles and instructions
     grow by exactly the same amounts from 100 to 200 as from 200 to 300,
     and so does what the sites changed in the program's (program -
     original);
  4. at --tactic trap each visit moves exactly one instruction out of the
     program (the replaced one, which the runtime re-creates): original -
     program instructions grows by exactly 100 per 100 visits; at --tactic
     jump none does (the jal stands where the instruction stood);
  5. on tally5 (caches), `--count SIGNAL@LO-0x89000000` and `@0x0-LO`, LO
     the first trampoline's address by readelf (else 0x88000000), give the
     table's inst and program columns: the names inst and program are those
     address ranges.
  6. (trap tactic) with the analysis region in on-chip SRAM (--set memory.sram_base=
     0x88000000 --set memory.sram_size=16M on tally5), every cache miss
     count of the instrumented run equals the original's (the caches are
     not disturbed), and the analysis region's cycles are those of the sram
     core (the same pipeline without memory waits).
And misuse: with --count, exit 64; a missing original, 66 naming it.
Exit 0 pass, 1 fail.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

REGION = (0x88000000, 0x89000000)
ROWS = {"cycles": "cycle", "instructions": "instret", "I-cache misses": "icache.miss",
        "D-cache read misses": "dcache.read_miss", "D-cache write misses": "dcache.write_miss",
        "D-cache writebacks": "writeback"}


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def num(s):
    return int(s.replace(",", ""))


def cost_table(tally, core, orig, inst, n, work, sets=()):
    rc, _, err = run([tally, "run", "--core", core] + list(sets) + ["--inst-cost", orig, inst, str(n)], work)
    if rc:
        fail("tally run --inst-cost exit %d:\n%s" % (rc, err))
    table = {}
    for line in err.splitlines():
        m = re.match(r"\s+([A-Za-z -]+?)\s+([\d,]+)\s+([\d,]+)\s+([\d,]+)\s+([\d,]+)\s+([+-][\d,]+)$", line)
        if m and m.group(1) in ROWS:
            orig_v, tot, prog, an = (num(m.group(k)) for k in range(2, 6))
            cost = int(m.group(6)[0] + m.group(6)[1:].replace(",", ""))
            table[ROWS[m.group(1)]] = (orig_v, tot, prog, an, cost)
    if set(table) != set(ROWS.values()):
        fail("the cost table lacks rows:\n" + err)
    for sig, (o, t, p, a, c) in table.items():
        if p + a != t:
            fail("%s (N=%d, %s): program %d + inst %d != instrumented %d" % (sig, n, core, p, a, t))
        if c != t - o:
            fail("%s (N=%d, %s): cost %d != %d - %d" % (sig, n, core, c, t, o))
    return table


def tramp_lo(elf):
    """Where the jump tactic's trampolines start (readelf), or the analysis region."""
    out = subprocess.run(["riscv64-unknown-elf-readelf", "-SW", elf], capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.replace("[ ", "[").split()
        if len(f) > 3 and f[1] == ".tally_inst.tramp":
            return int(f[3], 16)
    return 0x88000000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tally", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--tactic", choices=("trap", "jump"), required=True)
    ap.add_argument("prog")
    a = ap.parse_args()
    tally, work = os.path.abspath(a.tally), os.path.abspath(a.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    # the same path length: argv[0] is the path, and start-up code walks it
    orig, inst = os.path.join(work, "orig.elf"), os.path.join(work, "inst.elf")
    shutil.copy(a.prog, orig)
    rc, _, err = run([tally, "inst", "--tactic", a.tactic, "--before", "step", orig, "-o", inst], work)
    if rc:
        fail("tally inst exit %d: %s" % (rc, err))

    t = {n: cost_table(tally, "sram", orig, inst, n, work) for n in (100, 200, 300)}
    # the program's own work may not grow evenly (rv32i multiplies in
    # software: its time depends on x), so its column is taken against the
    # original's: what the sites changed in it
    for sig in ("cycle", "instret"):
        for name, val in (("inst", lambda r: r[3]), ("program - original", lambda r: r[2] - r[0])):
            d1 = val(t[200][sig]) - val(t[100][sig])
            d2 = val(t[300][sig]) - val(t[200][sig])
            if d1 != d2:
                fail("sram: %s %s grows by %d from N=100 to 200 but by %d from 200 to 300" % (name, sig, d1, d2))
    # a trap site's instruction is carried out by the runtime (in inst): one
    # instruction per visit leaves the program; a jump site's jal stands in
    # the program for the instruction the trampoline carries out: none leaves
    per_visit = 1 if a.tactic == "trap" else 0
    moved = [t[n]["instret"][0] - t[n]["instret"][2] for n in (100, 200, 300)]
    if moved[1] - moved[0] != 100 * per_visit or moved[2] - moved[1] != 100 * per_visit:
        fail("original - program instructions %s: not %d instruction(s) per visit" % (moved, per_visit))
    per_site = (t[200]["cycle"][3] - t[100]["cycle"][3]) / 100

    tab = cost_table(tally, "tally5", orig, inst, 100, work)
    rc, out, err = run([tally, "run", "--core", "tally5", "--stats-json", "-", orig, "100"], work)
    stats = json.loads(out)
    if (stats["cycles"], stats["instructions"]) != (tab["cycle"][0], tab["instret"][0]):
        fail("original column %d cycles %d instructions; tally run --stats of it: %d, %d"
             % (tab["cycle"][0], tab["instret"][0], stats["cycles"], stats["instructions"]))
    # the names @inst and @program are the instrumentation's code (from the
    # first trampoline, by readelf, or the analysis region) to the region's
    # end, and everything below it
    lo = tramp_lo(inst)
    specs = []
    for sig in tab:
        specs += ["--count", "%s@0x%x-0x89000000" % (sig, lo), "--count", "%s@0x0-0x%x" % (sig, lo)]
    rc, _, err = run([tally, "run", "--core", "tally5", "--no-store", "--interval", "4000000000", "--counters", "16"]
                     + specs + [inst, "100"], work)
    if rc:
        fail("tally run --count exit %d: %s" % (rc, err))
    got = [num(l.split()[-1]) for l in err.splitlines()
           if re.match(r"\s+\S.* at 0x(%08x-0x89000000|00000000-0x%08x)\s+[\d,]+$" % (lo, lo), l)]
    want = [v for row in tab.values() for v in (row[3], row[2])]
    if got != want:
        fail("tally5: by address ranges %s; @inst and @program said %s" % (got, want))
    if a.tactic == "jump":   # the trampolines sit beside the program's code, never in the SRAM
        print("ok: %s, %s tactic; %.1f cycles per visit on sram" % (a.prog, a.tactic, per_site))
        return 0
    # the analysis region in on-chip SRAM (the paper's placement): the
    # program's caches see no access of the analysis code, so the run's
    # misses are the original's, and the analysis code runs as on the sram
    # core (the same pipeline, no memory waits)
    sram = ["--set", "memory.sram_base=0x88000000", "--set", "memory.sram_size=16M"]
    tab_s = cost_table(tally, "tally5", orig, inst, 100, work, sram)
    for sig in ("icache.miss", "dcache.read_miss", "dcache.write_miss", "writeback"):
        if tab_s[sig][1] != tab_s[sig][0]:
            fail("tally5 + SRAM: %s %d instrumented, %d original" % (sig, tab_s[sig][1], tab_s[sig][0]))
    if tab_s["cycle"][3] != t[100]["cycle"][3]:
        fail("tally5 + SRAM: %d cycles in inst, on the sram core %d" % (tab_s["cycle"][3], t[100]["cycle"][3]))

    # misuse: one statistics module per run; an original that is not there
    rc, _, err = run([tally, "run", "--inst-cost", orig, "--count", "cycle", "--interval", "1000", inst], work)
    if rc != 64 or "--inst-cost is not used with --count" not in err:
        fail("--inst-cost with --count: exit %d, %s" % (rc, err))
    rc, _, err = run([tally, "run", "--inst-cost", os.path.join(work, "missing.elf"), inst], work)
    if rc != 66 or "missing.elf" not in err:
        fail("--inst-cost with a missing original: exit %d, %s" % (rc, err))
    print("PASS: laws hold; on sram one site visit costs %g cycles in the analysis region" % per_site)
    return 0


if __name__ == "__main__":
    sys.exit(main())
