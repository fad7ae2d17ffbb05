/*
 * libtally: the public C API.
 *
 * A tally_sim is one simulated board: an RV32IMAC hart in machine mode, RAM
 * and devices as a board description says (docs/boards.md; the default is
 * QEMU's `virt`: RAM at 0x80000000). Everything lives in the tally_sim, so
 * several simulations can run in one process (one thread each).
 *
 *   tally_sim *sim = tally_sim_new(NULL);
 *   tally_error err;
 *   if (tally_load_elf(sim, "prog.elf", &err) != 0) { puts(err.msg); ... }
 *   tally_set_args(sim, argc, argv);
 *   while (tally_run(sim, 100000000) == TALLY_STOP_LIMIT)
 *     ;  // check a deadline, show progress...
 *   int status = tally_exit_code(sim);
 *   tally_sim_free(sim);
 */
#ifndef TALLY_TALLY_H
#define TALLY_TALLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TALLY_RAM_BASE 0x80000000u            /* the virt board's */
#define TALLY_RAM_SIZE_DEFAULT (128u << 20) /* as QEMU virt */

typedef struct tally_sim tally_sim;

/* What kind of failure a tally_error reports, for a client's exit status.
 * Set by the calls of run.h, store.h, collector.h and export.h. */
typedef enum tally_errcode {
  TALLY_E_UNSPECIFIED = 0,
  TALLY_E_USAGE,      /* a bad argument: spec, parameter, address, option combination */
  TALLY_E_INPUT,      /* an input file that cannot be read or is not what it should be (map, key, store) */
  TALLY_E_CREATE,     /* an output that cannot be created (the store) */
  TALLY_E_INTERNAL,   /* host-side failure: memory, threads, sockets, SQLite */
  TALLY_E_REFUSED,    /* the other side said no (a board refusing a control packet) */
  TALLY_E_NOANSWER,   /* the other side did not answer */
} tally_errcode;

/* A human-readable error: what went wrong and where (file, offset, address). */
typedef struct tally_error {
  char msg[512];
  tally_errcode code;
} tally_error;

typedef struct tally_config {
  uint32_t ram_size;  /* bytes, multiple of 4 KiB; 0 = the board's (virt: TALLY_RAM_SIZE_DEFAULT) */
  FILE *out, *err;    /* the program's stdout/stderr; NULL = the process's own */
  int in_fd;          /* the program's stdin; -1 = none (reads say end of input at once); default 0 */
  /* The board (memory map and devices): the name of a shipped board
   * ("virt", "litex"; found in tally_board_dirs) or a path to a board file
   * (docs/boards.md). NULL = "virt", built in. Read by tally_sim_open. */
  const char *board;
} tally_config;

/* Fills a config with the defaults (use before changing single fields):
 * the virt board with its RAM size, the process's stdin/stdout/stderr. */
void tally_config_default(tally_config *cfg);

/* Sets cfg->board (the string is not copied: it must outlive the
 * tally_sim_open call). Returns 0, or -1 with err when `board` names no
 * shipped board and no readable, valid board file. */
int tally_config_set_board(tally_config *cfg, const char *board, tally_error *err);

/* Creates a board; NULL config means defaults. NULL on failure, with err
 * (if not NULL) saying what is wrong: an unknown board (TALLY_E_USAGE), a
 * damaged board file (TALLY_E_INPUT, "FILE:LINE: ..."), a RAM size the
 * board cannot hold (TALLY_E_USAGE), no memory (TALLY_E_INTERNAL). */
tally_sim *tally_sim_open(const tally_config *cfg, tally_error *err);
/* The same without the message. */
tally_sim *tally_sim_new(const tally_config *cfg);
void tally_sim_free(tally_sim *sim);

/* What a board is, before a simulation is made of it (to size its RAM for
 * a program, or to load a raw binary at its RAM base). */
typedef struct tally_board_info {
  char name[64];
  char description[181];
  uint32_t ram_base;      /* where RAM starts */
  uint32_t ram_size;      /* the board's RAM size (the default of tally_config.ram_size) */
  bool semihosting;       /* programs may make semihosting calls */
  bool has_control;       /* tally's control block (markers, DVFS) is there ... */
  uint32_t control_base;  /* ... at this address */
} tally_board_info;

/* Reads `board` as tally_sim_open would (NULL: virt). Returns 0, or -1
 * with err as tally_sim_open's. */
int tally_board_lookup(const char *board, tally_board_info *info, tally_error *err);

