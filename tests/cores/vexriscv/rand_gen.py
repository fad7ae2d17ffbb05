#!/usr/bin/env python3
"""rand_gen.py -- random straight programs for the VexRiscv differential.

usage: rand_gen.py SEED VARIANT [-o FILE]     (VARIANT: std, imac, min)

Writes one assembly file (main() for tests/cores/vexriscv's crt.S and
link.ld), fully determined by SEED and VARIANT, mixing every instruction
class the variant executes: ALU (register and immediate), shifts, loads and
stores of every width to cached RAM (three bases 4 KiB apart, so that they
share D-cache sets) and to the uncached IO region (IO_SCRATCH: reads 0,
writes ignored), forward branches taken and not taken, backward branches
(the loops' and never-taken ones), jal and jalr calls to leaf functions,
forward jumps, CSR reads, fence.i, and per variant: mul/div (std, imac),
compressed code at both alignments and atomics (imac). Loops are small (a
few instructions, many passes) and large (a body of hundreds of
instructions, or a walk over 12 KiB of data at a line's stride) so that the
4 KiB I- and D-cache refill and evict. Nothing checks itself: main returns
a checksum of the registers, the exit code both sides must agree on, and
crt.S ends the run with the finisher store. Same idea as tests/random/gen.py
(bounded loops, forward-only branches), shaped for the cycle comparison:
no traps, no self-modifying code, no value that depends on time or on a
CSR's reset value (CSR reads go to a register nothing else reads).
"""
import argparse
import random

