/*
 * The profile of tally dvfs: the program instrumented with the shipped
 * loop/phase profiler (target/inst/phases.c) at every loop header, run on
 * the core model; its phases.out read back.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dvfs.h"

enum { EXIT_BADDATA = 65, EXIT_INTERNAL_ = 70 };

static int instrument(const dvfs_opts *o, const char *elf, tally_error *err) {
  tally_inst *ti;
  int rc = tally_inst_open(o->in, &ti, err);
  if (rc)
    return rc;
  rc = tally_inst_use_tool(ti, "phases", err);
  tally_inst_arg site = {TALLY_INST_ARG_SITE, 0};
  for (size_t i = 0; !rc && i < tally_inst_ninsns(ti); i++) {
    const tally_inst_insn *in = tally_inst_insn_at(ti, i);
    if (in->flags & TALLY_INST_LOOP)
      rc = tally_inst_add_call(ti, in->pc, TALLY_INST_BEFORE, "tally_phases_hit", &site, 1, err);
  }
  if (!rc)
    rc = tally_inst_write(ti, elf, err);
  tally_inst_close(ti);
  return rc;
}

static int read_rows(const char *path, dvfs_phase **rows, size_t *nrows, tally_error *err) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(err->msg, sizeof err->msg, "%.400s: the phase profiler wrote no file (did the program exit normally?)", path);
    return EXIT_BADDATA;
  }
  char line[256];
  size_t n = 0, cap = 0;
  dvfs_phase *v = NULL;
  unsigned lineno = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    if (line[0] == '#')
      continue;
    dvfs_phase p;
    if (sscanf(line, "%" SCNx32 " %" SCNx32 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64, &p.start,
               &p.end, &p.entries, &p.cycles, &p.instret, &p.rmiss, &p.wmiss) != 7) {
      snprintf(err->msg, sizeof err->msg, "%.400s:%u: not a phase row", path, lineno);
      free(v);
      fclose(f);
      return EXIT_BADDATA;
    }
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      dvfs_phase *nv = realloc(v, cap * sizeof *nv);
      if (!nv) {
        free(v);
        fclose(f);
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return EXIT_INTERNAL_;
      }
      v = nv;
    }
    v[n++] = p;
  }
  fclose(f);
  *rows = v, *nrows = n;
  return 0;
}

int dvfs_profile(const dvfs_opts *o, const char *dir, dvfs_phase **rows, size_t *nrows, dvfs_run *base,
                 tally_error *err) {
  char elf[4096], out[4096];
  snprintf(elf, sizeof elf, "%s/profile.elf", dir);
  snprintf(out, sizeof out, "%s/phases.out", dir);
  int rc = instrument(o, elf, err);
  if (rc)
    return rc;
  dvfs_run r;
  rc = dvfs_run_elf(o, elf, dir, NULL, 0, NULL, &r, err);
  if (!rc && (r.exit_code != base->exit_code || r.out_len != base->out_len ||
              memcmp(r.out, base->out, r.out_len) != 0)) {
    snprintf(err->msg, sizeof err->msg, "the profiled program's output or exit status differs from the original's");
    rc = EXIT_INTERNAL_;
  }
  dvfs_run_free(&r);
  return rc ? rc : read_rows(out, rows, nrows, err);
}
