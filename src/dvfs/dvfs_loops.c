/*
 * Loops as DVFS regions (the paper's granularity): a loop is its header
 * (an instruction the decoder marks TALLY_INST_LOOP: the target of a
 * backward branch or jump) and its natural body: every instruction of the
 * function from which a back edge to the header is reached without
 * passing the header. gcc moves rare paths out of line, so a body is a
 * few address ranges, not [header, last back edge). Its switches go on
 * the edges, not on the header (which runs every iteration): down on each
 * way in (a branch or jump from outside the body into it, an instruction
 * falling into it) and up before each way out's target (the first
 * instruction outside the body after a branch, jump or fall-through out of
 * it), before each return in it and before each jump out of the function.
 * A conditional way in gets the branch's outcome (`taken`) so the
 * analysis switches only when the edge is taken. Ways out that cannot be
 * seen (an indirect jump other than a return) make a loop no candidate.
 */
#include <stdlib.h>
#include <string.h>

#include "dvfs.h"

enum { EXIT_INTERNAL_ = 70 };

static int32_t sext(uint32_t v, unsigned bits) { return (int32_t)(v << (32 - bits)) >> (32 - bits); }

bool dvfs_target(const tally_inst_insn *in, uint32_t *target) {
  uint32_t r = in->raw;
  int32_t imm;
  if (in->len == 4 && (r & 0x7f) == 0x6f) { /* jal */
    imm = sext(((r >> 31) << 20) | (((r >> 12) & 0xff) << 12) | (((r >> 20) & 1) << 11) | (((r >> 21) & 0x3ff) << 1),
               21);
  } else if (in->len == 4 && (r & 0x7f) == 0x63) { /* branches */
    imm = sext(((r >> 31) << 12) | (((r >> 7) & 1) << 11) | (((r >> 25) & 0x3f) << 5) | (((r >> 8) & 0xf) << 1), 13);
  } else if (in->len == 2 && ((r & 0xe003) == 0xa001 || (r & 0xe003) == 0x2001)) { /* c.j, c.jal */
    imm = sext((((r >> 12) & 1) << 11) | (((r >> 11) & 1) << 4) | (((r >> 9) & 3) << 8) | (((r >> 8) & 1) << 10) |
                   (((r >> 7) & 1) << 6) | (((r >> 6) & 1) << 7) | (((r >> 3) & 7) << 1) | (((r >> 2) & 1) << 5),
               12);
  } else if (in->len == 2 && ((r & 0xe003) == 0xc001 || (r & 0xe003) == 0xe001)) { /* c.beqz, c.bnez */
    imm = sext((((r >> 12) & 1) << 8) | (((r >> 10) & 3) << 3) | (((r >> 5) & 3) << 6) | (((r >> 3) & 3) << 1) |
                   (((r >> 2) & 1) << 5),
               9);
  } else {
    return false;
  }
  *target = in->pc + (uint32_t)imm;
  return true;
}

/* An unconditional transfer: no fall-through after it. */
static bool no_fallthrough(const tally_inst_insn *in) {
  return (in->flags & TALLY_INST_JUMP) && !(in->flags & TALLY_INST_CALL);
}

static void add_site(dvfs_sites *s, uint32_t pc, int when, dvfs_site_kind k) {
  for (size_t i = 0; i < s->n; i++)
    if (s->v[i].pc == pc && s->v[i].kind == k && s->v[i].when == when)
      return;
  if (s->n < DVFS_MAX_SITES)
    s->v[s->n++] = (dvfs_site){pc, when, k};
  else
    s->overflow = true;
}

bool dvfs_region_has(const dvfs_region *r, uint32_t pc) {
  for (size_t i = 0; i < r->nranges; i++)
    if (pc >= r->ranges[i].lo && pc < r->ranges[i].hi)
      return true;
  return false;
}

/* Whether every range of inner lies in outer. */
static bool holds(const dvfs_region *outer, const dvfs_region *inner) {
  for (size_t i = 0; i < inner->nranges; i++)
    if (!dvfs_region_has(outer, inner->ranges[i].lo) || !dvfs_region_has(outer, inner->ranges[i].hi - 1))
      return false;
  return true;
}

/* The successors of instruction i inside its function: up to two. */
static int successors(const tally_inst *ti, size_t i, size_t *next) {
  const tally_inst_insn *in = tally_inst_insn_at(ti, i);
  int k = 0;
  uint32_t t;
  if (!no_fallthrough(in) && !(in->flags & TALLY_INST_RET) && i + 1 < tally_inst_ninsns(ti) &&
      tally_inst_insn_at(ti, i + 1)->func == in->func)
    next[k++] = i + 1;
  if (!(in->flags & TALLY_INST_CALL) && dvfs_target(in, &t)) {
    long j = tally_inst_find_insn(ti, t);
    if (j >= 0 && tally_inst_insn_at(ti, (size_t)j)->func == in->func)
      next[k++] = (size_t)j;
  }
  return k;
}

