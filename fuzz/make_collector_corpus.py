#!/usr/bin/env python3
"""Writes the seeds of fuzz_collector (fuzz/fuzz_collector.c says their
format): scripts of packets built from docs/protocol.md's tables with
struct and hmac, no code of tally's. The committed copy is
fuzz/corpus/collector/; run again after a format change:

    make_collector_corpus.py OUT_DIR
"""
import hashlib
import hmac
import os
import random
import struct
import sys

KEY = b"tally protocol test key 0001"   # the document's test key
A, B, TICK, PIPE = 0, 1, 2, 3            # fuzz_collector.c's ops


def packet(ptype, run, seq, payload, key=None):
    head = b"TALY" + struct.pack("<BBHQIHH", 1, ptype, 1 if key else 0, run, seq, len(payload), 0)
    pkt = head + payload
    if key:
        pkt += hmac.new(key, pkt, hashlib.sha256).digest()[:16]
    return pkt


def run_start(run, key=None, counters=2):
    prog, core = b"seed.elf", b"tally5"
    body = struct.pack("<HBBHHQIHH", counters, 32, 0, 1, 1, 1000, 50000, len(prog), len(core))
    return packet(0x21, run, 0, body + prog + core, key)


def counter_info(run, seq=1, key=None):
    entries = b""
    for i, (name, where, label) in enumerate([(b"cycle", b"anywhere", b"cycles"),
                                              (b"instret", b"main", b"instructions in main")]):
        arr = 0xFFFF if i == 0 else 0
        entries += struct.pack("<HHIIBBBB", i, arr, 0 if i == 0 else 0x100, 0 if i == 0 else 0x200, 1,
                               len(name), len(where), len(label)) + name + where + label
    return packet(0x22, run, seq, struct.pack("<HH", 0, 2) + entries, key)


