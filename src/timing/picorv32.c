/*
 * micro_arch = picorv32 (picorv32.h): the instruction times of PicoRV32's
 * state machine on a memory with W wait states (mem_ready in the (W+1)-th
 * cycle of mem_valid), as picorv32.v makes them:
 *
 * - An instruction is launched in the fetch state once its word is
 *   decoded. All but jal then load rs1 (ld_rs1) and set mem_do_prefetch in
 *   the same step, so the bus request for the next instruction goes out in
 *   the instruction's third cycle and its word arrives W cycles later: the
 *   next instruction can launch 3 + W cycles after this one at the
 *   earliest (PREFETCH_READY + W). An instruction that executes longer
 *   (shifts, multiply, divide, the counter reads) hides that wait:
 *   max(its time, 3 + W). ALU ops and branches not taken take exactly 3.
 * - Loads and stores wait for the prefetch before their own bus transfer
 *   (ldmem/stmem: `!mem_do_prefetch || mem_done`): 5 + W (the data) + the
 *   fetch's W.
 * - With COMPRESSED_ISA the core reads aligned words. The instruction
 *   after a compressed one at 0 mod 4 (or after a 32-bit one at 2 mod 4) is
 *   the upper half of a word already read (prefetched_high_word): a
 *   compressed one costs no fetch at all, a 32-bit one needs the next
 *   word, and that read only starts once the instruction before it is done
 *   (the buffered half is taken with mem_do_rinst, not with a prefetch):
 *   1 + W more, never hidden.
 * - A taken branch first finishes the prefetch of the instruction after it
 *   (the fetch it would have paid not taken), then fetches its target: 2
 *   cycles more than not taken, plus the target's fetch. So does jal (3 +
 *   the target's fetch) and jalr (6 + it). A target at 0 mod 4 or a
 *   compressed one at 2 mod 4 takes one word, W cycles beyond the
 *   instruction's own; a 32-bit target at 2 mod 4 two words, 1 + 2W (the
 *   buffer is cleared on a jump, latched_branch).
 *
 * - With wait states, the prefetch of a taken branch's next word completes
 *   when the branch has already latched its target (latched_branch), so
 *   mem_done judges that word as the target's first: a target at 2 mod 4
 *   takes its upper half, and when those bits look like the start of a
 *   32-bit instruction ([1:0] = 11) the fetch is not done. The core then
 *   reads the target while still in the branch's exec state, and once that
 *   is done, reads it again from the fetch state: a compressed target
 *   costs 2 + W more, a 32-bit one 3 + 2W. At W = 0 the prefetch is done
 *   before the branch latches its outcome. Which it is depends only on the
 *   code (the word after the branch), so it is known when the block is
 *   built.
 *
 * The per-class base times (ALU 3, load/store 5, shift 4 + steps, MUL 40,
 * MULH* 72, DIV/REM 40, jal 3, jalr 6, branch 3, taken + 2, counter reads
 * 4) are the core model's [pipeline] cpi.* and branch_penalty; the rules
 * above are this file's.
 */
#include "picorv32.h"

#include "../core/isa.h"

#define PREFETCH_READY 3u /* cycles from a launch to the prefetch's request and answer, at W = 0 */

/* The fetch of the instruction at `at`, `len` bytes, reached in sequence:
 * a whole word (W), the buffered upper half (0), or the buffered half and
 * the next word (1 + W). *reads: bus reads. */
static uint32_t seq_fetch(uint32_t w, uint32_t at, uint32_t len, uint32_t *reads) {
  if (!(at & 2)) {
    *reads = 1;
    return w;
  }
  *reads = len == 4;
  return len == 4 ? 1 + w : 0;
}

/* The fetch of a jump's target: one word (W), or two for a 32-bit
 * instruction at 2 mod 4 (1 + 2W). */
static uint32_t jump_fetch(uint32_t w, uint32_t at, uint32_t len, uint32_t *reads) {
  bool split = (at & 2) && len == 4;
  *reads = split ? 2 : 1;
  return split ? 1 + 2 * w : w;
}

static uint32_t two_stage_steps(uint32_t amount) { return amount / 4 + amount % 4; }

