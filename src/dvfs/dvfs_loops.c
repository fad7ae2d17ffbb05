/*
 * Loops as DVFS regions (the paper's granularity): a loop is its header
 * (an instruction the decoder marks TALLY_INST_LOOP: the target of a
 * backward branch or jump) up to its last back edge, [header, latch end).
 * Its switches go on the edges, not on the header (which runs every
 * iteration): down on each way in (a branch or jump from outside the range
 * to inside it, a fall-through into the header) and up before each way
 * out's target (the first instruction after a branch or jump leaving the
 * range, the instruction after the latch), before each return inside it
 * and before each jump out of the function. A conditional edge gets the
 * branch's outcome (`taken`) so the analysis switches only when the edge
 * is taken. Ways out that cannot be seen (an indirect jump other than a
 * return) make a loop no candidate.
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

/* The way in by falling into the header from the instruction before it. */
static const char *entry_fallthrough(const tally_inst *ti, const dvfs_region *r, long hdr, dvfs_sites *s) {
  if (hdr == 0)
    return "the loop starts the program's code";
  const tally_inst_insn *prev = tally_inst_insn_at(ti, (size_t)hdr - 1);
  if (prev->pc + prev->len != r->lo || prev->func != r->func)
    return prev->func != r->func ? "the loop starts its function" : NULL;
  if (prev->flags & TALLY_INST_NOSITE)
    return "the instruction before the loop cannot be instrumented";
  if (prev->flags & TALLY_INST_BRANCH)
    add_site(s, prev->pc, TALLY_INST_BEFORE, DVFS_ENTER_NOT_TAKEN);
  else if (prev->flags & TALLY_INST_JUMP) {
    if (prev->flags & TALLY_INST_CALL)
      return "a call falls into the loop";
  } else
    add_site(s, prev->pc, TALLY_INST_AFTER, DVFS_ENTER);
  return NULL;
}

/* A site's pc must be instrumentable and run once per use of the loop:
 * not inside another loop that does not hold this one. */
static const char *check_sites(const tally_inst *ti, const dvfs_region *loops, size_t nloops, size_t self,
                               const dvfs_sites *s) {
  if (s->overflow)
    return "too many ways in and out";
  for (size_t i = 0; i < s->n; i++) {
    long k = tally_inst_find_insn(ti, s->v[i].pc);
    if (k < 0 || (tally_inst_insn_at(ti, (size_t)k)->flags & TALLY_INST_NOSITE))
      return "a way in or out cannot be instrumented";
    for (size_t j = 0; j < nloops; j++) {
      if (j == self || s->v[i].pc < loops[j].lo || s->v[i].pc >= loops[j].hi)
        continue;
      bool holds_self = loops[j].lo <= loops[self].lo && loops[self].hi <= loops[j].hi;
      if (!holds_self)
        return "a switch would run in every iteration of another loop";
    }
  }
  return NULL;
}

const char *dvfs_loop_sites(const tally_inst *ti, const dvfs_region *loops, size_t nloops, size_t self,
                            dvfs_sites *s) {
  const dvfs_region *r = &loops[self];
  memset(s, 0, sizeof *s);
  long hdr = tally_inst_find_insn(ti, r->lo);
  if (hdr < 0)
    return "no instruction at the header";
  const char *why = entry_fallthrough(ti, r, hdr, s);
  if (why)
    return why;
  size_t n = tally_inst_ninsns(ti);
  for (size_t i = 0; i < n; i++) {
    const tally_inst_insn *in = tally_inst_insn_at(ti, i);
    if (in->func != r->func || (in->flags & TALLY_INST_CALL))
      continue;
    bool inside = in->pc >= r->lo && in->pc < r->hi;
    uint32_t t;
    bool direct = dvfs_target(in, &t);
    bool t_inside = direct && t >= r->lo && t < r->hi;
    bool cond = (in->flags & TALLY_INST_BRANCH) != 0;
    if (!inside) {
      if (t_inside)
        add_site(s, in->pc, TALLY_INST_BEFORE, cond ? DVFS_ENTER_TAKEN : DVFS_ENTER);
      continue;
    }
    if (in->flags & TALLY_INST_RET) {
      add_site(s, in->pc, TALLY_INST_BEFORE, DVFS_LEAVE);
    } else if ((in->flags & TALLY_INST_JUMP) && !direct) {
      return "an indirect jump inside the loop";
    } else if (direct && !t_inside) {
      long k = tally_inst_find_insn(ti, t);
      if (k >= 0 && tally_inst_insn_at(ti, (size_t)k)->func == r->func)
        add_site(s, t, TALLY_INST_BEFORE, DVFS_LEAVE); /* the way out's target */
      else
        add_site(s, in->pc, TALLY_INST_BEFORE, DVFS_LEAVE); /* a tail call */
    }
    if (in->pc + in->len == r->hi && !no_fallthrough(in))
      add_site(s, r->hi, TALLY_INST_BEFORE, DVFS_LEAVE); /* out past the latch */
  }
  return check_sites(ti, loops, nloops, self, s);
}

