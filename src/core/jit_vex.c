/*
 * micro_arch vexriscv-min under the translator (jit_vex.h): the model's
 * step before each instruction, the interpreter's own (exec_loop.inc's
 * vexmin_op, compiled here without its loop, VEXMIN 1 as in
 * exec_timed_vexmin.c), so both engines share every rule of vexmin.c and
 * vexmin_step.h.
 */
#define TIMED 1
#define VEXMIN 1
#define PROFILED 0
#define REGIONS 0
#define TIMING_NO_ROWS    /* never with a profile (jit_vexmin_translated) */
#define TIMING_NO_REGIONS /* ... nor with address regions */
#define EXEC_LOOP_HELPERS_ONLY
/* only the step is used here: the loop's other helpers go unused */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "exec_loop.inc"
#pragma GCC diagnostic pop

#include <stddef.h>

#include "jit_vex.h"

bool jit_vexmin_translated(const core_cpu *cpu) {
  const timing *tm = cpu->tm;
  return tm && tm->vexmin && !tm->prof && !tm->regions && !cpu->track;
}

#if defined(__x86_64__) && defined(__linux__)
/* VEXMIN_AT(k) of an op of kind k: the kind's facts a constant, as in
 * the interpreter's code for the kind */
#define STEP_FN(name, ...)                                                                  \
  static void step_##name(core_cpu *cpu, core_block *blk, uint32_t i) {                     \
    vexmin_op(cpu, cpu->tm, cpu->x, blk->pcs[i], &blk->ops[i], vexmin_facts[K_##name]);     \
  }
RV_INSN_LIST(STEP_FN)
STEP_FN(NOP)
STEP_FN(ILLEGAL)
STEP_FN(SEMIHOST)
#undef STEP_FN

#define STEP_ROW(name, ...) [K_##name] = (const void *)step_##name,
static const void *const step_fns[K_COUNT] = {
  RV_INSN_LIST(STEP_ROW)
  [K_NOP] = (const void *)step_NOP,
  [K_ILLEGAL] = (const void *)step_ILLEGAL,
  [K_SEMIHOST] = (const void *)step_SEMIHOST,
};
#undef STEP_ROW

const void *jit_vexmin_step_fn(uint8_t kind) { return kind < K_COUNT ? step_fns[kind] : NULL; }

#define TM(field) x86_m(R15, (int32_t)offsetof(timing, field)) /* timed code: r15 is cpu->tm */

void jit_vexmin_emit_taken(x86_buf *b) {
  x86_store_imm8(b, TM(vm.jumped), 1);
  x86_store_imm32(b, TM(vm.seq_pc), 1);
}
#endif
