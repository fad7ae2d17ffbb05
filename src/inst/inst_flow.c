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
 * Each block is two nodes, its entry and its exit, joined by the block's
 * own edge, whose count is the block's. A maximum spanning tree
 * (inst_flow_tree.c; weights: the estimated cost of counting an edge,
 * 8^loop depth times the cost of one count there) gets no counters; every
 * edge off it does: a block edge at the block (its first instruction), a
 * branch's way on the branch itself (the trampoline counts on the taken or
 * the fall-through way). An edge from or to V, a jump or a fall cannot be
 * counted where it is, and is in the tree by force (those edges never
 * close a cycle among themselves). The other counts follow from the
 * leaves of the tree inwards, one conservation equation each; a record's
 * count is its block edge's.
 *
 * The derivation runs in the target at exit (bbcount.c), from a program of
 * sums this file writes (sites.c): bbcount.out keeps its layout and its
 * contents, and QEMU's run writes the same file.
 */
#include <stdlib.h>
#include <string.h>

#include "inst_flow.h"

static bool is_count_only(const inst_site *s) { return s->ncalls == 1 && inst_is_count_call(&s->calls[0]); }

/* A record's value (+1) for block n: its block edge's. */
static void node_terms(const flow *f, uint32_t n, words *out) { inst_flow_put(out, f->e[f->blk[n]].val + 1); }

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
    inst_flow_put(alias, val);
    inst_flow_put(alias, 1);
    inst_flow_put(alias, (ti->sites[k].ctr[0] - 1) << 1);
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
  ok = ok && nr && inst_flow_graph(&f, in_r) && inst_flow_tree(&f, &nctr);
  if (ok && nctr < nr) { /* worth it: fewer counters than blocks */
    uint32_t ndirect = 0;
    for (size_t k = 0; k < ti->nsites; k++) /* a counting site of its own (not a block's leader) */
      if (!strip[k] && ti->bb_rec[2 * k + 1])
        ti->sites[k].ctr[0] = nctr + ++ndirect;
    ok = inst_flow_derive(&f, &prog, nctr + ndirect);
    for (size_t k = 0; ok && k < ti->nsites; k++) /* the records, in bb_rec's order */
      if (strip[k]) {
        node_terms(&f, (uint32_t)f.node_at[ti->sites[k].insn], &terms);
      } else if (ti->sites[k].ctr[0]) {
        inst_flow_put(&terms, ti->sites[k].ctr[0]);
      } else {
        inst_flow_put(&terms, 0);
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
        inst_flow_put(&alias, prog.v[w]);
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
  inst_flow_free(&f);
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
      inst_flow_put(&terms, n);
    } else {
      inst_flow_put(&terms, 0);
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
    inst_flow_put(&out, 8 * dst);
    inst_flow_put(&out, npos);
    inst_flow_put(&out, n - npos);
    for (uint32_t sign = 0; sign < 2; sign++)
      for (uint32_t i = 0; i < n; i++)
        if ((t[i] & NEG) == sign)
          inst_flow_put(&out, 8 * canon[t[i] >> 1]);
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
