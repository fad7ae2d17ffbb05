#!/usr/bin/env python3
"""Reader of tally's per-cycle trace (docs/cycle-trace.md), written from
that page alone, and the law check of the trace against the C statistics
module's own intervals.

  cycletrace.py dump TRACE [N]          the first N records (default 20), as text
  cycletrace.py run-law TALLY [TALLY RUN OPTIONS...] PROGRAM
        runs `TALLY run --no-store --cycle-trace --intervals-csv OPTIONS
        PROGRAM` and checks the law below on what it wrote; SPECs and
        INTERVAL are the options' --count and --interval; a --count
        SIGNAL@FUNCTION is given the range `TALLY symbols PROGRAM` lists.
        Counters must not saturate (give --width 64); a signal name "all"
        is every signal of the catalog, anywhere.
  cycletrace.py run-window TALLY FROM:TO [TALLY RUN OPTIONS...] PROGRAM
        traces the whole run and the window FROM:TO (no statistics module):
        the window's cycles must be the whole trace's, cycle for cycle.
  cycletrace.py run-nonintrusive TALLY [TALLY RUN OPTIONS...] PROGRAM
        the run's --stats-json (cycles, every signal's total, energy, exit
        status) is the same with and without --cycle-trace; with --count,
        its --intervals-csv too (--at changes included).
  cycletrace.py run-at TALLY [TALLY RUN OPTIONS with --at ...] PROGRAM
        each --at change is in the trace (CONFIG) on the cycle tally run
        says it took effect on, the first instruction edge at or after
        its cycle.
  cycletrace.py law TRACE CSV INTERVAL SPEC...
        sums the trace per counter (SPEC: SIGNAL or SIGNAL@0xLO-0xHI, in the
        order of tally run's --count options) over every interval of INTERVAL
        cycles from cycle 0 (where tally run --count starts the module), and
        compares each interval and each total with tally run's
        --intervals-csv CSV; for a window (--cycle-trace-window), the
        intervals it holds whole.
        Counters must not saturate (wide --width): the law is about sums.

Exit 0: the law holds; 1: it does not (the first difference is printed);
64: usage; 65: the trace or the CSV is malformed; 66: a file cannot be read.
"""
import csv
import os
import struct
import subprocess
import sys
import tempfile

MAGIC = b"TALCYC1\n"
TAG_PC, TAG_ONES, TAG_VALUES, TAG_CONFIG, TAG_END = 0x01, 0x03, 0x04, 0x05, 0x0F
VERSIONS = (1, 2)  # 2 adds CONFIG records; a version-1 trace is one without them
CONFIG_KINDS = {1: "period", 2: "arr", 3: "counter", 4: "start", 5: "stop"}


class TraceError(Exception):
    pass


