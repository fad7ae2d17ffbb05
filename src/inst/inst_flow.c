/*
 * bbcount with fewer counters: count a few edges, derive every block's
 * count exactly by flow conservation (Knuth 1973; Ball and Larus 1994,
 * "Optimally profiling and tracing programs").
 *
 * The graph: the blocks of the counted sites (split further where the
 * code may be entered other than at a leader: an address the data hold or
 * the code forms, and after a semihosting call), and one virtual node V
 * standing for everything else. Edges: a branch's two ways, a jump, a fall
 * into the next block; every call, indirect jump, return, ecall, ebreak,
 * mret and semihosting call goes to V, and the place it returns to is
 * reached from V (so a callee that never returns breaks nothing, and the
 * block running when the program exits is left to V: the exit is an edge
 * like any other). V also reaches every block that may be entered in a
 * way the graph does not show (function entries, the entry point, address
 * taken, after an instruction that does not fall through modelled, direct
 * jumps from code that is not counted, unreachable from V otherwise). So
 * in every block, entries equal exits, exactly.
 *
 * A maximum spanning tree (weights 8^loop depth, from backward branches)
 * keeps counters off loop bodies and back edges; every edge not in the
 * tree gets a counter: at its target block when that has one way in, at
 * its source block when that has one way out, else on the branch itself
 * (the trampoline counts on the taken or the fall-through way). An edge
 * from V into a block with several ways in cannot be counted: it is in the
 * tree by force (those edges form a star, so they always fit). The other
 * counts follow from the leaves of the tree inwards, one conservation
 * equation each, and a block's count is the sum of its ways in (or out).
 *
 * The derivation runs in the target at exit (bbcount.c), from a program of
 * sums this file writes (sites.c): bbcount.out keeps its layout and its
 * contents, and QEMU's run writes the same file.
 */
#include <stdlib.h>
#include <string.h>

#include "inst_tramp.h"

/* Each block n is two nodes of the graph, its entry and its exit, joined
 * by the block's own edge (its count is the block's): the ways in end at
 * the entry, the ways out leave from the exit, so that a loop of one block
 * is no self-loop, and a counter may sit on the block or on a branch's
 * way, whichever is cheaper. */
#define GV(f) (2 * (f)->nn) /* the virtual node */
#define GIN(n) (2 * (n))
#define GOUT(n) (2 * (n) + 1)
#define NO_NODE UINT32_MAX
#define NEG 1u /* a term's minus sign; its value's index is shifted left by one */

enum place { P_NONE, P_NODE, P_BRANCH };
enum ekind { E_PLAIN, E_TAKEN, E_FALL, E_BLOCK };

typedef struct fedge {
  uint32_t u, v;       /* graph nodes (GIN, GOUT, GV) */
  uint32_t insn;       /* the instruction the edge leaves from (E_TAKEN / E_FALL: the branch) */
  uint8_t kind, place;
  bool tree;
  uint64_t w;          /* estimated frequency (UINT64_MAX: must be in the tree) */
  unsigned cost;       /* what a counter there would cost, for ties */
  uint32_t val;        /* its value's index in __tally_inst_ctr */
} fedge;

typedef struct flow {
  const tally_inst *ti;
  const bool *taken;   /* per instruction: its address is held or formed */
  long *node_at;       /* per instruction: the node starting there, or -1 */
  long *node_in;       /* per instruction: the node it is in, or -1 */
  size_t *first, *last;
  uint32_t nn;
  fedge *e;
  size_t ne, cap;
  uint32_t *depth;     /* per block: its loop depth */
  size_t *blk;         /* per block: its block edge */
  bool *fall_in;       /* the node is entered by a modelled fall from the instruction before */
  bool ok;
} flow;

/* A growing array of u32 words (the derivation program). */
typedef struct words {
  uint32_t *v;
  size_t n, cap;
  bool ok;
} words;

