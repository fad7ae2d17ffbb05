/*
 * Which edges of bbcount's flow graph get counters (inst_flow.c says what
 * for): each edge's weight (its estimated cost if counted), a maximum
 * spanning tree (Kruskal), and the derivation of the tree's edges from
 * the counted ones, leaves first.
 */
#include <stdlib.h>

#include "inst_flow.h"

/* Whether instruction i can be displaced into a trampoline (what the
 * runtime must re-create itself always traps). */
static bool can_carry(const tally_inst *ti, size_t i) {
  const isa_insn *d = &ti->dec[i];
  return !inst_site_forced(ti, i) && !(ti->insns[i].flags & (TALLY_INST_SEMIHOST | TALLY_INST_NOSITE)) &&
         isa_infos[d->kind].cls != CLASS_CSR && d->kind != K_ECALL && d->kind != K_EBREAK && d->kind != K_MRET &&
         d->kind != K_ILLEGAL;
}

/* What a count at node n costs, in units of half a jal to a trampoline
 * (inst_tramp.c places it): 2 when a 4-byte instruction of the node can
 * carry the jal (or a 2-byte first one with the next), else 20: a trap
 * (its fast path to the trampoline still costs some ten times as much). */
#define COST_JUMP 2
#define COST_TRAP 20
static unsigned node_cost(const flow *f, uint32_t n) {
  const tally_inst *ti = f->ti;
  size_t first = f->first[n];
  if (!can_carry(ti, first))
    return COST_TRAP; /* the count is at the site, which traps anyway: the handler's call on top */
  if (ti->insns[first].len == 4 || (first < f->last[n] && can_carry(ti, first + 1)))
    return COST_JUMP;
  for (size_t i = first + 1; i <= f->last[n] && can_carry(ti, i); i++)
    if (ti->insns[i].len == 4)
      return COST_JUMP;
  return COST_TRAP;
}

static uint32_t gdepth(const flow *f, uint32_t x) { return x == GV(f) ? 0 : f->depth[x / 2]; }

/* Where each edge's counter would go and its weight: the estimated cost of
 * counting it, frequency (8^loop depth) times the cost of one count; the
 * maximum spanning tree leaves the cheapest edges to count. */
static void place_edges(flow *f) {
  const tally_inst *ti = f->ti;
  for (size_t k = 0; k < f->ne; k++) {
    fedge *e = &f->e[k];
    /* a branch's trampoline (or trap) runs whichever way it goes: as often as its block */
    uint32_t du = gdepth(f, e->u), dv = gdepth(f, e->v), d = e->kind == E_PLAIN && dv < du ? dv : du;
    uint64_t freq = (uint64_t)1 << (3 * (d > 16 ? 16 : d));
    if (e->kind == E_BLOCK) {
      e->place = P_NODE;
      e->cost = node_cost(f, e->u / 2);
    } else if (e->kind != E_PLAIN) {
      e->place = P_BRANCH;
      e->cost = ti->insns[e->insn].len == 4 ? COST_JUMP : COST_TRAP; /* a 2-byte branch mostly ends up a trap */
    } else { /* a jump, a fall, a way to or from V: the block edges count it as well */
      e->place = P_NONE;
      e->cost = 0;
    }
    e->w = e->place == P_NONE ? UINT64_MAX : freq * e->cost;
  }
}

/* An edge in Kruskal's order: heaviest first; on a tie the dearer counter
 * goes into the tree first, so that the cheaper one is counted. */
typedef struct korder {
  uint64_t w;
  unsigned cost;
  size_t k;
} korder;

static int cmp_edge(const void *a, const void *b) {
  const korder *x = a, *y = b;
  if (x->w != y->w)
    return x->w > y->w ? -1 : 1;
  if (x->cost != y->cost)
    return x->cost > y->cost ? -1 : 1;
  return x->k < y->k ? -1 : x->k > y->k;
}

static uint32_t find_root(uint32_t *up, uint32_t x) {
  while (up[x] != x)
    x = up[x] = up[up[x]];
  return x;
}