class Reader:
    """Streams a trace: header fields, then records (cycle, repeat, pc,
    values) where values maps signal index -> value on each of the repeat
    cycles. Reads the file (or pipe) in chunks as they come."""

    CHUNK = 1 << 16
    SLACK = 1024  # more than the longest record

    def __init__(self, f):
        self.f = f
        self.buf, self.pos = b"", 0
        self.nbytes = 0  # bytes consumed so far: the size the trace would have as a file
        head = self._read(24)
        if head[:8] != MAGIC:
            raise TraceError("not a cycle trace (bad magic)")
        version, nsig, _reserved, self.first = struct.unpack("<HHIQ", head[8:])
        if version not in VERSIONS:
            raise TraceError(f"trace version {version}, this reader knows {VERSIONS}")
        self.version = version
        if not 1 <= nsig <= 64:
            raise TraceError(f"{nsig} signals: a cycle's mask has 64 bits")
        self.names = []
        for _ in range(nsig):
            n = self._read(1)[0]
            self.names.append(self._read(n).decode("ascii"))
        self.end = None

    def _fill(self, n):
        """At least n bytes in buf from pos, or False at the end of the input."""
        while len(self.buf) - self.pos < n:
            read = getattr(self.f, "read1", self.f.read)
            chunk = read(self.CHUNK)
            if not chunk:
                return False
            self.buf = self.buf[self.pos:] + chunk
            self.pos = 0
        return True

    def _read(self, n):
        if not self._fill(n):
            raise TraceError("the trace ends inside a record (cut short?)")
        b = self.buf[self.pos:self.pos + n]
        self.pos += n
        self.nbytes += n
        return b

    def _byte(self):
        if self.pos >= len(self.buf) and not self._fill(1):
            raise TraceError("the trace ends inside a record (cut short?)")
        c = self.buf[self.pos]
        self.pos += 1
        self.nbytes += 1
        return c

    def _varint(self):
        v, shift = 0, 0
        while True:
            b = self._byte()
            v |= (b & 0x7F) << shift
            if not b & 0x80:
                return v
            shift += 7
            if shift > 63:
                raise TraceError("a varint longer than 64 bits")

    def _config(self, cycle):
        """A CONFIG record's fields (after the tag) as a dict."""
        at, kind = self._varint(), self._byte()
        if at != cycle:
            raise TraceError(f"cycle {cycle}: a configuration change for cycle {at}")
        if kind not in CONFIG_KINDS:
            raise TraceError(f"cycle {cycle}: unknown configuration change {kind}")
        c = {"cycle": at, "kind": CONFIG_KINDS[kind]}
        if kind == 1:
            c["period"] = self._varint()
        elif kind == 2:
            c["index"] = self._varint()
            c["lo"], c["hi"] = struct.unpack("<II", self._read(8))
        elif kind == 3:
            c["index"], c["signal"], c["arr"] = self._varint(), self._varint(), self._varint()
            c["enabled"] = self._byte()
        return c

    def raw_records(self, on_config=None):
        """Yields (cycle, repeat, pc, mask, values) per record of cycles:
        mask has bit s set for each signal s not 0, values is None when
        they are all 1 (ONES), else maps each to its value. A configuration
        change goes to on_config(dict) between them (without on_config a
        trace that has one is an error: the caller would count under the
        wrong configuration)."""
        cycle, pc, nsig = self.first, None, len(self.names)
        while True:
            # Fast path: cycle and pc records parsed in place while the
            # buffer holds more than any record (a VALUES record of 64
            # signals is at most 661 bytes); the rest record by record.
            if len(self.buf) - self.pos < self.SLACK:
                self._fill(self.SLACK)
            buf, pos = self.buf, self.pos
            stop = len(buf) - self.SLACK
            while pos <= stop:
                tag = buf[pos]
                if tag == TAG_PC:
                    pc = int.from_bytes(buf[pos + 1:pos + 5], "little")
                    pos += 5
                    continue
                if tag != TAG_ONES and tag != TAG_VALUES or pc is None:
                    break
                b = buf[pos + 1]
                pos += 2
                rep, shift = b & 0x7F, 7
                while b & 0x80:
                    b = buf[pos]
                    pos += 1
                    rep |= (b & 0x7F) << shift
                    shift += 7
                b = buf[pos]
                pos += 1
                mask, shift = b & 0x7F, 7
                while b & 0x80:
                    b = buf[pos]
                    pos += 1
                    mask |= (b & 0x7F) << shift
                    shift += 7
                if rep == 0 or mask >> nsig:
                    raise TraceError(f"cycle {cycle}: a record of 0 cycles or of unknown signals")
                vals = None
                if tag == TAG_VALUES:
                    vals, m = {}, mask
                    while m:
                        low = m & -m
                        b = buf[pos]
                        pos += 1
                        v, shift = b & 0x7F, 7
                        while b & 0x80:
                            b = buf[pos]
                            pos += 1
                            v |= (b & 0x7F) << shift
                            shift += 7
                        vals[low.bit_length() - 1] = v
                        m ^= low
                yield cycle, rep, pc, mask, vals
                cycle += rep
            self.nbytes += pos - self.pos
            self.pos = pos
            tag = self._byte()
            if tag == TAG_ONES or tag == TAG_VALUES:
                rep, mask = self._varint(), self._varint()
                if rep == 0 or mask >> nsig:
                    raise TraceError(f"cycle {cycle}: a record of 0 cycles or of unknown signals")
                if pc is None:
                    raise TraceError(f"cycle {cycle}: cycles before any pc")
                vals = None
                if tag == TAG_VALUES:
                    vals, m = {}, mask
                    while m:
                        low = m & -m
                        vals[low.bit_length() - 1] = self._varint()
                        m ^= low
                yield cycle, rep, pc, mask, vals
                cycle += rep
            elif tag == TAG_PC:
                pc = struct.unpack("<I", self._read(4))[0]
            elif tag == TAG_CONFIG:
                c = self._config(cycle)
                if on_config is None:
                    raise TraceError(f"cycle {cycle}: the configuration changes here ({c['kind']}); "
                                     "this use of the trace does not follow changes")
                on_config(c)
            elif tag == TAG_END:
                self.end = struct.unpack("<Q", self._read(8))[0]
                if self.end != cycle:
                    raise TraceError(f"the end record says cycle {self.end}, the records add up to {cycle}")
                if self._fill(1):
                    raise TraceError("bytes after the end record")
                return
            else:
                raise TraceError(f"cycle {cycle}: unknown record tag 0x{tag:02x}")

    def records(self, on_config=None):
        """Yields (cycle, repeat, pc, values) per record of cycles, values
        mapping every signal not 0 to its value (raw_records otherwise)."""
        for cycle, rep, pc, mask, vals in self.raw_records(on_config):
            if vals is None:
                vals, m = {}, mask
                while m:
                    low = m & -m
                    vals[low.bit_length() - 1] = 1
                    m ^= low
            yield cycle, rep, pc, vals


