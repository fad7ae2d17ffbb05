#!/usr/bin/env python3
"""hole_check.py: the trampoline hole of target/tally.ld changes no count.

    hole_check.py --tally TALLY --work DIR WITH.elf WITHOUT.elf [ARGS...]

WITH.elf is a program linked with target/tally.ld as it is (a 256 KiB
hole after .rodata), WITHOUT.elf the same sources linked with
`-Wl,--defsym=__tally_inst_hole_size=0`. The test checks that
  1. the hole is there in one and not in the other (.tally_inst_hole
     of 256 KiB, in no PT_LOAD segment, the writable data 256 KiB higher,
     .text and .rodata at the same addresses with the same sizes);
  2. `tally run --stats-json` gives the same JSON (every signal, cycle and
     energy figure) on the core models tally5, dsp500 and picorv32;
  3. QEMU prints the same and exits the same (skipped without QEMU).
Both files are copied to the same name in two folders first: argv[0] is the
path, and the start-up code's command-line split runs once per character.
Exit status: 0 pass, 1 fail, 77 skip (no QEMU: tally half passed).
"""
import argparse
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import elfutil  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
QEMU_RUN = os.path.join(HERE, "..", "..", "scripts", "qemu-run.sh")
CORES = ["tally5", "dsp500", "picorv32"]
HOLE = 256 << 10
SHT_NOBITS = 8
FAILURES = []


def check(ok, msg):
    if not ok:
        FAILURES.append(msg)
        print("FAIL: " + msg)
    return ok


def section(elf, name):
    for s in elf.sections:
        if s["name"] == name:
            return s
    return None


def check_layout(with_elf, without_elf):
    a, b = elfutil.Elf32(with_elf), elfutil.Elf32(without_elf)
    h = section(a, ".tally_inst_hole")
    if check(h is not None, "%s has no .tally_inst_hole section" % with_elf):
        check(h["size"] == HOLE and h["type"] == SHT_NOBITS, "the hole is %s, not a 256 KiB NOBITS section" % h)
        for seg in a.segments:
            if seg["type"] == elfutil.PT_LOAD:
                check(seg["vaddr"] + seg["memsz"] <= h["addr"] or seg["vaddr"] >= h["addr"] + h["size"],
                      "segment 0x%08x+0x%x covers the hole" % (seg["vaddr"], seg["memsz"]))
    hb = section(b, ".tally_inst_hole")
    check(hb is None or hb["size"] == 0, "%s has a hole, it should not" % without_elf)
    for name in (".text", ".rodata"):
        sa, sb = section(a, name), section(b, name)
        check(sa is not None and sb is not None and (sa["addr"], sa["size"]) == (sb["addr"], sb["size"]),
              "%s moved or changed size" % name)
    da, db = section(a, ".data"), section(b, ".data")
    check(da and db and da["addr"] - db["addr"] == HOLE, ".data is not 256 KiB higher with the hole")


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tally", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("with_elf")
    ap.add_argument("without_elf")
    ap.add_argument("args", nargs="*")
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    dirs = [os.path.join(a.work, "hole"), os.path.join(a.work, "nohole")]
    for d, src in zip(dirs, (a.with_elf, a.without_elf)):
        os.makedirs(d)
        shutil.copy(src, os.path.join(d, "p.elf"))
    check_layout(a.with_elf, a.without_elf)
    for core in CORES:
        got = []
        for d in dirs:
            rc, out, err = run([a.tally, "run", "--core", core, "--stats-json", "stats.json", "p.elf"] + a.args, d)
            check(rc == 0, "%s: tally run on %s exits %d: %s" % (d, core, rc, err.decode(errors="replace")[-500:]))
            with open(os.path.join(d, "stats.json"), "rb") as f:
                got.append((out, f.read()))
        check(got[0][0] == got[1][0], "%s: the output differs with the hole" % core)
        check(got[0][1] == got[1][1], "%s: --stats-json differs with the hole (see %s)" % (core, a.work))
        print("%s: same output and statistics (%d bytes of JSON)" % (core, len(got[0][1])))
    qemu = shutil.which(os.environ.get("QEMU_SYSTEM_RISCV32", "qemu-system-riscv32"))
    if qemu:
        got = [run([QEMU_RUN, "p.elf"] + a.args, d) for d in dirs]
        check(got[0][0] == 0 and got[0][:2] == got[1][:2], "QEMU: output or exit status differs with the hole")
    if FAILURES:
        return 1
    if not qemu:
        print("SKIP: tally half passed; no qemu-system-riscv32")
        return 77
    print("pass: the hole changes nothing")
    return 0


if __name__ == "__main__":
    sys.exit(main())
