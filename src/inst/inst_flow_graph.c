/*
 * The graph of bbcount's flow plan (inst_flow.c says what it is for):
 * nodes for the counted blocks (entry and exit each), split where code may
 * be entered other than at a leader; their edges; the edges from and to
 * the virtual node V; loop depths for the weights.
 */
#include <stdlib.h>

#include "inst_flow.h"

void inst_flow_put(words *w, uint32_t x) {
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

void inst_flow_free(flow *f) {
  free(f->node_at), free(f->node_in), free(f->first), free(f->last), free(f->e);
  free(f->blk), free(f->depth), free(f->fall_in);
}

bool inst_flow_graph(flow *f, const bool *in_r) {
  if (!make_nodes(f, in_r))
    return false;
  f->fall_in = calloc(f->nn + 1, sizeof *f->fall_in);
  f->blk = calloc(f->nn + 1, sizeof *f->blk);
  if (!f->fall_in || !f->blk)
    return false;
  for (uint32_t n = 0; n < f->nn; n++)
    node_edges(f, n);
  return f->ok && v_edges(f) && connect_all(f) && loop_depths(f);
}
