"""The rows of `tally run --trace` that the VexRiscv split checks read
(trap_split.py, no_c_word.py, wrong_path_split.py)."""
import os
import subprocess


def trace_rows(tally, cores, core, board, elf):
    """(pc, cycles, signals) of each instruction's row of the run on the
    core model CORES/CORE.ini and BOARD, in order."""
    out = subprocess.run([tally, "run", "--core", os.path.join(cores, f"{core}.ini"), "--board", board,
                          "--trace", "-", elf], capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines():
        f = line.split()
        if len(f) > 3 and f[1].startswith("+"):
            rows.append((int(f[2], 16), int(f[1][1:]), line.rsplit("|", 1)[-1].split()))
    return rows