/* Board names are looked up as NAME.ini in $TALLY_BOARDS_PATH
 * (colon-separated folders) first, then in the boards/ folder of the source
 * tree (the tally command adds its installed share/tally/boards to
 * TALLY_BOARDS_PATH). The names found there, comma-separated, into buf. */
void tally_board_names(char *buf, size_t size);

/* The simulation's board: its name, RAM base and RAM size. */
const char *tally_board_name(const tally_sim *sim);
uint32_t tally_ram_base(const tally_sim *sim);
uint32_t tally_ram_size(const tally_sim *sim);

/* Loads an ELF32 RISC-V executable: its segments into RAM, its entry point,
 * its symbols (for reports) and HTIF tohost/fromhost if present.
 * Returns 0, or -1 with `err` saying what is wrong with the file. */
int tally_load_elf(tally_sim *sim, const char *path, tally_error *err);

/* RAM an ELF file's PT_LOAD segments need from TALLY_RAM_BASE up, rounded
 * up to 1 MiB (e.g. 256 MiB for a program instrumented by tally inst,
 * whose analysis code lives above the 128 MiB default); 0 when the file
 * cannot be read or has nothing in RAM. For sizing the board before
 * tally_sim_new. */
uint64_t tally_elf_ram_needed(const char *path);
/* The same from another RAM base (a board's: tally_board_info.ram_base). */
uint64_t tally_elf_ram_needed_at(const char *path, uint32_t ram_base);

/* Loads a raw binary image at `addr` (in RAM) and starts at `entry`. */
int tally_load_raw(tally_sim *sim, const char *path, uint32_t addr, uint32_t entry, tally_error *err);

/* The program's command line, as seen through semihosting: argv[0] first.
 * argv[0] is passed as its base name (the part after the last '/'): the
 * start-up code copies the command line, so the folder a program is run
 * from would otherwise change its counts. -1: out of memory. */
int tally_set_args(tally_sim *sim, int argc, char *const argv[]);
/* Whether tally_set_args passes argv[0] as given (true) instead of its base
 * name (false, the default); for later tally_set_args calls. */
void tally_keep_argv0_path(tally_sim *sim, bool keep);

/* ---- Host files ---------------------------------------------------------
 * A program opens host files through semihosting (SYS_OPEN). Programs are
 * untrusted: a board lets them open regular files under one directory (the
 * root) only, by relative names without "..", through no symbolic link
 * that leads out, never a device, FIFO or /proc file, and never a file
 * protected with tally_protect_host_file. The ":tt" console handles always
 * work. The default is TALLY_HOST_FILES_READ under the working directory
 * at tally_sim_new (docs/tally-run.md, "Host files"). */
typedef enum tally_host_files {
  TALLY_HOST_FILES_READ = 0,  /* read existing files (the default) */
  TALLY_HOST_FILES_NONE,      /* no host file at all */
  TALLY_HOST_FILES_RW,        /* also create, truncate, write and append */
} tally_host_files;

/* Sets the policy; root is a directory (NULL: the working directory now).
 * Returns 0, or -1 with err naming the directory and what is wrong. */
int tally_set_host_files(tally_sim *sim, tally_host_files mode, const char *root, tally_error *err);

/* Never lets the program open `path` (it need not exist yet), nor its
 * SQLite side files (path-journal, -wal, -shm): for the store the run is
 * written to, and any file tally reads or writes beside the program (a
 * trace, a key, an output). The file is the one the path resolves to:
 * through a symbolic link, its target (and that target's side files);
 * when it exists, by device and inode, whatever name reaches it. Returns
 * 0, or -1 with err. */
int tally_protect_host_file(tally_sim *sim, const char *path, tally_error *err);

/* Never lets the program open the file open on fd (by device and inode),
 * e.g. an output just created. Returns 0, or -1 with err. */
int tally_protect_host_fd(tally_sim *sim, int fd, tally_error *err);

/* Whether the program's output (its console, through the configured out
 * stream) could not be written: the errno of the first failed write (a
 * full disk: ENOSPC; a closed pipe: EPIPE), or 0. Flushes the stream. */
int tally_output_error(tally_sim *sim);

typedef enum tally_stop {
  TALLY_RUNNING = 0,
  TALLY_STOP_EXIT,   /* the program exited; see tally_exit_code */
  TALLY_STOP_TRAP,   /* an exception the program has no handler for; see tally_trap */
  TALLY_STOP_LIMIT,  /* this call's instruction budget is used up; call again to go on */
  TALLY_STOP_HALT,   /* wfi with nothing that could ever wake the hart */
  TALLY_STOP_ERROR,  /* host-side failure */
  TALLY_STOP_CANCELLED, /* tally_measure_cancel (tally/run.h) asked it to stop */
  TALLY_STOP_CYCLES, /* the cycle budget (tally_set_max_cycles) is used up */
} tally_stop;

