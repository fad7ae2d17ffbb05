/*
 * The program's structure, from tally's own decoder: every instruction of
 * the executable sections (inst_code.c tells them from data),
 * what each one is (branch, call, return, load, store), basic blocks
 * (leaders: function entries, the entry point, branch and jump targets and
 * whatever follows a control transfer), loop headers (targets of backward
 * branches and jumps) and the functions of the symbol table with their
 * blocks.
 */
#include <stdlib.h>
#include <string.h>

#include "inst_impl.h"

#define SEMI_SLLI 0x01f01013u  /* slli x0, x0, 0x1f */
#define SEMI_EBREAK 0x00100073u
#define SEMI_SRAI 0x40705013u  /* srai x0, x0, 7 */

static int cmp_code(const void *a, const void *b) {
  const inst_code *x = a, *y = b;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static uint32_t fetch(const tally_inst *ti, const inst_code *c, uint32_t pc, uint32_t avail) {
  const uint8_t *p = ti->file + c->offset + (pc - c->lo);
  uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8;
  if ((v & 3u) == 3u && avail >= 4)
    v |= (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  return v;
}

/* Decodes the instructions inst_code.c found (code by the symbol table
 * and by control flow; the rest of the sections is data). */
static int decode_all(tally_inst *ti, tally_error *err) {
  for (size_t i = 1; i < ti->ncode; i++)
    if (ti->code[i].lo < ti->code[i - 1].hi)
      return inst_fail(err, TALLY_INST_EINPUT, "%s: code sections %s and %s overlap", ti->path, ti->code[i - 1].name,
                       ti->code[i].name);
  uint8_t **map;
  int rc = inst_code_map(ti, &map, err);
  if (rc)
    return rc;
  size_t cap = 0;
  for (size_t i = 0; i < ti->ncode; i++)
    cap += (ti->code[i].hi - ti->code[i].lo) / 2 + 1;
  ti->insns = calloc(cap, sizeof *ti->insns);
  ti->dec = calloc(cap, sizeof *ti->dec);
  ti->site_of = malloc(cap * sizeof *ti->site_of);
  if (!ti->insns || !ti->dec || !ti->site_of)
    rc = inst_fail(err, TALLY_INST_EINPUT, "out of memory decoding %s", ti->path);
  for (size_t i = 0; i < ti->ncode && !rc; i++) {
    const inst_code *c = &ti->code[i];
    uint32_t base = c->lo & ~1u;
    for (uint32_t pc = base; pc + 2 <= c->hi; pc += 2) {
      if (map[i][(pc - base) / 2] != 2) {
        if (map[i][(pc - base) / 2] != 3)
          ti->data_bytes += 2;
        continue;
      }
      uint32_t bits = fetch(ti, c, pc, c->hi - pc);
      isa_insn *d = &ti->dec[ti->ninsns];
      isa_decode(bits, d);
      ti->site_of[ti->ninsns] = -1;
      ti->insns[ti->ninsns] = (tally_inst_insn){.pc = pc, .raw = d->raw, .len = d->len, .func = -1, .block = -1};
      ti->ninsns++;
    }
  }
  for (size_t i = 0; i < ti->ncode; i++)
    free(map[i]);
  free(map);
  return rc;
}

long tally_inst_find_insn(const tally_inst *ti, uint32_t pc) {
  size_t lo = 0, hi = ti->ninsns;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (ti->insns[mid].pc < pc)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < ti->ninsns && ti->insns[lo].pc == pc ? (long)lo : -1;
}

static void mark(tally_inst *ti, uint32_t pc, unsigned flags) {
  long i = tally_inst_find_insn(ti, pc);
  if (i >= 0)
    ti->insns[i].flags |= flags;
}

static bool is_link(unsigned r) { return r == 1 || r == 5; }

/* Flags of one instruction from its decoded form; marks the leaders and
 * loop headers it implies. */
static void classify(tally_inst *ti, size_t i) {
  tally_inst_insn *in = &ti->insns[i];
  const isa_insn *d = &ti->dec[i];
  unsigned cls = isa_infos[d->kind].cls;
  uint32_t next = in->pc + in->len;
  if (cls == CLASS_LOAD || d->kind == K_LR_W || (cls == CLASS_AMO && d->kind != K_SC_W))
    in->flags |= TALLY_INST_LOAD;
  if (cls == CLASS_STORE || (cls == CLASS_AMO && d->kind != K_LR_W))
    in->flags |= TALLY_INST_STORE;
  if (d->kind == K_BEQ || d->kind == K_BNE || d->kind == K_BLT || d->kind == K_BGE || d->kind == K_BLTU ||
      d->kind == K_BGEU) {
    uint32_t target = in->pc + (uint32_t)d->imm;
    in->flags |= TALLY_INST_BRANCH;
    mark(ti, target, TALLY_INST_LEADER | (target <= in->pc ? TALLY_INST_LOOP : 0));
    mark(ti, next, TALLY_INST_LEADER);
  } else if (d->kind == K_JAL) {
    uint32_t target = in->pc + (uint32_t)d->imm;
    in->flags |= TALLY_INST_JUMP | (is_link(d->rd) ? TALLY_INST_CALL : 0);
    mark(ti, target, TALLY_INST_LEADER | (d->rd == 0 && target <= in->pc ? TALLY_INST_LOOP : 0));
    mark(ti, next, TALLY_INST_LEADER);
  } else if (d->kind == K_JALR) {
    in->flags |= TALLY_INST_JUMP;
    if (is_link(d->rd))
      in->flags |= TALLY_INST_CALL;
    else if (d->rd == 0 && is_link(d->rs1) && d->imm == 0)
      in->flags |= TALLY_INST_RET;
    mark(ti, next, TALLY_INST_LEADER);
  } else if (d->kind == K_ECALL || (d->kind == K_EBREAK && !(in->flags & TALLY_INST_NOSITE)) || d->kind == K_MRET) {
    mark(ti, next, TALLY_INST_LEADER); /* a semihosting call's ebreak returns to the next instruction */
  }
}

/* slli x0,x0,0x1f; ebreak; srai x0,x0,7 is one host call: the debugger
 * (tally, QEMU) recognises it by its neighbours, so its parts cannot be
 * replaced one by one; the first becomes the site of the whole. */
static void find_semihost(tally_inst *ti) {
  for (size_t i = 0; i + 2 < ti->ninsns; i++) {
    if (ti->insns[i].raw == SEMI_SLLI && ti->insns[i + 1].raw == SEMI_EBREAK && ti->insns[i + 2].raw == SEMI_SRAI &&
        ti->insns[i + 1].pc == ti->insns[i].pc + 4 && ti->insns[i + 2].pc == ti->insns[i].pc + 8) {
      ti->insns[i].flags |= TALLY_INST_SEMIHOST;
      ti->insns[i + 1].flags |= TALLY_INST_NOSITE;
      ti->insns[i + 2].flags |= TALLY_INST_NOSITE;
    }
  }
}

static int build_blocks(tally_inst *ti, tally_error *err) {
  size_t n = 0;
  for (size_t i = 0; i < ti->ninsns; i++)
    if ((ti->insns[i].flags & TALLY_INST_LEADER) || i == 0 || ti->insns[i].pc != ti->insns[i - 1].pc + ti->insns[i - 1].len)
      ti->insns[i].flags |= TALLY_INST_LEADER, n++;
  ti->blocks = calloc(n ? n : 1, sizeof *ti->blocks);
  if (!ti->blocks)
    return inst_fail(err, TALLY_INST_EINPUT, "out of memory");
  for (size_t i = 0; i < ti->ninsns; i++) {
    tally_inst_insn *in = &ti->insns[i];
    if (in->flags & TALLY_INST_LEADER)
      ti->blocks[ti->nblocks++] = (tally_inst_block){.lo = in->pc, .first = i, .func = in->func};
    tally_inst_block *b = &ti->blocks[ti->nblocks - 1];
    b->n++;
    b->hi = in->pc + in->len;
    in->block = (int)(ti->nblocks - 1);
  }
  return 0;
}

static int build_funcs(tally_inst *ti, tally_error *err) {
  ti->funcs = calloc(ti->syms.n ? ti->syms.n : 1, sizeof *ti->funcs);
  if (!ti->funcs)
    return inst_fail(err, TALLY_INST_EINPUT, "out of memory");
  for (size_t f = 0; f < ti->syms.n; f++) {
    const sym_entry *s = &ti->syms.v[f];
    ti->funcs[ti->nfuncs++] = (tally_inst_func){.name = s->name, .lo = s->lo, .hi = s->hi};
    long i = tally_inst_find_insn(ti, s->lo);
    if (i >= 0)
      ti->insns[i].flags |= TALLY_INST_FUNC_ENTRY | TALLY_INST_LEADER;
  }
  /* each instruction's function: both lists are sorted by address */
  size_t f = 0;
  for (size_t i = 0; i < ti->ninsns; i++) {
    uint32_t pc = ti->insns[i].pc;
    while (f < ti->nfuncs && ti->funcs[f].hi <= pc)
      f++;
    if (f < ti->nfuncs && ti->funcs[f].lo <= pc)
      ti->insns[i].func = (int)f;
  }
  return 0;
}

static void attach_blocks(tally_inst *ti) {
  for (size_t b = 0; b < ti->nblocks; b++) {
    int f = ti->insns[ti->blocks[b].first].func;
    ti->blocks[b].func = f;
    if (f >= 0) {
      if (ti->funcs[f].nblocks == 0)
        ti->funcs[f].first_block = b;
      ti->funcs[f].nblocks++;
    }
  }
}

int inst_cfg_build(tally_inst *ti, tally_error *err) {
  qsort(ti->code, ti->ncode, sizeof *ti->code, cmp_code);
  int rc = decode_all(ti, err);
  if (rc)
    return rc;
  mark(ti, ti->entry, TALLY_INST_LEADER);
  find_semihost(ti);
  for (size_t i = 0; i < ti->ninsns; i++)
    classify(ti, i);
  if ((rc = build_funcs(ti, err)) != 0 || (rc = build_blocks(ti, err)) != 0)
    return rc;
  attach_blocks(ti);
  return 0;
}
