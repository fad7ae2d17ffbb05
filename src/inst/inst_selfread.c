/*
 * Code that reads its own instructions through a pointer formed elsewhere:
 * a data-flow check, warned about (inst_sites.c refuses the plain case, a
 * load whose address lui/auipc form in the same block).
 *
 * Per function, forward over its basic blocks to a fixed point, each
 * register is tracked as a known value (lui, auipc, addi, add of known
 * values) and as a *code pointer*: an address inside a function that has
 * instructions, formed by lui/auipc (+addi) anywhere in the function (la of
 * a function) or loaded from a data word of the input that holds one (a
 * table of function pointers in .rodata or .data); add/addi/mv carry it
 * (an index added to it). A load whose base register
 *  - has a known value that falls on a replaced instruction, or
 *  - is a code pointer into a function that holds a site
 * reads what the instrumentation replaced: a warning. One level across
 * calls: each function's summary says which argument registers it loads
 * through (a0..a7 at entry, carried as above); a direct call passing a code
 * pointer in such a register is a warning at the call.
 *
 * Not followed (docs/tally-inst.md, "Known limits"): a pointer stored to
 * memory and loaded back (other than a word of the input file), passed
 * further than one call, returned, or computed other than by
 * lui/auipc/addi/add; a read through an indirect call.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inst_impl.h"

enum { NARG = 8, ARG_TAG_MAX = NARG }; /* tags 1..8: "the value a0..a7 had at entry" */

typedef struct rstate {
  uint32_t val;    /* when known */
  uint32_t tag;    /* 0; 1..8: argument register at entry; else: the code address it points to */
  uint32_t origin; /* where the code pointer was formed (pc) */
  uint8_t known;
} rstate;

typedef struct bstate {
  rstate r[32];
  bool seen;
} bstate;

typedef struct sctx {
  tally_inst *ti;
  uint8_t *reads_arg; /* per function: bit k, it loads through a0+k's entry value */
  bool report;        /* second pass: warn */
} sctx;

static bool in_code_func(const tally_inst *ti, uint32_t a, int *fout) {
  const sym_entry *s = sym_table_lookup(&ti->syms, a);
  if (!s || inst_obj_at(ti, a))
    return false;
  int f = (int)(s - ti->syms.v);
  if (f < 0 || (size_t)f >= ti->nfuncs || ti->funcs[f].nblocks == 0)
    return false;
  if (fout)
    *fout = f;
  return true;
}

static uint32_t code_tag(const tally_inst *ti, uint32_t a) {
  return a > ARG_TAG_MAX && in_code_func(ti, a, NULL) ? a : 0;
}

/* The first site in [lo, hi), or -1 (sites are sorted by pc here). */
static long site_in(const tally_inst *ti, uint32_t lo, uint32_t hi) {
  bool in_code = false;
  for (size_t c = 0; c < ti->ncode && !in_code; c++)
    in_code = lo < ti->code[c].hi && hi > ti->code[c].lo;
  if (!in_code)
    return -1; /* a data address: the common case of a known base */
  size_t a = 0, b = ti->nsites;
  while (a < b) { /* the first site whose end is past lo */
    size_t mid = a + (b - a) / 2;
    if (ti->sites[mid].pc + 4 <= lo)
      a = mid + 1;
    else
      b = mid;
  }
  for (size_t s = a; s < ti->nsites && ti->sites[s].pc < hi; s++)
    if (ti->sites[s].pc + ti->insns[ti->sites[s].insn].len > lo)
      return (long)s;
  for (size_t s = 0; s < ti->nsites; s++) /* a jal placed on another instruction than its site */
    if (ti->sites[s].jump && ti->sites[s].host_pc != ti->sites[s].pc && ti->sites[s].host_pc < hi &&
        ti->sites[s].host_pc + 4 > lo)
      return (long)s;
  return -1;
}