def parse_spec(spec, names):
    sig, _, where = spec.partition("@")
    if sig not in names:
        raise ValueError(f"unknown signal '{sig}'")
    if not where:
        return names.index(sig), None
    lo, _, hi = where.partition("-")
    return names.index(sig), (int(lo, 16), int(hi, 16))


def law(trace, csv_path, interval, specs):
    with open(trace, "rb") as f:
        r = Reader(f)
        counters = [parse_spec(s, r.names) for s in specs]
        sums = {}  # interval index -> [counts]
        for cycle, rep, pc, vals in r.records():
            for i, (sig, rng) in enumerate(counters):
                v = vals.get(sig, 0)
                if not v or (rng and not rng[0] <= pc < rng[1]):
                    continue
                # the record's cycles may span intervals: split them
                c, left = cycle, rep
                while left:
                    k = c // interval
                    take = min(left, (k + 1) * interval - c)
                    sums.setdefault(k, [0] * len(counters))[i] += v * take
                    c, left = c + take, left - take
        first, end = r.first, r.end
    with open(csv_path, newline="") as f:
        rows = list(csv.reader(f))
    n = len(counters)
    want_rows = [row for row in rows[1:] if row and row[0] != "total"]
    total_row = [row for row in rows[1:] if row and row[0] == "total"]
    if len(total_row) != 1:
        raise TraceError(f"{csv_path}: no total row")
    ok = True
    whole = first == 0
    inside = 0
    for row in want_rows:
        k = int(row[0])
        begin = int(row[1])
        if begin != k * interval:
            print(f"law: interval {k} begins at {begin} in the CSV, not at {k * interval}")
            return False
        if not first <= begin or not (begin + interval <= end or whole):
            continue  # a window: only the intervals it holds whole
        inside += 1
        got = sums.get(k, [0] * n)
        want = [int(x) for x in row[3:3 + n]]
        if got != want:
            print(f"law: interval {k}: trace sums {got}, the C module {want}")
            ok = False
            break
    extra = [k for k in sums if k >= len(want_rows)]
    if extra:
        print(f"law: the trace has events in interval {min(extra)}, the C module sent {len(want_rows)}")
        ok = False
    tot = [sum(v[i] for v in sums.values()) for i in range(n)]
    want_tot = [int(x) for x in total_row[0][3:3 + n]]
    if whole and tot != want_tot:
        print(f"law: totals: trace {tot}, the C module {want_tot}")
        ok = False
    if not inside:
        print("law: the trace holds no whole interval")
        ok = False
    if ok:
        print(f"law: {inside} intervals of {interval} cycles, {n} counters, cycles {first}-{end} of the "
              f"trace: every interval{' and total' if whole else ''} equal")
    return ok


def function_ranges(tally, program):
    out = subprocess.run([tally, "symbols", program], capture_output=True, text=True, check=True).stdout
    ranges = {}
    for line in out.splitlines()[1:]:
        f = line.split()
        if len(f) >= 4:
            for name in [f[3]] + [a.strip("[],") for a in f[4:]]:
                ranges[name] = f"{f[0]}-{f[1]}"
    return ranges