/* Runs at most `max_insns` more instructions (UINT64_MAX: no bound). */
tally_stop tally_run(tally_sim *sim, uint64_t max_insns);

/* The run's cycle budget: tally_run (and tally_step, tally_measure_run)
 * returns TALLY_STOP_CYCLES at the first instruction boundary where
 * tally_cycles(sim) >= max_cycles, and a wfi sleep ends there, so that a
 * program that sleeps forever (no instruction retires, which no
 * instruction budget ends) stops too. Counted from the start of the
 * program, in the cycles of tally_cycles (with a core model its clock's,
 * else instructions plus wfi idle time). 0 (the default) is no budget. A
 * run that stopped at its budget goes on after a larger one is set. */
void tally_set_max_cycles(tally_sim *sim, uint64_t max_cycles);
uint64_t tally_max_cycles(const tally_sim *sim);

/* One step of the hart, the unit a debugger and the instruction trace
 * stop at: runs until one instruction retires or one trap is taken,
 * whichever comes first, and returns as tally_run with a budget of 1
 * (TALLY_STOP_LIMIT when the step ended normally).
 *   - an instruction retires: the pc is the next one's (an interrupt that
 *     becomes due after it is taken by the next step, not this one);
 *   - an instruction raises an exception the program handles: it does
 *     not retire, the step ends at the handler's first instruction (pc =
 *     mtvec's base), which has not run; tally_traps_taken grows by one;
 *   - an interrupt is due before the next instruction: the step is the
 *     interrupt's entry alone, no instruction runs; the pc is the
 *     handler's first instruction and mcause has its interrupt bit;
 *   - an instruction retires (a jump, mret) to an address nothing can be
 *     fetched from: the instruction access fault is taken in the same
 *     step (there is no instruction to stop before), which ends at the
 *     handler with mepc the unfetchable address.
 * Cycles are charged as in any run (docs/timing.md): an exception's
 * trap_penalty to the trapping instruction's step, an interrupt's to its
 * entry step. Stepping changes no cycle or count: a program run in steps
 * has the cycles and signal totals of one run by tally_run. */
tally_stop tally_step(tally_sim *sim);

/* Whether the next tally_step takes an interrupt (one is pending, enabled
 * in mie, and mstatus.MIE is set) instead of running the instruction at
 * the pc: what a debugger asks before it says what that instruction will
 * do. */
bool tally_interrupt_due(const tally_sim *sim);

/* Exceptions and interrupts taken so far, each one an entry into the
 * program's trap handler (an exception with no handler, which stops the
 * run, is not counted). */
uint64_t tally_traps_taken(const tally_sim *sim);

/* Asks the running (or next) tally_run to return TALLY_STOP_LIMIT soon:
 * at the end of the current block, between two of the statistics module's
 * dispatches (a wfi sleep may hold billions), or from a wait for stdin.
 * Safe from a signal handler and from another thread. A later tally_run
 * goes on (a stdin read it cut short saw EINTR). A pure compute loop
 * returns at its instruction budget: give tally_run slices (tally run uses
 * 20 million instructions) to stop within a fraction of a second. */
void tally_request_stop(tally_sim *sim);

int tally_exit_code(const tally_sim *sim);
uint64_t tally_instret(const tally_sim *sim);
uint32_t tally_pc(const tally_sim *sim);
uint32_t tally_reg(const tally_sim *sim, unsigned r);
/* For a debugger, between runs: set x1..x31 (x0 stays 0) or the pc, and
 * read or write guest RAM (false when any byte is outside it; a write into
 * predecoded code is seen by the next fetch). None of them costs a cycle. */
void tally_set_reg(tally_sim *sim, unsigned r, uint32_t v);
void tally_set_pc(tally_sim *sim, uint32_t pc);
bool tally_read_mem(const tally_sim *sim, uint32_t addr, void *dst, uint32_t len);
bool tally_write_mem(tally_sim *sim, uint32_t addr, const void *src, uint32_t len);
/* A CSR's value between runs (mstatus, mepc, mcycle, mhpmcounter3, ...):
 * what an instruction reading it next would read; false for one that
 * does not exist. */
bool tally_csr_read(tally_sim *sim, unsigned csr, uint32_t *v);
/* Writes a CSR between runs through the path a program's csrw takes
 * (WARL fields keep legal values; mcycle, minstret, the PMU's
 * mhpmcounter/mhpmevent and mcountinhibit included), taking effect at
 * once: the next instruction reads v (docs/pmu.md). Costs no cycle.
 * False for a CSR that does not exist or is read-only (misa, mhartid,
 * cycle, hpmcounterN, ...). */
