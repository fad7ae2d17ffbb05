#!/usr/bin/env python3
"""The statistics module's laws and hand-derived counts, through `tally run`.

    check_statmod.py TALLY timeline NAME ELF
    check_statmod.py TALLY saturate ELF          (div_split.elf)
    check_statmod.py TALLY laws [--core C] [--set K=V] [--per-cycle] [--periods P,..] ELF [ARGS...]
    check_statmod.py TALLY nonintrusive [--core C] ELF [ARGS...]
    check_statmod.py TALLY errors ELF            (div_split.elf)

timeline: the program's cycle-by-cycle events, derived by hand in its
  comment and written below (TIMELINES), give every interval's expected
  value for any dispatch period; the test runs many periods (1, 2, primes,
  the run's length and one past it, one much longer) and compares every
  interval, the interval bounds (the last one ends at its natural boundary:
  the timer runs down after the program ends) and the final totals.
saturate: a 4-bit and a 5-bit module on div_split, values worked out by hand.
laws: on any program, for several periods: each counter's intervals add up
  to its final total; an anywhere counter's total is the signal's total of
  `tally run --stats-json`; a function counter's total is the function's
  self count in `tally profile --csv` (the profiler's independent
  per-instruction sum); the totals do not depend on the period; intervals
  are contiguous, start at cycle 0, are one period long, and the `cycle`
  counter of each holds exactly the run's cycles in it. --per-cycle also
  runs with a period of 1 (one interval per cycle) and checks the cycle
  layout of docs/timing.md on every cycle: exactly one part per cycle, pulses
  only where the layout puts them.
nonintrusive: the program's cycles, instructions, exit status, output and
  every signal total are the same with the module off, on (16 counters on
  16 functions), and configured otherwise (period 1 or 7, 1-bit counters).
errors: bad requests are refused with a clear message and status 64.
"""
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

SIGNAL_ORDER = None  # filled from `tally signals --json`


def run(cmd, timeout=600):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)


class Failure(Exception):
    pass


def model_args(core, sets):
    a = ["--core", core]
    for s in sets:
        a += ["--set", s]
    return a


def stats(tally, core, sets, elf, args, extra=()):
    """--stats-json of a run, with its stdout and exit status."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "s.json")
        p = run([tally, "run"] + model_args(core, sets) + list(extra) + ["--stats-json", path, elf] + args)
        try:
            with open(path) as f:
                js = json.load(f)
        except (OSError, ValueError) as e:
            raise Failure(f"no statistics from {elf}: {e}\n{p.stderr.decode(errors='replace')}")
    return js, p


def count_run(tally, core, sets, elf, args, counts, period, extra=()):
    """tally run --count ... --intervals-csv: (rows, final row, stderr, status)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "i.csv")
        cmd = [tally, "run"] + model_args(core, sets)
        for c in counts:
            cmd += ["--count", c]
        # --no-store: these laws are about the module; the store has its own tests
        cmd += ["--interval", str(period), "--intervals-csv", path, "--show-intervals", "0", "--no-store"] + list(extra)
        if len(counts) > 16 and "--counters" not in extra:
            cmd += ["--counters", str(len(counts))]
        cmd += [elf] + args
        p = run(cmd)
        if p.returncode not in (0,):
            raise Failure(f"{' '.join(cmd)}: exit status {p.returncode}\n{p.stderr.decode(errors='replace')}")
        with open(path) as f:
            rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    n = len(counts)
    if len(header) != 3 + 2 * n:
        raise Failure(f"CSV header has {len(header)} columns, expected {3 + 2 * n}: {header}")
    data, final = [], None
    for r in body:
        rec = {"begin": int(r[1]), "end": int(r[2]), "values": [int(v) for v in r[3:3 + n]],
               "sat": [int(v) for v in r[3 + n:]]}
        if r[0] == "total":
            final = rec
        else:
            rec["index"] = int(r[0])
            data.append(rec)
    if final is None:
        raise Failure("no total row (the final record) in the CSV")
    return data, final, p.stderr.decode(errors="replace"), p.returncode


# ---------------------------------------------------------------------------
# Hand-derived timelines (see the comments of the .S files). Each
# instruction: (pc, first cycle, end cycle, {signal: [cycles]}); `cycle` is
# implicit (every cycle of the instruction). Markers: {marker: [cycles]}.

