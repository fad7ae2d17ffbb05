/*
 * tally sweep: a design-space sweep (docs/tally-sweep.md). Options in,
 * the sweep engine of include/tally/sweep.h, text out.
 */
#include <getopt.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "tally/sweep.h"

static volatile int cancelled;

static void on_signal(int sig) {
  (void)sig;
  cancelled = 1;
}

static void sweep_usage(FILE *f) {
  fprintf(f,
          "usage: tally sweep [options] [SPEC]\n"
          "\n"
          "Runs every point of a design-space sweep (programs x configurations x\n"
          "parameter axes) on all local cores, keeps each finished point in a SQLite\n"
          "file (a sweep started again runs only the points it does not hold), and\n"
          "prints the table, the Pareto front over two metrics and the best point\n"
          "(each program's), and with several programs each configuration's geometric\n"
          "mean over them relative to point 0's configuration.\n"
          "SPEC is an INI file (docs/tally-sweep.md); the options add to it.\n"
          "\n"
          "  -p, --program 'ELF [ARGS]'  a program and its arguments (repeatable)\n"
          "  -a, --axis KEY=V1,V2,...    a parameter axis, e.g. icache.size=1K,2K,4K (repeatable)\n"
          "      --set KEY=VALUE         an override of every point (repeatable)\n"
          "      --core NAME             core model (default tally5)\n"
          "      --board NAME|FILE       the board every point runs on (default virt;\n"
          "                              docs/boards.md); [sweep] board in SPEC\n"
          "      --objective METRIC      what the best point minimises (default cycles)\n"
          "      --pareto M1,M2          the Pareto front's two metrics (default cycles,energy_uj)\n"
          "      --record M1,M2,...      metrics shown (default cycles,instructions,energy_uj); a\n"
          "                              metric is cycles, instructions, energy_uj, exit,\n"
          "                              cache_bytes (I- plus D-cache size), a signal\n"
          "                              (tally signals) or a counter SIGNAL@FUNCTION\n"
          "      --max-insns N           stop each point after N instructions\n"
          "      --max-cycles N          stop each point once N cycles have passed (a\n"
          "                              wfi sleep too): the spec's max_cycles\n"
          "      --db FILE               the sweep file (default sweep.db)\n"
          "  -j, --jobs N                simulations at a time (default: one per online core)\n"
          "      --one-pass              every I- and D-cache size and associativity from one run\n"
          "                              per program, where exact (LRU, write-back or direct-mapped\n"
          "                              D-cache, SRAM-like memory; docs/tally-sweep.md)\n"
          "      --slice FIRST:COUNT     run only points FIRST .. FIRST+COUNT-1 (a job array's task)\n"
          "      --merge FILE            copy the points of another sweep file into --db (repeatable)\n"
          "      --no-run                print what the file holds; run nothing\n"
          "      --slurm TASKS           submit to Slurm: a job array of TASKS slices, then a merge\n"
          "                              job into --db (SPEC must hold the whole sweep)\n"
          "      --slurm-dir DIR         the job scripts, logs and task files (default DB.slurm)\n"
          "      --status                the Slurm jobs of --slurm-dir and what --db holds\n"
          "      --csv FILE, --json FILE write the results ('-' for stdout)\n"
          "  -q, --quiet                 no table, front or best point\n"
          "  -h, --help                  show this help\n"
          "\n"
          "Metrics: cycles, instructions, energy_uj, exit, or any signal (tally signals).\n"
          "exit status: 0; 1 when a point run this time did not exit 0; 64 usage; 66 bad\n"
          "spec, program or sweep file; 69 sbatch refused (--slurm); 70 internal; 73 an\n"
          "export cannot be created; 130 interrupted (finished points are kept).\n");
}

typedef struct progress_ctx {
  const char *db;
  int tty;                   /* draw a bar with an ETA on stderr */
  int said;                  /* the first line is out */
  size_t failed;             /* points of this run that did not exit 0 */
} progress_ctx;

static void progress(void *ctx, const tally_sweep_status *st) {
  progress_ctx *pc = ctx;
  size_t done = st->skipped + st->done;
  pc->failed = st->failed;
  if (!pc->said) {
    pc->said = 1;
    fprintf(stderr, "tally sweep: running %zu of %zu points (%zu already in %s)\n", st->total - st->skipped,
            st->total, st->skipped, pc->db);
  }
  if (!pc->tty)
    return;
  int width = 30, fill = st->total ? (int)((size_t)width * done / st->total) : width;
  char eta[32] = "?";
  if (st->eta >= 0)
    snprintf(eta, sizeof eta, "%.0f s", st->eta);
  fprintf(stderr, "\r[%.*s%*s] %zu/%zu points, %.0f s, ETA %s ", fill, "##############################",
          width - fill, "", done, st->total, st->elapsed, eta);
  if (done == st->total)
    fputc('\n', stderr);
}

