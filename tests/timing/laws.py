#!/usr/bin/env python3
"""The timing laws, checked over whole programs (docs/timing-tests.md).

    laws.py TALLY [--workloads DIR]... [--program ELF]... [--measuring ELF]...

For every program, a functional run (no core model) and a timed run under
each shipped core model, each timed run twice:

  (a) the `cycle` signal's total equals the run's cycle count;
  (b) the same program on the same model gives byte-identical JSON twice;
  (c) stdout and exit status are those of the functional run, under every
      model (not for --measuring programs, which report their own cycle
      counts: those still run the same instructions on every model);
  (d) the `instret` signal's total equals the instruction count of the
      functional run (`tally run -v`), and the JSON's "instructions" too.

--workloads DIR runs every DIR/*.elf with a small size argument (the
workloads take argv[1] as their size), so the whole check stays well under
a minute. A missing DIR is skipped with a note.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

MODELS = ["tally5", "tally5-wt", "sram", "picorv32"]
# Programs that use what PicoRV32 has not (mcycle, mtvec, ecall into a
# handler, mret: illegal instructions on that core, as on the RTL): not
# run on picorv32; their rdcycle versions (*_rd.elf) are.
NOT_ON_PICORV32 = {"trap.elf", "mcycle.elf", "load_use.elf", "load_use_indep.elf", "late_use.elf",
                   "rtos_pipeline.elf", "rtos_inversion.elf", "rtos_control.elf", "rtos_uart.elf"}
# Programs driven by the timer (the RTOS workloads: a CLINT tick decides
# when tasks switch, so what runs between two ticks depends on the cycles
# each instruction takes): their output and instruction count may differ
# from the functional run's, as on real hardware; (a), (b) and the JSON's
# own consistency still hold, and each must still end with status 0 and its
# own OK.
TIMER_DRIVEN = {"rtos_pipeline.elf", "rtos_inversion.elf", "rtos_control.elf", "rtos_uart.elf"}
# tally's options a program needs, before it: rtos_uart's timed UART input
# (without it the program waits for input forever)
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OPTIONS = {"rtos_uart.elf": ["--uart-rx", os.path.join(REPO, "target", "rtos", "rtos_uart.rx")]}

# argv[1] per shipped workload: small, but enough to reach every phase of
# the program (its self-checks included). Unknown workloads get "1".
SIZES = {
    "aes": "8", "blast": "4", "crc32": "16", "dhrystone": "300", "fft": "1",
    "dct": "1", "hanoi": "10", "heapsort": "500", "matmul": "12", "qsort": "800",
    "rtos_pipeline": "40", "rtos_control": "60", "rtos_inversion": "pi",
}

COUNT_RE = re.compile(r"tally: ([\d,]+) instructions")


class Checker:
    def __init__(self, tally):
        self.tally = tally
        self.failures = 0
        self.checks = 0

    def check(self, ok, what):
        self.checks += 1
        if not ok:
            self.failures += 1
            print("FAIL: " + what)

    def run(self, args):
        # no program waits on the test's own stdin
        return subprocess.run([self.tally, "run"] + args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=60)

    def program(self, elf, argv, measuring, tmp):
        name = os.path.basename(elf) + ("" if not argv else " " + " ".join(argv))
        opts = OPTIONS.get(os.path.basename(elf), [])
        func = self.run(["-v"] + opts + [elf] + argv)
        m = COUNT_RE.search(func.stderr.decode(errors="replace"))
        if not m:
            self.check(False, f"{name}: no instruction count in `tally run -v` output")
            return
        count = int(m.group(1).replace(",", ""))
        for model in MODELS:
            if model == "picorv32" and os.path.basename(elf) in NOT_ON_PICORV32:
                continue
            jsons = []
            for i in range(2):
                path = os.path.join(tmp, f"{model}.{i}.json")
                timed = self.run(["--core", model, "--stats-json", path] + opts + [elf] + argv)
                try:
                    with open(path, "rb") as f:
                        jsons.append(f.read())
                except OSError:
                    self.check(False, f"{name} on {model}: no statistics written (exit {timed.returncode})")
                    break
            if len(jsons) < 2:
                continue
            rep = json.loads(jsons[0])
            sig = rep["signals"]
            where = f"{name} on {model}"
            self.check(sig["cycle"] == rep["cycles"],
                       f"{where}: (a) cycle signal {sig['cycle']} != cycles {rep['cycles']}")
            self.check(jsons[0] == jsons[1], f"{where}: (b) the two runs' JSON differ")
            if os.path.basename(elf) in TIMER_DRIVEN:
                self.check(timed.returncode == 0 and b": OK" in timed.stdout,
                           f"{where}: (c) exit status {timed.returncode}, or no OK: {timed.stdout[-200:]!r}")
                self.check(rep["instructions"] == sig["instret"],
                           f"{where}: (d) \"instructions\" {rep['instructions']} != instret signal {sig['instret']}")
                continue
            if not measuring:
                self.check(timed.stdout == func.stdout,
                           f"{where}: (c) stdout differs from the functional run")
                self.check(timed.returncode == func.returncode,
                           f"{where}: (c) exit status {timed.returncode}, functional {func.returncode}")
            self.check(os.path.basename(elf) in TIMER_DRIVEN or sig["instret"] == count,
                       f"{where}: (d) instret {sig['instret']} != functional count {count}")
            self.check(rep["instructions"] == sig["instret"],
                       f"{where}: (d) \"instructions\" {rep['instructions']} != instret signal {sig['instret']}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tally")
    ap.add_argument("--workloads", action="append", default=[])
    ap.add_argument("--program", action="append", default=[])
    ap.add_argument("--measuring", action="append", default=[])
    args = ap.parse_args()

    c = Checker(args.tally)
    todo = []
    for wdir in args.workloads:
        elfs = sorted(glob.glob(os.path.join(wdir, "*.elf")))
        if not elfs:
            print(f"note: no workloads in {wdir}")
        for elf in elfs:
            base = os.path.splitext(os.path.basename(elf))[0]
            todo.append((elf, [SIZES.get(base, "1")], False))
    todo += [(p, [], False) for p in args.program]
    todo += [(p, [], True) for p in args.measuring]
    with tempfile.TemporaryDirectory() as tmp:
        for elf, argv, measuring in todo:
            if not os.path.exists(elf):
                c.check(False, f"{elf}: missing")
                continue
            c.program(elf, argv, measuring, tmp)
    print(f"{len(todo)} programs x {len(MODELS)} models: {c.checks} checks, {c.failures} failed")
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
