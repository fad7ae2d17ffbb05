/*
 * tally config: configures a waiting board (tally run --control ADDR:PORT)
 * with control packets, as the paper's control script did: timer, ARRs,
 * counters, then start. Each request waits for its reply and is sent again
 * (the same bytes) if none comes; the first refusal stops everything after it.
 * Function names are resolved before anything is sent (config_names.c).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "config_req.h"
#include "tally/control.h"
#include "tally/run.h"

enum { EXIT_REFUSED = 1, EXIT_NOANSWER = 69 };

#define MAX_REQUESTS 2048

static void config_usage(FILE *f) {
  fprintf(f,
          "usage: tally config [--board ADDR:PORT] [options] [--start | --stop | --query]\n"
          "\n"
          "Configures the statistics module of a board waiting for its configuration\n"
          "(tally run --control ADDR:PORT) with control packets (docs/protocol.md):\n"
          "the dispatch timer, address range registers (ARRs) and counters, then\n"
          "START. Each request waits for the board's acknowledgement; the first one\n"
          "refused is reported and nothing after it is sent.\n"
          "\n"
          "options:\n"
          "      --board ADDR:PORT     the board's control address (default 127.0.0.1:%d)\n"
          "      --key FILE            authenticate with this key (the board's --key)\n"
          "      --key-env VAR         the same, the key being the value of variable VAR\n"
          "      --program ELF         the program the board runs: its functions can be\n"
          "                            named in --arr and --counter\n"
          "      --map FILE            ... or a GNU ld map file's (a raw binary)\n"
          "      --timer CYCLES        dispatch period in core cycles (k/M/G suffixes)\n"
          "      --arr I=LO-HI[,NAME]  ARR I covers PCs [LO, HI); NAME (e.g. the function)\n"
          "                            goes into the counters' labels; repeatable. With\n"
          "                            --program or --map, a NAME that is a function must\n"
          "                            hold the range\n"
          "      --arr I=FUNC          ARR I covers function FUNC (with --program or --map)\n"
          "      --counter I=SIGNAL@ARR   counter I counts SIGNAL (a name from 'tally\n"
          "                            signals', or its number) while the PC is in ARR\n"
          "      --counter I=SIGNAL@FUNC  ... in function FUNC, or I=SIGNAL@0xLO-0xHI: an\n"
          "                            ARR holding that range is used, else a free one set\n"
          "      --counter I=SIGNAL    ... anywhere; all repeatable\n"
          "      --counter I=SPEC%%TASK  ... only while task TASK (or irq:N, trap:N) runs:\n"
          "                            I=SIGNAL@FUNC%%TASK, I=SIGNAL@%%TASK (anywhere in it);\n"
          "                            the board finds tasks as 'tally run --tasks' says\n"
          "      --disable I           counter I counts nothing; repeatable\n"
          "      --start               start the run after configuring\n"
          "      --stop                end the measurement early\n"
          "      --query               print the board's state\n"
          "      --timeout S           wait S seconds for each reply (default 1)\n"
          "      --retries N           send a request N times at most (default 3)\n"
          "  -h, --help                show this help\n"
          "\n"
          "examples:\n"
          "  tally config --timer 100k --arr 0=0x80000100-0x80000180,main-loop \\\n"
          "               --counter 0=stall@0 --counter 1=cycle --start\n"
          "  tally config --program aes.elf --timer 100k \\\n"
          "               --counter 0=stall@MixColumns --counter 1=cycle@MixColumns --start\n"
          "\n"
          "exit status: 0, 1 when the board refused a request, 64 for usage errors\n"
          "(a function the program does not have among them), 66 when the key, the\n"
          "program or the map file cannot be read, 69 when the board does not answer.\n",
          TALLY_DEFAULT_CONTROL_PORT);
}

static bool parse_index(const char *s, const char *opt, unsigned max, unsigned *out, const char **rest) {
  char *end;
  errno = 0;
  unsigned long v = strtoul(s, &end, 10);
  if (end == s || errno || v > max || *end != '=') {
    fprintf(stderr, "tally config: %s '%s': expected I=..., I a number up to %u\n", opt, s, max);
    return false;
  }
  *out = (unsigned)v;
  *rest = end + 1;
  return true;
}

static bool parse_addr32(const char *s, uint32_t *out) {
  uint64_t v;
  if (!parse_u64(s, &v) || v > UINT32_MAX)
    return false;
  *out = (uint32_t)v;
  return true;
}

/* --arr I=LO-HI[,NAME] or I=FUNC */
static bool parse_arr(const char *s, request *r) {
  unsigned index;
  const char *rest;
  if (!parse_index(s, "--arr", 0xFFFE, &index, &rest))
    return false;
  if (*rest && !(*rest >= '0' && *rest <= '9')) { /* a function's name, resolved later */
    if (strlen(rest) > TALLY_CONTROL_MAX_NAME) {
      fprintf(stderr, "tally config: --arr '%s': the name is longer than %d bytes\n", s, TALLY_CONTROL_MAX_NAME);
      return false;
    }
    *r = (request){.type = REQ_ARR, .index = index, .named = true, .option = s};
    snprintf(r->func, sizeof r->func, "%s", rest);
    snprintf(r->name, sizeof r->name, "%s", rest);
    return true;
  }
  char buf[128];
  snprintf(buf, sizeof buf, "%s", rest);
  char *name = strchr(buf, ',');
  if (name)
    *name++ = '\0';
  char *dash = strchr(buf, '-');
  if (dash)
    *dash = '\0';
  uint32_t lo, hi;
  if (!dash || !parse_addr32(buf, &lo) || !parse_addr32(dash + 1, &hi) || lo > hi) {
    fprintf(stderr, "tally config: --arr '%s': expected I=LO-HI with LO <= HI, e.g. 0=0x80000100-0x80000180, or "
                    "I=FUNCTION\n", s);
    return false;
  }
  if (name && strlen(name) > TALLY_CONTROL_MAX_NAME) {
    fprintf(stderr, "tally config: --arr '%s': the name is longer than %d bytes\n", s, TALLY_CONTROL_MAX_NAME);
    return false;
  }
  *r = (request){.type = REQ_ARR, .index = index, .lo = lo, .hi = hi, .named = name != NULL, .option = s};
  snprintf(r->name, sizeof r->name, "%s", name ? name : "");
  return true;
}

