#!/usr/bin/env python3
"""Co-simulation of rtl/statmod.v (Verilator) against rtl/refmodel.py, and
of its packets against docs/protocol.md's test vectors.

  cosim.py random TB S P N R SEED CYCLES [TOTALS SNAP [COMPACT]]
                                           random workload-like traces, several
                                           intervals (1, 7, 100, ...), mid-run
                                           reconfiguration, restarts, back-pressure
                                           (COMPACT 1: the module's compact frames,
                                           each the reference packet's as
                                           docs/protocol.md "Compact stream" says)
  cosim.py collect TB TALLY WORKDIR S P N R TOTALS SNAP SEED CYCLES [COMPACT]
                                           one run of the RTL (a workload-like
                                           trace) sent over loopback UDP to
                                           `tally collect`, after a RUN_START and
                                           COUNTER_INFO made here: stored complete,
                                           each counter's stored sum the
                                           reference model's total (a small build
                                           without totals: the collector adds up);
                                           COMPACT 1: the frames relayed here as
                                           docs/protocol.md says (DATA_COMPACT, a
                                           FINAL made by the relay) and every stored
                                           interval (index, stamps, values,
                                           saturation) the reference's full DATA
  cosim.py vector TB PROTOCOL_MD NAME      drive the RTL to produce the vector
                                           NAME ('data' at R=12, 'final' at R=16,
                                           'data-compact' at R=12 with COMPACT 1,
                                           its frame through the relay)

TB is a Verilator testbench built from rtl/tb_statmod.cpp with the same
S, P, N, R (and TOTALS, SNAP for a small build, 1 1 by default). Exit 0: every packet identical byte for byte; 1: a difference
(the first is printed); 64: usage."""
import random
import re
import struct
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


def compact_frames(pkts):
    """The compact frames a COMPACT = 1 module sends for the reference's full
    packets (docs/protocol.md, "Compact stream"): DATA -> 0x26, the interval
    number mod 256, the saturation bitmap and the values; FINAL -> 0x27, the
    number of intervals mod 256."""
    out = []
    for p in pkts:
        index = struct.unpack_from("<Q", p, 24)[0]
        out.append(bytes([0x26, index & 0xFF]) + p[24 + 32:] if p[5] == 0x23 else bytes([0x27, index & 0xFF]))
    return out


class RelayError(Exception):
    pass


def relay(frames, run_id, seq, N, R, period, cut_short):
    """The board-side relay of a compact stream (docs/protocol.md): each DATA
    frame becomes a DATA_COMPACT packet with the run id, the next sequence
    number and the interval number it counts (the frame's tag must agree);
    the FINAL frame becomes the run's FINAL packet, without totals."""
    out, index = [], 0
    sb, b = (N + 7) // 8, (R + 7) // 8
    for f in frames:
        if f[0] == 0x26 and len(f) == 2 + sb + N * b:
            if f[1] != index & 0xFF:
                raise RelayError(f"DATA frame tagged {f[1]}, interval {index} expected")
            out.append(header(0x26, run_id, seq, struct.pack("<IHBB", index, N, R, 0) + f[2:]))
            index += 1
        elif f[0] == 0x27 and len(f) == 2:
            if f[1] != index & 0xFF:
                raise RelayError(f"FINAL frame says {f[1]} intervals (mod 256), {index} relayed")
            fin = struct.pack("<QQQIIHHHBB", index, 0, index * period, index, seq + 1, N, 0, 0, cut_short, 0)
            out.append(header(0x24, run_id, seq, fin))
        else:
            raise RelayError(f"not a compact frame: {f.hex()}")
        seq += 1
    return out


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


