#!/usr/bin/env python3
"""Checks of `tally profile --tasks` (docs/profile.md, "Tasks").

  check_tasks.py switches --tally T SWITCHES_ELF
      the hand-derived timeline of switches.c on the sram core model: per-task
      cycles, instructions and switches, the Perfetto slices at their exact
      cycles, the same totals with the task layer off, a convention the
      program does not follow (a message, the run still measured).
  check_tasks.py bad --tally T BAD_ELF
      a pointer outside RAM, a name that is not a string: notes, names made of
      the pointer, the run measured as without tasks; usage errors.
  check_tasks.py laws --tally T --core C... ELF[:ARG]...
      per-task totals add up to the run's in every signal, each task's
      functions to the task, folded stacks rooted at the tasks, and every
      total the same as without --tasks.
  check_tasks.py irq --tally T --source-dir SRC --core C... IRQ_TASKS_ELF
      interrupt latency per task running when the line rose, on irq_tasks.c
      (bytes 1-3 interrupt alpha asleep in wfi, 4-5 beta): each latency is
      the model's wake-up cost, cpi.system + trap_penalty from its .ini
      (docs/timing.md), in tally run -v, --stats-json and tally profile
      --tasks; the per-task counts add up to the source's; the same cycles
      without --tasks.
  check_tasks.py uart --tally T --source-dir SRC --core C... RTOS_UART_ELF
      target/rtos/rtos_uart.c fed target/rtos/rtos_uart.rx: its output equals
      the one computed here from the input's numbers (and QEMU's, given the
      same text on its serial port, when qemu-system-riscv32 is installed),
      functional and on each core model; with --tasks the latencies per
      task add up to the source's (counts, min, max).
  check_tasks.py gmon --tally T RTOS_PIPELINE_ELF
      tally profile --tasks --gmon FILE: FILE.TASK per task, read by binutils
      gprof: rtos_pipeline 100's producer calls produce() 100 times (and main
      100 more: 200 in FILE), filter transform(), consumer fold(); the tasks'
      files' cycles add up to FILE's.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL:", what)


def run(tally, args, expect_status=0):
    p = subprocess.run([tally] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    check(p.returncode == expect_status,
          "tally %s: status %d, expected %d\n%s" % (" ".join(args), p.returncode, expect_status, p.stderr))
    return p


def profile(tally, core, elf, args, tasks=None, extra=(), status=0):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "p.json")
        cmd = ["profile", "-q", "--core", core, "--json", out] + list(extra)
        if tasks is not None:
            cmd.append("--tasks" if tasks == "" else "--tasks=" + tasks)
        p = run(tally, cmd + [elf] + list(args), status)
        try:
            with open(out) as f:
                return json.load(f), p
        except (OSError, ValueError) as e:
            check(False, "no JSON profile from %s: %s" % (" ".join(cmd), e))
            return None, p


def counted(d):
    return [s for s in d["signals"] if not s.startswith("marker")]


def laws(d, label):
    """Per-task totals and per-task functions add up exactly."""
    tasks = d["tasks"]["list"]
    for s in counted(d):
        total = sum(t["total"][s] for t in tasks)
        check(total == d["totals"][s], "%s: tasks' %s add up to %d, the run's is %d" % (label, s, total, d["totals"][s]))
        for t in tasks:
            fsum = sum(f["self"][s] for f in t["functions"])
            check(fsum == t["total"][s], "%s: %s's functions' self %s add up to %d, the task's is %d"
                  % (label, t["name"], s, fsum, t["total"][s]))
            for f in t["functions"]:
                check(f["inclusive"][s] >= f["self"][s] and f["inclusive"][s] <= t["total"][s],
                      "%s: %s/%s inclusive %s out of bounds" % (label, t["name"], f["name"], s))
    names = {t["name"] for t in tasks}
    for st in d["stacks"]:
        check(st["frames"][0] in names, "%s: a stack not rooted at a task: %s" % (label, st["frames"]))
    scyc = sum(st["cycles"] for st in d["stacks"])
    check(scyc == d["totals"]["cycle"], "%s: stacks hold %d cycles of %d" % (label, scyc, d["totals"]["cycle"]))


def callgrind_laws(path, d, label):
    """The Callgrind file with tasks: a root function "[TASK]" per task, the
    self cost lines add up to the totals line and to the run's cycles, and
    each root's call lines and self add up to the task's cycles."""
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        check(False, "%s: no Callgrind file: %s" % (label, e))
        return
    names, fn, in_call, selfc, incl = {}, None, False, {}, {}
    total = None
    for ln in lines:
        if ln.startswith("fn="):
            ident, _, name = ln[3:].partition(" ")
            if name:
                names[ident] = name
            fn = names.get(ident)
            in_call = False
        elif ln.startswith("cfn="):
            ident, _, name = ln[4:].partition(" ")
            if name:
                names[ident] = name
        elif ln.startswith("calls="):
            in_call = True
        elif ln.startswith("0 0 "):
            cyc = int(ln.split()[2])
            if in_call:
                incl[fn] = incl.get(fn, 0) + cyc
                in_call = False
            else:
                selfc[fn] = selfc.get(fn, 0) + cyc
        elif ln.startswith("totals:"):
            total = int(ln.split()[1])
    check(total == d["totals"]["cycle"], "%s: Callgrind totals %s, run %d" % (label, total, d["totals"]["cycle"]))
    check(sum(selfc.values()) == d["totals"]["cycle"], "%s: Callgrind self costs add up to %d" % (label, sum(selfc.values())))
    for t in d["tasks"]["list"]:
        root = "[%s]" % t["name"]
        got = selfc.get(root, 0) + incl.get(root, 0)
        check(got == t["total"]["cycle"], "%s: Callgrind root %s holds %d cycles, the task %d" % (label, root, got, t["total"]["cycle"]))


def same_totals(a, b, label):
    for s in a["signals"]:
        check(a["totals"][s] == b["totals"][s],
              "%s: %s is %d with tasks, %d without" % (label, s, a["totals"][s], b["totals"][s]))
    check(a["run"]["exit_status"] == b["run"]["exit_status"], "%s: exit status differs" % label)


def by_name(d):
    return {t["name"]: t for t in d["tasks"]["list"]}


def cmd_switches(a):
    elf = a.elfs[0]
    d, _ = profile(a.tally, "sram", elf, [], tasks="current")
    if not d:
        return
    laws(d, "switches")
    t = by_name(d)
    check(set(t) == {"[no task]", "alpha", "beta"}, "switches: tasks %s" % sorted(t))
    want = {"[no task]": (7, 1), "alpha": (183, 2), "beta": (75, 2)}
    for name, (cyc, sw) in want.items():
        if name in t:
            check(t[name]["total"]["cycle"] == cyc, "switches: %s ran %d cycles, by hand %d" % (name, t[name]["total"]["cycle"], cyc))
            check(t[name]["total"]["instret"] == cyc, "switches: %s retired %d, by hand %d" % (name, t[name]["total"]["instret"], cyc))
            check(t[name]["switches"] == sw, "switches: %s switched to %d times, by hand %d" % (name, t[name]["switches"], sw))
    check(d["totals"]["cycle"] == 265, "switches: %d cycles, by hand 265" % d["totals"]["cycle"])
    check("name `name' at +8" in d["tasks"]["source"], "switches: source %r" % d["tasks"]["source"])
    # nothing perturbed
    off, _ = profile(a.tally, "sram", elf, [])
    if off:
        same_totals(d, off, "switches")
    # the Perfetto timeline: one track per task, slices at the hand-derived cycles
    with tempfile.TemporaryDirectory() as dd:
        pf = os.path.join(dd, "t.json")
        run(a.tally, ["profile", "-q", "--core", "sram", "--tasks=current", "--perfetto", pf, elf])
        try:
            ev = json.load(open(pf))["traceEvents"]
        except (OSError, ValueError) as e:
            check(False, "switches: no Perfetto file: %s" % e)
            ev = []
        tracks = {e["tid"]: e["args"]["name"] for e in ev if e.get("ph") == "M" and e["name"] == "thread_name" and e.get("tid", 0) >= 100}
        slices = sorted((e["ts"], e["ts"] + e["dur"], tracks.get(e["tid"])) for e in ev if e.get("ph") == "X")
        want = [(0, 7, "[no task]"), (7, 108, "alpha"), (108, 149, "beta"), (149, 231, "alpha"), (231, 265, "beta")]
        check(slices == want, "switches: Perfetto slices %s, by hand %s" % (slices, want))
    # a convention the program does not follow: said, and the run still measured
    d2, p = profile(a.tally, "sram", elf, [], tasks="freertos")
    check("pxCurrentTCB" in p.stderr and "profiling without tasks" in p.stderr, "switches: --tasks=freertos said %r" % p.stderr)
    if d2:
        check("tasks" not in d2, "switches: tasks without the convention's symbol")
        same_totals(d2, off, "switches --tasks=freertos")
    _, p = profile(a.tally, "sram", elf, [], tasks="", status=0)
    check("none of the kernel conventions" in p.stderr, "switches: bare --tasks said %r" % p.stderr)


def cmd_bad(a):
    elf = a.elfs[0]
    d, p = profile(a.tally, "tally5", elf, [], tasks="current")
    if not d:
        return
    check("bad_tasks:" in p.stdout, "bad: the program's output is missing: %r" % p.stdout)
    laws(d, "bad")
    notes = d["tasks"]["notes"]
    check(any("0x00001000" in n and "outside RAM" in n for n in notes), "bad: no note of the pointer outside RAM: %s" % notes)
    check(any("is not a string" in n and "`name'" in n for n in notes), "bad: no note of the name: %s" % notes)
    check(len(notes) == 2, "bad: %d notes, expected one per bad task: %s" % (len(notes), notes))
    names = set(by_name(d))
    check("task@0x00001000" in names and "good" in names, "bad: tasks %s" % sorted(names))
    check(any(n.startswith("task@0x8") for n in names), "bad: the unreadable name's task: %s" % sorted(names))
    off, _ = profile(a.tally, "tally5", elf, [])
    if off:
        same_totals(d, off, "bad")
    # the text report says it too
    p = run(a.tally, ["profile", "--core", "tally5", "--tasks=current", "--top", "1", elf])
    check("note: tasks: the current-task pointer at" in p.stdout, "bad: the text report has no note")
    # the run still measured when the variable does not exist
    d3, p = profile(a.tally, "tally5", elf, [], tasks="no_such_task_pointer")
    check("no variable `no_such_task_pointer'" in p.stderr, "bad: missing variable said %r" % p.stderr)
    if d3 and off:
        same_totals(d3, off, "bad --tasks=no_such_task_pointer")
    _, p = profile(a.tally, "tally5", elf, [], tasks="tcb_good.name")
    check("is not a pointer" in p.stderr, "bad: a path that is no pointer said %r" % p.stderr)
    _, p = profile(a.tally, "tally5", elf, [], tasks="0x1002")
    check("not word-aligned" in p.stderr, "bad: an unaligned address said %r" % p.stderr)
    _, p = profile(a.tally, "tally5", elf, [], tasks="0x00000100")
    check("outside RAM" in p.stderr, "bad: an address outside RAM said %r" % p.stderr)
    p = run(a.tally, ["profile", "--tasks=", elf], 64)
    check("--tasks= wants" in p.stderr, "bad: an empty --tasks= said %r" % p.stderr)
    p = run(a.tally, ["profile", "--perfetto", "/dev/null", elf], 64)
    check("give --tasks too" in p.stderr, "bad: --perfetto without --tasks said %r" % p.stderr)


def cmd_laws(a):
    for core in a.core:
        for spec in a.elfs:
            elf, _, arg = spec.partition(":")
            args = [arg] if arg else []
            label = "%s %s on %s" % (os.path.basename(elf), arg, core)
            with tempfile.TemporaryDirectory() as dd:
                cgf = os.path.join(dd, "cg.out")
                d, p = profile(a.tally, core, elf, args, tasks="", extra=["--callgrind", cgf])
                if not d:
                    continue
                callgrind_laws(cgf, d, label)
            check(": OK" in p.stdout, "%s: the program did not pass: %r" % (label, p.stdout))
            check("tasks" in d, "%s: no tasks" % label)
            if "tasks" not in d:
                continue
            laws(d, label)
            check(d["tasks"]["notes"] == [], "%s: notes %s" % (label, d["tasks"]["notes"]))
            names = set(by_name(d))
            for want in a.expect:
                prog, _, n = want.partition("=")
                if prog == os.path.basename(elf) + (":" + arg if arg else ""):
                    check(set(n.split(",")) <= names, "%s: tasks %s lack %s" % (label, sorted(names), n))
            off, _ = profile(a.tally, core, elf, args)
            if off:
                same_totals(d, off, label)


def cmd_conventions(a):
    """FreeRTOS and Zephyr conventions: the offsets found through DWARF (the
    name member in another unit; a path through an array element), the
    names read, switches counted, the laws."""
    fr, ze, rs = a.elfs
    want = {fr: ("freertos", "pxCurrentTCB", "pcTaskName", {"IDLE": 3, "Sensor": 3}),
            ze: ("zephyr", "_kernel.cpus[0].current", "name", {"main": 3, "net_rx": 3})}
    for elf, (conv, var, member, tasks) in want.items():
        for spec in (conv, ""):  # by name, and found by auto
            d, p = profile(a.tally, "tally5", elf, [], tasks=spec)
            if not d or "tasks" not in d:
                check(False, "%s --tasks=%s: no tasks: %s" % (elf, spec, p.stderr))
                continue
            src = d["tasks"]["source"]
            check(src.startswith(conv + ": " + var) and "`%s'" % member in src, "%s: source %r" % (conv, src))
            laws(d, conv)
            got = {t["name"]: t["switches"] for t in d["tasks"]["list"]}
            for n, sw in tasks.items():
                check(got.get(n) == sw, "%s: task %s switched to %s times, expected %d (%s)" % (conv, n, got.get(n), sw, got))
            check(d["tasks"]["notes"] == [], "%s: notes %s" % (conv, d["tasks"]["notes"]))
    # the offsets, against the compiler's own layout as readelf shows it is not needed:
    # the names are right only if the offsets are (pcTaskName at +52, name at +32)
    d, _ = profile(a.tally, "tally5", fr, [], tasks="freertos")
    if d:
        check("at +52 (a char array)" in d["tasks"]["source"], "freertos: offset %r" % d["tasks"]["source"])
    d, _ = profile(a.tally, "tally5", ze, [], tasks="zephyr")
    if d:
        check("at +32 (a char array)" in d["tasks"]["source"], "zephyr: offset %r" % d["tasks"]["source"])
    # a register (reg_switch.c): read at every return from the handler
    d, p = profile(a.tally, "tally5", rs, [], tasks="reg:s11")
    if d and "tasks" in d:
        laws(d, "reg:s11")
        check("register s11 (x27)" in d["tasks"]["source"], "reg: source %r" % d["tasks"]["source"])
        got = sorted((t["name"][:7], t["switches"]) for t in d["tasks"]["list"])
        check(got == [("[no tas", 1), ("task@0x", 2), ("task@0x", 2), ("trap:11", 4)], "reg: tasks %s" % got)
        off, _ = profile(a.tally, "tally5", rs, [])
        if off:
            same_totals(d, off, "reg:s11")
    else:
        check(False, "reg:s11: no tasks: %s" % p.stderr)
    _, p = profile(a.tally, "tally5", rs, [], tasks="reg:sp")
    check("expected reg:REGISTER" in p.stderr, "reg: sp said %r" % p.stderr)
    _, p = profile(a.tally, "tally5", ze, [], tasks="_kernel.cpus[2].current")
    check("index 2 is past the array's 2 elements" in p.stderr, "zephyr: a bad index said %r" % p.stderr)
    _, p = profile(a.tally, "tally5", ze, [], tasks="_kernel.cpu[0].current")
    check("has no member `cpu'" in p.stderr, "zephyr: a bad member said %r" % p.stderr)


def model_value(src, core, key, default):
    import re
    text = open(os.path.join(src, "cores", core + ".ini")).read()
    m = re.search(r"^\s*%s\s*=\s*(\d+)" % re.escape(key), text, re.M)
    return int(m.group(1)) if m else default  # docs/core-models.md: the defaults


def irq_task_lines(stderr):
    import re
    return {m.group(1): tuple(int(x.replace(",", "")) for x in m.groups()[1:])
            for m in re.finditer(r"tally: irq 10 while (\S+) ran: ([\d,]+) interrupts taken, latency min ([\d,]+) / "
                                 r"median ([\d,]+) / max ([\d,]+) cycles \(jitter ([\d,]+)\)", stderr)}


def cmd_irq(a):
    elf = a.elfs[0]
    with tempfile.TemporaryDirectory() as d:
        rx = os.path.join(d, "rx.txt")
        with open(rx, "w") as f:
            f.write("# one byte at a time, each long after the last was handled\n")
            for k, ch in enumerate("abcde"):
                f.write("%d %s\n" % (3000 * (k + 1), ch))
        for core in a.core:
            lat = model_value(a.source_dir, core, "cpi.system", 1) + model_value(a.source_dir, core, "trap_penalty", 3)
            want = {"alpha": (3, lat, lat, lat, 0), "beta": (2, lat, lat, lat, 0)}
            js = os.path.join(d, "s.json")
            p = run(a.tally, ["run", "-v", "--core", core, "--tasks=current", "--uart-rx", rx, "--stats-json", js, elf])
            check(irq_task_lines(p.stderr) == want, "%s: run -v per task %s, expected %s\n%s" %
                  (core, irq_task_lines(p.stderr), want, p.stderr))
            with open(js) as f:
                st = json.load(f)
            src = st.get("interrupts", {}).get("10", {})
            per = {t["task"]: (t["taken"], t["latency_min"], t["latency_median"], t["latency_max"], t["jitter"])
                   for t in src.get("tasks", [])}
            check(per == want, "%s: --stats-json per task %s, expected %s" % (core, per, want))
            check(src.get("taken") == 5 and sum(v[0] for v in per.values()) == src.get("taken"),
                  "%s: per-task counts do not add up to the source's: %s" % (core, src))
            check((src.get("latency_min"), src.get("latency_max")) == (lat, lat), "%s: totals %s" % (core, src))
            # without the task layer: the same cycles, no per-task lines
            q = run(a.tally, ["run", "-v", "--core", core, "--uart-rx", rx, "--stats-json", js, elf])
            with open(js) as f:
                st0 = json.load(f)
            check(st0["cycles"] == st["cycles"] and "tasks" not in st0["interrupts"]["10"]
                  and not irq_task_lines(q.stderr), "%s: without --tasks: %d cycles (with: %d) %s" %
                  (core, st0["cycles"], st["cycles"], q.stderr))
            # tally profile --tasks reports the same
            p = run(a.tally, ["profile", "-q", "--core", core, "--tasks=current", "--uart-rx", rx, elf])
            check(irq_task_lines(p.stderr) == want, "%s: profile per task %s" % (core, irq_task_lines(p.stderr)))
        # bad --tasks: a usage error for an empty one; a variable the program
        # lacks costs the per-task lines, not the run
        run(a.tally, ["run", "--tasks=", "--uart-rx", rx, elf], 64)
        p = run(a.tally, ["run", "-v", "--tasks=nosuch", "--uart-rx", rx, elf])
        check("--tasks:" in p.stderr and "no latencies per task" in p.stderr and not irq_task_lines(p.stderr)
              and "irq 10: 5 rises, 5 interrupts taken" in p.stderr, "--tasks=nosuch: %s" % p.stderr)


def mix32(x):
    """tally_mix32 of target/include/tally/target.h."""
    x ^= x >> 16
    x = (x * 0x7feb352d) & 0xffffffff
    x ^= x >> 15
    x = (x * 0x846ca68b) & 0xffffffff
    x ^= x >> 16
    return x


def rx_text(path):
    """The bytes of a --uart-rx file (only the \\n escape is used there)."""
    out = ""
    for line in open(path):
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        text = line.partition(" ")[2]
        check("\\" not in text.replace("\\n", ""), "rx line with another escape: %r" % line)
        out += text.replace("\\n", "\n")
    return out


def uart_expected(text):
    """rtos_uart.c's output for the input text, written independently."""
    out, lines, acc = [], 0, 0x811c9dc5
    for line in text.split("\n"):
        line = line.replace("\r", "")
        if line.startswith("q"):
            break
        if not line:
            continue
        if line.isdigit() and len(line) <= 9:
            n = int(line)
            x = n
            for k in range(n):
                x = mix32((x + k) & 0xffffffff)
            out.append("%d -> %08x" % (n, x))
        else:
            out.append("rtos_uart: not a number, skipped")
            x = 0
        lines += 1
        acc = ((acc ^ x) * 0x01000193) & 0xffffffff
    out.append("rtos_uart: %d lines, checksum %08x" % (lines, acc))
    out.append("rtos_uart: OK")
    return "\n".join(out) + "\n"