def R(a, b):
    return list(range(a, b))


def sram_fetch(start):
    return {"mem.read": [start]}


def merge(*ds):
    out = {}
    for d in ds:
        for k, v in d.items():
            out.setdefault(k, []).extend(v)
    return out


TIMELINES = {
    "div_split": {
        "core": "sram", "sets": [], "cycles": 39,
        "insns": [
            (0x80000000, 0, 1, merge(sram_fetch(0), {"instret": [0]})),
            (0x80000004, 1, 2, merge(sram_fetch(1), {"instret": [1]})),
            (0x80000008, 2, 35, merge(sram_fetch(2), {"div": [2], "stall.muldiv": R(3, 35),
                                                      "stall": R(3, 35), "instret": [34]})),
            (0x8000000c, 35, 36, merge(sram_fetch(35), {"instret": [35]})),
            (0x80000010, 36, 37, merge(sram_fetch(36), {"instret": [36]})),
            (0x80000014, 37, 38, merge(sram_fetch(37), {"instret": [37]})),
            (0x80000018, 38, 39, merge(sram_fetch(38), {"store": [38], "instret": [38]})),
        ],
        "markers": {},
        "counts": ["cycle", "instret", "div", "stall.muldiv", "stall", "mem.read", "store",
                   "cycle@divide", "instret@divide", "div@divide", "stall.muldiv@divide",
                   "mem.read@0x80000008-0x80000010", "cycle@_start", "instret@done"],
        "ranges": {"divide": (0x80000008, 0x8000000c), "_start": (0x80000000, 0x80000008),
                   "done": (0x8000000c, 0x8000001c)},
    },
    "miss_split": {
        "core": "tally5", "sets": ["memory.sdram_row_miss_ns=0"], "cycles": 37, "periods": [16, 32],
        "insns": [
            (0x80000000, 0, 16, {"icache.access": [0], "icache.miss": [0], "mem.read": [0],
                                 "stall.icache": R(0, 13), "csr": [13], "stall.system": [14, 15],
                                 "stall": R(0, 13) + [14, 15], "instret": [15]}),
            (0x80000004, 16, 17, {"instret": [16]}),
            (0x80000008, 17, 31, {"load": [17], "dcache.read_miss": [17], "mem.read": [17],
                                  "stall.dcache": R(18, 31), "stall": R(18, 31), "instret": [30]}),
            (0x8000000c, 31, 33, {"stall.load_use": [31], "stall": [31], "store": [32],
                                  "dcache.write_hit": [32], "instret": [32]}),
            (0x80000010, 33, 34, {"instret": [33]}),
            (0x80000014, 34, 35, {"instret": [34]}),
            (0x80000018, 35, 36, {"instret": [35]}),
            (0x8000001c, 36, 37, {"store": [36], "instret": [36]}),
        ],
        "markers": {},
        "counts": ["cycle", "instret", "icache.access", "icache.miss", "icache.hit", "mem.read", "load",
                   "dcache.read_miss", "dcache.write_hit", "stall.icache", "stall.dcache", "stall.load_use",
                   "stall.system", "stall", "store", "csr", "cycle@load", "stall@load", "mem.read@load",
                   "store@load", "mem.read@_start", "stall.icache@_start", "csr@_start"],
        "ranges": {"_start": (0x80000000, 0x80000008), "load": (0x80000008, 0x80000020)},
    },
    "markers": {
        "core": "sram", "sets": [], "cycles": 18,
        "insns": [
            (0x80000000, 0, 1, merge(sram_fetch(0), {"instret": [0]})),
            (0x80000004, 1, 2, merge(sram_fetch(1), {"instret": [1]})),
            (0x80000008, 2, 3, merge(sram_fetch(2), {"store": [2], "instret": [2]})),
            (0x8000000c, 3, 5, merge(sram_fetch(3), {"jump": [3], "call": [3], "stall.jump": [4],
                                                     "stall": [4], "instret": [4]})),
        ] + [
            (0x80000024 + 4 * k, 5 + k, 6 + k, merge(sram_fetch(5 + k), {"instret": [5 + k]})) for k in range(5)
        ] + [
            (0x80000038, 10, 13, merge(sram_fetch(10), {"jump": [10], "ret": [10], "stall.jump": [11, 12],
                                                        "stall": [11, 12], "instret": [12]})),
            (0x80000010, 13, 14, merge(sram_fetch(13), {"store": [13], "instret": [13]})),
            (0x80000014, 14, 15, merge(sram_fetch(14), {"instret": [14]})),
            (0x80000018, 15, 16, merge(sram_fetch(15), {"instret": [15]})),
            (0x8000001c, 16, 17, merge(sram_fetch(16), {"instret": [16]})),
            (0x80000020, 17, 18, merge(sram_fetch(17), {"store": [17], "instret": [17]})),
        ],
        "markers": {"marker0": R(2, 13)},
        "counts": ["marker0", "marker0@work", "marker0@_start", "marker0@back", "cycle@work", "stall.jump@work",
                   "instret", "store@_start", "marker1", "jump", "call@_start", "ret@work"],
        "ranges": {"_start": (0x80000000, 0x80000010), "back": (0x80000010, 0x80000024),
                   "work": (0x80000024, 0x8000003c)},
    },
    "irq_split": {
        "core": "sram", "sets": [], "cycles": 36,
        "insns": [
            (0x80000000, 0, 1, merge(sram_fetch(0), {"instret": [0]})),
            (0x80000004, 1, 2, merge(sram_fetch(1), {"instret": [1]})),
            (0x80000008, 2, 5, merge(sram_fetch(2), {"csr": [2], "stall.system": [3, 4], "stall": [3, 4],
                                                     "instret": [4]})),
            (0x8000000c, 5, 6, merge(sram_fetch(5), {"instret": [5]})),
            (0x80000010, 6, 9, merge(sram_fetch(6), {"csr": [6], "stall.system": [7, 8], "stall": [7, 8],
                                                     "instret": [8]})),
            (0x80000014, 9, 12, merge(sram_fetch(9), {"csr": [9], "stall.system": [10, 11], "stall": [10, 11],
                                                      "instret": [11]})),
            (0x80000018, 12, 13, merge(sram_fetch(12), {"instret": [12]})),
            (0x8000001c, 13, 14, merge(sram_fetch(13), {"instret": [13]})),
            (0x80000020, 14, 15, merge(sram_fetch(14), {"store": [14], "instret": [14]})),
            # the interrupt's entry, charged to the handler's first instruction
            (0x80000044, 15, 18, {"interrupt": [15], "stall.system": [15, 16, 17], "stall": [15, 16, 17]}),
            (0x80000044, 18, 19, merge(sram_fetch(18), {"store": [18], "instret": [18]})),
            (0x80000048, 19, 23, merge(sram_fetch(19), {"system": [19], "stall.system": [20, 21, 22],
                                                        "stall": [20, 21, 22], "instret": [22]})),
            (0x80000024, 23, 24, merge(sram_fetch(23), {"instret": [23]})),
            (0x80000028, 24, 25, merge(sram_fetch(24), {"instret": [24]})),
            (0x8000002c, 25, 28, merge(sram_fetch(25), {"csr": [25], "stall.system": [26, 27], "stall": [26, 27],
                                                        "instret": [27]})),
            (0x80000030, 28, 32, merge(sram_fetch(28), {"system": [28], "trap": [28], "stall.system": [29, 30, 31],
                                                        "stall": [29, 30, 31]})),
            (0x80000034, 32, 33, merge(sram_fetch(32), {"instret": [32]})),
            (0x80000038, 33, 34, merge(sram_fetch(33), {"instret": [33]})),
            (0x8000003c, 34, 35, merge(sram_fetch(34), {"instret": [34]})),
            (0x80000040, 35, 36, merge(sram_fetch(35), {"store": [35], "instret": [35]})),
        ],
        "markers": {},
        "counts": ["cycle", "instret", "interrupt", "trap", "stall.system", "stall", "csr", "system", "store",
                   "mem.read", "cycle@handler", "interrupt@handler", "stall.system@handler", "mem.read@handler",
                   "trap@after", "stall.system@after", "instret@after", "interrupt@_start"],
        "ranges": {"_start": (0x80000000, 0x80000024), "after": (0x80000024, 0x80000034),
                   "handler2": (0x80000034, 0x80000044), "handler": (0x80000044, 0x8000004c)},
    },
}


