#!/usr/bin/env python3
"""tally run --perfetto (docs/tally-trace.md, "Timelines"), checked
against the Trace Event Format's documented fields, the exact profile and
the store:

    check_perfetto.py TALLY ELF [ARGS...]

One run writes the timeline (--perfetto, with --count cycle@main and
--count instret@main stored in a fresh --db), then:
  - the file is JSON of the documented shape: an object whose traceEvents
    is a list of events, each with ph, name, pid; M events name the
    process or thread in args.name; X (complete) events have numeric ts
    and dur >= 0 (microseconds), a tid and their exact cycles in args; C
    (counter) events a numeric ts and numeric args;
  - the time axis is real time at the core clock: displayTimeUnit "ns",
    otherData.clock_hz 100 MHz (tally5's frequency_mhz, cores/tally5.ini),
    so every slice's ts and dur are its begin cycle and cycles times
    10 ns, in microseconds;
  - the X slices of the thread nest properly (each lies inside the one it
    starts in, and its args.depth is how deep that is), and the first
    spans the whole run (the entry function, from cycle 0 to the run's
    cycles in --stats-json);
  - law: for every function, its slices not nested in another slice of
    its own add up to its inclusive cycles in `tally profile --json` of the
    same program (recursion counted once, as the profile does);
  - the counter events are the stored intervals (`tally report --csv`):
    the same labels, begin cycles and values; and `tally report latest
    --perfetto` writes the same counter events from the store;
  - the run's cycles and signal totals are those of a run without
    --perfetto;
  - bounds and errors: --perfetto-calls 10 keeps at most 10 calls (11
    slices with the entry function's), says so, and the file is still
    well formed and nested; a FILE that cannot be created is exit 73;
    --perfetto-calls without --perfetto is exit 64.
"""
import json
import os
import subprocess
import sys
import tempfile


def check_shape(doc):
    """Problems with the file's shape, per the Trace Event Format."""
    bad = []
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        return ["not an object with a traceEvents list"]
    for i, e in enumerate(doc["traceEvents"]):
        ph = e.get("ph")
        if ph not in ("M", "X", "C") or not isinstance(e.get("name"), str) or not isinstance(e.get("pid"), int):
            bad.append(f"event {i}: no ph/name/pid: {e}")
        elif ph == "M" and (e["name"] not in ("process_name", "thread_name") or
                            not isinstance(e.get("args", {}).get("name"), str)):
            bad.append(f"event {i}: a metadata event without args.name: {e}")
        elif ph == "X" and not (isinstance(e.get("ts"), (int, float)) and isinstance(e.get("dur"), (int, float)) and
                                e["dur"] >= 0 and isinstance(e.get("tid"), int) and
                                isinstance(e.get("args", {}).get("cycles"), int) and
                                isinstance(e["args"].get("begin_cycle"), int)):
            bad.append(f"event {i}: a complete event without numeric ts, dur >= 0, tid, args.cycles: {e}")
        elif ph == "C" and not (isinstance(e.get("ts"), (int, float)) and isinstance(e.get("args"), dict) and
                                e["args"] and all(isinstance(v, (int, float)) for v in e["args"].values())):
            bad.append(f"event {i}: a counter event without numeric ts and numeric args: {e}")
    return bad


def check_nesting(slices):
    """Problems with the nesting; slices in file order."""
    bad = []
    order = sorted(slices, key=lambda e: (e["ts"], -e["dur"]))
    stack = []
    for e in order:
        while stack and e["ts"] >= stack[-1]["ts"] + stack[-1]["dur"]:
            stack.pop()
        if stack and e["ts"] + e["dur"] > stack[-1]["ts"] + stack[-1]["dur"]:
            bad.append(f"{e['name']} at {e['ts']} ends after {stack[-1]['name']} it starts in")
        if e["args"]["depth"] != len(stack):
            bad.append(f"{e['name']} at {e['ts']}: depth {e['args']['depth']}, nested {len(stack)} deep")
        stack.append(e)
    return bad


def outermost_sums(slices):
    """Per name, the durations of slices not inside a slice of that name."""
    sums, open_until = {}, {}
    for e in sorted(slices, key=lambda e: (e["ts"], -e["dur"])):
        if e["ts"] >= open_until.get(e["name"], -1):
            sums[e["name"]] = sums.get(e["name"], 0) + e["dur"]
            open_until[e["name"]] = e["ts"] + e["dur"]
    return sums


