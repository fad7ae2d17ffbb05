/*
 * The tactic of every site, and the plan of the jump tactic's trampolines
 * (their text: inst_tramp_emit.c).
 *
 * A jump site's 4-byte instruction becomes `jal x0, tramp` (a jal reaches
 * +-1 MiB, so the trampolines live in the hole target/tally.ld reserves
 * next to the code). The trampoline runs the analysis, then the displaced
 * instruction itself with all of the program's registers in place (copied
 * when its meaning does not depend on its address, re-created with the
 * original addresses when it does), then jumps back. It borrows t0 by
 * swapping it with mscratch (which holds the runtime's context) and saves
 * t1 in the context; no program register changes.
 *
 * Three bodies: none (no call: the displaced instruction and the jump
 * back), count (bbcount: the site's 64-bit count incremented inline) and
 * call (counters paused with mcountinhibit, then __tally_inst_jcall in
 * rt_entry.S saves every register and runs the site's calls).
 *
 * When the program may enable interrupts (it writes mstatus or mie), each
 * trampoline clears MIE first and sets it again from the runtime's shadow
 * of the program's MIE right before its final jump (rt.c maps a trap
 * taken inside a trampoline back to the program's pcs).
 *
 * Every instruction is emitted as one 4-byte line (no compression, no
 * relaxation), so the generator knows each one's address: jumps are
 * encoded here with exact offsets, and the text ends with an .org at its
 * planned end (the assembler stops if the trampolines came out longer).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inst_tramp.h"
/* Why instruction i cannot be displaced into a trampoline, or NULL. */
static const char *not_displaceable(const tally_inst *ti, size_t i) {
  const isa_insn *d = &ti->dec[i];
  if (ti->insns[i].flags & (TALLY_INST_SEMIHOST | TALLY_INST_NOSITE))
    return "a semihosting call: the runtime makes it (always a trap)";
  if (isa_infos[d->kind].cls == CLASS_CSR)
    return "a CSR instruction: re-created against the runtime's shadows (always a trap)";
  switch (d->kind) {
  case K_MRET: return "mret: re-created against the runtime's shadows (always a trap)";
  case K_ECALL: case K_EBREAK: return "ecall/ebreak: a trap by nature (always a trap)";
  case K_ILLEGAL: return "not a valid instruction (always a trap)";
  default: return NULL;
  }
}

/* A load, store or AMO: it may fault. A pair's second instruction has no
 * pc of its own to show a handler (the jal covers it), so a program with a
 * trap handler of its own gets pairs of instructions that cannot fault. */
static bool can_fault(const tally_inst *ti, size_t i) {
  unsigned cls = isa_infos[ti->dec[i].kind].cls;
  return cls == CLASS_LOAD || cls == CLASS_STORE || cls == CLASS_AMO;
}

/* How a site's jal is placed (host_of). */
enum hmode {
  H_SELF,      /* at the site's own 4-byte instruction */
  H_PAIR,      /* at a 2-byte site, over it and the next instruction of its block: both displaced */
  H_LATER,     /* at a later 4-byte instruction of the block (counting leaders only) */
  H_PRED,      /* at the 4-byte conditional branch that falls through into the site: the
                * site's analysis runs on the branch's not-taken path, the site stays */
  H_PRED_PAIR, /* the same from a 2-byte branch, the jal over it and the site: both displaced */
  H_FWD_PAIR,  /* a 2-byte conditional branch site, the jal over it and the instruction it falls
                * through to (displaced on the not-taken path, after that one's analysis when it
                * is a site of its own) */
};

typedef struct hctx {
  bool *taken;        /* per instruction: its address is in the program's data */
  bool *target;       /* per instruction: a direct branch or jump leads there */
  bool *claimed;      /* per instruction: a jal already covers it */
} hctx;

/* Reached only by falling through from the instruction before it: no
 * direct branch or jump targets it, it is no function entry or entry
 * point, the data hold no pointer to it, and the instruction before is a
 * conditional branch (so it is no return point either). */
