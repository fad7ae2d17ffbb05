/*
 * The functional fast loop: runs predecoded blocks back to back with
 * computed-goto dispatch (one indirect jump per op, each with its own branch
 * history) and direct block chaining. No timing or counting work lives on
 * this path; the semantics come from exec_semantics.inc.
 *
 * Returns true when it stopped because the next block would cross the
 * horizon, false for any other exit.
 *
 * Invariants:
 *   - instret is charged for a whole block when it is entered; a trap in
 *     the middle gives back the instructions that did not retire.
 *   - a block is entered only if it fits under the horizon.
 *   - anything that changes interrupt or trap state leaves the loop (EXIT),
 *     so the outer loop (run.c) sees it before the next instruction.
 */
#include <string.h>

#include "../board/board.h"
#include "cpu.h"

#define LIKELY(c) __builtin_expect(!!(c), 1)
#define UNLIKELY(c) __builtin_expect(!!(c), 0)

static uint32_t blk_raw_insn(const core_cpu *cpu, uint32_t pc) {
  uint32_t bits = 0;
  uint16_t lo;
  if (core_read_mem(cpu, pc, &lo, 2)) {
    bits = lo;
    if (isa_insn_len(lo) == 4 && core_read_mem(cpu, pc + 2, &lo, 2))
      bits |= (uint32_t)lo << 16;
  }
  return bits;
}

bool core_exec_fast(core_cpu *cpu, core_block *first) {
  static const void *const labels[K_COUNT] = {
#define LABEL_ADDR(name, ...) [K_##name] = &&L_##name,
    RV_INSN_LIST(LABEL_ADDR)
#define PSEUDO_LABEL_ADDR(name) [K_##name] = &&L_##name,
    RV_PSEUDO_LIST(PSEUDO_LABEL_ADDR)
#undef LABEL_ADDR
#undef PSEUDO_LABEL_ADDR
  };
  uint32_t *const x = cpu->x;
  uint8_t *const ram = cpu->ram;
  const uint8_t *const watch = cpu->watch;
  const uint32_t ram_base = cpu->ram_base, ram_size = cpu->ram_size;
  core_block *blk;
  const core_op *op;
  uint32_t target;

#define DISPATCH() goto *labels[op->kind]
#define OP(name) L_##name:
#define NEXT() do { op++; DISPATCH(); } while (0)
#define OP_INDEX ((uint32_t)(op - blk->ops))
#define THIS_PC (blk->pcs[OP_INDEX])
#define NEXT_PC (blk->pcs[OP_INDEX + 1])
#define SYNC() do { cpu->cur_blk = blk; cpu->cur_op = op; } while (0)
#define EXIT(next_pc) do { cpu->pc = (next_pc); goto out; } while (0)
#define TRAP(cause, tval)                                                  \
  do {                                                                     \
    cpu->instret -= blk->n_insns - OP_INDEX;                               \
    core_raise(cpu, (uint32_t)(cause), (tval), THIS_PC);                   \
    goto out;                                                              \
  } while (0)
#define CHAIN(slot, to)                                                    \
  do {                                                                     \
    target = (to);                                                         \
    core_block *nb_ = blk->succ[slot];                                     \
    if (UNLIKELY(!nb_ || nb_->pc != target)) {                             \
      nb_ = core_block_get(cpu, target);                                   \
      if (UNLIKELY(!nb_)) { cpu->pc = target; goto fetch_fault; }          \
      blk->succ[slot] = nb_;                                               \
    }                                                                      \
    if (UNLIKELY(cpu->instret + nb_->n_insns > cpu->horizon)) {            \
      cpu->pc = target;                                                    \
      goto horizon;                                                        \
    }                                                                      \
    blk = nb_;                                                             \
    cpu->instret += blk->n_insns;                                          \
    op = blk->ops;                                                         \
    DISPATCH();                                                            \
  } while (0)
/* Fast path: the whole access inside RAM. Misaligned accesses are allowed
 * in RAM, as on QEMU's virt board. */
#define LOAD(T, addr, v)                                                   \
  do {                                                                     \
    uint32_t off_ = (addr) - ram_base;                                     \
    if (LIKELY(off_ <= ram_size - sizeof(T))) {                            \
      T t_;                                                                \
      memcpy(&t_, ram + off_, sizeof t_);                                  \
      (v) = (uint32_t)t_;                                                  \
    } else {                                                               \
      SYNC();                                                              \
      if (!core_load_slow(cpu, (addr), sizeof(T), &(v)))                   \
        TRAP(CAUSE_LOAD_ACCESS, (addr));                                   \
      (v) = (uint32_t)(T)(v); /* sign-extends the signed widths */         \
    }                                                                      \
  } while (0)
#define AMO_LOAD(addr, v)                                                  \
  do {                                                                     \
    uint32_t off_ = (addr) - ram_base;                                     \
    if (UNLIKELY(off_ > ram_size - 4)) TRAP(CAUSE_STORE_ACCESS, (addr));   \
    memcpy(&(v), ram + off_, 4);                                           \
  } while (0)
#define STORE(n, addr, v)                                                  \
  do {                                                                     \
    uint32_t off_ = (addr) - ram_base, v_ = (v);                           \
    if (LIKELY(off_ <= ram_size - (n) && !watch[off_ >> WATCH_SHIFT])) {   \
      memcpy(ram + off_, &v_, (n));                                        \
    } else {                                                               \
      SYNC();                                                              \
      core_store_result r_ = core_store_slow(cpu, (addr), (n), v_);        \
      if (r_ == STORE_FAULT) TRAP(CAUSE_STORE_ACCESS, (addr));             \
      if (r_ == STORE_DONE_EXIT) EXIT(NEXT_PC);                            \
    }                                                                      \
  } while (0)

  if (first) {
    blk = first;
  } else {
    blk = core_block_get(cpu, cpu->pc);
    if (!blk)
      goto fetch_fault;
    if (cpu->instret + blk->n_insns > cpu->horizon)
      return true;
  }
  cpu->instret += blk->n_insns;
  op = blk->ops;
  DISPATCH();

#include "exec_semantics.inc"

fetch_fault:
  if (cpu->stop == CORE_RUNNING)
    core_raise(cpu, CAUSE_FETCH_ACCESS, cpu->pc, cpu->pc);
out:
  cpu->cur_blk = NULL;
  cpu->cur_op = NULL;
  return false;
horizon:
  cpu->cur_blk = NULL;
  cpu->cur_op = NULL;
  return true;
}
