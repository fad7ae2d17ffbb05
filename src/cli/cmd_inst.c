/*
 * tally inst: static binary instrumentation, ELF in, ELF out. A client of
 * the instrumenter API (include/tally/inst.h): it picks the points from
 * the options, attaches the tool's or the user's call to each, and writes
 * the result. The options are inst_opts.c's (a spec file's lines too,
 * inst_spec.c). `--show FILE PROG` prints what the shipped bbcount and
 * memtrace tools wrote (inst_show.c, inst_show_memtrace.c).
 * docs/tally-inst.md is the manual.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "inst_opts.h"
#include "tally/inst.h"

static void inst_usage(FILE *f) {
  fprintf(f,
          "usage: tally inst [options] IN.elf -o OUT.elf\n"
          "       tally inst --spec FILE [options] IN.elf -o OUT.elf\n"
          "       tally inst --show bbcount.out|memtrace.out PROG.elf\n"
          "\n"
          "Rewrites an RV32 executable so that analysis code runs at chosen points.\n"
          "No instruction or data of the program moves: each instrumented instruction\n"
          "is replaced in place by a trap of the same length and re-created by the\n"
          "runtime; the analysis lives above the program's 128 MiB, at 0x88000000\n"
          "(tally run sizes its RAM for it; on QEMU add\n"
          "-m 256M -device loader,addr=0x88001000,cpu-num=0).\n"
          "\n"
          "where:\n"
          "      --points KIND[,KIND...]  insn (every instruction), bb (basic-block\n"
          "                           entry), func-entry, func-exit (before every\n"
          "                           return), loop (loop headers), call (call sites),\n"
          "                           load, store, mem (load+store)\n"
          "      --before WHERE       before one instruction: 0xADDR, SYMBOL+OFF or\n"
          "                           FILE:LINE (repeatable)\n"
          "      --after WHERE        after one instruction (repeatable)\n"
          "      --rare WHERE         that site runs rarely next to the code around it:\n"
          "                           its jal never displaces the branch before it (a\n"
          "                           loop's back edge); a trap where nothing else\n"
          "                           carries it (repeatable)\n"
          "      --functions GLOB     only points in functions matching GLOB (repeatable)\n"
          "      --range 0xLO-0xHI    only points in [LO, HI) (repeatable)\n"
          "how:\n"
          "      --tactic T           auto (the default: a jal to a trampoline in the\n"
          "                           program's hole where one can be placed, a trap\n"
          "                           elsewhere), jump (the same, but a site a jump\n"
          "                           could replace and that gets none is an error, 65),\n"
          "                           or trap (ebreak everywhere); docs/tally-inst.md\n"
          "what:\n"
          "      --tool NAME          a shipped tool: none (no analysis: transparency\n"
          "                           tests; the default), bbcount (counts per site,\n"
          "                           written to bbcount.out at exit), phases (loop/\n"
          "                           phase profile from the performance counters,\n"
          "                           phases.out; --points loop unless given),\n"
          "                           memtrace (every data access: pc, address, size,\n"
          "                           load/store, memtrace.out; --points mem unless\n"
          "                           given, or load or store)\n"
          "      --bbcount MODE       flow (the default: bbcount counts a few edges\n"
          "                           and derives every block's count from them by\n"
          "                           flow conservation at exit) or all (a counter in\n"
          "                           every counted block); bbcount.out is the same\n"
          "      --analysis FILE      analysis code to link: .c, .S or .o (repeatable)\n"
          "      --call FUNC[(ARG,...)]  the analysis function called at every point;\n"
          "                           ARG = site | pc | ea | taken | reg:N | hpm:N |\n"
          "                           cycle | instret (passed in a0..a5)\n"
          "      --report             print a table of the sites: address, symbol+off,\n"
          "                           instruction, tactic and why\n"
          "  -q, --quiet              no summary on stderr (sites by tactic, code and\n"
          "                           data bytes, the output's sizes) on success\n"
          "  -o, --output FILE        the instrumented executable\n"
          "      --spec FILE          the options above from a file, one KEY = VALUE a\n"
          "                           line (points = bb, tool = bbcount, ...), read\n"
          "                           where it stands among the options\n"
          "      --show FILE          print a bbcount.out or memtrace.out against\n"
          "                           PROG.elf's symbols\n"
          "  -h, --help               show this help\n"
          "\n"
          "On success a summary on stderr (sites by tactic, code and data bytes, the\n"
          "output's sizes) and warnings of loads that may read replaced code through\n"
          "a pointer formed elsewhere. A tool that cannot write its file when the\n"
          "output runs (bbcount.out: tally run --semihost-files rw) ends that run\n"
          "with status 74.\n"
          "\n"
          "exit status: 0; 64 usage; 65 the input cannot be instrumented as asked\n"
          "(says what and where); 66 unreadable or not an RV32 executable; 70 the\n"
          "cross toolchain (riscv64-unknown-elf-gcc on PATH) is missing or failed.\n"
          "See docs/tally-inst.md.\n");
}

static int parse_opts(int argc, char **argv, inst_opts *o) {
  enum { OPT_POINTS = 256, OPT_BEFORE, OPT_AFTER, OPT_RARE, OPT_FUNCS, OPT_RANGE, OPT_TACTIC, OPT_BBCOUNT, OPT_TOOL, OPT_ANALYSIS,
         OPT_CALL,
         OPT_REPORT, OPT_SHOW, OPT_SPEC };
  static const struct option longs[] = {
    {"points", required_argument, NULL, OPT_POINTS}, {"before", required_argument, NULL, OPT_BEFORE},
    {"after", required_argument, NULL, OPT_AFTER},   {"functions", required_argument, NULL, OPT_FUNCS},
    {"rare", required_argument, NULL, OPT_RARE},
    {"range", required_argument, NULL, OPT_RANGE},   {"tactic", required_argument, NULL, OPT_TACTIC},
    {"bbcount", required_argument, NULL, OPT_BBCOUNT},
    {"tool", required_argument, NULL, OPT_TOOL},     {"analysis", required_argument, NULL, OPT_ANALYSIS},
    {"call", required_argument, NULL, OPT_CALL},     {"report", no_argument, NULL, OPT_REPORT},
    {"show", required_argument, NULL, OPT_SHOW},     {"spec", required_argument, NULL, OPT_SPEC},
    {"output", required_argument, NULL, 'o'},        {"help", no_argument, NULL, 'h'},
    {"quiet", no_argument, NULL, 'q'},
    {NULL, 0, NULL, 0},
  };
  optind = 1;
  opterr = 0;
  int c, idx = -1;
  while ((c = getopt_long(argc, argv, "hqo:", longs, &idx)) != -1) {
    if (c >= OPT_POINTS && c <= OPT_CALL) {
      /* the keys a spec file has too: one code path for both */
      char msg[256];
      const char *key = longs[idx].name;
      if (inst_opt_set(o, key, optarg, msg, sizeof msg) != 0) {
        fprintf(stderr, "tally inst: --%s: %s\n", key, msg);
        return EXIT_USAGE;
      }
      idx = -1;
      continue;
    }
    switch (c) {
    case OPT_REPORT: o->report = true; break;
    case OPT_SHOW: o->show = optarg; break;
    case OPT_SPEC: {
      int rc = inst_spec_read(o, optarg);
      if (rc)
        return rc;
      break;
    }
    case 'o': o->out = optarg; break;
    case 'q': o->quiet = true; break;
    case 'h': inst_usage(stdout); return -1;
    default:
      fprintf(stderr, "tally inst: unknown or incomplete option '%s' (try 'tally inst --help')\n", argv[optind - 1]);
      return EXIT_USAGE;
    }
    idx = -1;
  }
  if (optind != argc - 1) {
    fprintf(stderr, "tally inst: %s (try 'tally inst --help')\n",
            optind >= argc ? "no input program given" : "more than one input program given");
    return EXIT_USAGE;
  }
  o->in = argv[optind];
  if (o->show)
    return 0;
  if (!o->out) {
    fprintf(stderr, "tally inst: no output file: -o OUT.elf\n");
    return EXIT_USAGE;
  }
  return inst_opts_finish(o);
}

