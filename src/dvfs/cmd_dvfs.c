/*
 * tally dvfs: profile-guided voltage/frequency scaling (docs/tally-dvfs.md).
 * The options and the report; the work is in the other files here.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../cli/cli.h"
#include "dvfs.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: tally dvfs [options] IN.elf -o OUT.elf [ARGS...]\n"
          "\n"
          "Profiles IN.elf on a core model with the loop/phase profiler (tally inst\n"
          "--tool phases), picks the functions whose loops mostly wait on memory,\n"
          "inserts switches to a low operating point at their entries and back at every\n"
          "exit, writes OUT.elf, runs both on tally and prints time and energy.\n"
          "ARGS are the program's own arguments (for every run).\n"
          "\n"
          "options:\n"
          "  -o FILE              the DVFS'd program (required)\n"
          "      --core NAME      core model (default dsp500)\n"
          "      --high MHZ:V     the normal operating point (default: the model's)\n"
          "      --low MHZ:V      the slow point (default: half the clock, 5/6 of the\n"
          "                       voltage: 250:1.0 on dsp500)\n"
          "      --max-slowdown PCT  never slower than this (default 5): regions are\n"
          "                       dropped, least misses per cycle first, until it holds\n"
          "      --min-misses N   first threshold: D-cache misses of a region (default 10000)\n"
          "      --min-mpc X      second threshold: misses per cycle (default 0.002)\n"
          "      --min-relocks X  break-even: cycles per region entry at least X times\n"
          "                       the two PLL relocks of a switch pair (default 20)\n"
          "      --relock N       the model's pll_relock_cycles (default 1000)\n"
          "      --keep           keep the scratch directory (its path is printed)\n"
          "  -h, --help           this help\n"
          "\n"
          "exit status: 0; 64 usage; 65 the program cannot be profiled or changes its\n"
          "output; 66 IN.elf unreadable; 70 internal or toolchain failure.\n");
}

static bool parse_point(const char *s, dvfs_point *p) {
  char *end;
  p->mhz = strtod(s, &end);
  if (*end != ':' || p->mhz <= 0 || p->mhz > 100000)
    return false;
  p->volt = strtod(end + 1, &end);
  return *end == '\0' && p->volt > 0 && p->volt <= 10;
}

enum { O_CORE = 256, O_HIGH, O_LOW, O_SLOW, O_MISS, O_MPC, O_RELOCKS, O_RELOCK, O_KEEP };

static int parse(int argc, char **argv, dvfs_opts *o) {
  *o = (dvfs_opts){.core = "dsp500", .max_slowdown = 5, .min_misses = 10000, .min_mpc = 0.002, .min_relocks = 20,
                   .relock_cycles = 1000};
  static const struct option opts[] = {
      {"core", required_argument, NULL, O_CORE},       {"high", required_argument, NULL, O_HIGH},
      {"low", required_argument, NULL, O_LOW},         {"max-slowdown", required_argument, NULL, O_SLOW},
      {"min-misses", required_argument, NULL, O_MISS}, {"min-mpc", required_argument, NULL, O_MPC},
      {"min-relocks", required_argument, NULL, O_RELOCKS}, {"relock", required_argument, NULL, O_RELOCK},
      {"keep", no_argument, NULL, O_KEEP},             {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  int c;
  char *end;
  optind = 1;
  /* Options may come before and after IN.elf; the first word after that
   * which is not an option (or everything after "--") is the program's. */
  for (;;) {
    c = getopt_long(argc, argv, "+ho:", opts, NULL);
    if (c == -1) {
      if (o->in || optind >= argc)
        break;
      o->in = argv[optind++];
      if (optind > 1 && strcmp(argv[optind - 2], "--") == 0)
        break;
      continue;
    }
    switch (c) {
    case 'h': usage(stdout); return -1;
    case 'o': o->out = optarg; break;
    case O_CORE: o->core = optarg; break;
    case O_HIGH:
    case O_LOW:
      if (!parse_point(optarg, c == O_HIGH ? &o->high : &o->low)) {
        fprintf(stderr, "tally dvfs: --%s '%s': want MHZ:VOLTS, e.g. 250:1.0\n", c == O_HIGH ? "high" : "low", optarg);
        return EXIT_USAGE;
      }
      break;
    case O_SLOW:
    case O_MPC:
    case O_RELOCKS: {
      double v = strtod(optarg, &end);
      if (*end || v < 0 || v > 1e6) {
        fprintf(stderr, "tally dvfs: '%s' is not a non-negative number\n", optarg);
        return EXIT_USAGE;
      }
      *(c == O_SLOW ? &o->max_slowdown : c == O_MPC ? &o->min_mpc : &o->min_relocks) = v;
      break;
    }
    case O_MISS:
    case O_RELOCK: {
      unsigned long long v = strtoull(optarg, &end, 10);
      if (*end || optarg[0] == '-' || v > 100000000ull) {
        fprintf(stderr, "tally dvfs: '%s' is not a count (0-100000000)\n", optarg);
        return EXIT_USAGE;
      }
      if (c == O_MISS)
        o->min_misses = v;
      else
        o->relock_cycles = (unsigned)v;
      break;
    }
    case O_KEEP: o->keep = true; break;
    default: usage(stderr); return EXIT_USAGE;
    }
  }
  if (!o->in) {
    fprintf(stderr, "tally dvfs: no input program (tally dvfs --help)\n");
    return EXIT_USAGE;
  }
  o->argc = argc - optind;
  o->argv = argv + optind;
  if (!o->out) {
    fprintf(stderr, "tally dvfs: no output file: -o OUT.elf\n");
    return EXIT_USAGE;
  }
  return 0;
}

