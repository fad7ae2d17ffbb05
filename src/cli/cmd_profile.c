/*
 * tally profile: the exact per-function profile of a run. Every cycle and
 * every signal is charged to the instruction it belongs to; a shadow call
 * stack gives calls, inclusive cycles and caller-to-callee arcs. Optionally
 * a gprof-style PC sampler runs alongside, for comparison.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "irq_opts.h"
#include "cli.h"
#include "host_files.h"
#include "run_progress.h"
#include "stopwatch.h"
#include "tally/export.h"
#include "tally/tally.h"

#define MAX_COLS 16

#define PROFILE_SLICE_INSNS 20000000ull

typedef struct profile_opts {
  irq_opts irq;              /* --irq, --uart-rx */
  const char *core;
  const char *sets[64];
  int nsets;
  int cols[MAX_COLS];
  int ncols;
  int sort;               /* signal to sort by */
  size_t top;             /* rows shown, 0 = all */
  bool callgraph;
  bool lines;             /* per-source-line profile */
  const char *annotate;
  double sample_seconds;  /* 0 = no sampler */
  uint64_t max_insns;
  uint64_t max_cycles;    /* 0 = none */
  double timeout;         /* wall-time seconds, 0 = none */
  const char *outputs[16][2]; /* (format, path) */
  int noutputs;
  const char *cg_events;  /* --callgrind-events, or NULL */
  const char *gmon_elf;   /* --gmon-elf: the program copied for gprof, or NULL */
  int gmon_unit;           /* --gmon-unit: 0 not given (cycles, else seconds), 's' seconds, 'c' cycles */
  bool to_stdout;          /* an export goes to stdout ('-'): the report and the program's output go to stderr */
  host_files_opts files;  /* --semihost-files, --semihost-root */
  /* loading, as tally run does it */
  bool raw;                /* --raw or --load-addr: PROGRAM is a raw binary */
  uint32_t load_addr, entry;
  bool load_set, entry_set; /* else both are the board's RAM base */
  const char *board;       /* --board NAME|FILE, NULL: virt */
  uint64_t ram_size;
  bool ram_size_given;     /* --ram-size: else as the ELF needs */
  const char *map;         /* --map FILE: functions from a GNU ld map file */
  bool quiet;              /* --quiet: no progress line and no notes */
  progress_mode progress;  /* --progress, --no-progress; on a terminal by default (as tally run) */
  double progress_every;   /* --progress-every S */
  const char *tasks;       /* --tasks[=SPEC]: "auto" for the bare option; NULL: off */
  const char *perfetto;    /* --perfetto FILE: the tasks' timeline */
  int engine;                /* --engine: TALLY_ENGINE_*, -1 the default */
} profile_opts;

