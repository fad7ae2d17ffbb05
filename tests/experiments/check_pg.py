#!/usr/bin/env python3
"""gprof's -pg on tally's board: target/pg/gmon.c (_mcount, the timer-driven
PC histogram, gmon.out through semihosting) with a real -pg program.

Usage: check_pg.py TALLY BUILD SOURCE_DIR

Checks, on dhry built with -pg (target/rv32imac-pg/dhry.elf) and on a kit
build (make -f target/kit/Makefile PG=1):
  - on tally (--core tally5, --semihost-files rw) the program prints OK and
    writes gmon.out; riscv64-unknown-elf-gprof reads it and its call counts
    are Dhrystone's, by hand: per pass Proc_7 and Func_1 three times, every
    other procedure once, main once;
  - tally's exact profile of the plain build (target/rv32imac/dhry.elf)
    counts the same calls through its shadow call stack (no _mcount);
  - the histogram: gprof's samples add up to the run's timer periods (one
    sample per 10 ms = 1,000,000 cycles at 100 MHz: cycles / 10^6, give or
    take the one period that straddles main's start);
  - without --semihost-files rw the program still exits 0, and says it
    could not write gmon.out;
  - an illegal instruction in a -pg program is reported by tally at the
    same place as without the profiler (the handler hands exceptions back);
  - on QEMU (when installed), the same call counts from its gmon.out.
"""
import bisect
import csv
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

PASSES = 3000
GPROF = "riscv64-unknown-elf-gprof"
NM = "riscv64-unknown-elf-nm"


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def run(argv, cwd, expect=0):
    p = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=120,
                       stdin=subprocess.DEVNULL)
    if p.returncode != expect:
        fail(f"{' '.join(argv)}: status {p.returncode}, expected {expect}\n{p.stdout}\n{p.stderr}")
    return p


def gprof_calls(elf, gmon, cwd):
    """{function: calls} and total seconds from gprof's flat profile."""
    p = run([GPROF, "-b", "-p", elf, gmon], cwd)
    calls, secs = {}, 0.0
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) == 7 and re.fullmatch(r"[0-9.]+", f[0]):
            calls[f[6]] = int(f[3])
            secs = float(f[1])
        elif len(f) == 4 and re.fullmatch(r"[0-9.]+", f[0]):
            secs = float(f[1])
    return calls, secs


def hist_samples(path):
    """Total samples and rate of gmon.out's histogram records (read here,
    not by gprof, which leaves out the samples that fall in _mcount)."""
    with open(path, "rb") as fh:
        d = fh.read()
    if d[:4] != b"gmon" or struct.unpack_from("<I", d, 4)[0] != 1:
        fail(f"{path}: not a version-1 gmon.out")
    o, total, rate = 20, 0, None
    while o < len(d):
        tag = d[o]
        if tag == 0:
            lo, hi, n, rate = struct.unpack_from("<IIII", d, o + 1)
            total += sum(struct.unpack_from(f"<{n}H", d, o + 33))
            o += 33 + 2 * n
        elif tag == 1:
            o += 13
        else:
            fail(f"{path}: unknown record tag {tag} at {o}")
    return total, rate


def gmon_arcs(path, elf, cwd):
    """{(caller, callee): count} from gmon.out's arc records, read here and
    mapped to functions through the ELF's symbol table (nm), not by gprof."""
    p = run([NM, "-n", "--defined-only", elf], cwd)
    syms = []
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "Tt":
            syms.append((int(f[0], 16), f[2]))
    addrs = [a for a, _ in syms]

    def name(pc):
        i = bisect.bisect_right(addrs, pc) - 1
        return syms[i][1] if i >= 0 else "?"
    with open(path, "rb") as fh:
        d = fh.read()
    o, arcs = 20, {}
    while o < len(d):
        if d[o] == 0:
            n = struct.unpack_from("<I", d, o + 9)[0]
            o += 33 + 2 * n
        elif d[o] == 1:
            frm, slf, cnt = struct.unpack_from("<III", d, o + 1)
            k = (name(frm), name(slf))
            arcs[k] = arcs.get(k, 0) + cnt
            o += 13
        else:
            fail(f"{path}: unknown record tag {d[o]}")
    return arcs