static bool same_output(const dvfs_run *a, const dvfs_run *b) {
  return a->exit_code == b->exit_code && a->out_len == b->out_len && memcmp(a->out, b->out, a->out_len) == 0;
}

static void print_regions(const dvfs_region *v, size_t n) {
  printf("regions (a function each; its loops' phases merged):\n");
  printf("  %-24s %-34s %14s %12s %9s %9s  %s\n", "function", "at", "cycles", "misses", "miss/cyc", "entries",
         "decision");
  for (size_t i = 0; i < n; i++) {
    const char *w = strchr(v[i].where, ' ') ? strchr(v[i].where, ' ') + 1 : v[i].where;
    printf("  %-24.24s %-34.34s %14llu %12llu %9.5f %9llu  %s\n", v[i].name, w, (unsigned long long)v[i].cycles,
           (unsigned long long)v[i].misses, v[i].cycles ? (double)v[i].misses / (double)v[i].cycles : 0.0,
           (unsigned long long)v[i].entries, v[i].why);
  }
}

static void print_run(const char *what, const dvfs_run *r, const dvfs_run *base) {
  printf("  %-28s %14llu cycles %12.6f s %12.6f J", what, (unsigned long long)r->cycles, r->e.seconds, r->e.total_j);
  if (base)
    printf("   time %+6.2f%%  energy %+6.2f%%", 100.0 * (r->e.seconds / base->e.seconds - 1),
           100.0 * (r->e.total_j / base->e.total_j - 1));
  printf("\n");
}

/* Drops the chosen region with the fewest misses per cycle; false if none. */
static bool drop_weakest(dvfs_region *v, size_t n) {
  long w = -1;
  for (size_t i = 0; i < n; i++)
    if (v[i].chosen && (w < 0 || (double)v[i].misses / (double)v[i].cycles <
                                     (double)v[w].misses / (double)v[w].cycles))
      w = (long)i;
  if (w < 0)
    return false;
  v[w].chosen = false;
  v[w].why = "dropped: over --max-slowdown";
  return true;
}

static int work(dvfs_opts *o, const char *dir) {
  tally_error err = {0};
  dvfs_run base = {0}, after = {0}, stat = {0};
  dvfs_phase *rows = NULL;
  dvfs_region *regs = NULL;
  size_t nrows = 0, nregs = 0;
  dvfs_point model;
  int rc = dvfs_model_point(o, &model, &err);
  if (!rc) {
    if (o->high.mhz == 0)
      o->high = model;
    if (o->low.mhz == 0)
      o->low = (dvfs_point){model.mhz / 2, model.volt * 5 / 6};
    rc = dvfs_run_elf(o, o->in, dir, NULL, 0, &base, &err);
  }
  if (!rc)
    rc = dvfs_profile(o, dir, &rows, &nrows, &base, &err);
  if (!rc)
    rc = dvfs_select(o, rows, nrows, &regs, &nregs, &err);
  for (;;) {
    if (rc)
      break;
    rc = dvfs_insert(o, dir, regs, nregs, o->out, &err);
    dvfs_run_free(&after);
    if (!rc)
      rc = dvfs_run_elf(o, o->out, dir, NULL, 0, &after, &err);
    if (!rc && !same_output(&base, &after)) {
      snprintf(err.msg, sizeof err.msg, "%.400s: the output or exit status differs from the original's", o->out);
      unlink(o->out);
      rc = 65;
    }
    if (rc || 100.0 * (after.e.seconds / base.e.seconds - 1) <= o->max_slowdown || !drop_weakest(regs, nregs))
      break;
  }
  if (!rc) {
    printf("tally dvfs: %s -> %s on %s, %.0f MHz/%.2f V and %.0f MHz/%.2f V\n", o->in, o->out, o->core,
           o->high.mhz, o->high.volt, o->low.mhz, o->low.volt);
    print_regions(regs, nregs);
    printf("whole run (simulated on tally; output identical):\n");
    print_run("original", &base, NULL);
    print_run("with switches", &after, &base);
    char f[64], v[64];
    snprintf(f, sizeof f, "core.frequency_mhz=%g", o->low.mhz);
    snprintf(v, sizeof v, "core.voltage=%g", o->low.volt);
    const char *sets[] = {f, v};
    rc = dvfs_run_elf(o, o->in, dir, sets, 2, &stat, &err);
    if (!rc) {
      char label[64];
      snprintf(label, sizeof label, "static %.0f MHz/%.2f V", o->low.mhz, o->low.volt);
      print_run(label, &stat, &base);
    }
  }
  if (rc)
    fprintf(stderr, "tally dvfs: %s\n", err.msg);
  dvfs_run_free(&base);
  dvfs_run_free(&after);
  dvfs_run_free(&stat);
  free(rows);
  free(regs);
  return rc;
}

static void remove_tree(const char *dir) {
  static const char *const names[] = {"profile.elf", "phases.out", "switch.c"};
  char p[4096];
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    snprintf(p, sizeof p, "%s/%s", dir, names[i]);
    unlink(p);
  }
  rmdir(dir);
}

int cmd_dvfs(int argc, char **argv) {
  dvfs_opts o;
  int rc = parse(argc, argv, &o);
  if (rc)
    return rc < 0 ? 0 : rc;
  if (access(o.in, R_OK) != 0) {
    fprintf(stderr, "tally dvfs: %s: cannot read the program\n", o.in);
    return EXIT_NOINPUT;
  }
  char dir[] = "/tmp/tally-dvfs-XXXXXX";
  if (!mkdtemp(dir)) {
    perror("tally dvfs: scratch directory");
    return EXIT_INTERNAL;
  }
  rc = work(&o, dir);
  if (o.keep)
    fprintf(stderr, "tally dvfs: scratch files kept in %s\n", dir);
  else
    remove_tree(dir);
  return rc;
}