def expected_events(tl, count):
    """The cycles (with repeats) on which the counter's event happens."""
    sig, _, where = count.partition("@")
    lo, hi = 0, 1 << 32
    if where:
        if where in tl["ranges"]:
            lo, hi = tl["ranges"][where]
        else:
            a, b = where.split("-")
            lo, hi = int(a, 16), int(b, 16)
    cycles = []
    for pc, s, e, ev in tl["insns"]:
        if not lo <= pc < hi:
            continue
        if sig == "cycle":
            cycles += R(s, e)
        elif sig in tl["markers"]:
            cycles += [c for c in tl["markers"][sig] if s <= c < e]
        elif sig.startswith("marker"):
            pass
        else:
            evs = ev.get(sig, [])
            if any(not s <= c < e for c in evs):
                raise Failure(f"timeline: {sig} at a cycle outside its instruction at 0x{pc:08x}")
            cycles += evs
    return cycles


def check_timeline(tally, name, elf):
    tl = TIMELINES[name]
    T = tl["cycles"]
    # the timeline itself must be whole: instructions tile [0, T)
    at = 0
    for pc, s, e, _ in sorted(tl["insns"], key=lambda x: x[1]):
        if s != at:
            raise Failure(f"timeline {name}: a gap or overlap at cycle {at}")
        at = e
    if at != T:
        raise Failure(f"timeline {name}: instructions end at {at}, not {T}")
    js, _ = stats(tally, tl["core"], tl["sets"], elf, [])
    if js["cycles"] != T:
        raise Failure(f"{name}: the run takes {js['cycles']} cycles, the derivation says {T}")
    counts = tl["counts"]
    events = [expected_events(tl, c) for c in counts]
    periods = sorted({1, 2, 3, 5, 7, 10, 13, T - 1, T, T + 1, 1000} | set(tl.get("periods", [])))
    bad = 0
    for P in periods:
        data, final, _, _ = count_run(tally, tl["core"], tl["sets"], elf, [], counts, P)
        nint = math.ceil(T / P)
        if len(data) != nint:
            print(f"FAIL {name} period {P}: {len(data)} intervals, expected {nint}")
            bad += 1
            continue
        for k, rec in enumerate(data):
            b, e = k * P, (k + 1) * P
            if (rec["index"], rec["begin"], rec["end"]) != (k, b, e):
                print(f"FAIL {name} period {P}: interval {k} is #{rec['index']} [{rec['begin']}, {rec['end']}), "
                      f"expected [{b}, {e})")
                bad += 1
            for i, c in enumerate(counts):
                want = sum(1 for x in events[i] if b <= x < e)
                if rec["values"][i] != want:
                    print(f"FAIL {name} period {P} interval {k} [{b}, {e}): {c} = {rec['values'][i]}, "
                          f"expected {want}")
                    bad += 1
        for i, c in enumerate(counts):
            if final["values"][i] != len(events[i]):
                print(f"FAIL {name} period {P}: total of {c} = {final['values'][i]}, expected {len(events[i])}")
                bad += 1
        if (final["begin"], final["end"]) != (0, nint * P):
            print(f"FAIL {name} period {P}: the final record spans [{final['begin']}, {final['end']}), "
                  f"expected [0, {nint * P}) (the last interval runs down to its natural end)")
            bad += 1
    print(f"{name}: {len(periods)} periods x {len(counts)} counters checked against the hand timeline"
          f"{'' if not bad else f', {bad} mismatches'}")
    return bad