bool tally_csr_write(tally_sim *sim, unsigned csr, uint32_t v);
/* A debug trigger (Sdtrig, action 1 "enter debug mode": one a debugger
 * set through tally_csr_write with tdata1.dmode = 1) that stopped the last
 * tally_run or tally_step, which then returned TALLY_STOP_LIMIT before the
 * instruction at pc ran. A run resumed at that very point runs the
 * instruction (the trigger does not stop it twice). */
typedef struct tally_trigger_hit {
  unsigned trigger;   /* tselect of the trigger (the last of a chain) */
  char kind;          /* 'x' execute, 'r' load, 'w' store, 'a' both (an AMO) */
  uint32_t pc;        /* the instruction */
  uint32_t addr;      /* the address that matched */
} tally_trigger_hit;
/* True, with *hit, when the last run or step stopped for one. */
bool tally_trigger_stopped(const tally_sim *sim, tally_trigger_hit *hit);
/* One line on why the run stopped ("semihosting exit (code 0)", ...). */
const char *tally_stop_detail(const tally_sim *sim);

typedef struct tally_trap {
  uint32_t cause;     /* mcause */
  uint32_t tval;      /* mtval */
  uint32_t pc;        /* mepc: the instruction that trapped */
  uint32_t insn;      /* its bits (0 if unreadable) */
  uint64_t instret;   /* instructions retired before it */
} tally_trap;

/* The last exception taken (handled or not). */
tally_trap tally_last_trap(const tally_sim *sim);

/* Plain-words name of an mcause value ("illegal instruction"). */
const char *tally_cause_name(uint32_t cause);

/* Disassembles the instruction at `pc` in the loaded program. Returns the
 * instruction length (2 or 4), or 0 if pc is not in RAM. */
int tally_disasm_at(const tally_sim *sim, uint32_t pc, char *buf, size_t size);

/* When the instruction at `pc` is one of RV32IMAC that the core model does
 * not decode (its `[core] isa`, or PicoRV32's ISA), so that it is an
 * illegal instruction there as on the real core: 1, and why in buf ("core
 * model vexriscv has no C extension").  0 otherwise (no core
 * model, not in RAM, decoded, or illegal everywhere). */
int tally_core_lacks(const tally_sim *sim, uint32_t pc, char *buf, size_t size);

/* When the loaded ELF's RISC-V build attributes (.riscv.attributes,
 * Tag_RISCV_arch) ask for extensions the core does not run (F or D on
 * tally's RV32IMAC; M, A or C on a core model without them): 1, and in buf
 * which, what the program was built for and what the core runs ("the
 * program is built for rv32imafdc (rv32i2p1_m2p0_a2p1_f2p2_d2p2_c2p0, its
 * ELF attributes): F and D are not in the core's rv32imac"). 0 otherwise,
 * and for a program without the attributes (raw binaries). */
int tally_program_isa_lacks(const tally_sim *sim, char *buf, size_t size);

/* A run without a core model counts no cycles: mcycle and cycle count
 * instructions (mcycle == minstret) and the hpm counters read 0. When the
 * program has read one of those counters: 1, the first one's name in
 * `name` ("mcycle", "mhpmcounter3h", "cycle") and the reading
 * instruction's address in *pc. 0 otherwise, and always with a core
 * model. */
int tally_untimed_counter_read(const tally_sim *sim, char *name, size_t size, uint32_t *pc);

/* "symbol+0xoff" for an address, from the loaded program's symbols, or the
 * bare hex address if none covers it. */
void tally_symbolize(const tally_sim *sim, uint32_t addr, char *buf, size_t size);

/* ---- Engine -------------------------------------------------------------
 * How functional runs execute: the interpreter, or the translator of guest
 * blocks into host code (x86-64 Linux only; docs/jit.md). Both give the
 * same results, instruction for instruction, cycle for cycle. Timed runs
 * are translated too (with a profile, address regions and PMU reads
 * alike), except on a core model whose pipeline rules the translator
 * lacks (the VexRiscv models): tally_engine_why says so. Single-stepping always
 * interprets. A new simulation takes the engine from
 * $TALLY_ENGINE ("interp" or "jit"), else the translator where supported. */
typedef enum tally_engine { TALLY_ENGINE_INTERP = 0, TALLY_ENGINE_JIT = 1 } tally_engine;
/* Returns 0, or -1 with err (TALLY_E_USAGE) when the translator is not
 * supported on this host. */