static bool fall_through_only(const tally_inst *ti, const hctx *h, size_t i) {
  const tally_inst_insn *in = &ti->insns[i];
  if (i == 0 || h->taken[i] || (in->flags & (TALLY_INST_FUNC_ENTRY | TALLY_INST_LOOP)) || in->pc == ti->entry)
    return false;
  const tally_inst_insn *p = &ti->insns[i - 1];
  if (p->pc + p->len != in->pc || inst_branch_index(ti->dec[i - 1].kind) < 0)
    return false;
  return !h->target[i];
}

static bool usable(const tally_inst *ti, const hctx *h, size_t i) {
  return ti->site_of[i] < 0 && !h->claimed[i] && !h->taken[i] && !not_displaceable(ti, i);
}

static bool only_counts(const inst_site *s) {
  for (size_t c = 0; c < s->ncalls; c++)
    if (!inst_is_count_call(&s->calls[c]))
      return false;
  return true;
}

/* Site k (2 bytes) is a conditional branch, and the instruction after it
 * is reached only by falling through it: a jal may cover both when that
 * one can be displaced and, if it is a site, is one not placed yet that
 * only counts. */
static bool fwd_pair_ok(const tally_inst *ti, const hctx *h, size_t k) {
  size_t f = k + 1;
  if (inst_branch_index(ti->dec[k].kind) < 0 || f >= ti->ninsns || ti->insns[f].pc != ti->insns[k].pc + 2 ||
      h->claimed[f] || h->taken[f] || not_displaceable(ti, f) || (ti->has_handler && can_fault(ti, f)) ||
      !fall_through_only(ti, h, f))
    return false;
  long s2 = ti->site_of[f];
  return s2 < 0 || (!ti->sites[s2].tactic && only_counts(&ti->sites[s2]));
}

/* Where the jal for site s goes (the instruction index), and how; -1 when
 * nowhere. A 4-byte site: itself. A 2-byte site: over it and the next
 * instruction of its block (when that one is 4 bytes long its second half
 * stays as it was, never executed: the trampoline returns after it); or,
 * for a counting block leader, a later 4-byte instruction of its block (it
 * runs exactly as often as the leader); or, when the site is reached only
 * by falling through from a conditional branch, that branch (the not-taken
 * path runs the analysis, which then is exactly before the site). The
 * covered instructions may be no site, no address the data hold (a jump
 * table's target would land inside the jal), nothing the jal cannot
 * displace; a displaced instruction whose pc the jal covers cannot show a
 * handler its own pc, so in a program with a trap handler it must be one
 * that cannot fault. A rare site (tally_inst_set_rare) never goes on the
 * branch before it: that branch may run far more often (a loop's back
 * edge), and its trampoline with it; *refused is then that branch's index
 * (else -1), for the site's why. */
static long host_of(const tally_inst *ti, const inst_site *s, hctx *h, enum hmode *mode, long *refused) {
  const tally_inst_insn *in = &ti->insns[s->insn];
  size_t k = s->insn;
  *mode = H_SELF;
  *refused = -1;
  if (in->len == 4)
    return (long)k;
  bool self_ok = !not_displaceable(ti, k) && (!ti->has_handler || !can_fault(ti, k));
  size_t i = k + 1;
  if (self_ok && i < ti->ninsns && ti->insns[i].block == in->block && ti->insns[i].pc == in->pc + 2 &&
      usable(ti, h, i) && (!ti->has_handler || !can_fault(ti, i))) {
    *mode = H_PAIR;
    return (long)k;
  }
  if ((in->flags & TALLY_INST_LEADER) && only_counts(s)) {
    /* not past an address something may jump to, nor a semihosting call
     * (an exit there would leave the block uncounted) */
    for (; i < ti->ninsns && ti->insns[i].block == in->block && !h->taken[i] &&
           !(ti->insns[i].flags & (TALLY_INST_SEMIHOST | TALLY_INST_NOSITE));
         i++)
      if (ti->insns[i].len == 4 && usable(ti, h, i)) {
        *mode = H_LATER;
        return (long)i;
      }
  }
  if (k > 0 && !s->ctr[1] && !s->ctr[2] && usable(ti, h, k - 1) && fall_through_only(ti, h, k)) {
    if (s->rare && (ti->insns[k - 1].len == 4 || self_ok)) {
      *refused = (long)k - 1;
    } else if (ti->insns[k - 1].len == 4) {
      *mode = H_PRED;
      return (long)k - 1;
    } else if (self_ok) {
      *mode = H_PRED_PAIR;
      return (long)k - 1;
    }
  }
  if (self_ok && fwd_pair_ok(ti, h, k)) {
    *mode = H_FWD_PAIR;
    return (long)k;
  }
  return -1;
}

