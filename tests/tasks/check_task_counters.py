#!/usr/bin/env python3
"""Task counters of the statistics module (docs/statmod.md, "Task counters").

  check_task_counters.py --tally T --switches SWITCHES_ELF --rtos RTOS_PIPELINE_ELF [--db-dir DIR]

switches.elf on the sram core model: cycle@%TASK per interval of 50 cycles
against the timeline derived by hand in switches.c (the same one
tasks.switches checks the profile's slices against); a task name that never
ran, and badly formed specs: clear errors.

rtos_pipeline.elf (argument 100) on tally5 and vexriscv-imac: every task's
SIGNAL@%TASK equals `tally profile --tasks`' total for it (the module's
counters and the profile's contexts are two separate paths: differences of
the run's counters at the switches, and rows charged per context); in every
interval (an odd period, so dispatches fall anywhere, inside trap entries
too) the tasks' counts add up to the anywhere counter's; SIGNAL@FUNCTION%TASK
equals the profile's per-function-within-task self count; and the run's
cycles are the same with task counters as without.

The same counters configured by control packets (tally config --counter
I=SPEC%TASK: SET_TASK, SET_COUNTER's task byte) give the totals of --count;
the store keeps their tasks and tally report shows them per task.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

# the harness of check_tasks.py (same folder): one list of failures
from check_tasks import FAILS, check, run  # noqa: E402


def counts(tally, core, elf, args, specs, tasks=None, interval=50):
    """Runs with the counters, returns (rows of intervals, totals) by spec."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "c.csv")
        cmd = ["run", "--core", core, "--no-store", "--counters", "64", "--interval", str(interval), "--intervals-csv", out]
        if tasks:
            cmd.append("--tasks=" + tasks)
        for s in specs:
            cmd += ["--count", s]
        run(tally, cmd + [elf] + list(args))
        try:
            rows = list(csv.reader(open(out)))
        except OSError as e:
            check(False, "no CSV from %s: %s" % (" ".join(cmd), e))
            return [], {}
    n = len(specs)
    data = [list(map(int, r[3:3 + n])) for r in rows[1:] if r[0] != "total"]
    tot = [list(map(int, r[3:3 + n])) for r in rows[1:] if r[0] == "total"]
    return data, dict(zip(specs, tot[0])) if tot else {}


def switches(a):
    elf = a.switches
    # switches.c's timeline on sram, by hand: [0,7) no task, [7,108) alpha,
    # [108,149) beta, [149,231) alpha, [231,265) beta; intervals of 50 cycles
    specs = ["cycle", "cycle@%alpha", "cycle@%beta", "cycle@%[no task]", "instret@%alpha"]
    data, tot = counts(a.tally, "sram", elf, [], specs, tasks="current")
    want = [[50, 43, 0, 7, 43], [50, 50, 0, 0, 50], [50, 9, 41, 0, 9], [50, 50, 0, 0, 50], [50, 31, 19, 0, 31],
            [15, 0, 15, 0, 0]]
    check(data == want, "switches: intervals %s, by hand %s" % (data, want))
    check(tot.get("cycle@%alpha") == 183 and tot.get("cycle@%beta") == 75,
          "switches: totals %s, by hand alpha 183, beta 75" % tot)
    # interval 1: every cycle's task, the timeline itself
    data, _ = counts(a.tally, "sram", elf, [], specs[1:4], tasks="current", interval=1)
    seg = []
    for c, v in enumerate(data):
        who = ["alpha", "beta", "[no task]"][v.index(1)] if sorted(v) == [0, 0, 1] else "?%s" % v
        if seg and seg[-1][2] == who and seg[-1][1] == c:
            seg[-1][1] = c + 1
        else:
            seg.append([c, c + 1, who])
    want = [[0, 7, "[no task]"], [7, 108, "alpha"], [108, 149, "beta"], [149, 231, "alpha"], [231, 265, "beta"]]
    check(seg == want, "switches: per cycle %s, by hand %s" % (seg, want))
    # a task that never ran: named, the known ones listed, the run still measured
    p = run(a.tally, ["run", "--core", "sram", "--no-store", "--interval", "50", "--tasks=current",
                      "--count", "cycle@%alpa", elf], 64)
    check("'alpa'" in p.stderr and "alpha, beta" in p.stderr and "cycles while alpa runs" in p.stderr,
          "switches: an unknown task said %r" % p.stderr)
    for spec, says in [("cycle%alpha", "a task goes after '@'"), ("cycle@main%", "nothing after '%'"),
                       ("cycle@%a%b", "cannot have")]:
        p = run(a.tally, ["run", "--core", "sram", "--no-store", "--interval", "50", "--count", spec, elf], 64)
        check(says in p.stderr and spec in p.stderr, "switches: --count %s said %r" % (spec, p.stderr))
    # a convention the program does not follow: the task counter cannot work
    p = run(a.tally, ["run", "--core", "sram", "--no-store", "--interval", "50", "--tasks=freertos",
                      "--count", "cycle@%alpha", elf], 64)
    check("pxCurrentTCB" in p.stderr and "cycle@%alpha" in p.stderr, "switches: --tasks=freertos said %r" % p.stderr)


