/*
 * micro_arch = vexriscv-min (vexmin.h): the rules, in retire cycles R.
 * W is the board's wait states at the address a beat goes to; a bus beat
 * takes W + 2 cycles (tests/cores/vexriscv's memory).
 *
 * - Fetch: one beat per instruction; a beat issued at cycle i serves an
 *   instruction retiring at i + W + 2 at the earliest. In sequence a beat
 *   follows the last one W + 2 later, and no earlier than 1 after the
 *   instruction two before retired (the fetch holds one instruction beside
 *   the one in decode), except right after a redirect.
 * - A jump, a taken branch or a trap redirects the fetch 3 cycles after it
 *   retired; the beats the fetch issued on the wrong path before then still
 *   run, and the target's beat follows the last of them.
 * - No bypass: a register can be read 5 cycles after its writer retired.
 * - In order, one retire per cycle at most; after an instruction that
 *   stalled in execute or memory, two.
 * - Shift (LightShifterPlugin): by n > 1, n - 1 more cycles in execute.
 * - Load and store: the data bus takes a command in execute (R - 2) when
 *   the last access's beat is over (W + 3 after its own execute); a load
 *   retires W + 3 after its execute at the earliest.
 */
#include "vexmin.h"

#include "../core/isa.h"
#include "timing.h"

static inline int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

void timing_vexmin_step(timing *t, uint32_t pc, uint8_t kind, uint8_t rd, uint8_t rs1, uint8_t rs2,
                        uint32_t shamt, uint32_t addr) {
  timing_vexmin *v = &t->vm;
  int64_t w = timing_wait_states(t, pc), beat = w + 2, r;
  if (!v->started) {
    v->started = 1;
    for (int i = 0; i < 33; i++)
      v->ready[i] = 0;
    v->issue = 6; /* the first beat after reset */
    r = v->issue + beat;
    v->r2 = v->r1 = r - 1;
    v->redirected = 1;
  } else {
    bool redirect = v->jumped || pc != v->next_pc;
    int64_t issue;
    if (redirect) {
      /* the wrong-path beats issued before the redirect, then the target's */
      int64_t at = v->r1 + 3, last = v->issue, ra = v->r2, rb = v->r1;
      for (;;) {
        int64_t next = max64(last + beat, ra + 1);
        if (next >= at)
          break;
        last = next;
        ra = rb;
        rb = max64(next + beat, rb + 1);
      }
      issue = max64(at, last + beat);
    } else {
      issue = v->issue + beat;
      if (!v->redirected)
        issue = max64(issue, v->r2 + 1);
    }
    v->issue = issue;
    v->redirected = redirect;
    r = max64(issue + beat, v->r1 + 1 + v->post);
    uint32_t reads = timing_reads(kind, rs1, rs2);
    while (reads) {
      int reg = __builtin_ctz(reads);
      reads &= reads - 1;
      r = max64(r, v->ready[reg]);
    }
  }
  v->post = 0;
  uint8_t cls = isa_infos[kind].cls;
  if (cls == CLASS_LOAD || cls == CLASS_STORE) {
    int64_t r0 = r, e = r - 2, dw = timing_wait_states(t, addr);
    if (e < v->dfree) {
      r += v->dfree - e;
      e = v->dfree;
    }
    v->dfree = e + dw + 3;
    v->dack = e + dw + 1;
    if (cls == CLASS_LOAD)
      r = max64(r, e + dw + 3);
    if (r > r0)
      v->post = 1;
  } else if (shamt > 1) {
    r += shamt - 1;
    v->post = 1;
  }
  if (rd && rd < 32)
    v->ready[rd] = r + 5;
  v->r2 = v->r1;
  v->r1 = r;
  v->jumped = cls == CLASS_JUMP;
  v->next_pc = pc + 4;
  t->cycle = (uint64_t)r;
}

void timing_vexmin_exit_store(timing *t) {
  if ((int64_t)t->cycle < t->vm.dack)
    t->cycle = (uint64_t)t->vm.dack;
}
