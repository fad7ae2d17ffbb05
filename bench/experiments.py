#!/usr/bin/env python3
"""The papers' experiments, reproduced on tally.

Regenerates every table and figure of docs/experiments.md:

  fig4    Statistics Module paper, Fig. 4: memory writes under a write-back
          and a write-through D-cache (and a third, proposed configuration)
          for heapsort, blast and hanoi, plus the write-back variants that
          were tried to find the third one.
  fig5    Statistics Module paper, Fig. 5: total cycles of one workload
          across I-cache variations (sets, set size, line size,
          replacement), every configuration run twice.
  gprof   SnoopP: a gprof-style 10 ms (and 1 ms) PC sampler against the
          exact profile, short and long runs of dhrystone and aes, the run
          length the sampler needs to rank the top functions right, and the
          same runs started a few cycles later (a longer program path).
  table4  SnoopP, Table 4: hardware vs software multiply, the rv32imac and
          rv32i builds of the same workloads profiled side by side.
  pg      SnoopP against gprof -pg: dhry and aes built with -pg and the
          kit's runtime (target/pg/gmon.c), their gmon.out read by
          riscv64-unknown-elf-gprof, beside the exact profile of the plain
          builds; what -pg costs, per function, counted exactly.
  table8  SnoopP, Tables 3, 7 and 8: sixteen statistics-module counters
          (the whole run and fifteen functions), their static sizes and how
          much of the run they cover.
  fig9    DSPInst, Fig. 9: data-cache misses per interval over a run of
          mcomp, drawn into FIGURES/fig9-dcache-misses.png.
  tasks   Statistics Module paper, "runtime artifacts such as multithreading":
          the RTOS workloads (target/rtos) profiled per task with
          `tally profile --tasks` on two core models: per-task cycles,
          misses, switches and the tick handler's cost.
  dvfs    DSPInst, section 5 (Figs. 10, 11): `tally dvfs` on dsp500 on all
          thirteen workloads (time and energy against the original, the
          oracle, the slowest static point), per region, the paper's
          average from the trade-off curves (bench/dvfs/frontier.py),
          the limits those suggest run for real, three operating points;
          pictures (tally dvfs --svg) into FIGURES/dvfs-WORKLOAD.svg.
  area    Statistics Module paper, Fig. 3: the module's LUTs and flip-flops
          (yosys, rtl/area.py sweep) as signals, ranges and counters grow,
          against the naive design, into FIGURES/rtl-area.png. Only with
          --area or --only area: hours of synthesis at the paper's
          sizes; with --small (k = 2, 3, R = 8, iCE40) some minutes.

Only simulated counts are reported (cycles, signals, samples): they are
exact and the same on every run and every machine; host times are not
measured. The script checks what it can on the way (exit status 0, the
workload's own "OK", counts identical between repeated runs, the exact
profile identical whatever the sampler period, a sampler sampling every
cycle equal to the exact profile, memory-write beats against the energy
accounting, gprof's call counts against the exact ones, one histogram
sample per timer interrupt, every counter against the exact profile,
intervals adding up to the run's totals) and stops with a message if a
check fails.

The figure needs matplotlib (Debian's python3-matplotlib, used through
/usr/bin/python3 and scripts/intervals-plot.py), section pg
riscv64-unknown-elf-gprof, section area yosys; all come with
scripts/install-deps.sh. Without area, some 20 minutes on 2 cores (section
dvfs alone: 60 runs, 15 minutes of wall time on a loaded machine); --small
runs them all in about a minute. Examples:
  bench/experiments.py                          # everything but area, Markdown on stdout
  bench/experiments.py --area                   # and the area sweep (hours)
  bench/experiments.py --small --area           # all of them small, area in minutes
  bench/experiments.py --output /tmp/exp.md     # also write it to a file
  bench/experiments.py --only fig4,fig5         # some of the experiments
  bench/experiments.py --small                  # every experiment at small sizes (CI)
  bench/experiments.py --build /tmp/b --jobs 1  # another build, one at a time
"""
import argparse
import concurrent.futures
import csv
import datetime
import io
import json
import math
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.join(REPO, "bench"))
from benchlib import cpu_model, first_line  # noqa: E402

# The workloads' default sizes (argv[1]; docs/workloads.md). The size is
# always passed explicitly, so a run does not depend on the default.
DEFAULT_SIZE = {
    "dhrystone": 30000, "aes": 320, "heapsort": 12000, "hanoi": 18, "crc32": 1024,
    "matmul": 96, "blast": 300, "qsort": 25000, "fft": 24, "dct": 5,
    "mcomp": 5, "rotate": 1, "spmv": 2,
}
SIZE_UNIT = {
    "dhrystone": "passes", "aes": "blocks per key", "heapsort": "keys per round",
    "hanoi": "discs", "matmul": "matrix order", "blast": "queries", "fft": "frames",
    "dct": "frames",
}

EXPERIMENTS = ["fig4", "fig5", "gprof", "table4", "pg", "table8", "fig9", "tasks", "dvfs", "irq"]
# Run only when asked (--area, or named in --only): hours of synthesis.
OPTIONAL_EXPERIMENTS = ["area"]

# Per-run time limit (host seconds). The longest run of the script takes
# about 15 s on a 2.4 GHz EPYC core.
RUN_TIMEOUT = 300
# A sampler run of the default-size dhrystone takes well under a second; if
# the probe takes longer than this, the sampler is taken to hang.
SAMPLER_PROBE_TIMEOUT = 30


# Columns of `tally profile --csv` that belong to the sampler, not to the
# exact profile: left out when exact profiles are compared.
SAMPLER_COLUMNS = ("samples",)


class ExperimentError(Exception):
    pass


# ---------------------------------------------------------------------------
# Running tally

class Tally:
    """Runs the tally binary with the build folder as working directory and
    relative ELF paths (target/<flavour>/<name>.elf): the start-up code reads
    the command line, so the path's length moves the counts by a few
    instructions, and a fixed form keeps them independent of where the
    repository is checked out."""

    def __init__(self, binary, build, jobs):
        self.binary = binary
        self.build = build
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
        self.commands = []          # every command line run, in order of submission
        self.lock = threading.Lock()
        self.tmp = tempfile.mkdtemp(prefix="tally-exp-")
        self.seq = 0

    def elf(self, flavour, name):
        rel = os.path.join("target", flavour, name + ".elf")
        if not os.path.exists(os.path.join(self.build, rel)):
            raise ExperimentError(f"{os.path.join(self.build, rel)} is missing: build the "
                                  "workloads first (cmake --build build)")
        return rel

    def _tmpfile(self, suffix):
        with self.lock:
            self.seq += 1
            return os.path.join(self.tmp, f"{self.seq}{suffix}")

    def _record(self, argv):
        shown = ["tally"] + [a if not a.startswith(self.tmp) else "OUT." + a.rsplit(".", 1)[-1]
                             for a in argv[1:]]
        with self.lock:
            self.commands.append(" ".join(shlex.quote(a) for a in shown))

    def _exec(self, argv, timeout=RUN_TIMEOUT, cwd=None, want_ok=True):
        self._record(argv)
        try:
            p = subprocess.run(argv, cwd=cwd or self.build, stdin=subprocess.DEVNULL,
                               capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise ExperimentError(f"timed out after {timeout} s: {' '.join(argv)}")
        if p.returncode != 0:
            raise ExperimentError(f"exit status {p.returncode}: {' '.join(argv)}\n"
                                  f"{p.stderr[-2000:]}")
        if want_ok and not re.search(r": OK$", p.stdout, re.M):
            raise ExperimentError(f"the workload did not print OK: {' '.join(argv)}\n"
                                  f"{p.stdout[-2000:]}")
        return p

    @staticmethod
    def _model_args(core, sets):
        a = ["--core", core]
        for s in sets:
            a += ["--set", s]
        return a

    def run(self, flavour, name, size, core="tally5", sets=(), extra=(), elf=None, cwd=None):
        """tally run --stats-json [extra...]: returns the parsed JSON."""
        out = self._tmpfile(".stats.json")
        argv = [self.binary, "run"] + self._model_args(core, sets) + list(extra) + [
            "--stats-json", out, elf or self.elf(flavour, name), str(size)]
        self._exec(argv, cwd=cwd)
        with open(out) as f:
            d = json.load(f)
        os.unlink(out)
        return d

    def profile(self, flavour, name, size, core="tally5", sets=(), sample=None,
                timeout=RUN_TIMEOUT, elf=None, cwd=None, extra=()):
        """tally profile --csv [--sample-every T]: returns
        (total cycles, {function: row of the CSV}, sampler or None) where the
        sampler is {"samples": n, "per_function": {name: samples}}."""
        out = self._tmpfile(".profile.csv")
        argv = [self.binary, "profile"] + self._model_args(core, sets) + list(extra)
        if sample:
            argv += ["--sample-every", sample]
        argv += ["--csv", out, elf or self.elf(flavour, name), str(size)]
        p = self._exec(argv, timeout=timeout, cwd=cwd)
        m = re.search(r"^tally profile: .* on core \S+: ([0-9,]+) cycles, ([0-9,]+) instructions",
                      p.stdout, re.M)
        if not m:
            raise ExperimentError(f"no summary line in the output of {' '.join(argv)}")
        total = int(m.group(1).replace(",", ""))
        insns = int(m.group(2).replace(",", ""))
        funcs = {}
        with open(out, newline="") as f:
            for row in csv.DictReader(f):
                # The sampler's column is not part of the exact profile: it
                # depends on the period (it is read from the table below).
                r = {k: (v if k in ("function", "lo", "hi") else int(v)) for k, v in row.items()
                     if k not in SAMPLER_COLUMNS}
                funcs[r["function"]] = r
        os.unlink(out)
        if sum(r["cycle"] for r in funcs.values()) != total:
            raise ExperimentError(f"self cycles do not add up to the total: {' '.join(argv)}")
        sampler = None
        if sample:
            sampler = parse_sampler(p.stdout, argv)
        return total, insns, funcs, sampler

    def map(self, fn, items):
        """Runs fn over items on the pool; returns the results in order."""
        return list(self.pool.map(fn, items))


def parse_sampler(text, argv):
    m = re.search(r"^PC sampling every .* \(([0-9,]+) samples\)", text, re.M)
    if not m:
        raise ExperimentError(f"no sampler table in the output of {' '.join(argv)}")
    taken = int(m.group(1).replace(",", ""))
    per = {}
    body = text[m.end():]
    row = re.compile(r"^\s*-?[0-9.]+%\s+-?[0-9.]+%\s+[-+]?[0-9.]+%\s+([0-9,]+)\s+(\S+)\s*$")
    started = False
    for line in body.splitlines():
        r = row.match(line)
        if r:
            started = True
            per[r.group(2)] = int(r.group(1).replace(",", ""))
        elif started and not line.strip():
            break
    if sum(per.values()) != taken:
        raise ExperimentError(f"sampler rows add up to {sum(per.values())}, not {taken}: "
                              f"{' '.join(argv)}")
    return {"samples": taken, "per_function": per}


# ---------------------------------------------------------------------------
# Formatting

def n(x):
    return f"{x:,}"


def pct(x, digits=2):
    return f"{x:.{digits}f}%"


def spct(x, digits=2):
    return f"{x:+.{digits}f}%"


def table(header, rows, align=None):
    """A Markdown table; align is a string of 'l'/'r' per column."""
    align = align or "l" + "r" * (len(header) - 1)
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join(":--" if a == "l" else "--:" for a in align) + "|"]
    for r in rows:
        out.append("| " + " | ".join(str(c) for c in r) + " |")
    return "\n".join(out)


class Report:
    """Markdown out: to stdout and, line by line, to the --output file (so
    that a run stopped by a failed check leaves what it had, and the reason,
    in the file too)."""

    def __init__(self, path=None):
        self.buf = io.StringIO()
        self.file = open(path, "w") if path else None

    def __call__(self, text=""):
        self.buf.write(text + "\n")
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
        if self.file:
            self.file.write(text + "\n")
            self.file.flush()

    def close(self):
        if self.file:
            self.file.close()