def profile(tally, core, elf, args):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "p.json")
        run(tally, ["profile", "-q", "--core", core, "--tasks", "--json", out, elf] + list(args))
        try:
            return json.load(open(out))
        except (OSError, ValueError) as e:
            check(False, "no profile: %s" % e)
            return None


def rtos(a, core):
    elf, args = a.rtos, ["100"]
    d = profile(a.tally, core, elf, args)
    if not d:
        return
    tasks = d["tasks"]["list"]
    names = [t["name"] for t in tasks]
    sigs = ["cycle", "instret", "stall"]
    specs = list(sigs)
    for s in sigs:
        specs += ["%s@%%%s" % (s, n) for n in names]
    # per function within a task: each task's function with the most self cycles
    pairs = []
    for t in tasks:
        fs = [f for f in t["functions"] if f["name"] != "[unknown]"]
        if fs:
            f = max(fs, key=lambda f: f["self"]["cycle"])
            pairs.append((t["name"], f["name"], f["self"]))
            specs += ["cycle@%s%%%s" % (f["name"], t["name"]), "instret@%s%%%s" % (f["name"], t["name"])]
    with tempfile.TemporaryDirectory():
        data, tot97 = counts(a.tally, core, elf, args, specs, interval=97)
        # and from a period that rarely splits a block: the same totals
        # (the module's dispatches change nothing, timing.split_law)
        _, tot = counts(a.tally, core, elf, args, specs, interval=1000000)
    label = "rtos_pipeline on %s" % core
    if not tot:
        return
    diff = sorted(k for k in tot if tot.get(k) != tot97.get(k))
    check(not diff, "%s: totals counted every 97 cycles differ from every 1,000,000 in %s" % (label, diff))
    for t in tasks:
        for s in sigs:
            spec = "%s@%%%s" % (s, t["name"])
            check(tot.get(spec) == t["total"][s], "%s: %s is %s, the profile's %s" % (label, spec, tot.get(spec),
                                                                                       t["total"][s]))
    for s in sigs:
        check(sum(tot["%s@%%%s" % (s, n)] for n in names) == tot[s] == d["totals"][s],
              "%s: the tasks' %s add up to %d, the run's %d (profile %d)"
              % (label, s, sum(tot["%s@%%%s" % (s, n)] for n in names), tot[s], d["totals"][s]))
    # every interval: the tasks' counts add up to the anywhere counter's
    bad = 0
    for row in data:
        v = dict(zip(specs, row))
        for s in sigs:
            if sum(v["%s@%%%s" % (s, n)] for n in names) != v[s]:
                bad += 1
    check(bad == 0 and len(data) > 1000, "%s: %d of %d intervals where the tasks do not add up" % (label, bad,
                                                                                                  len(data)))
    for task, func, self in pairs:
        for s in ("cycle", "instret"):
            spec = "%s@%s%%%s" % (s, func, task)
            check(tot.get(spec) == self[s], "%s: %s is %s, the profile's %s in %s %s" % (label, spec, tot.get(spec),
                                                                                          func, task, self[s]))
    for s in sigs:
        check(tot97 and sum(tot97["%s@%%%s" % (s, n)] for n in names) == tot97[s],
              "%s, period 97: the tasks' %s do not add up to the run's %s" % (label, s, tot97.get(s)))
    # not perturbed: the same cycles without any task counter
    _, plain = counts(a.tally, core, elf, args, ["cycle"], interval=97)
    check(plain.get("cycle") == tot97.get("cycle"), "%s: %s cycles without task counters, %s with"
          % (label, plain.get("cycle"), tot97.get("cycle")))


