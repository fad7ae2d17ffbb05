/*
 * Instruction kinds, formats and classes, expanded from isa_table.h, and the
 * decoder and disassembler that work on them. A decoded instruction
 * (isa_insn) keeps architectural register numbers and a PC-relative
 * immediate; the block builder (block.c) turns it into the executor's
 * compact op.
 */
#ifndef TALLY_CORE_ISA_H
#define TALLY_CORE_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isa_table.h"

typedef enum isa_fmt {
  FMT_NONE, FMT_R, FMT_I, FMT_SHIFT, FMT_LOAD, FMT_STORE, FMT_B, FMT_U,
  FMT_J, FMT_JALR, FMT_CSR, FMT_CSRI, FMT_AMO, FMT_LR
} isa_fmt;

typedef enum isa_class {
  CLASS_ALU, CLASS_LOAD, CLASS_STORE, CLASS_BRANCH, CLASS_JUMP, CLASS_MUL,
  CLASS_DIV, CLASS_CSR, CLASS_FENCE, CLASS_SYSTEM, CLASS_AMO, CLASS_PSEUDO
} isa_class;

typedef enum isa_kind {
#define ISA_KIND_ENUM(name, ...) K_##name,
  RV_INSN_LIST(ISA_KIND_ENUM)
  K_ISA_COUNT_, /* number of real instructions; pseudo-ops follow */
  K_PSEUDO_BASE_ = K_ISA_COUNT_ - 1,
#define ISA_PSEUDO_ENUM(name) K_##name,
  RV_PSEUDO_LIST(ISA_PSEUDO_ENUM)
  K_COUNT
#undef ISA_KIND_ENUM
#undef ISA_PSEUDO_ENUM
} isa_kind;

typedef struct isa_insn {
  uint32_t raw;   /* the bits as fetched (16 significant bits when len == 2) */
  int32_t imm;    /* sign-extended; PC-relative for branches, jal and auipc */
  uint16_t csr;   /* CSR number for Zicsr */
  uint8_t kind;   /* isa_kind; K_ILLEGAL when nothing matched */
  uint8_t len;    /* 2 or 4 bytes */
  uint8_t rd, rs1, rs2;
} isa_insn;

typedef struct isa_info {
  const char *mnemonic;
  uint8_t fmt;    /* isa_fmt */
  uint8_t cls;    /* isa_class */
  uint8_t flags;  /* ISA_END_BLOCK ... */
} isa_info;

/* Per-kind facts, indexed by isa_kind (pseudo-ops included). */
extern const isa_info isa_infos[K_COUNT];

/* Shifts by a register amount (sll, srl, sra) and by an immediate (slli,
 * srli, srai; the RVC forms decode to these): the timing models treat
 * both as a shifter's work (its cycles, its late result), apart from the
 * other ALU ops, and only the register form costs what a block does not
 * know when it is built. */
static inline bool isa_is_shift_reg(unsigned kind) { return kind == K_SLL || kind == K_SRL || kind == K_SRA; }
static inline bool isa_is_shift_imm(unsigned kind) { return kind == K_SLLI || kind == K_SRLI || kind == K_SRAI; }
static inline bool isa_is_shift(unsigned kind) { return isa_is_shift_reg(kind) || isa_is_shift_imm(kind); }

/* Length in bytes of the instruction whose low 16 bits are `lo`. */
static inline unsigned isa_insn_len(uint32_t lo) { return (lo & 3u) == 3u ? 4u : 2u; }

/* Decodes one instruction. `bits` holds 32 bits when the low two bits are
 * 0b11, else only the low 16 are used. Never fails: unknown or reserved
 * encodings decode as K_ILLEGAL with `raw` kept for mtval. */
void isa_decode(uint32_t bits, isa_insn *out);

/* Expands a 16-bit RVC encoding (decode_rvc.c); used by isa_decode. */
void isa_decode_rvc(uint32_t half, isa_insn *out);

/* ABI register name ("zero", "ra", "sp", ...). */
const char *isa_reg_name(unsigned r);

/* Name of a CSR if it has one, else NULL. */
const char *isa_csr_name(unsigned csr);

/* Writes a one-line disassembly of `in`, located at `pc`, into buf; returns
 * the length written (as snprintf). Branch and jump targets are absolute. */
int isa_disasm(const isa_insn *in, uint32_t pc, char *buf, size_t size);

#endif