/* Ways in: an instruction outside the body with a successor inside. */
static const char *way_in(const tally_inst *ti, const dvfs_region *r, size_t i, dvfs_sites *s) {
  const tally_inst_insn *in = tally_inst_insn_at(ti, i);
  size_t next[2];
  int k = successors(ti, i, next);
  bool fall = false, jump = false;
  for (int m = 0; m < k; m++) {
    if (!dvfs_region_has(r, tally_inst_insn_at(ti, next[m])->pc))
      continue;
    if (next[m] == i + 1 && !(in->flags & TALLY_INST_JUMP) && (m == 0))
      fall = true;
    else
      jump = true;
  }
  if (!fall && !jump)
    return NULL;
  if (in->flags & TALLY_INST_NOSITE)
    return "a way in cannot be instrumented";
  if (in->flags & TALLY_INST_BRANCH)
    add_site(s, in->pc, TALLY_INST_BEFORE, fall && jump ? DVFS_ENTER : fall ? DVFS_ENTER_NOT_TAKEN : DVFS_ENTER_TAKEN);
  else if (in->flags & TALLY_INST_JUMP)
    add_site(s, in->pc, TALLY_INST_BEFORE, DVFS_ENTER);
  else
    add_site(s, in->pc, TALLY_INST_AFTER, DVFS_ENTER);
  return NULL;
}

/* Ways out of body instruction i. */
static const char *way_out(const tally_inst *ti, const dvfs_region *r, size_t i, dvfs_sites *s) {
  const tally_inst_insn *in = tally_inst_insn_at(ti, i);
  uint32_t t;
  if (in->flags & TALLY_INST_RET) {
    add_site(s, in->pc, TALLY_INST_BEFORE, DVFS_LEAVE);
    return NULL;
  }
  if ((in->flags & TALLY_INST_JUMP) && !(in->flags & TALLY_INST_CALL) && !dvfs_target(in, &t))
    return "an indirect jump inside the loop";
  if (no_fallthrough(in) && dvfs_target(in, &t)) {
    long j = tally_inst_find_insn(ti, t);
    if (j < 0 || tally_inst_insn_at(ti, (size_t)j)->func != in->func) {
      add_site(s, in->pc, TALLY_INST_BEFORE, DVFS_LEAVE); /* a tail call */
      return NULL;
    }
  }
  size_t next[2];
  int k = successors(ti, i, next);
  for (int m = 0; m < k; m++) {
    const tally_inst_insn *to = tally_inst_insn_at(ti, next[m]);
    if (!dvfs_region_has(r, to->pc))
      add_site(s, to->pc, TALLY_INST_BEFORE, DVFS_LEAVE); /* the way out's target */
  }
  if (!no_fallthrough(in) && k == 0 && !(in->flags & TALLY_INST_RET))
    return "the loop falls out of its function";
  return NULL;
}

/* A site must run once per use of the loop: not inside another loop that
 * does not hold this one. */
static const char *check_sites(const dvfs_region *loops, size_t nloops, size_t self, const dvfs_sites *s) {
  if (s->overflow)
    return "too many ways in and out";
  for (size_t i = 0; i < s->n; i++)
    for (size_t j = 0; j < nloops; j++)
      if (j != self && loops[j].func == loops[self].func && dvfs_region_has(&loops[j], s->v[i].pc) &&
          !holds(&loops[j], &loops[self]))
        return "a switch would run in every iteration of another loop";
  return NULL;
}

const char *dvfs_loop_sites(const tally_inst *ti, const dvfs_region *loops, size_t nloops, size_t self,
                            dvfs_sites *s) {
  const dvfs_region *r = &loops[self];
  memset(s, 0, sizeof *s);
  const tally_inst_func *f = tally_inst_func_at(ti, (size_t)r->func);
  const char *why = NULL;
  for (size_t b = f->first_block; !why && b < f->first_block + f->nblocks; b++) {
    const tally_inst_block *bl = tally_inst_block_at(ti, b);
    for (size_t i = bl->first; !why && i < bl->first + bl->n; i++) {
      const tally_inst_insn *in = tally_inst_insn_at(ti, i);
      if (in->flags & TALLY_INST_CALL)
        continue; /* the callee runs at the region's point; it comes back */
      why = dvfs_region_has(r, in->pc) ? way_out(ti, r, i, s) : way_in(ti, r, i, s);
    }
  }
  return why ? why : check_sites(loops, nloops, self, s);
}

