#!/usr/bin/env python3
"""Random RV32IMAC+Zicsr instruction-sequence generator for differential testing.

Writes one assembly program, fully determined by a seed:

  prologue   point mtvec at a handler that reports unexpected traps, set
             mscratch and all 31 registers to random values (biased toward
             0, 1, -1, INT_MIN, INT_MAX, small numbers and addresses inside
             the scratch buffer)
  body       N random *items*; an item is one instruction or a short,
             self-contained pattern (a load with its base set up just before
             it, a forward branch over a gap, a bounded loop, a call, a CSR
             round trip, an expected trap, a self-modifying store + fence.i)
  epilogue   print x0..x31, a checksum of the 4 KiB scratch buffer and a
             summary of the expected traps over the UART, then exit through
             the SiFive test finisher with status 0

Every item only reads and writes memory inside the scratch buffer (plus the
program's own save areas and, for self-modifying items, its own code), every
backward branch closes a loop with a fixed trip count, and nothing depends on
behaviour the ISA leaves to the implementation (see docs/random-testing.md).

The body is *prefix-stable*: the program for (seed, items=K) is the program
for (seed, items=N > K) cut after item K (same register values, same scratch
contents, same first K items). run_random.py relies on this to shrink a
failing program to the first item after which the two machines disagree.

Python 3 standard library only.
"""

import argparse
import random
import sys

SCRATCH_SIZE = 4096                # bytes; loads, stores and AMOs stay inside
SCRATCH_WORDS = SCRATCH_SIZE // 4
MASK32 = 0xFFFFFFFF

# The bits of misa every RV32IMAC implementation agrees on: MXL=1 (XLEN 32),
# A, C, I, M. QEMU also reports F, D, S, U (and may report more), which tally
# does not have, so misa reads are masked with this value.
MISA_MASK = (1 << 30) | (1 << 0) | (1 << 2) | (1 << 8) | (1 << 12)

# Register values and memory words the bias draws from.
EDGE_VALUES = [
    0x00000000, 0x00000001, 0x00000002, 0xFFFFFFFF, 0xFFFFFFFE,
    0x80000000, 0x80000001, 0x7FFFFFFF, 0x7FFFFFFE,
    0x000007FF, 0x00000800, 0xFFFFF800, 0xFFFFF7FF,
    0x0000007F, 0x00000080, 0x000000FF, 0x00007FFF, 0x00008000, 0x0000FFFF,
    0x00010000, 0x0000001F, 0x00000020, 0x00000021,
    0x55555555, 0xAAAAAAAA, 0x0F0F0F0F, 0xF0F0F0F0,
]

# Categories of items and their weights at the top level of the body.
# `--exclude` removes categories (e.g. while a simulator does not have them yet).
WEIGHTS = {
    "set":      3,   # li / la of a fresh biased value (keeps registers varied)
    "alu":     14,   # RV32I register-register
    "imm":     14,   # RV32I register-immediate, lui, auipc
    "muldiv":   8,   # M extension
    "load":     6,   # lb lh lw lbu lhu
    "store":    6,   # sb sh sw
    "rvc":      9,   # C extension, computational
    "rvc-mem":  4,   # c.lw c.sw c.lwsp c.swsp
    "amo":      3,   # AMO*.W
    "lrsc":     1.5, # LR.W / SC.W pairs
    "branch":   6,   # forward conditional branch over a gap
    "jump":     3,   # forward jal / jalr / c.j / c.jal / c.jr / c.jalr
    "loop":     2,   # bounded loop (the only backward branches)
    "call":     1.5, # call to a generated function and return
    "csr":      3,   # mscratch, mtvec, mepc, misa, mhartid
    "trap":     0.7, # ecall, ebreak, c.ebreak, illegal instruction
    "smc":      0.3, # store into code + fence.i, then execute it
    "fence":    0.5, # fence, fence.i, nop, c.nop
}
CATEGORIES = list(WEIGHTS)

# Categories allowed inside a nested context (loop body, branch gap, function).
# "call" and "smc" only appear at the top level, where no register is reserved.
NESTED = ["set", "alu", "imm", "muldiv", "load", "store", "rvc", "rvc-mem", "amo",
          "lrsc", "branch", "jump", "loop", "csr", "trap", "fence"]

MULDIV_CORNERS = [
    (0x80000000, 0xFFFFFFFF), (0x80000000, 0x00000001), (0x80000000, 0x80000000),
    (0xFFFFFFFF, 0xFFFFFFFF), (0x7FFFFFFF, 0xFFFFFFFF), (0x7FFFFFFF, 0x7FFFFFFF),
    (0x80000000, 0x7FFFFFFF), (0xFFFFFFFF, 0x00000002), (0x00000001, 0xFFFFFFFF),
    (0x80000001, 0xFFFFFFFF), (0x00000007, 0xFFFFFFFD), (0xFFFFFFF9, 0x00000003),
    (0xFFFFFFF9, 0xFFFFFFFD), (0x00000000, 0x00000000), (0x12345678, 0x00000000),
]

R_OPS = ["add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and"]
I_OPS = ["addi", "slti", "sltiu", "xori", "ori", "andi"]
SHIFT_I_OPS = ["slli", "srli", "srai"]
M_OPS = ["mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"]
LOADS = [("lb", 1), ("lbu", 1), ("lh", 2), ("lhu", 2), ("lw", 4)]
STORES = [("sb", 1), ("sh", 2), ("sw", 4)]
BRANCHES = ["beq", "bne", "blt", "bge", "bltu", "bgeu"]
AMOS = ["amoswap.w", "amoadd.w", "amoxor.w", "amoand.w", "amoor.w",
        "amomin.w", "amomax.w", "amominu.w", "amomaxu.w"]
AQRL = ["", "", ".aq", ".rl", ".aqrl"]

