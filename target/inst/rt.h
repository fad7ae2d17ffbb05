/*
 * rt.h - the inside of the analysis runtime that `tally inst` links into an
 * instrumented program: the context the trap entry saves the program's
 * registers into, the per-site descriptors the generated sites.c fills
 * in, and the offsets rt_entry.S uses. Not for analysis code (that uses
 * <tally/inst.h>).
 */
#ifndef TALLY_INST_RT_H
#define TALLY_INST_RT_H

#define CTX_X 0         /* x0..x31, the program's registers */
#define CTX_BUSY 128    /* 1 while the handler runs: a trap then is a fault of it */
#define CTX_TMP 132
#define CTX_INHIBIT 136 /* the program's mcountinhibit */
#define CTX_NEWPC 140   /* where the program goes on */
#define CTX_SITE 160    /* the site being handled */
#define CTX_SAVE1 196   /* a trampoline's save slot for the program's t1 */
#define CTX_PMIE 200    /* the program's mstatus.MIE (8 or 0), for trampolines */
#define CTX_RET 204     /* where __tally_inst_jcall returns to */

#define CSR_MCOUNTINHIBIT 0x320

#ifndef __ASSEMBLER__
#include <stdint.h>

struct tally_inst_ctx {
  uint32_t x[32];
  uint32_t busy, tmp, inhibit, new_pc;
  uint32_t mstatus, mcause, mepc, mtval; /* as the trap left them */
  uint32_t site;
  volatile uint32_t in_access;                  /* a displaced load/store is being done */
  uint32_t fini_done;
  /* the program's view of the trap CSRs (its handler's, not ours) */
  uint32_t s_mtvec, s_mscratch, s_mepc, s_mcause, s_mtval, s_mpie;
  uint32_t save1, pmie, ret; /* CTX_SAVE1, CTX_PMIE, CTX_RET */
};

/* One instrumented instruction, decoded on the host by tally's decoder
 * (kinds are tally's isa_kind numbers, defined in the generated kinds.h). */
struct tally_inst_site {
  int32_t imm;
  uint16_t csr;
  uint8_t kind, len, rd, rs1, rs2;
  uint8_t ncalls;
  uint8_t nafter;   /* how many of them run after the instruction */
  uint32_t raw;
  uint32_t first_call;
};

#define TI_ARG_SITE 0
#define TI_ARG_PC 1
#define TI_ARG_EA 2
#define TI_ARG_TAKEN 3
#define TI_ARG_REG 4
#define TI_ARG_HPM 5
#define TI_ARG_CYCLE 6
#define TI_ARG_INSTRET 7

struct tally_inst_call {
  uint16_t fn;      /* index into __tally_inst_fns */
  uint8_t when;     /* 0 before, 1 after */
  uint8_t nargs;
  uint8_t arg_kind[6];
  uint8_t arg_val[6];
};

typedef void (*tally_inst_fn)();

extern const struct tally_inst_site __tally_inst_sites[];
extern const struct tally_inst_call __tally_inst_calls[];
extern const tally_inst_fn __tally_inst_fns[];
extern struct tally_inst_ctx __tally_inst_ctx;

/* tramps.S (generated): per jump site {trampoline address, the pc of the
 * jal that leads there}, sorted; the trampolines' address range. */
extern const uint32_t __tally_inst_tramp_at[][2];
extern const uint32_t __tally_inst_ntramps, __tally_inst_hole_lo, __tally_inst_hole_hi;
extern const uint32_t __tally_inst_fast_lo, __tally_inst_fast_n, __tally_inst_fast[];

uint32_t __tally_inst_semihost(uint32_t op, uint32_t arg);
#endif

#endif
