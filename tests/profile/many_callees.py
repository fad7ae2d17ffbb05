#!/usr/bin/env python3
"""tally profile on a context with very many distinct callees: a start that
calls N one-instruction functions once each (bench/profile/callees.py
writes it). The children of a context and the arcs of the call graph were
found by scanning lists (N^2 for N callees: 100,000 took 467 s); both are
hashed now. The checks, by hand from the program's shape: N + 1 functions,
each f_i called once, N arcs all from _start, one call site each, every
arc's inclusive cycles its callee's; and a law of growth, not a tuned time:
four times the callees take less than eight times as long (a scan per
new callee takes sixteen times; the linear work four).

usage: many_callees.py TALLY WORK_DIR
"""
import json
import os
import subprocess
import sys
import time

TALLY, WORK = sys.argv[1:3]
GEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "profile", "callees.py")
fails = []


def check(cond, what):
    if not cond:
        fails.append(what)
        print("FAIL: " + what, file=sys.stderr)


def profile(n):
    elf = subprocess.run([sys.executable, GEN, WORK, str(n)], capture_output=True, text=True,
                         check=True).stdout.strip()
    js = os.path.join(WORK, "p-%d.json" % n)
    t0 = time.monotonic()
    r = subprocess.run([TALLY, "profile", "--json", js, elf], capture_output=True, text=True)
    took = time.monotonic() - t0
    check(r.returncode == 0, "tally profile callees-%d: %d %s" % (n, r.returncode, r.stderr[-500:]))
    with open(js) as f:
        return json.load(f), took


os.makedirs(WORK, exist_ok=True)
small, n_small = None, 10000
small, t_small = profile(n_small)
n = 4 * n_small
p, t_big = profile(n)
funcs = {f["name"]: f for f in p["functions"]}
check(len(p["functions"]) == n + 1, "%d functions, want %d" % (len(p["functions"]), n + 1))
check(all(funcs.get("f%d" % i, {}).get("calls") == 1 for i in range(n)), "every f_i called once")
arcs = p["arcs"]
check(len(arcs) == n and all(a["caller_name"] == "_start" and a["calls"] == 1 and len(a["sites"]) == 1
                             for a in arcs), "%d arcs from _start, one call and one site each" % len(arcs))
check(all(a["inclusive_cycles"] == funcs[a["callee_name"]]["inclusive_cycles"] for a in arcs),
      "each arc's inclusive cycles are its callee's")
check(len({a["callee_name"] for a in arcs}) == n, "no callee twice")
print("%d callees: %.2f s; %d callees: %.2f s" % (n_small, t_small, n, t_big))
check(t_big < 8 * t_small, "4x the callees took %.1fx as long (a quadratic scan: 16x)" % (t_big / t_small))
if fails:
    sys.exit(1)
print("all checks passed")
