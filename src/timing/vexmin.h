/*
 * micro_arch = vexriscv-min: instruction times by the rules of LiteX's
 * cacheless VexRiscv (VexRiscv_Min.v of litex-hub/pythondata-cpu-vexriscv:
 * IBusSimplePlugin, DBusSimplePlugin, no bypass, LightShifterPlugin), found
 * by lining its per-instruction retire cycles up under Verilator
 * (rtl/cores/vexriscv, docs/core-models.md).
 *
 * Every instruction's time is dynamic (its static cycles are 0): the model
 * keeps the cycles the last instruction spent in each stage, when each
 * register's value can be read again (no bypass), when the fetch issued
 * its last bus beat (one beat per instruction, W + 2 cycles each on the
 * board's RAM) and when the data bus takes a new request (vexmin.c has the
 * rules). timing_vexmin_step is called as each instruction starts and sets
 * the cycle count to when that instruction retires.
 */
#ifndef TALLY_TIMING_VEXMIN_H
#define TALLY_TIMING_VEXMIN_H

#include <stdbool.h>
#include <stdint.h>

struct timing;

/* The model's state (timing.vm). */
typedef struct timing_vexmin {
  int64_t c;           /* the row the last fetch beat went out in */
  int64_t dv;          /* ... the last instruction was valid in decode in */
  int64_t e;           /* ... it entered execute in (its last row there: m - 1) */
  int64_t m, mend;     /* ... it entered memory in, its last row there */
  int64_t w;           /* ... it was written back in (it retired at the end) */
  int64_t dnext;       /* the first row the data bus takes a new request in */
  int64_t dack;        /* the row the last data access was acknowledged in */
  int64_t ready[33];   /* the first row each register can be read in execute */
  uint32_t next_pc;    /* the last instruction's successor in sequence */
  uint32_t seq_pc;     /* ... when it did not jump (the instruction there is fetched in
                          sequence), else 1 (no instruction's address; also before the first) */
  uint8_t jumped;      /* the last instruction was a jump (its target is a redirect) */
  uint8_t trap;        /* the last instruction traps or returns from one (vexmin.c) */
  uint8_t started;
} timing_vexmin;

/* What an instruction kind is to the model (vexmin_step.h's vexmin_facts): the
 * registers its encoding's rs1 and rs2 fields name that it reads, the
 * stage rows it holds (a load or store, a shift, a CSR instruction), and
 * whether it takes the general step (timing_vexmin_step: a trap, mret, an
 * illegal instruction, an op writing x0) instead of vexmin_step.h's. */
enum {
  VEXMIN_RS1 = 1, VEXMIN_RS2 = 2, VEXMIN_MEM = 4, VEXMIN_LOAD = 8,
  VEXMIN_SHIFT_IMM = 16, VEXMIN_SHIFT_REG = 32, VEXMIN_CSR = 64, VEXMIN_JUMP = 128,
  VEXMIN_GENERAL = 256
};

/* Sets the state before the first instruction (timing_new, for micro_arch vexriscv-min). */
void timing_vexmin_init(struct timing *t);

/* The instruction at pc (kind, rd as decoded; reads: the registers it
 * reads, a mask) starts: shamt is
 * a shift's amount (0 for other kinds), addr a load's or store's address;
 * wrong_word, when pc is a redirect's target: the instruction after the
 * jump in sequence (on the wrong path; 0 when there is none), x the
 * registers (timing_vexmin_wrong_held).
 * Sets t->cycle to its retire cycle: what the engine charged since the
 * last call (a load's or store's memory latency, a device's wait states)
 * is the model's own business here, and replaced. */
void timing_vexmin_step(struct timing *t, uint32_t pc, uint8_t kind, uint8_t rd, uint32_t reads,
                        uint32_t shamt, uint32_t addr, uint32_t wrong_word, const uint32_t *x);

/* A load (store false) or store to a device (the board's IO region): a
 * beat on the data bus, counted as mem.read or mem.write as the RTL's bus
 * shows it. */
void timing_vexmin_device(struct timing *t, bool store);
/* The instruction just stepped, a jump, traps as misaligned instead
 * (core without C): its trap redirects the fetch as an ecall's does. */
void timing_vexmin_jump_trap(struct timing *t);

/* The run ended with a store to the finisher: the cycle its bus beat is
 * acknowledged, as the RTL testbench counts. */
void timing_vexmin_exit_store(struct timing *t);

/* How the wrong-path instruction after a jump may hold its redirect
 * (timing_vexmin_redirect's *held_kinds): held in execute (a shift by more
 * than 1, a CSR instruction), or halted in decode by a register not yet
 * written back while a second wrong-path beat's response waits behind it. */
enum { VEXMIN_HELD_EXECUTE = 1, VEXMIN_HELD_DECODE = 2 };

/* The fetch beat's row of the instruction at pc when it is not the last
 * one's successor in sequence (a redirect) or the first: w is the wait
 * states of its beat. *held_row is -1, or the row it takes instead when
 * the wrong-path instruction after the jump holds it in one of the ways
 * of *held_kinds (timing_vexmin_wrong_held says whether it does; the
 * caller asks only when *held_row >= 0). */
int64_t timing_vexmin_redirect(struct timing *t, int64_t w, int64_t *held_row, unsigned *held_kinds);

/* Whether the wrong-path instruction word (x: the registers, for a shift's
 * amount) holds the redirect to held_row in one of the ways of kinds. */
bool timing_vexmin_wrong_held(const struct timing *t, uint32_t word, const uint32_t *x, int64_t held_row,
                              unsigned kinds);

/* The most one instruction can add to the cycle count at W wait states. */
static inline uint32_t timing_vexmin_bound(uint32_t w) { return 80 + 8 * w; }

#endif
