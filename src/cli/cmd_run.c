/*
 * tally run: load a program, run it to its end, pass its exit status
 * through. The run goes in slices of instructions so that a deadline,
 * Ctrl-C and progress are looked at between slices, never per instruction.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "host_files.h"
#include "run_count.h"
#include "run_inst_cost.h"
#include "stopwatch.h"
#include "tally/export.h"
#include "tally/gdb.h"
#include "run_perfetto.h"
#include "run_cycle_trace.h"
#include "run_progress.h"
#include "run_trace.h"
#include "irq_opts.h"
#include "tally/store.h"
#include "tally/tally.h"

#define SLICE_INSNS 20000000ull
#define GDB_SLICE_INSNS 1000000ull  /* with --gdb a GDB may attach between two slices */

typedef struct run_opts {
  bool verbose;
  bool quiet;                /* --quiet: no progress line, no notes */
  progress_mode progress;    /* --progress, --no-progress; on a terminal by default */
  double progress_every;     /* --progress-every S */
  uint64_t max_insns;   /* 0 = no bound */
  uint64_t max_cycles;  /* 0 = no bound */
  double timeout;       /* seconds, 0 = none */
  bool raw;                  /* --raw or --load-addr: PROGRAM is a raw binary */
  uint32_t load_addr, entry;
  bool load_set, entry_set;  /* else both are the board's RAM base */
  const char *board;         /* --board NAME|FILE, NULL: virt */
  uint64_t ram_size;
  bool ram_size_given;
  const char *core;          /* NULL and no --set/--stats: functional run */
  bool timed;
  const char *sets[64];
  int nsets;
  bool stats;
  const char *stats_json;
  count_opts count;          /* the statistics module (--count ...) and where its intervals go */
  host_files_opts files;     /* --semihost-files, --semihost-root */
  const char *gdb;           /* --gdb [ADDR:]PORT, or NULL */
  bool gdb_wait;             /* --gdb-wait: GDB first, then the program */
  trace_opts trace;          /* --trace FILE, --trace-from, --trace-count */
  const char *perfetto;      /* --perfetto FILE, or NULL */
  uint64_t perfetto_calls;   /* --perfetto-calls N */
  const char *inst_cost;     /* --inst-cost ORIG.elf: PROGRAM is its tally inst output */
  cycle_trace_opts ctrace;   /* --cycle-trace FILE, --cycle-trace-window */
  irq_opts irq;              /* --irq, --uart-rx */
  const char *tasks;         /* --tasks[=SPEC]: interrupt latency per task; NULL: off */
  int engine;                /* --engine: TALLY_ENGINE_*, -1 the default */
} run_opts;

static volatile sig_atomic_t interrupted;

