/*
 * The assembly text of the trampolines (tramps.S; the plan is
 * inst_tramp.c's): one 4-byte instruction per line, so that the address of
 * every instruction is known here; jumps out of a trampoline are encoded
 * with exact offsets, their reach checked (tgen.ok).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inst_tramp.h"

/* printf into the growing text (out of memory: g->ok false, inst_tramp_plan reports it). */
void inst_tg_out(tgen *g, const char *fmt, ...) {
  va_list ap;
  for (;;) {
    va_start(ap, fmt);
    int n = vsnprintf(g->buf ? g->buf + g->len : NULL, g->buf ? g->cap - g->len : 0, fmt, ap);
    va_end(ap);
    if (n < 0)
      return;
    if (g->buf && g->len + (size_t)n < g->cap) {
      g->len += (size_t)n;
      return;
    }
    size_t cap = g->cap ? g->cap * 2 : 65536;
    while (cap < g->len + (size_t)n + 1)
      cap *= 2;
    char *nb = realloc(g->buf, cap);
    if (!nb) { /* out of memory: the trampolines are dropped (inst_tramp_plan reports it) */
      g->ok = false;
      return;
    }
    g->buf = nb;
    g->cap = cap;
  }
}

uint32_t inst_tg_here(const tgen *g) { return g->base + g->off; }

bool inst_tg_in_reach(uint32_t from, uint32_t to) {
  int64_t d = (int64_t)to - (int64_t)from;
  return d >= -(int64_t)JAL_REACH && d < (int64_t)JAL_REACH;
}

static uint32_t enc_jal(unsigned rd, uint32_t from, uint32_t to) {
  uint32_t o = to - from;
  return ((o >> 20) & 1u) << 31 | ((o >> 1) & 0x3ffu) << 21 | ((o >> 11) & 1u) << 20 | ((o >> 12) & 0xffu) << 12 |
         (uint32_t)rd << 7 | 0x6fu;
}

/* jal x0 to an absolute address from the current one (reach checked). */
static void jump_to(tgen *g, uint32_t to) {
  if (!inst_tg_in_reach(inst_tg_here(g), to))
    g->ok = false;
  INSN(g, ".word 0x%08x /* j 0x%08x */", enc_jal(0, inst_tg_here(g), to), to);
}

/* reg = value, in two instructions whatever the value. */
static void li32(tgen *g, unsigned reg, uint32_t v) {
  uint32_t hi = (v + 0x800u) >> 12;
  int32_t lo = (int32_t)(v - (hi << 12));
  INSN(g, "lui x%u, 0x%x", reg, hi & 0xfffffu);
  INSN(g, "addi x%u, x%u, %d", reg, reg, lo);
}

/* The end of a trampoline: `exit` (a jal x0 or jalr x0 line, already
 * formatted) with the program's MIE back first when interrupts are possible.
 * All program registers are in place; mscratch holds the context. */
void inst_tg_exit(tgen *g, uint32_t to, const char *jalr_line) {
  if (g->irq) {
    unsigned l = g->label++;
    INSN(g, "csrrw t0, mscratch, t0");
    INSN(g, "lw t0, CTX_PMIE(t0)");
    INSN(g, "beqz t0, .Lmie%u", l);
    INSN(g, "lui t0, %%hi(__tally_inst_ctx)");
    INSN(g, "addi t0, t0, %%lo(__tally_inst_ctx)");
    INSN(g, "csrrw t0, mscratch, t0");
    INSN(g, "csrsi mstatus, 8");
    if (jalr_line)
      INSN(g, "%s", jalr_line);
    else
      jump_to(g, to);
    inst_tg_out(g, ".Lmie%u:\n", l);
    INSN(g, "lui t0, %%hi(__tally_inst_ctx)");
    INSN(g, "addi t0, t0, %%lo(__tally_inst_ctx)");
    INSN(g, "csrrw t0, mscratch, t0");
  }
  if (jalr_line)
    INSN(g, "%s", jalr_line);
  else
    jump_to(g, to);
}

/* In pairs, so that b ^ 1 is b's inverse. */
static const char *const branch_mn[] = {"beq", "bne", "blt", "bge", "bltu", "bgeu"};

