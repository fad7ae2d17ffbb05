/*
 * tally dvfs: profile-guided voltage/frequency scaling (docs/tally-dvfs.md).
 * The options and the report; the work is in the other files here.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../cli/cli.h"
#include "dvfs.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: tally dvfs [options] IN.elf -o OUT.elf [ARGS...]\n"
          "\n"
          "Profiles IN.elf on a core model with the loop/phase profiler (tally inst\n"
          "--tool phases), picks the loops (or functions) that mostly wait on memory,\n"
          "inserts switches to a slower operating point at their ways in and back at\n"
          "every way out, writes OUT.elf, runs both on tally and prints time and energy\n"
          "per region and for the whole run, beside the static settings and an oracle.\n"
          "ARGS are the program's own arguments (for every run).\n"
          "\n"
          "options:\n"
          "  -o FILE              the DVFS'd program (required)\n"
          "      --core NAME      core model (default dsp500)\n"
          "      --board NAME|FILE  the board (default virt; docs/boards.md): it needs\n"
          "                       semihosting (the profiler's runtime), RAM at\n"
          "                       0x80000000 and the control block at 0x00110000\n"
          "                       (the inserted switches), as virt has them\n"
          "      --points LIST    operating points MHZ:V,MHZ:V,... (default: the model's\n"
          "                       [dvfs] points; dsp500: 500:1.2,250:1.0); the model's\n"
          "                       own clock and voltage are always the first\n"
          "      --regions KIND   loops (default: the paper's) or functions\n"
          "      --max-slowdown PCT  never slower than this (default 5): the region with\n"
          "                       the fewest misses per cycle goes one point faster\n"
          "                       (at the top: dropped) until it holds (the descent);\n"
          "                       then every region is run alone at every slower\n"
          "                       point, the best combination of those runs within\n"
          "                       the limit is found exactly (a knapsack) and kept\n"
          "                       when its real run is within the limit and takes\n"
          "                       less energy\n"
          "      --descent-only   the descent alone (no single-region runs, no\n"
          "                       knapsack); --no-readd is the same\n"
          "      --tradeoff-csv FILE  write the knapsack's predicted best time and\n"
          "                       energy for limits 0.25%%..max(5, --max-slowdown)%%\n"
          "                       in steps of 0.25%% (limit_pct,time_pct,energy_pct,regions)\n"
          "      --svg FILE       also draw the measured table as an SVG picture: per\n"
          "                       chosen region, outside them and for the whole run,\n"
          "                       time and energy in percent of the original; and\n"
          "                       the references (static points, oracle)\n"
          "      --no-oracle      skip the oracle's runs (the report says it was not run)\n"
          "      --startup        count start-up code (what runs before main is first\n"
          "                       entered: crt0 clearing .bss) in the regions; by\n"
          "                       default it is in none and the report says its counts\n"
          "      --min-misses N   first threshold: D-cache misses of a region (default 10000)\n"
          "      --min-mpc X      second threshold: misses per cycle (default 0.002)\n"
          "      --min-relocks X  break-even: cycles per region entry at least X times\n"
          "                       a switch pair's cost: its two PLL relocks and its\n"
          "                       switch code (default 20)\n"
          "      --switch-cycles N  the switch code's cycles per switch pair, besides\n"
          "                       the relocks (default 2000, measured on dsp500)\n"
          "      --max-cycles N   every run's cycle budget (the profile, the original,\n"
          "                       each trial): one that reaches it, a wfi sleep\n"
          "                       included, ends tally dvfs with status 123\n"
          "      --keep           keep the scratch directory (its path is printed)\n"
          "      --max-insns N    stop every run of the program after N instructions\n"
          "                       (k/M/G suffixes): a program that never ends stops\n"
          "      --timeout S      stop after S seconds of wall time in all\n"
          "  -h, --help           this help\n"
          "\n"
          "Ctrl-C, SIGTERM, --timeout and --max-insns stop the run under way; what was\n"
          "measured so far is printed and the scratch directory kept.\n"
          "\n"
          "exit status: 0; 64 usage; 123 a run reached --max-cycles; 65 the program cannot be profiled or changes its\n"
          "output; 66 IN.elf unreadable; 70 internal or toolchain failure; 73\n"
          "--tradeoff-csv or --svg FILE cannot be written (checked before the runs);\n"
          "124 --timeout or --max-insns stopped a run; 130 Ctrl-C or SIGTERM.\n");
}

enum { O_CORE = 256, O_BOARD, O_POINTS, O_REGIONS, O_SLOW, O_MISS, O_MPC, O_RELOCKS, O_KEEP, O_NO_ORACLE, O_STARTUP, O_SWITCH, O_NO_READD, O_CSV, O_SVG,
       O_MAX_INSNS, O_TIMEOUT, O_MAX_CYCLES };

static volatile sig_atomic_t stop_requested;
static void on_stop(int sig) { (void)sig; stop_requested = 1; }

/* "N" with an optional k, M or G (x1000): false when it is not one. */
static bool parse_insns(const char *s, uint64_t *v) {
  char *end;
  if (!*s || *s == '-')
    return false;
  errno = 0;
  unsigned long long n = strtoull(s, &end, 10);
  uint64_t mul = *end == 'k' ? 1000ull : *end == 'M' ? 1000000ull : *end == 'G' ? 1000000000ull : 1;
  if (mul > 1)
    end++;
  if (errno || *end || end == s || n == 0 || n > UINT64_MAX / mul)
    return false;
  *v = n * mul;
  return true;
}