/* Per instruction: its address is a word of the program's loaded bytes (a
 * jump table or a code pointer may lead there) or formed by the code. */
static void mark_insn(const tally_inst *ti, bool *t, uint32_t addr) {
  long i = tally_inst_find_insn(ti, addr);
  if (i >= 0)
    t[i] = true;
}

/* Addresses the code forms with lui or auipc (+ addi, or as a jalr's base)
 * within a block: la of a label, a computed jump. */
static void code_addresses(const tally_inst *ti, bool *t) {
  uint32_t val[32];
  uint32_t known = 0; /* bit r: val[r] holds xr's value */
  for (size_t i = 0; i < ti->ninsns; i++) {
    const isa_insn *d = &ti->dec[i];
    if (ti->insns[i].flags & TALLY_INST_LEADER)
      known = 0;
    bool base = d->rs1 && (known >> d->rs1 & 1u);
    if (d->kind == K_LUI || d->kind == K_AUIPC) {
      val[d->rd] = (uint32_t)d->imm + (d->kind == K_AUIPC ? ti->insns[i].pc : 0);
      known |= 1u << d->rd;
      mark_insn(ti, t, val[d->rd]);
      continue;
    }
    if ((d->kind == K_ADDI || d->kind == K_JALR) && base)
      mark_insn(ti, t, val[d->rs1] + (uint32_t)d->imm);
    if (d->kind == K_ADDI && base) {
      val[d->rd] = val[d->rs1] + (uint32_t)d->imm;
      known |= 1u << d->rd;
    } else if (d->rd && isa_infos[d->kind].fmt != FMT_STORE && isa_infos[d->kind].fmt != FMT_B) {
      known &= ~(1u << d->rd);
    }
  }
}

bool *inst_addresses_taken(const tally_inst *ti) {
  bool *t = calloc(ti->ninsns ? ti->ninsns : 1, sizeof *t);
  if (!t)
    return NULL;
  code_addresses(ti, t);
  for (size_t g = 0; g < ti->nsegs; g++) {
    const inst_seg *sg = &ti->segs[g];
    for (uint32_t o = (4 - (sg->vaddr & 3)) & 3; o + 4 <= sg->filesz; o += 4) {
      const uint8_t *p = ti->file + sg->offset + o;
      uint32_t w = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
      long i = tally_inst_find_insn(ti, w);
      if (i >= 0)
        t[i] = true;
    }
  }
  return t;
}

static void set_trap(inst_site *s, const char *why) {
  s->jump = false;
  s->tactic = "trap";
  s->why = why;
}

/* Whether any instruction writes one of the CSRs csr_a, csr_b (the
 * program may enable interrupts: mstatus, mie; it has a trap handler: mtvec). */
static bool writes_csr(const tally_inst *ti, unsigned csr_a, unsigned csr_b) {
  for (size_t i = 0; i < ti->ninsns; i++) {
    const isa_insn *d = &ti->dec[i];
    if (isa_infos[d->kind].cls != CLASS_CSR || (d->csr != csr_a && d->csr != csr_b))
      continue;
    bool set_or_clear = d->kind == K_CSRRS || d->kind == K_CSRRC || d->kind == K_CSRRSI || d->kind == K_CSRRCI;
    if (!set_or_clear || d->rs1 != 0)
      return true;
  }
  return false;
}