static bool all_digits(const char *s) {
  if (!*s)
    return false;
  for (; *s; s++)
    if (*s < '0' || *s > '9')
      return false;
  return true;
}

/* --counter I=SIGNAL[@ARR | @FUNC | @0xLO-0xHI]: the spec as tally run
 * --count takes it (tally_event_parse: unknown signals get suggestions),
 * or an ARR's number after '@'. */
static bool parse_counter(const char *s, request *r) {
  unsigned index;
  const char *rest;
  if (!parse_index(s, "--counter", 0xFFFF, &index, &rest))
    return false;
  /* %TASK: cut off here, the task register is chosen later (task_registers) */
  char body[128], task[64] = "";
  snprintf(body, sizeof body, "%s", rest);
  char *pct = strchr(body, '%');
  if (pct) {
    tally_event tev;
    tally_error terr;
    if (tally_event_parse(rest, &tev, &terr) != 0) { /* the spec's own checks of the task */
      fprintf(stderr, "tally config: --counter %s\n", terr.msg);
      return false;
    }
    snprintf(task, sizeof task, "%s", pct + 1);
    *pct = '\0';
    if (pct > body && pct[-1] == '@')
      pct[-1] = '\0';
  }
  rest = body;
  const char *at = strchr(rest, '@');
  bool arr_number = at && all_digits(at + 1);
  char spec[128];
  snprintf(spec, sizeof spec, "%.*s", arr_number ? (int)(at - rest) : (int)strlen(rest), rest);
  tally_event ev;
  tally_error err;
  if (tally_event_parse(spec, &ev, &err) != 0) {
    fprintf(stderr, "tally config: --counter %s\n", err.msg);
    return false;
  }
  *r = (request){.type = REQ_COUNTER, .index = index, .signal = ev.signal, .arr = TALLY_CONTROL_ANYWHERE,
                 .enabled = true, .option = s};
  snprintf(r->task, sizeof r->task, "%s", task);
  if (arr_number) {
    unsigned long v = strtoul(at + 1, NULL, 10);
    if (v >= TALLY_CONTROL_ANYWHERE) {
      fprintf(stderr, "tally config: --counter '%s': '%s' is not an ARR number (set ARRs with --arr)\n", s, at + 1);
      return false;
    }
    r->arr = (unsigned)v;
  } else if (!ev.anywhere) {
    r->needs_arr = true;
    r->lo = ev.lo;
    r->hi = ev.hi;
    if (ev.func) {
      if (strlen(ev.func) > TALLY_CONTROL_MAX_NAME) {
        fprintf(stderr, "tally config: --counter '%s': the name is longer than %d bytes\n", s,
                TALLY_CONTROL_MAX_NAME);
        return false;
      }
      snprintf(r->func, sizeof r->func, "%s", ev.func);
    }
  }
  return true;
}