def one_run_trace(S, P, N, seed, cycles, seq_base):
    """One run, as a board would make it: run id, first sequence number
    (after RUN_START and COUNTER_INFO), a configuration, a random period."""
    rng = random.Random(seed)
    run_id = rng.getrandbits(63) | 1
    period = rng.randrange(20, 200)
    conf = configure(rng, S, P, N)
    t = [f"w 10 {run_id & 0xFFFFFFFF:x}", f"w 14 {run_id >> 32:x}", f"w 18 {seq_base:x}"] + conf
    t += [f"w 4 {period:x}", "w 0 1"] + program(rng, cycles, S) + ["w 0 2", "end"]
    return t, run_id, period, conf


def header(ptype, run_id, seq, payload):
    return struct.pack("<4sBBHQIHH", b"TALY", 1, ptype, 0, run_id, seq, len(payload), 0) + payload


def description(run_id, S, P, N, R, period, conf):
    """RUN_START (seq 0) and COUNTER_INFO (seq 1), docs/protocol.md's tables."""
    arr, sel, en = {}, {}, {}
    for w in conf:
        _, addr, v = w.split()
        addr, v = int(addr, 16), int(v, 16)
        if addr < 0x2000:
            arr.setdefault((addr - 0x1000) // 8, [0, 0])[(addr >> 2) & 1] = v
        elif addr & 4:
            en[(addr - 0x2000) // 8] = v & 1
        else:
            sel[(addr - 0x2000) // 8] = (v & 0xFFFF, v >> 16)
    prog, core = b"rtl-cosim", b"rtl"
    start = struct.pack("<HBBHHQIHH", N, R, 0, P, 1, period, 0, len(prog), len(core)) + prog + core
    entries = b""
    for i in range(N):
        sig, a = sel[i]
        lo, hi = arr.get(a, [0, 0]) if a != 0xFFFF else (0, 0)
        name, where = f"signal{sig}".encode(), (b"anywhere" if a == 0xFFFF else f"arr{a}".encode())
        entries += struct.pack("<HHIIBBBB", sig, a, lo, hi, en[i], len(name), len(where), 0) + name + where
    info = struct.pack("<HH", 0, N) + entries
    return [header(0x21, run_id, 0, start), header(0x22, run_id, 1, info)]


def collect(tb, tally, work, S, P, N, R, totals, snap, seed, cycles, compact=0):
    import os
    import socket
    import sqlite3
    if N > 85:
        print("cosim: collect: at most 85 counters (one COUNTER_INFO, one DATA packet)", file=sys.stderr)
        return 64
    trace, run_id, period, conf = one_run_trace(S, P, N, seed, cycles, 2)
    got = run_tb(tb, trace, seed)
    want = run_trace(trace, S, P, N, R, totals, snap)
    if not compare(f"seed {seed}, one run", got, compact_frames(want) if compact else want):
        return 1
    runs = [(run_id, description(run_id, S, P, N, R, period, conf) + (want if compact else got))]
    if compact:
        # the same run twice: the reference's full packets under run_id, the
        # RTL's compact frames relayed under another id; both must be stored alike
        cid = run_id ^ 0x5A5A5A5A00000000
        try:
            runs.append((cid, description(cid, S, P, N, R, period, conf) + relay(got, cid, 2, N, R, period, 0)))
        except RelayError as e:
            print(f"cosim: collect: relay: {e}")
            return 1
    # each counter's run total, from the reference model of the full build
    full = run_trace(trace, S, P, N, R, 1, 1)[-1]
    want_totals = struct.unpack(f"<{N}Q", full[24 + 40:])
    os.makedirs(work, exist_ok=True)
    db = os.path.join(work, f"collect_{S}_{P}_{N}_{R}_t{totals}_s{snap}_c{compact}.db")
    if os.path.exists(db):
        os.unlink(db)
    col = subprocess.Popen([tally, "collect", "--listen", "127.0.0.1:0", "--db", db, "--runs", str(len(runs)),
                            "--idle-timeout", "20"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = col.stderr.readline()
    m = re.search(r"listening on (\S+):(\d+)", line)
    if not m:
        print(f"cosim: tally collect did not start: {line}{col.stderr.read()}", file=sys.stderr)
        return 70
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.connect((m.group(1), int(m.group(2))))
    for _, pkts in runs:
        for pkt in pkts:
            s.send(pkt)
    s.close()
    try:
        _, err = col.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        col.kill()
        _, err = col.communicate()
        print(f"cosim: tally collect did not close the run: {err[-1000:]}")
        return 1
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    ok, stored = True, []
    for rid, _ in runs:
        rid = rid - (1 << 64) if rid >= 1 << 63 else rid
        row = con.execute("SELECT status, note, program, core, counters, width, arrs, period, freq_mhz, "
                          "intervals_sent, received, duplicates FROM runs WHERE run_id = ?", (rid,)).fetchone()
        sums = dict((c, v) for c, v in con.execute(
            "SELECT counter, SUM(value) FROM interval_values WHERE run_id = ? GROUP BY counter", (rid,)))
        if row is None or row[0] != "complete":
            print(f"cosim: collect: run {rid & ((1 << 64) - 1):016x} stored as {row}: {err[-1000:]}")
            ok = False
        for i in range(N):
            if sums.get(i, 0) != want_totals[i]:
                print(f"cosim: collect: counter {i}: stored sum {sums.get(i)}, reference total {want_totals[i]}")
                ok = False
        stored.append((row, con.execute("SELECT seq, interval, cycle_begin, cycle_end, first_counter, n, vals, "
                                        "saturated FROM intervals WHERE run_id = ? ORDER BY seq", (rid,)).fetchall(),
                       con.execute("SELECT counter, board_total, stored_sum FROM totals WHERE run_id = ? "
                                   "ORDER BY counter", (rid,)).fetchall()))
    con.close()
    if compact and ok:
        for what, k in (("run", 0), ("intervals", 1), ("totals", 2)):
            if stored[0][k] != stored[1][k]:
                print(f"cosim: collect: the compact stream's {what} differ from the full format's:")
                for g, w in zip(stored[1][k] if k else [stored[1][0]], stored[0][k] if k else [stored[0][0]]):
                    if g != w:
                        print(f"  compact {g}\n  full    {w}")
                        break
                ok = False
    if ok:
        print(f"cosim: collect: {len(got)} packets of the RTL stored complete by tally collect, "
              f"{N} counters' sums the reference totals (TOTALS={totals}, SNAP={snap}, COMPACT={compact})"
              + (f"; the compact run stored as the full format's ({len(stored[0][1])} intervals)" if compact
                 else ""))
    return 0 if ok else 1


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
    if len(a) in (8, 10, 11) and a[0] == "random":
        tb, (S, P, N, R), seed, cycles = a[1], map(int, a[2:6]), int(a[6]), int(a[7])
        totals, snap = map(int, a[8:10]) if len(a) >= 10 else (1, 1)
        compact = int(a[10]) if len(a) == 11 else 0
        trace = random_trace(S, P, N, seed, cycles)
        want = run_trace(trace, S, P, N, R, totals, snap)
        if compact:
            want = compact_frames(want)
        ok = compare(f"seed {seed}, ready always", run_tb(tb, trace), want)
        ok &= compare(f"seed {seed}, back-pressure", run_tb(tb, trace, seed + 1), want)
        return 0 if ok else 1
    if len(a) in (12, 13) and a[0] == "collect":
        return collect(a[1], a[2], a[3], *map(int, a[4:]))
    if len(a) == 4 and a[0] == "vector" and a[3] == "data-compact":
        # the RTL's frames (S 8, P 4, N 4, R 12, COMPACT 1) through the relay
        tb, md, name = a[1:]
        got = relay(run_tb(tb, vector_trace("data")), 0x0123456789ABCDEF, 2, 4, 12, 100000, 0)
        want = doc_vector(md, name)
        if got[3] == want:
            print(f"cosim: vector {name}: the RTL's frame, relayed, is docs/protocol.md's packet, byte for byte")
            return 0
        print(f"cosim: vector {name} differs\n  rtl {got[3].hex()}\n  doc {want.hex()}")
        return 1
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