# values the random code computes with (never sp, ra, gp, tp, nor the bases)
POOL = ["a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "s1"]
BASES = ["s2", "s3", "s4"]  # RAM buffer, + 4 KiB, + 8 KiB (same D-cache sets)
IO = "s5"                   # IO_SCRATCH (uncached)
WALK = "s6"                 # the data walk's pointer
LOOP = ["s7", "s8", "s9"]   # loop counters, by nesting depth
RVC_REGS = ["a0", "a1", "a2", "a3", "a4", "a5", "s1"]  # x8..x15 of POOL: compressible forms

ALU_R = ["add", "sub", "xor", "or", "and", "slt", "sltu"]
ALU_I = ["addi", "xori", "ori", "andi", "slti", "sltiu"]
SHIFT_R = ["sll", "srl", "sra"]
SHIFT_I = ["slli", "srli", "srai"]
MULDIV = ["mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"]
BRANCH = ["beq", "bne", "blt", "bge", "bltu", "bgeu"]
LOADS = [("lw", 4), ("lh", 2), ("lhu", 2), ("lb", 1), ("lbu", 1)]
STORES = [("sw", 4), ("sh", 2), ("sb", 1)]
AMOS = ["amoadd.w", "amoswap.w", "amoxor.w", "amoand.w", "amoor.w", "amomin.w", "amomax.w",
        "amominu.w", "amomaxu.w"]
CSRS = ["mstatus", "mtvec", "mie"]
SINK = "tp"                 # CSR values: read, used, never mixed into the values


class Gen:
    def __init__(self, seed, variant):
        self.r = random.Random(f"{seed}:{variant}")
        self.v = variant
        self.lines = []
        self.label = 0
        self.depth = 0
        self.leaves = 3

    def new_label(self):
        self.label += 1
        return f".L{self.label}"

    def emit(self, s):
        self.lines.append("    " + s)

    def reg(self):
        return self.r.choice(POOL)

    def alu(self):
        r = self.r
        k = r.random()
        if k < 0.35:
            self.emit(f"{r.choice(ALU_R)} {self.reg()}, {self.reg()}, {self.reg()}")
        elif k < 0.6:
            self.emit(f"{r.choice(ALU_I)} {self.reg()}, {self.reg()}, {r.randint(-2048, 2047)}")
        elif k < 0.7:
            self.emit(f"{r.choice(['lui', 'auipc'])} {self.reg()}, {r.randint(0, 0xfffff)}")
        elif k < 0.85:
            self.emit(f"{r.choice(SHIFT_I)} {self.reg()}, {self.reg()}, {r.randint(0, 31)}")
        else:
            self.emit(f"{r.choice(SHIFT_R)} {self.reg()}, {self.reg()}, {self.reg()}")

    def mem(self):
        r = self.r
        io = r.random() < 0.15
        base = IO if io else r.choice(BASES)
        if r.random() < 0.5:
            op, n = r.choice(LOADS)
            off = r.randrange(0, 64, n) if io else r.randrange(0, 2048, n)
            self.emit(f"{op} {self.reg()}, {off}({base})")
        else:
            op, n = r.choice(STORES)
            off = r.randrange(0, 2048, n) if not io else r.randrange(0, 64, n)
            self.emit(f"{op} {self.reg()}, {off}({base})")

    def amo(self):
        r = self.r
        off = r.randrange(0, 2048, 4)
        self.emit(f"addi t6, {r.choice(BASES)}, {off}")
        if r.random() < 0.3:
            d = self.r.choice([x for x in POOL if x != "t6"])
            self.emit(f"lr.w {d}, (t6)")
            self.emit(f"sc.w {self.r.choice([x for x in POOL if x != 't6'])}, {self.reg()}, (t6)")
        else:
            self.emit(f"{r.choice(AMOS)} {self.r.choice([x for x in POOL if x != 't6'])}, {self.reg()}, (t6)")

    def fwd_branch(self):
        r = self.r
        end = self.new_label()
        if r.random() < 0.2:
            self.emit(f"j {end}")
        else:
            self.emit(f"{r.choice(BRANCH)} {self.reg()}, {self.reg()}, {end}")
        for _ in range(r.randint(0, 4)):
            self.simple()
        self.lines.append(f"{end}:")

    def never_back(self):
        # a backward branch never taken (predicted taken: mispredicts)
        lab = self.new_label()
        self.lines.append(f"{lab}:")
        for _ in range(self.r.randint(0, 2)):
            self.simple()
        self.emit(f"bne zero, zero, {lab}")

    def call(self):
        r = self.r
        leaf = f"leaf{r.randrange(self.leaves)}"
        if r.random() < 0.5:
            self.emit(f"jal ra, {leaf}")
        else:
            self.emit(f"la t6, {leaf}")
            self.emit("jalr ra, 0(t6)")

    def simple(self):
        """one instruction of the variant's classes (no control flow)"""
        r = self.r
        k = r.random()
        if k < 0.45:
            self.alu()
        elif k < 0.75:
            self.mem()
        elif k < 0.85 and self.v != "min":
            self.emit(f"{r.choice(MULDIV)} {self.reg()}, {self.reg()}, {self.reg()}")
        elif k < 0.9:
            # a CSR's value may differ between tally and the RTL (reset
            # bits): it goes to SINK only, sometimes used at once
            self.emit(f"csrr {SINK}, {r.choice(CSRS)}")
            if r.random() < 0.4:
                self.emit(f"addi {SINK}, {SINK}, 1")
        elif k < 0.95 and self.v == "imac":
            self.amo()
        else:
            self.alu()

    def rvc_toggle(self):
        """imac: switch compressed code on or off, at either alignment"""
        r = self.r
        if r.random() < 0.5:
            self.lines.append("    .option rvc")
            if r.random() < 0.5:
                self.emit("c.nop")  # the rest at 2 mod 4
            for _ in range(r.randint(2, 8)):
                d, s = r.choice(RVC_REGS), r.choice(RVC_REGS)
                self.emit(r.choice([f"c.addi {d}, {r.randint(1, 31)}", f"c.mv {d}, {s}", f"c.add {d}, {s}",
                                    f"c.and {d}, {s}", f"c.xor {d}, {s}", f"c.slli {d}, {r.randint(1, 31)}",
                                    f"c.li {d}, {r.randint(-32, 31)}"]))
        else:
            self.lines.append("    .option norvc")

    def item(self):
        r = self.r
        k = r.random()
        if k < 0.55:
            self.simple()
        elif k < 0.7:
            self.fwd_branch()
        elif k < 0.75:
            self.never_back()
        elif k < 0.82:
            self.call()
        elif k < 0.85 and self.v == "imac":
            self.rvc_toggle()
        elif k < 0.86:
            self.emit("fence.i")
        elif k < 0.93 and self.depth < len(LOOP):
            self.loop(small=True)
        elif k < 0.96 and self.depth == 0:
            self.loop(small=False)
        elif k < 0.98 and self.depth == 0:
            self.walk()
        else:
            self.simple()

    def loop(self, small):
        r = self.r
        cnt = LOOP[self.depth]
        self.depth += 1
        lab = self.new_label()
        self.emit(f"li {cnt}, {r.randint(2, 12) if small else r.randint(2, 3)}")
        self.lines.append(f"{lab}:")
        for _ in range(r.randint(1, 6) if small else r.randint(150, 700)):
            if small:
                self.simple()
            else:
                self.item()
        self.emit(f"addi {cnt}, {cnt}, -1")
        self.emit(f"bnez {cnt}, {lab}")
        self.depth -= 1

    def walk(self):
        """a walk over 12 KiB of RAM at a line's stride (or more): D-cache
        refills, and evictions of the lines the bases use"""
        r = self.r
        cnt = LOOP[self.depth]
        self.depth += 1
        stride = r.choice([32, 36, 64, 4, 128])
        n = min(12288 // stride, 200)
        self.emit(f"mv {WALK}, s2")
        self.emit(f"li {cnt}, {n}")
        lab = self.new_label()
        self.lines.append(f"{lab}:")
        op = r.choice(["lw", "sw", "lbu", "sh"])
        self.emit(f"{op} {self.reg()}, 0({WALK})")
        for _ in range(r.randint(0, 3)):
            self.simple()
        self.emit(f"addi {WALK}, {WALK}, {stride}")
        self.emit(f"addi {cnt}, {cnt}, -1")
        self.emit(f"bnez {cnt}, {lab}")
        self.depth -= 1

    def program(self, items):
        r = self.r
        # crt.S needs only ra and sp back (it calls main, then the finisher)
        out = ['#include "vex.h"', "    .option norvc", "    main_entry 0"]
        out += ["    la s2, rand_buf", "    li t0, 4096", "    add s3, s2, t0", "    add s4, s3, t0",
                "    li s5, IO_SCRATCH"]
        for x in POOL:
            out.append(f"    li {x}, {r.choice([0, 1, -1, r.randint(-2048, 2047), r.getrandbits(32) - (1 << 31)])}")
        for _ in range(items):
            self.item()
        out += self.lines
        out.append("    .option norvc")
        out.append("    xor a0, a0, a1")
        for x in POOL[2:]:
            out.append(f"    add a0, a0, {x}")
        out.append("    srli t0, a0, 16")
        out.append("    xor a0, a0, t0")
        out.append("    slli a0, a0, 16")
        out.append("    srli a0, a0, 16")
        out.append("    main_return 0")
        self.lines = []
        for i in range(self.leaves):
            self.lines.append(f"leaf{i}:")
            if self.v == "imac" and r.random() < 0.5:
                self.lines.append("    .option rvc")
            else:
                self.lines.append("    .option norvc")
            for _ in range(r.randint(0, 5)):
                k = r.random()
                self.alu() if k < 0.6 else self.mem()
            self.emit("ret")
        out += self.lines
        out += ["    .bss", "    .balign 4096", "rand_buf:", "    .space 12288 + 256"]
        return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("variant", choices=["std", "imac", "min"])
    ap.add_argument("--items", type=int, help="top-level items (default: by the seed, 10 to 200)")
    ap.add_argument("-o", "--output")
    a = ap.parse_args()
    items = a.items if a.items is not None else [10, 30, 60, 120, 200][a.seed % 5]
    text = Gen(a.seed, a.variant).program(items)
    if a.output:
        with open(a.output, "w") as f:
            f.write(text)
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
