/*
 * A small x86-64 emitter: the handful of instruction forms the translator
 * (jit.c) needs, each encoded by hand into a byte buffer. The buffer knows
 * the address its bytes will run at (`at`), so rel32 jumps and RIP-relative
 * operands can be computed while writing into scratch memory that is copied
 * into the code region afterwards (W^X, jit_mem.c).
 *
 * Operands are 32-bit unless a name says q (64-bit). Memory operands are
 * [base + disp] or [base + index + disp] (scale 1). Nothing here knows about
 * RISC-V.
 */
#ifndef TALLY_CORE_JIT_X86_H
#define TALLY_CORE_JIT_X86_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8, R9, R10, R11, R12, R13, R14, R15 };
enum { CC_O, CC_NO, CC_B, CC_AE, CC_E, CC_NE, CC_BE, CC_A, CC_S, CC_NS, CC_P, CC_NP, CC_L, CC_GE, CC_LE, CC_G };
/* group-1 ALU operations (opcode 81 /ext, and ext*8+3 for reg, r/m) */
enum { ALU_ADD = 0, ALU_OR = 1, ALU_ADC = 2, ALU_AND = 4, ALU_SUB = 5, ALU_XOR = 6, ALU_CMP = 7 };
/* group-2 shifts (C1 /ext, D3 /ext) */
enum { SH_SHL = 4, SH_SHR = 5, SH_SAR = 7 };

typedef struct x86_buf {
  uint8_t *p, *start, *end;
  uintptr_t at;      /* the address start will run at */
  bool overflow;
} x86_buf;

typedef struct x86_mem {
  int base, index;   /* index -1: none */
  int32_t disp;
  int scale;         /* the index times 1 << scale */
} x86_mem;

static inline x86_mem x86_m(int base, int32_t disp) { return (x86_mem){base, -1, disp, 0}; }
static inline x86_mem x86_mi(int base, int index, int32_t disp) { return (x86_mem){base, index, disp, 0}; }
static inline x86_mem x86_mis(int base, int index, int scale, int32_t disp) {
  return (x86_mem){base, index, disp, scale};
}

/* the run-time address of the next byte */
static inline uintptr_t x86_here(const x86_buf *b) { return b->at + (uintptr_t)(b->p - b->start); }

static inline void x86_byte(x86_buf *b, uint8_t v) {
  if (b->p < b->end)
    *b->p++ = v;
  else
    b->overflow = true;
}
static inline void x86_u32(x86_buf *b, uint32_t v) {
  for (int i = 0; i < 4; i++)
    x86_byte(b, (uint8_t)(v >> (8 * i)));
}
static inline void x86_u64(x86_buf *b, uint64_t v) {
  x86_u32(b, (uint32_t)v);
  x86_u32(b, (uint32_t)(v >> 32));
}

/* REX when needed (or forced, for byte registers sil/dil: never used here) */
static inline void x86_rex(x86_buf *b, bool w, int reg, int index, int base) {
  uint8_t rex = (uint8_t)(0x40 | (w ? 8 : 0) | ((reg & 8) ? 4 : 0) | ((index >= 0 && (index & 8)) ? 2 : 0) |
                          ((base & 8) ? 1 : 0));
  if (rex != 0x40)
    x86_byte(b, rex);
}

static inline void x86_modrm_mem(x86_buf *b, int reg, x86_mem m) {
  int mod = m.disp == 0 && (m.base & 7) != RBP ? 0 : (m.disp >= -128 && m.disp <= 127 ? 1 : 2);
  if (m.index < 0 && (m.base & 7) != RSP) {
    x86_byte(b, (uint8_t)(mod << 6 | (reg & 7) << 3 | (m.base & 7)));
  } else {
    int index = m.index < 0 ? RSP : m.index; /* 100: no index */
    x86_byte(b, (uint8_t)(mod << 6 | (reg & 7) << 3 | 4));
    x86_byte(b, (uint8_t)((m.index < 0 ? 0 : m.scale) << 6 | (index & 7) << 3 | (m.base & 7)));
  }
  if (mod == 1)
    x86_byte(b, (uint8_t)(int8_t)m.disp);
  else if (mod == 2)
    x86_u32(b, (uint32_t)m.disp);
}

