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
 * X(ID, "name", "meaning", "plain noun phrase")
 *
 * The noun phrase names what a counter of the signal counts, in plain words
 * and in the plural, so that a counter reads "data-cache read misses in
 * MixColumns" (statistics module labels, `tally signals`).
 */
#ifndef TALLY_TIMING_SIGNALS_H
#define TALLY_TIMING_SIGNALS_H

#include <stdint.h>

#define TALLY_SIGNAL_LIST(X) \
  X(CYCLE,            "cycle",              "every clock cycle (always high)", \
    "cycles") \
  X(INSTRET,          "instret",            "an instruction retires (its last cycle)", \
    "instructions retired") \
  X(LOAD,             "load",               "a load issues (lb/lh/lw/lbu/lhu, lr.w)", \
    "loads") \
  X(STORE,            "store",              "a store issues (sb/sh/sw, sc.w)", \
    "stores") \
  X(AMO,              "amo",                "an atomic read-modify-write issues", \
    "atomic read-modify-writes") \
  X(BRANCH,           "branch",             "a conditional branch issues", \
    "conditional branches") \
  X(BRANCH_TAKEN,     "branch.taken",       "a conditional branch issues and is taken", \
    "taken branches") \
  X(BRANCH_MISPREDICT,"branch.mispredict",  "a conditional branch went against the static prediction", \
    "mispredicted branches") \
  X(JUMP,             "jump",               "jal or jalr issues (calls and returns included)", \
    "jumps (jal and jalr)") \
  X(CALL,             "call",               "a call issues (jal/jalr writing ra or t0)", \
    "calls") \
  X(RET,              "ret",                "a return issues (jalr x0, 0(ra) or 0(t0))", \
    "returns") \
  X(MUL,              "mul",                "a multiply issues (mul/mulh/mulhsu/mulhu)", \
    "multiplies") \
  X(DIV,              "div",                "a divide or remainder issues", \
    "divides") \
  X(CSR,              "csr",                "a CSR instruction issues", \
    "CSR instructions") \
  X(SYSTEM,           "system",             "ecall, ebreak, mret, wfi, fence or fence.i issues", \
    "system instructions") \
  X(COMPRESSED,       "compressed",         "a 16-bit (RVC) instruction issues", \
    "compressed instructions") \
  X(ICACHE_ACCESS,    "icache.access",      "the I-cache is looked up for a new fetch line", \
    "instruction-cache lookups") \
  X(ICACHE_HIT,       "icache.hit",         "an I-cache lookup hits", \
    "instruction-cache hits") \
  X(ICACHE_MISS,      "icache.miss",        "an I-cache lookup misses (a line is filled)", \
    "instruction-cache misses") \
  X(DCACHE_READ_HIT,  "dcache.read_hit",    "a load hits the D-cache", \
    "data-cache read hits") \
  X(DCACHE_READ_MISS, "dcache.read_miss",   "a load misses the D-cache", \
    "data-cache read misses") \
  X(DCACHE_WRITE_HIT, "dcache.write_hit",   "a store hits the D-cache", \
    "data-cache write hits") \
  X(DCACHE_WRITE_MISS,"dcache.write_miss",  "a store misses the D-cache", \
    "data-cache write misses") \
  X(WRITEBACK,        "writeback",          "a dirty D-cache line is written back to memory", \
    "dirty-line write-backs") \
  X(MEM_READ,         "mem.read",           "a read transaction to main memory starts (line fill or uncached read)", \
    "memory reads") \
  X(MEM_WRITE,        "mem.write",          "a write transaction to main memory starts (write-back or write-through)", \
    "memory writes") \
  X(STALL,            "stall",              "any stall or bubble cycle (the sum of the stall.* signals)", \
    "stall cycles") \
  X(STALL_ICACHE,     "stall.icache",       "waiting for an instruction fetch from memory", \
    "instruction-fetch stall cycles") \
  X(STALL_LOAD_USE,   "stall.load_use",     "waiting for a load's (or multiply's, shift's) late result", \
    "load-use stall cycles") \
  X(STALL_MULDIV,     "stall.muldiv",       "extra execute cycles of multiply, divide or multi-cycle shifts", \
    "multiply/divide stall cycles") \
  X(STALL_DCACHE,     "stall.dcache",       "waiting for a data access to memory (miss, write-back, uncached)", \
    "data-memory stall cycles") \
  X(STALL_WBUF,       "stall.write_buffer", "waiting for room in a full write buffer", \
    "write-buffer stall cycles") \
  X(STALL_BRANCH,     "stall.branch",       "bubbles after a mispredicted or taken branch", \
    "branch penalty cycles") \
  X(STALL_JUMP,       "stall.jump",         "bubbles after jal/jalr", \
    "jump penalty cycles") \
  X(STALL_SYSTEM,     "stall.system",       "pipeline drains for CSR access, fence.i, traps and mret", \
    "pipeline-drain cycles") \
  X(STALL_DVFS,       "stall.dvfs",         "the clock is stopped while the PLL relocks after a DVFS switch", \
    "PLL relock cycles") \
  X(TRAP,             "trap",               "an exception is taken", \
    "exceptions taken") \
  X(INTERRUPT,        "interrupt",          "an interrupt is taken", \
    "interrupts taken") \
  X(DVFS_SWITCH,      "dvfs.switch",        "the core frequency or voltage changes", \
    "clock and voltage switches") \
  X(WFI_IDLE,         "wfi.idle",           "the core sleeps in wfi", \
    "idle cycles in wfi") \
  X(MARKER0,          "marker0",            "user marker 0 is set by the program (MMIO)", \
    "cycles with marker 0 set") \
  X(MARKER1,          "marker1",            "user marker 1 is set by the program (MMIO)", \
    "cycles with marker 1 set") \
  X(MARKER2,          "marker2",            "user marker 2 is set by the program (MMIO)", \
    "cycles with marker 2 set") \
  X(MARKER3,          "marker3",            "user marker 3 is set by the program (MMIO)", \
    "cycles with marker 3 set")

typedef enum tally_signal_id {
#define SIGNAL_ENUM(id, name, meaning, noun) SIG_##id,
  TALLY_SIGNAL_LIST(SIGNAL_ENUM)
#undef SIGNAL_ENUM
  SIG_COUNT
} tally_signal_id;

typedef struct signal_info {
  const char *name;
  const char *meaning;
  const char *noun;     /* plain words, plural: "data-cache read misses" */
} signal_info;

extern const signal_info signal_catalog[SIG_COUNT];

/* The id of a signal by name, or -1. */
int signal_lookup(const char *name);

/* Fills the derived signals of a vector of totals: `stall` is the sum of
 * the stall.* signals. */
void signal_derive(uint64_t *totals);

#endif