def data(run, seq, index, values, key=None):
    body = struct.pack("<QQQHHB3x", index, index * 1000, index * 1000 + 1000, 0, len(values), 32)
    body += bytes((len(values) + 7) // 8) + b"".join(struct.pack("<I", v) for v in values)
    return packet(0x23, run, seq, body, key)


def compact(run, seq, index, values, key=None, sat=0):
    """DATA_COMPACT (docs/protocol.md, "Compact stream"): index, n, width 32, the bitmap, the values."""
    body = struct.pack("<IHBB", index, len(values), 32, 0) + sat.to_bytes((len(values) + 7) // 8, "little")
    return packet(0x26, run, seq, body + b"".join(struct.pack("<I", v) for v in values), key)


def compact_run(run, key=None, intervals=3):
    """A compact stream: RUN_START, COUNTER_INFO, DATA_COMPACT, the relay's FINAL without totals."""
    pkts = [run_start(run, key), counter_info(run, 1, key)]
    pkts += [compact(run, 2 + i, i, [10 * i + 1, 5 * i + 2], key) for i in range(intervals)]
    pkts.append(final(run, 2 + intervals, intervals, intervals, 3 + intervals, [], key))
    return pkts


def final(run, seq, intervals, data_packets, total, totals, key=None, cut_short=0):
    body = struct.pack("<QQQIIHHHBB", intervals, 0, intervals * 1000, data_packets, total, len(totals), 0,
                       len(totals), cut_short, 0)
    return packet(0x24, run, seq, body + b"".join(struct.pack("<Q", t) for t in totals), key)


def gone(run, ranges, key=None):
    body = struct.pack("<HH", len(ranges), 0) + b"".join(struct.pack("<II", f, n) for f, n in ranges)
    return packet(0x25, run, 0, body, key)


def whole_run(run, key=None, intervals=3):
    vals = [[10 * i + 1, 5 * i + 2] for i in range(intervals)]
    pkts = [run_start(run, key), counter_info(run, 1, key)]
    pkts += [data(run, 2 + i, i, v, key) for i, v in enumerate(vals)]
    totals = [sum(v[0] for v in vals), sum(v[1] for v in vals)]
    pkts.append(final(run, 2 + intervals, intervals, intervals, 3 + intervals, totals, key))
    return pkts


def rec(op, pkt=b"", ticks=0):
    """One record: op, len (the packet's, or for TICK the number of 8 ms steps), the packet."""
    return bytes([op]) + struct.pack("<H", ticks if op == TICK else len(pkt)) + (b"" if op == TICK else pkt)


def script(flags, recs):
    return bytes([flags]) + b"".join(recs)


def seeds():
    r1, r2 = 0x0123456789ABCDEF, 0x1111222233334444
    rng = random.Random(25)
    out = {}
    out["whole-run"] = script(0, [rec(A, p) for p in whole_run(r1)])
    out["whole-run-keyed"] = script(1, [rec(A, p) for p in whole_run(r1, KEY)])
    out["whole-run-in-process"] = script(0, [rec(PIPE, p) for p in whole_run(r1)])
    # reordered, duplicated, a foreign sender for the same run, time passing
    pk = whole_run(r2, intervals=5)
    mixed = pk[:] + [pk[3], pk[-1]]
    rng.shuffle(mixed)
    recs = []
    for p in mixed:
        recs.append(rec(A, p))
        recs.append(rec(TICK, ticks=3))
    recs.insert(4, rec(B, pk[2]))
    out["reordered-dups-foreign"] = script(0, recs)
    # a lost DATA packet: resend requests go unanswered, then GONE
    pk = whole_run(r1, intervals=4)
    recs = [rec(A, p) for i, p in enumerate(pk) if i != 3] + [rec(TICK, ticks=10), rec(TICK, ticks=50),
                                                             rec(A, gone(r1, [(3, 1)]))]
    out["lost-then-gone"] = script(0, recs)
    # the final packets first, then the rest
    pk = whole_run(r2)
    out["final-first"] = script(0, [rec(A, pk[-1])] + [rec(A, p) for p in pk[:-1]])
    # silence until the run times out; its FINAL afterwards is acknowledged
    pk = whole_run(r1)
    out["timeout"] = script(0, [rec(A, p) for p in pk[:3]] + [rec(TICK, ticks=5000), rec(A, pk[-1])])
    # sequence numbers at the top of the range (issue: 0xFFFFFFFF wrapped to 0)
    recs = [rec(A, data(r2, 0xFFFFFFFF, 0, [1, 2])), rec(A, run_start(r1)),
            rec(A, data(r1, 0xFFFFFFFF, 0, [1, 2])), rec(A, data(r1, 0xFFFFFFFE, 0, [1, 2])),
            rec(A, final(r1, 0xFFFFFFFF, 1, 1, 0xFFFFFFFF, [1, 2])), rec(A, gone(r1, [(0xFFFFFFFF, 1)])),
            rec(A, data(r1, (1 << 20) + 2, 0, [1, 2]))]
    out["seq-wrap"] = script(0, recs + [rec(A, p) for p in whole_run(0x77)])
    # more runs than slots: DATA-only junk, then a real run
    recs = [rec(A, data(rng.getrandbits(63) | 1, 5, 0, [1, 2])) for _ in range(70)]
    out["junk-slots"] = script(0, recs + [rec(A, p) for p in whole_run(r1)])
    # a keyed collector shown unkeyed packets and a wrong tag
    bad = bytearray(whole_run(r1, KEY)[0])
    bad[-1] ^= 1
    out["keyed-forgeries"] = script(1, [rec(A, bytes(bad)), rec(A, run_start(r2))] +
                                    [rec(A, p) for p in whole_run(r1, KEY)])
    # cut short, with FINAL totals that disagree
    pk = whole_run(r1)
    pk[-1] = final(r1, 5, 3, 3, 6, [1, 1], cut_short=1)
    out["cut-short-wrong-totals"] = script(0, [rec(A, p) for p in pk])
    # compact streams: whole, keyed, a DATA_COMPACT before its RUN_START,
    # and ones that disagree with RUN_START or overflow the stamps
    out["compact-run"] = script(0, [rec(A, p) for p in compact_run(r1)])
    out["compact-run-keyed"] = script(1, [rec(A, p) for p in compact_run(r1, KEY)])
    pk = compact_run(r2, intervals=4)
    out["compact-before-start"] = script(0, [rec(A, pk[3]), rec(TICK, ticks=5)] + [rec(A, p) for p in pk] +
                                         [rec(TICK, ticks=10)])
    recs = [rec(A, run_start(r1)), rec(A, compact(r1, 2, 0, [1, 2, 3])), rec(A, compact(r1, 3, 0xFFFFFFFF, [1, 2])),
            rec(A, compact(r1, 4, 1, [1, 2], sat=1)), rec(A, compact(r2, 2, 0, [1, 2]))]
    out["compact-hostile"] = script(0, recs + [rec(A, p) for p in compact_run(0x77)])
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_collector_corpus.py OUT_DIR")
    os.makedirs(sys.argv[1], exist_ok=True)
    s = seeds()
    for name, blob in s.items():
        with open(os.path.join(sys.argv[1], name), "wb") as f:
            f.write(blob)
    print("%d seeds in %s" % (len(s), sys.argv[1]))


if __name__ == "__main__":
    main()
