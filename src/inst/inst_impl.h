/*
 * The instrumenter's insides, shared by the files of src/inst/ (one concern
 * each: inst_elf.c reads the input, inst_cfg.c decodes and finds blocks,
 * inst_sites.c keeps the sites and calls, inst_gen.c writes the analysis
 * sources, inst_link.c runs the cross toolchain, inst_write.c writes the
 * output ELF, inst_api.c is the public walk API).
 */
#ifndef TALLY_INST_IMPL_H
#define TALLY_INST_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/isa.h"
#include "../symbols/lines.h"
#include "../symbols/symtab.h"
#include "tally/inst.h"

/* One PT_LOAD segment (of the input, or of the linked analysis image). */
typedef struct inst_seg {
  uint32_t offset, vaddr, paddr, filesz, memsz, flags, align;
} inst_seg;

/* An executable section: the only place instructions are decoded from. */
typedef struct inst_code {
  char *name;
  uint32_t lo, hi;   /* addresses */
  uint32_t offset;   /* file offset of lo */
} inst_code;

/* An object symbol with a size (STT_OBJECT) overlapping an executable
 * section: data, never decoded (inst_code.c). */
typedef struct inst_obj {
  char *name;
  uint32_t lo, hi;
} inst_obj;

typedef struct inst_call {
  char *func;
  uint8_t when; /* TALLY_INST_BEFORE / AFTER */
  uint8_t nargs;
  tally_inst_arg args[TALLY_INST_MAX_ARGS];
} inst_call;

typedef struct inst_site {
  uint32_t pc;
  size_t insn;            /* index into ti->insns */
  inst_call *calls;
  size_t ncalls, cap;
  const char *tactic, *why;
  char why_buf[192];       /* why, when it names an address */
  bool jump;              /* the jump tactic: a jal at host_pc to tramp */
  bool rare;              /* runs rarely: no jal on a branch before it (tally_inst_set_rare) */
  uint32_t host_pc;       /* where the jal goes: pc, or a later 4-byte instruction of pc's block */
  size_t host;            /* index into ti->insns of host_pc */
  uint32_t tramp;         /* the trampoline's address (in the hole) */
  uint32_t ctr[3];        /* bbcount: counter index + 1 (0: none) counted at the site, on the
                           * branch's taken way, on its fall-through way (inst_flow.c) */
} inst_site;

struct tally_inst {
  char *path;
  uint8_t *file;        /* the whole input file */
  size_t file_size;
  uint32_t entry;
  bool rvc;             /* built with compressed instructions (e_flags) */
  inst_seg *segs;
  size_t nsegs;
  inst_code *code;
  size_t ncode;
  inst_obj *objs;       /* object symbols in the executable sections */
  size_t nobjs;
  uint32_t data_bytes;  /* bytes of the executable sections that are not code (inst_code.c) */
  char *warnings[64];   /* what the instrumentation may change that it cannot refuse (inst_selfread.c) */
  size_t nwarnings, nwarnings_total;
  tally_inst_summary sum; /* what tally_inst_write made (inst_write.c fills the sizes) */

  sym_table syms;
  bool has_symtab;
  sym_lines lines;
  bool has_lines;

  tally_inst_insn *insns;
  isa_insn *dec;        /* decoded form of insns[i] */
  size_t ninsns;
  tally_inst_block *blocks;
  size_t nblocks;
  tally_inst_func *funcs;
  size_t nfuncs;

  long *site_of;        /* per instruction: its index in sites, or -1 */
  inst_site *sites;     /* sorted by pc once written */
  size_t nsites, sites_cap;
  const char *tool;     /* a shipped tool's source file name (from target/inst/), or NULL */
  const char *tool_name;
  char **sources;
  size_t nsources;
  tally_inst_tactic tactic;

  uint32_t hole_lo, hole_hi;  /* the trampoline hole (target/tally.ld), or 0, 0 */
  const char *no_hole_why;    /* why there is no usable hole */
  bool irq_possible;          /* the program may enable interrupts (writes mstatus or mie) */
  bool has_handler;           /* the program installs a trap handler (writes mtvec) */
  char *tramp_asm;            /* tramps.S, the trampolines (inst_tramp.c) */
  size_t tramp_size;          /* bytes of trampolines */

