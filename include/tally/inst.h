/*
 * libtally's static binary instrumenter: the tool-building API.
 *
 * A tally_inst is one RV32 executable opened for rewriting. Its code is
 * decoded with tally's own decoder; functions come from its symbol table,
 * basic blocks, loop headers, call sites, returns, loads and stores from
 * the decoded code. A tool attaches calls to analysis functions (C for the
 * target, linked in by the standard riscv64-unknown-elf toolchain) at
 * chosen instructions, before or after them, with chosen arguments, and
 * writes the result: the same program, with every instrumented instruction
 * replaced in place by a same-length trap (ebreak / c.ebreak), so that no
 * instruction and no data moves, plus the analysis image in memory the
 * program never uses (0x88000000, above the 128 MiB the program owns).
 * See docs/tally-inst.md for the rules and src/inst/README.md for the how.
 *
 *   tally_error err;
 *   tally_inst *ti;
 *   if (tally_inst_open("prog.elf", &ti, &err) != 0) { puts(err.msg); ... }
 *   for (size_t b = 0; b < tally_inst_nblocks(ti); b++) {
 *     tally_inst_arg a = {TALLY_INST_ARG_SITE, 0};
 *     tally_inst_add_call(ti, tally_inst_block_at(ti, b)->lo, TALLY_INST_BEFORE, "count", &a, 1, &err);
 *   }
 *   tally_inst_add_source(ti, "count.c", &err);
 *   int rc = tally_inst_write(ti, "prog.inst.elf", &err);  // 0 or a TALLY_INST_E* code
 *   tally_inst_close(ti);
 *
 * Errors: functions returning int give 0 on success, or one of the codes
 * below with err->msg saying what and where.
 */
#ifndef TALLY_INST_H
#define TALLY_INST_H

#include <stddef.h>
#include <stdint.h>

#include "tally/tally.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Error codes (the values are the exit statuses of `tally inst`). */
enum {
  TALLY_INST_EUSAGE = 64,    /* a bad request: unknown function, pc that is no instruction, ... */
  TALLY_INST_ECANNOT = 65,   /* the program cannot be instrumented as asked (says what and where) */
  TALLY_INST_EINPUT = 66,    /* unreadable, or not an RV32 executable */
  TALLY_INST_ETOOLCHAIN = 70 /* the cross toolchain is missing or failed (its message shown) */
};

typedef struct tally_inst tally_inst;

/* What the decoder found out about one instruction (tally_inst_insn.flags). */
enum {
  TALLY_INST_LEADER = 1u << 0,    /* first instruction of a basic block */
  TALLY_INST_LOOP = 1u << 1,      /* a loop header: the target of a backward branch or jump */
  TALLY_INST_CALL = 1u << 2,      /* a call: jal/jalr writing ra or t0 */
  TALLY_INST_RET = 1u << 3,       /* a return: jalr x0, 0(ra) (or t0) */
  TALLY_INST_LOAD = 1u << 4,      /* reads data memory (loads, lr, AMOs) */
  TALLY_INST_STORE = 1u << 5,     /* writes data memory (stores, sc, AMOs) */
  TALLY_INST_BRANCH = 1u << 6,    /* a conditional branch */
  TALLY_INST_JUMP = 1u << 7,      /* jal or jalr */
  TALLY_INST_FUNC_ENTRY = 1u << 8,/* first instruction of a function */
  TALLY_INST_SEMIHOST = 1u << 9,  /* first of a semihosting call sequence (slli; ebreak; srai) */
  TALLY_INST_NOSITE = 1u << 10,   /* cannot be instrumented alone (the rest of a semihosting sequence) */
};

typedef struct tally_inst_insn {
  uint32_t pc;
  uint32_t raw;     /* the bits (16 significant when len == 2) */
  uint8_t len;      /* 2 or 4 */
  unsigned flags;   /* TALLY_INST_* above */
  int func;         /* index of its function, -1 when none */
  int block;        /* index of its basic block */
} tally_inst_insn;

typedef struct tally_inst_block {
  uint32_t lo, hi;       /* [lo, hi) */
  size_t first, n;       /* its instructions: insn indices first .. first+n-1 */
  int func;              /* -1 when no symbol covers it */
} tally_inst_block;