/* FUNC or FUNC(ARG,...) */
static bool parse_call(const char *s, char *name, size_t size, tally_inst_arg *args, unsigned *nargs) {
  const char *paren = strchr(s, '(');
  size_t n = paren ? (size_t)(paren - s) : strlen(s);
  if (n == 0 || n >= size)
    return false;
  memcpy(name, s, n);
  name[n] = 0;
  *nargs = 0;
  if (!paren)
    return true;
  const char *end = strrchr(s, ')');
  if (!end || end[1] || end < paren)
    return false;
  char buf[256];
  snprintf(buf, sizeof buf, "%.*s", (int)(end - paren - 1), paren + 1);
  for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    while (isspace((unsigned char)*tok)) tok++;
    if (*nargs == TALLY_INST_MAX_ARGS)
      return false;
    tally_inst_arg *a = &args[(*nargs)++];
    char *e;
    *a = (tally_inst_arg){0};
    if (strcmp(tok, "site") == 0) a->kind = TALLY_INST_ARG_SITE;
    else if (strcmp(tok, "pc") == 0) a->kind = TALLY_INST_ARG_PC;
    else if (strcmp(tok, "ea") == 0) a->kind = TALLY_INST_ARG_EA;
    else if (strcmp(tok, "taken") == 0) a->kind = TALLY_INST_ARG_TAKEN;
    else if (strcmp(tok, "cycle") == 0) a->kind = TALLY_INST_ARG_CYCLE;
    else if (strcmp(tok, "instret") == 0) a->kind = TALLY_INST_ARG_INSTRET;
    else if (strncmp(tok, "reg:", 4) == 0 || strncmp(tok, "hpm:", 4) == 0) {
      a->kind = tok[0] == 'r' ? TALLY_INST_ARG_REG : TALLY_INST_ARG_HPM;
      unsigned long v = strtoul(tok + 4, &e, 10);
      if (e == tok + 4 || *e || v > 31)
        return false;
      a->value = (unsigned)v;
    } else
      return false;
  }
  return true;
}

