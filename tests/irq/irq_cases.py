#!/usr/bin/env python3
"""External interrupts (docs/tally-run.md, "External interrupts";
docs/boards.md, the PLIC): one case per run of this script.

  plic      the PLIC's registers as plic_regs.S reads them equal
            plic_regs.expected, which is QEMU 7.2's output for the same
            program (qemu-system-riscv32 -M virt); with QEMU installed the
            program is run there too and compared line by line
  latency   on every shipped core model that takes M-mode interrupts, a
            line raised at each cycle C of a window inside irq_latency.S's
            loop: the measured latency is B - C + trap_penalty, B the first
            instruction boundary at or after C in the run without the
            interrupt (its --trace), trap_penalty the model file's value
            (or the documented default, 3); the same run stepped one
            instruction at a time (--trace) gives the same cycles; on the
            PicoRV32 models (no interrupt CSRs) the request stays pending
            and -v says why
  functional  a functional run: the handler's first instruction reads
            mcycle = C exactly (one cycle per instruction: latency 0), and
            two sources at one cycle are served by priority
  periodic  every=N,jitter=J,seed=S: the rises at the cycles a separate
            SplitMix64 (below) gives, the same in every run
  uart      --uart-rx: bytes arrive at their cycles, the program echoes
            them from its receive interrupt; from a file and a pipe alike;
            a wfi asleep when the line rises: latency = wfi's cycles +
            trap_penalty
  errors    bad --irq and --uart-rx specs, a source the board lacks, a
            board without a PLIC, a program that never enables interrupts

Usage: irq_cases.py TALLY IRQ_PROGRAMS_DIR TEST_PROGRAMS_DIR SOURCE_DIR CASE
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

TALLY, PROGS, TPROGS, SRC, CASE = sys.argv[1:6]
fails = []


def check(cond, what):
    if not cond:
        fails.append(what)
        print("FAIL:", what)


def run(*args, stdin=None):
    p = subprocess.run([TALLY, *args], capture_output=True, text=True, input=stdin, timeout=60)
    if p.returncode >= 128 or re.search(r"AddressSanitizer|runtime error|LeakSanitizer", p.stderr):
        fails.append("crash: %s" % (args,))
        print("FAIL: crashed", args, p.returncode, p.stderr)
    return p


def trap_penalty(core):
    """The model file's trap_penalty, or the documented default."""
    text = open(os.path.join(SRC, "cores", core + ".ini")).read()
    m = re.search(r"^\s*trap_penalty\s*=\s*(\d+)", text, re.M)
    return int(m.group(1)) if m else 3  # docs/core-models.md: default 3


def latencies(stderr, src):
    m = re.search(r"irq %d: .* latency min ([\d,]+) / median ([\d,]+) / max ([\d,]+)" % src, stderr)
    return tuple(int(x.replace(",", "")) for x in m.groups()) if m else None


def log_lines(stdout):
    """irq_latency.S's log: (source, handler cycle) per interrupt."""
    return [(int(a, 16), int(b, 16)) for a, b in re.findall(r"^([0-9a-f]{2}) ([0-9a-f]{8})$", stdout, re.M)]


def case_plic():
    expected = open(os.path.join(SRC, "tests", "irq", "plic_regs.expected")).read()
    p = run("run", os.path.join(PROGS, "plic_regs.elf"))
    check(p.returncode == 0, "plic_regs exit %d" % p.returncode)
    check(p.stdout == expected, "plic_regs output differs from QEMU's:\n" + p.stdout)
    qemu = shutil.which("qemu-system-riscv32")
    if qemu:
        q = subprocess.run([qemu, "-M", "virt", "-nographic", "-bios", "none", "-kernel",
                            os.path.join(PROGS, "plic_regs.elf")], capture_output=True, text=True, timeout=30)
        check(q.stdout == p.stdout, "tally and QEMU differ:\n--- tally\n%s--- qemu\n%s" % (p.stdout, q.stdout))


def boundaries(core, prog):
    """Start cycles of every instruction of the run without interrupts."""
    with tempfile.NamedTemporaryFile("r", suffix=".trace") as t:
        p = run("run", "--core", core, "--trace", t.name, "--trace-count", "100000", prog)
        check(p.returncode == 0, "%s: trace run exit %d %s" % (core, p.returncode, p.stderr))
        starts = [int(line.split()[0]) for line in t if line[0].isdigit()]
    return starts