# Encodings used by self-modifying items (funct3 for OP-IMM, funct7/funct3 for OP).
I_FUNCT3 = {"addi": 0, "slti": 2, "sltiu": 3, "xori": 4, "ori": 6, "andi": 7}
R_FUNCT = {"add": (0x00, 0), "sub": (0x20, 0), "sll": (0x00, 1),
           "slt": (0x00, 2), "sltu": (0x00, 3), "xor": (0x00, 4),
           "srl": (0x00, 5), "sra": (0x20, 5), "or": (0x00, 6),
           "and": (0x00, 7), "mul": (0x01, 0), "mulh": (0x01, 1),
           "mulhsu": (0x01, 2), "mulhu": (0x01, 3), "div": (0x01, 4),
           "divu": (0x01, 5), "rem": (0x01, 6), "remu": (0x01, 7)}

# Instructions that must raise an illegal-instruction exception everywhere.
ILLEGAL = [
    (".half 0x0000", "c.unimp: the all-zero halfword is defined illegal"),
    (".word 0xc0001073", "unimp = csrrw x0, cycle, x0: writes a read-only CSR"),
    (".word 0xf1401073", "csrrw x0, mhartid, x0: writes a read-only CSR"),
]


def s32(v):
    """Signed decimal text of a 32-bit value (what `li` wants)."""
    v &= MASK32
    return str(v - (1 << 32) if v & 0x80000000 else v)


def sym(name, off):
    return f"{name}+{off}" if off >= 0 else f"{name}{off}"


def est_size(lines):
    """Upper bound of the bytes a list of assembly lines assembles to."""
    n = 0
    for ln in lines:
        t = ln.strip()
        if not t or t.endswith(":") or t.startswith("/*") or t.startswith(".option") \
                or t.startswith(".balign"):
            n += 2 if t.startswith(".balign") else 0
        elif t.startswith(("li ", "la ", "call ")):
            n += 8
        elif t.startswith(("c.", ".half")):
            n += 2
        else:
            n += 4
    return n


class Ctx:
    """Where an item is generated: registers it must not write, nesting depth."""

    def __init__(self, prot=(), depth=0, in_func=False):
        self.prot = frozenset(prot)
        self.depth = depth
        self.in_func = in_func

    def nested(self, extra=()):
        return Ctx(self.prot | frozenset(extra), self.depth + 1, self.in_func)