# ---------------------------------------------------------------------------
# Fig. 4: write-back vs write-through (and a proposed third configuration)

FIG4_WORKLOADS = ["heapsort", "blast", "hanoi"]
FIG4_VARIANT_WORKLOADS = ["heapsort", "blast"]
FIG4_CONFIGS = [
    # (label, core, sets)
    ("write-back (tally5)", "tally5", ()),
    ("write-through (tally5-wt)", "tally5-wt", ()),
    ("proposed A: write-back, 4-way", "tally5", ("dcache.ways=4",)),
    ("proposed B: write-back, 16 B lines", "tally5", ("dcache.line=16",)),
]
# Write-back variants at (mostly) the same capacity: what moves the number of
# memory writes? Used to choose the third configuration above.
FIG4_VARIANTS = [
    ("write-back, 2-way, 32 B lines, LRU (tally5)", "tally5", ()),
    ("write-back, direct mapped", "tally5", ("dcache.ways=1",)),
    ("write-back, 4-way", "tally5", ("dcache.ways=4",)),
    ("write-back, 8-way", "tally5", ("dcache.ways=8",)),
    ("write-back, fully associative (128-way)", "tally5", ("dcache.ways=128",)),
    ("write-back, LRR replacement", "tally5", ("dcache.replacement=lrr",)),
    ("write-back, random replacement", "tally5", ("dcache.replacement=random",)),
    ("write-back, 16 B lines", "tally5", ("dcache.line=16",)),
    ("write-back, 64 B lines", "tally5", ("dcache.line=64",)),
    ("write-back, 8 KiB (twice the capacity)", "tally5", ("dcache.size=8K",)),
    ("write-back, 4 KiB, SDRAM row misses free", "tally5", ("memory.sdram_row_miss_ns=0",)),
    ("write-back, 8 KiB, SDRAM row misses free", "tally5",
     ("dcache.size=8K", "memory.sdram_row_miss_ns=0")),
    ("write-through, 4-entry write buffer (tally5-wt)", "tally5-wt", ()),
    ("write-through, 16-entry write buffer", "tally5-wt", ("dcache.write_buffer=16",)),
    ("write-through, no write buffer", "tally5-wt", ("dcache.write_buffer=0",)),
]


def model_value(d, sets, key, default):
    for s in sets:
        k, v = s.split("=", 1)
        if k == key:
            return v
    return default


def size_bytes(v):
    v = str(v)
    m = re.fullmatch(r"(\d+)([KkMm]?)", v)
    mult = {"": 1, "k": 1024, "m": 1024 * 1024}[m.group(2).lower()]
    return int(m.group(1)) * mult


