/*
 * tally_step (include/tally/tally.h), by the laws its documentation states,
 * on programs with exceptions and interrupts, functional and on a core
 * model. A client of the public API only.
 *
 *   - every step does exactly one thing: one instruction retires, or one
 *     trap is taken (tally_traps_taken grows by one), never neither but
 *     for the step the program ends in, and both only when the retired
 *     instruction's successor cannot be fetched (an instruction access
 *     fault, mcause 1, on the step of the jump that led there);
 *   - a step that takes a trap ends at the handler's first instruction:
 *     the pc is mtvec's base (direct mode, as the programs use), mepc is
 *     the trapping instruction's pc (an exception: the pc the step began
 *     at) or the interrupted one (an interrupt: also the pc the step began
 *     at, since no instruction ran);
 *   - a program run step by step ends as one run by tally_run: the same
 *     exit, cycles, instructions and every signal's total, and as many
 *     steps as instructions retired plus traps taken.
 *
 * usage: test_api_step CORE|- ELF...   ("-": functional)
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tally/tally.h"

#define CSR_MTVEC 0x305
#define CSR_MEPC 0x341
#define CSR_MCAUSE 0x342
#define CAUSE_FETCH_ACCESS 1u
#define MAX_STEPS 10000000u

typedef struct outcome {
  tally_stop stop;
  int exit_code;
  uint64_t cycles, instret, traps, steps;
  uint64_t shared;     /* steps that retired an instruction and took a fetch fault */
  uint64_t *totals;
} outcome;

static tally_sim *load(const char *core, const char *elf) {
  tally_error err;
  tally_sim *sim = tally_sim_new(NULL);
  if (!sim || tally_load_elf(sim, elf, &err) != 0 ||
      (strcmp(core, "-") && tally_set_core(sim, core, NULL, 0, &err) != 0)) {
    fprintf(stderr, "test_api_step: %s: %s\n", elf, sim ? err.msg : "out of memory");
    exit(2);
  }
  return sim;
}

static void finish(tally_sim *sim, outcome *o, tally_stop stop) {
  o->stop = stop;
  o->exit_code = tally_exit_code(sim);
  o->cycles = tally_cycles(sim);
  o->instret = tally_instret(sim);
  o->traps = tally_traps_taken(sim);
  o->totals = calloc((size_t)tally_signal_count(), sizeof *o->totals);
  tally_signal_totals(sim, o->totals);
}

/* One step, checked against the laws above. */
static tally_stop checked_step(tally_sim *sim, const char *elf, uint64_t n, uint64_t *shared) {
  uint64_t i0 = tally_instret(sim), t0 = tally_traps_taken(sim);
  uint32_t pc0 = tally_pc(sim);
  tally_stop st = tally_step(sim);
  uint64_t di = tally_instret(sim) - i0, dt = tally_traps_taken(sim) - t0;
  if (st != TALLY_STOP_LIMIT) {
    CHECK(di + dt <= 1, "%s step %" PRIu64 " (the last): %" PRIu64 " retired, %" PRIu64 " traps", elf, n, di, dt);
    return st;
  }
  uint32_t mtvec = 0, mepc = 0, mcause = 0;
  if (dt)
    CHECK(tally_csr_read(sim, CSR_MTVEC, &mtvec) && tally_csr_read(sim, CSR_MEPC, &mepc) &&
          tally_csr_read(sim, CSR_MCAUSE, &mcause), "CSRs unreadable");
  bool fetch_fault = dt && mcause == CAUSE_FETCH_ACCESS;
  *shared += di == 1 && dt == 1;
  CHECK(di + dt == 1 || (di == 1 && fetch_fault), "%s step %" PRIu64 " at %08" PRIx32 ": %" PRIu64
        " retired and %" PRIu64 " traps taken", elf, n, pc0, di, dt);
  if (dt) {
    CHECK(tally_pc(sim) == (mtvec & ~3u), "%s step %" PRIu64 ": a trap's step ends at %08" PRIx32 ", not at the "
          "handler %08" PRIx32, elf, n, tally_pc(sim), mtvec & ~3u);
    /* mepc: the trapping instruction, or the interrupted one; after a jump, its target */
    CHECK(mepc == pc0 || (di == 1 && fetch_fault), "%s step %" PRIu64 ": mepc %08" PRIx32 ", the step began at %08"
          PRIx32, elf, n, mepc, pc0);
  }
  return st;
}

static void stepped(const char *core, const char *elf, outcome *o) {
  tally_sim *sim = load(core, elf);
  tally_stop st = TALLY_STOP_LIMIT;
  uint64_t n = 0, shared = 0;
  while (st == TALLY_STOP_LIMIT && n < MAX_STEPS)
    st = checked_step(sim, elf, ++n, &shared);
  finish(sim, o, st);
  o->steps = n;
  o->shared = shared;
  tally_sim_free(sim);
}

static void ran(const char *core, const char *elf, outcome *o) {
  tally_sim *sim = load(core, elf);
  tally_stop st = tally_run(sim, UINT64_MAX);
  finish(sim, o, st);
  tally_sim_free(sim);
}

static void compare(const char *core, const char *elf) {
  outcome s = {0}, r = {0};
  stepped(core, elf, &s);
  ran(core, elf, &r);
  CHECK(s.stop == r.stop && s.exit_code == r.exit_code, "%s: stepped it stops %d (exit %d), run %d (exit %d)", elf,
        s.stop, s.exit_code, r.stop, r.exit_code);
  CHECK(s.stop == TALLY_STOP_EXIT && s.exit_code == 0, "%s: did not run to its end (%d, exit %d)", elf, s.stop,
        s.exit_code);
  CHECK(s.cycles == r.cycles, "%s: %" PRIu64 " cycles stepped, %" PRIu64 " run", elf, s.cycles, r.cycles);
  CHECK(s.instret == r.instret, "%s: %" PRIu64 " instructions stepped, %" PRIu64 " run", elf, s.instret, r.instret);
  CHECK(s.traps == r.traps && s.traps > 0, "%s: %" PRIu64 " traps stepped, %" PRIu64 " run", elf, s.traps, r.traps);
  /* the last step may retire nothing (the program's exit), a fetch fault
   * shares its step with the jump before it */
  CHECK(s.steps + s.shared == s.instret + s.traps || s.steps + s.shared == s.instret + s.traps + 1,
        "%s: %" PRIu64 " steps for %" PRIu64 " instructions and %" PRIu64 " traps", elf, s.steps, s.instret, s.traps);
  for (int i = 0; i < tally_signal_count(); i++)
    CHECK(s.totals[i] == r.totals[i], "%s: signal %s: %" PRIu64 " stepped, %" PRIu64 " run", elf, tally_signal_name(i),
          s.totals[i], r.totals[i]);
  printf("%s %s: %" PRIu64 " steps, %" PRIu64 " instructions, %" PRIu64 " traps, %" PRIu64 " cycles\n", core, elf,
         s.steps, s.instret, s.traps, s.cycles);
  free(s.totals);
  free(r.totals);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: test_api_step CORE|- ELF...\n");
    return 64;
  }
  for (int i = 2; i < argc; i++)
    compare(argv[1], argv[i]);
  printf("%d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