/* opcode (1 or 2 bytes, 0x0F first) with reg, r/m = memory */
static inline void x86_op_mem(x86_buf *b, bool w, unsigned opc, int reg, x86_mem m) {
  x86_rex(b, w, reg, m.index, m.base);
  if (opc > 0xff)
    x86_byte(b, (uint8_t)(opc >> 8));
  x86_byte(b, (uint8_t)opc);
  x86_modrm_mem(b, reg, m);
}
/* opcode with reg, r/m = register */
static inline void x86_op_reg(x86_buf *b, bool w, unsigned opc, int reg, int rm) {
  x86_rex(b, w, reg, -1, rm);
  if (opc > 0xff)
    x86_byte(b, (uint8_t)(opc >> 8));
  x86_byte(b, (uint8_t)opc);
  x86_byte(b, (uint8_t)(0xc0 | (reg & 7) << 3 | (rm & 7)));
}

static inline void x86_load32(x86_buf *b, int r, x86_mem m) { x86_op_mem(b, false, 0x8b, r, m); }
static inline void x86_store32(x86_buf *b, x86_mem m, int r) { x86_op_mem(b, false, 0x89, r, m); }
static inline void x86_load64(x86_buf *b, int r, x86_mem m) { x86_op_mem(b, true, 0x8b, r, m); }
static inline void x86_store64(x86_buf *b, x86_mem m, int r) { x86_op_mem(b, true, 0x89, r, m); }
static inline void x86_store16(x86_buf *b, x86_mem m, int r) {
  x86_byte(b, 0x66);
  x86_op_mem(b, false, 0x89, r, m);
}
/* only al, cl, dl, bl: no REX needed for the byte register */
static inline void x86_store8(x86_buf *b, x86_mem m, int r) { x86_op_mem(b, false, 0x88, r, m); }
static inline void x86_movzx8(x86_buf *b, int r, x86_mem m) { x86_op_mem(b, false, 0x0fb6, r, m); }
static inline void x86_movzx16(x86_buf *b, int r, x86_mem m) { x86_op_mem(b, false, 0x0fb7, r, m); }
static inline void x86_movsx8(x86_buf *b, int r, x86_mem m) { x86_op_mem(b, false, 0x0fbe, r, m); }
static inline void x86_movsx16(x86_buf *b, int r, x86_mem m) { x86_op_mem(b, false, 0x0fbf, r, m); }
static inline void x86_movsxd_mem(x86_buf *b, int r, x86_mem m) { x86_op_mem(b, true, 0x63, r, m); }
static inline void x86_mov_rr(x86_buf *b, int dst, int src) { x86_op_reg(b, false, 0x89, src, dst); }
static inline void x86_mov_rr64(x86_buf *b, int dst, int src) { x86_op_reg(b, true, 0x89, src, dst); }
static inline void x86_lea64(x86_buf *b, int r, x86_mem m) { x86_op_mem(b, true, 0x8d, r, m); }