static void warn(tally_inst *ti, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(tally_inst *ti, const char *fmt, ...) {
  ti->nwarnings_total++;
  if (ti->nwarnings == INST_MAX_WARNINGS)
    return;
  va_list ap;
  va_start(ap, fmt);
  char *m = malloc(512);
  if (m) {
    vsnprintf(m, 512, fmt, ap);
    ti->warnings[ti->nwarnings++] = m;
  }
  va_end(ap);
}

static bool file_word(const tally_inst *ti, uint32_t a, uint32_t *w) {
  for (size_t g = 0; g < ti->nsegs; g++) {
    const inst_seg *s = &ti->segs[g];
    if (a >= s->vaddr && a + 4 <= s->vaddr + s->filesz && a + 4 > a) {
      const uint8_t *p = ti->file + s->offset + (a - s->vaddr);
      *w = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
      return true;
    }
  }
  return false;
}

/* A load at instruction i through base register state b: warn when it
 * reads replaced code. */
static void check_load(sctx *c, size_t i, const rstate *b, int32_t imm) {
  tally_inst *ti = c->ti;
  char w1[160], w2[160], w3[160], w4[160];
  if (b->known) {
    uint32_t ea = b->val + (uint32_t)imm;
    long s = site_in(ti, ea, ea + 4);
    if (s >= 0 && c->report)
      warn(ti, "the instruction at %s reads code at 0x%08x (%s), which is replaced%s%s: it will read the "
               "replacement (a jal or a trap), not the program's bytes",
           tally_inst_where(ti, ti->insns[i].pc, w1, sizeof w1), ea,
           tally_inst_where(ti, ti->sites[s].pc, w2, sizeof w2), b->origin ? "; the address is formed at " : "",
           b->origin ? tally_inst_where(ti, b->origin, w3, sizeof w3) : "");
    return;
  }
  if (b->tag > ARG_TAG_MAX) {
    int f;
    if (!in_code_func(ti, b->tag, &f))
      return;
    long s = site_in(ti, ti->funcs[f].lo, ti->funcs[f].hi);
    if (s >= 0 && c->report)
      warn(ti, "the instruction at %s reads code through a pointer to %s formed at %s, and %s holds replaced "
               "instructions (first %s): it will read the replacements, not the program's bytes",
           tally_inst_where(ti, ti->insns[i].pc, w1, sizeof w1), tally_inst_where(ti, b->tag, w2, sizeof w2),
           tally_inst_where(ti, b->origin, w3, sizeof w3), ti->funcs[f].name,
           tally_inst_where(ti, ti->sites[s].pc, w4, sizeof w4));
  } else if (b->tag) {
    int f = ti->insns[i].func;
    if (f >= 0)
      c->reads_arg[f] |= (uint8_t)(1u << (b->tag - 1));
  }
}

static void clobber(rstate *r, uint32_t mask) {
  for (unsigned k = 1; k < 32; k++)
    if (mask >> k & 1u)
      r[k] = (rstate){0};
}

/* Caller-saved registers: ra, t0-t2, a0-a7, t3-t6. */
#define CALLER_SAVED 0xf003fce2u

static void step(sctx *c, size_t i, rstate *r) {
  tally_inst *ti = c->ti;
  const isa_insn *d = &ti->dec[i];
  uint32_t pc = ti->insns[i].pc;
  unsigned cls = isa_infos[d->kind].cls, fmt = isa_infos[d->kind].fmt;
  rstate out = {0};
  if (cls == CLASS_LOAD) {
    check_load(c, i, &r[d->rs1], d->imm);
    if (r[d->rs1].known && d->kind == K_LW) {
      uint32_t w;
      if (file_word(ti, r[d->rs1].val + (uint32_t)d->imm, &w) && code_tag(ti, w))
        out = (rstate){.tag = w, .origin = pc};
    }
  } else if (d->kind == K_LUI || d->kind == K_AUIPC) {
    uint32_t v = (uint32_t)d->imm + (d->kind == K_AUIPC ? pc : 0);
    /* no code pointer yet: lui's or auipc's value alone is often the upper
     * part of a data address that happens to fall in the code */
    out = (rstate){.val = v, .known = 1, .origin = pc};
  } else if (d->kind == K_ADDI) {
    const rstate *a = &r[d->rs1];
    if (a->known) {
      uint32_t v = a->val + (uint32_t)d->imm;
      uint32_t t = code_tag(ti, v);
      out = (rstate){.val = v, .known = 1, .tag = t, .origin = a->origin ? a->origin : pc};
    } else {
      out = (rstate){.tag = a->tag, .origin = a->origin};
    }
  } else if (d->kind == K_ADD || d->kind == K_SUB || d->kind == K_OR) {
    const rstate *a = &r[d->rs1], *b = &r[d->rs2];
    if (a->known && b->known) {
      uint32_t v = d->kind == K_ADD ? a->val + b->val : d->kind == K_SUB ? a->val - b->val : (a->val | b->val);
      out.val = v, out.known = 1;
    }
    const rstate *t = a->tag ? a : (d->kind != K_SUB && b->tag) ? b : NULL;
    if (t)
      out.tag = t->tag, out.origin = t->origin;
    if (out.known)
      out.tag = code_tag(ti, out.val), out.origin = out.origin ? out.origin : pc;
  } else if ((d->kind == K_JAL || d->kind == K_JALR) && (d->rd == 1 || d->rd == 5)) {
    if (d->kind == K_JAL && c->report) {
      uint32_t target = pc + (uint32_t)d->imm;
      long ti_ = tally_inst_find_insn(ti, target);
      int g = ti_ >= 0 ? ti->insns[ti_].func : -1;
      for (unsigned k = 0; g >= 0 && k < NARG; k++) {
        const rstate *a = &r[10 + k];
        int f;
        if (!(c->reads_arg[g] >> k & 1u) || a->tag <= ARG_TAG_MAX || !in_code_func(ti, a->tag, &f))
          continue;
        long s = site_in(ti, ti->funcs[f].lo, ti->funcs[f].hi);
        if (s < 0)
          continue;
        char w1[160], w2[160], w3[160], w4[160];
        warn(ti, "the call at %s passes a pointer to %s (formed at %s) in a%u to %s, which reads memory through "
                 "it, and %s holds replaced instructions (first %s): it may read the replacements",
             tally_inst_where(ti, pc, w1, sizeof w1), tally_inst_where(ti, a->tag, w2, sizeof w2),
             tally_inst_where(ti, a->origin, w3, sizeof w3), k, ti->funcs[g].name, ti->funcs[f].name,
             tally_inst_where(ti, ti->sites[s].pc, w4, sizeof w4));
      }
    }
    clobber(r, CALLER_SAVED);
    return;
  } else if (fmt == FMT_STORE || fmt == FMT_B) {
    return;
  }
  if (d->rd)
    r[d->rd] = out;
}

static void merge(bstate *into, const rstate *r, bool *changed) {
  if (!into->seen) {
    memcpy(into->r, r, sizeof into->r);
    into->seen = true;
    *changed = true;
    return;
  }
  for (unsigned k = 1; k < 32; k++) {
    rstate *a = &into->r[k];
    const rstate *b = &r[k];
    if (a->known && (!b->known || a->val != b->val))
      a->known = 0, *changed = true;
    if (!a->tag && b->tag)
      a->tag = b->tag, a->origin = b->origin, *changed = true;
  }
}

static void analyse_func(sctx *c, size_t f, bstate *bs, bool report) {
  tally_inst *ti = c->ti;
  const tally_inst_func *fn = &ti->funcs[f];
  size_t b0 = fn->first_block, nb = fn->nblocks;
  for (size_t b = 0; b < nb; b++)
    bs[b].seen = false;
  rstate entry[32] = {{0}};
  entry[0].known = 1;
  for (unsigned k = 0; k < NARG; k++)
    entry[10 + k].tag = k + 1;
  bool changed = false;
  merge(&bs[0], entry, &changed);
  for (int round = 0; round < 32; round++) {
    changed = false;
    for (size_t b = 0; b < nb; b++) {
      if (!bs[b].seen) {
        if (round == 0)
          continue;
        rstate none[32] = {{0}}; /* a block reached another way (a jump table): nothing known */
        none[0].known = 1;
        merge(&bs[b], none, &changed);
      }
      rstate r[32];
      memcpy(r, bs[b].r, sizeof r);
      const tally_inst_block *blk = &ti->blocks[b0 + b];
      for (size_t i = blk->first; i < blk->first + blk->n; i++)
        step(c, i, r);
      size_t last = blk->first + blk->n - 1;
      const isa_insn *d = &ti->dec[last];
      bool branch = isa_infos[d->kind].fmt == FMT_B;
      bool falls = !(d->kind == K_JAL && d->rd == 0) && d->kind != K_JALR && d->kind != K_MRET;
      if (d->kind == K_JALR && (d->rd == 1 || d->rd == 5))
        falls = true;
      uint32_t tgt = (branch || (d->kind == K_JAL && d->rd == 0)) ? ti->insns[last].pc + (uint32_t)d->imm : 0;
      if (tgt) {
        long t = tally_inst_find_insn(ti, tgt);
        if (t >= 0 && (size_t)ti->insns[t].block >= b0 && (size_t)ti->insns[t].block < b0 + nb)
          merge(&bs[ti->insns[t].block - b0], r, &changed);
      }
      if (falls && b + 1 < nb && ti->blocks[b0 + b + 1].lo == blk->hi)
        merge(&bs[b + 1], r, &changed);
    }
    if (!changed && round > 0)
      break;
  }
  if (!report)
    return;
  c->report = true; /* once over the fixed point: one warning per instruction */
  for (size_t b = 0; b < nb; b++) {
    if (!bs[b].seen)
      continue;
    rstate r[32];
    memcpy(r, bs[b].r, sizeof r);
    const tally_inst_block *blk = &ti->blocks[b0 + b];
    for (size_t i = blk->first; i < blk->first + blk->n; i++)
      step(c, i, r);
  }
  c->report = false;
}

void inst_selfread_check(tally_inst *ti) {
  sctx c = {.ti = ti};
  size_t maxb = 1;
  for (size_t f = 0; f < ti->nfuncs; f++)
    if (ti->funcs[f].nblocks > maxb)
      maxb = ti->funcs[f].nblocks;
  c.reads_arg = calloc(ti->nfuncs ? ti->nfuncs : 1, 1);
  bstate *bs = calloc(maxb, sizeof *bs);
  if (!c.reads_arg || !bs) {
    free(c.reads_arg), free(bs);
    return;
  }
  for (int pass = 0; pass < 2; pass++) /* the summaries, then the warnings */
    for (size_t f = 0; f < ti->nfuncs; f++)
      if (ti->funcs[f].nblocks)
        analyse_func(&c, f, bs, pass == 1);
  free(c.reads_arg);
  free(bs);
}
