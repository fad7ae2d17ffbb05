/*
 * Sites: the instructions that are replaced, each with the analysis calls
 * attached to it, and the checks of what cannot be done. Besides the sites
 * a tool asks for, some instructions are always sites because the runtime
 * must re-create them: every CSR instruction that touches a trap CSR the
 * runtime owns (mstatus, mtvec, mscratch, mepc, mcause, mtval), every mret,
 * and every semihosting call (so that the analysis sees the program's exit).
 */
#include <stdlib.h>
#include <string.h>

#include "inst_impl.h"

inst_site *inst_site_get(tally_inst *ti, uint32_t pc, tally_error *err) {
  long idx = tally_inst_find_insn(ti, pc);
  if (idx >= 0 && ti->site_of[idx] >= 0)
    return &ti->sites[ti->site_of[idx]];
  char where[160];
  if (idx < 0) {
    inst_fail(err, TALLY_INST_EUSAGE, "%s: no instruction starts at %s", ti->path,
              tally_inst_where(ti, pc, where, sizeof where));
    return NULL;
  }
  if (ti->insns[idx].flags & TALLY_INST_NOSITE) {
    inst_fail(err, TALLY_INST_ECANNOT,
              "%s: %s is inside a semihosting call (slli; ebreak; srai), which the host recognises by its "
              "neighbours; instrument its first instruction instead",
              ti->path, tally_inst_where(ti, pc, where, sizeof where));
    return NULL;
  }
  if (ti->nsites == ti->sites_cap) {
    size_t cap = ti->sites_cap ? 2 * ti->sites_cap : 64;
    inst_site *ns = realloc(ti->sites, cap * sizeof *ns);
    if (!ns) {
      inst_fail(err, TALLY_INST_EUSAGE, "out of memory");
      return NULL;
    }
    ti->sites = ns;
    ti->sites_cap = cap;
  }
  ti->site_of[idx] = (long)ti->nsites;
  inst_site *s = &ti->sites[ti->nsites++];
  *s = (inst_site){.pc = pc, .insn = (size_t)idx};
  return s;
}

static int cmp_site(const void *a, const void *b) {
  const inst_site *x = a, *y = b;
  return x->pc < y->pc ? -1 : x->pc > y->pc;
}

void inst_sites_sort(tally_inst *ti) {
  qsort(ti->sites, ti->nsites, sizeof *ti->sites, cmp_site);
  for (size_t s = 0; s < ti->nsites; s++)
    ti->site_of[ti->sites[s].insn] = (long)s;
}

static bool shadowed_csr(unsigned csr) {
  return csr == 0x300 || csr == 0x305 || csr == 0x340 || csr == 0x341 || csr == 0x342 || csr == 0x343;
}

bool inst_site_forced(const tally_inst *ti, size_t i) {
  const isa_insn *d = &ti->dec[i];
  bool csr = isa_infos[d->kind].cls == CLASS_CSR && shadowed_csr(d->csr);
  return csr || d->kind == K_MRET || (ti->insns[i].flags & TALLY_INST_SEMIHOST);
}

/* Adds the sites the runtime needs whatever the tool asked for. */
static int add_forced(tally_inst *ti, tally_error *err) {
  for (size_t i = 0; i < ti->ninsns; i++) {
    if (inst_site_forced(ti, i))
      if (!inst_site_get(ti, ti->insns[i].pc, err))
        return TALLY_INST_ECANNOT;
  }
  return 0;
}

/* The register's value when it is set by the nearest lui/auipc before
 * instruction i in the same block; false when not known. */
static bool known_base(const tally_inst *ti, size_t i, unsigned reg, uint32_t *val) {
  size_t first = ti->blocks[ti->insns[i].block].first;
  for (size_t j = i; j-- > first;) {
    const isa_insn *d = &ti->dec[j];
    if (d->rd != reg || isa_infos[d->kind].fmt == FMT_STORE || isa_infos[d->kind].fmt == FMT_B)
      continue;
    if (d->kind == K_LUI) { *val = (uint32_t)d->imm; return true; }
    if (d->kind == K_AUIPC) { *val = ti->insns[j].pc + (uint32_t)d->imm; return true; }
    if (d->kind == K_ADDI && d->rs1 == reg && known_base(ti, j, reg, val)) { *val += (uint32_t)d->imm; return true; }
    return false;
  }
  return false;
}

