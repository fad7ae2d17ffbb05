/*
 * tally config: configures a waiting board (tally run --control ADDR:PORT)
 * with control packets, as the paper's control script did: timer, ARRs,
 * counters, then start. Each request waits for its reply and is sent again
 * (the same bytes) if none comes; the first refusal stops everything after it.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "../net/auth.h"
#include "../net/proto.h"
#include "../net/udp.h"
#include "../statmod/statmod.h"
#include "cli.h"
#include "tally/tally.h"

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
          "      --timer CYCLES        dispatch period in core cycles (k/M/G suffixes)\n"
          "      --arr I=LO-HI[,NAME]  ARR I covers PCs [LO, HI); NAME (e.g. the function)\n"
          "                            goes into the counters' labels; repeatable\n"
          "      --counter I=SIGNAL@ARR   counter I counts SIGNAL (a name from 'tally\n"
          "                            signals', or its number) while the PC is in ARR\n"
          "      --counter I=SIGNAL    ... anywhere; both repeatable\n"
          "      --disable I           counter I counts nothing; repeatable\n"
          "      --start               start the run after configuring\n"
          "      --stop                end the measurement early\n"
          "      --query               print the board's state\n"
          "      --timeout S           wait S seconds for each reply (default 1)\n"
          "      --retries N           send a request N times at most (default 3)\n"
          "  -h, --help                show this help\n"
          "\n"
          "example:\n"
          "  tally config --timer 100k --arr 0=0x80000100-0x80000180,MixColumns \\\n"
          "               --counter 0=dcache.read_miss@0 --counter 1=cycle --start\n"
          "\n"
          "exit status: 0, 1 when the board refused a request, 64 for usage errors,\n"
          "66 when the key cannot be read, 69 when the board does not answer.\n",
          NET_DEFAULT_CONTROL_PORT);
}

typedef struct request {
  net_msg m;        /* header type and the fields of that type */
  char what[96];    /* for messages: "counter 3 = dcache.read_miss in ARR 0" */
  char name[NET_MAX_TEXT + 1];
} request;

typedef struct client {
  int fd;
  net_addr board;
  const char *board_text;
  const net_key *key;
  int timeout_ms, retries;
  uint64_t run_id;
  uint32_t next_seq;
  net_msg reply;
} client;

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

/* --arr I=LO-HI[,NAME] */
static bool parse_arr(const char *s, request *r) {
  unsigned index;
  const char *rest;
  if (!parse_index(s, "--arr", 0xFFFE, &index, &rest))
    return false;
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
    fprintf(stderr, "tally config: --arr '%s': expected I=LO-HI with LO <= HI, e.g. 0=0x80000100-0x80000180\n", s);
    return false;
  }
  if (name && strlen(name) > NET_MAX_TEXT) {
    fprintf(stderr, "tally config: --arr '%s': the name is longer than %d bytes\n", s, NET_MAX_TEXT);
    return false;
  }
  snprintf(r->name, sizeof r->name, "%s", name ? name : "");
  r->m = (net_msg){.h = {.type = NET_SET_ARR}, .index = index, .lo = lo, .hi = hi, .name = r->name,
                   .name_len = (uint16_t)strlen(r->name)};
  snprintf(r->what, sizeof r->what, "ARR %u = 0x%08x-0x%08x%s%s", index, lo, hi, name ? " " : "", name ? name : "");
  return true;
}

/* --counter I=SIGNAL[@ARR] */
static bool parse_counter(const char *s, request *r) {
  unsigned index;
  const char *rest;
  if (!parse_index(s, "--counter", 0xFFFF, &index, &rest))
    return false;
  char buf[128];
  snprintf(buf, sizeof buf, "%s", rest);
  char *at = strchr(buf, '@');
  if (at)
    *at++ = '\0';
  int sig = tally_signal_lookup(buf);
  if (sig < 0) {
    char *end;
    unsigned long v = strtoul(buf, &end, 10);
    if (*buf && !*end && v < (unsigned long)tally_signal_count())
      sig = (int)v;
  }
  if (sig < 0) {
    fprintf(stderr, "tally config: --counter '%s': unknown signal '%s' ('tally signals' lists them)\n", s, buf);
    return false;
  }
  unsigned arr = STATMOD_ANYWHERE;
  if (at) {
    char *end;
    unsigned long v = strtoul(at, &end, 10);
    if (!*at || *end || v >= STATMOD_ANYWHERE) {
      fprintf(stderr, "tally config: --counter '%s': '%s' is not an ARR number (set ARRs with --arr)\n", s, at);
      return false;
    }
    arr = (unsigned)v;
  }
  r->m = (net_msg){.h = {.type = NET_SET_COUNTER}, .index = index, .signal = (uint16_t)sig, .arr = (uint16_t)arr,
                   .enabled = true};
  if (at)
    snprintf(r->what, sizeof r->what, "counter %u = %s in ARR %u", index, tally_signal_name(sig), arr);
  else
    snprintf(r->what, sizeof r->what, "counter %u = %s anywhere", index, tally_signal_name(sig));
  return true;
}

