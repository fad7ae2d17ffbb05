#!/usr/bin/env python3
"""isa_a_loop.py -- vexriscv-imac's atomics against the RTL's retire trace.

usage: isa_a_loop.py TALLY ISA_A_ELF CORES_DIR BOARD_FILE

isa_a.S's whole run is not exact yet (its first amoswap.w's line refill,
docs/core-models.md), but its loop is: on the RTL (rtl/cores/vexriscv,
tb-imac -t, litex-hub/pythondata-cpu-vexriscv 1979a644) every iteration
after the first takes 39 cycles at W = 0 to 3 (the first addi of one
iteration retires 39 cycles after the previous one's), and amomax.w,
right after amoxor.w on the same word, retires 8 cycles after it (a
replay: [pipeline] amo_penalty, [dcache] store_load_replay). This checks
both in tally's --trace of the same program on vexriscv-imac.
"""
import os
import re
import subprocess
import sys
import tempfile

RTL_PERIOD = 39   # the RTL's cycles per iteration after the first, every W
RTL_AMOMAX = 8    # amoxor.w -> amomax.w retire distance on the RTL, every W


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    tally, elf, cores, board = sys.argv[1:]
    fails = 0
    with tempfile.TemporaryDirectory() as tmp:
        with open(board) as f:
            text = f.read()
        for w in range(4):
            b = os.path.join(tmp, f"board-w{w}.ini")
            with open(b, "w") as f:
                f.write(re.sub(r"(?m)^(wait_states\s*=\s*)\d+", lambda m: m.group(1) + str(w), text))
            trace = os.path.join(tmp, f"trace-w{w}.txt")
            r = subprocess.run([tally, "run", "--core", os.path.join(cores, "vexriscv-imac.ini"), "--board", b,
                                "--trace", trace, elf], capture_output=True, text=True)
            if not os.path.exists(trace):
                print(f"FAIL W={w}: no trace: {r.stderr.strip()}")
                fails += 1
                continue
            starts, amomax = [], []
            with open(trace) as f:
                for line in f:
                    if line.startswith("#"):
                        continue
                    m = re.match(r"(\d+) \+(\d+) ([0-9a-f]+) (\S+)", line)
                    if not m:
                        continue
                    if m.group(4) == "main+0x10:":
                        starts.append(int(m.group(1)))
                    elif m.group(4) == "main+0x28:":
                        amomax.append(int(m.group(2)))
            periods = [b - a for a, b in zip(starts, starts[1:])][1:]
            if len(periods) != 8 or any(p != RTL_PERIOD for p in periods):
                print(f"FAIL W={w}: iterations 2..9 take {periods}, the RTL {RTL_PERIOD} each")
                fails += 1
            if len(amomax) != 10 or any(c != RTL_AMOMAX for c in amomax):
                print(f"FAIL W={w}: amomax.w takes {amomax}, the RTL {RTL_AMOMAX} each")
                fails += 1
            else:
                print(f"ok W={w}: {RTL_PERIOD} cycles per iteration, amomax.w {RTL_AMOMAX}")
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
