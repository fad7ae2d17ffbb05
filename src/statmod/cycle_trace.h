/*
 * The per-cycle trace: for every core cycle of a window, the PC of the
 * instruction in charge and the value of every signal on that cycle, as
 * the statistics module counts them (docs/cycle-trace.md has the format).
 * It is what a hardware statistics module next to the core would see on
 * its inputs, and what rtl/ feeds to the Verilog module to compare its
 * packets with the C module's.
 *
 * How: the recorder takes the timing model's horizon-watcher slot in front
 * of the watcher already there (the statistics module), keeps the cycle
 * horizon one cycle past the last instruction edge it saw so that the run
 * loop hands over every instruction (and interrupt entry) of the window as
 * a unit with its own signal counts (statmod_run.h), lays each unit out
 * with the module's own cycle layout (statmod_layout.h), and passes every
 * call on to the watcher behind it. Like the module it changes no cycle:
 * stepping is exact; only the host time grows (every instruction of the
 * window is stepped alone).
 *
 * Markers are level signals: their per-cycle level comes from the switch
 * cycles the timing model keeps (timing_set_markers), not from the units.
 */
#ifndef TALLY_STATMOD_CYCLE_TRACE_H
#define TALLY_STATMOD_CYCLE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/cpu.h"

typedef struct statmod_ctrace statmod_ctrace;

/* Starts tracing the cycles [from, to) of cpu's run (from before the
 * current cycle: from it) into out, which stays the caller's; writes the
 * header. NULL with err on failure (no core model, out of memory, a write
 * error). Attach the statistics module first: the recorder goes in front
 * of it. */
statmod_ctrace *statmod_ctrace_new(core_cpu *cpu, FILE *out, uint64_t from, uint64_t to, char *err,
                                   size_t errlen);

/* Stops tracing (the watcher behind it is put back) and writes the end
 * record. 0, or -1 with err: the file could not be written, or some cycles
 * of the window came with no unit to lay out (the trace would not be
 * exact). Call before the statistics module is freed. */
int statmod_ctrace_end(statmod_ctrace *t, char *err, size_t errlen);
void statmod_ctrace_free(statmod_ctrace *t);

/* Cycles written so far. */
uint64_t statmod_ctrace_cycles(const statmod_ctrace *t);

#endif
