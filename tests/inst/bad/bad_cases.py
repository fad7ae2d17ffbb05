#!/usr/bin/env python3
"""bad_cases.py: `tally inst` on bad input (docs/inst-tests.md).

    bad_cases.py --tally T --host-cc CC --riscv-cc RCC --programs DIR --work DIR CASE

Every failing case must end with the contract's exit status, a message on
stderr that names the problem and where it is (the input file, the analysis
file, the symbol), and no output file: neither OUT.elf nor any temporary
file in its directory. Fixtures are made here, in --work, at test time:
the host C compiler makes the x86-64 ELF, the cross compiler's default
multilib the RV64 one, elfutil.write_rv32 the hand-made ones, and the
programs of tests/inst/recreate (--programs) the rest.
Exit status: 0 pass, 1 fail, 77 skip (no `tally inst` in this build).
"""
import argparse
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import elfutil  # noqa: E402
import inst_check  # noqa: E402

USAGE, BAD_INPUT_DATA, BAD_FILE, TOOLCHAIN = 64, 65, 66, 70
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL: " + what)
    return cond


class Case:
    def __init__(self, a):
        self.a = a
        self.work = a.work
        self.outdir = os.path.join(a.work, "out")
        os.makedirs(self.outdir)
        self.out = os.path.join(self.outdir, "OUT.elf")

    def path(self, name):
        return os.path.join(self.work, name)

    def inst(self, *args):
        cmd = [self.a.tally, "inst"] + list(args)
        print("$ " + " ".join(cmd))
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        err = p.stderr.decode(errors="replace")
        print("exit %d; stderr:\n%s" % (p.returncode, err.rstrip()))
        return p.returncode, p.stdout.decode(errors="replace"), err

    def expect_error(self, status, words, *args):
        """tally inst ARGS must exit with status (one or a tuple), say each of
        words on stderr, and leave nothing in the output directory."""
        before = set(os.listdir(self.outdir))
        rc, out, err = self.inst(*args)
        ok = rc in status if isinstance(status, tuple) else rc == status
        check(ok, "exit status %d, expected %s" % (rc, status))
        for w in words:     # a path may be named as given or by its file name
            check(w in err or os.path.basename(w) in err, "the message does not name '%s'" % w)
        left = set(os.listdir(self.outdir)) - before
        check(not left, "files left behind in the output directory: %s" % sorted(left))
        return rc, out, err