static void profile_usage(FILE *f) {
  fprintf(f,
          "usage: tally profile [options] PROGRAM [ARGS...]\n"
          "\n"
          "Runs PROGRAM on a core model and prints its exact profile: for every\n"
          "function the cycles and signals of its own instructions, its calls, and\n"
          "its inclusive cycles through a shadow call stack. Nothing is sampled:\n"
          "every cycle of the run is counted once, and the numbers sum to the total.\n"
          "\n"
          "options:\n"
          "      --core NAME          core model (default tally5); --set SEC.KEY=VAL to adjust\n"
          "      --engine interp|jit  as for tally run: the same profile either way;\n"
          "                           translated on the cache models (docs/jit.md)\n"
          "      --signals LIST       columns, comma-separated signal names\n"
          "                           (default cycle,instret,icache.miss,dcache.read_miss,\n"
          "                           dcache.write_miss,stall; see 'tally signals')\n"
          "      --sort SIGNAL        sort by this signal's self total (default cycle)\n"
          "      --top N              show the N first functions, lines, arcs of the call\n"
          "                           graph and rows of the sampler table (default all)\n"
          "  -g, --callgraph          also print caller -> callee arcs with exact calls\n"
          "                           and inclusive cycles, and their call sites\n"
          "      --lines              also print the profile per source line (file:line\n"
          "                           of each function, from the DWARF line table: build\n"
          "                           PROGRAM with -g); --csv then writes it, --json adds it\n"
          "      --annotate FUNC      disassembly of FUNC with per-instruction counts, and\n"
          "                           its source lines when PROGRAM has a line table\n"
          "      --sample-every T     also run a PC sampler every T of simulated time\n"
          "                           (e.g. 10ms, 1ms, 100us) and compare its shares\n"
          "      --board NAME|FILE    the board: memory map and devices (a shipped name:\n"
          "                           virt, the default, or litex; or a board file;\n"
          "                           docs/boards.md)\n"
          IRQ_HELP_AT("                           ")
          "                           (after the profile, on stderr: each source's\n"
          "                           interrupts and latencies)\n"
          "      --raw                PROGRAM is a raw binary, loaded at the board's RAM base\n"
          "      --load-addr ADDR     PROGRAM is a raw binary, loaded at ADDR\n"
          "      --entry ADDR         start a raw binary at ADDR (default: the load address)\n"
          "      --map FILE           function names from a GNU ld map file (raw binaries)\n"
          "      --ram-size SIZE      RAM size, a multiple of 4 KiB (default the board's:\n"
          "                           128Mi on virt, or what the ELF needs, up to twice that)\n"
          "      --max-insns N        stop after N instructions\n"
          "      --max-cycles N       stop once N cycles have passed (a wfi sleep too;\n"
          "                           exit status 123)\n"
          "      --timeout S          stop after S seconds of wall time (Ctrl-C stops too;\n"
          "                           either way the profile of what ran is printed)\n"
          "  -q, --quiet              no progress line and no notes on stderr (errors\n"
          "                           and the reports asked for still appear)\n"
          "      --progress           show the progress line even when stderr is not a\n"
          "                           terminal (a line per update, for a log); on a\n"
          "                           terminal it is shown by default and overwrites\n"
          "                           itself: cycles, instructions, MIPS, simulated time\n"
          "                           and, with --max-insns, the share done\n"
          "      --no-progress        never show it\n"
          "      --progress-every S   seconds of wall time between updates (default 1)\n"
          HOST_FILES_HELP
          "\n"
          "exports (written after the run; docs/profile.md describes each; FILE '-'\n"
          "is standard output, and the report and the program's output then go to stderr):\n"
          "      --json FILE          the whole profile as JSON (read by 'tally diff')\n"
          "      --gmon FILE          a gmon.out for 'riscv64-unknown-elf-gprof PROGRAM FILE';\n"
          "                           with --tasks also FILE.TASK for each task and trap\n"
          "                           context (FILE.producer, FILE.irq_7: the task's name,\n"
          "                           bytes other than letters, digits, - and _ made _)\n"
          "      --gmon-unit U        cycles (default: gprof's columns are exact cycles;\n"
          "                           seconds when a run is too long for that) or\n"
          "                           seconds (counts at the core clock)\n"
          "      --gmon-elf FILE      a copy of PROGRAM for gprof, which keeps GCC's clones\n"
          "                           (med3.constprop.0): 'gprof FILE gmon.out'\n"
          "      --callgrind FILE     Callgrind format, for callgrind_annotate and KCachegrind\n"
          "      --callgrind-events E  its events: cycles, instructions and the misses and\n"
          "                           stalls (default), 'all' (every signal with a count),\n"
          "                           or signal names separated by commas\n"
          "      --speedscope FILE    speedscope's format (stacks weighted by cycles)\n"
          "      --folded FILE        folded stacks (flame graphs), self cycles per stack\n"
          "      --csv FILE           the flat profile as CSV (with --lines: the line profile)\n"
          "      --tasks[=SPEC]       per task: which task runs is read from the program's\n"
          "                           own current-task pointer (SPEC: auto (default),\n"
          "                           freertos, zephyr, tally, VARIABLE[:NAME_MEMBER], 0xADDR,\n"
          "                           reg:REGISTER);\n"
          "                           exports get the task as their root frame\n"
          "      --perfetto FILE      with --tasks: a timeline, one track per task and trap\n"
          "                           context, for ui.perfetto.dev\n"
          "  -h, --help               show this help\n"
          "\n"
          "exit status: the program's own; 123, 124, 125, 126 when the run stopped early\n"
          "(as for 'tally run'); 64 usage errors; 66 when PROGRAM cannot be loaded,\n"
          "or --lines and it has no line table; 70 when an export cannot be written.\n");
}

static bool parse_time(const char *s, double *secs) {
  char *end;
  double v = strtod(s, &end);
  if (end == s || v <= 0)
    return false;
  if (!strcmp(end, "s")) *secs = v;
  else if (!strcmp(end, "ms")) *secs = v * 1e-3;
  else if (!strcmp(end, "us")) *secs = v * 1e-6;
  else if (!strcmp(end, "ns")) *secs = v * 1e-9;
  else return false;
  return true;
}

static bool parse_signals(const char *list, profile_opts *o) {
  char buf[512];
  snprintf(buf, sizeof buf, "%s", list);
  o->ncols = 0;
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    int id = tally_signal_lookup(tok);
    if (id < 0) {
      fprintf(stderr, "tally profile: unknown signal '%s' (see 'tally signals')\n", tok);
      return false;
    }
    if (o->ncols == MAX_COLS) {
      fprintf(stderr, "tally profile: at most %d signals\n", MAX_COLS);
      return false;
    }
    o->cols[o->ncols++] = id;
  }
  return o->ncols > 0;
}

static volatile sig_atomic_t interrupted;

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Runs in slices, so that --max-insns, --timeout and Ctrl-C all end the run
 * with its profile kept; *bound says which did when it returns LIMIT. The
 * progress line (run_progress.h, as tally run draws it) is looked at
 * between slices, and is off the terminal when this returns. */
