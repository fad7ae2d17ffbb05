/*
 * The law between the engines: a program run by the translator ends
 * exactly as one run by the interpreter (include/tally/tally.h, "Engine"),
 * and so does every stretch of it, wherever an instruction budget ends
 * (inside a block, most of the time). A client of the public API only.
 *
 * For each ELF:
 *   - run to its end under each engine: the same stop, exit code,
 *     instructions, cycles, traps taken, pc, registers, trap CSRs, output
 *     and memory (a hash of where the programs write);
 *   - run again under both side by side in stretches of 1 to 97
 *     instructions (a fixed pseudo-random sequence) for the first
 *     STRETCHED instructions, comparing pc, registers and counts after
 *     every stretch (and that neither engine's cycle count went back
 *     since the stretch before), then on to the end, compared as above;
 *   - the translator did run: blocks were translated; with
 *     $TALLY_JIT_CODE set (a small code region), its region filled up and
 *     was flushed at least once over the programs.
 *
 * With --core NAME (repeatable) the runs are timed, on each core model
 * named, and every comparison covers the cycle count and the total of
 * every signal (what --stats-json and the counters report) too. The
 * models named must be seen to translate (unless --interpreted).
 *
 * With --board NAME (a shipped board or a board file) the runs are on that
 * board.
 *
 * With --interpreted the models named are ones the translator does not
 * take: both runs must interpret, and the
 * stretched runs check what holds of any engine (the cycle count never
 * goes back; in the sanitizer build, the block-bound law as they run).
 *
 * usage: test_api_engines [--interpreted] [--core NAME]... [--board NAME] ELF...
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tally/tally.h"

#define RUN_SLICE 100000000ull
#define STRETCHED 300000ull
#define CSR_MSTATUS 0x300
#define CSR_MEPC 0x341
#define CSR_MCAUSE 0x342
#define CSR_MTVAL 0x343
#define RAM_HASH_CHUNK 65536u

#define MAX_SIGNALS 128

static uint64_t full_flushes;
static const char *core_name; /* the core model of the runs, or NULL: functional */
static const char *board_name; /* the runs' board (tally_config.board), or NULL: virt */
static bool interpreted;       /* --interpreted: the models run interpreted under either engine */

typedef struct state {
  tally_stop stop;
  int exit_code;
  uint64_t instret, cycles, traps, mem;
  uint32_t pc, x[32], csr[4];
  uint64_t sig[MAX_SIGNALS]; /* timed runs: every signal's total */
} state;

typedef struct run {
  tally_sim *sim;
  FILE *out;
} run;

static run open_run(const char *elf, tally_engine e) {
  tally_config cfg;
  tally_config_default(&cfg);
  run r = {.out = tmpfile()};
  cfg.out = r.out;
  cfg.in_fd = -1;
  cfg.board = board_name;
  tally_error err;
  r.sim = tally_sim_open(&cfg, &err);
  if (!r.sim || !r.out || (core_name && tally_set_core(r.sim, core_name, NULL, 0, &err) != 0) ||
      tally_set_engine(r.sim, e, &err) != 0 || tally_load_elf(r.sim, elf, &err) != 0) {
    fprintf(stderr, "test_api_engines: %s: %s\n", elf, err.msg);
    exit(2);
  }
  return r;
}

static void close_run(run *r) {
  tally_sim_free(r->sim);
  fclose(r->out);
}

/* FNV-1a by 64-bit words over where these programs write: their image,
 * data and heap (the first 4 MiB of RAM) and their stack (the last 1 MiB) */
static uint64_t ram_hash(const tally_sim *sim) {
  uint64_t h = 1469598103934665603ull;
  uint32_t base = tally_ram_base(sim), size = tally_ram_size(sim);
  static uint64_t buf[RAM_HASH_CHUNK / 8];
  for (uint32_t off = 0; off < size; off += RAM_HASH_CHUNK) {
    if (off == 4u << 20 && size > (5u << 20))
      off = size - (1u << 20);
    if (!tally_read_mem(sim, base + off, buf, RAM_HASH_CHUNK))
      break;
    for (unsigned i = 0; i < RAM_HASH_CHUNK / 8; i++)
      h = (h ^ buf[i]) * 1099511628211ull;
  }
  return h;
}