static inline void x86_mov_imm32(x86_buf *b, int r, uint32_t v) {
  if (r & 8)
    x86_byte(b, 0x41);
  x86_byte(b, (uint8_t)(0xb8 + (r & 7)));
  x86_u32(b, v);
}
static inline void x86_mov_imm64(x86_buf *b, int r, uint64_t v) {
  if (v <= UINT32_MAX) { /* zero-extends */
    x86_mov_imm32(b, r, (uint32_t)v);
    return;
  }
  x86_byte(b, (uint8_t)(0x48 | ((r & 8) ? 1 : 0)));
  x86_byte(b, (uint8_t)(0xb8 + (r & 7)));
  x86_u64(b, v);
}
static inline void x86_store_imm32(x86_buf *b, x86_mem m, uint32_t v) {
  x86_op_mem(b, false, 0xc7, 0, m);
  x86_u32(b, v);
}
/* [m] = imm sign-extended to 64 bits */
static inline void x86_store_imm64s(x86_buf *b, x86_mem m, int32_t v) {
  x86_op_mem(b, true, 0xc7, 0, m);
  x86_u32(b, (uint32_t)v);
}
static inline void x86_store_imm8(x86_buf *b, x86_mem m, uint8_t v) {
  x86_op_mem(b, false, 0xc6, 0, m);
  x86_byte(b, v);
}
static inline void x86_cmp_mem8_imm(x86_buf *b, x86_mem m, uint8_t v) {
  x86_op_mem(b, false, 0x80, ALU_CMP, m);
  x86_byte(b, v);
}

/* cmp word [m], v: one instruction where a movzx and a cmp were two
 * (the imm8 form when v fits: a 16-bit immediate with the 0x66 prefix
 * stalls the decoders of some hosts) */
static inline void x86_cmp_mem16_imm(x86_buf *b, x86_mem m, uint16_t v) {
  x86_byte(b, 0x66);
  if (v <= 127) {
    x86_op_mem(b, false, 0x83, ALU_CMP, m);
    x86_byte(b, (uint8_t)v);
  } else {
    x86_op_mem(b, false, 0x81, ALU_CMP, m);
    x86_byte(b, (uint8_t)v);
    x86_byte(b, (uint8_t)(v >> 8));
  }
}

/* r (op)= [m] */
static inline void x86_alu_rm(x86_buf *b, int alu, int r, x86_mem m) {
  x86_op_mem(b, false, (unsigned)(alu * 8 + 3), r, m);
}
/* dst (op)= src */
static inline void x86_alu_rr(x86_buf *b, bool w, int alu, int dst, int src) {
  x86_op_reg(b, w, (unsigned)(alu * 8 + 1), src, dst);
}
/* r (op)= imm (sign-extended to 64 with w) */
static inline void x86_alu_ri(x86_buf *b, bool w, int alu, int r, int32_t imm) {
  if (imm >= -128 && imm <= 127) {
    x86_op_reg(b, w, 0x83, alu, r);
    x86_byte(b, (uint8_t)(int8_t)imm);
  } else {
    x86_op_reg(b, w, 0x81, alu, r);
    x86_u32(b, (uint32_t)imm);
  }
}
/* [m] (op)= imm, 32-bit */
static inline void x86_alu_mi32(x86_buf *b, int alu, x86_mem m, int32_t imm) {
  if (imm >= -128 && imm <= 127) {
    x86_op_mem(b, false, 0x83, alu, m);
    x86_byte(b, (uint8_t)(int8_t)imm);
  } else {
    x86_op_mem(b, false, 0x81, alu, m);
    x86_u32(b, (uint32_t)imm);
  }
}
/* [m] (op)= imm, 64-bit */
static inline void x86_alu_mi64(x86_buf *b, int alu, x86_mem m, int32_t imm) {
  if (imm >= -128 && imm <= 127) {
    x86_op_mem(b, true, 0x83, alu, m);
    x86_byte(b, (uint8_t)(int8_t)imm);
  } else {
    x86_op_mem(b, true, 0x81, alu, m);
    x86_u32(b, (uint32_t)imm);
  }
}
static inline void x86_test_rr(x86_buf *b, int r1, int r2) { x86_op_reg(b, false, 0x85, r2, r1); }
static inline void x86_test_rr64(x86_buf *b, int r1, int r2) { x86_op_reg(b, true, 0x85, r2, r1); }
static inline void x86_shift_ri(x86_buf *b, bool w, int sh, int r, uint8_t n) {
  x86_op_reg(b, w, 0xc1, sh, r);
  x86_byte(b, n);
}
static inline void x86_shift_rcl(x86_buf *b, int sh, int r) { x86_op_reg(b, false, 0xd3, sh, r); }
static inline void x86_imul_rm(x86_buf *b, int r, x86_mem m) { x86_op_mem(b, false, 0x0faf, r, m); }
/* dst = src * imm, 32-bit */
static inline void x86_imul_rri(x86_buf *b, int dst, int src, uint32_t imm) {
  x86_op_reg(b, false, 0x69, dst, src);
  x86_u32(b, imm);
}
static inline void x86_imul_rr64(x86_buf *b, int dst, int src) { x86_op_reg(b, true, 0x0faf, dst, src); }
static inline void x86_setcc(x86_buf *b, int cc, int r) { x86_op_reg(b, false, (unsigned)(0x0f90 + cc), 0, r); }