static tally_stop run_bounded(tally_sim *sim, const profile_opts *o, run_progress *progress, const char **bound) {
  stopwatch_start(sim, &interrupted);
  stopwatch_arm(o->timeout);
  double t = now_seconds();
  progress_begin(progress, sim, t);
  tally_stop s;
  for (;;) {
    uint64_t left = o->max_insns ? o->max_insns - tally_instret(sim) : UINT64_MAX;
    uint64_t slice = progress_slice(progress);
    s = tally_run(sim, left < slice ? left : slice);
    if (s != TALLY_STOP_LIMIT || (*bound = stopwatch_reason()))
      break;
    if (o->max_insns && tally_instret(sim) >= o->max_insns) {
      *bound = "--max-insns reached";
      break;
    }
    double prev = t;
    t = now_seconds();
    progress_tick(progress, sim, t, t - prev);
  }
  stopwatch_stop();
  progress_clear(progress); /* the program's output is out, the line gone: the report follows */
  return s;
}

/* --callgrind-events: "all", or signal names separated by commas. */
static bool events_valid(const char *list) {
  if (!strcmp(list, "all"))
    return true;
  for (const char *c = list;;) {
    size_t len = strcspn(c, ",");
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), c);
    if (len == 0 || len >= sizeof name || tally_signal_lookup(name) < 0) {
      fprintf(stderr, "tally profile: --callgrind-events: '%.*s' is not a signal (see 'tally signals'); give "
                      "'all' or names separated by commas\n", (int)len, c);
      return false;
    }
    if (!c[len])
      return true;
    c += len + 1;
  }
}