static int status_of(const tally_error *e) {
  switch (e->code) {
  case TALLY_E_USAGE:
    return EXIT_USAGE;
  case TALLY_E_INPUT:
    return EXIT_NOINPUT;
  case TALLY_E_CREATE:
    return EXIT_CANTCREAT;
  default:
    return EXIT_INTERNAL;
  }
}

typedef struct sweep_opts {
  const char *db, *csv, *json;
  unsigned jobs;
  size_t first, count;
  int no_run, quiet;
  const char *merge[64];
  int nmerge;
  unsigned slurm;            /* --slurm TASKS */
  const char *slurm_dir;
  int status;                /* --status */
  int cli_points;            /* points or options given on the command line */
} sweep_opts;

static int add_program(tally_sweep *s, const char *arg, tally_error *err) {
  char elf[1024];
  const char *sp = strpbrk(arg, " \t");
  size_t n = sp ? (size_t)(sp - arg) : strlen(arg);
  if (n == 0 || n >= sizeof elf)
    return snprintf(err->msg, sizeof err->msg, "--program '%s': expected 'ELF [ARGS]'", arg),
           err->code = TALLY_E_USAGE, -1;
  memcpy(elf, arg, n);
  elf[n] = 0;
  char name[1024];
  snprintf(name, sizeof name, "%s", basename(elf));
  char *dot = strstr(name, ".elf");
  if (dot)
    *dot = 0;
  memcpy(elf, arg, n);
  elf[n] = 0;
  return tally_sweep_add_program(s, name, elf, sp, err);
}

static int parse_slice(const char *arg, sweep_opts *o) {
  uint64_t a, b;
  char buf[64];
  snprintf(buf, sizeof buf, "%s", arg);
  char *colon = strchr(buf, ':');
  if (!colon)
    return -1;
  *colon = 0;
  if (!parse_u64(buf, &a) || !parse_u64(colon + 1, &b) || b == 0)
    return -1;
  o->first = (size_t)a;
  o->count = (size_t)b;
  return 0;
}

/* Options into the sweep and o; the index of SPEC (or argc); -1 usage, -2 help. */
static int parse(int argc, char **argv, tally_sweep *s, sweep_opts *o, tally_error *err) {
  static const struct option longs[] = {
      {"program", required_argument, NULL, 'p'}, {"axis", required_argument, NULL, 'a'},
      {"set", required_argument, NULL, 'S'},     {"core", required_argument, NULL, 'C'},
      {"objective", required_argument, NULL, 'O'}, {"pareto", required_argument, NULL, 'P'},
      {"record", required_argument, NULL, 'R'},  {"max-insns", required_argument, NULL, 'M'},
      {"max-cycles", required_argument, NULL, 'Y'},
      {"db", required_argument, NULL, 'd'},      {"jobs", required_argument, NULL, 'j'},
      {"slice", required_argument, NULL, 'L'},   {"merge", required_argument, NULL, 'm'},
      {"no-run", no_argument, NULL, 'n'},        {"csv", required_argument, NULL, 'c'},
      {"json", required_argument, NULL, 'J'},    {"quiet", no_argument, NULL, 'q'},
      {"slurm", required_argument, NULL, 'U'},   {"slurm-dir", required_argument, NULL, 'D'},
      {"status", no_argument, NULL, 's'},        {"help", no_argument, NULL, 'h'},
      {"one-pass", no_argument, NULL, '1'},      {"board", required_argument, NULL, 'B'},
      {0, 0, 0, 0}};
  int c;
  uint64_t n;
  optind = 1;
  err->code = TALLY_E_USAGE;
  while ((c = getopt_long(argc, argv, "p:a:j:qh", longs, NULL)) != -1) {
    int rc = 0;
    switch (c) {
    case 'p': rc = add_program(s, optarg, err); break;
    case 'a': rc = tally_sweep_add_axis(s, optarg, err); break;
    case 'S': rc = tally_sweep_add_set(s, optarg, err); break;
    case 'C': rc = tally_sweep_option(s, "core", optarg, err); break;
    case 'B': rc = tally_sweep_option(s, "board", optarg, err); break;
    case 'O': rc = tally_sweep_option(s, "objective", optarg, err); break;
    case 'P': rc = tally_sweep_option(s, "pareto", optarg, err); break;
    case 'R': rc = tally_sweep_option(s, "record", optarg, err); break;
    case 'M': rc = tally_sweep_option(s, "max_insns", optarg, err); break;
    case 'Y': rc = tally_sweep_option(s, "max_cycles", optarg, err); break;
    case 'd': o->db = optarg; break;
    case 'j':
      if (!parse_u64(optarg, &n) || n == 0 || n > 1024)
        return snprintf(err->msg, sizeof err->msg, "--jobs '%s': expected 1 to 1024", optarg), -1;
      o->jobs = (unsigned)n;
      break;
    case 'L':
      if (parse_slice(optarg, o) != 0)
        return snprintf(err->msg, sizeof err->msg, "--slice '%s': expected FIRST:COUNT", optarg), -1;
      break;
    case 'm':
      if (o->nmerge == 64)
        return snprintf(err->msg, sizeof err->msg, "--merge: at most 64 files"), -1;
      o->merge[o->nmerge++] = optarg;
      break;
    case 'n': o->no_run = 1; break;
    case '1': rc = tally_sweep_option(s, "one_pass", "true", err); break;
    case 'U':
      if (!parse_u64(optarg, &n) || n == 0 || n > 100000)
        return snprintf(err->msg, sizeof err->msg, "--slurm '%s': expected 1 to 100000 tasks", optarg), -1;
      o->slurm = (unsigned)n;
      break;
    case 'D': o->slurm_dir = optarg; break;
    case 's': o->status = 1; break;
    case 'c': o->csv = optarg; break;
    case 'J': o->json = optarg; break;
    case 'q': o->quiet = 1; break;
    case 'h': return -2;
    default: return snprintf(err->msg, sizeof err->msg, "see tally sweep --help"), -1;
    }
    if (rc != 0)
      return -1;
    o->cli_points |= strchr("paSCOPRM", c) != NULL;
  }
  if (argc - optind > 1)
    return snprintf(err->msg, sizeof err->msg, "one SPEC file at most ('%s' is extra)", argv[optind + 1]), -1;
  return optind;
}

