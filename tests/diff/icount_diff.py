#!/usr/bin/env python3
"""Instruction-count differential test.

usage: icount_diff.py TALLY PROG.elf [ARGS...]

Runs PROG.elf on tally (`tally run -v`, which reports the exact number of
instructions executed) and counts the instructions of the same run on QEMU
(qemu_icount.py); passes only if both exit 0 and the counts are equal.
The number of instructions a program executes is a property of the ISA,
not of the simulator, so any difference is a bug in one of them.

Exit status: 0 pass, 1 fail, 77 skip (QEMU not installed).
"""
import os
import re
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qemu_icount  # noqa: E402

SUMMARY_RE = re.compile(r"tally: ([0-9][0-9,.' ]*) instructions")


def tally_count(tally, elf, args, timeout):
    p = subprocess.run([tally, "run", "-v", elf] + args, stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=timeout)
    m = None
    for line in p.stderr.splitlines():
        m = SUMMARY_RE.search(line) or m
    n = int(re.sub(r"[^0-9]", "", m.group(1))) if m else None
    return n, p.returncode, p.stderr


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    tally, elf, args = argv[0], argv[1], argv[2:]
    timeout = float(os.environ.get("DIFF_TIMEOUT", "600"))
    if shutil.which(qemu_icount.qemu_binary()) is None:
        print(f"icount_diff.py: SKIP: {qemu_icount.qemu_binary()} not found")
        return 77
    if not (os.path.isfile(tally) and os.access(tally, os.X_OK)):
        print(f"icount_diff.py: FAIL: tally binary '{tally}' is missing or not executable")
        return 1
    if not os.path.isfile(elf):
        print(f"icount_diff.py: FAIL: program '{elf}' is missing (not built?)")
        return 1

    tn, trc, terr = tally_count(tally, elf, args, timeout)
    qn, qrc = qemu_icount.count(elf, args, timeout)
    what = " ".join([os.path.basename(elf)] + args)
    ok = True
    if tn is None:
        print(f"FAIL: no instruction count in the output of `tally run -v`:\n{terr}")
        ok = False
    if trc != 0 or qrc != 0:
        print(f"FAIL: exit status: tally {trc}, QEMU {qrc} (0 expected)")
        ok = False
    if ok and tn != qn:
        print(f"FAIL: {what}: tally counts {tn:,} instructions, QEMU {qn:,} "
              f"(difference {tn - qn:+,})")
        ok = False
    if not ok:
        return 1
    print(f"PASS: {what}: {tn:,} instructions on both tally and QEMU")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