/* Sends one request (m's header type, fields) and waits for its reply. 0 with
 * c->reply set, or an exit status after saying what went wrong. */
static int transact(client *c, net_msg *m, uint64_t run_id, uint32_t seq, const char *what) {
  m->h.run_id = run_id;
  m->h.seq = seq;
  uint8_t out[NET_MAX_PACKET], in[NET_RECV_BUF];
  char err[200];
  size_t len = net_encode(m, c->key, out, err, sizeof err);
  if (!len) {
    fprintf(stderr, "tally config: %s: %s\n", what, err);
    return EXIT_USAGE;
  }
  for (int attempt = 0; attempt < c->retries; attempt++) {
    if (net_udp_send(c->fd, &c->board, out, len) != 0) {
      fprintf(stderr, "tally config: cannot send to %s: %s\n", c->board_text, strerror(errno));
      return EXIT_NOANSWER;
    }
    uint64_t deadline = net_now_ms() + (uint64_t)c->timeout_ms;
    for (;;) {
      uint64_t now = net_now_ms();
      if (now >= deadline)
        break;
      size_t n;
      net_addr from;
      int r = net_udp_recv(c->fd, in, sizeof in, &n, &from, (int)(deadline - now));
      if (r < 0) {
        fprintf(stderr, "tally config: no answer from %s: %s\n", c->board_text, strerror(errno));
        return EXIT_NOANSWER;
      }
      if (r == 0)
        break;
      if (!net_addr_equal(&from, &c->board) || net_decode(in, n, &c->reply, NULL, 0) != 0 ||
          c->reply.h.seq != seq || (c->reply.h.type != NET_ACK && c->reply.h.type != NET_ERROR &&
                                    c->reply.h.type != NET_STATUS))
        continue;   /* not the answer to this request */
      if (c->key && !(c->reply.h.flags & NET_FLAG_AUTH)) {
        fprintf(stderr, "tally config: the board at %s answers without authentication: is it running without "
                        "--key?\n", c->board_text);
        return EXIT_REFUSED;
      }
      if (c->key && !net_verify(c->key, in, n)) {
        fprintf(stderr, "tally config: the board's answer to %s carries a tag that does not match --key: the keys "
                        "differ\n", what);
        return EXIT_REFUSED;
      }
      return 0;
    }
  }
  fprintf(stderr, "tally config: no answer from %s to %s after %d tries (is the board waiting: tally run --control "
                  "%s?)\n", c->board_text, what, c->retries, c->board_text);
  return EXIT_NOANSWER;
}

static int refused(const client *c, const char *what) {
  const net_msg *r = &c->reply;
  fprintf(stderr, "tally config: the board refused %s: %s%s%.*s\n", what, net_err_name(r->code),
          r->name_len ? ": " : "", (int)r->name_len, r->name);
  if (r->code == NET_E_BAD_TAG && !c->key)
    fprintf(stderr, "tally config: the board wants authenticated packets: give its key with --key FILE\n");
  return EXIT_REFUSED;
}

static void print_status(const client *c) {
  const net_msg *r = &c->reply;
  char a[32], b[32], d[32];
  printf("board      %s\n", c->board_text);
  printf("run        %016" PRIx64 "\n", r->h.run_id);
  printf("state      %s\n", net_state_name(r->state));
  printf("module     %u counters of %u bits, %u ARRs\n", r->counters, r->width, r->arrs);
  printf("period     %s cycles\n", fmt_count(r->period, a, sizeof a));
  printf("intervals  %s\n", fmt_count(r->intervals, b, sizeof b));
  printf("cycle      %s\n", fmt_count(r->cycle, d, sizeof d));
  printf("refused    %u bad tags, %u stale, %u malformed\n", r->bad_tags, r->stale, r->malformed);
}

