/*
 * The instruction table: every RV32IMAC + Zicsr + Zifencei instruction the
 * core knows, named once. Decode, the executor's dispatch table, the
 * disassembler and (later) the timing model's static costs all expand from
 * this list, so adding an instruction is one line here plus its semantics in
 * exec_semantics.inc.
 *
 * X(NAME, "mnemonic", MATCH, MASK, FORMAT, CLASS, FLAGS)   semantics
 *
 *   MATCH/MASK: (insn & MASK) == MATCH identifies the 32-bit encoding.
 *   FORMAT:     operand layout, used by decode and disassembly (isa_fmt).
 *   CLASS:      what the instruction does for timing and signals (isa_class).
 *   FLAGS:      ISA_END_BLOCK when it may change the PC or machine state the
 *               block builder must not look past.
 *
 * Compressed instructions are not listed: the RVC decoder (decode_rvc.c)
 * expands each to one of these, keeping its length of 2.
 */
#ifndef TALLY_CORE_ISA_TABLE_H
#define TALLY_CORE_ISA_TABLE_H

#define ISA_END_BLOCK 1u

#define RV_INSN_LIST(X) \
  /* RV32I: upper immediates and jumps */ \
  X(LUI,    "lui",    0x00000037u, 0x0000007fu, FMT_U,      CLASS_ALU,    0)             /* rd = imm */ \
  X(AUIPC,  "auipc",  0x00000017u, 0x0000007fu, FMT_U,      CLASS_ALU,    0)             /* rd = pc + imm */ \
  X(JAL,    "jal",    0x0000006fu, 0x0000007fu, FMT_J,      CLASS_JUMP,   ISA_END_BLOCK) /* rd = pc+len; pc += imm */ \
  X(JALR,   "jalr",   0x00000067u, 0x0000707fu, FMT_JALR,   CLASS_JUMP,   ISA_END_BLOCK) /* rd = pc+len; pc = (rs1+imm)&~1 */ \
  /* RV32I: conditional branches, pc += imm when taken */ \
  X(BEQ,    "beq",    0x00000063u, 0x0000707fu, FMT_B,      CLASS_BRANCH, ISA_END_BLOCK) /* rs1 == rs2 */ \
  X(BNE,    "bne",    0x00001063u, 0x0000707fu, FMT_B,      CLASS_BRANCH, ISA_END_BLOCK) /* rs1 != rs2 */ \
  X(BLT,    "blt",    0x00004063u, 0x0000707fu, FMT_B,      CLASS_BRANCH, ISA_END_BLOCK) /* signed < */ \
  X(BGE,    "bge",    0x00005063u, 0x0000707fu, FMT_B,      CLASS_BRANCH, ISA_END_BLOCK) /* signed >= */ \
  X(BLTU,   "bltu",   0x00006063u, 0x0000707fu, FMT_B,      CLASS_BRANCH, ISA_END_BLOCK) /* unsigned < */ \
  X(BGEU,   "bgeu",   0x00007063u, 0x0000707fu, FMT_B,      CLASS_BRANCH, ISA_END_BLOCK) /* unsigned >= */ \
  /* RV32I: loads rd = mem[rs1+imm], stores mem[rs1+imm] = rs2 */ \
  X(LB,     "lb",     0x00000003u, 0x0000707fu, FMT_LOAD,   CLASS_LOAD,   0)             /* sign-extended byte */ \
  X(LH,     "lh",     0x00001003u, 0x0000707fu, FMT_LOAD,   CLASS_LOAD,   0)             /* sign-extended half */ \
  X(LW,     "lw",     0x00002003u, 0x0000707fu, FMT_LOAD,   CLASS_LOAD,   0)             /* word */ \
  X(LBU,    "lbu",    0x00004003u, 0x0000707fu, FMT_LOAD,   CLASS_LOAD,   0)             /* zero-extended byte */ \
  X(LHU,    "lhu",    0x00005003u, 0x0000707fu, FMT_LOAD,   CLASS_LOAD,   0)             /* zero-extended half */ \
  X(SB,     "sb",     0x00000023u, 0x0000707fu, FMT_STORE,  CLASS_STORE,  0)             /* low byte */ \
  X(SH,     "sh",     0x00001023u, 0x0000707fu, FMT_STORE,  CLASS_STORE,  0)             /* low half */ \
  X(SW,     "sw",     0x00002023u, 0x0000707fu, FMT_STORE,  CLASS_STORE,  0)             /* word */ \
  /* RV32I: register-immediate */ \
  X(ADDI,   "addi",   0x00000013u, 0x0000707fu, FMT_I,      CLASS_ALU,    0)             /* rd = rs1 + imm */ \
  X(SLTI,   "slti",   0x00002013u, 0x0000707fu, FMT_I,      CLASS_ALU,    0)             /* rd = rs1 <s imm */ \
  X(SLTIU,  "sltiu",  0x00003013u, 0x0000707fu, FMT_I,      CLASS_ALU,    0)             /* rd = rs1 <u imm */ \
  X(XORI,   "xori",   0x00004013u, 0x0000707fu, FMT_I,      CLASS_ALU,    0)             /* rd = rs1 ^ imm */ \
  X(ORI,    "ori",    0x00006013u, 0x0000707fu, FMT_I,      CLASS_ALU,    0)             /* rd = rs1 | imm */ \
  X(ANDI,   "andi",   0x00007013u, 0x0000707fu, FMT_I,      CLASS_ALU,    0)             /* rd = rs1 & imm */ \
  X(SLLI,   "slli",   0x00001013u, 0xfe00707fu, FMT_SHIFT,  CLASS_ALU,    0)             /* rd = rs1 << sh */ \
  X(SRLI,   "srli",   0x00005013u, 0xfe00707fu, FMT_SHIFT,  CLASS_ALU,    0)             /* rd = rs1 >>u sh */ \
  X(SRAI,   "srai",   0x40005013u, 0xfe00707fu, FMT_SHIFT,  CLASS_ALU,    0)             /* rd = rs1 >>s sh */ \
  /* RV32I: register-register */ \
  X(ADD,    "add",    0x00000033u, 0xfe00707fu, FMT_R,      CLASS_ALU,    0)             /* rd = rs1 + rs2 */ \
  X(SUB,    "sub",    0x40000033u, 0xfe00707fu, FMT_R,      CLASS_ALU,    0)             /* rd = rs1 - rs2 */ \
  X(SLL,    "sll",    0x00001033u, 0xfe00707fu, FMT_R,      CLASS_ALU,    0)             /* rd = rs1 << rs2[4:0] */ \
  X(SLT,    "slt",    0x00002033u, 0xfe00707fu, FMT_R,      CLASS_ALU,    0)             /* rd = rs1 <s rs2 */ \
  X(SLTU,   "sltu",   0x00003033u, 0xfe00707fu, FMT_R,      CLASS_ALU,    0)             /* rd = rs1 <u rs2 */ \
  X(XOR,    "xor",    0x00004033u, 0xfe00707fu, FMT_R,      CLASS_ALU,    0)             /* rd = rs1 ^ rs2 */ \
  X(SRL,    "srl",    0x00005033u, 0xfe00707fu, FMT_R,      CLASS_ALU,    0)             /* rd = rs1 >>u rs2[4:0] */ \
  X(SRA,    "sra",    0x40005033u, 0xfe00707fu, FMT_R,      CLASS_ALU,    0)             /* rd = rs1 >>s rs2[4:0] */ \
  X(OR,     "or",     0x00006033u, 0xfe00707fu, FMT_R,      CLASS_ALU,    0)             /* rd = rs1 | rs2 */ \
  X(AND,    "and",    0x00007033u, 0xfe00707fu, FMT_R,      CLASS_ALU,    0)             /* rd = rs1 & rs2 */ \
  /* RV32I: ordering and system */ \
  X(FENCE,  "fence",  0x0000000fu, 0x0000707fu, FMT_NONE,   CLASS_FENCE,  0)             /* no-op on one in-order hart */ \
  X(FENCE_I,"fence.i",0x0000100fu, 0x0000707fu, FMT_NONE,   CLASS_FENCE,  ISA_END_BLOCK) /* drop predecoded code */ \
  X(ECALL,  "ecall",  0x00000073u, 0xffffffffu, FMT_NONE,   CLASS_SYSTEM, ISA_END_BLOCK) /* trap: environment call */ \
  X(EBREAK, "ebreak", 0x00100073u, 0xffffffffu, FMT_NONE,   CLASS_SYSTEM, ISA_END_BLOCK) /* trap: breakpoint */ \
  X(MRET,   "mret",   0x30200073u, 0xffffffffu, FMT_NONE,   CLASS_SYSTEM, ISA_END_BLOCK) /* pc = mepc; MIE = MPIE */ \
  X(WFI,    "wfi",    0x10500073u, 0xffffffffu, FMT_NONE,   CLASS_SYSTEM, ISA_END_BLOCK) /* sleep until an interrupt */ \
  /* Zicsr: rd = csr; csr = f(csr, rs1 or zimm) */ \
  X(CSRRW,  "csrrw",  0x00001073u, 0x0000707fu, FMT_CSR,    CLASS_CSR,    ISA_END_BLOCK) /* csr = rs1 */ \
  X(CSRRS,  "csrrs",  0x00002073u, 0x0000707fu, FMT_CSR,    CLASS_CSR,    ISA_END_BLOCK) /* csr |= rs1 */ \
  X(CSRRC,  "csrrc",  0x00003073u, 0x0000707fu, FMT_CSR,    CLASS_CSR,    ISA_END_BLOCK) /* csr &= ~rs1 */ \
  X(CSRRWI, "csrrwi", 0x00005073u, 0x0000707fu, FMT_CSRI,   CLASS_CSR,    ISA_END_BLOCK) /* csr = zimm */ \
  X(CSRRSI, "csrrsi", 0x00006073u, 0x0000707fu, FMT_CSRI,   CLASS_CSR,    ISA_END_BLOCK) /* csr |= zimm */ \
  X(CSRRCI, "csrrci", 0x00007073u, 0x0000707fu, FMT_CSRI,   CLASS_CSR,    ISA_END_BLOCK) /* csr &= ~zimm */ \
  /* M: multiply and divide (division by zero and overflow do not trap) */ \
  X(MUL,    "mul",    0x02000033u, 0xfe00707fu, FMT_R,      CLASS_MUL,    0)             /* low 32 of rs1*rs2 */ \
  X(MULH,   "mulh",   0x02001033u, 0xfe00707fu, FMT_R,      CLASS_MUL,    0)             /* high 32, s*s */ \
  X(MULHSU, "mulhsu", 0x02002033u, 0xfe00707fu, FMT_R,      CLASS_MUL,    0)             /* high 32, s*u */ \
  X(MULHU,  "mulhu",  0x02003033u, 0xfe00707fu, FMT_R,      CLASS_MUL,    0)             /* high 32, u*u */ \
  X(DIV,    "div",    0x02004033u, 0xfe00707fu, FMT_R,      CLASS_DIV,    0)             /* /0 = -1; MIN/-1 = MIN */ \
  X(DIVU,   "divu",   0x02005033u, 0xfe00707fu, FMT_R,      CLASS_DIV,    0)             /* /0 = ~0 */ \
  X(REM,    "rem",    0x02006033u, 0xfe00707fu, FMT_R,      CLASS_DIV,    0)             /* %0 = rs1; MIN%-1 = 0 */ \
  X(REMU,   "remu",   0x02007033u, 0xfe00707fu, FMT_R,      CLASS_DIV,    0)             /* %0 = rs1 */ \
  /* A: word atomics on naturally aligned addresses; aq/rl bits are ignored */ \
  X(LR_W,   "lr.w",   0x1000202fu, 0xf9f0707fu, FMT_LR,     CLASS_AMO,    0)             /* rd = mem; reserve */ \
  X(SC_W,   "sc.w",   0x1800202fu, 0xf800707fu, FMT_AMO,    CLASS_AMO,    0)             /* if reserved: mem = rs2, rd = 0 else 1 */ \
  X(AMOSWAP,"amoswap.w",0x0800202fu,0xf800707fu,FMT_AMO,    CLASS_AMO,    0)             /* rd = mem; mem = rs2 */ \
  X(AMOADD, "amoadd.w", 0x0000202fu,0xf800707fu,FMT_AMO,    CLASS_AMO,    0)             /* mem += rs2 */ \
  X(AMOXOR, "amoxor.w", 0x2000202fu,0xf800707fu,FMT_AMO,    CLASS_AMO,    0)             /* mem ^= rs2 */ \
  X(AMOAND, "amoand.w", 0x6000202fu,0xf800707fu,FMT_AMO,    CLASS_AMO,    0)             /* mem &= rs2 */ \
  X(AMOOR,  "amoor.w",  0x4000202fu,0xf800707fu,FMT_AMO,    CLASS_AMO,    0)             /* mem |= rs2 */ \
  X(AMOMIN, "amomin.w", 0x8000202fu,0xf800707fu,FMT_AMO,    CLASS_AMO,    0)             /* signed min */ \
  X(AMOMAX, "amomax.w", 0xa000202fu,0xf800707fu,FMT_AMO,    CLASS_AMO,    0)             /* signed max */ \
  X(AMOMINU,"amominu.w",0xc000202fu,0xf800707fu,FMT_AMO,    CLASS_AMO,    0)             /* unsigned min */ \
  X(AMOMAXU,"amomaxu.w",0xe000202fu,0xf800707fu,FMT_AMO,    CLASS_AMO,    0)             /* unsigned max */

/*
 * Pseudo-operations the block builder emits; never decoded from memory.
 *   ILLEGAL   raises illegal-instruction with the raw bits in mtval.
 *   SEMIHOST  the ebreak of a `slli x0,x0,0x1f; ebreak; srai x0,x0,7`
 *             sequence: a host call, then continue after the srai.
 *   NOP       an instruction whose only effect was a write to x0.
 *   FALLTHRU  ends a block that stopped for length or a page edge.
 *   IFETCH    (timed blocks only) the fetch unit moves to a new line.
 */
#define RV_PSEUDO_LIST(X) \
  X(ILLEGAL) \
  X(SEMIHOST) \
  X(NOP) \
  X(FALLTHRU) \
  X(IFETCH)

#endif
