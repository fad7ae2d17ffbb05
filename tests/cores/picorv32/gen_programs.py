#!/usr/bin/env python3
"""Writes the generated programs of the PicoRV32 differential tests.

    gen_programs.py OUT_DIR

Each program is a loop over a body of instructions drawn with a fixed seed
(the program's number) from every class the core executes: ALU with an
immediate and with registers, lui/auipc, shifts by a constant and by a
register, loads and stores of every width, multiply, divide, branches taken
and not (forward, over 0 to 3 instructions), jal and jalr (calls and
returns), and the counter reads (rdcycle[h], rdinstret[h]). Programs with
`rvc` in their name are assembled with the C extension, so the assembler
compresses whatever it can: 16- and 32-bit instructions mix and every
instruction lands at 0 or 2 mod 4 after every kind of instruction. The
`rvc-dense` ones use mostly registers and immediates that compress.
The output is deterministic: the committed counts (rtl_counts.csv) hold for
the files this script writes.
"""
import os
import random
import sys

DEST = ["a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "t0", "t1", "t2", "t3", "t4", "t5", "s2", "s3"]
DENSE = ["a0", "a1", "a2", "a3", "a4", "a5"]
SRC = DEST + ["zero", "s0"]

ALU_I = ["addi", "slti", "sltiu", "xori", "ori", "andi"]
ALU_R = ["add", "sub", "slt", "sltu", "xor", "or", "and"]
SH_I = ["slli", "srli", "srai"]
SH_R = ["sll", "srl", "sra"]
LOADS = [("lw", 4), ("lh", 2), ("lhu", 2), ("lb", 1), ("lbu", 1)]
STORES = [("sw", 4), ("sh", 2), ("sb", 1)]
MUL = ["mul", "mulh", "mulhsu", "mulhu"]
DIV = ["div", "divu", "rem", "remu"]
CNT = ["rdcycle", "rdcycleh", "rdinstret", "rdinstreth"]


class Gen:
    def __init__(self, seed, dense, muldiv, counters):
        self.r = random.Random(seed)
        self.dense = dense
        self.muldiv = muldiv
        self.counters = counters
        self.lines = []
        self.label = 0
        self.funcs = []

    def rd(self):
        return self.r.choice(DENSE if self.dense and self.r.random() < 0.8 else DEST)

    def rs(self):
        return self.r.choice(DENSE if self.dense and self.r.random() < 0.8 else SRC)

    def imm(self):
        if self.dense and self.r.random() < 0.7:
            return self.r.randint(-32, 31)
        return self.r.randint(-2048, 2047)

    def new_label(self):
        self.label += 1
        return f"L{self.label}"

    def insn(self, depth=0):
        r = self.r
        kinds = ["alu_i"] * 4 + ["alu_r"] * 4 + ["sh_i"] * 2 + ["sh_r"] * 2 + ["lui"] + ["load"] * 3 + \
                ["store"] * 3 + ["branch"] * 3 + ["jal"] + ["call"]
        if self.muldiv:
            kinds += ["mul", "div"]
        if self.counters:
            kinds += ["cnt"]
        k = r.choice(kinds)
        out = self.lines
        if k == "alu_i":
            op = r.choice(ALU_I)
            out.append(f"  {op} {self.rd()}, {self.rs()}, {self.imm()}")
        elif k == "alu_r":
            out.append(f"  {r.choice(ALU_R)} {self.rd()}, {self.rs()}, {self.rs()}")
        elif k == "sh_i":
            d = self.rd()
            out.append(f"  {r.choice(SH_I)} {d}, {d if self.dense else self.rs()}, {r.randint(0, 31)}")
        elif k == "sh_r":
            out.append(f"  {r.choice(SH_R)} {self.rd()}, {self.rs()}, {self.rs()}")
        elif k == "lui":
            if r.random() < 0.5:
                out.append(f"  lui {self.rd()}, {r.randint(0, 31) if self.dense else r.randint(0, 0xfffff)}")
            else:
                out.append(f"  auipc {self.rd()}, {r.randint(0, 0xfffff)}")
        elif k == "load":
            op, w = r.choice(LOADS)
            off = r.randrange(0, 124 if self.dense else 2040, w)
            out.append(f"  {op} {self.rd()}, {off}(s0)")
        elif k == "store":
            op, w = r.choice(STORES)
            off = r.randrange(0, 124 if self.dense else 2040, w)
            out.append(f"  {op} {self.rs()}, {off}(s0)")
        elif k == "mul":
            out.append(f"  {r.choice(MUL)} {self.rd()}, {self.rs()}, {self.rs()}")
        elif k == "div":
            out.append(f"  {r.choice(DIV)} {self.rd()}, {self.rs()}, {self.rs()}")
        elif k == "cnt":
            out.append(f"  {r.choice(CNT)} t6")
        elif k == "branch" and depth == 0:
            lab = self.new_label()
            op = r.choice(["beq", "bne", "blt", "bge", "bltu", "bgeu", "beqz", "bnez"])
            if op in ("beqz", "bnez"):
                out.append(f"  {op} {self.rs()}, {lab}")
            else:
                out.append(f"  {op} {self.rs()}, {self.rs()}, {lab}")
            for _ in range(r.randint(0, 3)):
                self.insn(depth + 1)
            out.append(f"{lab}:")
        elif k == "jal" and depth == 0:
            lab = self.new_label()
            out.append(f"  j {lab}")
            for _ in range(r.randint(0, 2)):
                self.insn(depth + 1)
            out.append(f"{lab}:")
        elif k == "call" and depth == 0:
            f = f"F{len(self.funcs)}"
            out.append(f"  jal ra, {f}")
            body = []
            saved, self.lines = self.lines, body
            for _ in range(r.randint(0, 3)):
                self.insn(depth + 1)
            self.lines = saved
            self.funcs.append((f, body, r.random() < 0.5))
        else:
            out.append(f"  addi {self.rd()}, {self.rs()}, {self.imm()}")


def program(seed, rvc, dense, muldiv=True, counters=True, body=60, loops=7):
    g = Gen(seed, dense, muldiv, counters)
    head = [f"/* generated by gen_programs.py: seed {seed}, {'rvc' if rvc else 'norvc'}"
            f"{', dense' if dense else ''}; do not edit */",
            f"  .option {'rvc' if rvc else 'norvc'}",
            "  .option norelax",
            "  .section .text.start, \"ax\"",
            "  .globl _start",
            "_start:",
            "  li s0, 0x80010000",
            "  la sp, 0x80040000",
            f"  li s1, {loops}"]
    r = g.r
    for reg in DEST:
        head.append(f"  li {reg}, {r.randint(-2**31, 2**31 - 1)}")
    if r.random() < 0.5:
        head.append("  .balign 4")
    else:
        head.append("  .balign 4")
        head.append("  c.nop" if rvc else "  nop")
    head.append("loop:")
    for _ in range(body):
        g.insn()
    tail = ["  addi s1, s1, -1",
            "  bnez s1, loop",
            "  li t0, 0x100000",
            "  li t1, 0x5555",
            "  sw t1, 0(t0)",
            "1:",
            "  j 1b"]
    funcs = []
    for name, fbody, skew in g.funcs:
        if skew and rvc:
            funcs.append("  c.nop")
        funcs.append(f"{name}:")
        funcs += fbody
        funcs.append("  ret")
    data = ["  .data", "  .balign 4"]
    data += [f"  .word {r.randint(0, 2**32 - 1)}" for _ in range(512)]
    return "\n".join(head + g.lines + tail + funcs + data) + "\n"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen_programs.py OUT_DIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    specs = []
    for i in range(12):
        specs.append((f"rand{i:02d}", 100 + i, False, False, {}))
    for i in range(12):
        specs.append((f"rand{i:02d}-rvc", 200 + i, True, False, {}))
    for i in range(8):
        specs.append((f"dense{i:02d}-rvc", 300 + i, True, True, {}))
    # without multiply/divide: for the configurations without ENABLE_MUL/DIV
    for i in range(3):
        specs.append((f"nomd{i:02d}", 400 + i, False, False, {"muldiv": False}))
    for i in range(3):
        specs.append((f"nomd{i:02d}-rvc", 500 + i, True, True, {"muldiv": False}))
    for name, seed, rvc, dense, kw in specs:
        with open(os.path.join(out, name + ".S"), "w") as f:
            f.write(program(seed, rvc, dense, **kw))
    print("\n".join(s[0] for s in specs))


if __name__ == "__main__":
    main()