void timing_pico_static(const timing *t, op_timing *o, uint8_t kind, int32_t imm, uint32_t pc, uint32_t len,
                        uint32_t next_word, uint32_t target_len, uint32_t *taken_pen) {
  const core_model *m = &t->model;
  uint32_t next_half = (pc + len) & 2 ? next_word >> 16 : next_word & 0xffff;
  uint32_t next_len = (next_half & 3) == 3 ? 4 : 2;
  uint32_t w = m->wait_states, reads = 0, reads_t = 0;
  uint32_t next = seq_fetch(w, pc + len, next_len, &reads);
  uint32_t exec = 0, stall = 0, fetch = next;
  uint8_t stall_sig = 0;
  bool hides = false; /* the execution can hide an aligned word's wait */
  o->overlap = 0;
  switch ((isa_class)isa_infos[kind].cls) {
  case CLASS_ALU:
    exec = isa_infos[kind].fmt == FMT_R ? m->cpi_alu_reg : m->cpi_alu;
    if (isa_is_shift(kind)) {
      exec = m->cpi_shift;
      if (isa_is_shift_imm(kind)) {
        uint32_t a = (uint32_t)imm & 31;
        stall = m->shift == SHIFT_TWO_STAGE ? two_stage_steps(a) : m->shift == SHIFT_SERIAL ? a : 0;
        stall_sig = SIG_STALL_MULDIV;
      }
      hides = true;
    }
    break;
  case CLASS_LOAD: case CLASS_STORE:
    exec = isa_infos[kind].cls == CLASS_LOAD ? m->cpi_load : m->cpi_store;
    stall = w; /* the data transfer's wait */
    stall_sig = SIG_STALL_DCACHE;
    break;
  case CLASS_AMO: /* not decoded (timing_pico_decodes): traps */
    exec = m->cpi_amo;
    break;
  case CLASS_BRANCH:
    exec = m->cpi_branch;
    *taken_pen = m->branch_penalty + jump_fetch(w, pc + (uint32_t)imm, target_len, &reads_t);
    if (w && !((pc + len) & 2) && ((pc + (uint32_t)imm) & 2) && (next_word >> 16 & 3) == 3)
      *taken_pen += target_len == 4 ? 3 + 2 * w : 2 + w; /* the target fetched twice, see above */
    break;
  case CLASS_JUMP:
    if (kind == K_JAL) {
      exec = m->cpi_jal;
      fetch = jump_fetch(w, pc + (uint32_t)imm, target_len, &reads);
    } else {
      exec = m->cpi_jalr;
      fetch = 0; /* the target's fetch when it runs */
      reads = 0;
    }
    break;
  case CLASS_MUL:
    exec = kind == K_MUL ? m->cpi_mul : m->cpi_mulh;
    hides = true;
    break;
  case CLASS_DIV:
    exec = m->cpi_div;
    hides = true;
    break;
  case CLASS_CSR:
    exec = m->cpi_csr;
    hides = true;
    break;
  case CLASS_FENCE: case CLASS_SYSTEM: case CLASS_PSEUDO:
    exec = m->cpi_system;
    break;
  }
  if (hides && !((pc + len) & 2)) {
    /* the aligned word arrives PREFETCH_READY + W cycles after the launch */
    uint32_t ready = PREFETCH_READY + w, busy = exec + stall;
    fetch = ready > busy ? ready - busy : 0;
    /* a shift by a register amount: what it can still hide beyond exec */
    o->overlap = (uint8_t)(ready > exec ? ready - exec : 0);
  }
  o->fetch_reads = (uint8_t)reads;
  o->fetch_stall = (uint16_t)fetch;
  o->stall_sig = stall ? stall_sig : 0;
  o->stall_cycles = stall;
  o->load_use = 0;
  o->cycles = exec + stall + fetch;
}

uint32_t timing_pico_jalr(timing *t, uint32_t target, uint32_t target_len) {
  uint32_t reads;
  uint32_t c = jump_fetch(t->model.wait_states, target, target_len, &reads);
  t->cycle += c;
  timing_count(t, SIG_CYCLE, c);
  timing_count(t, SIG_STALL_ICACHE, c);
  timing_count(t, SIG_MEM_READ, reads);
  return c;
}

int timing_pico_decodes(uint8_t kind, uint32_t csr, uint8_t rs1) {
  switch (kind) {
  case K_CSRRS:
    /* rdcycle[h], rdtime[h] (the cycle counter too), rdinstret[h] */
    return rs1 == 0 && (csr == 0xC00 || csr == 0xC01 || csr == 0xC02 || csr == 0xC80 || csr == 0xC81 ||
                        csr == 0xC82);
  case K_CSRRW: case K_CSRRC: case K_CSRRWI: case K_CSRRSI: case K_CSRRCI:
  case K_FENCE_I: case K_MRET: case K_WFI:
    return 0;
  default:
    return isa_infos[kind].cls != CLASS_AMO;
  }
}
