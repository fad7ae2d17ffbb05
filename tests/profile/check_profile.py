#!/usr/bin/env python3
"""Exactness tests of `tally profile`, its exports and `tally diff`.

    check_profile.py CASE --tally TALLY --tools PREFIX [options] ELF...

CASE is one of
    laws       the laws every exact profile obeys (docs/profile.md), on each
               ELF, plus the hand-derived counts of the test programs
               (EXPECT below) and the mcycle checks of pstart.S programs
    gprof      riscv64-unknown-elf-gprof on --gmon files, in seconds and in
               cycles: its flat profile against tally's; the file itself
               against the per-instruction cycles of the Callgrind export
    gmon-scaled  a gmon.out forced into the scaled layout (gmon_scaled)
    callgrind  callgrind_annotate on --callgrind files: totals, self and
               inclusive costs against tally's
    exports    --folded, --csv, --json and --speedscope read as their
               consumers read them
    diff       tally diff on two profiles: rows, deltas, totals, errors
    cli        the export options' errors
    lines      --lines: lines add up to functions and totals, the text, CSV and
               JSON tables agree, every instruction is on addr2line's line,
               hashloop.c's counts by hand, programs without DWARF refused
    sites      call sites of every arc: calls and inclusive cycles add up,
               each a call or tail jump to the callee; the test programs'
               sites by hand
    samples    --sample-every: one sample per period, the same counts in the
               text, JSON and CSV, per function and per line

Every number compared is exact unless a comment says why not (gprof prints
seconds with two decimals). Each failure is listed; the exit status is 0
only when everything holds.
"""
import argparse
import bisect
import collections
import csv
import io
import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile

FAILS = []


def fail(msg):
    FAILS.append(msg)
    print("FAIL: " + msg)


def check(cond, msg):
    if not cond:
        fail(msg)
    return cond


def run(cmd, expect_rc=None, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if expect_rc is not None and p.returncode != expect_rc:
        fail(f"{' '.join(cmd)}: exit status {p.returncode}, expected {expect_rc}\n{p.stderr}")
    return p


# ---------------------------------------------------------------------------
# What the test programs must show, derived by hand in their comments.
# calls: the function's calls; arcs: (caller, callee) -> calls; no_arcs:
# arcs that must not exist; clusters: recursive groups that call nothing
# else, so that the first one's inclusive cycles = the sum of the members'
# self cycles = the inclusive cycles of the arc from `entry`.
EXPECT = {
    "recursion": {
        "calls": {"main": 1, "sum": 11, "is_even": 4, "is_odd": 4},
        "arcs": {("main", "sum"): 1, ("sum", "sum"): 10, ("main", "is_even"): 1,
                 ("is_even", "is_odd"): 4, ("is_odd", "is_even"): 3},
        "clusters": [("main", ["sum"]), ("main", ["is_even", "is_odd"])],
        "sites": [("main", "sum", "main", "call"), ("sum", "sum", "sum", "call"),
                  ("main", "is_even", "main", "call"), ("is_even", "is_odd", "is_even", "call"),
                  ("is_odd", "is_even", "is_odd", "call")],
    },
    "two_callers": {
        "calls": {"main": 1, "caller_a": 1, "caller_b": 1, "caller_c": 1, "work": 9},
        "arcs": {("caller_a", "work"): 3, ("caller_b", "work"): 2, ("caller_c", "work"): 4},
        "clusters": [],
        "sites": [("caller_a", "work", "caller_a", "call"), ("caller_b", "work", "caller_b", "call"),
                  ("caller_c", "work", "caller_c", "call")],
    },
    "tailcall": {
        "calls": {"main": 1, "mid": 5, "leaf": 5},
        "arcs": {("main", "mid"): 5, ("main", "leaf"): 5},
        "no_arcs": [("mid", "leaf")],
        "clusters": [],
        # the tail call's site is the jump in mid, the function it replaced
        "sites": [("main", "mid", "main", "call"), ("main", "leaf", "mid", "jump")],
    },
    "longjmp": {
        "calls": {"main": 1, "setjmp": 2, "deep": 8, "longjmp": 2, "after": 1},
        "arcs": {("main", "setjmp"): 2, ("main", "deep"): 2, ("deep", "deep"): 6,
                 ("deep", "longjmp"): 2, ("main", "after"): 1},
        "no_arcs": [("deep", "setjmp"), ("deep", "after"), ("longjmp", "after")],
        "clusters": [],
        "sites": [("main", "setjmp", "main", "call"), ("main", "deep", "main", "call"),
                  ("deep", "deep", "deep", "call"), ("deep", "longjmp", "deep", "call"),
                  ("main", "after", "main", "call")],
    },
    "trap": {
        "calls": {"main": 1, "trap_entry": 5, "on_trap": 5},
        "arcs": {("main", "trap_entry"): 5, ("trap_entry", "on_trap"): 5},
        "handlers": ["trap_entry"],
        "clusters": [],
        "sites": [("main", "trap_entry", "main", "trap"), ("trap_entry", "on_trap", "trap_entry", "call")],
    },
    "hashloop": {
        "calls": {"main": 1, "mix": 3},
        "arcs": {("main", "mix"): 3},
        "clusters": [],
        "sites": [("main", "mix", "main", "call")],
    },
    "millicode": {
        "calls": {"main": 1, "keep12": 3, "leaf": 36},
        "arcs": {("main", "keep12"): 3, ("keep12", "leaf"): 36},
        "clusters": [],
    },
}


class Profile:
    """A JSON profile with the lookups the laws need."""

    def __init__(self, path, stdout=""):
        with open(path) as f:
            self.j = json.load(f)
        self.stdout = stdout
        self.funcs = self.j["functions"]
        self.total = self.j["totals"]["cycle"]
        self.by_name = {}
        for i, f in enumerate(self.funcs):
            self.by_name.setdefault(f["name"], i)
        self.arcs = self.j["arcs"]
        self.arc = collections.Counter()
        self.arc_incl = collections.Counter()
        for a in self.arcs:
            key = (a["caller_name"], a["callee_name"])
            self.arc[key] += a["calls"]
            self.arc_incl[key] += a["inclusive_cycles"]
        # self cycles by context (the leaf of each stack), by name
        self.ctx_self = collections.Counter()
        for s in self.j["stacks"]:
            self.ctx_self[s["frames"][-1]] += s["cycles"]

    def f(self, name):
        return self.funcs[self.by_name[name]]

    def self_cycles(self, name):
        return self.f(name)["self"]["cycle"] if name in self.by_name else 0

    def recursive(self):
        """Functions (indexes) that can reach themselves through arcs."""
        succ = collections.defaultdict(set)
        for a in self.arcs:
            if a["caller"] is not None and a["callee"] is not None:
                succ[a["caller"]].add(a["callee"])
        rec = set()
        for start in range(len(self.funcs)):
            seen, todo = set(), list(succ[start])
            while todo:
                n = todo.pop()
                if n == start:
                    rec.add(start)
                    break
                if n not in seen:
                    seen.add(n)
                    todo.extend(succ[n])
        return rec


def profile(args, elf, core, extra=(), tag=""):
    """Runs tally profile with every export; returns (Profile, paths)."""
    base = os.path.join(args.work, os.path.basename(elf).replace(".elf", "") + "." + core + tag)
    paths = {k: base + "." + k for k in ("json", "callgrind", "folded", "csv", "speedscope")}
    cmd = [args.tally, "profile", "--core", core]
    for k, p in paths.items():
        cmd += ["--" + k, p]
    cmd += list(extra) + [elf]
    p = run(cmd)
    if p.returncode != 0:
        fail(f"{' '.join(cmd)}: exit status {p.returncode}\n{p.stderr}")
        return None, paths
    return Profile(paths["json"], p.stdout), paths


def read_callgrind(path, where=None):
    """{function: {pc: [costs...]}} for self lines, [(caller, callee, calls, costs, pc)] for calls.
    With `where` (a dict), also {pc: (file, line)} of every cost line, the file
    as fl=/fi=/fe= set it (line 0: none)."""
    fns, calls, names, cur, pending, events = {}, [], {}, None, None, []
    has_line, file = False, None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("positions:"):
            has_line = "line" in line.split()[1:]
        m = re.match(r"^(fl|fi|fe)=(.*)$", line)
        if m:
            file = m.group(2)
            continue
        m = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line)
        if m:
            if m.group(3):
                names[m.group(2)] = m.group(3)
            name = names[m.group(2)]
            if m.group(1) == "fn":
                cur = name
                fns.setdefault(cur, {})
            else:
                pending = [name, None]
            continue
        if line.startswith("events:"):
            events = line.split()[1:]
        m = re.match(r"^calls=(\d+) ", line)
        if m:
            pending[1] = int(m.group(1))
            continue
        m = re.match(r"^(0x[0-9a-f]+|0) (.*)$", line)
        if m and cur is not None:
            pc = int(m.group(1), 16)
            costs = [int(x) for x in m.group(2).split()]
            if has_line:
                lineno, costs = costs[0], costs[1:]
                if where is not None:
                    where[pc] = (file, lineno)
            if pending and pending[1] is not None:
                calls.append((cur, pending[0], pending[1], costs, pc))
                pending = None
            else:
                fns[cur][pc] = costs
    return events, fns, calls


def objdump(args, elf):
    return run([args.tools + "objdump", "-d", "--no-show-raw-insn", elf], expect_rc=0).stdout


def function_disasm(dump, name):
    m = re.search(r"^[0-9a-f]+ <" + re.escape(name) + r">:\n(.*?)(?:\n\n|\Z)", dump, re.S | re.M)
    return m.group(1) if m else ""


# ---------------------------------------------------------------------------
# laws

def laws_of(args, elf, core, prof, paths):
    name = os.path.basename(elf)
    j = prof.j
    total = prof.total
    where = f"{name} on {core}"

    # profiling changes nothing: the same run without the profiler
    stats = os.path.join(args.work, name + "." + core + ".stats.json")
    r = run([args.tally, "run", "--core", core, "--stats-json", stats, elf])
    if check(r.returncode == j["run"]["exit_status"], f"{where}: tally run exit {r.returncode}, profile run "
             f"{j['run']['exit_status']}"):
        with open(stats) as f:
            st = json.load(f)
        check(st["cycles"] == j["run"]["cycles"] == total,
              f"{where}: cycles: tally run {st['cycles']}, profile run {j['run']['cycles']}, totals {total}")
        check(st["instructions"] == j["run"]["instructions"],
              f"{where}: instructions: tally run {st['instructions']}, profile {j['run']['instructions']}")
        for s, v in st["signals"].items():
            check(j["totals"].get(s) == v, f"{where}: signal {s}: tally run {v}, profile {j['totals'].get(s)}")
    # program output unchanged
    check(prof.stdout.startswith(r.stdout), f"{where}: program output differs under the profiler")

    # every signal's self counts add up to its total
    for s in j["signals"]:
        got = sum(f["self"][s] for f in prof.funcs)
        check(got == j["totals"][s], f"{where}: sum of self {s} = {got}, total {j['totals'][s]}")
    # the stacks' self cycles add up to the total
    check(sum(s["cycles"] for s in j["stacks"]) == total, f"{where}: stacks do not add up to the total")

    rec = prof.recursive()
    into = collections.defaultdict(lambda: [0, 0])
    out = collections.defaultdict(int)
    for a in prof.arcs:
        if a["callee"] is not None:
            into[a["callee"]][0] += a["calls"]
            into[a["callee"]][1] += a["inclusive_cycles"]
        if a["caller"] is not None:
            out[a["caller"]] += a["inclusive_cycles"]
    roots = 0
    shared = []
    names = collections.Counter(f["name"] for f in prof.funcs)
    for i, f in enumerate(prof.funcs):
        fn = f["name"]
        incl, own, ctx = f["inclusive_cycles"], f["self"]["cycle"], prof.ctx_self[fn]
        # calls are the calls of the arcs into the function
        check(f["calls"] == into[i][0], f"{where}: {fn}: {f['calls']} calls, arcs into it {into[i][0]}")
        # recursion counted once: nothing is more than the whole run
        check(incl <= total, f"{where}: {fn}: inclusive {incl} > total {total}")
        # inclusive >= self, by context always; by address where the two agree
        check(incl >= ctx, f"{where}: {fn}: inclusive {incl} < its self cycles by context {ctx}")
        # and by address too: a jump or a run-on into another function's
        # code is a tail call, so a context is the function its pc is in
        check(incl >= own, f"{where}: {fn}: inclusive {incl} < self {own}")
        if own != ctx:
            shared.append(fn)
        if f["calls"] == 0 and incl == total and incl > 0:
            roots += 1
        if i in rec or names[fn] > 1:
            continue
        # not recursive: the arcs into it split its inclusive cycles exactly
        if f["calls"]:
            check(into[i][1] == incl, f"{where}: {fn}: arcs into it carry {into[i][1]} cycles, inclusive {incl}")
        # and it is its own cycles plus its calls'
        if incl:
            check(incl == ctx + out[i],
                  f"{where}: {fn}: inclusive {incl} != self by context {ctx} + calls out {out[i]}")
    check(roots == 1, f"{where}: {roots} functions hold the whole run (expected the entry only)")
    signal_laws(prof, where, rec, names, shared)
    if shared:
        print(f"  {where}: self by address != by context (code shared between symbols): " + ", ".join(shared))
    return prof