# ---------------------------------------------------------------------------

def check_saturate(tally, elf):
    counts = ["cycle", "instret", "stall.muldiv"]
    bad = 0
    # div_split on sram, intervals of 20 cycles: [0, 20) and [20, 40).
    #   cycle: 20 and 19; instret: 2 (cycles 0, 1) and 5 (34-38);
    #   stall.muldiv: 17 (3-19) and 15 (20-34).
    cases = [
        # width, expected values per interval, saturated flags, totals, total flags
        (4, [[15, 2, 15], [15, 5, 15]], [[1, 0, 1], [1, 0, 1]], [30, 7, 30], [1, 0, 1]),
        (5, [[20, 2, 17], [19, 5, 15]], [[0, 0, 0], [0, 0, 0]], [39, 7, 32], [0, 0, 0]),
        (1, [[1, 1, 1], [1, 1, 1]], [[1, 1, 1], [1, 1, 1]], [2, 2, 2], [1, 1, 1]),
    ]
    for width, vals, sats, tot, tsat in cases:
        data, final, err, _ = count_run(tally, "sram", [], elf, [], counts, 20, extra=["--width", str(width)])
        got = ([r["values"] for r in data], [r["sat"] for r in data], final["values"], final["sat"])
        want = (vals, sats, tot, tsat)
        ok = got == want
        bad += not ok
        print(f"{'ok  ' if ok else 'FAIL'} width {width}: intervals {got[0]} saturated {got[1]}, totals {got[2]} "
              f"{got[3]}" + ("" if ok else f"; expected {want}"))
        if any(tsat) and "saturated" not in err:
            print(f"FAIL width {width}: the table does not say a counter saturated")
            bad += 1
    return bad