static void run_usage(FILE *f) {
  fprintf(f,
          "usage: tally run [options] PROGRAM [ARGS...]\n"
          "\n"
          "Runs an RV32IMAC program (ELF, or a raw binary with --load-addr) on the\n"
          "simulated board. Its output goes to stdout, its input comes from stdin,\n"
          "and its exit status becomes tally's.\n"
          "\n"
          "options:\n"
          "  -v, --verbose          print a summary line (instructions, time, speed)\n"
          "  -q, --quiet            no progress line and no notes on stderr (errors\n"
          "                         and the reports asked for still appear)\n"
          "      --progress         show the progress line even when stderr is not a\n"
          "                         terminal (a line per update, for a log); on a\n"
          "                         terminal it is shown by default and overwrites\n"
          "                         itself: cycles, instructions, MIPS, simulated time\n"
          "                         and, with --max-insns, the share done\n"
          "      --no-progress      never show it\n"
          "      --progress-every S seconds of wall time between updates (default 1)\n"
          "      --max-insns N      stop after N instructions (k/M/G suffixes)\n"
          "      --max-cycles N     stop once N cycles have passed (k/M/G suffixes): the\n"
          "                         run's cycle budget, which also ends a wfi sleep that\n"
          "                         no instruction budget can (exit status 123)\n"
          "      --timeout S        stop after S seconds of wall time (the waits for GDB\n"
          "                         and for --control's START included)\n"
          BOARD_HELP
          IRQ_HELP
          "      --tasks[=SPEC]     with -v and --stats-json: interrupt latencies per\n"
          "                         task running when the line rose, the task read from\n"
          "                         the program's current-task pointer as 'tally profile\n"
          "                         --tasks[=SPEC]' does (SPEC: auto (default), freertos,\n"
          "                         zephyr, tally, VARIABLE[:NAME_MEMBER], 0xADDR,\n"
          "                         reg:REGISTER); implies a core model. Also how\n"
          "                         --count's task counters (%%TASK) find the task\n"
          ENGINE_HELP
          "      --raw              PROGRAM is a raw binary, loaded at the board's RAM\n"
          "                         base (0x80000000 on virt, 0x40000000 on litex)\n"
          "      --load-addr ADDR   PROGRAM is a raw binary to load at ADDR\n"
          "      --entry ADDR       start at ADDR (raw binaries; default: the load address)\n"
          "      --ram-size SIZE    board RAM in bytes (default the board's: 128Mi on virt,\n"
          "                         as QEMU; or what the ELF's segments need, up to twice\n"
          "                         that)\n"
          "      --gdb [ADDR:]PORT  GDB may attach (target remote PORT) while the program\n"
          "                         runs: it stops where it is and runs as GDB says,\n"
          "                         not a cycle changed (docs/tally-gdb.md). Loopback\n"
          "                         unless ADDR is given\n"
          "      --gdb-wait         with --gdb: wait for GDB before the first instruction\n"
          "      --trace FILE       write one line per instruction to FILE ('-': stdout):\n"
          "                         cycle, cycles taken, pc, symbol, disassembly,\n"
          "                         registers written, memory, signals\n"
          "                         (docs/tally-trace.md); no cycle changes\n"
          "      --trace-from FUNC|ADDR  start the trace when the pc first gets there\n"
          "      --trace-count N    at most N lines (default 1M)\n"
          "      --trace-format text|bin  the trace as text lines (default) or in the\n"
          "                         compact binary form ('tally trace --print' reads it)\n"
          "      --perfetto FILE    write the run's timeline for ui.perfetto.dev or\n"
          "                         chrome://tracing (Chrome JSON trace events): every\n"
          "                         call as a slice at its exact cycles, and the --count\n"
          "                         intervals as counter tracks; implies a core model\n"
          "                         (docs/tally-trace.md); no cycle changes\n"
          "      --perfetto-calls N at most N calls in it (default 1M)\n"
          "      --cycle-trace FILE  write every core cycle's PC and signal values, as\n"
          "                         the statistics module counts them, to FILE ('-':\n"
          "                         stdout) in the binary format of docs/cycle-trace.md\n"
          "                         (needs a core model; every instruction is stepped)\n"
          "      --cycle-trace-window FROM:TO  only the cycles [FROM, TO) (either may\n"
          "                         be empty; default the whole run)\n"
          HOST_FILES_HELP
          "\n"
          "timing (any of these counts cycles on a core model):\n"
          "      --core NAME        core model: a shipped name (tally5, tally5-wt, sram,\n"
          "                         picorv32) or a path to an .ini file; default tally5\n"
          "      --set SEC.KEY=VAL  override one model parameter (repeatable),\n"
          "                         e.g. --set icache.size=8K --set pipeline.cpi.load=2\n"
          "      --stats            after the run, print cycles, CPI, cache hit rates,\n"
          "                         energy and every signal's total (on stderr)\n"
          "      --stats-json FILE  the same as JSON ('-' for stdout; the program's output\n"
          "                         then goes to stderr)\n"
          "      --inst-cost ORIG.elf  PROGRAM is ORIG.elf instrumented by tally inst: run\n"
          "                         ORIG.elf too (same core and arguments, its output\n"
          "                         discarded) and print what the instrumentation cost:\n"
          "                         cycles and misses of the analysis code and those it\n"
          "                         added in the program (on stderr; docs/tally-inst.md)\n"
          "\n"
          "statistics module (counts on a core model; docs/statmod.md):\n"
          "      --count SIGNAL[@WHERE][%%TASK]  count SIGNAL ('tally signals') on the\n"
          "                         cycles the instruction in charge is in WHERE: a\n"
          "                         function name or 0xLO-0xHI ([LO, HI)); anywhere without\n"
          "                         @WHERE; inst / program: a tally inst output's analysis\n"
          "                         region / every address below it. %%TASK: only while\n"
          "                         task TASK (or trap context irq:N, trap:N) runs,\n"
          "                         SIGNAL@%%TASK anywhere in it. Repeatable: one counter\n"
          "                         each\n"
          "      --interval CYCLES  dispatch period: the counters are read out and reset\n"
          "                         every CYCLES core cycles (needed with --count)\n"
          "      --counters N       counters in the module (default 16, up to 1024)\n"
          "      --width R          bits per counter, 1-64 (default 32); a counter\n"
          "                         saturates at 2^R - 1 within an interval\n"
          "      --arrs P           address range registers (default 16, up to 256)\n"
          "      --map FILE         function names from a GNU ld map file (raw binaries);\n"
          "                         read and checked in every run\n"
          "      --intervals-csv FILE  every interval and the totals as CSV ('-' for stdout)\n"
          "      --show-intervals N|all  intervals printed in the table (default 40:\n"
          "                         the first and the last 20 of a longer run)\n"
          "      --at CYCLE:CHANGE  reconfigure the module in the middle of the run, on\n"
          "                         the first instruction edge at or after CYCLE\n"
          "                         (repeatable; docs/statmod.md). CHANGE: interval=N,\n"
          "                         counter=I:SIGNAL[@WHERE] (the I-th --count, from 0,\n"
          "                         counts that from then on), counter=I:off, or\n"
          "                         arr=J:WHERE (address range register J)\n"
          "\n"
          "where the counts go (docs/tally-run.md, docs/protocol.md):\n"
          "      --db FILE          store the run in this SQLite file (default: $TALLY_DB,\n"
          "                         else ./tally.db), through a collector embedded in\n"
          "                         tally run; 'tally report --db FILE RUN' prints it again\n"
          "      --no-store         only print the table (and --intervals-csv)\n"
          "      --collector ADDR:PORT  send the run to a 'tally collect --listen ADDR:PORT'\n"
          "                         (another machine, or another process) instead; it\n"
          "                         stores it in its own --db\n"
          "      --control ADDR:PORT  before the program starts, wait for the module's\n"
          "                         configuration as control packets ('tally config\n"
          "                         --board ADDR:PORT ... --start'); instead of --count and\n"
          "                         --interval. ADDR:PORT or PORT (= 127.0.0.1:PORT, this\n"
          "                         machine only); 0.0.0.0:PORT takes them from anywhere\n"
          "      --key FILE         authenticate with this key (the file's bytes, 16 to\n"
          "                         1,024): with --control, take only control packets\n"
          "                         that carry its tag and a fresh sequence number; with\n"
          "                         --collector (or --control), tag every packet of the\n"
          "                         run and take resend requests and the collector's\n"
          "                         acknowledgement only with its tag ('tally collect\n"
          "                         --key' the same key). Others are refused and counted\n"
          "      --key-env VAR      the same, the key being the value of variable VAR\n"
          "  -h, --help             show this help\n"
          "\n"
          "exit status: the program's own; otherwise 123 when --max-cycles stopped\n"
          "it, 124 when --max-insns or --timeout did, 125 when it trapped with no handler, 126 when it\n"
          "waits for an interrupt that cannot come, 64 for usage errors, 66 when\n"
          "PROGRAM, the key or the --semihost-root cannot be read, 69 when\n"
          "the --collector never acknowledged the run, 73 when the store cannot be\n"
          "created.\n");
}