/* Registers instruction i reads, as a bit set (all of them for what hands
 * registers to the environment or a handler: ecall, ebreak, semihosting). */
static uint32_t reads_of(const tally_inst *ti, size_t i) {
  const isa_insn *d = &ti->dec[i];
  if ((ti->insns[i].flags & (TALLY_INST_SEMIHOST | TALLY_INST_NOSITE)) || d->kind == K_ECALL ||
      d->kind == K_EBREAK || d->kind == K_MRET || d->kind == K_ILLEGAL)
    return ~0u;
  switch (isa_infos[d->kind].fmt) {
  case FMT_R: case FMT_STORE: case FMT_B: case FMT_AMO: return 1u << d->rs1 | 1u << d->rs2;
  case FMT_I: case FMT_SHIFT: case FMT_LOAD: case FMT_JALR: case FMT_CSR: case FMT_LR: return 1u << d->rs1;
  default: return 0;
  }
}

static uint32_t writes_of(const tally_inst *ti, size_t i) {
  const isa_insn *d = &ti->dec[i];
  switch (isa_infos[d->kind].fmt) {
  case FMT_STORE: case FMT_B: case FMT_NONE: return 0;
  default: return 1u << d->rd;
  }
}

/* Two registers whose values at instruction i are dead: from i on, its
 * block writes them before reading them. 0, 0 when there are not two, or
 * when the program has a trap handler of its own (a fault before the write
 * would show it the count in them). Never sp, gp, tp or x0. */
static void dead_regs(const tally_inst *ti, size_t i, unsigned *a, unsigned *v) {
  *a = *v = 0;
  if (ti->has_handler)
    return;
  uint32_t live = 1u | 1u << 2 | 1u << 3 | 1u << 4, dead = 0;
  for (size_t j = i; j < ti->ninsns && ti->insns[j].block == ti->insns[i].block; j++) {
    live |= reads_of(ti, j) & ~dead;
    dead |= writes_of(ti, j) & ~live;
  }
  for (unsigned r = 1; r < 32; r++)
    if (dead >> r & 1u) {
      if (!*a)
        *a = r;
      else if (!*v) {
        *v = r;
        return;
      }
    }
  *a = *v = 0;
}

/* The not-taken path of a hosting branch: the hosted site's analysis,
 * then its own instruction (displaced) or the way back to it. */
static void emit_edge(tgen *g, const edge *e) {
  const tally_inst *ti = e->ti;
  if (e->site != NO_SITE)
    ((edge *)e)->carry = inst_tg_body(g, inst_body_of(ti, &ti->sites[e->site]), e->site, ti->sites[e->site].ctr[0],
                                      e->dead_a, e->dead_v);
  if (e->displace >= 0)
    inst_tg_displaced(g, &ti->dec[e->displace], ti->insns[e->displace].pc, NULL);
  else
    inst_tg_exit(g, ti->sites[e->site].pc, NULL);
}

/* The site that a trampoline ending in the conditional branch at index b
 * may count on its not-taken path: the next instruction, when it is a
 * site not placed yet that only counts (or has no call) and that only
 * that branch leads to. -1 when none. */
static long fall_through_site(const tally_inst *ti, const hctx *h, size_t b, size_t after_site) {
  size_t f = b + 1;
  if (f >= ti->ninsns || inst_branch_index(ti->dec[b].kind) < 0 || ti->site_of[f] < 0 || h->claimed[f])
    return -1;
  long k2 = ti->site_of[f];
  const inst_site *s2 = &ti->sites[k2];
  if ((size_t)k2 <= after_site || s2->tactic || !only_counts(s2) || not_displaceable(ti, f) ||
      !fall_through_only(ti, h, f)) /* its instruction then runs in place: one the runtime needs not re-create */
    return -1;
  return k2;
}

/* bbcount's counts on the ways of the branch at host (site s's own
 * instruction), with the registers dead at each way's destination. */