# ---------------------------------------------------------------------------

def profile_rows(tally, core, sets, elf, args):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "p.csv")
        p = run([tally, "profile"] + model_args(core, sets) + ["--csv", path, "--top", "1", elf] + args)
        if p.returncode != 0 and not os.path.exists(path):
            raise Failure(f"tally profile {elf}: status {p.returncode}\n{p.stderr.decode(errors='replace')}")
        with open(path) as f:
            return list(csv.DictReader(f))


PER_CYCLE_SIGNALS = ["cycle", "stall", "stall.icache", "stall.load_use", "stall.muldiv", "stall.dcache",
                     "stall.write_buffer", "stall.branch", "stall.jump", "stall.system", "stall.dvfs", "wfi.idle",
                     "instret", "load", "store", "branch", "jump", "div", "mul", "csr", "system", "trap",
                     "interrupt", "dcache.read_miss", "dcache.write_miss"]
STALL_PARTS = ["stall.icache", "stall.load_use", "stall.muldiv", "stall.dcache", "stall.write_buffer",
               "stall.branch", "stall.jump", "stall.system", "stall.dvfs"]
ISSUE_PULSES = ["load", "store", "branch", "jump", "div", "mul", "csr", "system", "dcache.read_miss",
                "dcache.write_miss"]


def check_per_cycle(tally, core, sets, elf, args, T):
    """Period 1: every interval is one cycle; check the layout on each."""
    counts = PER_CYCLE_SIGNALS
    bad = 0
    for start in range(0, len(counts), 16):
        part = counts[start:start + 16]
        data, final, _, _ = count_run(tally, core, sets, elf, args, part, 1)
        if len(data) != T:
            raise Failure(f"period 1: {len(data)} intervals for {T} cycles")
        for rec in data:
            v = dict(zip(part, rec["values"]))
            c = rec["begin"]
            if v.get("cycle", 1) != 1:
                print(f"FAIL cycle {c}: cycle = {v['cycle']}")
                bad += 1
            parts = sum(v.get(s, 0) for s in STALL_PARTS)
            if "stall" in v and v["stall"] != parts and all(s in v for s in STALL_PARTS):
                print(f"FAIL cycle {c}: stall = {v['stall']} but its parts add up to {parts}")
                bad += 1
            if parts > 1:
                print(f"FAIL cycle {c}: {parts} stall parts at once")
                bad += 1
            if parts and v.get("wfi.idle", 0):
                print(f"FAIL cycle {c}: a stall and wfi.idle at once")
                bad += 1
            if v.get("stall", 0) or v.get("wfi.idle", 0):
                # a stall cycle is no issue cycle: no issue pulse there
                for s in ISSUE_PULSES:
                    if v.get(s, 0):
                        print(f"FAIL cycle {c}: {s} on a stall cycle")
                        bad += 1
                if v.get("interrupt", 0) and not v.get("stall.system", 1):
                    print(f"FAIL cycle {c}: interrupt outside its trap penalty")
                    bad += 1
            if v.get("instret", 0) > 1:
                print(f"FAIL cycle {c}: instret = {v['instret']}")
                bad += 1
            if bad > 20:
                return bad
    print(f"per cycle: the layout holds on all {T:,} cycles")
    return bad