static int parse_opts(int argc, char **argv, run_opts *o) {
  enum { OPT_MAX = 256, OPT_TIMEOUT, OPT_LOAD, OPT_ENTRY, OPT_RAM, OPT_CORE, OPT_ENGINE, OPT_SET, OPT_STATS, OPT_JSON,
         OPT_COUNT, OPT_COUNT_OPTION, OPT_DB, OPT_NO_STORE, OPT_COLLECTOR, OPT_CONTROL, OPT_KEY, OPT_KEY_ENV,
         OPT_HOST_FILES, OPT_GDB, OPT_GDB_WAIT, OPT_TRACE, OPT_TRACE_FROM, OPT_TRACE_COUNT,
         OPT_PERFETTO, OPT_PERFETTO_CALLS, OPT_TRACE_FORMAT, OPT_INST_COST, OPT_CTRACE,
         OPT_CTRACE_WINDOW, OPT_AT, OPT_PROGRESS, OPT_NO_PROGRESS, OPT_PROGRESS_EVERY, OPT_BOARD, OPT_RAW, OPT_MAX_CYCLES,
         OPT_IRQ, OPT_UART_RX, OPT_TASKS };
  static const struct option longs[] = {
    {"verbose", no_argument, NULL, 'v'},     {"help", no_argument, NULL, 'h'},
    {"quiet", no_argument, NULL, 'q'},       {"progress", no_argument, NULL, OPT_PROGRESS},
    {"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
    {"progress-every", required_argument, NULL, OPT_PROGRESS_EVERY},
    {"max-insns", required_argument, NULL, OPT_MAX}, {"max-cycles", required_argument, NULL, OPT_MAX_CYCLES},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"load-addr", required_argument, NULL, OPT_LOAD}, {"entry", required_argument, NULL, OPT_ENTRY},
    {"ram-size", required_argument, NULL, OPT_RAM},  {"core", required_argument, NULL, OPT_CORE},
    {"engine", required_argument, NULL, OPT_ENGINE},
    {"board", required_argument, NULL, OPT_BOARD},   {"raw", no_argument, NULL, OPT_RAW},
    {"irq", required_argument, NULL, OPT_IRQ},       {"uart-rx", required_argument, NULL, OPT_UART_RX},
    {"tasks", optional_argument, NULL, OPT_TASKS},
    {"set", required_argument, NULL, OPT_SET},       {"stats", no_argument, NULL, OPT_STATS},
    {"stats-json", required_argument, NULL, OPT_JSON},
    {"inst-cost", required_argument, NULL, OPT_INST_COST},
    {"count", required_argument, NULL, OPT_COUNT},
    {"interval", required_argument, NULL, OPT_COUNT_OPTION},
    {"counters", required_argument, NULL, OPT_COUNT_OPTION},
    {"width", required_argument, NULL, OPT_COUNT_OPTION},
    {"arrs", required_argument, NULL, OPT_COUNT_OPTION},
    {"map", required_argument, NULL, OPT_COUNT_OPTION},
    {"intervals-csv", required_argument, NULL, OPT_COUNT_OPTION},
    {"show-intervals", required_argument, NULL, OPT_COUNT_OPTION},
    {"at", required_argument, NULL, OPT_AT},
    {"db", required_argument, NULL, OPT_DB},
    {"no-store", no_argument, NULL, OPT_NO_STORE},
    {"collector", required_argument, NULL, OPT_COLLECTOR},
    {"control", required_argument, NULL, OPT_CONTROL},
    {"key", required_argument, NULL, OPT_KEY}, {"key-env", required_argument, NULL, OPT_KEY_ENV},
    {"semihost-files", required_argument, NULL, OPT_HOST_FILES},
    {"semihost-root", required_argument, NULL, OPT_HOST_FILES},
    {"argv0-path", no_argument, NULL, OPT_HOST_FILES},
    {"gdb", required_argument, NULL, OPT_GDB},
    {"gdb-wait", no_argument, NULL, OPT_GDB_WAIT},
    {"trace", required_argument, NULL, OPT_TRACE},
    {"trace-from", required_argument, NULL, OPT_TRACE_FROM},
    {"trace-count", required_argument, NULL, OPT_TRACE_COUNT},
    {"trace-format", required_argument, NULL, OPT_TRACE_FORMAT},
    {"perfetto", required_argument, NULL, OPT_PERFETTO},
    {"perfetto-calls", required_argument, NULL, OPT_PERFETTO_CALLS},
    {"cycle-trace", required_argument, NULL, OPT_CTRACE},
    {"cycle-trace-window", required_argument, NULL, OPT_CTRACE_WINDOW},
    {NULL, 0, NULL, 0},
  };
  *o = (run_opts){.engine = -1, .ram_size = TALLY_RAM_SIZE_DEFAULT, .trace.count = TRACE_COUNT_DEFAULT,
                  .perfetto_calls = PERFETTO_CALLS_DEFAULT, .ctrace = {.from = 0, .to = UINT64_MAX},
                  .progress_every = PROGRESS_EVERY_DEFAULT};
  count_opts_init(&o->count);
  optind = 1;
  int c, li;
  uint64_t v;
  char optname[40];
  bool trace_option_given = false, perfetto_calls_given = false, ctrace_window_given = false;
  while ((c = getopt_long(argc, argv, "+vqh", longs, &li)) != -1) {
    switch (c) {
    case 'v': o->verbose = true; break;
    case 'q': o->quiet = true; break;
    case OPT_PROGRESS: o->progress = PROGRESS_ON; break;
    case OPT_NO_PROGRESS: o->progress = PROGRESS_OFF; break;
    case OPT_PROGRESS_EVERY:
      if (!parse_seconds(optarg, &o->progress_every)) {
        fprintf(stderr, "tally run: --progress-every wants seconds > 0, got '%s'\n", optarg);
        return -1;
      }
      break;
    case 'h': run_usage(stdout); return -2;
    case OPT_GDB: o->gdb = optarg; break;
    case OPT_GDB_WAIT: o->gdb_wait = true; break;
    case OPT_TRACE: o->trace.file = optarg; break;
    case OPT_CTRACE: o->ctrace.file = optarg; o->timed = true; break;
    case OPT_CTRACE_WINDOW:
      if (cycle_trace_window(optarg, &o->ctrace) != 0)
        return -1;
      ctrace_window_given = true;
      break;
    case OPT_TRACE_FROM: o->trace.from = optarg; break;
    case OPT_TRACE_COUNT:
      if (!parse_u64(optarg, &o->trace.count) || o->trace.count == 0) {
        fprintf(stderr, "tally run: --trace-count wants a positive count, got '%s'\n", optarg);
        return -1;
      }
      trace_option_given = true;
      break;
    case OPT_TRACE_FORMAT:
      if (strcmp(optarg, "text") && strcmp(optarg, "bin")) {
        fprintf(stderr, "tally run: --trace-format wants text or bin, got '%s'\n", optarg);
        return -1;
      }
      o->trace.binary = optarg[0] == 'b';
      trace_option_given = trace_option_given || o->trace.binary; /* needs --trace */
      break;
    case OPT_PERFETTO: o->perfetto = optarg; o->timed = true; break;
    case OPT_PERFETTO_CALLS:
      if (!parse_u64(optarg, &o->perfetto_calls) || o->perfetto_calls == 0) {
        fprintf(stderr, "tally run: --perfetto-calls wants a positive count, got '%s'\n", optarg);
        return -1;
      }
      perfetto_calls_given = true;
      break;
    case OPT_MAX:
      if (!parse_u64(optarg, &o->max_insns) || o->max_insns == 0) {
        fprintf(stderr, "tally run: --max-insns wants a positive count, got '%s'\n", optarg);
        return -1;
      }
      break;
    case OPT_MAX_CYCLES:
      if (!parse_u64(optarg, &o->max_cycles) || o->max_cycles == 0) {
        fprintf(stderr, "tally run: --max-cycles wants a positive count, got '%s'\n", optarg);
        return -1;
      }
      break;
    case OPT_TIMEOUT:
      if (!parse_seconds(optarg, &o->timeout)) {
        fprintf(stderr, "tally run: --timeout wants seconds > 0, got '%s'\n", optarg);
        return -1;
      }
      break;
    case OPT_LOAD: case OPT_ENTRY:
      if (!parse_u64(optarg, &v) || v > UINT32_MAX) {
        fprintf(stderr, "tally run: %s wants a 32-bit address, got '%s'\n",
                c == OPT_LOAD ? "--load-addr" : "--entry", optarg);
        return -1;
      }
      if (c == OPT_LOAD) { o->raw = true; o->load_set = true; o->load_addr = (uint32_t)v; }
      else { o->entry_set = true; o->entry = (uint32_t)v; }
      break;
    case OPT_RAM:
      o->ram_size_given = true;
      if (!parse_u64(optarg, &o->ram_size) || o->ram_size == 0 || o->ram_size % 4096 ||
          o->ram_size > 0x80000000ull) {
        fprintf(stderr, "tally run: --ram-size wants a multiple of 4 KiB up to 2 GiB, got '%s'\n", optarg);
        return -1;
      }
      break;
    case OPT_CORE: o->core = optarg; o->timed = true; break;
    case OPT_ENGINE:
      if ((o->engine = cli_parse_engine(optarg, "run")) < 0)
        return -1;
      break;
    case OPT_BOARD: o->board = optarg; break;
    case OPT_IRQ:
      if (!irq_opts_add(&o->irq, optarg, "run"))
        return -1;
      break;
    case OPT_UART_RX:
      if (o->irq.uart_rx) {
        fprintf(stderr, "tally run: --uart-rx given twice (one file feeds the UART)\n");
        return -1;
      }
      o->irq.uart_rx = optarg;
      break;
    case OPT_TASKS:
      if (optarg && !*optarg) {
        fprintf(stderr, "tally run: --tasks= wants a convention (auto, freertos, zephyr, tally), "
                        "VARIABLE[:NAME_MEMBER], 0xADDR or reg:REGISTER\n");
        return -1;
      }
      o->tasks = optarg ? optarg : "auto";
      o->count.tasks = o->tasks; /* and the statistics module's task counters */
      o->timed = true; /* the task layer is the exact profile's */
      break;
    case OPT_RAW: o->raw = true; break;
    case OPT_SET:
      if (o->nsets == (int)(sizeof o->sets / sizeof o->sets[0])) {
        fprintf(stderr, "tally run: too many --set options\n");
        return -1;
      }
      o->sets[o->nsets++] = optarg;
      o->timed = true;
      break;
    case OPT_STATS: o->stats = true; o->timed = true; break;
    case OPT_JSON: o->stats_json = optarg; o->timed = true; break;
    case OPT_INST_COST: o->inst_cost = optarg; o->timed = true; break;
    case OPT_COUNT:
      if (count_parse_spec(&o->count, optarg) != 0)
        return -1;
      o->timed = true; /* counting implies a core model */
      break;
    case OPT_COUNT_OPTION:
      snprintf(optname, sizeof optname, "--%s", longs[li].name);
      if (count_parse_option(&o->count, optname, optarg) != 0)
        return -1;
      break;
    case OPT_AT:
      if (count_parse_at(&o->count, optarg) != 0)
        return -1;
      break;
    case OPT_DB: o->count.db = optarg; break;
    case OPT_NO_STORE: o->count.no_store = true; break;
    case OPT_COLLECTOR: o->count.collector = optarg; break;
    case OPT_CONTROL:
      o->count.control = optarg;
      o->timed = true;
      break;
    case OPT_KEY: o->count.key = optarg; break;
    case OPT_KEY_ENV: o->count.key_env = optarg; break;
    case OPT_HOST_FILES:
      snprintf(optname, sizeof optname, "--%s", longs[li].name);
      if (!host_files_parse(&o->files, "run", optname, optarg))
        return -1;
      break;
    default: fprintf(stderr, "(try 'tally run --help')\n"); return -1;
    }
  }
  if (count_check(&o->count) != 0)
    return -1;
  if (optind >= argc) {
    fprintf(stderr, "tally run: no program given (try 'tally run --help')\n");
    return -1;
  }
  if ((o->trace.from || trace_option_given) && !o->trace.file) {
    fprintf(stderr, "tally run: --trace-from, --trace-count and --trace-format bin need --trace FILE\n");
    return -1;
  }
  if (perfetto_calls_given && !o->perfetto) {
    fprintf(stderr, "tally run: --perfetto-calls needs --perfetto FILE\n");
    return -1;
  }
  if (o->quiet && (o->verbose || o->progress == PROGRESS_ON)) {
    fprintf(stderr, "tally run: --quiet and %s contradict each other\n", o->verbose ? "--verbose" : "--progress");
    return -1;
  }
  if (o->quiet)
    o->progress = PROGRESS_OFF;
  if (o->gdb_wait && !o->gdb) {
    fprintf(stderr, "tally run: --gdb-wait needs --gdb [ADDR:]PORT\n");
    return -1;
  }
  if (o->trace.binary && o->trace.file && !strcmp(o->trace.file, "-")) {
    fprintf(stderr, "tally run: --trace-format bin wants a FILE, not '-' (stdout carries the program's output)\n");
    return -1;
  }
  if (ctrace_window_given && !o->ctrace.file) {
    fprintf(stderr, "tally run: --cycle-trace-window needs --cycle-trace FILE\n");
    return -1;
  }
  if (o->trace.file && o->gdb) {
    fprintf(stderr, "tally run: --trace and --gdb cannot be used together\n");
    return -1;
  }
  if (o->inst_cost && (count_wanted(&o->count) || o->gdb || o->raw)) {
    /* its counters are the statistics module's: one module per run */
    fprintf(stderr, "tally run: --inst-cost is not used with %s\n",
            o->gdb ? "--gdb" : o->raw ? "--raw or --load-addr (it compares ELF files)" : "--count or --control");
    return -1;
  }
  if (o->entry_set && !o->raw) {
    fprintf(stderr, "tally run: --entry only applies to raw binaries (with --raw or --load-addr)\n");
    return -1;
  }
  /* `tally run prog.elf --count ...` passes --count to the program: say so */
  if (!o->quiet)
    cli_hint_after_program("run", longs, argc, argv, optind);
  return optind;
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* --stats-json FILE ('-': stdout). */
static int write_stats_json(tally_sim *sim, const tally_profile *tasks, const char *path, int status) {
  bool out = path[0] == '-' && !path[1];
  FILE *f = out ? stdout : fopen(path, "w");
  if (!f) {
    fprintf(stderr, "tally run: --stats-json %s: cannot create: %s\n", path, strerror(errno));
    return -1;
  }
  tally_error err;
  int rc = tally_export_stats_tasks(sim, tasks, true, status, f, &err);
  /* a full disk shows only here: say so, never fail in silence */
  int bad = fflush(f) != 0 || ferror(f);
  int werr = errno;
  if (!out && fclose(f) != 0 && !bad) {
    bad = 1;
    werr = errno;
  }
  if (rc != 0 && !bad)
    fprintf(stderr, "tally run: --stats-json %s: %s\n", path, err.msg);
  else if (bad)
    fprintf(stderr, "tally run: --stats-json %s: cannot write: %s\n", path, strerror(werr));
  return rc != 0 || bad ? -1 : 0;
}

static void report_summary(const tally_sim *sim, double secs) {
  char n[32];
  uint64_t insns = tally_instret(sim);
  double mips = secs > 0 ? (double)insns / secs / 1e6 : 0;
  fprintf(stderr, "tally: %s instructions in %.3f s (%.1f MIPS)\n", fmt_count(insns, n, sizeof n), secs, mips);
  tally_engine e = tally_engine_running(sim);
  if (e == TALLY_ENGINE_JIT) {
    tally_jit_stats st;
    tally_jit_stats_get(sim, &st);
    fprintf(stderr, "tally: engine jit: %llu blocks translated in %.1f ms, %.1f KiB of code\n",
            (unsigned long long)st.blocks, (double)st.translate_ns / 1e6, (double)st.code_bytes / 1024);
  } else if (tally_get_engine(sim) == TALLY_ENGINE_JIT) {
    const char *why = tally_engine_why(sim);
    fprintf(stderr, "tally: engine interp (%s)\n", why ? why : "not translated");
  } else {
    fprintf(stderr, "tally: engine interp\n");
  }
}

/* The files this run reads or writes beside the program, which the program
 * may not open in any policy: the store, the key, the traces and every
 * output (by the file each path resolves to). 0, or the exit status. */
static int protect_own_files(tally_sim *sim, const run_opts *o) {
  const char *files[] = {
    count_wanted(&o->count) && !o->count.no_store && !o->count.collector
        ? (o->count.db ? o->count.db : tally_store_default_path()) : NULL,
    o->count.key, o->count.csv, o->trace.file, o->ctrace.file, o->perfetto, o->stats_json,
  };
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    tally_error err;
    if (!files[i] || !strcmp(files[i], "-"))
      continue;
    if (tally_protect_host_file(sim, files[i], &err) != 0) {
      fprintf(stderr, "tally run: %s\n", err.msg);
      return EXIT_CANTCREAT;
    }
  }
  return 0;
}