def run_law(tally, args):
    """tally run with the options, then the law on its trace and CSV."""
    program, specs, interval, opts = args[-1], [], None, []
    ranges = None
    k = 0
    while k < len(args) - 1:
        a = args[k]
        if a == "--count":
            spec = args[k + 1]
            sig, _, where = spec.partition("@")
            if where and not where.startswith("0x"):
                ranges = ranges or function_ranges(tally, program)
                if where not in ranges:
                    raise ValueError(f"no function {where} in {program}")
                spec = f"{sig}@{ranges[where]}"
            specs.append(spec)
            opts += ["--count", spec]
            k += 2
            continue
        if a == "--interval":
            interval = int(args[k + 1], 0)
        opts.append(a)
        k += 1
    if interval is None or not specs:
        raise ValueError("run-law needs --interval and --count options")
    with tempfile.TemporaryDirectory() as tmp:
        trace, table = os.path.join(tmp, "run.ct"), os.path.join(tmp, "run.csv")
        if specs == ["all"]:
            out = subprocess.run([tally, "signals"], capture_output=True, text=True, check=True).stdout
            specs = [line.split()[1] for line in out.splitlines()[1:] if line.split()[:1] and line.split()[0].isdigit()]
            i = opts.index("all")
            opts[i - 1:i + 1] = [x for n in specs for x in ("--count", n)]
        cmd = [tally, "run", "--no-store", "--cycle-trace", trace, "--intervals-csv", table] + opts + [program]
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=300)
        if r.returncode not in (0, 124):  # 124: --max-insns ended it
            print(f"cycletrace: {' '.join(cmd)} exited {r.returncode}:\n{r.stderr}", file=sys.stderr)
            return 70
        return 0 if law(trace, table, interval, specs) else 1


def cycles(trace):
    """Every cycle of a trace as (cycle, pc, values), and its first and end."""
    with open(trace, "rb") as f:
        r = Reader(f)
        out = [(cycle + k, pc, tuple(sorted(vals.items())))
               for cycle, rep, pc, vals in r.records() for k in range(rep)]
        return out, r.first, r.end


def run_window(tally, window, args):
    lo, _, hi = window.partition(":")
    with tempfile.TemporaryDirectory() as tmp:
        whole, part = os.path.join(tmp, "whole.ct"), os.path.join(tmp, "part.ct")
        for path, extra in ((whole, []), (part, ["--cycle-trace-window", window])):
            cmd = [tally, "run", "--cycle-trace", path] + extra + args
            r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=300)
            if r.returncode not in (0, 124):
                print(f"cycletrace: {' '.join(cmd)} exited {r.returncode}:\n{r.stderr}", file=sys.stderr)
                return 70
        all_cycles, _, end = cycles(whole)
        got, first, got_end = cycles(part)
    lo, hi = int(lo or 0, 0), min(int(hi, 0) if hi else end, end)
    want = [c for c in all_cycles if lo <= c[0] < hi]
    if (first, got_end) != (lo, hi) or got != want:
        bad = next((k for k, (g, w) in enumerate(zip(got, want)) if g != w), min(len(got), len(want)))
        print(f"window: cycles [{first}, {got_end}) traced, [{lo}, {hi}) wanted; first difference at "
              f"record {bad}: {got[bad] if bad < len(got) else None} vs {want[bad] if bad < len(want) else None}")
        return 1
    print(f"window: cycles [{lo}, {hi}) identical to the whole run's trace")
    return 0


def run_nonintrusive(tally, args):
    """With --count among the options, the statistics module's intervals
    (--intervals-csv) must be the same too (a scheduled --at change lands
    on the same edge)."""
    counting = "--count" in args
    with tempfile.TemporaryDirectory() as tmp:
        stats, tables = [], []
        for extra in ([], ["--cycle-trace", os.path.join(tmp, "run.ct")]):
            path = os.path.join(tmp, f"stats{len(stats)}.json")
            table = os.path.join(tmp, f"run{len(stats)}.csv")
            cmd = [tally, "run", "--stats-json", path] + extra + (["--intervals-csv", table] if counting else []) + args
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
            with open(path) as f:
                stats.append(f.read())
            if counting:
                with open(table) as f:
                    tables.append(f.read())
    if stats[0] != stats[1]:
        print("nonintrusive: --stats-json differs with --cycle-trace")
        return 1
    if counting and tables[0] != tables[1]:
        print("nonintrusive: --intervals-csv differs with --cycle-trace")
        return 1
    also = f", and {len(tables[0].splitlines()) - 1} intervals and totals" if counting else ""
    print(f"nonintrusive: --stats-json identical with and without --cycle-trace ({len(stats[0])} bytes){also}")
    return 0