def cmd_uart(a):
    import shutil
    elf = a.elfs[0]
    rx = os.path.join(a.source_dir, "target", "rtos", "rtos_uart.rx")
    text = rx_text(rx)
    want = uart_expected(text)
    check(want.count(" -> ") >= 40, "the input has %d numbers" % want.count(" -> "))
    p = run(a.tally, ["run", "-v", "--uart-rx", rx, elf])
    check(p.stdout == want, "functional output differs:\n%s--- expected\n%s" % (p.stdout, want))
    qemu = os.path.join(a.source_dir, "scripts", "qemu-run.sh")
    if shutil.which("qemu-system-riscv32"):
        q = subprocess.run([qemu, elf], input=text, capture_output=True, text=True, timeout=60)
        check(q.returncode == 0 and q.stdout == want, "QEMU: status %d, output:\n%s%s" % (q.returncode, q.stdout,
                                                                                       q.stderr))
    else:
        print("note: qemu-system-riscv32 not installed; the QEMU comparison is skipped")
    with tempfile.TemporaryDirectory() as d:
        js = os.path.join(d, "s.json")
        for core in a.core:
            p = run(a.tally, ["run", "--core", core, "--tasks=tally", "--uart-rx", rx, "--stats-json", js, elf])
            check(p.stdout == want, "%s: output differs:\n%s" % (core, p.stdout))
            with open(js) as f:
                src = json.load(f)["interrupts"]["10"]
            per = src.get("tasks", [])
            check(per and sum(t["taken"] for t in per) == src["taken"] and src["taken"] > 40 and
                  min(t["latency_min"] for t in per) == src["latency_min"] and
                  max(t["latency_max"] for t in per) == src["latency_max"] and
                  all(t["task"] is not None for t in per),
                  "%s: per-task latencies do not add up: %s" % (core, src))
            names = {t["task"] for t in per}
            check({"stats", "logger"} <= names, "%s: interrupted tasks %s" % (core, sorted(names)))