/* The board with the program loaded and the core set; NULL after saying
 * why, *status the exit status then (64 for a wrong --core or --set). */
static tally_sim *load(const run_opts *o, run_progress *progress, int argc, char **argv, int *status) {
  *status = EXIT_NOINPUT;
  tally_config cfg;
  tally_config_default(&cfg);
  uint32_t ram_base;
  if ((*status = cli_board_config(&cfg, o->board, argv[0], o->raw, o->ram_size_given ? o->ram_size : 0, &ram_base,
                                  "run")) != 0)
    return NULL;
  *status = EXIT_NOINPUT;
  uint32_t load_addr = o->load_set ? o->load_addr : ram_base;
  if ((o->stats_json && !strcmp(o->stats_json, "-")) || (o->count.csv && !strcmp(o->count.csv, "-")))
    cfg.out = stderr; /* stdout carries the JSON alone */
  progress_wrap(progress, &cfg.out, &cfg.err);
  tally_sim *sim = cli_sim_open(&cfg, "run", status);
  if (!sim)
    return NULL;
  if ((*status = cli_set_engine(sim, o->engine, "run")) != 0) {
    tally_sim_free(sim);
    return NULL;
  }
  *status = EXIT_NOINPUT;
  if (host_files_apply(&o->files, sim, "run") != 0) {
    tally_sim_free(sim);
    return NULL;
  }
  tally_error err;
  int rc = o->raw ? tally_load_raw(sim, argv[0], load_addr, o->entry_set ? o->entry : load_addr, &err)
                  : tally_load_elf(sim, argv[0], &err);
  /* --map is read and checked whatever else is asked: its functions name
   * the trace's, GDB's and the statistics module's addresses alike */
  if (rc == 0 && o->count.map)
    rc = tally_load_map(sim, o->count.map, &err);
  if (rc != 0) {
    fprintf(stderr, "tally run: %s\n", err.msg);
    tally_sim_free(sim);
    return NULL;
  }
  if (o->timed && (*status = cli_set_core(sim, o->core ? o->core : "tally5", o->sets, o->nsets, "run")) != 0) {
    tally_sim_free(sim);
    return NULL;
  }
  if ((*status = irq_opts_apply(&o->irq, sim, "run")) != 0) {
    tally_sim_free(sim);
    return NULL;
  }
  char lacks[320];
  if (tally_program_isa_lacks(sim, lacks, sizeof lacks))
    fprintf(stderr, "tally run: warning: %s; their instructions trap as illegal\n", lacks);
  if ((*status = host_files_set_args(&o->files, sim, "run", argc, argv)) != 0) {
    tally_sim_free(sim);
    return NULL;
  }
  return sim;
}

