#!/usr/bin/env python3
"""A program whose start calls N distinct one-instruction functions once
each (N = 100,000 by default): the calling-context tree's root context then
has N children, the shape that made `tally profile` super-quadratic in a
node's number of distinct callees (every new child scanned all its
siblings). Writes DIR/callees-N.S and builds DIR/callees-N.elf with the
cross GCC and the board's linker script, target/tally.ld (no C library:
HTIF's tohost ends it with status 0).

usage: callees.py DIR [N]
"""
import os
import subprocess
import sys

out_dir = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 100000
os.makedirs(out_dir, exist_ok=True)
src = os.path.join(out_dir, "callees-%d.S" % n)
elf = os.path.join(out_dir, "callees-%d.elf" % n)
lines = [".option norvc", ".section .text.start", ".globl _start", ".type _start, @function", "_start:",
         "  li sp, 0x80f00000"]
lines += ["  call f%d" % i for i in range(n)]
lines += ["  li t0, 1", "  la t1, tohost", "  sw t0, 0(t1)", "  sw zero, 4(t1)", "1: j 1b",
          ".size _start, .-_start"]
for i in range(n):
    lines += [".type f%d, @function" % i, "f%d:" % i, "  ret", ".size f%d, .-f%d" % (i, i)]
lines.insert(lines.index(".size _start, .-_start") + 1, ".text")
lines += [".data", ".balign 8", ".globl tohost", "tohost: .dword 0", ".globl fromhost", "fromhost: .dword 0"]
with open(src, "w") as f:
    f.write("\n".join(lines) + "\n")
subprocess.run(["riscv64-unknown-elf-gcc", "-march=rv32imac", "-mabi=ilp32", "-nostdlib", "-nostartfiles",
                "-T", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "target", "tally.ld"),
                "-o", elf, src], check=True)
print(elf)