static int parse_opts(int argc, char **argv, profile_opts *o) {
  enum { O_CORE = 256, O_ENGINE, O_SET, O_SIGNALS, O_SORT, O_TOP, O_ANNOTATE, O_SAMPLE, O_MAX, O_FOLDED, O_CSV,
         O_JSON, O_GMON, O_GMON_UNIT, O_CALLGRIND, O_SPEEDSCOPE, O_LINES,
         O_HOST_FILES, O_TIMEOUT, O_LOAD, O_ENTRY, O_MAP, O_RAM, O_PROGRESS, O_NO_PROGRESS,
         O_PROGRESS_EVERY, O_BOARD, O_RAW, O_MAX_CYCLES, O_TASKS, O_PERFETTO, O_CG_EVENTS,
         O_IRQ, O_UART_RX, O_GMON_ELF };
  static const struct option longs[] = {
    {"core", required_argument, NULL, O_CORE},
    {"engine", required_argument, NULL, O_ENGINE},     {"set", required_argument, NULL, O_SET},
    {"signals", required_argument, NULL, O_SIGNALS}, {"sort", required_argument, NULL, O_SORT},
    {"top", required_argument, NULL, O_TOP},       {"callgraph", no_argument, NULL, 'g'},
    {"annotate", required_argument, NULL, O_ANNOTATE}, {"sample-every", required_argument, NULL, O_SAMPLE},
    {"max-insns", required_argument, NULL, O_MAX}, {"max-cycles", required_argument, NULL, O_MAX_CYCLES},
    {"folded", required_argument, NULL, O_FOLDED},
    {"csv", required_argument, NULL, O_CSV},       {"json", required_argument, NULL, O_JSON},
    {"gmon", required_argument, NULL, O_GMON},     {"gmon-unit", required_argument, NULL, O_GMON_UNIT},
    {"callgrind", required_argument, NULL, O_CALLGRIND}, {"speedscope", required_argument, NULL, O_SPEEDSCOPE},
    {"callgrind-events", required_argument, NULL, O_CG_EVENTS},
    {"gmon-elf", required_argument, NULL, O_GMON_ELF},
    {"lines", no_argument, NULL, O_LINES},         {"help", no_argument, NULL, 'h'},
    {"semihost-files", required_argument, NULL, O_HOST_FILES},
    {"timeout", required_argument, NULL, O_TIMEOUT},
    {"load-addr", required_argument, NULL, O_LOAD}, {"entry", required_argument, NULL, O_ENTRY},
    {"map", required_argument, NULL, O_MAP},       {"ram-size", required_argument, NULL, O_RAM},
    {"board", required_argument, NULL, O_BOARD},   {"raw", no_argument, NULL, O_RAW},
    {"irq", required_argument, NULL, O_IRQ},       {"uart-rx", required_argument, NULL, O_UART_RX},
    {"semihost-root", required_argument, NULL, O_HOST_FILES},
    {"argv0-path", no_argument, NULL, O_HOST_FILES},
    {"quiet", no_argument, NULL, 'q'},            {"progress", no_argument, NULL, O_PROGRESS},
    {"no-progress", no_argument, NULL, O_NO_PROGRESS},
    {"progress-every", required_argument, NULL, O_PROGRESS_EVERY},
    {"tasks", optional_argument, NULL, O_TASKS},  {"perfetto", required_argument, NULL, O_PERFETTO},
    {NULL, 0, NULL, 0},
  };
  *o = (profile_opts){.engine = -1, .sort = tally_signal_lookup("cycle"), .ram_size = TALLY_RAM_SIZE_DEFAULT,
                      .progress_every = PROGRESS_EVERY_DEFAULT};
  parse_signals("cycle,instret,icache.miss,dcache.read_miss,dcache.write_miss,stall", o);
  optind = 1;
  int c, li;
  uint64_t v;
  char optname[40];
  while ((c = getopt_long(argc, argv, "+gqh", longs, &li)) != -1) {
    switch (c) {
    case 'q': o->quiet = true; break;
    case O_PROGRESS: o->progress = PROGRESS_ON; break;
    case O_NO_PROGRESS: o->progress = PROGRESS_OFF; break;
    case O_PROGRESS_EVERY:
      if (!parse_seconds(optarg, &o->progress_every)) {
        fprintf(stderr, "tally profile: --progress-every wants seconds > 0, got '%s'\n", optarg);
        return -1;
      }
      break;
    case O_CORE: o->core = optarg; break;
    case O_ENGINE:
      if ((o->engine = cli_parse_engine(optarg, "profile")) < 0)
        return -1;
      break;
    case O_SET:
      if (o->nsets == 64) { fprintf(stderr, "tally profile: too many --set\n"); return -1; }
      o->sets[o->nsets++] = optarg;
      break;
    case O_SIGNALS: if (!parse_signals(optarg, o)) return -1; break;
    case O_SORT:
      if ((o->sort = tally_signal_lookup(optarg)) < 0) {
        fprintf(stderr, "tally profile: unknown signal '%s' for --sort\n", optarg);
        return -1;
      }
      break;
    case O_TOP:
      if (!parse_u64(optarg, &v)) { fprintf(stderr, "tally profile: --top wants a count\n"); return -1; }
      o->top = (size_t)v;
      break;
    case 'g': o->callgraph = true; break;
    case O_LINES: o->lines = true; break;
    case O_TASKS:
      if (optarg && !*optarg) {
        fprintf(stderr, "tally profile: --tasks= wants a convention (auto, freertos, zephyr, tally), "
                        "VARIABLE[:NAME_MEMBER], 0xADDR or reg:REGISTER\n");
        return -1;
      }
      o->tasks = optarg ? optarg : "auto";
      break;
    case O_PERFETTO: o->perfetto = optarg; break;
    case O_ANNOTATE: o->annotate = optarg; break;
    case O_SAMPLE:
      if (!parse_time(optarg, &o->sample_seconds)) {
        fprintf(stderr, "tally profile: --sample-every wants a time like 10ms, got '%s'\n", optarg);
        return -1;
      }
      break;
    case O_MAX:
      if (!parse_u64(optarg, &o->max_insns) || !o->max_insns) {
        fprintf(stderr, "tally profile: --max-insns wants a positive count\n");
        return -1;
      }
      break;
    case O_MAX_CYCLES:
      if (!parse_u64(optarg, &o->max_cycles) || !o->max_cycles) {
        fprintf(stderr, "tally profile: --max-cycles wants a positive count, got '%s'\n", optarg);
        return -1;
      }
      break;
    case O_TIMEOUT:
      if (!parse_seconds(optarg, &o->timeout)) {
        fprintf(stderr, "tally profile: --timeout wants seconds > 0, got '%s'\n", optarg);
        return -1;
      }
      break;
    case O_LOAD: case O_ENTRY:
      if (!parse_u64(optarg, &v) || v > UINT32_MAX) {
        fprintf(stderr, "tally profile: %s wants a 32-bit address, got '%s'\n", c == O_LOAD ? "--load-addr" : "--entry",
                optarg);
        return -1;
      }
      if (c == O_LOAD) { o->raw = true; o->load_set = true; o->load_addr = (uint32_t)v; }
      else { o->entry_set = true; o->entry = (uint32_t)v; }
      break;
    case O_BOARD: o->board = optarg; break;
    case O_IRQ:
      if (!irq_opts_add(&o->irq, optarg, "profile"))
        return -1;
      break;
    case O_UART_RX:
      if (o->irq.uart_rx) {
        fprintf(stderr, "tally profile: --uart-rx given twice (one file feeds the UART)\n");
        return -1;
      }
      o->irq.uart_rx = optarg;
      break;
    case O_RAW: o->raw = true; break;
    case O_MAP: o->map = optarg; break;
    case O_RAM:
      if (!parse_u64(optarg, &o->ram_size) || o->ram_size == 0 || o->ram_size % 4096 || o->ram_size > 0x80000000ull) {
        fprintf(stderr, "tally profile: --ram-size wants a multiple of 4 KiB up to 2 GiB, got '%s'\n", optarg);
        return -1;
      }
      o->ram_size_given = true;
      break;
    case O_FOLDED: case O_CSV: case O_JSON: case O_GMON: case O_CALLGRIND: case O_SPEEDSCOPE:
      if (o->noutputs == 16) { fprintf(stderr, "tally profile: too many outputs\n"); return -1; }
      o->outputs[o->noutputs][0] = c == O_FOLDED ? "folded" : c == O_CSV ? "csv" : c == O_JSON ? "json"
                                   : c == O_GMON ? "gmon" : c == O_CALLGRIND ? "callgrind" : "speedscope";
      o->outputs[o->noutputs++][1] = optarg;
      if (!strcmp(optarg, "-")) {
        if (o->to_stdout) { fprintf(stderr, "tally profile: only one export can go to standard output ('-')\n"); return -1; }
        o->to_stdout = true;
      }
      break;
    case O_GMON_UNIT:
      if (!strcmp(optarg, "seconds")) o->gmon_unit = 's';
      else if (!strcmp(optarg, "cycles")) o->gmon_unit = 'c';
      else { fprintf(stderr, "tally profile: --gmon-unit wants 'seconds' or 'cycles', got '%s'\n", optarg); return -1; }
      break;
    case O_GMON_ELF: o->gmon_elf = optarg; break;
    case O_CG_EVENTS:
      if (!events_valid(optarg))
        return -1;
      o->cg_events = optarg;
      break;
    case O_HOST_FILES:
      snprintf(optname, sizeof optname, "--%s", longs[li].name);
      if (!host_files_parse(&o->files, "profile", optname, optarg))
        return -1;
      break;
    case 'h': profile_usage(stdout); return -2;
    default: fprintf(stderr, "(try 'tally profile --help')\n"); return -1;
    }
  }
  if (optind >= argc) {
    fprintf(stderr, "tally profile: no program given (try 'tally profile --help')\n");
    return -1;
  }
  if (o->entry_set && !o->raw) {
    fprintf(stderr, "tally profile: --entry only applies to raw binaries (with --raw or --load-addr)\n");
    return -1;
  }
  if (o->quiet && o->progress == PROGRESS_ON) {
    fprintf(stderr, "tally profile: --quiet and --progress contradict each other\n");
    return -1;
  }
  if (o->perfetto && !o->tasks) {
    fprintf(stderr, "tally profile: --perfetto writes the tasks' timeline: give --tasks too "
                    "(tally run --perfetto has the calls' timeline)\n");
    return -1;
  }
  if (o->gmon_elf && o->raw) {
    fprintf(stderr, "tally profile: --gmon-elf copies an ELF program, not a raw binary\n");
    return -1;
  }
  if (o->quiet)
    o->progress = PROGRESS_OFF;
  if (!o->quiet)
    cli_hint_after_program("profile", longs, argc, argv, optind);
  return optind;
}