static void put(words *w, uint32_t x) {
  if (w->n == w->cap) {
    size_t cap = w->cap ? 2 * w->cap : 1024;
    uint32_t *nv = realloc(w->v, cap * sizeof *nv);
    if (!nv) {
      w->ok = false;
      return;
    }
    w->v = nv, w->cap = cap;
  }
  w->v[w->n++] = x;
}

static bool is_count_only(const inst_site *s) { return s->ncalls == 1 && inst_is_count_call(&s->calls[0]); }

/* The last instruction of a semihosting call (slli; ebreak; srai): the call
 * may end the program, so it ends a node. */
static bool semihost_end(const tally_inst *ti, size_t i) {
  return i >= 2 && (ti->insns[i].flags & TALLY_INST_NOSITE) && (ti->insns[i - 2].flags & TALLY_INST_SEMIHOST);
}

static bool next_contiguous(const tally_inst *ti, size_t i) {
  return i + 1 < ti->ninsns && ti->insns[i + 1].pc == ti->insns[i].pc + ti->insns[i].len;
}

/* Nodes: the counted blocks, split where something may enter them other
 * than at the leader (an address held or formed) and after a semihosting
 * call. in_r[b]: block b is counted. */
static bool make_nodes(flow *f, const bool *in_r) {
  const tally_inst *ti = f->ti;
  size_t n = ti->ninsns ? ti->ninsns : 1;
  f->node_at = malloc(n * sizeof *f->node_at);
  f->node_in = malloc(n * sizeof *f->node_in);
  f->first = malloc(n * sizeof *f->first);
  f->last = malloc(n * sizeof *f->last);
  if (!f->node_at || !f->node_in || !f->first || !f->last)
    return false;
  long cur = -1;
  for (size_t i = 0; i < ti->ninsns; i++) {
    f->node_at[i] = f->node_in[i] = -1;
    if (!in_r[ti->insns[i].block]) {
      cur = -1;
      continue;
    }
    /* (nothing enters a semihosting call's middle: a data word that looks like its address is chance) */
    bool split = (ti->insns[i].flags & TALLY_INST_LEADER) || f->taken[i] || (i > 0 && semihost_end(ti, i - 1));
    if (cur < 0 || (split && !(ti->insns[i].flags & TALLY_INST_NOSITE))) {
      cur = (long)f->nn++;
      f->first[cur] = i;
      f->node_at[i] = cur;
    }
    f->node_in[i] = cur;
    f->last[cur] = i;
  }
  return true;
}

static uint32_t node_of_pc(const flow *f, uint32_t pc) {
  long i = tally_inst_find_insn(f->ti, pc);
  return i >= 0 && f->node_at[i] >= 0 ? (uint32_t)f->node_at[i] : NO_NODE;
}

static uint32_t entry_of(const flow *f, uint32_t n) { return n == NO_NODE ? GV(f) : GIN(n); }

static void add_edge(flow *f, uint32_t u, uint32_t v, size_t insn, enum ekind kind) {
  if (f->ne == f->cap) {
    size_t cap = f->cap ? 2 * f->cap : 256;
    fedge *ne = realloc(f->e, cap * sizeof *ne);
    if (!ne) {
      f->ok = false;
      return;
    }
    f->e = ne, f->cap = cap;
  }
  f->e[f->ne++] = (fedge){.u = u, .v = v, .insn = (uint32_t)insn, .kind = (uint8_t)kind};
}

/* Whether instruction i never goes on to the next one: jal x0, jalr x0. */
static bool never_falls(const tally_inst *ti, size_t i) {
  const isa_insn *d = &ti->dec[i];
  return (d->kind == K_JAL || d->kind == K_JALR) && d->rd == 0;
}

