#!/usr/bin/env python3
"""check_rare.py --tally TALLY --work DIR [--qemu QEMU] RARETEST.elf

A rare site (`tally inst --rare WHERE`, tally_inst_set_rare) after a loop's
back edge, on tests/dvfs/raretest.c + rarekern.S: rare_kernel's loop ends in
a 4-byte bne (rare_back) and the only instruction after it is a 2-byte
c.ret (rare_ret), alone in its block, so the one place a jal could carry a
site at rare_ret is that bne, which runs every iteration.

  1. the control: without --rare the planner does host rare_ret's site on
     the bne (its report says "jal at <rare_back>"), so what 2-4 check is
     a change of placement, not the planner's default;
  2. with --rare the site is a trap (c.ebreak at rare_ret), its why says
     "rare site" and names the bne's address, and the bne's bytes in the
     output are the input's (not displaced into a trampoline);
  3. the instrumented program prints the same output and exits with the
     same status as the original, on tally (and on QEMU when given);
  4. per-instruction counts (from tally's trace of each run): every
     address of the original program shows up as often in the instrumented
     run as in the original (rare_ret as its c.ebreak, 4 times), except the
     ebreak and srai of each semihosting sequence, which the runtime makes
     from the sequence's first instruction; the bne retires 4 x LINES times
     in both (raretest calls the kernel four times over LINES lines:
     counted by hand).
Exit 0 pass, 1 fail.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

LINES = 64
REGION = 0x88000000  # the analysis region: not the program's code


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(cmd, cwd=None):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def symbol(elf, name):
    rc, out, err = run(["riscv64-unknown-elf-nm", elf])
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[2] == name:
            return int(f[0], 16)
    fail("no symbol %s in %s" % (name, elf))


def hole(elf):
    """[lo, hi) of the trampoline hole (.tally_inst_hole), by readelf."""
    rc, out, err = run(["readelf", "-SW", elf])
    m = re.search(r"\.tally_inst_hole\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", out)
    if not m:
        fail("no .tally_inst_hole section in %s" % elf)
    lo = int(m.group(1), 16)
    return lo, lo + int(m.group(2), 16)


def report_row(report, pc):
    for line in report.splitlines():
        if line.startswith("0x%08x" % pc):
            return line
    fail("no report row for 0x%08x:\n%s" % (pc, report))


def bytes_at(elf, pc, n):
    """The n bytes at address pc, from the ELF's program headers."""
    data = open(elf, "rb").read()
    phoff = int.from_bytes(data[28:32], "little")
    phentsize = int.from_bytes(data[42:44], "little")
    for i in range(int.from_bytes(data[44:46], "little")):
        ph = data[phoff + i * phentsize: phoff + (i + 1) * phentsize]
        ptype, off, vaddr, _, filesz = (int.from_bytes(ph[k:k + 4], "little") for k in range(0, 20, 4))
        if ptype == 1 and vaddr <= pc and pc + n <= vaddr + filesz:
            return data[off + pc - vaddr: off + pc - vaddr + n]
    fail("0x%08x is in no loaded segment of %s" % (pc, elf))


def semihost_tails(elf):
    """The ebreak and srai of every semihosting sequence (slli x0,x0,0x1f;
    ebreak; srai x0,x0,7): the runtime makes the call itself from the
    sequence's first instruction (docs/tally-inst.md), so those two never
    retire at their own addresses in an instrumented run."""
    rc, out, err = run(["riscv64-unknown-elf-objdump", "-d", elf])
    tails = set()
    for m in re.finditer(r"^([0-9a-f]+):\s+01f01013\s", out, re.M):
        pc = int(m.group(1), 16)
        tails |= {pc + 4, pc + 8}
    return tails