int inst_branch_index(unsigned kind) {
  switch (kind) {
  case K_BEQ: return 0;
  case K_BNE: return 1;
  case K_BLT: return 2;
  case K_BGE: return 3;
  case K_BLTU: return 4;
  case K_BGEU: return 5;
  default: return -1;
  }
}

/* A 2-byte instruction as its 32-bit equivalent (the decoder gives the
 * expanded kind and operands); false for what has no plain form here. */
static bool emit_expanded(tgen *g, const isa_insn *d) {
  const char *mn = isa_infos[d->kind].mnemonic;
  switch (isa_infos[d->kind].fmt) {
  case FMT_R: INSN(g, "%s x%u, x%u, x%u", mn, d->rd, d->rs1, d->rs2); return true;
  case FMT_I: case FMT_SHIFT: INSN(g, "%s x%u, x%u, %d", mn, d->rd, d->rs1, d->imm); return true;
  case FMT_LOAD: INSN(g, "%s x%u, %d(x%u)", mn, d->rd, d->imm, d->rs1); return true;
  case FMT_STORE: INSN(g, "%s x%u, %d(x%u)", mn, d->rs2, d->imm, d->rs1); return true;
  case FMT_U:
    if (d->kind != K_LUI)
      return false;
    INSN(g, "lui x%u, 0x%x", d->rd, ((uint32_t)d->imm >> 12) & 0xfffffu);
    return true;
  default: return false;
  }
}

/* A non-control instruction, copied (4 bytes) or expanded (2 bytes). */
void inst_tg_plain(tgen *g, const isa_insn *d) {
  if (d->len == 4)
    INSN(g, ".word 0x%08x", d->raw);
  else if (!emit_expanded(g, d))
    g->ok = false;
}

/* The displaced instruction at pc (decoded d), then the way back; a
 * conditional branch's not-taken path runs e instead when given. */
void inst_tg_displaced(tgen *g, const isa_insn *d, uint32_t pc, edge *e) {
  uint32_t next = pc + d->len, target = pc + (uint32_t)d->imm;
  int b = inst_branch_index(d->kind);
  char line[64];
  if (b >= 0) {
    unsigned l = g->label++;
    uint32_t taken_ctr = g->br_ctr[0], fall_ctr = g->br_ctr[1];
    g->br_ctr[0] = g->br_ctr[1] = 0; /* for this branch only */
    /* Straight on for the way the core predicts (tally5: backward taken,
     * forward not): the trampoline's own branch is forward, so a backward
     * branch is re-created inverted, its taken way first. */
    bool back = target <= pc;
    INSN(g, "%s x%u, x%u, .Lway%u", branch_mn[back ? b ^ 1 : b], d->rs1, d->rs2, l);
    for (int way = 0; way < 2; way++) {
      if (way)
        inst_tg_out(g, ".Lway%u:\n", l);
      if (back == !way) { /* the taken way */
        if (taken_ctr)
          g->br_carry[0] = inst_tg_body(g, BODY_COUNT, 0, taken_ctr, g->br_dead[0][0], g->br_dead[0][1]);
        inst_tg_exit(g, target, NULL);
      } else {
        if (fall_ctr)
          g->br_carry[1] = inst_tg_body(g, BODY_COUNT, 0, fall_ctr, g->br_dead[1][0], g->br_dead[1][1]);
        if (e)
          e->emit(g, e);
        else
          inst_tg_exit(g, next, NULL);
      }
    }
    return;
  }
  switch (d->kind) {
  case K_AUIPC:
    if (d->rd)
      li32(g, d->rd, pc + (uint32_t)d->imm);
    inst_tg_exit(g, next, NULL);
    return;
  case K_JAL:
    if (d->rd)
      li32(g, d->rd, next);
    inst_tg_exit(g, target, NULL);
    return;
  case K_JALR:
    if (d->rd == 0) {
      snprintf(line, sizeof line, "jalr x0, %d(x%u)", d->imm, d->rs1);
      inst_tg_exit(g, 0, line);
    } else if (d->rd != d->rs1) {
      li32(g, d->rd, next);
      snprintf(line, sizeof line, "jalr x0, %d(x%u)", d->imm, d->rs1);
      inst_tg_exit(g, 0, line);
    } else { /* rd == rs1: no register is free for the target, so it goes through mepc
              * (the program sees only the runtime's shadow mepc) and an mret, which sets
              * MIE from MPIE: the program's MIE, 0 when it cannot enable interrupts */
      INSN(g, "addi x%u, x%u, %d", d->rd, d->rd, d->imm);
      INSN(g, "csrw mepc, x%u", d->rd);
      li32(g, d->rd, 0x1800u); /* MPP = machine */
      INSN(g, "csrs mstatus, x%u", d->rd);
      INSN(g, "addi x%u, x0, 0x80", d->rd);
      INSN(g, "csrc mstatus, x%u", d->rd);
      if (g->irq) { /* MPIE = CTX_PMIE (8 or 0) << 4 */
        INSN(g, "lui x%u, %%hi(__tally_inst_ctx+CTX_PMIE)", d->rd);
        INSN(g, "lw x%u, %%lo(__tally_inst_ctx+CTX_PMIE)(x%u)", d->rd, d->rd);
        INSN(g, "slli x%u, x%u, 4", d->rd, d->rd);
        INSN(g, "csrs mstatus, x%u", d->rd);
      }
      li32(g, d->rd, next);
      INSN(g, "mret");
    }
    return;
  default:
    inst_tg_plain(g, d);
    inst_tg_exit(g, next, NULL);
    return;
  }
}