static bool selected(const inst_opts *o, const tally_inst *ti, const tally_inst_insn *in) {
  if (in->flags & TALLY_INST_NOSITE)
    return false;
  if (o->points != ~0u && !(in->flags & o->points))
    return false;
  if (o->nranges) {
    bool hit = false;
    for (size_t r = 0; r < o->nranges; r++)
      hit |= in->pc >= o->range_lo[r] && in->pc - o->range_lo[r] <= o->range_hi[r] - 1u - o->range_lo[r];
    if (!hit)
      return false;
  }
  if (o->nglobs) {
    const tally_inst_func *f = in->func >= 0 ? tally_inst_func_at(ti, (size_t)in->func) : NULL;
    bool hit = false;
    for (size_t g = 0; f && g < o->nglobs; g++)
      hit |= fnmatch(o->globs[g], f->name, 0) == 0;
    if (!hit)
      return false;
  }
  return true;
}

/* The call attached at every point: the user's, the tool's, or none. */
typedef struct point_call {
  char name[128];
  tally_inst_arg args[TALLY_INST_MAX_ARGS];
  unsigned nargs;
  bool any;
} point_call;

static int attach(tally_inst *ti, const point_call *pc, uint32_t addr, int when, tally_error *err) {
  if (!pc->any)
    return tally_inst_add_site(ti, addr, err);
  return tally_inst_add_call(ti, addr, when, pc->name, pc->args, pc->nargs, err);
}

/* An error about a value read from a spec file names its line. */
static void from_spec(tally_error *err, const char *origin) {
  if (!origin)
    return;
  char msg[sizeof err->msg];
  size_t n = strlen(origin);
  if (n + 2 >= sizeof msg)
    return;
  memcpy(msg, origin, n);
  memcpy(msg + n, ": ", 2);
  snprintf(msg + n + 2, sizeof msg - n - 2, "%.*s", (int)(sizeof msg - n - 3), err->msg);
  memcpy(err->msg, msg, sizeof msg);
}