static int by_range(const void *a, const void *b) {
  const dvfs_region *x = a, *y = b;
  if (x->lo != y->lo)
    return x->lo < y->lo ? -1 : 1;
  return x->hi > y->hi ? -1 : x->hi < y->hi;
}

/* Whether the instruction `latch` is reached from the header `first`
 * without leaving [lo, hi): a backward jump to shared code that ends in a
 * return (gcc's tail merging) is no loop. */
static bool reaches(const tally_inst *ti, size_t first, size_t latch, uint32_t lo, uint32_t hi) {
  size_t n = latch - first + 1;
  unsigned char *seen = calloc(n, 1);
  size_t *stack = malloc(n * sizeof *stack), top = 0;
  bool found = false;
  if (seen && stack) {
    stack[top++] = first, seen[0] = 1;
    while (top && !found) {
      size_t i = stack[--top];
      const tally_inst_insn *in = tally_inst_insn_at(ti, i);
      found = i == latch;
      size_t next[2];
      int k = 0;
      uint32_t t;
      if (!no_fallthrough(in) && i + 1 <= latch)
        next[k++] = i + 1;
      if (!(in->flags & TALLY_INST_CALL) && dvfs_target(in, &t) && t >= lo && t < hi) {
        long j = tally_inst_find_insn(ti, t);
        if (j >= (long)first && j <= (long)latch)
          next[k++] = (size_t)j;
      }
      for (int m = 0; m < k; m++)
        if (!seen[next[m] - first])
          seen[next[m] - first] = 1, stack[top++] = next[m];
    }
  }
  free(seen);
  free(stack);
  return found;
}

/* [header, end of its last back edge) of the loop with header insn h, or
 * 0 when no back edge is reached from the header. */
static uint32_t loop_end(const tally_inst *ti, const tally_inst_insn *h) {
  size_t first = (size_t)tally_inst_find_insn(ti, h->pc);
  uint32_t end = 0;
  size_t latch = 0;
  for (size_t i = first; i < tally_inst_ninsns(ti); i++) {
    const tally_inst_insn *in = tally_inst_insn_at(ti, i);
    if (in->func != h->func)
      break;
    uint32_t t;
    if (dvfs_target(in, &t) && t == h->pc && !(in->flags & TALLY_INST_CALL))
      end = in->pc + in->len, latch = i;
  }
  return end && reaches(ti, first, latch, h->pc, end) ? end : 0;
}

int dvfs_find_loops(const tally_inst *ti, dvfs_region **loops, size_t *nloops, tally_error *err) {
  size_t n = 0, cap = 0;
  dvfs_region *v = NULL;
  for (size_t i = 0; i < tally_inst_ninsns(ti); i++) {
    const tally_inst_insn *in = tally_inst_insn_at(ti, i);
    uint32_t end;
    if (!(in->flags & TALLY_INST_LOOP) || in->func < 0 || (end = loop_end(ti, in)) == 0)
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
    dvfs_region r = {.kind = DVFS_LOOPS, .func = in->func, .parent = -1, .lo = in->pc, .hi = end};
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
      if (v[j].func == v[i].func && v[j].lo <= v[i].lo && v[i].hi <= v[j].hi) {
        v[i].parent = (int)j; /* the innermost: the nearest before it that holds it */
        break;
      }
  *loops = v, *nloops = n;
  return 0;
}