def context_signals(j):
    """The signals counted per calling context: all but the markers (level
    signals of the program, docs/profile.md)."""
    return [s for s in j["signals"] if not s.startswith("marker")]


def signal_laws(prof, where, rec, names, shared):
    """Inclusive counts of every signal (docs/profile.md): the root's are the
    run's totals; a function's are its self counts plus the inclusive counts
    of the arcs out of it, and the arcs into it split them, wherever recursion
    and code shared between symbols do not make the two rules differ; an
    arc's sites add up to it."""
    j = prof.j
    sigs = context_signals(j)
    out = collections.defaultdict(lambda: collections.Counter())
    into = collections.defaultdict(lambda: collections.Counter())
    for a in prof.arcs:
        if a["caller"] is not None:
            out[a["caller"]].update(a["inclusive"])
        if a["callee"] is not None:
            into[a["callee"]].update(a["inclusive"])
        if a["caller"] != a["callee"] and a["sites"]:
            for sig in sigs:
                got = sum(x["inclusive"][sig] for x in a["sites"])
                check(got == a["inclusive"][sig], f"{where}: arc {a['caller_name']} -> {a['callee_name']}: "
                      f"sites' inclusive {sig} {got} != the arc's {a['inclusive'][sig]}")
    checked = 0
    for i, f in enumerate(prof.funcs):
        inc = f["inclusive"]
        check(inc["cycle"] == f["inclusive_cycles"], f"{where}: {f['name']}: inclusive cycle signal "
              f"{inc['cycle']} != inclusive_cycles {f['inclusive_cycles']}")
        if f["calls"] == 0 and f["inclusive_cycles"] == prof.total and prof.total:
            bad = [sig for sig in sigs if inc[sig] != j["totals"][sig]]
            check(not bad, f"{where}: the root {f['name']}'s inclusive counts differ from the run's totals: "
                  + ", ".join(f"{sig} {inc[sig]} != {j['totals'][sig]}" for sig in bad[:4]))
        if i in rec or names[f["name"]] > 1 or f["name"] in shared:
            continue
        for sig in sigs:
            check(inc[sig] >= f["self"][sig], f"{where}: {f['name']}: inclusive {sig} {inc[sig]} < self {f['self'][sig]}")
        bad = [sig for sig in sigs if inc[sig] != f["self"][sig] + out[i][sig]]
        check(not bad, f"{where}: {f['name']}: inclusive != self + calls out for "
              + ", ".join(f"{sig} ({inc[sig]} != {f['self'][sig]} + {out[i][sig]})" for sig in bad[:4]))
        if f["calls"]:
            bad = [sig for sig in sigs if inc[sig] != into[i][sig]]
            check(not bad, f"{where}: {f['name']}: arcs into it carry other inclusive counts: "
                  + ", ".join(f"{sig} {into[i][sig]} != {inc[sig]}" for sig in bad[:4]))
        checked += 1
    print(f"  {where}: inclusive counts of {len(sigs)} signals: root = totals; self + calls out = inclusive "
          f"for {checked} functions")


