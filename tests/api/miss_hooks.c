/*
 * The cache-miss hooks agree with the signals (include/tally/tally.h):
 * tally_on_icache_miss is called once for every I-cache lookup that
 * misses, so the number of its calls is the run's icache.miss total; and
 * tally_on_dcache_miss once for every D-cache fill and every store to a
 * write-through D-cache: its calls without TALLY_DCACHE_WRITE are the
 * dcache.read_miss total, its stores without TALLY_DCACHE_HIT the
 * dcache.write_miss total, and its stores with TALLY_DCACHE_HIT the
 * dcache.write_hit total on a write-through D-cache (none on a write-back
 * one). A law, on every program given, on each core model, under the
 * interpreter and (where it takes the model) the translator.
 *
 * usage: test_api_miss_hooks [--board NAME] --core NAME [--wt] ... ELF...
 *   (--wt after a --core: that model's D-cache is write-through)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tally/tally.h"

typedef struct counts {
  uint64_t imiss, dread, dwrite_miss, dwrite_hit;
} counts;

static void on_i(void *ctx, uint32_t line) {
  (void)line;
  ((counts *)ctx)->imiss++;
}

static void on_d(void *ctx, uint32_t line, uint32_t flags) {
  (void)line;
  counts *c = ctx;
  if (!(flags & TALLY_DCACHE_WRITE))
    c->dread++;
  else if (flags & TALLY_DCACHE_HIT)
    c->dwrite_hit++;
  else
    c->dwrite_miss++;
}

static uint64_t total(const uint64_t *t, const char *name) {
  int id = tally_signal_lookup(name);
  CHECK(id >= 0, "no signal %s", name);
  return id >= 0 ? t[id] : 0;
}

static void one(const char *board, const char *core, int wt, tally_engine e, const char *elf) {
  tally_config cfg;
  tally_config_default(&cfg);
  FILE *out = tmpfile();
  cfg.out = out;
  cfg.in_fd = -1;
  cfg.board = board;
  tally_error err;
  tally_sim *sim = tally_sim_open(&cfg, &err);
  if (!sim || tally_set_core(sim, core, NULL, 0, &err) != 0 || tally_load_elf(sim, elf, &err) != 0) {
    CHECK(false, "%s on %s: %s", elf, core, err.msg);
    if (sim)
      tally_sim_free(sim);
    if (out)
      fclose(out);
    return;
  }
  if (e == TALLY_ENGINE_JIT && (tally_set_engine(sim, e, &err) != 0 || tally_engine_running(sim) != e)) {
    tally_sim_free(sim); /* the translator does not take this model: the interpreter's run covers it */
    fclose(out);
    return;
  }
  counts c = {0};
  CHECK(tally_on_icache_miss(sim, on_i, &c) == 0 && tally_on_dcache_miss(sim, on_d, &c) == 0, "%s: hooks refused",
        core);
  tally_stop s;
  int slices = 0;
  while ((s = tally_run(sim, 1000000)) == TALLY_STOP_LIMIT && ++slices < 2000)
    ;
  CHECK(s == TALLY_STOP_EXIT, "%s on %s: stop %d", elf, core, (int)s);
  uint64_t *t = calloc((size_t)tally_signal_count(), sizeof *t);
  tally_signal_totals(sim, t);
  const char *en = e == TALLY_ENGINE_JIT ? "jit" : "interp";
  uint64_t im = total(t, "icache.miss"), rm = total(t, "dcache.read_miss"), wm = total(t, "dcache.write_miss"),
           wh = total(t, "dcache.write_hit");
  CHECK(c.imiss == im, "%s on %s (%s): %" PRIu64 " I-cache hook calls, icache.miss %" PRIu64, elf, core, en, c.imiss,
        im);
  CHECK(c.dread == rm, "%s on %s (%s): %" PRIu64 " D-cache load fills told, dcache.read_miss %" PRIu64, elf, core, en,
        c.dread, rm);
  CHECK(c.dwrite_miss == wm, "%s on %s (%s): %" PRIu64 " store misses told, dcache.write_miss %" PRIu64, elf, core,
        en, c.dwrite_miss, wm);
  CHECK(c.dwrite_hit == (wt ? wh : 0), "%s on %s (%s): %" PRIu64 " store hits told, dcache.write_hit %" PRIu64
        " (write-through %d)", elf, core, en, c.dwrite_hit, wh, wt);
  free(t);
  tally_sim_free(sim);
  fclose(out);
}

int main(int argc, char **argv) {
  const char *board = NULL, *cores[8];
  int wt[8] = {0}, ncores = 0, i = 1;
  for (; i < argc; i++) {
    if (!strcmp(argv[i], "--board") && i + 1 < argc)
      board = argv[++i];
    else if (!strcmp(argv[i], "--core") && i + 1 < argc && ncores < 8)
      cores[ncores++] = argv[++i];
    else if (!strcmp(argv[i], "--wt") && ncores)
      wt[ncores - 1] = 1;
    else
      break;
  }
  if (!ncores || i >= argc) {
    fprintf(stderr, "usage: test_api_miss_hooks [--board NAME] --core NAME [--wt] ... ELF...\n");
    return 2;
  }
  for (int k = 0; k < ncores; k++)
    for (int j = i; j < argc; j++)
      for (int e = 0; e < 2; e++)
        one(board, cores[k], wt[k], (tally_engine)e, argv[j]);
  printf("%d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