static void snap(tally_sim *sim, tally_stop stop, state *s, bool mem) {
  *s = (state){.stop = stop, .exit_code = tally_exit_code(sim), .instret = tally_instret(sim),
               .cycles = tally_cycles(sim), .traps = tally_traps_taken(sim), .pc = tally_pc(sim)};
  for (unsigned r = 0; r < 32; r++)
    s->x[r] = tally_reg(sim, r);
  static const unsigned csrs[4] = {CSR_MSTATUS, CSR_MEPC, CSR_MCAUSE, CSR_MTVAL};
  for (int i = 0; i < 4; i++)
    tally_csr_read(sim, csrs[i], &s->csr[i]);
  if (mem)
    s->mem = ram_hash(sim);
  if (core_name)
    tally_signal_totals(sim, s->sig);
}

static void compare(const char *elf, const char *when, const state *a, const state *b) {
  CHECK(a->stop == b->stop && a->exit_code == b->exit_code, "%s %s: stop %d/%d exit %d/%d (interp/jit)", elf, when,
        a->stop, b->stop, a->exit_code, b->exit_code);
  CHECK(a->instret == b->instret && a->cycles == b->cycles && a->traps == b->traps,
        "%s %s: instret %" PRIu64 "/%" PRIu64 " cycles %" PRIu64 "/%" PRIu64 " traps %" PRIu64 "/%" PRIu64, elf, when,
        a->instret, b->instret, a->cycles, b->cycles, a->traps, b->traps);
  CHECK(a->pc == b->pc, "%s %s (instret %" PRIu64 "): pc %08" PRIx32 "/%08" PRIx32, elf, when, a->instret, a->pc,
        b->pc);
  for (unsigned r = 1; r < 32; r++)
    CHECK(a->x[r] == b->x[r], "%s %s (instret %" PRIu64 "): x%u %08" PRIx32 "/%08" PRIx32, elf, when, a->instret, r,
          a->x[r], b->x[r]);
  CHECK(!memcmp(a->csr, b->csr, sizeof a->csr), "%s %s: trap CSRs differ", elf, when);
  CHECK(a->mem == b->mem, "%s %s: memory differs", elf, when);
  for (int i = 0; i < tally_signal_count(); i++)
    if (a->sig[i] != b->sig[i]) {
      CHECK(false, "%s %s (%s, instret %" PRIu64 "): signal %s %" PRIu64 "/%" PRIu64, elf, when, core_name, a->instret,
            tally_signal_name(i), a->sig[i], b->sig[i]);
      break;
    }
}

static bool same_output(FILE *a, FILE *b) {
  fflush(a), fflush(b);
  rewind(a), rewind(b);
  int ca, cb;
  do {
    ca = getc(a), cb = getc(b);
  } while (ca == cb && ca != EOF);
  return ca == cb;
}

static tally_stop run_to_end(tally_sim *sim) {
  tally_stop st;
  while ((st = tally_run(sim, RUN_SLICE)) == TALLY_STOP_LIMIT && tally_instret(sim) < 20 * RUN_SLICE)
    ;
  return st;
}