/* --annotate NAME, before the run: a wrong name is said at once (with the
 * names it may have meant), and an alias becomes the function's primary
 * name, the one the profile lists. */
static int resolve_annotate(const tally_sim *sim, profile_opts *o) {
  tally_error err;
  uint32_t lo, hi;
  if (tally_function_range(sim, o->annotate, &lo, &hi, &err) != 0) {
    fprintf(stderr, "tally profile: --annotate: %s\n", err.msg);
    return -1;
  }
  tally_function f;
  for (size_t i = 0; i < tally_function_count(sim); i++)
    if (tally_function_at(sim, i, &f) == 0 && f.lo == lo && f.hi == hi) {
      o->annotate = f.name;
      break;
    }
  return 0;
}

/* Whether an output shows source lines without --lines: Callgrind's
 * positions and --annotate. */
static bool wants_source(const profile_opts *o) {
  if (o->annotate)
    return true;
  for (int i = 0; i < o->noutputs; i++)
    if (!strcmp(o->outputs[i][0], "callgrind"))
      return true;
  return false;
}

/* The export files, each written by the library (tally/export.h). */
static int write_one(const tally_profile *p, const tally_run_info *run, const char *format, FILE *f,
                     const char *path, const profile_opts *o) {
  tally_error err;
  int fmt = tally_profile_format_lookup(format);
  if (fmt == TALLY_PROFILE_CSV && o->lines)
    fmt = TALLY_PROFILE_LINES_CSV;
  if (fmt == TALLY_PROFILE_GMON && o->gmon_unit != 's')
    fmt = TALLY_PROFILE_GMON_CYCLES;
  int rc = tally_export_profile(p, run, (tally_profile_format)fmt, f, &err);
  if (rc != 0 && fmt == TALLY_PROFILE_GMON_CYCLES && !o->gmon_unit && err.code == TALLY_E_USAGE) {
    /* refused before a byte is written: too long a run for exact cycles */
    fprintf(stderr, "tally profile: %s: %s; written in seconds instead\n", path, err.msg);
    rc = tally_export_profile(p, run, TALLY_PROFILE_GMON, f, &err);
  }
  if (rc == 0 && err.msg[0])
    fprintf(stderr, "tally profile: %s: %s\n", path, err.msg);
  else if (rc != 0)
    fprintf(stderr, "tally profile: %s: %s%s\n", path, err.msg, err.code == TALLY_E_USAGE ? "; use --gmon-unit seconds" : "");
  return rc;
}