def write_beats(d, sets):
    """Beats written to memory: a write-back moves a whole D-cache line
    (line / bus_bytes beats), a write-through store one beat (a store is at
    most 4 bytes, the bus is 4 bytes wide). Cross-checked against the
    memory energy: E = (read beats x 120 pJ + write beats x 140 pJ) at 1.2 V
    on the shipped models."""
    s = d["signals"]
    dline = size_bytes(model_value(d, sets, "dcache.line", "32"))
    iline = 32
    bus = 4
    wb = s["writeback"] * (dline // bus)
    wt = (s["mem.write"] - s["writeback"]) * 1
    beats = wb + wt
    read_beats = s["icache.miss"] * (iline // bus) + (s["mem.read"] - s["icache.miss"]) * (dline // bus)
    e = d["energy_j"]["memory"] * 1e12
    from_energy = (e - read_beats * 120) / 140
    if abs(from_energy - beats) > 0.5 + 1e-6 * beats:
        raise ExperimentError(f"write beats {beats} disagree with the memory energy "
                              f"({from_energy:.1f} beats) for sets {sets}")
    return beats


def exp_fig4(t, out):
    out("## Fig. 4 — memory writes under write-back and write-through")
    out()
    jobs = [(w, c) for w in FIG4_WORKLOADS for c in FIG4_CONFIGS]
    res = t.map(lambda j: t.run("rv32imac", j[0], DEFAULT_SIZE[j[0]], j[1][1], j[1][2]), jobs)
    R = {(w, c[0]): r for (w, c), r in zip(jobs, res)}
    rows = []
    for w in FIG4_WORKLOADS:
        base = R[(w, FIG4_CONFIGS[0][0])]
        for label, core, sets in FIG4_CONFIGS:
            d = R[(w, label)]
            s = d["signals"]
            bw = base["signals"]["mem.write"]
            bb = write_beats(base, ())
            beats = write_beats(d, sets)
            first = label == FIG4_CONFIGS[0][0]
            saved = "—" if first else (pct(100.0 * (bw - s["mem.write"]) / bw, 1) if bw else "— (0 writes)")
            bsaved = "—" if first else (pct(100.0 * (bb - beats) / bb, 1) if bb else "— (0 writes)")
            rows.append([f"{w} ({DEFAULT_SIZE[w]} {SIZE_UNIT[w]})", label, n(s["store"]),
                         n(s["mem.write"]), saved, n(beats), bsaved, n(s["writeback"]),
                         n(s["dcache.write_miss"]), n(s["mem.read"]), n(d["cycles"]),
                         spct(100.0 * (d["cycles"] - base["cycles"]) / base["cycles"], 1)])
    out(table(["benchmark", "D-cache", "stores", "memory writes (mem.write)",
               "writes saved vs write-back", "beats written", "beats saved vs write-back",
               "write-backs (writeback)", "D-cache write misses", "memory reads (mem.read)",
               "cycles", "cycles vs write-back"], rows, "ll" + "r" * 10))
    out()
    out("Write-back variants tried for the third configuration (same workloads, "
        "default sizes; 4 KiB unless stated):")
    out()
    jobs = [(w, v) for w in FIG4_VARIANT_WORKLOADS for v in FIG4_VARIANTS]
    res = t.map(lambda j: t.run("rv32imac", j[0], DEFAULT_SIZE[j[0]], j[1][1], j[1][2]), jobs)
    rows = []
    base = {}
    for (w, (label, core, sets)), d in zip(jobs, res):
        s = d["signals"]
        if w not in base:
            base[w] = (s["mem.write"], write_beats(d, sets), d["cycles"])
        bw, bb, bc = base[w]
        beats = write_beats(d, sets)
        rows.append([w, label, n(s["mem.write"]), spct(100.0 * (s["mem.write"] - bw) / bw, 1),
                     n(beats), spct(100.0 * (beats - bb) / bb, 1), n(s["stall.write_buffer"]),
                     n(d["cycles"]), spct(100.0 * (d["cycles"] - bc) / bc, 1)])
    out(table(["benchmark", "D-cache", "memory writes", "vs tally5", "beats written", "vs tally5",
               "write-buffer stall cycles", "cycles", "vs tally5"], rows, "ll" + "r" * 7))
    out()


# ---------------------------------------------------------------------------
# Fig. 5: I-cache variations, each run twice

FIG5_WORKLOAD = "dhrystone"
FIG5_SIZE = 500000
FIG5_BASE = ("icache.size=1K", "icache.ways=2", "icache.line=32", "icache.replacement=lru")
FIG5_CONFIGS = [
    # (label, overrides on top of FIG5_BASE). The paper's LEON calls the
    # associativity "sets" and the bytes of one way "set size"; the labels
    # here use the usual words (sets = size / (ways x line)).
    ("base: 2 ways x 512 B = 1 KiB, 32 B lines, LRU", ()),
    ("sets 8: 2 ways x 256 B = 512 B", ("icache.size=512",)),
    ("sets 32: 2 ways x 1 KiB = 2 KiB", ("icache.size=2K",)),
    ("sets 64: 2 ways x 2 KiB = 4 KiB (tally5)", ("icache.size=4K",)),
    ("1 way (direct mapped), 1 KiB", ("icache.ways=1",)),
    ("4 ways, 1 KiB", ("icache.ways=4",)),
    ("8 ways, 1 KiB", ("icache.ways=8",)),
    ("32 ways (fully associative), 1 KiB", ("icache.ways=32",)),
    ("1 way x 512 B = 512 B (LEON: 1 set)", ("icache.ways=1", "icache.size=512")),
    ("4 ways x 512 B = 2 KiB (LEON: 4 sets)", ("icache.ways=4", "icache.size=2K")),
    ("line 16 B (4 words)", ("icache.line=16",)),
    ("line 64 B (16 words)", ("icache.line=64",)),
    ("replacement LRR", ("icache.replacement=lrr",)),
    ("replacement random (seed 1)", ("icache.replacement=random",)),
    ("replacement random (seed 2)", ("icache.replacement=random", "icache.seed=2")),
]


def geometry(sets):
    cfg = dict(s.split("=", 1) for s in FIG5_BASE)
    cfg.update(dict(s.split("=", 1) for s in sets))
    size, ways, line = size_bytes(cfg["icache.size"]), int(cfg["icache.ways"]), size_bytes(cfg["icache.line"])
    return size, ways, line, size // (ways * line)


def exp_fig5(t, out):
    out("## Fig. 5 — total cycles across I-cache variations, two runs each")
    out()
    jobs = [(c, r) for c in FIG5_CONFIGS for r in (1, 2)]
    res = t.map(lambda j: t.run("rv32imac", FIG5_WORKLOAD, FIG5_SIZE, "tally5",
                                FIG5_BASE + j[0][1]), jobs)
    R = {(c[0], r): d for (c, r), d in zip(jobs, res)}
    base = R[(FIG5_CONFIGS[0][0], 1)]["cycles"]
    rows = []
    maxdiff = 0
    for label, sets in FIG5_CONFIGS:
        a, b = R[(label, 1)], R[(label, 2)]
        diff = abs(a["cycles"] - b["cycles"])
        maxdiff = max(maxdiff, diff)
        for k in ("instructions", "signals"):
            if a[k] != b[k]:
                raise ExperimentError(f"run-to-run difference in {k} for {label}")
        size, ways, line, nsets = geometry(sets)
        rows.append([label, ways, n(size // ways), n(size), line, nsets, n(a["cycles"]), n(b["cycles"]), diff,
                     n(a["signals"]["icache.miss"]),
                     pct(100.0 * a["signals"]["icache.miss"] / a["signals"]["icache.access"], 2),
                     spct(100.0 * (a["cycles"] - base) / base, 1)])
    out(f"{FIG5_WORKLOAD}, {n(FIG5_SIZE)} {SIZE_UNIT[FIG5_WORKLOAD]} "
        f"({n(R[(FIG5_CONFIGS[0][0], 1)]['instructions'])} instructions), tally5 with the "
        "I-cache set as shown (D-cache, pipeline and memory as tally5):")
    out()
    out(table(["configuration", "ways", "bytes per way", "bytes", "line", "sets", "cycles run 1",
               "cycles run 2", "run 2 − run 1", "I-cache misses", "misses per fetch-line lookup",
               "cycles vs base"], rows, "l" + "r" * 11))
    out()
    nsig = len(R[(FIG5_CONFIGS[0][0], 1)]["signals"])
    out(f"Largest run-to-run difference: {maxdiff} cycles (the instruction count and all "
        f"{nsig} signal totals are identical between the two runs too).")
    out()


# ---------------------------------------------------------------------------
# SnoopP: gprof-style sampling against the exact profile

GPROF_WORKLOADS = ["dhrystone", "aes"]
GPROF_FACTORS = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64]
GPROF_LONG = 32          # the "long run": 32x the default (960,000 dhrystone passes)
GPROF_PERIODS = ["10ms", "1ms"]
GPROF_TOP = 10           # functions listed in the per-function table
# Exact shares closer than this (percentage points) are a tie: the sampler
# may rank the two either way. (dhrystone's strings_differ and next_hue,
# aes's SubBytes and InvSubBytes cost the same per pass.)
TIE_PP = 0.1
# The phase experiment: dhrystone at this multiple of the default size, with
# program paths up to this many characters longer.
GPROF_PHASE_FACTORS = [4, 32]
GPROF_PHASE_EXTRA = 7


# The 1-cycle sampler check runs aes at this size.
GPROF_CHECK_SIZE = 32


def period_words(p):
    """'10ms' -> '10 ms'."""
    m = re.fullmatch(r"(\d+)(\D+)", p)
    return f"{m.group(1)} {m.group(2)}" if m else p


def shares(funcs, total):
    return {f: 100.0 * r["cycle"] / total for f, r in funcs.items() if r["cycle"]}


def sampled_shares(sampler):
    k = sampler["samples"]
    return {f: 100.0 * c / k for f, c in sampler["per_function"].items()} if k else {}


def order_matches(exact, sampler, k):
    """True when the sampler ranks the exact top k in the exact order:
    position i of the sampled ranking holds the exact i-th function (or one
    tied with it within TIE_PP), with strictly more samples than position
    i+1 unless those two are tied too."""
    ex = sorted(exact.items(), key=lambda kv: -kv[1])
    per = sampler["per_function"]
    sm = sorted(per.items(), key=lambda kv: -kv[1])
    if len(sm) < k or len(ex) < k:
        return False
    for i in range(k):
        f, c = sm[i]
        if abs(exact.get(f, 0.0) - ex[i][1]) >= TIE_PP:
            return False
        if i + 1 < len(sm) and i + 1 < k + 1:
            g, c2 = sm[i + 1]
            if c <= c2 and abs(exact.get(f, 0.0) - exact.get(g, 0.0)) >= TIE_PP:
                return False
    return True


def probe_sampler(t):
    try:
        t.profile("rv32imac", "dhrystone", DEFAULT_SIZE["dhrystone"], sample=GPROF_PERIODS[0],
                  timeout=SAMPLER_PROBE_TIMEOUT)
        return None
    except ExperimentError as e:
        return str(e).splitlines()[0]


def exp_gprof(t, out):
    out(f"## SnoopP — a {' / '.join(period_words(p) for p in GPROF_PERIODS)} PC sampler "
        "against the exact profile")
    out()
    bad = probe_sampler(t)
    if bad:
        out(f"**Not run: the PC sampler did not work** ({bad}).")
        out()
        return
    # The sampler itself: sampling every cycle must give the exact profile
    # (every cycle but cycle 0, which no sample point k x period, k >= 1, hits).
    total, _, funcs, smp = t.profile("rv32imac", "aes", GPROF_CHECK_SIZE, sample="10ns")
    per = smp["per_function"]
    off = {f: funcs.get(f, {"cycle": 0})["cycle"] - per.get(f, 0) for f in set(funcs) | set(per)}
    off = {f: v for f, v in off.items() if v}
    if smp["samples"] != total - 1 or sum(off.values()) != 1 or any(v != 1 for v in off.values()):
        raise ExperimentError(f"a 1-cycle sampler does not reproduce the exact profile: {off}")
    out(f"Check of the sampler: `aes {GPROF_CHECK_SIZE}` sampled every 10 ns (every cycle at 100 MHz) gives "
        f"{n(smp['samples'])} samples for {n(total)} cycles, each function's sample count equal "
        f"to its exact self cycles (cycle 0, which no sample point hits, aside). So the "
        f"differences below are the sampling's alone.")
    out()
    jobs = [(w, f, p) for w in GPROF_WORKLOADS for f in GPROF_FACTORS for p in GPROF_PERIODS]
    # Longest first, so that the two workers finish together.
    order = sorted(range(len(jobs)), key=lambda i: -jobs[i][1])
    res_sorted = t.map(lambda i: t.profile("rv32imac", jobs[i][0],
                                           DEFAULT_SIZE[jobs[i][0]] * jobs[i][1],
                                           sample=jobs[i][2]), order)
    R = {jobs[i]: r for i, r in zip(order, res_sorted)}
    for w in GPROF_WORKLOADS:
        # The exact profile must not depend on the sampler.
        for f in GPROF_FACTORS:
            a, b = (R[(w, f, p)] for p in GPROF_PERIODS)
            if a[0] != b[0] or a[2] != b[2]:
                raise ExperimentError(f"{w} x{f}: the exact profile differs between sampler periods")
        d0 = DEFAULT_SIZE[w]
        short, long_ = R[(w, 1, GPROF_PERIODS[0])], R[(w, GPROF_LONG, GPROF_PERIODS[0])]
        es, el = shares(short[2], short[0]), shares(long_[2], long_[0])
        # Steady state: what one more unit of work costs, per function.
        dn = d0 * GPROF_LONG - d0
        steady_total = long_[0] - short[0]
        steady = {f: 100.0 * (long_[2][f]["cycle"] - short[2].get(f, {"cycle": 0})["cycle"]) /
                  steady_total for f in long_[2]}
        top = sorted(el, key=lambda f: -el[f])[:GPROF_TOP]
        # ... and the functions whose share the start-up moves most.
        top += sorted((f for f in set(es) | set(el) if f not in top and
                       abs(es.get(f, 0) - el.get(f, 0)) >= 0.5), key=lambda f: -es.get(f, 0))
        sp = {(fa, p): sampled_shares(R[(w, fa, p)][3]) for fa in (1, GPROF_LONG)
              for p in GPROF_PERIODS}
        out(f"### {w}: per-function shares of the cycles")
        out()
        out(f"Short run: {n(d0)} {SIZE_UNIT[w]} ({n(short[0])} cycles, "
            f"{short[0] / 1e8:.3f} s at 100 MHz); long run: {n(d0 * GPROF_LONG)} "
            f"({n(long_[0])} cycles, {long_[0] / 1e8:.2f} s). Steady state = "
            f"(long − short) per function / (long − short) in all: the cost of "
            f"{n(dn)} more {SIZE_UNIT[w]}, {steady_total / dn:.1f} cycles each.")
        out()
        rows = []
        for f in top:
            rows.append([f, pct(es.get(f, 0)), pct(el.get(f, 0)), pct(steady.get(f, 0)),
                         *(f"{pct(sp[(fa, p)].get(f, 0), 1)} ({spct(sp[(fa, p)].get(f, 0) - (es if fa == 1 else el).get(f, 0), 1)})"
                           for fa in (1, GPROF_LONG) for p in GPROF_PERIODS)])
        s_counts = {(fa, p): R[(w, fa, p)][3]["samples"] for fa in (1, GPROF_LONG)
                    for p in GPROF_PERIODS}
        out(table(["function", "exact, short", "exact, long", "exact, steady state",
                   *(f"{period_words(p)} sampler, {'short' if fa == 1 else 'long'} "
                     f"({n(s_counts[(fa, p)])}{' samples' if (fa, p) == (1, GPROF_PERIODS[0]) else ''})"
                     for fa in (1, GPROF_LONG) for p in GPROF_PERIODS)], rows))
        out()
        out("Sampler columns: sampled share (error against the exact share of the same run).")
        out()
        out(f"### {w}: how long a run the sampler needs")
        out()
        rows = []
        first_ok = {}
        for fa in GPROF_FACTORS:
            total, _, funcs, _ = R[(w, fa, GPROF_PERIODS[0])]
            ex = shares(funcs, total)
            cells = [n(d0 * fa), f"{total / 1e8:.2f} s"]
            for p in GPROF_PERIODS:
                smp = R[(w, fa, p)][3]
                ss = sampled_shares(smp)
                errs = [abs(ss.get(f, 0) - ex.get(f, 0)) for f in set(ex) | set(ss)]
                top5 = sorted(ex, key=lambda f: -ex[f])[:5]
                rms5 = (sum((ss.get(f, 0) - ex[f]) ** 2 for f in top5) / 5) ** 0.5
                m3, m5 = order_matches(ex, smp, 3), order_matches(ex, smp, 5)
                for k, m in ((3, m3), (5, m5)):
                    if m and (p, k) not in first_ok:
                        first_ok[(p, k)] = fa
                    elif not m:
                        first_ok.pop((p, k), None)
                cells += [n(smp["samples"]), pct(max(errs)), pct(rms5),
                          "yes" if m3 else "no", "yes" if m5 else "no"]
            rows.append(cells)
        hdr = [SIZE_UNIT[w], "simulated time"]
        for p in GPROF_PERIODS:
            hdr += [f"{p}: samples", "max error", "rms error, top 5", "top-3 order", "top-5 order"]
        out(table(hdr, rows))
        out()
        ex_long = sorted(el, key=lambda f: -el[f])[:5]
        out(f"Exact top 5 (long run): {', '.join(f'{f} {pct(el[f])}' for f in ex_long)}.")
        # Random sampling separates two shares p > q (fractions) at two standard
        # errors once n >= 4 (p + q) / (p - q)^2 samples.
        gaps = [(el[a] - el[b], a, b) for a, b in zip(ex_long, ex_long[1:]) if el[a] - el[b] >= TIE_PP]
        if not gaps:
            raise ExperimentError(f"{w}: the exact top 5 are all tied")
        d, a, b = min(gaps)
        p_, q_ = el[a] / 100, el[b] / 100
        need = 4 * (p_ + q_) / (p_ - q_) ** 2
        per_sample = {p: long_[0] / R[(w, GPROF_LONG, p)][3]["samples"] for p in GPROF_PERIODS}
        out(f"Closest pair in the top 5 (ties of less than {TIE_PP} points aside): {a} and {b}, "
            f"{d:.2f} points apart. Independent random samples would need about {n(round(need))} "
            f"to order them at two standard errors: "
            + ", ".join(f"{need * per_sample[p] / 1e8:,.0f} s of run time ({n(round(need * per_sample[p] / (steady_total / dn)))} {SIZE_UNIT[w]}) at {p}"
                        for p in GPROF_PERIODS) + ".")
        for p in GPROF_PERIODS:
            for k in (3, 5):
                fa = first_ok.get((p, k))
                if fa:
                    out(f"- {p} sampler, top-{k} order right from {n(d0 * fa)} {SIZE_UNIT[w]} "
                        f"(x{fa}) on, at every longer run tried.")
                else:
                    out(f"- {p} sampler, top-{k} order: not right at the longest run tried "
                        f"({n(d0 * GPROF_FACTORS[-1])} {SIZE_UNIT[w]}).")
        out()
        exp_gprof_phase(t, out, w)


def exp_gprof_phase(t, out, w):
    """The same runs started with a program path 0..GPROF_PHASE_EXTRA
    characters longer: the start-up code reads the command line, so the run
    shifts by a few cycles, which moves every sample point against the
    program's loop. The exact profile hardly moves; the sampled one may."""
    src = os.path.join(t.build, t.elf("rv32imac", w))
    d = os.path.join(t.tmp, "phase")
    os.makedirs(os.path.join(d, "target", "rv32imac"), exist_ok=True)
    paths = []
    for k in range(GPROF_PHASE_EXTRA + 1):
        rel = os.path.join("target", "rv32imac", w + "x" * k + ".elf")
        shutil.copyfile(src, os.path.join(d, rel))
        paths.append(rel)
    jobs = [(fa, k, p) for fa in GPROF_PHASE_FACTORS for k in range(len(paths))
            for p in GPROF_PERIODS]
    order = sorted(range(len(jobs)), key=lambda i: -jobs[i][0])
    res = t.map(lambda i: t.profile("rv32imac", w, DEFAULT_SIZE[w] * jobs[i][0], sample=jobs[i][2],
                                    elf=paths[jobs[i][1]], cwd=d), order)
    R = {jobs[i]: r for i, r in zip(order, res)}
    out(f"### {w}: the same runs, started with a longer program path")
    out()
    out(f"The program file copied to names 0 to {GPROF_PHASE_EXTRA} characters longer than "
        f"target/rv32imac/{w}.elf (0: the runs above); the first two columns of shares are "
        f"the exact top two functions:")
    out()
    rows = []
    right = {}
    for fa in GPROF_PHASE_FACTORS:
        total, _, funcs, _ = R[(fa, 0, GPROF_PERIODS[0])]
        ex0 = shares(funcs, total)
        f1, f2 = sorted(ex0, key=lambda f: -ex0[f])[:2]
        for k in range(len(paths)):
            total, insns, funcs, _ = R[(fa, k, GPROF_PERIODS[0])]
            ex = shares(funcs, total)
            cells = [n(DEFAULT_SIZE[w] * fa), k, n(insns), n(total),
                     f"{f1} {pct(ex[f1])}", f"{f2} {pct(ex[f2])}"]
            for p in GPROF_PERIODS:
                a = R[(fa, k, p)]
                if a[:3] != R[(fa, k, GPROF_PERIODS[0])][:3]:
                    raise ExperimentError(f"{w}: the exact profile depends on the sampler period")
                smp = a[3]
                ss = sampled_shares(smp)
                errs = [abs(ss.get(f, 0) - ex.get(f, 0)) for f in set(ex) | set(ss)]
                ok = order_matches(ex, smp, 5)
                right[(fa, p)] = right.get((fa, p), 0) + ok
                cells += [pct(ss.get(f1, 0), 1), pct(ss.get(f2, 0), 1), pct(max(errs)),
                          "yes" if ok else "no"]
            rows.append(cells)
    hdr = [SIZE_UNIT[w], "extra characters", "instructions", "cycles", "exact", "exact"]
    for p in GPROF_PERIODS:
        hdr += [f"{p}: top 1", "top 2", "max error", "top-5 order"]
    out(table(hdr, rows, "l" + "r" * (len(hdr) - 1)))
    out()
    for fa in GPROF_PHASE_FACTORS:
        fs = [R[(fa, k, GPROF_PERIODS[0])][2] for k in range(len(paths))]
        moved = max(abs(fk.get(f, {"cycle": 0})["cycle"] - fs[0].get(f, {"cycle": 0})["cycle"])
                    for fk in fs for f in set(fk) | set(fs[0]))
        out(f"- {n(DEFAULT_SIZE[w] * fa)} {SIZE_UNIT[w]}: the sampler's top-5 order is right in "
            + " and ".join(f"{right[(fa, p)]} of {len(paths)} starts at {p}" for p in GPROF_PERIODS)
            + f"; no function's exact self cycles differ by more than {moved} between the starts.")
    out()


# ---------------------------------------------------------------------------
# SnoopP Table 4: hardware vs software multiply

TABLE4_WORKLOADS = [("dhrystone", 12), ("matmul", 6), ("fft", 6), ("dct", 6)]
LIBGCC_ARITH = re.compile(r"^(__hidden_)?__(mul|div|udiv|mod|umod)(si|di)3$")


def exp_table4(t, out):
    out("## SnoopP Table 4 — hardware vs software multiply (rv32imac vs rv32i)")
    out()
    jobs = [(w, fl) for w, _ in TABLE4_WORKLOADS for fl in ("rv32imac", "rv32i")]
    res = t.map(lambda j: t.profile(j[1], j[0], DEFAULT_SIZE[j[0]]), jobs)
    R = dict(zip(jobs, res))
    # The profiler must not change the run: the same cycles and instructions
    # as a plain `tally run`.
    plain = t.map(lambda j: t.run(j[1], j[0], DEFAULT_SIZE[j[0]]), jobs)
    for j, d in zip(jobs, plain):
        if (d["cycles"], d["instructions"]) != R[j][:2]:
            raise ExperimentError(f"{j}: tally profile counts {R[j][:2]} differ from tally run's "
                                  f"{(d['cycles'], d['instructions'])}")
    rows = []
    for w, _ in TABLE4_WORKLOADS:
        a, b = R[(w, "rv32imac")], R[(w, "rv32i")]
        arith = sum(r["cycle"] for f, r in b[2].items() if LIBGCC_ARITH.match(f))
        rows.append([f"{w} ({DEFAULT_SIZE[w]} {SIZE_UNIT[w]})", n(a[0]), n(a[1]),
                     f"{a[0] / a[1]:.3f}", n(b[0]), n(b[1]), f"{b[0] / b[1]:.3f}",
                     f"{b[0] / a[0]:.2f}x", pct(100.0 * arith / b[0])])
    out(table(["workload", "rv32imac cycles", "instructions", "CPI", "rv32i cycles",
               "instructions", "CPI", "rv32i / rv32imac cycles",
               "rv32i: libgcc mul/div share"], rows))
    out()
    for w, top in TABLE4_WORKLOADS:
        a, b = R[(w, "rv32imac")], R[(w, "rv32i")]
        sa, sb = shares(a[2], a[0]), shares(b[2], b[0])
        names = (set(sorted(sa, key=lambda f: -sa[f])[:top]) |
                 set(sorted(sb, key=lambda f: -sb[f])[:top]) |
                 {f for f in sb if LIBGCC_ARITH.match(f)})
        names = sorted(names, key=lambda f: (-sb.get(f, 0), f))
        out(f"### {w}")
        out()
        rows = []
        for f in names:
            ra, rb = a[2].get(f), b[2].get(f)
            rows.append([f, n(rb["cycle"]) if rb else "—", pct(sb.get(f, 0)) if rb else "—",
                         n(rb["calls"]) if rb else "—", n(rb["inclusive_cycles"]) if rb else "—",
                         n(ra["cycle"]) if ra else "—", pct(sa.get(f, 0)) if ra else "—",
                         f"{n(ra['mul'])} / {n(ra['div'])}" if ra else "—"])
        out(table(["function", "rv32i self cycles", "rv32i share", "rv32i calls",
                   "rv32i inclusive cycles", "rv32imac self cycles", "rv32imac share", "rv32imac mul / div instructions"],
                  rows))
        out()


TASK_CORES = ["tally5", "vexriscv-imac"]
TASK_RUNS = [("rtos_pipeline", ("400",)), ("rtos_inversion", ()), ("rtos_inversion", ("pi",)),
             ("rtos_control", ("60",))]


def task_profile(t, name, args, core):
    """tally profile --tasks --json: the parsed JSON, checked: the tasks'
    totals add up to the run's in every counted signal."""
    out = t._tmpfile(".tasks.json")
    argv = [t.binary, "profile", "--core", core, "--tasks", "--json", out,
            t.elf("rv32imac", name)] + list(args)
    t._exec(argv)
    with open(out) as f:
        d = json.load(f)
    os.unlink(out)
    for s in d["signals"]:
        if s.startswith("marker"):
            continue
        if sum(k["total"][s] for k in d["tasks"]["list"]) != d["totals"][s]:
            raise ExperimentError(f"the tasks' {s} do not add up to the run's: {' '.join(argv)}")
    return d


def exp_tasks(t, out):
    out("## Tasks — per-task counts on an RTOS (tally profile --tasks)")
    out()
    jobs = [(w, a, c) for w, a in TASK_RUNS for c in TASK_CORES]
    res = dict(zip(jobs, t.map(lambda j: task_profile(t, j[0], j[1], j[2]), jobs)))
    # the task layer changes nothing: the same cycles as a plain tally run
    for (w, a, c), d in res.items():
        out_path = t._tmpfile(".stats.json")
        t._exec([t.binary, "run", "--core", c, "--stats-json", out_path, t.elf("rv32imac", w)] + list(a))
        with open(out_path) as f:
            plain = json.load(f)
        os.unlink(out_path)
        if (plain["cycles"], plain["instructions"]) != (d["totals"]["cycle"], d["totals"]["instret"]):
            raise ExperimentError(f"{w} {a} on {c}: tally profile --tasks counts differ from tally run's")
    for w, a in TASK_RUNS:
        label = " ".join([w] + list(a))
        out(f"### {label}")
        out()
        names = []
        for c in TASK_CORES:
            for k in res[(w, a, c)]["tasks"]["list"]:
                if k["name"] not in names:
                    names.append(k["name"])
        rows = []
        for nm in names:
            row = [nm]
            for c in TASK_CORES:
                d = res[(w, a, c)]
                k = {x["name"]: x for x in d["tasks"]["list"]}.get(nm)
                if not k:
                    row += ["—"] * 5
                    continue
                tt = k["total"]
                row += [n(tt["cycle"]), pct(100.0 * tt["cycle"] / d["totals"]["cycle"]), n(k["switches"]),
                        f"{n(tt['icache.miss'])} / {n(tt['dcache.read_miss'] + tt['dcache.write_miss'])}",
                        n(tt["stall"])]
            rows.append(row)
        tot = ["total"]
        for c in TASK_CORES:
            d = res[(w, a, c)]
            tt = d["totals"]
            tot += [n(tt["cycle"]), "100.00%", "", f"{n(tt['icache.miss'])} / "
                    f"{n(tt['dcache.read_miss'] + tt['dcache.write_miss'])}", n(tt["stall"])]
        rows.append(tot)
        hdr = ["task"]
        for c in TASK_CORES:
            hdr += [f"{c} cycles", "share", "switches", "I$ / D$ misses", "stall cycles"]
        out(table(hdr, rows))
        out()
        ticks = []
        for c in TASK_CORES:
            k = {x["name"]: x for x in res[(w, a, c)]["tasks"]["list"]}.get("irq:7")
            if k and k["switches"]:
                ticks.append(f"{c} {k['total']['cycle'] / k['switches']:.1f}")
        if ticks:
            out("Cycles per timer interrupt (irq:7 cycles / entries, the handler and the trap "
                "penalty): " + ", ".join(ticks) + ".")
            out()


IRQ_WORKLOAD = "rtos_uart"
IRQ_INPUT = os.path.join(REPO, "target", "rtos", "rtos_uart.rx")


def irq_run(t, core):
    """tally run --tasks --uart-rx on rtos_uart: its --stats-json, checked:
    the program's own check passed (status 0), and per source the tasks'
    counts add up to the source's, their min and max to its min and max."""
    out = t._tmpfile(".stats.json")
    t._exec([t.binary, "run", "--core", core, "--tasks=tally", "--uart-rx", IRQ_INPUT, "--stats-json", out,
             t.elf("rv32imac", IRQ_WORKLOAD)])
    with open(out) as f:
        d = json.load(f)
    os.unlink(out)
    if d["exit_status"] != 0:
        raise ExperimentError(f"{IRQ_WORKLOAD} on {core}: exit status {d['exit_status']}")
    for src, v in d["interrupts"].items():
        per = v.get("tasks", [])
        if (not per or sum(k["taken"] for k in per) != v["taken"]
                or min(k["latency_min"] for k in per) != v["latency_min"]
                or max(k["latency_max"] for k in per) != v["latency_max"]):
            raise ExperimentError(f"{IRQ_WORKLOAD} on {core}: irq {src}'s latencies per task do not add up")
    return d


def exp_irq(t, out):
    out("## Interrupt latency per task (tally run --tasks --uart-rx)")
    out()
    res = dict(zip(TASK_CORES, t.map(lambda c: irq_run(t, c), TASK_CORES)))
    for src in sorted({s for d in res.values() for s in d["interrupts"]}, key=int):
        names = []
        for c in TASK_CORES:
            for k in res[c]["interrupts"].get(src, {}).get("tasks", []):
                if k["task"] not in names:
                    names.append(k["task"])
        rows = []
        for nm in names:
            row = [str(nm)]
            for c in TASK_CORES:
                k = {x["task"]: x for x in res[c]["interrupts"].get(src, {}).get("tasks", [])}.get(nm)
                row += ["—"] * 3 if not k else [
                    n(k["taken"]), f"{n(k['latency_min'])} / {n(k['latency_median'])} / {n(k['latency_max'])}",
                    n(k["jitter"])]
            rows.append(row)
        tot = ["all"]
        for c in TASK_CORES:
            v = res[c]["interrupts"].get(src, {})
            tot += [n(v.get("taken", 0)), f"{n(v.get('latency_min', 0))} / {n(v.get('latency_median', 0))} / "
                    f"{n(v.get('latency_max', 0))}", n(v.get("jitter", 0))]
        rows.append(tot)
        hdr = ["running when the line rose"]
        for c in TASK_CORES:
            hdr += [f"{c} interrupts", "latency min / median / max", "jitter"]
        out(f"### {IRQ_WORKLOAD}: PLIC source {src}")
        out()
        out(table(hdr, rows))
        out()
    out("Cycles of each run: " + ", ".join(f"{c} {n(res[c]['cycles'])}" for c in TASK_CORES) + ".")
    out()


# ---------------------------------------------------------------------------
# SnoopP against gprof with -pg: the instrumented program's gprof profile,
# the uninstrumented program's exact profile, and what -pg costs, exactly.

GPROF_TOOL = "riscv64-unknown-elf-gprof"
OBJDUMP_TOOL = "riscv64-unknown-elf-objdump"
# (workload, sizes): dhry at the paper's 100 passes and a long run; aes at
# its default and 10x.
PG_RUNS = [("dhry", [100, 100000]), ("aes", [320, 3200])]
PG_FLAVOUR = "rv32imac-pg"
PG_TOP = 16
PG_RUNTIME = ("_mcount", "gmon_trap", "gmon_write")


def gmon_histogram(path):
    """(low pc, bins) of gmon.out's histogram, read here: gprof leaves out
    the samples that fall in _mcount."""
    with open(path, "rb") as f:
        d = f.read()
    if d[:4] != b"gmon":
        raise ExperimentError(f"{path} is not a gmon.out")
    o, lo, bins = 20, None, []
    while o < len(d):
        if d[o] == 0:
            lo, _hi, nb, _rate = (int.from_bytes(d[o + 1 + 4 * i:o + 5 + 4 * i], "little")
                                  for i in range(4))
            bins = [int.from_bytes(d[o + 33 + 2 * i:o + 35 + 2 * i], "little") for i in range(nb)]
            o += 33 + 2 * nb
        elif d[o] == 1:
            o += 13
        else:
            raise ExperimentError(f"{path}: unknown gmon.out record {d[o]} at offset {o}")
    return lo, bins


def gprof_flat(elf, gmon, cwd):
    """gprof -b -p: {function: (percent, self seconds, calls or None)}."""
    p = subprocess.run([GPROF_TOOL, "-b", "-p", elf, gmon], cwd=cwd, capture_output=True,
                       text=True, timeout=RUN_TIMEOUT)
    if p.returncode != 0:
        raise ExperimentError(f"{GPROF_TOOL} failed on {elf}: {p.stderr[-500:]}")
    flat = {}
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) in (4, 7) and re.fullmatch(r"[0-9.]+", f[0]):
            flat[f[-1]] = (float(f[0]), float(f[2]), int(f[3]) if len(f) == 7 else None)
    return flat


def stage_pg(t, w, size):
    """The -pg ELF copied into its own folder under the same relative path as
    the plain one (same command-line length, so the same start-up)."""
    d = os.path.join(t.tmp, f"pg-{w}-{size}")
    rel = os.path.join("target", "rv32imac", w + ".elf")
    os.makedirs(os.path.join(d, "target", "rv32imac"), exist_ok=True)
    shutil.copyfile(os.path.join(t.build, t.elf(PG_FLAVOUR, w)), os.path.join(d, rel))
    return d, rel


def exp_pg(t, out):
    out("## SnoopP — gprof with -pg against the exact profile, and what -pg costs")
    out()
    if not shutil.which(GPROF_TOOL):
        raise ExperimentError(f"{GPROF_TOOL} not found (Debian package binutils-riscv64-unknown-elf)")
    jobs = [(w, n_) for w, sizes in PG_RUNS for n_ in sizes]
    staged = {j: stage_pg(t, *j) for j in jobs}

    def one(j):
        w, size = j
        d, rel = staged[j]
        st = t.run(PG_FLAVOUR, w, size, extra=["--semihost-files", "rw"], elf=rel, cwd=d)
        gm = next((g for g in (os.path.join(d, "gmon.out"), os.path.join(d, os.path.dirname(rel), "gmon.out"))
                   if os.path.exists(g)), None)
        if not gm:
            raise ExperimentError(f"{w} {size}: the -pg build wrote no gmon.out")
        flat = gprof_flat(rel, gm, d)
        lo, bins = gmon_histogram(gm)
        os.unlink(gm)
        pg = t.profile(PG_FLAVOUR, w, size, elf=rel, cwd=d, extra=["--semihost-files", "rw"])
        plain = t.profile("rv32imac", w, size)
        return st, flat, lo, bins, pg, plain
    R = dict(zip(jobs, t.map(one, jobs)))
    rows = []
    for j in jobs:
        w, size = j
        st, flat, lo, bins, pg, plain = R[j]
        ptot, _, pf, _ = pg
        total, _, f0, _ = plain
        if st["cycles"] != ptot:
            raise ExperimentError(f"{w} {size}: tally run and tally profile of the -pg build differ")
        nsamp = sum(bins)
        if nsamp != st["signals"]["interrupt"]:
            raise ExperimentError(f"{w} {size}: {nsamp} histogram samples, "
                                  f"{st['signals']['interrupt']} timer interrupts")
        # gprof's call counts (from _mcount) against the exact ones (the
        # profile's shadow call stack, plain build)
        for f, (_, _, calls) in flat.items():
            if calls is not None and f0.get(f, {"calls": None})["calls"] != calls:
                raise ExperimentError(f"{w} {size}: gprof counts {calls} calls of {f}, the exact "
                                      f"profile {f0.get(f, {}).get('calls')}")
        mc = pf.get("_mcount", {"cycle": 0, "calls": 0, "lo": "0", "hi": "0"})
        mlo, mhi = int(mc["lo"], 16), int(mc["hi"], 16)
        in_mcount = sum(c for i, c in enumerate(bins) if mlo <= lo + 2 * i < mhi)
        trap = pf.get("gmon_trap", {"cycle": 0})["cycle"]
        mincl = mc.get("inclusive_cycles", 0)
        wincl = pf.get("gmon_write", {"inclusive_cycles": 0})["inclusive_cycles"]
        rest = ptot - total - mincl - wincl - trap
        rows.append([f"{w} {n(size)}", n(total), n(ptot), spct(100.0 * (ptot - total) / total, 1),
                     n(mc["calls"]), n(mincl), pct(100.0 * mincl / ptot, 1),
                     f"{mc['cycle'] / mc['calls']:.1f}" if mc["calls"] else "—",
                     n(trap), n(wincl), f"{rest:+,}",
                     n(nsamp), n(in_mcount), n(nsamp - in_mcount)])
    out("Every program built twice from the same source: plain (`target/rv32imac/`) and with "
        "`-pg` linked with the kit's gprof runtime (`target/pg/gmon.c`: `_mcount`, a 100 Hz "
        "timer histogram, gmon.out at exit; `target/rv32imac-pg/`). Both run on tally5 "
        "(100 MHz); the -pg one with `--semihost-files rw`, then "
        f"`{GPROF_TOOL} -b -p` reads its gmon.out.")
    out()
    out(table(["run", "plain cycles", "-pg cycles", "-pg costs", "_mcount calls",
               "_mcount cycles (inclusive)", "share of the -pg run", "own cycles per _mcount call",
               "timer handler", "writing gmon.out (exit)", "the program's own code",
               "histogram samples", "samples in _mcount", "samples gprof shows"], rows))
    out()
    out("The cost splits exactly into `_mcount` (with the first call's set-up: the "
        "histogram's calloc, atexit), the timer handler, writing gmon.out at exit, and the "
        "rest: the program's own code, which -pg compiles differently (each function saves "
        "`ra` and a register to pass it to `_mcount`, leaf functions get frames) and "
        "crt0's clearing of the larger .bss (the runtime's 4,096-arc table).")
    out()
    out("Checks: every call count gprof prints equals the exact profile's for the plain "
        "build; the histogram holds one sample per timer interrupt tally counted; "
        "`tally run` and `tally profile` of the -pg build agree.")
    out()
    for w, sizes in PG_RUNS:
        st, flat, lo, bins, pg, plain = R[(w, sizes[-1])]
        ptot, _, pf, _ = pg
        total, _, f0, _ = plain
        gsum = sum(v[1] for v in flat.values())
        names = sorted(f0, key=lambda f: -f0[f]["cycle"])[:PG_TOP]
        names += [f for f in PG_RUNTIME if f in pf and f not in names]
        out(f"### {w} {n(sizes[-1])}: gprof's profile of the -pg build beside the exact profile "
            "of the plain one")
        out()
        rows = []
        for f in names:
            a, b = f0.get(f), pf.get(f)
            g = flat.get(f)
            extra = (b["cycle"] - a["cycle"]) if a and b else None
            rows.append([f, pct(100.0 * a["cycle"] / total) if a else "—",
                         pct(g[0], 1) if g else "—",
                         pct(100.0 * b["cycle"] / ptot) if b else "—",
                         n(a["calls"]) if a else "—", n(g[2]) if g and g[2] is not None else "—",
                         n(a["cycle"]) if a else "—", n(b["cycle"]) if b else "—",
                         (f"{extra:+,} in all ({n(a['calls'])} → {n(b['calls'])} calls)"
                          if a and b and a["calls"] != b["calls"] else
                          f"{extra / a['calls']:+.1f}" if a and a["calls"] and extra is not None else
                          (f"{extra:+,} in all" if extra is not None else "—")),
                         n(b["inclusive_cycles"] - a["inclusive_cycles"]) if a and b and a["calls"] else "—"])
        out(table(["function", "exact share (plain)", "gprof % time (-pg)", "exact share (-pg)",
                   "calls (exact)", "calls (gprof)", "self cycles plain", "self cycles -pg",
                   "own code: extra cycles per call", "inclusive cycles added by -pg"], rows))
        out()
        out(f"gprof's shares are of the {gsum:.2f} s of samples it attributes "
            f"({n(round(gsum * 100))} of {n(sum(bins))}); the rest fell in `_mcount`, which gprof "
            "leaves out of its flat profile.")
        out()


# ---------------------------------------------------------------------------
# SnoopP Tables 3, 7 and 8: 16 counters, what they cover

TABLE8_RUNS = [("dhry", [100, 100000]), ("aes", [320, 3200])]
TABLE8_COUNTERS = 16          # the statistics module's default, SnoopP's 16
TABLE8_INTERVAL = 4294967295  # one interval for the run (64-bit counters)


def static_instructions(elf_path, ranges):
    """Instructions (objdump lines) in each [lo, hi) of ranges."""
    p = subprocess.run([OBJDUMP_TOOL, "-d", "--no-show-raw-insn", elf_path], capture_output=True,
                       text=True, timeout=RUN_TIMEOUT)
    if p.returncode != 0:
        raise ExperimentError(f"{OBJDUMP_TOOL} failed on {elf_path}")
    addrs = [int(m.group(1), 16) for m in re.finditer(r"^\s*([0-9a-f]+):\t", p.stdout, re.M)]
    return [sum(1 for a in addrs if lo <= a < hi) for lo, hi in ranges]


def exp_table8(t, out):
    out("## SnoopP Tables 3, 7 and 8 — sixteen counters: where they go, what they cover")
    out()
    out(f"The statistics module with its default {TABLE8_COUNTERS} counters (`tally run --count`): "
        "counter 0 counts every cycle (the paper's \"Entire Program\"), counters 1-15 the cycles "
        "in the own code of the fifteen functions with the most self cycles in the exact profile "
        "of the longer run. Each function's counter is compared with its self cycles in `tally "
        "profile` (the same run, counted by another part of tally), and with the run's total.")
    out()
    jobs = [(w, n_) for w, sizes in TABLE8_RUNS for n_ in sizes]
    profs = dict(zip(jobs, t.map(lambda j: t.profile("rv32imac", j[0], j[1]), jobs)))
    chosen = {}
    for w, sizes in TABLE8_RUNS:
        total, _, funcs, _ = profs[(w, sizes[-1])]
        chosen[w] = sorted((f for f in funcs if funcs[f]["cycle"]),
                           key=lambda f: -funcs[f]["cycle"])[:TABLE8_COUNTERS - 1]

    def counters(j):
        w, size = j
        csvp = t._tmpfile(".intervals.csv")
        extra = ["--no-store", "--width", "64", "--interval", str(TABLE8_INTERVAL),
                 "--intervals-csv", csvp, "--count", "cycle"]
        for f in chosen[w]:
            extra += ["--count", f"cycle@{f}"]
        st = t.run("rv32imac", w, size, extra=extra)
        with open(csvp, newline="") as fh:
            rows = list(csv.reader(fh))
        os.unlink(csvp)
        k = len(chosen[w]) + 1
        tot = [r for r in rows[1:] if r[0] == "total"]
        if len(tot) != 1:
            raise ExperimentError(f"{j}: no total row in --intervals-csv")
        sums = [int(tot[0][3 + i]) for i in range(k)]
        for i in range(k):
            if any(int(r[3 + k + i]) for r in rows[1:] if r[0] != "total"):
                raise ExperimentError(f"{j}: counter {i} saturated")
            if sum(int(r[3 + i]) for r in rows[1:] if r[0] != "total") != sums[i]:
                raise ExperimentError(f"{j}: counter {i}'s intervals do not add up to its total")
        return st, sums
    C = dict(zip(jobs, t.map(counters, jobs)))
    for w, sizes in TABLE8_RUNS:
        elf_path = os.path.join(t.build, t.elf("rv32imac", w))
        funcs_long = profs[(w, sizes[-1])][2]
        ranges = [(int(funcs_long[f]["lo"], 16), int(funcs_long[f]["hi"], 16)) for f in chosen[w]]
        ninsn = static_instructions(elf_path, ranges)
        allinsn = static_instructions(elf_path, [(0, 1 << 32)])[0]
        for j in [(w, s_) for s_ in sizes]:
            st, sums = C[j]
            total, _, funcs, _ = profs[j]
            if sums[0] != total or st["cycles"] != total:
                raise ExperimentError(f"{j}: counter 0 counts {sums[0]}, the run has {total} cycles")
            for f, c in zip(chosen[w], sums[1:]):
                if c != funcs.get(f, {"cycle": 0})["cycle"]:
                    raise ExperimentError(f"{j}: counter of {f} = {c}, its exact self cycles = "
                                          f"{funcs.get(f, {'cycle': 0})['cycle']}")
        out(f"### {w}: counter assignments (Tables 3 and 7) and results (Table 8)")
        out()
        rows = [["0", "entire program", n(allinsn)] +
                [x for s_ in sizes for x in (n(C[(w, s_)][1][0]), "100.00%")]]
        for i, f in enumerate(chosen[w]):
            rows.append([f"{i + 1:X}", f, n(ninsn[i])] +
                        [x for s_ in sizes for x in (n(C[(w, s_)][1][i + 1]),
                                                     pct(100.0 * C[(w, s_)][1][i + 1] / C[(w, s_)][1][0]))])
        cov = {s_: sum(C[(w, s_)][1][1:]) for s_ in sizes}
        rows.append(["1-F", "covered by the 15", n(sum(ninsn)) + f" ({pct(100.0 * sum(ninsn) / allinsn, 1)})"] +
                    [x for s_ in sizes for x in (n(cov[s_]), pct(100.0 * cov[s_] / C[(w, s_)][1][0]))])
        out(table(["counter", "region", "instructions"] +
                  [x for s_ in sizes for x in (f"cycles, {n(s_)} {SIZE_UNIT.get(w, 'passes')}", "share")],
                  rows, "ll" + "r" * (1 + 2 * len(sizes))))
        out()
        out(f"Every counter equals the function's exact self cycles in `tally profile` at both "
            f"sizes, and counter 0 the run's cycles. Coverage: "
            + ", ".join(f"{pct(100.0 * cov[s_] / C[(w, s_)][1][0])} at {n(s_)}" for s_ in sizes)
            + ".")
        out()


# ---------------------------------------------------------------------------
# DSPInst Figure 9: data-cache misses over time

FIG9_WORKLOAD, FIG9_SIZE, FIG9_CORE, FIG9_INTERVAL = "mcomp", 5, "dsp500", 100000
FIG9_FILE = "fig9-dcache-misses.png"


def exp_fig9(t, out, figures):
    out("## DSPInst Figure 9 — data-cache misses over time")
    out()
    csvp = t._tmpfile(".intervals.csv")
    extra = ["--no-store", "--interval", str(FIG9_INTERVAL), "--intervals-csv", csvp,
             "--count", "dcache.read_miss", "--count", "dcache.write_miss"]
    st = t.run("rv32imac", FIG9_WORKLOAD, FIG9_SIZE, core=FIG9_CORE, extra=extra)
    with open(csvp, newline="") as fh:
        rows = list(csv.reader(fh))
    head, body = rows[0], [r for r in rows[1:] if r[0] != "total"]
    begin = [int(r[1]) for r in body]
    rd = [int(r[3]) for r in body]
    wr = [int(r[4]) for r in body]
    if sum(rd) != st["signals"]["dcache.read_miss"] or sum(wr) != st["signals"]["dcache.write_miss"]:
        raise ExperimentError(f"fig9: the intervals add up to {sum(rd)} / {sum(wr)} misses, the run "
                              f"has {st['signals']['dcache.read_miss']} / "
                              f"{st['signals']['dcache.write_miss']}")
    mhz = st["frequency_mhz"]
    out(f"`{FIG9_WORKLOAD} {FIG9_SIZE}` on `{FIG9_CORE}` ({mhz} MHz): `tally run --count "
        f"dcache.read_miss --count dcache.write_miss --interval {n(FIG9_INTERVAL)} --intervals-csv`, "
        f"{len(body)} intervals of {n(FIG9_INTERVAL)} cycles ({FIG9_INTERVAL / mhz:.0f} µs); the "
        f"intervals add up to the run's {n(sum(rd))} read and {n(sum(wr))} write misses "
        "(checked).")
    out()
    busiest = sorted(range(len(body)), key=lambda i: -(rd[i] + wr[i]))[:3]
    out("Busiest intervals: " + ", ".join(
        f"{begin[i] / mhz / 1000:.2f} ms ({n(rd[i] + wr[i])} misses)" for i in busiest) +
        f"; quiet (under 10 misses): {sum(1 for a, b in zip(rd, wr) if a + b < 10)} of {len(body)}.")
    out()
    if not figures:
        os.unlink(csvp)
        out("(No figure drawn: --figures none.)")
        out()
        return
    os.makedirs(figures, exist_ok=True)
    path = os.path.join(figures, FIG9_FILE)
    # scripts/intervals-plot.py needs matplotlib: Debian's python3 has it
    # (python3-matplotlib) when the python3 running this script may not.
    py = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
    p = subprocess.run([py, os.path.join(REPO, "scripts", "intervals-plot.py"), csvp, path,
                        "--mhz", str(mhz), "--title",
                        f"D-cache misses over time: {FIG9_WORKLOAD} {FIG9_SIZE} on {FIG9_CORE}"],
                       capture_output=True, text=True, timeout=RUN_TIMEOUT)
    os.unlink(csvp)
    if p.returncode != 0:
        raise ExperimentError(f"fig9: drawing failed: {p.stderr.strip()[-500:]}")
    with open(path, "rb") as fh:
        if fh.read(8) != b"\x89PNG\r\n\x1a\n":
            raise ExperimentError(f"fig9: {path} is not a PNG file")
    out(f"![D-cache misses over time]({os.path.relpath(path, os.path.join(REPO, 'docs'))})")
    out()


# ---------------------------------------------------------------------------
# DSPInst section 5: profile-guided DVFS (tally dvfs), Figures 10 and 11

DVFS_CORE = "dsp500"
DVFS_WORKLOADS = ["mcomp", "rotate", "spmv", "dhrystone", "aes", "heapsort", "hanoi", "crc32",
                  "matmul", "blast", "qsort", "fft", "dct"]
DVFS_MEMORY_BOUND = ["mcomp", "rotate", "spmv"]
DVFS_OPTS = ["--max-slowdown", "5"]          # besides the defaults (thresholds, loop regions, oracle)
DVFS_OWN_LIMITS_OPTS = ["--no-oracle"]       # the runs at the limits the trade-off curves suggest
DVFS_FRONTIER_BUDGETS = ["0.80%", "2.00%"]    # the paper's average slowdown; if nothing fits, 2%
DVFS_3POINTS = "500:1.2,375:1.1,250:1.0"
DVFS_3POINTS_WORKLOADS = ["blast", "spmv", "rotate", "mcomp"]
DVFS_3POINTS_OPTS = []
DVFS_PICTURES = ["rotate", "blast", "spmv"]   # --svg: the paper's Figures 10 and 11
DVFS_TIMEOUT = 3600                           # one tally dvfs (the oracle runs up to 64 programs)
DVFS_SIZE = {}                                # sizes other than DEFAULT_SIZE's (--small)
DVFS_SMALL_MODEL = None                       # --small: dsp500 scaled down (small_dvfs_model)


def with_limit(opts, limit):
    """opts with --max-slowdown set to limit."""
    o = list(opts)
    if "--max-slowdown" in o:
        i = o.index("--max-slowdown")
        del o[i:i + 2]
    return o + ["--max-slowdown", str(limit)]


def small_dvfs_model(t):
    """--small: dsp500 with a 2 KiB D-cache and a 100-cycle PLL relock, so
    that a small run has memory-bound loops worth switching (written to the
    scratch folder; the rest of the model is cores/dsp500.ini's)."""
    with open(os.path.join(REPO, "cores", "dsp500.ini")) as fh:
        text = fh.read()
    small = re.sub(r"(?m)^name = dsp500$", "name = dsp500-small", text)
    small = re.sub(r"(?ms)(^\[dcache\].*?^size = )32K$", r"\g<1>2K", small)
    small = re.sub(r"(?m)^pll_relock_cycles = \d+", "pll_relock_cycles = 100", small)
    if small.count("dsp500-small") != 1 or "size = 2K" not in small or "pll_relock_cycles = 100" not in small:
        raise ExperimentError("dvfs --small: cores/dsp500.ini no longer has the keys the small model changes")
    path = os.path.join(t.tmp, "dsp500-small.ini")
    with open(path, "w") as fh:
        fh.write(small)
    return path

_NUM = r"(\d+)\s+([\d.]+)\s+([\d.]+)"
_PCT = r"([-+][\d.]+)%"


def parse_dvfs(text, argv):
    """The figures of a tally dvfs report: the measured table's rows
    (region, point, original and switched cycles / us / uJ, time and energy
    change), its "outside" and "whole run" rows, and the references."""
    lines = text.splitlines()
    try:
        start = next(i for i, ln in enumerate(lines) if ln.startswith("measured on tally"))
    except StopIteration:
        raise ExperimentError(f"no measured table in the report of {' '.join(argv)}")
    rows, outside, whole = [], None, None
    for ln in lines[start:]:
        m = re.match(r"^  (.+?)\s+(\d+)/(\d\.\d\d)\s+" + _NUM + r"\s+" + _NUM + r"\s+" + _PCT + r"\s+" + _PCT + "$",
                     ln)
        if m:
            r = {"region": m.group(1), "mhz": int(m.group(2)), "volt": m.group(3),
                 "orig": (int(m.group(4)), float(m.group(5)), float(m.group(6))),
                 "dvfs": (int(m.group(7)), float(m.group(8)), float(m.group(9))),
                 "time": float(m.group(10)), "energy": float(m.group(11))}
            if r["region"] == "outside the regions":
                outside = r
            else:
                rows.append(r)
            continue
        m = re.match(r"^  whole run\s+" + _NUM + r"\s+" + _NUM + r"\s+" + _PCT + r"\s+" + _PCT + "$", ln)
        if m:
            whole = {"orig": (int(m.group(1)), float(m.group(2)), float(m.group(3))),
                     "dvfs": (int(m.group(4)), float(m.group(5)), float(m.group(6))),
                     "time": float(m.group(7)), "energy": float(m.group(8))}
            break
    if outside is None or whole is None:
        raise ExperimentError(f"the measured table has no outside or whole-run row: {' '.join(argv)}")
    ref = r"\s+(\d+) cycles\s+([\d.]+) us\s+([\d.]+) uJ"
    chg = r"\s+time\s+" + _PCT + r"\s+energy\s+" + _PCT
    m = re.search(r"^  original" + ref + "$", text, re.M)
    tool = re.search(r"^  tally dvfs" + ref + chg, text, re.M)
    if not m or not tool:
        raise ExperimentError(f"no original or tally dvfs reference row: {' '.join(argv)}")
    statics = [(s.group(1), int(s.group(2)), float(s.group(5)), float(s.group(6)))
               for s in re.finditer(r"^  static (\S+) \(whole program\)" + ref + chg, text, re.M)]
    orc = re.search(r"^  oracle \((\w+), (\d+) runs?\)" + ref + chg, text, re.M)
    return {"rows": rows, "outside": outside, "whole": whole,
            "original": (int(m.group(1)), float(m.group(2)), float(m.group(3))),
            "tool": (int(tool.group(1)), float(tool.group(4)), float(tool.group(5))),
            "statics": statics,
            "oracle": (orc.group(1), int(orc.group(2)), float(orc.group(6)), float(orc.group(7))) if orc else None}


def dvfs_run(t, name, opts, core, svg=None, csvp=None):
    """tally dvfs on one workload; OUT.elf keeps the workload's file name
    (in a folder of its own) so that `tally run` gives it the same argv[0].
    Checks the report's sums and both programs against tally run."""
    size = DVFS_SIZE.get(name, DEFAULT_SIZE[name])
    outdir = t._tmpfile(".dvfs")
    os.makedirs(outdir)
    out_elf = os.path.join(outdir, name + ".elf")
    argv = [t.binary, "dvfs", "--core", core] + list(opts)
    if csvp:
        argv += ["--tradeoff-csv", csvp]
    if svg:
        argv += ["--svg", svg]
    argv += [t.elf("rv32imac", name), "-o", out_elf, str(size)]
    p = t._exec(argv, timeout=DVFS_TIMEOUT, want_ok=False)
    r = parse_dvfs(p.stdout, argv)
    r["report"] = p.stdout.rstrip("\n").replace(t.tmp + os.sep, "OUT.")
    w, rows = r["whole"], r["rows"] + [r["outside"]]
    for k in ("orig", "dvfs"):
        if sum(x[k][0] for x in rows) != w[k][0]:
            raise ExperimentError(f"dvfs {name}: the measured rows' cycles do not add up to the whole run's "
                                  f"({k}): {' '.join(argv)}")
        for i, unit in ((1, "us"), (2, "uJ")):
            if abs(sum(x[k][i] for x in rows) - w[k][i]) > 0.002 * len(rows):
                raise ExperimentError(f"dvfs {name}: the measured rows' {unit} do not add up to the whole "
                                      f"run's ({k}): {' '.join(argv)}")
    if w["orig"][0] != r["original"][0] or w["dvfs"][0] != r["tool"][0]:
        raise ExperimentError(f"dvfs {name}: the measured table and the references disagree: {' '.join(argv)}")
    limit = float(opts[opts.index("--max-slowdown") + 1]) if "--max-slowdown" in opts else 5.0
    if r["tool"][1] > limit:
        raise ExperimentError(f"dvfs {name}: {r['tool'][1]:+.2f}% time, over --max-slowdown {limit}")
    if r["oracle"] and r["oracle"][0] == "exhaustive" and r["oracle"][3] > r["tool"][2] + 1e-9:
        raise ExperimentError(f"dvfs {name}: the exhaustive oracle takes more energy than the tool")
    # both programs again, by tally run: the same cycles, time and energy
    for which, elf, want in (("original", None, r["original"]), ("DVFS'd", out_elf, w["dvfs"])):
        st = t.run("rv32imac", name, size, core=core, elf=elf)
        e_uj = st["energy_j"]["total"] * 1e6
        # --stats-json's seconds have 9 significant digits
        if st["cycles"] != want[0] or abs(st["seconds"] * 1e6 - want[1]) > max(0.002, 2e-8 * want[1]) or \
                abs(e_uj - want[2]) > max(0.002, 1e-5 * e_uj):
            raise ExperimentError(f"dvfs {name}: tally run of the {which} program gives {st['cycles']} cycles, "
                                  f"{st['seconds'] * 1e6:.3f} us, {e_uj:.3f} uJ; the report {want}")
    return r


def frontier_limits(text):
    """From frontier.py's table: the workloads in the best choice at the
    paper's average slowdown (or, when that choice is empty, at 2%), each
    with its slowdown there rounded up to the trade-off CSV's 0.25% steps:
    the --max-slowdown its own curve suggests."""
    for budget in DVFS_FRONTIER_BUDGETS:
        m = re.search(r"^\| " + re.escape(budget) + r" \| [\d.]+% \| (.*) \|$", text, re.M)
        if m and m.group(1) != "none":
            return budget, [(w, math.ceil(float(x) / 0.25 - 1e-9) * 0.25)
                            for w, x in re.findall(r"(\S+): \+([\d.]+)%", m.group(1))]
    return None, []


def region_names(r):
    return ", ".join(f"`{x['region']}`" for x in r["rows"]) or "none"


def exp_dvfs(t, out, figures):
    out("## DSPInst section 5 — profile-guided DVFS (Figures 10 and 11)")
    out()
    opts = DVFS_OPTS
    core = small_dvfs_model(t) if DVFS_SMALL_MODEL else DVFS_CORE
    csvdir = t._tmpfile(".tradeoff")
    os.makedirs(csvdir)
    pictures = {}
    if figures:
        os.makedirs(figures, exist_ok=True)

    def one(w):
        svg = os.path.join(figures, f"dvfs-{w}.svg") if figures and w in DVFS_PICTURES else None
        if svg:
            pictures[w] = svg
        return dvfs_run(t, w, opts, core, svg=svg, csvp=os.path.join(csvdir, w + ".csv"))
    res = dict(zip(DVFS_WORKLOADS, t.map(one, DVFS_WORKLOADS)))
    model = DVFS_CORE if core == DVFS_CORE else f"{DVFS_SMALL_MODEL} (dsp500 with a 2 KiB D-cache and a 100-cycle PLL relock)"
    out(f"`tally dvfs --core {DVFS_CORE if core == DVFS_CORE else 'MODEL'} {' '.join(opts)}` on {model}, "
        f"{len(DVFS_WORKLOADS)} workloads (rv32imac, sizes " +
        ", ".join(f"{w} {DVFS_SIZE.get(w, DEFAULT_SIZE[w])}" for w in DVFS_WORKLOADS) + "); time "
        "and energy of whole runs against the original, measured by running both on tally. Checked: "
        "the measured table's rows add up to the whole run, which equals the references and "
        "`tally run` of both programs (cycles, time, energy); the time is within the limit; the "
        "tool never takes less energy than the exhaustive oracle.")
    out()
    rows, sums = [], {"all": [0.0, 0.0, 0], "memory-bound": [0.0, 0.0, 0]}
    for w in DVFS_WORKLOADS:
        r = res[w]
        orc = r["oracle"]
        st = r["statics"][-1] if r["statics"] else None
        rows.append([w, region_names(r), spct(r["tool"][1]), spct(r["tool"][2]),
                     f"({orc[0]}, {orc[1]}) {spct(orc[2])} / {spct(orc[3])}" if orc else "not run",
                     f"{st[0]}: {spct(st[2])} / {spct(st[3])}" if st else ""])
        for k in ("all", "memory-bound"):
            if k == "all" or w in DVFS_MEMORY_BOUND:
                sums[k][0] += r["tool"][1]
                sums[k][1] += r["tool"][2]
                sums[k][2] += 1
    for k, (tm, en, cnt) in sums.items():
        if cnt:
            rows.append([f"**average, {k} ({cnt})**", "", f"**{spct(tm / cnt)}**", f"**{spct(en / cnt)}**", "", ""])
    out(table(["workload", "chosen regions", "tally dvfs time", "energy", "oracle (kind, runs) time / energy",
               "slowest static point: time / energy"], rows, "llrrll"))
    out()
    out("Per region (the paper's Figures 10 and 11: each chosen region's own instructions, and the "
        "code outside them with the switch code and its relocks):")
    out()
    prow = []
    for w in DVFS_WORKLOADS:
        for x in res[w]["rows"] + ([res[w]["outside"]] if res[w]["rows"] else []):
            prow.append([w, f"`{x['region']}`" if x is not res[w]["outside"] else "outside the regions",
                         f"{x['mhz']}/{x['volt']}", n(x["orig"][0]), n(x["dvfs"][0]), spct(x["time"]),
                         spct(x["energy"])])
    out(table(["workload", "region", "MHz/V", "cycles (original)", "cycles (switched)", "time", "energy"],
              prow or [["(none)", "", "", "", "", "", ""]], "lllrrrr"))
    out()
    for w, svg in pictures.items():
        if not os.path.exists(svg) or b"<svg" not in open(svg, "rb").read(4096):
            raise ExperimentError(f"dvfs: tally dvfs --svg wrote no SVG picture to {svg}")
        out(f"![{w}: time and energy of the switched regions, outside them and of the whole run]"
            f"({os.path.relpath(svg, os.path.join(REPO, 'docs'))})")
        out()
    out("The paper's average, met with each workload at its own point of its trade-off curve "
        "(`--tradeoff-csv`; the best average over all the workloads for each average slowdown, "
        "predicted, by bench/dvfs/frontier.py):")
    out()
    p = subprocess.run([sys.executable, os.path.join(REPO, "bench", "dvfs", "frontier.py"), csvdir]
                       + DVFS_WORKLOADS, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    if p.returncode != 0:
        raise ExperimentError(f"dvfs: frontier.py failed: {p.stderr.strip()[-500:]}")
    out(p.stdout.rstrip("\n"))
    out()

    # each workload at its own limit, run for real
    main_limit = float(opts[opts.index("--max-slowdown") + 1])
    budget, chosen = frontier_limits(p.stdout)
    limits = {w: lim for w, lim in chosen if lim < main_limit}
    own = dict(zip(limits, t.map(
        lambda w: dvfs_run(t, w, with_limit(opts, f"{limits[w]:g}") + DVFS_OWN_LIMITS_OPTS, core), limits)))
    orow, tt, te = [], 0.0, 0.0
    for w in DVFS_WORKLOADS:
        r = own.get(w, res[w])
        tt += r["tool"][1]
        te += r["tool"][2]
        if r["rows"] or w in own:
            orow.append([w, f"{limits.get(w, main_limit):g}%", spct(r["tool"][1]), spct(r["tool"][2])])
    nw = len(DVFS_WORKLOADS)
    orow.append([f"**average, all {nw}**", "", f"**{spct(tt / nw)}**", f"**{spct(te / nw)}**"])
    out(f"Run for real, each workload of the best choice at {budget or 'any'} average slowdown with "
        "its point's slowdown, rounded up to 0.25%, as its limit (" +
        (", ".join(f"{w} `--max-slowdown {lim:g}`" for w, lim in limits.items()) or "none below "
         f"{main_limit:g}%") + f"; the others at {main_limit:g}% as above; workloads that switch nothing "
        "are left out of the rows, not the average):")
    out()
    out(table(["workload", "limit", "tally dvfs time", "energy"], orow, "lrrr"))
    out()

    # three operating points
    three = t.map(lambda w: dvfs_run(t, w, opts + ["--points", DVFS_3POINTS] + DVFS_3POINTS_OPTS, core),
                  DVFS_3POINTS_WORKLOADS)
    trow = []
    for w, r in zip(DVFS_3POINTS_WORKLOADS, three):
        orc = r["oracle"]
        m = re.search(r": ([\d.]+)% of the oracle's saving", r["report"])
        trow.append([w, spct(r["tool"][1]), spct(r["tool"][2]),
                     f"({orc[0]}, {orc[1]}) {spct(orc[2])} / {spct(orc[3])}" if orc else "not run",
                     f"{m.group(1)}%" if m else "", region_names(r)])
    out(f"With three operating points (`--points {DVFS_3POINTS}`; the middle one an assumption "
        "between the paper's two):")
    out()
    out(table(["workload", "tally dvfs time", "energy", "oracle (kind, runs) time / energy",
               "share of the oracle's saving", "regions"], trow, "lrrlrl"))
    out()
    out("<details><summary>The tally dvfs reports</summary>")
    out()
    for title, r in [(w, res[w]) for w in DVFS_WORKLOADS] + \
            [(f"{w} --max-slowdown {limits[w]}", own[w]) for w in own] + \
            [(f"{w} --points {DVFS_3POINTS}", r) for w, r in zip(DVFS_3POINTS_WORKLOADS, three)]:
        out(f"#### {title}")
        out()
        out("```")
        out(r["report"])
        out("```")
        out()
    out("</details>")
    out()


# ---------------------------------------------------------------------------
# Statistics Module paper, Fig. 3: the module's area against the naive
# design (yosys, through rtl/area.py). Hours at the paper's sizes, so only
# with --area (or --only area); --small sweeps two sizes on iCE40 in minutes.

AREA_KS, AREA_R, AREA_FAMILIES = [2, 4, 8, 16], 32, ["ice40", "xilinx"]
AREA_FILE = "rtl-area.png"
AREA_TIMEOUT = 6 * 3600


def exp_area(t, out, figures):
    out("## Statistics Module Fig. 3 — the module's area against the naive design (yosys)")
    out()
    if not shutil.which("yosys"):
        raise ExperimentError("area: no yosys on PATH (Debian's yosys; scripts/install-deps.sh)")
    sys.path.insert(0, os.path.join(REPO, "rtl"))
    import area  # noqa: E402  (rtl/area.py: the synthesis and the hand count of flip-flops)
    work, docs = t._tmpfile(".synth"), t._tmpfile(".area")
    py = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
    argv = [py, os.path.join(REPO, "rtl", "area.py"), "sweep", work, docs, ",".join(AREA_FAMILIES),
            ",".join(str(k) for k in AREA_KS), str(AREA_R)]
    with t.lock:
        t.commands.append("rtl/area.py sweep OUT.synth OUT.area " + " ".join(argv[5:]))
    p = subprocess.run(argv, capture_output=True, text=True, timeout=AREA_TIMEOUT)
    if p.returncode != 0:
        raise ExperimentError(f"area: rtl/area.py sweep failed (exit {p.returncode}): {p.stderr.strip()[-800:]}")
    with open(os.path.join(docs, "rtl-area.csv"), newline="") as fh:
        rows = list(csv.DictReader(fh))
    want = len(AREA_KS) * 4 * len(AREA_FAMILIES) + (len(AREA_FAMILIES) if 4 in AREA_KS else 0)
    if len(rows) != want:
        raise ExperimentError(f"area: {len(rows)} synthesis results, {want} expected")
    for r in rows:
        S, P, N, R, luts, ffs = (int(r[k]) for k in ("S", "P", "N", "R", "luts", "ffs"))
        if luts <= 0 or (r["design"] == "statmod" and ffs < area.min_ffs(S, P, N, R)):
            raise ExperimentError(f"area: {r['series']} S={S} P={P} n={N} R={R} on {r['family']}: {luts} LUTs, "
                                  f"{ffs} flip-flops, fewer than the {area.min_ffs(S, P, N, R)} the module keeps")
    out(f"`rtl/area.py sweep` (yosys `synth_ice40`/`synth_xilinx`): from 2 signals, 2 ARRs and 2 counters "
        f"of R = {AREA_R} bits, one raised at a time to k = {', '.join(map(str, AREA_KS))}; the naive design "
        "with k signals, k ARRs and k² counters. Checked: every statistics-module build keeps at least "
        "the flip-flops counted by hand (rtl/area.py min_ffs).")
    out()
    out(table(["series", "family", "k", "S", "P", "n", "R", "LUTs", "flip-flops"],
              [[r["series"], r["family"], r["k"], r["S"], r["P"], r["N"], r["R"], n(int(r["luts"])),
                n(int(r["ffs"]))] for r in rows], "llrrrrrrr"))
    out()
    png = os.path.join(docs, "images", "rtl-area.png")
    if figures and os.path.exists(png):
        os.makedirs(figures, exist_ok=True)
        dest = os.path.join(figures, AREA_FILE)
        shutil.copyfile(png, dest)
        out(f"![LUTs as S, P and n grow, and the naive design]({os.path.relpath(dest, os.path.join(REPO, 'docs'))})")
        out()
    elif figures:
        raise ExperimentError("area: rtl/area.py drew no plot (python3-matplotlib for /usr/bin/python3)")


# ---------------------------------------------------------------------------
# --small: the same experiments and checks at sizes that run in seconds.

SMALL_SIZE = {
    "dhrystone": 200, "aes": 2, "heapsort": 200, "hanoi": 6, "crc32": 16,
    "matmul": 8, "blast": 1, "qsort": 200, "fft": 1, "dct": 1,
}


def use_small_sizes():
    global FIG5_SIZE, GPROF_LONG, GPROF_PHASE_EXTRA, GPROF_CHECK_SIZE, FIG9_WORKLOAD, FIG9_SIZE, FIG9_INTERVAL
    DEFAULT_SIZE.update(SMALL_SIZE)
    FIG4_VARIANTS[:] = FIG4_VARIANTS[:2] + FIG4_VARIANTS[-3:-2]
    FIG4_WORKLOADS[:] = ["heapsort", "hanoi"]      # blast indexes 8M instructions at any size
    FIG4_VARIANT_WORKLOADS[:] = ["heapsort"]
    FIG5_SIZE = 2000
    FIG5_CONFIGS[:] = FIG5_CONFIGS[:2] + FIG5_CONFIGS[-2:]
    GPROF_FACTORS[:] = [1, 2, 4]
    GPROF_LONG = 4
    GPROF_PERIODS[:] = ["100us", "10us"]
    GPROF_PHASE_FACTORS[:] = [1]
    GPROF_PHASE_EXTRA = 1
    GPROF_CHECK_SIZE = 1
    PG_RUNS[:] = [("dhry", [100, 2000]), ("aes", [2])]
    TABLE8_RUNS[:] = [("dhry", [10, 100]), ("aes", [2])]
    FIG9_WORKLOAD, FIG9_SIZE, FIG9_INTERVAL = "heapsort", 200, 5000
    global DVFS_SMALL_MODEL
    DVFS_SMALL_MODEL = "dsp500-small"
    DVFS_WORKLOADS[:] = ["heapsort"]
    DVFS_SIZE["heapsort"] = 2000
    DVFS_OPTS[:] = ["--max-slowdown", "5", "--min-misses", "500", "--min-relocks", "2",
                    "--switch-cycles", "500", "--no-oracle"]
    DVFS_OWN_LIMITS_OPTS[:] = ["--no-oracle", "--descent-only"]
    DVFS_3POINTS_WORKLOADS[:] = ["heapsort"]
    DVFS_3POINTS_OPTS[:] = ["--descent-only"]
    DVFS_PICTURES[:] = ["heapsort"]
    global AREA_R, AREA_FILE
    AREA_KS[:], AREA_R, AREA_FAMILIES[:], AREA_FILE = [2, 3], 8, ["ice40"], "rtl-area-small.png"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(REPO, "build"),
                    help="build folder with tally and target/ (default: build/)")
    ap.add_argument("--tally", help="the tally binary (default: BUILD/tally)")
    ap.add_argument("--only", help="comma-separated subset of " + ",".join(EXPERIMENTS + OPTIONAL_EXPERIMENTS))
    ap.add_argument("--area", action="store_true",
                    help="also the area sweep (yosys: hours; minutes with --small)")
    ap.add_argument("--jobs", type=int, default=2, help="simulations at a time (default 2)")
    ap.add_argument("--output", help="also write the Markdown to this file (as it is made; "
                    "a failed check is written there too)")
    ap.add_argument("--small", action="store_true",
                    help="every experiment at small sizes and fewer configurations: the same "
                    "checks in seconds (the CTest experiments.small); the numbers are not the "
                    "documented ones")
    ap.add_argument("--no-commands", action="store_true",
                    help="leave out the list of every command run")
    ap.add_argument("--figures", default=os.path.join(REPO, "docs", "images"),
                    help="folder for the figures (default docs/images; 'none': draw none)")
    args = ap.parse_args()
    figures = None if args.figures == "none" else os.path.abspath(args.figures)
    build = os.path.abspath(args.build)
    tally = os.path.abspath(args.tally or os.path.join(build, "tally"))
    if not os.access(tally, os.X_OK):
        sys.exit(f"experiments.py: no tally binary at {tally} (--tally or --build)")
    only = args.only.split(",") if args.only else EXPERIMENTS + (OPTIONAL_EXPERIMENTS if args.area else [])
    for e in only:
        if e not in EXPERIMENTS + OPTIONAL_EXPERIMENTS:
            sys.exit(f"experiments.py: unknown experiment {e!r} (one of "
                     f"{', '.join(EXPERIMENTS + OPTIONAL_EXPERIMENTS)})")

    if args.small:
        use_small_sizes()
    t = Tally(tally, build, max(1, args.jobs))
    try:
        out = Report(args.output)
    except OSError as e:
        sys.exit(f"experiments.py: --output {args.output}: {e.strerror}")
    started = datetime.datetime.now(datetime.timezone.utc)
    out("# Experiment tables")
    out()
    out(f"- date: {started.strftime('%Y-%m-%d %H:%M UTC')}")
    out(f"- machine: {cpu_model()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}")
    # paths inside the checkout are said relative to it: the tables do not
    # depend on where it was cloned
    def here(path):
        rel = os.path.relpath(os.path.abspath(path), REPO)
        return path if rel.startswith("..") else rel
    out(f"- tally: {first_line([tally, '--version'])} ({here(tally)}); this checkout: "
        f"git {first_line(['git', '-C', REPO, 'describe', '--always', '--dirty'])}")
    out(f"- workloads: {here(build)}/target/")
    out(f"- cross compiler: {first_line(['riscv64-unknown-elf-gcc', '--version'])}")
    out(f"- python: {platform.python_version()}")
    out(f"- command: bench/experiments.py {' '.join(shlex.quote(here(a) if os.path.isabs(a) else a) for a in sys.argv[1:])}".rstrip())
    out(f"- working directory of every tally run: the build folder "
        f"(ELF paths target/<flavour>/<name>.elf)")
    out()
    try:
        for e in only:
            {"fig4": exp_fig4, "fig5": exp_fig5, "gprof": exp_gprof, "table4": exp_table4,
             "pg": exp_pg, "table8": exp_table8,
             "fig9": lambda t, out: exp_fig9(t, out, figures),
             "tasks": exp_tasks, "irq": exp_irq,
             "dvfs": lambda t, out: exp_dvfs(t, out, figures),
             "area": lambda t, out: exp_area(t, out, figures)}[e](t, out)
    except ExperimentError as err:
        out(f"**Stopped: {err}**")
        out.close()
        sys.exit(f"experiments.py: {err}")
    finally:
        t.pool.shutdown(wait=True)
        shutil.rmtree(t.tmp, ignore_errors=True)
    ended = datetime.datetime.now(datetime.timezone.utc)
    out(f"{len(t.commands)} simulations, {(ended - started).total_seconds():.0f} s of wall time "
        f"with {args.jobs} at a time.")
    out()
    if not args.no_commands:
        out("<details><summary>Every command run (OUT.* is a temporary file)</summary>")
        out()
        out("```")
        for c in t.commands:
            out(c)
        out("```")
        out()
        out("</details>")
    out.close()


if __name__ == "__main__":
    main()
