#!/usr/bin/env python3
"""check_memtrace.py --tally TALLY [--qemu QEMU] --points P --work DIR PROG.elf [ARGS...]

The memtrace tool against an independent record of the same accesses.
PROG is instrumented with `tally inst --tool memtrace --points P`
(P = mem, load or store) and run on tally; then:

  1. its output and exit status are the original's;
  2. memtrace.out, read here from its documented layout (docs/tally-inst.md),
     equals access for access (pc, address, size, r/w/a, in order) the
     MEMORY fields of `tally run --trace` on the ORIGINAL program (worked out
     by the trace from each instruction's bits and the registers before it,
     without any instrumentation), filtered to P (load: r and a, store: w and
     a; an atomic is both);
  3. the trailer says no record was lost and counts them all, and a trace
     longer than the tool's 4096-record buffer is asked for (so the flush
     when the buffer is full is exercised: --min-records);
  4. `tally inst --show` prints the same accesses;
  5. on QEMU (--qemu; when it is not installed the PASS line says it was
     not compared), the same output and status, and memtrace.out byte for
     byte tally's;
  6. without --semihost-files rw, the file cannot be made: the program's
     output is still the original's, the tool says so, and the run ends
     with status 74 (not the program's: its trace is lost).
Exit 0 pass, 1 fail.
"""
import argparse
import os
import shutil
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(cmd, cwd, env=None):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, timeout=300)
    return p.returncode, p.stdout.decode(errors="replace")


def read_memtrace(path):
    """(records, lost, made) from a memtrace.out, by its documented layout."""
    data = open(path, "rb").read()
    if len(data) < 32 or data[:4] != b"TIMT":
        fail("%s: no memtrace header" % path)
    version, recsize, _ = struct.unpack_from("<III", data, 4)
    if version != 1 or recsize != 12:
        fail("%s: version %d, record size %d" % (path, version, recsize))
    body = data[16:-16]
    if data[-16:-12] != b"TIME" or len(body) % 12:
        fail("%s: no trailer, or not whole records (%d bytes)" % (path, len(data)))
    lost, made = struct.unpack_from("<IQ", data, len(data) - 12)
    recs = []
    for off in range(0, len(body), 12):
        pc, ea, info = struct.unpack_from("<III", body, off)
        recs.append((pc, "?rwa"[(info >> 8) & 3], ea, info & 0xff))
    return recs, lost, made


def trace_accesses(path, points):
    """The accesses of `tally run --trace` lines: (pc, kind, addr, size)."""
    want = {"mem": "rwa", "load": "ra", "store": "wa"}[points]
    out = []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            fields = line.split("|")
            mem = fields[2].strip() if len(fields) > 2 else ""
            if not mem or mem[0] not in want:
                continue
            kind, rest = mem.split(" ", 1)
            addr, size = rest.split("/")
            out.append((int(line.split()[2], 16), kind, int(addr, 16), int(size)))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tally", required=True)
    ap.add_argument("--qemu")
    ap.add_argument("--points", default="mem", choices=["mem", "load", "store"])
    ap.add_argument("--min-records", type=int, default=0)
    ap.add_argument("--work", required=True)
    ap.add_argument("prog")
    ap.add_argument("args", nargs="*")
    a = ap.parse_args()
    tally = os.path.abspath(a.tally)
    work = os.path.abspath(a.work)
    shutil.rmtree(work, ignore_errors=True)
    for d in ("orig", "tally", "qemu", "ro"):
        os.makedirs(os.path.join(work, d))
    # the same path length for both: argv[0] is the path, and start-up code
    # walks the command line (its accesses depend on its length)
    orig, inst = os.path.join(work, "orig.elf"), os.path.join(work, "inst.elf")
    shutil.copy(a.prog, orig)
    rc, out = run([tally, "inst", "--tool", "memtrace", "--points", a.points, orig, "-o", inst], work)
    if rc:
        fail("tally inst exit %d: %s" % (rc, out))

    want_rc, want_out = run([tally, "run", orig] + a.args, os.path.join(work, "orig"))
    trc, _ = run([tally, "run", "--trace", "trace.txt", "--trace-count", "100M", orig] + a.args,
                 os.path.join(work, "orig"))
    if trc != want_rc:
        fail("the traced original exits %d, untraced %d" % (trc, want_rc))
    want = trace_accesses(os.path.join(work, "orig", "trace.txt"), a.points)

    got_rc, got_out = run([tally, "run", "--semihost-files", "rw", inst] + a.args, os.path.join(work, "tally"))
    if (got_rc, got_out) != (want_rc, want_out):
        fail("instrumented on tally: exit %d, output:\n%s\nthe original: exit %d, output:\n%s"
             % (got_rc, got_out, want_rc, want_out))
    mt = os.path.join(work, "tally", "memtrace.out")
    recs, lost, made = read_memtrace(mt)
    if lost or made != len(recs):
        fail("trailer: %d lost, %d made, %d records in the file" % (lost, made, len(recs)))
    if recs != want:
        for i, (g, w) in enumerate(zip(recs, want)):
            if g != w:
                fail("access %d: memtrace %s, the trace %s" % (i, g, w))
        fail("memtrace has %d accesses, the trace %d" % (len(recs), len(want)))
    if len(recs) < a.min_records:
        fail("only %d accesses: the test wants at least %d (the buffer flush)" % (len(recs), a.min_records))

    rc, shown = run([tally, "inst", "--show", mt, orig], work)
    lines = [l.split() for l in shown.splitlines()[2:]]
    if rc or [(int(l[0], 16), l[-2], l[-1]) for l in lines] != \
            [(r[0], r[1], "0x%08x/%d" % (r[2], r[3])) for r in want]:
        fail("tally inst --show (exit %d) does not print the trace's accesses" % rc)

    rc, out = run([tally, "run", inst] + a.args, os.path.join(work, "ro"))
    said = [l for l in out.splitlines(True)
            if l.startswith(("memtrace: ", "tally: semihosting: refused", "tally inst runtime: "))]
    rest = "".join(l for l in out.splitlines(True) if l not in said)
    # the trace is lost: the run must not pass for a good one (status 74)
    if rc != 74 or rest != want_out or "memtrace: %d records lost" % len(recs) not in out \
            or "could not write its output file" not in out:
        fail("without --semihost-files rw: exit %d, output:\n%s" % (rc, out))

    qemu = a.qemu or "qemu-system-riscv32"
    if shutil.which(qemu):
        env = dict(os.environ, QEMU_EXTRA_ARGS="-m 256M -device loader,addr=0x88001000,cpu-num=0")
        q_rc, q_out = run([os.path.join(ROOT, "scripts", "qemu-run.sh"), inst] + a.args, os.path.join(work, "qemu"), env)
        if (q_rc, q_out) != (want_rc, want_out):
            fail("instrumented on QEMU: exit %d, output:\n%s" % (q_rc, q_out))
        if open(os.path.join(work, "qemu", "memtrace.out"), "rb").read() != open(mt, "rb").read():
            fail("QEMU's memtrace.out differs from tally's")
        print("PASS: %d accesses (%s) equal the trace's, on tally and QEMU" % (len(recs), a.points))
    else:
        print("PASS: %d accesses (%s) equal the trace's on tally (QEMU not installed: not compared)"
              % (len(recs), a.points))
    return 0


if __name__ == "__main__":
    sys.exit(main())