int cmd_config(int argc, char **argv) {
  static request reqs[MAX_REQUESTS];
  int nreq = 0;
  const char *board = "127.0.0.1:7401", *keyfile = NULL;
  double timeout = 1;
  int retries = 3;
  bool start = false, stop = false, query = false;
  static const struct option longs[] = {
    {"board", required_argument, 0, 'b'}, {"key", required_argument, 0, 'k'},
    {"timer", required_argument, 0, 'T'}, {"arr", required_argument, 0, 'a'},
    {"counter", required_argument, 0, 'c'}, {"disable", required_argument, 0, 'D'},
    {"start", no_argument, 0, 's'},       {"stop", no_argument, 0, 'S'},
    {"query", no_argument, 0, 'Q'},       {"timeout", required_argument, 0, 't'},
    {"retries", required_argument, 0, 'r'}, {"help", no_argument, 0, 'h'},
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
    case 'T': {
      uint64_t period;
      if (!parse_u64(optarg, &period) || period == 0) {
        fprintf(stderr, "tally config: --timer '%s' is not a number of cycles above 0\n", optarg);
        return EXIT_USAGE;
      }
      r->m = (net_msg){.h = {.type = NET_SET_TIMER}, .period = period};
      char n[32];
      snprintf(r->what, sizeof r->what, "timer = %s cycles", fmt_count(period, n, sizeof n));
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
      r->m = (net_msg){.h = {.type = NET_SET_COUNTER}, .index = v, .arr = STATMOD_ANYWHERE, .enabled = false};
      snprintf(r->what, sizeof r->what, "counter %lu disabled", v);
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
      fprintf(stderr, "tally config: unknown option or missing value '%s'\n\n", argv[optind - 1]);
      config_usage(stderr);
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
  char err[400];
  client c = {.board_text = board, .timeout_ms = (int)(timeout * 1000), .retries = retries};
  if (net_addr_parse(board, &c.board, err, sizeof err) != 0) {
    fprintf(stderr, "tally config: --board %s\n", err);
    return EXIT_USAGE;
  }
  if (net_addr_port(&c.board) == 0) {
    fprintf(stderr, "tally config: --board '%s' needs a port other than 0\n", board);
    return EXIT_USAGE;
  }
  static net_key key;
  if (keyfile) {
    if (net_key_load(keyfile, &key, err, sizeof err) != 0) {
      fprintf(stderr, "tally config: %s\n", err);
      return EXIT_NOINPUT;
    }
    c.key = &key;
  }
  if ((c.fd = net_udp_open_for(&c.board, err, sizeof err)) < 0) {
    fprintf(stderr, "tally config: %s\n", err);
    return EXIT_INTERNAL;
  }
  /* Hello: learn the board's run and the sequence number it accepts next. */
  uint32_t hello_seq;
  if (getrandom(&hello_seq, sizeof hello_seq, 0) != sizeof hello_seq)
    hello_seq = (uint32_t)net_now_ms();
  net_msg hello = {.h = {.type = NET_QUERY}};
  int rc = transact(&c, &hello, 0, hello_seq, "the first QUERY");
  if (rc == 0 && c.reply.h.type == NET_ERROR)
    rc = refused(&c, "the first QUERY");
  if (rc == 0 && c.reply.h.type != NET_STATUS)
    rc = EXIT_NOANSWER;
  if (rc) {
    close(c.fd);
    return rc;
  }
  c.run_id = c.reply.h.run_id;
  c.next_seq = c.reply.next_seq;
  if (start) {
    reqs[nreq].m = (net_msg){.h = {.type = NET_START}};
    snprintf(reqs[nreq++].what, sizeof reqs[0].what, "START");
  }
  if (stop) {
    reqs[nreq].m = (net_msg){.h = {.type = NET_STOP}};
    snprintf(reqs[nreq++].what, sizeof reqs[0].what, "STOP");
  }
  /* Timer first, then ARRs, then counters, then start or stop (the paper's order). */
  static const uint8_t order[] = {NET_SET_TIMER, NET_SET_ARR, NET_SET_COUNTER, NET_START, NET_STOP};
  for (size_t o = 0; o < sizeof order && rc == 0; o++) {
    for (int i = 0; i < nreq && rc == 0; i++) {
      if (reqs[i].m.h.type != order[o])
        continue;
      rc = transact(&c, &reqs[i].m, c.run_id, c.next_seq, reqs[i].what);
      if (rc)
        break;
      c.next_seq = c.reply.next_seq > c.next_seq ? c.reply.next_seq : c.next_seq + 1;
      if (c.reply.h.type == NET_ERROR)
        rc = refused(&c, reqs[i].what);
      else
        printf("%-50s ok\n", reqs[i].what);
    }
  }
  if (rc == 0 && query) {
    net_msg q = {.h = {.type = NET_QUERY}};
    rc = transact(&c, &q, c.run_id, c.next_seq, "QUERY");
    if (rc == 0 && c.reply.h.type == NET_ERROR)
      rc = refused(&c, "QUERY");
    else if (rc == 0)
      print_status(&c);
  }
  close(c.fd);
  return rc;
}