def case_latency():
    prog = os.path.join(PROGS, "irq_latency.elf")
    cores = sorted(f[:-4] for f in os.listdir(os.path.join(SRC, "cores")) if f.endswith(".ini"))
    for core in cores:
        if core.startswith("picorv32"):
            # no mtvec, mie or mstatus on PicoRV32: a program cannot take
            # the interrupt; the run goes on and says why
            p = run("run", "-v", "--core", core, "--irq", "5@40", os.path.join(TPROGS, "uart_hello.elf"))
            check(p.returncode == 3, "%s: uart_hello exit %d" % (core, p.returncode))
            check("irq 5: a request from cycle 40 is still pending" in p.stderr and "PicoRV32" in p.stderr,
                  "%s: -v does not say the request waits and why: %s" % (core, p.stderr))
            continue
        pen = trap_penalty(core)
        starts = boundaries(core, prog)
        check(len(starts) > 1500, "%s: %d instructions traced" % (core, len(starts)))
        # a window of cycles in the loop's middle: every cycle of its
        # longest instruction there and of the one before, the boundaries
        # included, so that the wait for the current instruction is 0 to
        # its length - 1
        mid = len(starts) // 2
        i = max(range(mid, mid + 12), key=lambda k: starts[k + 1] - starts[k])
        check(starts[i + 1] - starts[i] > 1, "%s: no multi-cycle instruction in the window" % core)
        window = range(starts[i - 1], starts[i + 1] + 1)
        for c in window:
            b = min(s for s in starts if s >= c)
            p = run("run", "-v", "--core", core, "--irq", "5@%d" % c, prog)
            lat = latencies(p.stderr, 5)
            check(lat == (b - c + pen,) * 3,
                  "%s: line at %d, boundary %d, trap_penalty %d: latency %s, expected %d" %
                  (core, c, b, pen, lat, b - c + pen))
        # one at a time (--trace steps every instruction): the same cycles
        c = window[1]
        with tempfile.TemporaryDirectory() as d:
            a = run("run", "--core", core, "--irq", "5@%d" % c, "--stats-json", os.path.join(d, "a.json"), prog)
            s = run("run", "--core", core, "--irq", "5@%d" % c, "--stats-json", os.path.join(d, "s.json"),
                    "--trace", os.path.join(d, "t"), "--trace-count", "100000", prog)
            ja = json.load(open(os.path.join(d, "a.json")))
            js = json.load(open(os.path.join(d, "s.json")))
        check(a.stdout == s.stdout and ja["cycles"] == js["cycles"],
              "%s: stepped run differs: %s/%s cycles %d/%d" % (core, a.stdout, s.stdout, ja["cycles"], js["cycles"]))
        irq = ja.get("interrupts", {}).get("5", {})
        check(irq.get("taken") == 1 and irq.get("latency_min") == min(x for x in starts if x >= c) - c + pen,
              "%s: --stats-json interrupts: %s" % (core, ja.get("interrupts")))


def case_functional():
    prog = os.path.join(PROGS, "irq_latency.elf")
    p = run("run", "-v", "--irq", "5@100,700", "--irq", "6@700,0x3e8", prog)
    check(p.returncode == 0, "exit %d: %s" % (p.returncode, p.stderr))
    # one cycle per instruction: the handler begins at the cycle the line
    # rose. At 700 both rise: 6 (priority 2) first, then 5 once the handler
    # of 6 has returned (its 8 instructions: mret ends at 708)
    check(log_lines(p.stdout) == [(5, 100), (6, 700), (5, 708), (6, 1000)], "log %s" % log_lines(p.stdout))
    check(latencies(p.stderr, 5) == (0, 0, 8), "irq 5 latencies: %s" % p.stderr)
    check(latencies(p.stderr, 6) == (0, 0, 0), "irq 6 latencies: %s" % p.stderr)
    # a rise while one is pending is merged into it
    p = run("run", "-v", "--irq", "5@200,200", prog)
    check(log_lines(p.stdout) == [(5, 200)] and "1 merged" in p.stderr, "merged: %s %s" % (p.stdout, p.stderr))


MASK = (1 << 64) - 1


def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def case_periodic():
    prog = os.path.join(PROGS, "irq_latency.elf")
    n, j, seed, first, count = 150, 40, 12345, 90, 8
    state, want = seed, []
    for k in range(count):
        state, r = splitmix64(state)
        want.append((6, first + k * n + r % (j + 1)))
    spec = "6@every=%d,first=%d,jitter=%d,seed=%d,count=%d" % (n, first, j, seed, count)
    p = run("run", "-v", "--irq", spec, prog)
    check(log_lines(p.stdout) == want, "periodic rises %s, expected %s" % (log_lines(p.stdout), want))
    q = run("run", "-v", "--irq", spec, prog)
    check(p.stdout == q.stdout, "two runs differ")
    # on a core model: the same rises, each taken; deterministic
    a = run("run", "-v", "--core", "vexriscv", "--irq", spec, prog)
    b = run("run", "-v", "--core", "vexriscv", "--irq", spec, prog)
    check(a.stdout == b.stdout and len(log_lines(a.stdout)) == count and "irq 6: 8 rises, 8 interrupts taken"
          in a.stderr, "vexriscv periodic: %s %s" % (a.stdout, a.stderr))


