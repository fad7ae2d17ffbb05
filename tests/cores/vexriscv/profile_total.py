#!/usr/bin/env python3
"""profile_total.py -- a profile counts the cycles the run does.

usage: profile_total.py TALLY BOARD_INI ELF CORE...

A profile starts a block at every function entry, so its blocks are split
where a plain run's are not; a core model's rules that carry state across
a block's entry (late results, a refill overlapping the instructions
ahead) must give the same cycles either way. For each core model and
W = 0..3 (the board's wait states): `tally profile`'s total cycles, the
sum of its functions' self cycles and of every function's per-instruction
rows (--annotate) equal `tally run --stats`'s cycles. The expected value is
the run's own; entry_wait.S's are also the RTL's (rtl_counts.csv).
Exit 0 when all hold, 1 otherwise.
"""
import os
import re
import subprocess
import sys
import tempfile


def board_at(board, w, tmp):
    with open(board) as f:
        text = re.sub(r"(?m)^(wait_states\s*=\s*)\d+", lambda m: m.group(1) + str(w), f.read())
    path = os.path.join(tmp, f"board-w{w}.ini")
    with open(path, "w") as f:
        f.write(text)
    return path


def run(cmd):
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    return p.stdout + p.stderr


def num(s):
    return int(s.replace(",", ""))


def main():
    if len(sys.argv) < 5:
        print(__doc__, file=sys.stderr)
        return 64
    tally, board, elf, cores = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    fails = checks = 0
    with tempfile.TemporaryDirectory(prefix="profile_total.") as tmp:
        for core in cores:
            for w in range(4):
                b = board_at(board, w, tmp)
                out = run([tally, "run", "--stats", "--core", core, "--board", b, elf])
                m = re.search(r"^\s*cycles\s+([\d,]+)", out, re.M)
                if not m:
                    print(f"FAIL: {core} W={w}: no cycles from tally run:\n{out}")
                    fails += 1
                    continue
                want = num(m.group(1))
                prof = run([tally, "profile", "--core", core, "--board", b, "--signals", "cycle", elf])
                funcs = re.findall(r"^\s*[\d.]+%\s+[\d.]+%\s+\d+\s+([\d,]+)\s+[\d,]+\s+(\S+)$", prof, re.M)
                total = re.search(r"^\s*total\s+([\d,]+)", prof, re.M)
                got = {"total": num(total.group(1)) if total else None,
                       "functions": sum(num(c) for c, _ in funcs) if funcs else None}
                rows = 0
                for _, name in funcs:
                    ann = run([tally, "profile", "--core", core, "--board", b, "--signals", "cycle",
                               "--annotate", name, elf])
                    part = ann.split(f"\n{name} [", 1)
                    rows += sum(num(c) for c in re.findall(r"^\s+[0-9a-f]{8}\s+([\d,]+)\s", part[-1], re.M)) \
                        if len(part) == 2 else 0
                got["instruction rows"] = rows
                for what, v in got.items():
                    checks += 1
                    if v != want:
                        fails += 1
                        print(f"FAIL: {core} W={w} {os.path.basename(elf)}: profile {what} {v}, tally run {want}")
                print(f"{core} W={w}: run {want}, profile {got}")
    print(f"profile_total.py: {checks} checks, {fails} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