bool inst_is_count_call(const inst_call *c) {
  return strcmp(c->func, "tally_bbcount_hit") == 0 && c->when == TALLY_INST_BEFORE && c->nargs == 1 &&
         c->args[0].kind == TALLY_INST_ARG_SITE;
}

bool inst_is_edge_call(const inst_call *c) {
  return strcmp(c->func, "tally_bbcount_edge") == 0 && c->when == TALLY_INST_BEFORE && c->nargs == 2 &&
         c->args[0].kind == TALLY_INST_ARG_SITE && c->args[1].kind == TALLY_INST_ARG_TAKEN;
}

/* bbcount's counts are inline (the counters inst_flow.c gave the site);
 * any other call goes through __tally_inst_jcall. */
enum body inst_body_of(const tally_inst *ti, const inst_site *s) {
  if (s->ncalls == 0)
    return BODY_NONE;
  if (!ti->tool_name || strcmp(ti->tool_name, "bbcount") != 0)
    return BODY_CALL;
  for (size_t c = 0; c < s->ncalls; c++)
    if (!inst_is_count_call(&s->calls[c]) && !inst_is_edge_call(&s->calls[c]))
      return BODY_CALL;
  return BODY_COUNT;
}

/* The analysis of site k (program registers in place, mscratch = context).
 * A count uses the registers dead_a, dead_v when both are given (nonzero:
 * registers the program writes before it reads them, so their values at
 * the site are dead: no save, no CSR swap), else t1 and t0 borrowed
 * through mscratch and the context. Returns what inst_tg_carry needs. */