def case_uart():
    prog = os.path.join(PROGS, "uart_echo.elf")
    text = "# cycle text\n100 hi\\n\n\n2000 x\\x21\n3000 q\n"
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "rx.txt")
        open(path, "w").write(text)
        p = run("run", "-v", "--uart-rx", path, prog)
        check(p.returncode == 0 and p.stdout == "hi\nx!qn=03\n", "echo: %d %r %s" % (p.returncode, p.stdout, p.stderr))
        # asleep in wfi when each line rises: the wfi's own cycle, then the
        # interrupt (functional: 1 + 0)
        check(latencies(p.stderr, 10) == (1, 1, 1), "functional uart latencies: %s" % p.stderr)
        q = run("run", "-v", "--uart-rx", "-", prog, stdin=text)
        irq_lines = lambda e: [l for l in e.split("\n") if l.startswith("tally: irq ")]
        check(q.stdout == p.stdout and irq_lines(q.stderr) == irq_lines(p.stderr),
              "from a pipe: %r %s" % (q.stdout, q.stderr))
        # timed: the wfi's cycles (cpi.system = 1 on tally5) + trap_penalty
        t = run("run", "-v", "--core", "tally5", "--uart-rx", path, prog)
        check(t.stdout == p.stdout and latencies(t.stderr, 10) == (4, 4, 4),
              "tally5 uart: %r %s" % (t.stdout, t.stderr))
        # tally profile takes the same options, the same cycles
        f = run("profile", "--core", "tally5", "--uart-rx", path, prog)
        check(f.returncode == 0 and latencies(f.stderr, 10) == (4, 4, 4), "profile: %d %s" % (f.returncode, f.stderr))


def case_errors():
    prog = os.path.join(PROGS, "irq_latency.elf")
    bad = [
        (["--irq", "5"], "--irq 5: expected SRC@CYCLE"),
        (["--irq", "x@10"], "--irq x@10: expected SRC@CYCLE"),
        (["--irq", "5@"], "no cycle after '@'"),
        (["--irq", "5@10,zz,30"], "'zz' \\(item 2\\) is not a cycle"),
        (["--irq", "0@10"], "source 0: board 'virt' has PLIC sources 1 to 95"),
        (["--irq", "96@10"], "source 96: board 'virt' has PLIC sources 1 to 95"),
        (["--irq", "10@10"], "source 10 is the UART's line"),
        (["--irq", "5@every=0"], "every=N is required"),
        (["--irq", "5@first=3"], "every=N is required"),
        (["--irq", "5@every=10,jitter=10"], "jitter=10 must be less than every=10"),
        (["--irq", "5@every=10,bogus=1"], "'bogus=1' \\(item 2\\): expected KEY=VALUE"),
        (["--irq", "5@every=10,seed=x"], "seed='x': not a number"),
        (["--irq", "5@every=10,every=20"], "every given twice"),
        (["--irq", "5@every=10,count=0"], "count=0 raises nothing"),
    ]
    for args, msg in bad:
        p = run("run", *args, prog)
        check(p.returncode == 64 and re.search(msg, p.stderr), "%s: %d %s" % (args, p.returncode, p.stderr))
    p = run("run", "--board", "litex", "--irq", "5@10", os.path.join(TPROGS, "litex_hello.elf"))
    check(p.returncode == 64 and "board 'litex' has no PLIC" in p.stderr, "litex: %s" % p.stderr)
    with tempfile.TemporaryDirectory() as d:
        cases = [
            ("100 a\n50 b\n", r"rx:2: cycle 50 is before the previous line's 100"),
            ("100 a\nabc d\n", r"rx:2: 'abc' is not a cycle"),
            ("100\n", r"rx:1: no bytes after the cycle"),
            ("100 a\\q\n", r"rx:1: column 6: unknown escape '\\q'"),
            ("100 \\x4\n", r"rx:1: column 5: \\x needs two hex digits"),
        ]
        for text, msg in cases:
            path = os.path.join(d, "rx")
            open(path, "w").write(text)
            p = run("run", "--uart-rx", path, prog)
            check(p.returncode == 66 and re.search(msg, p.stderr), "%r: %d %s" % (text, p.returncode, p.stderr))
        p = run("run", "--uart-rx", d, prog)
        check(p.returncode == 66 and "not a regular file or a pipe" in p.stderr, "dir: %s" % p.stderr)
        p = run("run", "--uart-rx", os.path.join(d, "nope"), prog)
        check(p.returncode == 66 and "cannot open" in p.stderr, "missing: %s" % p.stderr)
    # a program that never enables interrupts: it runs to its end, the
    # request stays pending, -v says so and why
    p = run("run", "-v", "--irq", "5@20", os.path.join(TPROGS, "uart_hello.elf"))
    check(p.returncode == 3 and p.stdout == "hello from the uart\n", "uart_hello: %d %r" % (p.returncode, p.stdout))
    check("irq 5: a request from cycle 20 is still pending, no interrupt taken: the program never enabled it"
          in p.stderr, "never enabled: %s" % p.stderr)


{"plic": case_plic, "latency": case_latency, "functional": case_functional, "periodic": case_periodic,
 "uart": case_uart, "errors": case_errors}[CASE]()
sys.exit(1 if fails else 0)