def check_laws(tally, core, sets, elf, args, periods, per_cycle):
    js, _ = stats(tally, core, sets, elf, args)
    E = js["cycles"]
    totals = js["signals"]
    funcs = [r for r in profile_rows(tally, core, sets, elf, args) if r["function"] != "[unknown]"]
    funcs.sort(key=lambda r: -int(r["cycle"]))
    # 16 counters: two anywhere, fourteen on the busiest functions with a mix of signals
    sigs = ["cycle", "instret", "stall", "icache.miss", "dcache.read_miss", "load", "mem.read", "branch.taken"]
    counts = ["cycle", "stall"]
    expect = [E, totals["stall"]]
    for k, f in enumerate(funcs[:14]):
        s = sigs[k % len(sigs)] if k >= 2 else "cycle"
        counts.append(f"{s}@{f['function']}")
        expect.append(int(f[s]))
    if len({c.split("@")[1] for c in counts if "@" in c}) > 16:
        raise Failure("too many ranges")
    bad = 0
    finals = []
    for P in periods:
        data, final, _, _ = count_run(tally, core, sets, elf, args, counts, P, extra=["--arrs", "16"])
        nint = math.ceil(E / P)
        if len(data) != nint:
            print(f"FAIL period {P}: {len(data)} intervals, expected ceil({E} / {P}) = {nint}")
            bad += 1
        for k, rec in enumerate(data):
            if (rec["begin"], rec["end"]) != (k * P, (k + 1) * P):
                print(f"FAIL period {P}: interval {k} is [{rec['begin']}, {rec['end']})")
                bad += 1
                break
            if rec["values"][0] != min(E, (k + 1) * P) - k * P:
                print(f"FAIL period {P}: interval {k} counts {rec['values'][0]} cycles, "
                      f"expected {min(E, (k + 1) * P) - k * P}")
                bad += 1
                break
        sums = [sum(r["values"][i] for r in data) for i in range(len(counts))]
        if sums != final["values"]:
            print(f"FAIL period {P}: intervals add up to {sums}, the final record says {final['values']}")
            bad += 1
        if final["values"] != expect:
            for i, c in enumerate(counts):
                if final["values"][i] != expect[i]:
                    print(f"FAIL period {P}: {c} totals {final['values'][i]}, the "
                          f"{'profile' if '@' in c else 'run'} says {expect[i]}")
            bad += 1
        finals.append(final["values"])
    print(f"laws: {os.path.basename(elf)} {' '.join(args)} on {core}: {len(counts)} counters, periods "
          f"{', '.join(str(p) for p in periods)}: {'ok' if not bad else f'{bad} failures'}")
    if per_cycle:
        bad += check_per_cycle(tally, core, sets, elf, args, E)
    return bad


# ---------------------------------------------------------------------------

def check_nonintrusive(tally, core, sets, elf, args):
    base, p0 = stats(tally, core, sets, elf, args)
    funcs = [r for r in profile_rows(tally, core, sets, elf, args) if r["function"] != "[unknown]"]
    funcs.sort(key=lambda r: -int(r["cycle"]))
    names = [f["function"] for f in funcs[:16]]
    configs = [
        [a for n in names for a in ("--count", f"cycle@{n}")] + ["--interval", "100000"],
        [a for n in names[:8] for a in ("--count", f"dcache.read_miss@{n}")] +
        ["--count", "stall", "--count", "marker0@" + names[0], "--interval", "7", "--width", "1",
         "--counters", "64", "--arrs", "9"],
        ["--count", "instret@0x80000000-0x80000100", "--interval", "1"] if base["cycles"] < 3_000_000 else
        ["--count", "instret@0x80000000-0x80000100", "--interval", "997"],
    ]
    bad = 0
    for cfg in configs:
        got, p = stats(tally, core, sets, elf, args, extra=cfg + ["--show-intervals", "0", "--no-store"])
        diffs = [k for k in ("cycles", "instructions", "exit_status") if got[k] != base[k]]
        diffs += [f"signal {k}" for k in base["signals"] if got["signals"].get(k) != base["signals"][k]]
        if p.stdout != p0.stdout:
            diffs.append("stdout")
        if p.returncode != p0.returncode:
            diffs.append("exit status")
        if diffs:
            print(f"FAIL {' '.join(cfg[:4])} ...: differs in {', '.join(diffs)}")
            bad += 1
    print(f"nonintrusive: {os.path.basename(elf)} on {core}: {len(configs)} module configurations, "
          f"{'identical' if not bad else 'DIFFERENT'} cycles, instructions, output and "
          f"{len(base['signals'])} signal totals")
    return bad


