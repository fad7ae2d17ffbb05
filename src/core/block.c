/*
 * The block cache: decodes straight-line code once into core_blocks, finds
 * them by start address, and throws all of them away when code changes
 * (fence.i, or a store into a chunk of RAM that holds predecoded code).
 *
 * Blocks live in a bump arena, so a flush is O(1) besides clearing the hash
 * table, and chaining pointers between blocks never dangle: they all die
 * together. A flush requested from inside the fast loop waits until the loop
 * has returned (flush_pending), since the running block is in the arena.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

#define ARENA_CHUNK (4u << 20)

struct block_arena {
  struct block_arena *next;
  size_t used, size;
  _Alignas(16) unsigned char data[];
};

static void *arena_alloc(core_cpu *cpu, size_t n) {
  n = (n + 15) & ~(size_t)15;
  block_arena *a = cpu->arena;
  if (!a || a->used + n > a->size) {
    size_t size = n > ARENA_CHUNK ? n : ARENA_CHUNK;
    block_arena *na = malloc(sizeof *na + size);
    if (!na)
      return NULL;
    na->next = a;
    na->used = 0;
    na->size = size;
    cpu->arena = a = na;
  }
  void *p = a->data + a->used;
  a->used += n;
  return p;
}

static void arena_release(core_cpu *cpu) {
  block_arena *a = cpu->arena;
  while (a && a->next) { /* keep one chunk for reuse */
    block_arena *next = a->next;
    free(a);
    a = next;
  }
  if (a)
    a->used = 0;
  cpu->arena = a;
}

void core_watch_set(core_cpu *cpu, uint32_t addr, uint32_t len, uint8_t bits) {
  uint32_t off = addr - cpu->ram_base;
  if (off >= cpu->ram_size || len == 0)
    return;
  uint32_t last = off + len - 1 < cpu->ram_size ? off + len - 1 : cpu->ram_size - 1;
  /* Also mark the chunk before: a misaligned store that starts there may
   * spill into this one, and the fast path only checks its first byte. */
  uint32_t first = off >> WATCH_SHIFT;
  if (first > 0)
    first--;
  for (uint32_t c = first; c <= last >> WATCH_SHIFT; c++)
    cpu->watch[c] |= bits;
}

void core_block_flush(core_cpu *cpu) {
  memset(cpu->hash, 0, ((size_t)cpu->hash_mask + 1) * sizeof *cpu->hash);
  for (uint32_t c = 0; c < cpu->ram_size >> WATCH_SHIFT; c++)
    cpu->watch[c] &= (uint8_t)~WATCH_CODE;
  arena_release(cpu);
  cpu->flush_pending = false;
  cpu->flushes++;
}

/* Fetches the instruction at pc; false if it is not entirely in RAM. */
static bool fetch(const core_cpu *cpu, uint32_t pc, uint32_t *bits) {
  uint16_t lo, hi;
  if (!core_read_mem(cpu, pc, &lo, 2))
    return false;
  if (isa_insn_len(lo) == 2) {
    *bits = lo;
    return true;
  }
  if (!core_read_mem(cpu, pc + 2, &hi, 2))
    return false;
  *bits = (uint32_t)lo | (uint32_t)hi << 16;
  return true;
}

/* An ebreak between `slli x0,x0,0x1f` and `srai x0,x0,7` is a semihosting
 * call (the RISC-V semihosting spec); all three must be 32-bit. */
static bool is_semihost_call(const core_cpu *cpu, uint32_t pc) {
  uint32_t before, after;
  return fetch(cpu, pc - 4, &before) && before == 0x01f01013u &&
         fetch(cpu, pc + 4, &after) && after == 0x40705013u;
}

static bool writes_only_x0(const isa_insn *in) {
  isa_class cls = (isa_class)isa_infos[in->kind].cls;
  return in->rd == 0 && (cls == CLASS_ALU || cls == CLASS_MUL || cls == CLASS_DIV);
}