static void branch_counts(const tally_inst *ti, tgen *g, const inst_site *s, size_t host) {
  const isa_insn *d = &ti->dec[host];
  if (inst_branch_index(d->kind) < 0 || (!s->ctr[1] && !s->ctr[2]))
    return;
  long to[2] = {tally_inst_find_insn(ti, ti->insns[host].pc + (uint32_t)d->imm), (long)host + 1};
  for (int w = 0; w < 2; w++) {
    g->br_ctr[w] = s->ctr[1 + w];
    g->br_dead[w][0] = g->br_dead[w][1] = 0;
    if (to[w] >= 0 && (size_t)to[w] < ti->ninsns)
      dead_regs(ti, (size_t)to[w], &g->br_dead[w][0], &g->br_dead[w][1]);
  }
}

/* One trampoline for site k at the generator's position; false (and the
 * generator rolled back) when a jump would not reach or the hole is full. */
static bool emit_tramp_at(tally_inst *ti, tgen *g, hctx *h, size_t k, size_t host, enum hmode mode, bool via_trap,
                          long *merged, const char **why) {
  inst_site *s = &ti->sites[k];
  size_t len0 = g->len;
  uint32_t off0 = g->off;
  unsigned label0 = g->label;
  g->mark_len = len0, g->mark_label = label0;
  uint32_t pc = ti->insns[host].pc, start = inst_tg_here(g);
  enum body body = inst_body_of(ti, s);
  g->ok = true;
  g->mark_text_end = g->text_end;
  if (g->off > g->text_end) /* padding (.skip: an .org per trampoline trips the assembler's relaxation) */
    inst_tg_out(g, "\t.skip %u\n", g->off - g->text_end);
  inst_tg_out(g, "__tally_inst_tramp_%zu:\n", k);
  if (g->irq)
    INSN(g, "csrci mstatus, 8");
  tcount carry = {-1, 0, 0, 0};
  g->br_ctr[0] = g->br_ctr[1] = 0;
  g->br_carry[0] = g->br_carry[1] = carry;
  unsigned da, dv;
  edge e = {emit_edge, ti, k, mode == H_PRED_PAIR ? (long)s->insn : -1, {-1, 0, 0, 0}, 0, 0};
  if (mode == H_PRED || mode == H_PRED_PAIR)
    dead_regs(ti, s->insn, &e.dead_a, &e.dead_v);
  size_t last = mode == H_PAIR ? host + 1 : host; /* the last displaced instruction */
  long k2 = mode == H_PRED || mode == H_PRED_PAIR ? -1 : fall_through_site(ti, h, last, k);
  edge e2 = {emit_edge, ti, (size_t)k2, -1, {-1, 0, 0, 0}, 0, 0};
  if (mode == H_FWD_PAIR) { /* the next instruction, displaced on the not-taken path */
    k2 = ti->site_of[host + 1];
    e2 = (edge){emit_edge, ti, k2 >= 0 ? (size_t)k2 : NO_SITE, (long)host + 1, {-1, 0, 0, 0}, 0, 0};
  }
  if (k2 >= 0)
    dead_regs(ti, ti->sites[k2].insn, &e2.dead_a, &e2.dead_v);
  switch (mode) {
  case H_SELF: case H_LATER: case H_PAIR:
    dead_regs(ti, host, &da, &dv);
    carry = inst_tg_body(g, body, k, s->ctr[0], da, dv);
    if (mode == H_SELF)
      branch_counts(ti, g, s, host);
    if (mode == H_PAIR) { /* the site (it does not end its block), then the next one */
      inst_tg_plain(g, &ti->dec[host]);
      inst_tg_displaced(g, &ti->dec[host + 1], pc + 2, k2 >= 0 ? &e2 : NULL);
    } else {
      inst_tg_displaced(g, &ti->dec[host], pc, k2 >= 0 ? &e2 : NULL);
    }
    break;
  case H_PRED: case H_PRED_PAIR:
    inst_tg_displaced(g, &ti->dec[host], pc, &e);
    carry = e.carry;
    break;
  case H_FWD_PAIR:
    dead_regs(ti, host, &da, &dv);
    carry = inst_tg_body(g, body, k, s->ctr[0], da, dv);
    branch_counts(ti, g, s, host);
    inst_tg_displaced(g, &ti->dec[host], pc, &e2);
    break;
  }
  g->hot_end = g->off; /* what runs on every visit ends here: the carries are cold */
  inst_tg_carry(g, carry);
  if (k2 >= 0)
    inst_tg_carry(g, e2.carry);
  for (int w = 0; w < 2; w++)
    inst_tg_carry(g, g->br_carry[w]);
  *merged = k2;
  bool fits = g->base + (uint64_t)g->off <= ti->hole_hi;
  if (g->ok && fits && (via_trap || inst_tg_in_reach(pc, start))) {
    g->text_end = g->off;
    s->jump = !via_trap;
    s->host_pc = pc;
    s->host = host;
    s->tramp = start;
    return true;
  }
  *why = !fits ? "the trampoline hole is full" : "the trampoline or its way back would be out of a jal's reach";
  g->len = len0;
  g->off = off0;
  g->label = label0;
  if (g->buf)
    g->buf[g->len] = 0;
  return false;
}