tcount inst_tg_body(tgen *g, enum body body, size_t k, uint32_t ctr, unsigned dead_a, unsigned dead_v) {
  tcount c = {-1, 6, 5, 0};
  if (body == BODY_NONE || (body == BODY_COUNT && !ctr))
    return c;
  if (body == BODY_COUNT)
    k = ctr - 1, c.ctr = ctr - 1; /* the counter's offset below */
  unsigned l = g->label++;
  if (body == BODY_COUNT && dead_a && dead_v) {
    c = (tcount){(int)l, dead_a, dead_v, ctr - 1};
    INSN(g, "lui x%u, %%hi(__tally_inst_ctr+%zu)", dead_a, 8 * k);
    INSN(g, "lw x%u, %%lo(__tally_inst_ctr+%zu)(x%u)", dead_v, 8 * k, dead_a);
    INSN(g, "addi x%u, x%u, 1", dead_v, dead_v);
    INSN(g, "sw x%u, %%lo(__tally_inst_ctr+%zu)(x%u)", dead_v, 8 * k, dead_a);
    INSN(g, "beqz x%u, .Lcarry%u", dead_v, l);
    inst_tg_out(g, ".Lback%u:\n", l);
    return c;
  }
  INSN(g, "csrrw t0, mscratch, t0");
  INSN(g, "sw t1, CTX_SAVE1(t0)");
  if (body == BODY_COUNT) {
    c.label = (int)l;
    INSN(g, "lui t1, %%hi(__tally_inst_ctr+%zu)", 8 * k);
    INSN(g, "lw t0, %%lo(__tally_inst_ctr+%zu)(t1)", 8 * k);
    INSN(g, "addi t0, t0, 1");
    INSN(g, "sw t0, %%lo(__tally_inst_ctr+%zu)(t1)", 8 * k);
    INSN(g, "beqz t0, .Lcarry%u", l);
    inst_tg_out(g, ".Lback%u:\n", l);
    INSN(g, "lui t0, %%hi(__tally_inst_ctx)");
    INSN(g, "addi t0, t0, %%lo(__tally_inst_ctx)");
  } else {
    INSN(g, "addi t1, x0, -1");
    INSN(g, "csrrw t1, 0x320, t1");
    INSN(g, "sw t1, CTX_INHIBIT(t0)");
    li32(g, 6, (uint32_t)k);
    INSN(g, "sw t1, CTX_SITE(t0)");
    INSN(g, "lui t1, %%hi(__tally_inst_jcall)");
    INSN(g, "jalr t1, %%lo(__tally_inst_jcall)(t1)");
    INSN(g, "lw t1, CTX_INHIBIT(t0)");
    INSN(g, "csrw 0x320, t1");
  }
  INSN(g, "lw t1, CTX_SAVE1(t0)");
  INSN(g, "csrrw t0, mscratch, t0");
  return c;
}

/* A count's carry into the high word, out of the straight path. */
void inst_tg_carry(tgen *g, tcount c) {
  if (c.label < 0)
    return;
  size_t k = c.ctr;
  inst_tg_out(g, ".Lcarry%d:\n", c.label);
  INSN(g, "lw x%u, %%lo(__tally_inst_ctr+%zu)(x%u)", c.rv, 8 * k + 4, c.ra);
  INSN(g, "addi x%u, x%u, 1", c.rv, c.rv);
  INSN(g, "sw x%u, %%lo(__tally_inst_ctr+%zu)(x%u)", c.rv, 8 * k + 4, c.ra);
  inst_tg_out(g, "\tj .Lback%d\n", c.label);
  g->off += 4;
}

/* rt_entry.S's fast path: per halfword of the code sections, the
 * trampoline a trap there goes on to (0: the handler). */
void inst_tg_fast_table(const tally_inst *ti, tgen *g) {
  uint32_t lo = 0, hi = 0;
  size_t nfast = 0;
  for (size_t k = 0; k < ti->nsites; k++)
    if (!ti->sites[k].jump && ti->sites[k].tramp) {
      if (!nfast || ti->sites[k].pc < lo)
        lo = ti->sites[k].pc;
      if (!nfast || ti->sites[k].pc >= hi)
        hi = ti->sites[k].pc + 2;
      nfast++;
    }
  inst_tg_out(g, "\n\t.section .rodata.tally_inst_fast, \"a\"\n\t.balign 4\n\t.globl __tally_inst_fast_lo, "
         "__tally_inst_fast_n, __tally_inst_fast\n__tally_inst_fast_lo:\n\t.word 0x%08x\n__tally_inst_fast_n:\n"
         "\t.word %u\n__tally_inst_fast:\n", lo, nfast ? (hi - lo) / 2 : 0);
  uint32_t at = lo; /* the next halfword to emit */
  for (size_t k = 0; k < ti->nsites && nfast; k++) {
    const inst_site *s = &ti->sites[k];
    if (s->jump || !s->tramp)
      continue;
    if (s->pc > at)
      inst_tg_out(g, "\t.zero %u\n", (s->pc - at) / 2 * 4);
    inst_tg_out(g, "\t.word 0x%08x\n", s->tramp);
    at = s->pc + 2;
  }
  inst_tg_out(g, "\t.word 0\n");
}