int tally_set_engine(tally_sim *sim, tally_engine engine, tally_error *err);
/* The engine chosen; and the one runs actually use now. */
tally_engine tally_get_engine(const tally_sim *sim);
tally_engine tally_engine_running(const tally_sim *sim);
/* Why the interpreter runs although the translator is chosen (a phrase,
 * e.g. "the core model's pipeline rules are not translated"), or NULL. */
const char *tally_engine_why(const tally_sim *sim);
/* "interp" or "jit"; tally_engine_parse returns -1 for any other word. */
const char *tally_engine_name(tally_engine engine);
int tally_engine_parse(const char *word);
/* What the translator did so far (all 0 under the interpreter): blocks
 * translated, nanoseconds spent translating, bytes of code at most in
 * use between flushes, and flushes because its code region was full. */
typedef struct tally_jit_stats {
  uint64_t blocks, translate_ns, code_bytes, full_flushes;
} tally_jit_stats;
void tally_jit_stats_get(const tally_sim *sim, tally_jit_stats *st);

/* ---- Timing ------------------------------------------------------------
 * Without a core model a run is functional only (one cycle per instruction,
 * no timing work at all). With one, every cycle is counted on the described
 * micro-architecture and attributed to exactly one instruction. */

/* Selects the core model: NAME is a shipped model ("tally5", "picorv32",
 * ...; see tally_core_dirs) or a path to an .ini file; NULL = the built-in
 * default. `sets` are "section.key=value" overrides applied in order.
 * Must be called before running. Returns 0, or -1 with err filled; its
 * code is TALLY_E_USAGE for an unknown model name or a bad override,
 * TALLY_E_INPUT for a model file that cannot be read or is wrong. */
int tally_set_core(tally_sim *sim, const char *name, const char *const *sets, int nsets, tally_error *err);

/* Where shipped core models are looked for: $TALLY_CORES_PATH, then the
 * source tree's cores/ folder. */
const char *tally_core_dirs(void);

/* The active model's name and its full description as INI text ("" when
 * functional). */
const char *tally_core_name(const tally_sim *sim);
void tally_core_describe(const tally_sim *sim, char *buf, size_t size);

/* Cycles so far (functional mode: instructions plus wfi idle cycles). */
uint64_t tally_cycles(const tally_sim *sim);

/* Simulated time so far, in seconds: with a core model its clock, every
 * frequency change (DVFS) included; functional mode: the cycles at the
 * board's 100 MHz, the clock semihosting's time calls read. */
double tally_sim_seconds(tally_sim *sim);

/* The signal catalog: ids are 0 .. tally_signal_count()-1. */
int tally_signal_count(void);
const char *tally_signal_name(int id);
const char *tally_signal_meaning(int id);
int tally_signal_lookup(const char *name);   /* -1 if unknown */

/* Every signal's total so far, into totals[tally_signal_count()]. All zero
 * in functional mode. */
void tally_signal_totals(tally_sim *sim, uint64_t *totals);

typedef struct tally_energy {
  double core_j, static_j, cache_j, mem_j, total_j;
  double seconds;      /* simulated time */
  double frequency_mhz, voltage;
} tally_energy;
tally_energy tally_energy_now(tally_sim *sim);

/* Calls fn with the line address of every I-cache lookup that misses, in
 * the order of the run (set after tally_set_core; NULL stops it). With a
 * one-line I-cache (size = line, one way) every lookup but a repeat of the
 * line looked up last misses, so fn sees the whole lookup stream a cache
 * of any shape would see but those repeats, which hit in any cache: what
 * `tally sweep --one-pass` simulates every I-cache size of a sweep on.
 * Costs nothing on the hit path. -1 without a core model. */
int tally_on_icache_miss(tally_sim *sim, void (*fn)(void *ctx, uint32_t line_addr), void *ctx);

/* The D-cache's side of the same: fn gets the line address of every
 * D-cache fill (a load that misses, or a store that misses a write-back
 * D-cache), and of every store to a write-through D-cache, hit or miss
 * (such stores always go to memory), in the order of the run, with flags:
 * TALLY_DCACHE_WRITE for a store, TALLY_DCACHE_HIT for a write-through
 * store that hit, TALLY_DCACHE_WRITEBACK when the fill wrote a dirty line
 * back. With a one-line write-back D-cache every access but a repeat of
 * the line accessed last is a fill, and the fill that ends a run of such
 * repeats says whether one of them was a store (its line was dirty): what
 * `tally sweep --one-pass` simulates every D-cache size on. Costs nothing
 * on the hit path. -1 without a core model. */