def stored_and_control(a):
    """The store keeps task counters (their task from where's "%TASK"),
    tally report shows them per task; the same counters configured by
    control packets (tally config --counter I=SPEC%TASK: SET_TASK, and
    SET_COUNTER's task byte) give the same totals as --count."""
    import re
    elf, core = a.rtos, "tally5"
    specs = ["cycle", "cycle@%producer", "instret@produce%producer", "cycle@%filter"]
    _, want = counts(a.tally, core, elf, ["100"], specs, interval=100000)
    with tempfile.TemporaryDirectory() as d:
        db = os.path.join(d, "t.db")
        p = subprocess.Popen([a.tally, "run", "--core", core, "--control", "127.0.0.1:0", "--db", db,
                              "--show-intervals", "0", elf, "100"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
        line = p.stderr.readline()
        m = re.search(r"waiting for the configuration on (\S+?),? ", line)
        if not m:
            p.kill()
            check(False, "tally run --control did not wait: %s" % line)
            return
        c = run(a.tally, ["config", "--board", m.group(1), "--program", elf, "--timer", "100000",
                          "--counter", "0=cycle", "--counter", "1=cycle@%producer",
                          "--counter", "2=instret@produce%producer", "--counter", "3=cycle@%filter", "--start"])
        check(c.stdout.count("task 1 = producer") == 1 and "task 2 = filter" in c.stdout
              and "counter 2 = instret in ARR 0 in task 1" in c.stdout, "tally config said %r" % c.stdout)
        _, err = p.communicate(timeout=60)
        check(p.returncode == 0, "the control run exited %d: %s" % (p.returncode, err[-600:]))
        r = run(a.tally, ["report", "--db", db, "--json", "latest"])
        try:
            j = json.loads(r.stdout)
        except ValueError:
            check(False, "report --json: %r" % r.stdout[:300])
            return
        tasks = [c["task"] for c in j["counters"][:4]]
        check(tasks == [None, "producer", "producer", "filter"], "stored tasks %s" % tasks)
        got = [t["stored"] for t in j["totals"]["counters"][:4]]
        check(got == [want.get(s) for s in specs], "control run's totals %s, --count's %s" % (got, want))
        t = run(a.tally, ["report", "--db", db, "latest"]).stdout
        rows = t[t.find("per task"):].splitlines()
        check(len(rows) == 5 and rows[2].split()[:4] == ["producer", "#1", "cycle", "{:,}".format(want["cycle@%producer"])]
              and rows[3].split()[:3] == ["#2", "instret@produce", "{:,}".format(want["instret@produce%producer"])]
              and rows[4].split()[:2] == ["filter", "#3"],
              "report's per-task rows: %s" % rows)
        share = 100.0 * want["cycle@%producer"] / want["cycle"]
        check("%5.1f%% of #0" % share in rows[2], "report's share: %r, by hand %.1f%%" % (rows[2], share))


def control_refused(a):
    """A board whose program follows no known convention refuses SET_TASK
    (ERROR 7, the reason said); more than 16 tasks are refused before
    anything is sent."""
    import re
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.Popen([a.tally, "run", "--core", "sram", "--control", "127.0.0.1:0", "--db",
                              os.path.join(d, "t.db"), a.switches], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
        try:
            line = p.stderr.readline()
            m = re.search(r"waiting for the configuration on (\S+?),? ", line)
            check(m is not None, "tally run --control did not wait: %s" % line)
            if m:
                c = subprocess.run([a.tally, "config", "--board", m.group(1), "--counter", "0=cycle@%alpha"],
                                   capture_output=True, text=True, timeout=30)
                check(c.returncode != 0 and "refused task 1 = alpha" in c.stderr and "kernel conventions" in c.stderr,
                      "SET_TASK on a program without a convention: %d %r" % (c.returncode, c.stderr))
        finally:
            p.kill()
            p.communicate()
    many = []
    for i in range(17):
        many += ["--counter", "%d=cycle@%%t%d" % (i, i)]
    c = run(a.tally, ["config", "--board", "127.0.0.1:9"] + many, 64)
    check("more than 16 different tasks" in c.stderr, "17 tasks: %r" % c.stderr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tally", required=True)
    ap.add_argument("--switches", required=True)
    ap.add_argument("--rtos", required=True)
    ap.add_argument("--core", action="append", default=[])
    a = ap.parse_args()
    switches(a)
    for core in a.core or ["tally5"]:
        rtos(a, core)
    stored_and_control(a)
    control_refused(a)
    if FAILS:
        print("%d failures" % len(FAILS))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