def gprof_flat(gprof, elf, path):
    """{function: (self cycles, calls or None)} of gprof's flat profile."""
    import re
    p = subprocess.run([gprof, "-b", "-p", elf, path], capture_output=True, text=True, timeout=60)
    check(p.returncode == 0, "gprof %s: %s" % (path, p.stderr))
    rows = {}
    for line in p.stdout.splitlines():
        m = re.match(r"^\s*[\d.]+\s+[\d.]+\s+([\d.]+)\s+(\d+)?\s*(?:[\d.]+\s+[\d.]+\s+)?(\S+)\s*$", line)
        if m:
            rows[m.group(3)] = (float(m.group(1)), int(m.group(2)) if m.group(2) else None)
    return rows


def cmd_gmon(a):
    import shutil
    gprof = shutil.which("riscv64-unknown-elf-gprof")
    if not gprof:
        print("note: riscv64-unknown-elf-gprof not installed; nothing checked")
        return
    elf = a.elfs[0]
    with tempfile.TemporaryDirectory() as d:
        g = os.path.join(d, "gmon.out")
        run(a.tally, ["profile", "-q", "--tasks", "--gmon", g, elf, "100"])
        files = sorted(f for f in os.listdir(d) if f.startswith("gmon.out."))
        want = ["gmon.out." + t for t in ("_no_task_", "consumer", "filter", "irq_7", "producer", "stats", "trap_11")]
        check(files == want, "per-task files %s, expected %s" % (files, want))
        whole = gprof_flat(gprof, elf, g)
        check(whole.get("produce", (0, None))[1] == 200, "whole run: produce %s, expected 200 calls" %
              (whole.get("produce"),))
        for task, fn in (("producer", "produce"), ("filter", "transform"), ("consumer", "fold")):
            rows = gprof_flat(gprof, elf, g + "." + task)
            check(rows.get(fn, (0, None))[1] == 100, "%s: %s %s, expected 100 calls" % (task, fn, rows.get(fn)))
        total = sum(v[0] for v in whole.values())
        parts = sum(sum(v[0] for v in gprof_flat(gprof, elf, os.path.join(d, f)).values()) for f in files)
        check(total > 0 and parts == total, "the tasks' cycles %s do not add up to the run's %s" % (parts, total))
        # --gmon without --tasks: FILE alone
        for f in files:
            os.unlink(os.path.join(d, f))
        run(a.tally, ["profile", "-q", "--gmon", g, elf, "100"])
        check(sorted(os.listdir(d)) == ["gmon.out"], "without --tasks: %s" % os.listdir(d))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["switches", "bad", "laws", "conventions", "irq", "uart", "gmon"])
    ap.add_argument("--source-dir")
    ap.add_argument("--tally", required=True)
    ap.add_argument("--core", action="append", default=[])
    ap.add_argument("--expect", action="append", default=[], help="PROG[:ARG]=task,task...")
    ap.add_argument("elfs", nargs="+")
    a = ap.parse_args()
    {"switches": cmd_switches, "bad": cmd_bad, "laws": cmd_laws, "conventions": cmd_conventions,
     "irq": cmd_irq, "uart": cmd_uart, "gmon": cmd_gmon}[a.what](a)
    if FAILS:
        print("%d failures" % len(FAILS))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