/* --tasks --gmon FILE: besides FILE (the run), FILE.TASK for each task and
 * trap context, TASK its name with every byte but letters, digits, '-' and
 * '_' made '_' ("irq:7" -> FILE.irq_7, "[no task]" -> FILE._no_task_), and
 * ".N" (its index) added when two names come out the same. */
static int write_task_gmons(const tally_profile *p, const tally_run_info *run, const char *path,
                            const profile_opts *o) {
  const tally_task_profile *t;
  size_t n = tally_profile_tasks(p, &t);
  int rc = 0;
  char (*names)[96] = calloc(n ? n : 1, sizeof *names);
  if (!names) {
    fprintf(stderr, "tally profile: --gmon: out of memory for the tasks' files\n");
    return -1;
  }
  for (size_t i = 0; i < n; i++) {
    size_t k = 0;
    for (const char *c = t[i].name; *c && k + 1 < 64; c++)
      names[i][k++] = isalnum((unsigned char)*c) || *c == '-' || *c == '_' ? *c : '_';
    names[i][k] = '\0';
    for (size_t j = 0; j < i; j++)
      if (!strcmp(names[i], names[j])) {
        snprintf(names[i] + k, sizeof names[i] - k, ".%zu", i);
        break;
      }
  }
  for (size_t i = 0; i < n; i++) {
    size_t len = strlen(path) + strlen(names[i]) + 2;
    char *file = malloc(len);
    if (!file) {
      rc = -1;
      break;
    }
    snprintf(file, len, "%s.%s", path, names[i]);
    FILE *f = fopen(file, "wb");
    if (!f) {
      fprintf(stderr, "tally profile: cannot write %s: %s\n", file, strerror(errno));
      free(file);
      rc = -1;
      continue;
    }
    tally_error err;
    int fmt = o->gmon_unit == 's' ? TALLY_PROFILE_GMON : TALLY_PROFILE_GMON_CYCLES;
    int w = tally_export_profile_task(p, run, (tally_profile_format)fmt, i, f, &err);
    if (w != 0 && fmt == TALLY_PROFILE_GMON_CYCLES && !o->gmon_unit && err.code == TALLY_E_USAGE) {
      fprintf(stderr, "tally profile: %s: %s; written in seconds instead\n", file, err.msg);
      w = tally_export_profile_task(p, run, TALLY_PROFILE_GMON, i, f, &err);
    }
    if (w != 0)
      fprintf(stderr, "tally profile: %s: %s\n", file, err.msg);
    if (fclose(f) != 0 && w == 0) {
      fprintf(stderr, "tally profile: writing %s failed: %s\n", file, strerror(errno));
      w = -1;
    }
    if (w == 0 && !o->quiet)
      fprintf(stderr, "tally profile: task %s: %s\n", t[i].name, file);
    rc |= w;
    free(file);
  }
  free(names);
  return rc;
}

static int write_outputs(const tally_profile *p, const tally_run_info *run, const profile_opts *o, bool tasks) {
  int rc = 0;
  for (int i = 0; i < o->noutputs; i++) {
    const char *format = o->outputs[i][0], *path = o->outputs[i][1];
    bool out = !strcmp(path, "-");
    FILE *f = out ? stdout : fopen(path, !strcmp(format, "gmon") ? "wb" : "w");
    if (!f) {
      fprintf(stderr, "tally profile: cannot write %s: %s\n", path, strerror(errno));
      rc = -1;
      continue;
    }
    int w = write_one(p, run, format, f, out ? "standard output" : path, o);
    if ((out ? fflush(f) : fclose(f)) != 0 && w == 0) {
      fprintf(stderr, "tally profile: writing %s failed: %s\n", path, strerror(errno));
      w = -1;
    }
    if (tasks && !strcmp(format, "gmon") && !out)
      w |= write_task_gmons(p, run, path, o);
    rc |= w;
  }
  return rc;
}

/* --perfetto FILE: one track per task and trap context, a slice for each
 * stretch it ran, at its exact cycles. */