/* Kruskal: the heaviest edges that close no cycle make the tree. */
static bool spanning_tree(flow *f) {
  korder *order = malloc((f->ne ? f->ne : 1) * sizeof *order);
  uint32_t *up = malloc((2 * f->nn + 1) * sizeof *up);
  if (!order || !up) {
    free(order), free(up);
    return false;
  }
  for (size_t k = 0; k < f->ne; k++)
    order[k] = (korder){f->e[k].w, f->e[k].cost, k};
  qsort(order, f->ne, sizeof *order, cmp_edge);
  for (uint32_t n = 0; n <= 2 * f->nn; n++)
    up[n] = n;
  for (size_t i = 0; i < f->ne; i++) {
    fedge *e = &f->e[order[i].k];
    uint32_t a = find_root(up, e->u), b = find_root(up, e->v);
    if (a != b) {
      up[a] = b;
      e->tree = true;
    }
  }
  free(order), free(up);
  return true;
}

/* The derivation of the tree edges, leaves first, V last (never used: its
 * equation is the sum of all the others). prog gets {value index, n,
 * n terms (value index << 1, NEG for minus)} per tree edge. */
bool inst_flow_derive(flow *f, words *prog, uint32_t nctr) {
  uint32_t N = 2 * f->nn + 1;
  uint32_t *deg = calloc(N, sizeof *deg), *queue = malloc(N * sizeof *queue);
  size_t *start = calloc(N + 1, sizeof *start), *inc = malloc((2 * f->ne + 1) * sizeof *inc);
  bool *known = calloc(f->ne ? f->ne : 1, sizeof *known);
  bool ok = deg && queue && start && inc && known;
  if (ok) {
    uint32_t next_val = nctr;
    for (size_t k = 0; k < f->ne; k++) {
      fedge *e = &f->e[k];
      if (e->u == e->v)
        continue; /* a self-loop adds as much in as out */
      start[e->u + 1]++, start[e->v + 1]++;
      if (e->tree) {
        deg[e->u]++, deg[e->v]++;
        e->val = next_val++;
      } else {
        known[k] = true;
      }
    }
    for (uint32_t n = 0; n < N; n++)
      start[n + 1] += start[n];
    size_t *fill = malloc(N * sizeof *fill);
    ok = fill != NULL;
    for (uint32_t n = 0; ok && n < N; n++)
      fill[n] = start[n];
    for (size_t k = 0; ok && k < f->ne; k++)
      if (f->e[k].u != f->e[k].v)
        inc[fill[f->e[k].u]++] = k, inc[fill[f->e[k].v]++] = k;
    free(fill);
    size_t qh = 0, qt = 0;
    for (uint32_t n = 0; n < GV(f); n++)
      if (deg[n] == 1)
        queue[qt++] = n;
    while (ok && qh < qt) {
      uint32_t x = queue[qh++];
      if (deg[x] != 1)
        continue;
      size_t t = (size_t)-1;
      for (size_t a = start[x]; a < start[x + 1]; a++)
        if (!known[inc[a]])
          t = inc[a];
      if (t == (size_t)-1)
        continue;
      bool t_in = f->e[t].v == x;
      inst_flow_put(prog, f->e[t].val);
      inst_flow_put(prog, (uint32_t)(start[x + 1] - start[x] - 1));
      for (size_t a = start[x]; a < start[x + 1]; a++) {
        const fedge *e = &f->e[inc[a]];
        if (inc[a] != t)
          inst_flow_put(prog, e->val << 1 | ((e->v == x) == t_in ? NEG : 0));
      }
      known[t] = true;
      deg[x]--;
      uint32_t o = t_in ? f->e[t].u : f->e[t].v;
      if (--deg[o] == 1 && o != GV(f))
        queue[qt++] = o;
    }
    for (size_t k = 0; ok && k < f->ne; k++)
      ok = known[k] || f->e[k].u == f->e[k].v;
  }
  free(deg), free(queue), free(start), free(inc), free(known);
  return ok && prog->ok;
}

bool inst_flow_tree(flow *f, uint32_t *nctr) {
  place_edges(f);
  if (!spanning_tree(f))
    return false;
  *nctr = 0;
  for (size_t k = 0; k < f->ne; k++)
    if (!f->e[k].tree) {
      if (f->e[k].place == P_NONE)
        return false; /* cannot happen: those are a star from V, all in the tree */
      f->e[k].val = (*nctr)++;
    }
  return true;
}
