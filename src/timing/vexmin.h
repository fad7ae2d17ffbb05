/*
 * micro_arch = vexriscv-min: instruction times by the rules of LiteX's
 * cacheless VexRiscv (VexRiscv_Min.v of litex-hub/pythondata-cpu-vexriscv:
 * IBusSimplePlugin, DBusSimplePlugin, no bypass, LightShifterPlugin), found
 * by lining its per-instruction retire cycles up under Verilator
 * (rtl/cores/vexriscv, docs/core-models.md).
 *
 * Every instruction's time is dynamic (its static cycles are 0): the model
 * keeps, in retire cycles, when the last two instructions retired, when
 * each register's value can be read again (no bypass: 5 cycles after its
 * writer retired), when the fetch issued its last bus beat (one beat per
 * instruction, W + 2 cycles each on the board's RAM) and when the data bus
 * takes a new command. timing_vexmin_step is called as each instruction
 * starts and sets the cycle count to when that instruction retires.
 */
#ifndef TALLY_TIMING_VEXMIN_H
#define TALLY_TIMING_VEXMIN_H

#include <stdint.h>

struct timing;

/* The model's state (timing.vm). */
typedef struct timing_vexmin {
  int64_t r1, r2;      /* retire cycles of the last two instructions */
  int64_t issue;       /* when the fetch issued the last beat */
  int64_t dfree;       /* the first execute cycle the data bus takes a command in */
  int64_t dack;        /* when the last data access was acknowledged */
  int64_t ready[33];   /* when each register can be read (x0, the sink: never waits) */
  uint32_t next_pc;    /* the last instruction's successor in sequence */
  uint8_t jumped;      /* the last instruction was a jump (its target is a redirect) */
  uint8_t post;        /* the last instruction stalled in execute or memory */
  uint8_t redirected;  /* the last instruction was a redirect's target */
  uint8_t started;
} timing_vexmin;

/* The instruction at pc (kind, rd, rs1, rs2, as decoded) starts: shamt is
 * a shift's amount (0 for other kinds), addr a load's or store's address.
 * Sets t->cycle to its retire cycle. */
void timing_vexmin_step(struct timing *t, uint32_t pc, uint8_t kind, uint8_t rd, uint8_t rs1, uint8_t rs2,
                        uint32_t shamt, uint32_t addr);

/* The run ended with a store to the finisher: the cycle its bus beat is
 * acknowledged, as the RTL testbench counts. */
void timing_vexmin_exit_store(struct timing *t);

/* The most one instruction can add to the cycle count at W wait states. */
static inline uint32_t timing_vexmin_bound(uint32_t w) { return 48 + 4 * (w + 3); }

#endif