def main(argv):
    if len(argv) < 3 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) > 1 and argv[1] in ("-h", "--help") else 64
    tally, elf, args = argv[1], argv[2], argv[3:]
    counts = ["--count", "cycle@main", "--count", "instret@main", "--interval", "5000"]
    with tempfile.TemporaryDirectory() as d:
        trace, db, stats = (os.path.join(d, n) for n in ("t.json", "t.db", "s.json"))
        run = subprocess.run([tally, "run", "--perfetto", trace, "--db", db, "--stats-json", stats] + counts +
                             [elf] + args, capture_output=True, text=True, timeout=120)
        if run.returncode != 0:
            print(f"FAIL: tally run --perfetto: exit {run.returncode}\n{run.stderr}")
            return 1
        with open(trace) as f:
            doc = json.load(f)
        with open(stats) as f:
            js = json.load(f)
        prof_path = os.path.join(d, "p.json")
        subprocess.run([tally, "profile", "--json", prof_path, elf] + args, capture_output=True, check=True,
                       timeout=120)
        with open(prof_path) as f:
            prof = json.load(f)
        csv = subprocess.run([tally, "report", "--db", db, "latest", "--csv"], capture_output=True, text=True,
                             check=True, timeout=60).stdout
        stored_trace = os.path.join(d, "r.json")
        rep = subprocess.run([tally, "report", "--db", db, "latest", "--perfetto", stored_trace], capture_output=True,
                             text=True, timeout=60)
        with open(stored_trace) as f:
            rdoc = json.load(f)
        plain = os.path.join(d, "plain.json")
        subprocess.run([tally, "run", "--stats-json", plain] + counts + ["--no-store", elf] + args,
                       capture_output=True, timeout=120)
        with open(plain) as f:
            pj = json.load(f)
    bad = 0

    def check(what, problems):
        nonlocal bad
        bad += bool(problems)
        print(f"{'ok  ' if not problems else 'FAIL'} {what}" + "".join(f"\n     {p}" for p in problems[:10]))

    check("the file's shape (Trace Event Format)", check_shape(doc))
    events = doc["traceEvents"]
    # 100 MHz (cores/tally5.ini): 10 ns a cycle, 0.01 us on the axis
    timed = [e for e in events if e["ph"] == "X"]
    check("real time at the core clock: displayTimeUnit ns, 100 MHz, ts and dur = cycles x 10 ns",
          ([] if doc.get("displayTimeUnit") == "ns" and doc.get("otherData", {}).get("clock_hz") == 100000000 else
           [f"displayTimeUnit {doc.get('displayTimeUnit')}, clock_hz {doc.get('otherData', {}).get('clock_hz')}"]) +
          [f"{e['name']}: ts {e['ts']} dur {e['dur']} for cycles {e['args']['begin_cycle']}+{e['args']['cycles']}"
           for e in timed if round(e["ts"] * 1000) != e["args"]["begin_cycle"] * 10 or
           round(e["dur"] * 1000) != e["args"]["cycles"] * 10][:5])
    # the rest in cycles, exactly
    slices = [dict(e, ts=e["args"]["begin_cycle"], dur=e["args"]["cycles"]) for e in timed]
    check("slices nest", check_nesting(slices))
    first = slices[0] if slices else {}
    check("the first slice is the whole run", [] if first.get("ts") == 0 and first.get("dur") == js["cycles"]
          and first.get("args", {}).get("depth") == 0 else [f"first slice {first}, run {js['cycles']} cycles"])
    sums = outermost_sums(slices)
    incl = {f["name"]: f["inclusive_cycles"] for f in prof["functions"] if f["inclusive_cycles"]}
    check(f"each function's outermost slices add up to its inclusive cycles ({len(incl)} functions)",
          [f"{n}: slices {sums.get(n)}, profile {c}" for n, c in sorted(incl.items()) if sums.get(n) != c] +
          [f"{n}: slices {c}, not in the profile" for n, c in sorted(sums.items()) if n not in incl])
    rows = [l.split(",") for l in csv.strip().splitlines()]
    header, rows = rows[0], rows[1:]
    labels = header[3:3 + 2]
    stored = {(lab, int(r[1])): int(r[3 + i]) for r in rows for i, lab in enumerate(labels)}
    counters = {(e["name"], round(e["ts"] * 100)): e["args"]["count"] for e in events if e["ph"] == "C"}
    check(f"counter events = stored intervals ({len(rows)} intervals of {labels})",
          [] if counters == stored and rows else [f"file {sorted(counters.items())[:6]}", f"store {sorted(stored.items())[:6]}"])
    rcounters = {(e["name"], round(e["ts"] * 100)): e["args"]["count"] for e in rdoc["traceEvents"] if e["ph"] == "C"}
    check("tally report --perfetto: the same counter events, from the store",
          check_shape(rdoc) + ([] if rep.returncode == 0 and rcounters == stored else
                               [f"exit {rep.returncode} {rep.stderr.strip()}", f"{sorted(rcounters.items())[:6]}"]))
    check("cycles and signal totals as without --perfetto",
          [] if js["cycles"] == pj["cycles"] and js["signals"] == pj["signals"] else
          [f"{js['cycles']} vs {pj['cycles']}"])
    with tempfile.TemporaryDirectory() as d:
        small = os.path.join(d, "small.json")
        cut = subprocess.run([tally, "run", "--perfetto", small, "--perfetto-calls", "10", elf] + args,
                             capture_output=True, text=True, timeout=120)
        with open(small) as f:
            sdoc = json.load(f)
        nocreate = subprocess.run([tally, "run", "--perfetto", os.path.join(d, "no", "such", "dir.json"), elf] + args,
                                  capture_output=True, text=True, timeout=120)
    alone = subprocess.run([tally, "run", "--perfetto-calls", "10", elf] + args, capture_output=True, text=True,
                           timeout=120)
    sslices = [dict(e, ts=e["args"]["begin_cycle"], dur=e["args"]["cycles"]) for e in sdoc["traceEvents"]
               if e["ph"] == "X"]
    check("--perfetto-calls 10: at most 11 slices, nested, and said so",
          check_shape(sdoc) + check_nesting(sslices) +
          ([] if len(sslices) <= 11 and "--perfetto-calls bounds them" in cut.stderr and cut.returncode == 0 else
           [f"{len(sslices)} slices, exit {cut.returncode}: {cut.stderr.strip()}"]))
    check("a FILE that cannot be created: exit 73", [] if nocreate.returncode == 73 and "cannot create" in
          nocreate.stderr else [f"exit {nocreate.returncode}: {nocreate.stderr.strip()}"])
    check("--perfetto-calls alone: exit 64", [] if alone.returncode == 64 else [f"exit {alone.returncode}"])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