#define TALLY_DCACHE_WRITE 1u
#define TALLY_DCACHE_HIT 2u
#define TALLY_DCACHE_WRITEBACK 4u
int tally_on_dcache_miss(tally_sim *sim, void (*fn)(void *ctx, uint32_t line_addr, uint32_t flags), void *ctx);

/* ---- Exact profiles -----------------------------------------------------
 * With a core model set, profiling charges every cycle and every signal to
 * the instruction it belongs to, and follows calls, returns, tail calls,
 * traps and unwinds with a shadow call stack. Nothing in the program
 * changes: the cycle count is the same with profiling on or off. */

/* Turns profiling on for the loaded program's code (call after loading and
 * tally_set_core, before running). sample_period_cycles > 0 also runs a
 * gprof-style PC sampler at that period, for comparison. */
int tally_profile_enable(tally_sim *sim, uint64_t sample_period_cycles, tally_error *err);

/* One function: the symbol table's range and primary name (the same as
 * `tally symbols` lists), or "[unknown]" (lo = hi = 0) for code outside
 * every function. Inclusive counts are kept for every signal but the
 * markers (level signals of the program, not of its code: 0 there), by
 * calling context: the signals counted between two calls, returns or
 * traps belong to the context on top of the call stack
 * (docs/profile.md, "What is counted"). */
typedef struct tally_func_profile {
  const char *name;
  uint32_t lo, hi;            /* [lo, hi) */
  const uint64_t *self;       /* tally_signal_count() totals of its own instructions */
  uint64_t calls;             /* times entered by a call (or a tail call) */
  uint64_t inclusive_cycles;  /* cycles while it was on the call stack, recursion counted once */
  uint64_t samples;           /* PC samples that fell in it */
  int is_handler;             /* entered by traps or interrupts */
  const uint64_t *inclusive;  /* tally_signal_count() totals while it was on the call stack, recursion
                                 counted once; inclusive[cycle] == inclusive_cycles */
} tally_func_profile;

/* Where the calls of an arc were made. */
typedef struct tally_call_site {
  uint32_t pc;                /* the call instruction; for a tail call the jump (in the function it
                                 replaced); for a trap or interrupt the instruction it stopped at */
  uint64_t calls;             /* calls made there */
  uint64_t inclusive_cycles;  /* the callee's cycles when called from there, an arc-site nested in
                                 itself counted once */
  const uint64_t *inclusive;  /* every signal's count, the same way */
} tally_call_site;

typedef struct tally_arc {
  int caller, callee;         /* indexes into the function list; -1 = outside any function */
  uint64_t calls;
  uint64_t inclusive_cycles;  /* callee's cycles when called from this caller */
  const uint64_t *inclusive;  /* tally_signal_count() totals of the callee when called from this caller */
  const tally_call_site *sites; /* the call sites, by pc; their calls add up to `calls`, and their
                                   inclusive cycles to `inclusive_cycles` unless the arc recurses */
  size_t nsites;
} tally_arc;

/* One source line of one function: the instructions of the function whose
 * DWARF line is file:line. The instructions of a function without line
 * information make a row of their own (file NULL). The rows of a function
 * add up to its self counts, exactly. */
typedef struct tally_line_profile {
  const char *file;           /* as the compiler recorded it, joined to the compilation directory
                                 (as addr2line prints it); NULL: no line information */
  uint32_t line;              /* 0 when file is NULL */
  int func;                   /* index into the function list */
  const uint64_t *self;       /* tally_signal_count() totals */
  uint64_t samples;           /* PC samples that fell on these instructions */
} tally_line_profile;

typedef struct tally_profile tally_profile;

/* A snapshot of the profile so far (the run may go on afterwards). NULL if
 * profiling is off. */
tally_profile *tally_profile_take(tally_sim *sim);
void tally_profile_free(tally_profile *p);

size_t tally_profile_functions(const tally_profile *p, const tally_func_profile **out);
size_t tally_profile_arcs(const tally_profile *p, const tally_arc **out);
uint64_t tally_profile_total(const tally_profile *p, int signal);
uint64_t tally_profile_samples_taken(const tally_profile *p);
/* Per instruction: a signal's total at pc (0 outside the profiled code);
 * derived signals ("stall", the sum of the stall.* signals) included. */
uint64_t tally_profile_at(const tally_profile *p, uint32_t pc, int signal);
void tally_profile_code_range(const tally_profile *p, uint32_t *lo, uint32_t *hi);
/* Every distinct call stack with its self cycles, root first: calls
 * fn(ctx, names, depth, cycles) for each. */