def trace_counts(tally, elf, cwd):
    path = os.path.join(cwd, "trace.txt")
    rc, out, err = run([tally, "run", "--trace", path, "--trace-count", "10000000", elf, str(LINES)], cwd=cwd)
    counts = {}
    for line in open(path):
        f = line.split(None, 3)
        if not line.startswith("#") and len(f) >= 3:
            pc = int(f[2], 16)
            counts[pc] = counts.get(pc, 0) + 1
    return rc, out, counts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tally", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--qemu")
    ap.add_argument("elf")
    a = ap.parse_args()
    a.tally = os.path.abspath(a.tally)
    if not shutil.which("riscv64-unknown-elf-gcc"):
        print("SKIP: no cross compiler for tally inst")
        sys.exit(77)
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    orig = os.path.join(a.work, "orig.elf")  # the same path length as inst.elf (argv[0])
    shutil.copy(a.elf, orig)
    back, ret = symbol(orig, "rare_back"), symbol(orig, "rare_ret")
    if ret != back + 4:
        fail("rarekern.S: rare_ret at 0x%x is not right after the 4-byte bne at 0x%x" % (ret, back))

    # 1. the control: hosted on the back edge without --rare
    plain = os.path.join(a.work, "host.elf")
    rc, out, err = run([a.tally, "inst", "--before", "0x%x" % ret, "--report", orig, "-o", plain])
    if rc:
        fail("tally inst (no --rare): exit %d: %s" % (rc, err))
    row = report_row(out, ret)
    if "jal at 0x%08x" % back not in row:
        fail("without --rare the site is not on the back edge (the case this test is about is gone):\n" + row)

    # 2. with --rare: a trap, the back edge untouched
    inst = os.path.join(a.work, "inst.elf")
    rc, out, err = run([a.tally, "inst", "--before", "0x%x" % ret, "--rare", "0x%x" % ret, "--report", orig,
                        "-o", inst])
    if rc:
        fail("tally inst --rare: exit %d: %s" % (rc, err))
    row = report_row(out, ret)
    if not re.search(r"\btrap\b", row) or "rare site" not in row or "0x%08x" % back not in row:
        fail("the rare site is not a trap that says why:\n" + row)
    if bytes_at(inst, back, 4) != bytes_at(orig, back, 4):
        fail("the back edge at 0x%x was changed" % back)
    if bytes_at(inst, ret, 2) != b"\x02\x90":
        fail("rare_ret is not a c.ebreak in the output: %s" % bytes_at(inst, ret, 2).hex())

    # 3. and 4. output, exit status and per-instruction counts
    os.makedirs(os.path.join(a.work, "o"))
    os.makedirs(os.path.join(a.work, "i"))
    want_rc, want_out, want = trace_counts(a.tally, orig, os.path.join(a.work, "o"))
    got_rc, got_out, got = trace_counts(a.tally, inst, os.path.join(a.work, "i"))
    if (want_rc, want_out) != (got_rc, got_out):
        fail("output or exit status differs: %r %r against %r %r" % (got_rc, got_out, want_rc, want_out))
    lo, hi = hole(orig)
    tails = semihost_tails(orig)
    if not tails:
        fail("no semihosting sequence found in %s (objdump)" % orig)
    bad = []
    for pc in sorted(set(want) | set(got)):
        if pc >= REGION or lo <= pc < hi:
            continue  # the analysis region and the trampolines: not the program's code
        expect = 0 if pc in tails else want.get(pc, 0)
        if got.get(pc, 0) != expect:
            bad.append("0x%08x: %d instrumented, %d expected" % (pc, got.get(pc, 0), expect))
    if bad:
        fail("per-instruction counts changed:\n  " + "\n  ".join(bad[:20]))
    if want.get(back) != 4 * LINES or got.get(back) != 4 * LINES or want.get(ret) != 4:
        fail("bne at 0x%x: %s and %s times, c.ret %s times; want %d and 4" %
             (back, want.get(back), got.get(back), want.get(ret), 4 * LINES))
    # the site traps at its own address once per run (the trace shows the
    # c.ebreak there), never from the back edge's iterations
    if got.get(ret) != 4:
        fail("rare_ret's c.ebreak ran %s times, want 4" % got.get(ret))

    if a.qemu and shutil.which(a.qemu):
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        env = dict(os.environ, QEMU_SYSTEM_RISCV32=a.qemu,
                   QEMU_EXTRA_ARGS="-m 256M -device loader,addr=0x88001000,cpu-num=0")
        p = subprocess.run([os.path.join(root, "scripts", "qemu-run.sh"), inst, str(LINES)], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        if (p.returncode, p.stdout.decode()) != (want_rc, want_out):
            fail("on QEMU: %r %r against %r %r" % (p.returncode, p.stdout.decode(), want_rc, want_out))
    print("PASS: rare site at 0x%x trapped, back edge 0x%x in place, %d addresses retire as before"
          % (ret, back, len(want)))


if __name__ == "__main__":
    main()