/* The task counters' task registers: one per task named, from 1, set
 * before the counters (SET_TASK). false after saying why. */
static bool task_registers(request *reqs, int *nreq, int cap) {
  unsigned used = 0;
  int n = *nreq;
  for (int i = 0; i < n; i++) {
    if (reqs[i].type != REQ_COUNTER || !reqs[i].task[0])
      continue;
    int j = -1;
    for (int k = n; k < *nreq && j < 0; k++)
      if (strcmp(reqs[k].task, reqs[i].task) == 0)
        j = k;
    if (j < 0) {
      if (used == 16 || *nreq >= cap) {
        fprintf(stderr, "tally config: --counter '%s': more than 16 different tasks (the board's task registers)\n",
                reqs[i].option);
        return false;
      }
      request t = {.type = REQ_TASK, .index = ++used};
      memcpy(t.task, reqs[i].task, sizeof t.task);
      reqs[*nreq] = t;
      j = (*nreq)++;
    }
    reqs[i].task_reg = reqs[j].index;
  }
  return true;
}

/* A message of the library, one "tally config: " per line. */
static void say(const char *msg) {
  for (const char *line = msg; line;) {
    const char *nl = strchr(line, '\n');
    fprintf(stderr, "tally config: %.*s\n", nl ? (int)(nl - line) : (int)strlen(line), line);
    line = nl ? nl + 1 : NULL;
  }
}

static int exit_for(const tally_error *err) {
  switch (err->code) {
  case TALLY_E_USAGE: return EXIT_USAGE;
  case TALLY_E_INPUT: return EXIT_NOINPUT;
  case TALLY_E_REFUSED: return EXIT_REFUSED;
  case TALLY_E_NOANSWER: return EXIT_NOANSWER;
  default: return EXIT_INTERNAL;
  }
}

static int send_one(tally_control *c, const request *r, tally_error *err) {
  switch (r->type) {
  case REQ_TIMER: return tally_control_set_timer(c, r->period, err);
  case REQ_ARR: return tally_control_set_arr(c, r->index, r->lo, r->hi, r->named ? r->name : NULL, err);
  case REQ_TASK: return tally_control_set_task(c, r->index, r->task, err);
  case REQ_COUNTER:
    return tally_control_set_task_counter(c, r->index, r->signal, r->arr, r->enabled, r->task_reg, err);
  case REQ_START: return tally_control_start(c, err);
  default: return tally_control_stop(c, err);
  }
}

static void print_status(const char *board, const tally_control_status *st) {
  char a[32], b[32], d[32];
  printf("board      %s\n", board);
  printf("run        %016" PRIx64 "\n", st->run_id);
  printf("state      %s\n", st->state);
  printf("module     %u counters of %u bits, %u ARRs\n", st->counters, st->width, st->arrs);
  printf("period     %s cycles\n", fmt_count(st->period, a, sizeof a));
  printf("intervals  %s\n", fmt_count(st->intervals, b, sizeof b));
  printf("cycle      %s\n", fmt_count(st->cycle, d, sizeof d));
  printf("refused    %u bad tags, %u stale, %u malformed\n", st->bad_tags, st->stale, st->malformed);
}