static int write_perfetto(const tally_profile *p, const tally_run_info *run, const char *path) {
  tally_error err;
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "tally profile: --perfetto %s: cannot create: %s\n", path, strerror(errno));
    return -1;
  }
  const tally_task_change *changes;
  uint64_t cut_at;
  int cut;
  tally_profile_task_changes(p, &changes, &cut_at, &cut);
  if (cut)
    fprintf(stderr, "tally profile: --perfetto: the task switches after cycle %llu are not in %s (the timeline "
                    "keeps 16,777,216 of them)\n", (unsigned long long)cut_at, path);
  tally_perfetto *w = tally_perfetto_begin(f, run, &err);
  if (w)
    tally_perfetto_tasks(w, p);
  int rc = w && tally_perfetto_end(w, &err) == 0 ? 0 : -1;
  if (fclose(f) != 0)
    rc = -1;
  if (rc != 0)
    fprintf(stderr, "tally profile: --perfetto %s: cannot write\n", path);
  return rc;
}

/* --gmon-elf: the program copied so that gprof keeps GCC's clones
 * (tally_export_gprof_elf); with --gmon alone, a note when gprof would
 * drop some. 0, or -1 after saying why. */
static int gprof_copy(const char *prog, const profile_opts *o) {
  bool gmon = false;
  for (int i = 0; i < o->noutputs; i++)
    gmon |= !strcmp(o->outputs[i][0], "gmon");
  if (o->raw || (!o->gmon_elf && (!gmon || o->quiet)))
    return 0;
  char names[256];
  tally_error err;
  int n = tally_export_gprof_elf(prog, o->gmon_elf, names, sizeof names, &err);
  if (n < 0) {
    fprintf(stderr, "tally profile: --gmon-elf: %s\n", err.msg);
    return o->gmon_elf ? -1 : 0;
  }
  if (n > 0 && !o->gmon_elf)
    fprintf(stderr, "tally profile: note: gprof drops %d clone name%s of %s (%s): it reads such a name on into the "
                    "next string of the symbol names; give gprof the copy --gmon-elf FILE writes\n",
            n, n == 1 ? "" : "s", prog, names);
  return 0;
}