/* --board: what tally dvfs needs of a board. The profile comes from a
 * program instrumented by tally inst (its runtime makes semihosting calls
 * and lives at 0x88000000, above a tally.ld program's RAM) and the
 * switches it inserts write the control block at 0x00110000. */
static int check_board(const char *board) {
  if (!board)
    return 0;
  tally_board_info b;
  tally_error err;
  if (tally_board_lookup(board, &b, &err) != 0) {
    fprintf(stderr, "tally dvfs: --board %s: %s\n", board, err.msg);
    return err.code == TALLY_E_INPUT ? EXIT_NOINPUT : EXIT_USAGE;
  }
  const char *why = !b.semihosting ? "no semihosting (the profiler's runtime makes semihosting calls)"
                    : b.ram_base != 0x80000000u ? "its RAM elsewhere than 0x80000000 (where tally inst's runtime goes)"
                    : !b.has_control || b.control_base != 0x00110000u
                        ? "no control block at 0x00110000 (where the inserted switches write)"
                        : NULL;
  if (why) {
    fprintf(stderr, "tally dvfs: --board %s: board %s has %s; tally dvfs runs on virt and boards with its map\n",
            board, b.name, why);
    return EXIT_USAGE;
  }
  return 0;
}

static int parse(int argc, char **argv, dvfs_opts *o) {
  *o = (dvfs_opts){.core = "dsp500", .max_slowdown = 5, .min_misses = 10000, .min_mpc = 0.002, .min_relocks = 20,
                   .relock_cycles = 1000, .oracle = true, .readd = true, .switch_cycles = 2000};
  static const struct option opts[] = {
      {"core", required_argument, NULL, O_CORE},       {"points", required_argument, NULL, O_POINTS},
      {"board", required_argument, NULL, O_BOARD},
      {"regions", required_argument, NULL, O_REGIONS}, {"max-slowdown", required_argument, NULL, O_SLOW},
      {"min-misses", required_argument, NULL, O_MISS}, {"min-mpc", required_argument, NULL, O_MPC},
      {"min-relocks", required_argument, NULL, O_RELOCKS}, {"no-oracle", no_argument, NULL, O_NO_ORACLE},
      {"no-readd", no_argument, NULL, O_NO_READD},       {"descent-only", no_argument, NULL, O_NO_READD},
      {"tradeoff-csv", required_argument, NULL, O_CSV}, {"svg", required_argument, NULL, O_SVG},
      {"keep", no_argument, NULL, O_KEEP},             {"help", no_argument, NULL, 'h'},
      {"startup", no_argument, NULL, O_STARTUP},       {"switch-cycles", required_argument, NULL, O_SWITCH},
      {"max-cycles", required_argument, NULL, O_MAX_CYCLES},
      {"max-insns", required_argument, NULL, O_MAX_INSNS}, {"timeout", required_argument, NULL, O_TIMEOUT},
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
    case O_BOARD: o->board = optarg; break;
    case O_POINTS: {
      dvfs_point pts[DVFS_MAX_POINTS];
      size_t n;
      char why[128];
      if (!dvfs_parse_points(optarg, pts, &n, why, sizeof why) || n == 0) {
        fprintf(stderr, "tally dvfs: --points '%s': %s\n", optarg, n ? why : "want MHZ:VOLTS,..., e.g. 500:1.2,250:1.0");
        return EXIT_USAGE;
      }
      o->points_opt = optarg;
      break;
    }
    case O_REGIONS:
      if (strcmp(optarg, "loops") && strcmp(optarg, "functions")) {
        fprintf(stderr, "tally dvfs: --regions '%s': want loops or functions\n", optarg);
        return EXIT_USAGE;
      }
      o->kind = strcmp(optarg, "loops") ? DVFS_FUNCTIONS : DVFS_LOOPS;
      break;
    case O_NO_ORACLE: o->oracle = false; break;
    case O_STARTUP: o->startup = true; break;
    case O_NO_READD: o->readd = false; break;
    case O_CSV: o->tradeoff_csv = optarg; break;
    case O_SVG: o->svg = optarg; break;
    case O_SLOW:
    case O_MPC:
    case O_SWITCH:
    case O_RELOCKS: {
      double v = strtod(optarg, &end);
      if (*end || v < 0 || v > 1e6) {
        fprintf(stderr, "tally dvfs: '%s' is not a non-negative number\n", optarg);
        return EXIT_USAGE;
      }
      *(c == O_SLOW ? &o->max_slowdown : c == O_MPC ? &o->min_mpc : c == O_SWITCH ? &o->switch_cycles
                                                                                   : &o->min_relocks) = v;
      break;
    }
    case O_MISS: {
      unsigned long long v = strtoull(optarg, &end, 10);
      if (*end || optarg[0] == '-' || v > 100000000ull) {
        fprintf(stderr, "tally dvfs: --min-misses '%s' is not a count (0-100000000)\n", optarg);
        return EXIT_USAGE;
      }
      o->min_misses = v;
      break;
    }
    case O_KEEP: o->keep = true; break;
    case O_MAX_CYCLES:
      if (!tally_parse_number(optarg, &o->max_cycles) || !o->max_cycles) {
        fprintf(stderr, "tally dvfs: --max-cycles wants a positive count, got '%s'\n", optarg);
        return EXIT_USAGE;
      }
      break;
    case O_MAX_INSNS:
      if (!parse_insns(optarg, &o->max_insns)) {
        fprintf(stderr, "tally dvfs: --max-insns '%s' is not a count of instructions (e.g. 500M)\n", optarg);
        return EXIT_USAGE;
      }
      break;
    case O_TIMEOUT: {
      double v = strtod(optarg, &end);
      if (*end || end == optarg || !(v > 0) || v > 1e9) {
        fprintf(stderr, "tally dvfs: --timeout '%s' is not a number of seconds above 0\n", optarg);
        return EXIT_USAGE;
      }
      struct timespec ts;
      clock_gettime(CLOCK_MONOTONIC, &ts);
      o->deadline = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 + v;
      break;
    }
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
  return check_board(o->board);
}

/* Both programs stepped, with a row per chosen region. */
static int account(const dvfs_opts *o, const char *dir, const dvfs_region *regs, size_t nregs, dvfs_tally *before,
                   dvfs_tally *after, dvfs_run *base, dvfs_run *sw, tally_error *err) {
  dvfs_range *ranges = malloc((nregs ? nregs : 1) * DVFS_MAX_RANGES * sizeof *ranges);
  if (!ranges) {
    snprintf(err->msg, sizeof err->msg, "out of memory");
    return EXIT_INTERNAL;
  }
  size_t m = 0, nr = 0;
  for (size_t i = 0; i < nregs; i++)
    if (regs[i].point) {
      for (size_t k = 0; k < regs[i].nranges; k++)
        ranges[nr++] = (dvfs_range){regs[i].ranges[k].lo, regs[i].ranges[k].hi, m};
      m++;
    }
  dvfs_acct a = {ranges, nr, m, before};
  dvfs_run_free(base);
  dvfs_run_free(sw);
  int rc = dvfs_run_elf(o, o->in, dir, NULL, 0, &a, base, err);
  a.rows = after;
  if (!rc)
    rc = dvfs_run_elf(o, o->out, dir, NULL, 0, &a, sw, err);
  free(ranges);
  return rc;
}

/* The static runs (pts[1..]) and the oracle. */
static int references(const dvfs_opts *o, const char *dir, const dvfs_region *regs, size_t nregs,
                      const dvfs_run *base, const dvfs_run *sw, dvfs_run *statics, dvfs_oracle *orc,
                      tally_error *err) {
  int rc = 0;
  for (size_t p = 1; !rc && p < o->npts; p++)
    rc = dvfs_static_run(o, dir, p, &statics[p], err);
  if (rc)
    return rc;
  if (o->oracle)
    return dvfs_oracle_search(o, dir, regs, nregs, base, orc, err);
  /* no oracle: the tool's own choice stands in, said so by 0 runs */
  orc->points = calloc(nregs ? nregs : 1, sizeof *orc->points);
  if (!orc->points) {
    snprintf(err->msg, sizeof err->msg, "out of memory");
    return EXIT_INTERNAL;
  }
  for (size_t i = 0; i < nregs; i++)
    orc->points[i] = regs[i].point;
  orc->cycles = sw->cycles, orc->seconds = sw->e.seconds, orc->joules = sw->e.total_j;
  return 0;
}

static void print_head(const dvfs_opts *o) {
  printf("tally dvfs: %s -> %s on %s; operating points", o->in, o->out, o->core);
  for (size_t p = 0; p < o->npts; p++)
    printf("%s %.0f MHz/%.2f V%s", p ? "," : "", o->pts[p].mhz, o->pts[p].volt, p ? "" : " (start)");
  printf("; PLL relock %u cycles\n", o->relock_cycles);
  uint64_t hi = (uint64_t)o->sram_base + o->sram_size;
  if (o->sram_size && TALLY_INST_REGION_BASE >= o->sram_base && TALLY_INST_REGION_BASE < hi)
    printf("switch code: in the model's on-chip SRAM (0x%08x-0x%08" PRIx64 ", %u KiB: never cached, no wait), "
           "as the paper's analysis code: it evicts none of the program's cache lines\n",
           o->sram_base, hi - 1, o->sram_size >> 10);
  else
    printf("switch code: at 0x%08x, cached like the program (the model has no on-chip SRAM there, [memory] "
           "sram_base/sram_size): its fetches and data may evict the program's cache lines\n",
           TALLY_INST_REGION_BASE);
}

static int work(dvfs_opts *o, const char *dir) {
  tally_error err = {0};
  dvfs_run base = {0}, after = {0}, statics[DVFS_MAX_POINTS] = {{0}};
  dvfs_phase *rows = NULL;
  dvfs_region *regs = NULL;
  dvfs_tally *rb = NULL, *ra = NULL;
  dvfs_oracle orc = {0};
  dvfs_fitlog log = {0};
  size_t nrows = 0, nregs = 0;
  int rc = dvfs_model_read(o, &err);
  if (!rc && o->npts < 2) {
    snprintf(err.msg, sizeof err.msg, "%s: only one operating point: nothing to switch to (--points)", o->core);
    rc = EXIT_USAGE;
  }
  if (!rc)
    rc = dvfs_run_elf(o, o->in, dir, NULL, 0, NULL, &base, &err);
  if (!rc)
    rc = dvfs_profile(o, dir, &rows, &nrows, &base, &err);
  if (!rc)
    rc = dvfs_select(o, rows, nrows, &regs, &nregs, &err);
  if (!rc)
    rc = dvfs_fit(o, dir, regs, nregs, &base, &after, &log, &err);
  if (!rc && (!(rb = calloc(nregs + 1, sizeof *rb)) || !(ra = calloc(nregs + 1, sizeof *ra)))) {
    snprintf(err.msg, sizeof err.msg, "out of memory");
    rc = EXIT_INTERNAL;
  }
  if (!rc)
    rc = account(o, dir, regs, nregs, rb, ra, &base, &after, &err);
  if (!rc)
    rc = references(o, dir, regs, nregs, &base, &after, statics, &orc, &err);
  if (!rc && o->tradeoff_csv)
    rc = dvfs_write_tradeoff(o, regs, &log, &err);
  if (!rc && o->svg)
    rc = dvfs_write_svg(o, regs, nregs, rb, ra, &base, &after, statics, &orc, &err);
  if (!rc) {
    print_head(o);
    dvfs_print_candidates(o, regs, nregs);
    uint64_t sc = 0, sm = 0;
    for (size_t i = 0; i < nrows; i++)
      if (rows[i].startup)
        sc += rows[i].cycles, sm += rows[i].rmiss + rows[i].wmiss;
    if (sc && !o->startup)
      printf("  (start-up code, before main is first entered: %" PRIu64 " cycles, %" PRIu64
             " D-cache misses, in no region; --startup counts it)\n", sc, sm);
    dvfs_print_alone(o, regs, &log);
    if (dvfs_print_tradeoff(o, regs, &log)) {
      snprintf(err.msg, sizeof err.msg, "out of memory");
      rc = EXIT_INTERNAL;
    }
  }
  if (!rc) {
    dvfs_print_measured(o, regs, nregs, rb, ra, &base, &after);
    dvfs_print_refs(o, regs, nregs, &base, &after, statics, &orc);
  } else {
    fprintf(stderr, "tally dvfs: %s\n", err.msg);
    if ((rc == 124 || rc == 130) && base.cycles) {
      /* stopped: what was measured is kept (and the scratch directory) */
      printf("tally dvfs: stopped; %s %s: %" PRIu64 " cycles, %" PRIu64 " instructions, %.6f s, %.6f J%s\n",
             o->in, base.stopped ? "as it is, up to the stop (partial)" : "as it is, measured", base.cycles,
             base.instret, base.e.seconds, base.e.total_j, base.stopped ? "" : " (the whole run)");
      if (nrows)
        printf("tally dvfs: its phase profile: %zu loops or functions (phases.out in the scratch directory)\n", nrows);
      if (after.cycles)
        printf("tally dvfs: %s with the switches%s: %" PRIu64 " cycles, %.6f s, %.6f J\n", o->out,
               after.stopped ? ", up to the stop (partial)" : "", after.cycles, after.e.seconds, after.e.total_j);
    }
    if (rc == 124 || rc == 130)
      o->keep = true;
  }
  dvfs_run_free(&base);
  dvfs_run_free(&after);
  for (size_t p = 0; p < DVFS_MAX_POINTS; p++)
    dvfs_run_free(&statics[p]);
  dvfs_oracle_free(&orc);
  dvfs_fitlog_free(&log);
  free(rows), free(regs), free(rb), free(ra);
  return rc;
}

static void remove_tree(const char *dir) {
  static const char *const names[] = {"profile.elf", "phases.out", "switch.c", "oracle.elf", "knap.elf"};
  char p[4096];
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    snprintf(p, sizeof p, "%s/%s", dir, names[i]);
    unlink(p);
  }
  rmdir(dir);
}

/* Whether path can be written: the file (not a folder), or when it does
 * not exist yet, its folder (checked before the runs, which take minutes). */
static bool can_write(const char *path) {
  struct stat st;
  if (stat(path, &st) == 0)
    return !S_ISDIR(st.st_mode) && access(path, W_OK) == 0;
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  if (!slash)
    return access(".", W_OK) == 0;
  slash[slash == dir] = 0; /* "/x.csv": the root */
  return access(dir, W_OK) == 0;
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
  if (o.tradeoff_csv && !can_write(o.tradeoff_csv)) {
    fprintf(stderr, "tally dvfs: --tradeoff-csv %s: cannot write there\n", o.tradeoff_csv);
    return EXIT_CANTCREAT;
  }
  if (o.svg && !can_write(o.svg)) {
    fprintf(stderr, "tally dvfs: --svg %s: cannot write there\n", o.svg);
    return EXIT_CANTCREAT;
  }
  o.stop = &stop_requested;
  struct sigaction sa = {.sa_handler = on_stop};
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
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