static void check_program(const char *elf) {
  run r[2] = {open_run(elf, TALLY_ENGINE_INTERP), open_run(elf, TALLY_ENGINE_JIT)};
  if (interpreted)
    CHECK(tally_engine_running(r[1].sim) == TALLY_ENGINE_INTERP, "%s: the translator runs", elf);
  else
    CHECK(tally_engine_running(r[1].sim) == TALLY_ENGINE_JIT, "%s: the translator is not running (%s)", elf,
          tally_engine_why(r[1].sim) ? tally_engine_why(r[1].sim) : "no reason given");
  state s[2];
  for (int e = 0; e < 2; e++)
    snap(r[e].sim, run_to_end(r[e].sim), &s[e], true);
  compare(elf, "whole run", &s[0], &s[1]);
  CHECK(same_output(r[0].out, r[1].out), "%s: the output differs", elf);
  tally_jit_stats st;
  tally_jit_stats_get(r[1].sim, &st);
  CHECK(interpreted || (st.blocks > 0 && st.code_bytes > 0), "%s: nothing was translated", elf);
  full_flushes += st.full_flushes;
  for (int e = 0; e < 2; e++)
    close_run(&r[e]);

  /* in stretches: budgets that end anywhere in a block */
  run q[2] = {open_run(elf, TALLY_ENGINE_INTERP), open_run(elf, TALLY_ENGINE_JIT)};
  uint32_t rnd = 12345;
  tally_stop st0 = TALLY_STOP_LIMIT;
  uint64_t before[2] = {0, 0}; /* the cycle count at the stop before */
  while (st0 == TALLY_STOP_LIMIT && tally_instret(q[0].sim) < STRETCHED && !failures) {
    rnd = rnd * 1103515245u + 12345u;
    uint64_t n = 1 + (rnd >> 16) % 97;
    tally_stop stops[2];
    for (int e = 0; e < 2; e++) {
      stops[e] = tally_run(q[e].sim, n);
      snap(q[e].sim, stops[e], &s[e], false);
      /* a law of every engine: the count never goes back between stops */
      CHECK(s[e].cycles >= before[e], "%s stretch (instret %" PRIu64 ", %s): cycles %" PRIu64 " after %" PRIu64, elf,
            s[e].instret, e ? "jit" : "interp", s[e].cycles, before[e]);
      before[e] = s[e].cycles;
    }
    compare(elf, "stretch", &s[0], &s[1]);
    st0 = stops[0];
  }
  for (int e = 0; e < 2; e++)
    snap(q[e].sim, st0 == TALLY_STOP_LIMIT ? run_to_end(q[e].sim) : st0, &s[e], true);
  compare(elf, "after stretches", &s[0], &s[1]);
  CHECK(same_output(q[0].out, q[1].out), "%s: the output differs after stretches", elf);
  for (int e = 0; e < 2; e++)
    close_run(&q[e]);
}

/* The engine a timed run on `core` runs with the translator asked for
 * (-1: it could not be set up), and the reason it gives in why ("" for
 * none). */
static int engine_on(const char *core, char why[static 128]) {
  tally_error err;
  tally_sim *v = tally_sim_new(NULL);
  int e = -1;
  why[0] = 0;
  if (v && tally_set_core(v, core, NULL, 0, &err) == 0 && tally_set_engine(v, TALLY_ENGINE_JIT, &err) == 0) {
    e = (int)tally_engine_running(v);
    if (tally_engine_why(v))
      snprintf(why, 128, "%s", tally_engine_why(v));
  }
  tally_sim_free(v);
  return e;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_api_engines ELF...\n");
    return 2;
  }
  tally_sim *probe = tally_sim_new(NULL);
  tally_error err;
  if (!probe || tally_set_engine(probe, TALLY_ENGINE_JIT, &err) != 0) {
    printf("no translator on this host: skipped\n");
    tally_sim_free(probe);
    return 77;
  }
  tally_sim_free(probe);
  const char *cores[8];
  int ncores = 0, first = 1;
  for (; first + 1 < argc; first += 2) {
    if (strcmp(argv[first], "--interpreted") == 0)
      interpreted = true, first--;
    else if (strcmp(argv[first], "--core") == 0 && ncores < 8)
      cores[ncores++] = argv[first + 1];
    else if (strcmp(argv[first], "--board") == 0)
      board_name = argv[first + 1];
    else
      break;
  }
  if (tally_signal_count() > MAX_SIGNALS) {
    fprintf(stderr, "test_api_engines: %d signals, room for %d\n", tally_signal_count(), MAX_SIGNALS);
    return 2;
  }
  if (ncores) {
    /* every shipped model with a rule of its own is translated: the
     * PicoRV32 models (jit_pico.c), vexriscv-min (jit_vex.c) and the cached
     * VexRiscv models (jit_vexc.c) */
    static const char *const translated[] = {"picorv32",     "picorv32-ws3", "picorv32-fast",
                                             "vexriscv-min", "vexriscv",     "vexriscv-imac"};
    for (size_t m = 0; m < sizeof translated / sizeof translated[0]; m++) {
      char why[128];
      CHECK(engine_on(translated[m], why) == TALLY_ENGINE_JIT, "%s: the translator does not run (%s)",
            translated[m], why[0] ? why : "no reason given");
    }
  }
  for (int c = 0; c < (ncores ? ncores : 1); c++) {
    core_name = ncores ? cores[c] : NULL;
    for (int i = first; i < argc; i++)
      check_program(argv[i]);
  }
  const char *small = getenv("TALLY_JIT_CODE");
  if (small && *small)
    CHECK(full_flushes > 0, "TALLY_JIT_CODE=%s: the code region was never full", small);
  printf("%d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
