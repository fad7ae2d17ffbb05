/*
 * bbcount's flow plan, shared by inst_flow_graph.c (the graph of the
 * counted blocks), inst_flow_tree.c (which edges get counters, and the
 * derivation of the others) and inst_flow.c (the plan: counters onto
 * sites, the records of bbcount.out). The method: inst_flow.c's comment.
 */
#ifndef TALLY_INST_FLOW_H
#define TALLY_INST_FLOW_H

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

void inst_flow_put(words *w, uint32_t x);

/* inst_flow_graph.c: nodes, edges (with those from and to V), loop depths;
 * in_r[b]: block b is counted. False when out of memory. */
bool inst_flow_graph(flow *f, const bool *in_r);
void inst_flow_free(flow *f);

/* inst_flow_tree.c: the weights, the maximum spanning tree, and the
 * counters (value indices 0..*nctr-1 on the edges off the tree). */
bool inst_flow_tree(flow *f, uint32_t *nctr);
/* The derivation of the tree edges (their values from nctr on) into prog:
 * {value index, n, n terms (value index << 1, NEG for minus)} per edge. */
bool inst_flow_derive(flow *f, words *prog, uint32_t nctr);

#endif
