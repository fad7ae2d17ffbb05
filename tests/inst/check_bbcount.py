#!/usr/bin/env python3
"""check_bbcount.py BBCOUNT.OUT CALLGRIND.OUT|TRACE

The bbcount law: the count bbcount wrote for each site equals the number of
times the original program retired the instruction at that address, which
tally's exact profile gives per instruction (the Instructions event of a
Callgrind export of the *original* program). bbcount.out is read here from
its documented layout (docs/tally-inst.md), not through tally.

The reference may instead be a text trace of the original (`tally run
--trace`, one line per retired instruction, its pc the third field): code
without a symbol has no per-address lines in a Callgrind export.

Exit 0 when every site agrees (and there is at least one executed site),
1 with the first disagreements listed otherwise.
"""
import struct
import sys


def read_bbcount(path):
    data = open(path, "rb").read()
    if len(data) < 12 or data[:4] != b"TIBB":
        sys.exit(f"{path}: not a bbcount.out file")
    version, n = struct.unpack_from("<II", data, 4)
    if version != 1 or len(data) != 12 + 16 * n:
        sys.exit(f"{path}: version {version}, {n} records, {len(data)} bytes: malformed")
    out = {}
    for i in range(n):
        pc, flags, count = struct.unpack_from("<IIQ", data, 12 + 16 * i)
        if flags & 1:  # a counted site (the others are the runtime's own)
            out[pc] = count
    return out


def read_callgrind(path):
    """Per address: the Instructions event summed over the cost lines
    (call lines, which follow a calls= line, carry inclusive cycles only)."""
    events, counts, after_calls, npos = None, {}, False, 1
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("positions:"):
            npos = len(line.split()[1:])  # "instr" or "instr line": cost columns follow them
            continue
        if line.startswith("events:"):
            events = line.split()[1:]
            col = events.index("Instructions")
            continue
        if line.startswith("calls="):
            after_calls = True
            continue
        if line.startswith("0x") and events is not None:
            if after_calls:
                after_calls = False
                continue
            f = line.split()
            pc = int(f[0], 16)
            counts[pc] = counts.get(pc, 0) + int(f[npos + col])
    return counts


def read_trace(path):
    """Per address: how many lines of the trace retire it."""
    counts = {}
    for line in open(path):
        if line.startswith("#"):
            continue
        f = line.split(None, 3)
        if len(f) >= 3:
            pc = int(f[2], 16)
            counts[pc] = counts.get(pc, 0) + 1
    return counts


def main():
    bb = read_bbcount(sys.argv[1])
    with open(sys.argv[2]) as f:
        is_trace = f.readline().startswith("# tally trace")
    ref = read_trace(sys.argv[2]) if is_trace else read_callgrind(sys.argv[2])
    bad = [(pc, c, ref.get(pc, 0)) for pc, c in sorted(bb.items()) if c != ref.get(pc, 0)]
    executed = sum(1 for c in bb.values() if c)
    for pc, got, want in bad[:20]:
        print(f"0x{pc:08x}: bbcount {got}, tally profile {want}")
    if bad:
        print(f"{len(bad)} of {len(bb)} sites disagree")
        return 1
    if executed == 0:
        print("no site was executed: nothing was checked")
        return 1
    print(f"{len(bb)} sites ({executed} executed) equal tally's exact per-instruction counts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