void tally_profile_stacks(const tally_profile *p,
                          void (*fn)(void *ctx, const char *const *names, size_t depth, uint64_t cycles),
                          void *ctx);
/* Every calling context, root first (with tasks: the task is the root), with
 * the times it was entered and its own counts of every signal (the markers
 * 0, derived signals filled). */
void tally_profile_contexts(const tally_profile *p,
                            void (*fn)(void *ctx, const char *const *names, size_t depth, uint64_t calls,
                                       const uint64_t *counts),
                            void *ctx);
/* Returns that matched no call, and returns that unwound several frames. */
void tally_profile_anomalies(const tally_profile *p, uint64_t *unmatched_returns, uint64_t *unwinds);

/* Reads the loaded ELF's source line table (DWARF .debug_line), so that
 * snapshots taken from then on have per-line rows. Returns 1; 0 when the
 * program has none (built without -g, stripped, or a raw binary: err says
 * so and how to get one); -1 when it is damaged or memory ran out (err says
 * what and where). Calling it again returns the first answer. */
int tally_profile_lines_enable(tally_sim *sim, tally_error *err);
/* The per-line rows of a snapshot, sorted by function (the function list's
 * order), then file and line, each function's "no line information" row
 * last. 0 rows when tally_profile_lines_enable did not return 1 before the
 * snapshot was taken. */
size_t tally_profile_lines(const tally_profile *p, const tally_line_profile **out);
/* The source line of the instruction at pc, as the line table gives it
 * (file as in tally_line_profile). Returns 1, or 0 when pc has no line or
 * tally_profile_lines_enable did not return 1 before the snapshot. */
int tally_profile_source_at(const tally_profile *p, uint32_t pc, const char **file, uint32_t *line);

/* The profile's timeline: every function activation (a frame of the
 * shadow call stack) with the cycles it began and ended at, nested as the
 * calls were. A function's slices that are not inside another slice of
 * its own add up to its inclusive cycles exactly. Turn it on after
 * tally_profile_enable and before running; max_calls bounds its memory
 * (about 48 bytes a call, and a 32-byte slice in each snapshot): past it the timeline
 * stops, and snapshots end every slice at that cycle. Returns 0, or -1
 * with err (no profile, out of memory). */
int tally_profile_timeline_enable(tally_sim *sim, uint64_t max_calls, tally_error *err);

typedef struct tally_slice {
  int func;                   /* index into the function list */
  uint64_t begin, end;        /* cycles [begin, end) */
  uint32_t depth;             /* 0: the program's entry function; a callee is one deeper */
  int is_handler;             /* entered by a trap or an interrupt */
} tally_slice;

/* A snapshot's slices, by begin cycle, a caller before its callees (the
 * entry function's slice first). 0 without a timeline. *cut is the cycle
 * the timeline stopped at when it reached max_calls, else 0. */
size_t tally_profile_slices(const tally_profile *p, const tally_slice **out, uint64_t *cut);

/* ---- Tasks ----------------------------------------------------------------
 * A task-aware profile (docs/profile.md, "Tasks"): the running task is
 * learned from the program's own state, a pointer to the running task's
 * control block, and every context is counted under the task (or the trap
 * context, "irq:N"/"trap:N") it ran in. */

/* Turns task awareness on (after tally_profile_enable, before running).
 * spec: NULL or "auto" (the first of the conventions below whose variable
 * the program has), "freertos" (pxCurrentTCB, name pcTaskName), "zephyr"
 * (_kernel.cpus[0].current, name name), "tally" (target/rtos:
 * rtos_current, name name), "PATH[:MEMBER]" (a variable path such as
 * `kernel.cur` or `cpus[0].task`, the name member, default `name`),
 * "0xADDR" (the pointer's address; tasks are named by their pointer), or
 * "reg:REGISTER" (a register holding the pointer, `reg:tp`: read at every
 * return from a trap handler, where a preemptive kernel switches; tasks
 * named by their pointer).
 * Offsets come from the ELF's DWARF. Returns 0, or -1 with err (no such
 * variable, no debug information, the path does not fit the types, the
 * pointer is not in RAM); the profile goes on without tasks then. Called
 * again with the same spec after a measure's task events turned it on
 * (include/tally/run.h): 0, nothing changes. */
int tally_profile_tasks_enable(tally_sim *sim, const char *spec, tally_error *err);

/* One function within one task: counts while the task ran. */
typedef struct tally_task_func {
  int func;                   /* index into the function list */
  uint64_t calls;             /* times entered while the task ran */
  const uint64_t *self;       /* its own instructions' counts in this task (every signal) */
  const uint64_t *inclusive;  /* while on this task's call stack, recursion counted once */
} tally_task_func;