/* The site overlapping [lo, hi), if any (sites are sorted, at most 4 bytes long). */
static const inst_site *site_covering(const tally_inst *ti, uint32_t lo, uint32_t hi) {
  size_t a = 0, b = ti->nsites;
  while (a < b) { /* first site with pc >= lo - 3 */
    size_t m = a + (b - a) / 2;
    if (ti->sites[m].pc + 3 < lo)
      a = m + 1;
    else
      b = m;
  }
  for (size_t s = a; s < ti->nsites && ti->sites[s].pc < hi; s++)
    if (ti->sites[s].pc + ti->insns[ti->sites[s].insn].len > lo)
      return &ti->sites[s];
  /* a jal placed elsewhere than its site's own bytes (inst_tramp.c) */
  for (size_t s = 0; s < ti->nsites; s++)
    if (ti->sites[s].jump && ti->sites[s].tramp && ti->sites[s].host_pc != ti->sites[s].pc &&
        ti->sites[s].host_pc < hi && ti->sites[s].host_pc + 4 > lo)
      return &ti->sites[s];
  return NULL;
}

/* Code that reads its own instructions would read the replacement instead:
 * refuse when a load's address (lui/auipc based, in the same block) falls
 * on a site. */
static int check_self_reads(const tally_inst *ti, tally_error *err) {
  for (size_t i = 0; i < ti->ninsns; i++) {
    const isa_insn *d = &ti->dec[i];
    if (isa_infos[d->kind].cls != CLASS_LOAD)
      continue;
    uint32_t base;
    if (!known_base(ti, i, d->rs1, &base))
      continue;
    uint32_t ea = base + (uint32_t)d->imm;
    const inst_site *s = site_covering(ti, ea, ea + 4);
    if (s) {
      char w1[160], w2[160];
      return inst_fail(err, TALLY_INST_ECANNOT,
                       "%s: the instruction at %s reads code at 0x%08x (%s), which would be replaced: "
                       "the program reads its own instructions; leave that instruction out (--range)",
                       ti->path, tally_inst_where(ti, ti->insns[i].pc, w1, sizeof w1), ea,
                       tally_inst_where(ti, s->pc, w2, sizeof w2));
    }
  }
  return 0;
}

/* The analysis region must be free (an instrumented program can be read,
 * for its symbols, but not instrumented again). */
static int check_region(const tally_inst *ti, tally_error *err) {
  for (size_t i = 0; i < ti->nsegs; i++) {
    uint64_t hi = (uint64_t)ti->segs[i].vaddr + ti->segs[i].memsz;
    if (hi > TALLY_INST_REGION_BASE && ti->segs[i].vaddr < TALLY_INST_REGION_BASE + TALLY_INST_REGION_SIZE)
      return inst_fail(err, TALLY_INST_ECANNOT,
                       "%s: segment 0x%08x-0x%08llx uses the analysis region 0x%08x-0x%08x (already instrumented?)",
                       ti->path, ti->segs[i].vaddr, (unsigned long long)hi, TALLY_INST_REGION_BASE,
                       TALLY_INST_REGION_BASE + TALLY_INST_REGION_SIZE);
  }
  return 0;
}

int inst_sites_check(tally_inst *ti, tally_error *err) {
  int rc = check_region(ti, err);
  if (rc)
    return rc;
  rc = add_forced(ti, err);
  if (rc)
    return rc;
  inst_sites_sort(ti);
  if ((rc = inst_flow_plan(ti, err)) != 0)
    return rc;
  inst_sites_sort(ti);
  if ((rc = inst_tramp_plan(ti, err)) != 0) /* then the bytes each jal covers are known */
    return rc;
  if ((rc = check_self_reads(ti, err)) != 0)
    return rc;
  for (size_t w = 0; w < ti->nwarnings; w++)
    free(ti->warnings[w]);
  ti->nwarnings = ti->nwarnings_total = 0;
  inst_selfread_check(ti);
  return 0;
}
