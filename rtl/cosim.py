#!/usr/bin/env python3
"""Co-simulation of rtl/statmod.v (Verilator) against rtl/refmodel.py, and
of its packets against docs/protocol.md's test vectors.

  cosim.py random TB S P N R SEED CYCLES [TOTALS SNAP]
                                           random workload-like traces, several
                                           intervals (1, 7, 100, ...), mid-run
                                           reconfiguration, restarts, back-pressure
  cosim.py vector TB PROTOCOL_MD NAME      drive the RTL to produce the vector
                                           NAME ('data' at R=12, 'final' at R=16)

TB is a Verilator testbench built from rtl/tb_statmod.cpp with the same
S, P, N, R (and TOTALS, SNAP for a small build, 1 1 by default). Exit 0: every packet identical byte for byte; 1: a difference
(the first is printed); 64: usage."""
import random
import re
import subprocess
import sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
from refmodel import run_trace  # noqa: E402


def run_tb(tb, trace, seed=None):
    args = [tb] + ([str(seed)] if seed is not None else [])
    out = subprocess.run(args, input="\n".join(trace) + "\n", capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        print(f"cosim: {tb} failed ({out.returncode}): {out.stderr.strip()}", file=sys.stderr)
        sys.exit(70)
    return [bytes.fromhex(line) for line in out.stdout.split()]


def compare(what, got, want):
    if got == want:
        print(f"cosim: {what}: {len(want)} packets identical")
        return True
    print(f"cosim: {what}: RTL sent {len(got)} packets, reference {len(want)}")
    for k, (g, w) in enumerate(zip(got, want)):
        if g != w:
            print(f"  packet {k} differs:\n  rtl {g.hex()}\n  ref {w.hex()}")
            break
    return False


def program(rng, cycles, S):
    """A workload-like trace: PCs walk through code in 2- and 4-byte steps
    with jumps, each instruction lasting 1-6 cycles (a dispatch can fall
    inside one), invalid-PC bubbles, signal 0 always high (cycle), signal 1
    on an instruction's last cycle (instret), the others random."""
    pc, out, left = 0x80000000, [], cycles
    while left > 0:
        n = min(left, rng.choice([1, 1, 1, 2, 3, 6]))
        valid = 0 if rng.random() < 0.05 else 1
        for k in range(n):
            sig = 1 | (2 if k == n - 1 else 0) | (rng.getrandbits(S) & ~3)
            out.append(f"c {pc:x} {valid} {sig & ((1 << S) - 1):x}")
        left -= n
        pc = rng.randrange(0x80000000, 0x80000400, 2) if rng.random() < 0.1 else pc + rng.choice([2, 4])
    return out


def configure(rng, S, P, N):
    w = []
    for a in range(P):
        lo = rng.randrange(0x80000000, 0x80000400, 2)
        w.append(f"w {0x1000 + 8 * a:x} {lo:x}")
        w.append(f"w {0x1004 + 8 * a:x} {lo + rng.randrange(0, 0x300, 2):x}")
    for i in range(N):
        sig = S if rng.random() < 0.05 else rng.randrange(S)   # S: a signal the module lacks
        r = rng.random()
        arr = 0xFFFF if r < 0.3 else (P if r < 0.35 else rng.randrange(P))  # P: an ARR it lacks
        w.append(f"w {0x2000 + 8 * i:x} {(arr << 16) | sig:x}")
        w.append(f"w {0x2004 + 8 * i:x} {1 if rng.random() < 0.9 else 0}")
    return w


def random_trace(S, P, N, seed, cycles):
    rng = random.Random(seed)
    t = [f"w 10 {rng.getrandbits(32):x}", f"w 14 {rng.getrandbits(32):x}", f"w 18 {rng.randrange(1, 9):x}"]
    for run, period in enumerate([1, 7, rng.randrange(2, 200)]):
        t += configure(rng, S, P, N) + [f"w 4 {period:x}", "w 0 1"]
        prog = program(rng, cycles, S)
        half = len(prog) // 2
        t += prog[:half]
        # reconfiguration in the middle of the run: ranges, counters, period
        t += configure(rng, S, P, N) + [f"w 4 {rng.randrange(1, 50):x}"]
        t += prog[half:]
        t += [f"w 1c {run & 1}", "w 0 2", "end", f"w 18 {rng.randrange(0, 100):x}"]
    # a run stopped exactly on a dispatch boundary (40 cycles, period 5), and
    # a run stopped before its first cycle
    t += configure(rng, S, P, N) + ["w 4 5", "w 0 1"] + program(rng, 40, S) + ["w 0 2", "end"]
    t += ["w 0 1", "w 0 2", "end"]
    return t


def vector_trace(name):
    """The protocol's vectors as runs of the module (docs/protocol.md)."""
    t = ["w 10 89abcdef", "w 14 01234567", "w 18 2", "w 4 186a0"]
    for i, sig in enumerate([1, 0, 2, 3]):        # counter i counts signal sig anywhere
        t += [f"w {0x2000 + 8 * i:x} ffff{sig:04x}", f"w {0x2004 + 8 * i:x} 1"]
    t.append("w 0 1")
    if name == "data":     # interval 3: 17, 4095 (saturated at 12 bits), 0, 1234
        t += ["c 80000000 1 1 300000", "c 80000000 1 b 17", "c 80000000 1 9 1217", "c 80000000 1 1 98766"]
        t += ["c 80000000 1 1 600000"]
    else:                  # 10 intervals of 170, 4095, 0, 12340 events
        t += ["c 80000000 1 b 170", "c 80000000 1 8 12170", "c 80000000 1 1 3925",
              "c 80000000 1 0 83735"] * 10
    t += ["w 0 2", "end"]
    return t


def doc_vector(md, name):
    text = open(md, encoding="utf-8").read()
    m = re.search(r"### Vector: " + re.escape(name) + r"\n.*?```hex\n(.*?)```", text, re.S)
    if not m:
        print(f"cosim: {md}: no vector '{name}'", file=sys.stderr)
        sys.exit(66)
    return bytes.fromhex("".join(" ".join(line.split()[1:]) for line in m.group(1).splitlines()))


def main(a):
    if a and a[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    if len(a) in (8, 10) and a[0] == "random":
        tb, (S, P, N, R), seed, cycles = a[1], map(int, a[2:6]), int(a[6]), int(a[7])
        totals, snap = map(int, a[8:10]) if len(a) == 10 else (1, 1)
        trace = random_trace(S, P, N, seed, cycles)
        want = run_trace(trace, S, P, N, R, totals, snap)
        ok = compare(f"seed {seed}, ready always", run_tb(tb, trace), want)
        ok &= compare(f"seed {seed}, back-pressure", run_tb(tb, trace, seed + 1), want)
        return 0 if ok else 1
    if len(a) == 4 and a[0] == "vector":
        tb, md, name = a[1:]
        got = run_tb(tb, vector_trace(name))
        want = doc_vector(md, name)
        pick = [p for p in got if p[5] == (0x23 if name == "data" else 0x24)]
        pick = pick[3] if name == "data" else pick[0]
        if pick == want:
            print(f"cosim: vector {name}: the RTL's packet is docs/protocol.md's, byte for byte")
            return 0
        print(f"cosim: vector {name} differs\n  rtl {pick.hex()}\n  doc {want.hex()}")
        return 1
    print(__doc__, file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