/* jumps and calls: rel32 to an absolute run-time address */
static inline void x86_rel32_to(x86_buf *b, uintptr_t target) {
  x86_u32(b, (uint32_t)(int32_t)((intptr_t)target - (intptr_t)(x86_here(b) + 4)));
}
static inline void x86_jmp(x86_buf *b, uintptr_t target) {
  x86_byte(b, 0xe9);
  x86_rel32_to(b, target);
}
static inline void x86_jcc(x86_buf *b, int cc, uintptr_t target) {
  x86_byte(b, 0x0f);
  x86_byte(b, (uint8_t)(0x80 + cc));
  x86_rel32_to(b, target);
}
/* a forward jump whose target is set later (x86_patch): its rel32's place */
static inline uint8_t *x86_jcc_fwd(x86_buf *b, int cc) {
  x86_byte(b, 0x0f);
  x86_byte(b, (uint8_t)(0x80 + cc));
  uint8_t *at = b->p;
  x86_u32(b, 0);
  return at;
}
static inline uint8_t *x86_jmp_fwd(x86_buf *b) {
  x86_byte(b, 0xe9);
  uint8_t *at = b->p;
  x86_u32(b, 0);
  return at;
}
/* points the rel32 at `at` to the next byte written */
static inline void x86_patch_here(x86_buf *b, uint8_t *at) {
  if (!at || at + 4 > b->end)
    return;
  uint32_t rel = (uint32_t)(int32_t)((b->p - at) - 4);
  memcpy(at, &rel, 4);
}
static inline void x86_jmp_mem(x86_buf *b, x86_mem m) { x86_op_mem(b, false, 0xff, 4, m); }
/* call an absolute address through rax */
static inline void x86_call_abs(x86_buf *b, const void *fn) {
  x86_mov_imm64(b, RAX, (uint64_t)(uintptr_t)fn);
  x86_byte(b, 0xff);
  x86_byte(b, 0xd0);
}
/* lea r, [rip + (target - next)] */
static inline void x86_lea_rip(x86_buf *b, int r, uintptr_t target) {
  x86_byte(b, (uint8_t)(0x48 | ((r & 8) ? 4 : 0)));
  x86_byte(b, 0x8d);
  x86_byte(b, (uint8_t)(0x05 | (r & 7) << 3));
  x86_rel32_to(b, target);
}
static inline void x86_push(x86_buf *b, int r) {
  if (r & 8)
    x86_byte(b, 0x41);
  x86_byte(b, (uint8_t)(0x50 + (r & 7)));
}
static inline void x86_pop(x86_buf *b, int r) {
  if (r & 8)
    x86_byte(b, 0x41);
  x86_byte(b, (uint8_t)(0x58 + (r & 7)));
}
static inline void x86_ret(x86_buf *b) { x86_byte(b, 0xc3); }
static inline void x86_cdq(x86_buf *b) { x86_byte(b, 0x99); }
static inline void x86_div_r(x86_buf *b, int r) { x86_op_reg(b, false, 0xf7, 6, r); }
static inline void x86_idiv_r(x86_buf *b, int r) { x86_op_reg(b, false, 0xf7, 7, r); }

#endif