/* --gdb: listens, and says where (and whether the program waits for
 * GDB). NULL after saying why, *status the exit status then (64: a bad
 * PORT, a port in use). */
static tally_gdb *gdb_open(const run_opts *o, int *status) {
  tally_error err;
  tally_gdb *g = tally_gdb_listen(o->gdb, &err);
  if (!g) {
    fprintf(stderr, "tally run: %s\n", err.msg);
    *status = err.code == TALLY_E_INTERNAL ? EXIT_INTERNAL : EXIT_USAGE;
    return NULL;
  }
  if (o->gdb_wait)
    fprintf(stderr, "tally: waiting for GDB on %s (target remote %s)\n", o->gdb, o->gdb);
  else
    fprintf(stderr, "tally: GDB may attach on %s (target remote %s); the program runs\n", o->gdb, o->gdb);
  fflush(stderr);
  return g;
}

/* One GDB session, from where the program is: how the program stopped
 * (TALLY_STOP_LIMIT: it runs on, unless *bound says why not). */
static tally_stop gdb_session(tally_gdb *g, tally_sim *sim, const char **bound) {
  tally_gdb_result r;
  if (tally_gdb_serve(g, sim, stopwatch_flag(), &r) != 0) {
    *bound = stopwatch_reason();
    if (!*bound) {
      fprintf(stderr, "tally run: %s\n", r.err);
      *bound = "GDB could not attach";
    }
    return TALLY_STOP_LIMIT;
  }
  if (r.stop == TALLY_STOP_LIMIT && !r.detached)
    *bound = stopwatch_reason() ? stopwatch_reason() : "GDB killed it or went away";
  return r.stop;
}