static int select_points(tally_inst *ti, const inst_opts *o, const point_call *pc, tally_error *err) {
  /* function entries come from the symbol table: without one there are
   * none, and an output with no sites would look instrumented */
  if (o->points != ~0u && (o->points & TALLY_INST_FUNC_ENTRY) && tally_inst_nfuncs(ti) == 0) {
    snprintf(err->msg, sizeof err->msg,
             "%s: --points func-entry needs function symbols, and it has none (stripped?); "
             "use --points bb or --before ADDR instead", o->in);
    return TALLY_INST_ECANNOT;
  }
  for (size_t i = 0; o->points && i < tally_inst_ninsns(ti); i++) {
    const tally_inst_insn *in = tally_inst_insn_at(ti, i);
    if (selected(o, ti, in)) {
      int rc = attach(ti, pc, in->pc, TALLY_INST_BEFORE, err);
      if (rc)
        return rc;
    }
  }
  for (size_t w = 0; w < o->nwheres; w++) {
    uint32_t addr;
    int rc = tally_inst_resolve(ti, o->wheres[w].where, &addr, err);
    if (!rc)
      rc = attach(ti, pc, addr, o->wheres[w].when, err);
    if (rc)
      return from_spec(err, o->wheres[w].origin), rc;
  }
  for (size_t w = 0; w < o->nrares; w++) { /* after the calls: a mark on a site, making one if needed */
    uint32_t addr;
    int rc = tally_inst_resolve(ti, o->rares[w].where, &addr, err);
    if (!rc)
      rc = tally_inst_set_rare(ti, addr, err);
    if (rc)
      return from_spec(err, o->rares[w].origin), rc;
  }
  return 0;
}

static void print_report(const tally_inst *ti) {
  printf("%-10s  %-36s  %-28s  %-6s  %s\n", "address", "where", "instruction", "tactic", "why");
  for (size_t s = 0; s < tally_inst_nsites(ti); s++) {
    tally_inst_site_info si;
    tally_inst_site_get(ti, s, &si);
    char where[200], text[96];
    long i = tally_inst_find_insn(ti, si.pc);
    tally_inst_disasm(ti, (size_t)i, text, sizeof text);
    tally_inst_where(ti, si.pc, where, sizeof where);
    const char *sym = strchr(where, '(');
    printf("0x%08x  %-36.*s  %-28s  %-6s  %s\n", si.pc, sym ? (int)strlen(sym + 1) - 1 : 1, sym ? sym + 1 : "-", text,
           si.tactic, si.why);
  }
}

/* The data-flow check's warnings (code read through a pointer formed
 * outside the reading block). */
static void print_warnings(const tally_inst *ti, FILE *f, const char *prefix) {
  size_t n = tally_inst_nwarnings(ti), k = 0;
  for (; k < n && tally_inst_warning(ti, k); k++)
    fprintf(f, "%s%s\n", prefix, tally_inst_warning(ti, k));
  if (k < n)
    fprintf(f, "%s... and %zu more such reads\n", prefix, n - k);
}

/* n with thousands separators */
static const char *grouped(uint64_t n, char *buf, size_t size) {
  char raw[32];
  int len = snprintf(raw, sizeof raw, "%llu", (unsigned long long)n);
  size_t k = 0;
  for (int i = 0; i < len && k + 2 < size; i++) {
    if (i && (len - i) % 3 == 0)
      buf[k++] = ',';
    buf[k++] = raw[i];
  }
  buf[k] = 0;
  return buf;
}

/* The summary on success (stderr): sites by tactic, code and data, sizes. */
static void print_summary(const tally_inst *ti, const inst_opts *o) {
  tally_inst_summary m;
  tally_inst_get_summary(ti, &m);
  char a[32], b[32], c[32], d[32], e[32];
  fprintf(stderr, "tally inst: %s -> %s: %s site%s: %zu jump (a jal to a trampoline), %zu trap", o->in, o->out,
          grouped(m.sites, a, sizeof a), m.sites == 1 ? "" : "s", m.jump, m.trap);
  if (m.trap_tramp)
    fprintf(stderr, " (%zu of them sent on to a trampoline)", m.trap_tramp);
  fprintf(stderr, "; %zu of them the runtime's own (semihosting calls, trap CSRs, mret)\n", m.own);
  fprintf(stderr, "  code: %s instructions in %s bytes; %s bytes of the code sections are data or padding "
          "(never sites)\n", grouped(m.insns, a, sizeof a), grouped(m.code_bytes, b, sizeof b),
          grouped(m.data_bytes, c, sizeof c));
  fprintf(stderr, "  output: %s bytes (input %s): trampolines %s bytes in the program's hole; analysis region "
          "0x%08x: code %s bytes, data and stack %s bytes\n", grouped(m.out_size, a, sizeof a),
          grouped(m.in_size, b, sizeof b), grouped(m.tramp_bytes, c, sizeof c), TALLY_INST_REGION_BASE,
          grouped(m.region_code, d, sizeof d), grouped(m.region_data, e, sizeof e));
}