/* Turns a decoded instruction at `pc` into an op. */
static core_op make_op(const core_cpu *cpu, const isa_insn *in, uint32_t pc) {
  core_op op = {.imm = in->imm, .kind = in->kind, .rd = in->rd, .rs1 = in->rs1, .rs2 = in->rs2};
  if (op.rd == 0)
    op.rd = CORE_REG_SINK;
  switch (in->kind) {
  case K_AUIPC: op.kind = K_LUI; op.imm = (int32_t)(pc + (uint32_t)in->imm); break;
  case K_JAL: case K_BEQ: case K_BNE: case K_BLT: case K_BGE: case K_BLTU: case K_BGEU:
    op.imm = (int32_t)(pc + (uint32_t)in->imm); break;
  case K_CSRRW: case K_CSRRS: case K_CSRRC: case K_CSRRWI: case K_CSRRSI: case K_CSRRCI:
    op.imm = in->csr; break;
  case K_ILLEGAL: op.imm = (int32_t)in->raw; break;
  case K_EBREAK: if (in->len == 4 && is_semihost_call(cpu, pc)) op.kind = K_SEMIHOST; break;
  default: break;
  }
  if (writes_only_x0(in))
    op.kind = K_NOP;
  return op;
}

/* Decodes up to `max` instructions from pc into ops/pcs. Returns the number
 * of ops written; 0 when the first instruction cannot be fetched. */
static uint32_t decode_run(core_cpu *cpu, uint32_t pc, uint32_t max, core_op *ops, uint32_t *pcs,
                           uint32_t *n_insns) {
  uint32_t n = 0;
  bool ended = false;
  while (n < max) {
    uint32_t bits;
    if (!fetch(cpu, pc, &bits))
      break;
    isa_insn in;
    isa_decode(bits, &in);
    pcs[n] = pc;
    ops[n++] = make_op(cpu, &in, pc);
    pc += in.len;
    if (isa_infos[in.kind].flags & ISA_END_BLOCK) {
      ended = true;
      break;
    }
  }
  *n_insns = n;
  if (n == 0)
    return 0;
  if (!ended) {
    pcs[n] = pc;
    ops[n++] = (core_op){.kind = K_FALLTHRU};
  }
  pcs[n] = pc;
  return n;
}

static core_block *build(core_cpu *cpu, uint32_t pc, uint32_t max, void *buf, size_t bufsize) {
  core_op ops[CORE_BLOCK_MAX_INSNS + 1];
  uint32_t pcs[CORE_BLOCK_MAX_INSNS + 2];
  uint32_t n_insns;
  uint32_t n_ops = decode_run(cpu, pc, max, ops, pcs, &n_insns);
  if (n_ops == 0)
    return NULL;
  size_t size = sizeof(core_block) + n_ops * sizeof(core_op) + (n_ops + 1) * sizeof(uint32_t);
  core_block *b = buf ? (size <= bufsize ? buf : NULL) : arena_alloc(cpu, size);
  if (!b)
    return NULL;
  *b = (core_block){.pc = pc, .end_pc = pcs[n_ops], .n_insns = n_insns, .n_ops = n_ops};
  memcpy(b->ops, ops, n_ops * sizeof(core_op));
  b->pcs = (uint32_t *)(b->ops + n_ops);
  memcpy(b->pcs, pcs, (n_ops + 1) * sizeof(uint32_t));
  core_watch_set(cpu, pc, b->end_pc - pc, WATCH_CODE);
  return b;
}

core_block *core_block_get(core_cpu *cpu, uint32_t pc) {
  core_block **slot = &cpu->hash[(pc >> 1) & cpu->hash_mask];
  for (core_block *b = *slot; b; b = b->hash_next)
    if (b->pc == pc)
      return b;
  core_block *b = build(cpu, pc, CORE_BLOCK_MAX_INSNS, NULL, 0);
  if (!b)
    return NULL;
  b->hash_next = *slot;
  *slot = b;
  cpu->blocks_built++;
  return b;
}

core_block *core_block_build_single(core_cpu *cpu, uint32_t pc, void *buf, size_t size) {
  return build(cpu, pc, 1, buf, size);
}