typedef struct tally_inst_func {
  const char *name;
  uint32_t lo, hi;
  size_t first_block, nblocks;
} tally_inst_func;

/* Opens and analyses an executable: *out is set on success (0); else the
 * code is TALLY_INST_EINPUT or TALLY_INST_ECANNOT and err says why. */
int tally_inst_open(const char *path, tally_inst **out, tally_error *err);
void tally_inst_close(tally_inst *ti);

/* Walking the program (indices are stable until close). */
size_t tally_inst_ninsns(const tally_inst *ti);
const tally_inst_insn *tally_inst_insn_at(const tally_inst *ti, size_t i);
/* Index of the instruction at pc, or -1. */
long tally_inst_find_insn(const tally_inst *ti, uint32_t pc);
size_t tally_inst_nblocks(const tally_inst *ti);
const tally_inst_block *tally_inst_block_at(const tally_inst *ti, size_t i);
size_t tally_inst_nfuncs(const tally_inst *ti);
const tally_inst_func *tally_inst_func_at(const tally_inst *ti, size_t i);
/* One-line disassembly of instruction i into buf (as snprintf). */
int tally_inst_disasm(const tally_inst *ti, size_t i, char *buf, size_t size);
/* "func+0x12" or "0x80000010" for a pc (buf). */
const char *tally_inst_where(const tally_inst *ti, uint32_t pc, char *buf, size_t size);
/* Resolves 0xADDR, SYMBOL, SYMBOL+OFF or FILE:LINE to an instruction pc.
 * 0, or TALLY_INST_EUSAGE with err saying what did not match. */
int tally_inst_resolve(const tally_inst *ti, const char *where, uint32_t *pc, tally_error *err);

/* What an analysis call receives, in a0..a5, in order. */
typedef enum tally_inst_arg_kind {
  TALLY_INST_ARG_SITE,    /* the site's index (0 .. tally_inst_nsites-1 on the target) */
  TALLY_INST_ARG_PC,      /* the instruction's original address */
  TALLY_INST_ARG_EA,      /* effective address of a load/store/AMO, else 0 */
  TALLY_INST_ARG_TAKEN,   /* 1 when the branch is taken (jumps: 1), else 0 */
  TALLY_INST_ARG_REG,     /* register xN's value before the instruction (value = N) */
  TALLY_INST_ARG_HPM,     /* mhpmcounterN (value = N; 0 = mcycle, 2 = minstret) */
  TALLY_INST_ARG_CYCLE,   /* mcycle */
  TALLY_INST_ARG_INSTRET  /* minstret */
} tally_inst_arg_kind;

typedef struct tally_inst_arg {
  tally_inst_arg_kind kind;
  unsigned value; /* N for REG and HPM */
} tally_inst_arg;

#define TALLY_INST_MAX_ARGS 6

enum { TALLY_INST_BEFORE = 0, TALLY_INST_AFTER = 1 };

/* Attach `func(args...)` before or after the instruction at pc. A pc may
 * get several calls; they run in the order attached. */
int tally_inst_add_call(tally_inst *ti, uint32_t pc, int when, const char *func, const tally_inst_arg *args,
                        unsigned nargs, tally_error *err);
/* Make pc a site without any call (an empty analysis: transparency tests). */
int tally_inst_add_site(tally_inst *ti, uint32_t pc, tally_error *err);
/* The site at pc runs rarely compared with the code around it (a switch
 * on a loop's way out runs once per use of the loop): its jal may displace
 * only its own instruction or later ones of its own block, which run as
 * often as it does, never the branch that falls into it (a loop's back edge
 * runs every iteration, and so would a trampoline there). Where that leaves
 * no place for a jal (a 2-byte site alone in its block), the site is a trap
 * (c.ebreak, the trap entry going straight on to its trampoline), a cost of
 * a few hundred cycles paid on the site's own runs only; the site's `why`
 * then begins "rare site". Makes pc a site if it was not one; no other
 * site's placement changes. 0, or TALLY_INST_EUSAGE / _ECANNOT with err. */