/* The board's program loaded, profiled and reported: the exit status. */
static int profile_board(tally_sim *sim, profile_opts *o, run_progress *progress, int argc, char **argv,
                         int first) {
  tally_error err;
  const char *prog = argv[first];
  int status = EXIT_NOINPUT;
  if (host_files_apply(&o->files, sim, "profile") != 0)
    return status;
  /* the reports tally writes after the run are never the program's to open */
  for (int i = 0; i < o->noutputs; i++)
    if (strcmp(o->outputs[i][1], "-") && tally_protect_host_file(sim, o->outputs[i][1], &err) != 0) {
      fprintf(stderr, "tally profile: %s\n", err.msg);
      return EXIT_CANTCREAT;
    }
  int loaded = o->raw ? tally_load_raw(sim, prog, o->load_addr, o->entry_set ? o->entry : o->load_addr, &err)
                     : tally_load_elf(sim, prog, &err);
  if (loaded == 0 && o->map)
    loaded = tally_load_map(sim, o->map, &err);
  if (loaded != 0) {
    fprintf(stderr, "tally profile: %s\n", err.msg);
    return status;
  }
  if ((status = host_files_set_args(&o->files, sim, "profile", argc - first, argv + first)) != 0)
    return status;
  if ((status = cli_set_core(sim, o->core ? o->core : "tally5", o->sets, o->nsets, "profile")) != 0)
    return status;
  if ((status = irq_opts_apply(&o->irq, sim, "profile")) != 0)
    return status;
  char lacks[320];
  if (tally_program_isa_lacks(sim, lacks, sizeof lacks))
    fprintf(stderr, "tally profile: warning: %s; their instructions trap as illegal\n", lacks);
  if (o->annotate && resolve_annotate(sim, o) != 0)
    return EXIT_USAGE;
  if (o->lines) {
    /* before the run: a long run is not spent on a profile that cannot be made */
    int has = tally_profile_lines_enable(sim, &err);
    if (has != 1) {
      fprintf(stderr, "tally profile: --lines: %s\n", err.msg);
      return EXIT_NOINPUT;
    }
  } else if (wants_source(o) && tally_profile_lines_enable(sim, &err) < 0) {
    /* Callgrind's positions and --annotate's source lines: without a line table they go without */
    fprintf(stderr, "tally profile: warning: no source lines: %s\n", err.msg);
  }
  tally_energy clk = tally_energy_now(sim);
  uint64_t period = o->sample_seconds > 0 ? (uint64_t)(o->sample_seconds * clk.frequency_mhz * 1e6 + 0.5) : 0;
  if (o->sample_seconds > 0 && period == 0)
    period = 1;
  if (tally_profile_enable(sim, period, &err) != 0) {
    fprintf(stderr, "tally profile: %s\n", err.msg);
    return EXIT_INTERNAL;
  }
  bool tasks = false;
  if (o->tasks) {
    /* a problem with the tasks costs them, not the run: it is measured as without */
    if (tally_profile_tasks_enable(sim, o->tasks, &err) != 0)
      fprintf(stderr, "tally profile: --tasks: %s; profiling without tasks\n", err.msg);
    else
      tasks = true;
  }
  const char *bound = NULL;
  tally_set_max_cycles(sim, o->max_cycles);
  tally_stop s = run_bounded(sim, o, progress, &bound);
  fflush(stdout);
  switch (s) {
  case TALLY_STOP_EXIT: status = cli_exit_status(sim, "profile"); break;
  case TALLY_STOP_LIMIT: status = interrupted ? EXIT_INTERRUPTED : EXIT_BOUND; break;
  case TALLY_STOP_TRAP: status = EXIT_TRAP; break;
  case TALLY_STOP_HALT: status = EXIT_HALT; break;
  case TALLY_STOP_CYCLES: status = EXIT_CYCLES; break;
  default: status = EXIT_INTERNAL; break;
  }
  if (s != TALLY_STOP_EXIT)
    fprintf(stderr, "tally profile: the run ended early (%s); profiling what ran\n",
            s == TALLY_STOP_LIMIT ? bound : s == TALLY_STOP_CYCLES ? "--max-cycles reached" : tally_stop_detail(sim));
  tally_profile *p = tally_profile_take(sim);
  if (!p) {
    fprintf(stderr, "tally profile: out of memory for the report\n");
    return EXIT_INTERNAL;
  }
  if (period && tally_profile_samples_taken(p) == 0)
    fprintf(stderr, "tally profile: warning: --sample-every %g ms took no samples: the run was %llu cycles, "
                    "shorter than the period (%llu cycles); give a shorter period\n",
            o->sample_seconds * 1e3, (unsigned long long)tally_cycles(sim), (unsigned long long)period);
  tally_profile_text_opts text = {.program = prog, .signals = o->cols, .nsignals = o->ncols, .sort = o->sort,
                                  .top = o->top, .lines = o->lines, .callgraph = o->callgraph,
                                  .sample_seconds = o->sample_seconds, .annotate = o->annotate};
  if (tally_export_profile_text(sim, p, &text, o->to_stdout ? stderr : stdout, &err) != 0)
    fprintf(stderr, "tally profile: %s\n", err.msg);
  tally_run_info run;
  tally_run_info_from(sim, s, status, &run);
  run.program = prog;
  run.argc = argc - first;
  run.argv = argv + first;
  run.clock_hz = clk.frequency_mhz * 1e6; /* at the start of the run */
  run.lines = o->lines;
  run.events = o->cg_events;
  if (!run.stop_detail || !*run.stop_detail)
    run.stop_detail = s == TALLY_STOP_LIMIT ? "--max-insns reached" : s == TALLY_STOP_CYCLES ? "--max-cycles reached"
                    : run.stop;
  if (write_outputs(p, &run, o, tasks) != 0 && status == 0)
    status = EXIT_INTERNAL;
  if (o->irq.nirq || o->irq.uart_rx)
    irq_report(sim, tasks ? p : NULL, stderr);
  if (o->perfetto && tasks && write_perfetto(p, &run, o->perfetto) != 0 && status == 0)
    status = EXIT_INTERNAL;
  if (gprof_copy(prog, o) != 0 && status == 0)
    status = EXIT_CANTCREAT;
  tally_profile_free(p);
  return status;
}

int cmd_profile(int argc, char **argv) {
  profile_opts o;
  int first = parse_opts(argc, argv, &o);
  if (first == -2)
    return 0;
  if (first < 0)
    return EXIT_USAGE;
  tally_config cfg;
  tally_config_default(&cfg);
  /* RAM as the ELF needs, up to twice the board's (a tally inst output), as tally run */
  uint32_t ram_base;
  int bst = cli_board_config(&cfg, o.board, argv[first], o.raw, o.ram_size_given ? o.ram_size : 0, &ram_base,
                             "profile");
  if (bst != 0)
    return bst;
  if (!o.load_set)
    o.load_addr = ram_base;
  if (o.to_stdout)
    cfg.out = stderr; /* stdout carries the export alone */
  /* the program's console goes through the progress line's streams, which
   * take the line off the terminal before any of the program's bytes */
  run_progress progress;
  progress_init(&progress, o.progress, o.progress_every, o.max_insns, PROFILE_SLICE_INSNS);
  progress_wrap(&progress, &cfg.out, &cfg.err);
  int status = EXIT_INTERNAL;
  tally_sim *sim = cli_sim_open(&cfg, "profile", &status);
  if (sim && (status = cli_set_engine(sim, o.engine, "profile")) != 0) {
    tally_sim_free(sim);
    sim = NULL;
  }
  if (sim)
    status = profile_board(sim, &o, &progress, argc, argv, first);
  tally_sim_free(sim);
  progress_close(&progress); /* the board wrote to its streams until now */
  return status;
}
