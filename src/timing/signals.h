/*
 * The signal catalog: every signal a counter can count, named, numbered and
 * explained once. A signal is high on specific clock cycles; a counter
 * counts the cycles on which its signal is high (and the PC is in range).
 *
 * Where a signal is high inside an instruction's cycles follows the cycle
 * layout of docs/timing.md:
 *   fetch stalls | load-use stall | issue cycle | execute extra | memory stall | redirect penalty
 * Pulse signals (instruction classes, cache events) are high for one cycle
 * per event; stall signals for every cycle of the stall.
 *
 * X(ID, "name", "meaning")
 */
#ifndef TALLY_TIMING_SIGNALS_H
#define TALLY_TIMING_SIGNALS_H

#include <stdint.h>

#define TALLY_SIGNAL_LIST(X) \
  X(CYCLE,            "cycle",              "every clock cycle (always high)") \
  X(INSTRET,          "instret",            "an instruction retires (its last cycle)") \
  X(LOAD,             "load",               "a load issues (lb/lh/lw/lbu/lhu, lr.w)") \
  X(STORE,            "store",              "a store issues (sb/sh/sw, sc.w)") \
  X(AMO,              "amo",                "an atomic read-modify-write issues") \
  X(BRANCH,           "branch",             "a conditional branch issues") \
  X(BRANCH_TAKEN,     "branch.taken",       "a conditional branch issues and is taken") \
  X(BRANCH_MISPREDICT,"branch.mispredict",  "a conditional branch went against the static prediction") \
  X(JUMP,             "jump",               "jal or jalr issues (calls and returns included)") \
  X(CALL,             "call",               "a call issues (jal/jalr writing ra or t0)") \
  X(RET,              "ret",                "a return issues (jalr x0, 0(ra) or 0(t0))") \
  X(MUL,              "mul",                "a multiply issues (mul/mulh/mulhsu/mulhu)") \
  X(DIV,              "div",                "a divide or remainder issues") \
  X(CSR,              "csr",                "a CSR instruction issues") \
  X(SYSTEM,           "system",             "ecall, ebreak, mret, wfi, fence or fence.i issues") \
  X(COMPRESSED,       "compressed",         "a 16-bit (RVC) instruction issues") \
  X(ICACHE_ACCESS,    "icache.access",      "the I-cache is looked up for a new fetch line") \
  X(ICACHE_HIT,       "icache.hit",         "an I-cache lookup hits") \
  X(ICACHE_MISS,      "icache.miss",        "an I-cache lookup misses (a line is filled)") \
  X(DCACHE_READ_HIT,  "dcache.read_hit",    "a load hits the D-cache") \
  X(DCACHE_READ_MISS, "dcache.read_miss",   "a load misses the D-cache") \
  X(DCACHE_WRITE_HIT, "dcache.write_hit",   "a store hits the D-cache") \
  X(DCACHE_WRITE_MISS,"dcache.write_miss",  "a store misses the D-cache") \
  X(WRITEBACK,        "writeback",          "a dirty D-cache line is written back to memory") \
  X(MEM_READ,         "mem.read",           "a read transaction to main memory starts (line fill or uncached read)") \
  X(MEM_WRITE,        "mem.write",          "a write transaction to main memory starts (write-back or write-through)") \
  X(STALL,            "stall",              "any stall or bubble cycle (the sum of the stall.* signals)") \
  X(STALL_ICACHE,     "stall.icache",       "waiting for an instruction fetch from memory") \
  X(STALL_LOAD_USE,   "stall.load_use",     "waiting for a load's result needed by the next instruction") \
  X(STALL_MULDIV,     "stall.muldiv",       "extra execute cycles of multiply, divide or multi-cycle shifts") \
  X(STALL_DCACHE,     "stall.dcache",       "waiting for a data access to memory (miss, write-back, uncached)") \
  X(STALL_WBUF,       "stall.write_buffer", "waiting for room in a full write buffer") \
  X(STALL_BRANCH,     "stall.branch",       "bubbles after a mispredicted or taken branch") \
  X(STALL_JUMP,       "stall.jump",         "bubbles after jal/jalr") \
  X(STALL_SYSTEM,     "stall.system",       "pipeline drains for CSR access, fence.i, traps and mret") \
  X(STALL_DVFS,       "stall.dvfs",         "the clock is stopped while the PLL relocks after a DVFS switch") \
  X(TRAP,             "trap",               "an exception is taken") \
  X(INTERRUPT,        "interrupt",          "an interrupt is taken") \
  X(DVFS_SWITCH,      "dvfs.switch",        "the core frequency or voltage changes") \
  X(WFI_IDLE,         "wfi.idle",           "the core sleeps in wfi") \
  X(MARKER0,          "marker0",            "user marker 0 is set by the program (MMIO)") \
  X(MARKER1,          "marker1",            "user marker 1 is set by the program (MMIO)") \
  X(MARKER2,          "marker2",            "user marker 2 is set by the program (MMIO)") \
  X(MARKER3,          "marker3",            "user marker 3 is set by the program (MMIO)")

typedef enum tally_signal_id {
#define SIGNAL_ENUM(id, name, meaning) SIG_##id,
  TALLY_SIGNAL_LIST(SIGNAL_ENUM)
#undef SIGNAL_ENUM
  SIG_COUNT
} tally_signal_id;

typedef struct signal_info {
  const char *name;
  const char *meaning;
} signal_info;

extern const signal_info signal_catalog[SIG_COUNT];

/* The id of a signal by name, or -1. */
int signal_lookup(const char *name);

/* Fills the derived signals of a vector of totals: `stall` is the sum of
 * the stall.* signals. */
void signal_derive(uint64_t *totals);

#endif