static int configure(tally_inst *ti, const inst_opts *o, point_call *pc, tally_error *err) {
  int rc = 0;
  if (o->tool && strcmp(o->tool, "none") != 0 && (rc = tally_inst_use_tool(ti, o->tool, err)) != 0)
    return rc;
  for (size_t a = 0; a < o->nanalysis; a++)
    if ((rc = tally_inst_add_source(ti, o->analysis[a], err)) != 0)
      return from_spec(err, o->analysis_origin[a]), rc;
  if (o->call) {
    if (!parse_call(o->call, pc->name, sizeof pc->name, pc->args, &pc->nargs)) {
      snprintf(err->msg, sizeof err->msg, "--call '%s': want FUNC or FUNC(ARG,...) with ARG = site, pc, ea, taken, "
               "reg:N, hpm:N, cycle or instret (at most 6)", o->call);
      from_spec(err, o->call_origin);
      return EXIT_USAGE;
    }
    pc->any = true;
  } else if (o->tool && strcmp(o->tool, "phases") == 0) {
    snprintf(pc->name, sizeof pc->name, "tally_phases_hit");
    pc->args[0] = (tally_inst_arg){TALLY_INST_ARG_SITE, 0};
    pc->nargs = 1;
    pc->any = true;
  } else if (o->tool && strcmp(o->tool, "memtrace") == 0) {
    snprintf(pc->name, sizeof pc->name, "tally_memtrace_hit");
    pc->args[0] = (tally_inst_arg){TALLY_INST_ARG_SITE, 0};
    pc->args[1] = (tally_inst_arg){TALLY_INST_ARG_EA, 0};
    pc->nargs = 2;
    pc->any = true;
  } else if (o->tool && strcmp(o->tool, "bbcount") == 0) {
    snprintf(pc->name, sizeof pc->name, "tally_bbcount_hit");
    pc->args[0] = (tally_inst_arg){TALLY_INST_ARG_SITE, 0};
    pc->nargs = 1;
    pc->any = true;
  }
  tally_inst_set_tactic(ti, o->tactic);
  tally_inst_set_bbcount_all(ti, o->bbcount_all);
  return select_points(ti, o, pc, err);
}

int inst_show(const char *file, const char *prog);

static int inst_main(int argc, char **argv, inst_opts *o) {
  int rc = parse_opts(argc, argv, o);
  if (rc)
    return rc < 0 ? 0 : rc;
  if (o->show)
    return inst_show(o->show, o->in);
  tally_error err = {0};
  tally_inst *ti;
  rc = tally_inst_open(o->in, &ti, &err);
  if (rc) {
    fprintf(stderr, "tally inst: %s\n", err.msg);
    return rc;
  }
  point_call pc = {0};
  rc = configure(ti, o, &pc, &err);
  if (!rc)
    rc = tally_inst_write(ti, o->out, &err);
  if (rc)
    fprintf(stderr, "tally inst: %s\n", err.msg);
  else {
    if (o->report)
      print_report(ti);
    print_warnings(ti, stderr, "tally inst: warning: ");
    if (o->report)
      print_warnings(ti, stdout, "warning: ");
    if (!o->quiet)
      print_summary(ti, o);
  }
  tally_inst_close(ti);
  return rc;
}

int cmd_inst(int argc, char **argv) {
  inst_opts o = {0};
  int rc = inst_main(argc, argv, &o);
  inst_opts_free(&o);
  return rc;
}