/* What a run holds besides its options: each part NULL (or closed) until
 * it is set up, so that one function can let go of any prefix of them. */
typedef struct run_parts {
  tally_sim *sim;
  count_run *counting;      /* the statistics module, or NULL */
  cycle_trace_run ctrace;   /* --cycle-trace */
  perfetto_run *timeline;   /* --perfetto, or NULL */
  tally_profile *tasks;     /* --tasks: the profile's snapshot at the end, for the latencies per task */
  inst_cost *cost;          /* --inst-cost, or NULL */
  run_progress progress;    /* the progress line, and the program's console streams through it */
} run_parts;

/* Lets go of everything set up so far and returns status: a run that
 * cannot start leaves no thread, timer or file half-written behind. */
static int abandon(run_parts *p, run_opts *o, int status) {
  stopwatch_stop();
  perfetto_finish(p->timeline);
  tally_profile_free(p->tasks);
  inst_cost_free(p->cost);
  cycle_trace_close(&p->ctrace, o->ctrace.file);
  count_free(p->counting);
  count_opts_free(&o->count);
  tally_sim_free(p->sim);
  progress_close(&p->progress); /* the board wrote to its streams until now */
  return status;
}

/* The statistics module, the cycle trace, the profile behind GDB and
 * --perfetto, and the cost report, in that order: 0, or the exit status
 * of the first that could not be set up. */