def window_law(args, elf, core, prof, paths):
    """pstart.S programs: mcycle window around main = csrr + jal + inclusive(main)."""
    m = re.search(r"^main-window (\d+)$", prof.stdout, re.M)
    if not m:
        return
    window = int(m.group(1))
    start = function_disasm(objdump(args, elf), "_start")
    lines = re.findall(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$", start, re.M)
    pcs = [(int(a, 16), op, rest) for a, op, rest in lines]
    k = next((i for i, (_, op, rest) in enumerate(pcs)
              if (op == "csrr" and rest.startswith("s2,mcycle")) or (op == "rdcycle" and rest.startswith("s2"))),
             None)
    if not check(k is not None and pcs[k + 1][1] == "jal" and "<main>" in pcs[k + 1][2],
                 f"{elf}: _start has no 'csrr s2,mcycle; jal main'"):
        return
    _, fns, _ = read_callgrind(paths["callgrind"])
    csrr = fns["_start"].get(pcs[k][0], [0])[0]
    jal = fns["_start"].get(pcs[k + 1][0], [0])[0]
    incl = prof.f("main")["inclusive_cycles"]
    # main's tail jumps (its epilogue's "j __riscv_restore_N" in millicode.c)
    # put what follows in main's place, under _start (docs/profile.md)
    main = prof.f("main")
    tail = sum(st["inclusive_cycles"] for a in prof.arcs if a["caller_name"] == "_start" and a["callee_name"] != "main"
               for st in a["sites"] if main["lo"] <= st["pc"] < main["hi"])
    check(window == csrr + jal + incl + tail,
          f"{elf} on {core}: mcycle window {window} != csrr {csrr} + jal {jal} + inclusive(main) {incl}"
          f" + main's tail calls {tail}")


def expectations(args, elf, core, prof):
    prog = os.path.basename(elf).replace(".elf", "")
    e = EXPECT.get(prog)
    if not e:
        return
    where = f"{prog} on {core}"
    for fn, n in e["calls"].items():
        got = prof.f(fn)["calls"] if fn in prof.by_name else None
        check(got == n, f"{where}: {fn}: {got} calls, expected {n}")
    for (a, b), n in e["arcs"].items():
        check(prof.arc[(a, b)] == n, f"{where}: {a} -> {b}: {prof.arc[(a, b)]} calls, expected {n}")
    for a, b in e.get("no_arcs", []):
        check((a, b) not in prof.arc, f"{where}: unexpected arc {a} -> {b} ({prof.arc[(a, b)]} calls)")
    for fn in e.get("handlers", []):
        check(prof.f(fn)["handler"], f"{where}: {fn} is not marked as a trap handler")
    # the program's own functions: self cycles by address = by context
    for fn in e["calls"]:
        check(prof.self_cycles(fn) == prof.ctx_self[fn],
              f"{where}: {fn}: self {prof.self_cycles(fn)} by address, {prof.ctx_self[fn]} by context")
    for entry, members in e["clusters"]:
        head = members[0]
        own = sum(prof.self_cycles(m) for m in members)
        incl = prof.f(head)["inclusive_cycles"]
        check(incl == own, f"{where}: inclusive({head}) {incl} != self of {'+'.join(members)} {own}")
        check(prof.arc_incl[(entry, head)] == incl,
              f"{where}: arc {entry} -> {head} carries {prof.arc_incl[(entry, head)]}, inclusive {incl}")
        if len(members) == 2:
            a, b = members
            check(prof.f(b)["inclusive_cycles"] == prof.arc_incl[(a, b)],
                  f"{where}: inclusive({b}) != arc {a} -> {b}")
            check(prof.f(b)["inclusive_cycles"] < incl, f"{where}: inclusive({b}) not below inclusive({a})")

    if prog == "tailcall":
        mid = function_disasm(objdump(args, elf), "mid")
        check(re.search(r"\sj\s+[0-9a-f]+ <leaf>", mid) and not re.search(r"\bjal\b|\bret\b", mid),
              f"{elf}: mid does not end in a tail jump to leaf:\n{mid}")
        check(prof.f("mid")["inclusive_cycles"] == prof.self_cycles("mid"),
              f"{where}: mid's inclusive cycles include more than its own")
    if prog == "millicode":
        millicode_expect(args, elf, where, prof)
    if prog == "trap":
        main = prof.f("main")
        check(main["inclusive_cycles"] == main["self"]["cycle"] + prof.arc_incl[("main", "trap_entry")],
              f"{where}: main's inclusive != its self + the handler's cycles")
        check(main["self"]["trap"] == 5 and prof.f("trap_entry")["self"]["trap"] == 0,
              f"{where}: the 5 traps are not charged to main's ecalls")
    if prog == "two_callers":
        got = {m.group(1): int(m.group(2)) for m in re.finditer(r"^(caller_[abc]) (\d+)$", prof.stdout, re.M)}
        calls = {"caller_a": 3, "caller_b": 2, "caller_c": 4}
        n_iter = {"caller_a": 100, "caller_b": 1000, "caller_c": 10}
        # SnoopP's limitation: the arcs split work's cycles exactly, and each
        # caller's mcycle total is its arc plus a constant per call
        split = sum(prof.arc_incl[(c, "work")] for c in calls)
        check(split == prof.f("work")["inclusive_cycles"] == prof.self_cycles("work"),
              f"{where}: arcs into work carry {split}, work has {prof.f('work')['inclusive_cycles']}")
        if core == "sram":  # no caches: every call of work(n) costs the same
            ks = {c: (got[c] - prof.arc_incl[(c, "work")]) / calls[c] for c in calls}
            check(len(set(ks.values())) == 1 and all(float(k).is_integer() for k in ks.values()),
                  f"{where}: mcycle minus arc per call differs between callers: {ks}")
            per = {c: prof.arc_incl[(c, "work")] / calls[c] for c in calls}
            beta = (per["caller_b"] - per["caller_a"]) / (n_iter["caller_b"] - n_iter["caller_a"])
            alpha = per["caller_a"] - 100 * beta
            check(per["caller_c"] == alpha + 10 * beta and alpha.is_integer() and beta.is_integer(),
                  f"{where}: work(n) is not alpha + beta n across callers: {per}")
            print(f"  work(n) = {alpha:.0f} + {beta:.0f} n cycles; per call outside work: {ks['caller_a']:.0f}")


def millicode_expect(args, elf, where, prof):
    """millicode.c: the arcs of libgcc's save and restore entry points, found
    from the ELF by nm and objdump: keep12's "jal t0" to __riscv_save_12 and
    every jump from there into another entry point's range are its arcs (3
    calls each); its "j __riscv_restore_12" and each entry point that code
    runs on into are arcs from main, keep12's caller (3 each)."""
    addr = {}
    for line in run([args.tools + "nm", "-n", elf], expect_rc=0).stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2].startswith("__riscv_"):
            addr[parts[2]] = int(parts[0], 16)
    starts = sorted(set(addr.values()))
    by_lo = {f["lo"]: f["name"] for f in prof.funcs if f["hi"] > f["lo"]}
    dump = objdump(args, elf)
    keep12 = function_disasm(dump, "keep12")
    check("__riscv_save_12" in keep12 and "__riscv_restore_12" in keep12,
          f"{elf}: keep12 does not use __riscv_save_12 and __riscv_restore_12:\n{keep12}")

    def owner(pc):  # the entry point whose range holds pc
        return by_lo.get(max(a for a in starts if a <= pc))

    insns = {int(a, 16): (op, rest) for a, op, rest in
             re.findall(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$", dump, re.M)}
    want = {}
    # the save chain: from __riscv_save_12's entry on, instruction by
    # instruction, each "j" goes on in another entry point's range, until
    # the "jr t0" back to keep12
    pc, seen = addr["__riscv_save_12"], set()
    want[("keep12", owner(pc))] = 3
    while pc in insns and pc not in seen and insns[pc][0] != "jr":
        seen.add(pc)
        op, rest = insns[pc]
        nxt = min(a for a in insns if a > pc)
        if op == "j":
            nxt = int(rest.split()[0], 16)
            want[("keep12", owner(nxt))] = 3
        pc = nxt
    # the restore chain: every restore entry point from __riscv_restore_12 on
    for a in starts:
        if addr["__riscv_restore_12"] <= a <= addr["__riscv_restore_0"]:
            want[("main", by_lo.get(a))] = 3
    for (a, b), n in want.items():
        check(prof.arc[(a, b)] == n, f"{where}: {a} -> {b}: {prof.arc[(a, b)]} calls, expected {n}")
    # every function: inclusive >= self, for every signal
    for f in prof.funcs:
        low = [s for s in context_signals(prof.j) if f["inclusive"][s] < f["self"][s]]
        check(not low, f"{where}: {f['name']}: inclusive below self for {low[:4]}")
    print(f"  {where}: millicode arcs {sorted(want)} have 3 calls each")


def case_laws(args):
    for elf in args.elves:
        for core in args.cores:
            prof, paths = profile(args, elf, core)
            if prof:
                laws_of(args, elf, core, prof, paths)
                window_law(args, elf, core, prof, paths)
                expectations(args, elf, core, prof)


# ---------------------------------------------------------------------------
# gprof

def elf_symbols(args, elf):
    """gprof's view of the symbol table: [(addr, names, is_func)] sorted."""
    nm = run([args.tools + "nm", elf], expect_rc=0).stdout
    types = {}
    for line in run([args.tools + "readelf", "-sW", elf], expect_rc=0).stdout.splitlines():
        f = line.split()
        if len(f) >= 8 and f[0].endswith(":") and f[3] in ("FUNC", "NOTYPE"):
            types[(int(f[1], 16), f[7])] = f[3]
    syms = collections.defaultdict(list)
    func = collections.defaultdict(bool)
    for line in nm.splitlines():
        f = line.split()
        if len(f) != 3 or f[1] not in "TtW":
            continue
        addr, kind, name = int(f[0], 16), f[1], f[2]
        if kind == "t" and not gprof_static_name_ok(name):
            continue
        syms[addr].append(name)
        func[addr] |= types.get((addr, name)) == "FUNC"
    return [(a, syms[a], func[a]) for a in sorted(syms)]


def gprof_static_name_ok(name):
    """gprof's filter on static names: no '$'; '.' only in .N, .clone.N, .constprop.N."""
    if not name or "$" in name:
        return False
    i = 0
    while i < len(name):
        if name[i] != ".":
            i += 1
            continue
        while i < len(name) and name[i] == ".":
            rest = name[i:]
            for pre in (".clone.", ".constprop."):
                if len(rest) > len(pre) and rest.startswith(pre):
                    i += len(pre) - 1
                    break
            digit = False
            i += 1
            while i < len(name):
                if digit and name[i] == ".":
                    break
                if name[i].isdigit():
                    digit = True
                else:
                    return False
                i += 1
    return True


def gprof_model(prof, syms):
    """What gprof must print, from tally's profile and gprof's rules:
    self time per gprof symbol (the tally functions that start in its range,
    which runs to the next symbol) and calls (arcs into it, the callee moved
    back to the nearest function symbol, self-recursive calls left out)."""
    addrs = [a for a, _, _ in syms]
    def containing(pc):
        i = bisect.bisect_right(addrs, pc) - 1
        return i if i >= 0 else None

    time = collections.Counter()
    for f in prof.funcs:
        if f["hi"] > f["lo"]:
            g = containing(f["lo"])
            if g is not None:
                time[g] += f["self"]["cycle"]
    ncalls, arcs = collections.Counter(), collections.Counter()
    for a in prof.arcs:
        if a["callee"] is None or a["caller"] is None:
            continue
        callee, caller = prof.funcs[a["callee"]], prof.funcs[a["caller"]]
        child, parent = containing(callee["lo"]), containing(caller["lo"])
        if child is None or parent is None:
            continue
        while child >= 0 and not syms[child][2]:
            child -= 1
        if child < 0:
            continue
        ncalls[child] += a["calls"]
        arcs[(parent, child)] += a["calls"]
    for (p, c), n in arcs.items():
        if p == c:
            ncalls[c] -= n
    return time, ncalls


def read_gmon(path):
    """The GNU gmon.out of a 32-bit little-endian target: histogram records
    (lo, hi, rate, dimension, bins) and arcs {(from, to): count}."""
    data = open(path, "rb").read()
    hists, arcs = [], collections.Counter()
    if not check(data[:4] == b"gmon" and struct.unpack_from("<I", data, 4)[0] == 1, f"{path}: not a gmon v1 file"):
        return hists, arcs
    off = 20
    while off < len(data):
        tag = data[off]
        off += 1
        if tag == 0:
            lo, hi, n, rate = struct.unpack_from("<IIII", data, off)
            dimen, abbrev = data[off + 16:off + 31].rstrip(b"\0").decode(), chr(data[off + 31])
            off += 32
            bins = struct.unpack_from(f"<{n}H", data, off)
            off += 2 * n
            hists.append((lo, hi, rate, dimen, abbrev, bins))
        elif tag == 1:
            frm, to, count = struct.unpack_from("<III", data, off)
            off += 12
            arcs[(frm, to)] += count
        else:
            fail(f"{path}: unknown record tag {tag} at offset {off - 1}")
            break
    return hists, arcs


def gmon_bins(path):
    """Summed bins of the histogram records (all must cover one range)."""
    hists, arcs = read_gmon(path)
    if not check(hists and len({h[:5] for h in hists}) == 1, f"{path}: histogram records differ in range or rate"):
        return None
    lo, hi, rate, dimen, abbrev, _ = hists[0]
    check((hi - lo) // 2 == len(hists[0][5]), f"{path}: not one bin per halfword")
    summed = [sum(h[5][i] for h in hists) for i in range(len(hists[0][5]))]
    return {"lo": lo, "hi": hi, "rate": rate, "dimen": dimen, "abbrev": abbrev, "bins": summed,
            "records": len(hists), "arcs": arcs}


def check_gmon_file(path, prof, cg_path, unit, where):
    g = gmon_bins(path)
    if not g:
        return
    clock = prof.j["clock_hz"]
    if unit == "cycles":
        check((g["rate"], g["dimen"], g["abbrev"]) == (1, "cycles", "c"), f"{where}: gmon rate/dimension {g}")
    else:
        check((g["rate"], g["dimen"], g["abbrev"]) == (clock, "seconds", "s"),
              f"{where}: gmon rate {g['rate']} {g['dimen']}, clock {clock}")
    # one count per cycle: every bin is the instruction's exact cycles
    _, fns, _ = read_callgrind(cg_path)
    per_pc = {}
    for fn, lines in fns.items():
        for pc, costs in lines.items():
            if pc:
                per_pc[pc] = per_pc.get(pc, 0) + costs[0]
    bad = [pc for pc, c in per_pc.items() if g["bins"][(pc - g["lo"]) // 2] != c]
    check(not bad, f"{where}: gmon bins differ from the per-instruction cycles at {[hex(pc) for pc in bad[:5]]}")
    check(sum(g["bins"]) == sum(per_pc.values()), f"{where}: gmon bins hold {sum(g['bins'])} cycles, "
          f"the instructions {sum(per_pc.values())}")
    # arcs: caller's first address -> callee's entry, exact counts
    want = collections.Counter()
    for a in prof.arcs:
        if a["callee"] is not None and prof.funcs[a["callee"]]["hi"] > prof.funcs[a["callee"]]["lo"]:
            frm = prof.funcs[a["caller"]]["lo"] if a["caller"] is not None else 0
            want[(frm, prof.funcs[a["callee"]]["lo"])] += a["calls"]
    check(g["arcs"] == want, f"{where}: gmon arcs differ from the profile's")
    return g


def case_gmon_scaled(args):
    """gmon_scaled writes dhrystone's histogram into a few KiB: counts of D
    cycles, each function's counts summing to its self cycles / D rounded."""
    elf, driver = args.elves[0], args.gmon_scaled
    prof, _ = profile(args, elf, "tally5")
    if not prof:
        return
    path = os.path.join(args.work, "scaled.gmon")
    p = run([driver, elf, path, "6000"], expect_rc=0)
    m = re.search(r"^divisor (\d+) rate (\d+) records (\d+)", p.stdout, re.M)
    if not check(m, f"gmon_scaled printed no layout: {p.stdout}"):
        return
    d, rate, records = (int(x) for x in m.groups())
    clock = prof.j["clock_hz"]
    check(d > 1 and rate * d == clock, f"scaled gmon: divisor {d} x rate {rate} != clock {clock}")
    g = gmon_bins(path)
    check(g and g["records"] == records and 2 * len(g["bins"]) * records <= 6000 + 2 * len(g["bins"]),
          f"scaled gmon: {records} records do not fit the budget")
    for f in prof.funcs:
        if f["hi"] <= f["lo"]:
            continue
        got = sum(g["bins"][(pc - g["lo"]) // 2] for pc in range(f["lo"], f["hi"], 2))
        want = (f["self"]["cycle"] + d // 2) // d
        check(got == want, f"scaled gmon: {f['name']}: {got} counts, self {f['self']['cycle']} / {d} = {want}")
    gp = run([args.tools + "gprof", "-b", "-p", elf, path])
    check(gp.returncode == 0 and not gp.stderr.strip(), f"gprof on the scaled gmon: {gp.stderr}")
    rows = read_gprof_flat(gp.stdout)
    by_name = {f["name"]: f for f in prof.funcs}
    for r in rows[:10]:
        if r["name"] in by_name:
            check(abs(r["self"] - by_name[r["name"]]["self"]["cycle"] / clock) <= 0.005 + d / clock,
                  f"scaled gmon: gprof {r['name']} {r['self']} s")
    print(f"  scaled: one count = {d} cycles at {rate} counts/s, {records} record(s); every function's "
          f"counts = round(self / {d})")


def read_gprof_flat(text):
    rows = []
    for line in text.splitlines():
        m = re.match(r"^\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(?:(\d+)\s+[\d.]+\s+[\d.]+\s+)?(\S+)\s*$", line)
        if m:
            rows.append({"pct": float(m.group(1)), "self": float(m.group(3)),
                         "calls": int(m.group(4)) if m.group(4) else 0, "name": m.group(5)})
    return rows


def case_gprof(args):
    for elf in args.elves:
        for core in args.cores:
            prof, _ = profile(args, elf, core)
            if not prof:
                continue
            syms = elf_symbols(args, elf)
            where = f"{os.path.basename(elf)} on {core}"
            addr_of = {}
            for i, (a, names, _) in enumerate(syms):
                for n in names:
                    addr_of.setdefault(n, i)
            time, ncalls = gprof_model(prof, syms)
            clock = prof.j["clock_hz"]
            for unit in ("cycles", "seconds"):
                gmon = os.path.join(args.work, f"{os.path.basename(elf)}.{core}.{unit}.gmon")
                cg = gmon + ".callgrind"
                copy = gmon + ".elf"  # the program as gprof reads its clones' names
                p = run([args.tally, "profile", "--core", core, "--gmon", gmon, "--gmon-unit", unit,
                         "--gmon-elf", copy, "--callgrind", cg, elf])
                if not check(p.returncode == prof.j["run"]["exit_status"] and "scaled" not in p.stderr,
                             f"{where}: --gmon failed or was scaled: {p.stderr}"):
                    continue
                check_gmon_file(gmon, prof, cg, unit, where + f" ({unit})")
                g = run([args.tools + "gprof", "-b", "-p", copy, gmon])
                if not check(g.returncode == 0 and not g.stderr.strip(), f"{where}: gprof: {g.stderr}"):
                    continue
                rows = read_gprof_flat(g.stdout)
                check(rows, f"{where}: gprof printed no flat profile:\n{g.stdout}")
                hist_total = sum(time.values())
                scale = 1.0 if unit == "cycles" else 1.0 / clock
                tol = 0.0 if unit == "cycles" else 0.005 + 1e-9  # printed with two decimals
                seen = []
                for r in rows:
                    if not check(r["name"] in addr_of, f"{where}: gprof lists unknown symbol {r['name']}"):
                        continue
                    gi = addr_of[r["name"]]
                    seen.append(gi)
                    check(abs(r["self"] - time[gi] * scale) <= tol,
                          f"{where} ({unit}): {r['name']}: gprof self {r['self']}, exact {time[gi] * scale}")
                    check(r["calls"] == ncalls[gi],
                          f"{where} ({unit}): {r['name']}: gprof calls {r['calls']}, expected {ncalls[gi]}")
                    if hist_total:
                        check(abs(r["pct"] - 100.0 * time[gi] / hist_total) <= 0.005 + 1e-9,
                              f"{where} ({unit}): {r['name']}: gprof {r['pct']}%, exact "
                              f"{100.0 * time[gi] / hist_total:.4f}%")
                # the ranking: gprof sorts by time, then calls, then name
                want = sorted((gi for gi in set(time) | set(ncalls) if time[gi] or ncalls[gi]),
                              key=lambda gi: (-time[gi], -ncalls[gi], syms[gi][1][0]))
                check([time[gi] for gi in seen] == [time[gi] for gi in want] and set(seen) == set(want),
                      f"{where} ({unit}): gprof's ranking differs from the exact one")
                # and the same as tally's own flat profile where gprof's
                # symbols are tally's functions (documented exceptions aside)
                same = agree_with_tally(prof, syms, rows, addr_of, unit, scale, where)
                own = EXPECT.get(os.path.basename(elf).replace(".elf", ""), {}).get("calls", {})
                for fn in own:
                    check(fn in same, f"{where} ({unit}): gprof does not show {fn} as tally does")
                listed = [f for f in prof.funcs if f["self"]["cycle"] or f["calls"]]
                print(f"  {where} ({unit}): gprof lists {len(rows)} symbols; {len(same)} of tally's "
                      f"{len(listed)} functions identical (self, calls, order), the rest as gprof's symbol "
                      f"rules predict")
    # GCC's clones: gprof keeps them on the copy (the loop above checked
    # its numbers); on libqsort itself, where "$x" follows med3.constprop.0
    # in the string table, it drops it, and tally says so
    for elf in [e for e in args.elves if os.path.basename(e) == "libqsort.elf"]:
        names = ["med3.constprop.0"]
        gmon = os.path.join(args.work, os.path.basename(elf) + ".note.gmon")
        p = run([args.tally, "profile", "--gmon", gmon, elf])
        check(f"gprof drops {len(names)} clone name" in p.stderr and all(n in p.stderr for n in names),
              f"{os.path.basename(elf)}: the note names {names}: {p.stderr.strip()}")
        flat = run([args.tools + "gprof", "-b", "-p", elf, gmon]).stdout
        check(not any(n in flat for n in names), f"{os.path.basename(elf)}: gprof on the program itself still "
              f"drops {names} (if not, binutils fixed its reader: the note can go)")
        print(f"  {os.path.basename(elf)}: gprof keeps {names} on the --gmon-elf copy only")
    # the default unit is cycles (docs/profile.md): gprof's self column is
    # the exact cycles, never a column of 0.00 seconds
    elf = args.elves[0]
    gmon = os.path.join(args.work, "default-unit.gmon")
    p = run([args.tally, "profile", "--gmon", gmon, elf])
    if check(p.returncode == 0, f"--gmon without --gmon-unit: {p.stderr}"):
        g = gmon_bins(gmon)
        check((g["rate"], g["dimen"]) == (1, "cycles"), f"--gmon's default unit: rate {g['rate']} {g['dimen']}")


def agree_with_tally(prof, syms, rows, addr_of, unit, scale, where):
    """The functions gprof shows as tally does: the gprof symbol is a
    function symbol at the same address, and no other tally function falls
    in its range. For those gprof's self time is tally's self cycles and its
    calls are tally's calls without the self-recursive ones, and gprof lists
    them in tally's order. Returns their names."""
    by_lo = {f["lo"]: f for f in prof.funcs if f["hi"] > f["lo"]}
    order, names = [], set()
    tol = 0 if unit == "cycles" else 0.005 + 1e-9
    for r in rows:
        gi = addr_of.get(r["name"])
        if gi is None or syms[gi][0] not in by_lo or not syms[gi][2]:
            continue
        f = by_lo[syms[gi][0]]
        nxt = syms[gi + 1][0] if gi + 1 < len(syms) else 1 << 32
        inside = [g for g in prof.funcs if f["lo"] <= g["lo"] < nxt and g["hi"] > g["lo"] and g["self"]["cycle"]]
        if len(inside) > 1:
            continue
        if abs(r["self"] - f["self"]["cycle"] * scale) <= tol and r["calls"] == f["calls"] - prof.arc[(f["name"], f["name"])]:
            names.add(f["name"])
            order.append(f["self"]["cycle"])
    check(order == sorted(order, reverse=True), f"{where} ({unit}): gprof's order of tally's functions differs")
    return names


# ---------------------------------------------------------------------------
# callgrind

def read_annotate(text, primary_only=False):
    """{function: [costs]} from callgrind_annotate's function table, and the totals.
    A function whose code comes from several files (inlined) has a row per
    file: their sum is its self cost. With primary_only, the row of its own
    file (the one fn= opened, shown with its object) alone: that is where
    --inclusive=yes puts the calls into it."""
    totals, rows = None, {}
    for line in text.splitlines():
        m = re.match(r"^((?:\s*(?:[\d,]+(?: \(\s*[\d.]+%\))?|\.)\s+)+)(\S.*)$", line)
        if not m:
            continue
        nums = [0 if t == "." else int(t.replace(",", ""))
                for t in re.findall(r"([\d,]+|\.)(?: \(\s*[\d.]+%\))?", m.group(1))]
        label = m.group(2).strip()
        if label == "PROGRAM TOTALS":
            totals = nums
        else:
            # "file:function [object]"; ("=> file:function (Nx)" lines are
            # calls in its source view, not functions)
            fm = None if label.startswith(("=>", "<", ">", "*")) else (
                re.match(r"^(?:.*):(\S+) \[", label) or (not primary_only and re.match(r"^(?:.*):(\S+)$", label)))
            if fm:
                old = rows.get(fm.group(1))
                rows[fm.group(1)] = nums if old is None else [a + b for a, b in zip(old, nums)]
    return totals, rows


def case_callgrind(args):
    if not args.callgrind_annotate:
        print("callgrind_annotate not found: skipped")
        return
    for elf in args.elves:
        for core in args.cores:
            prof, paths = profile(args, elf, core)
            if not prof:
                continue
            where = f"{os.path.basename(elf)} on {core}"
            events, fns, calls = read_callgrind(paths["callgrind"])
            names = {"Cycles": "cycle", "Instructions": "instret"}
            sigs = [names.get(e, e.replace("_", ".", 1) if e.replace("_", ".", 1) in prof.j["totals"] else e)
                    for e in events]
            for s in sigs:
                check(s in prof.j["totals"], f"{where}: callgrind event for unknown signal {s}")
            # the file itself: self lines add up to tally's self counts
            for f in prof.funcs:
                if f["name"] in fns:
                    got = [sum(c[k] if k < len(c) else 0 for c in fns[f["name"]].values()) for k in range(len(sigs))]
                    want = [f["self"].get(s, 0) for s in sigs]
                    check(got == want, f"{where}: callgrind self of {f['name']}: {got} != {want}")
            # call lines: one per call site, at the site, with its calls and
            # the callee's inclusive count of every event from there
            got = sorted((c[0], c[1], c[4], c[2], tuple(c[3])) for c in calls)
            want = sorted((a["caller_name"], a["callee_name"], s["pc"], s["calls"],
                           tuple(s["inclusive"][sig] for sig in sigs))
                          for a in prof.arcs if a["calls"] for s in a["sites"])
            check(got == want, f"{where}: callgrind call lines differ from the call sites: "
                  f"{[x for x in got if x not in want][:3]} / {[x for x in want if x not in got][:3]}")
            check(all(len(c[3]) == len(sigs) for c in calls),
                  f"{where}: a call line does not carry every event")
            check(not any(s.startswith("marker") for s in sigs), f"{where}: marker events in the file")
            # the default events (docs/profile.md): cycles, instructions, then
            # the misses and stalls that have a count, in that order
            main = ["icache.miss", "dcache.read_miss", "dcache.write_miss", "branch.mispredict", "stall"]
            check(sigs == ["cycle", "instret"] + [m for m in main if prof.j["totals"].get(m)],
                  f"{where}: default callgrind events {sigs}")
            check_callgrind_positions(args, elf, paths["callgrind"], where)
            ann = run([args.callgrind_annotate, "--threshold=100", "--show=Cycles,Instructions", paths["callgrind"]])
            if not check(ann.returncode == 0, f"{where}: callgrind_annotate failed: {ann.stderr}"):
                continue
            totals, rows = read_annotate(ann.stdout)
            check(totals == [prof.total, prof.j["totals"]["instret"]],
                  f"{where}: callgrind_annotate totals {totals}, tally {prof.total} {prof.j['totals']['instret']}")
            n = 0
            for f in prof.funcs:
                want = [f["self"]["cycle"], f["self"]["instret"]]
                if want == [0, 0]:
                    continue
                got = rows.get(f["name"])
                if check(got == want, f"{where}: callgrind_annotate {f['name']}: {got}, tally {want}"):
                    n += 1
            check(sum(r[0] for r in rows.values()) == prof.total,
                  f"{where}: callgrind_annotate's functions do not add up to the total")
            # every event's total
            ann_all = run([args.callgrind_annotate, "--threshold=100", paths["callgrind"]])
            totals_all, _ = read_annotate(ann_all.stdout)
            check(totals_all == [prof.j["totals"][s] for s in sigs],
                  f"{where}: callgrind_annotate totals of all events differ from tally's")
            # inclusive: a function never called is the root, its inclusive is
            # the total; one called and not recursive: the sum of its calls
            inc = run([args.callgrind_annotate, "--inclusive=yes", "--threshold=100", paths["callgrind"]])
            # a called function: callgrind_annotate sets its inclusive count to
            # the calls into it, on its own file's row; one never called (the
            # root) keeps its rows' self and call lines, whatever their file
            _, irows_called = read_annotate(inc.stdout, primary_only=True)
            _, irows_root = read_annotate(inc.stdout)
            rec = {prof.funcs[i]["name"] for i in prof.recursive()}
            m = 0
            for f in prof.funcs:
                if f["name"] in rec or not f["inclusive_cycles"] or list(prof.by_name).count(f["name"]) > 1:
                    continue
                got = (irows_called if f["calls"] else irows_root).get(f["name"])
                want = [f["inclusive"][sig] for sig in sigs]
                if check(got == want, f"{where}: callgrind_annotate inclusive {f['name']}: {got}, tally {want}"):
                    m += 1
            print(f"  {where}: totals of {len(sigs)} events equal; self of {n} functions equal; "
                  f"inclusive of {m} non-recursive functions equal in all {len(sigs)} events")
            # callgrind_annotate's default view has a column per event: with
            # the default events its header stays short
            head = [l for l in ann_all.stdout.splitlines() if l.startswith("Cycles")]
            check(head and len(head[0]) <= 7 * 19 + 20, f"{where}: callgrind_annotate's header is "
                  f"{len(head[0]) if head else 0} characters wide")
    # --callgrind-events all: every signal with a count, cycles and
    # instructions first; a list: those, in its order; a bad name: 64
    elf, core = args.elves[0], args.cores[0]
    prof, paths = profile(args, elf, core, ("--callgrind-events", "all"), ".all")
    if prof:
        events, _, _ = read_callgrind(paths["callgrind"])
        want = {s for s, v in prof.j["totals"].items() if v and not s.startswith("marker")}
        got = [{"Cycles": "cycle", "Instructions": "instret"}.get(e, e) for e in events]
        got = [g if g in prof.j["totals"] else g.replace("_", ".", 1) for g in got]
        check(got[:2] == ["cycle", "instret"] and set(got) == want and len(got) == len(want),
              f"--callgrind-events all: {got}, want {sorted(want)}")
    prof, paths = profile(args, elf, core, ("--callgrind-events", "stall,cycle"), ".list")
    if prof:
        events, _, _ = read_callgrind(paths["callgrind"])
        check(events == ["stall", "Cycles"], f"--callgrind-events stall,cycle: {events}")
    bad = run([args.tally, "profile", "--callgrind-events", "cycle,no.such", "--callgrind", "-", elf])
    check(bad.returncode == 64 and "'no.such' is not a signal" in bad.stderr,
          f"--callgrind-events cycle,no.such: exit {bad.returncode} {bad.stderr}")


def same_line(pc, file, line, ref, dec):
    """Is (file, line) the source of pc as binutils says: addr2line, or where
    it errs (docs/symbols.md), objdump's line decoder?"""
    r, d = ref.get(pc), dec(pc)
    if line == 0:
        return r is None or d is None
    return (r is not None and r == (file, line)) or (d is not None and d == (os.path.basename(file), line))


def check_callgrind_positions(args, elf, path, where):
    """Every cost line's (fl=/fi= file, line) is the line binutils gives its address."""
    at = {}
    read_callgrind(path, at)
    pcs = sorted(pc for pc in at if pc)
    ref, dec = addr2line(args, elf, pcs), decoded_lines(args, elf)
    bad = [(hex(pc), at[pc], ref.get(pc)) for pc in pcs if not same_line(pc, *at[pc], ref, dec)]
    known = sum(1 for pc in pcs if at[pc][1])
    check(not bad, f"{where}: {len(bad)} callgrind positions differ from addr2line's, e.g. {bad[:3]}")
    check(known > len(pcs) // 2, f"{where}: only {known} of {len(pcs)} callgrind positions have a source line")
    print(f"  {where}: {known} callgrind positions with a source line, as addr2line gives them")


# ---------------------------------------------------------------------------
# folded, csv, json, speedscope

def case_exports(args):
    for elf in args.elves:
        for core in args.cores:
            prof, paths = profile(args, elf, core)
            if not prof:
                continue
            where = f"{os.path.basename(elf)} on {core}"
            total = prof.total
            # folded: what flamegraph.pl and inferno accept
            n, lines = 0, 0
            leaf = collections.Counter()
            for line in open(paths["folded"]):
                lines += 1
                m = re.match(r"^([^ ;]+(?:;[^ ;]+)*) (\d+)\n$", line)
                if not check(m, f"{where}: folded line {lines} is not 'a;b;c N': {line!r}"):
                    continue
                n += int(m.group(2))
                leaf[m.group(1).split(";")[-1]] += int(m.group(2))
                check(int(m.group(2)) > 0, f"{where}: folded line {lines} has no cycles")
            check(n == total, f"{where}: folded stacks add up to {n}, total {total}")
            check(leaf == +prof.ctx_self, f"{where}: folded leaves differ from the JSON stacks")
            roots = {line.split(";")[0].split(" ")[0] for line in open(paths["folded"])}
            check(len(roots) == 1, f"{where}: folded stacks have several roots: {roots}")
            # csv: one row per function, every signal a column
            with open(paths["csv"], newline="") as f:
                rows = list(csv.DictReader(f))
            check(rows and list(rows[0].keys())[:6] == ["function", "lo", "hi", "calls", "inclusive_cycles", "samples"],
                  f"{where}: csv header")
            for s in prof.j["signals"]:
                got = sum(int(r[s]) for r in rows)
                check(got == prof.j["totals"][s], f"{where}: csv column {s} adds up to {got}")
            for r in rows:
                if r["function"] in prof.by_name:
                    f = prof.f(r["function"])
                    check(int(r["calls"]) == f["calls"] and int(r["inclusive_cycles"]) == f["inclusive_cycles"]
                          and int(r["lo"], 16) == f["lo"] and int(r["samples"]) == f["samples"],
                          f"{where}: csv row {r['function']} differs from the JSON")
            # json: schema and sums (the laws case checks the rest)
            j = prof.j
            check(j["format"] == "tally-profile" and j["version"] == 1, f"{where}: json format/version")
            check(j["program"] == elf and j["core"] == core and j["argv"][0] == elf, f"{where}: json program/core")
            check(sum(f["self"]["cycle"] for f in j["functions"]) == j["totals"]["cycle"] == j["run"]["cycles"],
                  f"{where}: json self cycles do not add up to the total")
            for a in j["arcs"]:
                for k in ("caller", "callee"):
                    if a[k] is not None:
                        check(0 <= a[k] < len(j["functions"]) and j["functions"][a[k]]["name"] == a[k + "_name"],
                              f"{where}: json arc {k} index {a[k]} does not name {a[k + '_name']}")
            for f in j["functions"]:
                check(set(f["self"]) == set(j["signals"]), f"{where}: json {f['name']}: self lacks signals")
                check(f["lo"] <= f["hi"], f"{where}: json {f['name']}: lo > hi")
            # speedscope: a sampled profile whose weights are the stacks' cycles
            with open(paths["speedscope"]) as f:
                ss = json.load(f)
            check(ss["$schema"] == "https://www.speedscope.app/file-format-schema.json", f"{where}: speedscope schema")
            p = ss["profiles"][0]
            frames = ss["shared"]["frames"]
            check(p["type"] == "sampled" and len(p["samples"]) == len(p["weights"]), f"{where}: speedscope shape")
            check(sum(p["weights"]) == p["endValue"] == total, f"{where}: speedscope weights != total")
            ss_leaf = collections.Counter()
            for s, w in zip(p["samples"], p["weights"]):
                check(all(0 <= i < len(frames) for i in s), f"{where}: speedscope frame index out of range")
                ss_leaf[frames[s[-1]]["name"]] += w
            check(ss_leaf == +prof.ctx_self, f"{where}: speedscope self weights differ from the stacks")
            print(f"  {where}: folded {lines} stacks, csv {len(rows)} rows, json {len(j['functions'])} functions, "
                  f"speedscope {len(frames)} frames: all add up to {total} cycles")


# ---------------------------------------------------------------------------
# tally diff

def read_diff(text):
    rows, total = [], None
    for line in text.splitlines():
        m = re.match(r"^\s*([\d,]+|-)\s+([\d,]+|-)\s+([+-]?[\d,]+)\s+(\S+)\s+(\S+)(?:\s+\(only in ([AB])\))?\s*$", line)
        if not m:
            continue
        val = lambda s: None if s == "-" else int(s.replace(",", ""))
        row = {"a": val(m.group(1)), "b": val(m.group(2)), "delta": int(m.group(3).replace(",", "")),
               "ratio": m.group(4), "name": m.group(5), "only": m.group(6)}
        if row["name"] == "total":
            total = row
        else:
            rows.append(row)
    return rows, total


def check_diff(args, ja, jb, a, b, extra, where):
    p = run([args.tally, "diff"] + extra + [ja, jb])
    if not check(p.returncode == 0, f"{where}: tally diff failed: {p.stderr}"):
        return []
    rows, total = read_diff(p.stdout)
    sig = extra[extra.index("--signal") + 1] if "--signal" in extra else "cycle"
    def per_name(prof):
        c = collections.Counter()
        for f in prof.funcs:
            c[f["name"]] += f["self"][sig]
        return c
    ca, cb = per_name(a), per_name(b)
    check(rows, f"{where}: tally diff printed no rows:\n{p.stdout}")
    for r in rows:
        n = r["name"]
        check((r["a"] or 0) == ca.get(n, 0) and (r["b"] or 0) == cb.get(n, 0),
              f"{where}: diff row {n}: {r['a']} {r['b']}, profiles {ca.get(n)} {cb.get(n)}")
        check(r["delta"] == (r["b"] or 0) - (r["a"] or 0), f"{where}: diff row {n}: delta {r['delta']}")
        check((r["only"] == "A") == (n in a.by_name and n not in b.by_name) and
              (r["only"] == "B") == (n in b.by_name and n not in a.by_name), f"{where}: diff row {n}: only-in mark")
        if r["a"] and r["b"] is not None:
            check(abs(float(r["ratio"]) - r["b"] / r["a"]) < 0.0006, f"{where}: diff row {n}: ratio {r['ratio']}")
    shown = {r["name"] for r in rows}
    for n in set(ca) | set(cb):
        if ca.get(n, 0) or cb.get(n, 0):
            check(n in shown, f"{where}: diff lacks {n}")
    d = [abs(r["delta"]) for r in rows]
    check(d == sorted(d, reverse=True), f"{where}: diff rows not sorted by the size of the change")
    check(total and total["a"] == a.j["totals"][sig] and total["b"] == b.j["totals"][sig]
          and total["delta"] == total["b"] - total["a"], f"{where}: diff total line {total}")
    return rows


def case_diff(args):
    # A and B: the first ELF (rv32imac) and the second (rv32i) on tally5;
    # then the first on tally5 and on sram
    ea, eb = args.elves[0], args.elves[1]
    a, _ = profile(args, ea, "tally5", tag=".A")
    b, _ = profile(args, eb, "tally5", tag=".B")
    s, _ = profile(args, ea, "sram", tag=".S")
    if not (a and b and s):
        return
    ja, jb, js = (os.path.join(args.work, x) for x in ("a.json", "b.json", "s.json"))
    for prof, path in ((a, ja), (b, jb), (s, js)):
        with open(path, "w") as f:
            json.dump(prof.j, f)
    rows = check_diff(args, ja, jb, a, b, [], "rv32imac vs rv32i")
    only_b = [r["name"] for r in rows if r["only"] == "B"]
    check(any(re.search(r"mul|div|mod", n) for n in only_b),
          f"rv32imac vs rv32i: libgcc's multiply/divide not shown as only in B: {only_b}")
    check_diff(args, ja, jb, a, b, ["--signal", "instret"], "rv32imac vs rv32i, instret")
    check_diff(args, ja, js, a, s, [], "tally5 vs sram")
    p = run([args.tally, "diff", "--top", "3", ja, jb], expect_rc=0)
    check(len(read_diff(p.stdout)[0]) == 3, "diff --top 3 does not show 3 rows")
    p = run([args.tally, "diff", "--calls", ja, js], expect_rc=0)
    for r in read_diff(p.stdout)[0]:
        check(r["delta"] == 0, f"diff --calls: the same program on two cores differs in calls of {r['name']}")
    p = run([args.tally, "diff", "--inclusive", ja, jb], expect_rc=0)
    check(read_diff(p.stdout)[1]["a"] == a.total, "diff --inclusive: total line is not the run's cycles")
    # errors: usage 64, unreadable or wrong files 66
    bad = os.path.join(args.work, "bad.json")
    with open(bad, "w") as f:
        f.write('{"format": "tally-profile", "version": 1, "program": "x", "core": "y",\n "signals": [')
    notprof = os.path.join(args.work, "other.json")
    with open(notprof, "w") as f:
        f.write('{"hello": 1}\n')
    v2 = os.path.join(args.work, "v2.json")
    with open(v2, "w") as f:
        json.dump(dict(a.j, version=2), f)
    neg = os.path.join(args.work, "neg.json")
    with open(neg, "w") as f:
        j = json.loads(json.dumps(a.j))
        j["functions"][0]["self"]["cycle"] = -1
        json.dump(j, f)
    for argv, rc, words in (
        ([], 64, "wants two profiles"),
        ([ja], 64, "wants two profiles"),
        ([ja, jb, js], 64, "wants two profiles"),
        (["--bogus", ja, jb], 64, "unrecognized|unknown"),
        (["--signal", "nonesuch", ja, jb], 64, "unknown signal 'nonesuch'"),
        (["--top", "x", ja, jb], 64, "--top"),
        ([ja, os.path.join(args.work, "missing.json")], 66, "missing.json: No such file"),
        ([bad, jb], 66, "bad.json: not valid JSON: line 2"),
        ([ja, notprof], 66, "other.json: not a tally JSON profile"),
        ([v2, jb], 66, "v2.json: .*version"),
        ([neg, jb], 66, "neg.json: line \\d+: count of 'cycle'"),
        ([args.work, jb], 66, re.escape(args.work)),
    ):
        p = run([args.tally, "diff"] + argv)
        check(p.returncode == rc and re.search(words, p.stderr),
              f"tally diff {' '.join(argv)}: status {p.returncode} (expected {rc}), stderr {p.stderr!r}")
    p = run([args.tally, "diff", "--help"], expect_rc=0)
    check("usage: tally diff" in p.stdout, "tally diff --help")
    # damaged files: a clear error (66) or a comparison (0), never a crash
    rnd = random.Random(1)
    text = open(ja, "rb").read()
    # a small profile keeps the runs short: the first functions only
    small = json.loads(text)
    small["functions"], small["arcs"], small["stacks"] = small["functions"][:3], [], []
    text = json.dumps(small, indent=1).encode()
    cases = [text[:n] for n in range(0, len(text), max(1, len(text) // 40))]
    for _ in range(60):
        b = bytearray(text)
        for _ in range(rnd.randint(1, 4)):
            b[rnd.randrange(len(b))] = rnd.choice(b'{}[]",:\\0-9e.\x00\xff u')
        cases.append(bytes(b))
    cases += [b"[" * 100000, b'{"format": "tally-profile", "version": 99999999999999999999999}',
              b'"\\ud800"', b'{"a": "\\u0000"}', b"\xef\xbb\xbf{}"]
    dmg = os.path.join(args.work, "damaged.json")
    for i, c in enumerate(cases):
        with open(dmg, "wb") as f:
            f.write(c)
        p = run([args.tally, "diff", dmg, jb])
        check(p.returncode in (0, 66) and "Sanitizer" not in p.stderr and "runtime error" not in p.stderr,
              f"tally diff on damaged file #{i}: status {p.returncode}: {p.stderr[:300]}")
    print(f"  tally diff: {len(cases)} damaged files, each refused with a message or compared")


# ---------------------------------------------------------------------------
# per-line profiles (--lines)

def disasm(args, elf):
    """{pc: (mnemonic, operands, direct target or None, function)} from objdump -d."""
    out, fn = {}, None
    for line in objdump(args, elf).splitlines():
        m = re.match(r"^([0-9a-f]+) <(.+)>:$", line)
        if m:
            fn = m.group(2)
            continue
        m = re.match(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if m and fn:
            t = re.search(r"\b([0-9a-f]+) <", m.group(3).split("#")[0])
            out[int(m.group(1), 16)] = (m.group(2), m.group(3), int(t.group(1), 16) if t else None, fn)
    return out


def addr2line(args, elf, pcs):
    """{pc: (path, line) or None} as binutils' addr2line answers."""
    out = run([args.tools + "addr2line", "-e", elf], input="\n".join("0x%x" % pc for pc in pcs)).stdout.splitlines()
    check(len(out) == len(pcs), f"{elf}: addr2line gave {len(out)} answers for {len(pcs)} addresses")
    res = {}
    for pc, a in zip(pcs, out):
        a = re.sub(r" \(discriminator \d+\)$", "", a)
        path, _, line = a.rpartition(":")
        res[pc] = None if path.startswith("??") or not line.isdigit() or line == "0" else (path, int(line))
    return res


def decoded_lines(args, elf):
    """pc -> (basename, line) or None from objdump --dwarf=decodedline, binutils'
    other line decoder: per address the last row (a sequence's end only where
    no row starts), a row covering up to the next address."""
    rows = []
    for line in run([args.tools + "objdump", "--dwarf=decodedline", elf], expect_rc=0).stdout.splitlines():
        m = re.match(r"^(\S+)\s+(\d+|-)\s+(0x[0-9a-f]+)", line)
        if m:
            rows.append((int(m.group(3), 16), len(rows), None if m.group(2) == "-" else (m.group(1), int(m.group(2)))))
    at = {}
    for addr, _, what in sorted(rows):
        if what is not None or addr not in at:
            at[addr] = what
    addrs = sorted(at)

    def lookup(pc):
        i = bisect.bisect_right(addrs, pc) - 1
        return at[addrs[i]] if i >= 0 else None
    return lookup


def lines_by_addr2line(args, elf, prof, callgrind_path):
    """The line profile rebuilt without tally's line code: every instruction's
    exact counts (the Callgrind export) summed by its function and by the
    line addr2line gives it. Where binutils 2.40's addr2line is known to err
    (docs/symbols.md: '??' at the start of some functions, the wrong file of
    DWARF 5 units that #include code) objdump's line decoder decides, and
    the file is compared by base name. Returns ({(function, file, line):
    [costs]}, events, trusted {(function, path, line)}, fallbacks)."""
    events, fns, _ = read_callgrind(callgrind_path)
    sigs = callgrind_signals(events, prof)
    pcs = sorted({pc for f, lines in fns.items() if f != "[unknown]" for pc in lines})
    ref = addr2line(args, elf, pcs)
    dec = decoded_lines(args, elf)
    want, trusted, fallbacks = collections.defaultdict(lambda: [0] * len(sigs)), set(), 0
    for fn, lines in fns.items():
        if fn == "[unknown]":
            continue
        for pc, costs in lines.items():
            r, d = ref[pc], dec(pc)
            if r is None and d is not None:
                key, fallbacks = (fn, d[0], d[1]), fallbacks + 1
            elif r is not None and d is not None and os.path.basename(r[0]) != d[0] and r[1] == d[1]:
                key, fallbacks = (fn, d[0], d[1]), fallbacks + 1
            elif r is None:
                key = (fn, None, None)
            else:
                key = (fn, os.path.basename(r[0]), r[1])
                trusted.add((fn, r[0], r[1]))
            for k, c in enumerate(costs):
                want[key][k] += c
    return want, sigs, trusted, fallbacks


def callgrind_signals(events, prof):
    names = {"Cycles": "cycle", "Instructions": "instret"}
    return [names.get(e, e.replace("_", ".", 1) if e.replace("_", ".", 1) in prof.j["totals"] else e) for e in events]


def read_line_table(stdout):
    """The rows of the text 'Line profile' table: (pct, [counts], function, place)."""
    rows, on = [], False
    for line in stdout.splitlines():
        if line.startswith("Line profile"):
            on = True
            continue
        if on and re.match(r"^\s*total\s", line):
            break
        m = re.match(r"^\s*([\d.]+)%((?:\s+[\d,]+)+)\s\s(\S+)\s+(\S.*)$", line) if on else None
        if m:
            rows.append((float(m.group(1)), [int(x.replace(",", "")) for x in m.group(2).split()], m.group(3),
                         m.group(4)))
    return rows


def hand_counts(args, elf, src, func):
    """Per-line executions of FUNC's instructions, derived by hand from the
    source's LEN and CALLS and `objdump -dl`: FUNC is straight-line code
    around one loop closed by one backward branch; the loop's instructions
    run CALLS x LEN times, the others on the way to the first `ret` CALLS
    times. Returns {(path, line): instructions}."""
    text = open(src).read()
    length = int(re.search(r"^#define LEN (\d+)$", text, re.M).group(1))
    calls = int(re.search(r"^#define CALLS (\d+)$", text, re.M).group(1))
    dump = run([args.tools + "objdump", "-dl", "--no-show-raw-insn", elf], expect_rc=0).stdout
    body = re.search(r"^[0-9a-f]+ <" + func + r">:\n(.*?)(?:\n\n|\Z)", dump, re.S | re.M).group(1)
    insns, place = [], None
    for line in body.splitlines():
        m = re.match(r"^(/\S+):(\d+)(?: \(discriminator \d+\))?$", line)
        if m:
            place = (m.group(1), int(m.group(2)))
            continue
        m = re.match(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if m:
            t = re.search(r"\b([0-9a-f]+) <", m.group(3).split("#")[0])
            insns.append((int(m.group(1), 16), m.group(2), int(t.group(1), 16) if t else None, place))
    back = [(pc, t) for pc, op, t, _ in insns if op.startswith("b") and t is not None and t < pc]
    if not check(len(back) == 1, f"{elf}: {func} should have one backward branch, has {back}"):
        return {}, 0, 0
    branch, target = back[0]
    counts = collections.Counter()
    for pc, op, t, where in insns:
        if op in ("j", "jr", "jal", "jalr") or (op.startswith("b") and pc != branch):
            fail(f"{elf}: {func} is not straight-line code around one loop ({op} at {pc:x})")
        counts[where] += calls * length if target <= pc <= branch else calls
        if op == "ret":
            break
    return counts, length, calls


def case_lines(args):
    for elf in args.elves:
        for core in args.cores:
            prof, paths = profile(args, elf, core, extra=["--lines"], tag=".lines")
            if not prof:
                continue
            where = f"{os.path.basename(elf)} on {core} --lines"
            j = prof.j
            if not check("lines" in j and j["lines"], f"{where}: the JSON has no lines"):
                continue
            lines = j["lines"]
            sigs = j["signals"]
            # per function: its lines add up to its self counts, every signal
            per_func = collections.defaultdict(lambda: collections.Counter())
            for r in lines:
                check(r["function"] is not None and j["functions"][r["function"]]["name"] == r["function_name"],
                      f"{where}: line row {r} does not name its function")
                check((r["file"] is None) == (r["line"] is None), f"{where}: line row {r}: file without line")
                for s in sigs:
                    per_func[r["function"]][s] += r["self"][s]
                per_func[r["function"]]["[samples]"] += r["samples"]
            bad = [(f["name"], s) for i, f in enumerate(j["functions"]) for s in sigs
                   if per_func[i][s] != f["self"][s]]
            check(not bad, f"{where}: lines do not add up to the self counts of {bad[:6]}")
            # over all lines: the run's totals
            for s in sigs:
                got = sum(r["self"][s] for r in lines)
                check(got == j["totals"][s], f"{where}: lines add up to {got} {s}, total {j['totals'][s]}")
            # one row per (function, file, line); "[no line info]" at most once per function
            keys = [(r["function"], r["file"], r["line"]) for r in lines]
            check(len(keys) == len(set(keys)), f"{where}: repeated line rows")
            # the CSV is the same table
            with open(paths["csv"], newline="") as f:
                rows = list(csv.DictReader(f))
            check(rows and list(rows[0].keys())[:4] == ["file", "line", "function", "samples"],
                  f"{where}: line CSV header {list(rows[0].keys())[:4] if rows else None}")
            csv_rows = sorted((r["function"], r["file"], int(r["line"])) + tuple(int(r[s]) for s in sigs) for r in rows)
            json_rows = sorted((r["function_name"], r["file"] or "[no line info]", r["line"] or 0)
                               + tuple(r["self"][s] for s in sigs) for r in lines)
            check(csv_rows == json_rows, f"{where}: the line CSV differs from the JSON lines")
            # the text table: the JSON's rows, by cycles
            text = read_line_table(prof.stdout)
            cols = ["cycle", "instret", "icache.miss", "dcache.read_miss", "dcache.write_miss", "stall"]
            check(len(text) == len(lines), f"{where}: the text table has {len(text)} rows, the JSON {len(lines)}")
            shown = []
            for pct, nums, fn, place in text:
                m = re.match(r"^(.*):(\d+)$", place)
                match = [r for r in lines if r["function_name"] == fn and (
                    (place == "[no line info]" and r["file"] is None) or
                    (m and r["file"] and r["line"] == int(m.group(2)) and
                     (r["file"] == m.group(1) or r["file"].endswith("/" + m.group(1)))))]
                if check(len(match) == 1, f"{where}: text row {fn} {place} matches {len(match)} JSON rows"):
                    check(nums == [match[0]["self"][c] for c in cols], f"{where}: text row {fn} {place}: {nums}")
                    shown.append(match[0]["self"]["cycle"])
            check(shown == sorted(shown, reverse=True), f"{where}: the text table is not sorted by cycles")
            # every instruction on the line addr2line gives it
            want, cg_sigs, trusted, fallbacks = lines_by_addr2line(args, elf, prof, paths["callgrind"])
            got = collections.defaultdict(lambda: [0] * len(cg_sigs))
            for r in lines:
                if r["function_name"] == "[unknown]":
                    continue
                key = (r["function_name"], r["file"] and os.path.basename(r["file"]), r["line"])
                for k, s in enumerate(cg_sigs):
                    got[key][k] += r["self"][s]
            got = {k: v for k, v in got.items() if any(v)}
            want = {k: v for k, v in want.items() if any(v)}
            diff = [(k, got.get(k), want.get(k)) for k in set(got) | set(want) if got.get(k) != want.get(k)]
            check(not diff, f"{where}: {len(diff)} lines differ from addr2line's attribution, e.g. {diff[:3]}")
            paths_of = {(r["function_name"], r["file"], r["line"]) for r in lines}
            missing = [t for t in trusted if t not in paths_of]
            check(not missing, f"{where}: addr2line's files and lines missing in tally's: {missing[:4]}")
            print(f"  {where}: {len(lines)} line rows add up to {len(j['functions'])} functions and the totals; "
                  f"{len(want)} (function, line) sums equal addr2line's ({fallbacks} instructions by objdump's "
                  f"decoder where addr2line errs)")
            if os.path.basename(elf) == "hashloop.elf":
                hand_lines(args, elf, prof, where)
    no_dwarf(args, args.elves[0])


def hand_lines(args, elf, prof, where):
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hashloop.c")
    counts, length, calls = hand_counts(args, elf, src, "mix")
    rows = {(r["file"], r["line"]): r["self"]["instret"] for r in prof.j["lines"] if r["function_name"] == "mix"}
    check(rows == dict(counts), f"{where}: mix's instructions per line {rows}, by hand {dict(counts)}")
    check(prof.f("mix")["calls"] == calls, f"{where}: mix has {prof.f('mix')['calls']} calls, the source {calls}")
    print(f"  {where}: mix's {len(counts)} lines run the instructions LEN = {length} x CALLS = {calls} "
          f"gives them: " + ", ".join(f"{os.path.basename(p)}:{n} {c}" for (p, n), c in sorted(counts.items())))


def no_dwarf(args, elf):
    """A program without DWARF: --lines says so before running, status 66."""
    bare = os.path.join(args.work, "nodebug.elf")
    run([args.tools + "objcopy", "--strip-debug", elf, bare], expect_rc=0)
    p = run([args.tally, "profile", "--lines", "--json", os.path.join(args.work, "nodebug.json"), bare])
    check(p.returncode == 66 and "has no source line table" in p.stderr and "-g" in p.stderr
          and "Flat profile" not in p.stdout and not os.path.exists(os.path.join(args.work, "nodebug.json")),
          f"--lines without DWARF: status {p.returncode}, stderr {p.stderr!r}")
    q = run([args.tally, "profile", bare])
    check(q.returncode == 0 and "Flat profile" in q.stdout, "without --lines a program without DWARF profiles")
    print(f"  without DWARF (status {p.returncode}): {p.stderr.strip()}")
    # a damaged line table: the first unit's DWARF version made 0x6363
    sec = re.search(r"\.debug_line\s+\S+\s+[0-9a-f]+\s+([0-9a-f]+)\s",
                    run([args.tools + "readelf", "-SW", elf], expect_rc=0).stdout)
    if check(sec, f"{elf}: no .debug_line"):
        data = bytearray(open(elf, "rb").read())
        off = int(sec.group(1), 16)
        data[off + 4:off + 6] = b"\x63\x63"
        bad = os.path.join(args.work, "baddwarf.elf")
        open(bad, "wb").write(data)
        p = run([args.tally, "profile", "--lines", bad])
        check(p.returncode == 66 and re.search(r"baddwarf\.elf: damaged DWARF line table .*version", p.stderr),
              f"--lines with a damaged line table: status {p.returncode}, stderr {p.stderr!r}")
        print(f"  damaged DWARF (status {p.returncode}): {p.stderr.strip()}")


# ---------------------------------------------------------------------------
# call sites and samples

def site_kind(insn):
    op, operands = insn[0], insn[1]
    if op in ("ecall", "ebreak"):
        return "trap"
    if op in ("jal", "jalr") and not operands.startswith("zero"):
        return "call"
    if op in ("j", "jr") or (op in ("jal", "jalr") and operands.startswith("zero")):
        return "jump"
    if op.startswith("b") and insn[2] is not None:
        return "branch"  # into another function's code (libgcc's __divsi3)
    return "other"


def case_sites(args):
    for elf in args.elves:
        dis = disasm(args, elf)
        pcs = sorted(dis)
        next_pc = dict(zip(pcs, pcs[1:]))
        for core in args.cores:
            prof, _ = profile(args, elf, core, tag=".sites")
            if not prof:
                continue
            where = f"{os.path.basename(elf)} on {core}"
            funcs = prof.funcs
            rec = prof.recursive()
            nsites = 0
            for a in prof.arcs:
                sites = a["sites"]
                nsites += len(sites)
                name = f"{a['caller_name']} -> {a['callee_name']}"
                pcs = [s["pc"] for s in sites]
                check(pcs == sorted(set(pcs)) and sites, f"{where}: {name}: sites {pcs} not sorted, repeated or none")
                check(sum(s["calls"] for s in sites) == a["calls"], f"{where}: {name}: sites' calls != the arc's")
                check(all(s["inclusive_cycles"] <= a["inclusive_cycles"] for s in sites),
                      f"{where}: {name}: a site holds more than the arc")
                if a["callee"] not in rec:
                    check(sum(s["inclusive_cycles"] for s in sites) == a["inclusive_cycles"],
                          f"{where}: {name}: sites' inclusive cycles do not add up to the arc's")
                callee = funcs[a["callee"]] if a["callee"] is not None else None
                for s in sites:
                    insn = dis.get(s["pc"])
                    if not check(insn, f"{where}: {name}: site 0x{s['pc']:x} is no instruction"):
                        continue
                    kind = site_kind(insn)
                    if callee and callee["handler"]:
                        continue  # a trap or an interrupt: any instruction
                    # the last instruction before the callee's entry, running
                    # on into it (libgcc's __riscv_restore_N, docs/profile.md)
                    if kind in ("other", "branch") and callee and next_pc.get(s["pc"]) == callee["lo"]:
                        kind = "fallthrough"
                    check(kind in ("call", "jump", "branch", "fallthrough"),
                          f"{where}: {name}: site 0x{s['pc']:x} is {insn[:2]}")
                    if insn[2] is not None and callee and kind != "fallthrough":
                        # a call goes to the entry; a jump that leaves its
                        # function anywhere into the callee (__riscv_save_N)
                        ok = insn[2] == callee["lo"] if kind == "call" else callee["lo"] <= insn[2] < callee["hi"]
                        check(ok, f"{where}: {name}: site 0x{s['pc']:x} jumps to 0x{insn[2]:x}")
                    if kind == "call" and a["caller"] is not None:
                        c = funcs[a["caller"]]
                        check(c["lo"] <= s["pc"] < c["hi"], f"{where}: {name}: call site 0x{s['pc']:x} outside the caller")
            expected_sites(args, elf, core, prof, dis, where)
            print(f"  {where}: {len(prof.arcs)} arcs, {nsites} call sites: calls add up, inclusive cycles add up "
                  f"for every non-recursive callee, every site a call, a tail jump or a run-on into the callee")


def expected_sites(args, elf, core, prof, dis, where):
    """The hand-derived sites of the test programs (EXPECT[...]["sites"]):
    the instructions in FUNCTION that call (or jump to, or trap into) the
    callee, the arc's calls spread evenly over them."""
    e = EXPECT.get(os.path.basename(elf).replace(".elf", ""), {})
    for caller, callee, in_func, kind in e.get("sites", []):
        entry = prof.f(callee)["lo"]
        pcs = sorted(pc for pc, insn in dis.items() if insn[3] == in_func and site_kind(insn) == kind and
                     (kind == "trap" or insn[2] == entry))
        arc = [a for a in prof.arcs if a["caller_name"] == caller and a["callee_name"] == callee]
        if not check(len(arc) == 1 and pcs, f"{where}: {caller} -> {callee}: {len(arc)} arcs, sites {pcs}"):
            continue
        arc = arc[0]
        n = e["arcs"][(caller, callee)]
        check(n % len(pcs) == 0, f"{where}: {caller} -> {callee}: {n} calls over {len(pcs)} sites")
        got = [(s["pc"], s["calls"]) for s in arc["sites"]]
        want = [(pc, n // len(pcs)) for pc in pcs]
        check(got == want, f"{where}: {caller} -> {callee}: sites {[(hex(a), b) for a, b in got]}, "
              f"expected the {kind} instructions in {in_func}: {[(hex(a), b) for a, b in want]}")
    # two_callers on sram: every call of work(n) costs alpha + beta n, so
    # a site's inclusive cycles are its calls times that
    if os.path.basename(elf) == "two_callers.elf" and core == "sram":
        arcs = {a["caller_name"]: a for a in prof.arcs if a["callee_name"] == "work"}
        per = {c: arcs[c]["inclusive_cycles"] // arcs[c]["calls"] for c in arcs}
        n = {"caller_a": 100, "caller_b": 1000, "caller_c": 10}
        beta = (per["caller_b"] - per["caller_a"]) // (n["caller_b"] - n["caller_a"])
        alpha = per["caller_a"] - 100 * beta
        for c, a in arcs.items():
            for s in a["sites"]:
                check(s["inclusive_cycles"] == s["calls"] * (alpha + beta * n[c]),
                      f"{where}: {c} site 0x{s['pc']:x}: {s['inclusive_cycles']} cycles for {s['calls']} calls "
                      f"of work({n[c]}) = {alpha} + {beta} n")


def case_samples(args):
    """--sample-every: the samples in the text, the JSON and the CSV agree,
    add up to the samples taken, and one is taken every P cycles."""
    for n, elf in enumerate(args.elves):
        for period in ("1us", "7us") if n == 0 else ("7us",):
            prof, paths = profile(args, elf, "tally5", extra=["--sample-every", period, "--lines"], tag="." + period)
            if not prof:
                continue
            where = f"{os.path.basename(elf)} --sample-every {period}"
            j = prof.j
            p_cycles = round(float(period[:-2]) * 1e-6 * j["clock_hz"])
            check(j["samples_taken"] == (j["run"]["cycles"] - 1) // p_cycles,
                  f"{where}: {j['samples_taken']} samples in {j['run']['cycles']} cycles, one per {p_cycles}")
            check(sum(f["samples"] for f in j["functions"]) == j["samples_taken"],
                  f"{where}: functions' samples do not add up to the samples taken")
            per_func = collections.Counter()
            for r in j["lines"]:
                per_func[r["function_name"]] += r["samples"]
            check(all(per_func[f["name"]] == f["samples"] for f in j["functions"]),
                  f"{where}: lines' samples do not add up to their functions'")
            with open(paths["csv"], newline="") as f:
                rows = list(csv.DictReader(f))
            check(sum(int(r["samples"]) for r in rows) == j["samples_taken"], f"{where}: line CSV samples")
            # the function CSV (without --lines) and the text table
            fcsv = os.path.join(args.work, "samples.csv")
            p = run([args.tally, "profile", "--sample-every", period, "--csv", fcsv, elf], expect_rc=0)
            with open(fcsv, newline="") as f:
                rows = {r["function"]: int(r["samples"]) for r in csv.DictReader(f)}
            text = {m.group(2): int(m.group(1).replace(",", "")) for m in
                    re.finditer(r"^\s+\S+%\s+\S+%\s+\S+%\s+([\d,]+)\s+(\S+)$", p.stdout, re.M)}
            for f in j["functions"]:
                check(rows.get(f["name"], 0) == f["samples"] and text.get(f["name"], 0) == f["samples"],
                      f"{where}: {f['name']}: {f['samples']} samples in the JSON, {rows.get(f['name'])} in the CSV, "
                      f"{text.get(f['name'])} in the text")
            print(f"  {where}: {j['samples_taken']} samples, one per {p_cycles} cycles; text, JSON, CSV and "
                  f"line rows agree")


def read_annotation(text):
    """tally profile --annotate's table: [(pc, [counts], source or None)], the
    source being (file, line) of the last "file:line" header above."""
    rows, src, started = [], None, False
    for line in text.splitlines():
        if re.match(r"^\s+address\s", line):
            started = True
            continue
        if not started:
            continue
        m = re.match(r"^ {10}  (.+?):(\d+)(?::|$)", line)
        if m:
            src = (m.group(1), int(m.group(2)))
            continue
        m = re.match(r"^\s*([0-9a-f]+)((?:\s+[\d,]+)+)\s\s\S", line)
        if m:
            rows.append((int(m.group(1), 16), [int(x.replace(",", "")) for x in m.group(2).split()], src))
        elif rows:
            break
    return rows


def check_annotate(args, elf, func):
    """--annotate: stall is the sum of the stall.* columns row by row, the
    rows add up to the function's self counts, and the source lines above
    the instructions are binutils' (addr2line, objdump's decoder)."""
    where = f"{os.path.basename(elf)} --annotate {func}"
    prof, _ = profile(args, elf, "tally5", extra=["--annotate", func], tag=".annotate")
    if not prof:
        return
    parts = [s for s in prof.j["signals"] if s.startswith("stall.")]
    p = run([args.tally, "profile", "--signals", ",".join(["stall"] + parts), "--annotate", func, elf], expect_rc=0)
    rows = read_annotation(p.stdout)
    if not check(rows, f"{where}: no annotation rows in\n{p.stdout[-800:]}"):
        return
    check(all(r[1][0] == sum(r[1][1:]) for r in rows), f"{where}: a stall cell is not the sum of its stall.* cells")
    self = prof.f(func)["self"]
    check(sum(r[1][0] for r in rows) == self["stall"] > 0,
          f"{where}: the stall column adds up to {sum(r[1][0] for r in rows)}, self stall {self['stall']}")
    ref, dec = addr2line(args, elf, [r[0] for r in rows]), decoded_lines(args, elf)
    bad = [(hex(pc), src) for pc, _, src in rows if src is None or not same_line(pc, *src, ref, dec)]
    check(not bad, f"{where}: source lines above instructions differ from addr2line's: {bad[:3]}")
    print(f"  {where}: {len(rows)} instructions, stall = sum of stall.*, {self['stall']} = self; source lines "
          f"as addr2line gives them")


def check_stdout_exports(args, elf):
    """'-' is standard output for every export; the report and the program's
    output then go to stderr, so stdout holds the export alone."""
    for opt, parse in (("--json", json.loads), ("--csv", lambda t: list(csv.reader(io.StringIO(t)))),
                       ("--folded", lambda t: [l.rsplit(" ", 1)[1] for l in t.splitlines()]),
                       ("--speedscope", json.loads), ("--callgrind", lambda t: t.index("events:"))):
        p = run([args.tally, "profile", opt, "-", elf], cwd=args.work)
        where = f"tally profile {opt} - {os.path.basename(elf)}"
        check(p.returncode == 0, f"{where}: status {p.returncode}: {p.stderr}")
        check(not os.path.exists(os.path.join(args.work, "-")), f"{where}: created a file named '-'")
        try:
            parse(p.stdout)
        except (ValueError, IndexError) as e:
            fail(f"{where}: stdout is not the export alone ({e}): {p.stdout[:200]!r}")
        check("main-window " in p.stderr and "main-window" not in p.stdout and "tally profile:" in p.stderr,
              f"{where}: the program's output and the report are not on stderr alone")
    p = run([args.tally, "profile", "--json", "-", "--csv", "-", elf])
    check(p.returncode == 64 and "only one export" in p.stderr, f"two exports to stdout: {p.returncode} {p.stderr!r}")


def check_raw_load(args, elf):
    """tally profile loads as tally run does: the same program as a raw
    binary (objcopy) with its linker map gives the ELF's profile exactly."""
    mapfile = elf[:-4] + ".map"
    if not check(os.path.exists(mapfile), f"{mapfile} missing"):
        return
    # the program sees its own name (argv[0]): the same one, "prog", in both runs
    for d in ("elf", "raw"):
        os.makedirs(os.path.join(args.work, d), exist_ok=True)
    shutil.copy(elf, os.path.join(args.work, "elf", "prog"))
    run([args.tools + "objcopy", "-O", "binary", elf, os.path.join(args.work, "raw", "prog")], expect_rc=0)
    lo = min(int(l.split()[2], 16) for l in run([args.tools + "readelf", "-lW", elf], expect_rc=0).stdout.splitlines()
             if l.split()[:1] == ["LOAD"])
    a, b = os.path.join(args.work, "elf.json"), os.path.join(args.work, "raw.json")
    run([args.tally, "profile", "--json", a, "prog"], expect_rc=0, cwd=os.path.join(args.work, "elf"))
    run([args.tally, "profile", "--load-addr", hex(lo), "--map", mapfile, "--ram-size", "128Mi", "--json", b, "prog"],
        expect_rc=0, cwd=os.path.join(args.work, "raw"))
    ja, jb = json.load(open(a)), json.load(open(b))
    # a map names global functions only, each up to the next symbol: the
    # functions with the same range in both have the same counts
    fa = {(f["name"], f["lo"], f["hi"]): f["self"] for f in ja["functions"]}
    fb = {(f["name"], f["lo"], f["hi"]): f["self"] for f in jb["functions"]}
    same = [k for k in fa if k in fb and k[1] < k[2]]
    check(ja["totals"] == jb["totals"], "raw binary + map: the totals differ from the ELF's")
    check(len(same) >= 3 and all(fa[k] == fb[k] for k in same),
          f"raw binary + map: {len(same)} functions with the ELF's ranges, differing: "
          f"{[k[0] for k in same if fa[k] != fb[k]]}")
    p = run([args.tally, "profile", "--entry", hex(lo), elf])
    check(p.returncode == 64 and "--entry only applies to raw binaries" in p.stderr, f"--entry with an ELF: {p.stderr!r}")
    print(f"  {os.path.basename(elf)} as a raw binary with --load-addr {hex(lo)} --map: the ELF's profile")


def check_progress(args, elf):
    """A long run shows how far it got on standard error when that is a
    terminal (a pseudo-terminal here), and never when it is not: a program
    that runs for minutes, stopped with Ctrl-C (SIGINT) once the progress
    line came (or after 30 s: the sanitizer build's slices are slow)."""
    import pty
    import select
    import signal
    import time
    master, slave = pty.openpty()
    p = subprocess.Popen([args.tally, "profile", "--timeout", "60", elf, "28"], stdout=subprocess.PIPE,
                         stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    # the line of tally run (src/cli/run_progress.c; tests/cli/progress_check.py checks it in full)
    seen, want = b"", re.compile(rb"\rtally: [\d,]+ cycles, [\d,]+ insns, ")
    end = time.monotonic() + 30
    while not want.search(seen) and time.monotonic() < end:
        if select.select([master], [], [], 0.5)[0]:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            seen += chunk
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=60)
    os.close(master)
    text = seen.decode(errors="replace")
    check(want.search(seen) is not None, f"tally profile on a terminal: no progress line in {text[-400:]!r}")
    check(" insns, " not in out.decode(errors="replace"), "the progress line went to standard output")
    p = run([args.tally, "profile", "--timeout", "1.5", elf, "28"])
    check(" insns, " not in p.stderr, f"progress written to a pipe: {p.stderr[-400:]!r}")


def case_cli(args):
    elf = args.elves[0]
    for argv, rc, words in (
        (["--gmon-unit", "minutes", "--gmon", "x", elf], 64, "--gmon-unit wants 'seconds' or 'cycles'"),
        (["--json", os.path.join(args.work, "no", "such", "dir.json"), elf], 70, "cannot write .*dir.json"),
        (["--json"], 64, ""),
    ):
        p = run([args.tally, "profile"] + argv)
        check(p.returncode == rc and re.search(words, p.stderr),
              f"tally profile {' '.join(argv)}: status {p.returncode} (expected {rc}), stderr {p.stderr!r}")
    p = run([args.tally, "profile", "--annotate", "mian", elf])
    check(p.returncode == 64 and "did you mean main?" in p.stderr and "tally profile" not in p.stdout,
          f"--annotate mian: status {p.returncode} (expected 64 before the run), stderr {p.stderr!r}")
    for e in args.elves[1:]:
        if os.path.basename(e) == "hashloop.elf":
            check_annotate(args, e, "mix")
        if os.path.basename(e) == "two_callers.elf":
            check_stdout_exports(args, e)
        if os.path.exists(e[:-4] + ".map"):
            check_raw_load(args, e)
        if os.path.basename(e) == "hanoi.elf":
            check_progress(args, e)
    # --top N limits every table: the call graph's arcs and the sampler's rows too;
    # a sampler period longer than the run says it took no samples
    p = run([args.tally, "profile", "--top", "2", "-g", "--sample-every", "1s", elf], expect_rc=0)
    arcs = re.findall(r"^\s+[\d,]+\s+[\d,]+  \S+ -> \S+", p.stdout, re.M)
    sampler = p.stdout.split("PC sampling", 1)[-1]
    rows = re.findall(r"^\s+[\d.]+% +[\d.]+% ", sampler, re.M)
    check(len(arcs) == 2 and len(rows) == 2, f"--top 2: {len(arcs)} arcs and {len(rows)} sampler rows shown")
    check("took no samples" in p.stderr, f"--sample-every 1s on a short run: no warning in {p.stderr!r}")
    p = run([args.tally, "profile", "--help"], expect_rc=0)
    for opt in ("--json", "--gmon", "--gmon-unit", "--callgrind", "--speedscope", "--folded", "--csv", "--lines"):
        check(opt in p.stdout, f"tally profile --help does not mention {opt}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("case", choices=["laws", "gprof", "gmon-scaled", "callgrind", "exports", "diff", "cli", "lines",
                                     "sites", "samples"])
    ap.add_argument("elves", nargs="+")
    ap.add_argument("--tally", required=True)
    ap.add_argument("--tools", default="riscv64-unknown-elf-")
    ap.add_argument("--callgrind-annotate", default="")
    ap.add_argument("--core", action="append", dest="cores")
    ap.add_argument("--gmon-scaled", default="", help="the gmon_scaled driver (case gmon-scaled)")
    args = ap.parse_args()
    args.cores = args.cores or ["tally5"]
    for e in args.elves:
        if not os.path.exists(e):
            print(f"FAIL: {e} does not exist (build the target programs)")
            return 1
    with tempfile.TemporaryDirectory(prefix="tally-profile-") as work:
        args.work = work
        globals()["case_" + args.case.replace("-", "_")](args)
    if FAILS:
        print(f"{len(FAILS)} check(s) failed")
        return 1
    print("all checks hold")
    return 0


if __name__ == "__main__":
    sys.exit(main())