/* The edges leaving node n (from its last instruction). */
static void node_edges(flow *f, uint32_t n) {
  const tally_inst *ti = f->ti;
  size_t j = f->last[n];
  const isa_insn *d = &ti->dec[j];
  uint32_t pc = ti->insns[j].pc;
  uint32_t next = next_contiguous(ti, j) && f->node_at[j + 1] >= 0 ? (uint32_t)f->node_at[j + 1] : NO_NODE;
  f->blk[n] = f->ne;
  add_edge(f, GIN(n), GOUT(n), f->first[n], E_BLOCK);
  if (inst_branch_index(d->kind) >= 0) {
    add_edge(f, GOUT(n), entry_of(f, node_of_pc(f, pc + (uint32_t)d->imm)), j, E_TAKEN);
    add_edge(f, GOUT(n), entry_of(f, next), j, E_FALL);
    if (next != NO_NODE)
      f->fall_in[next] = true;
  } else if (d->kind == K_JAL && d->rd == 0) {
    add_edge(f, GOUT(n), entry_of(f, node_of_pc(f, pc + (uint32_t)d->imm)), j, E_PLAIN);
  } else if (d->kind == K_JAL || d->kind == K_JALR || d->kind == K_ECALL || d->kind == K_EBREAK ||
             d->kind == K_MRET || d->kind == K_ILLEGAL || semihost_end(ti, j)) {
    add_edge(f, GOUT(n), GV(f), j, E_PLAIN); /* where it goes on (if anywhere) is reached from V */
  } else {
    add_edge(f, GOUT(n), entry_of(f, next), j, E_PLAIN);
    if (next != NO_NODE)
      f->fall_in[next] = true;
  }
}

/* Per instruction: a direct branch or jump from code outside the nodes leads there. */
static bool *outside_targets(const flow *f) {
  const tally_inst *ti = f->ti;
  bool *t = calloc(ti->ninsns ? ti->ninsns : 1, sizeof *t);
  if (!t)
    return NULL;
  for (size_t j = 0; j < ti->ninsns; j++) {
    const isa_insn *d = &ti->dec[j];
    if (f->node_in[j] >= 0 || (inst_branch_index(d->kind) < 0 && d->kind != K_JAL))
      continue;
    long i = tally_inst_find_insn(ti, ti->insns[j].pc + (uint32_t)d->imm);
    if (i >= 0)
      t[i] = true;
  }
  return t;
}

/* The edges from V: into every node that may be entered in a way the
 * graph does not show. */
static bool v_edges(flow *f) {
  const tally_inst *ti = f->ti;
  bool *ext = outside_targets(f);
  if (!ext)
    return false;
  for (uint32_t n = 0; n < f->nn; n++) {
    size_t i = f->first[n];
    const tally_inst_insn *in = &ti->insns[i];
    bool need = f->taken[i] || (in->flags & TALLY_INST_FUNC_ENTRY) || in->pc == ti->entry || ext[i];
    if (i > 0 && next_contiguous(ti, i - 1) && !never_falls(ti, i - 1) && !f->fall_in[n])
      need = true; /* the instruction before comes back here (a call, ecall, ...) or is not in the graph */
    if (need)
      add_edge(f, GV(f), GIN(n), i, E_PLAIN);
  }
  free(ext);
  return true;
}

/* Nodes that V does not reach through the edges so far get an edge from V
 * (code reached only in ways the graph does not show): the graph is then
 * connected, and so is its spanning tree. */
static bool connect_all(flow *f) {
  uint32_t N = 2 * f->nn + 1;
  size_t *head = malloc(N * sizeof *head), *nxt = malloc((f->ne + 1) * sizeof *nxt);
  uint32_t *stack = malloc(N * sizeof *stack);
  bool *seen = calloc(N, sizeof *seen);
  if (!head || !nxt || !stack || !seen) {
    free(head), free(nxt), free(stack), free(seen);
    return false;
  }
  for (uint32_t n = 0; n < N; n++)
    head[n] = (size_t)-1;
  size_t ne = f->ne;
  for (size_t k = 0; k < ne; k++)
    nxt[k] = head[f->e[k].u], head[f->e[k].u] = k;
  for (uint32_t root = GV(f), n = 0; n <= f->nn; n++) {
    uint32_t start = n == 0 ? root : GIN(n - 1);
    if (seen[start])
      continue;
    if (start != root)
      add_edge(f, root, start, f->first[n - 1], E_PLAIN);
    size_t sp = 0;
    stack[sp++] = start;
    seen[start] = true;
    while (sp) {
      uint32_t x = stack[--sp];
      for (size_t k = head[x]; k != (size_t)-1; k = nxt[k])
        if (!seen[f->e[k].v])
          seen[f->e[k].v] = true, stack[sp++] = f->e[k].v;
    }
  }
  free(head), free(nxt), free(stack), free(seen);
  return f->ok;
}