def run_at(tally, args):
    """tally run with --at options and a trace: each change must be in the
    trace (CONFIG) on the cycle tally run says it was applied on, and that
    cycle must be the first instruction edge at or after the --at cycle.
    Edges: the run's start, after a cycle with instret (an instruction's
    last), and after an interrupt's entry (its `interrupt` cycle and the
    stall.system cycles after it, docs/cycle-trace.md)."""
    import re
    wanted = [int(args[k + 1].split(":", 1)[0], 0) for k in range(len(args) - 1) if args[k] == "--at"]
    if not wanted:
        raise ValueError("run-at needs --at options")
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "run.ct")
        cmd = [tally, "run", "--no-store", "--cycle-trace", trace] + args
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=300)
        if r.returncode not in (0, 124):
            print(f"cycletrace: {' '.join(cmd)} exited {r.returncode}:\n{r.stderr}", file=sys.stderr)
            return 70
        said = [int(m.replace(",", "")) for m in re.findall(r"--at \S+: applied on cycle ([0-9,]+)", r.stderr)]
        configs, edges, pcs = [], [], {}
        with open(trace, "rb") as f:
            rd = Reader(f)
            edges.append(rd.first)  # the run starts on an edge
            ins, irq = rd.names.index("instret"), rd.names.index("interrupt")
            entry = {rd.names.index(n) for n in ("cycle", "stall", "stall.system")}
            in_entry = None  # the pc of an interrupt entry being passed
            for cycle, rep, pc, vals in rd.records(on_config=lambda c: configs.append(c["cycle"])):
                if in_entry is not None and not (pc == in_entry and set(vals) == entry):
                    edges.append(cycle)  # the entry ended before this record
                    in_entry = None
                if vals.get(irq):
                    in_entry = pc
                elif vals.get(ins):
                    edges.append(cycle + rep)  # after the instruction's last cycle
    if len(said) != len(wanted):
        print(f"at: {len(wanted)} --at given, tally run says {len(said)} were applied")
        return 1
    ok = True
    for c, a in zip(wanted, said):
        first = min((e for e in edges if e >= c), default=None)
        if a not in configs:
            print(f"at: --at {c}: applied on cycle {a}, but the trace has no change there ({configs})")
            ok = False
        elif a != first:
            print(f"at: --at {c}: applied on cycle {a}, the first instruction edge at or after it is {first}")
            ok = False
    if ok:
        print(f"at: {len(wanted)} changes, each in the trace on the first instruction edge at or after its cycle "
              f"({', '.join(f'{c}->{a}' for c, a in zip(wanted, said))})")
    return 0 if ok else 1


def dump(trace, n):
    with open(trace, "rb") as f:
        r = Reader(f)
        print(f"# first cycle {r.first}, {len(r.names)} signals")
        for k, (cycle, rep, pc, vals) in enumerate(r.records(on_config=lambda c: print(f"{c['cycle']} config", c))):
            if k >= n:
                break
            sig = " ".join(f"{r.names[s]}" + (f"={v}" if v != 1 else "") for s, v in sorted(vals.items()))
            print(f"{cycle} x{rep} pc 0x{pc:08x} {sig}")


def main(argv):
    if len(argv) >= 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    try:
        if len(argv) in (3, 4) and argv[1] == "dump":
            dump(argv[2], int(argv[3]) if len(argv) == 4 else 20)
            return 0
        if len(argv) >= 5 and argv[1] == "run-window":
            return run_window(argv[2], argv[3], argv[4:])
        if len(argv) >= 4 and argv[1] == "run-nonintrusive":
            return run_nonintrusive(argv[2], argv[3:])
        if len(argv) >= 4 and argv[1] == "run-at":
            return run_at(argv[2], argv[3:])
        if len(argv) >= 4 and argv[1] == "run-law":
            return run_law(argv[2], argv[3:])
        if len(argv) >= 6 and argv[1] == "law":
            return 0 if law(argv[2], argv[3], int(argv[4], 0), argv[5:]) else 1
    except TraceError as e:
        print(f"cycletrace: {e}", file=sys.stderr)
        return 65
    except subprocess.CalledProcessError as e:
        print(f"cycletrace: {e}", file=sys.stderr)
        return 70
    except OSError as e:
        print(f"cycletrace: {e}", file=sys.stderr)
        return 66
    except ValueError as e:
        print(f"cycletrace: {e}", file=sys.stderr)
        return 64
    print(__doc__.strip(), file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv))