def cc(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise SystemExit("fixture: %s failed:\n%s" % (" ".join(cmd), p.stderr.decode(errors="replace")))


def program(c, name="jumps"):
    return os.path.join(c.a.programs, name + ".elf")


# ---- the cases ----

def case_not_elf(c):
    f = c.path("notes.txt")
    with open(f, "w") as fh:
        fh.write("this is a text file, not a program\n" * 20)
    c.expect_error(BAD_FILE, [f], "--points", "bb", f, "-o", c.out)


def case_empty_file(c):
    f = c.path("empty.elf")
    open(f, "w").close()
    c.expect_error(BAD_FILE, [f], "--points", "bb", f, "-o", c.out)


def case_missing_file(c):
    f = c.path("no_such_program.elf")
    c.expect_error(BAD_FILE, [f], "--points", "bb", f, "-o", c.out)


def case_x86_64(c):
    src, f = c.path("host.c"), c.path("host.elf")
    with open(src, "w") as fh:
        fh.write("int main(void) { return 0; }\n")
    cc([c.a.host_cc, src, "-o", f])
    check(elfutil_machine(f) == 62, "fixture: the host compiler did not make an x86-64 ELF")
    c.expect_error(BAD_FILE, [f], "--points", "bb", f, "-o", c.out)


def case_rv64(c):
    src, f = c.path("rv64.S"), c.path("rv64.elf")
    with open(src, "w") as fh:
        fh.write(".globl _start\n_start:\n  li a0, 0\n  j _start\n")
    cc([c.a.riscv_cc, "-nostdlib", "-nostartfiles", src, "-o", f])   # default multilib: rv64
    with open(f, "rb") as fh:
        check(fh.read(5)[4] == 2, "fixture: the cross compiler's default is not a 64-bit ELF")
    c.expect_error(BAD_FILE, [f], "--points", "bb", f, "-o", c.out)


def truncated(c, keep):
    with open(program(c), "rb") as fh:
        data = fh.read()
    f = c.path("truncated.elf")
    with open(f, "wb") as fh:
        fh.write(data[:keep(data)])
    c.expect_error(BAD_FILE, [f], "--points", "bb", f, "-o", c.out)


def case_truncated_header(c):
    truncated(c, lambda d: 40)                     # inside the ELF header


def case_truncated_segments(c):
    e = elfutil.Elf32(program(c))
    first = min(s["offset"] for s in e.segments if s["type"] == elfutil.PT_LOAD and s["filesz"])
    truncated(c, lambda d: first + 64)             # headers whole, code cut short


def tiny_program():
    """li a0, 0x5555; lui a1, 0x100; sw a0, 0(a1); j . (exit 0 through the
    test finisher), encoded by hand."""
    import struct
    words = [0x00005537, 0x55550513,               # lui a0, 5; addi a0, a0, 0x555
             0x001005b7, 0x00a5a023,               # lui a1, 0x100; sw a0, 0(a1)
             0x0000006f]                           # j .
    return b"".join(struct.pack("<I", w) for w in words)


def case_overlapping_segments(c):
    f = c.path("overlap.elf")
    code = tiny_program()
    elfutil.write_rv32(f, 0x80000000, [
        (0x80000000, elfutil.PF_R | elfutil.PF_X, code + b"\0" * 0x100, None),
        (0x80000080, elfutil.PF_R | elfutil.PF_W, b"\x11" * 0x100, None),   # overlaps the first
    ])
    c.expect_error(BAD_FILE, [f], "--points", "bb", f, "-o", c.out)


def stripped(c):
    f = c.path("stripped.elf")
    strip = c.a.riscv_cc.replace("-gcc", "-strip")
    shutil.copy(program(c), f)
    cc([strip, f])
    check(not elfutil.Elf32(f).sections or
          not any(s["type"] == 2 for s in elfutil.Elf32(f).sections),   # SHT_SYMTAB
          "fixture: strip left a symbol table")
    return f


def case_stripped_bb(c):
    """Basic blocks need no symbols: the stripped program is instrumented
    and still passes its own checks, on tally and QEMU."""
    f = stripped(c)
    rc, out, err = c.inst("--points", "bb", "--tool", "none", f, "-o", c.out)
    if check(rc == 0, "a stripped binary at --points bb: exit %d" % rc):
        rt = inst_check.run_tally(c.a.tally, c.out, inst_check.ram_mib(elfutil.Elf32(c.out)))
        check(rt[0] == 0, "the instrumented stripped program fails on tally (%d)" % rt[0])
        if shutil.which("qemu-system-riscv32"):
            rq = inst_check.run_qemu(c.out, inst_check.ram_mib(elfutil.Elf32(c.out)))
            check(rq[0] == 0, "the instrumented stripped program fails on QEMU (%d)" % rq[0])


def case_stripped_func_entry(c):
    """Function entries need symbols: a stripped binary is refused."""
    f = stripped(c)
    c.expect_error((USAGE, BAD_INPUT_DATA), [f, "symbol"], "--points", "func-entry", f, "-o", c.out)


def case_code_data_ambiguous(c):
    """Code and data (docs/tally-inst.md): a branch into the bytes of an
    object symbol in the text cannot be told code or data: refused, naming
    the address as the object's symbol+offset, the branch and why."""
    src = c.path("ambiguous.S")
    with open(src, "w") as fh:
        fh.write("""
        .text
        .globl _start
        .type _start, @function
_start: li a0, 1
        bnez a0, table+4
        j _start
        .size _start, .-_start
        .type table, @object
table:  .word 0x00000013, 0x00000013
        .size table, 8
""")
    f = c.path("ambiguous.elf")
    cc([c.a.riscv_cc, "-march=rv32imac", "-mabi=ilp32", "-nostdlib", "-nostartfiles",
        "-Wl,-Ttext=0x80000000", src, "-o", f])
    c.expect_error(BAD_INPUT_DATA, [f, "cannot tell code from data", "table+0x4", "_start+0x2",
                                    "object symbol"], "--points", "bb", f, "-o", c.out)


def analysis(c, name, text):
    f = c.path(name)
    with open(f, "w") as fh:
        fh.write(text)
    return f


def case_analysis_no_compile(c):
    f = analysis(c, "broken.c", "void count(void)\n{\n    this is not C;\n}\n")
    c.expect_error(TOOLCHAIN, [f + ":3"], "--points", "bb", "--analysis", f, "--call", "count",
                   program(c), "-o", c.out)


def case_analysis_no_link(c):
    f = analysis(c, "unlinked.c",
                 "void tally_test_no_such_function(void);\n"
                 "void count(void) { tally_test_no_such_function(); }\n")
    c.expect_error(TOOLCHAIN, ["tally_test_no_such_function"], "--points", "bb",
                   "--analysis", f, "--call", "count", program(c), "-o", c.out)


def case_usage_no_output(c):
    c.expect_error(USAGE, ["-o"], "--points", "bb", program(c))


def case_usage_bad_tactic(c):
    c.expect_error(USAGE, ["sideways"], "--points", "bb", "--tactic", "sideways", program(c), "-o", c.out)


def case_usage_bad_points(c):
    c.expect_error(USAGE, ["everywhere"], "--points", "everywhere", program(c), "-o", c.out)


def case_keeps_previous_output(c):
    """A failing run leaves an OUT.elf that was already there as it was
    (or removes it): never a half-written one."""
    with open(c.out, "wb") as fh:
        fh.write(b"previous contents")
    f = c.path("notes.txt")
    with open(f, "w") as fh:
        fh.write("not an ELF\n")
    rc, out, err = c.inst("--points", "bb", f, "-o", c.out)
    check(rc == BAD_FILE, "exit status %d, expected %d" % (rc, BAD_FILE))
    if os.path.exists(c.out):
        with open(c.out, "rb") as fh:
            check(fh.read() == b"previous contents", "the previous OUT.elf was overwritten by a failed run")
    check(set(os.listdir(c.outdir)) <= {"OUT.elf"}, "files left behind: %s" % os.listdir(c.outdir))


def elfutil_machine(path):
    import struct
    with open(path, "rb") as fh:
        return struct.unpack_from("<H", fh.read(20), 18)[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tally", required=True)
    ap.add_argument("--host-cc", required=True)
    ap.add_argument("--riscv-cc", required=True)
    ap.add_argument("--programs", required=True, help="the built tests/inst/recreate programs")
    ap.add_argument("--work", required=True)
    ap.add_argument("case")
    a = ap.parse_args()
    fn = globals().get("case_" + a.case)
    if fn is None:
        print("bad_cases.py: no case '%s'" % a.case)
        return 2
    if not inst_check.have_inst(a.tally):
        print("SKIP: %s has no `tally inst` yet" % a.tally)
        return 77
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    fn(Case(a))
    if FAILURES:
        print("inst.bad.%s: %d failure(s)" % (a.case, len(FAILURES)))
        return 1
    print("inst.bad.%s: pass" % a.case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