# ---------------------------------------------------------------------------

def check_errors(tally, elf):
    core = ["--core", "sram"]
    many = [a for k in range(17) for a in ("--count", "cycle")]
    ranges = [a for k in range(17) for a in ("--count", f"cycle@0x{0x80000000 + 4 * k:x}-0x{0x80000004 + 4 * k:x}")]
    cases = [
        (many + ["--interval", "10"], 64, "17 events asked for (--count) but the module has 16 counters"),
        (["--counters", "17"] + many + ["--interval", "10"], 0, None),
        (["--count", "cycle", "--interval", "10", "--width", "0"], 64, "--width wants a number from 1 to 64"),
        (["--count", "cycle", "--interval", "10", "--width", "65"], 64, "--width wants a number from 1 to 64"),
        (["--count", "cycle", "--interval", "10", "--counters", "1025"], 64, "--counters wants a number from 1 to 1,024"),
        (["--count", "dcache.miss", "--interval", "10"], 64, "unknown signal 'dcache.miss'"),
        (["--count", "cycle@nosuch", "--interval", "10"], 64, "no function named 'nosuch'"),
        (["--count", "cycle@0x80000010-0x80000010", "--interval", "10"], 64, "is empty"),
        (["--count", "cycle@0x80000010-zz", "--interval", "10"], 64, "bad address range"),
        (["--count", "cycle@", "--interval", "10"], 64, "nothing after '@'"),
        (["--count", "cycle"], 64, "--count needs --interval"),
        (["--count", "cycle", "--interval", "0"], 64, "--interval wants a number from 1 to 4,294,967,295"),
        (["--count", "cycle", "--interval", "4294967296"], 64, "--interval wants a number"),
        (["--interval", "10"], 64, "go with --count"),
        (ranges + ["--counters", "17", "--interval", "10"], 64,
         "17 different address ranges but the module has 16 address range registers: add --arrs 17"),
        (["--arrs", "0", "--count", "cycle@divide", "--interval", "10"], 64, "has 0 address range registers"),
        (["--count", "cycle", "--interval", "10", "--intervals-csv", "/nonexistent/dir/x.csv"], 70, "cannot write"),
    ]
    bad = 0
    for argv, status, msg in cases:
        p = run([tally, "run"] + core + argv + [elf])
        err = p.stderr.decode(errors="replace")
        ok = p.returncode == status and (msg is None or msg in err)
        bad += not ok
        shown = " ".join(argv if len(argv) < 12 else argv[:4] + ["..."] + argv[-4:])
        print(f"{'ok  ' if ok else 'FAIL'}  {shown}: status {p.returncode}" +
              ("" if ok else f", expected {status} and {msg!r}; stderr: {err.strip()[-300:]}"))
    # options after PROGRAM go to the program: tally says so
    p = run([tally, "run"] + core + [elf, "--count", "cycle"])
    ok = "comes after PROGRAM" in p.stderr.decode(errors="replace")
    bad += not ok
    print(f"{'ok  ' if ok else 'FAIL'}  PROGRAM --count ...: a note says it goes to the program")
    return bad


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    tally, what, rest = argv[1], argv[2], argv[3:]
    core, sets, periods, per_cycle = "tally5", [], None, False
    while rest and rest[0].startswith("--"):
        opt = rest.pop(0)
        if opt == "--core":
            core = rest.pop(0)
        elif opt == "--set":
            sets.append(rest.pop(0))
        elif opt == "--periods":
            periods = [int(x) for x in rest.pop(0).split(",")]
        elif opt == "--per-cycle":
            per_cycle = True
        else:
            print(f"check_statmod.py: unknown option {opt}")
            return 2
    try:
        if what == "timeline":
            bad = check_timeline(tally, rest[0], rest[1])
        elif what == "saturate":
            bad = check_saturate(tally, rest[0])
        elif what == "laws":
            bad = check_laws(tally, core, sets, rest[0], rest[1:], periods or [1000, 7919, 100003, 10 ** 9],
                             per_cycle)
        elif what == "nonintrusive":
            bad = check_nonintrusive(tally, core, sets, rest[0], rest[1:])
        elif what == "errors":
            bad = check_errors(tally, rest[0])
        else:
            print(f"check_statmod.py: unknown check {what}")
            return 2
    except Failure as e:
        print(f"FAIL: {e}")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
