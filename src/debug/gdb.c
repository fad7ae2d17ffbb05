/*
 * The GDB stub's session (include/tally/gdb.h): running (continue, step,
 * Ctrl-C, the program's end), monitor commands, queries, and the packet
 * loop. Packets, registers and watchpoints have files of their own
 * (gdb_impl.h names them).
 *
 * The program is run one step at a time while GDB waits for a stop with
 * software breakpoints set (tally_step: one instruction, or one trap's
 * entry), in slices without (hardware breakpoints and watchpoints are
 * debug triggers, which stop a slice themselves, gdb_watch.c): stopping between any two instructions is exact (that is
 * how the run loop meets its event horizons), so the cycle counts are
 * those of an undisturbed run.
 */
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gdb_impl.h"
#include "tally/export.h"

#define POLL_EVERY 4096      /* instructions between looks for a Ctrl-C */
#define FREE_SLICE 100000    /* instructions run at once when no breakpoint is set */
#define SIGSEGV 11
#define TARGET_XML_MAX 16384

/* -------------------------------------------------------------- memory */

static void read_memory(gdb_session *s, const char *p) {
  uint32_t addr, len;
  unsigned char buf[PACKET_MAX / 2];
  if (!gdb_parse_range(p, &addr, &len, NULL) || len > sizeof buf) {
    gdb_put_packet(s, "E01");
    return;
  }
  if (!tally_read_mem(s->sim, addr, buf, len)) {
    gdb_put_packet(s, "E14"); /* EFAULT */
    return;
  }
  char out[PACKET_MAX + 1];
  for (uint32_t i = 0; i < len; i++)
    snprintf(out + 2 * i, 3, "%02x", buf[i]);
  out[2 * len] = '\0';
  gdb_put_packet(s, out);
}

static void write_memory(gdb_session *s, const char *p) {
  uint32_t addr, len;
  unsigned char buf[PACKET_MAX / 2];
  if (!gdb_parse_range(p, &addr, &len, &p) || *p++ != ':' || len > sizeof buf || strlen(p) < 2 * (size_t)len) {
    gdb_put_packet(s, "E01");
    return;
  }
  for (uint32_t i = 0; i < len; i++) {
    int h = gdb_hexval((unsigned char)p[2 * i]), l = gdb_hexval((unsigned char)p[2 * i + 1]);
    if (h < 0 || l < 0) {
      gdb_put_packet(s, "E01");
      return;
    }
    buf[i] = (unsigned char)(h << 4 | l);
  }
  gdb_put_packet(s, len == 0 || tally_write_mem(s->sim, addr, buf, len) ? "OK" : "E14");
}

/* ----------------------------------------------------------- running */

/* The stop reply for the end of the program. */
static void reply_end(gdb_session *s) {
  char out[16];
  if (s->stop == TALLY_STOP_EXIT)
    snprintf(out, sizeof out, "W%02x", tally_exit_code(s->sim) & 0xff);
  else
    snprintf(out, sizeof out, "X%02x", SIGSEGV);
  gdb_put_packet(s, out);
}

/* A byte waiting from the client while the program runs: 0x03 is Ctrl-C. */
static bool client_interrupts(gdb_session *s) {
  struct pollfd pf = {.fd = s->fd, .events = POLLIN};
  if (poll(&pf, 1, 0) <= 0)
    return false;
  unsigned char c;
  ssize_t r = recv(s->fd, &c, 1, 0);
  if (r <= 0) {
    s->gone = true;
    return true;
  }
  return c == 0x03;
}

/* The program stopped for good (exit, trap, halt): GDB is told. */
static void program_ended(gdb_session *s, tally_stop st) {
  s->ended = true;
  s->stop = st;
  if (st == TALLY_STOP_EXIT)
    reply_end(s);
  else /* a trap with no handler: GDB sees a signal, and may look around */
    gdb_put_packet(s, "S0b");
}

/* Runs one step (tally_step: one instruction, or one trap's entry) and
 * says whether it stopped the session: a hardware breakpoint or
 * watchpoint (a trigger, before the instruction runs), the program's end,
 * the end of a step, a breakpoint. A step over an instruction that traps,
 * or one begun with an interrupt due, stops at the handler's first
 * instruction, before it runs, as on a hart with a debug module; a
 * breakpoint there is seen. */
static bool one_instruction(gdb_session *s, bool step) {
  char out[48];
  tally_stop st = tally_step(s->sim);
  if (st != TALLY_STOP_LIMIT) {
    program_ended(s, st);
    return true;
  }
  if (gdb_trigger_stop(s, out, sizeof out)) {
    gdb_put_packet(s, out);
    return true;
  }
  if (step || gdb_is_breakpoint(s, tally_pc(s->sim))) {
    gdb_put_packet(s, "S05");
    return true;
  }
  return false;
}

/* Runs one instruction (step) or until a breakpoint, a watchpoint,
 * Ctrl-C or the end. */