static int export_to(const tally_sweep *s, const char *db, const char *path, tally_sweep_format fmt) {
  FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
  if (!f) {
    fprintf(stderr, "tally sweep: cannot create %s\n", path);
    return EXIT_CANTCREAT;
  }
  tally_error err;
  int rc = tally_sweep_write(s, db, fmt, f, &err);
  if (f != stdout && fclose(f) != 0 && rc == 0) {
    fprintf(stderr, "tally sweep: cannot write %s\n", path);
    return EXIT_CANTCREAT;
  }
  if (rc != 0) {
    fprintf(stderr, "tally sweep: %s\n", err.msg);
    return status_of(&err);
  }
  return 0;
}

static int report(const tally_sweep *s, const sweep_opts *o) {
  static const tally_sweep_format order[] = {TALLY_SWEEP_TABLE, TALLY_SWEEP_PARETO, TALLY_SWEEP_BEST};
  int rc = 0;
  for (size_t i = 0; !o->quiet && rc == 0 && i < 3; i++) {
    if (i)
      putchar('\n');
    rc = export_to(s, o->db, "-", order[i]);
  }
  if (rc == 0 && o->csv)
    rc = export_to(s, o->db, o->csv, TALLY_SWEEP_CSV);
  if (rc == 0 && o->json)
    rc = export_to(s, o->db, o->json, TALLY_SWEEP_JSON);
  return rc;
}

static int run(tally_sweep *s, sweep_opts *o) {
  tally_error err;
  for (int i = 0; i < o->nmerge; i++) {
    long n = tally_sweep_merge(o->db, o->merge[i], &err);
    if (n < 0)
      return fprintf(stderr, "tally sweep: %s\n", err.msg), status_of(&err);
    fprintf(stderr, "tally sweep: %ld points merged from %s\n", n, o->merge[i]);
  }
  if (tally_sweep_points(s) == 0)
    return o->nmerge ? 0 : (fprintf(stderr, "tally sweep: no points: give a SPEC or --program\n"), EXIT_USAGE);
  if (!o->no_run) {
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    progress_ctx pc = {.db = o->db, .tty = isatty(2)};
    int rc = tally_sweep_run(s, o->db, o->jobs, o->first, o->count, progress, &pc, &cancelled, &err);
    if (rc != 0 && !cancelled)
      return fprintf(stderr, "tally sweep: %s\n", err.msg), status_of(&err);
    if (cancelled)
      return fprintf(stderr, "\ntally sweep: interrupted; finished points are kept in %s\n", o->db), EXIT_INTERRUPTED;
    int rrc = report(s, o);
    if (rrc == 0 && pc.failed)
      fprintf(stderr, "tally sweep: %zu points did not exit 0 (column exit)\n", pc.failed);
    return rrc ? rrc : pc.failed ? 1 : 0;
  }
  return report(s, o);
}