int cmd_config(int argc, char **argv) {
  static request reqs[MAX_REQUESTS];
  int nreq = 0;
  const char *board = "127.0.0.1:7401", *keyfile = NULL, *keyenv = NULL, *program = NULL, *map = NULL;
  double timeout = 1;
  int retries = 3;
  bool start = false, stop = false, query = false;
  static const struct option longs[] = {
    {"board", required_argument, 0, 'b'}, {"key", required_argument, 0, 'k'},
    {"key-env", required_argument, 0, 'K'},
    {"timer", required_argument, 0, 'T'}, {"arr", required_argument, 0, 'a'},
    {"counter", required_argument, 0, 'c'}, {"disable", required_argument, 0, 'D'},
    {"start", no_argument, 0, 's'},       {"stop", no_argument, 0, 'S'},
    {"query", no_argument, 0, 'Q'},       {"timeout", required_argument, 0, 't'},
    {"retries", required_argument, 0, 'r'}, {"help", no_argument, 0, 'h'},
    {"program", required_argument, 0, 'P'}, {"map", required_argument, 0, 'M'},
    {0, 0, 0, 0}};
  int opt;
  opterr = 0;
  while ((opt = getopt_long(argc, argv, "+h", longs, NULL)) != -1) {
    if (nreq >= MAX_REQUESTS) {
      fprintf(stderr, "tally config: more than %d settings in one call\n", MAX_REQUESTS);
      return EXIT_USAGE;
    }
    request *r = &reqs[nreq];
    switch (opt) {
    case 'b': board = optarg; break;
    case 'k': keyfile = optarg; break;
    case 'K': keyenv = optarg; break;
    case 'P': program = optarg; break;
    case 'M': map = optarg; break;
    case 'T': {
      uint64_t period;
      if (!parse_u64(optarg, &period) || period == 0) {
        fprintf(stderr, "tally config: --timer '%s' is not a number of cycles above 0\n", optarg);
        return EXIT_USAGE;
      }
      *r = (request){.type = REQ_TIMER, .period = period};
      nreq++;
      break;
    }
    case 'a':
      if (!parse_arr(optarg, r))
        return EXIT_USAGE;
      nreq++;
      break;
    case 'c':
      if (!parse_counter(optarg, r))
        return EXIT_USAGE;
      nreq++;
      break;
    case 'D': {
      char *end;
      unsigned long v = strtoul(optarg, &end, 10);
      if (!*optarg || *end || v > 0xFFFF) {
        fprintf(stderr, "tally config: --disable '%s' is not a counter number\n", optarg);
        return EXIT_USAGE;
      }
      *r = (request){.type = REQ_COUNTER, .index = (unsigned)v, .arr = TALLY_CONTROL_ANYWHERE, .enabled = false};
      nreq++;
      break;
    }
    case 's': start = true; break;
    case 'S': stop = true; break;
    case 'Q': query = true; break;
    case 't':
      if (!parse_seconds(optarg, &timeout) || timeout > 3600) {
        fprintf(stderr, "tally config: --timeout '%s' is not a number of seconds up to 3600\n", optarg);
        return EXIT_USAGE;
      }
      break;
    case 'r':
      retries = atoi(optarg);
      if (retries < 1 || retries > 100) {
        fprintf(stderr, "tally config: --retries '%s' is not a number from 1 to 100\n", optarg);
        return EXIT_USAGE;
      }
      break;
    case 'h': config_usage(stdout); return 0;
    default:
      fprintf(stderr, "tally config: unknown option or missing value '%s' (try 'tally config --help')\n",
              argv[optind - 1]);
      return EXIT_USAGE;
    }
  }
  if (optind < argc) {
    fprintf(stderr, "tally config: unexpected argument '%s'\n", argv[optind]);
    return EXIT_USAGE;
  }
  if (start + stop > 1) {
    fprintf(stderr, "tally config: --start and --stop together make no sense\n");
    return EXIT_USAGE;
  }
  if (nreq == 0 && !start && !stop && !query) {
    fprintf(stderr, "tally config: nothing to do: give settings, --start, --stop or --query (see --help)\n");
    return EXIT_USAGE;
  }
  int status = config_resolve(reqs, &nreq, MAX_REQUESTS - 2, program, map); /* room for START/STOP */
  if (status != 0)
    return status;
  if (!task_registers(reqs, &nreq, MAX_REQUESTS - 2))
    return EXIT_USAGE;
  tally_error err;
  tally_control_cfg cfg = {.board = board, .key_path = keyfile, .key_env = keyenv, .timeout_ms = (int)(timeout * 1000),
                           .retries = retries};
  tally_control *c = tally_control_open(&cfg, &err);
  if (!c) {
    say(err.msg);
    return exit_for(&err);
  }
  if (start)
    reqs[nreq++] = (request){.type = REQ_START};
  if (stop)
    reqs[nreq++] = (request){.type = REQ_STOP};
  int rc = 0;
  for (int type = REQ_TIMER; type <= REQ_STOP && rc == 0; type++) {
    for (int i = 0; i < nreq && rc == 0; i++) {
      if (reqs[i].type != type)
        continue;
      if (send_one(c, &reqs[i], &err) != 0) {
        say(err.msg);
        rc = exit_for(&err);
      } else {
        printf("%-50s ok\n", tally_control_last(c));
      }
    }
  }
  tally_control_status st;
  if (rc == 0 && query) {
    if (tally_control_query(c, &st, &err) != 0) {
      say(err.msg);
      rc = exit_for(&err);
    } else {
      print_status(board, &st);
    }
  }
  tally_control_close(c);
  return rc;
}