/* Keeps in the body only what the header reaches inside it (a backward
 * jump to shared code that ends in a return, gcc's tail merging, is no
 * loop: its "header" reaches nothing). False when no back edge is left. */
static bool keep_reached(const tally_inst *ti, size_t first, size_t n, size_t h, unsigned char *in) {
  size_t *stack = malloc(n * sizeof *stack), top = 0;
  if (!stack)
    return false;
  bool back = false;
  in[h - first] = 2, stack[top++] = h;
  while (top) {
    size_t i = stack[--top], next[2];
    int k = successors(ti, i, next);
    for (int m = 0; m < k; m++) {
      back |= next[m] == h;
      size_t j = next[m] - first;
      if (next[m] >= first && j < n && in[j] == 1)
        in[j] = 2, stack[top++] = next[m];
    }
  }
  free(stack);
  for (size_t i = 0; i < n; i++)
    in[i] = in[i] == 2;
  return back;
}

/* The natural body of the loop with header instruction h, as ranges of
 * r; false when none (no back edge, too many pieces). */
static bool natural_body(const tally_inst *ti, size_t h, dvfs_region *r) {
  const tally_inst_func *f = tally_inst_func_at(ti, (size_t)r->func);
  if (!f->nblocks)
    return false;
  size_t first = tally_inst_block_at(ti, f->first_block)->first;
  const tally_inst_block *lb = tally_inst_block_at(ti, f->first_block + f->nblocks - 1);
  size_t n = lb->first + lb->n - first;
  unsigned char *in = calloc(n, 1);
  if (!in)
    return false;
  in[h - first] = 1;
  bool changed = true, any = false;
  /* In the body: an instruction at or after the header (a loop entered
   * in its middle, gcc's "jump to the condition", must not pull in the
   * code before it) with a back edge or a successor in the body other
   * than the header. */
  while (changed) {
    changed = false;
    for (size_t i = n; i-- > h - first;) {
      if (in[i])
        continue;
      size_t next[2];
      int k = successors(ti, first + i, next);
      for (int m = 0; m < k && !in[i]; m++) {
        size_t j = next[m] - first;
        if (next[m] < first || j >= n)
          continue;
        bool back = next[m] == h;
        if (back || (in[j] && next[m] != h))
          in[i] = 1, changed = true, any |= back;
      }
    }
  }
  any = any && keep_reached(ti, first, n, h, in);
  r->nranges = 0;
  for (size_t i = 0; i < n && any; i++) {
    if (!in[i])
      continue;
    const tally_inst_insn *x = tally_inst_insn_at(ti, first + i);
    if (r->nranges && r->ranges[r->nranges - 1].hi == x->pc)
      r->ranges[r->nranges - 1].hi = x->pc + x->len;
    else if (r->nranges < DVFS_MAX_RANGES)
      r->ranges[r->nranges++] = (dvfs_range){x->pc, x->pc + x->len, 0};
    else
      any = false;
  }
  free(in);
  if (!any)
    return false;
  r->lo = r->ranges[0].lo, r->hi = r->ranges[r->nranges - 1].hi;
  return true;
}

static int by_range(const void *a, const void *b) {
  const dvfs_region *x = a, *y = b;
  if (x->lo != y->lo)
    return x->lo < y->lo ? -1 : 1;
  return x->hi > y->hi ? -1 : x->hi < y->hi;
}

int dvfs_find_loops(const tally_inst *ti, dvfs_region **loops, size_t *nloops, tally_error *err) {
  size_t n = 0, cap = 0;
  dvfs_region *v = NULL;
  for (size_t i = 0; i < tally_inst_ninsns(ti); i++) {
    const tally_inst_insn *in = tally_inst_insn_at(ti, i);
    dvfs_region r = {.kind = DVFS_LOOPS, .func = in->func, .parent = -1};
    if (!(in->flags & TALLY_INST_LOOP) || in->func < 0 || !natural_body(ti, i, &r))
      continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      dvfs_region *nv = realloc(v, cap * sizeof *nv);
      if (!nv) {
        free(v);
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return EXIT_INTERNAL_;
      }
      v = nv;
    }
    char w[128];
    tally_inst_where(ti, in->pc, w, sizeof w);
    snprintf(r.name, sizeof r.name, "loop %.80s", w);
    snprintf(r.where, sizeof r.where, "%s", w);
    v[n++] = r;
  }
  if (n)
    qsort(v, n, sizeof *v, by_range); /* a loop before the loops it holds */
  for (size_t i = 0; i < n; i++)
    for (size_t j = i; j-- > 0;)
      if (v[j].func == v[i].func && holds(&v[j], &v[i])) {
        v[i].parent = (int)j; /* the innermost: the nearest before it that holds it */
        break;
      }
  *loops = v, *nloops = n;
  return 0;
}