/* Loop depth per node: how many backward branches or jumps (within the
 * graph) span its first instruction. */
static bool loop_depths(flow *f) {
  const tally_inst *ti = f->ti;
  long *diff = calloc(f->nn + 2, sizeof *diff);
  f->depth = calloc(f->nn + 1, sizeof *f->depth);
  if (!diff || !f->depth) {
    free(diff);
    return false;
  }
  for (size_t j = 0; j < ti->ninsns; j++) {
    const isa_insn *d = &ti->dec[j];
    if (f->node_in[j] < 0 || !(inst_branch_index(d->kind) >= 0 || (d->kind == K_JAL && d->rd == 0)) || d->imm > 0)
      continue;
    uint32_t h = node_of_pc(f, ti->insns[j].pc + (uint32_t)d->imm);
    if (h == NO_NODE || h > (uint32_t)f->node_in[j])
      continue;
    diff[h]++;
    diff[f->node_in[j] + 1]--;
  }
  long run = 0;
  for (uint32_t n = 0; n < f->nn; n++) {
    run += diff[n];
    f->depth[n] = (uint32_t)(run > 0 ? run : 0);
  }
  f->depth[f->nn] = 0;
  free(diff);
  return true;
}

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
static bool derive(flow *f, words *prog, uint32_t nctr) {
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
      put(prog, f->e[t].val);
      put(prog, (uint32_t)(start[x + 1] - start[x] - 1));
      for (size_t a = start[x]; a < start[x + 1]; a++) {
        const fedge *e = &f->e[inc[a]];
        if (inc[a] != t)
          put(prog, e->val << 1 | ((e->v == x) == t_in ? NEG : 0));
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

/* A record's value (+1) for block n: its block edge's. */
static void node_terms(const flow *f, uint32_t n, words *out) { put(out, f->e[f->blk[n]].val + 1); }

static void flow_free(flow *f) {
  free(f->node_at), free(f->node_in), free(f->first), free(f->last), free(f->e);
  free(f->blk), free(f->depth), free(f->fall_in);
}

/* Builds the graph of the counted blocks and its spanning tree; the
 * counters get value indices 0..*nctr-1. */
static bool build_flow(flow *f, const bool *in_r, uint32_t *nctr) {
  const tally_inst *ti = f->ti;
  if (!make_nodes(f, in_r))
    return false;
  f->fall_in = calloc(f->nn + 1, sizeof *f->fall_in);
  f->blk = calloc(f->nn + 1, sizeof *f->blk);
  if (!f->fall_in || !f->blk)
    return false;
  for (uint32_t n = 0; n < f->nn; n++)
    node_edges(f, n);
  if (!f->ok || !v_edges(f) || !connect_all(f) || !loop_depths(f))
    return false;
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
  (void)ti;
  return true;
}

/* The instruction a counter of edge e sits at, and its slot (0: the site
 * itself, 1: the taken way, 2: the fall-through way). */
static size_t counter_at(const flow *f, const fedge *e, unsigned *slot) {
  *slot = 0;
  if (e->place == P_NODE)
    return f->first[e->u / 2];
  *slot = e->kind == E_TAKEN ? 1 : 2;
  return e->insn;
}

/* Attaches counter val+1 at instruction i, slot. A site that counts
 * directly already (a counting site that is no block leader, where a node
 * begins) counts the same executions: val is then set from its counter
 * first thing at exit (a step put in alias). */
static int attach(tally_inst *ti, size_t i, unsigned slot, uint32_t val, words *alias, tally_error *err) {
  static const tally_inst_arg site_arg[1] = {{TALLY_INST_ARG_SITE, 0}};
  static const tally_inst_arg edge_args[2] = {{TALLY_INST_ARG_SITE, 0}, {TALLY_INST_ARG_TAKEN, 0}};
  uint32_t pc = ti->insns[i].pc;
  long k = ti->site_of[i];
  bool has_edge_call = false;
  if (k >= 0)
    for (size_t c = 0; c < ti->sites[k].ncalls; c++)
      has_edge_call |= strcmp(ti->sites[k].calls[c].func, "tally_bbcount_edge") == 0;
  int rc = 0;
  if (slot == 0 && k >= 0 && ti->sites[k].ctr[0]) {
    put(alias, val);
    put(alias, 1);
    put(alias, (ti->sites[k].ctr[0] - 1) << 1);
    return 0;
  }
  if (slot == 0)
    rc = tally_inst_add_call(ti, pc, TALLY_INST_BEFORE, "tally_bbcount_hit", site_arg, 1, err);
  else if (!has_edge_call)
    rc = tally_inst_add_call(ti, pc, TALLY_INST_BEFORE, "tally_bbcount_edge", edge_args, 2, err);
  if (!rc)
    ti->sites[ti->site_of[i]].ctr[slot] = val + 1;
  return rc;
}

/* Drops the count call of every counted block's site, and the sites left
 * with nothing to do that the runtime does not need. */
static void strip_sites(tally_inst *ti, const bool *strip) {
  size_t out = 0;
  for (size_t k = 0; k < ti->nsites; k++) {
    inst_site *s = &ti->sites[k];
    if (strip[k]) {
      free(s->calls[0].func);
      s->ncalls = 0;
    }
    if (strip[k] && !inst_site_forced(ti, s->insn)) {
      free(s->calls);
      ti->site_of[s->insn] = -1;
      continue;
    }
    ti->sites[out++] = *s;
  }
  ti->nsites = out;
  for (size_t k = 0; k < ti->nsites; k++)
    ti->site_of[ti->sites[k].insn] = (long)k;
}

/* The records bbcount.out will have (every site as it stands: sorted,
 * with the forced ones), flag 1 for the counting ones. */
static bool take_records(tally_inst *ti) {
  free(ti->bb_rec);
  ti->bb_rec = malloc((2 * ti->nsites + 1) * sizeof *ti->bb_rec);
  if (!ti->bb_rec)
    return false;
  ti->bb_nrec = ti->nsites;
  for (size_t k = 0; k < ti->nsites; k++) {
    const inst_site *s = &ti->sites[k];
    bool counts = false;
    for (size_t c = 0; c < s->ncalls; c++)
      counts |= inst_is_count_call(&s->calls[c]);
    ti->bb_rec[2 * k] = s->pc;
    ti->bb_rec[2 * k + 1] = counts ? 1u : 0u;
  }
  return true;
}

/* The flow plan, or false when it is not worth it or memory runs out (then
 * every counting site counts directly). Fills ti's program and terms. */
static int plan_flow(tally_inst *ti, bool *used, tally_error *err) {
  *used = false;
  size_t nb = ti->nblocks ? ti->nblocks : 1;
  bool *in_r = calloc(nb, sizeof *in_r), *strip = calloc(ti->nsites + 1, sizeof *strip);
  bool *taken = inst_addresses_taken(ti);
  flow f = {.ti = ti, .taken = taken, .ok = true};
  words prog = {.ok = true}, terms = {.ok = true};
  int rc = 0;
  size_t nr = 0;
  bool ok = in_r && strip && taken;
  for (size_t k = 0; ok && k < ti->nsites; k++) {
    const inst_site *s = &ti->sites[k];
    if (is_count_only(s) && (ti->insns[s->insn].flags & TALLY_INST_LEADER))
      in_r[ti->insns[s->insn].block] = strip[k] = true, nr++;
  }
  uint32_t nctr = 0;
  ok = ok && nr && build_flow(&f, in_r, &nctr);
  if (ok && nctr < nr) { /* worth it: fewer counters than blocks */
    uint32_t ndirect = 0;
    for (size_t k = 0; k < ti->nsites; k++) /* a counting site of its own (not a block's leader) */
      if (!strip[k] && ti->bb_rec[2 * k + 1])
        ti->sites[k].ctr[0] = nctr + ++ndirect;
    ok = derive(&f, &prog, nctr + ndirect);
    for (size_t k = 0; ok && k < ti->nsites; k++) /* the records, in bb_rec's order */
      if (strip[k]) {
        node_terms(&f, (uint32_t)f.node_at[ti->sites[k].insn], &terms);
      } else if (ti->sites[k].ctr[0]) {
        put(&terms, ti->sites[k].ctr[0]);
      } else {
        put(&terms, 0);
      }
    ok = ok && terms.ok;
    if (ok) {
      strip_sites(ti, strip);
      words alias = {.ok = true};
      for (size_t k = 0; k < f.ne && !rc; k++)
        if (!f.e[k].tree) {
          unsigned slot;
          size_t at = counter_at(&f, &f.e[k], &slot);
          rc = attach(ti, at, slot, f.e[k].val, &alias, err);
        }
      for (size_t w = 0; w < prog.n; w++) /* the aliases first */
        put(&alias, prog.v[w]);
      if (!alias.ok && !rc)
        rc = inst_fail(err, TALLY_INST_ETOOLCHAIN, "out of memory");
      free(prog.v);
      prog = alias;
      ti->bb_nvals = nctr + ndirect + (uint32_t)(f.ne - nctr);
      ti->bb_nctr = nctr + ndirect;
      ti->bb_prog = prog.v, ti->bb_nprog = prog.n;
      ti->bb_terms = terms.v, ti->bb_nterms = terms.n;
      ti->bb_nnodes = f.nn, ti->bb_nedges = f.ne;
      prog.v = terms.v = NULL;
      *used = !rc;
    }
  }
  free(in_r), free(strip), free(taken), free(prog.v), free(terms.v);
  flow_free(&f);
  return rc;
}

/* Every counting site counts into a counter of its own (--bbcount all, or
 * when the flow plan would not save any). */
static int plan_direct(tally_inst *ti, tally_error *err) {
  words terms = {.ok = true};
  uint32_t n = 0;
  for (size_t k = 0; k < ti->nsites; k++)
    if (ti->bb_rec[2 * k + 1]) {
      ti->sites[k].ctr[0] = ++n;
      put(&terms, n);
    } else {
      put(&terms, 0);
    }
  if (!terms.ok)
    return inst_fail(err, TALLY_INST_ETOOLCHAIN, "out of memory");
  ti->bb_nvals = ti->bb_nctr = n;
  ti->bb_terms = terms.v, ti->bb_nterms = terms.n;
  return 0;
}

/* Values renumbered in the order the derivation at exit first touches
 * them (then the records'), so that its reads and writes go through the
 * array nearly in order: a few D-cache misses instead of one per value.
 * The sites' counters follow. */
static bool renumber(tally_inst *ti) {
  uint32_t n = ti->bb_nvals, next = 0;
  uint32_t *to = malloc((n ? n : 1) * sizeof *to);
  if (!to)
    return false;
  for (uint32_t v = 0; v < n; v++)
    to[v] = UINT32_MAX;
#define TOUCH(v) (to[v] == UINT32_MAX ? (to[v] = next++) : to[v])
  for (size_t p = 0; p < ti->bb_nprog;) { /* byte offsets: {dst, npos, nneg, terms} */
    uint32_t npos = ti->bb_prog[p + 1], nneg = ti->bb_prog[p + 2];
    for (uint32_t i = 0; i < npos + nneg; i++)
      TOUCH(ti->bb_prog[p + 3 + i] / 8);
    TOUCH(ti->bb_prog[p] / 8);
    p += 3 + npos + nneg;
  }
  for (size_t r = 0; r < ti->bb_nterms; r++)
    if (ti->bb_terms[r])
      TOUCH(ti->bb_terms[r] - 1);
  for (uint32_t v = 0; v < n; v++)
    TOUCH(v);
#undef TOUCH
  for (size_t p = 0; p < ti->bb_nprog;) {
    uint32_t k = 3 + ti->bb_prog[p + 1] + ti->bb_prog[p + 2];
    ti->bb_prog[p] = 8 * to[ti->bb_prog[p] / 8];
    for (uint32_t i = 3; i < k; i++)
      ti->bb_prog[p + i] = 8 * to[ti->bb_prog[p + i] / 8];
    p += k;
  }
  for (size_t r = 0; r < ti->bb_nterms; r++)
    if (ti->bb_terms[r])
      ti->bb_terms[r] = to[ti->bb_terms[r] - 1] + 1;
  for (size_t k = 0; k < ti->nsites; k++)
    for (int c = 0; c < 3; c++)
      if (ti->sites[k].ctr[c])
        ti->sites[k].ctr[c] = to[ti->sites[k].ctr[c] - 1] + 1;
  free(to);
  return true;
}

/* The derivation as the target runs it: a step that copies one value is
 * dropped and its value's users read the original instead; the others
 * become {byte offset of the value, npos, nneg, byte offsets of the terms
 * added, then of those subtracted}, so that the loop at exit does no
 * shifting or sign testing. The records follow the copies too. */
static bool compact_prog(tally_inst *ti) {
  uint32_t *canon = malloc((ti->bb_nvals ? ti->bb_nvals : 1) * sizeof *canon);
  words out = {.ok = true};
  if (!canon)
    return false;
  for (uint32_t v = 0; v < ti->bb_nvals; v++)
    canon[v] = v;
  for (size_t p = 0; p < ti->bb_nprog;) {
    uint32_t dst = ti->bb_prog[p], n = ti->bb_prog[p + 1];
    const uint32_t *t = ti->bb_prog + p + 2;
    p += 2 + n;
    if (n == 1 && !(t[0] & NEG)) {
      canon[dst] = canon[t[0] >> 1];
      continue;
    }
    uint32_t npos = 0;
    for (uint32_t i = 0; i < n; i++)
      npos += !(t[i] & NEG);
    put(&out, 8 * dst);
    put(&out, npos);
    put(&out, n - npos);
    for (uint32_t sign = 0; sign < 2; sign++)
      for (uint32_t i = 0; i < n; i++)
        if ((t[i] & NEG) == sign)
          put(&out, 8 * canon[t[i] >> 1]);
  }
  for (size_t r = 0; r < ti->bb_nterms; r++)
    if (ti->bb_terms[r])
      ti->bb_terms[r] = canon[ti->bb_terms[r] - 1] + 1;
  free(canon);
  free(ti->bb_prog);
  ti->bb_prog = out.v, ti->bb_nprog = out.n;
  return out.ok && renumber(ti);
}

int inst_flow_plan(tally_inst *ti, tally_error *err) {
  if (!ti->tool_name || strcmp(ti->tool_name, "bbcount") != 0 || ti->bb_rec)
    return 0;
  if (!take_records(ti))
    return inst_fail(err, TALLY_INST_ETOOLCHAIN, "out of memory");
  bool used = false;
  if (!ti->bb_all) {
    int rc = plan_flow(ti, &used, err);
    if (rc)
      return rc;
  }
  if (!used)
    return plan_direct(ti, err);
  return compact_prog(ti) ? 0 : inst_fail(err, TALLY_INST_ETOOLCHAIN, "out of memory");
}