int tally_inst_set_rare(tally_inst *ti, uint32_t pc, tally_error *err);
/* Analysis code to link: C sources (.c), assembly (.S) or objects (.o). */
int tally_inst_add_source(tally_inst *ti, const char *path, tally_error *err);

/* Links a tool shipped with tally (its target code, target/inst/NAME.c)
 * instead of, or besides, user sources: "bbcount" defines
 * tally_bbcount_hit(site) and writes bbcount.out at exit. */
int tally_inst_use_tool(tally_inst *ti, const char *name, tally_error *err);

typedef enum tally_inst_tactic { TALLY_INST_TACTIC_AUTO, TALLY_INST_TACTIC_JUMP, TALLY_INST_TACTIC_TRAP } tally_inst_tactic;
/* auto (default) uses a jump where a trampoline is in reach, else a trap.
 * Setting TALLY_INST_TACTIC_JUMP makes a site that no trampoline reaches an error. */
void tally_inst_set_tactic(tally_inst *ti, tally_inst_tactic t);

/* The bbcount tool counts a few edges and derives every block's count from
 * them by flow conservation (the default), or, with all nonzero, counts
 * every counting site directly. bbcount.out is the same either way. */
void tally_inst_set_bbcount_all(tally_inst *ti, int all);

/* The sites as they stand (after tally_inst_write: with the tactic chosen). */
typedef struct tally_inst_site_info {
  uint32_t pc;
  unsigned ncalls;
  const char *tactic; /* "trap" or "jump" */
  const char *why;    /* why that tactic */
} tally_inst_site_info;
size_t tally_inst_nsites(const tally_inst *ti);
void tally_inst_site_get(const tally_inst *ti, size_t i, tally_inst_site_info *out);

/* What tally_inst_write made (valid after it succeeded). */
typedef struct tally_inst_summary {
  size_t sites;          /* every site */
  size_t jump;           /* replaced by a jal to a trampoline */
  size_t trap;           /* replaced by a trap (ebreak / c.ebreak) ... */
  size_t trap_tramp;     /* ... of which the trap entry sends on to a trampoline (the fast path) */
  size_t own;            /* of all sites, those the runtime needs whatever was asked (semihosting calls, trap CSRs, mret) */
  size_t insns;          /* instructions decoded */
  uint32_t code_bytes;   /* bytes of the executable sections that are instructions */
  uint32_t data_bytes;   /* bytes of the executable sections that are not (data, padding) */
  uint32_t tramp_bytes;  /* the trampolines, in the program's hole */
  uint32_t region_code;  /* the analysis region's code and read-only data (file bytes, executable) */
  uint32_t region_data;  /* its writable data, zeroed data and stack (memory bytes) */
  uint64_t in_size, out_size; /* the two files, bytes */
} tally_inst_summary;
void tally_inst_get_summary(const tally_inst *ti, tally_inst_summary *out);

/* Warnings of the last tally_inst_write (made or not): loads that may read
 * replaced instructions through a pointer formed outside their block (a
 * data-flow check; docs/tally-inst.md, "Code that reads itself"). The
 * count may exceed what is kept (64): tally_inst_warning is NULL past it. */
size_t tally_inst_nwarnings(const tally_inst *ti);
const char *tally_inst_warning(const tally_inst *ti, size_t i);

/* Generates the trampolines and tables, compiles and links the analysis
 * image with riscv64-unknown-elf-gcc (from PATH, or $TALLY_RISCV_CC), and
 * writes the instrumented executable to `out` (through a temporary file
 * renamed on success: a failed write leaves no file). */
int tally_inst_write(tally_inst *ti, const char *out, tally_error *err);

/* Where the analysis image lives in the output (for tally run's reports). */
#define TALLY_INST_REGION_BASE 0x88000000u
#define TALLY_INST_REGION_SIZE 0x01000000u
/* The instrumented program's entry point (QEMU -bios none starts at the RAM
 * base whatever the ELF says: -device loader,addr=0x88001000,cpu-num=0). */
#define TALLY_INST_ENTRY 0x88001000u
/* RAM the instrumented program needs: 256 MiB (QEMU: -m 256M). */
#define TALLY_INST_RAM_SIZE (256u << 20)

#ifdef __cplusplus
}
#endif

#endif