static void resume(gdb_session *s, bool step) {
  if (s->ended) {
    reply_end(s);
    return;
  }
  for (uint64_t n = 1;; n++) {
    /* with no software breakpoint to look for, run in slices (Ctrl-C is
     * looked for between them; the triggers stop a slice themselves);
     * else one instruction at a time */
    bool free_run = !step && s->nbp == 0;
    if (free_run) {
      char out[48];
      tally_stop st = tally_run(s->sim, FREE_SLICE);
      if (st != TALLY_STOP_LIMIT) {
        program_ended(s, st);
        return;
      }
      if (gdb_trigger_stop(s, out, sizeof out)) {
        gdb_put_packet(s, out);
        return;
      }
    } else if (one_instruction(s, step)) {
      return;
    }
    if ((free_run || n % POLL_EVERY == 0) && (client_interrupts(s) || (s->interrupted && *s->interrupted))) {
      if (!s->gone)
        gdb_put_packet(s, "S02");
      return;
    }
  }
}

/* ----------------------------------------------------- monitor commands */

/* "SIGNAL@FUNCTION": the signal's count in the function's own
 * instructions so far, from the exact profile (tally_profile_take is a
 * snapshot; the run goes on). */
static void count_in_function(gdb_session *s, const char *spec, char *text, size_t size) {
  const char *at = strchr(spec, '@');
  char sig[64];
  if (!at || (size_t)(at - spec) >= sizeof sig) {
    snprintf(text, size, "expected count SIGNAL@FUNCTION\n");
    return;
  }
  memcpy(sig, spec, (size_t)(at - spec));
  sig[at - spec] = '\0';
  int id = tally_signal_lookup(sig);
  if (id < 0) {
    snprintf(text, size, "no signal named '%s' (tally signals lists them)\n", sig);
    return;
  }
  tally_profile *p = tally_profile_take(s->sim);
  if (!p) {
    snprintf(text, size, "no counts by function: the run has no core model (use --core)\n");
    return;
  }
  const tally_func_profile *f;
  size_t n = tally_profile_functions(p, &f);
  snprintf(text, size, "no function named '%s' (tally symbols lists them)\n", at + 1);
  for (size_t i = 0; i < n; i++)
    if (!strcmp(f[i].name, at + 1)) {
      snprintf(text, size, "%llu\n", (unsigned long long)f[i].self[id]);
      break;
    }
  tally_profile_free(p);
}

/* `monitor stats`: tally run --stats's report of the run so far. */
static void stats_text(gdb_session *s) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) {
    gdb_console(s, "out of memory\n");
    return;
  }
  tally_export_stats(s->sim, false, 0, f, NULL);
  fclose(f);
  gdb_console(s, buf && len ? buf : "no statistics: the run has no core model (use --core)\n");
  free(buf);
}

static void monitor(gdb_session *s, const char *hex) {
  char cmd[256];
  size_t n = 0;
  while (hex[0] && hex[1] && n < sizeof cmd - 1) {
    int h = gdb_hexval((unsigned char)hex[0]), l = gdb_hexval((unsigned char)hex[1]);
    if (h < 0 || l < 0) {
      gdb_put_packet(s, "E01");
      return;
    }
    cmd[n++] = (char)(h << 4 | l);
    hex += 2;
  }
  cmd[n] = '\0';
  char text[8192];
  if (!strcmp(cmd, "cycles")) {
    snprintf(text, sizeof text, "%llu\n", (unsigned long long)tally_cycles(s->sim));
  } else if (!strcmp(cmd, "instret")) {
    snprintf(text, sizeof text, "%llu\n", (unsigned long long)tally_instret(s->sim));
  } else if (!strcmp(cmd, "stats")) {
    stats_text(s);
    gdb_put_packet(s, "OK");
    return;
  } else if (!strcmp(cmd, "signals") || !strncmp(cmd, "signal ", 7)) {
    uint64_t totals[128] = {0};
    int count = tally_signal_count();
    if (count > 128)
      count = 128;
    tally_signal_totals(s->sim, totals);
    size_t k = 0;
    text[0] = '\0';
    for (int i = 0; i < count && k < sizeof text; i++)
      if (cmd[6] == 's' || !strcmp(cmd + 7, tally_signal_name(i)))
        k += (size_t)snprintf(text + k, sizeof text - k, "%s %llu\n", tally_signal_name(i),
                              (unsigned long long)totals[i]);
    if (!k)
      snprintf(text, sizeof text, "no signal named '%s' (tally signals lists them)\n", cmd + 7);
  } else if (!strncmp(cmd, "count ", 6)) {
    count_in_function(s, cmd + 6, text, sizeof text);
  } else {
    snprintf(text, sizeof text,
             "tally monitor commands:\n"
             "  cycles         cycles so far (the cycles before the next instruction starts)\n"
             "  instret        instructions retired so far\n"
             "  stats          what tally run --stats prints, so far (cycles, CPI, caches,\n"
             "                 energy, every signal)\n"
             "  signals        every signal's total so far\n"
             "  signal NAME    one signal's total so far\n"
             "  count SIGNAL@FUNCTION  SIGNAL's count in FUNCTION's own instructions so far\n"
             "                 (timed runs: from the exact profile kept while GDB is attached)\n");
  }
  gdb_console(s, text);
  gdb_put_packet(s, "OK");
}

