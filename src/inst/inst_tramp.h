/*
 * The trampolines' generator, shared by inst_tramp.c (where each site's
 * jal goes, and the plan) and inst_tramp_emit.c (the assembly text of
 * tramps.S). Not part of any API.
 */
#ifndef TALLY_INST_TRAMP_H
#define TALLY_INST_TRAMP_H

#include "inst_impl.h"

#define JAL_REACH (1u << 20) /* jal: -1 MiB .. +1 MiB - 2 */

/* A count emitted inline, for its carry into the high word. */
struct tcount {
  int label;        /* its count's carry label, or -1 */
  unsigned ra, rv;  /* the registers the count used (address, value) */
  uint32_t ctr;     /* the counter (its index in __tally_inst_ctr) */
};

/* The text of tramps.S being written, and where its next instruction goes. */
typedef struct tgen {
  char *buf;
  size_t len, cap;
  uint32_t base, off; /* the hole's start; bytes of code so far */
  bool ok;            /* every jump so far in reach */
  bool irq;           /* MIE handling needed */
  unsigned label;
  uint32_t hot_end;   /* the end of the last trampoline's part every visit runs */
  uint32_t text_end;  /* where the assembler's location is: the end of the last trampoline */
  size_t mark_len;    /* text length, label count and text_end before the last trampoline */
  unsigned mark_label;
  uint32_t mark_text_end;
  /* bbcount's counts on a branch's ways, for the next displaced branch
   * (counter index + 1, 0: none; the registers dead on that way), and
   * their carries once emitted */
  uint32_t br_ctr[2];          /* taken, fall-through */
  unsigned br_dead[2][2];
  struct tcount br_carry[2];
} tgen;

/* What a trampoline does on a branch's not-taken path instead of going
 * back (hosting a fall-through-only block's site, see host_of). */
typedef struct edge {
  void (*emit)(tgen *g, const struct edge *e);
  const tally_inst *ti;
  size_t site;      /* the hosted site, or NO_SITE */
  long displace;    /* its instruction, displaced too (-1: left in place, the way back goes there) */
  struct tcount carry;
  unsigned dead_a, dead_v; /* registers dead at the site (0: none) */
} edge;
typedef struct tcount tcount;
#define NO_SITE ((size_t)-1)

/* A trampoline's analysis: none, bbcount's count inline, or the calls. */
enum body { BODY_NONE, BODY_COUNT, BODY_CALL };

/* One instruction of assembly (4 bytes). */
#define INSN(g, ...) (inst_tg_out(g, "\t" __VA_ARGS__), inst_tg_out(g, "\n"), (g)->off += 4)

void inst_tg_out(tgen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
uint32_t inst_tg_here(const tgen *g);
bool inst_tg_in_reach(uint32_t from, uint32_t to);
/* The end of a trampoline: a jump back to `to`, or the jalr line given. */
void inst_tg_exit(tgen *g, uint32_t to, const char *jalr_line);
/* A displaced instruction at pc, then the way back (e: a branch's not-taken path). */
void inst_tg_displaced(tgen *g, const isa_insn *d, uint32_t pc, edge *e);
/* A non-control instruction, copied or expanded to 32 bits. */
void inst_tg_plain(tgen *g, const isa_insn *d);
/* Site k's analysis (for a count: counter ctr - 1, none when ctr is 0, in
 * the dead registers dead_a, dead_v when nonzero); what inst_tg_carry needs. */
tcount inst_tg_body(tgen *g, enum body body, size_t k, uint32_t ctr, unsigned dead_a, unsigned dead_v);
void inst_tg_carry(tgen *g, tcount c);
/* The fast-trap table of rt_entry.S. */
void inst_tg_fast_table(const tally_inst *ti, tgen *g);
int inst_branch_index(unsigned kind);
bool inst_is_count_call(const inst_call *c);
/* bbcount's count of a branch's way (tally_bbcount_edge(site, taken)). */
bool inst_is_edge_call(const inst_call *c);
enum body inst_body_of(const tally_inst *ti, const inst_site *s);

#endif
