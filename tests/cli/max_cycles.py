#!/usr/bin/env python3
"""--max-cycles in every mode that runs a program: tally run (functional
and timed, with --count), tally profile, tally sweep, tally dvfs. The
guest of most cases, sleep_long.elf, sleeps in wfi until a timer 2^52
ticks away: no instruction retires while it sleeps, so --max-insns never
ends it; the cycle budget must, at once, with the run kept.

Expected values by hand: sleep_long retires 7 instructions up to and with
its first wfi (lui, sw, lui, sw, addi, csrw, wfi); a functional run counts
one cycle per instruction, so hanoi under --max-cycles N retires exactly N;
a timed run stops at the first instruction boundary at or past N, and no
tally5 instruction takes 100 cycles; a stored run of C cycles at interval
I has ceil(C / I) intervals.

usage: max_cycles.py CASE TALLY TEST_PROGRAMS_DIR WORKLOADS_DIR WORK_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys

CASE, TALLY, PROGS, WL, WORK = sys.argv[1:6]
SLEEP = os.path.join(PROGS, "sleep_long.elf")
FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL: " + what, file=sys.stderr)


def run(*args, timeout=60):
    return subprocess.run([TALLY] + list(args), capture_output=True, text=True, timeout=timeout, cwd=WORK)


def case_run():
    r = run("run", "-v", "--max-cycles", "1M", SLEEP)
    check(r.returncode == 123 and "--max-cycles reached after 7 instructions" in r.stderr,
          "functional wfi sleep: %d %s" % (r.returncode, r.stderr))
    r = run("run", "-v", "--max-cycles", "12345", os.path.join(WL, "hanoi.elf"))
    check(r.returncode == 123 and "after 12,345 instructions" in r.stderr,
          "functional hanoi: one cycle an instruction: %d %s" % (r.returncode, r.stderr))
    for prog, insns in ((SLEEP, 7), (os.path.join(WL, "hanoi.elf"), None)):
        js = os.path.join(WORK, "s.json")
        r = run("run", "--core", "tally5", "--max-cycles", "2M", "--stats-json", js, prog)
        st = json.load(open(js)) if os.path.exists(js) else {}
        check(r.returncode == 123 and st.get("exit_status") == 123 and 2000000 <= st.get("cycles", 0) < 2000100,
              "timed %s: %d %s %s" % (prog, r.returncode, st, r.stderr))
        if insns:
            check(st.get("instructions") == insns, "timed sleep: %s instructions, 7 by hand" % st.get("instructions"))
    for bad in ("0", "-1", "x", "1.5M"):
        r = run("run", "--max-cycles", bad, SLEEP)
        check(r.returncode == 64 and "--max-cycles" in r.stderr, "--max-cycles %s: %d %s" % (bad, r.returncode, r.stderr))


def case_count():
    db = os.path.join(WORK, "c.db")
    r = run("run", "--count", "cycle", "--interval", "1000", "--db", db, "--max-cycles", "2M", SLEEP)
    check(r.returncode == 123, "--count: status %d %s" % (r.returncode, r.stderr))
    m = re.search(r"run (0x[0-9a-f]{16}) stored", r.stderr)
    check(m, "the run is stored: %s" % r.stderr)
    if not m:
        return
    rep = json.loads(run("report", m.group(1), "--db", db, "--json").stdout)
    cycles = rep.get("totals", {}).get("counters", [{}])[0].get("board")  # counter 0 counts cycles
    iv = rep["run"]["intervals_stored"]
    check(rep["run"]["status"] == "incomplete" and "--max-cycles reached" in rep["run"]["note"],
          "stored incomplete, saying why: %s" % rep["run"])
    check(cycles is not None and 2000000 <= cycles < 2000100 and iv == -(-cycles // 1000),
          "%s cycles (the budget 2,000,000), %d intervals, ceil(cycles / 1000) = %s"
          % (cycles, iv, -(-cycles // 1000) if cycles else None))


def case_profile():
    r = run("profile", "--max-cycles", "1M", "--json", os.path.join(WORK, "p.json"), SLEEP)
    p = json.load(open(os.path.join(WORK, "p.json"))) if os.path.exists(os.path.join(WORK, "p.json")) else {}
    check(r.returncode == 123 and "--max-cycles reached" in r.stderr, "profile: %d %s" % (r.returncode, r.stderr))
    run_ = p.get("run", {})
    check(run_.get("stop") == "cycles" and run_.get("instructions") == 7 and 1000000 <= run_.get("cycles", 0) < 1000100,
          "the profile's JSON: stopped at the cycle budget after 7 instructions: %s" % run_)


def case_sweep():
    r = run("sweep", "-p", SLEEP, "-a", "icache.size=4K,8K", "--max-cycles", "3M", "--db", os.path.join(WORK, "s.db"),
            "--json", os.path.join(WORK, "s.json"))
    s = json.load(open(os.path.join(WORK, "s.json"))) if os.path.exists(os.path.join(WORK, "s.json")) else {}
    pts = s.get("points", [])
    check(len(pts) == 2 and all(3000000 <= x["metrics"]["cycles"] < 3000100 and x["metrics"]["exit"] == -1
                                and x["metrics"]["instructions"] == 7 for x in pts),
          "sweep points end at the budget: %d %s %s" % (r.returncode, pts, r.stderr))


def case_dvfs():
    r = run("dvfs", SLEEP, "-o", os.path.join(WORK, "o.elf"), "--max-cycles", "1M", timeout=120)
    check(r.returncode == 123 and "--max-cycles reached" in r.stderr, "dvfs: %d %s" % (r.returncode, r.stderr))
    r = run("dvfs", SLEEP, "-o", os.path.join(WORK, "o.elf"), "--max-cycles", "none")
    check(r.returncode == 64 and "--max-cycles" in r.stderr, "dvfs bad value: %d %s" % (r.returncode, r.stderr))


if __name__ == "__main__":
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    globals()["case_" + CASE]()
    if FAILS:
        sys.exit(1)
    print("all checks passed")