/* The I-cache line size the trampolines are laid out for (tally5's, and
 * that of most small cores). */
#define LINE 32u

/* emit_tramp_at, moved to the next line boundary when what a visit runs
 * fits in one line but would straddle two at the current position: one
 * I-cache line per visit instead of two. */
static bool emit_tramp(tally_inst *ti, tgen *g, hctx *h, size_t k, size_t host, enum hmode mode, bool via_trap,
                       long *merged, const char **why) {
  uint32_t off0 = g->off;
  if (!emit_tramp_at(ti, g, h, k, host, mode, via_trap, merged, why))
    return false;
  uint32_t start = (ti->sites[k].tramp - g->base), hot = g->hot_end - start;
  if (hot > LINE || start % LINE + hot <= LINE)
    return true;
  uint32_t aligned = (start + LINE - 1) & ~(LINE - 1);
  g->off = off0; /* emit_tramp_at rolled nothing back: do it, and again at the boundary */
  g->len = g->mark_len;
  g->label = g->mark_label;
  g->text_end = g->mark_text_end;
  if (g->buf)
    g->buf[g->len] = 0;
  g->off = aligned;
  if (emit_tramp_at(ti, g, h, k, host, mode, via_trap, merged, why))
    return true;
  g->off = off0; /* no room at the boundary: as it was */
  return emit_tramp_at(ti, g, h, k, host, mode, via_trap, merged, why);
}

/* The instructions a jal at host covers (claimed, so that no other site
 * uses them). */
static void claim(const tally_inst *ti, hctx *h, size_t host) {
  uint32_t end = ti->insns[host].pc + 4;
  for (size_t i = host; i < ti->ninsns && ti->insns[i].pc < end; i++)
    h->claimed[i] = true;
}

static bool *direct_targets(const tally_inst *ti) {
  bool *t = calloc(ti->ninsns ? ti->ninsns : 1, sizeof *t);
  if (!t)
    return NULL;
  for (size_t j = 0; j < ti->ninsns; j++) {
    const isa_insn *d = &ti->dec[j];
    if (isa_infos[d->kind].cls == CLASS_BRANCH || d->kind == K_JAL) {
      long i = tally_inst_find_insn(ti, ti->insns[j].pc + (uint32_t)d->imm);
      if (i >= 0)
        t[i] = true;
    }
  }
  return t;
}

/* Site merged is counted on the not-taken path of site k's trampoline. */
static void note_merged(tally_inst *ti, size_t k, long merged) {
  if (merged < 0)
    return;
  const inst_site *s = &ti->sites[k];
  inst_site *s2 = &ti->sites[merged];
  s2->jump = true;
  s2->tactic = "jump";
  s2->host_pc = s->host_pc;
  s2->host = s->host;
  s2->tramp = 0; /* no trampoline of its own: its bytes stay */
  snprintf(s2->why_buf, sizeof s2->why_buf,
           "counted on the not-taken path of the branch before it, in the trampoline at 0x%08x", s->tramp);
  s2->why = s2->why_buf;
}