typedef struct tally_task_profile {
  const char *name;           /* from the control block; "task@0x..." when it cannot be read;
                                 "[no task]" for a null pointer; "irq:N"/"trap:N" for trap contexts */
  uint32_t tcb;               /* the pointer's value; a trap context's mcause */
  int is_trap;
  uint64_t switches;          /* times it was switched to (not counting its resumptions after a trap
                                 that switched nothing); a trap context: times entered */
  const uint64_t *total;      /* every signal while it ran: the tasks' totals add up to the run's */
  const tally_task_func *funcs; /* the functions that ran in it, by function index */
  size_t nfuncs;
} tally_task_profile;

/* The snapshot's tasks, in the order first seen; 0 without task awareness. */
size_t tally_profile_tasks(const tally_profile *p, const tally_task_profile **out);
/* What task awareness follows ("rtos_current: struct rtos_task, name at +24"),
 * or NULL without it. */
const char *tally_profile_tasks_source(const tally_profile *p);
/* Problems met reading the tasks (a pointer outside RAM, a name that is not
 * a string), one message each; *dropped counts those left out. */
size_t tally_profile_task_notes(const tally_profile *p, const char *const **out, size_t *dropped);

/* Every change of what runs: from `cycle` on, task `task` (an index into
 * tally_profile_tasks) runs, until the next change or the snapshot's end. */
typedef struct tally_task_change {
  uint64_t cycle;
  int task;
} tally_task_change;
/* *end is the snapshot's cycle, or when the log filled up (*cut nonzero)
 * the cycle of the first change it could not keep. */
size_t tally_profile_task_changes(const tally_profile *p, const tally_task_change **out, uint64_t *end, int *cut);

/* ---- Functions by name -------------------------------------------------- */

/* Replaces the program's functions (taken from the ELF's symbol table when
 * it was loaded) with those a GNU ld map file names: for raw binaries.
 * Returns 0, or -1 with err naming the file and line. */
int tally_load_map(tally_sim *sim, const char *path, tally_error *err);

/* The same from an ELF file's symbol table, without loading the program:
 * its functions by name whatever board it is linked for (tally config
 * --program). Returns 0, or -1 with err. */
int tally_load_symbols(tally_sim *sim, const char *elf, tally_error *err);

/* The address range [lo, hi) of the function called `name` (its primary
 * name or an alias, as `tally symbols` lists them). Returns 0, or -1 with
 * err when no function has that name or when several do (static functions
 * of one name in several files: give the range by address then). */
int tally_function_range(const tally_sim *sim, const char *name, uint32_t *lo, uint32_t *hi, tally_error *err);

/* One function of the program (as `tally symbols` lists them). */
typedef struct tally_function {
  const char *name;           /* primary name */
  uint32_t lo, hi;            /* [lo, hi) */
  const char *section;        /* ".text", or the map file's input section; NULL if not known */
  size_t naliases;            /* other names of the same address */
  const char *const *aliases;
} tally_function;

/* The program's functions, sorted by address: tally_function_count of
 * them; tally_function_at fills f for index i (0 on success, -1 if out of
 * range). The strings live until the program or map is loaded again. */
size_t tally_function_count(const tally_sim *sim);
int tally_function_at(const tally_sim *sim, size_t i, tally_function *f);

/* ---- Statistics module ------------------------------------------------
 * Counters of (signal, address range) events read out on a dispatch timer
 * (src/statmod/statmod.h, docs/statmod.md). A module watches one
 * simulation once attached; it never changes a simulated cycle. */

struct statmod;

/* Attaches a module to the simulation (after tally_set_core: counting needs
 * a core model). The simulation does not own it; tally_sim_free detaches
 * it. Returns 0, or -1 with err. */
int tally_statmod_attach(tally_sim *sim, struct statmod *m, tally_error *err);

/* A signal's plain noun phrase, plural: "data-cache read misses". */
const char *tally_signal_noun(int id);

/* ---- Numbers for people -------------------------------------------------- */

/* "12,345,678" into buf; returns buf. */
const char *tally_format_count(uint64_t v, char *buf, size_t size);
/* "123", "0x80000000", "10k", "5M", "2G" (k/M/G = 10^3/10^6/10^9,
 * Ki/Mi/Gi = 2^10/2^20/2^30). false when s is not such a number. */
bool tally_parse_number(const char *s, uint64_t *out);
/* A positive number of seconds ("2", "0.5"). */
bool tally_parse_seconds(const char *s, double *out);

#ifdef __cplusplus
}
#endif

#endif