  /* bbcount (inst_flow.c): the records of bbcount.out, the counters and
   * how the records follow from them */
  bool bb_all;                /* --bbcount all: a counter per counting site */
  uint32_t *bb_rec;           /* per record: pc, flags */
  size_t bb_nrec;
  uint32_t bb_nctr, bb_nvals; /* counters the sites bump; values (counters, then derived edges) */
  uint32_t *bb_prog;          /* per derived value: its byte offset, npos, nneg, the terms' offsets
                               * (while planned: index, n, n terms of index << 1, bit 0: minus) */
  size_t bb_nprog;
  uint32_t *bb_terms;         /* per record: its value's index + 1 (0: none, the count is 0) */
  size_t bb_nterms;
  size_t bb_nnodes, bb_nedges; /* the flow graph's size (0: every block counted) */
};

int inst_fail(tally_error *err, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* inst_elf.c: reads and checks the input; fills file, segs, code, syms, lines. */
int inst_elf_read(tally_inst *ti, const char *path, tally_error *err);

/* inst_code.c: which halfwords of each code section start an instruction
 * (2), continue one (3), are data by an object symbol (1) or by no rule
 * code (0): *map[section][halfword], calloc'ed. ECANNOT naming what is
 * ambiguous. */
int inst_code_map(tally_inst *ti, uint8_t ***map, tally_error *err);
/* The object symbol holding addr, or NULL; a data address named by the
 * object symbols. */
const inst_obj *inst_obj_at(const tally_inst *ti, uint32_t addr);
const char *inst_data_where(const tally_inst *ti, uint32_t addr, char *buf, size_t size);

#define INST_MAX_WARNINGS 64
/* inst_selfread.c: warnings for loads that may read replaced code through
 * a pointer formed elsewhere (after the sites are planned). */
void inst_selfread_check(tally_inst *ti);

/* inst_cfg.c: decodes every executable section; functions, blocks, flags. */
int inst_cfg_build(tally_inst *ti, tally_error *err);

/* inst_sites.c */
inst_site *inst_site_get(tally_inst *ti, uint32_t pc, tally_error *err);
void inst_sites_sort(tally_inst *ti);
/* Checks what the sites need against what can be done (ECANNOT). */
int inst_sites_check(tally_inst *ti, tally_error *err);

/* inst_sites.c: the runtime needs instruction i as a site whatever was asked. */
bool inst_site_forced(const tally_inst *ti, size_t i);

/* inst_flow.c: for bbcount, which counters go where and how every
 * record's count follows from them (flow conservation). */
int inst_flow_plan(tally_inst *ti, tally_error *err);

/* inst_tramp.c: per instruction, whether its address is held in the
 * program's loaded bytes or formed by its code (calloc'ed; NULL: out of memory). */
bool *inst_addresses_taken(const tally_inst *ti);

/* inst_tramp.c: the tactic of every site and, for the jump tactic, the
 * trampolines' source (ti->tramp_asm); ECANNOT for --tactic jump when a
 * site that a jump could replace is out of reach. */
int inst_tramp_plan(tally_inst *ti, tally_error *err);

/* inst_gen.c: writes the analysis sources (runtime, site tables, linker
 * script) into dir. */
int inst_gen_write(const tally_inst *ti, const char *dir, tally_error *err);

/* inst_link.c: compiles and links dir's sources plus ti->sources into
 * dir/analysis.elf. */
int inst_link_run(const tally_inst *ti, const char *dir, tally_error *err);

/* inst_write.c: merges the analysis image into a copy of the input with
 * every site patched; writes `out` through a temporary file. */
int inst_write_output(const tally_inst *ti, const char *analysis_elf, const char *out, tally_inst_summary *sum,
                      tally_error *err);

/* inst_embed.c (generated at build time): the target-side runtime sources. */
typedef struct inst_embedded_file {
  const char *name;
  const unsigned char *data;
  size_t size;
} inst_embedded_file;
extern const inst_embedded_file inst_embedded_files[];
extern const size_t inst_embedded_nfiles;

#endif