/* A trap site whose instruction a trampoline can carry gets one anyway:
 * its (c.)ebreak stays, and the runtime's trap entry sends it there
 * straight away (rt_entry.S, the fast path: a table from pc to
 * trampoline), instead of saving every register and calling the
 * handler. Not for calls after the instruction. */
static bool trap_tramp(tally_inst *ti, tgen *g, hctx *h, size_t k, long *merged) {
  inst_site *s = &ti->sites[k];
  const char *why;
  for (size_t c = 0; c < s->ncalls; c++)
    if (s->calls[c].when == TALLY_INST_AFTER)
      return false;
  if (not_displaceable(ti, s->insn) || !emit_tramp(ti, g, h, k, s->insn, H_SELF, true, merged, &why))
    return false;
  s->host_pc = s->pc;
  char why0[sizeof s->why_buf]; /* s->why may be s->why_buf itself */
  snprintf(why0, sizeof why0, "%s", s->why);
  snprintf(s->why_buf, sizeof s->why_buf, "%s: %.120s; the trap entry goes on to its trampoline",
           ti->insns[s->insn].len == 2 ? "c.ebreak" : "ebreak", why0);
  s->why = s->why_buf;
  return true;
}

/* The tactic of every site (sites sorted by pc): jump where a trampoline
 * can do it and the tactic allows, trap elsewhere, each with why. */