/* --slurm: the job array and the merge job (the spec file alone describes
 * the sweep: the tasks read it again). */
static int slurm(tally_sweep *s, const sweep_opts *o, const char *spec) {
  if (!spec || o->cli_points) {
    fprintf(stderr, "tally sweep: --slurm needs a SPEC file holding the whole sweep (no -p, -a, --set, ...)\n");
    return EXIT_USAGE;
  }
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0)
    return fprintf(stderr, "tally sweep: cannot find the tally executable\n"), EXIT_INTERNAL;
  exe[n] = 0;
  tally_error err;
  if (tally_sweep_slurm_submit(s, exe, spec, o->db, o->slurm, o->slurm_dir, &err) != 0)
    return fprintf(stderr, "tally sweep: %s\n", err.msg), err.code == TALLY_E_NOANSWER ? EXIT_UNAVAILABLE
                                                                                           : status_of(&err);
  fprintf(stderr, "tally sweep: submitted to Slurm; jobs in %s/jobs; follow with tally sweep %s --status --db %s\n",
          o->slurm_dir, spec, o->db);
  return 0;
}

/* --status: the Slurm jobs (squeue) and what the files hold so far. */
static int status(const tally_sweep *s, const sweep_opts *o) {
  char path[4300], arr[64] = "", mrg[64] = "";
  unsigned tasks = 0;
  if (snprintf(path, sizeof path, "%s/jobs", o->slurm_dir) >= (int)sizeof path)
    return fprintf(stderr, "tally sweep: --slurm-dir too long\n"), EXIT_USAGE;
  FILE *f = fopen(path, "r");
  if (!f || fscanf(f, "%63s %63s %u", arr, mrg, &tasks) != 3) {
    if (f)
      fclose(f);
    fprintf(stderr, "tally sweep: %s: no submitted sweep there\n", path);
    return EXIT_NOINPUT;
  }
  fclose(f);
  printf("job array %s (%u tasks), merge job %s\n", arr, tasks, mrg);
  fflush(stdout);
  char cmd[256];
  snprintf(cmd, sizeof cmd, "squeue -h -j '%s,%s' -o '  %%i %%T %%R' 2>/dev/null", arr, mrg);
  if (system(cmd) != 0)
    printf("  (squeue gave no answer)\n");
  for (unsigned i = 0; i < tasks; i++) {
    tally_error err;
    snprintf(path, sizeof path, "%s/task-%u.db", o->slurm_dir, i);
    long n = tally_sweep_stored(path, &err);
    if (n < 0)
      printf("  task %u: %s\n", i, err.msg);
    else
      printf("  task %u: %ld points done\n", i, n);
  }
  tally_error err;
  long merged = tally_sweep_stored(o->db, &err);
  printf("%s: %ld of %zu points merged\n", o->db, merged < 0 ? 0 : merged, tally_sweep_points(s));
  return 0;
}

int cmd_sweep(int argc, char **argv) {
  tally_sweep *s = tally_sweep_new();
  if (!s)
    return fprintf(stderr, "tally sweep: out of memory\n"), EXIT_INTERNAL;
  sweep_opts o = {.db = "sweep.db"};
  tally_error err = {{0}, TALLY_E_USAGE};
  int first = parse(argc, argv, s, &o, &err);
  int rc;
  if (first == -2) {
    sweep_usage(stdout);
    rc = 0;
  } else if (first < 0) {
    fprintf(stderr, "tally sweep: %s\n", err.msg);
    rc = status_of(&err);
  } else if (first < argc && tally_sweep_load_spec(s, argv[first], &err) != 0) {
    fprintf(stderr, "tally sweep: %s\n", err.msg);
    rc = status_of(&err);
  } else {
    char dir[4096];
    if (!o.slurm_dir) {
      if (snprintf(dir, sizeof dir, "%s.slurm", o.db) >= (int)sizeof dir)
        return tally_sweep_free(s), fprintf(stderr, "tally sweep: --db too long\n"), EXIT_USAGE;
      o.slurm_dir = dir;
    }
    const char *spec = first < argc ? argv[first] : NULL;
    rc = o.slurm ? slurm(s, &o, spec) : o.status ? status(s, &o) : run(s, &o);
    if (o.status && rc == 0) {
      o.no_run = 1;
      rc = run(s, &o);
    }
  }
  tally_sweep_free(s);
  return rc;
}