static int setup_parts(run_parts *p, run_opts *o, int argc, char **argv, int first) {
  tally_sim *sim = p->sim;
  int st = 0;
  tally_error err;
  bool prof = false;
  /* the exact profile answers GDB's `monitor count SIG@FUNC` and makes
   * --perfetto's call slices; it changes no cycle */
  if ((o->gdb || o->perfetto || o->tasks) && o->timed) {
    prof = tally_profile_enable(sim, 0, &err) == 0;
    if (!prof)
      fprintf(stderr, "tally run: no counts by function%s: %s\n", o->tasks ? " and no tasks" : "", err.msg);
  }
  /* a problem with the tasks costs them, not the run */
  if (o->tasks && prof && tally_profile_tasks_enable(sim, o->tasks, &err) != 0) {
    fprintf(stderr, "tally run: --tasks: %s; no latencies per task\n", err.msg);
    o->tasks = NULL;
  }
  /* The statistics module (run_count.c): the table and CSV, and the
   * counts kept in a store (embedded) or sent to a collector. With
   * --control the configuration comes as control packets, and the program
   * starts when START does. */
  if (count_wanted(&o->count) &&
      !(p->counting = count_setup(sim, &o->count, argv[first], o->core ? o->core : "tally5", stopwatch_flag(), &st)))
    return st ? st : EXIT_INTERNAL;
  /* the cycle trace goes in front of the statistics module (cycletrace.h) */
  if (o->ctrace.file && (st = cycle_trace_open(sim, &o->ctrace, &p->ctrace)) != 0)
    return st;
  if (o->perfetto &&
      !(p->timeline = perfetto_start(sim, o->perfetto, o->perfetto_calls,
                                     p->counting ? count_measure(p->counting) : NULL, argv[first], &st)))
    return st;
  if (o->inst_cost &&
      !(p->cost = inst_cost_setup(sim, o->inst_cost, o->board, o->core ? o->core : "tally5", o->sets, o->nsets,
                                  &o->files, argc - first, argv + first, &st)))
    return st;
  return 0;
}

/* The run's exit status from how it stopped, and `why` it did not run to
 * its end (NULL when it did). */
static int stop_status(tally_sim *sim, tally_stop s, const char *bound, const char **why) {
  *why = NULL;
  switch (s) {
  case TALLY_STOP_EXIT: return cli_exit_status(sim, "run");
  case TALLY_STOP_TRAP:
    tally_export_stop(sim, s, NULL, stderr);
    *why = "it trapped";
    return EXIT_TRAP;
  case TALLY_STOP_HALT:
    tally_export_stop(sim, s, NULL, stderr);
    *why = "it waits for an interrupt that cannot come";
    return EXIT_HALT;
  case TALLY_STOP_LIMIT:
    tally_export_stop(sim, s, bound, stderr);
    *why = bound;
    return interrupted ? EXIT_INTERRUPTED : EXIT_BOUND;
  case TALLY_STOP_CYCLES:
    tally_export_stop(sim, s, "--max-cycles reached", stderr);
    *why = "--max-cycles reached";
    return EXIT_CYCLES;
  default:
    fprintf(stderr, "tally: internal error: %s\n", tally_stop_detail(sim));
    return EXIT_INTERNAL;
  }
}

/* Once, for a program that read mcycle or an hpm counter in a run without
 * a core model, where those count no cycles. */
static void warn_untimed_counters(const tally_sim *sim) {
  char name[32], where[160];
  uint32_t pc;
  if (!tally_untimed_counter_read(sim, name, sizeof name, &pc))
    return;
  tally_symbolize(sim, pc, where, sizeof where);
  fprintf(stderr,
          "tally run: warning: the program read %s (at 0x%08x <%s>), but without a core model no cycles are "
          "counted: mcycle counts instructions (mcycle == minstret) and every mhpmcounter reads 0; give "
          "--core (e.g. --core tally5) to count cycles\n",
          name, pc, where);
}

/* The parts' own results after the program ended, in the order they
 * depend on each other; the first failure becomes the status of a run
 * that otherwise succeeded. */
static int finish_parts(run_parts *p, run_opts *o, int status, const char *why, int trace_status) {
  warn_untimed_counters(p->sim);
  /* the trace ends where the program did, before the last interval goes out */
  int cts = cycle_trace_close(&p->ctrace, o->ctrace.file);
  /* the program has ended: the counters freeze, the timer runs down */
  int cs = p->counting ? count_finish(p->counting, why, stderr) : 0;
  int ps = perfetto_finish(p->timeline);   /* after the module's last interval */
  p->timeline = NULL;
  const int parts[] = {cts, cs, ps, trace_status};
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
    if (parts[i] != 0 && status == 0)
      status = parts[i];
  if (o->stats)
    tally_export_stats(p->sim, false, status, stderr, NULL);
  int ic = p->cost ? inst_cost_finish(p->cost, why, status, stderr) : 0;
  if (ic != 0 && status == 0)
    status = ic;
  if (o->stats_json && write_stats_json(p->sim, p->tasks, o->stats_json, status) != 0 && status == 0)
    status = EXIT_INTERNAL;
  return status;
}