int inst_tramp_plan(tally_inst *ti, tally_error *err) {
  ti->irq_possible = writes_csr(ti, 0x300, 0x304);
  ti->has_handler = writes_csr(ti, 0x305, 0x305);
  tgen g = {.base = ti->hole_lo, .irq = ti->irq_possible};
  hctx h = {inst_addresses_taken(ti), direct_targets(ti), calloc(ti->ninsns ? ti->ninsns : 1, sizeof(bool))};
  if (!h.taken || !h.target || !h.claimed) {
    free(h.taken), free(h.target), free(h.claimed);
    return inst_fail(err, TALLY_INST_ETOOLCHAIN, "out of memory");
  }
  inst_tg_out(&g, "/* Generated by tally inst: the trampolines of the jump tactic (src/inst/inst_tramp.c). */\n"
          "#include \"rt.h\"\n\t.section .tally_inst.tramp, \"ax\", @progbits\n\t.option norvc\n"
          "\t.option norelax\n\t.globl __tally_inst_tramps\n__tally_inst_tramps:\n");
  bool try_jump = ti->tactic != TALLY_INST_TACTIC_TRAP && ti->hole_lo;
  for (size_t k = 0; k < ti->nsites; k++)
    ti->sites[k].tactic = NULL, ti->sites[k].jump = false, ti->sites[k].tramp = 0;
  for (size_t k = 0; k < ti->nsites; k++) {
    inst_site *s = &ti->sites[k];
    long merged = -1;
    if (s->tactic) /* counted in an earlier site's trampoline */
      continue;
    const char *why = ti->tactic == TALLY_INST_TACTIC_TRAP ? "asked for (--tactic trap)" : ti->no_hole_why;
    bool jump_kind = true; /* a site a jump could replace */
    if (try_jump) {
      size_t after = 0;
      for (size_t c = 0; c < s->ncalls; c++)
        after += s->calls[c].when == TALLY_INST_AFTER;
      enum hmode mode;
      long refused;
      long host = host_of(ti, s, &h, &mode, &refused);
      const char *nd = not_displaceable(ti, s->insn);
      if (!nd && ti->insns[s->insn].len == 2 && host < 0 && refused >= 0) {
        snprintf(s->why_buf, sizeof s->why_buf,
                 "rare site: not on the branch at 0x%08x before it, which may run more often",
                 ti->insns[refused].pc);
        nd = s->why_buf;
      } else if (!nd && ti->insns[s->insn].len == 2 && host < 0) {
        nd = "2-byte, and its block has no instruction to carry the jal (a c.j reaches no trampoline)";
      }
      if (after) {
        why = "calls after the instruction run in the trap handler";
        jump_kind = false;
      } else if (nd && (ti->insns[s->insn].len == 4 || host < 0)) {
        why = nd;
        jump_kind = false;
      } else if (host >= 0 && emit_tramp(ti, &g, &h, k, (size_t)host, mode, false, &merged, &why)) {
        claim(ti, &h, (size_t)host);
        note_merged(ti, k, merged);
        s->tactic = "jump";
        static const char *const how[] = {
            [H_SELF] = "", [H_PAIR] = "over it and the next instruction",
            [H_LATER] = "a later 4-byte instruction of its block",
            [H_PRED] = "the branch that falls through into it (counted on the not-taken path)",
            [H_PRED_PAIR] = "over the branch that falls through into it, and it",
            [H_FWD_PAIR] = "over it and the instruction it falls through to"};
        if (mode == H_SELF && (s->ctr[1] || s->ctr[2])) {
          s->why = s->ctr[1] && s->ctr[2] ? "jal to a trampoline (bbcount counts both ways)"
                   : s->ctr[1]           ? "jal to a trampoline (bbcount counts the taken way)"
                                         : "jal to a trampoline (bbcount counts the fall-through way)";
        } else if (mode == H_SELF) {
          s->why = "jal to a trampoline";
        } else {
          snprintf(s->why_buf, sizeof s->why_buf, "jal at 0x%08x, %s", s->host_pc, how[mode]);
          s->why = s->why_buf;
        }
        continue;
      }
    }
    if (ti->tactic == TALLY_INST_TACTIC_JUMP && jump_kind) {
      char w[160];
      free(g.buf);
      free(h.taken), free(h.target), free(h.claimed);
      return inst_fail(err, TALLY_INST_ECANNOT, "%s: no trampoline is within reach of %s: %s; use --tactic trap or auto",
                       ti->path, tally_inst_where(ti, s->pc, w, sizeof w), why ? why : "?");
    }
    set_trap(s, why);
    if (try_jump && trap_tramp(ti, &g, &h, k, &merged))
      note_merged(ti, k, merged);
  }
  free(h.taken), free(h.target), free(h.claimed);
  /* the assembler's check of the plan: the text ends exactly where planned */
  inst_tg_out(&g, "\t.org 0x%x\n", g.text_end);
  inst_tg_out(&g, "\t.globl __tally_inst_tramps_end\n__tally_inst_tramps_end:\n");
  inst_tg_out(&g, "\n\t.section .rodata.tally_inst_tramp, \"a\"\n\t.balign 4\n\t.globl __tally_inst_tramp_at\n"
          "__tally_inst_tramp_at:\n");
  size_t njump = 0;
  for (size_t k = 0; k < ti->nsites; k++)
    if (ti->sites[k].tramp) {
      inst_tg_out(&g, "\t.word 0x%08x, 0x%08x\n", ti->sites[k].tramp, ti->sites[k].host_pc);
      njump++;
    }
  inst_tg_out(&g, "\t.globl __tally_inst_ntramps\n__tally_inst_ntramps:\n\t.word %zu\n", njump);
  inst_tg_fast_table(ti, &g);
  inst_tg_out(&g, "\t.globl __tally_inst_hole_lo, __tally_inst_hole_hi\n__tally_inst_hole_lo:\n\t.word 0x%08x\n"
          "__tally_inst_hole_hi:\n\t.word 0x%08x\n", ti->hole_lo, ti->hole_lo + g.off);
  if (!g.buf)
    return inst_fail(err, TALLY_INST_ETOOLCHAIN, "out of memory");
  free(ti->tramp_asm);
  ti->tramp_asm = g.buf;
  ti->tramp_size = g.off;
  return 0;
}