/* ------------------------------------------------------------- queries */

/* "OFF,LEN": that piece of the target description, 'm' before it when
 * more follows, 'l' when it is the last. */
static void target_xml_piece(gdb_session *s, const char *range) {
  uint32_t off, len;
  if (!gdb_parse_range(range, &off, &len, NULL)) {
    gdb_put_packet(s, "E01");
    return;
  }
  _Static_assert(TARGET_XML_MAX > PACKET_MAX, "the description comes in pieces");
  char *xml = malloc(TARGET_XML_MAX);
  if (!xml) {
    gdb_put_packet(s, "E0c");
    return;
  }
  size_t n = gdb_target_xml(s, xml, TARGET_XML_MAX);
  if (len > PACKET_MAX - 2)
    len = PACKET_MAX - 2;
  char out[PACKET_MAX + 1];
  if (off >= n) {
    gdb_put_packet(s, "l");
  } else {
    size_t k = n - off < len ? n - off : len;
    out[0] = off + k >= n ? 'l' : 'm';
    memcpy(out + 1, xml + off, k);
    out[1 + k] = '\0';
    gdb_put_packet(s, out);
  }
  free(xml);
}

static void query(gdb_session *s, const char *q) {
  if (!strncmp(q, "qSupported", 10)) {
    char out[80];
    s->hwbreak_ok = strstr(q, "hwbreak+") != NULL;
    snprintf(out, sizeof out, "PacketSize=%x;qXfer:features:read+%s", PACKET_MAX, s->hwbreak_ok ? ";hwbreak+" : "");
    gdb_put_packet(s, out);
  } else if (!strncmp(q, "qXfer:features:read:target.xml:", 31)) {
    target_xml_piece(s, q + 31);
  } else if (!strncmp(q, "qRcmd,", 6)) {
    monitor(s, q + 6);
  } else if (!strcmp(q, "qAttached")) {
    gdb_put_packet(s, "1");
  } else if (!strcmp(q, "qC")) {
    gdb_put_packet(s, "QC1");
  } else if (!strcmp(q, "qfThreadInfo")) {
    gdb_put_packet(s, "m1");
  } else if (!strcmp(q, "qsThreadInfo")) {
    gdb_put_packet(s, "l");
  } else {
    gdb_put_packet(s, "");
  }
}

/* ------------------------------------------------------------- session */

/* Handles one packet; false when the session is over. */
static bool handle(gdb_session *s) {
  const char *p = s->in;
  switch (p[0]) {
  case '?':
    if (s->ended)
      reply_end(s);
    else
      gdb_put_packet(s, "S05");
    return true;
  case 'g': gdb_read_all_regs(s); return true;
  case 'G': gdb_write_all_regs(s, p + 1); return true;
  case 'p': gdb_read_reg(s, p + 1); return true;
  case 'P': gdb_write_reg(s, p + 1); return true;
  case 'm': read_memory(s, p + 1); return true;
  case 'M': write_memory(s, p + 1); return true;
  case 'c': resume(s, false); return !s->gone;
  case 's': resume(s, true); return !s->gone;
  case 'Z': gdb_breakpoint(s, p + 1, true); return true;
  case 'z': gdb_breakpoint(s, p + 1, false); return true;
  case 'q': query(s, p); return true;
  case 'H': case 'T': gdb_put_packet(s, "OK"); return true;
  case 'D': gdb_put_packet(s, "OK"); s->detached = true; return false;
  case 'k': return false;
  default: gdb_put_packet(s, ""); return true; /* not supported: GDB falls back */
  }
}

int tally_gdb_serve(tally_gdb *g, tally_sim *sim, volatile sig_atomic_t *interrupted, tally_gdb_result *r) {
  r->stop = TALLY_STOP_LIMIT;
  r->detached = false;
  r->err[0] = '\0';
  tally_error err;
  int fd = gdb_accept(g, interrupted, &err);
  if (fd < 0) {
    snprintf(r->err, sizeof r->err, "%.190s", err.msg);
    return -1;
  }
  gdb_session *s = calloc(1, sizeof *s);
  if (!s) {
    close(fd);
    snprintf(r->err, sizeof r->err, "out of memory");
    return -1;
  }
  int one = 1; /* small packets at once: a stop reply must not wait for an ack of the last one */
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  s->sim = sim;
  s->fd = fd;
  s->interrupted = interrupted;
  s->stop = TALLY_STOP_LIMIT;
  gdb_regs_init(s);
  while (!s->gone && !(interrupted && *interrupted) && gdb_get_packet(s) && handle(s))
    ;
  gdb_release_triggers(s); /* the program's own again, whoever left */
  r->stop = s->ended ? s->stop : TALLY_STOP_LIMIT;
  r->detached = s->detached && !s->ended;
  close(fd);
  free(s);
  return 0;
}