/* The run loop, from how the program stands (s: TALLY_STOP_LIMIT when it
 * can go on) to how it stopped, in slices: between two of them GDB may
 * take over, and the bounds, the stop requests and the progress line are
 * looked at. *bound says why the loop ended a run that could go on.
 * --max-insns and --timeout count from progress_begin. */
static tally_stop run_slices(run_parts *p, const run_opts *o, tally_gdb *gdb, tally_stop s, const char **bound) {
  tally_sim *sim = p->sim;
  uint64_t insn0 = p->progress.insn0;
  double start = p->progress.start, t = now_seconds();
  for (; s == TALLY_STOP_LIMIT && !*bound;) {
    /* a stop request may end a slice early: count what ran, not slices */
    uint64_t done = tally_instret(sim) - insn0;
    uint64_t left = o->max_insns ? o->max_insns - done : UINT64_MAX;
    uint64_t slice = progress_slice(&p->progress);
    s = tally_run(sim, left < slice ? left : slice);
    if (s != TALLY_STOP_LIMIT)
      break;
    if (gdb && tally_gdb_pending(gdb)) {
      progress_clear(&p->progress);
      if ((s = gdb_session(gdb, sim, bound)) != TALLY_STOP_LIMIT || *bound)
        break;
    }
    if ((*bound = stopwatch_reason())) break;
    if (o->max_insns && tally_instret(sim) - insn0 >= o->max_insns) { *bound = "--max-insns reached"; break; }
    double prev = t;
    t = now_seconds();
    if (o->timeout && t - start >= o->timeout) { *bound = "--timeout reached"; break; }
    if (interrupted) { *bound = "interrupted"; break; }
    progress_tick(&p->progress, sim, t, t - prev);
  }
  return s;
}

int cmd_run(int argc, char **argv) {
  run_opts o;
  int first = parse_opts(argc, argv, &o);
  if (first < 0) {
    count_opts_free(&o.count);
    return first == -2 ? 0 : EXIT_USAGE;
  }
  int load_status;
  run_parts p = {0};
  progress_init(&p.progress, o.progress, o.progress_every, o.max_insns, o.gdb ? GDB_SLICE_INSNS : SLICE_INSNS);
  if (!(p.sim = load(&o, &p.progress, argc - first, argv + first, &load_status)))
    return abandon(&p, &o, load_status);
  tally_sim *sim = p.sim;
  tally_set_max_cycles(sim, o.max_cycles);
  /* with the statistics module a closed stdout (`| head`) must not kill
   * the run and lose its counts: the writes fail with EPIPE instead, the
   * program runs to its end and the run is kept; the status says so */
  if (count_wanted(&o.count))
    signal(SIGPIPE, SIG_IGN);
  /* the files tally itself opens are never the program's to open */
  int pst = protect_own_files(sim, &o);
  if (pst != 0)
    return abandon(&p, &o, pst);
  /* Ctrl-C, SIGTERM and --timeout stop the run wherever the program is,
   * waiting for its configuration included (stopwatch.c); the library's
   * own threads (the embedded collector) never take these signals. */
  stopwatch_start(sim, &interrupted);
  /* --timeout bounds the whole run, the waits for --control's START and
   * for GDB (--gdb-wait) included */
  stopwatch_arm(o.timeout);
  int st = setup_parts(&p, &o, argc, argv, first);
  if (st != 0)
    return abandon(&p, &o, st);

  double start = now_seconds();
  progress_begin(&p.progress, sim, start);
  tally_stop s = TALLY_STOP_LIMIT;
  const char *bound = NULL;
  tally_gdb *gdb = NULL;
  if (o.gdb) {
    st = EXIT_USAGE;
    if (!(gdb = gdb_open(&o, &st)))
      return abandon(&p, &o, st);
    if (o.gdb_wait)
      s = gdb_session(gdb, sim, &bound);
  }
  int trace_status = 0;   /* the trace could not be written: the run goes on, its status says so */
  if (o.trace.file) {
    s = trace_window(sim, &o.trace, o.max_insns, &interrupted, &bound, &trace_status);
    if (trace_status && s == TALLY_STOP_ERROR)
      return abandon(&p, &o, trace_status);
  }
  s = run_slices(&p, &o, gdb, s, &bound);
  stopwatch_stop();
  tally_gdb_close(gdb);
  double secs = now_seconds() - start;
  progress_clear(&p.progress);   /* the program's output is out, the line gone: the reports follow */
  int out_err = tally_output_error(sim);
  if (fflush(stdout) != 0 && !out_err)
    out_err = errno;

  const char *why;   /* why the program did not run to its end */
  int status = stop_status(sim, s, bound, &why);
  /* a full disk or a closed pipe lost the program's output: the run's
   * reports still come, and the status says so when the program succeeded */
  if (out_err) {
    fprintf(stderr, "tally run: the program's output could not be written: %s\n", strerror(out_err));
    if (status == 0)
      status = EXIT_INTERNAL;
  }
  if (o.tasks)
    p.tasks = tally_profile_take(sim); /* NULL: no latencies per task, the rest goes on */
  if (o.verbose) {
    report_summary(sim, secs);
    irq_report(sim, p.tasks, stderr);
  }
  status = finish_parts(&p, &o, status, why, trace_status);
  return abandon(&p, &o, status);
}