class Generator:
    def __init__(self, seed, items=None, exclude=(), dump_scratch=False):
        self.seed = seed
        # Independent streams, so that changing the number of items leaves
        # the register values, the scratch contents and every earlier item alone.
        self.r_init = random.Random(f"tally-random:{seed}:init")
        self.r = random.Random(f"tally-random:{seed}:body")
        if items is None:
            items = random.Random(f"tally-random:{seed}:size").randint(200, 2000)
        self.items = items
        self.dump_scratch = dump_scratch
        # Leaving out rvc, muldiv or amo removes those instructions from
        # every item (branches, loops, calls, traps, ...), not just the item
        # of that name: what remains runs on a core without C, M or A.
        exclude = set(exclude)
        self.has_c = "rvc" not in exclude
        self.has_m = "muldiv" not in exclude
        self.has_amo = "amo" not in exclude
        if not self.has_c:
            exclude.add("rvc-mem")
        self.weights = {k: w for k, w in WEIGHTS.items() if k not in exclude}
        if not self.weights:
            raise ValueError("every category is excluded")
        self.nlabel = 0
        self.functions = []   # (name, link register, lines)

    # ---------------------------------------------------------------- helpers
    def label(self):
        self.nlabel += 1
        return f".L{self.nlabel}"

    def chance(self, p):
        return self.r.random() < p

    def pick_rd(self, ctx, zero_ok=True, pool=None):
        """A destination register outside ctx.prot (x0 now and then)."""
        pool = pool if pool is not None else range(1, 32)
        cand = [x for x in pool if x not in ctx.prot]
        if zero_ok and (not cand or self.chance(0.04)):
            return 0
        return self.r.choice(cand) if cand else None

    def pick_rs(self, pool=None):
        if pool is not None:
            return self.r.choice(list(pool))
        return 0 if self.chance(0.06) else self.r.randint(1, 31)

    def value(self, rng=None):
        """A biased random 32-bit value, or ('addr', offset) into the scratch."""
        r = rng or self.r
        p = r.random()
        if p < 0.28:
            return r.choice(EDGE_VALUES)
        if p < 0.43:
            return r.randint(-16, 16) & MASK32
        if p < 0.58:
            off = r.randrange(0, SCRATCH_SIZE)
            return ("addr", off & ~3 if r.random() < 0.6 else off)
        if p < 0.68:
            k = r.randint(0, 31)
            return r.choice([1 << k, (1 << k) - 1, -(1 << k) & MASK32])
        return r.getrandbits(32)

    def set_reg(self, reg, v):
        if isinstance(v, tuple):
            return f"    la x{reg}, {sym('scratch', v[1])}"
        return f"    li x{reg}, {s32(v)}"

    def imm12(self):
        p = self.r.random()
        if p < 0.25:
            return self.r.choice([0, 1, -1, 2047, -2048, 0x7F, 0x80, -0x80, 31, 32])
        if p < 0.55:
            return self.r.randint(-16, 16)
        return self.r.randint(-2048, 2047)

    def shamt(self):
        return self.r.choice([0, 1, 31, 16, self.r.randint(0, 31), self.r.randint(0, 31)])

    @staticmethod
    def c(text):
        """One compressed instruction, written as an explicit c.* mnemonic."""
        return [".option rvc", f"    {text}", ".option norvc"]

    def align4(self):
        """Pad the code to a 4-byte boundary (nothing to do without C)."""
        # Under .option norvc gas 2.40 mis-places code alignment padding after
        # a 16-bit instruction; with rvc on it pads with c.nop correctly.
        return [".option rvc", "    .balign 4", ".option norvc"] if self.has_c else []

    # ------------------------------------------------------------ item picker
    def item(self, ctx):
        cats = [k for k in self.weights
                if (ctx.depth == 0 and not ctx.in_func) or k in NESTED]
        if ctx.depth >= 2:
            cats = [k for k in cats if k not in ("loop", "branch", "jump")]
        if ctx.prot or ctx.in_func:
            cats = [k for k in cats if k != "call"]
        if not cats:
            cats = [k for k in self.weights if k in ("alu", "imm", "muldiv")] or ["fence"]
        cat = self.r.choices(cats, weights=[self.weights.get(k, 1) for k in cats])[0]
        return getattr(self, "item_" + cat.replace("-", "_"))(ctx)

    def items_block(self, n, ctx):
        out = []
        for _ in range(n):
            out += self.item(ctx)
        return out

    # ---------------------------------------------------------------- RV32I
    def item_set(self, ctx):
        rd = self.pick_rd(ctx, zero_ok=False)
        return [self.set_reg(rd, self.value())]

    def item_alu(self, ctx):
        op = self.r.choice(R_OPS)
        rd = self.pick_rd(ctx)
        rs1, rs2 = self.pick_rs(), self.pick_rs()
        if self.chance(0.1):
            rs2 = rs1
        return [f"    {op} x{rd}, x{rs1}, x{rs2}"]

    def item_imm(self, ctx):
        rd = self.pick_rd(ctx)
        rs1 = self.pick_rs()
        p = self.r.random()
        if p < 0.6:
            return [f"    {self.r.choice(I_OPS)} x{rd}, x{rs1}, {self.imm12()}"]
        if p < 0.85:
            if rd == 0 and rs1 == 0:
                rs1 = 1   # keep clear of the semihosting marker slli/srai x0, x0
            return [f"    {self.r.choice(SHIFT_I_OPS)} x{rd}, x{rs1}, {self.shamt()}"]
        op = self.r.choice(["lui", "auipc"])
        imm = self.r.choice([0, 1, 0x80000, 0xFFFFF, 0x7FFFF, self.r.getrandbits(20)])
        return [f"    {op} x{rd}, {imm:#x}"]

    # ------------------------------------------------------------------- M
    def item_muldiv(self, ctx):
        op = self.r.choice(M_OPS)
        rd = self.pick_rd(ctx)
        rs1, rs2 = self.pick_rs(), self.pick_rs()
        if self.chance(0.15):
            # an operand pair at a corner: the overflowing INT_MIN / -1,
            # products whose high word is all ones or just one bit, ...
            rs1 = self.pick_rd(ctx, zero_ok=False)
            rs2 = self.pick_rd(ctx.nested([rs1]), zero_ok=False)
            a, b = self.r.choice(MULDIV_CORNERS)
            if self.chance(0.5):
                a, b = b, a
            return [f"    li x{rs1}, {s32(a)}", f"    li x{rs2}, {s32(b)}",
                    f"    {op} x{rd}, x{rs1}, x{rs2}"]
        if self.chance(0.08):
            rs2 = 0            # division by zero
        elif self.chance(0.08):
            rs2 = rs1
        return [f"    {op} x{rd}, x{rs1}, x{rs2}"]

    # ------------------------------------------------------- loads / stores
    def mem_base(self, ctx, size, imm_range=(-2048, 2047), pool=None):
        """Returns (lines, base register, imm) such that base+imm is a
        size-aligned address inside the scratch buffer."""
        rb = self.pick_rd(ctx, zero_ok=False, pool=pool)
        if rb is None:
            return None
        off = self.r.randrange(0, SCRATCH_SIZE, size)
        p = self.r.random()
        lo, hi = imm_range
        if p < 0.3:
            imm = 0 if lo <= 0 <= hi else lo
        elif p < 0.6:
            imm = self.r.randint(max(lo, -64), min(hi, 64))
        else:
            imm = self.r.randint(lo, hi)
        if imm_range != (-2048, 2047):   # compressed forms: scaled unsigned offsets
            imm -= imm % size
        return [f"    la x{rb}, {sym('scratch', off - imm)}"], rb, imm

    def item_load(self, ctx):
        op, size = self.r.choice(LOADS)
        got = self.mem_base(ctx, size)
        if got is None:
            return self.item_alu(ctx)
        lines, rb, imm = got
        rd = self.pick_rd(ctx)
        return lines + [f"    {op} x{rd}, {imm}(x{rb})"]

    def item_store(self, ctx):
        op, size = self.r.choice(STORES)
        got = self.mem_base(ctx, size)
        if got is None:
            return self.item_alu(ctx)
        lines, rb, imm = got
        rs2 = self.pick_rs()
        return lines + [f"    {op} x{rs2}, {imm}(x{rb})"]

    # ------------------------------------------------------------------- C
    def item_rvc(self, ctx):
        CREG = range(8, 16)
        kind = self.r.choice(["addi", "li", "lui", "addi16sp", "addi4spn", "slli",
                              "srli", "srai", "andi", "mv", "add", "sub", "xor",
                              "or", "and", "nop"])
        rd = self.pick_rd(ctx, zero_ok=False)
        rdc = self.pick_rd(ctx, zero_ok=False, pool=CREG)
        nz6 = self.r.choice([v for v in range(-32, 32) if v != 0])
        if kind == "addi" and rd is not None:
            return self.c(f"c.addi x{rd}, {nz6}")
        if kind == "li" and rd is not None:
            return self.c(f"c.li x{rd}, {self.r.randint(-32, 31)}")
        if kind == "lui" and rd is not None and rd != 2:
            imm = self.r.choice(list(range(1, 32)) + list(range(0xFFFE0, 0x100000)))
            return self.c(f"c.lui x{rd}, {imm:#x}")
        if kind == "addi16sp" and 2 not in ctx.prot:
            imm = self.r.choice([v for v in range(-512, 512, 16) if v != 0])
            return self.c(f"c.addi16sp sp, {imm}")
        if kind == "addi4spn" and rdc is not None:
            return self.c(f"c.addi4spn x{rdc}, sp, {self.r.randrange(4, 1024, 4)}")
        if kind == "slli" and rd is not None:
            return self.c(f"c.slli x{rd}, {self.r.randint(1, 31)}")
        if kind in ("srli", "srai") and rdc is not None:
            return self.c(f"c.{kind} x{rdc}, {self.r.randint(1, 31)}")
        if kind == "andi" and rdc is not None:
            return self.c(f"c.andi x{rdc}, {self.r.randint(-32, 31)}")
        if kind in ("mv", "add") and rd is not None:
            return self.c(f"c.{kind} x{rd}, x{self.r.randint(1, 31)}")
        if kind in ("sub", "xor", "or", "and") and rdc is not None:
            return self.c(f"c.{kind} x{rdc}, x{self.pick_rs(CREG)}")
        return self.c("c.nop")

    def item_rvc_mem(self, ctx):
        CREG = range(8, 16)
        kind = self.r.choice(["lw", "sw", "lwsp", "swsp"])
        if kind in ("lw", "sw"):
            got = self.mem_base(ctx, 4, (0, 124), pool=CREG)
            if got is None:
                return self.item_rvc(ctx)
            lines, rb, imm = got
            if kind == "lw":
                rd = self.pick_rd(ctx, zero_ok=False, pool=CREG)
                if rd is None:
                    return self.item_rvc(ctx)
                return lines + self.c(f"c.lw x{rd}, {imm}(x{rb})")
            return lines + self.c(f"c.sw x{self.pick_rs(CREG)}, {imm}(x{rb})")
        if 2 in ctx.prot:
            return self.item_rvc(ctx)
        got = self.mem_base(ctx, 4, (0, 252), pool=[2])
        lines, _, imm = got
        if kind == "lwsp":
            rd = self.pick_rd(ctx, zero_ok=False)
            if rd is None:
                return self.item_rvc(ctx)
            return lines + self.c(f"c.lwsp x{rd}, {imm}(sp)")
        return lines + self.c(f"c.swsp x{self.pick_rs()}, {imm}(sp)")

    # ------------------------------------------------------------------- A
    def amo_addr(self, ctx):
        rb = self.pick_rd(ctx, zero_ok=False)
        off = self.r.randrange(0, SCRATCH_SIZE, 4)
        return [f"    la x{rb}, {sym('scratch', off)}"], rb

    def item_amo(self, ctx):
        lines, rb = self.amo_addr(ctx)
        op = self.r.choice(AMOS) + self.r.choice(AQRL)
        rd = self.pick_rd(ctx)
        rs2 = self.pick_rs()
        return lines + [f"    {op} x{rd}, x{rs2}, (x{rb})"]

    def item_lrsc(self, ctx):
        """lr.w then sc.w to the same address with only register-register
        instructions between (no memory access, no write to the address
        register): the store-conditional must succeed. Sometimes a second
        sc.w follows: the first one used up the reservation, so it must fail
        and write 1."""
        lines, rb = self.amo_addr(ctx)
        inner = ctx.nested([rb])
        rd = self.pick_rd(inner)
        lines.append(f"    lr.w{self.r.choice(AQRL)} x{rd}, (x{rb})")
        between = [self.item_alu, self.item_imm] + ([self.item_muldiv] if self.has_m else [])
        for _ in range(self.r.randint(0, 3)):
            lines += self.r.choice(between)(inner)
        rd2 = self.pick_rd(ctx)
        lines.append(f"    sc.w{self.r.choice(AQRL)} x{rd2}, x{self.pick_rs()}, (x{rb})")
        if self.chance(0.25) and rd2 != rb:
            lines.append(f"    sc.w x{self.pick_rd(ctx)}, x{self.pick_rs()}, (x{rb})")
        return lines

    # ----------------------------------------------------- control transfer
    def item_branch(self, ctx):
        target = self.label()
        gap = self.items_block(self.r.randint(0, 4), ctx.nested())
        small_gap = est_size(gap) < 200
        cond = self.pick_rs(range(8, 16))
        if self.has_c and small_gap and self.chance(0.2):
            head = self.c(f"c.{self.r.choice(['beqz', 'bnez'])} x{cond}, {target}")
        else:
            rs1, rs2 = self.pick_rs(), self.pick_rs()
            if self.chance(0.15):
                rs2 = rs1
            head = [f"    {self.r.choice(BRANCHES)} x{rs1}, x{rs2}, {target}"]
        return head + gap + [f"{target}:"]

    def junk(self):
        """Code that is jumped over and never executed."""
        p = self.r.random()
        if p < 0.25:
            # without C, code stays 4-byte aligned: no lone halfwords
            return [f"    {ILLEGAL[0][0]}" if self.has_c else "    .word 0"]
        if p < 0.4:
            return ["    .word 0xffffffff"]
        if p < 0.55:
            return [f"    .word {self.r.getrandbits(32):#010x}"]
        return self.items_block(self.r.randint(1, 3), Ctx(depth=2))

    def item_jump(self, ctx):
        target = self.label()
        kind = self.r.choice(["jal", "jalr"] + (["c.j", "c.jal", "c.jr", "c.jalr"]
                                                 if self.has_c else []))
        if kind in ("c.jal", "c.jalr") and 1 in ctx.prot:
            kind = "jal"
        rd = self.pick_rd(ctx)
        rt = self.pick_rd(ctx, zero_ok=False)
        if kind == "jal":
            head = [f"    jal x{rd}, {target}"]
        elif kind == "jalr":
            # jalr clears bit 0 of rs1+imm: sometimes aim one byte past the target.
            imm = self.r.choice([0, 0, self.imm12()])
            odd = 1 if self.chance(0.3) else 0
            head = [f"    la x{rt}, {target}{-imm + odd:+d}", f"    jalr x{rd}, {imm}(x{rt})"]
        elif kind in ("c.j", "c.jal"):
            head = self.c(f"{kind} {target}")
        else:
            head = [f"    la x{rt}, {target}"] + self.c(f"{kind} x{rt}")
        return head + self.junk() + [f"{target}:"]

    def item_loop(self, ctx):
        top = self.label()
        kind = self.r.choice(["down", "up", "walk"])
        trips = self.r.randint(1, 6)
        rc = self.pick_rd(ctx, zero_ok=False)
        if rc is None:
            return self.item_alu(ctx)
        if kind == "down":
            inner = ctx.nested([rc])
            body = self.items_block(self.r.randint(1, 6), inner)
            pre = [f"    li x{rc}, {trips}"]
            step = (self.c(f"c.addi x{rc}, -1") if self.has_c and self.chance(0.3)
                    else [f"    addi x{rc}, x{rc}, -1"])
            size = est_size(body + step)
            if self.has_c and 8 <= rc <= 15 and size < 200 and self.chance(0.3):
                close = self.c(f"c.bnez x{rc}, {top}")
            else:
                close = [self.r.choice([f"    bnez x{rc}, {top}",
                                        f"    bne x{rc}, x0, {top}",
                                        f"    blt x0, x{rc}, {top}",
                                        f"    bltu x0, x{rc}, {top}"])]
            return pre + [f"{top}:"] + body + step + close
        rl = self.pick_rd(ctx.nested([rc]), zero_ok=False)
        if kind == "up":
            if rl is None:
                return self.item_alu(ctx)
            start = self.r.choice([0, 0, -3, 5, 0x7FFFFFF0 - trips, -2])
            inner = ctx.nested([rc, rl])
            body = self.items_block(self.r.randint(1, 6), inner)
            pre = [f"    li x{rc}, {start}", f"    li x{rl}, {start + trips}"]
            # signed compare: start + trips never wraps; unsigned compares
            # only when the range does not cross 0.
            ops = ["blt", "bne"] + (["bltu"] if start >= 0 else [])
            op = self.r.choice(ops)
            return pre + [f"{top}:"] + body + [f"    addi x{rc}, x{rc}, 1",
                                               f"    {op} x{rc}, x{rl}, {top}"]
        # walk: a pointer moves through the scratch buffer with a fixed stride
        rp = rl
        if rp is None:
            return self.item_alu(ctx)
        stride = self.r.choice([4, 8, 12, 16, -4, -8])
        span = stride * (trips - 1)
        lo_b, hi_b = 64 - min(0, span), SCRATCH_SIZE - 68 - max(0, span)
        base = self.r.randrange(lo_b, hi_b, 4)
        inner = ctx.nested([rc, rp])
        body = []
        for _ in range(self.r.randint(1, 6)):
            if self.chance(0.5):
                body += self.walk_access(inner, rp)
            else:
                body += self.item(inner)
        return ([f"    li x{rc}, {trips}", f"    la x{rp}, {sym('scratch', base)}", f"{top}:"]
                + body
                + [f"    addi x{rp}, x{rp}, {stride}", f"    addi x{rc}, x{rc}, -1",
                   f"    bnez x{rc}, {top}"])

    def walk_access(self, ctx, rp):
        """A load, store or AMO at a small aligned offset from the walking pointer."""
        kinds = [k for k in ("load", "store", "amo") if k in self.weights]
        if not kinds:
            return self.item(ctx)
        kind = self.r.choices(kinds, weights=[{"load": 5, "store": 4, "amo": 1}[k] for k in kinds])[0]
        if kind == "load":
            op, size = self.r.choice(LOADS)
            off = self.r.randrange(-64, 64, size)
            return [f"    {op} x{self.pick_rd(ctx)}, {off}(x{rp})"]
        if kind == "store":
            op, size = self.r.choice(STORES)
            off = self.r.randrange(-64, 64, size)
            return [f"    {op} x{self.pick_rs()}, {off}(x{rp})"]
        return [f"    {self.r.choice(AMOS)} x{self.pick_rd(ctx)}, x{self.pick_rs()}, (x{rp})"]

    def item_call(self, ctx):
        if self.functions and self.chance(0.5):
            name, link, _ = self.r.choice(self.functions)
        else:
            name = f"fn{len(self.functions)}"
            link = 1 if self.chance(0.6) else self.r.randint(1, 31)
            fctx = Ctx(prot=[link], depth=1, in_func=True)
            body = [f"{name}:"] + self.items_block(self.r.randint(1, 6), fctx)
            ret = self.r.choice(["jalr", "c.jr" if self.has_c else "jalr",
                                 "ret" if link == 1 else "jalr"])
            if ret == "jalr":
                body.append(f"    jalr x0, 0(x{link})")
            elif ret == "c.jr":
                body += self.c(f"c.jr x{link}")
            else:
                body.append("    ret")
            self.functions.append((name, link, body))
        rt = self.r.randint(1, 31)
        kinds = ["jal", "jalr"] + (["call"] if link == 1 else []) \
            + (["c.jal", "c.jalr"] if link == 1 and self.has_c else [])
        kind = self.r.choice(kinds)
        if kind == "jal":
            return [f"    jal x{link}, {name}"]
        if kind == "jalr":
            return [f"    la x{rt}, {name}", f"    jalr x{link}, 0(x{rt})"]
        if kind == "c.jal":
            return self.c(f"c.jal {name}")
        if kind == "c.jalr":
            return [f"    la x{rt}, {name}"] + self.c(f"c.jalr x{rt}")
        return [f"    call {name}"]

    # ----------------------------------------------------------------- Zicsr
    def item_csr(self, ctx):
        kind = self.r.choice(["mscratch", "mscratch", "mscratch", "mtvec", "mepc",
                              "misa", "mhartid"])
        rd = self.pick_rd(ctx)
        if kind == "mscratch":
            p = self.r.random()
            if p < 0.5:
                op = self.r.choice(["csrrw", "csrrs", "csrrc"])
                return [f"    {op} x{rd}, mscratch, x{self.pick_rs()}"]
            if p < 0.8:
                op = self.r.choice(["csrrwi", "csrrsi", "csrrci"])
                return [f"    {op} x{rd}, mscratch, {self.r.randint(0, 31)}"]
            return [f"    csrr x{rd}, mscratch"]
        if kind == "misa":
            rt = self.pick_rd(ctx.nested([rd]), zero_ok=False)
            form = self.r.choice(["csrr x{rd}, misa", "csrrs x{rd}, misa, x0",
                                  "csrrc x{rd}, misa, x0", "csrrsi x{rd}, misa, 0"])
            return [f"    {form.format(rd=rd)}",
                    f"    li x{rt}, {s32(MISA_MASK)}", f"    and x{rd}, x{rd}, x{rt}"]
        if kind == "mhartid":
            form = self.r.choice(["csrr x{rd}, mhartid", "csrrs x{rd}, mhartid, x0",
                                  "csrrci x{rd}, mhartid, 0"])
            return [f"    {form.format(rd=rd)}"]
        # mtvec (4-byte aligned, MODE=0) and mepc (2-byte aligned): write a
        # random value, read it back, then put a handler address back in mtvec.
        align = 4 if kind == "mtvec" else 2
        rt = self.pick_rd(ctx, zero_ok=False)
        rd2 = self.pick_rd(ctx)
        v = self.value()
        v = self.r.getrandbits(32) if isinstance(v, tuple) else v
        v &= ~(align - 1) & MASK32
        op = self.r.choice(["csrrw", "csrrw", "csrrs", "csrrc"])
        lines = [f"    li x{rt}, {s32(v)}", f"    {op} x{rd}, {kind}, x{rt}",
                 f"    csrr x{rd2}, {kind}"]
        if kind == "mtvec":
            lines += [f"    la x{rt}, rt_fatal_trap", f"    csrw mtvec, x{rt}"]
        return lines

    # ---------------------------------------------------------------- traps
    def item_trap(self, ctx):
        """An instruction that traps on purpose. The handler (rt_expect_trap)
        counts it, hashes mcause and mepc, steps mepc past it and returns.
        It needs mscratch = &trap_frame and mtvec = rt_expect_trap first."""
        rt = self.pick_rd(ctx, zero_ok=False)
        lines = [f"    la x{rt}, trap_frame", f"    csrw mscratch, x{rt}",
                 f"    la x{rt}, rt_expect_trap", f"    csrw mtvec, x{rt}"]
        kind = self.r.choice(["ecall", "ebreak", "illegal"] + (["c.ebreak"] if self.has_c else []))
        if kind == "ecall":
            return lines + ["    ecall"]
        if kind == "ebreak":
            return lines + ["    ebreak"]
        if kind == "c.ebreak":
            return lines + self.c("c.ebreak")
        text, why = self.r.choice(ILLEGAL if self.has_c else ILLEGAL[1:])
        return lines + [f"    {text}    /* {why} */"]

    # ------------------------------------------------------- self-modifying
    def random_alu_encoding(self, rd):
        """(assembly text, 32-bit encoding) of a random OP or OP-IMM instruction."""
        rs1 = self.pick_rs()
        if self.chance(0.5):
            op = self.r.choice(list(I_FUNCT3))
            imm = self.imm12()
            enc = ((imm & 0xFFF) << 20) | (rs1 << 15) | (I_FUNCT3[op] << 12) | (rd << 7) | 0x13
            return f"{op} x{rd}, x{rs1}, {imm}", enc
        op = self.r.choice([k for k in R_FUNCT if self.has_m or R_FUNCT[k][0] != 0x01])
        rs2 = self.pick_rs()
        f7, f3 = R_FUNCT[op]
        enc = (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | 0x33
        return f"{op} x{rd}, x{rs1}, x{rs2}", enc

    def item_smc(self, ctx):
        """Overwrite a 32-bit instruction in the code with a store, fence.i,
        then execute it. Either a two-trip loop (the slot runs once before and
        once after the store) or a store to a slot a few instructions ahead
        (in the code that is running)."""
        regs = self.r.sample(range(1, 32), 3)
        rc, ra, rb = regs
        slot = self.label()
        # The slot's destination must survive the patch code that follows
        # it in the loop: never the counter or the two patch registers.
        # Mostly the old and the new instruction write the same register,
        # so a stale copy of the old one shows up there directly.
        old_rd = self.pick_rd(Ctx(prot=regs))
        new_rd = old_rd if self.chance(0.7) else self.pick_rd(Ctx(prot=regs))
        old_text, _ = self.random_alu_encoding(old_rd)
        new_text, new_enc = self.random_alu_encoding(new_rd)
        aligned = self.chance(0.6)
        if aligned:
            store = [f"    sw x{rb}, 0(x{ra})"]
        else:
            store = [f"    sh x{rb}, 0(x{ra})", f"    srli x{rb}, x{rb}, 16",
                     f"    sh x{rb}, 2(x{ra})"]
        patch = [f"    la x{ra}, {slot}",
                 f"    li x{rb}, {s32(new_enc)}    /* {new_text} */"] + store + ["    fence.i"]
        # Keep the slot's result in the scratch, where the checksum sees it
        # even if a later item overwrites the register.
        keep = [f"    la x{ra}, {sym('scratch', self.r.randrange(0, SCRATCH_SIZE, 4))}",
                f"    sw x{new_rd}, 0(x{ra})"]
        if self.chance(0.5):
            # Enter the loop by a jump, so that a simulator that caches
            # decoded code by start address has a block starting at the top
            # before the patch: the second trip must not reuse it.
            top = self.label()
            return ([f"    li x{rc}, 2", f"    j {top}"] + (self.align4() if aligned else [])
                    + [f"{top}:", f"{slot}:", f"    {old_text}"] + patch
                    + [f"    addi x{rc}, x{rc}, -1", f"    bnez x{rc}, {top}"] + keep)
        return (patch + (self.align4() if aligned else [])
                + [f"{slot}:", f"    {old_text}"] + keep)

    def item_fence(self, ctx):
        return [self.r.choice(["    fence", "    fence rw, rw", "    fence r, w",
                               "    fence iorw, iorw", "    fence.i", "    nop"])] \
            if self.chance(0.8) or not self.has_c else self.c("c.nop")

    # -------------------------------------------------------------- program
    def program(self):
        out = []
        w = out.append
        w(f"/* tally random test program: seed {self.seed}, {self.items} items.")
        w(f"   Generated by tests/random/gen.py; regenerate with")
        w(f"   tests/random/gen.py --seed {self.seed} --items {self.items}"
          + (" --dump-scratch" if self.dump_scratch else "")
          + (f" --exclude {','.join(sorted(set(WEIGHTS) - set(self.weights)))}"
             if set(WEIGHTS) - set(self.weights) else "") + " */")
        w("    .option norvc")
        w("    .option norelax")
        w("    .section .text.init, \"ax\", @progbits")
        w("    .globl _start")
        w("_start:")
        w("    la x1, rt_fatal_trap")
        w("    csrw mtvec, x1")
        w("    la sp, rt_stack_top")
        w("    la a0, str_header")
        w("    call rt_puts")
        w("/* mscratch and the 31 registers */")
        ms = self.value(self.r_init)
        w(self.set_reg(1, ms))
        w("    csrw mscratch, x1")
        # mepc has no defined reset value: give it one before any item reads it
        w(f"    li x1, {s32(self.r_init.getrandbits(32) & ~1)}")
        w("    csrw mepc, x1")
        for reg in range(1, 32):
            w(self.set_reg(reg, self.value(self.r_init)))
        w("body:")
        for i in range(self.items):
            w(f"/* item {i} */")
            out += self.item(Ctx())
        w("/* end of body */")
        w("body_end:")
        w("    csrw mscratch, x1")
        w("    la x1, regsave")
        for reg in range(2, 32):
            w(f"    sw x{reg}, {4 * reg}(x1)")
        w("    csrr x2, mscratch")
        w("    sw x2, 4(x1)")
        w("    sw x0, 0(x1)")
        w("    j rt_report")
        w("")
        w("    .section .text.fn, \"ax\", @progbits")
        for name, link, body in self.functions:
            w(f"/* function {name}, returns through x{link} */")
            out += body
        w("")
        out += RUNTIME.splitlines()
        w("")
        w("    .data")
        w("    .balign 4096")
        w("scratch:")
        for i in range(0, SCRATCH_WORDS, 8):
            words = []
            for _ in range(8):
                v = self.value(self.r_init)
                if isinstance(v, tuple):
                    v = self.r_init.getrandbits(32)
                words.append(f"{v & MASK32:#010x}")
            w("    .word " + ", ".join(words))
        w("scratch_end:")
        w("regsave: .space 128")
        w("trap_frame: .space 20   /* t0 t1 t2 saves, trap count, trap hash */")
        # a word, not a conditional assembly: the layout must not depend on it
        w(f"dump_flag: .word {1 if self.dump_scratch else 0}")
        w(f"str_header: .asciz \"seed {self.seed} items {self.items}\\n\"")
        return "\n".join(out) + "\n"


# Fixed code after the body: printing, the checksum, the trap handlers, exit.
# It runs on the machine under test like the body does, so it is kept to
# plain RV32I (no M, no C) to stay readable when something is broken.
RUNTIME = r"""
    .section .text.rt, "ax", @progbits
    .equ UART, 0x10000000
    .equ FINISHER, 0x100000

/* Print the saved registers, the scratch checksum, the trap summary. */
rt_report:
    la sp, rt_stack_top
    la s0, regsave
    li s1, 0
1:  li a0, 'x'
    call rt_putc
    li s2, 0                 /* tens digit of s1 */
    mv s3, s1
2:  li t0, 10
    blt s3, t0, 3f
    addi s3, s3, -10
    addi s2, s2, 1
    j 2b
3:  addi a0, s2, '0'
    call rt_putc
    addi a0, s3, '0'
    call rt_putc
    li a0, ' '
    call rt_putc
    lw a0, 0(s0)
    li a1, 8
    call rt_puthex_nl
    addi s0, s0, 4
    addi s1, s1, 1
    li t0, 32
    blt s1, t0, 1b
    /* checksum: h = rotl(h, 5) ^ word; h += h << 3, over the scratch words */
    la s0, scratch
    la s1, scratch_end
    li s2, 0x811c9dc5
4:  lw t0, 0(s0)
    slli t1, s2, 5
    srli t2, s2, 27
    or s2, t1, t2
    xor s2, s2, t0
    slli t1, s2, 3
    add s2, s2, t1
    addi s0, s0, 4
    bltu s0, s1, 4b
    la a0, str_mem
    call rt_puts
    mv a0, s2
    li a1, 8
    call rt_puthex_nl
    la a0, str_trp
    call rt_puts
    la s0, trap_frame
    lw a0, 12(s0)
    li a1, 8
    call rt_puthex
    li a0, ' '
    call rt_putc
    lw a0, 16(s0)
    li a1, 8
    call rt_puthex_nl
    la t0, dump_flag         /* gen.py --dump-scratch: print every word too */
    lw t0, 0(t0)
    beqz t0, 6f
    la s0, scratch
    la s1, scratch_end
5:  li a0, 'w'
    call rt_putc
    la t0, scratch
    sub a0, s0, t0
    li a1, 3
    call rt_puthex
    li a0, ' '
    call rt_putc
    lw a0, 0(s0)
    li a1, 8
    call rt_puthex_nl
    addi s0, s0, 4
    bltu s0, s1, 5b
6:
    la a0, str_end
    call rt_puts
    li a0, 0
    j rt_exit

/* a0 = status: wait until the UART has sent everything, then the finisher */
rt_exit:
    li t0, UART
1:  lbu t1, 5(t0)
    andi t1, t1, 0x40
    beqz t1, 1b
    li t0, FINISHER
    li t1, 0x5555
    beqz a0, 2f
    slli t1, a0, 16
    li t2, 0x3333
    or t1, t1, t2
2:  sw t1, 0(t0)
3:  j 3b

rt_putc:
    li t0, UART
1:  lbu t1, 5(t0)
    andi t1, t1, 0x20
    beqz t1, 1b
    sb a0, 0(t0)
    ret

rt_puts:                     /* a0 = NUL-terminated string */
    addi sp, sp, -8
    sw ra, 0(sp)
    sw s0, 4(sp)
    mv s0, a0
1:  lbu a0, 0(s0)
    beqz a0, 2f
    call rt_putc
    addi s0, s0, 1
    j 1b
2:  lw ra, 0(sp)
    lw s0, 4(sp)
    addi sp, sp, 8
    ret

rt_puthex_nl:                /* rt_puthex, then a newline */
    addi sp, sp, -4
    sw ra, 0(sp)
    call rt_puthex
    li a0, '\n'
    call rt_putc
    lw ra, 0(sp)
    addi sp, sp, 4
    ret

rt_puthex:                   /* a0 = value, a1 = number of hex digits */
    addi sp, sp, -12
    sw ra, 0(sp)
    sw s0, 4(sp)
    sw s1, 8(sp)
    mv s0, a0
    slli s1, a1, 2
1:  addi s1, s1, -4
    srl a0, s0, s1
    andi a0, a0, 15
    li t0, 10
    blt a0, t0, 2f
    addi a0, a0, 'a' - '0' - 10
2:  addi a0, a0, '0'
    call rt_putc
    bnez s1, 1b
    lw ra, 0(sp)
    lw s0, 4(sp)
    lw s1, 8(sp)
    addi sp, sp, 12
    ret

/* Any trap nobody asked for: report it and exit with status 3. */
.option rvc
    .balign 4
.option norvc
rt_fatal_trap:
    la sp, rt_stack_top
    la a0, str_trap
    call rt_puts
    csrr a0, mcause
    li a1, 8
    call rt_puthex
    la a0, str_mepc
    call rt_puts
    csrr a0, mepc
    li a1, 8
    call rt_puthex
    la a0, str_mtval
    call rt_puts
    csrr a0, mtval
    li a1, 8
    call rt_puthex_nl
    li a0, 3
    j rt_exit

/* A trap the body raised on purpose (item_trap). mscratch = &trap_frame.
   Accepts illegal instruction (2), breakpoint (3), ecall from M (11):
   counts it, folds mcause and mepc into a hash, steps mepc over the
   instruction (2 or 4 bytes, from its low bits), puts rt_fatal_trap back
   in mtvec and returns with every register as it was. */
.option rvc
    .balign 4
.option norvc
rt_expect_trap:
    csrrw sp, mscratch, sp
    sw t0, 0(sp)
    sw t1, 4(sp)
    sw t2, 8(sp)
    csrr t0, mcause
    li t1, 2
    beq t0, t1, 1f
    li t1, 3
    beq t0, t1, 1f
    li t1, 11
    beq t0, t1, 1f
    j rt_fatal_trap
1:  lw t1, 12(sp)
    addi t1, t1, 1
    sw t1, 12(sp)
    lw t1, 16(sp)
    slli t2, t1, 7
    srli t1, t1, 25
    or t1, t1, t2
    xor t1, t1, t0
    csrr t0, mepc
    add t1, t1, t0
    sw t1, 16(sp)
    lhu t1, 0(t0)
    andi t1, t1, 3
    li t2, 3
    addi t0, t0, 2
    bne t1, t2, 2f
    addi t0, t0, 2
2:  csrw mepc, t0
    la t0, rt_fatal_trap
    csrw mtvec, t0
    lw t0, 0(sp)
    lw t1, 4(sp)
    lw t2, 8(sp)
    csrrw sp, mscratch, sp
    mret

    .section .rodata
str_mem:   .asciz "mem "
str_trp:   .asciz "trp "
str_end:   .asciz "end\n"
str_trap:  .asciz "TRAP mcause "
str_mepc:  .asciz " mepc "
str_mtval: .asciz " mtval "

    .bss
    .balign 16
rt_stack: .space 256
rt_stack_top:
"""


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--items", type=int, default=None,
                    help="number of body items (default: 200..2000, drawn from the seed)")
    ap.add_argument("--exclude", default="",
                    help="comma-separated categories to leave out: " + ",".join(CATEGORIES))
    ap.add_argument("--dump-scratch", action="store_true",
                    help="also print every scratch word (to locate a checksum mismatch)")
    ap.add_argument("-o", "--output", default="-")
    args = ap.parse_args(argv)
    exclude = [x for x in args.exclude.split(",") if x]
    bad = [x for x in exclude if x not in WEIGHTS]
    if bad:
        ap.error(f"unknown categories: {', '.join(bad)} (known: {', '.join(CATEGORIES)})")
    text = Generator(args.seed, args.items, exclude, args.dump_scratch).program()
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