def expected_calls(n):
    e = {f"Proc_{k}": n for k in range(1, 9)}
    e.update({"Proc_7": 3 * n, "Func_1": 3 * n, "Func_2": n, "Func_3": n, "main": 1})
    return e


def main():
    tally, build, src = (os.path.abspath(a) for a in sys.argv[1:4])
    if not shutil.which(GPROF):
        fail(f"{GPROF} not found (Debian package binutils-riscv64-unknown-elf)")
    work = tempfile.mkdtemp(prefix="tally-pg-")
    try:
        want = expected_calls(PASSES)
        pg = os.path.join(work, "dhry.elf")
        shutil.copyfile(os.path.join(build, "target", "rv32imac-pg", "dhry.elf"), pg)

        # tally, timed: output, gmon.out, gprof's call counts
        p = run([tally, "run", "--core", "tally5", "--semihost-files", "rw", "--stats-json",
                 "stats.json", "dhry.elf", str(PASSES)], work)
        if "dhry: OK" not in p.stdout:
            fail(f"no OK from the -pg build: {p.stdout}")
        if not os.path.exists(os.path.join(work, "gmon.out")):
            fail("tally: no gmon.out written")
        calls, secs = gprof_calls("dhry.elf", "gmon.out", work)
        for f, c in want.items():
            if calls.get(f) != c:
                fail(f"tally: gprof counts {calls.get(f)} calls of {f}, Dhrystone makes {c}")
        # the histogram: one sample per timer interrupt, one interrupt per
        # 10^6 cycles of the run after main starts
        with open(os.path.join(work, "stats.json")) as fh:
            st = json.load(fh)
        cycles, interrupts = st["cycles"], st["signals"]["interrupt"]
        samples, rate = hist_samples(os.path.join(work, "gmon.out"))
        if rate != 100:
            fail(f"histogram rate {rate}, not 100 Hz")
        if samples != interrupts:
            fail(f"tally: {samples} histogram samples, {interrupts} timer interrupts taken")
        if not (cycles // 1000000 - 1 <= samples <= cycles // 1000000):
            fail(f"tally: {samples} histogram samples for {cycles} cycles (10 ms = 10^6 cycles)")
        if samples < 3:
            fail(f"too few samples ({samples}) for the check to mean anything")
        if round(secs * 100) > samples:
            fail(f"gprof shows {secs} s for {samples} samples")
        print(f"tally: gmon.out read by gprof, call counts of {len(want)} functions as by hand, "
              f"{samples} samples (= interrupts taken) for {cycles:,} cycles")

        # tally's exact profile of the plain build counts the same calls, and
        # the same caller -> callee arcs as _mcount (both see a tail call as
        # a call from the caller's caller)
        arcs = gmon_arcs(os.path.join(work, "gmon.out"), "dhry.elf", work)
        plain = os.path.join(build, "target", "rv32imac", "dhry.elf")
        run([tally, "profile", "--csv", os.path.join(work, "p.csv"), "--json",
             os.path.join(work, "p.json"), plain, str(PASSES)], work)
        with open(os.path.join(work, "p.csv"), newline="") as fh:
            exact = {r["function"]: int(r["calls"]) for r in csv.DictReader(fh)}
        for f, c in want.items():
            if exact.get(f) != c:
                fail(f"exact profile of the plain build: {exact.get(f)} calls of {f}, not {c}")
        with open(os.path.join(work, "p.json")) as fh:
            xarcs = {(a["caller_name"], a["callee_name"]): a["calls"]
                     for a in json.load(fh)["arcs"] if a["callee_name"] in want}
        marcs = {k: v for k, v in arcs.items() if k[1] in want}
        if marcs != xarcs:
            fail(f"arcs: gmon.out {sorted(marcs.items())}\nexact profile {sorted(xarcs.items())}")
        for f, c in want.items():
            if sum(v for k, v in marcs.items() if k[1] == f) != c:
                fail(f"gmon.out's arcs into {f} add up to "
                     f"{sum(v for k, v in marcs.items() if k[1] == f)}, not {c}")
        print(f"tally profile of the plain build: the same call counts and the same "
              f"{len(marcs)} arcs as gmon.out")

        # no --semihost-files rw: the run is not harmed and says why
        os.unlink(os.path.join(work, "gmon.out"))
        p = run([tally, "run", "dhry.elf", "10"], work)
        # (picolibc's stderr goes out through the semihosting console: stdout)
        if "cannot write gmon.out" not in p.stdout or os.path.exists(os.path.join(work, "gmon.out")):
            fail(f"without rw: stdout {p.stdout!r}")

        # the kit's PG=1 build, and an exception under the profiler
        kit = os.path.join(work, "kit")
        os.makedirs(kit)
        with open(os.path.join(kit, "bad.c"), "w") as fh:
            fh.write("int helper(int x) { return x + 1; }\n"
                     "int main(void) { helper(1); __asm__ volatile(\".word 0xffffffff\"); "
                     "return 0; }\n")
        run(["make", "-s", "-f", os.path.join(src, "target", "kit", "Makefile"), "PG=1",
             "PROG=bad", "SRCS=bad.c"], kit)
        run(["make", "-s", "-f", os.path.join(src, "target", "kit", "Makefile"),
             "PROG=plain", "SRCS=bad.c"], kit)
        reports = []
        for prog in ("bad.elf", "plain.elf"):
            p = run([tally, "run", "--semihost-files", "rw", prog], kit, expect=125)
            m = re.search(r"illegal instruction \(mcause 2\), no trap handler \(mtvec = 0x0+\)"
                          r"\s+at\s+0x[0-9a-f]+\s+<(main(\+0x[0-9a-f]+)?)>", p.stdout + p.stderr)
            if not m:
                fail(f"{prog}: no illegal-instruction report in main: {p.stdout}{p.stderr}")
            reports.append(m.group(1))
        print(f"an illegal instruction under -pg: reported at {reports[0]} "
              f"(without -pg: {reports[1]})")

        # -DTALLY_GMON_HZ=0: call counts only, the timer left alone
        run(["make", "-s", "-f", os.path.join(src, "target", "kit", "Makefile"), "PG=1",
             "PROG=nohist", "SRCS=" + os.path.join(src, "target", "workloads", "dhry.c"),
             "CFLAGS=-DTALLY_GMON_HZ=0"], kit)
        run([tally, "run", "--core", "tally5", "--semihost-files", "rw", "--stats-json", "nh.json",
             "nohist.elf", "200"], kit)
        with open(os.path.join(kit, "nh.json")) as fh:
            if json.load(fh)["signals"]["interrupt"] != 0:
                fail("TALLY_GMON_HZ=0: timer interrupts were taken")
        with open(os.path.join(kit, "gmon.out"), "rb") as fh:
            d = fh.read()
        if len(d) <= 20 or d[20] != 1 or (len(d) - 20) % 13:
            fail("TALLY_GMON_HZ=0: gmon.out should hold arc records only")
        na = gmon_arcs(os.path.join(kit, "gmon.out"), "nohist.elf", kit)
        for f, c in expected_calls(200).items():
            if sum(v for k, v in na.items() if k[1] == f) != c:
                fail(f"TALLY_GMON_HZ=0: arcs into {f} do not add up to {c}")
        print("TALLY_GMON_HZ=0: no interrupts, arcs only, Dhrystone's call counts")

        # QEMU, when installed: the same call counts from its gmon.out
        qemu = os.path.join(src, "scripts", "qemu-run.sh")
        if shutil.which(os.environ.get("QEMU_SYSTEM_RISCV32", "qemu-system-riscv32")):
            q = os.path.join(work, "qemu")
            os.makedirs(q)
            shutil.copyfile(pg, os.path.join(q, "dhry.elf"))
            p = run([qemu, "dhry.elf", str(PASSES)], q)
            if "dhry: OK" not in p.stdout:
                fail(f"QEMU: no OK: {p.stdout}")
            qcalls, _ = gprof_calls("dhry.elf", "gmon.out", q)
            for f, c in want.items():
                if qcalls.get(f) != c:
                    fail(f"QEMU: gprof counts {qcalls.get(f)} calls of {f}, not {c}")
            print("QEMU: gmon.out with the same call counts")
        else:
            print("QEMU not installed: its part left out")
        print("pg: ok")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
