#!/usr/bin/env python3
"""Cycle by cycle: what the SoC's adapter presented to the module (tb --dump)
against tally's per-cycle trace of the same program on the picorv32 model
(tally run --core picorv32 --cycle-trace, docs/cycle-trace.md).

  cmptrace.py [--core vexriscv|vexriscv-imac|vexriscv-min] TRACE DUMP

Every cycle's PC and the signals the adapter provides (the others are not
compared; --core vexriscv: adapter_vexriscv.v's, against the vexriscv model) must be the same, and both must have as many cycles (the dump's
cycles with a valid PC). Exit 0 identical, 1 not (the first differences are
printed), 64 usage, 65 a malformed input."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import cycletrace  # noqa: E402

SUPPORTED = 0x1_2C00_FF6F  # adapter_picorv32.v: the signals it provides
SUPPORTED_VEX = 0x17_FFFF_FFEF  # adapter_vexriscv.v's (compressed: IMAC; trap)
# ... with MIN = 1: not icache.miss, dcache.read_hit, dcache.read_miss and
# mem.read (0 on the adapter; the vexriscv-min model's mem.read is each fetch)
SUPPORTED_VEX_MIN = SUPPORTED_VEX & ~((1 << 18) | (1 << 19) | (1 << 20) | (1 << 24))


def model_cycles(path):
    """Each cycle's PC and signals; a pulse more than 1 on one cycle (an
    instruction's fetch that misses two I-cache lines: icache.miss,
    icache.access, mem.read 2 on its first cycle) is 1 on that cycle and on
    the ones after it, one each, as the adapter, which presents one event a
    signal a cycle, lays them out"""
    r = cycletrace.Reader(open(path, "rb"))
    carry = {}
    for _cyc, rep, pc, mask, vals in r.raw_records():
        for _ in range(rep):
            m = mask
            for sig in list(carry):
                if not (m >> sig) & 1:
                    m |= 1 << sig
                    carry[sig] -= 1
                    if not carry[sig]:
                        del carry[sig]
            if vals:
                for sig, v in vals.items():
                    if v > 1 and (SUPPORTED >> sig) & 1:
                        carry[sig] = carry.get(sig, 0) + v - 1
            yield pc, m & SUPPORTED


def main(a):
    global SUPPORTED
    if a[:1] == ["--core"] and a[1:2] and a[1] in ("vexriscv", "vexriscv-imac"):
        SUPPORTED, a = SUPPORTED_VEX, a[2:]
    elif a[:2] == ["--core", "vexriscv-min"]:
        SUPPORTED, a = SUPPORTED_VEX_MIN, a[2:]
    if len(a) != 2:
        print(__doc__, file=sys.stderr)
        return 64
    try:
        model = model_cycles(a[0])
        n, bad = 0, 0
        with open(a[1]) as f:
            for line in f:
                c, pc, valid, sig = line.split()
                if valid == "0":
                    break
                got = (int(pc, 16), int(sig, 16))
                want = next(model, None)
                if want is None:
                    print(f"cmptrace: cycle {c}: the RTL has more cycles than tally's {n}")
                    return 1
                if got != want:
                    bad += 1
                    if bad <= 10:
                        print(f"cmptrace: cycle {c}: tally pc {want[0]:08x} signals {want[1]:x}, "
                              f"RTL pc {got[0]:08x} signals {got[1]:x}")
                n += 1
        rest = sum(1 for _ in model)
    except (cycletrace.TraceError, ValueError) as e:
        print(f"cmptrace: {e}", file=sys.stderr)
        return 65
    if rest:
        print(f"cmptrace: tally's trace has {rest} cycles more than the RTL's {n}")
        return 1
    print(f"cmptrace: {n} cycles, {bad} different")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
